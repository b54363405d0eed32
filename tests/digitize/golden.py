"""Golden results of detect-grid on a fixed subset of the evaluation batches (issue 26 item 5).

Recorded before ``digitize/lattice.py`` was split into stages (``golden_detect_grid.json``), so
that a refactoring can prove it changed no result: ``python -m tests.digitize.golden`` compares
(``--write`` records anew). One scan of every kind the docs evaluate (synthetic, harsh, unrotated
harsh, skewed, faint, clusters, notched, small, hand-drawn, pitch), a scan whose lattice is an
error, and two runs with parameters changed so that every path runs: every evidence and every
second opinion, and the coarse fit refined in tiles. A few minutes on a shared 2-core machine.
"""

from __future__ import annotations

import json
import math
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from PIL import Image

from gazala_tools.digitize.lattice import LatticeFit, Params, detect_grid
from gazala_tools.errors import GazalaError

GOLDEN = Path(__file__).with_name("golden_detect_grid.json")


def _synthetic(sideways: bool) -> Image.Image:
    from tools.scans.synthetic import synthetic_board

    if sideways:
        return synthetic_board(columns=16, rows=22, dx=52.0, dy=61.0, x0=44, y0=31, sideways=True, seed=2).image
    return synthetic_board(columns=24, rows=18, dx=48.5, dy=56.0, x0=37, y0=45, seed=1).image


def _harsh(seed: int, **kw: Any) -> Callable[[], Image.Image]:
    def make() -> Image.Image:
        from tools.scans.harsh import harsh_scan

        return harsh_scan(seed, **kw).image

    return make


def _faint(seed: int, kind: str) -> Callable[[], Image.Image]:
    def make() -> Image.Image:
        from tools.scans.faint import faint_scan

        return faint_scan(seed, kind).image

    return make


def _skewed(seed: int) -> Image.Image:
    from tools.scans.skewed import skewed_scan

    return skewed_scan(seed).image


#: every path: all three evidences, the ridge-free and faint-line lattices and every second opinion
EVERY_PATH = {"thin_below": 2.0, "low_confidence": 1.1, "ridge_below": 1.1}

#: name -> (image maker, fields of Params changed from their defaults)
CASES: dict[str, tuple[Callable[[], Image.Image], dict[str, float]]] = {
    "synthetic-flat": (lambda: _synthetic(False), {}),
    "synthetic-pointy": (lambda: _synthetic(True), {}),
    "synthetic-flat-tiled": (lambda: _synthetic(False), {"fit_max_pixels": 1205 * 1073 // 4, "refine_tile": 1205 // 3}),
    "harsh-0": (_harsh(0), {}),
    "harsh-9": (_harsh(9), {}),
    "harsh-35": (_harsh(35), {}),
    "harsh-unrotated-111": (_harsh(111, rotation=0.0, integer_origin=True), {}),
    "skewed-510": (lambda: _skewed(510), {}),
    "faint-100": (_faint(100, "faint"), {}),
    "clusters-101": (_faint(101, "clusters"), {}),
    "notched-102": (_faint(102, "notched"), {}),
    "small-103": (_faint(103, "small"), {}),
    "small-103-every-path": (_faint(103, "small"), EVERY_PATH),
    "hand-100": (_faint(100, "hand"), {}),
    "pitch-100": (_faint(100, "pitch"), {}),
    "pitch-108": (_faint(108, "pitch"), {}),
}


def _detect(image: Image.Image, changed: dict[str, float]) -> LatticeFit:
    """detect-grid with the fields ``changed`` of :class:`Params`. (The results were recorded on
    the single module before the split, with its module globals of the same names, upper-case,
    set for the call.)"""
    return detect_grid(image, params=replace(Params(), **changed))  # type: ignore[arg-type]


def fingerprint(name: str) -> dict[str, Any]:
    """Every number of the fit (full precision), or the error's message."""
    make, changed = CASES[name]
    image = make()
    try:
        fit = _detect(image, changed)
    except GazalaError as exc:
        return {"error": str(exc)}
    return {
        "dx": fit.dx, "dy": fit.dy, "cx": fit.cx, "cy": fit.cy, "sideways": fit.sideways,
        "rotation": fit.rotation, "confidence": fit.confidence, "rms_px": fit.rms_px,
        "hexes_measured": fit.hexes_measured, "edge_score": fit.edge_score, "notes": list(fit.notes),
        "alternatives": [dict(a) for a in fit.alternatives], "grid_centre": list(fit.grid_centre or ()),
        "grid_rms_px": fit.grid_rms_px, "affine": [list(p) for p in fit.affine or ()],
    }


def differences(a: Any, b: Any, where: str = "", tol: float = 1e-9) -> list[str]:
    """Where ``a`` and ``b`` differ (numbers: by more than ``tol``, relative to their size)."""
    if isinstance(a, dict) and isinstance(b, dict):
        if a.keys() != b.keys():
            return [f"{where}: keys {sorted(a)} != {sorted(b)}"]
        return [d for k in a for d in differences(a[k], b[k], f"{where}.{k}", tol)]
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return [f"{where}: length {len(a)} != {len(b)}"]
        return [d for i, (x, y) in enumerate(zip(a, b, strict=True)) for d in differences(x, y, f"{where}[{i}]", tol)]
    if isinstance(a, float) and isinstance(b, float):
        same = (math.isnan(a) and math.isnan(b)) or abs(a - b) <= tol * max(1.0, abs(a), abs(b))
        return [] if same else [f"{where}: {a!r} != {b!r}"]
    return [] if a == b else [f"{where}: {a!r} != {b!r}"]


def main(argv: list[str]) -> int:
    names = [a for a in argv if not a.startswith("--")] or list(CASES)
    got: dict[str, Any] = {}
    for name in names:
        t = time.monotonic()
        got[name] = fingerprint(name)
        print(f"{name}: {time.monotonic() - t:.1f} s", file=sys.stderr)
    if "--write" in argv:
        GOLDEN.write_text(json.dumps(got, indent=1, sort_keys=True) + "\n")
        return 0
    want = json.loads(GOLDEN.read_text())
    diffs = [d for n in names for d in differences(want[n], json.loads(json.dumps(got[n])), n)]
    exact = sum(not differences(want[n], json.loads(json.dumps(got[n])), n, tol=0.0) for n in names)
    print("\n".join(diffs) or f"{len(names)} cases identical within 1e-9, {exact} of them bit for bit")
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
