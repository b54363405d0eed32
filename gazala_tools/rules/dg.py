"""Cauldron: Battle for Gazala (Decision Games, exclusive rules v4.1): the rule hooks data cannot say.

Section numbers are the exclusive rules' (``../shared/seeds/002_...txt``, sections 10.0-20.0; the
series' standard rules 1.0-9.0 are not in our text). Interpretations of ambiguous wording are
marked ``Interpretation:`` and listed in ``docs/referee-dg-spi-bg.md``.

Sides are ``axis`` (the German player, German and Italian units) and ``allied`` (the British / UK
player). The facts are data (``mapdata/cauldron-dg/game.yaml``, ``rules:``): the generic rules
(boxes, no stacking, the 11.1 schedule with its 11.4 arrival hexes) and this plugin's keys
(``players``, ``support-fire`` 12.0/15.0, ``victory`` 18.0, ``feint`` 17.0), whose hexes are the
map's places and zones (Tobruk, the supply symbols, the airfield).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import ClassVar

from gazala_tools.errors import GazalaError
from gazala_tools.hexes import Hex
from gazala_tools.referee.engine import Context, RulesPlugin
from gazala_tools.referee.findings import Finding, Severity
from gazala_tools.referee.generic import PathAnswer, box_in, eliminated, find_path, moved, side_steps
from gazala_tools.referee.position import Position
from gazala_tools.referee.ruledata import HexSet, Section
from gazala_tools.referee.search import Cost
from gazala_tools.rules import MINEFIELD

__all__ = ["CauldronDG", "downgrade", "support_fire", "victory_level"]


# --- pure rule functions -------------------------------------------------------------------------
def support_fire(base: int, symbols_lost: int, airfield_lost: bool) -> int:
    """12.0 / 15.0: a side's support-fire markers this turn.

    One supply symbol hex enemy-occupied: lose half the allotment, rounded down; two: lose it all.
    15.0 (UK only; pass ``airfield_lost=False`` for the German): one more marker lost.
    Interpretation: both losses come off the printed allotment, never below zero.
    """
    if symbols_lost >= 2:
        return 0
    lost = base // 2 if symbols_lost == 1 else 0
    return max(0, base - lost - (1 if airfield_lost else 0))


def victory_level(first_path: bool, second_path: bool, *, final: bool, first: str = "german",
                  second: str = "british") -> str:
    """18.0 before the loss-ratio downgrade: ``first``, ``second`` or ``"draw"``.

    The first player (the German) wins at any time he shows his path; the second (the British)
    only as of the end of the last turn.
    """
    if first_path:
        return first
    if second_path and final:
        return second
    return "draw"


def downgrade(result: str, losses: Mapping[str, int], *, first: str = "axis", second: str = "allied",
              names: Mapping[str, str] | None = None) -> tuple[str, str | None]:
    """18.0 loss ratio: (result after downgrade, the side downgraded or None).

    A player who lost twice as many units or more than the other has a win downgraded to a draw,
    a draw to a defeat. Interpretation: a player who lost no unit is never downgraded (0 >= 2 * 0).
    ``names``: side -> the result word of its win (default ``{"axis": "german", "allied": "british"}``).
    """
    won = dict(names or {first: "german", second: "british"})
    g, b = losses.get(first, 0), losses.get(second, 0)
    bad = first if g > 0 and g >= 2 * b else second if b > 0 and b >= 2 * g else None
    if bad is None:
        return result, None
    other = second if bad == first else first
    if result == won[bad]:
        return "draw", bad
    if result == "draw":
        return won[other], bad
    return result, bad


class CauldronDG(RulesPlugin):
    """Cauldron: Battle for Gazala (Decision Games)."""

    data_keys: ClassVar[frozenset[str]] = frozenset({"players", "support-fire", "victory", "feint"})
    extra_keys: ClassVar[frozenset[str]] = frozenset({"losses", "arriving"})

    def read_data(self, data: Section) -> None:
        pl = data.sub("players")
        self.players = {s: pl.text(s) for s in pl.side_keys()}
        for s in self.sides:
            self.players.setdefault(s, self.game.side(s).name)
        sf = data.sub("support-fire", frozenset({"rule", "markers", "symbols", "airfield"}))
        sf.require("markers", "symbols")
        self.fire_rule = sf.rule("rule", "support-fire")
        mk = sf.sub("markers")
        self.fire = {s: mk.integer(s, lo=0, hi=1000) for s in mk.side_keys()}
        sy = sf.sub("symbols")
        self.symbols: dict[str, HexSet] = {s: sy.hexset(s) for s in sy.side_keys()}
        af = sf.sub("airfield", frozenset({"rule", "side", "hexes"}))
        self.airfield_rule = af.rule("rule", self.fire_rule) if af else ""
        self.airfield_side = af.side("side") if "side" in af else None
        self.airfield: HexSet = af.hexset("hexes")

        vic = data.sub("victory", frozenset({"rule", "from", "must-hold", "minefields-block", "targets"}))
        vic.require("from", "targets")
        self.victory_rule = vic.rule("rule", "victory")
        self.start: HexSet = vic.hexset("from")
        self.must_hold = vic.sides("must-hold") or frozenset()
        self.mines_block = vic.sides("minefields-block") or frozenset()
        tg = vic.sub("targets")
        self.targets: dict[str, HexSet] = {s: tg.hexset(s) for s in tg.side_keys()}
        # the German path crosses a minefield hexside (either owner's) only where Axis units hold both hexes
        self.minefield_steps = side_steps(self.map.feature_sides(MINEFIELD))

        fe = data.sub("feint", frozenset({"rule", "turn", "side", "adjacent-to"}))
        self.feint_rule = fe.rule("rule", "feint") if fe else ""
        self.feint_turn = fe.turn("turn") if "turn" in fe else None
        self.feint_side = fe.side("side") if "side" in fe else None
        self.feint_near = fe.side("adjacent-to") if "adjacent-to" in fe else None

    def validate(self, position: Position) -> None:
        """``losses`` counts the units eliminated so far: fewer than the eliminated box holds is a
        contradiction (bad input), not an override."""
        given = position.extra.get("losses")
        if not isinstance(given, Mapping):
            return
        boxes = self.data.boxes.eliminated
        for side, n in given.items():
            boxed = sorted(u.id for u in position.units if u.side == side and box_in(u, boxes))
            if int(n) < len(boxed):
                raise GazalaError(f"losses: {side} {n} is fewer than the {len(boxed)} {side} units in the eliminated "
                                  f"box ({', '.join(boxed)})", file=position.source or None, place=f"losses.{side}",
                                  expected=f"at least {len(boxed)} (the units eliminated so far, those in the box included)")

    def before_rules(self) -> tuple[tuple[str, str], ...]:
        return (*super().before_rules(), *(((self.feint_rule, "Rommel's feint (who moved on the first turn)"),)
                                           if self.feint_rule else ()))

    def turn_rules(self) -> tuple[str, ...]:
        r = self.data.reinforcements
        return (*super().turn_rules(), *((f"{r.entry_rule} reinforcement hexes",) if r is not None else ()),
                *((f"{self.feint_rule} Rommel's feint",) if self.feint_rule else ()),
                f"{self.victory_rule} result at the end of the game")

    # --- 12.0 / 15.0 support fire; 18.0 victory ------------------------------------------------------
    def symbols_lost(self, ctx: Context, side: str) -> list[tuple[str, list[str]]]:
        """12.0: ``side``'s supply symbol hexes occupied by enemy units, with those units."""
        out = []
        for h in sorted(self.symbols.get(side, HexSet(frozenset())).hexes, key=ctx.label):
            enemies = [u.id for u in ctx.by_hex.get(h, []) if u.side != side]
            if enemies:
                out.append((ctx.label(h), enemies))
        return out

    def vp(self, ctx: Context) -> tuple[dict[str, object], list[Finding]]:
        findings: list[Finding] = []
        fire: dict[str, int] = {}
        for side in self.sides:
            if side not in self.fire:
                continue
            lost = self.symbols_lost(ctx, side)
            airfield: list[str] = []
            if side == self.airfield_side:
                airfield = [u.id for h in sorted(self.airfield.hexes) for u in ctx.by_hex.get(h, []) if u.side != side]
            base = self.fire[side]
            fire[side] = support_fire(base, len(lost), bool(airfield))
            who = self.players[side]
            for label, units in lost:
                findings.append(Finding(self.fire_rule, Severity.WARNING,
                                        f"{who} supply symbol {label} is occupied by {', '.join(units)}: "
                                        f"{who} support fire {fire[side]} of {base}"
                                        + (" (two symbols lost: none)" if len(lost) >= 2 else " (half lost, rounded down)"),
                                        units=tuple(units), hexes=(label,)))
            if airfield:
                where = "/".join(ctx.labels(self.airfield.hexes))
                findings.append(Finding(self.airfield_rule, Severity.WARNING,
                                        f"{self.airfield.text} {where} is occupied by {', '.join(airfield)}: the {who} "
                                        f"player loses one support fire marker ({fire[side]} of {base})",
                                        units=tuple(airfield), hexes=ctx.labels(self.airfield.hexes)))
        victory, vfind = self.victory(ctx)
        findings.extend(vfind)
        return {"support_fire": fire, "victory": victory}, findings

    def path_cost(self, ctx: Context, side: str) -> tuple[Cost, dict[Hex, str]]:
        """18.0 path steps for ``side`` and why each blocked hex is blocked.

        A path hex may be neither enemy-occupied nor in an enemy unit's ZOC, and must be land.
        German paths cross a minefield hexside (either owner's) only where Axis units occupy both
        hexes. Interpretation: the NOTE follows the German paragraph, so British paths may cross
        minefield hexsides; escarpments do not interrupt a path of hexes (16.0 is about movement
        and combat); every unit exerts a ZOC into all six neighbours (14.2 NOTE: into minefield
        hexes too).
        """
        why: dict[Hex, str] = {}
        for h in ctx.enemy_zoc(side):
            why[h] = "in enemy ZOC"
        for h in ctx.enemy_hexes(side):
            why[h] = "enemy-occupied"
        for h in self.impassable:
            why[h] = "not a land hex"
        own = ctx.hexes_of.get(side, set())
        mines = self.minefield_steps if side in self.mines_block else {}
        empty: frozenset[Hex] = frozenset()

        def cost(a: Hex, b: Hex) -> int | None:
            if b in why:
                return None
            if b in mines.get(a, empty) and not (a in own and b in own):
                return None
            return 1

        return cost, why

    def victory_path(self, ctx: Context, side: str) -> PathAnswer:
        starts = sorted(self.start.hexes)
        target = self.targets.get(side, HexSet(frozenset()))
        targets = sorted(target.hexes)
        if not starts or not targets:
            return PathAnswer(None, f"the map lacks {self.start.text or 'the start hex'} or "
                                    f"{target.text or 'the target hexes'}")
        start = starts[0]
        if side in self.must_hold and not any(u.side == side for u in ctx.by_hex.get(start, [])):
            return PathAnswer(None, f"no {self.game.side(side).name} unit occupies {self.start.text} {ctx.label(start)}")
        cost, why = self.path_cost(ctx, side)
        return find_path(ctx, start, targets, cost, why,
                         side_reason=f"across a minefield hexside without {self.game.side(side).name} units on both sides")

    def victory(self, ctx: Context) -> tuple[dict[str, object], list[Finding]]:
        findings: list[Finding] = []
        rule = self.victory_rule
        last = self.turns.last
        final = ctx.turn_index is not None and last is not None and ctx.turn_index >= last
        answers = {side: self.victory_path(ctx, side) for side in self.sides if side in self.targets}
        start = "/".join(ctx.labels(self.start.hexes))
        for side, ans in answers.items():
            goal = (f"{self.players[side]} victory path {start} -> "
                    + " or ".join(ctx.labels(self.targets[side].hexes)))
            if ans.path is not None:
                findings.append(Finding(rule, Severity.INFO, f"{goal}: " + "-".join(ans.labels(ctx)),
                                        hexes=tuple(ans.labels(ctx))))
                ctx.add_path("victory", goal, ans.path, side=side)
            else:
                findings.append(Finding(rule, Severity.INFO, f"no {goal}: {ans.reason}",
                                        hexes=ctx.labels(ans.blockers)))
        losses = {side: len(eliminated(self, ctx, side)) for side in self.sides}
        given = ctx.position.extra.get("losses")
        if isinstance(given, Mapping):
            losses.update({k: int(v) for k, v in given.items()})
        first, second = self.sides[0], self.sides[1]
        words = {s: self.players[s].lower() for s in (first, second)}
        result = victory_level(answers.get(first, PathAnswer(None)).path is not None,
                               answers.get(second, PathAnswer(None)).path is not None, final=final,
                               first=words[first], second=words[second])
        paths = {side: ans.to_dict(ctx) for side, ans in answers.items()}
        if not final and result != words[first]:
            # 18.0: the German wins at any time; the British path and a draw only as of the end of the
            # last game turn: before it there is no result to report
            last_name = self.turn_name(last) if last is not None else "the last turn"
            findings.append(Finding(rule, Severity.INFO,
                                    f"no result yet: the {self.players[first]} player shows no victory path now; the "
                                    f"{self.players[second]} path, a draw and the loss ratio are judged at the end of "
                                    f"{last_name}"))
            return {"paths": paths, "losses": losses, "final": final, "result_before_downgrade": "undecided",
                    "result": "undecided"}, findings
        after, downgraded = downgrade(result, losses, first=first, second=second, names=words)
        if downgraded is not None and after != result:
            findings.append(Finding(rule, Severity.INFO,
                                    f"loss ratio: the {self.players[downgraded]} player lost {losses[downgraded]} units, at "
                                    f"least twice the {losses[self.enemy(downgraded)]} of the other: {result} becomes "
                                    f"{after}"))
        findings.append(Finding(rule, Severity.INFO,
                                f"result {'at the end of the game' if final else 'now (the German wins at any time)'}: "
                                f"{after}"))
        return {
            "paths": paths,
            "losses": losses,
            "final": final,
            "result_before_downgrade": result,
            "result": after,
        }, findings

    def vp_sentences(self, vp: Mapping[str, object]) -> list[str]:
        out: list[str] = []
        fire = vp.get("support_fire")
        if isinstance(fire, Mapping):
            out.append(f"Support fire this turn ({self.fire_rule}): "
                       + ", ".join(f"{self.players.get(s, s)} {n}" for s, n in fire.items()) + " markers.")
        v = vp.get("victory")
        if isinstance(v, Mapping):
            paths = v.get("paths")
            for side, p in (paths.items() if isinstance(paths, Mapping) else ()):
                if isinstance(p, Mapping):
                    what = ("-".join(map(str, p.get("hexes") or [])) if p.get("found")
                            else f"none ({p.get('reason')})")
                    out.append(f"{self.players.get(side, side)} victory path ({self.victory_rule}): {what}.")
            losses = v.get("losses")
            if isinstance(losses, Mapping):
                out.append("Units eliminated: " + ", ".join(f"{self.players.get(s, s)} {n}" for s, n in losses.items())
                           + ".")
            result = v.get("result")
            last = self.turn_name(self.turns.last) if self.turns.last is not None else "the last turn"
            out.append(f"Result ({self.victory_rule}): "
                       + (f"none yet (judged at the end of {last} unless the German wins first)."
                          if result == "undecided" else f"{result}{' (end of the game)' if v.get('final') else ''}."))
        return out

    # --- 17.0 Rommel's feint (two positions) ---------------------------------------------------------
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
