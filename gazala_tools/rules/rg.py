"""Gazala: The Cauldron (Revolution Games, 2nd edition): data tables and rule hooks.

Section numbers are the rulebook's (``../shared/seeds/000_...txt``). Interpretations of ambiguous
wording are marked ``Interpretation:`` here and listed in ``docs/referee.md``.

Map facts come from the map data (``load_map("gazala-rg")``) by zone name: ``allied-prohibited``
(8.1), ``69th-area`` (8.2), ``axis-supply`` / ``allied-supply`` (5.0; computed from the map edges
when a map lacks them), minefield boxes with ``owner`` and ``active_from`` (14.0), escarpment
hexsides with their up side, and roads.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import ClassVar, Final

from gazala_tools.hexes import Hex, Hexside
from gazala_tools.mapdata.model import GameMap, HexsideKind
from gazala_tools.referee.engine import (
    Check,
    Context,
    RulesPlugin,
    SupplyOutcome,
    check_enemy_share,
    check_on_map,
    check_stacking,
    marker_flow,
    normalise_turn,
    trace,
)
from gazala_tools.referee.findings import Finding, Severity
from gazala_tools.referee.position import DISRUPTED, ISOLATED, OUT_OF_SUPPLY, Breach, BreachState, Unit
from gazala_tools.referee.report import LocPath, LocReport, SupplyStatus
from gazala_tools.referee.search import BlockCost, SearchResult, multi_source_search
from gazala_tools.rules import register

AXIS: Final = "axis"
ALLIED: Final = "allied"

#: The turn record (4.0, 15.1, 17.0). The printed Turn Record Track is not in the rule text:
#: May 30 and May 31 are inferred (one turn per day between May 29 and the June 1-2 turn).
TURNS: Final = (
    "May 27 AM", "May 27 PM", "May 28", "May 29", "May 30", "May 31", "June 1-2", "June 3-4",
    "June 5-6", "June 7-8", "June 9-10", "June 11-12", "June 13-14",
)
FIRST_BREACH_TURN: Final = "May 28"  # 14.1
ONE_LOC_TURN: Final = "May 29"  # 14.2
TWO_LOC_TURN: Final = "June 1-2"  # 14.2
LOC_UNITS: Final = 8  # 14.2
LOC_LAST_HEX: Final = "1119"  # 8.1 line ends at 1119; 14.2 LOC hexes run 0104..1118
STACK_LIMIT: Final = 2  # 10.0
BREACHES_PER_TURN: Final = 2  # 14.1
#: 14.1: "limited to the total number of breach counters provided"; the count (6) is the counter
#: manifest's reconstruction, not a printed number.
BREACH_COUNTERS: Final = 6
NORTH_EDGE_UNITS: Final = 4  # 16.0
VP_HEX: Final = "2803"  # 16.0
#: 17.0 fortified hexes and the Allied VP per occupied hex (Scenario One: 1 each).
CAMPAIGN_FORT_VP: Final = {"1504": 2, "1605": 2, "2705": 2, "1118": 3, "1218": 3, "1219": 3, "1318": 3}
#: 7.0: formations that may not be activated on the first two turns, and the Panzer limit there.
FIRST_TURNS: Final = ("May 27 AM", "May 27 PM")
NO_ACTIVATION_FIRST_TURNS: Final = ("9 Ind", "69 Inf", "150 Inf", "201 Gd", "1 FF", "Pavia", "Trieste")
ONCE_FIRST_TURNS: Final = ("15 PZ", "21 PZ")
MAX_ACTIVATIONS: Final = 2
#: Off-map boxes a unit may stand in (8.3 turn record track; reinforcements not yet placed, 15.0).
OFF_MAP_BOXES: Final = ("reinforcements", "turn-record", "withdrawn")


def formation_key(name: str) -> str:
    """``"69 Inf"``, ``"69th Bde"``, ``"69 inf."`` -> ``"69"``; ``"21 PZ"`` -> ``"21pz"``; ``"Pavia"`` -> ``"pavia"``."""
    s = re.sub(r"[^a-z0-9]", "", name.lower())
    m = re.fullmatch(r"(\d+)(?:st|nd|rd|th)?(inf|bde|brigade|infantry|ind|indian|gd|guards|ff|freefr|freefrench|"
                     r"pz|panzer|lt|motor|arm|atb)?", s)
    if m and m.group(2) in (None, "inf", "bde", "brigade", "infantry"):
        return m.group(1)
    aliases = {"indian": "ind", "guards": "gd", "freefr": "ff", "freefrench": "ff", "panzer": "pz"}
    if m and m.group(2):  # 7.0 prints "15th Panzer", "1 Free Fr.", "9 Indian", "201 Guards"
        return m.group(1) + aliases.get(m.group(2), m.group(2))
    return s


def unit_kind(unit: Unit) -> str:
    """armor | infantry | anti-tank | other, from the unit's type (2.2.3, 8.0)."""
    t = unit.type.lower()
    if t in ("armor", "armour", "tank"):
        return "armor"
    if "infantry" in t or t == "inf":
        return "infantry"
    if t in ("anti-tank", "at"):
        return "anti-tank"
    return "other"


def _in(formation: str, names: Iterable[str]) -> bool:
    key = formation_key(formation)
    return any(key == formation_key(n) for n in names)


@register
class GazalaRG(RulesPlugin):
    """Gazala: The Cauldron. Sides ``axis`` and ``allied``."""

    game: ClassVar[str] = "gazala-rg"
    sides: ClassVar[tuple[str, str]] = (AXIS, ALLIED)
    turns: ClassVar[tuple[str, ...]] = TURNS

    def __init__(self, game_map: GameMap) -> None:
        super().__init__(game_map)
        m = game_map
        self.notes: list[str] = []
        self.impassable = frozenset(h for h in m.hexes() if not m.passable(h))
        roads = m.path_sides("road")
        # 8.0: an escarpment is crossed only along a road (both ways; supply and LOC too, 5.0/14.2).
        self.escarpment_blocks = frozenset(
            s for s in m.feature_sides(HexsideKind.ESCARPMENT) if s not in roads
        )
        # 9.0: no ZOC up an escarpment: a -> set of neighbours b that are the up side of a-b.
        self.zoc_up: dict[Hex, set[Hex]] = {}
        for s in m.feature_sides(HexsideKind.ESCARPMENT):
            f = m.feature(s, HexsideKind.ESCARPMENT)
            if f is not None and f.up is not None:
                self.zoc_up.setdefault(s.other(f.up), set()).add(f.up)
        # 14.0: Allied minefield hexsides with the turn they take effect (None: from the start).
        self.minefields: dict[Hexside, int | None] = {}
        for s in m.feature_sides(HexsideKind.MINEFIELD):
            f = m.minefield(s)
            if f is not None and f.owner == ALLIED:
                self.minefields[s] = self._active_index(f.active_from)
        self.minefield_boxes: list[tuple[frozenset[Hex], int | None]] = [
            (b.hexes, self._active_index(b.active_from))
            for b in m.boxes
            if b.kind is HexsideKind.MINEFIELD and b.owner == ALLIED
        ]
        self.prohibited = self._zone("allied-prohibited")
        self.area_69 = self._zone("69th-area")
        axis_src = self._zone("axis-supply")
        allied_src = self._zone("allied-supply")
        grid = m.grid
        if axis_src is None:  # 5.0: west map edge hexes south of 0105
            axis_src = frozenset(h for h in grid.edge_hexes("W") if grid.numbers(h)[1] > 5)
        if allied_src is None:  # 5.0: any north or east map edge hex
            allied_src = frozenset(grid.edge_hexes("N")) | frozenset(grid.edge_hexes("E"))
        self.sources = {AXIS: axis_src, ALLIED: allied_src}
        self.north_edge = frozenset(grid.edge_hexes("N"))
        # 14.2: the LOC runs "from the west map edge" (any west-edge hex, not only 5.0's sources)
        self.loc_sources = frozenset(grid.edge_hexes("W"))
        # 17.0: the map's fortified hexes (Scenario One) and the hexes the campaign names
        named = (self._hex_or_none(label) for label in CAMPAIGN_FORT_VP)
        self.fortified = m.fortified_hexes() | frozenset(h for h in named if h is not None)
        self.loc_last = self._hex_or_none(LOC_LAST_HEX)

    # --- helpers ---------------------------------------------------------------------------------
    def _active_index(self, active_from: str | None) -> int | None:
        if active_from is None:
            return None
        idx = self.turn_index(active_from)
        if idx is None:
            raise ValueError(f"minefield active_from {active_from!r} is not a turn of {self.game}")
        return idx

    def _zone(self, name: str) -> frozenset[Hex] | None:
        try:
            return self.map.zone(name).hexes
        except KeyError:
            self.notes.append(f"map has no zone {name!r}")
            return None

    def _hex_or_none(self, label: str) -> Hex | None:
        try:
            return self.map.hex(label)
        except ValueError:
            return None

    def minefield_active(self, ctx: Context, start: int | None) -> bool:
        """14.0: a minefield built during the battle has no effect before its turn.

        Interpretation: with no turn given, dated minefields are taken as not yet built.
        """
        if start is None:
            return True
        return ctx.turn_index is not None and ctx.turn_index >= start

    def active_minefield_sides(self, ctx: Context) -> set[Hexside]:
        return {s for s, start in self.minefields.items() if self.minefield_active(ctx, start)}

    def active_minefield_hexes(self, ctx: Context) -> set[Hex]:
        return self.active_minefield_hexes_at(ctx.position.turn)

    def active_minefield_hexes_at(self, turn: str | None) -> set[Hex]:
        """Minefield box hexes in force on ``turn`` (dated ones only once reached; 14.0)."""
        idx = self.turn_index(turn)
        return {h for hexes, start in self.minefield_boxes
                if start is None or (idx is not None and idx >= start) for h in hexes}

    def minefield_hex_of(self, ctx: Context, side: Hexside, at: Hex | None = None) -> Hex | None:
        """The minefield hex (box) a breached hexside leads into (14.1)."""
        boxes = self.active_minefield_hexes(ctx)
        a, b = side.hexes
        cands = [h for h in (a, b) if h in boxes]
        if len(cands) != 1:
            # no box data, or a side between two boxes: the hex whose opposite side is minefield too
            mf = self.active_minefield_sides(ctx)
            cands = [h for h in (a, b) if _opposite_side(h, side) in mf] or cands
        if len(cands) > 1 and at is not None and at in cands:
            cands = [h for h in cands if h != at] or cands
        return cands[0] if len(cands) == 1 else None

    def breached_sides(self, ctx: Context) -> set[Hexside]:
        """Hexsides a *breached* marker opens: its hexside, and with ``through`` the opposite one."""
        out: set[Hexside] = set()
        for br in ctx.position.breaches:
            if br.state is not BreachState.BREACHED:
                continue
            out.add(br.hexside)
            if br.through:
                m = self.minefield_hex_of(ctx, br.hexside, br.at)
                if m is not None:
                    out.add(_opposite_side(m, br.hexside))
        return out

    def blocked_sides(self, ctx: Context, side: str) -> set[Hexside]:
        """Hexsides ``side`` may not trace across: escarpments off roads; for the Axis also un-breached
        Allied minefield hexsides (5.0, 14.0, 14.2)."""
        blocked: set[Hexside] = set(self.escarpment_blocks)
        if side == AXIS:
            blocked |= self.active_minefield_sides(ctx) - self.breached_sides(ctx)
        return blocked

    def trace_cost(self, ctx: Context, side: str) -> BlockCost:
        """5.0 / 14.2 trace cost for ``side``: 1 per hex; no entering enemy-occupied hexes or
        impassable terrain, no crossing :meth:`blocked_sides`. Enemy ZOC does not block (5.0); the
        prohibited zone does not block Allied supply (5.0)."""
        return BlockCost(
            self.topology,
            hexes=self.impassable | ctx.hexes_of.get(self.enemy(side), set()),
            sides=self.blocked_sides(ctx, side),
        )

    # --- hooks -----------------------------------------------------------------------------------
    def exerts_zoc(self, ctx: Context, unit: Unit) -> bool:
        """9.0: non-disrupted units (Isolated and Out of Supply ones too) exert a ZOC."""
        return not unit.has(DISRUPTED)

    def zoc_projects(self, a: Hex, b: Hex) -> bool:
        """9.0: no ZOC up an escarpment (from the low side ``a`` into the high side ``b``)."""
        ups = self.zoc_up.get(a)
        return ups is None or b not in ups

    def checks(self) -> Sequence[Check]:
        return (
            self.check_on_map,
            self.check_enemy_share,
            self.check_stacking,
            self.check_8_1_prohibited_zone,
            self.check_8_2_69th_brigade,
            self.check_14_1_breaches,
            self.check_7_0_activations,
        )

    # --- position legality -----------------------------------------------------------------------
    def check_on_map(self, ctx: Context) -> Iterable[Finding]:
        turns = {normalise_turn(t) for t in TURNS}

        def box_ok(u: Unit) -> bool:
            b = (u.box or "").strip().lower()
            return b in OFF_MAP_BOXES or normalise_turn(b) in turns

        return check_on_map(ctx, "8.3", box_ok)

    def check_enemy_share(self, ctx: Context) -> Iterable[Finding]:
        # No rule lets a unit enter or be placed in an enemy-occupied hex (11.1, 15.0); cited as 10.0.
        return check_enemy_share(ctx, "10.0")

    def check_stacking(self, ctx: Context) -> Iterable[Finding]:
        def problem(units: list[Unit]) -> str | None:
            big = [u for u in units if _in(u.formation, ("Pavia", "Brescia"))]
            if big:
                return (f"{', '.join(u.id for u in big)} ({big[0].formation}) fills the hex: no unit may stack with it; "
                        f"the owner eliminates {len(units) - 1} unit(s) of his choice")
            if len(units) > STACK_LIMIT:
                return (f"{len(units)} units over-stacked (limit {STACK_LIMIT}); the owner eliminates "
                        f"{len(units) - STACK_LIMIT} of his choice (a retreat may go on to a legal hex, 11.1)")
            return None

        # 10.0: "the owning player eliminates ... units of his choice": a side's own units stack.
        return check_stacking(ctx, "10.0", problem, per_side=True)

    def check_8_1_prohibited_zone(self, ctx: Context) -> Iterable[Finding]:
        if self.prohibited is None:
            return
        for u in ctx.on_map(ALLIED):
            if u.hex in self.prohibited:
                yield Finding("8.1", Severity.ERROR,
                              f"Allied {u.id} is in the Allied Prohibited Movement Zone at {ctx.label(u.hex)}",
                              units=(u.id,), hexes=(ctx.label(u.hex),))

    def check_8_2_69th_brigade(self, ctx: Context) -> Iterable[Finding]:
        """8.2: two units of the 69th Brigade stay in the 0104-0801-north-edge area.

        The two are the units printed with a bracketed movement allowance (``restricted`` in the
        manifest); with no such flag, any two. Interpretation: eliminated or off-map units cannot be
        there, so the requirement is min(2, those units on the map).
        """
        if self.area_69 is None:
            return
        units = [u for u in ctx.units(ALLIED) if formation_key(u.formation) == "69"]
        if any(u.restricted for u in units):
            units = [u for u in units if u.restricted]
        if not units:
            return
        on_map = [u for u in units if u.hex is not None]
        inside = [u for u in on_map if u.hex in self.area_69]
        need = min(2, len(on_map))
        if len(inside) < need:
            outside = [u for u in on_map if u.hex not in self.area_69]
            yield Finding("8.2", Severity.ERROR,
                          f"only {len(inside)} of the 69th Brigade's units are in its area (0104-0801 and the north "
                          f"edge); {need} must stay there",
                          units=tuple(u.id for u in outside), hexes=ctx.labels(u.hex for u in outside if u.hex))

    # --- 14.1 breaches ---------------------------------------------------------------------------
    def check_14_1_breaches(self, ctx: Context) -> Iterable[Finding]:
        pos = ctx.position
        if not pos.breaches:
            return
        if ctx.turn_index is not None and ctx.turn_index < (self.turn_index(FIRST_BREACH_TURN) or 0):
            yield Finding("14.1", Severity.ERROR, f"breach markers before the {FIRST_BREACH_TURN} turn",
                          hexes=ctx.labels(h for b in pos.breaches for h in b.hexside.hexes))
        elif ctx.turn_index is not None and ctx.turn_index <= (self.turn_index(FIRST_BREACH_TURN) or 0):
            # a breach placed in the May 28 Minefield Phase is made at the next turn's (14.1)
            done = [b for b in pos.breaches if b.state is BreachState.BREACHED]
            if done:
                yield Finding("14.1", Severity.ERROR,
                              f"breached markers on the {FIRST_BREACH_TURN} turn: a breach started then is made at the "
                              "start of the next turn's Minefield Phase",
                              hexes=ctx.labels(h for b in done for h in b.hexside.hexes))
        if len(pos.breaches) > BREACH_COUNTERS:
            yield Finding("14.1", Severity.ERROR,
                          f"{len(pos.breaches)} breach markers: the game provides {BREACH_COUNTERS}",
                          hexes=ctx.labels(h for b in pos.breaches for h in b.hexside.hexes))
        building = [b for b in pos.breaches if b.state is BreachState.UNDER_CONSTRUCTION]
        if len(building) > BREACHES_PER_TURN:
            yield Finding("14.1", Severity.ERROR,
                          f"{len(building)} breaches under construction: the Axis may place only {BREACHES_PER_TURN} a turn",
                          hexes=ctx.labels(h for b in building for h in b.hexside.hexes))
        mf = self.active_minefield_sides(ctx)
        for br in pos.breaches:
            side_label = self.map.grid.hexside_label(br.hexside)
            if br.hexside not in mf:
                yield Finding("14.1", Severity.ERROR, f"breach marker at {side_label} points at no (active) minefield hexside",
                              hexes=ctx.labels(br.hexside.hexes))
                continue
            if br.state is BreachState.UNDER_CONSTRUCTION:
                yield from self._breach_outcome(ctx, br, side_label)

    def _breach_outcome(self, ctx: Context, br: Breach, side_label: str) -> Iterable[Finding]:
        m = self.minefield_hex_of(ctx, br.hexside, br.at)
        if m is None:
            yield Finding("14.1", Severity.WARNING, f"breach at {side_label}: cannot tell which hex is the minefield box",
                          hexes=ctx.labels(br.hexside.hexes))
            return
        origin = br.hexside.other(m)
        infantry = [u for u in ctx.by_hex.get(origin, []) if u.side == AXIS and unit_kind(u) == "infantry"]
        if not infantry:
            yield Finding("14.1", Severity.WARNING,
                          f"breach under construction at {side_label} but no Axis infantry unit in {ctx.label(origin)}",
                          hexes=(ctx.label(origin),))
        allied_in_m = [u.id for u in ctx.by_hex.get(m, []) if u.side == ALLIED]
        if allied_in_m:
            yield Finding("14.1", Severity.INFO,
                          f"breach {side_label} will fail: Allied {', '.join(allied_in_m)} in {ctx.label(m)}; "
                          "the marker is removed",
                          units=tuple(allied_in_m), hexes=(ctx.label(m),))
            return
        far = _opposite_side(m, br.hexside)
        far_label = self.map.grid.hexside_label(far)
        if far in self.active_minefield_sides(ctx):
            beside = [u.id for h in far.hexes for u in ctx.by_hex.get(h, []) if u.side == ALLIED]
            if beside:
                yield Finding("14.1", Severity.INFO,
                              f"breach {side_label} will succeed into {ctx.label(m)}; the far side {far_label} stays "
                              f"closed (Allied {', '.join(beside)} adjacent)",
                              units=tuple(beside), hexes=ctx.labels((m, *far.hexes)))
                return
            yield Finding("14.1", Severity.INFO,
                          f"breach {side_label} will succeed into {ctx.label(m)} and through {far_label} "
                          "(no Allied unit adjacent): place the marker in the box",
                          hexes=ctx.labels((m, *far.hexes)))
            return
        yield Finding("14.1", Severity.INFO, f"breach {side_label} will succeed into {ctx.label(m)}", hexes=(ctx.label(m),))

    # --- 7.0 activation limits ---------------------------------------------------------------------
    def check_7_0_activations(self, ctx: Context) -> Iterable[Finding]:
        acts = ctx.position.activations
        if not acts:
            return
        first = ctx.turn_index is not None and ctx.turn_index < len(FIRST_TURNS)
        for formation, n in sorted(acts.items()):
            if n > MAX_ACTIVATIONS:
                yield Finding("7.0", Severity.ERROR, f"{formation} activated {n} times: no formation more than twice a turn")
            if first and _in(formation, ONCE_FIRST_TURNS) and n > 1:
                yield Finding("7.0", Severity.ERROR, f"{formation} activated {n} times on {ctx.position.turn}: only once")
            if first and _in(formation, NO_ACTIVATION_FIRST_TURNS) and n > 0:
                yield Finding("7.0", Severity.ERROR, f"{formation} may not be activated on {ctx.position.turn}")

    # --- 5.0 supply ------------------------------------------------------------------------------
    def supply(self, ctx: Context) -> SupplyOutcome:
        out = SupplyOutcome(status={})
        for side in self.sides:
            units = ctx.units(side)
            if not units:
                continue
            res = trace(ctx, self.sources[side], self.trace_cost(ctx, side))
            out.reached[side] = res
            for u in units:
                if u.hex is None:  # 8.3: units off the map return in full supply
                    out.status[u.id] = SupplyStatus.IN
                    continue
                if u.has(OUT_OF_SUPPLY) and u.has(ISOLATED):
                    out.findings.append(Finding("5.0", Severity.ERROR, f"{u.id} carries both Out of Supply and Isolated",
                                                units=(u.id,), hexes=(ctx.label(u.hex),)))
                status, change = marker_flow(u, u.hex in res, "5.0")
                out.status[u.id] = status
                if change is not None:
                    out.markers.append(change)
                    what = " and ".join(
                        x for x in (f"remove {change.remove}" if change.remove else "",
                                    f"add {change.add}" if change.add else "") if x)
                    out.findings.append(Finding("5.0", Severity.WARNING,
                                                f"supply phase: {u.id} at {ctx.label(u.hex)} is {status.value} supply: {what}"
                                                if status is SupplyStatus.IN else
                                                f"supply phase: {u.id} at {ctx.label(u.hex)} cannot trace supply "
                                                f"({status.value}): {what}",
                                                units=(u.id,), hexes=(ctx.label(u.hex),)))
                elif status is not SupplyStatus.IN:
                    out.findings.append(Finding("5.0", Severity.INFO,
                                                f"{u.id} at {ctx.label(u.hex)} stays Isolated",
                                                units=(u.id,), hexes=(ctx.label(u.hex),)))
        return out

    # --- 14.2 LOC --------------------------------------------------------------------------------
    def loc_hexes(self, ctx: Context) -> list[Hex]:
        """Breachable minefield hexes of the line 0104-1118 (14.2).

        Interpretation: the minefield hexes that border the Allied Prohibited Movement Zone (the
        8.1 line from 0104 to 1119), without 1119, which 14.2 leaves out.
        """
        if self.prohibited is None:
            return []
        boxes = self.active_minefield_hexes(ctx)
        adj = self.topology.neighbours
        return sorted(
            h for h in boxes
            if h != self.loc_last and h not in self.prohibited and any(n in self.prohibited for n in adj[h])
        )

    def loc(self, ctx: Context) -> tuple[LocReport | None, list[Finding]]:
        if not self.turn_at_least(ctx, ONE_LOC_TURN):
            return LocReport(required=0, traced=0), []  # before May 29 (or turn unknown): none required
        required = 2 if self.turn_at_least(ctx, TWO_LOC_TURN) else 1
        prohibited = self.prohibited or frozenset()
        cost = self.trace_cost(ctx, AXIS)
        # 14.2: "may not cross into a breached minefield hex and then back into the Allied Prohibited
        # Movement Area": the LOC reaches the prohibited hex beside its breached hex without passing
        # any minefield hex (round the south end of the line and back in through another breach is no LOC)
        west_cost = BlockCost(self.topology, hexes=cost.blocked_hexes | self.active_minefield_hexes(ctx), sides=cost.sides)
        # ... and not through enemy units, its first (west-edge) hex included
        west = multi_source_search(self.topology, self.loc_sources - west_cost.blocked_hexes, west_cost)
        axis_at: dict[Hex, list[str]] = {}
        for u in ctx.on_map(AXIS):
            assert u.hex is not None
            axis_at.setdefault(u.hex, []).append(u.id)
        adj = self.topology.neighbours
        candidates: list[tuple[Hex, Hex, SearchResult, frozenset[str]]] = []
        for m in self.loc_hexes(ctx):
            entries = [p for p in adj[m] if p in prohibited and p in west and cost(p, m) is not None]
            exits = [e for e in adj[m] if e not in prohibited and cost(m, e) is not None]
            if not entries or not exits:
                continue
            # 14.2: no crossing into the breached hex and back into the prohibited area.
            # ... so the rest of the LOC stays out of it (and does not come back through m)
            beyond = BlockCost(self.topology, hexes=cost.blocked_hexes | prohibited | {m}, sides=cost.sides)
            east = multi_source_search(self.topology, exits, beyond)
            units = frozenset(uid for h in (m, *east.dist) for uid in axis_at.get(h, ()))
            entry = min(entries, key=lambda p: (west.distance(p) or 0, p))
            candidates.append((m, entry, east, units))
        candidates.sort(key=lambda c: (-len(c[3]), c[0]))
        chosen: list[tuple[Hex, Hex, SearchResult, frozenset[str]]] = []
        good = [c for c in candidates if len(c[3]) >= LOC_UNITS]
        if required == 2:
            for i, a in enumerate(good):
                for b in good[i + 1:]:
                    if len(a[3] | b[3]) >= 2 * LOC_UNITS:  # Hall: 8 distinct units for each LOC
                        chosen = [a, b]
                        break
                if chosen:
                    break
            if not chosen and good:
                chosen = [good[0]]
        elif good:
            chosen = [good[0]]
        paths = self._loc_paths(ctx, chosen, west, axis_at)
        traced = len(chosen)
        lost = traced < required
        findings: list[Finding] = []
        if lost:
            findings.append(Finding(
                "14.2", Severity.WARNING,
                f"the Axis traces {traced} of the {required} LOC(s) required (each through a different breached "
                f"minefield hex 0104-1118 to {LOC_UNITS} Axis units): Axis actions are reduced by one this turn",
                hexes=tuple(p.via for p in paths)))
        else:
            findings.append(Finding("14.2", Severity.INFO,
                                    f"Axis LOC traced via {', '.join(p.via for p in paths)}",
                                    hexes=tuple(p.via for p in paths)))
        return LocReport(required=required, traced=traced, paths=tuple(paths), action_lost=lost), findings

    def _loc_paths(self, ctx: Context, chosen: list[tuple[Hex, Hex, SearchResult, frozenset[str]]],
                   west: SearchResult, axis_at: dict[Hex, list[str]]) -> list[LocPath]:
        paths: list[LocPath] = []
        taken: set[str] = set()
        others = [c[3] for c in chosen]
        for i, (m, entry, east, units) in enumerate(chosen):
            rest = frozenset().union(*(o for j, o in enumerate(others) if j != i))
            order = sorted(units, key=lambda uid: (uid in rest, uid))  # own units first, shared ones last
            mine = [uid for uid in order if uid not in taken][:LOC_UNITS]
            taken.update(mine)
            mine_set = set(mine)
            far = [h for h in east.dist if any(uid in mine_set for uid in axis_at.get(h, ()))]
            tail: list[Hex] = []
            if far:
                end = max(far, key=lambda h: (east.dist[h], h))
                tail = list(reversed(east.path(end)))
            hexes = [*reversed(west.path(entry)), m, *tail]
            paths.append(LocPath(via=ctx.label(m), hexes=tuple(ctx.label(h) for h in hexes), units=tuple(sorted(mine))))
            ctx.add_path("loc", f"LOC via {ctx.label(m)} to {len(mine)} units", hexes, side=AXIS)
        return paths

    # --- 16.0 / 17.0 victory points ----------------------------------------------------------------
    def vp(self, ctx: Context) -> tuple[dict[str, object], list[Finding]]:
        """16.0 VP phase and 17.0 scenario VP for the position as it stands.

        Interpretation: "not Out of Supply or Isolated" is read from the markers the units carry
        (supply status is only adjusted in the Supply Phase, 5.0).
        """
        findings: list[Finding] = []
        north = [u for u in ctx.on_map(AXIS) if u.hex in self.north_edge
                 and not u.has(OUT_OF_SUPPLY) and not u.has(ISOLATED)]
        north_vp = 1 if len(north) >= NORTH_EDGE_UNITS else 0
        vp_hex = self._hex_or_none(VP_HEX)
        in_2803 = [u for u in ctx.on_map(AXIS) if vp_hex is not None and u.hex == vp_hex]
        hex_vp = 1 if in_2803 else 0
        if north_vp:
            findings.append(Finding("16.0", Severity.INFO,
                                    f"Axis scores 1 VP: {len(north)} in-supply units on north-edge hexes",
                                    units=tuple(u.id for u in north), hexes=ctx.labels(u.hex for u in north if u.hex)))
        if hex_vp:
            findings.append(Finding("16.0", Severity.INFO, f"Axis scores 1 VP: {in_2803[0].id} occupies {VP_HEX}",
                                    units=tuple(u.id for u in in_2803), hexes=(VP_HEX,)))
        held: dict[str, str] = {}
        for h in sorted(self.fortified, key=ctx.label):
            sides = {u.side for u in ctx.by_hex.get(h, [])}
            if sides:
                held[ctx.label(h)] = "allied" if sides == {ALLIED} else "axis" if sides == {AXIS} else "contested"
        allied_forts = sorted(k for k, v in held.items() if v == ALLIED)
        vp = {
            "axis_vp_phase": north_vp + hex_vp,
            "north_edge": {"units": [u.id for u in north], "scored": bool(north_vp)},
            VP_HEX: {"units": [u.id for u in in_2803], "scored": bool(hex_vp)},
            "fortified": held,
            # 17.0 Scenario One: 1 VP for each Allied-occupied fortified hex (of the map); the
            # campaign: the VP of the hexes it names
            "allied_scenario_one": len(allied_forts),
            "allied_campaign": sum(CAMPAIGN_FORT_VP.get(k, 0) for k in allied_forts),
        }
        if allied_forts:
            findings.append(Finding("17.0", Severity.INFO,
                                    f"Allied-occupied fortified hexes: {', '.join(allied_forts)} "
                                    f"(Scenario One {vp['allied_scenario_one']} VP, campaign {vp['allied_campaign']} VP "
                                    "at the end of the game)",
                                    hexes=tuple(allied_forts)))
        return vp, findings


def _opposite_side(h: Hex, side: Hexside) -> Hexside:
    """The hexside of ``h`` opposite ``side`` (14.1: the far side of a minefield box)."""
    return h.side(side.direction_from(h).opposite())
