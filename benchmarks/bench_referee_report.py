"""Referee reports on a 250 Mpx scan board (issue 23 item 1): ``gazala referee check --format html``
(and ``png``) of a game folder whose module board is a 16000 x 15625 scan, as PNG and as JPEG, each in a
fresh process whose wall time and peak RSS (``ru_maxrss`` from ``wait4``) are measured, and the page's size.

The board is shown from a reduced copy (``render.boardart``: a JPEG decoded at 1/8 by libjpeg's draft
mode; a PNG decoded within the board pixel cap and box-reduced), at most 16 Mpx for the whole board;
the page embeds at most 6 Mpx of it (the part that matters: here units in its four corners, so the
whole board, the largest page) and, when a part is shown, a 1.5 Mpx whole board.
Budget: the page <= 10 MB; JPEG <= 15 s and <= 1 GB; PNG (decoded whole: about 4 bytes a pixel) <= 60 s
and <= 2 GB. Baseline in the same run: the same report of the game with a 2.5 Mpx board. About 3
minutes (``scripts/bench referee_report``), most of it drawing the scan.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from benchmarks.common import Result, run_measured, size

ROOT = Path(__file__).resolve().parent.parent
#: the boards: 250 Mpx (the scan cap) and the baseline's 2.5 Mpx
BIG, SMALL = (16000, 15625), (1600, 1560)
SMOKE_BIG, SMOKE_SMALL = (900, 860), (600, 560)
MAX_PAGE_MB = 10.0

_GENERATE = """
import sys
from pathlib import Path
from tools.synthgame import write_game
from tools.scans.large import large_board
folder, w, h, fmt = Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
dy = 120.0
dx = round(dy * 3 ** 0.5 / 2, 2)
columns, rows = int((w - 20 - dx) / dx), int((h - 20 - dy) / dy)
write_game(folder, units=24, columns=columns, rows=rows, dy=dy, board_image=False)
board = f"board.{fmt}"
large_board(w, h, **{"png" if fmt == "png" else "jpeg": folder / board})
config = (folder / "module.yaml").read_text()
(folder / "module.yaml").write_text(config.replace("board: {art: render}", "board: {art: " + board + "}"))
text = (folder / "map.yaml").read_text()
import re
text = re.sub(r"board_width: \\d+, board_height: \\d+", f"board_width: {w}, board_height: {h}", text)
(folder / "map.yaml").write_text(text)
from tools.synthgame import _label
# the units in the four corners and the middle: the whole board is the part shown (the largest page)
spots = [(2, 2), (columns - 3, 2), (2, rows - 1), (columns - 3, rows - 1), (columns // 2, rows // 2), (3, 3)]
units = "".join(f'  - {{id: red-{i}, hex: "{_label(c, r)}"}}\\n' for i, (c, r) in enumerate(spots))
(folder.parent / "position.yaml").write_text("game: synthetic-war\\nturn: Turn 2\\nunits:\\n" + units)
"""

_REPORT = """
import sys
from gazala_tools.cli import main
sys.exit(main(["referee", "check", sys.argv[1], "--game", sys.argv[2], "--format", sys.argv[3], "-o", sys.argv[4]]))
"""


def _child(args: list[str]) -> tuple[float, float]:
    """Run a fresh Python process: wall seconds and peak RSS in MB (:func:`run_measured`)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    with tempfile.TemporaryFile() as err:
        m = run_measured([sys.executable, "-c", *args], cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=err)
        err.seek(0)
        text = err.read().decode(errors="replace")
    if m.code not in (0, 1):
        raise RuntimeError(f"child {args[1:]} exited {m.code}: {text[-500:]}")
    return m.wall, m.peak_mb


def _game(tmp: Path, name: str, wh: tuple[int, int], fmt: str) -> tuple[Path, Path]:
    folder = tmp / name / "game"
    folder.parent.mkdir()
    _child([_GENERATE, str(folder), str(wh[0]), str(wh[1]), fmt])
    return folder, folder.parent / "position.yaml"


def run() -> list[Result]:
    big, small = size((BIG, SMALL), (SMOKE_BIG, SMOKE_SMALL))
    out: list[Result] = []
    with tempfile.TemporaryDirectory() as tmpdir:
        tmp = Path(tmpdir)
        base_game, base_pos = _game(tmp, "small", small, "png")
        base_s, base_mb = _child([_REPORT, str(base_pos), str(base_game), "html", str(tmp / "small.html")])
        baseline = f"the same report on a {small[0] * small[1] / 1e6:.1f} Mpx board"
        for fmt, (max_s, max_mb) in {"jpg": (15.0, 1024.0), "png": (60.0, 2048.0)}.items():
            game, pos = _game(tmp, fmt, big, fmt)
            scan_mb = (game / f"board.{fmt}").stat().st_size / 1e6
            page = tmp / f"{fmt}.html"
            dt, peak = _child([_REPORT, str(pos), str(game), "html", str(page)])
            page_mb = page.stat().st_size / 1e6
            name = f"referee check --format html, {big[0] * big[1] / 1e6:.0f} Mpx {fmt.upper()} board ({big[0]}x{big[1]})"
            note = f"page {page_mb:.2f} MB (budget <= {MAX_PAGE_MB:g} MB); scan file {scan_mb:.0f} MB"
            ok_page = page_mb <= MAX_PAGE_MB
            out.append(Result(f"{name}: time", dt, "s", budget=f"<= {max_s:g} s", ok=dt <= max_s and ok_page,
                              baseline=baseline, baseline_value=base_s, ratio=dt / base_s,
                              note=note))
            out.append(Result(f"{name}: peak memory", peak, "MB", budget=f"<= {max_mb:g} MB", ok=peak <= max_mb,
                              baseline=baseline, baseline_value=base_mb,
                              ratio=peak / base_mb, note=json.dumps({"page_mb": round(page_mb, 2)})))
    return out
