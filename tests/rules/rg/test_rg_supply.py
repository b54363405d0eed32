"""RG 5.0 supply and 9.0 ZOC on small maps given as data."""

from __future__ import annotations

from gazala_tools.referee.engine import Context
from gazala_tools.referee.report import MarkerChange, SupplyStatus
from tests.rules.rg.refhelp import check, make_map, pos
from tests.support.fixtures import rg_rules

AXIS = "axis"
RING_1510 = ["1509", "1511", "1410", "1610", "1411", "1611"]  # the six neighbours of 1510


def escarpment_pocket(road: bool = False) -> str:
    sides = ", ".join(f'"{n}>1510"' for n in RING_1510)  # 1510 is the high side
    text = f"hexsides:\n  - {{name: ridge, kind: escarpment, source: test, sides: [{sides}]}}\n"
    if road:
        text += 'paths:\n  - {name: via, kind: road, source: test, hexes: ["1510", "1509", "1508"]}\n'
    return text


def sources(rules, side):
    return rules.data.supply.sides[side].sources.hexes


def test_5_0_axis_sources_are_west_edge_hexes_south_of_0105(rg_map):
    r = rg_rules(rg_map)
    assert sorted(rg_map.label(h) for h in sources(r, AXIS)) == [f"01{n:02d}" for n in range(6, 23)]


def test_5_0_allied_sources_are_north_and_east_edge_hexes(rg_map):
    labels = {rg_map.label(h) for h in sources(rg_rules(rg_map), "allied")}
    assert {"0101", "1501", "2901", "2910", "2922"} <= labels and "0110" not in labels and "1522" not in labels


def test_5_0_supply_of_any_length(open_map):
    r = check(open_map, [("a", "axis", "armor", "2810"), ("b", "allied", "armor", "0122")])
    assert r.supply == {"a": SupplyStatus.IN, "b": SupplyStatus.IN}
    assert r.markers == []


def test_5_0_supply_blocked_by_a_ring_of_enemy_units(open_map):
    units = [("a", "axis", "armor", "1510")] + [(f"e{i}", "allied", "infantry", h) for i, h in enumerate(RING_1510)]
    r = check(open_map, units)
    assert r.supply["a"] is SupplyStatus.OUT
    assert r.markers == [MarkerChange("a", add="out-of-supply", rule="5.0")]
    assert all(r.supply[f"e{i}"] is SupplyStatus.IN for i in range(6))


def test_5_0_a_ring_with_a_gap_does_not_block(open_map):
    units = [("a", "axis", "armor", "1510")] + [(f"e{i}", "allied", "infantry", h) for i, h in enumerate(RING_1510[1:])]
    assert check(open_map, units).supply["a"] is SupplyStatus.IN


def test_5_0_zoc_does_not_block_supply(open_map):
    # Allied units on every other hex of column 10: their ZOC covers all of it, no hex is occupied twice
    wall = [(f"w{r}", "allied", "infantry", f"10{r:02d}") for r in range(1, 23, 2)]
    r = check(open_map, [("a", "axis", "armor", "1510"), *wall])
    zoc = set(r.zoc["allied"])
    assert {f"10{r:02d}" for r in range(2, 23, 2)} <= zoc  # every gap is in enemy ZOC
    assert r.supply["a"] is SupplyStatus.IN


def test_5_0_a_solid_wall_of_enemy_units_blocks(open_map):
    wall = [(f"w{r}", "allied", "infantry", f"10{r:02d}") for r in range(1, 23)]
    r = check(open_map, [("a", "axis", "armor", "1510"), *wall])
    assert r.supply["a"] is SupplyStatus.OUT


def test_5_0_out_of_supply_becomes_isolated(open_map):
    ring = [(f"e{i}", "allied", "infantry", h) for i, h in enumerate(RING_1510)]
    r = check(open_map, [("a", "axis", "armor", "1510", "", ["out-of-supply"]), *ring])
    assert r.supply["a"] is SupplyStatus.ISOLATED
    assert r.markers == [MarkerChange("a", add="isolated", remove="out-of-supply", rule="5.0")]
    r = check(open_map, [("a", "axis", "armor", "1510", "", ["isolated"]), *ring])
    assert r.supply["a"] is SupplyStatus.ISOLATED and r.markers == []


def test_5_0_marker_removed_when_supply_is_traced_again(open_map):
    r = check(open_map, [("a", "axis", "armor", "1510", "", ["isolated"]), ("b", "allied", "armor", "0110", "",
                                                                              ["out-of-supply"])])
    assert r.supply == {"a": SupplyStatus.IN, "b": SupplyStatus.IN}
    assert r.markers == [MarkerChange("a", remove="isolated", rule="5.0"),
                         MarkerChange("b", remove="out-of-supply", rule="5.0")]


def test_5_0_both_supply_markers_is_an_error(open_map):
    r = check(open_map, [("a", "axis", "armor", "1510", "", ["out-of-supply", "isolated"])])
    assert [f.rule for f in r.errors()] == ["5.0"]


def test_5_0_escarpment_blocks_supply_except_by_road():
    r = check(make_map(escarpment_pocket()), [("a", "axis", "armor", "1510")])
    assert r.supply["a"] is SupplyStatus.OUT
    r = check(make_map(escarpment_pocket(road=True)), [("a", "axis", "armor", "1510")])
    assert r.supply["a"] is SupplyStatus.IN


def test_5_0_impassable_terrain_blocks_supply():
    ring = ", ".join(f'"{h}"' for h in RING_1510)
    m = make_map(f"  hexes:\n    - {{terrain: sea, hexes: [{ring}]}}\n")
    assert check(m, [("a", "allied", "armor", "1510")]).supply["a"] is SupplyStatus.OUT


def test_5_0_allied_supply_through_the_prohibited_zone():
    m = make_map('zones:\n  - {name: allied-prohibited, source: test, hexes: ["0101..0122", "0201..0222"]}\n')
    wall = [(f"w{r}", "axis", "infantry", f"04{r:02d}") for r in range(1, 23)] + [("x", "axis", "infantry", "0310")]
    r = check(m, [("b", "allied", "infantry", "0320"), *wall])
    assert r.supply["b"] is SupplyStatus.IN
    # without the zone's hexes to pass through, the same unit is cut off
    cut = wall + [(f"z{r}", "axis", "infantry", f"02{r:02d}") for r in range(1, 23)]
    assert check(m, [("b", "allied", "infantry", "0320"), *cut]).supply["b"] is SupplyStatus.OUT


def test_9_0_zoc_covers_the_six_surrounding_hexes(open_map):
    r = check(open_map, [("a", "axis", "armor", "1510")])
    assert sorted(r.zoc["axis"]) == sorted(RING_1510) and r.zoc["allied"] == []


def test_9_0_disrupted_units_have_no_zoc(open_map):
    r = check(open_map, [("a", "axis", "armor", "1510", "", ["disrupted"])])
    assert r.zoc["axis"] == []


def test_9_0_out_of_supply_and_isolated_units_exert_zoc(open_map):
    r = check(open_map, [("a", "axis", "armor", "1510", "", ["out-of-supply"]),
                         ("b", "allied", "armor", "2010", "", ["isolated"])])
    assert len(r.zoc["axis"]) == 6 and len(r.zoc["allied"]) == 6


def test_9_0_no_zoc_up_an_escarpment():
    m = make_map(escarpment_pocket())
    low = check(m, [("b", "allied", "armor", "1509")])
    assert "1510" not in low.zoc["allied"] and "1508" in low.zoc["allied"]
    high = check(m, [("a", "axis", "armor", "1510")])
    assert sorted(high.zoc["axis"]) == sorted(RING_1510)  # down the escarpment is fine


def test_5_0_one_search_per_side_matches_per_unit_traces(open_map):
    """The multi-source search answers every unit; a single-source trace per unit agrees."""
    from gazala_tools.referee.search import multi_source_search

    units = [("a", "axis", "armor", "1510"), *[(f"e{i}", "allied", "infantry", h) for i, h in enumerate(RING_1510)],
             ("c", "axis", "infantry", "2015")]
    rules = rg_rules(open_map)
    ctx = Context(rules, pos(open_map, units))
    cost = rules.trace_cost(ctx, AXIS)
    for uid in ("a", "c"):
        start = ctx.position.unit(uid).hex
        single = multi_source_search(rules.topology, [start], cost)
        traced = any(s in single for s in sources(rules, AXIS))
        assert traced == (check(open_map, units).supply[uid] is SupplyStatus.IN)


def test_5_0_escarpment_blocks_supply_from_the_low_side_too():
    """8.0: a road is "the only way a unit may cross an escarpment", down as well as up."""
    sides = ", ".join(f'"1510>{n}"' for n in RING_1510)  # 1510 is the low side, its ring the high side
    m = make_map(f"hexsides:\n  - {{name: ridge, kind: escarpment, source: test, sides: [{sides}]}}\n")
    assert check(m, [("a", "axis", "armor", "1510")]).supply["a"] is SupplyStatus.OUT
    road = 'paths:\n  - {name: via, kind: road, source: test, hexes: ["1510", "1509", "1508"]}\n'
    m = make_map(f"hexsides:\n  - {{name: ridge, kind: escarpment, source: test, sides: [{sides}]}}\n{road}")
    assert check(m, [("a", "axis", "armor", "1510")]).supply["a"] is SupplyStatus.IN


def test_5_0_a_track_does_not_cross_an_escarpment_for_supply():
    """8.0 names the road only (11.0's "road or track" is about attacks)."""
    m = make_map(escarpment_pocket() + 'paths:\n  - {name: via, kind: track, source: test, hexes: ["1510", "1509"]}\n')
    assert check(m, [("a", "axis", "armor", "1510")]).supply["a"] is SupplyStatus.OUT


def test_5_0_enemy_unit_on_the_only_source_hex_blocks():
    """5.0: the path may not pass through a hex containing an enemy unit, its last hex included."""
    m = make_map('zones:\n  - {name: axis-supply, source: test, hexes: ["0110"]}\n')
    assert check(m, [("a", "axis", "armor", "0510")]).supply["a"] is SupplyStatus.IN
    assert check(m, [("a", "axis", "armor", "0510"), ("b", "allied", "infantry", "0110")]).supply["a"] is SupplyStatus.OUT


def test_9_0_zoc_extends_across_minefield_hexsides():
    """9.0: the six surrounding hexes; the only exception is up an escarpment."""
    m = make_map('boxes:\n  - {name: box, kind: minefield, owner: allied, source: test, hexes: ["1510"]}\n')
    r = check(m, [("a", "axis", "armor", "1410"), ("b", "allied", "infantry", "1510")])
    assert "1510" in r.zoc["axis"] and "1410" in r.zoc["allied"]


def test_9_0_zoc_extends_into_the_prohibited_zone_and_impassable_hexes():
    m = make_map('  hexes:\n    - {terrain: sea, hexes: ["0309"]}\n'
                 'zones:\n  - {name: allied-prohibited, source: test, hexes: ["0101..0122"]}\n')
    r = check(m, [("b", "allied", "infantry", "0210")])
    assert {"0109", "0110", "0309"} <= set(r.zoc["allied"])


def test_9_0_no_zoc_up_an_escarpment_even_along_a_road():
    """9.0 has no road exception (unlike movement, 8.0)."""
    m = make_map(escarpment_pocket(road=True))
    assert "1510" not in check(m, [("b", "allied", "armor", "1509")]).zoc["allied"]


def test_5_0_both_markers_and_cut_off_keeps_only_isolated(open_map):
    """5.0: already marked Out of Supply and cut off: "now marked as Isolated" (the Out of Supply
    marker goes; the unit already carries the Isolated one)."""
    ring = [(f"e{i}", "allied", "infantry", h) for i, h in enumerate(RING_1510)]
    r = check(open_map, [("a", "axis", "armor", "1510", "", ["out-of-supply", "isolated"]), *ring])
    assert r.supply["a"] is SupplyStatus.ISOLATED
    assert r.markers == [MarkerChange("a", remove="out-of-supply", rule="5.0")]


def test_9_0_units_off_the_map_exert_no_zoc(open_map):
    assert check(open_map, [("a", "axis", "armor", "June 3-4")]).zoc["axis"] == []
