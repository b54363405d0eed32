"""Hex values: the one truth for a hex.

One internal coordinate system, **axial** ``(q, r)`` (cube ``s = -q - r``). Everything else is an
explicit conversion:

* offset coordinates ``(col, row)`` for both orientations and both parities
  (:meth:`Hex.to_offset` / :meth:`Hex.from_offset`);
* game labels and VASSAL names (:mod:`gazala_tools.numbering`);
* pixels (:mod:`gazala_tools.hexgrid`).

Frames. For ``Orientation.FLAT`` (flat-topped hexes in vertical columns, VASSAL ``sideways=false``)
``q`` counts columns left to right and ``(0, -1)`` is straight up. For ``Orientation.POINTY``
(pointy-topped hexes in horizontal rows, VASSAL ``sideways=true``) ``r`` counts rows top to bottom
and ``(+1, 0)`` is straight right. Screen ``y`` grows downwards in both, as on a VASSAL board.

Corners are integer lattice points (:meth:`Hex.corners`): in the FLAT frame a corner ``(X, Y)`` sits
at pixel ``(X * dx / 3, Y * dy / 2)`` from the centre of hex ``(0, 0)``. Neighbouring hexes share
the very same corner values, so polygons built from them have no slivers.

>>> a, b = Hex(0, 0), Hex(3, -1)
>>> a.distance(b), len(a.neighbours())
(3, 6)
>>> b.to_offset(Orientation.FLAT, Parity.EVEN)    # (col, row)
(3, 1)
"""

from __future__ import annotations

import enum
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Final

__all__ = ["Direction", "Hex", "Hexside", "Orientation", "Parity", "hexes_in_offset_rect"]


class Orientation(enum.Enum):
    """How hexes are laid out on the screen."""

    FLAT = "flat"  #: flat-topped hexes in vertical columns (VASSAL sideways=false)
    POINTY = "pointy"  #: pointy-topped hexes in horizontal rows (VASSAL sideways=true)


class Parity(enum.Enum):
    """Which offset lines (columns for FLAT, rows for POINTY) are shifted half a hex.

    ``ODD``: odd columns sit half a hex lower (FLAT) / odd rows half a hex to the right (POINTY).
    This is VASSAL's raw indexing. ``EVEN``: the even ones do.
    """

    ODD = "odd"
    EVEN = "even"


# Axial unit vectors, in Direction order (clockwise on the screen in both orientations).
_VECTORS: Final[tuple[tuple[int, int], ...]] = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))
_FLAT_NAMES: Final = ("N", "NE", "SE", "S", "SW", "NW")
_POINTY_NAMES: Final = ("NW", "NE", "E", "SE", "SW", "W")


class Direction(enum.IntEnum):
    """One of the six directions from a hex to a neighbour.

    Members are named as on a FLAT map with north up; :meth:`compass` gives the screen name for
    either orientation. Values run clockwise, so ``rotate(1)`` turns 60 degrees clockwise.
    """

    N = 0
    NE = 1
    SE = 2
    S = 3
    SW = 4
    NW = 5

    @property
    def vector(self) -> tuple[int, int]:
        """The axial ``(dq, dr)`` step."""
        return _VECTORS[self.value]

    def opposite(self) -> Direction:
        return Direction((self.value + 3) % 6)

    def rotate(self, steps: int = 1) -> Direction:
        """Turn ``steps`` sixths of a circle clockwise (negative: counter-clockwise)."""
        return Direction((self.value + steps) % 6)

    def compass(self, orientation: Orientation = Orientation.FLAT) -> str:
        """The screen direction name: N/NE/SE/S/SW/NW (FLAT) or NW/NE/E/SE/SW/W (POINTY)."""
        names = _FLAT_NAMES if orientation is Orientation.FLAT else _POINTY_NAMES
        return names[self.value]

    @classmethod
    def from_compass(cls, name: str, orientation: Orientation = Orientation.FLAT) -> Direction:
        names = _FLAT_NAMES if orientation is Orientation.FLAT else _POINTY_NAMES
        try:
            return cls(names.index(name.upper()))
        except ValueError:
            raise ValueError(
                f"unknown direction {name!r} for {orientation.value} hexes (expected one of {', '.join(names)})"
            ) from None


# Corner offsets in the integer lattice (FLAT frame, units dx/3 and dy/2), corner k lies between
# the sides of Direction k-1 and Direction k... listed clockwise starting at the NW corner, so that
# side k joins corners k and k+1.
_CORNERS: Final[tuple[tuple[int, int], ...]] = ((-1, -1), (1, -1), (2, 0), (1, 1), (-1, 1), (-2, 0))


@dataclass(frozen=True, order=True, slots=True)
class Hex:
    """An immutable hex in axial coordinates. ``repr`` pastes back: ``Hex(3, -1)``."""

    q: int
    r: int

    def __post_init__(self) -> None:
        if type(self.q) is not int or type(self.r) is not int:
            raise TypeError(f"Hex coordinates must be int, got {self.q!r}, {self.r!r}")

    def __repr__(self) -> str:
        return f"Hex({self.q}, {self.r})"

    # --- cube --------------------------------------------------------------------------------
    @property
    def s(self) -> int:
        return -self.q - self.r

    def to_cube(self) -> tuple[int, int, int]:
        return (self.q, self.r, -self.q - self.r)

    @classmethod
    def from_cube(cls, q: int, r: int, s: int) -> Hex:
        if q + r + s != 0:
            raise ValueError(f"cube coordinates must sum to 0, got ({q}, {r}, {s})")
        return cls(q, r)

    # --- offset ------------------------------------------------------------------------------
    def to_offset(self, orientation: Orientation = Orientation.FLAT, parity: Parity = Parity.ODD) -> tuple[int, int]:
        """``(col, row)`` in offset coordinates. Uses floor division, so negatives are exact."""
        q, r = self.q, self.r
        if orientation is Orientation.FLAT:
            shift = (q - (q & 1)) // 2 if parity is Parity.ODD else (q + (q & 1)) // 2
            return (q, r + shift)
        shift = (r - (r & 1)) // 2 if parity is Parity.ODD else (r + (r & 1)) // 2
        return (q + shift, r)

    @classmethod
    def from_offset(
        cls, col: int, row: int, orientation: Orientation = Orientation.FLAT, parity: Parity = Parity.ODD
    ) -> Hex:
        if orientation is Orientation.FLAT:
            shift = (col - (col & 1)) // 2 if parity is Parity.ODD else (col + (col & 1)) // 2
            return cls(col, row - shift)
        shift = (row - (row & 1)) // 2 if parity is Parity.ODD else (row + (row & 1)) // 2
        return cls(col - shift, row)

    # --- neighbourhood -----------------------------------------------------------------------
    def neighbour(self, direction: Direction, distance: int = 1) -> Hex:
        dq, dr = _VECTORS[direction]
        return Hex(self.q + dq * distance, self.r + dr * distance)

    def neighbours(self) -> tuple[Hex, ...]:
        """The six neighbours, in Direction order."""
        q, r = self.q, self.r
        return tuple(Hex(q + dq, r + dr) for dq, dr in _VECTORS)

    def direction_to(self, other: Hex) -> Direction | None:
        """The direction of an adjacent hex, or None when ``other`` is not adjacent."""
        d = (other.q - self.q, other.r - self.r)
        try:
            return Direction(_VECTORS.index(d))
        except ValueError:
            return None

    def is_adjacent(self, other: Hex) -> bool:
        return self.direction_to(other) is not None

    def distance(self, other: Hex) -> int:
        dq = self.q - other.q
        dr = self.r - other.r
        return (abs(dq) + abs(dr) + abs(dq + dr)) // 2

    def ring(self, radius: int) -> list[Hex]:
        """The hexes at exactly ``radius`` steps, clockwise from the one due SW... (6*radius of them)."""
        if radius < 0:
            raise ValueError(f"ring radius must be >= 0, got {radius}")
        if radius == 0:
            return [self]
        out: list[Hex] = []
        h = self.neighbour(Direction.SW, radius)
        for d in Direction:
            for _ in range(radius):
                out.append(h)
                h = h.neighbour(d)
        return out

    def within(self, radius: int) -> list[Hex]:
        """Every hex at distance <= ``radius`` (1 + 3r(r+1) of them), in (q, r) order."""
        if radius < 0:
            raise ValueError(f"radius must be >= 0, got {radius}")
        out: list[Hex] = []
        for dq in range(-radius, radius + 1):
            lo = max(-radius, -dq - radius)
            hi = min(radius, -dq + radius)
            for dr in range(lo, hi + 1):
                out.append(Hex(self.q + dq, self.r + dr))
        return out

    def line_to(self, other: Hex, *, nudge: int = 1) -> list[Hex]:
        """The straight hex line from ``self`` to ``other``, both included (distance + 1 hexes).

        Where the true line runs exactly along a hexside, the tie is broken by ``nudge`` (+1 or
        -1): the two choices give the two hex lines that flank the hexside line. Exact integer
        arithmetic, so the answer never depends on float rounding.
        """
        if nudge not in (1, -1):
            raise ValueError("nudge must be +1 or -1")
        n = self.distance(other)
        if n == 0:
            return [self]
        a, b = self.to_cube(), other.to_cube()
        out: list[Hex] = []
        for i in range(n + 1):
            # cube point * n (exact), then nudged by (1, 2, -3) * nudge * tiny
            num = [a[k] * (n - i) + b[k] * i for k in range(3)]
            out.append(_cube_round_exact(num, n, nudge))
        return out

    # --- hexsides and corners ----------------------------------------------------------------
    def side(self, direction: Direction) -> Hexside:
        """The hexside on this hex's ``direction`` side (canonical)."""
        return Hexside.of(self, direction)

    def sides(self) -> tuple[Hexside, ...]:
        return tuple(Hexside.of(self, d) for d in Direction)

    def corners(self) -> tuple[tuple[int, int], ...]:
        """The six corners as integer lattice points (FLAT frame), clockwise from the NW corner.

        Side ``Direction(k)`` joins corners ``k`` and ``k+1`` (mod 6).
        """
        cx, cy = 3 * self.q, 2 * self.r + self.q
        return tuple((cx + ox, cy + oy) for ox, oy in _CORNERS)

    def center_lattice(self) -> tuple[int, int]:
        """The centre in the same integer lattice as :meth:`corners`."""
        return (3 * self.q, 2 * self.r + self.q)


def _cube_round_exact(num: list[int], den: int, nudge: int) -> Hex:
    """Round the cube point ``num / den`` plus an infinitesimal ``nudge * (1, 2, -3)`` to a hex.

    Every comparison is exact: a value is compared first by its rational part, then by the
    coefficient of the infinitesimal.
    """
    eps = (nudge, 2 * nudge, -3 * nudge)
    rounded: list[int] = []
    errors: list[tuple[int, int]] = []
    for k in range(3):
        fl, rem = divmod(num[k], den)  # num = fl*den + rem, 0 <= rem < den
        rv = fl + 1 if (2 * rem > den or (2 * rem == den and eps[k] > 0)) else fl
        rounded.append(rv)
        exact = num[k] - rv * den  # (value - rounded) * den
        if exact > 0:
            errors.append((exact, eps[k]))
        elif exact < 0:
            errors.append((-exact, -eps[k]))
        else:
            errors.append((0, abs(eps[k])))
    q, r, s = rounded
    if q + r + s != 0:
        worst = max(range(3), key=lambda k: errors[k])
        if worst == 0:
            q = -r - s
        elif worst == 1:
            r = -q - s
    return Hex(q, r)


@dataclass(frozen=True, order=True, slots=True)
class Hexside:
    """One physical hexside, in its one canonical form.

    Stored as the hex plus a direction among N, NE, SE; the other three directions are
    re-expressed from the neighbour. ``Hexside.of(a, d) == Hexside.of(a.neighbour(d), d.opposite())``.
    """

    q: int
    r: int
    direction: Direction

    def __post_init__(self) -> None:
        if self.direction not in (Direction.N, Direction.NE, Direction.SE):
            raise ValueError(
                f"Hexside is stored with direction N, NE or SE; use Hexside.of() (got {self.direction!r})"
            )

    def __repr__(self) -> str:
        return f"Hexside({self.q}, {self.r}, Direction.{self.direction.name})"

    @classmethod
    def of(cls, hex_: Hex, direction: Direction) -> Hexside:
        if direction <= Direction.SE:
            return cls(hex_.q, hex_.r, Direction(direction))
        n = hex_.neighbour(direction)
        return cls(n.q, n.r, direction.opposite())

    @classmethod
    def between(cls, a: Hex, b: Hex) -> Hexside:
        d = a.direction_to(b)
        if d is None:
            raise ValueError(f"{a!r} and {b!r} are not adjacent, so they share no hexside")
        return cls.of(a, d)

    @property
    def hexes(self) -> tuple[Hex, Hex]:
        """The two hexes either side: the stored one first."""
        h = Hex(self.q, self.r)
        return (h, h.neighbour(self.direction))

    def other(self, hex_: Hex) -> Hex:
        """The hex across this side from ``hex_``."""
        a, b = self.hexes
        if hex_ == a:
            return b
        if hex_ == b:
            return a
        raise ValueError(f"{hex_!r} is not beside {self!r}")

    def direction_from(self, hex_: Hex) -> Direction:
        """The direction of this side as seen from ``hex_`` (one of its two hexes)."""
        a, b = self.hexes
        if hex_ == a:
            return self.direction
        if hex_ == b:
            return self.direction.opposite()
        raise ValueError(f"{hex_!r} is not beside {self!r}")

    def endpoints(self) -> tuple[tuple[int, int], tuple[int, int]]:
        """The two corners (integer lattice, FLAT frame) this side joins."""
        c = Hex(self.q, self.r).corners()
        k = int(self.direction)
        return (c[k], c[(k + 1) % 6])


def hexes_in_offset_rect(
    cols: range, rows: range, orientation: Orientation = Orientation.FLAT, parity: Parity = Parity.ODD
) -> Iterator[Hex]:
    """Every hex whose offset ``(col, row)`` lies in ``cols`` x ``rows``, column by column."""
    for c in cols:
        for r in rows:
            yield Hex.from_offset(c, r, orientation, parity)
