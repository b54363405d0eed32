"""The Terrain Effects Chart as the path search's step cost (issue 32): a supply trace counted in
movement points (Lowland Front 7.2: at most 4 MP counted as a foot unit moves) is a reverse search
from the sources with ``max_cost``; ``P`` is no step, ``all`` a last step into a source with a point
left. The callable hook and the precomputed :class:`ArrayCost` give the same distances."""

from __future__ import annotations

from pathlib import Path

import pytest

from gazala_tools.games import find_game
from gazala_tools.referee.engine import RulesPlugin
from gazala_tools.referee.plugins import rules_for
from gazala_tools.referee.search import ALL, multi_source_search

FOLDER = Path(__file__).resolve().parents[1] / "games" / "lowland-front"


@pytest.fixture(scope="module")
def rules() -> RulesPlugin:
    return rules_for(find_game(str(FOLDER)))


def test_the_step_cost_of_a_class_in_half_points(rules: RulesPlugin) -> None:
    chart = rules.data.chart
    assert chart is not None
    h = rules.map.hex
    foot = chart.costs(rules.map, "foot", "league").search_cost(scale=2)
    motor = chart.costs(rules.map, "motor", "league").search_cost(scale=2)
    assert foot(h("05.05"), h("06.05")) == 2 and motor(h("05.05"), h("06.05")) == 1  # road 1, 1/2
    assert foot(h("12.05"), h("13.05")) == 6 and motor(h("12.05"), h("13.05")) is None  # river +2 / P
    assert foot(h("07.03"), h("08.03")) == ALL and motor(h("07.03"), h("08.03")) is None  # swamp all / P
    assert foot(h("04.10"), h("05.10")) is None  # lake P


@pytest.mark.parametrize("reverse", [False, True])
def test_the_array_cost_searches_as_the_callable_hook(rules: RulesPlugin, reverse: bool) -> None:
    chart = rules.data.chart
    assert chart is not None
    costs = chart.costs(rules.map, "foot", "league")
    topo = rules.topology
    sources = [rules.map.hex("01.05"), rules.map.hex("11.06")]
    enemies = [rules.map.hex("04.05"), rules.map.hex("10.06")]
    array = costs.array_cost(topo).with_blocked(enemies)
    blocked = set(enemies)

    def hook(a, b):  # the same rule: no step into an enemy hex
        return None if b in blocked else costs.search_cost()(a, b)

    for limit in (8, 3, None):
        got = multi_source_search(topo, sources, array, reverse=reverse, max_cost=limit)
        want = multi_source_search(topo, sources, hook, reverse=reverse, max_cost=limit)
        assert got.dist == want.dist, limit


def test_7_2_a_trace_of_4_mp_as_foot_moves(rules: RulesPlugin) -> None:
    # a trace counted in half points (max 8 = 4 MP) from a unit to the source, searched from the source
    chart = rules.data.chart
    assert chart is not None
    h = rules.map.hex
    foot = chart.costs(rules.map, "foot", "league").array_cost(rules.topology)

    def trace(source: str):
        return multi_source_search(rules.topology, [h(source)], foot, reverse=True, max_cost=8)

    west = trace("03.05")  # Westhaven: along the road 4 x 1 over the Aa's bridge; a clear hex 1
    assert west.distance(h("07.05")) == 8 and west.distance(h("03.01")) == 8 and h("03.12") not in west
    # the swamp costs all: entered only as the last step, into the source, with a point left
    swamp = trace("08.03")
    assert swamp.distance(h("08.02")) == 1 and swamp.distance(h("10.02")) == 3  # 10.02-09.02 (1), then all
    # and never in the middle of a trace: from 09.04 to 07.02 round the swamp 08.03 (09.03-09.02-08.02-07.02),
    # 4 clear hexes, not 09.04-08.03-08.02-07.02
    assert trace("07.02").distance(h("09.04")) == 8
