"""Memory that does not grow with the counters (issue 26 item 1): ``counters sheet``, ``counters
contact`` and ``module build`` of a synthetic 10,000-counter game, each in a fresh process whose wall
time, CPU time and peak RSS (``benchmarks.common.run_measured``: the largest process, a face-drawing
worker of ``module build`` included) are measured.

Budgets: ``counters sheet`` of 10,000 counters <= 500 MB and <= 60 s; ``module build`` of 10,000
counters <= 800 MB and <= 30 s. ``counters contact`` has no budget (it is measured the same way).

Baseline measured in the same run: the same command on the same kind of game with a fifth of the
counters (2,000); ratio = peak at 10,000 / peak at 2,000. Memory that is bounded by a page (a row
of faces, a formation) gives a ratio near 1; memory that grows with the counters gives up to 5.
Before the streaming (main of 2026-11-28), on 9,980 counters: ``counters sheet`` peaked at 822 MB
(CPU 45 s) and ``module build`` at 340 MB; after it 199 MB (CPU 33 s) and 247 MB, with the same
PDF and module bytes. What still grows is the loaded manifest (about 6 KB per counter).

The games are made by ``tools/synthgame.py`` (units in formations of ten, a fifth of them with two
steps, two-sided chits, markers; a board image). A smoke run uses 108 and 36 counters.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from benchmarks.bench_caps import _gazala
from benchmarks.common import Result, size

ROOT = Path(__file__).resolve().parents[1]
#: (units, chits per side) for 10,000 and 2,000 counters: units + a fifth (second steps) + 2 x chits + 20 markers
GAMES = {10_000: (8000, 190), 2_000: (1600, 30)}
SMOKE_GAMES = {108: (60, 8), 36: (10, 2)}
#: command, its words, budget MB, budget s (None: measured only)
COMMANDS = (
    ("counters sheet", ["counters", "sheet", "{game}", "-o", "{out}.pdf", "--no-progress"], 500.0, 60.0),
    ("module build", ["module", "build", "{game}", "-o", "{out}.vmod"], 800.0, 30.0),
    ("counters contact", ["counters", "contact", "{game}", "-o", "{out}.png"], None, None),
)


def _game(tmp: Path, n: int, units: int, chits: int) -> Path:
    from tools.synthgame import write_game

    g = write_game(tmp / f"g{n}", units=units, columns=100, rows=60, chits=chits, markers=16, board_image=True)
    assert g.counters == n, (g.counters, n)
    return g.folder


def run() -> list[Result]:
    games = size(GAMES, SMOKE_GAMES)
    big, small = sorted(games, reverse=True)
    out: list[Result] = []
    with tempfile.TemporaryDirectory(prefix="bench-memory-") as tmp:
        tmpdir = Path(tmp)
        folders = {n: _game(tmpdir, n, *games[n]) for n in games}
        for what, words, mb_budget, s_budget in COMMANDS:
            measured = {}
            for n, folder in folders.items():
                argv = [w.format(game=folder, out=tmpdir / f"{what.replace(' ', '-')}-{n}") for w in words]
                code, wall, peak, note = _gazala(argv)
                if code != 0:
                    raise RuntimeError(f"gazala {' '.join(argv)}: exit {code}: {note}")
                measured[n] = (wall, peak, note)
            wall, peak, note = measured[big]
            s_wall, s_peak, s_note = measured[small]
            base = dict(baseline=f"the same command, {small:,} counters", baseline_value=s_peak, ratio=peak / s_peak)
            out.append(Result(f"{what}, {big:,} counters: peak memory", peak, "MB",
                              budget="" if mb_budget is None else f"<= {mb_budget:g} MB",
                              ok=None if mb_budget is None else peak <= mb_budget,
                              note=f"ratio = peak / baseline's peak; {s_wall:.1f} s at {small:,} ({s_note.split(';')[0]})",
                              **base))  # type: ignore[arg-type]
            out.append(Result(f"{what}, {big:,} counters: wall time", wall, "s",
                              budget="" if s_budget is None else f"<= {s_budget:g} s",
                              ok=None if s_budget is None else wall <= s_budget,
                              note=f"{note.split(';')[0]} (wall time suffers when the machine is loaded)"))
    return out
