"""VASSAL-exact pixel geometry: HexGrid, zones, boards and map layouts (core: no VASSAL code, no third-party library).

Pure Python. Implements ../shared/docs/vassal-format.md section 5 (and 4.7 for maps and boards):

* :meth:`HexGridGeometry.raw_center` - the centre of a raw hex, as ``HexGrid`` computes it (5.3);
* :meth:`HexGridGeometry.raw_at` / :meth:`snap` - which hex contains a point: the 3.7 hexagon-exact
  test (``version="3.7"``, the default) or the <= 3.6 rectangular cell (``version="3.6"``);
* :meth:`HexGridGeometry.name_at` - the location name, with VASSAL's own rectangular rounding
  (the naming quirk of 5.4: near a corner it may name a neighbour of the hex that contains the point);
* :meth:`HexGridGeometry.center_of_name` - ``getLocation`` (5.5);
* :class:`MapLayout.locate` - map coordinates -> board -> zone -> grid name (4.7).

Coordinates given to a grid are **board** coordinates; :class:`MapLayout` works in **map**
coordinates (edge buffer and board offsets included), as saves store them.
"""

from __future__ import annotations

import math
import struct
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from gazala_tools.errors import VassalFormatError
from gazala_tools.grid import corner_lattice, hex_to_raw, raw_to_hex
from gazala_tools.hexes import Hex, Orientation
from gazala_tools.numbering import Numbering, java_odd, java_round, java_trunc, module_int, module_real

__all__ = [
    "DEFAULT_DX",
    "DEFAULT_DY",
    "Board",
    "Grid",
    "GridZone",
    "HexGridGeometry",
    "Location",
    "MapLayout",
    "ZonedGrid",
    "area_contains",
    "f32",
    "layout_with_boards",
    "polygon_contains",
]

DEFAULT_DY = 64.0
DEFAULT_DX = math.sqrt(3) / 2 * DEFAULT_DY  # 55.42562584220407, VASSAL's default


class Grid(Protocol):
    """What a board or zone grid offers (HexGrid, SquareGrid...)."""

    def name_at(self, x: int, y: int, board_w: int, board_h: int) -> str | None: ...

    def snap(self, x: int, y: int, version: str = "3.7") -> tuple[int, int]: ...


def f32(x: float) -> float:
    """Round a double to the nearest Java ``float`` (IEEE single precision)."""
    return float(struct.unpack("<f", struct.pack("<f", x))[0])


def polygon_contains(xs: Sequence[int], ys: Sequence[int], x: float, y: float) -> bool:
    """``java.awt.Polygon.contains(x, y)``: even-odd crossings with Java's half-open boundary rules."""
    n = len(xs)
    if n <= 2:
        return False
    bx, by = min(xs), min(ys)
    bw, bh = max(xs) - bx, max(ys) - by
    if not (x >= bx and y >= by and x < bx + bw and y < by + bh):
        return False
    hits = 0
    for i in range(n):
        lastx, lasty, curx, cury = xs[i - 1], ys[i - 1], xs[i], ys[i]
        if cury == lasty:
            continue
        if curx < lastx:
            if x >= lastx:
                continue
            leftx = curx
        else:
            if x >= curx:
                continue
            leftx = lastx
        if cury < lasty:
            if y < cury or y >= lasty:
                continue
            test1, test2 = x - curx, y - cury
        else:
            if y < lasty or y >= cury:
                continue
            test1, test2 = x - lastx, y - lasty
        if x < leftx or test1 < (test2 / (lasty - cury) * (lastx - curx)):  # IEEE double, Java's order
            hits += 1
    return (hits & 1) != 0


def area_contains(xs: Sequence[int], ys: Sequence[int], x: float, y: float) -> bool:
    """``new java.awt.geom.Area(polygon).contains(x, y)`` for a simple polygon.

    Half-open bounds, then per non-horizontal edge (``Curve.crossingsFor``): a crossing when
    ``ytop <= y < ybot`` and ``x < xmax`` and (``x < xmin`` or ``x < XforY(y)``), with
    ``Order1.XforY`` evaluated in IEEE doubles in Java's order.
    """
    n = len(xs)
    if n <= 2:
        return False
    bx, by = min(xs), min(ys)
    if not (x >= bx and y >= by and x < max(xs) and y < max(ys)):
        return False
    crossings = 0
    for i in range(n):
        ax, ay, bx2, by2 = xs[i - 1], ys[i - 1], xs[i], ys[i]
        if ay == by2:
            continue
        if ay > by2:
            ax, ay, bx2, by2 = bx2, by2, ax, ay
        if not (ay <= y < by2):
            continue
        if x >= max(ax, bx2):
            continue
        if x < min(ax, bx2):
            crossings += 1
            continue
        if ax == bx2 or y <= ay:
            xt: float = ax
        elif y >= by2:
            xt = bx2
        else:
            xt = ax + (y - ay) * (bx2 - ax) / (by2 - ay)
        if x < xt:
            crossings += 1
    return (crossings & 1) == 1


@dataclass(frozen=True)
class HexGridGeometry:
    """A VASSAL ``HexGrid`` (+ optional ``HexGridNumbering``), in board coordinates."""

    dx: float = DEFAULT_DX
    dy: float = DEFAULT_DY
    x0: int = 0
    y0: int = 32
    sideways: bool = False
    numbering: Numbering | None = None
    snap_to: bool = True
    edges_legal: bool = False
    corners_legal: bool = False

    def __post_init__(self) -> None:
        if not (self.dx > 0 and self.dy > 0):
            raise ValueError(f"HexGrid dx and dy must be positive, got dx={self.dx}, dy={self.dy}")
        if type(self.x0) is not int or type(self.y0) is not int:
            raise ValueError(f"HexGrid x0 and y0 must be integers (VASSAL drops the grid otherwise), got {self.x0!r}, {self.y0!r}")

    @property
    def orientation(self) -> Orientation:
        return Orientation.POINTY if self.sideways else Orientation.FLAT

    def _uv(self, x: float, y: float) -> tuple[float, float]:
        return (y, x) if self.sideways else (x, y)

    def _xy(self, u: int, v: int) -> tuple[int, int]:
        return (v, u) if self.sideways else (u, v)

    # --- centres ---------------------------------------------------------------------------------
    def raw_center(self, c: int, r: int) -> tuple[int, int]:
        """Board point of the centre of raw hex ``(c, r)`` (5.3; where a dropped piece snaps)."""
        dx, dy = self.dx, self.dy
        u = java_trunc(dx * c + self.x0)
        if java_odd(c):
            v = java_trunc(dy * r + java_trunc(dy / 2) + self.y0)
        else:
            v = java_trunc(dy * r + self.y0)
        return self._xy(u, v)

    def hex_center(self, h: Hex) -> tuple[int, int]:
        return self.raw_center(*hex_to_raw(h, self.orientation))

    def lattice_to_pixel(self, X: int, Y: int) -> tuple[float, float]:
        """Board point of a corner lattice point (see :func:`gazala_tools.grid.corner_lattice`)."""
        u = self.x0 + X * self.dx / 3.0
        v = self.y0 + Y * self.dy / 2.0
        return (v, u) if self.sideways else (u, v)

    def hex_corners(self, h: Hex) -> list[tuple[float, float]]:
        """The six corners of a regular-lattice hexagon around ``h`` (float board points)."""
        return [self.lattice_to_pixel(X, Y) for X, Y in corner_lattice(h, self.orientation)]

    # --- which hex contains a point --------------------------------------------------------------
    def _candidate(self, u: float, v: float) -> tuple[int, int]:
        c = math.floor((u - self.x0 + self.dx / 2) / self.dx)
        if java_odd(c):
            r = math.floor((v - self.y0) / self.dy)
        else:
            r = math.floor((v - self.y0 + self.dy / 2) / self.dy)
        return c, r

    def hexagon(self, c: int, r: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The integer (u, v) corners of ``HexGrid.getSingleHexShape`` around raw hex ``(c, r)``.

        VASSAL builds it in Java ``float`` (32-bit) arithmetic and rounds with ``Math.round``;
        this reproduces that bit for bit (:func:`f32` rounds each operation to float32).
        """
        cu, cv = self.raw_center(c, r)
        if self.sideways:
            cu, cv = cv, cu
        x, y = f32(cu), f32(cv)
        dx, dy = f32(self.dx), f32(self.dy)
        rad = f32(f32(2.0 * dx) / 3.0)
        half_r = f32(0.5 * rad)
        half_dy = f32(0.5 * dy)
        x2 = f32(x - half_r)
        x3 = f32(x + half_r)
        y2 = f32(y - half_dy)
        y5 = f32(y + half_dy)
        xs = (
            java_round(f32(x - rad)),
            java_round(x2),
            java_round(x3) + 1,
            java_round(f32(x + rad)) + 1,
            java_round(x3) + 1,
            java_round(x2),
        )
        ys = (java_round(y), java_round(y2), java_round(y2), java_round(y), java_round(y5) + 1, java_round(y5) + 1)
        return xs, ys

    def _hexagon_contains(self, c: int, r: int, u: float, v: float) -> bool:
        xs, ys = self.hexagon(c, r)
        return area_contains(xs, ys, u, v)

    def raw_at(self, x: float, y: float, version: str = "3.7") -> tuple[int, int]:
        """Raw index of the hex a point snaps into: 3.7 hexagon test, or the <= 3.6 rectangle."""
        u, v = self._uv(x, y)
        c, r = self._candidate(u, v)
        if version < "3.7":
            return c, r
        if self._hexagon_contains(c, r, u, v):
            return c, r
        if java_odd(c):
            tries = ((c - 1, r), (c - 1, r + 1), (c + 1, r), (c + 1, r + 1))
        else:
            tries = ((c - 1, r - 1), (c - 1, r), (c + 1, r - 1), (c + 1, r))
        for cc, rr in tries:
            if self._hexagon_contains(cc, rr, u, v):
                return cc, rr
        return c, r

    def hex_at(self, x: float, y: float, version: str = "3.7") -> Hex:
        return raw_to_hex(*self.raw_at(x, y, version), self.orientation)

    def snap(self, x: int, y: int, version: str = "3.7") -> tuple[int, int]:
        """Where VASSAL puts a piece dropped at board point ``(x, y)`` (``HexGrid.snapTo``).

        With ``edges_legal``/``corners_legal`` the nearest hexside midpoint or vertex wins unless
        the hex centre is within sqrt(2) px of it (VASSAL's ``checkCenter`` workaround).
        """
        if not self.snap_to:
            return (x, y)
        center = self.raw_center(*self.raw_at(x, y, version))
        if not (self.edges_legal or self.corners_legal):
            return center
        if self.edges_legal and self.corners_legal:
            edge = self._snap_side(x, y)
            vertex = self._snap_vertex(x, y)
            d_edge = (x - edge[0]) ** 2 + (y - edge[1]) ** 2
            d_vertex = (x - vertex[0]) ** 2 + (y - vertex[1]) ** 2
            target = edge if d_edge < d_vertex else vertex
        elif self.edges_legal:
            target = self._snap_side(x, y)
        else:
            target = self._snap_vertex(x, y)
        if (center[0] - target[0]) ** 2 + (center[1] - target[1]) ** 2 <= 2:
            return center
        return target

    def _snap_side(self, x: int, y: int) -> tuple[int, int]:
        """``snapToHexSide`` (snapScale 0): nearest point of the half-hex lattice."""
        u, v = (y, x) if self.sideways else (x, y)
        dx, dy, ox, oy = self.dx, self.dy, self.x0, self.y0
        su = java_trunc(dx / 2 * math.floor((u - ox + dx / 4) * 2 / dx) + ox)
        nx = math.floor((u - ox + dx / 4) * 2 / dx)
        if not java_odd(nx):
            sv = java_trunc(dy / 2 * math.floor((v - oy + dy / 4) * 2 / dy) + oy)
        else:
            sv = java_trunc((dy / 2) * math.floor((v - oy) * 2 / dy) + java_trunc(dy / 4) + oy)
        return self._xy(su, sv)

    def _snap_vertex(self, x: int, y: int) -> tuple[int, int]:
        """``snapToHexVertex`` (snapScale 0), with VASSAL's own integer casts."""
        u, v = (y, x) if self.sideways else (x, y)
        dx, dy, ox, oy = self.dx, self.dy, self.x0, self.y0
        ny = math.floor((v - oy + dy / 4) * 2 / dy)
        if not java_odd(ny):
            vu = java_trunc(2 * dx / 3 * java_trunc(math.floor(u - ox + dx / 3) * 3 / (2 * dx)) + ox)
        else:
            vu = java_trunc(
                2 * dx / 3 * java_trunc(math.floor(u - ox + dx / 3 + dx / 3) * 3 / (2 * dx)) - java_trunc(dx / 3) + ox
            )
        vv = java_trunc(dy / 2 * math.floor((v - oy + dy / 4) * 2 / dy) + oy)
        return self._xy(vu, vv)

    # --- names -----------------------------------------------------------------------------------
    def max_rows(self, board_h: int) -> int:
        """VASSAL's ``getMaxRows``: floor(H / dx + 0.5) (sic: dx, a VASSAL quirk)."""
        return math.floor(board_h / self.dx + 0.5)

    def max_columns(self, board_w: int) -> int:
        """VASSAL's ``getMaxColumns``: floor(W / dy + 0.5) (sic)."""
        return math.floor(board_w / self.dy + 0.5)

    def name_raw_at(self, x: float, y: float) -> tuple[int, int]:
        """The raw index VASSAL's *naming* assigns to a point (the rectangular rounding of 5.4)."""
        u, v = self._uv(x, y)
        raw_col = math.floor((u - self.x0) / self.dx + 0.5)
        n = java_round((u - self.x0) / self.dx)
        if java_odd(n):
            raw_row = java_round((v - self.y0 - self.dy / 2) / self.dy)
        else:
            raw_row = java_round((v - self.y0) / self.dy)
        return raw_col, raw_row

    def name_at(self, x: int, y: int, board_w: int = 0, board_h: int = 0) -> str | None:
        """The location name VASSAL shows for board point ``(x, y)``; None without numbering."""
        if self.numbering is None:
            return None
        c, r = self.name_raw_at(x, y)
        return self.numbering.name(
            c, r, sideways=self.sideways, max_rows=self.max_rows(board_h), max_columns=self.max_columns(board_w)
        )

    def center_of_name(self, name: str, board_w: int = 0, board_h: int = 0) -> tuple[int, int]:
        """``getLocation(name)``: the board point VASSAL's SetupStack/SendToLocation use (5.5)."""
        if self.numbering is None:
            raise ValueError("this grid has no numbering, so no hex has a name")
        column, row = self.numbering.parse_numbers(name)
        col, r = self.numbering.vassal_center_index(
            column,
            row,
            sideways=self.sideways,
            max_rows=self.max_rows(board_h),
            max_columns=self.max_columns(board_w),
        )
        u = java_trunc(col * self.dx) + self.x0
        if java_odd(col):
            v = java_trunc(r * self.dy + self.dy / 2) + self.y0
        else:
            v = java_trunc(r * self.dy) + self.y0
        return self._xy(u, v)

    # --- XML attributes ----------------------------------------------------------------------------
    def vassal_attrs(self) -> dict[str, str]:
        return {
            "dx": repr(float(self.dx)),
            "dy": repr(float(self.dy)),
            "x0": str(self.x0),
            "y0": str(self.y0),
            "sideways": "true" if self.sideways else "false",
            "snapTo": "true" if self.snap_to else "false",
            "edgesLegal": "true" if self.edges_legal else "false",
            "cornersLegal": "true" if self.corners_legal else "false",
        }

    @classmethod
    def from_vassal_attrs(cls, attrs: dict[str, str], numbering: Numbering | None = None) -> HexGridGeometry:
        """Build from XML attributes exactly as VASSAL applies them (alphabetical; dx follows dy)."""

        def flag(key: str, default: bool) -> bool:
            return attrs[key].strip().lower() == "true" if key in attrs else default

        def integer(key: str, default: int) -> int:  # within the pixels a map may have (issue 31)
            if key not in attrs:
                return default
            return module_int("HexGrid", key, attrs[key], why=" (VASSAL drops such a grid)")

        def real(key: str, default: float) -> float:  # finite, from 2 pixels to a map's size
            if key not in attrs:
                return default
            return module_real("HexGrid", key, attrs[key])

        dx = real("dx", DEFAULT_DX)
        dy = real("dy", DEFAULT_DY)
        if "dy" in attrs and dx == DEFAULT_DX:
            dx = math.sqrt(3) / 2 * dy  # VASSAL: setting dy recomputes a still-default dx
        return cls(
            dx=dx,
            dy=dy,
            x0=integer("x0", 0),
            y0=integer("y0", 32),
            sideways=flag("sideways", False),
            numbering=numbering,
            snap_to=flag("snapTo", True),
            edges_legal=flag("edgesLegal", False),
            corners_legal=flag("cornersLegal", False),
        )


@dataclass(frozen=True)
class GridZone:
    """A ``mapgrid.Zone``: a named polygon (board coordinates) with an optional grid of its own."""

    name: str
    path: tuple[tuple[int, int], ...]
    location_format: str = "$gridLocation$"
    grid: Grid | None = None
    use_parent_grid: bool = False

    def contains(self, x: float, y: float) -> bool:
        return polygon_contains([p[0] for p in self.path], [p[1] for p in self.path], x, y)

    def bounds_size(self) -> tuple[int, int]:
        xs = [p[0] for p in self.path]
        ys = [p[1] for p in self.path]
        return (max(xs) - min(xs), max(ys) - min(ys)) if xs else (0, 0)


@dataclass(frozen=True)
class ZonedGrid:
    zones: tuple[GridZone, ...]
    background: Grid | None = None

    def zone_at(self, x: float, y: float) -> GridZone | None:
        for z in self.zones:
            if z.contains(x, y):
                return z
        return None

    def name_at(self, x: int, y: int, board_w: int = 0, board_h: int = 0) -> str | None:
        zone = self.zone_at(x, y)
        if zone is None:
            return self.background.name_at(x, y, board_w, board_h) if self.background is not None else None
        grid = self.background if zone.use_parent_grid else zone.grid
        grid_name: str | None = None
        if grid is not None:
            # a zone's own grid sizes itself by the zone's bounding box (descending numbering)
            w, h = (board_w, board_h) if zone.use_parent_grid else zone.bounds_size()
            grid_name = grid.name_at(x, y, w, h)
        text = zone.location_format.replace("$name$", zone.name)
        return text.replace("$gridLocation$", grid_name if grid_name is not None else "")

    def snap(self, x: int, y: int, version: str = "3.7") -> tuple[int, int]:
        zone = self.zone_at(x, y)
        grid = self.background if zone is None or zone.use_parent_grid else zone.grid
        return grid.snap(x, y, version) if grid is not None else (x, y)


@dataclass(frozen=True)
class Board:
    """A ``boardPicker.Board``: its size is its image's size (or width/height without one)."""

    name: str
    width: int | None
    height: int | None
    grid: Grid | None = None
    reversible: bool = False
    image: str | None = None


@dataclass(frozen=True)
class Location:
    name: str  #: what VASSAL shows (``LocationName``), or "offboard"
    board: str | None  #: the board holding the point, if any
    snapped: tuple[int, int]  #: where a piece dropped there lands, in map coordinates


@dataclass(frozen=True)
class MapLayout:
    """A ``VASSAL.build.module.Map`` with its boards in use, for map-coordinate lookups."""

    name: str
    edge_width: int = 0
    edge_height: int = 0
    boards: tuple[tuple[Board, int, int], ...] = ()  # (board, col, row) in the board layout
    all_boards: tuple[Board, ...] = ()  #: every board the map offers (a save picks among them)
    #: VASSAL asks the player to choose the boards of a new game ("Choose Boards": no default set-up
    #: and several boards, or one reversible board) and lays out none until then: every point is
    #: offboard until a save's SetBoards lays boards out (``boards`` is empty)
    choose_boards: bool = False
    _rects: list[tuple[Board, int, int, int | None, int | None]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        rects: list[tuple[Board, int, int, int | None, int | None]] = []
        for board, col, row in self.boards:
            bx = self.edge_width + sum(
                b.width or 0 for b, c, r in self.boards if r == row and c < col
            )
            by = self.edge_height + sum(
                b.height or 0 for b, c, r in self.boards if c == col and r < row
            )
            rects.append((board, bx, by, board.width, board.height))
        object.__setattr__(self, "_rects", rects)

    def board_at(self, x: int, y: int) -> tuple[Board, int, int] | None:
        """The first board whose rectangle holds map point ``(x, y)``, with its origin.

        A board of unknown size (image missing) holds every point right and below its origin.
        """
        for board, bx, by, w, h in self._rects:
            inside_x = bx <= x and (w is None or x < bx + w)
            inside_y = by <= y and (h is None or y < by + h)
            if inside_x and inside_y:
                return board, bx, by
        return None

    def board_origin(self, name: str) -> tuple[int, int]:
        for board, bx, by, _w, _h in self._rects:
            if board.name == name:
                return bx, by
        raise KeyError(name)

    def locate(self, x: int, y: int, version: str = "3.7") -> Location:
        found = self.board_at(x, y)
        if found is None:
            return Location("offboard", None, (x, y))
        board, bx, by = found
        lx, ly = x - bx, y - by
        w, h = board.width or 0, board.height or 0
        if board.grid is None:
            return Location("offboard", board.name, (x, y))
        name = board.grid.name_at(lx, ly, w, h)
        sx, sy = board.grid.snap(lx, ly, version)
        return Location(name if name is not None else "offboard", board.name, (sx + bx, sy + by))

    def center_of(self, name: str, board: str | None = None) -> tuple[int, int]:
        """Map point of the hex centre a name refers to (first board whose hex grid knows it)."""
        errors: list[str] = []
        for b, bx, by, w, h in self._rects:
            if board is not None and b.name != board:
                continue
            grid = b.grid
            grids: list[Grid] = []
            if isinstance(grid, ZonedGrid):
                grids = [z.grid for z in grid.zones if z.grid is not None] + (
                    [grid.background] if grid.background is not None else []
                )
            elif grid is not None:
                grids = [grid]
            for g in grids:
                if isinstance(g, HexGridGeometry) and g.numbering is not None:
                    try:
                        cx, cy = g.center_of_name(name, w or 0, h or 0)
                    except ValueError as exc:
                        errors.append(str(exc))
                        continue
                    # the centre the engine snaps to (5.3 formula) for the named hex
                    sx, sy = g.raw_center(*g.raw_at(cx, cy))
                    point = (sx + bx, sy + by)
                    if self.locate(*point).name == name:  # the hex lies on this board (and zone)
                        return point
                    errors.append(f"{name!r} lies off board {b.name!r}")
        detail = f" ({'; '.join(errors)})" if errors else ""
        raise ValueError(f"no board of map {self.name!r} has a hex named {name!r}{detail}")


def layout_with_boards(layout: MapLayout, placements: list[tuple[str, int, int]]) -> MapLayout:
    """The same map with the boards a save's SetBoards command names, at its columns and rows."""
    by_name = {b.name: b for b in (layout.all_boards or tuple(b for b, _c, _r in layout.boards))}
    placed: list[tuple[Board, int, int]] = []
    for name, col, row in placements:
        base = name[:-4] if name.endswith("/rev") else name
        if base not in by_name:
            raise VassalFormatError(f"board {base!r} is not a board of map {layout.name!r}")
        placed.append((by_name[base], col, row))
    return MapLayout(layout.name, layout.edge_width, layout.edge_height, tuple(placed), layout.all_boards)
