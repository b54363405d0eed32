"""The benches' process measure (``benchmarks.common.run_measured``): a command's own peak memory,
whatever the size of the bench process that starts it. Linux gives a forked process the RSS high-water
mark of its parent; a full ``scripts/bench`` run once reported 841 MB for every command measured after
the 250 Mpx decode (``counters sheet`` alone: 191 MB)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from benchmarks.common import run_measured

ROOT = Path(__file__).resolve().parents[2]


def _peak_of_a_bare_interpreter(allocate_mb: int) -> float:
    return run_measured([sys.executable, "-c", f"b = bytearray({allocate_mb} << 20)"], cwd=ROOT,
                        env=dict(os.environ), stdout=subprocess.DEVNULL).peak_mb


def test_a_command_is_measured_alone_when_its_parent_is_large() -> None:
    ballast = bytearray(300 << 20)  # the bench process, grown (every page touched)
    ballast[:: 4096] = b"x" * len(ballast[:: 4096])
    peak = _peak_of_a_bare_interpreter(0)
    assert peak < 150, peak  # a bare interpreter, not the 300 MB parent
    assert len(ballast) == 300 << 20


def test_the_commands_own_memory_and_exit_status_are_measured() -> None:
    assert _peak_of_a_bare_interpreter(200) >= 200
    m = run_measured([sys.executable, "-c", "raise SystemExit(3)"], cwd=ROOT, env=dict(os.environ))
    assert m.code == 3 and m.wall > 0 and m.cpu >= 0
