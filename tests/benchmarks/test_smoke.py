"""Every benchmark runs once at a small size (``scripts/bench --smoke AREA``: budgets not judged), so
that a bench broken by a change fails the tests. One test per area, each in its own process as
``scripts/bench`` runs it, so that pytest-xdist shares them among the cores with the other tests."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks.common import SMOKE_ENV, areas

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.slow


def test_every_bench_module_is_an_area() -> None:
    names = areas()
    assert names == sorted(p.stem[len("bench_") :] for p in (ROOT / "benchmarks").glob("bench_*.py"))
    assert {"digitize_250", "referee_log", "memory"} <= set(names)


@pytest.mark.parametrize("area", areas())
def test_the_bench_runs_at_a_small_size(area: str) -> None:
    env = {k: v for k, v in os.environ.items() if k != SMOKE_ENV}
    proc = subprocess.run([sys.executable, "-m", "benchmarks", "--smoke", area], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600, check=False)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert f"== {area} (smoke)" in proc.stderr and "FAILED" not in proc.stderr
    results = [line for line in proc.stdout.splitlines() if line.strip()]
    assert results and all("not judged (smoke)" in line for line in results if "budget" in line), proc.stdout
