"""Draw a fitted grid, its labels and classified terrain over a scan, to check by eye."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from PIL import Image, ImageDraw

from gazala_tools.hexes import Hex
from gazala_tools.render.board import font, hex_polygon, hex_size, terrain_colour
from gazala_tools.vassal.grid import HexGridGeometry


def draw_overlay(
    scan: Image.Image,
    geometry: HexGridGeometry,
    hexes: Sequence[Hex],
    labels: Mapping[Hex, str],
    terrain: Mapping[Hex, str] | None = None,
    *,
    uncertain: frozenset[Hex] = frozenset(),
    sides: Sequence[tuple[tuple[float, float], tuple[float, float], str]] = (),
) -> Image.Image:
    """The scan, faded, with hex outlines (red), labels, a terrain swatch and name per hex.

    Uncertain hexes get a thick magenta outline. ``sides`` are (a, b, kind) segments to mark.
    """
    base = scan.convert("RGB")
    veil = Image.new("RGB", base.size, (255, 255, 255))
    out = Image.blend(base, veil, 0.35)
    draw = ImageDraw.Draw(out, "RGBA")
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
    return out
