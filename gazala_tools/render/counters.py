"""Counter faces as images: :func:`render_face` draws one face of a counter with Pillow;
:func:`counter_face` gives the counter's own art instead where it has some (``counters.yaml``).

A pure function of a :class:`~gazala_tools.counters.model.Counter` with keyword-only options. The
face is laid out on a 100 x 100 grid scaled to the counter's size at ``dpi`` and drawn at
``supersample`` times that size, then reduced (box filter) for anti-aliased lines.

Unit faces: formation up the left edge, size mark and NATO/APP-6 symbol (:mod:`.symbols`) in the
upper half, designation under the symbol, values along the bottom in the manifest's style:

* ``hard-soft-move``: three separate numbers, each in the ink the manifest's ``value_inks`` give it
  (RG's colour code); step pips top left for multi-step units; the used side is paler, marked
  USED, with no movement allowance; a restricted unit's movement in brackets.
* ``attack-defence-move``: one string joined by dashes (``4-5-15``); artillery range top right;
  a reduced/depleted side has a white stripe across the top and paler colours.

Chits and markers: title (fitted to the width), subtitle and an optional icon.

A counter's own art (an image file per face) is read once per file, checked before it is decoded
(file size, format, pixel count: :func:`load_art`), scaled to the counter's size and, for a bleed,
extended by repeating its edge pixels, so it is placed exactly where a drawn face would be.
"""

from __future__ import annotations

import functools
import math
import os
import stat
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import IO, Final

from PIL import Image, ImageColor, ImageDraw, ImageFont

from gazala_tools.counters.model import Counter, Face, Value
from gazala_tools.errors import GazalaError
from gazala_tools.escape import drawable
from gazala_tools.filecache import SizedDict
from gazala_tools.inputs import open_image, read_file, sniff_image
from gazala_tools.render.art import MAX_ART_PIXELS as ART_PIXEL_CAP
from gazala_tools.render.art import image_cache, placeholders_on, sandbox_of
from gazala_tools.render.budget import current_budget
from gazala_tools.render.pngstream import PngStream, stack_bands
from gazala_tools.render.symbols import draw_size_mark, draw_unit_symbol

__all__ = [
    "ART_ASPECT_TOLERANCE",
    "ART_CACHE_BYTES",
    "ART_FORMATS",
    "CONTACT_GROUND",
    "CONTACT_PNG_LEVEL",
    "FONT_BOLD",
    "FONT_COND",
    "FONT_COND_BOLD",
    "FONT_DIR",
    "INK_RGB",
    "MAX_ART_BYTES",
    "MAX_ART_PIXELS",
    "MAX_CONTACT_PIXELS",
    "MAX_CONTACT_ROW_PIXELS",
    "MAX_FACE_SIDE",
    "PLACEHOLDER_GROUND",
    "PLACEHOLDER_MARK",
    "RGB",
    "SVG_ART_PX",
    "art_face",
    "contact_sheet",
    "counter_face",
    "face_pixels",
    "fit_size",
    "fitted",
    "font",
    "load_art",
    "near_square",
    "placeholder",
    "render_face",
    "render_faces",
    "write_contact_sheet",
]

FONT_DIR: Final = Path("/usr/share/fonts/truetype/dejavu")
FONT_BOLD: Final = "DejaVuSans-Bold.ttf"
FONT_COND_BOLD: Final = "DejaVuSansCondensed-Bold.ttf"
FONT_COND: Final = "DejaVuSansCondensed.ttf"
INK_RGB: Final = {"red": (200, 16, 46), "black": (0, 0, 0), "white": (255, 255, 255)}
RGB = tuple[int, int, int]


@functools.lru_cache(maxsize=256)
def font(name: str, px: int) -> ImageFont.FreeTypeFont:
    """A DejaVu font (Debian fonts-dejavu-core) at ``px`` pixels."""
    path = FONT_DIR / name
    try:
        return ImageFont.truetype(str(path), max(1, px))
    except OSError:
        try:
            return ImageFont.truetype(name, max(1, px))
        except OSError:
            raise FileNotFoundError(
                f"font {path} not found: install fonts-dejavu-core (scripts/setup)"
            ) from None


def face_pixels(size_mm: float, dpi: float) -> int:
    """Edge length in pixels of a counter ``size_mm`` wide at ``dpi``."""
    return max(8, round(size_mm / 25.4 * dpi))


def _rgb(color: str) -> RGB:
    r, g, b = ImageColor.getrgb(color)[:3]
    return (r, g, b)


def _mix(c: RGB, other: RGB, t: float) -> RGB:
    return (
        round(c[0] + (other[0] - c[0]) * t),
        round(c[1] + (other[1] - c[1]) * t),
        round(c[2] + (other[2] - c[2]) * t),
    )


def _darker(c: RGB, t: float = 0.45) -> RGB:
    return _mix(c, (0, 0, 0), t)


class _Pen:
    """Drawing in 0..100 face units, offset by the bleed."""

    def __init__(self, img: Image.Image, size_px: int, bleed_px: int) -> None:
        self.img = img
        self.d = ImageDraw.Draw(img)
        self.k = size_px / 100.0
        self.o = bleed_px

    def p(self, x: float, y: float) -> tuple[float, float]:
        return (self.o + x * self.k, self.o + y * self.k)

    def box(self, x0: float, y0: float, x1: float, y1: float) -> tuple[float, float, float, float]:
        return (self.o + x0 * self.k, self.o + y0 * self.k, self.o + x1 * self.k, self.o + y1 * self.k)

    def w(self, units: float) -> int:
        return max(1, round(units * self.k))

    def text(
        self,
        x: float,
        y: float,
        s: str,
        *,
        size: float,
        fill: RGB,
        name: str = FONT_BOLD,
        anchor: str = "mm",
        stroke: RGB | None = None,
        max_width: float | None = None,
    ) -> None:
        """``s`` at (x, y) in face units. Text is drawn once per string, font and size (a cached
        mask, pasted in the fill colour): a thousand counters print the same values and titles."""
        px = self.fit_px(s, size, name, max_width)
        cx, cy = self.p(x, y)
        if stroke is not None:
            mask, (dx, dy) = _text_mask(s, name, px, anchor, self.w(1.2))
            self.img.paste(stroke, (round(cx + dx), round(cy + dy)), mask)
        mask, (dx, dy) = _text_mask(s, name, px, anchor, 0)
        self.img.paste(fill, (round(cx + dx), round(cy + dy)), mask)

    def fit_px(self, s: str, size: float, name: str, max_width: float | None) -> int:
        """The font size (pixels) that fits ``s`` into ``max_width`` face units."""
        px = max(1, round(size * self.k))
        return px if max_width is None else _fit_px(s, name, px, max_width * self.k)

    def fit(self, s: str, size: float, name: str, max_width: float | None) -> ImageFont.FreeTypeFont:
        return font(name, self.fit_px(s, size, name, max_width))


@functools.lru_cache(maxsize=8192)
def _fit_px(s: str, name: str, px: int, limit: float) -> int:
    f = font(name, px)
    while px > 4 and f.getlength(s) > limit:
        px = int(px * 0.92)
        f = font(name, px)
    return px


@image_cache(32 * 1024 * 1024)
def _text_mask(s: str, name: str, px: int, anchor: str, stroke_width: int) -> tuple[Image.Image, tuple[int, int]]:
    """``s`` as an "L" mask and the offset of its top left corner from the anchor point."""
    f = font(name, px)
    left, top, right, bottom = (int(v) for v in f.getbbox(s, anchor=anchor, stroke_width=stroke_width))
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    ImageDraw.Draw(mask).text((-left, -top), s, font=f, fill=255, anchor=anchor, stroke_width=stroke_width,
                              stroke_fill=255)
    return mask, (left, top)


def render_face(
    counter: Counter,
    side: str = "front",
    *,
    dpi: float = 300,
    size_mm: float | None = None,
    bleed_mm: float = 0.0,
    supersample: int = 2,
) -> Image.Image:
    """One face of ``counter`` as an RGB image, ``size_mm`` (default: the game's size) at ``dpi``.

    With ``bleed_mm`` the background extends that far beyond the cut line on every side (the image
    is then larger than the counter by twice the bleed).
    """
    face = counter.face(side)
    size = counter.size_mm if size_mm is None else size_mm
    ss = max(1, int(supersample))
    s_px = face_pixels(size, dpi) * ss
    b_px = round(bleed_mm / 25.4 * dpi) * ss
    bg = _rgb(face.color or counter.color)
    if face.state in ("used", "reduced", "depleted"):
        bg = _mix(bg, (255, 255, 255), 0.45)
    if counter.kind == "unit" and face.state != "blank":
        # the ground (frame, symbol, size mark) is shared by many units: drawn once, then copied
        img = _unit_ground(s_px, b_px, bg, face.state, _text_rgb(counter, face), counter.box_color, counter.symbol or counter.type,
                           counter.size).copy()
        _unit(_Pen(img, s_px, b_px), counter, face, bg)
    else:
        img = Image.new("RGB", (s_px + 2 * b_px, s_px + 2 * b_px), bg)
        pen = _Pen(img, s_px, b_px)
        if counter.kind == "unit":
            _unit(pen, counter, face, bg)
        else:
            _token(pen, counter, face, bg)
    return img.reduce(ss) if ss > 1 else img


def _text_rgb(counter: Counter, face: Face) -> RGB:
    return _rgb(face.text_color or counter.text_color)


@image_cache(64 * 1024 * 1024)
def _unit_ground(s_px: int, b_px: int, bg: RGB, state: str, ink: RGB, box_color: str, unit_type: str,
                 unit_size: str) -> Image.Image:
    """What a unit face shows before its names and values: background, frame, the reduced stripe,
    symbol and size mark (never drawn on: :func:`render_face` draws on a copy)."""
    img = Image.new("RGB", (s_px + 2 * b_px, s_px + 2 * b_px), bg)
    pen = _Pen(img, s_px, b_px)
    # thin inner border, as on die-cut sheets
    pen.d.rectangle(pen.box(1.5, 1.5, 98.5, 98.5), outline=_darker(bg, 0.25), width=pen.w(1.2))
    if state in ("reduced", "depleted"):
        pen.d.rectangle(pen.box(0, 0, 100, 9), fill=(255, 255, 255))
    # size mark and symbol
    box_fill = _rgb(box_color)
    if state != "full":
        box_fill = _mix(box_fill, (255, 255, 255), 0.4)
    draw_unit_symbol(pen.d, pen.box(29, 21, 71, 47), unit_type, width=pen.w(2.4), ink=ink, fill=box_fill)
    draw_size_mark(pen.d, pen.p(50, 0)[0], pen.p(0, 18)[1], 7 * pen.k, unit_size, width=pen.w(2.2), ink=ink)
    return img


def _unit(pen: _Pen, c: Counter, face: Face, bg: RGB) -> None:
    """A unit's names, step pips and values, on its ground (:func:`_unit_ground`)."""
    ink = _text_rgb(c, face)
    if face.state == "blank":
        pen.text(50, 50, c.formation or c.designation, size=14, fill=_darker(bg, 0.35), max_width=88)
        return
    # formation up the left edge, designation under the symbol
    if c.formation:
        _vertical_text(pen, 8.5, 35, c.formation, size=10.5, fill=ink, max_len=52)
    pen.text(50, 55.5, c.designation, size=13, fill=ink, max_width=70)
    if c.steps > 1:
        for i in range(c.steps):
            x = 5 + i * 6.5
            shape = pen.box(x, 4, x + 4.5, 8.5)
            if i < c.step:
                pen.d.rectangle(shape, fill=ink)
            else:
                pen.d.rectangle(shape, outline=ink, width=pen.w(0.8))
    if face.state == "used":
        pen.text(84, 8, "USED", size=8, fill=_darker(bg, 0.6), name=FONT_COND_BOLD)
    if c.spaced_values:
        _spaced_values(pen, face.values, ink)
    else:
        _dashed_values(pen, face.values, ink)


def _spaced_values(pen: _Pen, values: Iterable[Value], ink: RGB) -> None:
    vals = list(values)
    xs = [17, 50, 83] if len(vals) == 3 else [100 * (i + 0.5) / max(1, len(vals)) for i in range(len(vals))]
    name = FONT_COND_BOLD if any(len(v.text()) > 1 for v in vals) else FONT_BOLD
    for x, v in zip(xs, vals, strict=True):
        fill = INK_RGB.get(v.ink or "", ink)
        stroke = (0, 0, 0) if v.ink == "white" else None
        pen.text(x, 80, v.text(), size=25, fill=fill, stroke=stroke, name=name, max_width=30)


def _dashed_values(pen: _Pen, values: Iterable[Value], ink: RGB) -> None:
    vals = list(values)
    rng = next((v for v in vals if v.role == "range"), None)
    main = [v for v in vals if v.role != "range"]
    pen.text(50, 81, "-".join(v.text() for v in main), size=24, fill=ink, max_width=92)
    if rng is not None:
        pen.text(88, 9, rng.text(), size=13, fill=ink)


def _vertical_text(pen: _Pen, x: float, y: float, s: str, *, size: float, fill: RGB, max_len: float) -> None:
    tile = _vertical_mask(s, pen.fit_px(s, size, FONT_COND_BOLD, max_len), math.ceil(size * pen.k * 1.3) + 2)
    cx, cy = pen.p(x, y)
    pen.img.paste(fill, (round(cx - tile.width / 2), round(cy - tile.height / 2)), tile)


@image_cache(16 * 1024 * 1024)
def _vertical_mask(s: str, px: int, h: int) -> Image.Image:
    """``s`` written bottom to top, as an "L" mask (a formation name repeats on many counters)."""
    f = font(FONT_COND_BOLD, px)
    w = math.ceil(f.getlength(s)) + 4
    tile = Image.new("L", (w, h), 0)
    ImageDraw.Draw(tile).text((w / 2, h / 2), s, font=f, fill=255, anchor="mm")
    return tile.rotate(90, expand=True)


def _wrap(s: str) -> list[str]:
    """Split a title on spaces into at most two balanced lines."""
    words = s.split()
    if len(words) < 2 or len(s) <= 9:
        return [s]
    best = [s]
    best_len = len(s)
    for i in range(1, len(words)):
        a, b = " ".join(words[:i]), " ".join(words[i:])
        if max(len(a), len(b)) < best_len:
            best, best_len = [a, b], max(len(a), len(b))
    return best


def _token(pen: _Pen, c: Counter, face: Face, bg: RGB) -> None:
    ink = _text_rgb(c, face)
    if c.kind == "chit":
        pen.d.rounded_rectangle(
            pen.box(5, 5, 95, 95), radius=8 * pen.k, outline=_darker(bg, 0.35), width=pen.w(2)
        )
    else:
        pen.d.rectangle(pen.box(1.5, 1.5, 98.5, 98.5), outline=_darker(bg, 0.3), width=pen.w(1.2))
    title_y = 50.0
    if face.icon == "number":
        pen.text(50, 52, face.title, size=58, fill=ink)
        return
    if face.icon:
        _icon(pen, face.icon, ink, bg)
        title_y = 70
    lines = _wrap(face.title) if face.title else []
    if len(lines) == 2:
        pen.text(50, title_y - 9, lines[0], size=17, fill=ink, max_width=86)
        pen.text(50, title_y + 8, lines[1], size=17, fill=ink, max_width=86)
        sub_y = title_y + 24
    elif lines:
        pen.text(50, title_y - (4 if face.subtitle else 0), lines[0], size=20, fill=ink, max_width=86)
        sub_y = title_y + 15
    else:
        sub_y = title_y
    if face.subtitle:
        pen.text(50, min(sub_y, 90), face.subtitle, size=10, fill=ink, name=FONT_COND_BOLD, max_width=86)


def _icon(pen: _Pen, icon: str, ink: RGB, bg: RGB) -> None:
    d = pen.d
    if icon == "arrow":  # breach marker: points at a hexside (RG 14.1)
        d.polygon([pen.p(50, 8), pen.p(68, 30), pen.p(57, 30), pen.p(57, 48), pen.p(43, 48), pen.p(43, 30), pen.p(32, 30)],
                  fill=ink)  # fmt: skip
    elif icon == "star":
        d.polygon(_star_points(pen, 5, 22, 9, 32), fill=ink)
    elif icon == "burst":
        d.polygon(_star_points(pen, 8, 22, 11, 31), fill=(220, 40, 40), outline=ink, width=pen.w(1))


def _star_points(pen: _Pen, spikes: int, outer: float, inner: float, cy: float) -> list[tuple[float, float]]:
    """A star of ``spikes`` points centred at (50, cy), radii in face units, first point up."""
    pts = []
    for i in range(2 * spikes):
        r = outer if i % 2 == 0 else inner
        a = -math.pi / 2 + i * math.pi / spikes
        pts.append(pen.p(50 + r * math.cos(a), cy + r * math.sin(a)))
    return pts


def render_faces(
    counters: Iterable[Counter], **options: object
) -> Iterator[tuple[Counter, str, Image.Image]]:
    """``(counter, side, image)`` for the front and back of every counter (options as :func:`counter_face`)."""
    for c in counters:
        for side in ("front", "back"):
            yield c, side, counter_face(c, side, **options)  # type: ignore[arg-type]


def _contact_bands(
    counters: Sequence[Counter], *, dpi: float, columns: int, gap_px: int, sides: tuple[str, ...]
) -> tuple[int, int, Iterator[Image.Image]]:
    """A contact sheet's width, height and its bands of rows: one row of faces each (its top gap
    included), then the bottom gap. Only one row's faces are ever drawn at a time."""
    n = len(counters) * len(sides)
    w = max((face_pixels(c.size_mm, dpi) for c in counters), default=1)
    pitch = w + gap_px
    if columns * pitch * pitch > MAX_CONTACT_ROW_PIXELS:  # one row of faces is held at a time: bounded
        raise GazalaError(f"a row of the contact sheet would be {columns * pitch:,} x {pitch:,} pixels "
                          f"({columns} faces of {w:,} pixels)",
                          expected=f"at most {MAX_CONTACT_ROW_PIXELS:,} pixels a row: a lower --dpi or fewer --columns")
    rows = math.ceil(n / columns)
    width, height = columns * pitch + gap_px, rows * pitch + gap_px
    if width * height > MAX_CONTACT_PIXELS:  # the time to compress it grows with its pixels
        raise GazalaError(f"the contact sheet would be {width:,} x {height:,} pixels ({n:,} faces of {w:,} pixels)",
                          expected=f"at most {MAX_CONTACT_PIXELS:,} pixels: a lower --dpi")

    def bands() -> Iterator[Image.Image]:
        faces = ((c, s) for c in counters for s in sides)
        for _ in range(rows):
            band = Image.new("RGB", (width, pitch), CONTACT_GROUND)
            for col in range(columns):
                nxt = next(faces, None)
                if nxt is None:
                    break
                band.paste(counter_face(nxt[0], nxt[1], dpi=dpi), (gap_px + col * pitch, gap_px))
            yield band
        yield Image.new("RGB", (width, gap_px), CONTACT_GROUND)

    return width, height, bands()


#: the contact sheet's background
CONTACT_GROUND: Final = (250, 250, 250)
#: most pixels of one row of a contact sheet (the sheet is written a row at a time)
MAX_CONTACT_ROW_PIXELS: Final = 16_000_000
#: most pixels of a whole contact sheet (RG's 336 faces at 100 dpi: 1.5 Mpx; 20,000 such faces: 130 Mpx)
MAX_CONTACT_PIXELS: Final = 200_000_000
#: the largest face drawn (its side in pixels, bleed included): the counter-art cap
MAX_FACE_SIDE: Final = 5000


def contact_sheet(
    counters: Iterable[Counter],
    *,
    dpi: float = 150,
    columns: int = 14,
    gap_px: int = 4,
    sides: tuple[str, ...] = ("front", "back"),
) -> Image.Image:
    """All faces in a grid (fronts then backs per counter), for looking at a whole set at once
    (in memory: :func:`write_contact_sheet` writes a large one row by row)."""
    cs = list(counters)
    if not cs or not sides:
        return Image.new("RGB", (1, 1), "white")
    return stack_bands(*_contact_bands(cs, dpi=dpi, columns=columns, gap_px=gap_px, sides=sides), CONTACT_GROUND)


def write_contact_sheet(
    counters: Iterable[Counter],
    out: IO[bytes],
    *,
    dpi: float = 150,
    columns: int = 14,
    gap_px: int = 4,
    sides: tuple[str, ...] = ("front", "back"),
) -> tuple[int, int, int]:
    """:func:`contact_sheet` written to ``out`` as a PNG one row of faces at a time (memory: one row,
    whatever the number of counters); returns width, height and bytes written."""
    cs = list(counters)
    if not cs or not sides:
        png = PngStream(out, 1, 1)
        png.add(Image.new("RGB", (1, 1), "white"))
    else:
        width, height, bands = _contact_bands(cs, dpi=dpi, columns=columns, gap_px=gap_px, sides=sides)
        png = PngStream(out, width, height, level=CONTACT_PNG_LEVEL)
        for band in bands:
            png.add(band)
    png.close()
    return png.width, png.height, png.bytes


#: zlib level of a contact sheet (RG's: 193,019 bytes, against 231,745 from Pillow's optimize=True)
CONTACT_PNG_LEVEL: Final = 6


# --- the counters' own art -----------------------------------------------------------------------
#: largest art file read (bytes) and image (pixels): checked before anything is decoded
MAX_ART_BYTES: Final = 32 * 1024 * 1024
MAX_ART_PIXELS: Final = ART_PIXEL_CAP
ART_FORMATS: Final = ("PNG", "JPEG", "GIF")
#: how far from square a counter's art may be (width / height)
ART_ASPECT_TOLERANCE: Final = 0.03
#: pixels on the long side of SVG counter art drawn at no particular size (a 19 mm counter at 1,600 dpi)
SVG_ART_PX: Final = 1200
#: bytes of decoded art kept for reuse (faces at the sizes asked; the originals are never kept)
ART_CACHE_BYTES: Final = 256 * 1024 * 1024
#: the placeholder's colours: a pale ground crossed in red, the way a missing image shows
PLACEHOLDER_GROUND: Final = (236, 236, 236)
PLACEHOLDER_MARK: Final = (200, 16, 46)

_ART_CACHE: SizedDict[tuple[str, int, int, int], Image.Image] = SizedDict(
    ART_CACHE_BYTES, lambda im: im.width * im.height * len(im.getbands()))


def near_square(w: float, h: float) -> bool:
    """Counter art's one squareness rule (``game import`` and every sheet, docs/counters.md "Your own art"):
    its sides differ by at most :data:`ART_ASPECT_TOLERANCE` of the longer one (168 x 163 is, 168 x 162 is
    not). Such art is drawn fitted into the counter (:func:`fitted`)."""
    return w > 0 and h > 0 and abs(w - h) <= ART_ASPECT_TOLERANCE * max(w, h)


def fit_size(w: int, h: int, side: int) -> tuple[int, int]:
    """The size art of ``w`` x ``h`` pixels is drawn at inside a ``side`` square: its longer side ``side``,
    its aspect kept."""
    m = max(w, h)
    return max(1, round(side * w / m)), max(1, round(side * h / m))


def fitted(im: Image.Image, side: int) -> Image.Image:
    """``im`` (RGB) fitted into a ``side`` square: scaled to :func:`fit_size`, centred on white (the ground
    a transparent part of art is flattened on), as VASSAL draws a piece image centred on its position."""
    size = fit_size(im.width, im.height, side)
    if im.size != size:
        im = im.resize(size, Image.Resampling.LANCZOS, reducing_gap=3.0)
    if size == (side, side):
        return im
    out = Image.new("RGB", (side, side), (255, 255, 255))
    out.paste(im, ((side - size[0]) // 2, (side - size[1]) // 2))
    return out


def _not_square(path: str, w: int, h: int, what: str = "is") -> GazalaError:
    return GazalaError(f"counter art {what} {w} x {h} pixels, not square", file=path,
                       expected=f"a square image of the counter (cut size), its sides within "
                                f"{ART_ASPECT_TOLERANCE:.0%} of each other")


def _svg_art(path: str, data: bytes, px: int) -> Image.Image:
    from gazala_tools.inputs import svg_size
    from gazala_tools.render.svg import rasterise

    w, h = svg_size(data) or (1, 1)
    if w < 1 or h < 1 or not near_square(w, h):
        raise _not_square(path, w, h, "declares")
    name, resolve = sandbox_of(path)
    side = px or SVG_ART_PX
    im = rasterise(data, file=path, what="counter art", out_size=fit_size(round(w), round(h), side),
                   max_pixels=MAX_ART_PIXELS, resolve=resolve, name=name)
    flat = Image.new("RGB", im.size, (255, 255, 255))
    flat.paste(im, mask=im.getchannel("A"))
    return fitted(flat, side)


def _raster_art(path: str, data: bytes, px: int) -> Image.Image:
    im = open_image(data, file=path, what="counter art", max_pixels=MAX_ART_PIXELS, load=False)
    with im:
        if im.format not in ART_FORMATS:
            raise GazalaError(f"counter art is {im.format or 'an unknown format'}", file=path,
                              expected=" / ".join(ART_FORMATS))
        w, h = im.size
        if not near_square(w, h):
            raise _not_square(path, w, h)
        current_budget().charge(pixels=w * h, file=path, what="counter art")
        try:
            if px and im.format == "JPEG":
                im.draft("RGB", (px, px))  # a scan decoded at a fraction of its size
            im.load()
            if im.mode in ("P", "PA", "LA", "RGBA", "La", "RGBa") or "transparency" in im.info:
                rgba = im.convert("RGBA")  # transparency flattened on white, as an SVG's is
                rgb = Image.new("RGB", rgba.size, (255, 255, 255))
                rgb.paste(rgba, mask=rgba.getchannel("A"))
            else:
                rgb = im.convert("RGB")
        except (OSError, ValueError, SyntaxError, EOFError, Image.DecompressionBombError) as exc:
            raise GazalaError(f"counter art cannot be read ({exc})", file=path,
                              expected="a PNG, JPEG or GIF image") from None
    return fitted(rgb, px or max(rgb.size))


def load_art(path: str | Path, px: int = 0) -> Image.Image:
    """A counter's art file as an RGB image, ``px`` pixels square (0: its own size; an SVG at
    :data:`SVG_ART_PX`): its format from its bytes (PNG, JPEG, GIF or SVG, whatever its name), checked
    (file size, pixels, squareness) before it is decoded and charged to the command's art budget. Faces
    are kept for reuse within :data:`ART_CACHE_BYTES`; the decoded original never is."""
    p = str(path)
    try:
        st = os.stat(p)
    except OSError as exc:
        raise GazalaError(f"counter art cannot be read ({exc.strerror})", file=p) from None
    if not stat.S_ISREG(st.st_mode):
        raise GazalaError("counter art is not a regular file", file=p, expected="a PNG, JPEG, GIF or SVG image")
    if st.st_size > MAX_ART_BYTES:
        raise GazalaError(f"counter art is {st.st_size:,} bytes", file=p, expected=f"at most {MAX_ART_BYTES:,} bytes")
    key = (p, st.st_mtime_ns, st.st_size, px)
    got = _ART_CACHE.get(key)
    if got is None:
        data = read_file(p, what="counter art", cap=MAX_ART_BYTES)
        kind = sniff_image(data)
        if kind is None:
            raise GazalaError("counter art cannot be read: it is not a PNG, JPEG, GIF or SVG image (by its bytes)",
                              file=p, expected="a PNG, JPEG, GIF or SVG image")
        got = _ART_CACHE.put(key, _svg_art(p, data, px) if kind == "SVG" else _raster_art(p, data, px))
    return got


def art_face(counter: Counter, side: str = "front", *, dpi: float = 300, size_mm: float | None = None,
             bleed_mm: float = 0.0) -> Image.Image:
    """The counter's own art for ``side``, at the size :func:`render_face` would draw (bleed: edge pixels repeated)."""
    path = counter.art(side)
    if not path:
        raise GazalaError(f"counter {counter.id!r} has no art for its {side}")
    size = counter.size_mm if size_mm is None else size_mm
    s_px = face_pixels(size, dpi)
    b_px = round(bleed_mm / 25.4 * dpi)
    img = load_art(path, s_px)
    if b_px > 0:  # the bleed: each edge row/column of the art stretched outwards
        s, b, n = s_px, b_px, s_px + 2 * b_px
        out = Image.new("RGB", (n, n))
        out.paste(img, (b, b))
        out.paste(img.crop((0, 0, s, 1)).resize((s, b)), (b, 0))
        out.paste(img.crop((0, s - 1, s, s)).resize((s, b)), (b, b + s))
        out.paste(img.crop((0, 0, 1, s)).resize((b, s)), (0, b))
        out.paste(img.crop((s - 1, 0, s, s)).resize((b, s)), (b + s, b))
        for x, y, cx, cy in ((0, 0, 0, 0), (b + s, 0, s - 1, 0), (0, b + s, 0, s - 1), (b + s, b + s, s - 1, s - 1)):
            out.paste(img.getpixel((cx, cy)), (x, y, x + b, y + b))  # type: ignore[arg-type]
        img = out
    return img


def counter_face(counter: Counter, side: str = "front", *, dpi: float = 300, size_mm: float | None = None,
                 bleed_mm: float = 0.0, supersample: int = 2) -> Image.Image:
    """Face ``side`` of ``counter``: its own art when the manifest gives some, else :func:`render_face`.
    Art that cannot be drawn is an error, or, inside :func:`gazala_tools.render.art.drawing_placeholders`,
    a marked :func:`placeholder` (the image and its reason recorded for the command's summary)."""
    size = counter.size_mm if size_mm is None else size_mm
    side_px = face_pixels(size, dpi) + 2 * round(bleed_mm / 25.4 * dpi)
    if side_px > MAX_FACE_SIDE:  # before anything is allocated, a placeholder included
        raise GazalaError(f"a face of {size:g} mm at {dpi:g} dpi would be {side_px:,} pixels square",
                          expected=f"at most {MAX_FACE_SIDE:,} pixels: a lower --dpi or a smaller --size")
    if counter.art(side):
        try:
            return art_face(counter, side, dpi=dpi, size_mm=size_mm, bleed_mm=bleed_mm)
        except GazalaError as exc:
            problems = placeholders_on()
            if problems is None:
                raise
            problems.add(str(exc.file or counter.art(side)), exc.problem, counter.id)
            return placeholder(counter, face_pixels(size, dpi), round(bleed_mm / 25.4 * dpi))
    return render_face(counter, side, dpi=dpi, size_mm=size_mm, bleed_mm=bleed_mm, supersample=supersample)


def placeholder(counter: Counter | None, size_px: int, bleed_px: int = 0, *, label: str = "") -> Image.Image:
    """A marked stand-in for art that cannot be drawn: a pale face crossed in red, framed, with the
    counter's name, so that a sheet shows at once which counter lacks its image."""
    n = size_px + 2 * bleed_px
    img = Image.new("RGB", (n, n), PLACEHOLDER_GROUND)
    d = ImageDraw.Draw(img)
    b, s = bleed_px, size_px
    w = max(1, s // 24)
    d.rectangle((b, b, b + s - 1, b + s - 1), outline=PLACEHOLDER_MARK, width=w)
    d.line((b, b, b + s - 1, b + s - 1), fill=PLACEHOLDER_MARK, width=w)
    d.line((b, b + s - 1, b + s - 1, b), fill=PLACEHOLDER_MARK, width=w)
    text = drawable(label or (counter.id if counter is not None else ""))[:24]
    f = font(FONT_COND_BOLD, max(6, s // 8))
    for y, line in ((b + s // 4, "NO IMAGE"), (b + 3 * s // 4, text)):
        if line:
            d.text((b + s / 2, y), line, font=f, fill=(0, 0, 0), anchor="mm", stroke_width=max(1, s // 60),
                   stroke_fill=PLACEHOLDER_GROUND)
    return img
