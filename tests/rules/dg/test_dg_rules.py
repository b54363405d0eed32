"""DG exclusive rules 11.4, 12.0, 15.0, 17.0, 18.0 and the series' stacking, on positions given as data."""

from __future__ import annotations

import pytest

from gazala_tools.referee.engine import Referee
from gazala_tools.referee.findings import Severity
from gazala_tools.rules.dg import downgrade, support_fire, victory_level
from tests.rules.dg.dghelp import check, make_map, pos, ring, rules_of, victory
from tests.support.fixtures import dg_rules

# --- stacking and terrain ------------------------------------------------------------------------


def test_stacking_no_two_friendly_units_in_one_hex(open_map):
    r = check(open_map, [("a", "axis", "armor", "1010"), ("b", "axis", "infantry", "1010")])
    assert rules_of(r, "error") == ["stacking"]
    assert r.findings[0].hexes == ("1010",) and set(r.findings[0].units) == {"a", "b"}


def test_stacking_enemy_units_never_share_a_hex(open_map):
    r = check(open_map, [("a", "axis", "armor", "1010"), ("b", "allied", "infantry", "1010")])
    errors = [f for f in r.findings if f.severity is Severity.ERROR]
    assert len(errors) == 1 and "enemy units share" in errors[0].message


def test_terrain_units_only_on_land_hexes():
    m = make_map('  hexes:\n    - {terrain: sea, source: test, hexes: ["0101"]}\n')
    r = check(m, [("a", "allied", "infantry", "0101"), ("b", "allied", "infantry", "eliminated"),
                  ("c", "allied", "infantry", "reinforcements"), ("d", "allied", "infantry", "nowhere")])
    assert sorted((f.rule, f.units) for f in r.errors()) == [("terrain", ("a",)), ("terrain", ("d",))]


def test_legal_position_has_no_error(open_map):
    assert check(open_map, [("a", "axis", "armor", "1010"), ("b", "allied", "infantry", "1012")]).legal


# --- 12.0 / 15.0 support fire --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("base", "lost", "airfield", "left"),
    [(6, 0, False, 6), (6, 1, False, 3), (11, 1, False, 6), (6, 2, False, 0), (11, 2, False, 0),
     (6, 0, True, 5), (6, 1, True, 2), (6, 2, True, 0), (1, 1, True, 0)],
)
def test_12_0_support_fire_allotment_table(base, lost, airfield, left):
    assert support_fire(base, lost, airfield) == left


def test_12_0_british_supply_symbol_1410_enemy_occupied_halves_support_fire(open_map):
    r = check(open_map, [("g", "axis", "armor", "1410")])
    assert r.vp["support_fire"] == {"axis": 11, "allied": 3}
    f = r.by_rule("12.0")
    assert len(f) == 1 and f[0].hexes == ("1410",) and f[0].units == ("g",)


def test_12_0_german_symbol_2924_enemy_occupied_halves_rounded_down(open_map):
    r = check(open_map, [("b", "allied", "armor", "2924")])
    assert r.vp["support_fire"] == {"axis": 6, "allied": 6}


def test_12_0_two_symbols_enemy_occupied_lose_the_whole_allotment(open_map):
    r = check(open_map, [("g1", "axis", "armor", "1201"), ("g2", "axis", "armor", "1410")])
    assert r.vp["support_fire"]["allied"] == 0
    assert len(r.by_rule("12.0")) == 2


def test_12_0_own_units_on_own_symbols_cost_nothing(open_map):
    r = check(open_map, [("b1", "allied", "armor", "1201"), ("g1", "axis", "armor", "0734")])
    assert r.vp["support_fire"] == {"axis": 11, "allied": 6} and not r.by_rule("12.0")


def test_15_0_tobruk_airfield_0709_axis_occupied_costs_one_uk_marker(open_map):
    r = check(open_map, [("g", "axis", "infantry", "0709")])
    assert r.vp["support_fire"] == {"axis": 11, "allied": 5}
    assert [f.hexes for f in r.by_rule("15.0")] == [("0709",)]


def test_15_0_with_a_lost_symbol_both_come_off_the_allotment(open_map):
    r = check(open_map, [("g", "axis", "infantry", "0709"), ("h", "axis", "armor", "1410")])
    assert r.vp["support_fire"]["allied"] == 2


def test_15_0_el_adem_1510_and_bir_el_gubi_2707_airfields_have_no_effect(open_map):
    r = check(open_map, [("g", "axis", "infantry", "1510"), ("h", "axis", "armor", "2707")])
    assert r.vp["support_fire"] == {"axis": 11, "allied": 6} and not r.by_rule("15.0")


# --- 11.4 reinforcements -------------------------------------------------------------------------


def test_11_4_reinforcement_hex_1201_enemy_occupied_on_turn_6(open_map):
    r = check(open_map, [("g", "axis", "armor", "1201"), ("r", "allied", "armor", "reinforcements")], turn="6")
    f = r.by_rule("11.4")
    assert len(f) == 1 and f[0].hexes == ("1201",) and "5-4-15" in f[0].message and "3-4-9" in f[0].message


def test_11_4_no_reinforcement_due_before_turn_6(open_map):
    assert not check(open_map, [("g", "axis", "armor", "1201")], turn="5").by_rule("11.4")


def test_11_4_turn_8_reinforcement_at_0608(open_map):
    r = check(open_map, [("g", "axis", "armor", "0608")], turn="Game-Turn 8")
    assert [f.hexes for f in r.by_rule("11.4")] == [("0608",)]


def test_11_4_a_waiting_reinforcement_stays_blocked_after_its_turn(open_map):
    rows = [("g", "axis", "armor", "0608"), ("r", "allied", "infantry", "reinforcements")]
    assert check(open_map, rows, turn="9").by_rule("11.4")
    assert not check(open_map, rows[:1], turn="9").by_rule("11.4")  # nothing waiting


def test_11_4_free_arrival_hexes_give_no_finding(open_map):
    assert not check(open_map, [("g", "axis", "armor", "0909")], turn="6").by_rule("11.4")


# --- 17.0 Rommel's feint -------------------------------------------------------------------------


def feint(open_map, turn: str, moves: dict[str, str]):
    start = [("g", "axis", "armor", "1010"), ("near", "allied", "infantry", ring(open_map, "1010")[0]),
             ("far", "allied", "infantry", "2020")]
    rules = dg_rules(open_map)
    before = pos(open_map, start, turn=turn, rules=rules)
    after = pos(open_map, [(i, s, t, moves.get(i, h)) for i, s, t, h in start], turn=turn, rules=rules)
    return Referee(rules).check(after, before=before)


def test_17_0_turn_1_allied_unit_not_adjacent_to_axis_may_not_move(open_map):
    r = feint(open_map, "1", {"far": "2021"})
    f = r.by_rule("17.0")
    assert len(f) == 1 and f[0].units == ("far",) and f[0].severity is Severity.ERROR
    assert f[0].hexes == ("2020", "2021")


def test_17_0_turn_1_allied_unit_adjacent_to_axis_may_move(open_map):
    assert not feint(open_map, "1", {"near": "1515"}).by_rule("17.0")


def test_17_0_after_turn_1_all_units_move_normally(open_map):
    assert not feint(open_map, "2", {"far": "2021"}).by_rule("17.0")


# --- 18.0 victory --------------------------------------------------------------------------------


def test_18_0_german_victory_path_from_occupied_tobruk(open_map):
    r = check(open_map, [("g", "axis", "armor", "0608")])
    p = victory(r)["paths"]["axis"]
    assert p["found"] and p["hexes"][0] == "0608" and p["hexes"][-1] in ("0734", "2924")
    d = min(open_map.hex("0608").distance(open_map.hex(t)) for t in ("0734", "2924"))
    assert len(p["hexes"]) == d + 1  # a shortest path
    assert victory(r)["result"] == "german"


def test_18_0_german_must_occupy_tobruk(open_map):
    r = check(open_map, [("g", "axis", "armor", "0607")])
    p = victory(r)["paths"]["axis"]
    assert not p["found"] and "occupies Tobruk" in p["reason"]


def wall(row: int) -> list[tuple[str, ...]]:
    """British units on every other hex of a row: their ZOC closes the gaps."""
    return [(f"w{c}", "allied", "infantry", f"{c:02d}{row:02d}") for c in range(1, 30, 2)]


def test_18_0_german_victory_path_blocked_by_enemy_zoc(open_map):
    r = check(open_map, [("g", "axis", "armor", "0608"), *wall(15)])
    p = victory(r)["paths"]["axis"]
    assert not p["found"] and "in enemy ZOC" in p["reason"]
    assert "0215" in p["blockers"]  # an empty hex of the wall, closed by ZOC alone
    assert victory(r)["result"] == "undecided"  # no turn: the British path and a draw wait for turn 26


def test_18_0_a_gap_in_the_zoc_wall_lets_the_path_through(open_map):
    units = [u for u in wall(15) if u[3] not in ("1315", "1515")]
    p = victory(check(open_map, [("g", "axis", "armor", "0608"), *units]))["paths"]["axis"]
    assert p["found"] and {"1315", "1415", "1515"} & set(p["hexes"])


MINE_BAND = "boxes:\n  - {name: band, kind: minefield, owner: allied, source: test, hexes: [" + ", ".join(
    f'"{c:02d}20"' for c in range(1, 30)) + "]}\n"


def test_18_0_german_path_may_not_cross_a_minefield_hexside_without_axis_units_astride():
    m = make_map(MINE_BAND)
    p = victory(check(m, [("g", "axis", "armor", "0608")]))["paths"]["axis"]
    assert not p["found"] and "hexside" in p["reason"]


def test_18_0_minefield_hexsides_crossed_where_axis_units_hold_both_hexes():
    m = make_map(MINE_BAND)
    p = victory(check(m, [("g", "axis", "armor", "0608"), ("a", "axis", "infantry", "0619"),
                          ("b", "axis", "infantry", "0620"), ("c", "axis", "infantry", "0621")]))["paths"]["axis"]
    assert p["found"] and {"0619", "0620", "0621"} <= set(p["hexes"])


def test_18_0_british_path_ignores_minefield_hexsides():
    m = make_map(MINE_BAND)
    r = check(m, [("b", "allied", "infantry", "0630")], turn="26")
    p = victory(r)["paths"]["allied"]
    assert p["found"] and p["hexes"][0] == "0608" and p["hexes"][-1] == "1201"


def test_18_0_british_win_only_at_the_end_of_the_last_turn(open_map):
    assert victory(check(open_map, [("b", "allied", "infantry", "1515")], turn="26"))["result"] == "british"
    assert victory(check(open_map, [("b", "allied", "infantry", "1515")], turn="25"))["result"] == "undecided"


def test_18_0_british_path_cut_by_axis_in_tobruk(open_map):
    p = victory(check(open_map, [("g", "axis", "infantry", "0608")], turn="26"))["paths"]["allied"]
    assert not p["found"] and "0608 itself is enemy-occupied" in p["reason"]


@pytest.mark.parametrize(
    ("result", "axis_lost", "allied_lost", "after"),
    [("german", 4, 2, "draw"), ("german", 3, 2, "german"), ("draw", 4, 2, "british"), ("draw", 1, 2, "german"),
     ("british", 0, 0, "british"), ("british", 0, 1, "draw"), ("british", 1, 0, "british"), ("draw", 0, 0, "draw"), ("german", 1, 5, "german")],
)
def test_18_0_loss_ratio_downgrade_table(result, axis_lost, allied_lost, after):
    assert downgrade(result, {"axis": axis_lost, "allied": allied_lost})[0] == after


def test_18_0_victory_level_before_downgrade():
    assert victory_level(True, True, final=False) == "german"
    assert victory_level(False, True, final=False) == "draw"
    assert victory_level(False, True, final=True) == "british"


def test_18_0_loss_ratio_counts_units_in_the_eliminated_box(open_map):
    rows = [("g", "axis", "armor", "0608"), ("x1", "axis", "armor", "eliminated"), ("x2", "axis", "armor", "eliminated"),
            ("y1", "allied", "armor", "eliminated")]
    v = victory(check(open_map, rows))
    assert v["losses"] == {"axis": 2, "allied": 1}
    assert v["result_before_downgrade"] == "german" and v["result"] == "draw"


def test_18_0_losses_given_in_the_position_override_the_count(open_map):
    v = victory(check(open_map, [("g", "axis", "armor", "0608")], losses={"axis": 1, "allied": 3}))
    assert v["losses"] == {"axis": 1, "allied": 3} and v["result"] == "german"


def test_turn_labels_are_game_turn_numbers(open_map):
    rules = dg_rules(open_map)
    assert [rules.turn_index(t) for t in ("1", "Turn 6", "GT26", "27", "May 29", None)] == [0, 5, 25, None, None, None]


def test_stacking_is_reported_beside_an_enemy_in_the_same_hex(open_map):
    r = check(open_map, [("a", "axis", "armor", "1010"), ("b", "axis", "armor", "1010"), ("c", "allied", "armor", "1010")])
    assert sorted(f.rule for f in r.errors()) == ["stacking", "stacking"]
    assert any("2 Axis units in one hex" in f.message for f in r.errors())


# --- review: sentences of 11.4 and 18.0 not covered above ----------------------------------------


def test_11_4_only_a_reinforcement_still_due_at_the_hex_is_blocked(open_map):
    # turn 9: the 0608 unit (1-2-9, turn 8) has arrived; the one waiting is a turn-11 unit for 1201
    later = [("g", "axis", "armor", "0608"), ("r", "allied", "3-4-9", "reinforcements")]
    assert not check(open_map, later, turn="9").by_rule("11.4")
    late = [("g", "axis", "armor", "0608"), ("r", "allied", "1-2-9", "reinforcements")]
    assert [f.hexes for f in check(open_map, late, turn="9").by_rule("11.4")] == [("0608",)]


def test_18_0_german_supply_symbols_enemy_occupied_cut_the_path(open_map):
    rows = [("g", "axis", "armor", "0608"), ("b1", "allied", "infantry", "0734"), ("b2", "allied", "infantry", "2924")]
    p = victory(check(open_map, rows))["paths"]["axis"]
    assert not p["found"] and "enemy-occupied" in p["reason"] and set(p["blockers"]) == {"0734", "2924"}


def test_18_0_british_path_blocked_by_axis_zoc(open_map):
    axis_wall = [(f"a{c}", "axis", "infantry", f"{c:02d}05") for c in range(1, 30, 2)]
    v = victory(check(open_map, axis_wall, turn="26"))
    p = v["paths"]["allied"]
    assert not p["found"] and "in enemy ZOC" in p["reason"] and v["result"] == "draw"
    gap = [u for u in axis_wall if u[3] not in ("0905", "1105")]
    assert victory(check(open_map, gap, turn="26"))["result"] == "british"
