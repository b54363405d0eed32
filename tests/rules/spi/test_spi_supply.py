"""SPI 16.0 supply sources and 16.3 automatic supply, on small maps given as data."""

from __future__ import annotations

from gazala_tools.referee.report import SupplyStatus as S
from tests.rules.spi.spihelp import check, make_map, ring


def status(report, uid):
    return report.supply[uid]


# --- 16.1 Axis: at most 10 hexes to a trail/road hex joined by trail/road to the west edge ----------


def test_16_1_axis_unit_10_hexes_from_the_road_is_supplied(road_map):
    r = check(road_map, [("a", "axis", "armor", "1010")], turn=4)
    assert status(r, "a") is S.IN


def test_16_1_axis_unit_11_hexes_from_the_road_is_not(road_map):
    r = check(road_map, [("a", "axis", "armor", "1009")], turn=4)
    assert status(r, "a") is S.OUT
    assert [f.rule for f in r.findings if f.units == ("a",)] == ["16.1"]


def test_16_1_no_road_no_axis_supply(open_map):
    assert status(check(open_map, [("a", "axis", "armor", "0533")], turn=4), "a") is S.OUT


def test_16_1_a_unit_on_the_connected_road_is_supplied(road_map):
    assert status(check(road_map, [("a", "axis", "armor", "1030")], turn=4), "a") is S.IN


def test_16_1_road_cut_by_an_enemy_unit(road_map):
    rows = [("a", "axis", "armor", "1015")]
    assert status(check(road_map, rows, turn=4), "a") is S.IN
    assert status(check(road_map, [*rows, ("b", "allied", "infantry", "1025")], turn=4), "a") is S.OUT


def test_16_1_enemy_zoc_on_the_road_blocks_unless_a_friendly_unit_is_there(road_map):
    # 0925 (odd column) touches road hexes 1025 and 1026
    rows = [("a", "axis", "armor", "1015"), ("b", "allied", "infantry", "0925")]
    assert status(check(road_map, rows, turn=4), "a") is S.OUT
    held = [*rows, ("f1", "axis", "infantry", "1025"), ("f2", "axis", "infantry", "1026")]
    assert status(check(road_map, held, turn=4), "a") is S.IN


# --- 16.2 Allied: any length to the east edge ----------------------------------------------------


def test_16_2_allied_supply_of_any_length(open_map):
    assert status(check(open_map, [("b", "allied", "armor", "2833")], turn=8), "b") is S.IN


def test_16_2_allied_ring_of_axis_units_blocks(open_map):
    r = check(open_map, [("b", "allied", "armor", "1520"), *ring(open_map, "1520", "axis")], turn=8)
    assert status(r, "b") is S.OUT and r.by_rule("16.2")[0].hexes == ("1520",)


def zoc_wall() -> list[tuple[str, ...]]:
    """Axis units on the odd columns of row 05: their ZOC closes the even columns between them."""
    return [(f"w{c}", "axis", "infantry", f"{c:02d}05") for c in range(1, 30, 2)]


def test_16_2_enemy_zoc_blocks_allied_supply(open_map):
    r = check(open_map, [("b", "allied", "armor", "1020"), *zoc_wall()], turn=8)
    assert status(r, "b") is S.OUT


def test_16_2_a_friendly_unit_in_enemy_zoc_opens_the_path(open_map):
    # 0205 and 0206 are in the ZOC of 0105/0305: Allied units there negate it for supply
    rows = [("b", "allied", "armor", "1020"), *zoc_wall(), ("f1", "allied", "infantry", "0205")]
    assert status(check(open_map, rows, turn=8), "b") is S.OUT
    rows.append(("f2", "allied", "infantry", "0206"))
    assert status(check(open_map, rows, turn=8), "b") is S.IN


def test_16_0_sea_obstructs_a_supply_path():
    sea = "  hexes:\n    - {terrain: sea, source: test, hexes: [" + ", ".join(
        f'"{c:02d}10"' for c in range(1, 30)) + "]}\n"
    r = check(make_map(sea), [("b", "allied", "armor", "1020")], turn=8)
    assert status(r, "b") is S.OUT


# --- 16.3 automatic supply -----------------------------------------------------------------------


def test_16_3_axis_automatically_supplied_through_game_turn_3(open_map):
    assert status(check(open_map, [("a", "axis", "armor", "1515")], turn=3), "a") is S.IN
    assert status(check(open_map, [("a", "axis", "armor", "1515")], turn=4), "a") is S.OUT


def test_16_3_allied_automatically_supplied_through_game_turn_7(open_map):
    rows = [("b", "allied", "armor", "1520"), *ring(open_map, "1520", "axis")]
    r = check(open_map, rows, turn=7)
    assert status(r, "b") is S.IN and r.by_rule("16.3")
    assert status(check(open_map, rows, turn=8), "b") is S.OUT


def test_16_0_without_a_turn_supply_is_traced(open_map):
    assert status(check(open_map, [("a", "axis", "armor", "1515")]), "a") is S.OUT
