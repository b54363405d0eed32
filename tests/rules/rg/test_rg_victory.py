"""RG 16.0 VP phase and 17.0 scenario VP for fortified hexes."""

from __future__ import annotations

from tests.rules.rg.refhelp import check

NORTH = ["1001", "1101", "1201", "1301"]


def test_16_0_four_in_supply_units_on_the_north_edge_score(rg_map):
    r = check(rg_map, [(f"a{h}", "axis", "armor", h) for h in NORTH])
    assert r.vp["north_edge"] == {"units": [f"a{h}" for h in NORTH], "scored": True}
    assert r.vp["axis_vp_phase"] == 1
    assert [f.rule for f in r.findings if f.severity.value == "info"] == ["16.0"]


def test_16_0_out_of_supply_units_do_not_count(rg_map):
    units = [(f"a{h}", "axis", "armor", h) for h in NORTH[:3]] + [("x", "axis", "armor", NORTH[3], "", ["out-of-supply"])]
    r = check(rg_map, units)
    assert r.vp["north_edge"]["scored"] is False and r.vp["axis_vp_phase"] == 0


def test_16_0_three_units_on_the_north_edge_do_not_score(rg_map):
    r = check(rg_map, [(f"a{h}", "axis", "armor", h) for h in NORTH[:3]] + [("b", "axis", "armor", "1302")])
    assert r.vp["axis_vp_phase"] == 0


def test_16_0_an_axis_unit_in_2803(rg_map):
    r = check(rg_map, [("a", "axis", "infantry", "2803")])
    assert r.vp["2803"] == {"units": ["a"], "scored": True} and r.vp["axis_vp_phase"] == 1
    assert check(rg_map, [("b", "allied", "infantry", "2803")]).vp["axis_vp_phase"] == 0


def test_16_0_both_axis_vp_in_one_turn(rg_map):
    r = check(rg_map, [(f"a{h}", "axis", "armor", h) for h in NORTH] + [("z", "axis", "armor", "2803")])
    assert r.vp["axis_vp_phase"] == 2


def test_17_0_allied_vp_for_occupied_fortified_hexes(rg_map):
    r = check(rg_map, [("ff", "allied", "infantry", "1118"), ("gd", "allied", "infantry", "1504"),
                       ("ax", "axis", "armor", "2705")])
    assert r.vp["fortified"] == {"1118": "allied", "1504": "allied", "2705": "axis"}
    assert r.vp["allied_scenario_one"] == 2  # one VP per hex
    assert r.vp["allied_campaign"] == 3 + 2  # 3 for Bir Hacheim hexes, 2 for 1504/1605/2705
    assert [f.hexes for f in r.by_rule("17.0")] == [("1118", "1504")]


def test_16_0_isolated_units_do_not_count(rg_map):
    units = [(f"a{h}", "axis", "armor", h) for h in NORTH[:3]] + [("x", "axis", "armor", NORTH[3], "", ["isolated"])]
    assert check(rg_map, units).vp["north_edge"]["scored"] is False


def test_16_0_units_off_the_map_do_not_count(rg_map):
    units = [(f"a{h}", "axis", "armor", h) for h in NORTH[:3]] + [("x", "axis", "armor", "June 3-4")]
    assert check(rg_map, units).vp["axis_vp_phase"] == 0


def test_17_0_scenario_one_scores_every_fortified_hex_of_the_map():
    """17.0 Scenario One: "one victory point for each Allied-occupied fortified hex" (the map's
    fortified boxes); the campaign's hexes (1504, 1605, 2705: 2 VP; 1118, 1218, 1219, 1318: 3 VP) are
    those of the Knightsbridge, El Adem and Bir Hacheim boxes, so the game data names the boxes and the
    map alone says which hexes they hold: a fortified box the campaign does not name scores 0 there."""
    from tests.rules.rg.refhelp import make_map

    m = make_map("boxes:\n  - {name: fort, kind: fortified, source: test, hexes: [\"0810\"]}\n"
                 "  - {name: Bir Hacheim, kind: fortified, source: test, hexes: [\"1118\"]}\n")
    r = check(m, [("a", "allied", "infantry", "0810"), ("b", "allied", "infantry", "1118")])
    assert r.vp["allied_scenario_one"] == 2
    assert r.vp["allied_campaign"] == 3
    assert r.vp["fortified"] == {"0810": "allied", "1118": "allied"}


def test_17_0_fortified_hexes_of_the_real_map(rg_map):
    units = [(f"u{h}", "allied", "infantry", h) for h in ("1504", "1605", "2705", "1118", "1218", "1219", "1318")]
    r = check(rg_map, units)
    assert r.vp["allied_scenario_one"] == 7 and r.vp["allied_campaign"] == 3 * 2 + 4 * 3


def test_16_0_four_units_count_even_when_stacked(rg_map):
    """16.0 counts "four Axis units ... located in hexes on the north map edge", not four hexes."""
    units = [("a", "axis", "armor", "1001"), ("b", "axis", "infantry", "1001"),
             ("c", "axis", "armor", "1101"), ("d", "axis", "infantry", "1101")]
    assert check(rg_map, units).vp["north_edge"]["scored"] is True


def test_16_0_the_2803_vp_needs_no_supply(rg_map):
    """16.0: "if an Axis unit occupies hex 2803": no supply condition, unlike the north-edge VP."""
    assert check(rg_map, [("a", "axis", "infantry", "2803", "", ["isolated"])]).vp["axis_vp_phase"] == 1
