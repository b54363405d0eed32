"""``rules.prohibited``: hexes units may not enter and hexsides they may not cross."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from gazala_tools.hexes import Hexside
from gazala_tools.referee.ruledata.filters import HexSet, UnitFilter
from gazala_tools.referee.ruledata.section import RulesSection

__all__ = [
    "CHART_HEX_KEYS",
    "Prohibition",
    "read_prohibition",
]


@dataclass(frozen=True, slots=True)
class Prohibition:
    """Units of ``units`` may not stand in ``enter`` hexes nor cross ``cross`` hexsides."""

    rule: str
    units: UnitFilter
    enter: HexSet
    cross: frozenset[Hexside]
    what: str


#: ``prohibited[].enter`` keys naming a kind of hex: the Terrain Effects Chart's (a ``P`` cell), stated there once
CHART_HEX_KEYS: Final = ("terrain", "box-kinds")


def read_prohibition(s: RulesSection) -> Prohibition:
    """``prohibited[]``: units may not stand in (enter) a set of hexes the chart cannot name (hexes,
    zones, places, boxes, edges: RG 8.1's zone), nor cross hexside kinds. A kind of hex (a terrain
    type, a kind of box or place) is the chart's: ``terrain-effects.terrain: {KIND: {cost: P, units}}``."""
    s.require("rule")
    enter_keys = s.sub("enter")
    for key in CHART_HEX_KEYS:
        if key in enter_keys:
            raise enter_keys.err(key, "has moved: a kind of hex is priced by the Terrain Effects Chart",
                                 expected="rules.terrain-effects.terrain: {KIND: {cost: P, units: UNITS, rule, what}} "
                                 "(prohibited.enter keeps what the chart cannot name: hexes, zones, places, boxes, edges)")
    if "enter" not in s and "cross" not in s:
        raise s.err(None, "names nothing prohibited", expected="enter (hexes) or cross (hexside kinds)")
    if "except-along" in s and "cross" not in s:
        raise s.err("except-along", "only applies to 'cross'")
    enter = s.hexset("enter")
    return Prohibition(
        rule=s.rule(),
        units=s.units("units"),
        enter=enter,
        cross=s.crossing("cross"),
        what=s.text("what", enter.text or "prohibited terrain"),
    )
