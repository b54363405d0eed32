"""Cauldron (Decision Games) 17.0 Rommel's feint: on the first game turn an Allied unit may move only
if adjacent to an Axis unit (judged with two positions)."""

from __future__ import annotations

from collections.abc import Iterable

from gazala_tools.referee.context import Context
from gazala_tools.referee.engine import RulesPlugin
from gazala_tools.referee.findings import Finding, Severity
from gazala_tools.referee.generic import moved
from gazala_tools.referee.ruledata import RulesSection

__all__ = ["Feint"]


class Feint(RulesPlugin):
    """17.0."""

    def read_feint(self, data: RulesSection) -> None:
        fe = data.sub("feint", frozenset({"rule", "turn", "side", "adjacent-to"}))
        self.feint_rule = fe.rule("rule", "feint") if fe else ""
        self.feint_turn = fe.turn("turn") if "turn" in fe else None
        self.feint_side = fe.side("side") if "side" in fe else None
        self.feint_near = fe.side("adjacent-to") if "adjacent-to" in fe else None

    def compare(self, before: Context, after: Context) -> Iterable[Finding]:
        """17.0: on the first game turn an Allied unit may move only if adjacent to an Axis unit.

        Interpretation: adjacency is judged in ``before`` (the position at the start of the Allied
        movement); a unit "moved" if its hex changed.
        """
        if self.feint_turn is None or self.feint_side is None or self.feint_near is None:
            return
        turn = after.turn_index if after.turn_index is not None else before.turn_index
        if turn is None or turn != self.feint_turn:
            return
        near = self.game.side(self.feint_near).name
        adjacent = {n for h in before.hexes_of.get(self.feint_near, set()) for n in h.neighbours()}
        for u in moved(before, after, self.feint_side):
            assert u.hex is not None
            if u.hex not in adjacent:
                now = after.position.unit(u.id).hex
                yield Finding(self.feint_rule, Severity.ERROR,
                              f"Rommel's feint: {u.id} moved on {self.turn_name(turn)} from {before.label(u.hex)} but was "
                              f"not adjacent to an {near} unit",
                              units=(u.id,), hexes=before.labels([u.hex, *([now] if now is not None else [])]))
