"""The search's fast path for a Terrain Effects Chart (:class:`~gazala_tools.referee.search.EntryCost`: the
cost of the hex entered, some steps priced otherwise, some hexes blocked) gives the answers of the
general search with the same costs as an ordinary ``cost(a, b)`` hook, ``ALL`` and ``max_cost`` included."""

from __future__ import annotations

import random

import pytest

from gazala_tools.hexes import Hex
from gazala_tools.referee.search import ALL, EntryCost, Topology, multi_source_search


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("reverse", [False, True])
def test_entry_cost_answers_as_the_general_search(seed: int, reverse: bool) -> None:
    rng = random.Random(seed)
    topo = Topology(Hex(q, r) for q in range(12) for r in range(-q // 2, 10 - q // 2))
    n = len(topo)
    enter: list[int | None] = [rng.choice([1, 1, 2, 3, ALL, None]) for _ in range(n)]
    pairs: dict[int, int | None] = {}
    for _ in range(40):
        a = rng.randrange(n)
        b = rng.choice(topo.adj[a])
        pairs[a * n + b] = rng.choice([0, 1, 4, ALL, None])
    blocked = rng.sample(topo.order, 6)
    fast = EntryCost(topo, enter, pairs, blocked)
    sources = rng.sample(topo.order, 3)

    def slow(a: Hex, b: Hex, /) -> int | None:  # the same costs, through the general search
        return fast(a, b)

    for max_cost in (None, 4, 9):
        got = multi_source_search(topo, sources, fast, reverse=reverse, max_cost=max_cost)
        want = multi_source_search(topo, sources, slow, reverse=reverse, max_cost=max_cost)
        assert dict(got.dist) == dict(want.dist)
