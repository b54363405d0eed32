"""Import and rebuild at scale (issue 25 item 5): ``gazala game import`` of a synthetic module of 10,000
pieces (each with its own image, a prototype and a trait kept verbatim) and a board of 300 Mpx, then
``gazala module build`` of the folder, each in a fresh process: wall time and peak RSS.

The images are copied, never decoded (the board's size comes from its header), so memory stays near the
buildFile's, whatever the images weigh. Budget (the issue's): import + rebuild within 30 s and 2 GB.
Smoke: 200 pieces and a 3 Mpx board.
"""

from __future__ import annotations

import struct
import subprocess
import sys
import tempfile
import time
import zipfile
import zlib
from pathlib import Path

from benchmarks.bench_caps import ROOT, _gazala
from benchmarks.common import Result, size

PKG = "VASSAL.build.module.map.boardPicker"
PIECES = 10_000
BOARD = (20_000, 15_000)  #: 300 Mpx


def _png_chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def _png(width: int, height: int, colour: tuple[int, int, int], out: zipfile.ZipFile, name: str) -> None:
    """A plain RGB PNG written row by row into the zip (never held whole: a 300 Mpx board is 900 MB raw)."""
    with out.open(zipfile.ZipInfo(name, date_time=(2026, 1, 1, 0, 0, 0)), "w", force_zip64=True) as fh:
        fh.write(b"\x89PNG\r\n\x1a\n" + _png_chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)))
        z = zlib.compressobj(6)
        row = b"\x00" + bytes(colour) * width
        buf = bytearray()
        for _ in range(height):
            buf += z.compress(row)
            if len(buf) > 1 << 20:
                fh.write(_png_chunk(b"IDAT", bytes(buf)))
                buf.clear()
        buf += z.flush()
        fh.write(_png_chunk(b"IDAT", bytes(buf)) + _png_chunk(b"IEND", b""))


def make_module(path: Path, pieces: int, board: tuple[int, int]) -> Path:
    """The synthetic module: one map with the board and a numbered hex grid, a prototype, a palette of
    ``pieces`` slots (each its own 64 px image, the prototype and a Delete trait), an at-start stack."""
    w, h = board
    slots = []
    for i in range(pieces):
        definition = (f"+/null/prototype;Unit\tdelete;Delete;68,130;\\\tpiece;;;u{i}.png;u{i}/"
                      f"\t\\\tnull;0;0;{i + 1};0")
        slots.append(f'<VASSAL.build.widget.PieceSlot entryName="u{i}" gpid="{i + 1}" height="64" width="64">'
                     f"{definition}</VASSAL.build.widget.PieceSlot>")
    stack = "".join(slots[:50])
    xml = (
        '<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n'
        f'<VASSAL.build.GameModule name="Bench" version="1.0" VassalVersion="3.7.9" nextPieceSlotId="{pieces + 1}">'
        "<VASSAL.build.module.BasicCommandEncoder/>"
        '<VASSAL.build.module.PrototypesContainer><VASSAL.build.module.PrototypeDefinition name="Unit">'
        "+/null/mark;Side\tpiece;;;;/Blue\tnull;0;0;;0</VASSAL.build.module.PrototypeDefinition>"
        "</VASSAL.build.module.PrototypesContainer>"
        '<VASSAL.build.module.Map mapName="Main Map">'
        f'<VASSAL.build.module.map.BoardPicker><{PKG}.Board image="board.png" name="Board">'
        f'<{PKG}.board.HexGrid dx="60" dy="70" x0="0" y0="0"><{PKG}.board.mapgrid.HexGridNumbering/>'
        f"</{PKG}.board.HexGrid></{PKG}.Board></VASSAL.build.module.map.BoardPicker>"
        f'<VASSAL.build.module.map.SetupStack name="start" owningBoard="Board" x="300" y="300">{stack}'
        "</VASSAL.build.module.map.SetupStack></VASSAL.build.module.Map>"
        '<VASSAL.build.module.PieceWindow name="Pieces"><VASSAL.build.widget.PanelWidget entryName="all">'
        + "".join(slots[50:])
        + "</VASSAL.build.widget.PanelWidget></VASSAL.build.module.PieceWindow></VASSAL.build.GameModule>"
    )
    return write_module(path, xml, (w, h), pieces)


def made_apart(bench: str, path: Path, pieces: int, board: tuple[int, int]) -> None:
    """``benchmarks.BENCH.make_module(path, pieces, board)`` in a process of its own (its memory is not the
    measured command's)."""
    subprocess.run([sys.executable, "-c", "import sys; from pathlib import Path; "
                    f"from benchmarks.{bench} import make_module; "
                    "make_module(Path(sys.argv[1]), int(sys.argv[2]), (int(sys.argv[3]), int(sys.argv[4])))",
                    str(path), str(pieces), *map(str, board)], check=True, cwd=ROOT)


def write_module(path: Path, xml: str, board: tuple[int, int], pieces: int) -> Path:
    """The .vmod of ``xml``: its board image (``images/board.png``) and ``pieces`` piece images ``images/uN.png``."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("buildFile.xml", xml)
        _png(*board, (200, 190, 150), z, "images/board.png")
        for i in range(pieces):
            _png(64, 64, (i % 256, (i // 256) % 256, 90), z, f"images/u{i}.png")
    return path


def run() -> list[Result]:
    pieces, board = size(PIECES, 200), size(BOARD, (2_000, 1_500))
    results: list[Result] = []
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        vmod = tmp / "bench.vmod"
        made_apart("bench_import", vmod, pieces, board)
        mpx = board[0] * board[1] / 1e6
        what = f"{pieces:,} pieces, {mpx:,.0f} Mpx board, module {vmod.stat().st_size / 1e6:,.1f} MB"
        total = 0.0
        worst = 0.0
        for name, argv in (("game import", ["game", "import", str(vmod), str(tmp / "folder")]),
                           ("module build (rebuild)", ["module", "build", str(tmp / "folder"), "-o",
                                                       str(tmp / "rebuilt.vmod")])):
            code, dt, peak, line = _gazala(argv)
            total += dt
            worst = max(worst, peak)
            results.append(Result(f"{name}: {what}", dt, "s", note=f"exit {code}; peak {peak:,.0f} MB; {line}"))
            if code != 0:
                raise RuntimeError(f"{name} failed (exit {code}): {line}")
        same = (tmp / "rebuilt.vmod").stat().st_size
        # the floor on this disk: the import creates one file per image, as plain Python would
        floor = tmp / "floor"
        floor.mkdir()
        t = time.perf_counter()
        for i in range(pieces):
            (floor / f"u{i}.png").write_bytes(b"\0" * 300)
        plain = time.perf_counter() - t
        results.append(Result(f"import + rebuild: {what}", total, "s", budget="<= 30 s and <= 2 GB peak",
                              ok=total <= 30 and worst <= 2048, baseline=f"creating {pieces:,} files (plain Python)",
                              baseline_value=plain, ratio=total / plain if plain else None,
                              note=f"peak {worst:,.0f} MB; rebuilt module {same / 1e6:,.1f} MB"))
    return results
