"""SVG module art at scale (issue 33, "Benchmarks"): ``gazala game import`` of a module of 1,000 SVG pieces,
each with its own SVG face (illustration-program style: internal entities, a gradient, a few shapes) and a
"Flip" layer, so that every piece's back is drawn at import (the SVG parsed, resolved, costed and drawn by
cairosvg, the flip layer composed over it); then ``counters contact`` of the folder. Each command runs in a
fresh process (wall time, peak RSS by ``wait4``).

Budget (the issue's): the import within 30 s. Baseline, measured in the same run: plain cairosvg
(``cairosvg.svg2png``) drawing the same 1,000 SVGs, entities removed, with none of our checks.
Smoke: 50 pieces.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

from benchmarks.bench_caps import ROOT, _gazala
from benchmarks.common import Result, size

PIECES = 1000


def face(i: int) -> bytes:
    """An SVG face as an illustration program exports it (about 900 bytes)."""
    colour = f"#{(i * 2654435761) % 0xFFFFFF:06x}"
    return (
        '<?xml version="1.0" encoding="utf-8"?>\n<!-- Generator: Adobe Illustrator 16.0.0 -->\n'
        '<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd" [\n'
        '\t<!ENTITY ns_svg "http://www.w3.org/2000/svg">\n\t<!ENTITY ns_xlink "http://www.w3.org/1999/xlink">\n]>\n'
        '<svg version="1.1" xmlns="&ns_svg;" xmlns:xlink="&ns_xlink;" width="75px" height="75px" viewBox="0 0 75 75">'
        f'<defs><linearGradient id="g" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="{colour}"/>'
        '<stop offset="1" stop-color="#222"/></linearGradient></defs>'
        '<rect width="75" height="75" fill="url(#g)"/><rect x="4" y="4" width="67" height="67" fill="none" '
        'stroke="#000" stroke-width="2"/><path d="M20 50 L37 20 L55 50 Z" fill="#fff" stroke="#000"/>'
        f'<text x="37" y="66" font-size="10" text-anchor="middle">{i}</text></svg>'
    ).encode()


def make_module(path: Path, pieces: int) -> Path:
    from tools.artmodules import FLIP, Piece, art_module, png_bytes

    return art_module(path, [Piece(f"p{i}", f"p{i}.svg", flip=FLIP) for i in range(pieces)],
                      {**{f"p{i}.svg": face(i) for i in range(pieces)}, FLIP: png_bytes(75, (0, 0, 200))})


_BASELINE = """
import sys, time, zipfile
import cairosvg
z = zipfile.ZipFile(sys.argv[1])
svgs = [z.read(n) for n in z.namelist() if n.endswith(".svg")]
t = time.perf_counter()
for data in svgs:
    plain = data.split(b"]>", 1)[1].replace(b"&ns_svg;", b"http://www.w3.org/2000/svg")
    cairosvg.svg2png(bytestring=plain.replace(b"&ns_xlink;", b"http://www.w3.org/1999/xlink"))
print(time.perf_counter() - t)
"""


def run() -> list[Result]:
    pieces = size(PIECES, 50)
    results: list[Result] = []
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        vmod = tmp / "svg.vmod"
        subprocess.run([sys.executable, "-c", "import sys; from pathlib import Path; "
                        "from benchmarks.bench_art import make_module; make_module(Path(sys.argv[1]), int(sys.argv[2]))",
                        str(vmod), str(pieces)], check=True, cwd=ROOT)
        plain = float(subprocess.run([sys.executable, "-c", _BASELINE, str(vmod)], check=True, cwd=ROOT,
                                     capture_output=True, text=True).stdout.strip() or "nan")
        what = f"{pieces:,} SVG pieces, each back a layered face"
        code, dt, peak, line = _gazala(["game", "import", str(vmod), str(tmp / "game")])
        if code != 0:
            raise RuntimeError(f"game import failed (exit {code}): {line}")
        results.append(Result(f"game import: {what}", dt, "s", budget="<= 30 s", ok=dt <= 30,
                              baseline=f"plain cairosvg.svg2png of the {pieces:,} SVGs (no checks)",
                              baseline_value=plain, ratio=dt / plain if plain else None,
                              note=f"peak {peak:,.0f} MB; {line}"))
        code, dt, peak, line = _gazala(["counters", "contact", str(tmp / "game"), "-o", str(tmp / "c.png")])
        if code != 0:
            raise RuntimeError(f"counters contact failed (exit {code}): {line}")
        results.append(Result(f"counters contact: {what}", dt, "s", note=f"peak {peak:,.0f} MB; {line}"))
    return results
