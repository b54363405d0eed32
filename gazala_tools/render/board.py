"""Board images drawn from map data, on the very grid the VASSAL module uses.

:func:`render_board` is a pure function of a map (``gazala_tools.mapdata.model``) with keyword-only
options. It works in two layers:

* :func:`scene_from_map` turns the map model into a :class:`BoardScene`: plain data (terrain per hex,
  hexside features, paths through hex centres, place names, boxes), with the grid as a
  :class:`~gazala_tools.hexgrid.HexGridGeometry`;
* :func:`draw_scene` paints a scene. The digitizer's synthetic test boards are scenes too.

Pixel geometry. Every hex polygon has its corners at ``geometry.lattice_to_pixel(X, Y)`` for the
shared integer lattice corners (:func:`gazala_tools.grid.corner_lattice`), so neighbours share
edges exactly; hex numbers, terrain symbols and road ends sit at ``geometry.hex_center(hex)``, the
point where VASSAL snaps a piece dropped in that hex. A piece at a hex centre in VASSAL therefore
sits in that hex on the image.

Resolution. A map's grid is given at its native resolution (``native_dpi``). ``dpi=N`` draws the
board at ``N / native_dpi`` times that size with the grid :func:`scaled_geometry` returns: dx and dy
scale exactly, x0 and y0 (integers in VASSAL) are rounded, and everything is drawn from that
scaled grid, so the image and the grid that goes with it agree to the pixel. The grid of an image
is stored in its PNG text chunk ``vassal-hexgrid`` (see :func:`png_info`) and in ``image.info``.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.resources
import itertools
import json
import logging
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from PIL import Image, ImageDraw, ImageFont
from PIL.PngImagePlugin import PngInfo

from gazala_tools.errors import GazalaError
from gazala_tools.escape import drawable
from gazala_tools.grid import side_lattice
from gazala_tools.hexes import Hex, Hexside
from gazala_tools.hexgrid import HexGridGeometry
from gazala_tools.inputs import MAX_IMAGE_PIXELS

if TYPE_CHECKING:  # pragma: no cover
    from gazala_tools.mapdata.model import GameMap

__all__ = [
    "DEFAULT_STYLES",
    "EDGE_COLOUR",
    "FONT_BOLD_FILES",
    "FONT_FILES",
    "PATH_WIDTHS",
    "RECONSTRUCTED",
    "RGB",
    "SIDE_WIDTHS",
    "BlockItem",
    "BoardScene",
    "LegendEntry",
    "Path",
    "Rect",
    "SceneBox",
    "ScenePlace",
    "SideFeature",
    "Styles",
    "board_geometry",
    "board_size",
    "draw_scene",
    "exact_center",
    "feature_colour",
    "font",
    "grid_bounds",
    "hex_polygon",
    "hex_size",
    "log",
    "place_labels",
    "png_info",
    "render_board",
    "scaled_geometry",
    "scene_from_map",
    "side_segment",
    "style_of",
    "terrain_colour",
    "title_block_layout",
]

log = logging.getLogger(__name__)

RGB = tuple[int, int, int]

#: Drawing styles of the kinds a map does not style itself: ``default_styles.json`` (docs/render.md),
#: in the format of map.yaml's ``style:`` keys (section -> kind -> key -> value, all strings).
DEFAULT_STYLES: Mapping[str, Mapping[str, Mapping[str, str]]] = {
    k: v for k, v in json.loads((importlib.resources.files(__package__) / "default_styles.json").read_text("utf-8")).items()
    if not k.startswith("_")
}
#: the line styles a hexside kind may take and their default widths (a fraction of the hex size)
SIDE_WIDTHS: Mapping[str, float] = {"solid": 1 / 14, "heavy": 1 / 9, "ditch": 1 / 9, "hatched": 1 / 16,
                                    "dots": 1 / 11, "rings": 1 / 11, "dashed": 1 / 18}
PATH_WIDTHS: Mapping[str, float] = {"solid": 1 / 11, "cased": 1 / 11, "dashed": 1 / 18}
EDGE_COLOUR: RGB = (120, 110, 90)

FONT_FILES = ("DejaVuSans.ttf", "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
FONT_BOLD_FILES = ("DejaVuSans-Bold.ttf", "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf")

Styles = Mapping[str, Mapping[str, Mapping[str, str]]]


def _norm(kind: str) -> str:
    return kind.lower().replace("_", "-").replace(" ", "-")


def style_of(section: str, kind: str, styles: Styles | None = None) -> dict[str, str]:
    """The drawing style of a kind: the map's ``style:`` keys (``styles``) over the defaults of
    :data:`DEFAULT_STYLES` for that kind's name."""
    out = dict(DEFAULT_STYLES.get(section, {}).get(kind) or DEFAULT_STYLES.get(section, {}).get(_norm(kind)) or {})
    out.update((styles or {}).get(section, {}).get(kind, {}))
    return out


def _rgb(text: str) -> RGB:
    return (int(text[1:3], 16), int(text[3:5], 16), int(text[5:7], 16))


def _hashed(kind: str, lo: int, span: int) -> RGB:
    digest = hashlib.sha1(kind.encode("utf-8")).digest()
    return (lo + digest[0] % span, lo + digest[1] % span, lo + digest[2] % span)


def terrain_colour(kind: str, styles: Styles | None = None) -> RGB:
    """The fill of a terrain kind (its ``style: fill``); unstyled kinds get a stable pale colour of their own."""
    fill = style_of("terrain", kind, styles).get("fill")
    return _rgb(fill) if fill else _hashed(kind, 150, 90)


def feature_colour(kind: str, styles: Styles | None = None, section: str = "hexside") -> RGB:
    """The line colour of a hexside (or ``section="path"``) kind; unstyled kinds get a stable dark colour."""
    colour = style_of(section, kind, styles).get("colour")
    return _rgb(colour) if colour else _hashed(kind, 0, 160)


# --- the scene: plain data --------------------------------------------------------------------
@dataclass(frozen=True)
class SideFeature:
    """A feature on one hexside. ``up`` is the high hex for an escarpment (hatches go down);
    ``owner``: its side (drawn in that side's colour when the style names one); ``pending``: it takes
    effect on a later turn (drawn with the style's ``pending`` line)."""

    kind: str
    up: Hex | None = None
    label: str = ""
    owner: str | None = None
    pending: bool = False


@dataclass(frozen=True)
class LegendEntry:
    """One line of the legend: a symbol drawn as ``section``'s style of ``kind`` says, and its words."""

    section: str  #: "terrain", "hexside", "path" or "marker"
    kind: str
    words: str
    owner: str | None = None
    pending: bool = False


@dataclass(frozen=True)
class Path:
    """A road/track/railway: a polyline through hex centres, in order."""

    kind: str
    hexes: tuple[Hex, ...]
    name: str = ""


@dataclass(frozen=True)
class ScenePlace:
    name: str
    hex: Hex
    kind: str = "place"  #: "town", "airfield", "supply", "place"...


@dataclass(frozen=True)
class SceneBox:
    """An off-map (or on-map) box: a rectangle with a title, in image pixels of the native grid."""

    name: str
    rect: tuple[int, int, int, int]  #: x, y, width, height
    entries: tuple[str, ...] = ()


@dataclass(frozen=True)
class BoardScene:
    """Everything :func:`draw_scene` paints, as plain data beside the hexes."""

    geometry: HexGridGeometry
    size: tuple[int, int]  #: image width, height in pixels
    hexes: tuple[Hex, ...]
    labels: Mapping[Hex, str] = field(default_factory=dict)
    terrain: Mapping[Hex, str] = field(default_factory=dict)
    hex_marks: Mapping[Hex, tuple[str, ...]] = field(default_factory=dict)  #: "fortified", "minefield", "town"...
    sides: Mapping[Hexside, tuple[SideFeature, ...]] = field(default_factory=dict)
    paths: tuple[Path, ...] = ()
    places: tuple[ScenePlace, ...] = ()
    boxes: tuple[SceneBox, ...] = ()
    title: str = ""
    background: RGB = (250, 246, 236)
    default_terrain: str = "clear"
    #: drawing styles (map.yaml ``style:`` keys; :func:`style_of`), over :data:`DEFAULT_STYLES`
    styles: Styles = field(default_factory=dict)
    owner_colours: bool = False  #: owned features drawn in their owner's colour (map ``style.owner-colours``)
    subtitle: str = ""
    legend: tuple[LegendEntry, ...] = ()
    #: where the title block (title, subtitle, legend) starts: its left, top and right edge (None: no block)
    title_block: tuple[float, float, float] | None = None


# --- geometry helpers -------------------------------------------------------------------------
def scaled_geometry(geometry: HexGridGeometry, factor: float) -> HexGridGeometry:
    """The grid of an image drawn ``factor`` times larger: dx, dy scaled, x0, y0 rounded (VASSAL ints)."""
    if factor == 1:
        return geometry
    return replace(
        geometry,
        dx=geometry.dx * factor,
        dy=geometry.dy * factor,
        x0=round(geometry.x0 * factor),
        y0=round(geometry.y0 * factor),
    )


def hex_polygon(geometry: HexGridGeometry, h: Hex) -> list[tuple[float, float]]:
    """The six corners of ``h`` in board pixels (shared exactly with its neighbours)."""
    return geometry.hex_corners(h)


def side_segment(geometry: HexGridGeometry, side: Hexside) -> tuple[tuple[float, float], tuple[float, float]]:
    a, b = side_lattice(side, geometry.orientation)
    return geometry.lattice_to_pixel(*a), geometry.lattice_to_pixel(*b)


def exact_center(geometry: HexGridGeometry, h: Hex) -> tuple[float, float]:
    """The float centre of the lattice hexagon (VASSAL's snap point is this, truncated)."""
    corners = hex_polygon(geometry, h)
    return (sum(p[0] for p in corners) / 6.0, sum(p[1] for p in corners) / 6.0)


def grid_bounds(geometry: HexGridGeometry, hexes: Iterable[Hex]) -> tuple[float, float, float, float]:
    """Bounding box (x_min, y_min, x_max, y_max) of the hexes' polygons."""
    xs: list[float] = []
    ys: list[float] = []
    for h in hexes:
        for x, y in hex_polygon(geometry, h):
            xs.append(x)
            ys.append(y)
    if not xs:
        return (0.0, 0.0, 0.0, 0.0)
    return (min(xs), min(ys), max(xs), max(ys))


def hex_size(geometry: HexGridGeometry) -> float:
    """About the distance between neighbouring hex centres (the scale of fonts and lines)."""
    return min(geometry.dy, geometry.dx * 2 / math.sqrt(3))


@functools.lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """DejaVu Sans at ``size`` px (Pillow's built-in font when DejaVu is not installed)."""
    for name in FONT_BOLD_FILES if bold else FONT_FILES:
        try:
            return ImageFont.truetype(name, max(size, 4))
        except OSError:
            continue
    log.warning("DejaVu Sans not found; using Pillow's default font (install fonts-dejavu-core)")
    return ImageFont.load_default(max(size, 4))


# --- painting ---------------------------------------------------------------------------------
def _round_pts(points: Sequence[tuple[float, float]]) -> list[tuple[float, float]]:
    """Nearest pixels (Pillow truncates float coordinates, which would shift the grid by half a pixel)."""
    return [(float(math.floor(x + 0.5)), float(math.floor(y + 0.5))) for x, y in points]


def _lerp(a: tuple[float, float], b: tuple[float, float], t: float) -> tuple[float, float]:
    return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)


def _draw_dotted(
    draw: ImageDraw.ImageDraw, a: tuple[float, float], b: tuple[float, float], colour: RGB, radius: float, n: int
) -> None:
    for i in range(n):
        x, y = _lerp(a, b, (i + 0.5) / n)
        draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=colour)


def _draw_dashed(
    draw: ImageDraw.ImageDraw, pts: Sequence[tuple[float, float]], colour: RGB, width: int, dash: float
) -> None:
    for a, b in itertools.pairwise(pts):
        length = math.dist(a, b)
        if length == 0:
            continue
        n = max(1, int(length / dash))
        for i in range(0, n, 2):
            draw.line([_lerp(a, b, i / n), _lerp(a, b, min(1.0, (i + 1) / n))], fill=colour, width=width)


def _text_centered(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    fnt: ImageFont.FreeTypeFont | ImageFont.ImageFont,
    fill: RGB,
    halo: RGB | None = None,
    halo_width: int = 0,
) -> None:
    draw.text(
        xy,
        text,
        font=fnt,
        fill=fill,
        anchor="mm",
        stroke_width=halo_width if halo is not None else 0,
        stroke_fill=halo,
    )


Rect = tuple[float, float, float, float]


def _overlap(a: Rect, b: Rect) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


def place_labels(draw: ImageDraw.ImageDraw, scene: BoardScene, fnt: ImageFont.FreeTypeFont | ImageFont.ImageFont,
                 down: float, taken: list[Rect]) -> list[tuple[ScenePlace, tuple[float, float]]]:
    """Where each place name goes (its centre): below its hex's centre if it fits there, else the first
    of a few nearby spots (lower, higher, to either side) that covers no hex number (``taken``: their
    boxes; the names placed join them) and no other name and stays inside the board; failing all, the
    spot that covers least. ``taken`` is extended with the names' boxes."""
    geo = scene.geometry
    width, height = scene.size
    size = hex_size(geo)
    out: list[tuple[ScenePlace, tuple[float, float]]] = []
    for place in scene.places:
        cx, cy = (float(v) for v in geo.hex_center(place.hex))
        box0 = draw.textbbox((0, 0), place.name, font=fnt, anchor="mm")
        tw, th = box0[2] - box0[0], box0[3] - box0[1]
        spots = [(cx, cy + down), (cx, cy + down + th * 0.6), (cx, cy + size * 0.55), (cx, cy - size * 0.55)]
        spots += [(cx + sx * (tw / 2 + size * 0.15), cy + dy) for dy in (0.0, down, -down) for sx in (1, -1)]
        best: tuple[float, tuple[float, float], Rect] | None = None
        for x, y in spots:
            x = min(max(x, tw / 2 + 2), width - tw / 2 - 2)  # inside the board
            y = min(max(y, th / 2 + 2), height - th / 2 - 2)
            box = (x - tw / 2 - 2, y - th / 2 - 1, x + tw / 2 + 2, y + th / 2 + 1)
            cost = sum(_overlap(box, t) for t in taken)
            if best is None or cost < best[0]:
                best = (cost, (x, y), box)
            if cost == 0:
                break
        assert best is not None
        taken.append(best[2])
        out.append((place, best[1]))
    return out


def draw_scene(scene: BoardScene, *, show_numbers: bool = True, show_places: bool = True,
               counter_px: float | None = None) -> Image.Image:
    """Paint a scene: terrain, hex edges, hexside features, paths, numbers, places, boxes.

    ``counter_px``: the side of the square counters a module puts on the hexes (board pixels): hex
    numbers and place names then go in the strips of the hex above and below such a counter (in a
    font that fits there), so a unit never hides them."""
    geo = scene.geometry
    width, height = scene.size
    img = Image.new("RGB", (width, height), scene.background)
    draw = ImageDraw.Draw(img)
    size = hex_size(geo)
    polys = {h: _round_pts(hex_polygon(geo, h)) for h in scene.hexes}
    _draw_terrain(draw, scene, polys, size)  # 1. terrain fills and hex edges
    _draw_hex_marks(draw, scene, polys, size)  # 2. hex marks
    _draw_paths(draw, scene, size)  # 3. paths through hex centres
    for side, feats in scene.sides.items():  # 4. hexside features
        a, b = _round_pts(side_segment(geo, side))
        for feat in feats:
            _draw_side_feature(draw, geo, side, a, b, feat, size, scene)
    _draw_labels(draw, scene, polys, size, show_numbers=show_numbers, show_places=show_places,
                 counter_px=counter_px)  # 5. hex numbers and place names
    _draw_boxes(draw, scene, size)  # 6. boxes (turn track, holding boxes)
    # 7. the title block: title, subtitle and the legend of the symbols on the board
    if scene.title_block is not None:
        left, top, right = scene.title_block
        for item in title_block_layout(scene, left, top, right)[0]:
            _draw_block_item(draw, scene, item, size)
    return img


def _draw_terrain(draw: ImageDraw.ImageDraw, scene: BoardScene, polys: Mapping[Hex, list[tuple[float, float]]],
                  size: float) -> None:
    """Each hex filled in its terrain's colour (and texture), then the hex edges."""
    edge_colour = (120, 110, 90)
    edge_width = max(1, round(size / 60))
    styles = scene.styles
    for h in scene.hexes:
        kind = scene.terrain.get(h, scene.default_terrain)
        draw.polygon(polys[h], fill=terrain_colour(kind, styles))
    _draw_terrain_texture(draw, scene, polys, size)
    for h in scene.hexes:
        pts = polys[h]
        draw.line([*pts, pts[0]], fill=edge_colour, width=edge_width)


def _draw_hex_marks(draw: ImageDraw.ImageDraw, scene: BoardScene, polys: Mapping[Hex, list[tuple[float, float]]],
                    size: float) -> None:
    """Hex marks: a ring inside the hex in the hexside style of the mark's kind (dots or a line)."""
    for h, marks in scene.hex_marks.items():
        if h not in polys:
            continue
        cx, cy = exact_center(scene.geometry, h)
        inner = [_lerp((cx, cy), p, 0.86) for p in polys[h]]
        for mark in marks:
            st = style_of("hexside", mark, scene.styles)
            colour = feature_colour(mark, scene.styles)
            if st.get("line") in ("dots", "rings"):
                for a, b in zip(inner, inner[1:] + inner[:1], strict=True):
                    _draw_dotted(draw, a, b, colour, max(1.0, size / 40), 3)
            else:
                draw.line([*inner, inner[0]], fill=colour, width=max(2, round(size / 14)))


def _draw_paths(draw: ImageDraw.ImageDraw, scene: BoardScene, size: float) -> None:
    """Paths through hex centres (lower layers first: tracks under roads)."""
    styles = scene.styles
    for path in sorted(scene.paths, key=lambda p: int(style_of("path", p.kind, styles).get("layer", "1"))):
        pts = _round_pts([exact_center(scene.geometry, h) for h in path.hexes])
        if len(pts) >= 2:
            _draw_path(draw, pts, style_of("path", path.kind, styles), feature_colour(path.kind, styles, "path"), size)


@dataclass(frozen=True)
class _LabelLayout:
    """Where the hex numbers (above the centre) and place names (below it) go, and their font sizes."""

    number_px: int
    up: float
    name_px: int
    down: float
    beside: bool  #: moved beside a module counter


def _label_layout(scene: BoardScene, polys: Mapping[Hex, list[tuple[float, float]]], size: float,
                  counter_px: float | None) -> _LabelLayout:
    """Numbers and names at their usual places, or in the strips of the hex beyond a counter of
    ``counter_px`` that would hide them."""
    geo = scene.geometry
    number_px, up = max(6, round(size * 0.2)), size * 0.34
    name_px, down = max(7, round(size * 0.24)), size * 0.3
    beside = False  # numbers and names moved beside a module counter
    if counter_px and scene.hexes:
        h0 = scene.hexes[0]
        half = geo.hex_center(h0)[1] - min(p[1] for p in polys[h0])  # the hex's half height
        if up + number_px / 2 > counter_px / 2:  # a counter would hide them: the strips beyond it
            strip = max(0.0, half - counter_px / 2)
            number_px = name_px = max(5, min(number_px, round(strip + 1)))
            up = down = half - max(strip, number_px) / 2
            beside = True
    return _LabelLayout(number_px, up, name_px, down, beside)


def _draw_labels(draw: ImageDraw.ImageDraw, scene: BoardScene, polys: Mapping[Hex, list[tuple[float, float]]],
                 size: float, *, show_numbers: bool, show_places: bool, counter_px: float | None) -> None:
    """Hex numbers and place names (each name with its marker), the names clear of the numbers and of
    the title block."""
    geo = scene.geometry
    at = _label_layout(scene, polys, size, counter_px)
    fnt = font(at.number_px)
    numbers: dict[Hex, tuple[float, float]] = {
        h: (float(geo.hex_center(h)[0]), geo.hex_center(h)[1] - at.up) for h in scene.hexes if scene.labels.get(h)}
    if show_numbers:
        for h, xy in numbers.items():
            _text_centered(draw, xy, scene.labels[h], fnt, (60, 55, 45))
    if show_places:
        pf = font(at.name_px, bold=True)
        taken: list[Rect] = [draw.textbbox(xy, scene.labels[h], font=fnt, anchor="mm")
                             for h, xy in numbers.items()] if show_numbers else []
        if scene.title_block is not None:  # names stay off the title block
            taken += [box for _what, _obj, box in title_block_layout(scene, *scene.title_block)[0]]
        for place, xy in place_labels(draw, scene, pf, at.down, taken):
            cx, cy = geo.hex_center(place.hex)
            _draw_marker(draw, cx, cy, style_of("marker", place.kind, scene.styles), size)
            _text_centered(draw, xy, place.name, pf, (20, 20, 20), *(((255, 255, 255), 2) if not at.beside else ()))


def _draw_boxes(draw: ImageDraw.ImageDraw, scene: BoardScene, size: float) -> None:
    """The boxes (turn track, holding boxes): a titled rectangle, its entries in cells."""
    bf = font(max(8, round(size * 0.22)), bold=True)
    ef = font(max(7, round(size * 0.18)))
    for box in scene.boxes:
        x, y, w, hgt = box.rect
        draw.rectangle((x, y, x + w, y + hgt), outline=(40, 40, 40), width=max(1, round(size / 30)), fill=(255, 252, 240))
        draw.text((x + w / 2, y + size * 0.2), drawable(box.name), font=bf, fill=(20, 20, 20), anchor="mm")
        if box.entries:
            cell = w / len(box.entries)
            for i, entry in enumerate(box.entries):
                ex = x + cell * i
                draw.rectangle((ex, y + size * 0.4, ex + cell, y + hgt), outline=(80, 80, 80), width=1)
                for j, line in enumerate(entry.split("\n")):
                    draw.text((ex + cell / 2, y + size * (0.62 + 0.22 * j)), drawable(line), font=ef, fill=(30, 30, 30), anchor="mm")


def _draw_terrain_texture(
    draw: ImageDraw.ImageDraw, scene: BoardScene, polys: Mapping[Hex, list[tuple[float, float]]], size: float
) -> None:
    """Small symbols that tell terrain apart in grey scale too (``symbol: specks``, ``crest``)."""
    geo = scene.geometry
    for h in scene.hexes:
        st = style_of("terrain", scene.terrain.get(h, scene.default_terrain), scene.styles)
        if st.get("symbol", "none") != "none":
            _draw_symbol(draw, exact_center(geo, h), st, size)


def _draw_symbol(draw: ImageDraw.ImageDraw, at: tuple[float, float], st: Mapping[str, str], size: float) -> None:
    cx, cy = at
    colour = _rgb(st.get("symbol-colour", "#505050"))
    if st.get("symbol") == "specks":
        r = max(1.0, size / 40)
        for ox, oy in ((-0.2, 0.05), (0.15, 0.12), (0.0, 0.25), (0.22, -0.05), (-0.12, 0.28)):
            x, y = cx + ox * size, cy + oy * size
            draw.ellipse((x - r, y - r, x + r, y + r), fill=colour)
    elif st.get("symbol") == "crest":
        draw.arc((cx - size * 0.3, cy - size * 0.05, cx + size * 0.3, cy + size * 0.4), 200, 340,
                 fill=colour, width=max(1, round(size / 25)))


def _draw_marker(draw: ImageDraw.ImageDraw, cx: float, cy: float, st: Mapping[str, str], size: float) -> None:
    """A place's marker (``style.markers``): a square or a dot; nothing for unstyled kinds."""
    if "symbol" not in st:
        return
    r = size * float(st.get("size", "0.09"))
    colour = _rgb(st.get("colour", "#282828"))
    if st["symbol"] == "square":
        draw.rectangle((cx - r, cy - r, cx + r, cy + r), fill=colour)
    else:
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=colour)


def _width(st: Mapping[str, str], line: str, table: Mapping[str, float], size: float, least: int) -> int:
    """A line's width in pixels: the style's ``width`` (a fraction of the hex size), else the line's default."""
    return max(least, round(size * float(st["width"]) if "width" in st else size * table.get(line, 1 / 14)))


def _draw_path(draw: ImageDraw.ImageDraw, pts: Sequence[tuple[float, float]], st: Mapping[str, str], colour: RGB,
               size: float) -> None:
    line = st.get("line", "solid")
    w = _width(st, line, PATH_WIDTHS, size, 2)
    if line == "dashed":
        _draw_dashed(draw, pts, colour, w, size / 8)
        return
    draw.line(list(pts), fill=colour, width=w, joint="curve")
    if line == "cased":
        draw.line(list(pts), fill=_rgb(st.get("inner", "#ece2c8")), width=max(1, w // 3), joint="curve")


def _draw_side_feature(
    draw: ImageDraw.ImageDraw,
    geo: HexGridGeometry,
    side: Hexside,
    a: tuple[float, float],
    b: tuple[float, float],
    feat: SideFeature,
    size: float,
    scene: BoardScene,
) -> None:
    st = style_of("hexside", feat.kind, scene.styles)
    # hatches (a directed kind's down side): towards the hex that is not up
    down = side.other(feat.up) if feat.up is not None and feat.up in side.hexes else side.hexes[1]
    _draw_side_line(draw, a, b, st, feat, size, exact_center(geo, down), scene)


def _feature_colour(st: Mapping[str, str], feat: SideFeature, scene: BoardScene) -> RGB:
    owner = f"owners.{feat.owner}"
    if scene.owner_colours and feat.owner and not feat.pending and owner in st:
        return _rgb(st[owner])
    return _rgb(st["colour"]) if "colour" in st else _hashed(feat.kind, 0, 160)


def _draw_side_line(
    draw: ImageDraw.ImageDraw,
    a: tuple[float, float],
    b: tuple[float, float],
    st: Mapping[str, str],
    feat: SideFeature,
    size: float,
    towards: tuple[float, float],
    scene: BoardScene,
) -> None:
    """A hexside feature from ``a`` to ``b`` in its style; hatches point at ``towards``."""
    line = st.get("pending", st.get("line", "solid")) if feat.pending else st.get("line", "solid")
    colour = _feature_colour(st, feat, scene)
    if line == "dots":
        r = size * float(st["width"]) / 2 if "width" in st else max(1.5, size / 22)
        _draw_dotted(draw, a, b, colour, r, 4)
    elif line == "rings":
        r = size * float(st["width"]) / 2 if "width" in st else max(1.5, size / 22)
        for i in range(4):
            x, y = _lerp(a, b, (i + 0.5) / 4)
            draw.ellipse((x - r, y - r, x + r, y + r), outline=colour, width=max(1, round(r / 2)))
    elif line == "hatched":
        draw.line([a, b], fill=colour, width=_width(st, line, SIDE_WIDTHS, size, 2))
        mx, my = _lerp(a, b, 0.5)
        vx, vy = towards[0] - mx, towards[1] - my
        norm = math.hypot(vx, vy) or 1.0
        tick = size * 0.16
        tx, ty = vx / norm * tick, vy / norm * tick
        for i in range(5):
            px, py = _lerp(a, b, (i + 0.5) / 5)
            draw.line([(px, py), (px + tx, py + ty)], fill=colour, width=max(1, round(size / 30)))
    elif line in ("heavy", "ditch"):
        draw.line([a, b], fill=colour, width=_width(st, line, SIDE_WIDTHS, size, 3))
        if line == "ditch":
            _draw_dotted(draw, a, b, (240, 240, 240), max(1.0, size / 40), 4)
    elif line == "dashed":
        _draw_dashed(draw, [a, b], colour, _width(st, line, SIDE_WIDTHS, size, 2), size / 8)
    else:
        draw.line([a, b], fill=colour, width=_width(st, line, SIDE_WIDTHS, size, 2))


# --- the title block --------------------------------------------------------------------------
BlockItem = tuple[str, object, tuple[float, float, float, float]]  #: what, text or entry, box


def _block_fonts(size: float) -> tuple[ImageFont.FreeTypeFont | ImageFont.ImageFont, ...]:
    return font(max(10, round(size * 0.34)), bold=True), font(max(8, round(size * 0.2))), font(max(8, round(size * 0.2)))


def _fit(text: str, fnt: ImageFont.FreeTypeFont | ImageFont.ImageFont, width: float) -> str:
    """``text``, cut short with an ellipsis where it is wider than ``width`` pixels."""
    if fnt.getlength(text) <= width:
        return text
    lo, hi = 0, len(text)
    while lo < hi:  # the longest prefix that fits with the ellipsis
        mid = (lo + hi + 1) // 2
        if fnt.getlength(text[:mid] + "\u2026") <= width:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo] + "\u2026"


def title_block_layout(scene: BoardScene, left: float, top: float, right: float) -> tuple[list[BlockItem], float]:
    """Where the title block's items go: the title and subtitle on a line (the subtitle on the next
    one if it does not fit), then the legend's entries in rows from ``left`` to ``right``; and the
    block's bottom. Each item has its box; words too long for the block are cut short."""
    size = hex_size(scene.geometry)
    title_font, sub_font, entry_font = _block_fonts(size)
    room = max(1.0, right - left)
    items: list[BlockItem] = []
    y = top
    if scene.title:
        title = _fit(scene.title, title_font, room)
        tb = title_font.getbbox(title)
        items.append(("title", title, (left, y, left + tb[2], y + tb[3])))
        x = left + tb[2] + size * 0.3
        if scene.subtitle:
            sb = sub_font.getbbox(scene.subtitle)
            if x + sb[2] <= right:
                sub_y = y + tb[3] - sb[3]  # on the title's baseline, about
                items.append(("subtitle", scene.subtitle, (x, sub_y, x + sb[2], sub_y + sb[3])))
            else:
                y += tb[3] + size * 0.1
                sub = _fit(scene.subtitle, sub_font, room)
                sb = sub_font.getbbox(sub)
                items.append(("subtitle", sub, (left, y, left + sb[2], y + sb[3])))
                tb = sb
        y += tb[3] + size * 0.2
    swatch_w, row_h = size * 0.6, max(size * 0.36, entry_font.getbbox("Ag")[3] + 4)
    x = left
    for entry in scene.legend:
        words = _fit(entry.words, entry_font, room - swatch_w - size * 0.15)
        if words != entry.words:
            entry = replace(entry, words=words)
        w = swatch_w + size * 0.15 + entry_font.getlength(words)
        if x > left and x + w > right:
            x, y = left, y + row_h
        items.append(("entry", entry, (x, y, x + w, y + row_h)))
        x += w + size * 0.4
    if scene.legend:
        y += row_h
    return items, y


def _draw_block_item(draw: ImageDraw.ImageDraw, scene: BoardScene, item: BlockItem, size: float) -> None:
    what, obj, (x0, y0, _x1, y1) = item
    title_font, sub_font, entry_font = _block_fonts(size)
    if what == "title":
        draw.text((x0, y0), str(obj), font=title_font, fill=(20, 20, 20))
        return
    if what == "subtitle":
        draw.text((x0, y0), str(obj), font=sub_font, fill=(60, 55, 45))
        return
    assert isinstance(obj, LegendEntry)
    sw = size * 0.6
    cy = (y0 + y1) / 2
    sx0, sx1, sy0, sy1 = x0, x0 + sw, cy - size * 0.15, cy + size * 0.15
    if obj.section == "terrain":
        st = style_of("terrain", obj.kind, scene.styles)
        draw.rectangle((sx0, sy0, sx1, sy1), fill=terrain_colour(obj.kind, scene.styles), outline=EDGE_COLOUR)
        if st.get("symbol", "none") != "none":
            _draw_symbol(draw, ((sx0 + sx1) / 2, cy - size * 0.12), st, size * 0.6)
    elif obj.section == "hexside":
        st = style_of("hexside", obj.kind, scene.styles)
        feat = SideFeature(obj.kind, owner=obj.owner, pending=obj.pending)
        a, b = _round_pts([(sx0, cy - size * 0.05), (sx1, cy - size * 0.05)])
        _draw_side_line(draw, a, b, st, feat, size * 0.7, (a[0] + sw / 2, cy + size), scene)
    elif obj.section == "path":
        st = style_of("path", obj.kind, scene.styles)
        _draw_path(draw, _round_pts([(sx0, cy), (sx1, cy)]), st, feature_colour(obj.kind, scene.styles, "path"), size * 0.8)
    else:
        _draw_marker(draw, (sx0 + sx1) / 2, cy, style_of("marker", obj.kind, scene.styles), size)
    draw.text((x0 + sw + size * 0.15, cy), obj.words, font=entry_font, fill=(30, 30, 30), anchor="lm")


def png_info(geometry: HexGridGeometry, *, dpi: float | None = None) -> PngInfo:
    """PNG text chunks recording the VASSAL grid of an image (``vassal-hexgrid``: XML attributes)."""
    info = PngInfo()
    info.add_text("vassal-hexgrid", " ".join(f'{k}="{v}"' for k, v in geometry.vassal_attrs().items()))
    if dpi is not None:
        info.add_text("dpi", f"{dpi:g}")
    return info


def _track_label(turn: str) -> str:
    """A turn label on two lines when it is long ("May 27 AM" -> "May 27\nAM")."""
    head, sep, tail = turn.rpartition(" ")
    return f"{head}\n{tail}" if sep and len(turn) > 6 else turn


def scene_from_map(
    game_map: GameMap,
    *,
    dpi: float | None = None,
    turn_track: Sequence[str] = (),
    boxes: bool = True,
    title: str | None = None,
    legend: bool = True,
) -> BoardScene:
    """The scene of a :class:`~gazala_tools.mapdata.model.GameMap`, at ``dpi`` (default: native).

    The image follows the grid: the grid stays where the map's ``grid.pixels`` puts it (the VASSAL
    geometry is the map's), the right margin is the left one, and below the grid come the turn track
    (``turn_track``), then the title block (``title``, default the map's; a subtitle for a
    reconstructed map; with ``legend``, the legend of the terrain, hexside, path and marker symbols
    the board shows), then a bottom margin as high as the top one."""
    geo, drawn_dpi = _scene_grid(game_map, dpi)
    scene = _map_scene(game_map, geo, title=title, legend=legend)
    x_min, y_min, x_max, y_max = grid_bounds(geo, scene.hexes)
    left, top = max(0.0, x_min), max(0.0, y_min)
    width = max(1, math.ceil(x_max + left))
    bottom = y_max
    scene_boxes: list[SceneBox] = []
    if turn_track:
        turns = tuple(_track_label(t) for t in turn_track)
        scene_boxes = _track_boxes(geo, turns, y_max, width, boxes=boxes)
        bottom = max(b.rect[1] + b.rect[3] for b in scene_boxes)
    scene = replace(scene, size=(width, 1), boxes=tuple(scene_boxes))
    if scene.title or scene.legend:
        block_top = bottom + hex_size(geo) * 0.3
        block = (max(left, hex_size(geo) * 0.2), block_top, width - max(left, hex_size(geo) * 0.2))
        bottom = title_block_layout(scene, *block)[1]
        scene = replace(scene, title_block=block)
    height = max(1, math.ceil(bottom + top))
    if width * height > MAX_IMAGE_PIXELS:  # refused before any pixel is allocated
        raise GazalaError(f"the board would be {width:,} x {height:,} pixels at {drawn_dpi:g} dpi",
                          file=str(game_map.game), expected=f"at most {MAX_IMAGE_PIXELS:,} pixels (a lower --dpi)")
    return replace(scene, size=(width, height))


def _scene_grid(game_map: GameMap, dpi: float | None) -> tuple[HexGridGeometry, float]:
    """The map's grid drawn at ``dpi`` (default: native), and the dpi it is drawn at."""
    pixels = game_map.pixels
    native_dpi = float(getattr(pixels, "dpi", 0) or 100)
    factor = 1.0 if dpi is None else float(dpi) / native_dpi
    if factor <= 0 or not math.isfinite(factor):
        raise ValueError(f"dpi must be positive, got {dpi!r}")
    return scaled_geometry(game_map.geometry(), factor), factor * native_dpi


def _map_scene(game_map: GameMap, geo: HexGridGeometry, *, title: str | None, legend: bool) -> BoardScene:
    """What the map shows on the grid ``geo``: hexes, terrain, hexside features, paths, places, the title
    and the legend (not yet sized: no boxes, no title block)."""
    hexes = tuple(game_map.hexes())
    labels = {h: game_map.label(h) for h in hexes}
    terrain = {h: game_map.terrain(h) for h in hexes}
    owner_colours = game_map.owner_colours
    sides: dict[Hexside, list[SideFeature]] = {}
    for f in game_map.all_features():
        feats = sides.setdefault(f.side, [])
        feat = SideFeature(f.kind.value, up=f.up, label=f.active_from or "", owner=f.owner, pending=bool(f.active_from))
        if feat not in feats:
            feats.append(feat)
    paths = tuple(Path(p.kind.value, tuple(p.hexes), p.name) for p in game_map.paths)
    places = tuple(ScenePlace(drawable(p.name), p.hex, p.kind) for p in game_map.places if p.hexes)
    entries = tuple(replace(e, words=drawable(e.words))
                    for e in _legend(game_map, terrain, sides, paths, places, owner_colours)) if legend else ()
    return BoardScene(
        geometry=geo,
        size=(1, 1),
        hexes=hexes,
        labels=labels,
        terrain=terrain,
        sides={k: tuple(v) for k, v in sides.items()},
        paths=paths,
        places=places,
        title=drawable(game_map.title if title is None else title),
        default_terrain=game_map.terrain_default,
        styles=game_map.styles,
        owner_colours=owner_colours,
        subtitle=RECONSTRUCTED if game_map.provenance == "reconstructed" else "",
        legend=entries,
    )


#: the subtitle of a reconstructed map (``provenance: reconstructed``)
RECONSTRUCTED = "reconstruction: drawn from the rules text, not the publisher's map"


def _legend(
    game_map: GameMap,
    terrain: Mapping[Hex, str],
    sides: Mapping[Hexside, Sequence[SideFeature]],
    paths: Sequence[Path],
    places: Sequence[ScenePlace],
    owner_colours: bool,
) -> tuple[LegendEntry, ...]:
    """The legend: exactly the kinds the board shows, in the map's order, in the map's words
    (descriptions of terrain types, hexside kinds and path kinds; a marker's place kind)."""
    out: list[LegendEntry] = []
    used_terrain = set(terrain.values())
    for name, t in game_map.terrain_types.items():
        if name in used_terrain:
            out.append(LegendEntry("terrain", name, t.description or name))
    used = {(f.kind, f.owner if owner_colours and not f.pending and f"owners.{f.owner}" in style_of(
        "hexside", f.kind, game_map.styles) else None, f.pending) for feats in sides.values() for f in feats}
    kinds = list(game_map.hexside_kinds) + sorted({k for k, _o, _p in used} - set(game_map.hexside_kinds))
    for kind in kinds:
        decl = game_map.hexside_kinds.get(kind)
        words = (decl.description if decl is not None else "") or kind
        for k, owner, pending in sorted(used, key=lambda u: (u[2], u[1] or "")):
            if k == kind:
                text = words + (f" ({owner})" if owner else "") + (" (from a later turn)" if pending else "")
                out.append(LegendEntry("hexside", kind, text, owner=owner, pending=pending))
    used_paths = {p.kind for p in paths if len(p.hexes) >= 2}
    order = list(game_map.path_kinds) + sorted(used_paths - set(game_map.path_kinds))
    for kind in order:
        if kind in used_paths:
            out.append(LegendEntry("path", kind, (game_map.path_kinds[kind].description if kind in game_map.path_kinds else "") or kind))
    marked = []
    for p in places:
        if p.kind not in marked and "symbol" in style_of("marker", p.kind, game_map.styles):
            marked.append(p.kind)
    out.extend(LegendEntry("marker", k, k) for k in marked)
    return tuple(out)


def _track_boxes(
    geo: HexGridGeometry, turns: Sequence[str], grid_bottom: float, width: int, *, boxes: bool
) -> list[SceneBox]:
    """Turn Record Track (and the Actions track) below the grid; the grid, and with it the VASSAL
    geometry, stays where it is."""
    size = hex_size(geo)
    row_h = round(size * 1.3)
    top = math.ceil(grid_bottom) + round(size * 0.3)
    margin = round(size * 0.3)
    track_w = min(width - 2 * margin, round(size * 1.1 * len(turns)))
    out = [SceneBox("Turn Record Track", (margin, top, track_w, row_h), tuple(turns))]
    if boxes:
        actions = tuple(str(i) for i in range(10))
        out.append(
            SceneBox(
                "Actions Available",
                (margin, top + row_h + round(size * 0.2), min(width - 2 * margin, round(size * 0.8 * 10)), row_h),
                actions,
            )
        )
    return out


def render_board(
    game_map: GameMap,
    *,
    dpi: float | None = None,
    show_numbers: bool = True,
    show_places: bool = True,
    turn_track: Sequence[str] = (),
    boxes: bool = True,
    counter_px: float | None = None,
    title: str | None = None,
    legend: bool = True,
) -> Image.Image:
    """Draw a game's board as an RGB image on the map's VASSAL grid.

    ``counter_px``: the module's counter size in the image's pixels: hex numbers and place names are
    drawn where such a counter does not hide them (:func:`draw_scene`).
    ``dpi``: output resolution (default: the map's native ``pixels.dpi``); the grid of the image is
    :func:`board_geometry` at the same dpi and is stored in ``image.info["vassal-hexgrid"]``.
    ``turn_track``: the game's turn labels (``Game.turns``) to draw as a Turn Record Track below
    the grid (and, with ``boxes``, an Actions track).
    ``title``: the title drawn below the board (default: the map's title); ``legend``: the legend of
    the symbols the board shows beside it. The image's size follows the grid (:func:`scene_from_map`).
    """
    scene = scene_from_map(game_map, dpi=dpi, turn_track=turn_track, boxes=boxes, title=title, legend=legend)
    img = draw_scene(scene, show_numbers=show_numbers, show_places=show_places, counter_px=counter_px)
    img.info["vassal-hexgrid"] = " ".join(f'{k}="{v}"' for k, v in scene.geometry.vassal_attrs().items())
    img.info["dpi"] = (dpi or game_map.pixels.dpi,) * 2
    return img


def board_size(game_map: GameMap, *, dpi: float | None = None, turn_track: Sequence[str] = (),
               title: str | None = None, legend: bool = True) -> tuple[int, int]:
    """The size of ``render_board(game_map, ...)``'s image with the same options (it follows the
    grid, not the map's ``board_width``/``board_height``), without drawing it."""
    return scene_from_map(game_map, dpi=dpi, turn_track=turn_track, title=title, legend=legend).size


def board_geometry(game_map: GameMap, *, dpi: float | None = None) -> HexGridGeometry:
    """The VASSAL grid of ``render_board(game_map, dpi=dpi)``'s image (with the map's numbering)."""
    native_dpi = float(getattr(game_map.pixels, "dpi", 0) or 100)
    geometry = game_map.geometry()
    return scaled_geometry(geometry, 1.0 if dpi is None else float(dpi) / native_dpi)
