"""Cauldron (Decision Games) 18.0 victory: a path of hexes free of enemy units and zones from the
start hex to a target (the German wins at any time he shows his, the British at the end), then the
loss-ratio downgrade."""

from __future__ import annotations

from collections.abc import Mapping

from gazala_tools.errors import GazalaError
from gazala_tools.hexes import Hex
from gazala_tools.referee.context import Context
from gazala_tools.referee.engine import RulesPlugin
from gazala_tools.referee.findings import Finding, Severity
from gazala_tools.referee.generic import PathAnswer, box_in, eliminated, find_path, side_steps
from gazala_tools.referee.position import Position
from gazala_tools.referee.ruledata import HexSet, RulesSection
from gazala_tools.referee.search import Cost
from gazala_tools.rules import MINEFIELD

__all__ = [
    "PathVictory",
    "downgrade",
    "victory_level",
]


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


class PathVictory(RulesPlugin):
    """18.0."""

    players: dict[str, str]  #: side -> the player's name in messages (``players``)

    def read_victory(self, data: RulesSection) -> None:
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
        """18.0: each side's victory path as the position stands, the losses, and the result: the
        German wins at any time; the British path and a draw, downgraded by the loss ratio, as of the
        end of the last game turn."""
        rule = self.victory_rule
        last = self.turns.last
        final = ctx.turn_index is not None and last is not None and ctx.turn_index >= last
        answers = {side: self.victory_path(ctx, side) for side in self.sides if side in self.targets}
        findings = self._path_findings(ctx, answers)
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

    def _path_findings(self, ctx: Context, answers: Mapping[str, PathAnswer]) -> list[Finding]:
        """18.0: each side's victory path from the start hex to its targets, or why there is none
        (the path found is drawn on the report)."""
        findings: list[Finding] = []
        start = "/".join(ctx.labels(self.start.hexes))
        for side, ans in answers.items():
            goal = (f"{self.players[side]} victory path {start} -> "
                    + " or ".join(ctx.labels(self.targets[side].hexes)))
            if ans.path is not None:
                findings.append(Finding(self.victory_rule, Severity.INFO, f"{goal}: " + "-".join(ans.labels(ctx)),
                                        hexes=tuple(ans.labels(ctx))))
                ctx.add_path("victory", goal, ans.path, side=side)
            else:
                findings.append(Finding(self.victory_rule, Severity.INFO, f"no {goal}: {ans.reason}",
                                        hexes=ctx.labels(ans.blockers)))
        return findings

    def victory_sentences(self, vp: Mapping[str, object]) -> list[str]:
        out: list[str] = []
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
