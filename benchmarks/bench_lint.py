"""``gazala module lint`` at scale (issue 33): a module of 10,000 pieces linted in at most 5 s.

The module is a synthetic game (``tools/synthgame.py``: 9,800 units in formations of ten, a fifth of them
with two steps, 90 chits a side, 16 markers; a 100 x 60 hex map and a set-up of the units by rule
areas) built with ``gazala module build``: about 10,000 piece slots, each with its images, a set-up save
of a few thousand pieces. Building it is not measured.

Baseline measured in the same run: **read only**, what lint cannot do without: the module opened
through the same input boundary, its buildFile parsed and every set-up save read (``read_save``).
Ratio = lint / read only: what the checks themselves cost on top. Smoke: 60 units.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

from benchmarks.common import Result, best_of, size

ROOT = Path(__file__).resolve().parent.parent
SYNTH = {"units": 9800, "columns": 100, "rows": 60, "chits": 90, "markers": 16}
SMOKE_SYNTH = {"units": 60, "columns": 12, "rows": 8, "chits": 6, "markers": 16}
BUDGET_S = 5.0


def _read_only(vmod: Path) -> int:
    from gazala_tools.vassal.buildfile import open_source, parse_xml
    from gazala_tools.vassal.lint import MAX_LINT_BYTES, MAX_SETUP_BYTES, PREDEFINED_SETUP
    from gazala_tools.vsav import read_save

    src = open_source(vmod, budget=MAX_LINT_BYTES)
    root = parse_xml(src.xml, src.path)
    pieces = 0
    for el in root.iter(PREDEFINED_SETUP):
        if el.get("file"):
            pieces += len(read_save(src.read_member(el.get("file", ""), MAX_SETUP_BYTES)).position.pieces)
    return pieces


def run() -> list[Result]:
    from gazala_tools.vassal.lint import lint_module
    from tools.synthgame import write_game

    with tempfile.TemporaryDirectory(prefix="bench-lint-") as tmp:
        game = write_game(Path(tmp) / "synth", board_image=True, **size(SYNTH, SMOKE_SYNTH))  # type: ignore[arg-type]
        vmod = Path(tmp) / "synth.vmod"
        subprocess.run([sys.executable, "-m", "gazala_tools", "module", "build", str(game.folder), "-o", str(vmod)],
                       check=True, capture_output=True, cwd=ROOT)
        result = lint_module(vmod)
        assert result.errors == 0, [f.line() for f in result.findings][:5]
        slots, placed = result.counts["piece slots"], result.counts.get("set-up pieces", 0)
        lint_s = best_of(lambda: lint_module(vmod), repeat=3)
        read_s = best_of(lambda: _read_only(vmod), repeat=3)
    return [
        Result(f"lint of a module of {slots:,} piece slots and {placed:,} set-up pieces", lint_s, "s",
               budget=f"<= {BUDGET_S:g} s", ok=lint_s <= BUDGET_S, baseline="read only (open, parse, read saves)",
               baseline_value=read_s, ratio=lint_s / read_s if read_s else None,
               note=f"{game.units:,} units, {game.counters:,} counters; best of 3"),
    ]
