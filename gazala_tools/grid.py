"""A game's hex grid: which hexes exist and what they are called. Pure Python.

:class:`GameGrid` joins the axial :class:`~gazala_tools.hexes.Hex` to a game's labels through a
:class:`~gazala_tools.numbering.Numbering` over VASSAL raw indices, so our labels and the names
the VASSAL engine shows are the same computation.

Raw index <-> hex: on a FLAT grid the raw index ``(c, r)`` is the odd-parity offset ``(col, row)``;
on a POINTY (VASSAL sideways) grid VASSAL's raw column counts screen rows, so raw ``(c, r)`` is the
POINTY offset ``(col=r, row=c)`` with odd rows shifted right.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Final, Protocol

from gazala_tools.errors import HexNameError
from gazala_tools.hexes import Hex, Hexside, Orientation, Parity
from gazala_tools.numbering import Numbering, parse_part

__all__ = [
    "COMPASS",
    "MAX_GRID_NUMBER",
    "MAX_HEXES",
    "GameGrid",
    "Steps",
    "corner_lattice",
    "hex_to_raw",
    "numbers_of",
    "raw_to_hex",
    "side_lattice",
]

COMPASS: Final = ("N", "E", "S", "W")
_NO_EDGES: Final[frozenset[str]] = frozenset()
_SCREEN_TO_COMPASS: Final[dict[str, dict[str, str]]] = {
    "top": {"top": "N", "right": "E", "bottom": "S", "left": "W"},
    "left": {"left": "N", "top": "E", "right": "S", "bottom": "W"},
    "right": {"right": "N", "bottom": "E", "left": "S", "top": "W"},
    "bottom": {"bottom": "N", "left": "E", "top": "S", "right": "W"},
}


def hex_to_raw(h: Hex, orientation: Orientation) -> tuple[int, int]:
    """VASSAL raw grid index of a hex."""
    col, row = h.to_offset(orientation, Parity.ODD)
    return (col, row) if orientation is Orientation.FLAT else (row, col)


def raw_to_hex(c: int, r: int, orientation: Orientation) -> Hex:
    """The hex at VASSAL raw grid index ``(c, r)``."""
    if orientation is Orientation.FLAT:
        return Hex.from_offset(c, r, orientation, Parity.ODD)
    return Hex.from_offset(r, c, orientation, Parity.ODD)


def corner_lattice(h: Hex, orientation: Orientation) -> tuple[tuple[int, int], ...]:
    """The six corners as integer points of the grid's ``(u, v)`` lattice.

    ``(X, Y)`` lies at ``u = x0 + X*dx/3``, ``v = y0 + Y*dy/2`` (see ``HexGridGeometry.lattice_to_pixel``).
    Neighbouring hexes share corner values exactly.
    """
    if orientation is Orientation.FLAT:
        return h.corners()
    return Hex(h.r, h.q).corners()


def side_lattice(side: Hexside, orientation: Orientation) -> tuple[tuple[int, int], tuple[int, int]]:
    """The two lattice corners a hexside joins (the corners its two hexes share)."""
    a, b = side.hexes
    shared = sorted(set(corner_lattice(a, orientation)) & set(corner_lattice(b, orientation)))
    return (shared[0], shared[1])


class Steps(Protocol):
    """What a map's places are to each other when they are not hexes (a square grid:
    :class:`~gazala_tools.squaregrid.SquareGameGrid`): the places one step away, the side between two
    neighbours (a key: no map data names a side of such a grid) and the steps between two places. The
    referee's :class:`~gazala_tools.referee.search.Topology` asks it (:meth:`GameGrid.steps`)."""

    def neighbours(self, h: Hex, /) -> tuple[Hex, ...]: ...

    def side(self, a: Hex, b: Hex, /) -> Hexside: ...

    def distance(self, a: Hex, b: Hex, /) -> int: ...


#: most hexes a map may have (the largest real hex maps have some tens of thousands; every command
#: walks a map's hexes and hexsides, about 30 s of CPU and 1.25 GiB for a million: docs/reliability.md)
MAX_HEXES: Final = 100_000
#: largest column or row number of a grid
MAX_GRID_NUMBER: Final = 1_000_000


@dataclass(frozen=True)
class GameGrid:
    """The hexes of a map and their names.

    ``columns`` and ``rows`` are inclusive ranges of the *numbers* in the labels (``0104`` is
    column 1, row 4). ``north`` says which screen edge is north (DG's map has north on the left).
    ``max_rows``/``max_columns`` are VASSAL's values for descending numbering (0 otherwise).
    """

    orientation: Orientation
    numbering: Numbering
    columns: tuple[int, int]
    rows: tuple[int, int]
    north: str = "top"
    max_rows: int = 0
    max_columns: int = 0
    _hexes: frozenset[Hex] = field(init=False, repr=False, compare=False)
    _order: tuple[Hex, ...] = field(init=False, repr=False, compare=False)
    _bounds: dict[int, tuple[int, int]] = field(init=False, repr=False, compare=False)
    _labels: dict[Hex, str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.north not in _SCREEN_TO_COMPASS:
            raise ValueError(f"north must be one of top/left/right/bottom, got {self.north!r}")
        if self.columns[0] > self.columns[1] or self.rows[0] > self.rows[1]:
            raise ValueError(f"empty grid: columns {self.columns}, rows {self.rows}")
        for name in ("columns", "rows", "max_rows", "max_columns"):
            values = getattr(self, name)
            if any(type(v) is not int or abs(v) > MAX_GRID_NUMBER for v in (values if isinstance(values, tuple) else (values,))):
                raise ValueError(f"{name} {values!r}: numbers must be integers within +-{MAX_GRID_NUMBER:,}")
        count = (self.columns[1] - self.columns[0] + 1) * (self.rows[1] - self.rows[0] + 1)
        if count > MAX_HEXES:
            raise ValueError(f"grid of {count:,} hexes (columns {self.columns}, rows {self.rows}): "
                             f"at most {MAX_HEXES:,} hexes")
        n = self.numbering
        order: list[Hex] = []
        labels: dict[Hex, str] = {}
        for col_no in range(self.columns[0], self.columns[1] + 1):
            for row_no in range(self.rows[0], self.rows[1] + 1):
                c, r = self._raw_index(col_no - n.h_off, row_no - n.v_off)
                h = self.from_raw(c, r)
                order.append(h)
                labels[h] = self._name_raw(c, r)
        bounds: dict[int, tuple[int, int]] = {}
        for h in order:
            c, r = self.raw(h)
            lo, hi = bounds.get(c, (r, r))
            bounds[c] = (min(lo, r), max(hi, r))
        object.__setattr__(self, "_order", tuple(order))
        object.__setattr__(self, "_hexes", frozenset(order))
        object.__setattr__(self, "_bounds", bounds)
        object.__setattr__(self, "_labels", labels)

    @property
    def sideways(self) -> bool:
        return self.orientation is Orientation.POINTY

    def _name_raw(self, c: int, r: int) -> str:
        return self.numbering.name(
            c, r, sideways=self.sideways, max_rows=self.max_rows, max_columns=self.max_columns
        )

    def _raw_index(self, column: int, row: int) -> tuple[int, int]:
        return self.numbering.raw_index(
            column, row, sideways=self.sideways, max_rows=self.max_rows, max_columns=self.max_columns
        )

    @property
    def kind(self) -> str:
        """``hex``; a square grid (:class:`~gazala_tools.squaregrid.SquareGameGrid`) says ``square``."""
        return "hex"

    def neighbours(self, h: Hex) -> tuple[Hex, ...]:
        """The places one step from ``h``: a hex's six neighbours (on the map or not; a square grid gives its map cells)."""
        return h.neighbours()

    def steps(self) -> Steps | None:
        """How the referee steps between places: None for hexes (a hex's own neighbours, hexsides and
        distance); a square grid is its own :class:`Steps`."""
        return None

    # --- conversions -------------------------------------------------------------------------------
    def raw(self, h: Hex) -> tuple[int, int]:
        return hex_to_raw(h, self.orientation)

    def from_raw(self, c: int, r: int) -> Hex:
        return raw_to_hex(c, r, self.orientation)

    def label(self, h: Hex) -> str:
        """The label of any hex (also off the map: VASSAL names those too)."""
        got = self._labels.get(h)
        if got is not None:
            return got
        c, r = self.raw(h)
        return self._name_raw(c, r)

    def hex(self, label: str) -> Hex:
        """The map hex a label names. Raises :class:`HexNameError` for malformed or off-map labels."""
        h = self.parse(label)
        if h not in self._hexes:
            raise HexNameError(
                f"hex {label!r} is not on the map",
                expected=f"columns {self.columns[0]}-{self.columns[1]}, rows {self.rows[0]}-{self.rows[1]}",
            )
        return h

    def parse(self, label: str) -> Hex:
        """The hex a label names, on the map or not; the label must be in canonical form."""
        if not isinstance(label, str):
            raise HexNameError(f"hex label must be a string, got {label!r}", expected="a label like '0104'")
        column, row = self.numbering.parse_numbers(label)
        c, r = self._raw_index(column, row)
        h = self.from_raw(c, r)
        if self.label(h) != label:
            raise HexNameError(
                f"{label!r} is not a canonical hex label", expected=f"{self.label(h)!r} for that hex"
            )
        return h

    def numbers(self, h: Hex) -> tuple[int, int]:
        """The (column, row) numbers in the label of ``h`` (offsets applied)."""
        n = self.numbering
        column, row = n.column_row(
            *self.raw(h), sideways=self.sideways, max_rows=self.max_rows, max_columns=self.max_columns
        )
        return column + n.h_off, row + n.v_off

    # --- the set of hexes --------------------------------------------------------------------------
    def contains(self, h: Hex) -> bool:
        return h in self._hexes

    def __contains__(self, h: object) -> bool:
        return h in self._hexes

    def __len__(self) -> int:
        return len(self._order)

    def hexes(self) -> tuple[Hex, ...]:
        """All map hexes, column by column in label order."""
        return self._order

    def hexsides(self) -> list[Hexside]:
        """Every hexside with at least one hex on the map, sorted."""
        sides = {s for h in self._order for s in h.sides()}
        return sorted(sides)

    def hexside(self, label: str) -> Hexside:
        """Parse ``"1217/1316"``: two adjacent hexes, at least one on the map."""
        parts = label.split("/") if isinstance(label, str) else []
        if len(parts) != 2:
            raise HexNameError(f"{label!r} is not a hexside", expected="two adjacent hex labels like '1217/1316'")
        a, b = (self.parse(p.strip()) for p in parts)
        if a not in self._hexes and b not in self._hexes:
            raise HexNameError(f"hexside {label!r} is not on the map", expected="at least one hex on the map")
        try:
            return Hexside.between(a, b)
        except ValueError:
            raise HexNameError(f"{label!r}: the two hexes are not adjacent", expected="adjacent hexes") from None

    def hexside_label(self, side: Hexside) -> str:
        a, b = side.hexes
        return "/".join(sorted((self.label(a), self.label(b))))

    def edges(self, h: Hex) -> frozenset[str]:
        """The compass map edges (N, E, S, W) that hex ``h`` lies on; empty inside the map."""
        return self._edges.get(h, _NO_EDGES)

    def edge_hexes(self, edge: str) -> list[Hex]:
        """The hexes on compass edge ``edge`` (N, E, S or W), in map order."""
        if edge not in COMPASS:
            raise ValueError(f"edge must be one of N, E, S, W, got {edge!r}")
        return [h for h in self._order if edge in self._edges[h]]

    @functools.cached_property
    def _edges(self) -> dict[Hex, frozenset[str]]:
        """The compass edges of every map hex, found once per grid (``edges`` is asked per hex)."""
        cmin, cmax = min(self._bounds), max(self._bounds)
        # raw columns run along the screen x axis on FLAT grids, along y on POINTY (sideways) ones
        if self.orientation is Orientation.FLAT:
            col_ends, row_ends = ("left", "right"), ("top", "bottom")
        else:
            col_ends, row_ends = ("top", "bottom"), ("left", "right")
        to_compass = _SCREEN_TO_COMPASS[self.north]
        out: dict[Hex, frozenset[str]] = {}
        for h in self._order:
            c, r = self.raw(h)
            rlo, rhi = self._bounds[c]
            on = ((col_ends[0], c == cmin), (col_ends[1], c == cmax), (row_ends[0], r == rlo), (row_ends[1], r == rhi))
            out[h] = frozenset(to_compass[side] for side, yes in on if yes) or _NO_EDGES
        return out


def numbers_of(label_part: str, type_: str) -> int:
    """The number a label part stands for (``"04"`` -> 4, ``"C"`` -> 2)."""
    return parse_part(label_part, type_)
