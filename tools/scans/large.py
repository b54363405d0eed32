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
from gazala_tools.numbering import SCHEMES
from gazala_tools.render.board import BoardScene, draw_scene, exact_center, grid_bounds
from gazala_tools.vassal.grid import HexGridGeometry
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
    columns = max(1, math.floor((width - x0 - dx) / dx))
    rows = max(1, math.floor((height - y0 - dy) / dy))
    hexes = [raw_to_hex(c, r, geo.orientation) for c in range(columns) for r in range(rows)]
    weights = [4.0] + [1.0] * (len(DEFAULT_KINDS) - 1)
    terrain: dict[Hex, str] = {}
    for h in hexes:  # clumps, as synthetic_board draws them
        prev = [terrain[n] for n in h.neighbours() if n in terrain]
        terrain[h] = rng.choice(prev) if prev and rng.random() < 0.5 else rng.choices(list(DEFAULT_KINDS), weights)[0]
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


def centre_error(geo: HexGridGeometry, cx: float, cy: float) -> float:
    """Distance from (cx, cy) to the nearest centre of the grid ``geo`` (extended past the board)."""
    c0, r0 = round((cx - geo.x0) / geo.dx), round((cy - geo.y0) / geo.dy)
    return min(math.hypot(x - cx, y - cy) for c in range(c0 - 2, c0 + 3) for r in range(r0 - 2, r0 + 3)
               for x, y in [exact_center(geo, raw_to_hex(c, r, geo.orientation))])
