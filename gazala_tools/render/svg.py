"""SVG images (VASSAL draws ``.svg`` piece and board images with Batik): their declared size and a
raster of them, with cairosvg.

An SVG is untrusted input: nothing outside its own bytes is ever read (no ``<image href="file:...">``,
no CSS ``@import``, no external ``<use>``, no XML entities), its bytes are capped
(:data:`MAX_SVG_BYTES`) and the raster's pixels are checked against the caps of
:mod:`gazala_tools.inputs` before cairo allocates anything. Every failure is ``error`` (one line
naming the file)."""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import TYPE_CHECKING, Final

from gazala_tools.errors import GazalaError
from gazala_tools.inputs import MAX_IMAGE_PIXELS, check_pixels

if TYPE_CHECKING:
    from PIL import Image

#: most bytes of one SVG file (a counter's art is a few KB; a board's a few MB)
MAX_SVG_BYTES: Final = 32 * 1024 * 1024

_ROOT = re.compile(rb"<svg\b([^>]*)>", re.S)
_ATTR = re.compile(rb"""\b(width|height|viewBox)\s*=\s*["']([^"']*)["']""")
_LENGTH = re.compile(r"^\s*([0-9]*\.?[0-9]+(?:[eE][+-]?[0-9]+)?)\s*(px|pt|pc|mm|cm|in)?\s*$")
#: CSS pixels (96 per inch) per unit, as Batik and cairosvg read them
_UNIT: Final = {"px": 1.0, "": 1.0, "pt": 96 / 72, "pc": 16.0, "mm": 96 / 25.4, "cm": 96 / 2.54, "in": 96.0}


def is_svg(data: bytes) -> bool:
    """True when ``data`` looks like an SVG document (its root element is ``<svg`` in the first 4 KB)."""
    head = data[:4096].lstrip(b"\xef\xbb\xbf \t\r\n")
    return head[:1] == b"<" and _ROOT.search(head) is not None


def _length(text: str) -> float | None:
    m = _LENGTH.match(text)
    return float(m.group(1)) * _UNIT[m.group(2) or ""] if m else None


def svg_size(data: bytes) -> tuple[int, int] | None:
    """Width and height in pixels the SVG declares (its root's width/height, else its viewBox), read
    from the first 4 KB without parsing the document; None when it declares none."""
    m = _ROOT.search(data[:4096])
    if m is None:
        return None
    attrs = {k.decode(): v.decode("utf-8", "replace") for k, v in _ATTR.findall(m.group(1))}
    w, h = _length(attrs.get("width", "")), _length(attrs.get("height", ""))
    box = [float(x) for x in re.findall(r"-?[0-9]*\.?[0-9]+", attrs.get("viewBox", ""))]
    if len(box) == 4 and (w is None or h is None):
        if w is None and h is None:
            w, h = box[2], box[3]
        elif w is None and h and box[3]:
            w = h * box[2] / box[3]
        elif h is None and w and box[2]:
            h = w * box[3] / box[2]
    if w is None or h is None:
        return None
    return max(round(w), 0), max(round(h), 0)


def _refuse(url: str, *args: object, **kwargs: object) -> bytes:
    """cairosvg's fetcher of external resources: nothing is read, the resource is empty."""
    return b""


def rasterise(data: bytes, *, file: str | Path, what: str = "image", scale: float = 1.0,
              max_pixels: int = MAX_IMAGE_PIXELS, error: type[GazalaError] = GazalaError) -> Image.Image:
    """The SVG drawn at ``scale`` times its declared size, as an RGBA Pillow image. Refused (``error``)
    when larger than :data:`MAX_SVG_BYTES`, declaring no size, more than ``max_pixels`` once scaled,
    or not drawable; nothing outside ``data`` is read."""
    from PIL import Image

    if len(data) > MAX_SVG_BYTES:
        raise error(f"SVG {what} is {len(data):,} bytes", file=file, expected=f"at most {MAX_SVG_BYTES:,} bytes")
    size = svg_size(data)
    if size is None:
        raise error(f"SVG {what} declares no size", file=file,
                    expected="width and height (or a viewBox) on its <svg> element")
    w, h = check_pixels(size, file=file, what=f"SVG {what}", max_pixels=max_pixels, error=error)
    out = check_pixels((max(1, round(w * scale)), max(1, round(h * scale))), file=file, what=f"SVG {what}",
                       max_pixels=max_pixels, error=error)
    try:
        from cairosvg.surface import PNGSurface

        png = PNGSurface.convert(bytestring=data, unsafe=False, url_fetcher=_refuse,
                                 output_width=out[0], output_height=out[1])
        img = Image.open(io.BytesIO(png))
        img.load()
    except Exception as exc:  # cairosvg raises parser, entity, cairo and value errors of many kinds
        raise error(f"SVG {what} cannot be drawn ({type(exc).__name__}: {' '.join(str(exc).split())[:120]})",
                    file=file, expected="a self-contained SVG image") from None
    return img.convert("RGBA")
