"""The referee: a game's rules plugin applied to a position, every finding at once.

:class:`RulesPlugin` is what a game provides (``gazala_tools.rules.<game>``): data tables and small
named hooks. The core here knows no game: it builds the :class:`Context` (units by hex, ZOC per
side, the map's adjacency), runs the plugin's supply, LOC, VP hooks and checks, and collects a
:class:`~gazala_tools.referee.report.Report`. Adding a game means writing a plugin and registering
it; nothing here changes.

Generic checks every plugin can list (:func:`check_on_map`, :func:`check_enemy_share`,
:func:`check_stacking`) and the supply helpers (:func:`trace`, :func:`marker_flow`) live here too.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar

from gazala_tools.hexes import Hex
from gazala_tools.referee.findings import Finding, Severity
from gazala_tools.referee.position import ISOLATED, OUT_OF_SUPPLY, Position, Unit, units_by_hex
from gazala_tools.referee.report import LocReport, MarkerChange, Report, ReportPath, SupplyStatus
from gazala_tools.referee.search import Cost, SearchResult, Topology, multi_source_search
from gazala_tools.referee.zoc import zoc_map

if TYPE_CHECKING:  # pragma: no cover
    from gazala_tools.mapdata.model import GameMap

log = logging.getLogger(__name__)

Check = Callable[["Context"], Iterable[Finding]]


def normalise_turn(label: str) -> str:
    """Compare turn labels loosely: case, spaces, 'Jun'/'June', 'AM'/'a'."""
    s = label.strip().lower().replace("june", "jun").replace(" ", "")
    s = re.sub(r"(\d)am$", r"\1a", s)
    s = re.sub(r"(\d)pm$", r"\1p", s)
    return s


@dataclass
class SupplyOutcome:
    status: dict[str, SupplyStatus]
    markers: list[MarkerChange] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    reached: dict[str, SearchResult] = field(default_factory=dict)


class RulesPlugin:
    """Base class of a game's rules. Subclass, set the class data, override the hooks you need.

    An instance is bound to one map (``__init__`` precomputes whatever is static, e.g. blocked
    hexsides); :class:`Referee` then checks any number of positions with it.
    """

    game: ClassVar[str] = ""
    sides: ClassVar[tuple[str, str]] = ("axis", "allied")
    turns: ClassVar[tuple[str, ...]] = ()  #: the turn record, in order
    #: the game's own top-level position-YAML keys, kept in ``Position.extra`` (unit-id lists,
    #: mappings of unit ids / sides to scalars, or scalars) ...
    extra_keys: ClassVar[frozenset[str]] = frozenset()
    #: ... and those of them that are lists of hex labels (kept as a frozenset of hexes)
    extra_hex_keys: ClassVar[frozenset[str]] = frozenset()

    def __init__(self, game_map: GameMap) -> None:
        self.map = game_map
        self.topology = Topology(game_map.hexes())
        self._turns = {normalise_turn(t): i for i, t in enumerate(self.turns)}

    # --- turns -----------------------------------------------------------------------------------
    def turn_index(self, label: str | None) -> int | None:
        """Index of a turn label in :attr:`turns` (None if no label or unknown)."""
        if label is None:
            return None
        return self._turns.get(normalise_turn(label))

    def turn_at_least(self, ctx: Context, label: str) -> bool:
        """Has the position's turn reached ``label``? False when the turn is unknown."""
        if ctx.turn_index is None:
            return False
        want = self.turn_index(label)
        return want is not None and ctx.turn_index >= want

    def enemy(self, side: str) -> str:
        a, b = self.sides
        return b if side == a else a

    # --- hooks -----------------------------------------------------------------------------------
    def exerts_zoc(self, ctx: Context, unit: Unit) -> bool:
        return True

    def zoc_projects(self, a: Hex, b: Hex) -> bool:
        return True

    def checks(self) -> Sequence[Check]:
        return ()

    def supply(self, ctx: Context) -> SupplyOutcome | None:
        return None

    def loc(self, ctx: Context) -> tuple[LocReport | None, list[Finding]]:
        return None, []

    def vp(self, ctx: Context) -> tuple[dict[str, object], list[Finding]]:
        return {}, []

    def compare(self, before: Context, after: Context) -> Iterable[Finding]:
        """Rules about what happened between two positions (``check(position, before=...)``)."""
        return ()


class Context:
    """One position on one map, with the lookups every check needs, computed once."""

    def __init__(self, rules: RulesPlugin, position: Position) -> None:
        self.rules = rules
        self.map = rules.map
        self.topology = rules.topology
        self.position = position
        self.turn_index = rules.turn_index(position.turn)
        # units of a hex sorted by id: findings do not depend on the order an input lists units in
        self.by_hex: dict[Hex, list[Unit]] = {h: sorted(us, key=lambda u: u.id)
                                              for h, us in units_by_hex(position.units).items()}
        self.hexes_of: dict[str, set[Hex]] = {s: set() for s in rules.sides}
        for h, us in self.by_hex.items():
            for u in us:
                self.hexes_of.setdefault(u.side, set()).add(h)
        self._zoc: dict[str, dict[Hex, list[str]]] = {}
        #: lines the report draws (victory paths, recovery lines...): hooks add them with :meth:`add_path`
        self.paths: list[ReportPath] = []

    def add_path(self, kind: str, label: str, hexes: Iterable[Hex], side: str = "") -> None:
        """Show ``hexes`` (in order) as a line of ``kind`` in the report and its picture."""
        self.paths.append(ReportPath(kind, label, tuple(self.map.label(h) for h in hexes), side))

    def label(self, h: Hex) -> str:
        return self.map.label(h)

    def labels(self, hexes: Iterable[Hex]) -> tuple[str, ...]:
        return tuple(sorted({self.map.label(h) for h in hexes}))

    def units(self, side: str | None = None) -> list[Unit]:
        return [u for u in self.position.units if side is None or u.side == side]

    def on_map(self, side: str | None = None) -> list[Unit]:
        return [u for u in self.position.units if u.hex is not None and (side is None or u.side == side)]

    def zoc(self, side: str) -> dict[Hex, list[str]]:
        """Hexes in ``side``'s ZOC -> ids of the units exerting it."""
        got = self._zoc.get(side)
        if got is None:
            got = zoc_map(
                self.on_map(side),
                self.topology,
                exerts=lambda u: self.rules.exerts_zoc(self, u),
                projects=self.rules.zoc_projects,
            )
            self._zoc[side] = got
        return got


class Referee:
    """Checks positions of one game on one map: ``Referee(rules).check(position) -> Report``."""

    def __init__(self, rules: RulesPlugin) -> None:
        self.rules = rules

    def check(self, position: Position, before: Position | None = None) -> Report:
        """Every finding of ``position``; with ``before`` (an earlier position of the same game) also
        the plugin's two-position rules (:meth:`RulesPlugin.compare`)."""
        ctx = Context(self.rules, position)
        report = Report(game=position.game, turn=position.turn, source=position.source)
        findings: list[Finding] = []
        if position.turn is not None and ctx.turn_index is None and self.rules.turns:
            findings.append(
                Finding("turn", Severity.WARNING,
                        f"unknown turn {position.turn!r}: date-dependent rules are skipped",
                        data={"known": list(self.rules.turns)})
            )
        supply = self.rules.supply(ctx)
        if supply is not None:  # sorted by unit id: the same report whatever order the input lists units in
            report.supply = dict(sorted(supply.status.items()))
            report.markers = sorted(supply.markers, key=lambda m: m.unit)
            findings.extend(supply.findings)
        report.loc, loc_findings = self.rules.loc(ctx)
        findings.extend(loc_findings)
        report.vp, vp_findings = self.rules.vp(ctx)
        findings.extend(vp_findings)
        for check in self.rules.checks():
            findings.extend(check(ctx))
        if before is not None:
            findings.extend(self.rules.compare(Context(self.rules, before), ctx))
        report.paths = list(ctx.paths)
        report.findings = sorted(findings, key=Finding.sort_key)
        report.zoc_hexes = {s: frozenset(ctx.zoc(s)) for s in self.rules.sides}
        report.label = self.rules.map.label
        return report


# --- generic checks ----------------------------------------------------------------------------
def check_on_map(ctx: Context, rule: str, box_ok: Callable[[Unit], bool]) -> Iterable[Finding]:
    """Units stand on map hexes, or in an off-map box ``box_ok`` accepts."""
    for u in ctx.position.units:
        if u.hex is None:
            if not box_ok(u):
                yield Finding(rule, Severity.ERROR, f"{u.id} is off the map in {u.box!r}, not a box the rules allow",
                              units=(u.id,))
        elif u.hex not in ctx.topology:
            yield Finding(rule, Severity.ERROR, f"{u.id} is off the map at {ctx.label(u.hex)}",
                          units=(u.id,), hexes=(ctx.label(u.hex),))
        elif not ctx.map.passable(u.hex):
            yield Finding(rule, Severity.ERROR, f"{u.id} stands in impassable terrain at {ctx.label(u.hex)}",
                          units=(u.id,), hexes=(ctx.label(u.hex),))


def check_enemy_share(ctx: Context, rule: str) -> Iterable[Finding]:
    """Enemy units never share a hex."""
    for h, us in ctx.by_hex.items():
        sides = {u.side for u in us}
        if len(sides) > 1:
            yield Finding(rule, Severity.ERROR,
                          f"enemy units share hex {ctx.label(h)}: " + ", ".join(f"{u.id} ({u.side})" for u in us),
                          units=tuple(sorted(u.id for u in us)), hexes=(ctx.label(h),))


def check_stacking(ctx: Context, rule: str, problem: Callable[[list[Unit]], str | None], *,
                   per_side: bool = False) -> Iterable[Finding]:
    """Each hex's stack against the game's limit; ``problem(units)`` says what is wrong, or None.

    ``per_side``: each side's units of a hex are a stack of their own (enemy units in one hex are
    :func:`check_enemy_share`'s finding, not an over-stack).
    """
    for h, all_units in ctx.by_hex.items():
        stacks = ([[u for u in all_units if u.side == s] for s in sorted({u.side for u in all_units})]
                  if per_side else [all_units])
        for us in stacks:
            if len(us) < 2:
                continue
            msg = problem(us)
            if msg is not None:
                yield Finding(rule, Severity.ERROR, f"{ctx.label(h)}: {msg}", units=tuple(sorted(u.id for u in us)),
                              hexes=(ctx.label(h),))


# --- supply helpers ----------------------------------------------------------------------------
def trace(ctx: Context, sources: Iterable[Hex], cost: Cost, *, within: Callable[[Hex], bool] | None = None) -> SearchResult:
    """One multi-source search from ``sources``, traced from a unit towards them (reverse)."""
    return multi_source_search(ctx.topology, sources, cost, reverse=True, within=within)


def marker_flow(unit: Unit, traced: bool, rule: str) -> tuple[SupplyStatus, MarkerChange | None]:
    """The Out of Supply -> Isolated marker flow of the supply phase (RG 5.0 and its family).

    Traced: in supply, any marker removed. Not traced: Out of Supply, or Isolated if the unit was
    already Out of Supply (or Isolated).
    """
    had_out, had_iso = unit.has(OUT_OF_SUPPLY), unit.has(ISOLATED)
    if traced:
        if had_iso:
            return SupplyStatus.IN, MarkerChange(unit.id, remove=ISOLATED, rule=rule)
        if had_out:
            return SupplyStatus.IN, MarkerChange(unit.id, remove=OUT_OF_SUPPLY, rule=rule)
        return SupplyStatus.IN, None
    if had_iso:  # an Out of Supply marker beside the Isolated one goes: the unit is now Isolated
        return SupplyStatus.ISOLATED, (MarkerChange(unit.id, remove=OUT_OF_SUPPLY, rule=rule) if had_out else None)
    if had_out:
        return SupplyStatus.ISOLATED, MarkerChange(unit.id, add=ISOLATED, remove=OUT_OF_SUPPLY, rule=rule)
    return SupplyStatus.OUT, MarkerChange(unit.id, add=OUT_OF_SUPPLY, rule=rule)
