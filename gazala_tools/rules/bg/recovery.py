"""Batalha de Gazala 7.0 recovery: a reduced unit that stays disengaged and traces a line free of
enemy zones to Belhamed or Tobruk flips back."""

from __future__ import annotations

from collections.abc import Iterable

from gazala_tools.referee.context import Context
from gazala_tools.referee.engine import RulesPlugin
from gazala_tools.referee.findings import Finding, Severity
from gazala_tools.referee.ruledata import HexSet, RulesSection
from gazala_tools.referee.search import BlockCost, multi_source_search

__all__ = ["Recovery"]


class Recovery(RulesPlugin):
    """7.0 recovery."""

    def read_recovery(self, data: RulesSection) -> None:
        rc = data.sub("recovery", frozenset({"rule", "side", "to"}))
        rc.require("side", "to")
        self.recovery_rule = rc.rule("rule", "recovery")
        self.recovery_side = rc.side("side")
        self.recovery_to: HexSet = rc.hexset("to")
        self.recovery = self.recovery_to.hexes

    def check_7_0_recovery(self, ctx: Context) -> Iterable[Finding]:
        """7.0: a reduced unit of the recovering side that stays disengaged and traces a line free of
        enemy zones to Belhamed or Tobruk flips back. Interpretation: the line is not movement, so
        armor does not ignore infantry zones here; enemy units and sea also cut it."""
        reduced = set(ctx.position.extra.get("reduced") or ()) | {u.id for u in ctx.units() if u.reduced}
        if not reduced:
            return
        side = self.recovery_side
        rule = self.recovery_rule
        zones = ctx.enemy_zoc(side)
        blocked = zones | ctx.enemy_hexes(side) | self.impassable
        line = multi_source_search(self.topology, [h for h in self.recovery if h not in blocked],
                                   BlockCost(self.topology, hexes=blocked), reverse=True)
        who = self.game.side(side).name
        for u in ctx.units():
            if u.id not in reduced or u.hex is None:
                continue
            where = ctx.label(u.hex)
            if u.side != side:
                yield Finding(rule, Severity.INFO, f"{u.id} at {where}: only {who} units recover", units=(u.id,),
                              hexes=(where,))
            elif u.hex in zones:
                yield Finding(rule, Severity.INFO, f"{u.id} at {where} is engaged: no recovery", units=(u.id,),
                              hexes=(where,))
            elif u.hex in line:
                path = [ctx.label(h) for h in line.path(u.hex)]
                ctx.add_path("recovery", f"{rule} recovery line of {u.id}", line.path(u.hex), side=side)
                yield Finding(rule, Severity.WARNING,
                              f"{u.id} at {where} may recover (flip to full strength) if it stays disengaged: line "
                              + "-".join(path), units=(u.id,), hexes=tuple(path))
            else:
                yield Finding(rule, Severity.INFO,
                              f"{u.id} at {where}: no line free of enemy zones to {self.recovery_to.text}",
                              units=(u.id,), hexes=(where,))
