"""Small hostile and well-formed inputs for the reliability tests and the fuzzer (issue 13)."""

from __future__ import annotations

import io
import struct
import zipfile
import zlib


def zip_bytes(members: list[tuple[str, bytes]], method: int = zipfile.ZIP_DEFLATED) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", method) as zf:
        for name, data in members:
            zf.writestr(name, data)
    return buf.getvalue()


BUILDFILE = """<?xml version="1.0" encoding="UTF-8"?>
<VASSAL.build.GameModule name="Hostile" version="1">
<VASSAL.build.module.Map mapName="Main Map">
<VASSAL.build.module.map.BoardPicker>
<VASSAL.build.module.map.boardPicker.Board name="b" width="400" height="400"{image}>
<VASSAL.build.module.map.boardPicker.board.HexGrid dx="40" dy="46" x0="0" y0="0">
<VASSAL.build.module.map.boardPicker.board.mapgrid.HexGridNumbering {numbering}/>
</VASSAL.build.module.map.boardPicker.board.HexGrid>
</VASSAL.build.module.map.boardPicker.Board>
</VASSAL.build.module.map.BoardPicker>
</VASSAL.build.module.Map>
</VASSAL.build.GameModule>
"""


def buildfile(numbering: str = "", image: str = "") -> str:
    return BUILDFILE.format(numbering=numbering, image=f' image="{image}"' if image else "")


def png_chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def png_declaring(w: int, h: int, extra: bytes = b"") -> bytes:
    """A tiny PNG whose header says ``w`` x ``h`` (its pixel data is a few bytes)."""
    return (b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)) + extra
            + png_chunk(b"IDAT", zlib.compress(b"\0" * 64)) + png_chunk(b"IEND", b""))
