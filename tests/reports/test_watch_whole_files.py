"""Issue 21 item 5: ``referee watch`` judges a file only when it is whole: unchanged for ``--settle``
seconds and, for a zip, with its central directory complete; a file that changes after it was judged
is judged again and its report says it replaces the earlier one."""

from __future__ import annotations

import os
import zipfile
from pathlib import Path

import pytest

from gazala_tools.cli import main as gazala
from gazala_tools.cli import referee as referee_cli
from gazala_tools.cli._watch import ZIP_PATIENCE, Settle, zip_complete

LOGS = Path(__file__).resolve().parents[1] / "fixtures" / "logs"


def two_parts() -> tuple[bytes, bytes]:
    """``rg-illegal.vlog`` as a bare (unzipped) log, cut after its first step: the first part alone
    is a legal one-step log; the whole is ILLEGAL."""
    from gazala_tools.vsav.container import read_container
    from gazala_tools.vsav.writer import encode_savefile

    c = read_container(LOGS / "rg-illegal.vlog")
    cut = c.text.index("\x1bLOG", c.text.index("\x1bLOG") + 1)
    first, whole = encode_savefile(c.text[:cut], key=c.key), encode_savefile(c.text, key=c.key)
    assert whole.startswith(first)
    return first, whole[len(first):]


def watch_while_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, first: bytes, rest: bytes,
                        capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """``watch --once`` over a folder where ``name`` holds ``first``; the rest is written while the
    watch waits (at its first pause), as a slow writer would."""
    inbox = tmp_path / "in"
    inbox.mkdir()
    f = inbox / name
    f.write_bytes(first)
    later = os.stat(f).st_mtime_ns + 60 * 10**9  # by its mtime the part is not old: only the watch's clock counts
    os.utime(f, ns=(later, later))
    real_sleep, writes = referee_cli.time.sleep, []

    def sleep(seconds: float) -> None:
        if not writes:
            with f.open("ab") as fh:
                fh.write(rest)
            writes.append(1)
        real_sleep(seconds)

    monkeypatch.setattr(referee_cli.time, "sleep", sleep)
    code = gazala(["referee", "watch", str(inbox), "--once", "--settle", "0.2", "--interval", "0.05"])
    out, err = capsys.readouterr()
    return code, out, err


def test_a_log_written_in_two_parts_is_never_judged_from_the_first(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    first, rest = two_parts()
    code, out, err = watch_while_written(tmp_path, monkeypatch, "turn.vlog", first, rest, capsys)
    assert code == 0 and err == ""
    assert out.count("== ") == 1 and "1 steps" not in out
    assert out.rstrip().endswith("ILLEGAL")


def test_a_zip_cut_short_is_not_yet_judged(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    whole = (LOGS / "rg-illegal.vlog").read_bytes()
    half = len(whole) // 2
    code, out, err = watch_while_written(tmp_path, monkeypatch, "turn.vlog", whole[:half], whole[half:], capsys)
    assert code == 0 and err == ""  # not "not a readable zip archive"
    assert out.count("== ") == 1 and out.rstrip().endswith("ILLEGAL")


def test_zip_complete_only_for_the_whole_zip(tmp_path: Path) -> None:
    whole = (LOGS / "rg-illegal.vlog").read_bytes()
    f = tmp_path / "z.vlog"
    for n in [*range(0, len(whole), 97), len(whole) - 1]:
        f.write_bytes(whole[:n])
        assert not zip_complete(f) or not whole[:n].startswith(b"PK"), n
    f.write_bytes(whole)
    assert zip_complete(f)
    with zipfile.ZipFile(f, "a") as z:  # a comment after the directory
        z.comment = b"a comment"
    assert zip_complete(f)
    f.write_bytes(b"!VCSK" + b"00" * 10)  # a bare save is no zip
    assert zip_complete(f)


class Clock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


def test_settle_judges_each_version_once_when_stable(tmp_path: Path) -> None:
    clock = Clock()
    s = Settle(1.0, clock=clock, wall=lambda: 0.0)  # the files' mtimes are all "in the future": the clock counts
    f = tmp_path / "a.yaml"
    f.write_text("one")
    assert s.ready(f, f.stat()) == (False, None) and s.pending()
    clock.t += 0.9
    assert s.ready(f, f.stat()) == (False, None)
    clock.t += 0.2
    assert s.ready(f, f.stat()) == (True, None) and not s.pending()
    assert s.ready(f, f.stat()) == (False, None)  # judged: not again
    f.write_text("two, longer")  # changed after it was judged
    clock.t += 5
    assert s.ready(f, f.stat()) == (False, None)  # a new version: stable only from now
    clock.t += 1.0
    assert s.ready(f, f.stat()) == (True, 0.0)  # judged again; the earlier judgement's time is given


def test_settle_a_truncated_zip_waits_then_is_judged_as_it_is(tmp_path: Path) -> None:
    clock = Clock()
    s = Settle(1.0, clock=clock, wall=lambda: 0.0)
    f = tmp_path / "a.vsav"
    f.write_bytes((LOGS / "rg-legal.vlog").read_bytes()[:500])
    s.ready(f, f.stat())
    clock.t += ZIP_PATIENCE - 0.5
    assert s.ready(f, f.stat()) == (False, None)  # stable, but the zip is not complete: not yet
    clock.t += 1.0
    assert s.ready(f, f.stat()) == (True, None)  # stayed so: judged (and reported corrupt by the reader)


def test_a_changed_log_is_judged_again_and_says_it_replaces_the_report(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    inbox = tmp_path / "in"
    inbox.mkdir()
    f = inbox / "turn.vlog"
    f.write_bytes((LOGS / "rg-legal.vlog").read_bytes())
    os.utime(f, (1, 1))  # long there: judged at the first scan
    real_sleep, pauses = referee_cli.time.sleep, []

    def sleep(seconds: float) -> None:
        pauses.append(seconds)
        if len(pauses) == 1:  # the player sends the log again, with more moves
            f.write_bytes((LOGS / "rg-illegal.vlog").read_bytes())
        if len(pauses) > 30:  # at least 30 x 0.02 s: well past --settle 0.1
            raise KeyboardInterrupt  # Ctrl-C ends the watch
        real_sleep(seconds)

    monkeypatch.setattr(referee_cli.time, "sleep", sleep)
    assert gazala(["referee", "watch", str(inbox), "--settle", "0.1", "--interval", "0.02"]) == 130
    out = capsys.readouterr().out
    headers = [line for line in out.splitlines() if line.startswith("== ")]
    assert headers[0] == f"== {f}"
    assert len(headers) == 2 and headers[1].startswith(f"== {f} (changed since judged at ")
    assert headers[1].endswith("replaces that report)") and out.rstrip().endswith("ILLEGAL")
