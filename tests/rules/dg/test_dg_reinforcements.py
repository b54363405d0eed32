"""DG 11.0-11.3: the six British reinforcements, their turns and hexes, as data."""

from __future__ import annotations

from tests.rules.dg.dghelp import check, rules_of

ARMOUR, INDIANS = ("allied-1arm-2-arm", "allied", "armor"), ("allied-5ind-10", "allied", "infantry")


def test_11_1_a_turn_6_reinforcement_on_the_map_on_turn_5_is_an_error(open_map):
    r = check(open_map, [(*ARMOUR, "1201"), (*INDIANS, "reinforcements")], turn="5")
    [f] = r.errors()
    assert f.rule == "11.1" and f.units == ("allied-1arm-2-arm",) and "arrives on Turn 6" in f.message


def test_11_1_on_its_turn_the_reinforcement_may_be_on_the_map(open_map):
    r = check(open_map, [(*ARMOUR, "1201")], turn="6")
    assert r.legal


def test_11_3_two_reinforcements_share_1201_on_their_turn(open_map):
    """11.1 puts a 5-4-15 and a 3-4-9 in 1201 on turn 6 although DG has no stacking: the exception."""
    r = check(open_map, [(*ARMOUR, "1201"), (*INDIANS, "1201")], turn="6")
    assert r.legal, [f.message for f in r.errors()]
    assert "11.3" in rules_of(r, "info")


def test_11_3_the_exception_ends_with_the_arrival_turn(open_map):
    r = check(open_map, [(*ARMOUR, "1201"), (*INDIANS, "1201")], turn="7")
    assert rules_of(r, "error") == ["stacking"]


def test_11_3_a_third_unit_in_1201_is_still_over_stacked(open_map):
    r = check(open_map, [(*ARMOUR, "1201"), (*INDIANS, "1201"), ("x-2-2-6", "allied", "infantry", "1201")], turn="6")
    assert rules_of(r, "error") == ["stacking"]


# --- 18.0: no premature result; losses that contradict the eliminated box ---------------------------
def test_18_0_no_draw_is_reported_before_the_british_can_win(open_map):
    """Turn 25, British path open, no German path: the game has no result yet (the British win and a
    draw are judged as of the end of the last game turn, 26)."""
    r = check(open_map, [("b", "allied", "infantry", "1515")], turn="25")
    messages = [f.message for f in r.by_rule("18.0")]
    assert not any(m.startswith("result") or "ended now" in m for m in messages)
    assert any(m.startswith("no result yet") and "Turn 26" in m for m in messages)


def test_18_0_losses_fewer_than_the_eliminated_box_are_refused(open_map):
    import pytest

    from gazala_tools.errors import GazalaError

    rows = [("g", "axis", "armor", "0608"), ("x1", "axis", "armor", "eliminated"), ("x2", "axis", "armor", "eliminated")]
    with pytest.raises(GazalaError, match="losses: axis 1 is fewer than the 2 axis units in the eliminated box"):
        check(open_map, rows, losses={"axis": 1})
    assert check(open_map, rows, losses={"axis": 3}).vp["victory"]["losses"]["axis"] == 3


def test_11_4_a_pair_delayed_to_a_later_turn_shares_1201_when_the_position_says_they_arrive_now(open_map):
    rows = [(*ARMOUR, "1201"), (*INDIANS, "1201")]
    assert rules_of(check(open_map, rows, turn="7"), "error") == ["stacking"]
    r = check(open_map, rows, turn="7", arriving=["allied-1arm-2-arm", "allied-5ind-10"])
    assert r.legal and "11.3" in rules_of(r, "info")
