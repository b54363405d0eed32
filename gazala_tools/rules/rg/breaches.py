"""Gazala: The Cauldron (RG) 14.1 breaches: when breach markers may stand, how many, and the outcome
of each breach under construction (fails, succeeds into the box, and through its far side)."""

from __future__ import annotations

from collections.abc import Iterable

from gazala_tools.referee.context import Context
from gazala_tools.referee.findings import Finding, Severity
from gazala_tools.rules.rg.minefields import Minefields, opposite_side
from gazala_tools.rules.rg.state import Breach, BreachState, breaches_of

__all__ = ["Breaches"]


class Breaches(Minefields):
    """14.1: the breach markers of a position judged."""

    def check_14_1_breaches(self, ctx: Context) -> Iterable[Finding]:
        breaches = breaches_of(ctx.position)
        rule = self.mf_rule
        if not breaches:
            return
        first = self.turn_name(self.first_breach)
        too_early = ctx.turn_index is not None and ctx.turn_index < self.first_breach
        if too_early:
            yield Finding(rule, Severity.ERROR, f"breach markers before the {first} turn",
                          hexes=ctx.labels(h for b in breaches for h in b.hexside.hexes))
        elif ctx.turn_index is not None and ctx.turn_index <= self.first_breach:
            # a breach placed in the first breach turn's Minefield Phase is made at the next turn's (14.1)
            done = [b for b in breaches if b.state is BreachState.BREACHED]
            if done:
                yield Finding(rule, Severity.ERROR,
                              f"breached markers on the {first} turn: a breach started then is made at the "
                              "start of the next turn's Minefield Phase",
                              hexes=ctx.labels(h for b in done for h in b.hexside.hexes))
        if len(breaches) > self.breach_counters:
            yield Finding(rule, Severity.ERROR,
                          f"{len(breaches)} breach markers: the game provides {self.breach_counters}",
                          hexes=ctx.labels(h for b in breaches for h in b.hexside.hexes))
        building = [b for b in breaches if b.state is BreachState.UNDER_CONSTRUCTION]
        if len(building) > self.breaches_per_turn:
            breaker = self.side_name(self.enemy(self.mf_owner))
            yield Finding(rule, Severity.ERROR,
                          f"{len(building)} breaches under construction: the {breaker} may place only "
                          f"{self.breaches_per_turn} a turn",
                          hexes=ctx.labels(h for b in building for h in b.hexside.hexes))
        mf = self.active_minefield_sides(ctx)
        for br in breaches:
            side_label = self.map.grid.hexside_label(br.hexside)
            if br.hexside not in mf:
                yield Finding(rule, Severity.ERROR, f"breach marker at {side_label} points at no (active) minefield hexside",
                              hexes=ctx.labels(br.hexside.hexes))
                continue
            if br.state is BreachState.UNDER_CONSTRUCTION and not too_early:  # no outcome for an illegal marker
                yield from self._breach_outcome(ctx, br, side_label)

    def _breach_outcome(self, ctx: Context, br: Breach, side_label: str) -> Iterable[Finding]:
        rule = self.mf_rule
        owner = self.mf_owner
        breaker = self.enemy(owner)
        m = self.minefield_hex_of(ctx, br.hexside, br.at)
        if m is None:
            yield Finding(rule, Severity.WARNING, f"breach at {side_label}: cannot tell which hex is the minefield box",
                          hexes=ctx.labels(br.hexside.hexes))
            return
        origin = br.hexside.other(m)
        infantry = [u for u in ctx.by_hex.get(origin, []) if u.side == breaker and u.type in self.breach_types]
        if not infantry:
            yield Finding(rule, Severity.WARNING,
                          f"breach under construction at {side_label} but no {self.side_name(breaker)} infantry unit "
                          f"in {ctx.label(origin)}",
                          hexes=(ctx.label(origin),))
        defenders = [u.id for u in ctx.by_hex.get(m, []) if u.side == owner]
        if defenders:
            yield Finding(rule, Severity.INFO,
                          f"breach {side_label} will fail: {self.side_name(owner)} {', '.join(defenders)} in "
                          f"{ctx.label(m)}; the marker is removed",
                          units=tuple(defenders), hexes=(ctx.label(m),))
            return
        far = opposite_side(m, br.hexside)
        far_label = self.map.grid.hexside_label(far)
        if far in self.active_minefield_sides(ctx):
            beside = [u.id for h in far.hexes for u in ctx.by_hex.get(h, []) if u.side == owner]
            if beside:
                yield Finding(rule, Severity.INFO,
                              f"breach {side_label} will succeed into {ctx.label(m)}; the far side {far_label} stays "
                              f"closed ({self.side_name(owner)} {', '.join(beside)} adjacent)",
                              units=tuple(beside), hexes=ctx.labels((m, *far.hexes)))
                return
            yield Finding(rule, Severity.INFO,
                          f"breach {side_label} will succeed into {ctx.label(m)} and through {far_label} "
                          f"(no {self.side_name(owner)} unit adjacent): place the marker in the box",
                          hexes=ctx.labels((m, *far.hexes)))
            return
        yield Finding(rule, Severity.INFO, f"breach {side_label} will succeed into {ctx.label(m)}", hexes=(ctx.label(m),))
