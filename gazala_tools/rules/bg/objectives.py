"""Batalha de Gazala 11.2 objectives: who holds each objective ("em seu poder", taken by occupying it
and kept until the enemy occupies it). The points for enemy units destroyed (11.2.1, 11.2.2, per
nationality) are the generic ``victory.eliminated`` keys."""

from __future__ import annotations

from collections.abc import Collection, Mapping

from gazala_tools.referee.context import Context
from gazala_tools.referee.engine import RulesPlugin
from gazala_tools.referee.ruledata import RulesSection

__all__ = ["Objectives"]


class Objectives(RulesPlugin):
    """11.2 objectives."""

    def read_objectives(self, data: RulesSection) -> None:
        ob = data.sub("objectives", frozenset({"rule", "taker", "points"}))
        ob.require("taker", "points")
        self.objectives_rule = ob.rule("rule", "objectives")
        self.taker = ob.side("taker")
        pts = ob.sub("points")
        self.objectives = [(name, pts.key_hexes("places", name),
                            pts.integer(name, lo=0)) for name in pts]
        # 11.2.1, 11.2.2 points per enemy unit destroyed (by nationality) are the generic victory keys
        v = self.data.victory
        if v is None or not any(a.kind == "eliminated" for a in v.units):
            raise data.err("victory", "needs the points for enemy units destroyed",
                           expected="victory: {eliminated: [{units: {sides: [...]}, vp: N}, ...]}")
        self.victory_rules = v

    def extra_names(self) -> Mapping[str, Collection[str]]:
        """``held: {Tobruk: axis}``: who holds each objective (11.2 "em seu poder"), as last taken."""
        return {"held": [name for name, _h, _v in self.objectives]}

    def possession(self, ctx: Context) -> dict[str, str]:
        """11.2 "em seu poder" (in their possession): who holds each objective.

        Interpretation: a side takes an objective by occupying it (its units and no enemy's) and keeps
        it, empty, until the enemy occupies it. Who holds an empty objective comes from the position's
        ``held`` key, else from the ``--before`` position (carried forward), else the Allies, who hold
        every objective at the start (11.1)."""
        given = ctx.position.extra.get("held") or {}
        earlier = self.possession(ctx.before) if ctx.before is not None else {}
        out: dict[str, str] = {}
        for name, hexes, _value in self.objectives:
            if not hexes:
                continue
            sides = {u.side for h in hexes for u in ctx.by_hex.get(h, [])}
            if len(sides) == 1:
                out[name] = next(iter(sides))
            else:
                out[name] = given.get(name) or earlier.get(name) or self.enemy(self.taker)
        return out
