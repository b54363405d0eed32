"""What every benchmark reports: a measured value, its budget or target, and its baseline; and the
smoke mode every benchmark honours (``--smoke`` or ``GAZALA_BENCH_SMOKE=1``): the same code at a
small size, once, so that CI (``scripts/test``) notices a bench broken by a change."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

T = TypeVar("T")

#: the environment variable that selects the smoke run (children of a bench inherit it)
SMOKE_ENV = "GAZALA_BENCH_SMOKE"


def smoke() -> bool:
    """Is this a smoke run (small sizes, one repeat, budgets not judged)?"""
    return os.environ.get(SMOKE_ENV, "") not in ("", "0")


def size(full: T, small: T) -> T:
    """``full`` in a real run, ``small`` in a smoke run."""
    return small if smoke() else full


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
    """The fastest of ``repeat`` wall-clock runs of ``fn``, in seconds (one run in a smoke run)."""
    best = float("inf")
    for _ in range(1 if smoke() else repeat):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best
