"""The referee's answer for one position: findings, supply, VP, ZOC, marker changes and the rules
plugin's own sections.

Plain data with a ``to_dict()`` that is the JSON format of ``gazala referee check --json``::

    {"game", ["scenario" when given,] "turn", "findings": [{rule, severity, units, hexes, message}],
     "supply": {unit id: "in" | "out" | "isolated"},
     <the plugin's sections, each under its key, e.g. RG "loc": {"required", "traced", ...}>,
     "vp": {...}, "markers": [{"unit", "add", "remove"}],
     "paths": [{"kind", "label", "side", "hexes"}], "zoc": {side: [hex, ...]}}
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from gazala_tools.hexes import Hex
from gazala_tools.referee.findings import Finding, Severity

__all__ = ["MarkerChange", "Report", "ReportPath", "ReportSection", "SupplyStatus"]


class SupplyStatus(enum.Enum):
    IN = "in"
    OUT = "out"
    ISOLATED = "isolated"


@dataclass(frozen=True, slots=True)
class MarkerChange:
    """A marker the rules require to change on a unit (``add``/``remove`` marker names)."""

    unit: str
    add: str | None = None
    remove: str | None = None
    rule: str = ""

    def to_dict(self) -> dict[str, object]:
        return {"unit": self.unit, "add": self.add, "remove": self.remove, "rule": self.rule}


class ReportSection(Protocol):
    """A rules plugin's own part of a report (RG: the LOC of 14.2), shown by every renderer.

    ``title``: the HTML heading; ``path_kinds``: the kinds of :attr:`Report.paths` the section
    lists itself (the renderers do not list them again). Texts are plain: the renderers escape them.
    """

    @property
    def title(self) -> str: ...

    @property
    def path_kinds(self) -> Sequence[str]: ...

    def to_dict(self) -> object:
        """The section's JSON value."""
        ...

    def text_lines(self) -> list[str]:
        """The section in the text report."""
        ...

    def html_parts(self) -> tuple[str, list[str]]:
        """The section in the HTML report: a sentence and list items."""
        ...


@dataclass(frozen=True)
class ReportPath:
    """A named line of hexes the report shows (an LOC, a victory path, a recovery line...).

    ``kind`` says what it is (``loc``, ``victory``, ``recovery``: renderers colour by kind),
    ``label`` what to tell a reader, ``side`` whose it is ("" if nobody's).
    """

    kind: str
    label: str
    hexes: tuple[str, ...]
    side: str = ""

    def to_dict(self) -> dict[str, object]:
        return {"kind": self.kind, "label": self.label, "side": self.side, "hexes": list(self.hexes)}


@dataclass
class Report:
    game: str
    turn: str | None
    findings: list[Finding] = field(default_factory=list)
    supply: dict[str, SupplyStatus] = field(default_factory=dict)
    #: the rules plugin's own sections by JSON key (RG ``loc``), in the order reports show them
    sections: dict[str, ReportSection] = field(default_factory=dict)
    vp: dict[str, object] = field(default_factory=dict)
    markers: list[MarkerChange] = field(default_factory=list)
    paths: list[ReportPath] = field(default_factory=list)  #: lines to draw: LOCs and the plugin's paths
    zoc_hexes: dict[str, frozenset[Hex]] = field(default_factory=dict)
    label: Callable[[Hex], str] | None = None
    source: str = ""
    #: rules that could not be checked: what the header lists ("RULE what")
    unchecked: list[str] = field(default_factory=list)
    #: why an ``unchecked`` entry was not checked, when not for want of a turn (a position shows no
    #: moves; a two-position rule without ``--before``)
    unchecked_why: dict[str, str] = field(default_factory=dict)
    #: the VP as sentences (the plugin's ``vp_sentences``; empty: the renderer's generic ones)
    vp_text: list[str] = field(default_factory=list)
    #: the section of the game's supply rule (None: the game has none, so no supply line is printed)
    supply_rule: str | None = None
    #: ``--mapping``: names of the pieces that look like units but matched no pattern (None: no mapping)
    unmatched: list[str] | None = None
    #: each side's colour from the game's ``game.yaml`` (``#rrggbb``; the picture draws its units so)
    side_colours: dict[str, str] = field(default_factory=dict)
    #: the name of the scenario the position belongs to (``--scenario``; "" when not given)
    scenario: str = ""
    _zoc: dict[str, list[str]] | None = field(default=None, repr=False)

    @property
    def zoc(self) -> dict[str, list[str]]:
        """Hex labels in each side's ZOC, sorted (9.0)."""
        if self._zoc is None:
            lab = self.label or str
            self._zoc = {s: sorted(lab(h) for h in hs) for s, hs in self.zoc_hexes.items()}
        return self._zoc

    @property
    def legal(self) -> bool:
        """No ERROR finding."""
        return not any(f.severity is Severity.ERROR for f in self.findings)

    def errors(self) -> list[Finding]:
        return [f for f in self.findings if f.severity is Severity.ERROR]

    def by_rule(self, rule: str) -> list[Finding]:
        """Findings citing ``rule`` exactly or a sub-section of it (``"14"`` matches ``"14.1"``)."""
        return [f for f in self.findings if f.rule == rule or f.rule.startswith(rule + ".")]

    def unchecked_reasons(self) -> list[str]:
        """Each unchecked rule with why (``"8.0 movement points (move allowance): a position shows no
        moves ..."``); a rule unchecked for want of a turn as it is."""
        return [f"{u}: {self.unchecked_why[u]}" if u in self.unchecked_why else u for u in self.unchecked]

    def unchecked_by_reason(self) -> dict[str, list[str]]:
        """The unchecked rules grouped by why, ``"no turn given"`` first (the text header's lines)."""
        out: dict[str, list[str]] = {}
        for u in self.unchecked:
            out.setdefault(self.unchecked_why.get(u, "no turn given"), []).append(u)
        return out

    def section_path_kinds(self) -> frozenset[str]:
        """The kinds of paths the plugin's sections list themselves."""
        return frozenset(k for s in self.sections.values() for k in s.path_kinds)

    def to_dict(self) -> dict[str, object]:
        return {
            "game": self.game,
            **({"scenario": self.scenario} if self.scenario else {}),
            "turn": self.turn,
            "source": self.source,
            "legal": self.legal,
            "unchecked": self.unchecked_reasons(),
            "unmatched_pieces": self.unmatched,
            "findings": [f.to_dict() for f in self.findings],
            "supply": {k: v.value for k, v in self.supply.items()},
            **{key: section.to_dict() for key, section in self.sections.items()},
            "vp": self.vp,
            "markers": [m.to_dict() for m in self.markers],
            "paths": [p.to_dict() for p in self.paths],
            "zoc": self.zoc,
        }
