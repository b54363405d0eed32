"""SPI 17.0 Allied command control and 18.0 victory points, on positions given as data."""

from __future__ import annotations

import pytest

from gazala_tools.referee.api import manifest_specs, position_from_data, rules_for_game
from gazala_tools.referee.engine import Referee
from gazala_tools.referee.findings import Severity
from gazala_tools.referee.position import Unit
from gazala_tools.referee.victory import leader_level, printed_vp
from tests.rules.spi.spihelp import ROAD, check, make_map, pos
from tests.support.fixtures import spi_rules

# --- 17.0 command control ------------------------------------------------------------------------
START = [("g", "axis", "armor", "1010"), ("at3", "allied", "infantry", "1013"), ("at4", "allied", "infantry", "1014"),
         ("far", "allied", "infantry", "2020")]


def test_17_0_turn_1_only_units_within_three_hexes_or_attacked_may_move(open_map):
    r = check(open_map, START, turn=1, attacked=["far"])
    f = r.by_rule("17.0")
    assert len(f) == 1 and set(f[0].units) == {"at3", "far"}


def test_17_0_not_after_game_turn_1(open_map):
    assert not check(open_map, START, turn=2).by_rule("17.0")


def moved(open_map, turn, moves, **extra):
    rules = spi_rules(open_map)
    before = pos(open_map, START, turn=turn, rules=rules)
    after = pos(open_map, [(i, s, t, moves.get(i, h)) for i, s, t, h in START], turn=turn, rules=rules, **extra)
    return [f for f in Referee(rules).check(after, before=before).by_rule("17.0") if f.severity is Severity.ERROR]


def test_17_0_two_positions_a_unit_four_hexes_away_may_not_move(open_map):
    errors = moved(open_map, 1, {"at3": "1114", "at4": "1115"})
    assert [f.units for f in errors] == [("at4",)] and errors[0].hexes == ("1014", "1115")


def test_17_0_an_attacked_unit_may_move(open_map):
    assert not moved(open_map, 1, {"far": "2021"}, attacked=["far"])
    assert moved(open_map, 1, {"far": "2021"})
    assert not moved(open_map, 2, {"far": "2021"})


def test_17_0_with_before_the_may_move_line_is_that_of_the_start_of_the_movement_phase(open_map):
    """at4 (four hexes away at the start) moved next to the Axis unit: the info line must not list it
    as free to move while the error says it may not move."""
    rules = spi_rules(open_map)
    before = pos(open_map, START, turn=1, rules=rules)
    after = pos(open_map, [(i, s, t, {"at4": "1012"}.get(i, h)) for i, s, t, h in START], turn=1, rules=rules)
    r = Referee(rules).check(after, before=before)
    [info] = [f for f in r.by_rule("17.0") if f.severity is Severity.INFO]
    [error] = r.errors()
    assert info.units == ("at3",) and error.units == ("at4",)


# --- 18.0 victory points -------------------------------------------------------------------------


def test_18_11_unit_value_is_attack_plus_defence():
    """``vp: printed`` (generic): every printed number but the movement allowance."""
    assert printed_vp(Unit(id="x", side="axis", type="armor 4-5-15"), rules_for_game("cauldron-spi")) == 9  # 18.11's example


def test_18_11_artillery_value_is_barrage_fpf_defence():
    assert printed_vp(Unit(id="x", side="axis", type="artillery 4-2-3-6"), rules_for_game("cauldron-spi")) == 9


@pytest.mark.parametrize(
    ("axis", "allied", "level"),
    [(136, 100, "Axis Decisive"), (35, 0, "Axis Substantive"), (21, 0, "Axis Substantive"), (20, 0, "Axis Marginal"),
     (5, 0, "Axis Marginal"), (4, 0, "Draw"), (0, 0, "Draw"), (0, 9, "Draw"), (0, 10, "Allied Marginal"),
     (0, 25, "Allied Marginal"), (100, 126, "Allied Substantive"), (0, 40, "Allied Substantive"),
     (0, 41, "Allied Decisive")],
)
def test_18_4_levels_of_victory(open_map, axis, allied, level):
    """The 18.4 tables are the game's data (``rules.victory.levels``, a table per side, in game.yaml)."""
    v = spi_rules(open_map).data.victory
    assert v is not None
    assert (leader_level(v, {"axis": axis, "allied": allied})[2] or v.draw) == level


def test_18_12_eliminating_an_axis_4_5_15_gives_the_allies_nine(open_map):
    r = check(open_map, [("x", "axis", "armor 4-5-15", "eliminated")])
    assert r.vp["allied"] == 9 + 100  # and Tobruk: no Axis control (18.22)


def test_18_12_values_from_the_counter_manifest(open_map):
    rules = spi_rules(open_map)
    data = {"game": "cauldron-spi", "units": [{"id": "axis-15pz-8-1", "box": "eliminated"}]}
    position = position_from_data(rules, data, manifest=manifest_specs("cauldron-spi"))
    assert Referee(rules).check(position).vp["allied"] == 9 + 100  # a 4-5-15 in the manifest


def test_18_11_unknown_strength_is_reported(open_map):
    r = check(open_map, [("x", "axis", "armor", "eliminated")])
    assert r.by_rule("18.11") and r.vp["allied"] == 100


def test_18_11_values_given_in_the_position(open_map):
    assert check(open_map, [("x", "axis", "armor", "eliminated")], values={"x": 7}).vp["allied"] == 107


NEAR_TOBRUK = ROAD.replace('"1020"]', '"1020", "0920", "0820", "0720", "0620", "0619", "0618", "0617", "0616", '
                                        '"0615", "0614", "0613", "0612", "0611", "0610", "0609"]')


def test_18_21_axis_in_tobruk_with_a_supply_path_scores_100():
    r = check(make_map(NEAR_TOBRUK), [("g", "axis", "armor", "0608")], turn=20)
    assert r.vp["tobruk"] == "axis" and r.vp["axis"] == 100 and r.by_rule("18.23")


def test_18_22_axis_in_tobruk_without_a_supply_path_gives_the_allies_100(open_map):
    r = check(open_map, [("g", "axis", "armor", "0608")], turn=20)
    assert r.vp["tobruk"] == "allied" and r.vp["allied"] == 100 and r.vp["axis"] == 0


def test_18_21_last_through_an_empty_tobruk():
    near = make_map(NEAR_TOBRUK)
    assert check(near, [], tobruk="axis").vp["tobruk"] == "axis"
    assert check(near, [], tobruk="allied").vp["tobruk"] == "allied"
    assert check(near, []).vp["tobruk"] == "allied"


def test_18_31_exited_allied_units_score_their_value(open_map):
    r = check(open_map, [("b", "allied", "armor 5-4-15", "exited")])
    assert r.vp["exited"] == 9 and r.vp["allied"] == 109


def test_18_32_reinforcements_must_stay_a_full_game_turn(open_map):
    rows = [("b", "allied", "armor 5-4-15", "exited")]
    early = check(open_map, rows, arrived={"b": 6}, exited={"b": 7})
    assert early.vp["exited"] == 0 and [f.rule for f in early.errors()] == ["18.32"]
    assert check(open_map, rows, arrived={"b": 6}, exited={"b": 8}).vp["exited"] == 9


def test_18_33_no_vp_for_exited_axis_units(open_map):
    r = check(open_map, [("g", "axis", "armor 4-5-15", "exited")])
    assert r.vp["axis"] == 0 and r.by_rule("18.33")


def test_18_4_level_reported(open_map):
    r = check(open_map, [("x", "axis", "armor 4-5-15", "eliminated")])
    assert r.vp["level"] == "Allied Decisive" and r.by_rule("18.4")


def test_18_11_strength_codes_in_type_or_id(open_map):
    rules = rules_for_game("cauldron-spi")

    def vp(uid: str, type_: str) -> int | None:
        return printed_vp(Unit(id=uid, side="axis", type=type_), rules)

    assert vp("de-01-1-2-12", "infantry") == 3  # the last three numbers of the id
    assert vp("x", "armor 4-5-15") == 9
    assert vp("x", "artillery 4-2-3-6") == 9  # barrage + FPF + defence
    assert vp("x", "armor") is None


def test_18_32_exit_turn_unknown_but_the_game_turn_is_too_early(open_map):
    rows = [("b", "allied", "armor 5-4-15", "exited")]
    early = check(open_map, rows, turn=7, arrived={"b": 6})
    assert early.vp["exited"] == 0 and [f.rule for f in early.errors()] == ["18.32"]
    assert check(open_map, rows, turn=8, arrived={"b": 6}).vp["exited"] == 9


def test_18_21_an_allied_unit_in_tobruk_outweighs_the_last_axis_passage():
    near = make_map(NEAR_TOBRUK)
    assert check(near, [("b", "allied", "infantry", "0608")], tobruk="axis").vp["tobruk"] == "allied"


def test_18_23_axis_control_of_tobruk_ends_the_game():
    near = make_map(NEAR_TOBRUK)
    assert check(near, [("g", "axis", "infantry", "0608")]).by_rule("18.23")
    assert not check(near, []).by_rule("18.23")


def test_18_11_values_given_in_the_position_override_a_printed_code(open_map):
    assert check(open_map, [("x", "axis", "armor 4-5-15", "eliminated")], values={"x": 7}).vp["allied"] == 107
