"""Images of the module: counter faces, status badges, chit masks, charts, tracks, the About screen.

:func:`face_image` gives a counter's own art (``counters.yaml``) scaled to the palette size, or asks
:func:`gazala_tools.render.counters.render_face` to draw the face; if the renderer fails on a
counter a plain face is drawn here (background colour, designation and formation or the
chit/marker title, and the printed values). Status badges and chit masks are always drawn here
(the counter sheet has no such images). :func:`png_bytes` encodes deterministically: the same
image gives the same bytes (no time or software chunks).
"""

from __future__ import annotations

import functools
import io
import logging
import zlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from gazala_tools.escape import drawable
from gazala_tools.render.pngstream import png_chunk, png_header, png_rows, stack_bands

__all__ = [
    "OOB_GROUND",
    "PNG_LEVEL",
    "about",
    "badge",
    "face_image",
    "log",
    "mask",
    "order_of_battle",
    "order_of_battle_png",
    "plain_face",
    "png_bytes",
    "png_bytes_of_bands",
    "track_board",
    "track_marker",
]

log = logging.getLogger(__name__)

@functools.lru_cache(maxsize=32)
def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    try:
        return ImageFont.truetype("DejaVuSans-Bold.ttf", size)
    except OSError:
        return ImageFont.load_default()


#: zlib level of the PNGs framed by :func:`png_bytes` (levels 1 to 3 cost the same time on counter
#: faces, a rendered board and an order-of-battle chart; 3 gives the smallest files of them)
PNG_LEVEL = 3
#: rows compressed per call when a large image is framed (keeps the copy of its pixels small)
_ROWS_PER_BLOCK = 256


def png_bytes(img: Image.Image) -> bytes:
    """PNG bytes of ``img``, the same bytes for the same pixels (no time or text chunks).

    RGB / RGBA images are framed here (unfiltered rows, zlib level :data:`PNG_LEVEL`): Pillow's
    ``save`` spends most of its time in per-call Python overhead on a 50-pixel face (this is three
    times as fast and a quarter smaller on flat counter art, measured on the RG faces), and in its
    adaptive row filters on a rendered board or an order-of-battle chart (this is twice as fast
    there, for files from a tenth smaller to a third larger; measured on the 5,000-counter benchmark game).
    Other modes go through Pillow (level 3)."""
    w, h = img.size
    if img.mode not in ("RGB", "RGBA") or w == 0 or h == 0:
        buf = io.BytesIO()
        img.save(buf, "PNG", compress_level=3)
        return buf.getvalue()
    if h <= _ROWS_PER_BLOCK:  # a face: in one piece
        return _framed(w, h, zlib.compress(png_rows(img), PNG_LEVEL), alpha=img.mode == "RGBA")
    return png_bytes_of_bands(w, h, (img.crop((0, top, w, min(h, top + _ROWS_PER_BLOCK)))
                                     for top in range(0, h, _ROWS_PER_BLOCK)), alpha=img.mode == "RGBA")


def png_bytes_of_bands(width: int, height: int, bands: Iterable[Image.Image], *, alpha: bool = False) -> bytes:
    """:func:`png_bytes` of an image given as bands of rows, top to bottom (the same bytes as of the
    whole image): only one band's pixels and the compressed data are in memory at a time."""
    z = zlib.compressobj(PNG_LEVEL)
    data = [z.compress(png_rows(band)) for band in bands]
    data.append(z.flush())
    return _framed(width, height, b"".join(data), alpha=alpha)


def _framed(width: int, height: int, data: bytes, *, alpha: bool) -> bytes:
    return png_header(width, height, alpha=alpha) + png_chunk(b"IDAT", data) + png_chunk(b"IEND", b"")


def _rgb(colour: str | None, default: tuple[int, int, int]) -> tuple[int, int, int]:
    if not colour or not colour.startswith("#") or len(colour) != 7:
        return default
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def _centered(draw: ImageDraw.ImageDraw, y: int, width: int, text: str, size: int, fill: tuple[int, int, int]) -> None:
    if not text:
        return
    text = drawable(text)
    font = _font(size)
    while size > 6 and draw.textlength(text, font=font) > width - 4:
        size -= 1
        font = _font(size)
    draw.text(((width - draw.textlength(text, font=font)) / 2, y), text, font=font, fill=fill)


def plain_face(counter: Any, side: str, size: int, background: str | None = None, text_colour: str | None = None) -> Image.Image:
    """A legible stand-in face: colour, name lines and values (no unit symbol)."""
    face = counter.face(side)
    bg = _rgb(face.color or background, (235, 235, 235))
    fg = _rgb(face.text_color or text_colour, (0, 0, 0))
    img = Image.new("RGB", (size, size), bg)
    draw = ImageDraw.Draw(img)
    draw.rectangle([0, 0, size - 1, size - 1], outline=(40, 40, 40))
    s = max(7, size // 6)
    if counter.kind == "unit":
        _centered(draw, 2, size, counter.designation, s, fg)
        _centered(draw, 2 + s + 1, size, counter.formation, max(6, s - 3), fg)
        box = (size // 4, size // 2 - s // 2, 3 * size // 4, size // 2 + s // 2 + 2)
        draw.rectangle(box, outline=fg, width=1)
        if face.state in ("used",):
            _centered(draw, box[1], size, "USED", max(6, s - 3), fg)
        vals = " ".join(v.text() for v in face.values)
        _centered(draw, size - s - 4, size, vals, s, fg)
    else:
        _centered(draw, size // 2 - s - 2, size, face.title, s, fg)
        _centered(draw, size // 2 + 2, size, face.subtitle, max(6, s - 3), fg)
        if face.icon == "arrow":
            draw.polygon([(size // 2, 2), (size // 2 - s // 2, 2 + s // 2), (size // 2 + s // 2, 2 + s // 2)], fill=fg)
    return img


def _renderer() -> Callable[..., Image.Image] | None:
    try:
        from gazala_tools.render import counters as rc  # the counters area's face renderer
    except ImportError:  # pragma: no cover - part of the package
        return None
    fn = getattr(rc, "render_face", None)
    return fn if callable(fn) else None


def face_image(counter: Any, side: str, *, dpi: float, size: int) -> Image.Image:
    """The ``side`` ("front"/"back") face of ``counter``, ``size`` pixels square at ``dpi``: its own
    art when the manifest gives some (errors in it are the user's: they propagate), else drawn."""
    from gazala_tools.render.counters import load_art

    if counter.art(side):
        return load_art(counter.art(side), size)  # its format from its bytes, drawn at the palette size
    fn = _renderer()
    if fn is not None:
        try:
            img = fn(counter, side, dpi=dpi)
        except Exception as exc:  # a renderer bug must not stop the module build
            log.warning("render_face failed for %s/%s (%s); using a plain face", counter.id, side, exc)
        else:
            return img if img.size == (size, size) else img.resize((size, size), Image.Resampling.LANCZOS)
    return plain_face(counter, side, size, counter.color, counter.text_color)


def badge(text: str, colour: tuple[int, int, int], size: int) -> Image.Image:
    """A status badge drawn over a unit (transparent but for a coloured band with ``text``)."""
    img = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    h = max(9, size // 4)
    top = size // 2 - h // 2
    draw.rectangle([0, top, size - 1, top + h], fill=(*colour, 225))
    _centered(draw, top, size, text, h - 1, (255, 255, 255))
    return img


def mask(title: str, colour: str | None, size: int) -> Image.Image:
    """The hidden side of a chit drawn from a cup."""
    img = Image.new("RGB", (size, size), _rgb(colour, (200, 200, 200)))
    draw = ImageDraw.Draw(img)
    draw.rectangle([0, 0, size - 1, size - 1], outline=(40, 40, 40))
    _centered(draw, size // 2 - size // 6, size, title, max(7, size // 6), (0, 0, 0))
    return img


def order_of_battle(title: str, rows: Sequence[tuple[str, Sequence[bytes]]], size: int) -> Image.Image:
    """A chart: one row per formation, its name then its counters (full strength) side by side."""
    return stack_bands(*_oob_bands(title, rows, size), OOB_GROUND)


def order_of_battle_png(title: str, rows: Sequence[tuple[str, Sequence[bytes]]], size: int) -> bytes:
    """:func:`png_bytes` of :func:`order_of_battle`, drawn one formation at a time (a large game's
    chart is tens of thousands of pixels tall: never whole in memory)."""
    width, height, bands = _oob_bands(title, rows, size)
    return png_bytes_of_bands(width, height, bands)


OOB_GROUND = (250, 246, 236)


def _oob_bands(title: str, rows: Sequence[tuple[str, Sequence[bytes]]], size: int
               ) -> tuple[int, int, Iterator[Image.Image]]:
    """The chart's width, height and bands: the title, one per formation, the bottom margin."""
    pad, label_w = 8, 150
    n = max((len(faces) for _f, faces in rows), default=1)
    width = label_w + pad + n * (size + pad) + pad
    height = 40 + len(rows) * (size + pad) + pad

    def bands() -> Iterator[Image.Image]:
        head = Image.new("RGB", (width, 40), OOB_GROUND)
        ImageDraw.Draw(head).text((pad, 8), drawable(title), font=_font(20), fill=(0, 0, 0))
        yield head
        for formation, faces in rows:
            band = Image.new("RGB", (width, size + pad), OOB_GROUND)
            ImageDraw.Draw(band).text((pad, size // 2 - 8), drawable(formation), font=_font(14), fill=(0, 0, 0))
            x = label_w + pad
            for blob in faces:
                face: Image.Image = Image.open(io.BytesIO(blob))
                if face.mode == "RGB":  # our faces: opaque, pasted as they are
                    band.paste(face, (x, 0))
                else:
                    rgba = face.convert("RGBA")
                    band.paste(rgba, (x, 0), rgba)
                x += size + pad
            yield band
        yield Image.new("RGB", (width, pad), OOB_GROUND)

    return width, height, bands()


def about(title: str, lines: Sequence[str], board: bytes | Image.Image, width: int = 640) -> Image.Image:
    """The About screen: a thumbnail of the board (an image, or its file's bytes) under the title and a few lines."""
    source: Image.Image = board if isinstance(board, Image.Image) else Image.open(io.BytesIO(board))
    if source.format == "JPEG":
        source.draft("RGB", (width - 40, 360))  # decode a scan at a fraction of its size
    if source is not board and source.mode == "RGB" and source.format != "JPEG":
        thumb = source  # opened here: reduced in place, not copied first (a large board is 100 MB decoded)
    else:
        thumb = source.convert("RGB")
    thumb.thumbnail((width - 40, 360))
    height = 90 + thumb.height + 24 * len(lines) + 20
    img = Image.new("RGB", (width, height), (250, 246, 236))
    draw = ImageDraw.Draw(img)
    _centered(draw, 20, width, title, 26, (0, 0, 0))
    img.paste(thumb, ((width - thumb.width) // 2, 70))
    y = 80 + thumb.height
    for line in lines:
        _centered(draw, y, width, line, 15, (40, 40, 40))
        y += 24
    return img


def track_board(title: str, boxes: Sequence[tuple[tuple[int, int, int, int], str]], width: int, height: int) -> Image.Image:
    """A track's board: the title, then numbered boxes (``(left, top, right, bottom), number``)."""
    img = Image.new("RGB", (width, height), (250, 246, 236))
    draw = ImageDraw.Draw(img)
    _centered(draw, 14, width, title, 20, (0, 0, 0))
    for (x0, y0, x1, y1), number in boxes:
        draw.rectangle([x0, y0, x1 - 1, y1 - 1], fill=(255, 255, 255), outline=(60, 60, 60), width=2)
        draw.text((x0 + 5, y0 + 3), drawable(number), font=_font(max(10, (y1 - y0) // 5)), fill=(60, 60, 60))
    return img


def track_marker(title: str, subtitle: str, colour: tuple[int, int, int], size: int) -> Image.Image:
    """A plain track marker: ``title`` over ``subtitle`` on the side's colour."""
    img = Image.new("RGB", (size, size), colour)
    draw = ImageDraw.Draw(img)
    draw.rectangle([0, 0, size - 1, size - 1], outline=(30, 30, 30))
    _centered(draw, size // 5, size, title, max(8, size // 4), (0, 0, 0))
    _centered(draw, size // 2 + 2, size, subtitle, max(7, size // 6), (0, 0, 0))
    return img
