"""What every benchmark reports: a measured value, its budget or target, and its baseline; and the
smoke mode every benchmark honours (``--smoke`` or ``GAZALA_BENCH_SMOKE=1``): the same code at a
small size, once, so that CI (``scripts/test``) notices a bench broken by a change."""

from __future__ import annotations

import json
import os
import pkgutil
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TypeVar

T = TypeVar("T")

#: the environment variable that selects the smoke run (children of a bench inherit it)
SMOKE_ENV = "GAZALA_BENCH_SMOKE"


def areas() -> list[str]:
    """The benchmark areas, in order: the ``bench_AREA`` modules of this package."""
    here = Path(__file__).parent
    return sorted(m.name[len("bench_") :] for m in pkgutil.iter_modules([str(here)]) if m.name.startswith("bench_"))


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


#: the small process that starts a measured command (:func:`run_measured`): it forks, the child
#: runs the command (``argv[2:]``), and it writes the child's exit status and resource use as JSON
#: on the file descriptor ``argv[1]``
_MEASURER = """
import json, os, sys
fd, cmd = int(sys.argv[1]), sys.argv[2:]
pid = os.fork()
if pid == 0:
    os.close(fd)
    try:
        os.execv(cmd[0], cmd)
    finally:
        os._exit(127)
_pid, status, usage = os.wait4(pid, 0)
with os.fdopen(fd, "w") as out:
    json.dump({"code": os.waitstatus_to_exitcode(status), "maxrss_kb": usage.ru_maxrss,
               "cpu_s": usage.ru_utime + usage.ru_stime}, out)
"""


@dataclass(frozen=True)
class Measured:
    code: int  #: the command's exit status
    wall: float  #: seconds
    peak_mb: float  #: the command's peak RSS (its own, or its largest child's), in MB
    cpu: float  #: user + system seconds of the command and its children


def run_measured(argv: Sequence[str], *, cwd: Path, env: dict[str, str], stdout: int | IO[bytes] | None = None,
                 stderr: int | IO[bytes] | None = None) -> Measured:
    """Run ``argv`` in a fresh process and measure its wall time, CPU time and peak memory.

    Linux gives a new process the RSS high-water mark of the process it was forked from (``dup_mm``
    copies it, and ``exec`` keeps it in ``signal->maxrss``): a command started straight from a bench
    that has grown (after a 250 Mpx decode, 841 MB) would report at least that much. So the command is
    started by a small process of its own (:data:`_MEASURER`), whose high-water mark is a bare
    interpreter's, and which reports the command's ``wait4`` figures."""
    r, w = os.pipe()
    t = time.perf_counter()
    try:
        proc = subprocess.Popen([sys.executable, "-c", _MEASURER, str(w), *argv], cwd=cwd, env=env, stdout=stdout,
                                stderr=stderr, pass_fds=(w,))
        os.close(w)
        w = -1
        with os.fdopen(r, "rb") as fh:
            r = -1
            data = fh.read()
        proc.wait()
    finally:
        for fd in (r, w):
            if fd >= 0:
                os.close(fd)
    dt = time.perf_counter() - t
    got = json.loads(data) if data else {"code": proc.returncode, "maxrss_kb": 0, "cpu_s": 0.0}
    return Measured(int(got["code"]), dt, float(got["maxrss_kb"]) / 1024, float(got["cpu_s"]))
