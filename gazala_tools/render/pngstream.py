"""PNG files written a band of rows at a time, so that an image taller than memory allows (a
contact sheet of 10,000 counters, an order-of-battle chart of a large game) is never whole in memory.

The PNG is framed here (8-bit RGB, every row unfiltered, one zlib stream): the same pixels give the
same bytes, whatever the bands they came in (zlib's output does not depend on how its input is
split). :func:`png_chunk` and :func:`png_rows` are the two pieces shared with the module's
:func:`gazala_tools.vassal.module.faces.png_bytes`.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Iterable
from typing import IO, Final

from PIL import Image

__all__ = [
    "SIGNATURE",
    "PngStream",
    "png_chunk",
    "png_header",
    "png_rows",
    "stack_bands",
]

SIGNATURE: Final = b"\x89PNG\r\n\x1a\n"


def png_chunk(tag: bytes, data: bytes) -> bytes:
    """One PNG chunk: length, tag, data, CRC."""
    return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data))


def png_header(width: int, height: int, *, alpha: bool = False) -> bytes:
    """The signature and the IHDR chunk of an 8-bit RGB (or RGBA) PNG."""
    return SIGNATURE + png_chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6 if alpha else 2, 0, 0, 0))


def png_rows(img: Image.Image) -> bytes:
    """The rows of an RGB / RGBA image as PNG wants them, each behind its filter byte (0: none)."""
    raw = img.tobytes()
    stride = img.width * (3 if img.mode == "RGB" else 4)
    return b"".join(b"\x00" + raw[i:i + stride] for i in range(0, len(raw), stride))


def stack_bands(width: int, height: int, bands: Iterable[Image.Image], ground: str | tuple[int, int, int]) -> Image.Image:
    """The bands of rows that :class:`PngStream` would write, pasted top to bottom into one RGB image
    of ``width`` x ``height`` on ``ground`` (for an image small enough to hold whole)."""
    img = Image.new("RGB", (width, height), ground)
    y = 0
    for band in bands:
        img.paste(band, (0, y))
        y += band.height
    return img


class PngStream:
    """An RGB PNG of ``width`` x ``height`` written to ``out`` band by band (:meth:`add`, top to
    bottom, each band ``width`` wide), closed by :meth:`close` once every row is in."""

    def __init__(self, out: IO[bytes], width: int, height: int, *, level: int = 6) -> None:
        if width < 1 or height < 1:
            raise ValueError(f"a PNG of {width} x {height} pixels")
        self.out = out
        self.width, self.height = width, height
        self.rows = 0
        self.bytes = 0
        self._z = zlib.compressobj(level)
        self._write(png_header(width, height))

    def _write(self, data: bytes) -> None:
        self.out.write(data)
        self.bytes += len(data)

    def add(self, band: Image.Image) -> None:
        """The next ``band.height`` rows."""
        if band.width != self.width or band.mode != "RGB":
            raise ValueError(f"a band of {band.width} pixels ({band.mode}) in a {self.width}-pixel RGB PNG")
        if self.rows + band.height > self.height:
            raise ValueError(f"rows {self.rows}..{self.rows + band.height} of a {self.height}-row PNG")
        self.rows += band.height
        data = self._z.compress(png_rows(band))
        if data:
            self._write(png_chunk(b"IDAT", data))

    def close(self) -> None:
        if self.rows != self.height:
            raise ValueError(f"{self.rows} rows written of a {self.height}-row PNG")
        self._write(png_chunk(b"IDAT", self._z.flush()))
        self._write(png_chunk(b"IEND", b""))
