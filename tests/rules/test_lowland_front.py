"""Lowland Front (``tests/games/lowland-front/``), rules 4-10, adjudicated by hand from its RULES.md.

A game made only of data: every rule below is a key of its ``game.yaml`` ``rules:`` section, judged
by the generic referee. Each test names the rule it adjudicates and sets a small position out as
data; the expected answer is worked out from RULES.md and the map (whose hexes the comments name:
clear unless said, the high road along row 05 from 01.05 through Westhaven 03.05 to 10.05, Marrenburg
11.06, the bridge 12.06/13.06 over the Lisse and on east; the Lisse between columns 12 and 13).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

from gazala_tools.games import find_game
from gazala_tools.hexes import Hex
from gazala_tools.referee.api import manifest_specs, position_from_data
from gazala_tools.referee.engine import Context, Referee, RulesPlugin
from gazala_tools.referee.findings import Severity
from gazala_tools.referee.generic import CONTROL, control_of, entry_blocked, record_entries
from gazala_tools.referee.position import Unit
from gazala_tools.referee.report import Report
from gazala_tools.referee.statuses import allowance, may_move
from gazala_tools.rules import plugin_class, rules_for

FOLDER = Path(__file__).resolve().parents[1] / "games" / "lowland-front"
L, E = "league", "empire"


@pytest.fixture(scope="module")
def rules() -> RulesPlugin:
    return rules_for(find_game(FOLDER))


def unit(uid: str, side: str, type_: str, where: str, *markers: str) -> dict[str, Any]:
    d: dict[str, Any] = {"id": uid, "side": side, "type": type_}
    d["hex" if "." in where else "box"] = where
    if markers:
        d["markers"] = list(markers)
    return d


def check(rules: RulesPlugin, *units: dict[str, Any], **keys: Any) -> Report:
    data = {"game": "lowland-front", "units": list(units), **keys}
    return Referee(rules).check(position_from_data(rules, data, manifest=manifest_specs(FOLDER)))


def found(report: Report, rule: str, severity: Severity | None = None) -> list[str]:
    return [f.message for f in report.by_rule(rule) if severity is None or f.severity is severity]


def supply(report: Report) -> dict[str, str]:
    return {k: v.value for k, v in report.supply.items()}


def test_a_data_only_game(rules: RulesPlugin) -> None:
    assert plugin_class(find_game(FOLDER)) is RulesPlugin and type(rules) is RulesPlugin


# --- 4 stacking ---------------------------------------------------------------------------------------
def test_4_1_six_stacking_points_may_stack(rules: RulesPlugin) -> None:
    # 4.2: a division 3 + a brigade 2 + a battalion 1 = 6 (4.1: at most 6)
    r = check(rules, unit("d", L, "infantry-division", "05.07"), unit("b", L, "armor", "05.07"),
              unit("n", L, "recon", "05.07"))
    assert not found(r, "4.1")


def test_4_1_seven_stacking_points_over_stack(rules: RulesPlugin) -> None:
    r = check(rules, unit("d", L, "infantry-division", "05.07"), unit("b", L, "armor", "05.07"),
              unit("c", L, "motorized", "05.07"))
    assert found(r, "4.1", Severity.ERROR) == [
        "05.07: 7 League stacking points in one hex (b 2 + c 2 + d 3) (limit 6)"]


def test_4_1_a_city_holds_nine_points(rules: RulesPlugin) -> None:
    # Westhaven 03.05 is a city: two divisions 6 + a brigade 2 + a battalion 1 = 9
    three = [unit("d1", L, "infantry-division", "03.05"), unit("d2", L, "infantry-division", "03.05"),
             unit("b", L, "infantry", "03.05")]
    assert not found(check(rules, *three, unit("n", L, "artillery", "03.05")), "4.1")
    assert found(check(rules, *three, unit("c", L, "motorized", "03.05")), "4.1", Severity.ERROR) == [
        "03.05: 10 League stacking points in one hex (b 2 + c 2 + d1 3 + d2 3) (limit 9 in city)"]


def test_4_1_marrenburg_on_its_hill_is_a_city_too(rules: RulesPlugin) -> None:
    # 11.06 is hills, and the place Marrenburg, a city (1.2, 3.4): 9 points
    nine = [unit("d1", E, "infantry-division", "11.06"), unit("d2", E, "infantry-division", "11.06"),
            unit("b", E, "armor", "11.06"), unit("n", E, "recon", "11.06")]
    assert not found(check(rules, *nine), "4.1")
    assert found(check(rules, *nine, unit("m", E, "artillery", "11.06")), "4.1", Severity.ERROR)


def test_4_2_an_hq_counts_no_points(rules: RulesPlugin) -> None:
    six = [unit("d", L, "infantry-division", "05.07"), unit("b", L, "armor", "05.07"), unit("n", L, "recon", "05.07")]
    assert not found(check(rules, *six, unit("h", L, "hq", "05.07")), "4.1")
    assert found(check(rules, *six, unit("a", L, "artillery", "05.07")), "4.1", Severity.ERROR)


def test_4_3_stacking_is_judged_at_the_end_of_a_movement_phase(rules: RulesPlugin) -> None:
    assert rules.data.stacking is not None and rules.data.stacking.when == "end-of-movement"


def test_3_7_enemy_units_never_share_a_hex(rules: RulesPlugin) -> None:
    r = check(rules, unit("a", L, "infantry", "05.07"), unit("b", E, "infantry", "05.07"))
    assert [f.rule for f in r.errors()] == ["3.7"]
    assert not check(rules, unit("a", L, "infantry", "05.07"), unit("b", E, "infantry", "05.08")).errors()


# --- 5 zones of control --------------------------------------------------------------------------------
def zoc(rules: RulesPlugin, *units: dict[str, Any]) -> dict[str, list[str]]:
    return check(rules, *units).zoc


def test_5_1_every_unit_exerts_a_zone_into_its_six_neighbours(rules: RulesPlugin) -> None:
    # 05.07 (an odd row, shifted half a hex east): 04.07 and 06.07 beside it, 05.06/06.06 above, 05.08/06.08 below
    assert zoc(rules, unit("a", L, "infantry", "05.07"))[L] == ["04.07", "05.06", "05.08", "06.06", "06.07", "06.08"]


def test_5_1_hqs_artillery_and_units_out_of_supply_or_isolated_exert_none(rules: RulesPlugin) -> None:
    for u in (unit("h", L, "hq", "05.07"), unit("a", L, "artillery", "05.07"),
              unit("o", L, "infantry", "05.07", "out-of-supply"), unit("i", L, "infantry", "05.07", "isolated")):
        assert zoc(rules, u)[L] == [], u
    assert zoc(rules, unit("d", L, "infantry", "05.07", "disrupted"))[L]  # 6.3: a disrupted unit still has one


def test_5_2_no_zone_across_the_river_bridged_or_not(rules: RulesPlugin) -> None:
    # 13.06's west hexsides 12.05/13.06, 12.06/13.06 (the road bridge), 12.07/13.06 are the Lisse
    got = zoc(rules, unit("e", E, "infantry", "13.06"))[E]
    assert got == ["13.05", "13.07", "14.06"]
    assert "12.06" in zoc(rules, unit("e", E, "infantry", "12.05"))[E]  # on the same bank it reaches


def test_5_2_no_zone_into_swamp_or_lake(rules: RulesPlugin) -> None:
    # 09.03's neighbours: 08.03 swamp, 09.04 swamp; 07.10's: 06.10 lake
    assert "08.03" not in zoc(rules, unit("a", L, "infantry", "09.03"))[L]
    assert "09.02" in zoc(rules, unit("a", L, "infantry", "09.03"))[L]
    assert "06.10" not in zoc(rules, unit("a", L, "infantry", "07.10"))[L]


# --- 6 markers -----------------------------------------------------------------------------------------
def lone(rules: RulesPlugin, *markers: str) -> Unit:
    return Unit("u", L, "infantry", hex=rules.map.hex("05.07"), markers=frozenset(markers))


def test_6_1_out_of_supply_halves_the_allowance_rounded_down(rules: RulesPlugin) -> None:
    assert allowance(rules, lone(rules, "out-of-supply"), 5) == 2  # 5 / 2 = 2.5 -> 2
    assert allowance(rules, lone(rules, "out-of-supply"), 8) == 4
    assert allowance(rules, lone(rules), 5) == 5


def test_6_2_isolated_halves_the_allowance_and_its_attack_is_reported(rules: RulesPlugin) -> None:
    assert allowance(rules, lone(rules, "isolated"), 5) == 2
    r = check(rules, unit("i", L, "infantry", "05.07", "isolated"))
    assert found(r, "6.2", Severity.INFO) == ["i is Isolated: attack x0.5 (combat is not refereed)"]


def test_6_3_a_disrupted_unit_may_not_move(rules: RulesPlugin) -> None:
    why = may_move(rules, lone(rules, "disrupted"))
    assert why is not None and why.rule == "6.3" and "may not move" in why.message
    assert may_move(rules, lone(rules, "out-of-supply")) is None
    assert allowance(rules, lone(rules, "disrupted"), 5) == 5


def test_6_4_at_most_one_of_out_of_supply_and_isolated(rules: RulesPlugin) -> None:
    r = check(rules, unit("u", L, "infantry", "02.02", "out-of-supply", "isolated"))
    assert found(r, "6.1", Severity.ERROR) == [
        "u carries both Isolated and Out of Supply: a unit carries at most one of them"]
    assert not found(check(rules, unit("u", L, "infantry", "02.02", "isolated")), "6.1", Severity.ERROR)


# --- 7 supply --------------------------------------------------------------------------------------------
def test_7_2_a_path_of_four_mp_to_the_west_edge(rules: RulesPlugin) -> None:
    # 05.01 -> 04.01 -> 03.01 -> 02.01 -> 01.01 (the west edge): 4 clear hexes, 4 MP
    assert supply(check(rules, unit("a", L, "infantry", "05.01"))) == {"a": "in"}


def test_7_2_five_mp_is_too_far(rules: RulesPlugin) -> None:
    # 06.01: five hexes to the west edge; the road (row 05) is 5 MP away too (06.02, then woods 2 at
    # 05.03/06.03, or across the Aa +1 at 07.02)
    r = check(rules, unit("a", L, "infantry", "06.01"))
    assert supply(r) == {"a": "out"}
    assert found(r, "7.2", Severity.WARNING) == [
        "supply phase: a at 06.01 cannot trace supply to the west edge or Westhaven (4 MP, or the road and railway): "
        "mark it Out of Supply"]


def test_7_6_each_marker_change_names_the_marker_the_goal_and_what_to_do(rules: RulesPlugin) -> None:
    # 7.6: "a unit out of supply in two consecutive supply phases is Isolated instead (6.2). A unit that
    # traces supply again loses its marker" (the flow: rules.markers' supply roles)
    goal = "the west edge or Westhaven (4 MP, or the road and railway)"
    r = check(rules, unit("a", L, "infantry", "06.01", "out-of-supply"))
    assert supply(r) == {"a": "isolated"}
    assert found(r, "7.2", Severity.WARNING) == [
        f"supply phase: a at 06.01 cannot trace supply to {goal}: remove its Out of Supply marker and mark it Isolated"]
    r = check(rules, unit("a", L, "infantry", "05.01", "isolated"))
    assert supply(r) == {"a": "in"}
    assert found(r, "7.2", Severity.WARNING) == [f"supply phase: a at 05.01 traces supply to {goal}: remove its "
                                                 "Isolated marker"]


def test_7_2_woods_cost_two_mp_of_the_four(rules: RulesPlugin) -> None:
    # 06.02 -> 05.03 (woods 2) -> 05.04 (1) -> 05.05, on the road: 4 MP (06.01 above needs 5: 2 more for woods)
    assert supply(check(rules, unit("a", L, "infantry", "06.02"))) == {"a": "in"}


def test_7_2_the_network_carries_supply_any_distance(rules: RulesPlugin) -> None:
    # 09.01 -> 10.02 -> 10.03 -> 10.04 -> 10.05, a road hex joined along the road to Westhaven and 01.05
    assert supply(check(rules, unit("a", L, "infantry", "09.01"))) == {"a": "in"}


def test_7_3_the_path_may_not_enter_an_enemy_zone(rules: RulesPlugin) -> None:
    # an Imperial unit at 03.02 puts 02.01, 03.01 and 04.02 in its zone: 05.01 has no other way in 4 MP
    r = check(rules, unit("a", L, "infantry", "05.01"), unit("e", E, "infantry", "03.02"))
    assert supply(r)["a"] == "out"


def test_7_3_a_friendly_unit_negates_the_zone_for_supply(rules: RulesPlugin) -> None:
    # 5.5: League units in 03.01 and 02.01 open the way 05.01 -> 04.01 -> 03.01 -> 02.01 -> 01.01
    r = check(rules, unit("a", L, "infantry", "05.01"), unit("e", E, "infantry", "03.02"),
              unit("f", L, "recon", "03.01"), unit("g", L, "recon", "02.01"))
    assert supply(r)["a"] == "in"


def test_7_4_enemy_zoc_does_not_cut_the_network(rules: RulesPlugin) -> None:
    # an Imperial unit at 06.04 has the road hexes 05.05 and 06.05 in its zone; one at 13.06 closes
    # the road east of the Lisse. 09.01 traces 4 MP to 10.05, and the road carries it west through
    # the zone to Westhaven and 01.05.
    r = check(rules, unit("a", L, "infantry", "09.01"), unit("e", E, "infantry", "06.04"),
              unit("f", E, "infantry", "13.06"))
    assert supply(r)["a"] == "in"


def test_7_4_an_enemy_unit_on_the_network_cuts_it(rules: RulesPlugin) -> None:
    # the Imperial unit stands on the road at 06.05: 07.05-10.05 are cut from every source
    r = check(rules, unit("a", L, "infantry", "09.01"), unit("e", E, "infantry", "06.05"),
              unit("f", E, "infantry", "13.06"))
    assert supply(r)["a"] == "out"


def test_7_5_a_unit_on_its_source_in_an_enemy_zone_is_in_supply(rules: RulesPlugin) -> None:
    # 01.03 is a west-edge hex, in the zone of the Imperial unit at 02.03: it enters nothing
    r = check(rules, unit("a", L, "infantry", "01.03"), unit("e", E, "infantry", "02.03"))
    assert supply(r)["a"] == "in"


def test_7_5_a_source_of_the_other_side_is_none(rules: RulesPlugin) -> None:
    # 24.01 is an east-edge hex: the Empire's source (7.1), not the League's; the nearest network hex,
    # the road at 24.06, is 5 MP away
    assert supply(check(rules, unit("a", L, "infantry", "24.01")))["a"] == "out"
    assert supply(check(rules, unit("a", E, "infantry", "24.01")))["a"] == "in"


def test_7_6_out_of_supply_then_isolated(rules: RulesPlugin) -> None:
    first = check(rules, unit("a", L, "infantry", "06.01"))
    assert [(m.add, m.remove) for m in first.markers] == [("out-of-supply", None)]
    second = check(rules, unit("a", L, "infantry", "06.01", "out-of-supply"))
    assert supply(second) == {"a": "isolated"}
    assert [(m.add, m.remove) for m in second.markers] == [("isolated", "out-of-supply")]


def test_7_6_a_unit_that_traces_again_loses_its_marker(rules: RulesPlugin) -> None:
    r = check(rules, unit("a", L, "infantry", "05.01", "isolated"))
    assert supply(r) == {"a": "in"} and [(m.add, m.remove) for m in r.markers] == [(None, "isolated")]


# --- 8 reinforcements --------------------------------------------------------------------------------------
def test_8_2_a_reinforcement_may_not_be_placed_in_an_enemy_zone(rules: RulesPlugin) -> None:
    # lg-8-bde arrives on turn 2 at 01.03-01.06; 01.04 is in the zone of the Imperial unit at 02.04
    r = check(rules, {"id": "lg-8-bde", "hex": "01.04"}, unit("e", E, "infantry", "02.04"), turn="Turn 2")
    assert found(r, "8.2", Severity.ERROR) == [
        "lg-8-bde arrives at 01.04, which is in the enemy zone of control of e (02.04): a reinforcement may not be placed "
        "in an enemy zone of control"]


def test_8_2_placed_out_of_the_enemy_zone_it_is_legal(rules: RulesPlugin) -> None:
    r = check(rules, {"id": "lg-8-bde", "hex": "01.06"}, unit("e", E, "infantry", "02.04"), turn="Turn 2")
    assert not r.errors()


def test_8_2_every_entry_hex_blocked_delays_the_reinforcement(rules: RulesPlugin) -> None:
    # Imperial units at 02.04 (zone: 01.03, 01.04, 01.05) and 01.06 (in it): every entry hex blocked
    r = check(rules, {"id": "lg-8-bde", "box": "reinforcements"}, {"id": "lg-9-rec", "box": "reinforcements"},
              unit("e", E, "infantry", "02.04"), unit("f", E, "infantry", "01.06"), turn="Turn 2")
    [msg] = found(r, "8.2", Severity.WARNING)
    assert msg.startswith("every reinforcement hex of lg-8-bde, lg-9-rec (Turn 2) is blocked (01.03 is in the enemy")
    assert msg.endswith("it is delayed one turn (to Turn 3)")
    one_free = check(rules, {"id": "lg-8-bde", "box": "reinforcements"}, unit("e", E, "infantry", "02.04"),
                     turn="Turn 2")
    assert not found(one_free, "8.2")


def test_8_2_entry_blocked_is_the_log_checkers_question(rules: RulesPlugin) -> None:
    pos = position_from_data(rules, {"game": "lowland-front", "units": [unit("e", E, "infantry", "02.04")]})
    ctx = Context(rules, pos)
    assert entry_blocked(rules, ctx, L, rules.map.hex("01.04")) == "is in the enemy zone of control of e (02.04)"
    assert entry_blocked(rules, ctx, L, rules.map.hex("01.06")) is None


def test_8_3_a_reinforcement_on_the_map_before_its_turn(rules: RulesPlugin) -> None:
    r = check(rules, {"id": "lg-10-pz", "hex": "01.05"}, turn="Turn 3")
    assert [f.rule for f in r.errors()] == ["8.3"]
    assert not check(rules, {"id": "lg-10-pz", "hex": "01.05"}, turn="Turn 4").errors()


# --- 9 control --------------------------------------------------------------------------------------------
def control(rules: RulesPlugin, label: str, *units: dict[str, Any], **keys: Any) -> str | None:
    pos = position_from_data(rules, {"game": "lowland-front", "units": list(units), **keys})
    return control_of(rules, Context(rules, pos), rules.map.hex(label))


def test_9_1_at_the_start_each_side_controls_its_bank(rules: RulesPlugin) -> None:
    assert control(rules, "11.06") == L and control(rules, "19.06") == E


def test_9_2_a_unit_in_a_hex_controls_it(rules: RulesPlugin) -> None:
    assert control(rules, "11.06", unit("e", E, "infantry", "11.06")) == E


def test_9_1_the_side_that_last_entered_it_controls_it(rules: RulesPlugin) -> None:
    # a log (or the position's control:) saw the Empire pass through Marrenburg; nobody is there now
    assert control(rules, "11.06", control={"11.06": E}) == E
    assert control(rules, "11.06", unit("a", L, "infantry", "11.06"), control={"11.06": E}) == L


# --- 10 victory -------------------------------------------------------------------------------------------
def vp(report: Report) -> dict[str, Any]:
    return dict(report.vp)


def test_10_2_an_objective_occupied_in_supply_scores_three(rules: RulesPlugin) -> None:
    # Westhaven (03.05) is itself a League source: in supply; Marrenburg and Ostfurt by their starting owners
    r = check(rules, unit("a", L, "infantry", "03.05"), turn="Turn 6")
    assert (vp(r)[L], vp(r)[E]) == (3 + 1, 1)
    assert vp(r)["final"] is True


def test_10_2_out_of_supply_it_scores_as_controlled(rules: RulesPlugin) -> None:
    # a League unit in Ostfurt (19.06, on the high road): Imperial units on the road at 15.06 and on the
    # railway at 14.10 cut every network hex it reaches in 4 MP (the Ostfurt road runs to the Depot and
    # the railway) from the League's sources: out of supply, so Ostfurt scores 1 VP (controlled)
    r = check(rules, unit("a", L, "infantry", "19.06"), unit("e", E, "infantry", "15.06"),
              unit("f", E, "infantry", "14.10"), turn="Turn 6")
    assert supply(r)["a"] == "out"
    assert (vp(r)[L], vp(r)[E]) == (1 + 1 + 1, 0)
    on_road = check(rules, unit("a", L, "infantry", "19.06"), turn="Turn 6")  # the road carries supply to it
    assert supply(on_road)["a"] == "in" and (vp(on_road)[L], vp(on_road)[E]) == (1 + 1 + 3, 0)


def test_10_3_eliminated_and_exited_units(rules: RulesPlugin) -> None:
    r = check(rules, {"id": "em-1-div", "box": "eliminated"}, {"id": "em-3-bde", "box": "eliminated"},
              {"id": "em-hq", "box": "eliminated"}, {"id": "lg-4-pz", "box": "exited"},
              {"id": "lg-2-bde", "box": "exited"}, turn="Turn 3")
    # League: division 2 + brigade 1 + HQ 0, and 2 for the exited panzer (a motor unit); the
    # infantry brigade is foot: nothing. Objectives by their starting owners (9.1): Westhaven and
    # Marrenburg (west of the Lisse) 1 each to the League, Ostfurt 1 to the Empire.
    assert (vp(r)[L], vp(r)[E]) == (2 + 1 + 2 + 1 + 1, 1)
    assert vp(r)["final"] is False and "result" not in vp(r)


def test_10_4_sudden_death(rules: RulesPlugin) -> None:
    # League units in Marrenburg (11.06) and Ostfurt (19.06), both on the high road: in supply, on turn 2
    both = check(rules, unit("a", L, "infantry", "11.06"), unit("b", L, "infantry", "19.06"), turn="Turn 2")
    assert vp(both)["result"] == "The League wins by sudden death (10.4)"
    assert found(both, "10.4", Severity.INFO)


def test_10_4_no_sudden_death_out_of_supply(rules: RulesPlugin) -> None:
    # the Imperial units at 15.06 and 14.10 cut Ostfurt's supply (as in 10.2 above)
    r = check(rules, unit("a", L, "infantry", "11.06"), unit("b", L, "infantry", "19.06"),
              unit("e", E, "infantry", "15.06"), unit("f", E, "infantry", "14.10"), turn="Turn 2")
    assert supply(r)["b"] == "out" and "result" not in vp(r)


def test_10_5_levels_of_victory(rules: RulesPlugin) -> None:
    # Turn 6: League holds Westhaven and Marrenburg in supply (6), Empire Ostfurt (3): League +3: marginal
    r = check(rules, unit("a", L, "infantry", "03.05"), unit("b", L, "infantry", "11.06"),
              unit("c", E, "infantry", "19.06"), turn="Turn 6")
    assert (vp(r)[L], vp(r)[E]) == (6, 3)
    assert vp(r)["result"] == "The League marginal victory (by 3 VP)"
    assert "Result: The League marginal victory (by 3 VP)." in r.vp_text
    # League: Westhaven in supply 3 + Marrenburg controlled 1; Empire: Ostfurt in supply 3 + a League
    # brigade eliminated 1: equal VP
    draw = check(rules, unit("a", L, "infantry", "03.05"), unit("c", E, "infantry", "19.06"),
                 {"id": "lg-2-bde", "box": "eliminated"}, turn="Turn 6")
    assert (vp(draw)[L], vp(draw)[E]) == (4, 4) and vp(draw)["result"] == "a draw"


def test_10_5_a_margin_of_five_is_decisive(rules: RulesPlugin) -> None:
    # League: Westhaven and Marrenburg in supply 6; Empire: Ostfurt controlled 1
    r = check(rules, unit("a", L, "infantry", "03.05"), unit("b", L, "infantry", "11.06"), turn="Turn 6")
    assert (vp(r)[L], vp(r)[E]) == (6, 1) and vp(r)["result"] == "The League decisive victory (by 5 VP)"


def test_10_4_sudden_death_at_the_end_of_the_last_turn_too(rules: RulesPlugin) -> None:
    r = check(rules, unit("a", L, "infantry", "03.05"), unit("b", L, "infantry", "11.06"),
              unit("c", L, "infantry", "19.06"), turn="Turn 6")
    assert (vp(r)[L], vp(r)[E]) == (9, 0) and vp(r)["result"] == "The League wins by sudden death (10.4)"


def test_9_1_a_logs_moves_feed_control(rules: RulesPlugin) -> None:
    # the log checker records each path's hexes for its side (generic.record_entries); an Imperial
    # unit passed through Marrenburg and went on: on Turn 6 the Empire controls it (10.2: 1 VP)
    seen: dict[Hex, str] = {}
    record_entries(seen, E, [rules.map.hex(x) for x in ("12.06", "11.06", "10.05")])
    record_entries(seen, L, [rules.map.hex("10.05")])
    pos = position_from_data(rules, {"game": "lowland-front", "units": [], "turn": "Turn 6"})
    pos = dataclasses.replace(pos, extra={CONTROL: seen})
    ctx = Context(rules, pos)
    assert control_of(rules, ctx, rules.map.hex("11.06")) == E and control_of(rules, ctx, rules.map.hex("10.05")) == L
    r = Referee(rules).check(pos)
    assert (vp(r)[L], vp(r)[E]) == (1, 2)  # Westhaven (League's start) 1; Marrenburg and Ostfurt 1 each
