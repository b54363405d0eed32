"""Batalha de Gazala 4.1: Axis motorized units more than the range from the west-edge road hexes
(by a path free of enemy zones and minefields) cannot move, until the Axis takes Tobruk."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from gazala_tools.hexes import Hex
from gazala_tools.referee.context import Context
from gazala_tools.referee.findings import Finding, Severity
from gazala_tools.referee.position import Unit
from gazala_tools.referee.ruledata import HexSet, RulesSection
from gazala_tools.referee.search import BlockCost, SearchResult, multi_source_search
from gazala_tools.rules import MINEFIELD
from gazala_tools.rules.bg.engagement import Engagement
from gazala_tools.rules.bg.objectives import Objectives

__all__ = ["MotorizedRange"]


class MotorizedRange(Engagement, Objectives):
    """4.1 motorized range (and 9.3 cleared minefields, which it reads)."""

    def read_range(self, data: RulesSection) -> None:
        mr = data.sub("motorized-range", frozenset({"rule", "side", "units", "range", "from", "until-held"}))
        mr.require("side", "units", "range", "from")
        self.range_rule = mr.rule("rule", "range")
        self.range_side = mr.side("side")
        self.motorized_types = mr.types("units") or frozenset()
        self.range = mr.integer("range", lo=0)
        self.road_entries = mr.hexset("from").hexes
        self.until_held: HexSet = mr.hexset("until-held")
        self.minefields = self.map.box_kind_hexes(MINEFIELD)
        self._out_of_range: tuple[Context, list[Unit]] | None = None

    def is_motorized(self, unit: Unit) -> bool:
        return unit.type in self.motorized_types

    def move_rules(self) -> tuple[tuple[str, str], ...]:
        return (*super().move_rules(), (self.range_rule, "no move of a motorized unit out of range"))

    def holds(self, ctx: Context, side: str, hexes: Iterable[Hex]) -> bool:
        sides = {u.side for h in hexes for u in ctx.by_hex.get(h, [])}
        return sides == {side}

    def range_search(self, ctx: Context, *, armor: bool) -> SearchResult:
        """4.1: hexes within range of a west-edge road hex by a path free of enemy engagement zones,
        enemy units, minefield hexes and sea.

        Interpretation: the path is the unit's movement, so armor ignores infantry zones (4.1.2) but
        may not cross a sea inlet (terrain chart), and the unit's own hex may be engaged or a minefield
        hex (only the hexes it would cross count).
        """
        side = self.range_side
        no_go: set[Hex] = set()
        if armor:  # the hexes the terrain chart prohibits to armor (sea inlets: a P cell with units:)
            no_go |= self.armor_prohibited(side)
        blocked = (self.zones_against(ctx, side, armor=armor) | ctx.enemy_hexes(side)
                   | self.minefield_hexes(ctx) | self.impassable | no_go)
        cost = BlockCost(self.topology, hexes=blocked)
        return multi_source_search(self.topology, [h for h in self.road_entries if h not in blocked], cost,
                                   reverse=True)

    def armor_prohibited(self, side: str) -> frozenset[Hex]:
        """The hexes the Terrain Effects Chart (and ``prohibited``) close to the side's armor, once per rules."""
        cache: dict[str, frozenset[Hex]] = self.__dict__.setdefault("_armor_prohibited", {})
        got = cache.get(side)
        if got is None:
            probe = Unit(id="", side=side, type=next(iter(sorted(self.armor_types)), "armor"))
            hexes: set[Hex] = set()
            for p in self.data.prohibited:
                if p.units.matches(probe, self.names):
                    hexes |= p.enter.hexes
            chart = self.data.chart
            if chart is not None:
                costs = chart.unit_costs(self.map, probe, self.names)
                hexes |= {h for h in self.map.hexes() if costs.prohibited_in(h)}
            got = cache[side] = frozenset(hexes)
        return got

    def minefield_hexes(self, ctx: Context) -> frozenset[Hex]:
        """9.3: minefield hexes without a cleared-minefield marker (``cleared`` hexes are open terrain)."""
        cleared = ctx.position.extra.get("cleared")
        return self.minefields - cleared if isinstance(cleared, frozenset) else self.minefields

    def range_lifted(self, ctx: Context) -> bool:
        """4.1: the range limit lasts "until the Axis takes Tobruk": the Axis has taken it and no
        Allied unit has taken it back (possession, :meth:`possession`, not occupation now)."""
        if not self.until_held:
            return False
        name = next((n for n, hexes, _v in self.objectives if hexes == self.until_held.hexes), None)
        if name is None:
            return self.holds(ctx, self.range_side, self.until_held.hexes)
        return self.possession(ctx).get(name) == self.range_side

    def out_of_range(self, ctx: Context) -> list[Unit]:
        """4.1: motorized units that cannot move (computed once per position)."""
        if self._out_of_range is not None and self._out_of_range[0] is ctx:
            return self._out_of_range[1]
        # off the map (a hex beyond the grid: the 4.0 error says so) is no range question
        units = [u for u in ctx.on_map(self.range_side) if self.is_motorized(u) and u.hex in self.topology]
        out: list[Unit] = []
        if units and not self.range_lifted(ctx):
            reach = {a: self.range_search(ctx, armor=a) for a in {self.is_armor(u) for u in units}}
            out = [u for u in units if u.hex is not None and not _within(reach[self.is_armor(u)], u.hex, self.range)]
        self._out_of_range = (ctx, out)
        return out

    def check_4_1_motorized_range(self, ctx: Context) -> Iterable[Finding]:
        if self.range_lifted(ctx):
            if any(self.is_motorized(u) for u in ctx.on_map(self.range_side)):
                yield Finding(self.range_rule, Severity.INFO,
                              f"the {self.game.side(self.range_side).name} holds {self.until_held.text}: "
                              "no motorized range limit", hexes=ctx.labels(self.until_held.hexes))
            return
        entries = "/".join(ctx.labels(self.road_entries))
        for u in self.out_of_range(ctx):
            assert u.hex is not None
            yield Finding(self.range_rule, Severity.WARNING,
                          f"motorized {u.id} at {ctx.label(u.hex)} is more than {self.range} hexes from the west-edge "
                          f"road hexes {entries} (by a path free of enemy zones and minefields): it cannot move, "
                          "except to retreat",
                          units=(u.id,), hexes=(ctx.label(u.hex),))

    def check_move(self, before: Unit, after: Unit, path: list[Hex] | None, context: Any) -> Iterable[Finding]:
        """4.1 in a log: a motorized unit beyond the range may not move (except to retreat), nor may a
        move take it beyond the range."""
        if (before.side != self.range_side or not self.is_motorized(before) or before.hex is None
                or after.hex is None):
            return
        ctx = context.ctx
        if self.range_lifted(ctx):
            return
        reach = self.range_search(ctx, armor=self.is_armor(before))
        where = (ctx.label(before.hex), ctx.label(after.hex))
        if not _within(reach, before.hex, self.range):
            yield Finding(self.range_rule, Severity.ERROR, f"motorized {before.id} moves from {where[0]}, more than "
                          f"{self.range} hexes from the west-edge road hexes: it cannot move except to retreat",
                          units=(before.id,), hexes=where)
        elif not _within(reach, after.hex, self.range):
            yield Finding(self.range_rule, Severity.ERROR, f"motorized {before.id} moves to {where[1]}, more than "
                          f"{self.range} hexes from the west-edge road hexes", units=(before.id,), hexes=where)


def _within(res: SearchResult, h: Hex, limit: int) -> bool:
    d = res.distance(h)
    return d is not None and d <= limit
