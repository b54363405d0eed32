"""Cauldron (SPI 1976 / Decision Games), exclusive rules 15.0-18.0: data tables and rule hooks.

Section numbers are the exclusive rules' (``../shared/seeds/003_...txt``); the series' standard
rules (movement, ZOC, stacking, 12.0 supply effects) are not in our text. Interpretations are
marked ``Interpretation:`` and listed in ``docs/referee-dg-spi-bg.md``.

Map facts (``load_map("cauldron-spi")``, the DG map with SPI zones): roads and trails
(``paths``), the west-edge road/trail entries (zone ``axis-supply-entries``, else west-edge hexes
on a road or trail), the east edge (zone ``allied-supply``, else the grid's east edge), Tobruk 0608,
sea hexes and escarpment hexsides.

Position extras (top-level keys of the position YAML this plugin declares in ``extra_keys``; the core
keeps them in ``Position.extra``):
``attacked: [unit ids]`` (17.0), ``exited: {unit id: game-turn}`` and ``arrived: {unit id: game-turn}``
(18.3), ``values: {unit id: VP}`` (18.11, overrides the manifest), ``tobruk: axis|allied`` (the side
last to pass through an empty Tobruk, 18.21).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import ClassVar, Final

from gazala_tools.hexes import Hex
from gazala_tools.mapdata.model import GameMap, HexsideKind
from gazala_tools.referee.engine import (
    Check,
    Context,
    RulesPlugin,
    SupplyOutcome,
    check_enemy_share,
    check_on_map,
)
from gazala_tools.referee.findings import Finding, Severity
from gazala_tools.referee.position import Unit
from gazala_tools.referee.report import SupplyStatus
from gazala_tools.referee.search import BlockCost, SearchResult, multi_source_search
from gazala_tools.rules import register
from gazala_tools.rules.dg import (
    ELIMINATED_BOXES,
    REINFORCEMENT_BOXES,
    STACKING_RULE,
    box_in,
    eliminated,
    hex_or_none,
    moved,
    printed_values,
    side_steps,
    turn_number_index,
)

AXIS: Final = "axis"
ALLIED: Final = "allied"
AXIS_SUPPLY_HEXES: Final = 10  # 16.1: a path of 10 or fewer hexes to a connected trail/road hex
#: 16.3: each side is automatically supplied through the end of this game-turn.
AUTOMATIC_SUPPLY: Final = {AXIS: 3, ALLIED: 7}
COMMAND_TURN: Final = 1  # 17.0
COMMAND_RANGE: Final = 3  # 17.0: within three hexes of an Axis unit
TOBRUK: Final = "0608"  # 18.2
TOBRUK_VP: Final = 100  # 18.21 / 18.22
EXIT_WAIT: Final = 2  # 18.32: arrive on turn 6, exit from turn 8
EXITED_BOXES: Final = ("exited",)
#: 18.4: (lowest net VP, level) for each side, best first. Net 0 is a draw either way.
AXIS_LEVELS: Final = ((36, "Axis Decisive"), (21, "Axis Substantive"), (5, "Axis Marginal"), (0, "Draw"))
ALLIED_LEVELS: Final = ((41, "Allied Decisive"), (26, "Allied Substantive"), (10, "Allied Marginal"), (0, "Draw"))


def level_of_victory(axis_vp: int, allied_vp: int) -> str:
    """18.4: the level of victory from both totals (net = larger minus smaller)."""
    net = axis_vp - allied_vp
    table = AXIS_LEVELS if net >= 0 else ALLIED_LEVELS
    for lowest, level in table:
        if abs(net) >= lowest:
            return level
    return "Draw"  # pragma: no cover - the tables end at 0


def unit_vp(kind: str, numbers: Sequence[int]) -> int:
    """18.11: attack + defence (``adm``); barrage + FPF + defence for artillery (``art``)."""
    return sum(numbers[:3]) if kind == "art" else sum(numbers[:2])


@register
class CauldronSPI(RulesPlugin):
    """Cauldron (SPI 1976)."""

    game: ClassVar[str] = "cauldron-spi"
    sides: ClassVar[tuple[str, str]] = (AXIS, ALLIED)
    extra_keys: ClassVar[frozenset[str]] = frozenset({"attacked", "exited", "arrived", "values", "tobruk"})

    def __init__(self, game_map: GameMap) -> None:
        super().__init__(game_map)
        m = game_map
        self.impassable = frozenset(h for h in m.hexes() if not m.passable(h))
        self.path_sides = m.path_sides("road", "track")
        self.path_hexes = m.path_hexes("road", "track")
        # Interpretation: "unobstructed" includes the escarpment hexsides units may cross only by trail
        # or road (the DG redesign's 16.0 on the same map).
        self.escarpment_sides = frozenset(s for s in m.feature_sides(HexsideKind.ESCARPMENT)
                                          if s not in self.path_sides)
        self.road_steps = side_steps(self.path_sides)
        self.west_entries = self._zone_or("axis-supply-entries",
                                          lambda: [h for h in m.grid.edge_hexes("W") if h in self.path_hexes])
        self.east_edge = self._zone_or("allied-supply", lambda: m.grid.edge_hexes("E"))
        self.tobruk = hex_or_none(m, TOBRUK)

    def _zone_or(self, name: str, default: Callable[[], Iterable[Hex]]) -> frozenset[Hex]:
        try:
            return self.map.zone(name).hexes
        except KeyError:
            return frozenset(default())

    def turn_index(self, label: str | None) -> int | None:
        return turn_number_index(label, None)

    def game_turn(self, ctx: Context) -> int | None:
        return ctx.turn_index + 1 if ctx.turn_index is not None else None

    # --- legality ------------------------------------------------------------------------------------
    def checks(self) -> Sequence[Check]:
        return (self.check_on_map, self.check_enemy_share, self.check_17_0_command_control)

    def check_on_map(self, ctx: Context) -> Iterable[Finding]:
        return check_on_map(ctx, "terrain", lambda u: box_in(u, REINFORCEMENT_BOXES + ELIMINATED_BOXES + EXITED_BOXES))

    def check_enemy_share(self, ctx: Context) -> Iterable[Finding]:
        return check_enemy_share(ctx, STACKING_RULE)

    # --- 16.0 supply ---------------------------------------------------------------------------------
    def obstructed(self, ctx: Context, side: str) -> dict[Hex, str]:
        """16.1/16.2 "unobstructed": hexes a ``side`` supply path may not enter, with the reason.

        Interpretation (standard SPI supply): enemy-occupied hexes, and hexes in an enemy ZOC
        unless a friendly unit occupies them; sea. ZOC: every unit, into its six neighbours.
        """
        enemy = self.enemy(side)
        own = ctx.hexes_of.get(side, set())
        why = {h: "in enemy ZOC" for h in ctx.zoc(enemy) if h not in own}
        why.update({h: "enemy-occupied" for h in ctx.hexes_of.get(enemy, set())})
        why.update({h: "sea" for h in self.impassable})
        return why

    def trace_cost(self, why: Mapping[Hex, str]) -> BlockCost:
        """One step of a supply path: not into an obstructed hex, not across an escarpment hexside
        without a trail or road."""
        return BlockCost(self.topology, hexes=why, sides=self.escarpment_sides)

    def road_network(self, why: Mapping[Hex, str]) -> SearchResult:
        """16.1: trail/road hexes joined by an unobstructed trail/road to a west-edge entry."""
        road = self.road_steps
        empty: frozenset[Hex] = frozenset()

        def along(a: Hex, b: Hex) -> int | None:
            return 1 if b not in why and b in road.get(a, empty) else None

        return multi_source_search(self.topology, [h for h in self.west_entries if h not in why], along)

    def axis_trace(self, ctx: Context) -> SearchResult:
        """16.1: distance of each hex to the connected road/trail network (supplied if <= 10,
        :func:`axis_supplied`). One breadth-first search from the whole network."""
        why = self.obstructed(ctx, AXIS)
        net = self.road_network(why)
        return multi_source_search(self.topology, net.dist, self.trace_cost(why), reverse=True)

    def allied_trace(self, ctx: Context) -> SearchResult:
        """16.2: hexes with a path of any length to the east edge."""
        why = self.obstructed(ctx, ALLIED)
        return multi_source_search(self.topology, [h for h in self.east_edge if h not in why],
                                   self.trace_cost(why), reverse=True)

    def supplied(self, side: str, res: SearchResult, h: Hex) -> bool:
        d = res.distance(h)
        return d is not None and (side == ALLIED or d <= AXIS_SUPPLY_HEXES)

    def supply(self, ctx: Context) -> SupplyOutcome:
        out = SupplyOutcome(status={})
        turn = self.game_turn(ctx)
        for side in self.sides:
            units = [u for u in ctx.units(side) if u.hex is not None or box_in(u, REINFORCEMENT_BOXES)]
            if not units:
                continue
            if turn is not None and turn <= AUTOMATIC_SUPPLY[side]:
                out.status.update({u.id: SupplyStatus.IN for u in units})
                out.findings.append(Finding("16.3", Severity.INFO,
                                            f"{side} units are automatically supplied through game-turn "
                                            f"{AUTOMATIC_SUPPLY[side]} (now {turn})"))
                continue
            res = self.axis_trace(ctx) if side == AXIS else self.allied_trace(ctx)
            out.reached[side] = res
            rule = "16.1" if side == AXIS else "16.2"
            for u in units:
                ok = u.hex is None or self.supplied(side, res, u.hex)
                out.status[u.id] = SupplyStatus.IN if ok else SupplyStatus.OUT
                if not ok:
                    assert u.hex is not None
                    goal = (f"{AXIS_SUPPLY_HEXES} hexes to a trail/road joined to the west edge" if side == AXIS
                            else "the east edge")
                    out.findings.append(Finding(rule, Severity.WARNING,
                                                f"{u.id} at {ctx.label(u.hex)} is unsupplied: no unobstructed path to {goal}",
                                                units=(u.id,), hexes=(ctx.label(u.hex),)))
        return out

    # --- 17.0 command control ------------------------------------------------------------------------
    def may_move_turn_1(self, ctx: Context) -> set[str]:
        """17.0: Allied units within three hexes of an Axis unit, or attacked (``attacked`` extra)."""
        axis = list(ctx.hexes_of.get(AXIS, set()))
        attacked = set(ctx.position.extra.get("attacked") or ())
        return {u.id for u in ctx.on_map(ALLIED)
                if u.id in attacked or any(u.hex is not None and u.hex.distance(a) <= COMMAND_RANGE for a in axis)}

    def check_17_0_command_control(self, ctx: Context) -> Iterable[Finding]:
        if self.game_turn(ctx) != COMMAND_TURN:
            return
        free = sorted(self.may_move_turn_1(ctx))
        held = [u for u in ctx.on_map(ALLIED) if u.id not in free]
        yield Finding("17.0", Severity.INFO,
                      f"game-turn 1 Allied movement: {len(free)} unit(s) may move (within {COMMAND_RANGE} hexes of an "
                      f"Axis unit or attacked): {', '.join(free) or 'none'}; {len(held)} may not",
                      units=tuple(free), hexes=ctx.labels(u.hex for u in ctx.on_map(ALLIED) if u.id in free and u.hex))

    def compare(self, before: Context, after: Context) -> Iterable[Finding]:
        """17.0 with two positions: ``before`` at the start of the Allied Movement Phase of game-turn 1."""
        turn = self.game_turn(after) or self.game_turn(before)
        if turn != COMMAND_TURN:
            return
        free = self.may_move_turn_1(before) | set(after.position.extra.get("attacked") or ())
        for u in moved(before, after, ALLIED):
            if u.id not in free:
                assert u.hex is not None
                now = after.position.unit(u.id).hex
                yield Finding("17.0", Severity.ERROR,
                              f"command control: {u.id} moved on game-turn 1 but was not within {COMMAND_RANGE} hexes "
                              "of an Axis unit nor attacked",
                              units=(u.id,), hexes=before.labels([u.hex, *([now] if now is not None else [])]))

    # --- 18.0 victory points -------------------------------------------------------------------------
    def value(self, ctx: Context, unit: Unit) -> int | None:
        given = ctx.position.extra.get("values")
        if isinstance(given, Mapping) and unit.id in given:
            return int(given[unit.id])
        got = printed_values(unit, self.game)
        return unit_vp(*got) if got is not None else None

    def tobruk_control(self, ctx: Context) -> tuple[str | None, bool, str]:
        """18.21: (side controlling Tobruk, Axis supply path from it, how control was decided)."""
        if self.tobruk is None:
            return None, False, "the map has no hex 0608"
        sides = {u.side for u in ctx.by_hex.get(self.tobruk, [])}
        holder: str | None
        if sides:
            holder = AXIS if AXIS in sides else ALLIED
            how = f"occupied by {holder} units"
        else:
            last = ctx.position.extra.get("tobruk")
            holder = str(last) if last in (AXIS, ALLIED) else None
            how = f"empty; last passed through by {holder}" if holder else "empty; nobody recorded as last through"
        path = False
        if holder == AXIS:
            why = self.obstructed(ctx, AXIS)
            path = self.tobruk not in why and self.supplied(AXIS, self.axis_trace(ctx), self.tobruk)
        return holder, path, how

    def vp(self, ctx: Context) -> tuple[dict[str, object], list[Finding]]:
        findings: list[Finding] = []
        score = {AXIS: 0, ALLIED: 0}
        unknown: list[str] = []

        def worth(u: Unit) -> int:
            v = self.value(ctx, u)
            if v is None:
                unknown.append(u.id)
                return 0
            return v

        killed = {side: eliminated(ctx, side) for side in self.sides}
        for side in self.sides:
            got = sum(worth(u) for u in killed[self.enemy(side)])
            score[side] += got
            if killed[self.enemy(side)]:
                findings.append(Finding("18.12", Severity.INFO,
                                        f"{side} scores {got} VP for {len(killed[self.enemy(side)])} eliminated enemy unit(s)",
                                        units=tuple(u.id for u in killed[self.enemy(side)])))
        exited_vp, exit_findings = self.exits(ctx, worth)
        score[ALLIED] += exited_vp
        findings.extend(exit_findings)
        holder, path, how = self.tobruk_control(ctx)
        tobruk_side = AXIS if holder == AXIS and path else ALLIED
        score[tobruk_side] += TOBRUK_VP
        findings.append(Finding("18.21" if tobruk_side == AXIS else "18.22", Severity.INFO,
                                f"Tobruk {TOBRUK} ({how}"
                                + (f", Axis supply path {'traced' if path else 'not traced'}" if holder == AXIS else "")
                                + f"): {TOBRUK_VP} VP to {tobruk_side}", hexes=(TOBRUK,)))
        if tobruk_side == AXIS:
            findings.append(Finding("18.23", Severity.INFO,
                                    "the Axis controls Tobruk with a supply path: at the end of an Allied Combat Phase "
                                    "the game ends now", hexes=(TOBRUK,)))
        if unknown:
            findings.append(Finding("18.11", Severity.WARNING,
                                    f"no printed strengths for {', '.join(sorted(unknown))}: counted as 0 VP "
                                    "(give values: {id: VP} or a manifest unit)", units=tuple(sorted(unknown))))
        level = level_of_victory(score[AXIS], score[ALLIED])
        findings.append(Finding("18.4", Severity.INFO,
                                f"VP Axis {score[AXIS]}, Allied {score[ALLIED]} (net {abs(score[AXIS] - score[ALLIED])}): {level}"))
        return {"axis": score[AXIS], "allied": score[ALLIED], "tobruk": tobruk_side, "exited": exited_vp,
                "level": level}, findings

    def exits(self, ctx: Context, worth: Callable[[Unit], int]) -> tuple[int, list[Finding]]:
        """18.31-18.33: VP for Allied units exited off the east edge; reinforcements wait a full turn."""
        findings: list[Finding] = []
        exited_at = _turns(ctx.position.extra.get("exited"))
        arrived_at = _turns(ctx.position.extra.get("arrived"))
        total = 0
        for u in ctx.units():
            if not box_in(u, EXITED_BOXES):
                continue
            if u.side == AXIS:
                findings.append(Finding("18.33", Severity.INFO, f"{u.id} exited: no VP for Axis units", units=(u.id,)))
                continue
            out, came = exited_at.get(u.id), arrived_at.get(u.id)
            # without its exit turn, a unit exited at the latest on the position's game-turn
            out = out if out is not None else self.game_turn(ctx)
            if out is not None and came is not None and out < came + EXIT_WAIT:
                when = f"on {out}" if u.id in exited_at else f"by game-turn {out}"
                findings.append(Finding("18.32", Severity.ERROR,
                                        f"{u.id} arrived on game-turn {came} and exited {when}: reinforcements must "
                                        f"stay a full game-turn (exit from game-turn {came + EXIT_WAIT}); no VP",
                                        units=(u.id,)))
                continue
            total += worth(u)
        if total:
            findings.append(Finding("18.31", Severity.INFO, f"Allied units exited off the east edge: {total} VP"))
        return total, findings


def _turns(value: object) -> dict[str, int]:
    if not isinstance(value, Mapping):
        return {}
    return {str(k): int(v) for k, v in value.items() if isinstance(v, int) or str(v).isdigit()}
