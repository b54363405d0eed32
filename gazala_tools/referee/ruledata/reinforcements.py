"""``rules.reinforcements``: the reinforcement schedule and its entry hexes."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from gazala_tools.referee.ruledata.filters import HexSet
from gazala_tools.referee.ruledata.section import RulesSection
from gazala_tools.yamlnodes import did_you_mean

__all__ = [
    "ENTRY_BLOCKS",
    "REINFORCEMENT_KEYS",
    "WHEN_BLOCKED",
    "Arrival",
    "ReinforcementRules",
    "read_reinforcements",
]


@dataclass(frozen=True, slots=True)
class Arrival:
    """One line of a reinforcement schedule."""

    turn: int  #: turn index
    enter: HexSet  #: where the unit(s) arrive (empty: the rules do not say)
    units: tuple[str, ...] = ()
    values: str | None = None  #: printed values of the unit(s), e.g. ``"5-4-15"`` (DG 11.1)
    side: str | None = None
    what: str = ""
    formations: tuple[str, ...] = ()  #: every unit of these formations ("29 Ind-all units", RG 15.1)
    rule: str | None = None  #: the section of this line, when not the schedule's (BG 11.1.4)


@dataclass(frozen=True, slots=True)
class ReinforcementRules:
    rule: str
    entry_rule: str
    schedule: tuple[Arrival, ...]
    #: the units arriving in one hex on their turn share it beyond the stacking limit (DG 11.1/11.3:
    #: two reinforcements in 1201 on turn 6 although DG has no stacking); the rule the exception cites
    stack_on_arrival: str | None = None
    #: ``at-entry: true``: a unit on the map on its arrival turn stands in its entry hexes (the rules
    #: let it move no further that turn); false (default): it may have moved on from them
    at_entry: bool = False
    #: what makes an entry hex unusable (``entry-blocked-by``): ``enemy-units``, ``enemy-zoc``
    blocked_by: frozenset[str] = frozenset({"enemy-units"})
    #: when every entry hex is blocked (``when-blocked``): ``wait`` (until one is free), ``delay``
    #: (one turn), ``shift`` (to the nearest free hex of the same edge or entry area)
    when_blocked: str = "wait"


def read_reinforcements(s: RulesSection) -> ReinforcementRules | None:
    if not s:
        return None
    s.require("schedule")
    rule = s.rule("rule", "reinforcements")
    schedule: list[Arrival] = []
    for e in s.each("schedule", frozenset({"turn", "units", "values", "formations", "side", "enter", "what", "rule"})):
        e.require("turn")
        units = e.names("units")
        formations = e.names("formations")
        values = e.text("values", "") or None
        if not (units or values or formations):
            raise e.err(None, "names no unit", expected="units: [ids], formations: [names] and/or values: '5-4-15'")
        if values is not None and not re.fullmatch(r"\d+(?:-\d+){1,5}", values):
            raise e.err("values", f"{values!r} is not a printed-values code", expected="numbers joined by '-', e.g. 5-4-15")
        enter = e.hexset("enter") if "enter" in e else HexSet(frozenset(), "")
        names = [*formations, *units]
        schedule.append(Arrival(
            turn=e.turn("turn"),
            enter=enter,
            units=units,
            values=values,
            side=e.side("side") if "side" in e else None,
            what=e.text("what", " ".join(x for x in (values, f"({', '.join(names)})" if values and names
                                                         else ", ".join(names)) if x)),
            formations=formations,
            rule=e.rule("rule") if "rule" in e else None,
        ))
    together = s.text("stack-on-arrival", "") or None
    blocked = s.names("entry-blocked-by") if "entry-blocked-by" in s else ("enemy-units",)
    for i, b in enumerate(blocked):
        if b not in ENTRY_BLOCKS:
            raise s.err("entry-blocked-by", f"[{i}] {b!r} is not what blocks an entry hex{did_you_mean(b, ENTRY_BLOCKS)}",
                        expected=", ".join(ENTRY_BLOCKS))
    return ReinforcementRules(rule, s.rule("entry-rule", rule), tuple(schedule), together,
                              s.boolean("at-entry", False), frozenset(blocked),
                              s.choice("when-blocked", WHEN_BLOCKED, "wait"))


REINFORCEMENT_KEYS: Final = frozenset({"rule", "entry-rule", "schedule", "at-entry", "stack-on-arrival",
                                       "entry-blocked-by", "when-blocked"})
ENTRY_BLOCKS: Final = ("enemy-units", "enemy-zoc")
WHEN_BLOCKED: Final = ("wait", "delay", "shift")
