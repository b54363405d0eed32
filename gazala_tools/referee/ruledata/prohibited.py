"""``rules.prohibited``: hexes units may not enter and hexsides they may not cross."""

from __future__ import annotations

from dataclasses import dataclass

from gazala_tools.hexes import Hexside
from gazala_tools.referee.ruledata.filters import HexSet, UnitFilter
from gazala_tools.referee.ruledata.section import Section

__all__ = ["Prohibition", "read_prohibition"]


@dataclass(frozen=True, slots=True)
class Prohibition:
    """Units of ``units`` may not stand in ``enter`` hexes nor cross ``cross`` hexsides."""

    rule: str
    units: UnitFilter
    enter: HexSet
    cross: frozenset[Hexside]
    what: str


def read_prohibition(s: Section) -> Prohibition:
    s.require("rule")
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
