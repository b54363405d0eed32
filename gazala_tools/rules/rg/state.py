"""Gazala: The Cauldron (RG): the plugin's position state, the breach markers (14.1) and the
activations of the turn (7.0), read from and written to a position YAML (``Position.extra``)."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from gazala_tools.errors import GazalaError, HexNameError
from gazala_tools.hexes import Hex, Hexside
from gazala_tools.referee.position import Labels, LabelWriter, Position

__all__ = [
    "ACTIVATIONS",
    "BREACHES",
    "Breach",
    "BreachState",
    "activations_of",
    "breaches_of",
    "read_activations",
    "read_breaches",
    "write_activations",
    "write_breaches",
]

BREACHES: Final = "breaches"  #: the position state key of the breach markers (14.1)
ACTIVATIONS: Final = "activations"  #: the position state key of the turn's activations (7.0)


class BreachState(enum.Enum):
    UNDER_CONSTRUCTION = "under-construction"
    BREACHED = "breached"


@dataclass(frozen=True, slots=True)
class Breach:
    """A breach marker (14.1) pointing at a minefield ``hexside``.

    ``through``: the marker sits in the minefield box and marks both the hexside and the one on
    the opposite side of the box. ``at``: the hex the marker stands in, when known (a save).
    """

    hexside: Hexside
    state: BreachState
    through: bool = False
    at: Hex | None = None


def breaches_of(position: Position) -> tuple[Breach, ...]:
    """The position's breach markers (14.1)."""
    got = position.extra.get(BREACHES, ())
    return got if isinstance(got, tuple) else ()


def activations_of(position: Position) -> Mapping[str, int] | None:
    """The times each formation was activated this turn (7.0); None: not given."""
    got = position.extra.get(ACTIVATIONS)
    return got if isinstance(got, Mapping) else None


def read_breaches(value: object, labels: Labels, file: str | Path | None, place: str) -> tuple[Breach, ...] | None:
    """A position YAML's ``breaches``: ``[{hexside: "1217/1316", state: breached, through: true, at: "1316"}]``
    (None: no marker)."""
    raw = value or []
    if not isinstance(raw, list):
        raise GazalaError(f"bad 'breaches' {str(raw)[:40]!r}", file=file, place=place,
                          expected="a list of breach markers, e.g. [{hexside: 0817/0916, state: breached}]")
    return tuple(_read_breach(b, labels, file, f"{place}[{i}]") for i, b in enumerate(raw)) or None


def _read_breach(rb: object, labels: Labels, file: str | Path | None, place: str) -> Breach:
    if not isinstance(rb, Mapping) or "hexside" not in rb:
        raise GazalaError("bad breach", file=file, place=place, expected='{hexside: "1217/1316", state: breached}')
    try:
        side = labels.hexside(str(rb["hexside"]))
    except HexNameError as exc:
        raise GazalaError(exc.problem, file=file, place=place, expected=exc.expected) from None
    try:
        state = BreachState(rb.get("state", "breached"))
    except ValueError:
        raise GazalaError(f"bad breach state {rb.get('state')!r}", file=file, place=place,
                          expected="breached or under-construction") from None
    at = labels.parse(str(rb["at"])) if rb.get("at") is not None else None
    return Breach(hexside=side, state=state, through=bool(rb.get("through", False)), at=at)


def read_activations(value: object, labels: Labels, file: str | Path | None, place: str) -> dict[str, int] | None:
    """A position YAML's ``activations: {21 PZ: 2}`` (None: not given)."""
    if value is None:
        return None
    if not isinstance(value, Mapping) or not all(isinstance(v, int) and v >= 0 for v in value.values()):
        raise GazalaError("bad 'activations'", file=file, expected="a mapping formation -> count >= 0")
    return {str(k): int(v) for k, v in value.items()}


def write_breaches(value: object, labels: LabelWriter) -> list[dict[str, object]] | None:
    breaches = value if isinstance(value, tuple) else ()
    return [
        {"hexside": labels.hexside_label(b.hexside), "state": b.state.value,
         **({"through": True} if b.through else {}), **({"at": labels.label(b.at)} if b.at is not None else {})}
        for b in breaches
    ] or None


def write_activations(value: object, labels: LabelWriter) -> dict[str, object] | None:
    return dict(value) if isinstance(value, Mapping) else None
