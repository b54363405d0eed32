"""RG 14.0 minefields by date, 14.1 breaches (the rulebook example), 14.2 LOC."""

from __future__ import annotations

from gazala_tools.referee.engine import Context
from gazala_tools.referee.findings import Severity
from gazala_tools.referee.report import SupplyStatus
from tests.rules.rg.refhelp import check, make_map, pos
from tests.support.fixtures import rg_rules

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
    rules = rg_rules(rg_map)
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
    assert r.sections.get("loc") is not None and (r.sections.get("loc").required, r.sections.get("loc").traced, r.sections.get("loc").action_lost) == (0, 0, False)
    assert r.by_rule("14.2") == []


def test_14_2_one_loc_through_a_breached_hex_to_eight_units(rg_map):
    r = check(rg_map, axis_units(EAST[:8]), turn="May 29", breaches=[BREACH_0916])
    assert r.sections.get("loc") is not None and (r.sections.get("loc").required, r.sections.get("loc").traced, r.sections.get("loc").action_lost) == (1, 1, False)
    [path] = r.sections.get("loc").paths
    assert path.via == "0916" and len(path.units) == 8
    assert path.hexes[0].startswith("01") and "0817" in path.hexes and "1016" in path.hexes


def test_14_2_seven_units_are_not_enough(rg_map):
    r = check(rg_map, axis_units(EAST[:7]), turn="May 29", breaches=[BREACH_0916])
    assert r.sections.get("loc") is not None and r.sections.get("loc").action_lost
    [f] = r.by_rule("14.2")
    assert f.severity is Severity.WARNING and "reduced by one" in f.message


def test_14_2_the_way_round_bir_hacheim_is_no_loc(rg_map):
    """Supply may go round the south end of the line; the LOC must pass a breached minefield hex."""
    r = check(rg_map, axis_units(EAST[:8]), turn="May 30")
    assert all(s is SupplyStatus.IN for s in r.supply.values())
    assert r.sections.get("loc") is not None and r.sections.get("loc").traced == 0 and r.sections.get("loc").action_lost


def test_14_2_one_sided_breach_is_no_loc(rg_map):
    one_side = {"hexside": "0817/0916", "state": "breached"}
    r = check(rg_map, axis_units(EAST[:8]), turn="May 29", breaches=[one_side])
    assert r.sections.get("loc") is not None and r.sections.get("loc").traced == 0


def test_14_2_units_back_in_the_prohibited_area_do_not_count(rg_map):
    west = ["0310", "0311", "0312", "0313", "0314", "0315", "0316", "0317"]
    r = check(rg_map, axis_units(west), turn="May 29", breaches=[BREACH_0916])
    assert r.sections.get("loc") is not None and r.sections.get("loc").traced == 0


def test_14_2_an_enemy_unit_in_the_breach_cuts_the_loc(rg_map):
    r = check(rg_map, [*axis_units(EAST[:8]), ("b", "allied", "infantry", "0916")], turn="May 29",
              breaches=[BREACH_0916])
    assert r.sections.get("loc") is not None and r.sections.get("loc").traced == 0


def test_14_2_two_locs_from_june_1_2(rg_map):
    r = check(rg_map, axis_units(EAST), turn="June 1-2", breaches=[BREACH_0916, BREACH_0612])
    assert r.sections.get("loc") is not None and (r.sections.get("loc").required, r.sections.get("loc").traced, r.sections.get("loc").action_lost) == (2, 2, False)
    a, b = r.sections.get("loc").paths
    assert {a.via, b.via} == {"0612", "0916"}
    assert len(a.units) == len(b.units) == 8 and not set(a.units) & set(b.units)


def test_14_2_two_locs_may_not_share_units(rg_map):
    r = check(rg_map, axis_units(EAST[:12]), turn="June 1-2", breaches=[BREACH_0916, BREACH_0612])
    assert r.sections.get("loc") is not None and (r.sections.get("loc").traced, r.sections.get("loc").action_lost) == (1, True)


def test_14_2_two_locs_need_two_breached_hexes(rg_map):
    r = check(rg_map, axis_units(EAST), turn="June 3-4", breaches=[BREACH_0916])
    assert r.sections.get("loc") is not None and (r.sections.get("loc").required, r.sections.get("loc").traced, r.sections.get("loc").action_lost) == (2, 1, True)


def test_14_1_no_more_breach_markers_than_the_counters(rg_map):
    sides = ["0817/0916", "0512/0612", "0206/0207", "0307/0308", "0409/0410", "0510/0511", "0713/0714"]
    r = check(rg_map, turn="June 3-4", breaches=[{"hexside": s, "state": "breached"} for s in sides])
    assert [f.message for f in r.errors()] == ["7 breach markers: the game provides 6"]


# A small map for the 14.2 "back into the prohibited area" rule: the prohibited zone is columns
# 01-03, the minefield line column 04 rows 01-20 (its south end 0421-0422 is open ground). Sea in
# column 02 rows 01-20 and 0320 cuts column 03 rows 01-19 off from the west edge inside the zone.
LOC_MAP = """\
  hexes:
    - {terrain: sea, hexes: ["0201..0220", "0320"]}
boxes:
  - {name: line, kind: minefield, owner: allied, source: test, hexes: ["0401..0420"]}
zones:
  - {name: allied-prohibited, source: test, hexes: ["0101..0122", "0201..0222", "0301..0322"]}
"""
LOC_UNITS_EAST = [(f"ax{r}", "axis", "infantry", f"15{r:02d}") for r in range(1, 9)]


def test_14_2_loc_may_not_come_back_into_the_prohibited_area_through_a_breach():
    """14.2: "The LOC may not cross into a breached minefield hex and then back into the Allied
    Prohibited Movement Area": round the south end, in through 0410 from the east, back into 0310,
    then out through 0405 is no LOC."""
    m = make_map(LOC_MAP)
    breaches = [{"hexside": "0310/0410", "state": "breached", "through": True},
                {"hexside": "0305/0405", "state": "breached", "through": True}]
    r = check(m, LOC_UNITS_EAST, turn="May 29", breaches=breaches)
    assert r.sections.get("loc") is not None and (r.sections.get("loc").traced, r.sections.get("loc").action_lost) == (0, True), r.sections.get("loc")


def test_14_2_loc_from_the_west_edge_through_the_breach():
    """The same map with the sea moved aside: 0305 is reached from the west edge inside the zone."""
    m = make_map(LOC_MAP.replace('"0201..0220", "0320"', '"0220"'))
    breaches = [{"hexside": "0305/0405", "state": "breached", "through": True}]
    r = check(m, LOC_UNITS_EAST, turn="May 29", breaches=breaches)
    assert r.sections.get("loc") is not None and (r.sections.get("loc").traced, r.sections.get("loc").action_lost) == (1, False)
    assert r.sections.get("loc").paths[0].via == "0405"


def test_14_2_loc_starts_on_any_west_edge_hex():
    """14.2 traces the LOC "from the west map edge" (5.0's supply sources are only its hexes south of
    0105): with sea on 0106-0122 the LOC still runs from 0105 through the breach at 0405."""
    m = make_map(LOC_MAP.replace('"0201..0220", "0320"', '"0106..0122"'))
    breaches = [{"hexside": "0305/0405", "state": "breached", "through": True}]
    r = check(m, LOC_UNITS_EAST, turn="May 29", breaches=breaches)
    assert r.sections.get("loc") is not None and (r.sections.get("loc").traced, r.sections.get("loc").action_lost) == (1, False), r.sections.get("loc")
    assert r.sections.get("loc").paths[0].hexes[0] in {"0101", "0102", "0103", "0104", "0105"}


def test_14_0_line_0204_0801_from_june_9_10_on_the_real_map(rg_map):
    """14.0: "Line from 0204 to 0801, inclusive: June 9-10" (no effect until that turn's Minefield Phase)."""
    units = [("a", "axis", "infantry", "0303")]
    assert check(rg_map, units, turn="June 7-8").supply["a"] is SupplyStatus.IN
    assert check(rg_map, units, turn="June 9-10").supply["a"] is SupplyStatus.OUT


def test_14_1_an_allied_unit_beside_the_box_but_not_the_far_hexside_does_not_stop_it(rg_map):
    """14.1: the far hexside is breached "if there are no Allied units adjacent to it" (to the
    hexside: the two hexes either side of it). Allied 1317 touches 1316 but not 1316/1416."""
    units = [("i3", "axis", "infantry", "1217"), ("b", "allied", "infantry", "1317")]
    r = check(rg_map, units, turn="May 28", breaches=[{"hexside": "1217/1316", "state": "under-construction"}])
    [f] = [f for f in r.by_rule("14.1") if f.severity is Severity.INFO]
    assert f.message.startswith("breach 1217/1316 will succeed into 1316 and through 1316/1416")


def test_14_2_an_enemy_unit_on_the_west_edge_hex_cuts_the_loc(rg_map):
    """14.2: "The LOC may not be traced through enemy units", its first hex on the west edge included."""
    breach = {"hexside": "0106/0206", "state": "breached", "through": True}
    r = check(rg_map, axis_units(EAST[:8]), turn="May 29", breaches=[breach])
    assert r.sections.get("loc") is not None and r.sections.get("loc").traced == 1 and r.sections.get("loc").paths[0].hexes[:2] == ("0106", "0206")
    r = check(rg_map, [*axis_units(EAST[:8]), ("b", "allied", "infantry", "0106")], turn="May 29", breaches=[breach])
    assert r.sections.get("loc") is not None and r.sections.get("loc").traced == 0, r.sections.get("loc").paths


def test_14_1_no_breached_marker_before_may_29(rg_map):
    """14.1: breaching starts on the May 28 turn and a breach is made "at the start of the Minefield
    Phase in the next game turn": a marker can show its breached side from May 29 only."""
    units = [("i", "axis", "infantry", "1216")]
    r = check(rg_map, units, turn="May 28", breaches=[{"hexside": "1216/1315", "state": "breached"}])
    assert [f.rule for f in r.errors()] == ["14.1"]
    assert check(rg_map, units, turn="May 28", breaches=[{"hexside": "1216/1315", "state": "under-construction"}]).legal
    assert check(rg_map, units, turn="May 29", breaches=[{"hexside": "1216/1315", "state": "breached"}]).legal


def test_14_2_enemy_zoc_does_not_cut_the_loc(rg_map):
    """14.2 lists enemy units, escarpments off roads and un-breached minefields: not enemy ZOC."""
    r = check(rg_map, [*axis_units(EAST[:8]), ("b", "allied", "armor", "1116")], turn="May 29", breaches=[BREACH_0916])
    assert "1016" in r.zoc["allied"]
    assert r.sections.get("loc") is not None and r.sections.get("loc").traced == 1 and "1016" in r.sections.get("loc").paths[0].hexes


def test_14_2_escarpment_off_a_road_cuts_the_loc():
    """14.2: "escarpments not crossed by a road"."""
    ridge = ", ".join(f'"05{r:02d}>06{r:02d}"' for r in range(1, 23)) + ", " + ", ".join(
        f'"05{r:02d}>06{r + 1:02d}"' for r in range(1, 22))
    m = make_map(LOC_MAP.replace('"0201..0220", "0320"', '"0220"')
                 + f"hexsides:\n  - {{name: ridge, kind: escarpment, source: test, sides: [{ridge}]}}\n")
    breaches = [{"hexside": "0305/0405", "state": "breached", "through": True}]
    r = check(m, LOC_UNITS_EAST, turn="May 29", breaches=breaches)
    assert r.sections.get("loc") is not None and r.sections.get("loc").traced == 0
    road = 'paths:\n  - {name: via, kind: road, source: test, hexes: ["0504", "0604"]}\n'
    r = check(make_map(LOC_MAP.replace('"0201..0220", "0320"', '"0220"') + road
                       + f"hexsides:\n  - {{name: ridge, kind: escarpment, source: test, sides: [{ridge}]}}\n"),
              LOC_UNITS_EAST, turn="May 29", breaches=breaches)
    assert r.sections.get("loc") is not None and r.sections.get("loc").traced == 1


def test_14_0_a_road_does_not_negate_a_minefield_for_axis_supply():
    """14.0: "Roads and tracks do not negate the effects of minefields" (8.0 exception too)."""
    road = 'paths:\n  - {name: via, kind: road, source: test, hexes: ["1510", "1410", "1310"]}\n'
    m = make_map(BOX_1510 % "" + road)
    assert check(m, [("a", "axis", "armor", "1510")]).supply["a"] is SupplyStatus.OUT


# --- 5.0 / 14.1 / 14.2: minefield hexes as well as their hexsides ----------------------------------
BELT_05 = 'boxes:\n  - {name: belt, kind: minefield, owner: allied, source: test, hexes: ["0501..0522"]}\n'


def test_5_0_axis_supply_may_not_run_along_the_inside_of_a_belt_through_an_unbreached_hex():
    """5.0: "... minefield hexes for the Axis player unless they have been breached": a breach into
    0508 from the east and one into 0510 from the west do not make a path through 0509."""
    m = make_map(BELT_05)
    breaches = [{"hexside": "0508/0608", "state": "breached"}, {"hexside": "0410/0510", "state": "breached"}]
    r = check(m, [("a", "axis", "armor", "0608")], turn="May 29", breaches=breaches)
    assert r.supply["a"] is SupplyStatus.OUT


def test_5_0_axis_supply_runs_through_breached_minefield_hexes():
    m = make_map(BELT_05)
    breaches = [{"hexside": "0508/0608", "state": "breached"}, {"hexside": "0409/0509", "state": "breached"}]
    r = check(m, [("a", "axis", "armor", "0608")], turn="May 29", breaches=breaches)
    assert r.supply["a"] is SupplyStatus.IN  # 0608 - 0508 - 0509 - 0409: both belt hexes breached


ISSUE_BREACHES = [{"hexside": "0817/0916", "state": "breached"}, {"hexside": "0914/0815", "state": "breached"}]
ISSUE_UNITS = ["0914", "0914", "1014", "1014", "1015", "1015", "1114", "1114"]


def test_14_2_loc_may_not_run_along_the_inside_of_the_gazala_line(rg_map):
    """Breaches at 0817/0916 (west) and 0914/0815 (east) make no LOC 0916-0915-0815: 0915 is not breached."""
    units = [(f"ax{i}", "axis", "infantry", h) for i, h in enumerate(ISSUE_UNITS)]
    r = check(rg_map, units, turn="May 29", breaches=ISSUE_BREACHES)
    assert r.sections.get("loc") is not None and r.sections.get("loc").traced == 0 and r.sections.get("loc").action_lost


def test_14_2_reported_loc_names_its_breached_hexes_and_crosses_no_unbreached_minefield(rg_map):
    r = check(rg_map, axis_units(EAST[:8]), turn="May 29", breaches=[BREACH_0916])
    assert r.sections.get("loc") is not None
    [path] = r.sections.get("loc").paths
    mined = {rg_map.label(h) for b in rg_map.boxes if b.kind.value == "minefield" for h in b.hexes}
    assert path.breached == ("0916",)
    assert [h for h in path.hexes if h in mined] == ["0916"]
    assert "breached minefield hexes 0916" in r.paths[0].label
