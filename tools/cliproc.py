"""A ``gazala`` command in a process of its own, measured as issue 31 asks ("within 30 s and 1 GiB, measured
with ``wait4``"): its exit status, the lines it wrote on stderr, its wall time and its own peak memory
(:func:`benchmarks.common.run_measured`), killed after twice the time allowed."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from benchmarks.common import run_measured

ROOT = Path(__file__).resolve().parents[1]
#: what every hostile case must end within (issue 31 "Must show")
SECONDS, MEGABYTES = 30.0, 1024.0


@dataclass(frozen=True)
class Ended:
    code: int
    err: list[str]  #: the lines on stderr
    seconds: float
    peak_mb: float

    def clean(self, code: int = 2) -> bool:
        """Exit ``code`` (with exactly one line on stderr when 2), no traceback, within the time and memory."""
        lines_ok = len(self.err) == 1 if code == 2 else True
        return (self.code == code and lines_ok and not any("Traceback" in x for x in self.err)
                and self.seconds < SECONDS and self.peak_mb < MEGABYTES)


def gazala(*argv: str | Path, cwd: Path, stdout: int | str = subprocess.DEVNULL) -> Ended:
    """``gazala ARGV`` run in ``cwd``; ``stdout``: a file name (``/dev/full``) or a Popen constant."""
    cmd = [shutil.which("timeout") or "/usr/bin/timeout", "-s", "KILL", str(int(2 * SECONDS)), sys.executable,
           "-m", "gazala_tools", *map(str, argv)]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with tempfile.TemporaryFile() as err:
        if isinstance(stdout, str):
            with open(stdout, "wb") as out:
                m = run_measured(cmd, cwd=cwd, env=env, stdout=out, stderr=err)
        else:
            m = run_measured(cmd, cwd=cwd, env=env, stdout=stdout, stderr=err)
        err.seek(0)
        lines = err.read().decode("utf-8", "replace").splitlines()
    return Ended(m.code, lines, m.wall, m.peak_mb)


def digest(folder: Path) -> dict[str, str]:
    """Every file and folder under ``folder`` (hidden ones too), files by their content."""
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest() if p.is_file() else "dir"
            for p in sorted(folder.rglob("*"))}
