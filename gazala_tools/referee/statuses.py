"""Statuses: what the markers a unit carries do, as the game's ``rules.markers`` say (issue 32 item 5).

One place that movement (``referee log``), the position checks and reports read: :func:`allowance`
(the movement allowance after the markers' factors), :func:`may_move` (a marker that forbids moving),
:func:`marker_effects` (in words). The core knows no marker by name. Pure Python.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from gazala_tools.referee.findings import Finding, Severity

if TYPE_CHECKING:  # pragma: no cover
    from gazala_tools.referee.bound import BoundData
    from gazala_tools.referee.position import Unit

__all__ = ["allowance", "marker_effects", "may_move"]


def allowance(rules: BoundData, unit: Unit, printed: float) -> float:
    """The unit's movement allowance after its markers' ``movement`` factors (each rounded as the
    marker says: down, up or to the nearest whole point), from its printed allowance."""
    ma = printed
    markers = rules.data.markers
    for mid in sorted(unit.markers):
        m = markers.get(mid)
        if m is None or m.movement is None:
            continue
        ma = ma * m.movement
        ma = float(math.floor(ma + 1e-9) if m.round == "down" else math.ceil(ma - 1e-9) if m.round == "up"
                   else math.floor(ma + 0.5))
    return ma


def may_move(rules: BoundData, unit: Unit) -> Finding | None:
    """Why ``unit`` may not move at all (a marker with ``move: false``, cited by its rule), or None."""
    markers = rules.data.markers
    for mid in sorted(unit.markers):
        m = markers.get(mid)
        if m is not None and not m.move:
            return Finding(m.rule, Severity.ERROR, f"{unit.id} is marked {m.name}: it may not move", units=(unit.id,))
    return None


def marker_effects(rules: BoundData, unit: Unit) -> list[str]:
    """What the unit's markers do, in words (``"Isolated: movement allowance x0.5 ..."``)."""
    markers = rules.data.markers
    return [f"{markers[m].name}: {', '.join(markers[m].effects())}" for m in sorted(unit.markers)
            if m in markers and markers[m].effects()]
