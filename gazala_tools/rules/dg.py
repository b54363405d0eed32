"""Cauldron: Battle for Gazala (Decision Games, exclusive rules v4.1): data tables and rule hooks.

Section numbers are the exclusive rules' (``../shared/seeds/002_...txt``, sections 10.0-20.0; the
series' standard rules 1.0-9.0 are not in our text). Interpretations of ambiguous wording are
marked ``Interpretation:`` and listed in ``docs/referee-dg-spi-bg.md``.

Sides are the core's ``axis`` (the German player, German and Italian units) and ``allied`` (the
British / UK player). Hexes the rules name are data here (:data:`TOBRUK`, :data:`SUPPLY_SYMBOLS`...);
the map (``load_map("cauldron-dg")``) gives the land/sea hexes and the minefield hexsides.

The second half of this module holds small helpers the SPI and BG plugins share (integer game
turns, eliminated units, path search with a reason when no path exists); they are game-agnostic
and could move into :mod:`gazala_tools.referee` later. Position extras (``extra_keys``) and the
two-position hook (``compare``) are the core's (``RulesPlugin``, ``parse_position``, ``Referee.check``).
"""

from __future__ import annotations

import dataclasses
import logging
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar, Final

from gazala_tools.errors import GazalaError
from gazala_tools.hexes import Hex, Hexside
from gazala_tools.mapdata.model import GameMap, HexsideKind
from gazala_tools.referee.engine import (
    Check,
    Context,
    RulesPlugin,
    check_enemy_share,
    check_on_map,
    check_stacking,
)
from gazala_tools.referee.findings import Finding, Severity
from gazala_tools.referee.position import Unit
from gazala_tools.referee.search import Cost, SearchResult, Topology, multi_source_search
from gazala_tools.rules import register

log = logging.getLogger(__name__)

AXIS: Final = "axis"
ALLIED: Final = "allied"
PLAYER: Final = {AXIS: "German", ALLIED: "British"}

#: 20.0: "the German player is granted 26 game turns".
LAST_TURN: Final = 26
TURNS: Final = tuple(str(n) for n in range(1, LAST_TURN + 1))
TOBRUK: Final = "0608"  # 18.0
TOBRUK_AIRFIELD: Final = "0709"  # 15.0
#: 12.0: each side's supply symbol hexes (lost while an enemy unit occupies them).
SUPPLY_SYMBOLS: Final = {ALLIED: ("1201", "1410"), AXIS: ("0734", "2924")}
#: Support-fire markers per turn before losses (20.0: "11 versus 6"; the per-turn table is not in our text).
SUPPORT_FIRE: Final = {AXIS: 11, ALLIED: 6}
#: 18.0 victory path targets.
VICTORY_TARGETS: Final = {AXIS: ("0734", "2924"), ALLIED: ("1201",)}
#: 11.1: (game turn, unit type, arrival hex) of the British reinforcements ("608" is 0608).
REINFORCEMENTS: Final = (
    (6, "5-4-15", "1201"), (6, "3-4-9", "1201"), (8, "1-2-9", "0608"),
    (11, "5-4-15", "1201"), (11, "3-4-9", "1201"), (14, "3-4-9", "1201"),
)
FEINT_TURN: Final = 1  # 17.0
#: Off-map boxes a unit may stand in: not yet arrived (11.0), eliminated (18.0 losses).
REINFORCEMENT_BOXES: Final = ("reinforcements", "turn-record")
ELIMINATED_BOXES: Final = ("eliminated", "dead", "destroyed")
STACKING_RULE: Final = "stacking"  # the series rules (not in our text): no stacking (games.md, issue 8)


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


def victory_level(german_path: bool, british_path: bool, *, final: bool) -> str:
    """18.0 before the loss-ratio downgrade: ``"german"``, ``"british"`` or ``"draw"``.

    The German wins at any time he shows his path; the British only as of the end of the last turn.
    """
    if german_path:
        return "german"
    if british_path and final:
        return "british"
    return "draw"


def downgrade(result: str, losses: Mapping[str, int]) -> tuple[str, str | None]:
    """18.0 loss ratio: (result after downgrade, the side downgraded or None).

    A player who lost twice as many units or more than the other has a win downgraded to a draw,
    a draw to a defeat. Interpretation: a player who lost no unit is never downgraded (0 >= 2 * 0).
    """
    g, b = losses.get(AXIS, 0), losses.get(ALLIED, 0)
    bad = AXIS if g > 0 and g >= 2 * b else ALLIED if b > 0 and b >= 2 * g else None
    if bad is None:
        return result, None
    winner = "german" if bad == AXIS else "british"
    if result == winner:
        return "draw", bad
    if result == "draw":
        return ("british" if bad == AXIS else "german"), bad
    return result, bad


@register
class CauldronDG(RulesPlugin):
    """Cauldron: Battle for Gazala (Decision Games)."""

    game: ClassVar[str] = "cauldron-dg"
    sides: ClassVar[tuple[str, str]] = (AXIS, ALLIED)
    turns: ClassVar[tuple[str, ...]] = TURNS
    extra_keys: ClassVar[frozenset[str]] = frozenset({"losses"})

    def __init__(self, game_map: GameMap) -> None:
        super().__init__(game_map)
        self.impassable = frozenset(h for h in game_map.hexes() if not game_map.passable(h))
        self.minefield_steps = side_steps(game_map.feature_sides(HexsideKind.MINEFIELD))
        self.hex_of: dict[str, Hex | None] = {}
        for label in {TOBRUK, TOBRUK_AIRFIELD, *SUPPLY_SYMBOLS[AXIS], *SUPPLY_SYMBOLS[ALLIED],
                      *(r[2] for r in REINFORCEMENTS)}:
            self.hex_of[label] = hex_or_none(game_map, label)

    def turn_index(self, label: str | None) -> int | None:
        return turn_number_index(label, LAST_TURN)

    # --- hooks -----------------------------------------------------------------------------------
    def checks(self) -> Sequence[Check]:
        return (self.check_on_map, self.check_enemy_share, self.check_stacking, self.check_11_4_reinforcements)

    def check_on_map(self, ctx: Context) -> Iterable[Finding]:
        """Units on land hexes of the map, or in the reinforcement / eliminated boxes."""
        return check_on_map(ctx, "terrain", lambda u: box_in(u, REINFORCEMENT_BOXES + ELIMINATED_BOXES))

    def check_enemy_share(self, ctx: Context) -> Iterable[Finding]:
        return check_enemy_share(ctx, STACKING_RULE)

    def check_stacking(self, ctx: Context) -> Iterable[Finding]:
        def problem(units: list[Unit]) -> str | None:
            over = over_stacked(units, 1)
            return f"{over} units in one hex: no stacking" if over else None

        return check_stacking(ctx, STACKING_RULE, problem)

    def check_11_4_reinforcements(self, ctx: Context) -> Iterable[Finding]:
        """11.4: a reinforcement whose arrival hex holds any enemy unit may not arrive (it waits)."""
        turn = ctx.turn_index + 1 if ctx.turn_index is not None else None
        waiting = [u for u in ctx.units(ALLIED) if box_in(u, REINFORCEMENT_BOXES)]
        for label in sorted({r[2] for r in REINFORCEMENTS}):
            h = self.hex_of.get(label)
            if h is None:
                continue
            enemies = [u.id for u in ctx.by_hex.get(h, []) if u.side == AXIS]
            if not enemies:
                continue
            due = [r for r in REINFORCEMENTS if r[2] == label and turn is not None and r[0] <= turn]
            now = [r for r in due if r[0] == turn]
            late = [r for r in due if any(self.may_be(u, r[1]) for u in waiting)]
            if not now and not late:
                continue
            what = ", ".join(f"{t} (turn {n})" for n, t, _ in (now or late))
            yield Finding("11.4", Severity.WARNING,
                          f"reinforcement hex {label} is occupied by {', '.join(enemies)}: {what} may not arrive "
                          "until no enemy unit occupies it",
                          units=tuple(enemies), hexes=(label,))

    def may_be(self, unit: Unit, code: str) -> bool:
        """11.1: could the waiting ``unit`` be the reinforcement of type ``code`` (``"3-4-9"``)?
        Yes if its printed values (manifest, or a code in its type or id) are those, or unknown."""
        got = printed_values(unit, self.game)
        return got is None or "-".join(str(n) for n in got[1]) == code

    # --- 12.0 / 15.0 support fire; 18.0 victory ------------------------------------------------------
    def symbols_lost(self, ctx: Context, side: str) -> list[tuple[str, list[str]]]:
        """12.0: ``side``'s supply symbol hexes occupied by enemy units, with those units."""
        out = []
        for label in SUPPLY_SYMBOLS[side]:
            h = self.hex_of.get(label)
            enemies = [u.id for u in ctx.by_hex.get(h, []) if u.side != side] if h is not None else []
            if enemies:
                out.append((label, enemies))
        return out

    def vp(self, ctx: Context) -> tuple[dict[str, object], list[Finding]]:
        findings: list[Finding] = []
        fire: dict[str, int] = {}
        for side in self.sides:
            lost = self.symbols_lost(ctx, side)
            airfield: list[str] = []
            if side == ALLIED:
                h = self.hex_of.get(TOBRUK_AIRFIELD)
                airfield = [u.id for u in ctx.by_hex.get(h, []) if u.side == AXIS] if h is not None else []
            fire[side] = support_fire(SUPPORT_FIRE[side], len(lost), bool(airfield))
            for label, units in lost:
                findings.append(Finding("12.0", Severity.WARNING,
                                        f"{PLAYER[side]} supply symbol {label} is occupied by {', '.join(units)}: "
                                        f"{PLAYER[side]} support fire {fire[side]} of {SUPPORT_FIRE[side]}"
                                        + (" (two symbols lost: none)" if len(lost) >= 2 else " (half lost, rounded down)"),
                                        units=tuple(units), hexes=(label,)))
            if airfield:
                findings.append(Finding("15.0", Severity.WARNING,
                                        f"Tobruk airfield {TOBRUK_AIRFIELD} is occupied by {', '.join(airfield)}: the UK "
                                        f"player loses one support fire marker ({fire[side]} of {SUPPORT_FIRE[side]})",
                                        units=tuple(airfield), hexes=(TOBRUK_AIRFIELD,)))
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
        enemy = self.enemy(side)
        why: dict[Hex, str] = {}
        for h in ctx.zoc(enemy):
            why[h] = "in enemy ZOC"
        for h in ctx.hexes_of.get(enemy, set()):
            why[h] = "enemy-occupied"
        for h in self.impassable:
            why[h] = "not a land hex"
        own = ctx.hexes_of.get(side, set())
        mines = self.minefield_steps if side == AXIS else {}
        empty: frozenset[Hex] = frozenset()

        def cost(a: Hex, b: Hex) -> int | None:
            if b in why:
                return None
            if b in mines.get(a, empty) and not (a in own and b in own):
                return None
            return 1

        return cost, why

    def victory_path(self, ctx: Context, side: str) -> PathAnswer:
        start = self.hex_of.get(TOBRUK)
        targets = [h for h in (self.hex_of.get(t) or hex_or_none(self.map, t) for t in VICTORY_TARGETS[side])
                   if h is not None]
        if start is None or not targets:
            return PathAnswer(None, f"the map lacks {TOBRUK} or {'/'.join(VICTORY_TARGETS[side])}")
        if side == AXIS and not any(u.side == AXIS for u in ctx.by_hex.get(start, [])):
            return PathAnswer(None, f"no Axis unit occupies Tobruk {TOBRUK}")
        cost, why = self.path_cost(ctx, side)
        return find_path(ctx, start, targets, cost, why,
                         side_reason="across a minefield hexside without Axis units on both sides")

    def victory(self, ctx: Context) -> tuple[dict[str, object], list[Finding]]:
        findings: list[Finding] = []
        final = ctx.turn_index is not None and ctx.turn_index + 1 >= LAST_TURN
        answers = {side: self.victory_path(ctx, side) for side in self.sides}
        for side, ans in answers.items():
            goal = f"{PLAYER[side]} victory path {TOBRUK} -> {' or '.join(VICTORY_TARGETS[side])}"
            if ans.path is not None:
                findings.append(Finding("18.0", Severity.INFO, f"{goal}: " + "-".join(ans.labels(ctx)),
                                        hexes=tuple(ans.labels(ctx))))
                ctx.add_path("victory", goal, ans.path, side=side)
            else:
                findings.append(Finding("18.0", Severity.INFO, f"no {goal}: {ans.reason}",
                                        hexes=ctx.labels(ans.blockers)))
        losses = {side: len(eliminated(ctx, side)) for side in self.sides}
        given = ctx.position.extra.get("losses")
        if isinstance(given, Mapping):
            losses.update({k: int(v) for k, v in given.items()})
        result = victory_level(answers[AXIS].path is not None, answers[ALLIED].path is not None, final=final)
        after, downgraded = downgrade(result, losses)
        if downgraded is not None and after != result:
            findings.append(Finding("18.0", Severity.INFO,
                                    f"loss ratio: the {PLAYER[downgraded]} player lost {losses[downgraded]} units, at least "
                                    f"twice the {losses[self.enemy(downgraded)]} of the other: {result} becomes {after}"))
        findings.append(Finding("18.0", Severity.INFO,
                                f"result {'at the end of the game' if final else 'if the game ended now'}: {after}"))
        return {
            "paths": {side: ans.to_dict(ctx) for side, ans in answers.items()},
            "losses": losses,
            "final": final,
            "result_before_downgrade": result,
            "result": after,
        }, findings

    # --- 17.0 Rommel's feint (two positions) ---------------------------------------------------------
    def compare(self, before: Context, after: Context) -> Iterable[Finding]:
        """17.0: on the first game turn an Allied unit may move only if adjacent to an Axis unit.

        Interpretation: adjacency is judged in ``before`` (the position at the start of the Allied
        movement); a unit "moved" if its hex changed.
        """
        turn = after.turn_index if after.turn_index is not None else before.turn_index
        if turn is None or turn + 1 != FEINT_TURN:
            return
        axis_adjacent = {n for h in before.hexes_of.get(AXIS, set()) for n in h.neighbours()}
        for u in moved(before, after, ALLIED):
            assert u.hex is not None
            if u.hex not in axis_adjacent:
                now = after.position.unit(u.id).hex
                yield Finding("17.0", Severity.ERROR,
                              f"Rommel's feint: {u.id} moved on turn 1 from {before.label(u.hex)} but was not adjacent "
                              "to an Axis unit",
                              units=(u.id,), hexes=before.labels([u.hex, *([now] if now is not None else [])]))


# =================================================================================================
# Helpers shared with the SPI and BG plugins (game-agnostic).
# =================================================================================================
def hex_or_none(game_map: GameMap, label: str) -> Hex | None:
    try:
        return game_map.hex(label)
    except ValueError:
        return None


def place_hexes(game_map: GameMap, name: str) -> frozenset[Hex]:
    """The hexes of a named place of the map (empty if the map has no such place)."""
    try:
        return frozenset(game_map.place(name).hexes)
    except KeyError:
        return frozenset()


def side_steps(sides: Iterable[Hexside]) -> dict[Hex, frozenset[Hex]]:
    """Hexsides as steps: ``a -> {b, ...}`` for each side between a and b (both directions)."""
    out: dict[Hex, set[Hex]] = {}
    for s in sides:
        a, b = s.hexes
        out.setdefault(a, set()).add(b)
        out.setdefault(b, set()).add(a)
    return {k: frozenset(v) for k, v in out.items()}


_TURN_NUMBER = re.compile(r"^\s*(?:(?:game[\s-]*)?turn|gt|t)?[\s#:-]*(\d{1,3})\s*$", re.IGNORECASE)


def game_turn(label: str | None) -> int | None:
    """``"6"``, ``"Turn 6"``, ``"Game-Turn 6"``, ``"GT6"`` -> 6; anything else None."""
    if label is None:
        return None
    m = _TURN_NUMBER.match(str(label))
    return int(m.group(1)) if m else None


def turn_number_index(label: str | None, last: int | None) -> int | None:
    """Index (0-based) of a numbered game turn; None if not a number or beyond ``last``."""
    n = game_turn(label)
    if n is None or n < 1 or (last is not None and n > last):
        return None
    return n - 1


def over_stacked(units: Iterable[Unit], limit: int) -> str:
    """``"2 axis"`` for each side with more than ``limit`` of ``units`` (one hex's stack); "" if none."""
    per_side: dict[str, int] = {}
    for u in units:
        per_side[u.side] = per_side.get(u.side, 0) + 1
    return " and ".join(f"{n} {s}" for s, n in sorted(per_side.items()) if n > limit)


def box_in(unit: Unit, names: Iterable[str]) -> bool:
    return unit.hex is None and (unit.box or "").strip().lower() in names


def eliminated(ctx: Context, side: str) -> list[Unit]:
    """Units of ``side`` in an eliminated box (``box: eliminated``)."""
    return [u for u in ctx.units(side) if box_in(u, ELIMINATED_BOXES)]


def moved(before: Context, after: Context, side: str) -> list[Unit]:
    """Units of ``side`` (as in ``before``) standing on a map hex there and elsewhere in ``after``."""
    now = {u.id: u.hex for u in after.position.units}
    return [u for u in before.units(side) if u.hex is not None and u.id in now and now[u.id] != u.hex]


@dataclasses.dataclass(frozen=True)
class PathAnswer:
    """A path found (``path``, start first) or why there is none (``reason``, ``blockers``)."""

    path: tuple[Hex, ...] | None
    reason: str = ""
    blockers: tuple[Hex, ...] = ()

    def labels(self, ctx: Context) -> list[str]:
        return [ctx.label(h) for h in self.path or ()]

    def to_dict(self, ctx: Context) -> dict[str, object]:
        if self.path is not None:
            return {"found": True, "hexes": self.labels(ctx)}
        return {"found": False, "reason": self.reason, "blockers": list(ctx.labels(self.blockers))}


def find_path(ctx: Context, start: Hex, targets: Sequence[Hex], cost: Cost, why: Mapping[Hex, str],
              side_reason: str = "behind a blocked hexside") -> PathAnswer:
    """Shortest path from ``start`` to any of ``targets``; if none, the reason and the hexes that block.

    ``why`` says why a hex cannot be on the path; the start and the targets must be allowed too.
    ``side_reason`` names what stops a step into an allowed hex (the cost hook's hexside rules).
    """
    if start in why:
        return PathAnswer(None, f"{ctx.label(start)} itself is {why[start]}", (start,))
    res = multi_source_search(ctx.topology, [start], cost)
    got = [t for t in targets if t in res]
    if got:
        best = min(got, key=lambda t: (res.dist[t], t))
        return PathAnswer(tuple(reversed(res.path(best))))
    bad = [f"{ctx.label(t)} is {why[t]}" for t in targets if t in why]
    if bad:
        return PathAnswer(None, "; ".join(bad), tuple(t for t in targets if t in why))
    edge = frontier(ctx.topology, res)
    kinds = sorted({why.get(h, side_reason) for h in edge})
    return PathAnswer(None, f"every route is cut: {len(res.dist)} hexes reachable, bounded by hexes "
                            f"{', '.join(kinds)}", tuple(sorted(edge)))


def frontier(topology: Topology, res: SearchResult) -> set[Hex]:
    """Hexes just outside the reached region (the ones that stopped the search)."""
    adj = topology.neighbours
    return {n for h in res.dist for n in adj[h] if n not in res.dist}


_MANIFESTS: dict[str, dict[str, Any]] = {}


def manifest_units(game: str) -> dict[str, Any]:
    """Counters of the game's manifest by counter id and unit id (empty if the game has none)."""
    got = _MANIFESTS.get(game)
    if got is None:
        got = {}
        try:
            from gazala_tools.counters import load_manifest

            for c in load_manifest(game).units:
                got.setdefault(c.unit_id or c.id, c)
                got.setdefault(c.id, c)
        except (GazalaError, OSError, KeyError, ImportError) as exc:
            log.info("no counter manifest for %s: %s", game, exc)
        _MANIFESTS[game] = got
    return got


_STRENGTH = re.compile(r"\d+-\d+-\d+")


def printed_values(unit: Unit, game: str) -> tuple[str, tuple[int, ...]] | None:
    """The unit's printed values, from the game's counter manifest, else from a ``4-5-15`` code in
    its type or at the end of its id: (``"adm"`` attack-defence-move | ``"art"`` barrage-FPF-defence-move,
    numbers). A code is the last three numbers, four for an artillery type."""
    c = manifest_units(game).get(unit.id)
    if c is not None:
        roles = {v.role: v.number or 0 for v in c.front.values}
        if "barrage" in roles:
            return "art", (roles.get("barrage", 0), roles.get("fpf", 0), roles.get("defence", 0), roles.get("move", 0))
        return "adm", (roles.get("attack", 0), roles.get("defence", 0), roles.get("move", 0))
    art = unit.type.startswith("art")
    for text in (unit.type, unit.id):
        if _STRENGTH.search(text):
            nums = [int(x) for x in re.findall(r"\d+", text)]
            k = 4 if art and len(nums) >= 4 else 3
            return ("art" if k == 4 else "adm"), tuple(nums[-k:])
    return None
