"""SVG images (VASSAL draws ``.svg`` piece and board images with Batik): their declared size and a
raster of them, with cairosvg.

An SVG is untrusted input: nothing outside its own bytes is ever read (no ``<image href="file:...">``,
no CSS ``@import``, no external ``<use>``, no XML entities), its bytes are capped
(:data:`MAX_SVG_BYTES`) and the raster's pixels are checked against the caps of
:mod:`gazala_tools.inputs` before cairo allocates anything. Every failure is ``error`` (one line
naming the file)."""

from __future__ import annotations

import io
from pathlib import Path
from typing import TYPE_CHECKING, Final

from gazala_tools.errors import GazalaError
from gazala_tools.inputs import MAX_IMAGE_PIXELS, check_pixels, is_svg, open_image, svg_size

if TYPE_CHECKING:
    from PIL import Image

__all__ = ["MAX_SVG_BYTES", "open_any_image", "rasterise"]

#: most bytes of one SVG file (a counter's art is a few KB; a board's a few MB)
MAX_SVG_BYTES: Final = 32 * 1024 * 1024

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


def open_any_image(data: bytes, *, file: str | Path, what: str = "image", max_pixels: int = MAX_IMAGE_PIXELS,
                   error: type[GazalaError] = GazalaError) -> Image.Image:
    """:func:`gazala_tools.inputs.open_image` of ``data``, an SVG drawn at its declared size as well."""
    if is_svg(data):  # nothing outside it read
        return rasterise(data, file=file, what=what, max_pixels=max_pixels, error=error)
    return open_image(data, file=file, what=what, max_pixels=max_pixels, error=error)
