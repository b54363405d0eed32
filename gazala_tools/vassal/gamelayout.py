"""The VASSAL map layout of a game (built-in or a game folder): the same grid the module export writes.

``layout_for_game(game)`` (a built-in id or a game folder) gives a :class:`~gazala_tools.hexgrid.MapLayout`
whose single board carries the game's HexGrid and HexGridNumbering, so ``gazala grid locate GAME X Y``
answers exactly what VASSAL will answer for our module.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from gazala_tools.errors import GazalaError
from gazala_tools.games import Game, find_game
from gazala_tools.games.moduleyaml import given_board
from gazala_tools.hexgrid import Board, MapLayout

if TYPE_CHECKING:  # pragma: no cover
    from gazala_tools.hexgrid import HexGridGeometry
    from gazala_tools.numbering import Numbering

__all__ = ["MAIN_BOARD", "MAIN_MAP", "layout_for_game", "numbering_for_size"]

#: The names the module exporter gives the main map and its board.
MAIN_MAP = "Main Map"
MAIN_BOARD = "Board"

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
    if given_board(g) is None:  # the module's board is rendered: its size follows the grid (render/board.py)
        from gazala_tools.render.board import board_size

        drawn = board_size(m, title=g.name)
        geom = replace(geom, numbering=numbering_for_size(m.grid.numbering, geom, size, drawn))
        size = drawn
    board = Board(MAIN_BOARD, size[0], size[1], geom)
    return MapLayout(MAIN_MAP, pix.edge_width, pix.edge_height, ((board, 0, 0),), (board,))


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
