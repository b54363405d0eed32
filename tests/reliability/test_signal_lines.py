"""Issue 21 item 6 (docs/reliability.md, "Signals"): a command stopped by Ctrl-C, SIGTERM or SIGHUP
exits 130 / 143 / 129 with exactly one line on stderr saying so."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest


@pytest.mark.parametrize(("sig", "status", "line"), [
    (signal.SIGINT, 130, "gazala: interrupted"),
    (signal.SIGTERM, 143, "gazala: stopped by SIGTERM"),
    (signal.SIGHUP, 129, "gazala: stopped by SIGHUP"),
])
def test_a_stop_signal_prints_its_one_line(tmp_path: Path, sig: signal.Signals, status: int, line: str) -> None:
    (tmp_path / "p.yaml").write_text("game: gazala-rg\nunits: []\n")
    proc = subprocess.Popen([sys.executable, "-m", "gazala_tools", "referee", "watch", str(tmp_path), "--interval",
                             "0.05"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert proc.stdout is not None
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not proc.stdout.readline().startswith(b"=="):
        pass  # the first scan printed its report: the command is running
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == status
    assert err.decode().splitlines() == [line]
