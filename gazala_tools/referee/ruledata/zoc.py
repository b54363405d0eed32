"""``rules.zoc``: zones of control."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Final

import yaml

from gazala_tools.hexes import Hex, Hexside
from gazala_tools.referee.ruledata.filters import ANY_UNIT, UnitFilter
from gazala_tools.referee.ruledata.section import RulesSection
from gazala_tools.yamlnodes import did_you_mean

__all__ = ["MOVED_ZOC_KEYS", "ZOC_KEYS", "ZOC_NEGATION", "ZocRules", "read_zoc"]


@dataclass(frozen=True, slots=True)
class ZocRules:
    exert: bool = True
    units: UnitFilter = ANY_UNIT  #: the units that exert a ZOC
    sides: frozenset[Hexside] = frozenset()  #: a ZOC does not extend across these hexsides
    uphill: Mapping[Hex, frozenset[Hex]] = field(default_factory=dict)  #: low hex -> high hexes it does not reach
    into: frozenset[Hex] = frozenset()  #: hexes no ZOC extends into
    exempt: UnitFilter | None = None  #: units that exert none (HQs, artillery)
    name: str = ""  #: the game's own name for the zone (messages; "" not given: "zone of control")
    rule: str = "zoc"  #: the rule the zone's findings cite
    #: what a friendly unit standing in an enemy-zone hex negates there: supply, movement (or nothing)
    negated_for: frozenset[str] = frozenset()


def read_zoc(root: RulesSection) -> ZocRules:
    if "zoc" not in root:
        return ZocRules()
    node = root.m["zoc"]
    if isinstance(node, yaml.ScalarNode):
        return ZocRules(exert=root.boolean("zoc", True))
    s = root.sub("zoc", ZOC_KEYS | MOVED_ZOC_KEYS.keys())
    for old, where in MOVED_ZOC_KEYS.items():
        if old in s:
            raise s.err(old, "has moved", expected=where)
    negated = s.names("negated-by-friendly")
    for i, purpose in enumerate(negated):
        if purpose not in ZOC_NEGATION:
            raise s.err("negated-by-friendly", f"[{i}] {purpose!r} is not what a zone is negated for"
                        f"{did_you_mean(purpose, ZOC_NEGATION)}", expected=", ".join(ZOC_NEGATION))
    name = s.text("name", "").strip()
    if "name" in s and (not name or "\n" in name or len(name) > 60):
        raise s.err("name", f"{name!r} is not a name for the zone", expected="one line of 1 to 60 characters")
    uphill: dict[Hex, set[Hex]] = {}
    m = s.r.map
    for kind in s.hexside_kinds("uphill", directed=True):
        for side in m.feature_sides(kind):
            f = m.feature(side, kind)
            if f is not None and f.up is not None:
                uphill.setdefault(side.other(f.up), set()).add(f.up)
    return ZocRules(
        exert=s.boolean("exert", True),
        units=s.units("units"),
        sides=s.crossing("hexsides"),
        uphill={k: frozenset(v) for k, v in uphill.items()},
        into=s.hexset("into").hexes,
        exempt=s.units("exempt") if "exempt" in s else None,
        name=name,
        rule=s.rule("rule", "zoc"),
        negated_for=frozenset(negated),
    )


ZOC_KEYS: Final = frozenset({"exert", "units", "hexsides", "except-along", "uphill", "into", "exempt",
                             "name", "rule", "negated-by-friendly"})
#: keys that said a fact another key states too, and where it is stated now (exit 2 naming it)
MOVED_ZOC_KEYS: Final = {
    "unless-markers": "rules.markers: {MARKER: {zoc: false}} (what a marker does is stated with the marker)"}


#: what a friendly unit in an enemy-zone hex may negate the zone for (``zoc.negated-by-friendly``)
ZOC_NEGATION: Final = ("supply", "movement")
