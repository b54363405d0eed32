"""Hex and square grids without numbering get the toolkit's labels (issue 35 item 2).

Many real modules draw a hex grid and never number it (no ``HexGridNumbering``): VASSAL then names no
hex, every location is the board's or a zone's name. ``game import`` still writes ``map.yaml`` for the
first board with a hex grid: the labels are **ours** (VASSAL's default numbering, columns then rows,
``0101`` at the top-left hex that lies whole on the board, as ``game new`` names a scan without
``--ref``), stated so in ``map.yaml``, ``game.yaml`` and ``import-report.yaml``. The geometry is the
module's, so every hex centre VASSAL reports maps to one label and back; the referee finds a piece's
hex from its pixel point (:func:`label_at`), never from a VASSAL name.

A module whose maps have **no hex grid** but a ``SquareGrid`` gets ``map.yaml`` for the first board with a
square grid (numbered, else the first of all, labelled by us the same way: ``0101`` at the top-left whole
cell): ``grid: {kind: square, moves: orthogonal}`` (:func:`square_grid_doc`), every cell whose centre is on the
board (or in the zone), with the module's geometry.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from gazala_tools.errors import GazalaError
from gazala_tools.games.writing import numbering_data, slug
from gazala_tools.grid import MAX_HEXES
from gazala_tools.hexgrid import Board, HexGridGeometry, MapLayout, ZonedGrid
from gazala_tools.numbering import Numbering
from gazala_tools.referee.imported import toolkit_numbering
from gazala_tools.squaregrid import SquareGridGeometry
from gazala_tools.squaregrid import toolkit_numbering as toolkit_square_numbering
from gazala_tools.vassal.importer.reader import ImportedModule, SetupPlacement

__all__ = [
    "MOVES_NOTE",
    "OURS",
    "OURS_SQUARE",
    "GridFound",
    "box_names",
    "first_square",
    "first_unnumbered",
    "hex_grids",
    "is_main",
    "label_at",
    "other_grid_docs",
    "relabel",
    "square_grid_doc",
    "square_grids",
    "zone_of",
]

#: what map.yaml, game.yaml and the import report say of labels that are ours
OURS = ("the module's hex grid has no numbering: these labels are the toolkit's (0101 at the top-left whole "
        "hex, columns then rows), not VASSAL's; VASSAL names no hex of this grid")
#: the same for a square grid
OURS_SQUARE = ("the module's square grid has no numbering: these labels are the toolkit's (0101 at the top-left "
               "whole cell, columns then rows), not VASSAL's; VASSAL names no cell of this grid")
#: what map.yaml says of a square grid's moves (the module cannot say it: the game's rules do)
MOVES_NOTE = ("moves: orthogonal (a step crosses a side of a cell: 4 neighbours); write diagonal when your game's "
              "units also move across corners (8 neighbours): stacking, ZOC and supply follow it")


@dataclass(frozen=True)
class GridFound:
    map: str
    board: Board
    geometry: HexGridGeometry | SquareGridGeometry  #: with a numbering: the module's, or ours
    size: tuple[int, int]  #: what the numbering is sized by: the board, or the zone's bounds
    zone: str | None  #: the zone holding the grid, if any
    ours: bool  #: the labels are the toolkit's (the module's grid has no numbering)


def _grids(mod: ImportedModule, kind: type[HexGridGeometry] | type[SquareGridGeometry],
           ours: Callable[[Any, tuple[int, int]], Numbering]) -> list[GridFound]:
    """Every grid of ``kind`` on the module's boards (maps in order, each board, each zone: its zones,
    then the zoned grid's background), numbered or not; a grid without numbering gets ``ours``."""
    out: list[GridFound] = []
    for lay in mod.layouts:
        for board in lay.all_boards:
            if board.width is None or board.height is None:
                continue
            whole = (board.width, board.height)
            grid = board.grid
            found: list[tuple[Any, tuple[int, int], str | None]] = []
            if isinstance(grid, kind):
                found.append((grid, whole, None))
            elif isinstance(grid, ZonedGrid):
                found.extend((z.grid, z.bounds_size(), z.name) for z in grid.zones if isinstance(z.grid, kind))
                if isinstance(grid.background, kind):
                    found.append((grid.background, whole, None))
            for geo, size, zone_name in found:
                num = geo.numbering or ours(geo, whole)
                out.append(GridFound(lay.name, board, replace(geo, numbering=num), size, zone_name,
                                     geo.numbering is None))
    return out


def hex_grids(mod: ImportedModule) -> list[GridFound]:
    """Every hex grid of the module's boards (maps in order, each board, each zone), numbered or not;
    a grid without numbering gets ours (:func:`toolkit_numbering`)."""
    return _grids(mod, HexGridGeometry, toolkit_numbering)


def first_unnumbered(mod: ImportedModule) -> GridFound | None:
    """The first hex grid of the module, labelled by us, when no board has a numbered one."""
    grids = hex_grids(mod)
    if any(not g.ours for g in grids):
        return None
    return grids[0] if grids else None


def square_grids(mod: ImportedModule) -> list[GridFound]:
    """Every square grid of the module's boards (maps in order, each board, each zone), numbered or not;
    a grid without numbering gets ours (:func:`~gazala_tools.squaregrid.toolkit_numbering`)."""
    return _grids(mod, SquareGridGeometry, toolkit_square_numbering)


def first_square(mod: ImportedModule) -> GridFound | None:
    """The main grid of a module with no hex grid: the first numbered square grid, else the first square grid
    (labelled by us); None when the module has a hex grid or no square grid."""
    if hex_grids(mod):
        return None
    grids = square_grids(mod)
    return next((g for g in grids if not g.ours), grids[0] if grids else None)


def square_grid_doc(found: GridFound, numbering: Numbering, file: str) -> dict[str, Any]:
    """map.yaml's ``grid:`` for a square grid (``numbering``: counted from the board, as game.yaml states it):
    every cell whose centre lies on the board (in the zone: inside the zone's polygon), with the module's
    geometry. A grid with no cell there, or with more than a map may have, is bad input naming the board."""
    geo, board = found.geometry, found.board
    assert isinstance(geo, SquareGridGeometry)
    width, height = board.width or 0, board.height or 0
    cols, rows = geo.board_cells((width, height))
    where = f"board {board.name!r} of map {found.map!r}" + (f", zone {found.zone!r}" if found.zone else "")
    if len(cols) * len(rows) > MAX_HEXES:
        raise GazalaError(f"the square grid of {where} has {len(cols) * len(rows):,} cells", file=file,
                          expected=f"at most {MAX_HEXES:,} cells (dx {geo.dx:g}, dy {geo.dy:g} on {width} x {height})")
    if found.zone is not None and isinstance(board.grid, ZonedGrid):
        zone = next(z for z in board.grid.zones if z.name == found.zone)
        inside = [(c, r) for c in cols for r in rows if zone.contains(*geo.raw_center(c, r))]
        cols = range(min(c for c, _ in inside), max(c for c, _ in inside) + 1) if inside else range(0)
        rows = range(min(r for _, r in inside), max(r for _, r in inside) + 1) if inside else range(0)
    if not cols or not rows:
        raise GazalaError(f"no cell centre of the square grid lies on {where}", file=file,
                          expected=f"a grid whose cells cover the board (dx {geo.dx:g}, dy {geo.dy:g}, x0 {geo.x0}, "
                                   f"y0 {geo.y0} on {width} x {height})")
    max_rows, max_columns = geo.max_rows(height), geo.max_columns(width)
    corners = [numbering.column_row(c, r, max_rows=max_rows, max_columns=max_columns)
               for c in (cols[0], cols[-1]) for r in (rows[0], rows[-1])]
    grid: dict[str, Any] = {
        "kind": "square", "moves": "orthogonal",
        "columns": [min(c for c, _ in corners) + numbering.h_off, max(c for c, _ in corners) + numbering.h_off],
        "rows": [min(r for _, r in corners) + numbering.v_off, max(r for _, r in corners) + numbering.v_off],
        "north": "top"}
    if numbering.v_descend:
        grid["max_rows"] = max_rows
    if numbering.h_descend:
        grid["max_columns"] = max_columns
    grid["pixels"] = {"dx": geo.dx, "dy": geo.dy, "x0": geo.x0, "y0": geo.y0, "board_width": width,
                      "board_height": height, "edge_width": 0, "edge_height": 0, "dpi": 100}
    return grid


def label_at(geo: HexGridGeometry | SquareGridGeometry, x: float, y: float, size: tuple[int, int]) -> str:
    """The label of the hex (cell) VASSAL's naming puts board point ``(x, y)`` in, by ``geo``'s numbering."""
    assert geo.numbering is not None
    c, r = geo.name_raw_at(x, y)
    return geo.numbering.name(c, r, sideways=geo.sideways, max_rows=geo.max_rows(size[1]),
                              max_columns=geo.max_columns(size[0]))


def relabel(mod: ImportedModule, found: GridFound) -> list[SetupPlacement]:
    """The module's set-up placements, each on ``found``'s board (and zone) given the label of our
    numbering as its location (VASSAL gave it none): the scenarios then place those pieces on hexes."""
    lay: MapLayout | None = next((m for m in mod.layouts if m.name == found.map), None)
    if lay is None:
        return mod.placements
    try:
        bx, by = lay.board_origin(found.board.name)
    except KeyError:
        return mod.placements
    out: list[SetupPlacement] = []
    for pl in mod.placements:
        if pl.map != found.map or pl.board != found.board.name:
            out.append(pl)
            continue
        lx, ly = pl.x - bx, pl.y - by
        grid = found.board.grid
        if found.zone is not None and isinstance(grid, ZonedGrid):
            zone = grid.zone_at(lx, ly)
            if zone is None or zone.name != found.zone:
                out.append(pl)
                continue
        out.append(replace(pl, location=label_at(found.geometry, lx, ly, found.size)))
    return out


def zone_of(board: Board, geometry: HexGridGeometry | SquareGridGeometry) -> str | None:
    """The zone of ``board`` whose grid is ``geometry`` (None: the board's own grid)."""
    grid = board.grid
    if isinstance(grid, ZonedGrid):
        for zone in grid.zones:
            if zone.grid is geometry or (isinstance(zone.grid, HexGridGeometry | SquareGridGeometry)
                                         and type(zone.grid) is type(geometry)
                                         and replace(zone.grid, numbering=None) == replace(geometry, numbering=None)):
                return zone.name
    return None


def box_names(mod: ImportedModule) -> list[str]:
    """Every map's name and every zone's name: where a unit off the main grid may stand (its box)."""
    names: list[str] = []
    for lay in mod.layouts:
        names.append(lay.name)
        for board in lay.all_boards:
            if isinstance(board.grid, ZonedGrid):
                names.extend(z.name for z in board.grid.zones)
    return sorted({n for n in names if n})


def is_main(g: GridFound, main: tuple[str, str, str | None] | None) -> bool:
    """Whether ``g`` is the main grid (``main``: its map, board and zone), the one map.yaml holds."""
    return main is not None and (g.map, g.board.name, g.zone) == main


def other_grid_docs(mod: ImportedModule, main: tuple[str, str, str | None] | None,
                    map_doc: Callable[[GridFound], dict[str, Any] | None]) -> dict[str, dict[str, Any]]:
    """A stand-alone map YAML (``grids/MAP-BOARD[-ZONE].yaml``, its numbering in ``grid.numbering``) for every
    hex grid but the main one (``main``: its map, board and zone): each zone of each board of each map gets its
    grid, numbered by the module or by us; names that run together (``Main``/``A B``, ``Main A``/``B``) get
    ``-2``, ``-3``. ``map_doc``: the main grid's map.yaml writer, given one grid."""
    out: dict[str, dict[str, Any]] = {}
    for g in [*hex_grids(mod), *square_grids(mod)]:
        if is_main(g, main):
            continue
        doc = map_doc(g)
        if doc is None or g.geometry.numbering is None:
            continue
        name = "-".join(slug(x) or "x" for x in (g.map, g.board.name, *([g.zone] if g.zone else [])))
        doc["grid"]["numbering"] = numbering_data(g.geometry.numbering)
        if g.ours:
            doc["title"] = f"{doc.get('title', '')}: {OURS if isinstance(g.geometry, HexGridGeometry) else OURS_SQUARE}"
        file, n = f"grids/{name}.yaml", 1
        while file in out:
            n += 1
            file = f"grids/{name}-{n}.yaml"
        out[file] = {"game": "imported", **doc}
    return out
