"""``rules.boxes``: the off-map boxes a unit may stand in."""

from __future__ import annotations

from dataclasses import dataclass

from gazala_tools.referee.ruledata.section import RulesSection

__all__ = ["BoxRules", "lower_names", "read_boxes"]


@dataclass(frozen=True, slots=True)
class BoxRules:
    """Off-map boxes a unit may stand in (names compared case-insensitively)."""

    rule: str = "on-map"
    allowed: frozenset[str] = frozenset()
    reinforcements: frozenset[str] = frozenset({"reinforcements"})
    eliminated: frozenset[str] = frozenset({"eliminated"})
    exited: frozenset[str] = frozenset()
    turn_boxes: bool = False  #: a box named after a turn of the record (a turn record track)

    @property
    def all(self) -> frozenset[str]:
        return self.allowed | self.reinforcements | self.eliminated | self.exited


def lower_names(names: tuple[str, ...]) -> frozenset[str]:
    return frozenset(n.strip().lower() for n in names)


def read_boxes(s: RulesSection) -> BoxRules:
    d = BoxRules()
    if not s:
        return d
    return BoxRules(
        rule=s.rule("rule", d.rule),
        allowed=lower_names(s.names("allowed")),
        reinforcements=lower_names(s.names("reinforcements")) if "reinforcements" in s else d.reinforcements,
        eliminated=lower_names(s.names("eliminated")) if "eliminated" in s else d.eliminated,
        exited=lower_names(s.names("exited")),
        turn_boxes=s.boolean("turn-boxes", False),
    )
