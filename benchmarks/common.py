"""What every benchmark reports: a measured value, its budget or target, and its baseline."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass


@dataclass
class Result:
    name: str  #: what was measured
    value: float  #: the measurement
    unit: str  #: "s", "ms", "/s", ...
    budget: str = ""  #: e.g. "<= 2 s" or ">= 1,000,000/s"
    ok: bool | None = None  #: budget met? (None: no budget)
    baseline: str = ""  #: the named baseline measured in the same run
    baseline_value: float | None = None
    ratio: float | None = None  #: value / baseline_value, or the speed-up, as the note says
    note: str = ""


def best_of(fn: Callable[[], object], repeat: int = 5) -> float:
    """The fastest of ``repeat`` wall-clock runs of ``fn``, in seconds."""
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best
