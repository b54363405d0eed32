"""Cost caps (issue 26 item 2): small hostile inputs end within 30 s and 1 GiB, or are refused at once.

Each input is built here at the size that cost gigabytes or minutes before the caps
(``docs/reliability.md``), and ``gazala`` is run on it in a fresh process whose wall time and peak
RSS (``ru_maxrss`` from ``wait4``) are measured: a map at the hex cap (100,000 hexes: must finish),
a map of a million hexes, a ``map.yaml`` with 200,000 aliases, a module with 7,800 zones of 1,140
points, and a 1-bit PNG of 249 Mpx (each must be refused with exit 2, within 5 s).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

from benchmarks.common import Result, run_measured, size

ROOT = Path(__file__).resolve().parents[1]
RIVER_WAR = ROOT / "tests" / "games" / "river-war"
PKG = "VASSAL.build.module.map.boardPicker.board"


def _gazala(argv: list[str]) -> tuple[int, float, float, str]:
    """``gazala ARGV`` in a fresh process: exit status, wall seconds, peak RSS in MB, last stderr line."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    with tempfile.TemporaryFile() as err:
        m = run_measured([sys.executable, "-c", "from gazala_tools.cli import run; run()", *argv], cwd=ROOT, env=env,
                         stdout=subprocess.DEVNULL, stderr=err)
        err.seek(0)
        lines = err.read().decode(errors="replace").strip().splitlines()
    return m.code, m.wall, m.peak_mb, "; ".join([f"CPU {m.cpu:.1f} s", *lines[-1:]])[:180]


def _map_folder(tmp: Path, name: str, columns: int, rows: int, extra: str = "") -> Path:
    folder = tmp / name
    shutil.copytree(RIVER_WAR, folder)
    m = folder / "map.yaml"
    m.write_text(m.read_text().replace("columns: [1, 10]", f"columns: [1, {columns}]")
                 .replace("rows: [0, 7]", f"rows: [0, {rows - 1}]") + extra)
    return folder


def _zones_vmod(tmp: Path) -> Path:
    from tools.fuzz.samples import BUILDFILE

    # smoke: 200 zones of 1,200 points (still past the 200,000-point cap)
    path = ";".join(["10,10", "300,10", "300,300"] * size(380, 400))
    zones = "".join(f'<{PKG}.mapgrid.Zone name="z{i}" path="{path}" locationFormat="$name$"/>'
                    for i in range(size(7800, 200)))
    hexgrid = (f'<{PKG}.HexGrid dx="40" dy="46" x0="0" y0="0">\n<{PKG}.mapgrid.HexGridNumbering {{numbering}}/>\n'
               f'</{PKG}.HexGrid>')
    xml = BUILDFILE.replace(hexgrid, f"<{PKG}.ZonedGrid>{zones}</{PKG}.ZonedGrid>").format(image="", numbering="")
    out = tmp / "zones.vmod"
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("buildFile.xml", xml)
    return out


def _bomb_png(tmp: Path) -> Path:
    from PIL import Image

    out = tmp / "bomb.png"
    Image.new("1", size((16000, 15600), (4200, 4200)), 1).save(out, optimize=True)  # smoke: 17.6 Mpx, still a bomb
    return out


def _cases(tmp: Path) -> list[tuple[str, list[str], bool]]:
    """The inputs (written under ``tmp``) and ``gazala`` arguments; True: the command must finish."""
    return [
        ("map info, 100,000 hexes (the cap)", ["map", "info", str(_map_folder(tmp, "cap", *size((400, 250), (40, 25))))], True),
        ("map info, 1,000,000 hexes", ["map", "info", str(_map_folder(tmp, "million", 1000, 1000))], False),
        ("map check, 200,000 aliases", ["map", "check", str(_map_folder(
            tmp, "aliases", 10, 8, "\nx: &a {k: [1, 2, 3]}\ny: [" + ", ".join(["*a"] * 200_000) + "]\n"))], False),
        ("grid locate, 7,800 zones of 1,140 points", ["grid", "locate", str(_zones_vmod(tmp)), "100", "100"], False),
        ("game new, 249 Mpx 1-bit PNG", ["game", "new", str(tmp / "g"), "--image", str(_bomb_png(tmp))], False),
    ]


def _input_size(argv: list[str]) -> int:
    path = Path(argv[-1] if argv[0] == "game" else argv[2])
    return sum(p.stat().st_size for p in path.rglob("*")) if path.is_dir() else path.stat().st_size


def run() -> list[Result]:
    results: list[Result] = []
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        # the inputs are made in a child process: a child starts with its parent's peak RSS, and
        # making them takes a few hundred MB that would count in every measured command's peak
        made = subprocess.run([sys.executable, "-c", "import json, sys; from pathlib import Path; "
                               "from benchmarks.bench_caps import _cases; print(json.dumps(_cases(Path(sys.argv[1]))))",
                               str(tmp)], check=True, capture_output=True, text=True, cwd=ROOT,
                              env=dict(os.environ, PYTHONPATH=str(ROOT)))
        for name, argv, finishes in json.loads(made.stdout.strip().splitlines()[-1]):
            size = _input_size(argv)
            code, dt, peak, line = _gazala(argv)
            if finishes:
                ok = code == 0 and dt <= 30 and peak <= 1024
                budget = "exit 0, <= 30 s, <= 1 GiB"
            else:
                ok = code == 2 and dt <= 5 and peak <= 1024
                budget = "exit 2 at once (<= 5 s), <= 1 GiB"
            results.append(Result(name, dt, "s", budget=budget, ok=ok,
                                  note=f"input {size / 1024:,.0f} KB; exit {code}; peak {peak:,.0f} MB; {line}"))
    return results
