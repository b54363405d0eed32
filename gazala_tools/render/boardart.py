"""The art of a referee report (issue 23 item 1): the game's own board and counter faces, once per report.

* The board: the module's given image (a scan: ``module.yaml``'s ``board: art``) read as a reduced
  copy at the report's resolution (a JPEG decoded at 1/2 .. 1/8 by libjpeg's draft mode, any other
  format decoded within the board pixel cap and shrunk with :meth:`PIL.Image.Image.reduce`), or the
  board :func:`~gazala_tools.render.board.render_board` draws from the map data (a built-in game).
  Either way the image lies on :func:`~gazala_tools.render.board.board_geometry` at the report's dpi.
* The resolution: the ``--dpi`` asked, lowered so that the whole board holds at most
  :data:`MAX_REPORT_PIXELS` (a 250 Mpx scan is never shown, or held, at full size).
* The faces: each unit's counter as the module shows it (the user's art from ``counters.yaml``,
  else the face :func:`~gazala_tools.render.counters.counter_face` draws), scaled to the hex.

A reduced scan is kept per process (``referee watch`` re-checks without decoding the scan again).
"""

from __future__ import annotations

import functools
import math
import os
import warnings
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Final

from PIL import Image

from gazala_tools.counters.loader import load_game_manifest
from gazala_tools.errors import GazalaError
from gazala_tools.games.moduleyaml import given_board
from gazala_tools.inputs import MAX_BOARD_BYTES, check_pixels, check_plausible, image_header_size, open_file
from gazala_tools.render.art import image_cache
from gazala_tools.render.board import board_geometry, hex_size, render_board

if TYPE_CHECKING:  # pragma: no cover
    from gazala_tools.counters.model import Counter, Manifest
    from gazala_tools.games.model import Game
    from gazala_tools.mapdata.model import GameMap
    from gazala_tools.referee.position import Unit

__all__ = [
    "COUNTER_OF_HEX",
    "DEFAULT_DPI",
    "MAX_BOARD_PIXELS",
    "MAX_REPORT_PIXELS",
    "ReportArt",
    "counter_of",
    "counters_by_unit",
    "reduced_board",
    "report_art",
    "report_dpi",
    "scan_size",
    "unit_faces",
]

#: most pixels of the whole board at the report's resolution (the dpi is lowered to fit)
MAX_REPORT_PIXELS: Final = 16_000_000
#: largest board image read (pixels), as a module build reads it (``vassal.module.games.MAX_BOARD_PIXELS``)
MAX_BOARD_PIXELS: Final = 400_000_000
#: the resolution of a board drawn from the map data when none is asked (a scan: its own)
DEFAULT_DPI: Final = 50.0
#: a counter's side on the report, as a fraction of the distance between hex centres
COUNTER_OF_HEX: Final = 0.62


@dataclass(frozen=True)
class ReportArt:
    """The board of a report at ``dpi`` (the overlay's coordinates), and its units' faces."""

    board: Image.Image  #: RGB, the whole board
    dpi: float  #: the resolution the board (and every overlay coordinate) is at
    photo: bool  #: a scan (encoded as JPEG in a page) rather than flat drawn art (PNG)
    faces: dict[str, Image.Image]  #: unit id -> its face, ``counter_px`` square
    counter_px: int


def report_dpi(game_map: GameMap, dpi: float) -> float:
    """``dpi``, lowered so that the whole board holds at most :data:`MAX_REPORT_PIXELS`."""
    native = float(game_map.pixels.dpi or 100)
    w, h = game_map.pixels.board_width * dpi / native, game_map.pixels.board_height * dpi / native
    if w * h <= MAX_REPORT_PIXELS:
        return float(dpi)
    return float(dpi) * math.sqrt(MAX_REPORT_PIXELS / (w * h))


def scan_size(game_map: GameMap, dpi: float) -> tuple[int, int]:
    """The size of the scan board shown at ``dpi`` (the grid was measured on it at the map's dpi)."""
    native = float(game_map.pixels.dpi or 100)
    return (max(1, round(game_map.pixels.board_width * dpi / native)),
            max(1, round(game_map.pixels.board_height * dpi / native)))


def report_art(game: Game | None, game_map: GameMap, units: Iterable[Unit], *, dpi: float | None) -> ReportArt:
    """The board and faces of a report (``game`` None: the board drawn from the map, no faces).
    ``dpi`` None: a scan at its own resolution, a drawn board at :data:`DEFAULT_DPI` (either lowered
    to :data:`MAX_REPORT_PIXELS`)."""
    scan = given_board(game)
    at = report_dpi(game_map, dpi or (float(game_map.pixels.dpi or 100) if scan is not None else DEFAULT_DPI))
    px = max(8, round(hex_size(board_geometry(game_map, dpi=at)) * COUNTER_OF_HEX))
    if scan is not None:
        board = reduced_board(scan, (game_map.pixels.board_width, game_map.pixels.board_height),
                              scan_size(game_map, at))
    else:  # the module's board, hex numbers where the counters leave them visible; the places are the
        # report's findings' business (and a name Pillow's layout engine cannot shape must not stop a report)
        board = render_board(game_map, dpi=at, counter_px=px, show_places=False).convert("RGB")
    faces = unit_faces(load_game_manifest(game) if game is not None else None, units, px)
    return ReportArt(board, at, scan is not None, faces, px)


# --- the scan, reduced --------------------------------------------------------------------------
def reduced_board(path: Path, expected: tuple[int, int], size: tuple[int, int]) -> Image.Image:
    """The board image at ``path`` as RGB of ``size`` pixels; checked (a regular file, its size from
    the header against the pixel cap and ``expected``, the grid's board size) before a pixel is decoded."""
    try:
        st = os.stat(path)
    except OSError as exc:
        raise GazalaError(f"cannot read the board image ({exc.strerror})", file=path) from None
    return _reduced(str(path), st.st_mtime_ns, st.st_size, expected, size).copy()


@functools.lru_cache(maxsize=4)
def _reduced(path: str, mtime_ns: int, file_bytes: int, expected: tuple[int, int],
             size: tuple[int, int]) -> Image.Image:
    what = "board image"
    with open_file(path, what=what, cap=MAX_BOARD_BYTES) as fh:
        header = image_header_size(fh.read(262144))
        if header is None:
            raise GazalaError(f"{what} is not a PNG, JPEG or GIF image", file=path, expected="a PNG, JPEG or GIF image")
        check_pixels(header, file=path, what=what, max_pixels=MAX_BOARD_PIXELS)
        if header != expected:
            raise GazalaError(f"{what} is {header[0]} x {header[1]} pixels, but map.yaml's grid.pixels says "
                              f"{expected[0]} x {expected[1]}", file=path, expected="the image the grid was measured on")
        fh.seek(0)
        old = Image.MAX_IMAGE_PIXELS
        try:
            Image.MAX_IMAGE_PIXELS = None  # checked above, with the board cap
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", Image.DecompressionBombWarning)
                img = Image.open(fh)
                check_plausible(img.format, img.size, file_bytes, file=path, what=what)
                if img.format == "JPEG":  # libjpeg decodes at 1/2, 1/4 or 1/8 straight away
                    img.draft("RGB", size)
                img.load()
        except GazalaError:
            raise
        except (OSError, ValueError, SyntaxError, EOFError, MemoryError, Image.DecompressionBombError) as exc:
            raise GazalaError(f"{what} cannot be read ({type(exc).__name__}: {' '.join(str(exc).split())[:120]})",
                              file=path, expected="a PNG, JPEG or GIF image") from None
        finally:
            Image.MAX_IMAGE_PIXELS = old
    out: Image.Image = img if img.mode == "RGB" else img.convert("RGB")
    factor = min(out.width // size[0], out.height // size[1])
    if factor >= 2:  # box-average by a whole factor first: cheap, and frees the full-size pixels
        out = out.reduce(factor)
    # a box average: a third of Lanczos' time on a scan, and as good for a picture shown smaller
    return out if out.size == size else out.resize(size, Image.Resampling.BOX if out.width > size[0]
                                                   else Image.Resampling.LANCZOS)


# --- the units' faces ---------------------------------------------------------------------------
def counters_by_unit(manifest: Manifest) -> dict[str, list[Counter]]:
    """The manifest's unit counters by unit id (a unit of several steps has one counter a step)."""
    out: dict[str, list[Counter]] = {}
    for c in manifest.units:
        out.setdefault(c.unit_id or c.id, []).append(c)
    return out


def counter_of(mine: list[Counter], unit: Unit) -> tuple[Counter, str] | None:
    """The counter (and its face) of ``mine`` (the unit's counters) that shows ``unit`` at its
    strength: its step's counter, the back of a one-counter unit that lost its step; None: no counter."""
    if not mine:
        return None
    steps = unit.steps or 1
    for c in mine:
        if c.reduced_back and unit.reduced:
            return c, "back"
        if c.counter_step == steps:
            return c, "front"
    return max(mine, key=lambda c: c.step), "front"


def unit_faces(manifest: Manifest | None, units: Iterable[Unit], px: int) -> dict[str, Image.Image]:
    """Each unit's face, ``px`` square (units without a counter in the manifest are left out)."""
    if manifest is None:
        return {}
    out: dict[str, Image.Image] = {}
    by_unit = counters_by_unit(manifest)
    for u in units:
        if u.hex is None or u.id in out:
            continue
        found = counter_of(by_unit.get(u.id, []), u)
        if found is not None:
            out[u.id] = _face(*found, px)
    return out


@image_cache(64 * 1024 * 1024)
def _face(counter: Counter, side: str, px: int) -> Image.Image:
    from gazala_tools.render.counters import counter_face

    img = counter_face(counter, side, dpi=px * 25.4 / counter.size_mm, supersample=2)
    img = img if img.mode == "RGB" else img.convert("RGB")
    return img if img.size == (px, px) else img.resize((px, px), Image.Resampling.LANCZOS)
