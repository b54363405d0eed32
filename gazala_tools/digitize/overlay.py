"""Draw a fitted grid, its labels and classified terrain over a scan, to check by eye.

:func:`draw_overlay` leaves the scan as it is (it draws on a copy), or with ``in_place=True`` draws
on the image it is given, so a 250 Mpx scan needs no second full-size image: the command line
opens the scan, fades it strip by strip (:func:`fade`) and draws on it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from PIL import Image, ImageDraw

from gazala_tools.digitize.image import STRIP_ROWS
from gazala_tools.hexes import Hex
from gazala_tools.hexgrid import HexGridGeometry
from gazala_tools.render.board import font, hex_polygon, hex_size, terrain_colour

__all__ = ["FADE", "draw_overlay", "fade"]

#: how far the scan is faded to white under the overlay
FADE = 0.35


def fade(img: Image.Image, alpha: float = FADE, rows: int = STRIP_ROWS) -> None:
    """Blend ``img`` (RGB) towards white by ``alpha`` in place, ``rows`` at a time: the pixels of
    ``Image.blend(img, white, alpha)`` without a second full-size image (or a white one)."""
    for top in range(0, img.height, rows):
        box = (0, top, img.width, min(img.height, top + rows))
        part = img.crop(box)
        img.paste(Image.blend(part, Image.new("RGB", part.size, (255, 255, 255)), alpha), box)


def draw_overlay(
    scan: Image.Image,
    geometry: HexGridGeometry,
    hexes: Sequence[Hex],
    labels: Mapping[Hex, str],
    terrain: Mapping[Hex, str] | None = None,
    *,
    uncertain: frozenset[Hex] = frozenset(),
    sides: Sequence[tuple[tuple[float, float], tuple[float, float], str]] = (),
    in_place: bool = False,
) -> Image.Image:
    """The scan, faded, with hex outlines (red), labels, a terrain swatch and name per hex.

    Uncertain hexes get a thick magenta outline. ``sides`` are (a, b, kind) segments to mark.
    The scan is not changed, unless ``in_place``: then it is ``scan`` itself (RGB, owned by the
    caller) that is faded, drawn on and returned, and no second full-size image is made.
    """
    if in_place and scan.mode != "RGB":
        raise ValueError(f"an overlay in place needs an RGB scan, not {scan.mode}")
    base = scan if in_place else scan.convert("RGB") if scan.mode != "RGB" else scan.copy()
    fade(base)
    draw = ImageDraw.Draw(base, "RGBA")
    size = hex_size(geometry)
    fnt = font(max(6, round(size * 0.18)))
    small = font(max(6, round(size * 0.14)))
    for h in hexes:
        poly = hex_polygon(geometry, h)
        draw.line([*poly, poly[0]], fill=(220, 0, 0, 255), width=max(1, round(size / 40)))
        cx, cy = geometry.hex_center(h)
        r = max(1, round(size / 30))
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(220, 0, 0, 255))
        label = labels.get(h, "")
        if label:
            draw.text((cx, cy - size * 0.2), label, font=fnt, fill=(150, 0, 0, 255), anchor="mm")
        if terrain is not None and h in terrain:
            t = terrain[h]
            s = size * 0.1
            draw.rectangle((cx - s, cy + size * 0.08, cx + s, cy + size * 0.08 + 2 * s), fill=(*terrain_colour(t), 255), outline=(0, 0, 0, 255))
            draw.text((cx, cy + size * 0.36), t, font=small, fill=(0, 0, 0, 255), anchor="mm")
        if h in uncertain:
            draw.line([*poly, poly[0]], fill=(230, 0, 230, 255), width=max(2, round(size / 12)))
    for a, b, _kind in sides:
        draw.line([a, b], fill=(0, 120, 255, 200), width=max(2, round(size / 15)))
    return base
