"""Very large synthetic scans (up to the 250 Mpx cap), drawn in horizontal strips.

:func:`~tools.scans.synthetic.synthetic_board` draws the whole board in one Pillow image with one
Python call per hex and keeps the scene; at 250 Mpx that is slow and holds several full-size
copies. :func:`large_board` draws the same kind of board (terrain fills, hex edges, textures, hex
numbers, :func:`~gazala_tools.render.board.draw_scene`) one strip of rows at a time, each strip a
scene of the hexes that touch it with the grid's origin moved up by the strip's top (whole pixels:
the strip's pixels are the whole drawing's), and writes the strips into one array, saved as PNG
and/or JPEG. The truth is the returned geometry.
"""

from __future__ import annotations

import math
import random
from pathlib import Path

import numpy as np
from PIL import Image

from gazala_tools.grid import raw_to_hex
from gazala_tools.hexes import Hex
from gazala_tools.hexgrid import HexGridGeometry
from gazala_tools.numbering import SCHEMES
from gazala_tools.render.board import BoardScene, draw_scene, exact_center, grid_bounds
from tools.scans.synthetic import DEFAULT_KINDS

#: a 300 dpi scan of a board with 0.4 inch hexes: 120 px high
SCAN_DX, SCAN_DY = 104.0, 120.0


def large_board(
    width: int,
    height: int,
    *,
    png: Path | None = None,
    jpeg: Path | None = None,
    dx: float = SCAN_DX,
    dy: float = SCAN_DY,
    x0: int = 70,
    y0: int = 80,
    seed: int = 0,
    strip: int = 1200,
    jpeg_quality: int = 90,
) -> HexGridGeometry:
    """Draw a ``width`` x ``height`` flat-grid board (as many whole hexes as fit), save it to
    ``png`` (fast deflate) and/or ``jpeg``, and return its grid. ``dy`` must be a whole number
    of pixels (the strips move the origin by whole pixels)."""
    if dy != round(dy):
        raise ValueError("dy must be a whole number of pixels")
    rng = random.Random(seed)
    numbering = SCHEMES["vassal-default"]
    geo = HexGridGeometry(dx=dx, dy=dy, x0=x0, y0=y0, sideways=False, numbering=numbering)
    columns, rows = board_size(width, height, geo)
    hexes = [raw_to_hex(c, r, geo.orientation) for c in range(columns) for r in range(rows)]
    terrain = board_terrain(hexes, rng)
    labels = {raw_to_hex(c, r, geo.orientation): numbering.name(c, r, sideways=False)
              for c in range(columns) for r in range(rows)}
    centre_y = {h: exact_center(geo, h)[1] for h in hexes}
    reach = dy  # a hex and its number reach less than this from its centre
    out = np.empty((height, width, 3), dtype=np.uint8)
    for top in range(0, height, strip):
        bottom = min(height, top + strip)
        part = tuple(h for h in hexes if top - reach <= centre_y[h] <= bottom + reach)
        moved = HexGridGeometry(dx=dx, dy=dy, x0=x0, y0=y0 - top, sideways=False, numbering=numbering)
        scene = BoardScene(geometry=moved, size=(width, bottom - top), hexes=part, labels=labels, terrain=terrain)
        out[top:bottom] = np.asarray(draw_scene(scene, show_places=False))
    assert grid_bounds(geo, hexes)[3] <= height
    img = Image.fromarray(out)
    del out
    if png is not None:
        img.save(png, compress_level=1)
    if jpeg is not None:
        img.save(jpeg, quality=jpeg_quality)
    return geo


def board_size(width: int, height: int, geo: HexGridGeometry) -> tuple[int, int]:
    """Columns and rows of the whole hexes :func:`large_board` draws on ``width`` x ``height``."""
    return (max(1, math.floor((width - geo.x0 - geo.dx) / geo.dx)), max(1, math.floor((height - geo.y0 - geo.dy) / geo.dy)))


def board_terrain(hexes: list[Hex], rng: random.Random) -> dict[Hex, str]:
    """Terrain in clumps, as synthetic_board draws them."""
    weights = [4.0] + [1.0] * (len(DEFAULT_KINDS) - 1)
    terrain: dict[Hex, str] = {}
    for h in hexes:
        prev = [terrain[n] for n in h.neighbours() if n in terrain]
        terrain[h] = rng.choice(prev) if prev and rng.random() < 0.5 else rng.choices(list(DEFAULT_KINDS), weights)[0]
    return terrain


def large_terrain(width: int, height: int, geo: HexGridGeometry, seed: int = 0) -> dict[Hex, str]:
    """The terrain :func:`large_board` draws (the truth for classify)."""
    columns, rows = board_size(width, height, geo)
    return board_terrain([raw_to_hex(c, r, geo.orientation) for c in range(columns) for r in range(rows)],
                         random.Random(seed))  # fmt: skip


def rotate_scan(src: Path, dst: Path, degrees: float, *, level: int = 1) -> None:
    """Rotate the scan ``src`` by ``degrees`` about its centre (detect-grid reports a rotation of
    about -``degrees``), as a skewed scanner would (bicubic, white outside), into the PNG ``dst``,
    one strip at a time."""
    from gazala_tools.digitize.image import affine_strips, open_image, save_png_strips

    img = open_image(src)
    th = math.radians(degrees)
    a, b, d, e = math.cos(th), -math.sin(th), math.sin(th), math.cos(th)
    cx, cy = img.width / 2, img.height / 2
    data = (a, b, cx - a * cx - b * cy, d, e, cy - d * cx - e * cy)
    save_png_strips(dst, img.size, "RGB", affine_strips(img, img.size, data, fill=(255, 255, 255)), level=level)


def centre_error(geo: HexGridGeometry, cx: float, cy: float) -> float:
    """Distance from (cx, cy) to the nearest centre of the grid ``geo`` (extended past the board)."""
    c0, r0 = round((cx - geo.x0) / geo.dx), round((cy - geo.y0) / geo.dy)
    return min(math.hypot(x - cx, y - cy) for c in range(c0 - 2, c0 + 3) for r in range(r0 - 2, r0 + 3)
               for x, y in [exact_center(geo, raw_to_hex(c, r, geo.orientation))])
