"""Hex grids without numbering get the toolkit's labels (issue 35 item 2).

Many real modules draw a hex grid and never number it (no ``HexGridNumbering``): VASSAL then names no
hex, every location is the board's or a zone's name. ``game import`` still writes ``map.yaml`` for the
first board with a hex grid: the labels are **ours** (VASSAL's default numbering, columns then rows,
``0101`` at the top-left hex that lies whole on the board, as ``game new`` names a scan without
``--ref``), stated so in ``map.yaml``, ``game.yaml`` and ``import-report.yaml``. The geometry is the
module's, so every hex centre VASSAL reports maps to one label and back; the referee finds a piece's
hex from its pixel point (:func:`label_at`), never from a VASSAL name.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from gazala_tools.games.writing import numbering_data, slug
from gazala_tools.hexgrid import Board, HexGridGeometry, MapLayout, ZonedGrid
from gazala_tools.referee.imported import toolkit_numbering
from gazala_tools.vassal.importer.reader import ImportedModule, Placement

__all__ = [
    "OURS",
    "GridFound",
    "box_names",
    "first_unnumbered",
    "hex_grids",
    "is_main",
    "label_at",
    "other_grid_docs",
    "relabel",
    "zone_of",
]

#: what map.yaml, game.yaml and the import report say of labels that are ours
OURS = ("the module's hex grid has no numbering: these labels are the toolkit's (0101 at the top-left whole "
        "hex, columns then rows), not VASSAL's; VASSAL names no hex of this grid")


@dataclass(frozen=True)
class GridFound:
    map: str
    board: Board
    geometry: HexGridGeometry  #: with a numbering: the module's, or ours
    size: tuple[int, int]  #: what the numbering is sized by: the board, or the zone's bounds
    zone: str | None  #: the zone holding the grid, if any
    ours: bool  #: the labels are the toolkit's (the module's grid has no numbering)


def hex_grids(mod: ImportedModule) -> list[GridFound]:
    """Every hex grid of the module's boards (maps in order, each board, each zone), numbered or not;
    a grid without numbering gets ours (:func:`toolkit_numbering`)."""
    out: list[GridFound] = []
    for lay in mod.layouts:
        for board in lay.all_boards:
            if board.width is None or board.height is None:
                continue
            grid = board.grid
            found: list[tuple[HexGridGeometry, tuple[int, int], str | None]] = []
            if isinstance(grid, HexGridGeometry):
                found.append((grid, (board.width, board.height), None))
            elif isinstance(grid, ZonedGrid):
                for zone in grid.zones:
                    if isinstance(zone.grid, HexGridGeometry):
                        found.append((zone.grid, zone.bounds_size(), zone.name))
                if isinstance(grid.background, HexGridGeometry):
                    found.append((grid.background, (board.width, board.height), None))
            for geo, size, zone_name in found:
                if geo.numbering is not None:
                    out.append(GridFound(lay.name, board, geo, size, zone_name, False))
                else:
                    num = toolkit_numbering(geo, (board.width, board.height))
                    out.append(GridFound(lay.name, board, replace(geo, numbering=num), size, zone_name, True))
    return out


def first_unnumbered(mod: ImportedModule) -> GridFound | None:
    """The first hex grid of the module, labelled by us, when no board has a numbered one."""
    grids = hex_grids(mod)
    if any(not g.ours for g in grids):
        return None
    return grids[0] if grids else None


def label_at(geo: HexGridGeometry, x: float, y: float, size: tuple[int, int]) -> str:
    """The label of the hex VASSAL's naming puts board point ``(x, y)`` in, by ``geo``'s numbering."""
    assert geo.numbering is not None
    c, r = geo.name_raw_at(x, y)
    return geo.numbering.name(c, r, sideways=geo.sideways, max_rows=geo.max_rows(size[1]),
                              max_columns=geo.max_columns(size[0]))


def relabel(mod: ImportedModule, found: GridFound) -> list[Placement]:
    """The module's set-up placements, each on ``found``'s board (and zone) given the label of our
    numbering as its location (VASSAL gave it none): the scenarios then place those pieces on hexes."""
    lay: MapLayout | None = next((m for m in mod.layouts if m.name == found.map), None)
    if lay is None:
        return mod.placements
    try:
        bx, by = lay.board_origin(found.board.name)
    except KeyError:
        return mod.placements
    out: list[Placement] = []
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


def zone_of(board: Board, geometry: HexGridGeometry) -> str | None:
    """The zone of ``board`` whose grid is ``geometry`` (None: the board's own grid)."""
    grid = board.grid
    if isinstance(grid, ZonedGrid):
        for zone in grid.zones:
            if zone.grid is geometry or (isinstance(zone.grid, HexGridGeometry)
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
    for g in hex_grids(mod):
        if is_main(g, main):
            continue
        doc = map_doc(g)
        if doc is None or g.geometry.numbering is None:
            continue
        name = "-".join(slug(x) or "x" for x in (g.map, g.board.name, *([g.zone] if g.zone else [])))
        doc["grid"]["numbering"] = numbering_data(g.geometry.numbering)
        if g.ours:
            doc["title"] = f"{doc.get('title', '')}: {OURS}"
        file, n = f"grids/{name}.yaml", 1
        while file in out:
            n += 1
            file = f"grids/{name}-{n}.yaml"
        out[file] = {"game": "imported", **doc}
    return out
