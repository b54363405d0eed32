"""Batalha de Gazala 11.2 objectives and points: who holds each objective ("em seu poder", taken by
occupying it and kept until the enemy occupies it) and the points for enemy units destroyed, per
nationality."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass

from gazala_tools.referee.engine import Context, RulesPlugin
from gazala_tools.referee.position import Unit
from gazala_tools.referee.ruledata import Section
from gazala_tools.referee.units import nationality as manifest_nationality


@dataclass(frozen=True)
class Kills:
    rule: str
    points: int = 0  #: per enemy unit destroyed
    by_nationality: tuple[tuple[str, int], ...] = ()  #: ... or per nationality of the enemy unit


class Objectives(RulesPlugin):
    """11.2 objectives, points for kills and the nationalities they need."""

    def read_objectives(self, data: Section) -> None:
        ob = data.sub("objectives", frozenset({"rule", "taker", "points"}))
        ob.require("taker", "points")
        self.objectives_rule = ob.rule("rule", "objectives")
        self.taker = ob.side("taker")
        pts = ob.sub("points")
        self.objectives = [(name, pts.key_hexes("places", name),
                            pts.integer(name, lo=0)) for name in pts]
        ks = data.sub("kills")
        self.kills: dict[str, Kills] = {}
        for side in ks.side_keys():
            k = ks.sub(side, frozenset({"rule", "points", "by-nationality"}))
            by = k.sub("by-nationality")
            self.kills[side] = Kills(k.rule("rule", self.objectives_rule), k.integer("points", 0),
                                     tuple((n, by.integer(n, lo=0)) for n in by))
        na = data.sub("nationalities")
        self.nationality_rules: list[tuple[str, tuple[str, ...], tuple[str, ...]]] = []
        for key in na:
            e = na.sub(key, frozenset({"formations", "ids"}))
            self.nationality_rules.append((key, tuple(f.lower() for f in e.names("formations")), e.names("ids")))

    def extra_names(self) -> Mapping[str, Collection[str]]:
        """``held: {Tobruk: axis}``: who holds each objective (11.2 "em seu poder"), as last taken."""
        return {"held": [name for name, _h, _v in self.objectives]}

    def nationality(self, unit: Unit) -> str | None:
        """``"de"``, ``"it"``, ... from the counter manifest, else from the formation or id prefix."""
        got = manifest_nationality(unit, self.game)
        if got is not None:
            return got
        f = unit.formation.lower()
        for key, formations, ids in self.nationality_rules:
            if any(f.startswith(n) for n in formations) or unit.id.startswith(ids):
                return key
        return None

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
