"""Zones of control: which hexes each side's units project into, through two small hooks.

``exerts(unit)`` says whether a unit has a ZOC at all (RG 9.0: not when Disrupted);
``projects(a, b)`` whether a ZOC reaches from hex ``a`` into the adjacent hex ``b`` (RG 9.0: not up
an escarpment). Both come from the game's rules plugin.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence

from gazala_tools.hexes import Hex
from gazala_tools.referee.position import Unit
from gazala_tools.referee.search import Topology

__all__ = ["zoc_map"]


def zoc_map(
    units: Iterable[Unit],
    topology: Topology,
    *,
    exerts: Callable[[Unit], bool],
    projects: Callable[[Hex, Hex], bool] | None,
    reach: Mapping[Hex, Sequence[Hex]] | None = None,
) -> dict[Hex, list[str]]:
    """Every hex in the ZOC of ``units`` -> the ids of the units exerting it (in unit order).
    ``projects`` None: into all six neighbours. ``reach``: the neighbours a ZOC reaches from each hex,
    computed beforehand (used instead of the topology's neighbours)."""
    out: dict[Hex, list[str]] = {}
    adj: Mapping[Hex, Sequence[Hex]] = topology.neighbours if reach is None else reach
    for u in units:
        h = u.hex
        if h is None or h not in adj or not exerts(u):
            continue
        for n in adj[h]:
            if projects is None or projects(h, n):
                out.setdefault(n, []).append(u.id)
    return out
