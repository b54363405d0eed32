"""Issue 13: ``referee watch`` survives every bad file, skips what is not a regular file, names reports
by the whole file name; signals stop commands cleanly and leave no temporary file."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from gazala_tools import fileio

from .conftest import Run


@pytest.fixture
def watched(tmp_path: Path, corpus_dir: Path) -> Path:
    d = tmp_path / "saves"
    d.mkdir()
    save = corpus_dir / "hex-n-counters-template" / "ragnarok" / "ragnarok-start.vsav"
    shutil.copy(save, d / "a.vsav")
    # a log the real engine wrote (tests/fixtures/logs): checked move by move, as `referee log` does
    shutil.copy(Path(__file__).resolve().parents[1] / "fixtures" / "logs" / "rg-legal.vlog", d / "a.vlog")
    (d / "b.vsav").write_text("junk")
    os.mkfifo(d / "c.vsav")
    (d / "d.vsav").mkdir()
    (d / "e.yaml").write_text("game: gazala-rg\nunits: []\n")
    return d


def test_watch_goes_on_after_bad_files_and_skips_fifos(watched: Path, run: Run) -> None:
    out = watched.parent / "out"
    code, stdout, err = run("referee", "watch", watched, "--once", "--game", "gazala-rg", "--out-dir", out)
    assert code == 0
    assert [line for line in stdout.splitlines() if line.startswith("==")] == [
        f"== {watched / n}" for n in ("a.vlog", "a.vsav", "e.yaml")]
    assert "b.vsav" in err and "skipped" in err and "c.vsav" in err and "d.vsav" in err
    # a.vsav and a.vlog each have their own report
    assert sorted(p.name for p in out.iterdir()) == ["a.vlog.txt", "a.vsav.txt", "e.yaml.txt"]


def test_watch_goes_on_after_a_file_that_triggers_a_bug(watched: Path, run: Run,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    from gazala_tools.referee import api

    real = api.check_file

    def flaky(path: Path, **kw: object) -> object:
        if Path(path).name == "a.vsav":
            raise RuntimeError("boom")
        return real(path, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(api, "check_file", flaky)
    code, stdout, err = run("referee", "watch", watched, "--once", "--game", "gazala-rg")
    assert code == 0 and "RuntimeError: boom" in err and "please report" in err
    assert f"== {watched / 'a.vlog'}" in stdout and f"== {watched / 'e.yaml'}" in stdout


def _gazala(*argv: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-m", "gazala_tools", *argv], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


@pytest.mark.parametrize(("sig", "status"), [(signal.SIGINT, 130), (signal.SIGTERM, 143), (signal.SIGHUP, 129)])
def test_signals_stop_watch_cleanly(watched: Path, sig: signal.Signals, status: int) -> None:
    proc = _gazala("referee", "watch", str(watched), "--game", "gazala-rg", "--interval", "0.1")
    # wait until the first scan printed something (the command is running), then signal it
    deadline = time.monotonic() + 60
    assert proc.stdout is not None
    while time.monotonic() < deadline and not proc.stdout.readline().startswith(b"=="):
        pass
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == status and b"Traceback" not in err


def test_a_named_temporary_output_is_removed_when_the_command_is_stopped(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delattr(os, "O_TMPFILE", raising=False)  # the fallback: a named temporary beside the output
    with pytest.raises(SystemExit), fileio.atomic_open(tmp_path / "out.bin") as fh:
        fh.write(b"half")
        raise SystemExit(143)  # what SIGTERM / SIGHUP raise (gazala_tools.cli)
    assert list(tmp_path.iterdir()) == []
