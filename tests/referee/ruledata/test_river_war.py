"""A fifth game made only of data: River War (``river-war/``), judged by the generic referee.

No rules plugin: every finding comes from a rule of its ``game.yaml`` ``rules:`` section and cites
the section name the data gives it (S1 stacking, S2 enemy units, R1 reinforcements, R2 boxes, T1
terrain, T2 crossings, Z1 zones of control, P1/P2 supply). The map has its own numbering (row
letter, column number: ``"D-6"``), a river between columns 5 and 6 crossed by the road at the ford
D-5/D-6, marsh in F-3/F-4 and a lake in B-8.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from gazala_tools.games import find_game
from gazala_tools.referee.api import position_from_data
from gazala_tools.referee.engine import Referee, RulesPlugin
from gazala_tools.referee.findings import Severity
from gazala_tools.referee.generic import may_cross
from gazala_tools.referee.position import Unit
from gazala_tools.referee.report import Report
from gazala_tools.rules import plugin_class, rules_for

FOLDER = Path(__file__).resolve().parents[2] / "games" / "river-war"
DATA_RULES = {"S1", "S2", "R1", "R2", "T1", "T2", "P1", "P2"}


@pytest.fixture(scope="module")
def rules() -> RulesPlugin:
    return rules_for(find_game(FOLDER))


def check(rules: RulesPlugin, *units: tuple[str, str, str, str], **keys: Any) -> Report:
    rows = [{"id": i, "side": s, "type": t, **({"hex": w} if "-" in w else {"box": w})} for i, s, t, w in units]
    return Referee(rules).check(position_from_data(rules, {"game": "river-war", "units": rows, **keys}))


def errors(report: Report) -> list[tuple[str, str]]:
    return [(f.rule, f.message) for f in report.errors()]


def supply(report: Report) -> dict[str, str]:
    return {k: v.value for k, v in report.supply.items()}


def test_a_game_without_a_plugin_is_refereed_by_its_data(rules: RulesPlugin) -> None:
    assert plugin_class(find_game(FOLDER)) is RulesPlugin and type(rules) is RulesPlugin
    assert rules.map.label(rules.map.hex("D-6")) == "D-6"  # its own numbering


# --- S1 / S2 stacking ------------------------------------------------------------------------------
def test_S1_two_red_units_may_stack(rules: RulesPlugin) -> None:
    assert check(rules, ("a", "red", "infantry", "C-3"), ("b", "red", "armor", "C-3")).legal


def test_S1_a_third_red_unit_over_stacks(rules: RulesPlugin) -> None:
    r = check(rules, *[(f"u{i}", "red", "infantry", "C-3") for i in range(3)])
    [f] = r.by_rule("S1")
    assert f.severity is Severity.ERROR and f.hexes == ("C-3",) and f.units == ("u0", "u1", "u2")
    assert f.message == "C-3: 3 red units in one hex (limit 2); remove 1"


def test_S1_the_limit_is_per_side_blue_stacks_three(rules: RulesPlugin) -> None:
    assert check(rules, *[(f"u{i}", "blue", "infantry", "C-9") for i in range(3)]).legal
    assert [f.rule for f in check(rules, *[(f"u{i}", "blue", "infantry", "C-9") for i in range(4)]).errors()] == ["S1"]


def test_S1_one_hq_per_stack(rules: RulesPlugin) -> None:
    r = check(rules, ("h1", "blue", "hq", "C-9"), ("h2", "blue", "hq", "C-9"))
    assert errors(r) == [("S1", "C-9: 2 blue hq units in one hex (limit 1 hq); remove 1")]


def test_S2_enemy_units_never_share_a_hex(rules: RulesPlugin) -> None:
    r = check(rules, ("a", "red", "infantry", "C-3"), ("b", "blue", "infantry", "C-3"))
    [f] = r.errors()
    assert f.rule == "S2" and f.units == ("a", "b") and "enemy units share hex C-3" in f.message


# --- R2 boxes, T1 terrain, T2 crossings --------------------------------------------------------------
def test_R2_off_the_map_only_in_the_named_boxes(rules: RulesPlugin) -> None:
    r = check(rules, ("a", "red", "infantry", "reinforcements"), ("b", "red", "infantry", "eliminated"),
              ("c", "red", "infantry", "kitchen"))
    assert errors(r) == [("R2", "c is off the map in 'kitchen', not a box the rules allow")]


def test_R2_the_lake_holds_no_unit(rules: RulesPlugin) -> None:
    assert [f.rule for f in check(rules, ("a", "red", "infantry", "B-8")).errors()] == ["R2"]


def test_T1_vehicles_may_not_stand_in_the_marsh_infantry_may(rules: RulesPlugin) -> None:
    r = check(rules, ("a", "blue", "armor", "F-3"), ("h", "blue", "hq", "F-4"), ("i", "red", "infantry", "F-2"),
              ("j", "red", "infantry", "C-1"))
    assert sorted(errors(r)) == [("T1", "a (blue armor) is in the marsh at F-3"),
                                 ("T1", "h (blue hq) is in the marsh at F-4")]
    assert check(rules, ("i", "red", "infantry", "F-4")).legal


def test_T2_vehicles_cross_the_river_only_along_the_road(rules: RulesPlugin) -> None:
    m = rules.map
    tank, foot = Unit("t", "red", "armor"), Unit("f", "red", "infantry")
    across = may_cross(rules, tank, m.hex("C-5"), m.hex("C-6"))
    assert across is not None and across.rule == "T2"
    assert may_cross(rules, tank, m.hex("D-5"), m.hex("D-6")) is None  # the ford: the road crosses
    assert may_cross(rules, foot, m.hex("C-5"), m.hex("C-6")) is None
    # T1 is the Terrain Effects Chart's (a P cell for vehicles): a step into the marsh breaks it
    assert may_cross(rules, tank, m.hex("F-2"), m.hex("F-3")) is None  # the prohibited hexsides and hex sets only
    assert rules.data.chart is not None
    tank_costs = rules.data.chart.unit_costs(m, tank, rules.names)
    assert [r.rule for r, how in tank_costs.prohibitions(m.hex("F-2"), m.hex("F-3"))] == ["T1"]
    assert not rules.data.chart.unit_costs(m, foot, rules.names).prohibitions(m.hex("F-2"), m.hex("F-3"))


# --- Z1 zones of control -----------------------------------------------------------------------------
def test_Z1_every_unit_exerts_a_zoc_into_its_six_neighbours(rules: RulesPlugin) -> None:
    r = check(rules, ("a", "red", "infantry", "D-3"))
    assert r.zoc["red"] == ["C-3", "D-2", "D-4", "E-2", "E-3", "E-4"]


def test_Z1_no_zoc_across_the_river_and_none_from_a_disrupted_unit(rules: RulesPlugin) -> None:
    r = check(rules, ("a", "red", "infantry", "D-5"))
    assert r.zoc["red"] == ["C-5", "D-4", "E-4", "E-5"]  # not D-6, E-6 across the river
    rows = [{"id": "a", "side": "red", "type": "infantry", "hex": "D-3", "markers": ["disrupted"]}]
    pos = position_from_data(rules, {"game": "river-war", "units": rows})
    assert Referee(rules).check(pos).zoc["red"] == []


# --- P1 / P2 supply ----------------------------------------------------------------------------------
def test_P1_red_traces_at_most_six_hexes_to_the_west_edge(rules: RulesPlugin) -> None:
    assert supply(check(rules, ("r", "red", "infantry", "D-7"))) == {"r": "in"}  # six hexes, over the ford
    r = check(rules, ("r", "red", "infantry", "D-8"))
    assert supply(r) == {"r": "out"}
    [f] = r.by_rule("P1")
    assert f.severity is Severity.WARNING and f.message == "r at D-8 is unsupplied: no unobstructed path to the west edge"


def test_P1_the_river_blocks_supply_off_the_road(rules: RulesPlugin) -> None:
    """B-6 is five hexes from the west edge as the crow flies, but only the ford crosses the river."""
    assert supply(check(rules, ("r", "red", "infantry", "B-6"))) == {"r": "out"}


def test_P1_enemy_zoc_cuts_supply_unless_a_friendly_unit_stands_there(rules: RulesPlugin) -> None:
    cut = check(rules, ("r", "red", "infantry", "A-2"), ("b", "blue", "infantry", "B-2"))
    assert supply(cut)["r"] == "out"
    held = check(rules, ("r", "red", "infantry", "A-2"), ("b", "blue", "infantry", "B-2"), ("r2", "red", "infantry", "A-1"))
    assert supply(held)["r"] == "in"


def test_P2_blue_traces_at_most_four_hexes_to_the_east_edge(rules: RulesPlugin) -> None:
    assert supply(check(rules, ("b", "blue", "infantry", "D-6"))) == {"b": "in"}
    r = check(rules, ("b", "blue", "infantry", "D-5"))
    assert supply(r) == {"b": "out"} and [f.rule for f in r.findings] == ["P2"]


def test_P_units_waiting_for_their_turn_are_in_supply(rules: RulesPlugin) -> None:
    assert supply(check(rules, ("a", "blue", "armor", "reinforcements"))) == {"a": "in"}


# --- R1 reinforcements ------------------------------------------------------------------------------
def test_R1_a_reinforcement_on_the_map_before_its_turn(rules: RulesPlugin) -> None:
    r = check(rules, ("blue-tank-2", "blue", "armor", "D-9"), turn="Turn 2")
    assert errors(r) == [("R1", "blue-tank-2 is on the map on Turn 2: it arrives on Turn 3 at D-6")]
    assert check(rules, ("blue-tank-2", "blue", "armor", "D-9"), turn="Turn 3").legal


def test_R1_numbered_turns_may_be_given_as_numbers(rules: RulesPlugin) -> None:
    assert errors(check(rules, ("blue-tank-2", "blue", "armor", "D-9"), turn=2))[0][0] == "R1"
    assert errors(check(rules, ("blue-tank-2", "blue", "armor", "D-9"), turn="2"))[0][0] == "R1"


def test_R1_an_enemy_in_the_entry_hex_holds_the_reinforcement_back(rules: RulesPlugin) -> None:
    r = check(rules, ("blue-tank-2", "blue", "armor", "reinforcements"), ("x", "red", "infantry", "D-6"), turn="Turn 4")
    [f] = r.by_rule("R1")
    assert f.severity is Severity.WARNING and f.hexes == ("D-6",) and f.units == ("x",)
    assert "blue-tank-2 (Turn 3) may not arrive" in f.message
    arrived = check(rules, ("blue-tank-2", "blue", "armor", "D-9"), ("x", "red", "infantry", "D-6"), turn="Turn 4")
    assert arrived.by_rule("R1") == []


def test_every_finding_is_named_by_a_rule_of_the_data(rules: RulesPlugin) -> None:
    r = check(rules, ("h1", "blue", "hq", "C-9"), ("h2", "blue", "hq", "C-9"), ("a", "blue", "armor", "F-3"),
              ("i", "red", "infantry", "F-4"), ("l", "red", "infantry", "B-8"), ("k", "red", "infantry", "kitchen"),
              ("s", "red", "infantry", "C-9"), ("blue-tank-2", "blue", "armor", "D-9"), turn="1")
    assert {f.rule for f in r.findings} == {"S1", "S2", "T1", "R1", "R2", "P1", "P2"} <= DATA_RULES
