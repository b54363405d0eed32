"""BG 11.2 "em seu poder" (possession, not occupation now), 4.1 "até que o Eixo tome Tobruk", and the
4.1.2 note's "unidades de infantaria" read by the text."""

from __future__ import annotations

import pytest

from gazala_tools.errors import GazalaError
from gazala_tools.referee.engine import Referee
from gazala_tools.referee.findings import Severity
from tests.rules.bg.bghelp import check, column, pos
from tests.support.fixtures import bg_rules

FAR_AXIS = ("far", "axis", "infantry", "C02")


def test_11_2_an_objective_the_axis_took_and_left_stays_axis(open_map):
    r = check(open_map, [FAR_AXIS], held={"El Adem": "axis"})
    assert r.vp["objectives"]["El Adem"] == "axis" and r.vp["axis"] == 20


def test_11_2_possession_is_carried_forward_by_before(open_map):
    rules = bg_rules(open_map)
    before = pos(open_map, [("t", "axis", "infantry", "T04")], turn=6)
    after = pos(open_map, [("t", "axis", "infantry", "S05")], turn=7)
    r = Referee(rules).check(after, before=before)
    assert r.vp["objectives"]["Tobruk"] == "axis"
    assert Referee(rules).check(after).vp["objectives"]["Tobruk"] == "allied"  # nothing says who took it


def test_11_2_the_allies_take_an_objective_back_by_occupying_it(open_map):
    r = check(open_map, [("b", "allied", "infantry", "T04")], held={"Tobruk": "axis"})
    assert r.vp["objectives"]["Tobruk"] == "allied"


def test_11_2_held_names_an_objective(open_map):
    with pytest.raises(GazalaError, match="did you mean 'Tobruk'"):
        pos(open_map, [FAR_AXIS], held={"Tobruck": "axis"})
    with pytest.raises(GazalaError, match="not a side"):
        pos(open_map, [FAR_AXIS], held={"Tobruk": "germans"})


def test_4_1_the_range_limit_ends_when_the_axis_has_taken_tobruk_even_if_it_left(open_map):
    r = check(open_map, [("m", "axis", "armor", "X05")], held={"Tobruk": "axis"})
    assert [f.severity for f in r.by_rule("4.1")] == [Severity.INFO]


WALL = [(f"w{r}", "allied", "motorized-infantry", h)
        for r, h in zip(range(1, 17, 2), column("K", range(1, 17, 2)), strict=True)]


def test_4_1_2_armor_does_not_ignore_the_zones_of_motorized_infantry(open_map):
    """ "unidades de infantaria": the vulnerability table lists Infantaria and Infantaria Motorizada
    as separate types, so only infantry's zones are ignored by armor."""
    r = check(open_map, [("t", "axis", "armor", "M05"), *WALL])
    assert [u for f in r.by_rule("4.1") if f.severity is Severity.WARNING for u in f.units] == ["t"]
