"""Reading scans: a documented pixel cap instead of Pillow's warning, grey levels, tiles.

Pillow refuses images above ``Image.MAX_IMAGE_PIXELS`` only with a warning (and errors at twice
that). We set one documented cap instead, :data:`MAX_PIXELS` = 250 megapixels (about 750 MB as
RGB: a 22 x 17 inch map at 600 dpi is 135 Mpx; a 34 x 22 inch map at 600 dpi, 269 Mpx, needs
``--max-pixels``), check the size from the header *before* decoding, and raise a
:class:`~gazala_tools.errors.GazalaError` naming the file, its size and the cap.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Iterator
from pathlib import Path

import numpy as np
from numpy.typing import NDArray
from PIL import Image, UnidentifiedImageError

from gazala_tools.errors import GazalaError
from gazala_tools.inputs import check_plausible, is_regular

#: The largest scan read without ``max_pixels=...`` (``--max-pixels`` on the command line).
MAX_PIXELS = 250_000_000

FloatImage = NDArray[np.float32]


def open_image(path: str | Path, *, max_pixels: int = MAX_PIXELS, grey: bool = False) -> Image.Image:
    """Open a scan as RGB, refusing anything above ``max_pixels`` before decoding it.

    ``grey``: as 8-bit grey ("L") instead, for the grid detection, without a colour copy where
    the format allows it: a JPEG is decoded straight to its luma (libjpeg's Y, the same weights
    as Pillow's RGB-to-L), a grey scan stays as it is; a 250 Mpx JPEG then needs 250 MB, not
    1 GB (Pillow keeps RGB in 4 bytes a pixel) and 250 MB more for the grey copy.
    """
    p = Path(path)
    if p.exists() and not is_regular(p):  # a FIFO or a device would block or never end
        raise GazalaError("image is not a regular file", file=p, expected="a PNG, JPEG or TIFF scan")
    old = Image.MAX_IMAGE_PIXELS
    try:
        Image.MAX_IMAGE_PIXELS = None  # we check the header ourselves, with our cap
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            try:
                img = Image.open(p)
            except FileNotFoundError:
                raise GazalaError("no such image", file=p) from None
            except (OSError, UnidentifiedImageError, ValueError, SyntaxError, EOFError) as exc:
                raise GazalaError(f"cannot read image ({exc})", file=p, expected="a PNG, JPEG or TIFF scan") from None
            w, h = img.size
            if w * h > max_pixels:
                img.close()
                raise GazalaError(
                    f"image is {w}x{h} = {w * h / 1e6:.0f} Mpx, above the {max_pixels / 1e6:.0f} Mpx cap",
                    file=p,
                    expected="a smaller scan, or a higher cap with --max-pixels (needs about 4 bytes per pixel of RAM)",
                )
            try:
                check_plausible(img.format, (w, h), p.stat().st_size, file=p)
            except GazalaError:
                img.close()
                raise
            if grey and img.format == "JPEG" and img.mode == "RGB":
                img.draft("L", None)  # decode the luma only, at full size
            try:
                img.load()
            except (OSError, ValueError, SyntaxError, EOFError) as exc:  # also Pillow's text-chunk limit
                raise GazalaError(f"cannot decode image ({exc})", file=p) from None
    finally:
        Image.MAX_IMAGE_PIXELS = old
    if grey:
        return img if img.mode == "L" else (img if img.mode == "RGB" else img.convert("RGB")).convert("L")
    return img.convert("RGB") if img.mode != "RGB" else img


def image_dpi(img: Image.Image) -> int:
    """The scan's resolution from its header (``dpi``), 100 when it has none or a bad one."""
    dpi = img.info.get("dpi")
    try:
        return max(1, round(float(dpi[0]))) if dpi else 100
    except (TypeError, ValueError, IndexError):
        return 100


def to_rgb_array(img: Image.Image) -> NDArray[np.uint8]:
    return np.asarray(img.convert("RGB") if img.mode != "RGB" else img, dtype=np.uint8)


class RgbRegions:
    """An image read as an RGB array one region at a time: ``rgb[y0:y1, x0:x1]`` (a uint8 array)
    and ``shape``, what :func:`~gazala_tools.digitize.classify.classify_hexes` reads, without the
    full-size array copy :func:`to_rgb_array` makes (750 MB more for a 250 Mpx scan)."""

    def __init__(self, img: Image.Image) -> None:
        self._img = img if img.mode == "RGB" else img.convert("RGB")
        self.shape = (img.height, img.width, 3)

    def __getitem__(self, key: tuple[slice, slice]) -> NDArray[np.uint8]:
        ys, xs = key
        y0, y1, _ = ys.indices(self.shape[0])
        x0, x1, _ = xs.indices(self.shape[1])
        return np.asarray(self._img.crop((x0, y0, max(x0, x1), max(y0, y1))), dtype=np.uint8)


def to_grey(img: Image.Image | NDArray[np.generic]) -> FloatImage:
    """Luminance in 0..1 as float32."""
    if isinstance(img, Image.Image):
        arr = to_rgb_array(img).astype(np.float32)
    else:
        arr = np.asarray(img, dtype=np.float32)
    if arr.ndim == 3:
        arr = arr[..., 0] * 0.299 + arr[..., 1] * 0.587 + arr[..., 2] * 0.114
    return (arr / 255.0).astype(np.float32)


def downsample(arr: FloatImage, factor: int) -> FloatImage:
    """Block mean by an integer factor (crops the ragged border)."""
    if factor <= 1:
        return arr
    h, w = arr.shape[0] // factor * factor, arr.shape[1] // factor * factor
    a = arr[:h, :w]
    out: FloatImage = a.reshape(h // factor, factor, w // factor, factor).mean(axis=(1, 3)).astype(np.float32)
    return out


def factor_for(shape: tuple[int, ...], max_side: int) -> int:
    return max(1, math.ceil(max(shape[0], shape[1]) / max_side))


def tiles(height: int, width: int, tile: int = 2048, overlap: int = 0) -> Iterator[tuple[slice, slice]]:
    """Row-major tiles covering an image, each at most ``tile`` + 2*overlap pixels a side."""
    for y in range(0, height, tile):
        for x in range(0, width, tile):
            yield (
                slice(max(0, y - overlap), min(height, y + tile + overlap)),
                slice(max(0, x - overlap), min(width, x + tile + overlap)),
            )
