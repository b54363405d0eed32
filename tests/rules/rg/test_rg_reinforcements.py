"""RG 15.1 reinforcement schedule (data) and 8.3 returns from the turn record track."""

from __future__ import annotations

from gazala_tools.referee.engine import Referee
from tests.rules.rg.refhelp import pos, rules


def test_15_1_29_ind_on_the_map_before_may_29_is_an_error(rg_map):
    r = Referee(rules(rg_map)).check(pos(rg_map, [("w", "allied", "infantry", "2901", "29 Ind")], turn="May 28"))
    [f] = r.errors()
    assert f.rule == "15.1" and "arrives on May 29" in f.message


def test_15_1_29_ind_may_be_on_the_map_from_may_29(rg_map):
    r = Referee(rules(rg_map)).check(pos(rg_map, [("w", "allied", "infantry", "2901", "29 Ind")], turn="May 29"))
    assert r.legal


def test_15_1_brescia_arrives_june_7_8(rg_map):
    unit = [("b", "axis", "infantry", "0109", "Brescia")]
    assert not Referee(rules(rg_map)).check(pos(rg_map, unit, turn="June 5-6")).legal
    assert Referee(rules(rg_map)).check(pos(rg_map, unit, turn="June 7-8")).legal


def test_8_3_a_unit_back_on_the_map_before_its_turn_box_is_an_error(rg_map):
    before = pos(rg_map, [("u", "allied", "infantry", "June 3-4")], turn="May 31")
    early = pos(rg_map, [("u", "allied", "infantry", "2901")], turn="June 1-2")
    [f] = Referee(rules(rg_map)).check(early, before=before).errors()
    assert f.rule == "8.3" and "may return on June 3-4" in f.message
    due = pos(rg_map, [("u", "allied", "infantry", "2901")], turn="June 3-4")
    assert Referee(rules(rg_map)).check(due, before=before).legal


def test_8_3_a_unit_that_exits_is_placed_two_turns_in_advance(rg_map):
    before = pos(rg_map, [("u", "allied", "infantry", "2901")], turn="May 29")
    right = pos(rg_map, [("u", "allied", "infantry", "May 31")], turn="May 29")
    wrong = pos(rg_map, [("u", "allied", "infantry", "May 30")], turn="May 29")
    assert Referee(rules(rg_map)).check(right, before=before).legal
    [f] = Referee(rules(rg_map)).check(wrong, before=before).errors()
    assert f.rule == "8.3" and "two turns in advance (May 31)" in f.message
