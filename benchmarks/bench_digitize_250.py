"""Digitizer at the 250 Mpx cap, measured (not extrapolated): ``gazala digitize detect-grid`` on a
16000 x 15625 scan (hexes 120 px high, a 300 dpi scan), as PNG and as JPEG, each in a fresh process
whose wall time and peak RSS (``ru_maxrss`` from ``wait4``, decoding included) are measured.
Budget (issue 12): <= 60 s and <= 2 GB. Baseline in the same run: the whole-image fit
(``Params.fit_max_pixels`` unlimited) on a 25 Mpx scan of the same kind, the largest it can do in a few
GB; the tiled method on that scan too, for a like-for-like ratio. About 3 minutes
(``scripts/bench digitize_250``).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from benchmarks.common import Result, run_measured, size, smoke

ROOT = Path(__file__).resolve().parent.parent
#: the scans: 250 Mpx exactly (the cap, MAX_PIXELS) and the baseline's 25 Mpx
BIG, SMALL = (16000, 15625), (5000, 5000)
#: a smoke run's scans
SMOKE_BIG, SMOKE_SMALL = (700, 680), (500, 500)

_GENERATE = """
import json, sys
from pathlib import Path
from tools.scans.large import large_board
tmp, (bw, bh, sw, sh) = Path(sys.argv[1]), map(int, sys.argv[2:])
big = large_board(bw, bh, png=tmp / "big.png", jpeg=tmp / "big.jpg")
small = large_board(sw, sh, png=tmp / "small.png")
print(json.dumps({"dx": big.dx, "dy": big.dy, "x0": big.x0, "y0": big.y0}))
"""

#: the command itself (the scan read as `digitize detect-grid` reads it, the fit's JSON); "whole"
#: lifts the cap of the whole-image fit (the method before tiling)
_DETECT = """
import json, sys
from gazala_tools.digitize.image import open_image
from gazala_tools.digitize.lattice import Params, detect_grid
params = {
    "whole": Params(fit_max_pixels=10**13),
    "tiled": Params(),
    # as on a scan no evidence is sure of: all three are fitted
    "unconfident": Params(thin_below=2.0),
    # and no lattice either: the ridge-free and faint-line lattices, every second opinion
    "doubtful": Params(thin_below=2.0, low_confidence=1.1, ridge_below=1.1),
}[sys.argv[1]]
print(json.dumps(detect_grid(open_image(sys.argv[2], grey=True), params=params).as_dict()))
"""


def _child(args: list[str]) -> tuple[str, float, float]:
    """Run a fresh Python process: its stdout, wall seconds and peak RSS in MB (:func:`run_measured`)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    with tempfile.TemporaryFile() as out:
        m = run_measured([sys.executable, "-c", *args], cwd=ROOT, env=env, stdout=out, stderr=subprocess.DEVNULL)
        out.seek(0)
        text = out.read().decode()
    if m.code != 0:
        raise RuntimeError(f"child {args[1:]} exited {m.code}: {text[-500:]}")
    return text, m.wall, m.peak_mb


def _detect(path: Path, method: str) -> tuple[dict[str, object], float, float]:
    text, dt, peak = _child([_DETECT, method, str(path)])
    return json.loads(text.strip().splitlines()[-1]), dt, peak


def run() -> list[Result]:
    from gazala_tools.hexgrid import HexGridGeometry
    from tools.scans.large import centre_error

    big, small = size((BIG, SMALL), (SMOKE_BIG, SMOKE_SMALL))
    with tempfile.TemporaryDirectory() as tmp:
        text, gen_s, _ = _child([_GENERATE, tmp, *map(str, big + small)])
        truth = json.loads(text.strip().splitlines()[-1])
        geo = HexGridGeometry(dx=truth["dx"], dy=truth["dy"], x0=truth["x0"], y0=truth["y0"])
        _, whole_s, whole_mb = _detect(Path(tmp) / "small.png", "whole")
        runs = {}
        if smoke():  # the whole-image fit and the doubtful case only: between them they set every tunable
            tiled_s, tiled_mb = whole_s, whole_mb
        else:
            _, tiled_s, tiled_mb = _detect(Path(tmp) / "small.png", "tiled")
            runs = {kind: _detect(Path(tmp) / f"big.{kind}", "tiled") for kind in ("png", "jpg")}
            runs["jpg, unconfident"] = _detect(Path(tmp) / "big.jpg", "unconfident")
        runs["jpg, doubtful"] = _detect(Path(tmp) / "big.jpg", "doubtful")
    base = "the whole-image fit on a 25 Mpx scan"
    like = (f"25 Mpx: whole-image {whole_mb:.0f} MB / {whole_s:.1f} s, tiled {tiled_mb:.0f} MB / {tiled_s:.1f} s "
            f"(tiled/whole {tiled_mb / whole_mb:.2f}x memory, {tiled_s / whole_s:.2f}x time); scans drawn in {gen_s:.0f} s")
    out: list[Result] = []
    for kind, (fit, dt, peak) in runs.items():
        dx, dy = float(fit["dx"]), float(fit["dy"])  # type: ignore[arg-type]
        cx, cy = (float(v) for v in fit["center"])  # type: ignore[attr-defined]
        ex, ey = abs(dx / geo.dx - 1), abs(dy / geo.dy - 1)
        ec = centre_error(geo, cx, cy)
        right = ex <= 0.005 and ey <= 0.005 and ec <= 2.0
        check = (f"dx {dx:.3f} ({ex:.3%}), dy {dy:.3f} ({ey:.3%}), centre {ec:.2f} px off, confidence "
                 f"{fit['confidence']}: {'right' if right else 'WRONG'}")
        name = f"detect-grid, {big[0] * big[1] / 1e6:.1f} Mpx {kind.upper()} ({big[0]}x{big[1]})"
        if "unconfident" in kind:
            name += ": every evidence fitted (gradient, thin lines, faint lines)"
        if "doubtful" in kind:
            name += ": every evidence of every candidate lattice fitted (ridge-free and faint-line lattices, second opinions)"
        out.append(Result(name=f"{name}: peak memory", value=peak, unit="MB", budget="<= 2048 MB",
                          ok=peak <= 2048 and right, baseline=base, baseline_value=whole_mb,
                          ratio=peak / whole_mb, note=check))
        out.append(Result(name=f"{name}: time", value=dt, unit="s", budget="<= 60 s", ok=dt <= 60 and right,
                          baseline=base, baseline_value=whole_s, ratio=dt / whole_s, note=like))
    return out
