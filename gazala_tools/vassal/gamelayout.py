"""The VASSAL map layout of a game (built-in or a game folder): the same grid the module export writes.

``layout_for_game(game)`` (a built-in id or a game folder) gives a :class:`~gazala_tools.hexgrid.MapLayout`
whose single board carries the game's HexGrid and HexGridNumbering, so ``gazala grid locate GAME X Y``
answers exactly what VASSAL will answer for our module.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

import yaml

from gazala_tools.errors import GameDataError, GazalaError
from gazala_tools.games import Game, find_game
from gazala_tools.hexgrid import Board, MapLayout
from gazala_tools.yamlnodes import compose

if TYPE_CHECKING:  # pragma: no cover
    from gazala_tools.hexgrid import HexGridGeometry
    from gazala_tools.numbering import Numbering

#: The names the module exporter gives the main map and its board.
MAIN_MAP = "Main Map"
MAIN_BOARD = "Board"

#: a track's (and the holding boxes') board: a margin round the boxes, room for the title above
TRACK_MARGIN = 20
TRACK_TOP = 56
#: the holding boxes (``module.yaml`` ``boxes``): squares of this many pixels, at most this many a row
HOLDING_BOX = 160
HOLDING_COLUMNS = 5


def box_rect(i: int, *, columns: int, box: int, margin: int = TRACK_MARGIN, top: int = TRACK_TOP) -> tuple[int, int, int, int]:
    """Box ``i`` of a track's board, boxes in rows of ``columns``: left, top, right, bottom (right
    and bottom exclusive)."""
    r, c = divmod(i, columns)
    x, y = margin + c * box, top + r * box
    return x, y, x + box, y + box


def holding_box_at(game: Game) -> Callable[[str, int, int], str | None] | None:
    """Which of the game folder's holding boxes (``module.yaml`` ``boxes: {map, names}``) a point of
    their map lies in, as the module built from the folder lays them out (None: no holding boxes).
    A save read without ``--module`` names the box of a unit in one so, as the module's zones would.
    The build validates the configuration; a file it would refuse names no box here."""
    got = _holding_boxes(game)
    if got is None:
        return None
    map_name, names = got
    columns = min(HOLDING_COLUMNS, len(names))
    rects = [(box_rect(i, columns=columns, box=HOLDING_BOX), n) for i, n in enumerate(names)]

    def at(on_map: str, x: int, y: int) -> str | None:
        if on_map != map_name:
            return None
        return next((n for (x0, y0, x1, y1), n in rects if x0 <= x < x1 and y0 <= y < y1), None)

    return at


def _holding_boxes(game: Game) -> tuple[str, tuple[str, ...]] | None:
    """``module.yaml``'s holding-boxes map and box names, or None."""
    file = game.module_config
    if file is None or not file.is_file():
        return None
    try:
        root = compose(file, "module config", GameDataError)
    except GameDataError:
        return None
    boxes = _value(root, "boxes")
    where, names = _value(boxes, "map"), _value(boxes, "names")
    if not isinstance(where, yaml.ScalarNode) or not isinstance(names, yaml.SequenceNode):
        return None
    got = tuple(str(n.value).strip() for n in names.value if isinstance(n, yaml.ScalarNode))
    return (str(where.value).strip(), got) if got else None


def _value(node: yaml.Node | None, key: str) -> yaml.Node | None:
    if not isinstance(node, yaml.MappingNode):
        return None
    return next((v for k, v in node.value if isinstance(k, yaml.ScalarNode) and k.value == key), None)


def layout_for_game(game: str | Game) -> MapLayout:
    try:
        from gazala_tools.mapdata import load_map
    except ImportError as exc:  # pragma: no cover - the map-data package is part of the install
        raise GazalaError(f"map data support is not installed ({exc})") from None
    m = load_map(game)
    pix = m.pixels
    geom = pix.geometry(m.grid.orientation, m.grid.numbering)
    size = (pix.board_width, pix.board_height)
    g = game if isinstance(game, Game) else find_game(game)
    if _board_is_drawn(g):  # the module's board is rendered: its size follows the grid (render/board.py)
        from gazala_tools.render.board import board_size

        drawn = board_size(m, title=g.name)
        geom = replace(geom, numbering=numbering_for_size(m.grid.numbering, geom, size, drawn))
        size = drawn
    board = Board(MAIN_BOARD, size[0], size[1], geom)
    return MapLayout(MAIN_MAP, pix.edge_width, pix.edge_height, ((board, 0, 0),), (board,))


def _board_is_drawn(game: Game) -> bool:
    """Whether the game's module draws its board (no ``board:`` image in its ``module.yaml``)."""
    if game.module_config is None:
        return True
    from gazala_tools.vassal.module.config import read_config

    return read_config(game.module_config, game).board_art is None


def numbering_for_size(numbering: Numbering, geometry: HexGridGeometry, measured: tuple[int, int],
                       drawn: tuple[int, int]) -> Numbering:
    """The numbering that names every hex on a ``drawn``-sized board as ``numbering`` names it on the
    ``measured`` one: VASSAL's descending numbering counts from the board's size (``max_rows``,
    ``max_columns``), so a board of another size needs other offsets; others are returned as they are."""
    if not (numbering.v_descend or numbering.h_descend) or measured == drawn:
        return numbering

    def numbers(size: tuple[int, int]) -> tuple[int, int]:
        return numbering.column_row(0, 0, sideways=geometry.sideways, max_rows=geometry.max_rows(size[1]),
                                    max_columns=geometry.max_columns(size[0]))

    (c0, r0), (c1, r1) = numbers(measured), numbers(drawn)
    return replace(numbering, h_off=numbering.h_off + c0 - c1, v_off=numbering.v_off + r0 - r1)
