"""RG (Gazala: The Cauldron): every hex the rules name is where the rules put it.

Each test cites its rule section; the check functions live in gazala_tools.mapdata.checks so that
`gazala map check gazala-rg` runs the very same code. Mutation tests show each check can fail.
"""

from __future__ import annotations

import dataclasses

from gazala_tools.hexes import Hexside
from gazala_tools.mapdata import GameMap, checks

from . import rulerefs as c


def _without_box(m: GameMap, name: str) -> GameMap:
    return dataclasses.replace(m, boxes=tuple(b for b in m.boxes if b.name != name))


def test_5_0_axis_supply_is_west_edge_hexes_south_of_0105(rg: GameMap) -> None:
    assert c.rg_5_0_axis_supply_is_west_edge_south_of_0105(rg) == []
    assert rg.in_zone("axis-supply", rg.hex("0106"))
    assert not rg.in_zone("axis-supply", rg.hex("0105"))


def test_5_0_allied_supply_is_any_north_or_east_edge_hex(rg: GameMap) -> None:
    assert c.rg_5_0_allied_supply_is_north_and_east_edges(rg) == []
    assert rg.in_zone("allied-supply", rg.hex("1501")) and rg.in_zone("allied-supply", rg.hex("2910"))


def test_8_1_minefield_line_runs_from_0104_through_1119(rg: GameMap) -> None:
    assert c.rg_8_1_minefield_line_runs_from_0104_through_1119(rg) == []


def test_8_1_prohibited_zone_lies_west_of_the_line_to_the_south_edge(rg: GameMap) -> None:
    assert c.rg_8_1_prohibited_zone_lies_west_of_the_line(rg) == []
    assert rg.in_zone("allied-prohibited", rg.hex("0517"))  # Trieste's set-up, Axis side
    assert not rg.in_zone("allied-prohibited", rg.hex("1216"))  # the triangle is Allied ground


def test_8_1_prohibited_zone_check_fails_when_the_line_has_a_hole(rg: GameMap) -> None:
    belt = rg.box("Gazala line")
    holed = dataclasses.replace(belt, hexes=belt.hexes - {rg.hex("0510")})
    m = dataclasses.replace(rg, boxes=tuple(holed if b.name == belt.name else b for b in rg.boxes))
    assert c.rg_8_1_prohibited_zone_lies_west_of_the_line(m) != []


def test_14_2_loc_minefield_hexes_0104_to_1118_are_in_the_line(rg: GameMap) -> None:
    assert c.rg_14_2_loc_minefield_hexes_0104_to_1118_are_in_the_line(rg) == []


def test_8_2_69th_area_is_bounded_by_0104_0801_and_the_north_edge(rg: GameMap) -> None:
    assert c.rg_8_2_69th_area_is_bounded_by_0104_0801_and_the_north_edge(rg) == []
    assert rg.in_zone("69th-area", rg.hex("0104")) and rg.in_zone("69th-area", rg.hex("0801"))
    assert not rg.in_zone("69th-area", rg.hex("0901"))


def test_14_1_breach_example_hexes_are_minefield_hexes(rg: GameMap) -> None:
    assert c.rg_14_1_breach_example_hexes_are_minefield_hexes(rg) == []


def test_14_1_breach_example_fails_without_the_rear_minefield(rg: GameMap) -> None:
    assert c.rg_14_1_breach_example_hexes_are_minefield_hexes(_without_box(rg, "Rear minefield south")) != []


def test_14_1_breach_into_1316_also_opens_the_far_side_into_1416(rg: GameMap) -> None:
    assert c.rg_14_1_breach_into_1316_opens_the_far_side_into_1416(rg) == []
    side_in = Hexside.between(rg.hex("1217"), rg.hex("1316"))
    side_out = Hexside.between(rg.hex("1316"), rg.hex("1416"))
    assert side_in.direction_from(rg.hex("1316")).opposite() == side_out.direction_from(rg.hex("1316"))


def test_18_0_rear_minefield_gap_between_1214_and_1313(rg: GameMap) -> None:
    assert c.rg_18_0_rear_minefield_gap_between_1214_and_1313(rg) == []


def test_18_0_gap_check_fails_when_the_gap_is_mined(rg: GameMap) -> None:
    north = rg.box("Rear minefield north")
    closed = dataclasses.replace(north, hexes=north.hexes | {rg.hex("1214"), rg.hex("1313")})
    m = dataclasses.replace(rg, boxes=tuple(closed if b.name == north.name else b for b in rg.boxes))
    assert c.rg_18_0_rear_minefield_gap_between_1214_and_1313(m) != []


def test_18_0_triangle_north_of_bir_hacheim_is_surrounded_by_minefields(rg: GameMap) -> None:
    assert c.rg_18_0_triangle_north_of_bir_hacheim_is_surrounded_by_minefields(rg) == []
    assert (
        c.rg_18_0_triangle_north_of_bir_hacheim_is_surrounded_by_minefields(
            _without_box(rg, "Rear minefield north")
        )
        != []
    )


def test_14_0_minefields_completed_during_the_battle(rg: GameMap) -> None:
    assert c.rg_14_0_dated_minefields(rg) == []
    side = Hexside.between(rg.hex("1102"), rg.hex("1103"))
    assert rg.active_feature(side, "minefield", active=set()) is None
    assert rg.active_feature(side, "minefield", active={"June 5-6"}) is not None
    assert rg.active_feature(side, "minefield") is not None  # without a date filter every minefield counts


def test_17_0_the_seven_fortified_hexes(rg: GameMap) -> None:
    assert c.rg_17_0_the_seven_fortified_hexes(rg) == []
    assert c.rg_17_0_the_seven_fortified_hexes(_without_box(rg, "Knightsbridge")) != []


def test_16_0_victory_hex_2803_and_the_north_edge(rg: GameMap) -> None:
    assert c.rg_16_0_victory_hex_2803_and_north_edge(rg) == []
    assert rg.edges(rg.hex("2801")) == frozenset({"N"})


def test_17_0_setup_hexes_are_on_the_map_and_in_legal_terrain(rg: GameMap) -> None:
    assert c.rg_17_0_setup_hexes_are_on_the_map_in_legal_terrain(rg) == []


def test_15_1_reinforcement_hexes_are_on_the_map(rg: GameMap) -> None:
    assert c.rg_15_1_reinforcement_hexes_are_on_the_map(rg) == []


def test_grid_bir_hacheim_1118_1218_1219_1318_is_a_compact_cluster(rg: GameMap) -> None:
    assert c.rg_grid_bir_hacheim_is_a_compact_cluster(rg) == []


def test_8_0_escarpments_are_crossed_by_roads_and_have_up_sides(rg: GameMap) -> None:
    assert c.rg_8_0_roads_cross_escarpments_somewhere(rg) == []
    assert checks.directed_hexsides_have_an_up_side(rg) == []
    f = next(f for f in rg.all_features() if f.kind == "escarpment")
    assert f.up is not None
    down = f.side.other(f.up)
    assert rg.climbs(down, f.up, "escarpment") and not rg.climbs(f.up, down, "escarpment")


def test_every_rg_check_passes(rg: GameMap) -> None:
    failed = [(r.rule, r.name, r.problems) for r in c.run_checks(rg) if r.problems]
    assert failed == []
