"""The core search: one multi-source search equals the best of single-source searches."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from gazala_tools.hexes import Hex
from gazala_tools.referee.search import Topology, multi_source_search

TOPO = Topology(Hex(q, r) for q in range(-6, 7) for r in range(-6, 7) if abs(q + r) <= 6)
HEXES = sorted(TOPO.hexes)


@settings(max_examples=60, deadline=None)
@given(
    sources=st.lists(st.sampled_from(HEXES), min_size=1, max_size=4),
    blocked=st.sets(st.sampled_from(HEXES), max_size=40),
    heavy=st.sets(st.sampled_from(HEXES), max_size=20),
)
def test_multi_source_equals_min_of_single_sources(sources, blocked, heavy):
    def cost(a: Hex, b: Hex) -> int | None:
        if b in blocked:
            return None
        return 3 if b in heavy else 1

    multi = multi_source_search(TOPO, sources, cost, reverse=True)
    singles = [multi_source_search(TOPO, [s], cost, reverse=True) for s in sources]
    for h in HEXES:
        best = min((s.dist[h] for s in singles if h in s.dist), default=None)
        assert multi.dist.get(h) == best
        if h in multi:
            path = multi.path(h)
            assert path[0] == h and path[-1] in sources
            assert sum(cost(a, b) or 0 for a, b in itertools.pairwise(path)) == multi.dist[h]


def test_reverse_prices_the_step_towards_the_source():
    a, b = Hex(0, 0), Hex(1, 0)
    one_way = {(b, a)}  # only b -> a is allowed

    def cost(x: Hex, y: Hex) -> int | None:
        return 1 if (x, y) in one_way else None

    assert b in multi_source_search(TOPO, [a], cost, reverse=True)
    assert b not in multi_source_search(TOPO, [a], cost)


def test_within_and_max_cost_limit_the_search():
    res = multi_source_search(TOPO, [Hex(0, 0)], lambda a, b: 1, max_cost=2)
    assert len(res.dist) == 19
    res = multi_source_search(TOPO, [Hex(0, 0)], lambda a, b: 1, within=lambda h: h.q >= 0)
    assert all(h.q >= 0 for h in res.dist)
