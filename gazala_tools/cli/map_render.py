"""``gazala map render GAME -o board.png [--dpi N]``: the verb the ``map`` noun mounts.

The ``map`` noun (gazala_tools/cli/map.py) calls :func:`register_render` with its sub-parsers; the
drawing itself is ``render/board.py``. (This verb lived in ``render/``, which made render import the
CLI: a package cycle, issue 22 item 3.)
"""

from __future__ import annotations

import argparse
import io
import json
import logging
import time

from gazala_tools.cli import _common
from gazala_tools.cli._common import game_help
from gazala_tools.errors import GazalaError
from gazala_tools.fileio import atomic_write_bytes

__all__ = [
    "log",
    "register_render",
    "run_render",
]

log = logging.getLogger(__name__)


def register_render(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> argparse.ArgumentParser:
    """Add the ``render`` verb to a noun's sub-parsers."""
    p = subparsers.add_parser(
        "render",
        help="draw the board as a PNG on the VASSAL grid (terrain, hexsides, roads, numbers, places)",
        description="Draw a game's board. Pixel geometry is the map's VASSAL HexGrid, so a piece at a hex "
        "centre in VASSAL sits in that hex on the image. --dpi rescales the board and its grid together; the "
        "grid of the image is written into the PNG (text chunk vassal-hexgrid) and printed with --json.",
    )
    p.add_argument("game", help=game_help(", or a map directory/YAML"))
    p.add_argument("-o", "--output", required=True, help="output PNG")
    p.add_argument("--dpi", type=_common.DPI, default=None, help="resolution (default: the map's native dpi)")
    p.add_argument("--no-numbers", action="store_true", help="leave out the hex numbers")
    p.add_argument("--no-places", action="store_true", help="leave out place names")
    p.add_argument(
        "--turn-track",
        action="store_true",
        help="draw the game's turn record track below the grid",
    )
    p.add_argument("--json", action="store_true", help="print the output's size and VASSAL grid as JSON")
    p.set_defaults(func=run_render)
    return p


def run_render(args: argparse.Namespace) -> int:
    from gazala_tools.games import find_game
    from gazala_tools.mapdata import load_map
    from gazala_tools.render.board import board_geometry, png_info, render_board

    if args.dpi is not None and not (1 <= args.dpi <= 1200):
        raise GazalaError(f"--dpi {args.dpi:g} is out of range", place="--dpi", expected="1 to 1200")
    game_map = load_map(args.game)
    try:  # the title is the game's name (game.yaml); a stand-alone map has its own title
        title: str | None = find_game(args.game).name
    except GazalaError:
        title = None
    t = time.perf_counter()
    img = render_board(
        game_map,
        dpi=args.dpi,
        show_numbers=not args.no_numbers,
        show_places=not args.no_places,
        turn_track=find_game(args.game).turns if args.turn_track else (),
        title=title,
    )
    geo = board_geometry(game_map, dpi=args.dpi)
    dpi = args.dpi or game_map.pixels.dpi
    buf = io.BytesIO()
    img.save(buf, "PNG", pnginfo=png_info(geo, dpi=dpi), dpi=(dpi, dpi), optimize=False)
    atomic_write_bytes(args.output, buf.getvalue())
    log.info("rendered %s in %.2f s", args.output, time.perf_counter() - t)
    if args.json:
        print(
            json.dumps(
                {"output": str(args.output), "width": img.width, "height": img.height, "dpi": dpi, "grid": geo.vassal_attrs()}
            )
        )
    else:
        print(f"{args.output}: {img.width}x{img.height} px at {dpi:g} dpi; grid dx={geo.dx:.4f} dy={geo.dy:.4f} "
              f"x0={geo.x0} y0={geo.y0}")
    return 0
