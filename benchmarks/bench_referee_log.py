"""Log referee (issue 14): check every move of a 700-step VASSAL log.

The log is ``tests/fixtures/logs/rg-700-steps.vlog``: VASSAL 3.7.26 (the shared harness) moved units
of RG's Scenario One one hex at a time, at random (seed 14), and drew an Allied action chit every 50
steps (15 action phases); many moves break a rule, which costs the most (a second path search).
Budget: <= 2 s for the whole check (read, replay, a path and the movement rules per move, position
checks at each phase end). Baselines measured in the same run: the same log replayed step by step
without any check, and read to its final position in one go (``read_save``).

The log's HTML report (``--format html``, issue 23 item 1: the board drawn once, the units' faces,
every move's line): <= 1 s and <= 10 MB, against the check it reports on.
"""

from __future__ import annotations

import time
from pathlib import Path

from benchmarks.common import Result, best_of, smoke
from gazala_tools.referee.api import manifest_specs, rules_for_game
from gazala_tools.referee.log import LogReplay
from gazala_tools.referee.logcheck import check_log
from gazala_tools.vsav import read_save

LOG = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "logs" / "rg-700-steps.vlog"


def _replay_only() -> int:
    save = read_save(LOG, replay_log=False)
    replay = LogReplay(save, rules_for_game("gazala-rg"), manifest=manifest_specs("gazala-rg"))
    return sum(len(s.moves) for s in replay.steps())


def run() -> list[Result]:
    t = time.perf_counter()
    rep, _ = check_log(LOG)  # warm: the game, its map and rules are read once per process
    cold_s = time.perf_counter() - t
    assert rep.steps == 700
    check_s = cold_s if smoke() else best_of(lambda: check_log(LOG), repeat=3)
    replay_s = best_of(_replay_only, repeat=3)
    read_s = best_of(lambda: read_save(LOG), repeat=3)
    html_s, html_mb = _html(rep)
    return [
        Result("RG 700-step log, every move checked", check_s, "s", budget="<= 2 s", ok=check_s <= 2.0,
               baseline="the same log replayed step by step without checks", baseline_value=replay_s,
               ratio=check_s / replay_s,
               note=f"{len(rep.moves)} moves, {len(rep.phases)} phases, {len(rep.findings)} findings; "
               f"read to the final position in one go: {read_s * 1000:.0f} ms"),
        Result("its HTML report (board, counter faces, every move drawn)", html_s, "s", budget="<= 1 s and <= 10 MB",
               ok=html_s <= 1.0 and html_mb <= 10, baseline="the check it reports on", baseline_value=check_s,
               ratio=html_s / check_s, note=f"{html_mb:.2f} MB page"),
    ]


def _html(rep: object) -> tuple[float, float]:
    """The HTML report of a checked log, as ``referee log --format html`` renders it: seconds, MB."""
    from gazala_tools.render.logreport import render_log_html

    _, replay = check_log(LOG)
    pages: list[str] = []
    seconds = best_of(lambda: pages.append(render_log_html(rep, replay, dpi=50)), repeat=3)  # type: ignore[arg-type]
    return seconds, len(pages[-1].encode("utf-8")) / 1e6
