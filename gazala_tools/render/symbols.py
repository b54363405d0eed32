"""NATO/APP-6 style land-unit symbols and size marks, drawn as vectors with Pillow.

Every function draws into a box given in pixels, so the same code serves a 5/8 in counter at 150 dpi
and a contact sheet at 600 dpi. Shapes follow APP-6 (friendly land unit frame, a rectangle 3:2):

==================== =============================================================
armor                an oval (track outline) inside the frame
infantry             the two diagonals (X)
motorized-infantry   X and a vertical line (APP-6 "motorized")
mechanized-infantry  X and an oval
anti-tank            an inverted V from the bottom corners to the top centre
recon                one diagonal, bottom left to top right (cavalry)
armored-recon        the diagonal and an oval
artillery            a filled disc in the centre
engineer             the "E" bridge shape (a rotated E / П with a centre leg)
hq                   a staff from the lower left corner of the frame
==================== =============================================================

Size marks above the frame: II (battalion), III (regiment), X (brigade), XX (division), ...
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from PIL import ImageDraw

__all__ = [
    "SYMBOLS",
    "SYMBOL_TYPES",
    "Box",
    "Ink",
    "draw_size_mark",
    "draw_unit_symbol",
]

Box = tuple[float, float, float, float]
Ink = tuple[int, int, int] | str


def _x(d: ImageDraw.ImageDraw, b: Box, w: int, ink: Ink) -> None:
    x0, y0, x1, y1 = b
    d.line([(x0, y0), (x1, y1)], fill=ink, width=w)
    d.line([(x0, y1), (x1, y0)], fill=ink, width=w)


def _oval(d: ImageDraw.ImageDraw, b: Box, w: int, ink: Ink) -> None:
    x0, y0, x1, y1 = b
    bw, bh = x1 - x0, y1 - y0
    r = bh * 0.22
    d.rounded_rectangle(
        [x0 + bw * 0.2, y0 + bh * 0.28, x1 - bw * 0.2, y1 - bh * 0.28], radius=r, outline=ink, width=w
    )


def _diagonal(d: ImageDraw.ImageDraw, b: Box, w: int, ink: Ink) -> None:
    x0, y0, x1, y1 = b
    d.line([(x0, y1), (x1, y0)], fill=ink, width=w)


def _armor(d: ImageDraw.ImageDraw, b: Box, w: int, ink: Ink) -> None:
    _oval(d, b, w, ink)


def _infantry(d: ImageDraw.ImageDraw, b: Box, w: int, ink: Ink) -> None:
    _x(d, b, w, ink)


def _motorized(d: ImageDraw.ImageDraw, b: Box, w: int, ink: Ink) -> None:
    x0, y0, x1, y1 = b
    _x(d, b, w, ink)
    cx = (x0 + x1) / 2
    d.line([(cx, y0), (cx, y1)], fill=ink, width=w)


def _mechanized(d: ImageDraw.ImageDraw, b: Box, w: int, ink: Ink) -> None:
    _x(d, b, w, ink)
    _oval(d, b, w, ink)


def _anti_tank(d: ImageDraw.ImageDraw, b: Box, w: int, ink: Ink) -> None:
    x0, y0, x1, y1 = b
    d.line([(x0, y1), ((x0 + x1) / 2, y0), (x1, y1)], fill=ink, width=w, joint="curve")


def _recon(d: ImageDraw.ImageDraw, b: Box, w: int, ink: Ink) -> None:
    _diagonal(d, b, w, ink)


def _armored_recon(d: ImageDraw.ImageDraw, b: Box, w: int, ink: Ink) -> None:
    _diagonal(d, b, w, ink)
    _oval(d, b, w, ink)


def _artillery(d: ImageDraw.ImageDraw, b: Box, w: int, ink: Ink) -> None:
    x0, y0, x1, y1 = b
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    r = (y1 - y0) * 0.17
    d.ellipse([cx - r, cy - r, cx + r, cy + r], fill=ink)


def _engineer(d: ImageDraw.ImageDraw, b: Box, w: int, ink: Ink) -> None:
    x0, y0, x1, y1 = b
    bw, bh = x1 - x0, y1 - y0
    lx, rx = x0 + bw * 0.25, x1 - bw * 0.25
    ty, by = y0 + bh * 0.33, y1 - bh * 0.3
    d.line([(lx, by), (lx, ty), (rx, ty), (rx, by)], fill=ink, width=w)
    d.line([((lx + rx) / 2, ty), ((lx + rx) / 2, by)], fill=ink, width=w)


def _hq(d: ImageDraw.ImageDraw, b: Box, w: int, ink: Ink) -> None:
    x0, y0, _x1, y1 = b
    d.line([(x0, y1), (x0, y1 + (y1 - y0) * 0.5)], fill=ink, width=w)


SYMBOLS: Final[dict[str, Callable[[ImageDraw.ImageDraw, Box, int, Ink], None]]] = {
    "armor": _armor,
    "infantry": _infantry,
    "motorized-infantry": _motorized,
    "mechanized-infantry": _mechanized,
    "anti-tank": _anti_tank,
    "recon": _recon,
    "armored-recon": _armored_recon,
    "artillery": _artillery,
    "engineer": _engineer,
    "hq": _hq,
}


#: Every unit type there is a symbol for (the manifest's ``UNIT_TYPES``).
SYMBOL_TYPES: Final = tuple(SYMBOLS)


def draw_unit_symbol(
    draw: ImageDraw.ImageDraw,
    box: Box,
    unit_type: str,
    *,
    width: int,
    ink: Ink = "black",
    fill: Ink = "white",
) -> None:
    """The frame and the symbol of ``unit_type`` in ``box`` (x0, y0, x1, y1), lines ``width`` px."""
    try:
        fn = SYMBOLS[unit_type]
    except KeyError:
        raise ValueError(
            f"no symbol for unit type {unit_type!r} (known: {', '.join(SYMBOL_TYPES)})"
        ) from None
    x0, y0, x1, y1 = box
    draw.rectangle(box, fill=fill)
    half = width / 2
    fn(draw, (x0 + half, y0 + half, x1 - half, y1 - half), width, ink)
    draw.rectangle(box, outline=ink, width=width)


def draw_size_mark(
    draw: ImageDraw.ImageDraw,
    centre_x: float,
    bottom: float,
    height: float,
    size: str,
    *,
    width: int,
    ink: Ink = "black",
) -> None:
    """A unit size mark (``I``, ``II``, ``III``, ``X``, ``XX``, ``XXX``) centred above ``bottom``."""
    h = height
    top = bottom - h
    glyphs = list(size)  # "II" -> bars, "XX" -> crosses
    gap = h * 0.35
    widths = [h * 0.16 if g == "I" else h * 0.8 for g in glyphs]
    total = sum(widths) + gap * (len(glyphs) - 1)
    x = centre_x - total / 2
    for g, gw in zip(glyphs, widths, strict=True):
        if g == "I":
            draw.line([(x + gw / 2, top), (x + gw / 2, bottom)], fill=ink, width=width)
        else:
            draw.line([(x, top), (x + gw, bottom)], fill=ink, width=width)
            draw.line([(x, bottom), (x + gw, top)], fill=ink, width=width)
        x += gw + gap
