"""Lowland Front (``lowland-front/``, issue 32): a game made only of data, on pointy-topped hexes named
column.row, judged by the generic referee from its rules text (``lowland-front/RULES.md``).

This file: the movement rules (3.x), the Terrain Effects Chart (3.6), zones of control on movement
(5.3, 5.4; 5.1/5.2 say who exerts one), markers on movement (6.1-6.3), exits (10.3), each
adjudicated by hand from RULES.md on positions written as data (one unit's move, the position before
it). The engine-written logs (the sequence of play, 2.x) are in ``test_lowland_front_logs.py``.

The map (``lowland-front/map.yaml``): odd rows lie half a hex east of even rows, so ``c.r``'s
neighbours are ``c±1.r`` and, on an odd row, ``c.r±1`` and ``c+1.r±1``, on an even row ``c-1.r±1`` and
``c.r±1``. Woods 05.02 05.03 06.03 09.08 ...; hills 11.06 (Marrenburg, a city on a hill) 11.07 10.07;
swamp 08.03 08.04 09.04 15.09 15.10; lakes 05.10 06.10 06.11; the Aa stream between columns 06 and
07 (rows 01-06), the Lisse river between columns 12 and 13; the high road along row 05 to 10.05, then
11.06-12.06-13.06 (the bridge) and along row 06; the railway 11.09-12.10-13.10 (the rail bridge).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from gazala_tools.games import find_game
from gazala_tools.referee.engine import Context, RulesPlugin
from gazala_tools.referee.findings import Finding, Severity
from gazala_tools.referee.movement import (
    MoveChecker,
    MoveContext,
)
from gazala_tools.referee.plugins import rules_for
from gazala_tools.referee.position import Position, Unit

from .conftest import MovePhase

FOLDER = Path(__file__).resolve().parent / "lowland-front"

#: unit id -> (side, type): the counters of counters.yaml (MA: infantry 5, division 5, panzer 8,
#: motorized 8, recon 10, artillery 5, HQ 6)
TYPES = {
    "lg-1-div": ("league", "infantry-division"), "lg-2-bde": ("league", "infantry"), "lg-3-bde": ("league", "infantry"),
    "lg-4-pz": ("league", "armor"), "lg-5-mot": ("league", "motorized"), "lg-6-rec": ("league", "recon"),
    "lg-7-art": ("league", "artillery"), "lg-hq": ("league", "hq"),
    "em-1-div": ("empire", "infantry-division"), "em-2-div": ("empire", "infantry-division"),
    "em-3-bde": ("empire", "infantry"), "em-4-pz": ("empire", "armor"), "em-5-mot": ("empire", "motorized"),
    "em-6-rec": ("empire", "recon"), "em-7-art": ("empire", "artillery"), "em-hq": ("empire", "hq"),
    "lg-8-bde": ("league", "infantry"), "lg-9-rec": ("league", "recon"), "lg-10-pz": ("league", "armor"),
    "em-8-div": ("empire", "infantry-division"),
}


@pytest.fixture(scope="module")
def rules() -> RulesPlugin:
    return rules_for(find_game(str(FOLDER)))


def unit(rules: RulesPlugin, uid: str, where: str | None, *markers: str, box: str | None = None) -> Unit:
    side, kind = TYPES[uid]
    return Unit(uid, side, kind, "", rules.map.hex(where) if where else None, box=box, markers=frozenset(markers))


Phase = MovePhase


def errors(found: list[Finding]) -> list[str]:
    return [f.rule for f in found if f.severity is Severity.ERROR]


def points(rules: RulesPlugin, u: Unit, a: str, b: str) -> float:
    mc = MoveContext(rules, rules.movement, Context(rules, Position(game=rules.game.id, units=(u,))), 1, 1,
                     {}, {})
    return MoveChecker(mc, u).points(rules.map.hex(a), rules.map.hex(b))


# --- 3.1 movement points ---------------------------------------------------------------------------
def test_3_1_a_unit_spends_one_mp_a_clear_hex_up_to_its_allowance(rules: RulesPlugin) -> None:
    # 01.08 to 06.08: five clear hexes, 5 MP of the brigade's 5
    ph = Phase(rules, [unit(rules, "lg-2-bde", "01.08")])
    assert ph.move("lg-2-bde", "06.08") == [] and ph.spent("lg-2-bde") == 5


def test_3_1_a_move_beyond_the_allowance_is_an_error_naming_what_makes_the_total(rules: RulesPlugin) -> None:
    # 01.08 to 07.08: six clear hexes, 6 MP of 5
    ph = Phase(rules, [unit(rules, "lg-2-bde", "01.08")])
    found = ph.move("lg-2-bde", "07.08")
    assert errors(found) == ["3.1"]
    assert "needs 6 movement points from 01.08 to 07.08, more than the 5 of its 5" in found[0].message
    assert found[0].message.endswith(": 6 hexes = 6 of 5")


def test_3_1_unused_points_are_lost_and_spent_points_are_counted_over_the_phase(rules: RulesPlugin) -> None:
    ph = Phase(rules, [unit(rules, "lg-2-bde", "01.08")])
    assert ph.move("lg-2-bde", "04.08") == []  # 3 of 5
    found = ph.move("lg-2-bde", "07.08")  # 3 more: 6 of 5
    assert errors(found) == ["3.1"] and "more than the 2 of its 5 it has left" in found[0].message


# --- 3.2 one hex a phase -----------------------------------------------------------------------------
def test_3_2_a_unit_may_always_move_one_hex_whatever_it_costs(rules: RulesPlugin) -> None:
    # out of supply (6.1): 5 halved to 2; 07.03 to 06.03 is woods 2 + the Aa stream 1 = 3
    ph = Phase(rules, [unit(rules, "lg-2-bde", "07.03", "out-of-supply")])
    found = ph.move("lg-2-bde", "06.03")
    assert errors(found) == [] and [f.rule for f in found] == ["3.2"]
    assert "2 across stream (3.6)" not in found[0].message and "1 across stream (3.6)" in found[0].message


def test_3_2_the_one_hex_must_be_the_whole_move_of_the_phase(rules: RulesPlugin) -> None:
    # two hexes (07.05-07.04-06.03: 1 + 3 = 4) with 2 MP: no exception
    ph = Phase(rules, [unit(rules, "lg-2-bde", "07.05", "out-of-supply")])
    found = ph.move("lg-2-bde", "06.03")
    assert errors(found) == ["3.1"]
    assert found[0].message.endswith(": 1 for 1 clear hex + 2 for 1 woods hex + 1 across stream (3.6) = 4 of 2")
    # nor a second move of the phase
    ph = Phase(rules, [unit(rules, "lg-2-bde", "07.04", "out-of-supply")])
    assert ph.move("lg-2-bde", "07.03") == []
    assert errors(ph.move("lg-2-bde", "06.03")) == ["3.1"]


def test_3_2_never_into_a_prohibited_hex(rules: RulesPlugin) -> None:
    # motor units may not enter swamp (P): one hex is no exception
    ph = Phase(rules, [unit(rules, "lg-4-pz", "07.03")])
    found = ph.move("lg-4-pz", "08.03")
    assert errors(found) == ["3.6"] and "enters swamp" in found[0].message


# --- 3.3 roads and railways --------------------------------------------------------------------------
def test_3_3_a_motor_unit_pays_half_a_point_along_the_road_and_crosses_by_its_bridges(rules: RulesPlugin) -> None:
    # 01.05 to 17.06 along the high road: 16 road hexes at 1/2 = 8, over the Aa and the Lisse by bridges
    ph = Phase(rules, [unit(rules, "lg-4-pz", "01.05")])
    assert ph.move("lg-4-pz", "17.06") == [] and ph.spent("lg-4-pz") == 8
    assert ph.paths[0] is not None and "12.06" in ph.paths[0] and "13.06" in ph.paths[0]


def test_3_3_one_road_hex_more_is_too_far(rules: RulesPlugin) -> None:
    ph = Phase(rules, [unit(rules, "lg-4-pz", "01.05")])
    found = ph.move("lg-4-pz", "18.06")  # 17 road hexes: 8.5 of 8
    assert errors(found) == ["3.1"] and found[0].message.endswith(": 8.5 along the road (17 hexes) = 8.5 of 8")


def test_3_3_the_river_off_the_road_is_prohibited_to_motor_units(rules: RulesPlugin) -> None:
    # 12.05 to 13.05 crosses the Lisse off the road (P); the only legal way is by the bridge:
    # 12.05-12.06 (clear 1, not along the road) -13.06 (road 1/2) -13.05 (clear 1) = 2.5
    ph = Phase(rules, [unit(rules, "lg-4-pz", "12.05")])
    found = ph.move("lg-4-pz", "13.05")
    assert errors(found) == [] and [(f.rule, f.severity) for f in found] == [("3.6", Severity.WARNING)]
    assert "is legal only by 12.05-12.06-13.06-13.05, 2.5 MP: the direct route crosses river" in found[0].message
    ph = Phase(rules, [unit(rules, "lg-4-pz", "12.05")], allowance={"lg-4-pz": 2})
    found = ph.move("lg-4-pz", "13.05")
    assert errors(found) == ["3.6"] and "no legal path from 12.05 to 13.05 within its 2 movement points left" \
        in found[0].message


def test_3_3_the_railway_bridge_costs_nothing_more_the_river_off_it_2(rules: RulesPlugin) -> None:
    inf = unit(rules, "lg-3-bde", "11.09")
    assert points(rules, inf, "12.10", "13.10") == 1  # along the railway, over its bridge
    assert points(rules, inf, "12.09", "13.09") == 3  # clear 1 + the river 2 (3.5)
    ph = Phase(rules, [inf], allowance={"lg-3-bde": 2})
    assert ph.move("lg-3-bde", "13.10") == []  # 11.09-12.10-13.10: 2 of 2


# --- 3.4 several terrains in a hex, 3.5 hexsides ------------------------------------------------------
def test_3_4_marrenburg_costs_its_hills_not_its_city_unless_the_road_is_followed(rules: RulesPlugin) -> None:
    inf = unit(rules, "lg-2-bde", "10.06")
    assert points(rules, inf, "10.06", "11.06") == 2  # hills 2 > city 1
    assert points(rules, inf, "10.05", "11.06") == 1  # along the road (3.3)
    assert points(rules, unit(rules, "lg-4-pz", "10.06"), "10.05", "11.06") == 0.5


def test_3_5_a_stream_adds_to_the_hex_entered(rules: RulesPlugin) -> None:
    assert points(rules, unit(rules, "lg-2-bde", "06.02"), "06.02", "07.02") == 2  # clear 1 + stream 1
    assert points(rules, unit(rules, "lg-4-pz", "06.02"), "06.02", "07.02") == 3  # clear 1 + stream 2
    assert points(rules, unit(rules, "lg-2-bde", "06.02"), "07.02", "08.02") == 1  # no hexside feature


# --- 3.6 the chart: all, P --------------------------------------------------------------------------------
def test_3_6_swamp_costs_all_remaining_mp(rules: RulesPlugin) -> None:
    # 09.02-08.02 (1) then the swamp 08.03: all the 4 left
    ph = Phase(rules, [unit(rules, "lg-2-bde", "09.02")])
    assert ph.move("lg-2-bde", "08.03") == [] and ph.spent("lg-2-bde") == 5
    # none left: not even one more clear hex
    assert errors(ph.move("lg-2-bde", "08.02")) == ["3.1"]


def test_3_6_swamp_needs_a_point_left(rules: RulesPlugin) -> None:
    ph = Phase(rules, [unit(rules, "lg-2-bde", "09.02")], allowance={"lg-2-bde": 1})
    assert ph.move("lg-2-bde", "08.02") == []  # 1 of 1
    found = ph.move("lg-2-bde", "08.03")
    assert errors(found) == ["3.1"] and found[0].message.endswith(": all MP left for 1 swamp hex = 1 of 0")


def test_3_6_lake_is_prohibited_to_every_unit(rules: RulesPlugin) -> None:
    for uid, start in (("lg-2-bde", "05.09"), ("lg-4-pz", "05.09")):
        found = Phase(rules, [unit(rules, uid, start)]).move(uid, "05.10")
        assert errors(found) == ["3.6"] and "enters lake" in found[0].message


def test_3_6_woods_cost_foot_2_and_motor_3(rules: RulesPlugin) -> None:
    assert points(rules, unit(rules, "lg-2-bde", "04.02"), "04.02", "05.02") == 2
    assert points(rules, unit(rules, "lg-6-rec", "04.02"), "04.02", "05.02") == 3


# --- 3.7 enemy units ----------------------------------------------------------------------------------
def test_3_7_no_unit_enters_a_hex_holding_an_enemy_unit(rules: RulesPlugin) -> None:
    ph = Phase(rules, [unit(rules, "lg-2-bde", "01.08"), unit(rules, "em-hq", "03.08")])
    found = ph.move("lg-2-bde", "03.08")
    assert errors(found) == ["3.7"]
    ph = Phase(rules, [unit(rules, "lg-2-bde", "01.08"), unit(rules, "lg-hq", "03.08")])
    assert ph.move("lg-2-bde", "03.08") == []  # a friendly unit's hex


# --- 5.3 / 5.4 zones of control on movement -------------------------------------------------------------
def test_5_3_a_league_unit_stops_on_entering_an_enemy_zone_of_control(rules: RulesPlugin) -> None:
    # em-2-div at 15.06 exerts a zone into 14.06; the League brigade enters it and may not go on
    ph = Phase(rules, [unit(rules, "lg-2-bde", "13.06"), unit(rules, "em-2-div", "15.06")])
    assert ph.move("lg-2-bde", "14.06") == []
    found = ph.move("lg-2-bde", "14.07")
    assert errors(found) == ["5.3"]
    assert "moves again after entering an enemy zone of control this phase" in found[0].message


def test_5_3_a_league_unit_may_leave_a_zone_it_began_its_phase_in(rules: RulesPlugin) -> None:
    ph = Phase(rules, [unit(rules, "lg-2-bde", "14.06"), unit(rules, "em-2-div", "15.06")])
    assert ph.move("lg-2-bde", "13.06") == [] and ph.spent("lg-2-bde") == 1  # no cost to leave (5.4 is the Empire's)


def test_5_3_passing_through_an_enemy_zone_is_a_detour_or_an_error(rules: RulesPlugin) -> None:
    # 14.05 to 14.07 past em-2-div at 15.06: every hex between (14.06) is in its zone
    ph = Phase(rules, [unit(rules, "lg-2-bde", "13.05"), unit(rules, "em-2-div", "15.06")], allowance={"lg-2-bde": 2})
    found = ph.move("lg-2-bde", "14.07")
    assert errors(found) == ["5.3"] and "goes on after entering an enemy zone of control (it must stop)" \
        in found[0].message


def test_5_2_no_zone_of_control_across_the_river_so_no_stop(rules: RulesPlugin) -> None:
    # em-2-div at 13.05 exerts no zone into 12.05 (the Lisse between): the League brigade walks on
    ph = Phase(rules, [unit(rules, "lg-2-bde", "11.05"), unit(rules, "em-2-div", "13.05")])
    assert ph.move("lg-2-bde", "12.04") == []


def test_5_4_an_empire_unit_pays_one_more_to_leave_an_enemy_zone(rules: RulesPlugin) -> None:
    # lg-2-bde at 15.04 exerts a zone into 15.05; em-3-bde leaves it: 15.05-16.06 costs 1 + 1, then
    # 16.07, 16.08, 16.09 one each: 5 of 5
    ph = Phase(rules, [unit(rules, "em-3-bde", "15.05"), unit(rules, "lg-2-bde", "15.04")])
    assert ph.move("em-3-bde", "16.09") == [] and ph.spent("em-3-bde") == 5
    ph = Phase(rules, [unit(rules, "em-3-bde", "15.05"), unit(rules, "lg-2-bde", "15.04")])
    found = ph.move("em-3-bde", "16.10")
    assert errors(found) == ["3.1"]
    assert found[0].message.endswith(": 5 hexes + 1 to leave an enemy zone of control hex (5.4) = 6 of 5")


def test_5_4_a_league_unit_pays_nothing_to_leave(rules: RulesPlugin) -> None:
    ph = Phase(rules, [unit(rules, "lg-3-bde", "15.05"), unit(rules, "em-3-bde", "15.04")])
    assert ph.move("lg-3-bde", "16.09") == [] and ph.spent("lg-3-bde") == 4


def test_5_4_an_empire_unit_never_moves_from_one_enemy_zone_hex_to_another(rules: RulesPlugin) -> None:
    # 15.05 and 14.05 are both beside lg-2-bde at 15.04: the direct step is illegal, the detour
    # 15.05-15.06-14.05 costs 1 + 1 (to leave) + 1 = 3
    units = [unit(rules, "em-3-bde", "15.05"), unit(rules, "lg-2-bde", "15.04")]
    found = Phase(rules, units).move("em-3-bde", "14.05")
    assert errors(found) == [] and [f.rule for f in found] == ["5.4"]
    assert "the direct route moves from one enemy zone of control hex directly to another (15.05 to 14.05)" in found[0].message
    found = Phase(rules, units, allowance={"em-3-bde": 2}).move("em-3-bde", "14.05")
    assert errors(found) == ["5.4"] and "no legal path from 15.05 to 14.05 within its 2 movement points left" \
        in found[0].message


# --- 6.x markers ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("marker", ["out-of-supply", "isolated"])
def test_6_1_6_2_out_of_supply_and_isolated_halve_the_allowance_rounded_down(rules: RulesPlugin, marker: str) -> None:
    ph = Phase(rules, [unit(rules, "lg-2-bde", "01.08", marker)])
    assert ph.move("lg-2-bde", "03.08") == []  # 2 of 5 // 2 = 2
    ph = Phase(rules, [unit(rules, "lg-2-bde", "01.08", marker)])
    found = ph.move("lg-2-bde", "04.08")
    assert errors(found) == ["3.1"] and "more than the 2 of its 2" in found[0].message


def test_6_3_a_disrupted_unit_may_not_move(rules: RulesPlugin) -> None:
    found = Phase(rules, [unit(rules, "lg-2-bde", "01.08", "disrupted")]).move("lg-2-bde", "02.08")
    assert errors(found) == ["6.3"] and found[0].message == "lg-2-bde is marked Disrupted: it may not move"
    assert Phase(rules, [unit(rules, "lg-2-bde", "01.08")]).move("lg-2-bde", "02.08") == []


# --- 10.3 exits ------------------------------------------------------------------------------------------
def test_10_3_league_units_leave_by_the_east_edge_only(rules: RulesPlugin) -> None:
    ph = Phase(rules, [unit(rules, "lg-4-pz", "23.06")])
    assert ph.move("lg-4-pz", None, box="exited") == [] and ph.paths[0] == ["23.06", "24.06"]
    far = Phase(rules, [unit(rules, "lg-4-pz", "02.06")])
    assert errors(far.move("lg-4-pz", None, box="exited")) == ["10.3"]


def test_10_3_empire_units_do_not_exit(rules: RulesPlugin) -> None:
    found = Phase(rules, [unit(rules, "em-4-pz", "24.06")]).move("em-4-pz", None, box="exited")
    assert errors(found) == ["10.3"] and "Imperial units may not exit" in found[0].message


# --- what a position cannot show -------------------------------------------------------------------------
def test_a_position_lists_the_movement_rules_by_their_own_ids(rules: RulesPlugin) -> None:
    from gazala_tools.referee.movement import move_rules

    got = dict.fromkeys(r for r, _w in move_rules(rules))
    assert list(got) == ["3.1", "3.2", "5.3", "5.4", "3.6", "10.3", "6.3", "8.3"]  # 8.3: the reinforcements (rules data)


# --- 3.6 in a position: a unit standing where the chart says P ---------------------------------------------
def test_3_6_a_position_with_a_unit_in_a_prohibited_hex_is_an_error(rules: RulesPlugin) -> None:
    from gazala_tools.referee.engine import Referee

    position = Position(game=rules.game.id, units=(unit(rules, "lg-4-pz", "08.03"), unit(rules, "lg-2-bde", "08.04"),
                                                    unit(rules, "em-hq", "06.10")))
    found = [(f.rule, f.units, f.message) for f in Referee(rules).check(position).findings if f.rule == "3.6"]
    assert found == [
        ("3.6", ("em-hq",), "em-hq (Imperial hq) is in lake at 06.10, prohibited to every unit"),
        ("3.6", ("lg-4-pz",), "lg-4-pz (League armor) is in swamp at 08.03, prohibited to motor units"),
    ]  # the brigade may stand in swamp (all)


def test_the_documented_chart_is_lowland_fronts() -> None:
    # docs/games.md, "Rules mechanics": the example is this game's own chart, key for key
    import re

    import yaml

    doc = (Path(__file__).resolve().parents[2] / "docs" / "games.md").read_text(encoding="utf-8")
    section = doc[doc.index("### Terrain Effects Chart"):]
    block = re.search(r"```yaml\n(.*?)```", section, re.S)
    assert block is not None
    documented = yaml.safe_load(block.group(1))["rules"]
    game = yaml.safe_load((FOLDER / "game.yaml").read_text(encoding="utf-8"))["rules"]
    assert documented["terrain-effects"] == game["terrain-effects"]
    assert documented["type-groups"] == game["type-groups"]


# --- zone effects Lowland Front does not use: +N to enter, leave only at the start of the phase -------------
@pytest.fixture()
def variant(tmp_path: Path):
    """Lowland Front with other zone effects (movement.yaml ``zoc.sides``): another game's rules."""
    import shutil

    def make(league: str, empire: str) -> RulesPlugin:
        game = tmp_path / f"variant-{len(list(tmp_path.iterdir()))}"
        shutil.copytree(FOLDER, game)
        text = (game / "movement.yaml").read_text(encoding="utf-8")
        text = text.replace('    league: {rule: "5.3", stop: true}', f"    league: {league}")
        text = text.replace('    empire: {rule: "5.4", leave: 1, zoc-to-zoc: true}', f"    empire: {empire}")
        (game / "movement.yaml").write_text(text, encoding="utf-8")
        return rules_for(find_game(str(game)))

    return make


def test_zoc_enter_costs_more_points_to_enter_an_enemy_zone_hex(variant) -> None:
    rules = variant('{rule: "Z1", enter: 2}', '{rule: "Z2"}')
    # lg-2-bde from 13.06 into 14.06, beside em-2-div at 15.06: 1 + 2
    ph = Phase(rules, [unit(rules, "lg-2-bde", "13.06"), unit(rules, "em-2-div", "15.06")])
    assert ph.move("lg-2-bde", "14.06") == [] and ph.spent("lg-2-bde") == 3
    # the Empire pays nothing more (its own effects are none)
    ph = Phase(rules, [unit(rules, "em-3-bde", "16.06"), unit(rules, "lg-2-bde", "14.06")])
    assert ph.move("em-3-bde", "15.06") == [] and ph.spent("em-3-bde") == 1
    # from 13.08 by 13.07 (1) into 14.06 (1 + 2) with 3 MP (two hexes: 3.2 does not apply)
    ph = Phase(rules, [unit(rules, "lg-2-bde", "13.08"), unit(rules, "em-2-div", "15.06")], allowance={"lg-2-bde": 3})
    found = ph.move("lg-2-bde", "14.06")
    assert errors(found) == ["3.1"]
    assert found[0].message.endswith(": 2 hexes + 2 to enter an enemy zone of control hex (Z1) = 4 of 3")


def test_zoc_leave_at_start_an_enemy_zone_hex_is_left_only_as_the_first_step(variant) -> None:
    rules = variant('{rule: "Z3", leave-at-start: true}', '{rule: "Z2"}')
    units = [unit(rules, "lg-2-bde", "14.06"), unit(rules, "em-2-div", "15.06")]
    ph = Phase(rules, units)
    assert ph.move("lg-2-bde", "13.06") == []  # it began its phase there
    ph = Phase(rules, units)
    assert ph.move("lg-2-bde", "14.05") == []  # 14.05 is beside em-2-div too: no stop in this game
    found = ph.move("lg-2-bde", "13.05")  # a second move out of the zone
    assert errors(found) == ["Z3"]
    assert "leaves an enemy zone of control hex other than at the start of its movement phase" in found[0].message


def test_game_yaml_follows_the_json_schema_chart_included() -> None:
    import json

    import jsonschema
    import yaml

    schema = json.loads((Path(__file__).resolve().parents[2] / "gazala_tools/games/schema.json").read_text())
    raw = yaml.safe_load((FOLDER / "game.yaml").read_text(encoding="utf-8"))
    assert list(jsonschema.Draft202012Validator(schema).iter_errors(raw)) == []
    raw["rules"]["terrain-effects"]["terrain"]["woods"] = {"foot": "x2", "motor": 3}
    assert [e.message for e in jsonschema.Draft202012Validator(schema).iter_errors(raw)]


# --- 8.1 a reinforcement pays its entry hex ----------------------------------------------------------------
def test_8_1_a_reinforcement_pays_the_cost_of_its_entry_hex(rules: RulesPlugin) -> None:
    # lg-8-bde (MA 5) placed at 01.04 (clear, 1) has 4 left: 01.04 to 05.04 is 4 more, to 06.04 5 more
    ph = Phase(rules, [unit(rules, "lg-8-bde", None, box="reinforcements")])
    assert ph.move("lg-8-bde", "01.04") == [] and ph.spent("lg-8-bde") == 1
    assert ph.move("lg-8-bde", "05.04") == []
    ph = Phase(rules, [unit(rules, "lg-8-bde", None, box="reinforcements")])
    ph.move("lg-8-bde", "01.04")
    found = ph.move("lg-8-bde", "06.04")
    assert errors(found) == ["3.1"] and "more than the 4 of its 5" in found[0].message


def test_8_1_no_reinforcement_enters_a_hex_prohibited_to_it(rules: RulesPlugin) -> None:
    found = Phase(rules, [unit(rules, "lg-10-pz", None, box="reinforcements")]).move("lg-10-pz", "08.03")
    assert errors(found) == ["3.6"] and "enters the map at 08.03, prohibited to it" in found[0].message


# --- hexside rows that do not apply where another kind is (a ford): a variant of the map ----------------------
def test_3_6_a_river_row_unless_a_ford_is_there(tmp_path: Path) -> None:
    import shutil

    game = tmp_path / "ford"
    shutil.copytree(FOLDER, game)
    m = (game / "map.yaml").read_text(encoding="utf-8")
    m = m.replace("hexside-kinds:\n", 'hexside-kinds:\n  ford: {description: "a ford"}\n', 1)
    m = m.replace("paths:\n", '  - {name: the ford, kind: ford, source: test, sides: ["12.03/13.03"]}\npaths:\n', 1)
    (game / "map.yaml").write_text(m, encoding="utf-8")
    g = (game / "game.yaml").read_text(encoding="utf-8")
    g = g.replace('      river: {foot: "+2", motor: P}',
                  '      river: {cost: {foot: "+2", motor: P}, unless: [ford]}\n      ford: "+1"')
    (game / "game.yaml").write_text(g, encoding="utf-8")
    ford = rules_for(find_game(str(game)))
    pz = unit(ford, "lg-4-pz", "12.03")
    assert points(ford, pz, "12.03", "13.03") == 2  # clear 1 + the ford 1: the river row does not apply there
    found = Phase(ford, [unit(ford, "lg-4-pz", "12.04")], allowance={"lg-4-pz": 1}).move("lg-4-pz", "13.04")
    assert errors(found) == ["3.6"]  # elsewhere the river is still P to motor units
