"""Square grids: VASSAL's ``SquareGrid`` + ``SquareGridNumbering`` exactly as the engine computes them,
and a map of square cells for the referee (issue 35 item 2).

A **cell** is :class:`Cell` ``(col, row)``: VASSAL's raw indices, the cell centred at ``(x0 + col*dx, y0 +
row*dy)``. Its label is the module's ``SquareGridNumbering`` (or ours: ``0101`` at the top-left whole cell,
:func:`toolkit_numbering`), the same :class:`~gazala_tools.numbering.Numbering` arithmetic without stagger.
A game's map of cells is :class:`SquareGameGrid`: the :class:`~gazala_tools.grid.GameGrid` API over cells,
each keyed for the referee by ``Hex(col, row)``, an opaque key whose hex geometry is never read (the grid
gives the neighbours, 4 or 8, and has no hexsides: docs/mapdata.md, "Square grids").

Pure Python, read from the engine's source (``VASSAL/build/module/map/boardPicker/board/SquareGrid.java``,
``.../mapgrid/SquareGridNumbering.java`` and its base ``RegularGridNumbering.java``; unchanged in
what matters here from 3.6.0 to 3.7) and checked against the real 3.6.0 engine
(``tests/fixtures/engine/``).

The quirks reproduced:

* the column of a point is ``floor((x - x0)/dx + 0.5)`` but its row is ``(int)((y - y0)/dy + 0.5)``,
  a truncation toward zero, so the half cell above row 0 (``-1 < (y - y0)/dy + 0.5 < 0``) is still row 0;
* descending numbering counts from ``maxRows = (int)(H/dy + 0.5)`` / ``maxColumns = (int)(W/dx + 0.5)``,
  where ``W``, ``H`` are the size of the grid's container (the board, or the bounding box of the
  zone polygon when the grid sits in a Zone);
* ``snapTo`` works on half cells (``Math.round`` of the offset over ``dx/2``) with the
  ``edgesLegal``/``cornersLegal`` rules, and returns the point unchanged when ``snapTo`` is off;
* ``getCenterPoint`` (name -> point) is ``(int)(col*dx + x0), (int)(row*dy + y0)``.

Coordinates are **board** coordinates, as the engine passes them to a grid (also inside zones).
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import ClassVar, Final

from gazala_tools.errors import HexNameError
from gazala_tools.grid import GameGrid
from gazala_tools.hexes import Direction, Hex, Hexside, Orientation
from gazala_tools.numbering import Numbering, java_odd, java_round, java_trunc, module_int, module_real

__all__ = [
    "DEFAULT_DX",
    "DEFAULT_DY",
    "DEFAULT_X0",
    "DEFAULT_Y0",
    "MOVES",
    "Cell",
    "SquareGameGrid",
    "SquareGridGeometry",
    "SquareGridNumbering",
    "toolkit_numbering",
]

DEFAULT_DX = 48.0
DEFAULT_DY = 48.0
DEFAULT_X0 = 24
DEFAULT_Y0 = 24

_JAVA_INT = re.compile(r"[+-]?[0-9]+")


@dataclass(frozen=True, slots=True)
class SquareGridNumbering(Numbering):
    """``SquareGridNumbering``: the ``RegularGridNumbering`` attributes and naming of
    :class:`~gazala_tools.numbering.Numbering` (``getName``, ``locationFormat``, ``getLocation``'s
    parse), with VASSAL's defaults, and no stagger (square cells have none)."""

    stagger: bool = False

    def __post_init__(self) -> None:
        Numbering.__post_init__(self)
        if self.stagger:
            raise ValueError("a SquareGridNumbering has no stagger")

    def column(self, x: int, grid: SquareGridGeometry, container_w: int) -> int:
        """``getColumn``: ``floor`` rounding, then descending."""
        col = math.floor((x - grid.x0) / grid.dx + 0.5)
        return grid.max_columns(container_w) - col if self.h_descend else col

    def row(self, y: int, grid: SquareGridGeometry, container_h: int) -> int:
        """``getRow``: a Java ``(int)`` truncation (not ``floor``), then descending."""
        row = java_trunc((y - grid.y0) / grid.dy + 0.5)
        return grid.max_rows(container_h) - row if self.v_descend else row

    def vassal_attrs(self) -> dict[str, str]:
        attrs = Numbering.vassal_attrs(self)
        del attrs["stagger"]
        return attrs

    @classmethod
    def from_attrs(cls, attrs: Mapping[str, str]) -> SquareGridNumbering:
        """Read the XML attributes as VASSAL does (missing ones take VASSAL's defaults)."""
        base = Numbering.from_vassal_attrs({k: v for k, v in attrs.items() if k != "stagger"}, "SquareGridNumbering")
        return cls(**{f.name: getattr(base, f.name) for f in fields(cls) if f.name != "stagger"})


@dataclass(frozen=True)
class SquareGridGeometry:
    """A ``SquareGrid``: cell ``(i, j)`` is centred at ``(x0 + i*dx, y0 + j*dy)`` (board coordinates)."""

    dx: float = DEFAULT_DX
    dy: float = DEFAULT_DY
    x0: int = DEFAULT_X0
    y0: int = DEFAULT_Y0
    numbering: SquareGridNumbering | None = None
    snap_to: bool = True
    edges_legal: bool = False
    corners_legal: bool = False
    snap_scale: int = 0
    #: a square grid is never sideways (the hex grid's attribute, for code that sizes either kind)
    sideways: ClassVar[bool] = False

    def __post_init__(self) -> None:
        if not (self.dx > 0 and self.dy > 0):
            raise ValueError(f"SquareGrid dx and dy must be positive, got dx={self.dx!r} dy={self.dy!r}")

    # -- cells --------------------------------------------------------------------------------------
    def name_raw_at(self, x: float, y: float) -> tuple[int, int]:
        """The raw ``(col, row)`` VASSAL's naming gives board point ``(x, y)`` (``getColumn``/``getRow`` before
        descending): the column ``floor``-rounded, the row truncated toward zero (the engine's quirk)."""
        return math.floor((x - self.x0) / self.dx + 0.5), java_trunc((y - self.y0) / self.dy + 0.5)

    def cell_at(self, x: float, y: float) -> Cell:
        """The cell VASSAL's naming puts board point ``(x, y)`` in."""
        return Cell(*self.name_raw_at(x, y))

    def centre(self, cell: Cell) -> tuple[int, int]:
        """Where ``snapTo`` puts a point of ``cell`` (its centre, board pixels)."""
        return self.raw_center(cell.col, cell.row)

    def board_cells(self, size: tuple[int, int]) -> tuple[range, range]:
        """The raw columns and rows of the cells whose centre lies on a board (or zone) of ``size``: the
        cells of a map. Rows start at 0 at least: VASSAL names a point above row 0's centre row 0 (its row
        is truncated toward zero), so a row above the grid's origin has no name of its own."""
        width, height = size
        cols = [i for i in range(math.floor(-self.x0 / self.dx) - 1, math.ceil((width - self.x0) / self.dx) + 2)
                if 0 <= self.raw_center(i, 0)[0] < width]
        rows = [j for j in range(0, math.ceil((height - self.y0) / self.dy) + 2) if 0 <= self.raw_center(0, j)[1] < height]
        return (range(cols[0], cols[-1] + 1) if cols else range(0)), (range(rows[0], rows[-1] + 1) if rows else range(0))

    # -- sizes --------------------------------------------------------------------------------------
    def max_rows(self, container_h: int) -> int:
        """``getMaxRows``: ``(int)(height/dy + 0.5)`` of the container (board or zone bounds)."""
        return java_trunc(container_h / self.dy + 0.5)

    def max_columns(self, container_w: int) -> int:
        """``getMaxColumns``: ``(int)(width/dx + 0.5)``."""
        return java_trunc(container_w / self.dx + 0.5)

    # -- point -> cell ------------------------------------------------------------------------------
    def raw_at(self, x: float, y: float) -> tuple[int, int]:
        """The cell ``(i, j)`` whose centre is nearest (``floor(offset/d + 0.5)`` on both axes)."""
        return math.floor((x - self.x0) / self.dx + 0.5), math.floor((y - self.y0) / self.dy + 0.5)

    def raw_center(self, i: int, j: int) -> tuple[int, int]:
        """Where ``snapTo`` puts a point of cell ``(i, j)`` (half-cell index ``2i, 2j``)."""
        return self.x0 + java_round(2 * i * self.dx / 2), self.y0 + java_round(2 * j * self.dy / 2)

    def snap(self, x: int, y: int, version: str = "3.7") -> tuple[int, int]:
        """``SquareGrid.snapTo`` (the same in 3.6 and 3.7; ``version`` is accepted for the Grid protocol)."""
        if not self.snap_to:
            return x, y
        dx, dy = self.dx, self.dy
        off_x = x - self.x0
        off_y = y - self.y0
        # half-grid indices: (0,0) the origin cell's centre, (1,0) its east edge, (1,1) its SE corner
        nx = java_round(off_x / (0.5 * dx))
        ny = java_round(off_y / (0.5 * dy))
        if not self.corners_legal or not self.edges_legal:
            if self.corners_legal:
                if not java_odd(ny):  # on a cell centre row
                    nx = 2 * java_round(off_x / dx)
                else:  # on a corner row
                    nx = 1 + 2 * java_round(off_x / dx - 0.5)
            elif self.edges_legal:
                if not java_odd(ny):
                    if not java_odd(nx):  # cell centre
                        nx = 2 * java_round(off_x / dx)
                    # else: a vertical edge, keep it
                else:  # a horizontal edge
                    nx = 2 * java_round(off_x / dx)
            else:
                nx = 2 * java_round(off_x / dx)
                ny = 2 * java_round(off_y / dy)
                if self.snap_scale > 0:
                    return self._snap_scaled(off_x, off_y, nx, ny)
        return self.x0 + java_round(nx * dx / 2), self.y0 + java_round(ny * dy / 2)

    def _snap_scaled(self, off_x: int, off_y: int, nx: int, ny: int) -> tuple[int, int]:
        s = self.snap_scale
        dx, dy = self.dx, self.dy
        delta_x = off_x - java_round(nx * dx / 2)
        delta_x = java_round(delta_x / (0.5 * dx / s))
        delta_x = min(max(delta_x, 1 - s), s - 1)
        delta_x = java_round(delta_x * 0.5 * dx / s)
        delta_y = off_y - java_round(ny * dy / 2)
        delta_y = java_round(delta_y / (0.5 * dy / s))
        delta_y = min(max(delta_y, 1 - s), s - 1)
        delta_y = java_round(delta_y * 0.5 * dy / s)
        return self.x0 + java_round(nx * dx / 2 + delta_x), self.y0 + java_round(ny * dy / 2 + delta_y)

    # -- names --------------------------------------------------------------------------------------
    def name_at(self, x: int, y: int, board_w: int = 0, board_h: int = 0) -> str | None:
        """``locationName`` (None without numbering). ``board_w/h``: the container's size."""
        if self.numbering is None:
            return None
        n = self.numbering
        return n.format_name(n.column(x, self, board_w), n.row(y, self, board_h))

    def center_of_name(self, name: str, board_w: int = 0, board_h: int = 0) -> tuple[int, int]:
        """``getLocation``: the point a name refers to (``getCenterPoint``, not snapped)."""
        if self.numbering is None:
            raise ValueError("this SquareGrid has no numbering, so its cells have no names")
        col, row = self.numbering.parse_numbers(name)
        if self.numbering.v_descend:
            row = self.max_rows(board_h) - row
        if self.numbering.h_descend:
            col = self.max_columns(board_w) - col
        return java_trunc(col * self.dx + self.x0), java_trunc(row * self.dy + self.y0)

    # -- attributes ---------------------------------------------------------------------------------
    def vassal_attrs(self) -> dict[str, str]:
        def b(v: bool) -> str:
            return "true" if v else "false"

        return {
            "x0": str(self.x0),
            "y0": str(self.y0),
            "dx": repr(float(self.dx)),
            "dy": repr(float(self.dy)),
            "snapTo": b(self.snap_to),
            "edgesLegal": b(self.edges_legal),
            "cornersLegal": b(self.corners_legal),
        }

    @classmethod
    def from_attrs(
        cls, grid_attrs: Mapping[str, str], numbering_attrs: Mapping[str, str] | None = None
    ) -> SquareGridGeometry:
        """Read a ``SquareGrid`` element's attributes as VASSAL does.

        ``x0``/``y0`` must be plain integers and ``dx``/``dy`` numbers (VASSAL drops the grid
        otherwise: ``ValueError`` here); booleans are true only for ``true`` in any case.
        """

        def integer(key: str, default: int) -> int:
            raw = grid_attrs.get(key)
            if raw is None:
                return default
            if not _JAVA_INT.fullmatch(raw):  # Integer.valueOf: no spaces, no decimals
                raise ValueError(f"SquareGrid {key}={raw!r} is not an integer")
            return module_int("SquareGrid", key, raw)  # within the pixels a map may have (issue 31)

        def real(key: str, default: float) -> float:
            raw = grid_attrs.get(key)
            if raw is None:
                return default
            try:
                if "_" in raw:  # Python accepts 1_0, Double.valueOf does not
                    raise ValueError(raw)
                value = float(raw)
            except ValueError:
                raise ValueError(f"SquareGrid {key}={raw!r} is not a number") from None
            if not math.isfinite(value) or value <= 0:
                raise ValueError(f"SquareGrid {key}={raw!r} must be a positive number")
            return module_real("SquareGrid", key, raw)  # from 2 pixels to a map's size (issue 31)

        def flag(key: str, default: bool) -> bool:
            raw = grid_attrs.get(key)
            return default if raw is None else raw.strip().lower() == "true"

        return cls(
            dx=real("dx", DEFAULT_DX),
            dy=real("dy", DEFAULT_DY),
            x0=integer("x0", DEFAULT_X0),
            y0=integer("y0", DEFAULT_Y0),
            numbering=SquareGridNumbering.from_attrs(numbering_attrs)
            if numbering_attrs is not None
            else None,
            snap_to=flag("snapTo", True),
            edges_legal=flag("edgesLegal", False),
            corners_legal=flag("cornersLegal", False),
        )


# -- cells and the map of cells --------------------------------------------------------------------
#: how units move between cells: across the four sides only, or across the corners too
MOVES: Final = ("orthogonal", "diagonal")
_ORTHOGONAL: Final = ((0, -1), (1, 0), (0, 1), (-1, 0))
_DIAGONAL: Final = ((0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1))
#: the step from the first cell of a pair (in (col, row) order) to the other -> the kind of side between them
_SIDE_KIND: Final = {(0, 1): 0, (1, 0): 1, (1, -1): 2, (1, 1): 3}


@dataclass(frozen=True, order=True, slots=True)
class Cell:
    """A square cell: VASSAL's raw column and row (``0, 0`` is the cell centred at the grid's origin)."""

    col: int
    row: int

    def neighbours(self, moves: str = "orthogonal") -> tuple[Cell, ...]:
        """The cells one step away, clockwise from north: 4 (``orthogonal``) or 8 (``diagonal``)."""
        steps = _ORTHOGONAL if moves == "orthogonal" else _DIAGONAL
        return tuple(Cell(self.col + dc, self.row + dr) for dc, dr in steps)

    def distance(self, other: Cell, moves: str = "orthogonal") -> int:
        """Steps between two cells: Manhattan (``orthogonal``) or Chebyshev (``diagonal``)."""
        dc, dr = abs(self.col - other.col), abs(self.row - other.row)
        return dc + dr if moves == "orthogonal" else max(dc, dr)


def toolkit_numbering(geo: SquareGridGeometry, size: tuple[int, int]) -> SquareGridNumbering:
    """Our labels for a square grid without numbering: VASSAL's default numbering (columns then rows,
    ``CCRR``) shifted so that the top-left cell lying whole on a board of ``size`` is ``0101`` (the first
    column whose cell spans no pixel left of the board, the first row, from 0, above none)."""
    c0 = math.ceil((geo.dx / 2 - geo.x0) / geo.dx)
    while geo.x0 + c0 * geo.dx - geo.dx / 2 < 0:  # float care: the first whole column
        c0 += 1
    r0 = max(0, math.ceil((geo.dy / 2 - geo.y0) / geo.dy))
    while geo.y0 + r0 * geo.dy - geo.dy / 2 < 0:
        r0 += 1
    return SquareGridNumbering(h_off=1 - c0, v_off=1 - r0)


@dataclass(frozen=True)
class SquareGameGrid(GameGrid):
    """The square cells of a map and their labels: :class:`~gazala_tools.grid.GameGrid`'s API (labels,
    columns and rows of label numbers, edges, descending counts) over cells. A cell is keyed by ``Hex(col,
    row)`` (its raw indices; :meth:`cell` and :meth:`key` convert): the referee's maps and positions hold
    places as such keys, and every step between them is the grid's (:meth:`neighbours`), never a hex's.
    ``moves``: ``orthogonal`` (4 neighbours) or ``diagonal`` (8). No stagger, no hexsides."""

    moves: str = "orthogonal"

    def __post_init__(self) -> None:
        if self.moves not in MOVES:
            raise ValueError(f"moves must be one of {', '.join(MOVES)}, got {self.moves!r}")
        if self.orientation is not Orientation.FLAT:
            raise ValueError("a square grid has no orientation")
        if self.numbering.stagger:
            raise ValueError("a square grid's numbering has no stagger")
        GameGrid.__post_init__(self)

    @property
    def kind(self) -> str:
        return "square"

    @property
    def sides_per_cell(self) -> int:
        return 4 if self.moves == "orthogonal" else 8

    def raw(self, h: Hex) -> tuple[int, int]:
        return h.q, h.r

    def from_raw(self, c: int, r: int) -> Hex:
        return Hex(c, r)

    @staticmethod
    def cell(h: Hex) -> Cell:
        """The cell a key stands for."""
        return Cell(h.q, h.r)

    @staticmethod
    def key(cell: Cell) -> Hex:
        """The key of a cell in the map and the referee."""
        return Hex(cell.col, cell.row)

    def neighbours(self, h: Hex) -> tuple[Hex, ...]:
        """The cells of the map one step from ``h`` (4 or 8, fewer at an edge), clockwise from north."""
        steps = _ORTHOGONAL if self.moves == "orthogonal" else _DIAGONAL
        cells, q, r = self._cells, h.q, h.r
        return tuple(n for n in (cells.get((q + dc, r + dr)) for dc, dr in steps) if n is not None)

    @functools.cached_property
    def _cells(self) -> dict[tuple[int, int], Hex]:
        """Raw index -> the key of each map cell (a topology of 100,000 cells is built without making keys)."""
        return {(h.q, h.r): h for h in self.hexes()}

    def steps(self) -> SquareGameGrid:
        return self

    def distance(self, a: Hex, b: Hex) -> int:
        """Steps between two cells: Manhattan (``orthogonal``) or Chebyshev (``diagonal``)."""
        return self.cell(a).distance(self.cell(b), self.moves)

    def side(self, a: Hex, b: Hex) -> Hexside:
        """The side (or corner) between neighbouring cells ``a`` and ``b``, as a key of the referee's tables: one
        value per pair of cells, the same from either (``Hexside(2*col + diagonal, row, N or NE)`` of the pair's
        first cell and the step to the other: east, south, north-east, south-east). Only compared: no map data
        names a side of a square grid, and its hex geometry (``.hexes``) is never read."""
        first, second = (a, b) if (a.q, a.r) < (b.q, b.r) else (b, a)
        step = (second.q - first.q, second.r - first.r)
        try:
            k = _SIDE_KIND[step]
        except KeyError:
            raise ValueError(f"cells {self.label(a)} and {self.label(b)} are not neighbours") from None
        return Hexside(2 * first.q + (k >> 1), first.r, Direction.N if k & 1 == 0 else Direction.NE)

    def hexsides(self) -> list[Hexside]:
        """A square grid has none (no map data names a cell side)."""
        return []

    def hexside(self, label: str) -> Hexside:
        raise HexNameError(f"{label!r}: a square grid has no hexsides", expected="a cell label")

    def hexside_label(self, side: Hexside) -> str:
        raise ValueError("a square grid has no hexsides")
