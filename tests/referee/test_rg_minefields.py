"""RG 14.0 minefields by date, 14.1 breaches (the rulebook example), 14.2 LOC."""

from __future__ import annotations

from refhelp import check, make_map, pos

from gazala_tools.referee.engine import Context
from gazala_tools.referee.findings import Severity
from gazala_tools.referee.report import SupplyStatus
from gazala_tools.rules.rg import GazalaRG

BOX_1510 = 'boxes:\n  - {name: box, kind: minefield, owner: allied, source: test, hexes: ["1510"]%s}\n'


def test_14_0_axis_supply_blocked_by_an_unbreached_minefield():
    m = make_map(BOX_1510 % "")
    r = check(m, [("a", "axis", "armor", "1510"), ("b", "allied", "armor", "1410")])
    assert r.supply == {"a": SupplyStatus.OUT, "b": SupplyStatus.IN}


def test_14_0_allied_supply_crosses_minefields():
    r = check(make_map(BOX_1510 % ""), [("b", "allied", "infantry", "1510")])
    assert r.supply["b"] is SupplyStatus.IN


def test_14_1_a_breached_hexside_lets_axis_supply_through():
    m = make_map(BOX_1510 % "")
    r = check(m, [("a", "axis", "armor", "1510"), ("i", "axis", "infantry", "1410")], turn="May 29",
              breaches=[{"hexside": "1410/1510", "state": "breached"}])
    assert r.supply["a"] is SupplyStatus.IN
    r = check(m, [("a", "axis", "armor", "1510"), ("i", "axis", "infantry", "1410")], turn="May 29",
              breaches=[{"hexside": "1410/1510", "state": "under-construction"}])
    assert r.supply["a"] is SupplyStatus.OUT  # not breached until the next minefield phase


def test_14_0_minefield_before_and_after_its_date():
    m = make_map(BOX_1510 % ', active_from: "June 5-6"')
    units = [("a", "axis", "armor", "1510")]
    assert check(m, units, turn="June 3-4").supply["a"] is SupplyStatus.IN
    assert check(m, units, turn="June 5-6").supply["a"] is SupplyStatus.OUT
    assert check(m, units, turn="June 13-14").supply["a"] is SupplyStatus.OUT


def test_14_0_hex_1102_from_june_5_6_on_the_real_map(rg_map):
    units = [("a", "axis", "infantry", "1102")]
    assert check(rg_map, units, turn="May 31").supply["a"] is SupplyStatus.IN
    assert check(rg_map, units, turn="June 5-6").supply["a"] is SupplyStatus.OUT


EXAMPLE_UNITS = [
    ("i1", "axis", "infantry", "1215"), ("i2", "axis", "infantry", "1216"), ("i3", "axis", "infantry", "1217"),
    ("b1", "allied", "infantry", "1314"),  # moved into 1314: that breach fails
    ("b2", "allied", "armor", "1415"),  # beside the far side of 1315: only 1216/1315 opens
]
EXAMPLE_BREACHES = [{"hexside": s, "state": "under-construction"} for s in ("1215/1314", "1216/1315", "1217/1316")]


def test_14_1_rulebook_breach_example(rg_map):
    r = check(rg_map, EXAMPLE_UNITS, turn="May 28", breaches=EXAMPLE_BREACHES)
    msgs = sorted(f.message for f in r.by_rule("14.1") if f.severity is Severity.INFO)
    assert len(msgs) == 3
    assert msgs[0].startswith("breach 1215/1314 will fail: Allied b1 in 1314")
    assert msgs[1].startswith("breach 1216/1315 will succeed into 1315; the far side 1315/1415 stays closed")
    assert msgs[2].startswith("breach 1217/1316 will succeed into 1316 and through 1316/1416")
    # "The Axis can only place two breach markers but I needed examples for three possible outcomes."
    [err] = r.errors()
    assert err.rule == "14.1" and "only 2" in err.message


def test_14_1_rulebook_breach_example_a_turn_later(rg_map):
    breaches = [{"hexside": "1216/1315", "state": "breached"},
                {"hexside": "1217/1316", "state": "breached", "through": True}]
    rules = GazalaRG(rg_map)
    ctx = Context(rules, pos(rg_map, EXAMPLE_UNITS, turn="May 29", breaches=breaches))
    assert sorted(rg_map.grid.hexside_label(s) for s in rules.breached_sides(ctx)) == [
        "1216/1315", "1217/1316", "1316/1416"]


def test_14_1_no_breaches_before_may_28(rg_map):
    r = check(rg_map, [("i", "axis", "infantry", "1216")], turn="May 27 PM",
              breaches=[{"hexside": "1216/1315", "state": "under-construction"}])
    assert [f.rule for f in r.errors()] == ["14.1"]


def test_14_1_breach_must_point_at_a_minefield_hexside(rg_map):
    r = check(rg_map, [("i", "axis", "infantry", "1510")], turn="May 29",
              breaches=[{"hexside": "1510/1511", "state": "under-construction"}])
    [f] = r.errors()
    assert "points at no (active) minefield" in f.message


def test_14_1_breach_needs_axis_infantry_beside_it(rg_map):
    r = check(rg_map, [("t", "axis", "armor", "1216")], turn="May 29",
              breaches=[{"hexside": "1216/1315", "state": "under-construction"}])
    assert any(f.severity is Severity.WARNING and "no Axis infantry" in f.message for f in r.by_rule("14.1"))


# --- 14.2 LOC on the real map: breaches through 0916 (0817 -> 1016) and 0612 (0512 -> 0711) ----------
BREACH_0916 = {"hexside": "0817/0916", "state": "breached", "through": True}
BREACH_0612 = {"hexside": "0512/0612", "state": "breached", "through": True}
EAST = ["1405", "1406", "1407", "1408", "1409", "1410", "1411", "1412",
        "1605", "1606", "1607", "1608", "1609", "1610", "1611", "1612"]


def axis_units(hexes):
    return [(f"ax{h}", "axis", "infantry", h) for h in hexes]


def test_14_2_no_loc_needed_before_may_29(rg_map):
    r = check(rg_map, axis_units(EAST[:8]), turn="May 28")
    assert r.loc is not None and (r.loc.required, r.loc.traced, r.loc.action_lost) == (0, 0, False)
    assert r.by_rule("14.2") == []


def test_14_2_one_loc_through_a_breached_hex_to_eight_units(rg_map):
    r = check(rg_map, axis_units(EAST[:8]), turn="May 29", breaches=[BREACH_0916])
    assert r.loc is not None and (r.loc.required, r.loc.traced, r.loc.action_lost) == (1, 1, False)
    [path] = r.loc.paths
    assert path.via == "0916" and len(path.units) == 8
    assert path.hexes[0].startswith("01") and "0817" in path.hexes and "1016" in path.hexes


def test_14_2_seven_units_are_not_enough(rg_map):
    r = check(rg_map, axis_units(EAST[:7]), turn="May 29", breaches=[BREACH_0916])
    assert r.loc is not None and r.loc.action_lost
    [f] = r.by_rule("14.2")
    assert f.severity is Severity.WARNING and "reduced by one" in f.message


def test_14_2_the_way_round_bir_hacheim_is_no_loc(rg_map):
    """Supply may go round the south end of the line; the LOC must pass a breached minefield hex."""
    r = check(rg_map, axis_units(EAST[:8]), turn="May 30")
    assert all(s is SupplyStatus.IN for s in r.supply.values())
    assert r.loc is not None and r.loc.traced == 0 and r.loc.action_lost


def test_14_2_one_sided_breach_is_no_loc(rg_map):
    one_side = {"hexside": "0817/0916", "state": "breached"}
    r = check(rg_map, axis_units(EAST[:8]), turn="May 29", breaches=[one_side])
    assert r.loc is not None and r.loc.traced == 0


def test_14_2_units_back_in_the_prohibited_area_do_not_count(rg_map):
    west = ["0310", "0311", "0312", "0313", "0314", "0315", "0316", "0317"]
    r = check(rg_map, axis_units(west), turn="May 29", breaches=[BREACH_0916])
    assert r.loc is not None and r.loc.traced == 0


def test_14_2_an_enemy_unit_in_the_breach_cuts_the_loc(rg_map):
    r = check(rg_map, [*axis_units(EAST[:8]), ("b", "allied", "infantry", "0916")], turn="May 29",
              breaches=[BREACH_0916])
    assert r.loc is not None and r.loc.traced == 0


def test_14_2_two_locs_from_june_1_2(rg_map):
    r = check(rg_map, axis_units(EAST), turn="June 1-2", breaches=[BREACH_0916, BREACH_0612])
    assert r.loc is not None and (r.loc.required, r.loc.traced, r.loc.action_lost) == (2, 2, False)
    a, b = r.loc.paths
    assert {a.via, b.via} == {"0612", "0916"}
    assert len(a.units) == len(b.units) == 8 and not set(a.units) & set(b.units)


def test_14_2_two_locs_may_not_share_units(rg_map):
    r = check(rg_map, axis_units(EAST[:12]), turn="June 1-2", breaches=[BREACH_0916, BREACH_0612])
    assert r.loc is not None and (r.loc.traced, r.loc.action_lost) == (1, True)


def test_14_2_two_locs_need_two_breached_hexes(rg_map):
    r = check(rg_map, axis_units(EAST), turn="June 3-4", breaches=[BREACH_0916])
    assert r.loc is not None and (r.loc.required, r.loc.traced, r.loc.action_lost) == (2, 1, True)


def test_14_1_no_more_breach_markers_than_the_counters(rg_map):
    sides = ["0817/0916", "0512/0612", "0206/0207", "0307/0308", "0409/0410", "0510/0511", "0713/0714"]
    r = check(rg_map, turn="June 3-4", breaches=[{"hexside": s, "state": "breached"} for s in sides])
    assert [f.message for f in r.errors()] == ["7 breach markers: the game provides 6"]
