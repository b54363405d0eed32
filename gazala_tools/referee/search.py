"""Path search over a map's hexes: one multi-source search, hexside effects through a cost hook.

``cost(a, b) -> int | None`` prices one step from hex ``a`` into the adjacent hex ``b``; ``None``
means the step is impossible (an enemy unit in ``b``, an escarpment not crossed by a road, an
un-breached minefield hexside...). This is the one place the rules plug hexside effects in (hexx
style); the search itself knows nothing about any game.

Supply is *one* search per side from all supply sources at once, run backwards (a unit traces from
itself to a source, so the step priced when the search walks from ``u`` to ``v`` is ``cost(v, u)``).
Costs are small non-negative integers, so the frontier is a bucket queue (Dial's algorithm): with
unit costs it is a breadth-first search, O(hexes + hexsides).

Speed. The search runs on dense integer indices of a :class:`Topology`. A :class:`BlockCost` is a
cost hook too (callable as ``cost(a, b)``), but declares its blocked hexes and hexsides as data, so
the search can test them on integers without calling back into Python per step: that is what makes
a 100,000-hex map fast.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Final, Protocol

from gazala_tools.grid import Steps
from gazala_tools.hexes import Hex, Hexside

#: a step cost meaning "all the points left" (a Terrain Effects Chart's ``all``): with ``max_cost`` a
#: forward search may take the step while any point is left and has none after it; a reverse search
#: (a trace from a unit to its source) only as the trace's last step, into a source, with at least one
#: point left before it. Without ``max_cost`` the step costs 1.
ALL: Final = -1

__all__ = [
    "ALL",
    "ArrayCost",
    "BlockCost",
    "Cost",
    "SearchResult",
    "Topology",
    "multi_source_search",
]


class Cost(Protocol):
    def __call__(self, a: Hex, b: Hex, /) -> int | None: ...


class Topology:
    """The places of a map with dense indices and their adjacency, computed once. Every search, ZOC and
    move walks this adjacency and asks it the side between two neighbours (:attr:`side`) and the steps
    between two places (:attr:`distance`): a hex's (``grid`` None) or those of the map's ``grid`` (a square
    cell's four or eight neighbours: :class:`Steps`)."""

    __slots__ = ("adj", "distance", "hexes", "index", "neighbours", "order", "side")

    def __init__(self, hexes: Iterable[Hex], grid: Steps | None = None) -> None:
        order = tuple(dict.fromkeys(hexes))
        self.order: tuple[Hex, ...] = order
        self.hexes = frozenset(order)
        self.index: dict[Hex, int] = {h: i for i, h in enumerate(order)}
        idx = self.index
        #: the side between two neighbours (a key of the map's hexside data)
        self.side: Callable[[Hex, Hex], Hexside] = Hexside.between if grid is None else grid.side
        #: the steps between two places (a hex's distance, a square grid's)
        self.distance: Callable[[Hex, Hex], int] = Hex.distance if grid is None else grid.distance
        step = Hex.neighbours if grid is None else grid.neighbours
        self.neighbours: dict[Hex, tuple[Hex, ...]] = {h: tuple(n for n in step(h) if n in idx) for h in order}
        self.adj: list[tuple[int, ...]] = [tuple(idx[n] for n in self.neighbours[h]) for h in order]

    def __contains__(self, h: object) -> bool:
        return h in self.index

    def __len__(self) -> int:
        return len(self.order)


class BlockCost:
    """A uniform step cost with blocked hexes (may not be entered) and blocked hexsides (may not be
    crossed, either way). Callable as an ordinary ``cost(a, b)`` hook."""

    __slots__ = ("blocked_hexes", "blocked_pairs", "node_blocked", "sides", "step", "topology")

    def __init__(self, topology: Topology, *, hexes: Iterable[Hex] = (), sides: Iterable[Hexside] = (),
                 step: int = 1) -> None:
        self.topology = topology
        self.step = step
        self.blocked_hexes = frozenset(hexes)
        self.sides = frozenset(sides)
        n = len(topology)
        idx = topology.index
        blocked = bytearray(n)
        for h in self.blocked_hexes:
            i = idx.get(h)
            if i is not None:
                blocked[i] = 1
        self.node_blocked = blocked
        pairs: set[int] = set()
        for s in self.sides:
            a, b = s.hexes
            ia, ib = idx.get(a), idx.get(b)
            if ia is not None and ib is not None:
                pairs.add(ia * n + ib)
                pairs.add(ib * n + ia)
        self.blocked_pairs = pairs

    def __call__(self, a: Hex, b: Hex, /) -> int | None:
        if b in self.blocked_hexes or self.topology.side(a, b) in self.sides:
            return None
        return self.step


class ArrayCost:
    """Step costs as data: for each hex index ``u`` and each of its neighbours ``adj[u][k]``, the cost
    of the step ``u -> adj[u][k]`` (``forward``) and of the step ``adj[u][k] -> u`` (``backward``):
    a non-negative integer, ``-1`` (impossible: ``None``) or :data:`ALL`... stored as ``-2``. Built
    once per map and movement class (a Terrain Effects Chart's, :meth:`ClassCosts.array_cost
    <gazala_tools.referee.terrain.ClassCosts.array_cost>`); ``blocked`` hexes may not be entered (enemy
    units: per position). The search walks it on integers without calling back into Python per step."""

    __slots__ = ("backward", "blocked", "forward", "topology")

    IMPOSSIBLE: Final = -1
    EVERYTHING: Final = -2

    def __init__(self, topology: Topology, forward: list[tuple[int, ...]], backward: list[tuple[int, ...]],
                 blocked: bytearray | None = None) -> None:
        self.topology = topology
        self.forward = forward
        self.backward = backward
        self.blocked = blocked

    def with_blocked(self, hexes: Iterable[Hex]) -> ArrayCost:
        """The same costs with ``hexes`` that may not be entered."""
        blocked = bytearray(len(self.topology))
        idx = self.topology.index
        for h in hexes:
            i = idx.get(h)
            if i is not None:
                blocked[i] = 1
        return ArrayCost(self.topology, self.forward, self.backward, blocked)

    def __call__(self, a: Hex, b: Hex, /) -> int | None:
        idx = self.topology.index
        ia, ib = idx[a], idx[b]
        if self.blocked is not None and self.blocked[ib]:
            return None
        c = self.forward[ia][self.topology.adj[ia].index(ib)]
        return None if c == -1 else ALL if c == -2 else c


class SearchResult:
    """Distances from the nearest source and the tree of steps back to it."""

    __slots__ = ("_dist", "_dist_map", "_parent", "topology")

    def __init__(self, topology: Topology, dist: list[int], parent: list[int]) -> None:
        self.topology = topology
        self._dist = dist
        self._parent = parent
        self._dist_map: dict[Hex, int] | None = None

    def __contains__(self, h: object) -> bool:
        i = self.topology.index.get(h)  # type: ignore[call-overload]
        return i is not None and self._dist[i] >= 0

    def distance(self, h: Hex) -> int | None:
        i = self.topology.index.get(h)
        if i is None or self._dist[i] < 0:
            return None
        return self._dist[i]

    def __iter__(self) -> Iterator[Hex]:
        order = self.topology.order
        return (order[i] for i, d in enumerate(self._dist) if d >= 0)

    @property
    def dist(self) -> Mapping[Hex, int]:
        """Every reached hex -> its cost (built on first use)."""
        if self._dist_map is None:
            order = self.topology.order
            self._dist_map = {order[i]: d for i, d in enumerate(self._dist) if d >= 0}
        return self._dist_map

    def reached(self) -> frozenset[Hex]:
        return frozenset(self)

    def path(self, h: Hex) -> list[Hex]:
        """The hexes from ``h`` back to its source (``h`` first); empty if ``h`` was not reached."""
        i = self.topology.index.get(h)
        if i is None or self._dist[i] < 0:
            return []
        order = self.topology.order
        out = []
        while i >= 0:
            out.append(order[i])
            i = self._parent[i]
        return out


def multi_source_search(
    topology: Topology,
    sources: Iterable[Hex],
    cost: Cost,
    *,
    reverse: bool = False,
    within: Callable[[Hex], bool] | None = None,
    max_cost: int | None = None,
) -> SearchResult:
    """Cheapest cost from any of ``sources`` to every reachable hex of ``topology``.

    ``reverse``: price the step from the new hex towards the source (``cost(new, old)``), for
    traces that run from a unit to a source. ``within``: hexes the search may enter (sources are
    taken as given). ``max_cost``: do not go further than this.
    """
    n = len(topology)
    idx = topology.index
    dist = [-1] * n
    parent = [-1] * n
    start: list[int] = []
    for s in sources:
        i = idx.get(s)
        if i is not None and dist[i] < 0:
            dist[i] = 0
            start.append(i)
    if isinstance(cost, BlockCost) and within is None and max_cost is None:
        _bfs_blocked(topology, cost, start, dist, parent, reverse)
    elif isinstance(cost, ArrayCost) and within is None:
        _dial_array(topology, cost, start, dist, parent, reverse, max_cost)
    else:
        _dial(topology, cost, start, dist, parent, reverse, within, max_cost)
    return SearchResult(topology, dist, parent)


def _bfs_blocked(topology: Topology, cost: BlockCost, frontier: list[int], dist: list[int], parent: list[int],
                 reverse: bool) -> None:
    """Breadth-first search on indices for a :class:`BlockCost` (every step costs ``cost.step``)."""
    adj = topology.adj
    n = len(topology)
    blocked = cost.node_blocked
    pairs = cost.blocked_pairs
    step = cost.step
    d = 0
    while frontier:
        d += step
        nxt: list[int] = []
        for u in frontier:
            if blocked[u]:
                continue  # reverse: every trace step into u is impossible; forward: a blocked source
            base = u * n
            for v in adj[u]:
                if dist[v] >= 0:
                    continue
                if reverse:
                    if pairs and v * n + u in pairs:
                        continue
                elif blocked[v] or (pairs and base + v in pairs):
                    continue
                dist[v] = d
                parent[v] = u
                nxt.append(v)
        frontier = nxt


def _all_cost(d: int, max_cost: int | None, reverse: bool) -> int | None:
    """What an :data:`ALL` step costs at distance ``d`` (None: it may not be taken): the rest of
    ``max_cost`` forward while a point is left; reverse, only from a source (``d == 0``) at 1, so that the
    unit has a point left for it; 1 without a ``max_cost``."""
    if max_cost is None:
        return 1
    if reverse:
        return 1 if d == 0 else None
    return max_cost - d if d < max_cost else None


def _dial(topology: Topology, cost: Cost, start: list[int], dist: list[int], parent: list[int], reverse: bool,
          within: Callable[[Hex], bool] | None, max_cost: int | None) -> None:
    adj = topology.adj
    order = topology.order
    done = bytearray(len(topology))
    buckets: list[list[int]] = [start]
    d = 0
    while d < len(buckets):
        bucket = buckets[d]
        i = 0
        while i < len(bucket):  # a bucket may grow while we walk it (zero-cost steps)
            u = bucket[i]
            i += 1
            if done[u] or dist[u] != d:
                continue
            done[u] = 1
            hu = order[u]
            for v in adj[u]:
                if done[v]:
                    continue
                old = dist[v]
                if old >= 0 and old <= d:
                    continue  # costs are >= 0: no step from u can improve on it
                hv = order[v]
                if within is not None and not within(hv):
                    continue
                c = cost(hv, hu) if reverse else cost(hu, hv)
                if c is None:
                    continue
                if c == ALL:
                    c = _all_cost(d, max_cost, reverse)
                    if c is None:
                        continue
                nd = d + c
                if (max_cost is None or nd <= max_cost) and (old < 0 or nd < old):
                    _reach(v, u, nd, dist, parent, buckets)
        d += 1


def _dial_array(topology: Topology, cost: ArrayCost, start: list[int], dist: list[int], parent: list[int],
                reverse: bool, max_cost: int | None) -> None:
    """Dial's algorithm on an :class:`ArrayCost`: the same answers as :func:`_dial`, on integers only."""
    adj = topology.adj
    table = cost.backward if reverse else cost.forward
    blocked = cost.blocked
    done = bytearray(len(topology))
    buckets: list[list[int]] = [start]
    d = 0
    limit = max_cost
    while d < len(buckets):
        bucket = buckets[d]
        i = 0
        while i < len(bucket):
            u = bucket[i]
            i += 1
            if done[u] or dist[u] != d:
                continue
            done[u] = 1
            if reverse and blocked is not None and blocked[u]:
                continue  # a trace may not enter a blocked hex (nor a blocked source)
            costs = table[u]
            for k, v in enumerate(adj[u]):
                if done[v]:
                    continue
                c = costs[k]
                if c < 0:
                    got = None if c == -1 else _all_cost(d, limit, reverse)
                    if got is None:
                        continue
                    c = got
                if not reverse and blocked is not None and blocked[v]:
                    continue
                nd = d + c
                old = dist[v]
                if (limit is None or nd <= limit) and (old < 0 or nd < old):
                    _reach(v, u, nd, dist, parent, buckets)
        d += 1


def _reach(v: int, u: int, nd: int, dist: list[int], parent: list[int], buckets: list[list[int]]) -> None:
    """Hex ``v`` reached from ``u`` at cost ``nd``: into its bucket (Dial's algorithm)."""
    dist[v] = nd
    parent[v] = u
    while len(buckets) <= nd:
        buckets.append([])
    buckets[nd].append(v)
