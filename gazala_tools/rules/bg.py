"""Batalha de Gazala (Portuguese rules): data tables and rule hooks.

Section numbers are the rulebook's (``../shared/seeds/001_...txt``); quotations are translated in
``docs/referee-dg-spi-bg.md``. Interpretations are marked ``Interpretation:``.

Map facts (``load_map("batalha")``, our own numbering, e.g. ``K14``): places ``Tobruk``,
``Bir Hacheim``, ``El Adem``, ``Knightsbridge``, ``Belhamed``; zone ``axis-road-entries`` (the two
west-edge road hexes of 4.1; else the west-edge road hexes); minefield hexes; sea.

Reduced units (7.0) are those below full strength (``Unit.reduced``: steps 1 of 2, the reduced
back of the counter, from a save's Step layer or ``steps: 1`` in a position YAML).
Position extras: ``reduced: [unit ids]`` (a synonym: units on their reduced side, e.g. inline units
whose full strength is not known); ``cleared: [hexes]`` (minefield hexes with a cleared-minefield
marker, 9.3).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import ClassVar, Final

from gazala_tools.hexes import Hex
from gazala_tools.mapdata.model import GameMap
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
from gazala_tools.referee.search import BlockCost, SearchResult, multi_source_search
from gazala_tools.rules import register
from gazala_tools.rules.dg import (
    ELIMINATED_BOXES,
    REINFORCEMENT_BOXES,
    box_in,
    eliminated,
    manifest_units,
    over_stacked,
    place_hexes,
    turn_number_index,
)

AXIS: Final = "axis"
ALLIED: Final = "allied"
LAST_TURN: Final = 14  # 2.4.1: 14 turns of two days
STACK_LIMIT: Final = 3  # 4.1.1
MOTORIZED_RANGE: Final = 20  # 4.1
#: 11.2: objectives and their points, for the side holding them at the end.
OBJECTIVES: Final = (("Tobruk", 50), ("Bir Hacheim", 30), ("El Adem", 20), ("Knightsbridge", 10))
RECOVERY_PLACES: Final = ("Belhamed", "Tobruk")  # 7.0
AXIS_KILL_VP: Final = 5  # 11.2.1: per Allied unit destroyed
ALLIED_KILL_VP: Final = {"de": 5, "it": 1}  # 11.2.2: per German / Italian unit destroyed
EXITED_BOXES: Final = ("exited",)  # 4.2.2: retreated off the map, not destroyed
#: Terrain chart: "Braço de Mar ... * Proibido para blindados" (5.3.2: armor retreating into it is eliminated).
SEA_INLET: Final = "sea-inlet"
#: Interpretation (4.1, terrain chart "MTZ"): motorized = armor, motorized/mechanized infantry,
#: reconnaissance and mechanized artillery; plain artillery "moves like infantry" (8.0).
MOTORIZED_TYPES: Final = frozenset({"armor", "motorized-infantry", "mechanized-infantry", "recon", "armored-recon",
                                    "mechanized-artillery"})
#: Interpretation (4.1.2 note): "infantry units" are the infantry types, motorized ones included.
INFANTRY_TYPES: Final = frozenset({"infantry", "motorized-infantry", "mechanized-infantry"})
ITALIAN_FORMATIONS: Final = ("ariete", "trieste", "littorio", "pavia", "brescia", "sabratha", "trento", "bologna")
GERMAN_FORMATIONS: Final = ("15 pz", "21 pz", "90", "ak", "pz a")


def is_armor(unit: Unit) -> bool:
    return unit.type.startswith("arm")


def is_infantry(unit: Unit) -> bool:
    return unit.type in INFANTRY_TYPES


def is_motorized(unit: Unit) -> bool:
    return unit.type in MOTORIZED_TYPES


def nationality(unit: Unit, game: str) -> str | None:
    """``"de"``, ``"it"``, ... from the counter manifest, else from the formation or id prefix."""
    c = manifest_units(game).get(unit.id)
    if c is not None:
        return str(c.nationality)
    f = unit.formation.lower()
    if any(f.startswith(n) for n in ITALIAN_FORMATIONS) or unit.id.startswith(("it-", "ita-")):
        return "it"
    if any(f.startswith(n) for n in GERMAN_FORMATIONS) or unit.id.startswith(("de-", "ger-")):
        return "de"
    return None


@register
class BatalhaDeGazala(RulesPlugin):
    """Batalha de Gazala."""

    game: ClassVar[str] = "batalha"
    sides: ClassVar[tuple[str, str]] = (AXIS, ALLIED)
    turns: ClassVar[tuple[str, ...]] = tuple(str(n) for n in range(1, LAST_TURN + 1))
    extra_keys: ClassVar[frozenset[str]] = frozenset({"reduced", "cleared"})
    extra_hex_keys: ClassVar[frozenset[str]] = frozenset({"cleared"})

    def __init__(self, game_map: GameMap) -> None:
        super().__init__(game_map)
        m = game_map
        self.impassable = frozenset(h for h in m.hexes() if not m.passable(h))
        self.minefields = m.minefield_hexes()
        self.sea_inlets = frozenset(m.hexes_of_terrain(SEA_INLET))
        try:
            entries = m.zone("axis-road-entries").hexes
        except KeyError:
            entries = frozenset(h for h in m.grid.edge_hexes("W") if h in m.path_hexes("road"))
        self.road_entries = entries
        self.objectives = [(name, place_hexes(m, name), points) for name, points in OBJECTIVES]
        self.recovery = frozenset().union(*(place_hexes(m, n) for n in RECOVERY_PLACES))
        self._out_of_range: tuple[Context, list[Unit]] | None = None

    def turn_index(self, label: str | None) -> int | None:
        return turn_number_index(label, LAST_TURN)

    # --- legality ------------------------------------------------------------------------------------
    def checks(self) -> Sequence[Check]:
        return (self.check_on_map, self.check_armor_sea_inlet, self.check_enemy_share, self.check_stacking,
                self.check_4_1_2_engaged, self.check_4_1_motorized_range, self.check_7_0_recovery)

    def check_on_map(self, ctx: Context) -> Iterable[Finding]:
        """Units on map hexes other than sea (terrain chart: sea prohibited)."""
        return check_on_map(ctx, "4.0", lambda u: box_in(u, REINFORCEMENT_BOXES + ELIMINATED_BOXES + EXITED_BOXES))

    def check_armor_sea_inlet(self, ctx: Context) -> Iterable[Finding]:
        """Terrain chart (4.0): sea inlets are prohibited to armor."""
        for u in ctx.on_map():
            if u.hex in self.sea_inlets and is_armor(u):
                where = ctx.label(u.hex)
                yield Finding("4.0", Severity.ERROR, f"armor unit {u.id} on sea inlet {where}: prohibited to armor "
                              "(terrain chart; 5.3.2)", units=(u.id,), hexes=(where,))

    def check_enemy_share(self, ctx: Context) -> Iterable[Finding]:
        return check_enemy_share(ctx, "4.1.2")

    def check_stacking(self, ctx: Context) -> Iterable[Finding]:
        def problem(units: list[Unit]) -> str | None:
            over = over_stacked(units, STACK_LIMIT)
            return f"{over} units in one hex (at most {STACK_LIMIT})" if over else None

        return check_stacking(ctx, "4.1.1", problem)

    # --- 4.1.2 engagement zones ----------------------------------------------------------------------
    def zones_against(self, ctx: Context, mover_side: str, *, armor: bool) -> set[Hex]:
        """Hexes in the engagement zone of ``mover_side``'s enemies, as a mover sees them.

        4.1.2 note: armor ignores the engagement zones of infantry units entirely.
        """
        enemy = self.enemy(mover_side)
        zoc = ctx.zoc(enemy)
        if not armor:
            return set(zoc)
        infantry = {u.id for u in ctx.units(enemy) if is_infantry(u)}
        return {h for h, ids in zoc.items() if any(uid not in infantry for uid in ids)}

    def check_4_1_2_engaged(self, ctx: Context) -> Iterable[Finding]:
        """5.0 / 4.1.2: units adjacent to enemy units are engaged (combat, disengage or dominant terrain)."""
        engaged = [u for u in ctx.on_map() if u.hex in ctx.zoc(self.enemy(u.side))]
        if engaged:
            yield Finding("4.1.2", Severity.INFO,
                          f"{len(engaged)} unit(s) engaged (in an enemy engagement zone): "
                          + ", ".join(u.id for u in engaged),
                          units=tuple(u.id for u in engaged), hexes=ctx.labels(u.hex for u in engaged if u.hex))

    # --- 4.1 Axis motorized range --------------------------------------------------------------------
    def axis_holds(self, ctx: Context, hexes: Iterable[Hex]) -> bool:
        sides = {u.side for h in hexes for u in ctx.by_hex.get(h, [])}
        return AXIS in sides and ALLIED not in sides

    def range_search(self, ctx: Context, *, armor: bool) -> SearchResult:
        """4.1: hexes within 20 of a west-edge road hex by a path free of enemy engagement zones,
        enemy units, minefield hexes and sea.

        Interpretation: the path is the unit's movement, so armor ignores infantry zones (4.1.2) but
        may not cross a sea inlet (terrain chart), and the unit's own hex may be engaged or a minefield
        hex (only the hexes it would cross count).
        """
        blocked = (self.zones_against(ctx, AXIS, armor=armor) | ctx.hexes_of.get(ALLIED, set())
                   | self.minefield_hexes(ctx) | self.impassable | (self.sea_inlets if armor else frozenset()))
        cost = BlockCost(self.topology, hexes=blocked)
        return multi_source_search(self.topology, [h for h in self.road_entries if h not in blocked], cost,
                                   reverse=True)

    def minefield_hexes(self, ctx: Context) -> frozenset[Hex]:
        """9.3: minefield hexes without a cleared-minefield marker (``cleared`` hexes are open terrain)."""
        cleared = ctx.position.extra.get("cleared")
        return self.minefields - cleared if isinstance(cleared, frozenset) else self.minefields

    def tobruk_taken(self, ctx: Context) -> bool:
        """4.1: the range limit lasts "until the Axis takes Tobruk" (Axis units hold it now)."""
        tobruk = place_hexes(self.map, "Tobruk")
        return bool(tobruk) and self.axis_holds(ctx, tobruk)

    def out_of_range(self, ctx: Context) -> list[Unit]:
        """4.1: motorized Axis units that cannot move (computed once per position)."""
        if self._out_of_range is not None and self._out_of_range[0] is ctx:
            return self._out_of_range[1]
        units = [u for u in ctx.on_map(AXIS) if is_motorized(u)]
        out: list[Unit] = []
        if units and not self.tobruk_taken(ctx):
            reach = {a: self.range_search(ctx, armor=a) for a in {is_armor(u) for u in units}}
            out = [u for u in units if u.hex is not None and not _within(reach[is_armor(u)], u.hex, MOTORIZED_RANGE)]
        self._out_of_range = (ctx, out)
        return out

    def check_4_1_motorized_range(self, ctx: Context) -> Iterable[Finding]:
        if self.tobruk_taken(ctx):
            if any(is_motorized(u) for u in ctx.on_map(AXIS)):
                yield Finding("4.1", Severity.INFO, "the Axis holds Tobruk: no motorized range limit",
                              hexes=ctx.labels(place_hexes(self.map, "Tobruk")))
            return
        entries = "/".join(ctx.labels(self.road_entries))
        for u in self.out_of_range(ctx):
            assert u.hex is not None
            yield Finding("4.1", Severity.WARNING,
                          f"motorized {u.id} at {ctx.label(u.hex)} is more than {MOTORIZED_RANGE} hexes from the west-edge "
                          f"road hexes {entries} (by a path free of enemy zones and minefields): it cannot move, "
                          "except to retreat",
                          units=(u.id,), hexes=(ctx.label(u.hex),))

    # --- 7.0 recovery --------------------------------------------------------------------------------
    def check_7_0_recovery(self, ctx: Context) -> Iterable[Finding]:
        """7.0: an Allied reduced unit that stays disengaged and traces a line free of enemy zones to
        Belhamed or Tobruk flips back. Interpretation: the line is not movement, so armor does not
        ignore infantry zones here; enemy units and sea also cut it."""
        reduced = set(ctx.position.extra.get("reduced") or ()) | {u.id for u in ctx.units() if u.reduced}
        if not reduced:
            return
        zones = set(ctx.zoc(AXIS))
        blocked = zones | ctx.hexes_of.get(AXIS, set()) | self.impassable
        line = multi_source_search(self.topology, [h for h in self.recovery if h not in blocked],
                                   BlockCost(self.topology, hexes=blocked), reverse=True)
        for u in ctx.units():
            if u.id not in reduced or u.hex is None:
                continue
            where = ctx.label(u.hex)
            if u.side == AXIS:
                yield Finding("7.0", Severity.INFO, f"{u.id} at {where}: only Allied units recover", units=(u.id,),
                              hexes=(where,))
            elif u.hex in zones:
                yield Finding("7.0", Severity.INFO, f"{u.id} at {where} is engaged: no recovery", units=(u.id,),
                              hexes=(where,))
            elif u.hex in line:
                path = [ctx.label(h) for h in line.path(u.hex)]
                ctx.add_path("recovery", f"7.0 recovery line of {u.id}", line.path(u.hex), side=ALLIED)
                yield Finding("7.0", Severity.WARNING,
                              f"{u.id} at {where} may recover (flip to full strength) if it stays disengaged: line "
                              + "-".join(path), units=(u.id,), hexes=tuple(path))
            else:
                yield Finding("7.0", Severity.INFO,
                              f"{u.id} at {where}: no line free of enemy zones to Belhamed or Tobruk", units=(u.id,),
                              hexes=(where,))

    # --- 11.2 objectives and points ------------------------------------------------------------------
    def holder(self, ctx: Context, hexes: Iterable[Hex]) -> str:
        """Interpretation: an objective is the Axis's while Axis units (and no Allied unit) occupy
        it; otherwise the Allies', who hold every objective at the start (11.1)."""
        return AXIS if self.axis_holds(ctx, hexes) else ALLIED

    def vp(self, ctx: Context) -> tuple[dict[str, object], list[Finding]]:
        findings: list[Finding] = []
        points = {AXIS: 0, ALLIED: 0}
        held: dict[str, str] = {}
        for name, hexes, value in self.objectives:
            if not hexes:
                findings.append(Finding("11.2", Severity.WARNING, f"the map has no place {name!r}: not scored"))
                continue
            side = self.holder(ctx, hexes)
            held[name] = side
            points[side] += value
        lost_allied = eliminated(ctx, ALLIED)
        points[AXIS] += AXIS_KILL_VP * len(lost_allied)
        unknown: list[str] = []
        for u in eliminated(ctx, AXIS):
            nat = nationality(u, self.game)
            if nat in ALLIED_KILL_VP:
                points[ALLIED] += ALLIED_KILL_VP[nat]
            else:
                unknown.append(u.id)
        if unknown:
            findings.append(Finding("11.2.2", Severity.WARNING,
                                    f"nationality unknown for eliminated {', '.join(unknown)}: not scored "
                                    "(use a manifest unit, or a German/Italian formation)", units=tuple(unknown)))
        ahead = AXIS if points[AXIS] > points[ALLIED] else ALLIED if points[ALLIED] > points[AXIS] else None
        findings.append(Finding("11.2", Severity.INFO,
                                f"points Axis {points[AXIS]}, Allies {points[ALLIED]}: "
                                + (f"{ahead} ahead" if ahead else "level")
                                + " (objectives: " + ", ".join(f"{n} {s}" for n, s in held.items()) + ")"))
        return {"axis": points[AXIS], "allied": points[ALLIED], "objectives": held, "ahead": ahead,
                "motorized_out_of_range": [u.id for u in self.out_of_range(ctx)]}, findings


def _within(res: SearchResult, h: Hex, limit: int) -> bool:
    d = res.distance(h)
    return d is not None and d <= limit
