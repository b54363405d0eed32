"""``rules.control``: who controls a hex."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from gazala_tools.hexes import Hex
from gazala_tools.referee.ruledata.section import RulesSection

__all__ = ["ControlRules", "read_control"]


@dataclass(frozen=True, slots=True)
class ControlRules:
    """Who controls a hex (``rules.control``): ``by: occupation`` (the side with a unit in it now) or
    ``by: last-entered`` (the side that last entered it, from a log; a single position falls back on
    occupation); otherwise its starting owner (``start``)."""

    rule: str
    by: str = "occupation"
    start: Mapping[str, frozenset[Hex]] = field(default_factory=dict)

    def starting_owner(self, h: Hex) -> str | None:
        return next((side for side, hexes in self.start.items() if h in hexes), None)


def read_control(s: RulesSection) -> ControlRules | None:
    if not s:
        return None
    start = s.sub("start")
    return ControlRules(
        rule=s.rule("rule", "control"),
        by=s.choice("by", ("occupation", "last-entered"), "occupation"),
        start={side: start.hexset(side).hexes for side in start.side_keys()},
    )
