"""Rule references: every hex our four games' rulebooks name, tested against our reconstructed maps.

These check functions ``(GameMap) -> list[str]`` (empty = ok) restate rule facts a second time on
purpose: they test the data in ``mapdata/`` against the rule texts in ``../shared/seeds``. Facts
another data file already holds are read from it, so the check tests the map against that file (RG
17.0's set-up: ``scenarios.yaml``) instead of a second copy. Importing
this module registers them in :mod:`gazala_tools.mapdata.checks` under their game ids, so
``run_checks`` runs them with the generic checks.
"""

from __future__ import annotations

import itertools

from gazala_tools.counters.loader import load_game_manifest
from gazala_tools.games.scenarios import load_scenarios
from gazala_tools.hexes import Direction, Hex, Hexside
from gazala_tools.mapdata.checks import _is_chain, check, flood, hexes, labels, run_checks
from gazala_tools.mapdata.model import GameMap, PathKind

__all__ = ["run_checks"]


@check(("gazala-rg", "cauldron-dg", "cauldron-spi", "batalha"), "data")
def provenance_is_reconstructed(m: GameMap) -> list[str]:
    return [] if m.provenance == "reconstructed" else [f"provenance is {m.provenance!r}, not 'reconstructed'"]


# --- RG: Gazala: The Cauldron ----------------------------------------------------------------------

RG = "gazala-rg"
RG_FORTIFIED = ("1504", "1605", "2705", "1118", "1218", "1219", "1318")
RG_AXIS_ENTRY_LINE = ("1321", "1422", "1521", "1622", "1721", "1822", "1921", "2022", "2121")


@check(RG, "RG 5.0")
def rg_5_0_axis_supply_is_west_edge_south_of_0105(m: GameMap) -> list[str]:
    want = {h for h in m.grid.edge_hexes("W") if m.grid.numbers(h)[1] > 5}
    got = set(m.zone("axis-supply").hexes)
    out = [f"missing {x}" for x in labels(m, want - got)] + [f"extra {x}" for x in labels(m, got - want)]
    if m.hex("0105") in got:
        out.append("0105 itself is a supply source")
    return out


@check(RG, "RG 5.0")
def rg_5_0_allied_supply_is_north_and_east_edges(m: GameMap) -> list[str]:
    want = {h for h in (*m.grid.edge_hexes("N"), *m.grid.edge_hexes("E")) if m.passable(h)}
    got = set(m.zone("allied-supply").hexes)
    return [f"missing {x}" for x in labels(m, want - got)] + [f"extra {x}" for x in labels(m, got - want)]


@check(RG, "RG 8.1")
def rg_8_1_minefield_line_runs_from_0104_through_1119(m: GameMap) -> list[str]:
    belt = m.box("Gazala line")
    out = []
    for x in ("0104", "1119"):
        if m.hex(x) not in belt.hexes:
            out.append(f"{x} is not in the minefield line")
    if not _is_chain(list(belt.order)):
        out.append("the minefield line is not a chain of adjacent hexes")
    if belt.order and (m.label(belt.order[0]), m.label(belt.order[-1])) != ("0104", "1119"):
        out.append(f"the line runs {m.label(belt.order[0])}..{m.label(belt.order[-1])}, not 0104..1119")
    if belt.owner != "allied":
        out.append("the Gazala line is not an Allied minefield")
    return out


@check(RG, "RG 8.1")
def rg_8_1_prohibited_zone_lies_west_of_the_line(m: GameMap) -> list[str]:
    zone = m.zone("allied-prohibited")
    line = m.zone("prohibited-line")
    belt = m.box("Gazala line").hexes
    out = []
    if zone.hexes & belt:
        out.append(f"minefield-line hexes inside the zone: {labels(m, zone.hexes & belt)}")
    # the zone is closed: leaving it means entering the minefield line or crossing the south line
    for h in zone.hexes:
        for n in h.neighbours():
            if (
                n in m.grid
                and n not in zone.hexes
                and n not in belt
                and Hexside.between(h, n) not in line.sides
            ):
                out.append(f"{m.label(h)} -> {m.label(n)} leaves the zone without crossing the line")
    if not set(m.grid.edge_hexes("W")) & zone.hexes:
        out.append("the zone does not reach the west edge")
    south = {h for h in zone.hexes if "S" in m.edges(h)}
    if not south:
        out.append("the zone does not reach the south edge (the line runs to the south edge)")
    # the line from 1119 reaches the south edge
    line_hexes = {h for s in line.sides for h in s.hexes}
    if not any("S" in m.edges(h) for h in line_hexes if h in m.grid):
        out.append("the line from 1119 does not reach the south edge")
    if not any(h.distance(m.hex("1119")) <= 1 for h in line_hexes):
        out.append("the line to the south edge does not start at 1119")
    return out


@check(RG, "RG 14.2")
def rg_14_2_loc_minefield_hexes_0104_to_1118_are_in_the_line(m: GameMap) -> list[str]:
    belt = m.box("Gazala line")
    line = list(m.hex("0104").line_to(m.hex("1118"), nudge=-1))
    alt = list(m.hex("0104").line_to(m.hex("1118"), nudge=1))
    if not (set(line) <= belt.hexes or set(alt) <= belt.hexes):
        return [f"hexes of the line 0104-1118 not in the minefield: {labels(m, set(line) - belt.hexes)}"]
    if m.hex("1118") not in belt.hexes:
        return ["1118 is not a minefield hex"]
    return []


@check(RG, "RG 8.2")
def rg_8_2_69th_area_is_bounded_by_0104_0801_and_the_north_edge(m: GameMap) -> list[str]:
    area = m.zone("69th-area").hexes
    line = set(m.hex("0104").line_to(m.hex("0801")))
    out = []
    if not line <= area:
        out.append(f"line hexes missing from the area (inclusive): {labels(m, line - area)}")
    # bounded: from the area one leaves only through the line hexes; the rest touches the north edge
    inner = area - line
    for h in inner:
        for n in h.neighbours():
            if n in m.grid and n not in area:
                out.append(f"{m.label(h)} borders {m.label(n)} outside the area without passing the line")
    if not any("N" in m.edges(h) for h in area):
        out.append("the area does not reach the north edge")
    if m.hex("0201") not in area:
        out.append("0201 (69 Inf set-up centre, 17.0) is not in the area")
    return out


@check(RG, "RG 14.1")
def rg_14_1_breach_example_hexes_are_minefield_hexes(m: GameMap) -> list[str]:
    mined = m.box_kind_hexes("minefield", "allied")
    out = [f"{x} is not a minefield hex" for x in ("1314", "1315", "1316") if m.hex(x) not in mined]
    out += [f"{x} (Axis infantry) is a minefield hex" for x in ("1215", "1216", "1217") if m.hex(x) in mined]
    for a, b in (("1215", "1314"), ("1216", "1315"), ("1217", "1316")):
        side = Hexside.between(m.hex(a), m.hex(b))
        if m.active_feature(side, "minefield") is None:
            out.append(f"{a}/{b} is not a minefield hexside")
    return out


@check(RG, "RG 14.1")
def rg_14_1_breach_into_1316_opens_the_far_side_into_1416(m: GameMap) -> list[str]:
    a, mid, far = m.hex("1217"), m.hex("1316"), m.hex("1416")
    d = a.direction_to(mid)
    if d is None:
        return ["1217 is not adjacent to 1316"]
    if mid.neighbour(d) != far:
        return [f"the hex opposite 1217 across 1316 is {m.label(mid.neighbour(d))}, not 1416"]
    out = []
    if m.active_feature(Hexside.between(mid, far), "minefield") is None:
        out.append("1316/1416 is not a minefield hexside")
    if far in m.box_kind_hexes("minefield"):
        out.append("1416 is a minefield hex (the breach leads out of the box into it)")
    return out


@check(RG, "RG 18.0")
def rg_18_0_rear_minefield_gap_between_1214_and_1313(m: GameMap) -> list[str]:
    mined = m.box_kind_hexes("minefield")
    gap = {m.hex("1214"), m.hex("1313")}
    out = [f"{m.label(h)} is a minefield hex" for h in sorted(gap) if h in mined]
    blocked = mined | m.box_kind_hexes("fortified")
    sides = m.feature_sides("minefield")
    inside = m.hex("1216")
    through = flood(m, [inside], blocked_hexes=blocked, blocked_sides=sides)
    if m.hex("1416") not in through:
        out.append("no minefield-free path from the triangle (1216) through the gap to 1416")
    closed = flood(m, [inside], blocked_hexes=blocked | gap, blocked_sides=sides)
    if m.hex("1416") in closed:
        out.append("the triangle opens east without passing the gap 1214/1313")
    return out


@check(RG, "RG 18.0")
def rg_18_0_triangle_north_of_bir_hacheim_is_surrounded_by_minefields(m: GameMap) -> list[str]:
    blocked = m.box_kind_hexes("minefield") | m.box_kind_hexes("fortified") | {m.hex("1214"), m.hex("1313")}
    tri = flood(m, [m.hex("1216")], blocked_hexes=blocked, blocked_sides=m.feature_sides("minefield"))
    out = []
    if any(m.edges(h) for h in tri):
        out.append("the triangle reaches a map edge")
    bh = m.place("Bir Hacheim").hexes
    if not any(h.is_adjacent(b) for h in tri for b in bh):
        out.append("the triangle is not north of (beside) Bir Hacheim")
    if len(tri) < 5:
        out.append(f"the triangle is only {len(tri)} hexes")
    for x in ("1215", "1216", "1217"):
        if m.hex(x) not in tri:
            out.append(f"{x} is not in the triangle")
    return out


@check(RG, "RG 14.0")
def rg_14_0_dated_minefields(m: GameMap) -> list[str]:
    out = []
    b1 = m.box("Minefield 1102")
    if set(b1.hexes) != {m.hex("1102")} or b1.active_from != "June 5-6":
        out.append("hex 1102 is not a minefield from June 5-6")
    b2 = m.box("Minefield 0204-0801")
    line = set(m.hex("0204").line_to(m.hex("0801")))
    if set(b2.hexes) != line or b2.active_from != "June 9-10":
        out.append(f"line 0204-0801 inclusive is not a minefield from June 9-10 (have {labels(m, b2.hexes)})")
    undated = {f.side for f in m.all_features() if f.kind == "minefield" and f.active_from is None}
    for side in sorted(b2.outline() - undated):
        if m.active_feature(side, "minefield", active={"June 5-6"}) is not None:
            out.append(f"{m.grid.hexside_label(side)} (June 9-10) counts before June 9-10")
    if m.active_feature(next(iter(b1.outline())), "minefield", active={"June 5-6"}) is None:
        out.append("the 1102 minefield does not count once June 5-6 is reached")
    return out


@check(RG, "RG 17.0")
def rg_17_0_the_seven_fortified_hexes(m: GameMap) -> list[str]:
    want = set(hexes(m, RG_FORTIFIED))
    got = m.box_kind_hexes("fortified")
    out = [f"{x} is not fortified" for x in labels(m, want - got)]
    out += [f"{x} is fortified but no rule says so" for x in labels(m, got - want)]
    for h in want:
        if not any(m.has(s, "fortified") for s in h.sides()):
            out.append(f"{m.label(h)} has no fortified edge")
    return out


@check(RG, "RG 16.0")
def rg_16_0_victory_hex_2803_and_north_edge(m: GameMap) -> list[str]:
    out = []
    h = m.hex("2803")
    if not m.passable(h):
        out.append("2803 is not enterable")
    if set(m.zone("vp-2803").hexes) != {h}:
        out.append("zone vp-2803 is not exactly 2803")
    if set(m.zone("north-edge").hexes) != set(m.grid.edge_hexes("N")):
        out.append("zone north-edge is not the north map edge")
    return out


@check(RG, "RG 17.0")
def rg_17_0_setup_hexes_are_on_the_map_in_legal_terrain(m: GameMap) -> list[str]:
    """The set-up of scenarios.yaml (17.0) on the map: every centre and hex passable, none of an
    Allied formation in the Prohibited Movement Zone, room for the formation within its radius, and
    the map's set-up zone of each formation exactly the hexes within that radius of its centre."""
    from gazala_tools.games import find_game

    game = find_game(RG)
    side_of = {u.formation: u.side for u in load_game_manifest(game).units}
    out = []
    prohibited = m.zone("allied-prohibited").hexes
    for p in load_scenarios(game)[0].setup:
        side = side_of[p.formation]
        if p.centre:
            c = m.hex(p.centre)
            if not m.passable(c):
                out.append(f"{p.formation}: centre {p.centre} impassable")
            legal = [h for h in c.within(p.distance) if h in m.grid and m.passable(h)]
            if side == "allied":
                legal = [h for h in legal if h not in prohibited]
                if c in prohibited:
                    out.append(f"{p.formation}: centre {p.centre} is in the Allied Prohibited Movement Zone")
            if len(legal) < 3:
                out.append(f"{p.formation}: only {len(legal)} legal hexes within {p.distance} of {p.centre}")
            zone = "setup-" + "-".join(p.formation.lower().split())
            if set(m.zone(zone).hexes) != {h for h in c.within(p.distance) if h in m.grid}:
                out.append(f"zone {zone} is not the hexes within {p.distance} of {p.centre}")
        for x in p.hexes:
            h = m.hex(x)
            if not m.passable(h) or (side == "allied" and h in prohibited):
                out.append(f"{p.formation}: {x} is not a legal {side} hex")
    return out


@check(RG, "RG 15.1")
def rg_15_1_reinforcement_hexes_are_on_the_map(m: GameMap) -> list[str]:
    out = []
    line = hexes(m, RG_AXIS_ENTRY_LINE)
    if not _is_chain(line):
        out.append("the Axis entry line 1321-...-2121 is not a chain of adjacent hexes")
    for h in line:
        if not m.passable(h) or h in m.zone("allied-prohibited").hexes:
            out.append(f"{m.label(h)} is not a legal entry hex")
    for x in ("0108", "0109", "0110"):
        if "W" not in m.edges(m.hex(x)):
            out.append(f"Brescia entry {x} is not on the west edge")
    for zone, want in (
        ("axis-entry-21pz", ("1321", "1422", "1521", "1622", "1721")),
        ("axis-entry-15pz", ("1622", "1721", "1822", "1921", "2022")),
        ("axis-entry-90lt", ("1721", "1822", "1921", "2022", "2121")),
        ("axis-entry-brescia", ("0108", "0109", "0110")),
    ):
        if set(m.zone(zone).hexes) != set(hexes(m, want)):
            out.append(f"zone {zone} is not {', '.join(want)}")
    return out


@check(RG, "games.md")
def rg_grid_bir_hacheim_is_a_compact_cluster(m: GameMap) -> list[str]:
    bh = hexes(m, ("1118", "1218", "1219", "1318"))
    out = []
    for h in bh:
        n = sum(1 for o in bh if o != h and h.is_adjacent(o))
        if n < 2:
            out.append(f"{m.label(h)} touches only {n} other Bir Hacheim hexes")
    return out


@check(RG, "RG 8.0")
def rg_8_0_roads_cross_escarpments_somewhere(m: GameMap) -> list[str]:
    esc = m.feature_sides("escarpment")
    if not esc:
        return ["no escarpment hexsides"]
    crossing = esc & m.path_sides(PathKind("road"), PathKind("track"))
    return [] if crossing else ["no road or track crosses an escarpment (8.0: the only way across)"]


# --- DG: Cauldron (Decision Games) and SPI: Cauldron (1976) ---------------------------------------

DG = "cauldron-dg"
SPI = "cauldron-spi"
DG_SETUP: dict[str, tuple[str, ...]] = {  # 19.0, as printed (3-digit entries are 0-padded)
    "germany": (
        "0334",
        "0132",
        "0232",
        "0332",
        "2723",
        "2822",
        "2823",
        "2824",
        "2825",
        "2926",
        "2820",
        "2623",
        "2724",
        "2624",
        "2725",
        "2726",
        "2819",
        "2921",
        "2922",
        "2923",
        "2925",
        "2818",
        "2920",
    ),
    "italy": (
        "0533",
        "0733",
        "0632",
        "0832",
        "0933",
        "1231",
        "1031",
        "1730",
        "1530",
        "2128",
        "2028",
        "2228",
        "2329",
        "2426",
        "2525",
        "2425",
        "2326",
    ),
    "uk": (
        "0228",
        "0429",
        "0730",
        "0928",
        "1126",
        "1526",
        "0812",
        "0412",
        "1008",
        "1610",
        "1122",
        "1222",
        "1022",
        "0626",
        "0726",
        "1516",
        "1416",
        "1316",
        "1315",
        "1818",
        "1720",
        "1819",
        "1718",
        "1417",
        "2316",
        "2216",
        "2215",
        "2115",
        "2816",
        "2620",
        "2708",
        "2423",
    ),
}


@check((DG, SPI), "DG 19.0")
def dg_19_0_every_setup_hex_is_on_the_map_and_not_sea(m: GameMap) -> list[str]:
    out = []
    for nation, hs in DG_SETUP.items():
        for x in hs:
            h = m.hex(x)
            if not m.passable(h):
                out.append(f"{nation} set-up hex {x} is {m.terrain(h)}")
    return out


@check((DG, SPI), "DG 18.0")
def dg_18_0_tobruk_is_0608(m: GameMap) -> list[str]:
    t = m.place("Tobruk")
    out = []
    if t.hex != m.hex("0608"):
        out.append(f"Tobruk is at {m.label(t.hex)}, not 0608")
    if not m.passable(t.hex):
        out.append("Tobruk is impassable")
    if not any(not m.passable(n) for n in t.hex.neighbours() if n in m.grid):
        out.append("Tobruk is not on the coast (it is a port)")
    return out


@check(DG, "DG 15.0")
def dg_15_0_airfields(m: GameMap) -> list[str]:
    want = {"Tobruk airfield": "0709", "El Adem airfield": "1510", "Bir el Gubi airfield": "2707"}
    out = []
    for name, x in want.items():
        p = m.place(name)
        if p.kind != "airfield" or p.hex != m.hex(x):
            out.append(f"{name} is not the airfield in {x}")
    return out


@check(DG, "DG 12.0")
def dg_12_0_supply_symbols(m: GameMap) -> list[str]:
    out = []
    if set(m.zone("allied-supply-symbols").hexes) != {m.hex("1201"), m.hex("1410")}:
        out.append("British supply symbols are not 1201 and 1410")
    if set(m.zone("axis-supply-symbols").hexes) != {m.hex("0734"), m.hex("2924")}:
        out.append("German supply symbols are not 0734 and 2924")
    # the oddities games.md keeps visible (18.0: 1201 "on the east edge"; 0734 west)
    if m.edges(m.hex("1201")) != frozenset({"E"}):
        out.append("1201 is not on the east edge")
    if "W" not in m.edges(m.hex("0734")):
        out.append("0734 is not on the west edge")
    if m.edges(m.hex("1410")):
        out.append("1410 is on an edge: the numbering reading changed")
    if m.edges(m.hex("2924")) != frozenset({"S"}):
        out.append("2924 is not on the south edge: the numbering reading changed")
    return out


@check(DG, "DG 11.1")
def dg_11_1_reinforcement_hexes(m: GameMap) -> list[str]:
    z = m.zone("allied-reinforcements")
    return (
        []
        if set(z.hexes) == {m.hex("1201"), m.hex("0608")}
        else ["reinforcement hexes are not 1201 and 0608"]
    )


def _ring_closes_around(m: GameMap, kind: str, centre: Hex) -> list[str]:
    sides = m.feature_sides(kind)
    inside = flood(m, [centre], blocked_sides=sides)
    out = []
    if not sides:
        out.append(f"no {kind} hexsides")
    if any(m.edges(h) for h in inside):
        out.append(f"the {kind} does not close around {m.label(centre)} (a path reaches a map edge)")
    if len(inside) < 7:
        out.append(f"the {kind} ring holds only {len(inside)} hexes")
    return out


@check((DG, SPI), "DG 20.0")
def dg_20_0_anti_tank_ditch_rings_tobruk(m: GameMap) -> list[str]:
    return _ring_closes_around(m, "anti-tank-ditch", m.hex("0608"))


@check((DG, SPI), "DG 16.0")
def dg_16_0_escarpment_ring_around_tobruk(m: GameMap) -> list[str]:
    out = _ring_closes_around(m, "escarpment", m.hex("0608"))
    esc = m.feature_sides("escarpment")
    if not esc & m.path_sides():
        out.append("no road or trail crosses an escarpment (16.0: the only way across)")
    return out


@check((DG, SPI), "DG 14.0")
def dg_14_0_minefields_of_both_sides(m: GameMap) -> list[str]:
    out = []
    for owner in ("allied", "axis"):
        if not m.box_kind_hexes("minefield", owner):
            out.append(f"no {owner} minefield hexes")
    bh = m.hex("2423")
    if bh not in m.box_kind_hexes("minefield", "allied") and not any(m.active_feature(s, "minefield") is not None for s in bh.sides()):
        out.append("Bir Hacheim (2423, the Free French 4-8-9) is not a fortified box")
    return out


@check(SPI, "SPI 16.1")
def spi_16_1_axis_supply_roads_reach_the_west_edge(m: GameMap) -> list[str]:
    entries = m.zone("axis-supply-entries").hexes
    road = m.path_hexes()
    out = [
        f"{m.label(h)} is not a west-edge road/trail hex"
        for h in sorted(entries)
        if "W" not in m.edges(h) or h not in road
    ]
    want = {h for h in road if "W" in m.edges(h)}
    out += [f"road/trail hex {m.label(h)} on the west edge is not an entry" for h in sorted(want - entries)]
    # the network connected to the entries reaches past the Gazala line towards Tobruk
    sides = m.path_sides()
    net = set(entries)
    todo = list(entries)
    while todo:
        h = todo.pop()
        for n in h.neighbours():
            if n not in net and Hexside.between(h, n) in sides:
                net.add(n)
                todo.append(n)
    if m.hex("0608") not in net:
        out.append("no road/trail connects the west edge to Tobruk 0608")
    return out


@check(SPI, "SPI 16.2")
def spi_16_2_allied_supply_is_the_east_edge(m: GameMap) -> list[str]:
    want = {h for h in m.grid.edge_hexes("E") if m.passable(h)}
    return [] if set(m.zone("allied-supply").hexes) == want else ["allied-supply is not the east edge"]


@check(SPI, "SPI 18.2")
def spi_18_2_tobruk_zone_is_0608(m: GameMap) -> list[str]:
    return [] if set(m.zone("tobruk").hexes) == {m.hex("0608")} else ["zone tobruk is not 0608"]


# --- BG: Batalha de Gazala -------------------------------------------------------------------------

BG = "batalha"
#: 4.0 worked example, in our numbering: Sidi Breghisc, 2 N to Bir Tamrad, NE by track, minefield,
#: fortified ridge, 2 road hexes to Gazala, ridge SE, open S, 3 track hexes to the ridge SE of
#: Commonwealth Keep.
BG_EXAMPLE = ("B09", "B08", "B07", "C06", "D06", "E05", "F05", "F04", "G04", "G05", "H05", "I05", "J05")
BG_EXAMPLE_COSTS = (1.0, 1.0, 1.0, 2.0, 3.0, 0.5, 0.5, 3.0, 1.0, 1.0, 1.0, 1.0)
BG_TERRAIN_MP_MOTORIZED = {"open": 1.0, "town": 1.0, "ridge": 3.0, "sea-inlet": 2.0}


def bg_motorized_cost(m: GameMap, a: Hex, b: Hex) -> float:
    """BG terrain chart, motorized column: road 0.5, track 1, else terrain; +1 entering a minefield hex."""
    side = Hexside.between(a, b)
    if side in m.path_sides(PathKind("road")):
        cost = 0.5
    elif side in m.path_sides(PathKind("track")):
        cost = 1.0
    else:
        cost = BG_TERRAIN_MP_MOTORIZED[m.terrain(b)]
    if b in m.box_kind_hexes("minefield"):
        cost += 1.0
    return cost


@check(BG, "BG 2.1")
def bg_2_1_the_map_has_400_hexes(m: GameMap) -> list[str]:
    return [] if len(m.grid) == 400 else [f"the map has {len(m.grid)} hexes, not 400"]


@check(BG, "BG 4.0")
def bg_4_0_movement_example_costs_16_points(m: GameMap) -> list[str]:
    hs = hexes(m, BG_EXAMPLE)
    out = []
    names = {"Sidi Breghisc": 0, "Bir Tamrad": 2, "Gazala": 7}
    for name, i in names.items():
        if m.place(name).hex != hs[i]:
            out.append(f"{name} is not at {BG_EXAMPLE[i]}")
    if hs[1] != hs[0].neighbour(Direction.N) or hs[2] != hs[1].neighbour(Direction.N):
        out.append("Bir Tamrad is not two hexes straight north of Sidi Breghisc")
    if m.terrain(hs[4]) != "open" or hs[4] not in m.box_kind_hexes("minefield"):
        out.append(f"{BG_EXAMPLE[4]} is not an open minefield hex")
    if m.terrain(hs[5]) != "ridge" or hs[5] not in m.box_kind_hexes("fortified"):
        out.append(f"{BG_EXAMPLE[5]} is not a fortified ridge")
    if m.terrain(hs[8]) != "ridge" or m.terrain(hs[12]) != "ridge":
        out.append("the ridge hexes of the example are not ridges")
    ck = m.place("Commonwealth Keep").hex
    if ck.direction_to(hs[12]) is not Direction.SE:
        out.append("the last hex is not the ridge south-east of Commonwealth Keep")
    for a, b in itertools.pairwise(hs):
        if not a.is_adjacent(b):
            out.append(f"{m.label(a)} -> {m.label(b)} is not a step")
            return out
    costs = tuple(bg_motorized_cost(m, a, b) for a, b in itertools.pairwise(hs))
    if costs != BG_EXAMPLE_COSTS:
        out.append(f"step costs {costs} differ from the example's {BG_EXAMPLE_COSTS}")
    if sum(costs) != 16:
        out.append(f"the example costs {sum(costs)}, not 16")
    return out


@check(BG, "BG 4.1")
def bg_4_1_two_west_edge_road_hexes(m: GameMap) -> list[str]:
    z = m.zone("axis-road-entries").hexes
    roads = m.path_hexes(PathKind("road"))
    west_roads = {h for h in roads if "W" in m.edges(h)}
    out = []
    if len(z) != 2:
        out.append(f"{len(z)} west-edge road hexes, not two")
    if set(z) != west_roads:
        out.append(f"the entries {labels(m, z)} are not the west-edge road hexes {labels(m, west_roads)}")
    return out


@check(BG, "BG 11.1")
def bg_11_1_setup_places_exist_on_land(m: GameMap) -> list[str]:
    out = []
    for name in (
        "Sidi Muftah",
        "Got el Ualeb",
        "Bir el Harmat",
        "Retma",
        "Knightsbridge",
        "Bir Hacheim",
        "Sidi Breghisc",
        "Belhamed",
    ):
        try:
            p = m.place(name)
        except KeyError:
            out.append(f"no place {name!r}")
            continue
        if not m.passable(p.hex):
            out.append(f"{name} is on impassable terrain")
    return out


@check(BG, "BG 11.2")
def bg_11_2_objectives(m: GameMap) -> list[str]:
    want = {m.place(n).hex for n in ("Tobruk", "Bir Hacheim", "El Adem", "Knightsbridge")}
    out = (
        []
        if set(m.zone("objectives").hexes) == want
        else ["zone objectives is not the four objective places"]
    )
    if len(want) != 4:
        out.append("two objectives share a hex")
    if m.terrain(m.place("Tobruk").hex) != "town":
        out.append("Tobruk is not a town hex")
    return out
