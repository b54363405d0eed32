"""Reading scans: a documented pixel cap instead of Pillow's warning, grey levels, tiles.

Pillow refuses images above ``Image.MAX_IMAGE_PIXELS`` only with a warning (and errors at twice
that). We set one documented cap instead, :data:`MAX_PIXELS` = 250 megapixels (about 750 MB as
RGB: a 22 x 17 inch map at 600 dpi is 135 Mpx; a 34 x 22 inch map at 600 dpi, 269 Mpx, needs
``--max-pixels``), check the size from the header *before* decoding, and raise a
:class:`~gazala_tools.errors.GazalaError` naming the file, its size and the cap.
"""

from __future__ import annotations

import itertools
import math
import struct
import warnings
import zlib
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any, Final, TypeVar

import numpy as np
from numpy.typing import NDArray
from PIL import Image, UnidentifiedImageError

from gazala_tools.errors import GazalaError
from gazala_tools.fileio import atomic_open
from gazala_tools.inputs import MAX_SCAN_PIXELS, check_plausible, is_regular

__all__ = [
    "BOMB_FROM_PIXELS",
    "MAX_PIXELS",
    "MAX_SCAN_PIXELS_PER_BYTE",
    "STRIP_ROWS",
    "Affine",
    "FloatImage",
    "R",
    "RgbRegions",
    "T",
    "affine_strips",
    "check_not_bomb",
    "downsample",
    "factor_for",
    "image_dpi",
    "image_format",
    "open_image",
    "row_bands",
    "save_png_strips",
    "threaded_map",
    "tiles",
    "to_grey",
    "to_rgb_array",
]

#: The largest scan read without ``max_pixels=...`` (``--max-pixels`` on the command line).
MAX_PIXELS: Final = MAX_SCAN_PIXELS
#: A scan larger than this may hold at most :data:`MAX_SCAN_PIXELS_PER_BYTE` pixels a byte of its file.
BOMB_FROM_PIXELS = 16_000_000
#: Most pixels a byte of a large scan's file may stand for, whatever its format (a printed map scanned
#: at 300 dpi holds 5 to 15, a board drawn by ``gazala map render`` about 30): more is a pixel bomb, a
#: small file (a 30 KB 1-bit PNG or a 7 KB fax-compressed TIFF of 249 Mpx) that decodes to gigabytes.
MAX_SCAN_PIXELS_PER_BYTE = 500

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
                file_bytes = p.stat().st_size
                check_plausible(img.format, (w, h), file_bytes, file=p)
                check_not_bomb(img, file_bytes, file=p)
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
    if grey:  # a 1-bit scan straight to grey (the same levels as through RGB, a quarter of the memory)
        return img if img.mode == "L" else (img if img.mode in ("RGB", "1") else img.convert("RGB")).convert("L")
    return img.convert("RGB") if img.mode != "RGB" else img


def check_not_bomb(img: Image.Image, file_bytes: int, *, file: str | Path) -> None:
    """Refuse, from the header alone, a large image whose file is far too small for its pixels in any
    format (PNG, TIFF with fax or LZW compression, WEBP, BMP with run lengths ...): decoding it would
    take about 4 bytes a pixel for a file of a few kilobytes."""
    w, h = img.size
    pixels = w * h
    if pixels > BOMB_FROM_PIXELS and pixels > max(file_bytes, 1) * MAX_SCAN_PIXELS_PER_BYTE:
        decoded = pixels * 4 / 2**30
        raise GazalaError(
            f"image is {w}x{h} = {pixels / 1e6:.0f} Mpx in a file of {file_bytes:,} bytes "
            f"({pixels // max(file_bytes, 1):,} pixels a byte; decoding would take about {decoded:.1f} GiB)",
            file=file,
            expected=f"a scan (at most {MAX_SCAN_PIXELS_PER_BYTE} pixels a byte of the file above "
                     f"{BOMB_FROM_PIXELS / 1e6:.0f} Mpx), not a pixel bomb",
        )


def image_format(path: str | Path) -> str | None:
    """The format of an image file from its first bytes (Pillow's name: ``PNG``, ``JPEG``, ``TIFF``,
    ``WEBP`` ...), whatever its name says; None when Pillow does not know it. Nothing is decoded."""
    p = Path(path)
    if not is_regular(p):
        raise GazalaError("image is not a regular file" if p.exists() else "no such image", file=p,
                          expected="a PNG, JPEG or TIFF scan")
    old = Image.MAX_IMAGE_PIXELS
    try:
        Image.MAX_IMAGE_PIXELS = None  # the size is checked when the scan is opened, with our cap
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(p) as img:
                return img.format
    except (OSError, UnidentifiedImageError, ValueError, SyntaxError, EOFError, struct.error):
        return None
    finally:
        Image.MAX_IMAGE_PIXELS = old


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


#: rows of one strip of :func:`affine_strips` and :func:`save_png_strips` (16000 px wide RGB: 12 MB)
STRIP_ROWS = 256

Affine = tuple[float, float, float, float, float, float]


def affine_strips(
    img: Image.Image,
    size: tuple[int, int],
    data: Affine,
    *,
    resample: Image.Resampling = Image.Resampling.BICUBIC,
    fill: int | tuple[int, int, int] | None = None,
    rows: int = STRIP_ROWS,
    workers: int = 2,
) -> Iterator[Image.Image]:
    """``img.transform(size, AFFINE, data, ...)`` one horizontal strip of ``rows`` at a time, top
    to bottom, without the whole output in memory. Pillow maps each output pixel on its own
    (``(a x + b y + c, d x + e y + f)`` at its centre), so a strip starting at row ``top`` is the
    transform with ``c + b top`` and ``f + e top``: the same pixels as the whole image's rows.
    ``workers`` threads make the next strips while the caller uses one (Pillow resamples without
    the GIL); at most ``workers`` + 1 strips exist at once."""
    a, b, c, d, e, f = data
    width, height = size

    def strip(top: int) -> Image.Image:
        n = min(rows, height - top)
        return img.transform((width, n), Image.Transform.AFFINE, (a, b, c + b * top, d, e, f + e * top),
                             resample=resample, fillcolor=fill)  # fmt: skip

    return threaded_map(strip, range(0, height, rows), workers)


T = TypeVar("T")
R = TypeVar("R")


def threaded_map(fn: Callable[[T], R], items: Iterable[T], workers: int) -> Iterator[R]:
    """``map(fn, items)`` in order, ``workers`` threads at once (Pillow, numpy, SciPy and zlib
    work without the GIL); at most ``workers`` + 1 results exist at once."""
    if workers <= 1:
        yield from map(fn, items)
        return
    with ThreadPoolExecutor(workers) as pool:
        ahead: deque[Future[R]] = deque()
        for item in items:
            ahead.append(pool.submit(fn, item))
            if len(ahead) > workers:
                yield ahead.popleft().result()
        while ahead:
            yield ahead.popleft().result()


def row_bands(h: int, margin: int, workers: int) -> list[tuple[int, int, int, int]]:
    """Rows ``[y0, y1)`` of ``workers`` bands of an image ``h`` rows high, each to be read as rows
    ``[a, b)``: ``margin`` rows more on each side (a filter's reach), so that a band's values are
    the whole image's and the workers share a filter evenly; one band when the image is too small
    to be worth it. As (a, b, y0, y1)."""
    n = workers if workers > 1 and h >= 8 * (margin + 1) * workers else 1
    edges = [h * i // n for i in range(n + 1)]
    return [(max(0, y0 - margin), min(h, y1 + margin), y0, y1) for y0, y1 in itertools.pairwise(edges)]


_PNG_COLOUR = {"L": 0, "RGB": 2}
_IDAT_BYTES = 1 << 20


def _png_chunk(fh: Any, tag: bytes, data: bytes | bytearray) -> None:
    fh.write(struct.pack(">I", len(data)) + tag)
    fh.write(data)
    fh.write(struct.pack(">I", zlib.crc32(data, zlib.crc32(tag))))


def _png_rows(strip: Image.Image, level: int) -> tuple[memoryview, bytes]:
    """A strip's PNG scanlines (the first row unfiltered, the others PNG's "Up": the difference
    from the row above) and their raw deflate, ended by a sync flush (on a byte boundary, not
    final), so that strips deflated apart join into one deflate stream."""
    rows = np.asarray(strip, dtype=np.uint8).reshape(strip.height, -1)
    out = np.empty((strip.height, rows.shape[1] + 1), dtype=np.uint8)
    out[0, 0], out[0, 1:] = 0, rows[0]
    out[1:, 0] = 2
    np.subtract(rows[1:], rows[:-1], out=out[1:, 1:])
    deflate = zlib.compressobj(level, zlib.DEFLATED, -15)
    return out.data, deflate.compress(out.data) + deflate.flush(zlib.Z_SYNC_FLUSH)


def save_png_strips(
    path: str | Path,
    size: tuple[int, int],
    mode: str,
    strips: Iterable[Image.Image],
    *,
    dpi: int | None = None,
    level: int = 6,
    workers: int = 2,
) -> None:
    """Write a PNG of ``size`` (8-bit ``mode`` "L" or "RGB") from its horizontal strips, top to
    bottom, streamed: the image never exists whole, in memory or in an encoded buffer. The file
    is written atomically (:func:`~gazala_tools.fileio.atomic_open`: beside the target, renamed
    when complete). Each strip is filtered and deflated (at ``level``) on its own, ``workers``
    at a time, and the pieces joined into the one zlib stream PNG wants (as pigz does);
    ``dpi`` is stored as a pHYs chunk."""
    width, height = size
    if mode not in _PNG_COLOUR:
        raise ValueError(f"PNG strips must be L or RGB, not {mode}")
    done = 0

    def checked() -> Iterator[Image.Image]:
        nonlocal done
        for strip in strips:
            if strip.mode != mode or strip.width != width:
                raise ValueError(f"a {strip.mode} strip {strip.width} px wide in a {mode} PNG {width} px wide")
            done += strip.height
            yield strip

    with atomic_open(path, "wb") as fh:
        fh.write(b"\x89PNG\r\n\x1a\n")
        _png_chunk(fh, b"IHDR", struct.pack(">IIBBBBB", width, height, 8, _PNG_COLOUR[mode], 0, 0, 0))
        if dpi:
            ppm = round(dpi / 0.0254)
            _png_chunk(fh, b"pHYs", struct.pack(">IIB", ppm, ppm, 1))
        pending = bytearray(b"\x78\x9c")  # zlib's header (deflate, 32K window)
        adler = 1
        for scanlines, deflated in threaded_map(lambda strip: _png_rows(strip, level), checked(), workers):
            adler = zlib.adler32(scanlines, adler)
            pending += deflated
            while len(pending) >= _IDAT_BYTES:
                _png_chunk(fh, b"IDAT", pending[:_IDAT_BYTES])
                del pending[:_IDAT_BYTES]
        if done != height:
            raise ValueError(f"the strips hold {done} rows, the PNG {height}")
        pending += b"\x03\x00" + struct.pack(">I", adler)  # an empty final block, the checksum
        _png_chunk(fh, b"IDAT", pending)
        _png_chunk(fh, b"IEND", b"")
