"""The VASSAL map layout of a game (built-in or a game folder): the same grid the module export writes.

``layout_for_game(game)`` (a built-in id or a game folder) gives a :class:`~gazala_tools.hexgrid.MapLayout`
whose single board carries the game's HexGrid and HexGridNumbering, so ``gazala grid locate GAME X Y``
answers exactly what VASSAL will answer for our module.
"""

from __future__ import annotations

from gazala_tools.errors import GazalaError
from gazala_tools.games import Game
from gazala_tools.hexgrid import Board, MapLayout

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
    board = Board(MAIN_BOARD, pix.board_width, pix.board_height, geom)
    return MapLayout(MAIN_MAP, pix.edge_width, pix.edge_height, ((board, 0, 0),), (board,))
