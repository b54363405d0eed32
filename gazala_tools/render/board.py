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
import itertools
import logging
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from PIL import Image, ImageDraw, ImageFont
from PIL.PngImagePlugin import PngInfo

from gazala_tools.errors import GazalaError
from gazala_tools.grid import side_lattice
from gazala_tools.hexes import Hex, Hexside
from gazala_tools.hexgrid import HexGridGeometry
from gazala_tools.inputs import MAX_IMAGE_PIXELS

if TYPE_CHECKING:  # pragma: no cover
    from gazala_tools.mapdata.model import GameMap

log = logging.getLogger(__name__)

RGB = tuple[int, int, int]

#: Fill colours by terrain kind, in the muted palette of printed desert maps.
TERRAIN_FILLS: dict[str, RGB] = {
    "clear": (236, 222, 180),
    "desert": (236, 222, 180),
    "open": (236, 222, 180),
    "rough": (198, 164, 112),
    "broken": (198, 164, 112),
    "town": (200, 200, 200),
    "village": (200, 200, 200),
    "sea": (128, 172, 214),
    "sea-inlet": (160, 196, 226),
    "inlet": (160, 196, 226),
    "ridge": (176, 150, 104),
    "salt-marsh": (196, 206, 190),
    "marsh": (196, 206, 190),
    "escarpment": (214, 190, 140),
    "fortified": (222, 206, 168),
    "airfield": (226, 222, 196),
    "depression": (222, 200, 150),
}

#: Line colours for hexside features and paths.
FEATURE_COLOURS: dict[str, RGB] = {
    "minefield": (204, 24, 24),
    "minefield-axis": (40, 70, 200),
    "minefield-allied": (140, 82, 30),
    "escarpment": (110, 70, 30),
    "fortification": (30, 30, 30),
    "fortified": (30, 30, 30),
    "anti-tank-ditch": (60, 60, 60),
    "ridge": (120, 90, 50),
    "wadi": (150, 110, 60),
    "road": (40, 40, 40),
    "track": (120, 72, 36),
    "trail": (120, 72, 36),
    "railway": (0, 0, 0),
}

FONT_FILES = ("DejaVuSans.ttf", "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
FONT_BOLD_FILES = ("DejaVuSans-Bold.ttf", "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf")


def terrain_colour(kind: str) -> RGB:
    """The fill for a terrain kind; unknown kinds get a stable pale colour of their own."""
    got = TERRAIN_FILLS.get(kind) or TERRAIN_FILLS.get(kind.lower().replace("_", "-").replace(" ", "-"))
    if got is not None:
        return got
    digest = hashlib.sha1(kind.encode("utf-8")).digest()
    return (150 + digest[0] % 90, 150 + digest[1] % 90, 150 + digest[2] % 90)


def feature_colour(kind: str) -> RGB:
    got = FEATURE_COLOURS.get(kind) or FEATURE_COLOURS.get(kind.lower().replace("_", "-").replace(" ", "-"))
    if got is not None:
        return got
    digest = hashlib.sha1(kind.encode("utf-8")).digest()
    return (digest[0] % 160, digest[1] % 160, digest[2] % 160)


# --- the scene: plain data --------------------------------------------------------------------
@dataclass(frozen=True)
class SideFeature:
    """A feature on one hexside. ``up`` is the high hex for an escarpment (hatches go down)."""

    kind: str
    up: Hex | None = None
    label: str = ""


@dataclass(frozen=True)
class Path:
    """A road/track/railway: a polyline through hex centres, in order."""

    kind: str
    hexes: tuple[Hex, ...]
    name: str = ""


@dataclass(frozen=True)
class Place:
    name: str
    hex: Hex
    kind: str = "place"  #: "town", "airfield", "supply", "place"...


@dataclass(frozen=True)
class Box:
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
    places: tuple[Place, ...] = ()
    boxes: tuple[Box, ...] = ()
    title: str = ""
    background: RGB = (250, 246, 236)
    default_terrain: str = "clear"


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
                 down: float, taken: list[Rect]) -> list[tuple[Place, tuple[float, float]]]:
    """Where each place name goes (its centre): below its hex's centre if it fits there, else the first
    of a few nearby spots (lower, higher, to either side) that covers no hex number (``taken``: their
    boxes; the names placed join them) and no other name and stays inside the board; failing all, the
    spot that covers least. ``taken`` is extended with the names' boxes."""
    geo = scene.geometry
    width, height = scene.size
    size = hex_size(geo)
    out: list[tuple[Place, tuple[float, float]]] = []
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
    edge_colour = (120, 110, 90)
    edge_width = max(1, round(size / 60))
    polys = {h: _round_pts(hex_polygon(geo, h)) for h in scene.hexes}

    # 1. terrain fills and hex edges
    for h in scene.hexes:
        kind = scene.terrain.get(h, scene.default_terrain)
        draw.polygon(polys[h], fill=terrain_colour(kind))
    _draw_terrain_texture(draw, scene, polys, size)
    for h in scene.hexes:
        pts = polys[h]
        draw.line([*pts, pts[0]], fill=edge_colour, width=edge_width)

    # 2. hex marks (fortified: heavy inner edge; minefield hex: red dotted ring)
    for h, marks in scene.hex_marks.items():
        if h not in polys:
            continue
        cx, cy = exact_center(geo, h)
        inner = [_lerp((cx, cy), p, 0.86) for p in polys[h]]
        for mark in marks:
            if mark in ("fortified", "fortification", "box"):
                draw.line([*inner, inner[0]], fill=feature_colour("fortified"), width=max(2, round(size / 14)))
            elif mark.startswith("minefield"):
                for a, b in zip(inner, inner[1:] + inner[:1], strict=True):
                    _draw_dotted(draw, a, b, feature_colour(mark), max(1.0, size / 40), 3)

    # 3. paths through hex centres (tracks under roads)
    order = {"track": 0, "trail": 0, "road": 1, "railway": 2}
    for path in sorted(scene.paths, key=lambda p: order.get(p.kind, 1)):
        pts = _round_pts([exact_center(geo, h) for h in path.hexes])
        if len(pts) < 2:
            continue
        colour = feature_colour(path.kind)
        if path.kind in ("track", "trail"):
            _draw_dashed(draw, pts, colour, max(2, round(size / 18)), size / 8)
        else:
            w = max(2, round(size / 11))
            draw.line(pts, fill=colour, width=w, joint="curve")
            if path.kind == "road":
                draw.line(pts, fill=(236, 226, 200), width=max(1, w // 3), joint="curve")

    # 4. hexside features
    for side, feats in scene.sides.items():
        a, b = _round_pts(side_segment(geo, side))
        for feat in feats:
            _draw_side_feature(draw, geo, side, a, b, feat, size)

    # 5. hex numbers and place names
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
    fnt = font(number_px)
    numbers: dict[Hex, tuple[float, float]] = {
        h: (float(geo.hex_center(h)[0]), geo.hex_center(h)[1] - up) for h in scene.hexes if scene.labels.get(h)}
    if show_numbers:
        for h, xy in numbers.items():
            _text_centered(draw, xy, scene.labels[h], fnt, (60, 55, 45))
    if show_places:
        pf = font(name_px, bold=True)
        taken: list[Rect] = [draw.textbbox(xy, scene.labels[h], font=fnt, anchor="mm")
                             for h, xy in numbers.items()] if show_numbers else []
        for place, at in place_labels(draw, scene, pf, down, taken):
            cx, cy = geo.hex_center(place.hex)
            if place.kind in ("town", "airfield", "supply", "village"):
                r = size * 0.09
                draw.rectangle((cx - r, cy - r, cx + r, cy + r), fill=(40, 40, 40))
            _text_centered(draw, at, place.name, pf, (20, 20, 20), *(((255, 255, 255), 2) if not beside else ()))

    # 6. boxes (turn track, holding boxes)
    bf = font(max(8, round(size * 0.22)), bold=True)
    ef = font(max(7, round(size * 0.18)))
    for box in scene.boxes:
        x, y, w, hgt = box.rect
        draw.rectangle((x, y, x + w, y + hgt), outline=(40, 40, 40), width=max(1, round(size / 30)), fill=(255, 252, 240))
        draw.text((x + w / 2, y + size * 0.2), box.name, font=bf, fill=(20, 20, 20), anchor="mm")
        if box.entries:
            cell = w / len(box.entries)
            for i, entry in enumerate(box.entries):
                ex = x + cell * i
                draw.rectangle((ex, y + size * 0.4, ex + cell, y + hgt), outline=(80, 80, 80), width=1)
                for j, line in enumerate(entry.split("\n")):
                    draw.text((ex + cell / 2, y + size * (0.62 + 0.22 * j)), line, font=ef, fill=(30, 30, 30), anchor="mm")
    return img


def _draw_terrain_texture(
    draw: ImageDraw.ImageDraw, scene: BoardScene, polys: Mapping[Hex, list[tuple[float, float]]], size: float
) -> None:
    """Small symbols that tell terrain apart in grey scale too (rough: specks; ridge: a crest line)."""
    geo = scene.geometry
    for h in scene.hexes:
        kind = scene.terrain.get(h, scene.default_terrain)
        if kind in ("rough", "broken"):
            cx, cy = exact_center(geo, h)
            r = max(1.0, size / 40)
            for ox, oy in ((-0.2, 0.05), (0.15, 0.12), (0.0, 0.25), (0.22, -0.05), (-0.12, 0.28)):
                x, y = cx + ox * size, cy + oy * size
                draw.ellipse((x - r, y - r, x + r, y + r), fill=(140, 106, 62))
        elif kind == "ridge":
            cx, cy = exact_center(geo, h)
            draw.arc(
                (cx - size * 0.3, cy - size * 0.05, cx + size * 0.3, cy + size * 0.4),
                200,
                340,
                fill=(110, 80, 44),
                width=max(1, round(size / 25)),
            )


def _draw_side_feature(
    draw: ImageDraw.ImageDraw,
    geo: HexGridGeometry,
    side: Hexside,
    a: tuple[float, float],
    b: tuple[float, float],
    feat: SideFeature,
    size: float,
) -> None:
    kind = feat.kind
    colour = feature_colour(kind)
    if kind.startswith("minefield") and kind != "minefield-dated":
        _draw_dotted(draw, a, b, colour, max(1.5, size / 22), 4)
    elif kind == "minefield-dated":
        r = max(1.5, size / 22)
        for i in range(4):
            x, y = _lerp(a, b, (i + 0.5) / 4)
            draw.ellipse((x - r, y - r, x + r, y + r), outline=feature_colour("minefield"), width=max(1, round(r / 2)))
    elif kind == "escarpment":
        draw.line([a, b], fill=colour, width=max(2, round(size / 16)))
        # hatches: short ticks from the side into the down-side hex
        down = side.other(feat.up) if feat.up is not None and feat.up in side.hexes else side.hexes[1]
        dcx, dcy = exact_center(geo, down)
        mx, my = _lerp(a, b, 0.5)
        vx, vy = dcx - mx, dcy - my
        norm = math.hypot(vx, vy) or 1.0
        tick = size * 0.16
        tx, ty = vx / norm * tick, vy / norm * tick
        for i in range(5):
            px, py = _lerp(a, b, (i + 0.5) / 5)
            draw.line([(px, py), (px + tx, py + ty)], fill=colour, width=max(1, round(size / 30)))
    elif kind in ("fortification", "fortified", "anti-tank-ditch"):
        w = max(3, round(size / 9))
        draw.line([a, b], fill=colour, width=w)
        if kind == "anti-tank-ditch":
            _draw_dotted(draw, a, b, (240, 240, 240), max(1.0, size / 40), 4)
    else:
        draw.line([a, b], fill=colour, width=max(2, round(size / 14)))


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
) -> BoardScene:
    """The scene of a :class:`~gazala_tools.mapdata.model.GameMap`, at ``dpi`` (default: native)."""
    pixels = game_map.pixels
    native_dpi = float(getattr(pixels, "dpi", 0) or 100)
    factor = 1.0 if dpi is None else float(dpi) / native_dpi
    if factor <= 0 or not math.isfinite(factor):
        raise ValueError(f"dpi must be positive, got {dpi!r}")
    geo = scaled_geometry(game_map.geometry(), factor)
    hexes = tuple(game_map.hexes())
    labels = {h: game_map.label(h) for h in hexes}
    terrain = {h: game_map.terrain(h) for h in hexes}
    owner_colours = game_map.minefield_colours == "owner"
    sides: dict[Hexside, list[SideFeature]] = {}
    for f in game_map.all_features():
        kind = f.kind.value
        if kind == "minefield":
            if f.active_from:
                kind = "minefield-dated"
            elif owner_colours and f.owner:
                kind = f"minefield-{f.owner}"
        feats = sides.setdefault(f.side, [])
        feat = SideFeature(kind, up=f.up, label=f.active_from or "")
        if feat not in feats:
            feats.append(feat)
    paths = tuple(Path(p.kind.value, tuple(p.hexes), p.name) for p in game_map.paths)
    places = tuple(Place(p.name, p.hex, p.kind) for p in game_map.places if p.hexes)
    width = max(1, round(pixels.board_width * factor))
    height = max(1, round(pixels.board_height * factor))
    _x_min, _y_min, x_max, y_max = grid_bounds(geo, hexes)
    if x_max > width or y_max > height:
        log.warning(
            "%s: the grid (to %.0f x %.0f px) overflows the board (%d x %d px); the image is enlarged",
            game_map.game,
            x_max,
            y_max,
            width,
            height,
        )
        width, height = max(width, math.ceil(x_max) + 1), max(height, math.ceil(y_max) + 1)
    if width * height > MAX_IMAGE_PIXELS:  # refused before any pixel is allocated
        raise GazalaError(f"the board would be {width:,} x {height:,} pixels at {factor * native_dpi:g} dpi",
                          file=str(game_map.game), expected=f"at most {MAX_IMAGE_PIXELS:,} pixels (a lower --dpi)")
    scene_boxes: list[Box] = []
    if turn_track:
        turns = tuple(_track_label(t) for t in turn_track)
        scene_boxes, height = _track_boxes(geo, turns, y_max, width, height, boxes=boxes)
    return BoardScene(
        geometry=geo,
        size=(width, height),
        hexes=hexes,
        labels=labels,
        terrain=terrain,
        sides={k: tuple(v) for k, v in sides.items()},
        paths=paths,
        places=places,
        boxes=tuple(scene_boxes),
        title=game_map.title,
        default_terrain=game_map.terrain_default,
    )


def _track_boxes(
    geo: HexGridGeometry, turns: Sequence[str], grid_bottom: float, width: int, height: int, *, boxes: bool
) -> tuple[list[Box], int]:
    """Turn Record Track (and the Actions track) below the grid; the canvas grows downwards only,
    so the grid, and with it the VASSAL geometry, stays where it is."""
    size = hex_size(geo)
    row_h = round(size * 1.3)
    need = round(size * 0.3) + row_h * (2 if boxes else 1) + round(size * 0.5)
    top = math.ceil(grid_bottom) + round(size * 0.3)
    if top + need > height:
        height = top + need
    margin = round(size * 0.3)
    track_w = min(width - 2 * margin, round(size * 1.1 * len(turns)))
    out = [Box("Turn Record Track", (margin, top, track_w, row_h), tuple(turns))]
    if boxes:
        actions = tuple(str(i) for i in range(10))
        out.append(
            Box(
                "Actions Available",
                (margin, top + row_h + round(size * 0.2), min(width - 2 * margin, round(size * 0.8 * 10)), row_h),
                actions,
            )
        )
    return out, height


def render_board(
    game_map: GameMap,
    *,
    dpi: float | None = None,
    show_numbers: bool = True,
    show_places: bool = True,
    turn_track: Sequence[str] = (),
    boxes: bool = True,
    counter_px: float | None = None,
) -> Image.Image:
    """Draw a game's board as an RGB image on the map's VASSAL grid.

    ``counter_px``: the module's counter size in the image's pixels: hex numbers and place names are
    drawn where such a counter does not hide them (:func:`draw_scene`).
    ``dpi``: output resolution (default: the map's native ``pixels.dpi``); the grid of the image is
    :func:`board_geometry` at the same dpi and is stored in ``image.info["vassal-hexgrid"]``.
    ``turn_track``: the game's turn labels (``Game.turns``) to draw as a Turn Record Track below
    the grid (and, with ``boxes``, an Actions track).
    """
    scene = scene_from_map(game_map, dpi=dpi, turn_track=turn_track, boxes=boxes)
    img = draw_scene(scene, show_numbers=show_numbers, show_places=show_places, counter_px=counter_px)
    img.info["vassal-hexgrid"] = " ".join(f'{k}="{v}"' for k, v in scene.geometry.vassal_attrs().items())
    img.info["dpi"] = (dpi or game_map.pixels.dpi,) * 2
    return img


def board_geometry(game_map: GameMap, *, dpi: float | None = None) -> HexGridGeometry:
    """The VASSAL grid of ``render_board(game_map, dpi=dpi)``'s image (with the map's numbering)."""
    native_dpi = float(getattr(game_map.pixels, "dpi", 0) or 100)
    geometry = game_map.geometry()
    return scaled_geometry(geometry, 1.0 if dpi is None else float(dpi) / native_dpi)
