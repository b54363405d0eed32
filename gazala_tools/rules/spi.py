"""Cauldron (SPI 1976 / Decision Games), exclusive rules 15.0-18.0: the rule hooks data cannot say.

Section numbers are the exclusive rules' (``../shared/seeds/003_...txt``); the series' standard
rules (movement, ZOC, stacking, 12.0 supply effects) are not in our text. Interpretations are
marked ``Interpretation:`` and listed in ``docs/referee-dg-spi-bg.md``.

The facts are data (``mapdata/cauldron-spi/game.yaml``, ``rules:``): 16.0 supply is the generic
supply rule (the Axis 16.1 path to the road/trail network joined to the west edge, the Allied 16.2
path to the east edge, 16.3 automatic supply); 18.12 VP for kills and 18.31 for exits (``vp: printed``,
the 18.11 values) and the 18.4 levels (a table per side) are the generic ``victory`` keys, which this
plugin words; its own keys give 17.0 command control, 18.11's ``values`` override, 18.2 Tobruk and the
18.32-18.33 exit rules.

Position extras (top-level keys of the position YAML this plugin declares in ``extra_keys``; the core
keeps them in ``Position.extra``):
``attacked: [unit ids]`` (17.0), ``exited: {unit id: game-turn}`` and ``arrived: {unit id: game-turn}``
(18.3), ``values: {unit id: VP}`` (18.11, overrides the manifest), ``tobruk: axis|allied`` (the side
last to pass through an empty Tobruk, 18.21).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import ClassVar

from gazala_tools.hexes import Hex
from gazala_tools.referee.context import Check, Context
from gazala_tools.referee.engine import RulesPlugin
from gazala_tools.referee.findings import Finding, Severity
from gazala_tools.referee.generic import (
    box_in,
    eliminated,
    moved,
    obstructed,
    side_name,
    supplied,
    supply_search,
)
from gazala_tools.referee.movement import side_adjective
from gazala_tools.referee.position import Unit
from gazala_tools.referee.ruledata import HexSet, RulesSection, SideSupply
from gazala_tools.referee.turns import game_turn
from gazala_tools.referee.victory import award_vp, leader_level

__all__ = ["CauldronSPI"]


class CauldronSPI(RulesPlugin):
    """Cauldron (SPI 1976)."""

    data_keys: ClassVar[frozenset[str]] = frozenset({"command-control", "unit-values", "tobruk", "exits"})
    extra_keys: ClassVar[frozenset[str]] = frozenset({"attacked", "exited", "arrived", "values", "tobruk"})

    def read_data(self, data: RulesSection) -> None:
        cc = data.sub("command-control", frozenset({"rule", "turn", "side", "within", "of"}))
        cc.require("turn", "side", "within", "of")
        self.cc_rule = cc.rule("rule", "command-control")
        self.cc_turn = cc.turn("turn")
        self.cc_side = cc.side("side")
        self.cc_range = cc.integer("within", lo=0)
        self.cc_of = cc.side("of")
        uv = data.sub("unit-values", frozenset({"rule"}))
        self.values_rule = uv.rule("rule", "unit-values")
        # 18.12 kills, 18.31 exits and 18.4 levels are the generic victory keys (an eliminated award, an
        # exited award of one side, a table of levels per side)
        v = self.data.victory
        kills = [a for a in v.units if a.kind == "eliminated"] if v is not None else []
        exits = [a for a in v.units if a.kind == "exited"] if v is not None else []
        if (v is None or len(kills) != 1 or not v.side_levels or len(exits) != 1 or exits[0].units.sides is None
                or len(exits[0].units.sides) != 1):
            raise data.err("victory", "needs one 'eliminated' award, one 'exited' award of one side and a table "
                           "of levels per side",
                           expected="victory: {eliminated: [{vp: printed}], exited: [{units: {sides: [allied]}, "
                                    "boxes: [exited], vp: printed}], levels: {axis: [...], allied: [...]}}")
        self.victory_rules = v
        self.kills, self.exit_award = kills[0], exits[0]
        self.exit_rule = self.exit_award.rule
        self.exit_side = next(iter(exits[0].units.sides))
        tb = data.sub("tobruk", frozenset({"rule", "other-rule", "end-rule", "hexes", "vp", "supply-side"}))
        tb.require("hexes", "vp", "supply-side")
        self.tobruk_rule = tb.rule("rule", "tobruk")
        self.tobruk_other_rule = tb.rule("other-rule", self.tobruk_rule)
        self.tobruk_end_rule = tb.rule("end-rule", self.tobruk_rule)
        self.tobruk_set: HexSet = tb.hexset("hexes")
        self.tobruk: Hex | None = min(self.tobruk_set.hexes) if self.tobruk_set else None
        self.tobruk_vp = tb.integer("vp", lo=0)
        self.tobruk_side = tb.side("supply-side")
        ex = data.sub("exits", frozenset({"wait-rule", "other-rule", "wait"}))
        ex.require("wait")
        self.exit_wait_rule = ex.rule("wait-rule", self.exit_rule)
        self.exit_other_rule = ex.rule("other-rule", self.exit_rule)
        self.exit_wait = ex.integer("wait", lo=0)

    def game_turn(self, ctx: Context) -> int | None:
        return self.turns.number(ctx.turn_index) if ctx.turn_index is not None else None

    def before_rules(self) -> tuple[tuple[str, str], ...]:
        return (*super().before_rules(), (self.cc_rule, "command control (who moved on the first turn)"))

    def turn_rules(self) -> tuple[str, ...]:
        return (*super().turn_rules(), f"{self.cc_rule} command control", f"{self.exit_wait_rule} exits of reinforcements")

    # --- legality ------------------------------------------------------------------------------------
    def checks(self) -> Sequence[Check]:
        return (*super().checks(), self.check_17_0_command_control)

    # --- 16.0 supply (the generic data rules; the 18.21 Tobruk path uses them) -----------------------
    def side_supply(self, side: str) -> SideSupply | None:
        return self.data.supply.sides.get(side) if self.data.supply is not None else None

    # --- 17.0 command control ------------------------------------------------------------------------
    def may_move_turn_1(self, ctx: Context) -> set[str]:
        """17.0: Allied units within three hexes of an Axis unit, or attacked (``attacked`` extra)."""
        near = list(ctx.hexes_of.get(self.cc_of, set()))
        attacked = set(ctx.position.extra.get("attacked") or ())
        return {u.id for u in ctx.on_map(self.cc_side)
                if u.id in attacked or any(u.hex is not None and u.hex.distance(a) <= self.cc_range for a in near)}

    def check_17_0_command_control(self, ctx: Context) -> Iterable[Finding]:
        """17.0 who may move: judged at the start of the Movement Phase, so on the ``--before``
        position when there is one (the same units :meth:`compare` lets move)."""
        base = ctx.before if ctx.before is not None else ctx
        turn = ctx.turn_index if ctx.turn_index is not None else base.turn_index
        if turn != self.cc_turn:
            return
        free = sorted(self.may_move_turn_1(base) | (set(ctx.position.extra.get("attacked") or ())
                                                    if base is not ctx else set()))
        held = [u for u in base.on_map(self.cc_side) if u.id not in free]
        yield Finding(self.cc_rule, Severity.INFO,
                      f"{self.turn_name(self.cc_turn)} {side_adjective(self, self.cc_side)} movement: {len(free)} "
                      f"unit(s) may move (within {self.cc_range} hexes of an {side_adjective(self, self.cc_of)} unit "
                      f"or attacked): {', '.join(free) or 'none'}; "
                      f"{len(held)} may not",
                      units=tuple(free),
                      hexes=base.labels(u.hex for u in base.on_map(self.cc_side) if u.id in free and u.hex))

    def compare(self, before: Context, after: Context) -> Iterable[Finding]:
        """17.0 with two positions: ``before`` at the start of the Allied Movement Phase of game-turn 1."""
        turn = after.turn_index if after.turn_index is not None else before.turn_index
        if turn != self.cc_turn:
            return
        free = self.may_move_turn_1(before) | set(after.position.extra.get("attacked") or ())
        for u in moved(before, after, self.cc_side):
            if u.id not in free:
                assert u.hex is not None
                now = after.position.unit(u.id).hex
                yield Finding(self.cc_rule, Severity.ERROR,
                              f"command control: {u.id} moved on {self.turn_name(self.cc_turn)} but was not within "
                              f"{self.cc_range} hexes of an {side_adjective(self, self.cc_of)} unit nor attacked",
                              units=(u.id,), hexes=before.labels([u.hex, *([now] if now is not None else [])]))

    # --- 18.0 victory points -------------------------------------------------------------------------
    def value(self, ctx: Context, unit: Unit) -> int | None:
        given = ctx.position.extra.get("values")
        if isinstance(given, Mapping) and unit.id in given:
            return int(given[unit.id])
        return award_vp(self.kills, unit, self)

    def tobruk_control(self, ctx: Context) -> tuple[str | None, bool, str]:
        """18.21: (side controlling Tobruk, supply path from it, how control was decided)."""
        if self.tobruk is None:
            return None, False, f"the map has no {self.tobruk_set.text or 'hex for 18.21'}"
        sides = {u.side for u in ctx.by_hex.get(self.tobruk, [])}
        holder: str | None
        if sides:
            holder = self.tobruk_side if self.tobruk_side in sides else sorted(sides)[0]
            how = f"occupied by {side_adjective(self, holder)} units"
        else:
            last = ctx.position.extra.get("tobruk")
            holder = str(last) if last in self.sides else None
            how = f"empty; last passed through by {side_name(self, holder)}" if holder else "empty; nobody recorded as last through"
        path = False
        ss = self.side_supply(self.tobruk_side)
        if holder == self.tobruk_side and ss is not None:
            why = obstructed(self, ctx, ss)
            path = self.tobruk not in why and supplied(ss, supply_search(self, ctx, ss, why), self.tobruk)
        return holder, path, how

    def vp(self, ctx: Context) -> tuple[dict[str, object], list[Finding]]:
        findings: list[Finding] = []
        score = dict.fromkeys(self.sides, 0)
        unknown: list[str] = []

        def worth(u: Unit) -> int:
            v = self.value(ctx, u)
            if v is None:
                unknown.append(u.id)
                return 0
            return v

        killed = {side: eliminated(self, ctx, side) for side in self.sides}
        for side in self.sides:
            enemy = self.enemy(side)
            got = sum(worth(u) for u in killed[enemy])
            score[side] += got
            if killed[enemy]:
                findings.append(Finding(self.kills.rule, Severity.INFO,
                                        f"{side_name(self, side)} scores {got} VP for {len(killed[enemy])} eliminated enemy unit(s)",
                                        units=tuple(u.id for u in killed[enemy])))
        exited_vp, exit_findings = self.exits(ctx, worth)
        score[self.exit_side] += exited_vp
        findings.extend(exit_findings)
        holder, path, how = self.tobruk_control(ctx)
        ts = self.tobruk_side
        tobruk_side = ts if holder == ts and path else self.enemy(ts)
        score[tobruk_side] += self.tobruk_vp
        where = ctx.label(self.tobruk) if self.tobruk is not None else "?"
        name = self.tobruk_set.text
        findings.append(Finding(self.tobruk_rule if tobruk_side == ts else self.tobruk_other_rule, Severity.INFO,
                                f"{name} {where} ({how}"
                                + (f", {side_adjective(self, ts)} supply path {'traced' if path else 'not traced'}"
                                   if holder == ts else "")
                                + f"): {self.tobruk_vp} VP to {side_name(self, tobruk_side)}", hexes=(where,)))
        if tobruk_side == ts:
            findings.append(Finding(self.tobruk_end_rule, Severity.INFO,
                                    f"the {side_name(self, ts)} side controls {name} with a supply path: at the end of an "
                                    f"{side_adjective(self, self.enemy(ts))} Combat Phase the game ends now",
                                    hexes=(where,)))
        if unknown:
            findings.append(Finding(self.values_rule, Severity.WARNING,
                                    f"no printed strengths for {', '.join(sorted(unknown))}: counted as 0 VP "
                                    "(give values: {id: VP} or a manifest unit)", units=tuple(sorted(unknown))))
        first, second = self.sides[0], self.sides[1]
        level = leader_level(self.victory_rules, score)[2] or self.victory_rules.draw
        findings.append(Finding(self.victory_rules.levels_rule, Severity.INFO,
                                f"VP {side_name(self, first)} {score[first]}, {side_name(self, second)} {score[second]} "
                                f"(net {abs(score[first] - score[second])}): {level}"))
        return {**score, "tobruk": tobruk_side, "exited": exited_vp, "level": level}, findings

    def vp_sentences(self, vp: Mapping[str, object]) -> list[str]:
        name = {s: self.game.side(s).name for s in self.sides}
        out = [f"Victory points ({self.victory_rules.rule}): "
               + ", ".join(f"{name[s]} {vp.get(s, 0)}" for s in self.sides) + "."]
        holder = vp.get("tobruk")
        out.append(f"Tobruk ({self.tobruk_rule}): "
                   + (f"{name[str(holder)]} ({self.tobruk_vp} VP)." if holder in name else "nobody."))
        out.append(f"Exited units ({self.exit_rule}): {vp.get('exited', 0)} VP.")
        out.append(f"Level of victory ({self.victory_rules.levels_rule}): {vp.get('level')}.")
        return out

    def exits(self, ctx: Context, worth: Callable[[Unit], int]) -> tuple[int, list[Finding]]:
        """18.31-18.33: VP for units of the exit side exited off the map; reinforcements wait a full turn."""
        findings: list[Finding] = []
        exited_at = _turns(ctx.position.extra.get("exited"))
        arrived_at = _turns(ctx.position.extra.get("arrived"))
        total = 0
        for u in ctx.units():
            if not box_in(u, self.exit_award.boxes):
                continue
            if not self.exit_award.units.matches(u, self.names):
                findings.append(Finding(self.exit_other_rule, Severity.INFO,
                                        f"{u.id} exited: no VP for {side_adjective(self, u.side)} units", units=(u.id,)))
                continue
            out, came = exited_at.get(u.id), arrived_at.get(u.id)
            # without its exit turn, a unit exited at the latest on the position's game-turn
            out = out if out is not None else self.game_turn(ctx)
            if out is not None and came is not None and out < came + self.exit_wait:
                when = f"on {out}" if u.id in exited_at else f"by game-turn {out}"
                findings.append(Finding(self.exit_wait_rule, Severity.ERROR,
                                        f"{u.id} arrived on game-turn {came} and exited {when}: reinforcements must "
                                        f"stay a full game-turn (exit from game-turn {came + self.exit_wait}); no VP",
                                        units=(u.id,)))
                continue
            total += worth(u)
        if total:
            findings.append(Finding(self.exit_rule, Severity.INFO,
                                    f"{side_adjective(self, self.exit_side)} units exited off the map: {total} VP"))
        return total, findings


def _turns(value: object) -> dict[str, int]:
    if not isinstance(value, Mapping):
        return {}
    out: dict[str, int] = {}
    for k, v in value.items():
        n = game_turn(v)
        if n is not None:
            out[str(k)] = n
    return out
