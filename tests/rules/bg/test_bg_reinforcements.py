"""BG 11.1.3 / 11.1.4: the reinforcement schedule as data."""

from __future__ import annotations

from tests.rules.bg.bghelp import check


def test_11_1_3_the_10th_indian_brigade_before_turn_5_is_an_error(open_map):
    r = check(open_map, [("allied-5ind-10", "allied", "infantry", "P10")], turn=4)
    [f] = r.errors()
    assert f.rule == "11.1.3" and "arrives on Turn 5" in f.message
    assert check(open_map, [("allied-5ind-10", "allied", "infantry", "P10")], turn=5).legal


def test_11_1_3_the_11th_indian_brigade_arrives_on_turn_10(open_map):
    assert not check(open_map, [("allied-11ind", "allied", "infantry", "P10")], turn=9).legal
    assert check(open_map, [("allied-11ind", "allied", "infantry", "reinforcements")], turn=9).legal


def test_11_1_4_littorio_arrives_on_turn_13(open_map):
    unit = ("it1", "axis", "armor", "C10", "Littorio")
    [f] = check(open_map, [unit], turn=12).errors()
    assert f.rule == "11.1.4" and f.units == ("it1",)
    assert check(open_map, [unit], turn=13).legal
