"""Rules tables as chart pages (the Charts window): :func:`render_table` draws a game's table
(``tables.yaml``, :class:`gazala_tools.games.tables.Table`) as a PNG page (Pillow, DejaVu fonts).

The tables themselves are game data: each game folder's ``tables.yaml`` holds them cell by cell,
and ``tests/vassal/module/test_charts.py`` checks every cell of ours against the rules texts.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from PIL import Image, ImageDraw, ImageFont

from gazala_tools.escape import drawable
from gazala_tools.games.tables import Table

__all__ = ["Table", "render_table"]


# --- rendering --------------------------------------------------------------------------------
@functools.lru_cache(maxsize=32)
def _font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    try:
        return ImageFont.truetype("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf", size)
    except OSError:
        return ImageFont.load_default()


def render_table(table: Table, *, size: int = 14) -> Image.Image:
    """The table as a white page: title, grid of cells (header rows shaded), notes and source."""
    pad, cell_pad, line = 16, 6, size + 8
    body, bold, title_font = _font(size), _font(size, True), _font(size + 6, True)
    probe = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    # every text drawn as one line Pillow can lay out (a CR or U+2029 in tables.yaml must not stop a build)
    rows: Sequence[tuple[str, ...]] = tuple(tuple(map(drawable, r)) for r in (*table.header, *table.rows))
    ncols = max(len(r) for r in rows)
    widths = [0] * ncols
    for i, r in enumerate(rows):
        for j, cell in enumerate(r):
            f = bold if (i < len(table.header) or j == 0) else body
            widths[j] = max(widths[j], int(probe.textlength(cell, font=f)) + 2 * cell_pad)
    grid_w = sum(widths)
    notes = tuple(map(drawable, (*table.notes, f"Source: {table.source}")))
    title = drawable(table.title)
    text_w = max([int(probe.textlength(n, font=body)) for n in notes] + [int(probe.textlength(title, font=title_font))])
    width = 2 * pad + max(grid_w, text_w)
    height = pad + line + 12 + line * len(rows) + 12 + line * len(notes) + pad
    img = Image.new("RGB", (width, height), (255, 255, 255))
    draw = ImageDraw.Draw(img)
    draw.text((pad, pad), title, font=title_font, fill=(0, 0, 0))
    y = pad + line + 12
    for i, r in enumerate(rows):
        x = pad
        if i < len(table.header):
            draw.rectangle((pad, y, pad + grid_w, y + line), fill=(225, 225, 215))
        for j in range(ncols):
            cell = r[j] if j < len(r) else ""
            f = bold if (i < len(table.header) or j == 0) else body
            draw.rectangle((x, y, x + widths[j], y + line), outline=(90, 90, 90))
            draw.text((x + cell_pad, y + 3), cell, font=f, fill=(0, 0, 0))
            x += widths[j]
        y += line
    y += 12
    for n in notes:
        draw.text((pad, y), n, font=body, fill=(40, 40, 40))
        y += line
    return img
