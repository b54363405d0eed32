"""Issue 31 items 6 and 8: what the toolkit writes to a terminal, to a full disk, to a closed pipe, and as HTML.

- Every write to stdout/stderr ends cleanly: a full disk (``> /dev/full``) exits 2 with one line, a reader
  that went away (``| head -1``) exits 141 as a program SIGPIPE ends, saying nothing (was exit 3, or a
  traceback and "Exception ignored" at exit).
- Text shown on a terminal holds no control character of an input (``game show`` of a name with ESC, BEL,
  C1 CSI, a backspace, CR and DEL; bidirectional marks are text, kept); ``--json`` stays exact.
- Every HTML page the toolkit writes has a Content-Security-Policy, the module's own help page included;
  no Python warning text on stderr (Pillow's ``UserWarning`` of the imported Ragnarok's palette images).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tools.cliproc import ROOT, gazala

PACKAGE = ROOT / "gazala_tools"
RIVER_WAR = ROOT / "tests" / "games" / "river-war"
#: a game name as a hostile game.yaml writes it (YAML escapes): a window title, a bell, a C1 CSI (red), a
#: backspace, a carriage return and DEL
HOSTILE_NAME = "evil\\e]0;pwned\\a\\x9b31m red\\b\\r\\x7f"
CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


@pytest.fixture(scope="module")
def ragnarok(tmp_path_factory: pytest.TempPathFactory, corpus_dir: Path) -> Path:
    """The Ragnarok module imported (its counters' palette images make Pillow warn)."""
    out = tmp_path_factory.mktemp("streams") / "imp"
    assert gazala("game", "import", corpus_dir / "hex-n-counters-template" / "ragnarok", out, cwd=out.parent).clean(0)
    return out


# --- stdout on a full disk or a closed pipe --------------------------------------------------------------
@pytest.mark.parametrize("argv", [("help", "module"), ("game", "list"), ("game", "show", "river-war-folder"),
                                  ("map", "info", "gazala-rg"), ("module", "lint", "MODULE"),
                                  ("game", "list", "--json"), ("--help",), ("--version",)])
def test_stdout_on_a_full_disk_is_one_line(argv: tuple[str, ...], tmp_path: Path, corpus_dir: Path) -> None:
    args = [str(RIVER_WAR) if a == "river-war-folder" else
            str(corpus_dir / "hex-n-counters-template" / "ragnarok") if a == "MODULE" else a for a in argv]
    ended = gazala(*args, cwd=tmp_path, stdout="/dev/full")
    assert ended.clean(), ended
    assert ended.err == ["gazala: error: cannot write to standard output (No space left on device)"]


def _closed_pipe(argv: list[str], tmp_path: Path) -> tuple[int, bytes]:
    """``gazala ARGV | head -0``: the reading end closed before the command writes."""
    r, w = os.pipe()
    os.close(r)
    try:
        proc = subprocess.run([sys.executable, "-m", "gazala_tools", *argv], cwd=tmp_path, stdout=w,
                              stderr=subprocess.PIPE, env={**os.environ, "PYTHONPATH": str(ROOT)},
                              timeout=60)
    finally:
        os.close(w)
    return proc.returncode, proc.stderr


@pytest.mark.parametrize("argv", [["game", "list"], ["help", "module"], ["map", "check", "gazala-rg"]])
def test_a_reader_that_went_away_ends_the_command_quietly(argv: list[str], tmp_path: Path) -> None:
    code, err = _closed_pipe(argv, tmp_path)
    assert (code, err) == (141, b"")


# --- control characters of an input never reach the terminal ----------------------------------------------
@pytest.fixture
def hostile_game(tmp_path: Path) -> Path:
    folder = tmp_path / "hostile"
    shutil.copytree(RIVER_WAR, folder)
    game = folder / "game.yaml"
    lines = game.read_text(encoding="utf-8").splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("name:"))
    lines[at] = f'name: "{HOSTILE_NAME}"'
    game.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder


def test_game_show_of_a_hostile_name_writes_no_control_character(hostile_game: Path) -> None:
    out = subprocess.run([sys.executable, "-m", "gazala_tools", "game", "show", str(hostile_game)],
                         capture_output=True, text=True, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
                         timeout=60)
    assert out.returncode == 0, out.stderr
    first = out.stdout.splitlines()[0]
    assert not CONTROLS.search(out.stdout)
    assert "evil?]0;pwned??31m red???" in first  # each control shown as ? (as ls does)


def test_game_show_json_keeps_the_name_exact(hostile_game: Path) -> None:
    out = subprocess.run([sys.executable, "-m", "gazala_tools", "game", "show", str(hostile_game), "--json"],
                         capture_output=True, text=True, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
                         timeout=60)
    assert json.loads(out.stdout)["name"] == "evil\x1b]0;pwned\x07\x9b31m red\b\r\x7f"


def test_an_error_line_quoting_a_hostile_argument_holds_no_control(tmp_path: Path) -> None:
    """An error names its file as given: a file name with ESC and BEL is shown with ``?`` for each."""
    ended = gazala("vsav", "dump", "no\x1b[2Jsuch\x07.vsav", cwd=tmp_path)
    assert ended.clean(), ended
    assert not CONTROLS.search(ended.err[0]) and ended.err[0].startswith("gazala: error: no?[2Jsuch?.vsav: ")


# --- HTML pages -------------------------------------------------------------------------------------------
def test_every_html_page_head_comes_from_the_one_helper() -> None:
    """A page written anywhere but through ``escape.head`` (charset, CSP, title) is found here: the source
    that starts an HTML document is escape.py alone, and every module that writes a page calls ``head``."""
    starts = re.compile(r"<html|<!DOCTYPE html", re.IGNORECASE)
    writers = {p.relative_to(PACKAGE).as_posix() for p in PACKAGE.rglob("*.py") if starts.search(p.read_text())}
    assert writers == {"escape.py"}
    pages = {p.relative_to(PACKAGE).as_posix() for p in PACKAGE.rglob("*.py")
             if re.search(r"\bhead\(|page_head\(", p.read_text()) and "escape import" in p.read_text()}
    assert pages >= {"render/report.py", "render/logreport.py", "vassal/module/games.py"}


def test_the_modules_own_help_page_has_a_policy(tmp_path: Path) -> None:
    vmod = tmp_path / "rw.vmod"
    assert gazala("module", "build", RIVER_WAR, "-o", vmod, cwd=tmp_path).clean(0)
    with zipfile.ZipFile(vmod) as zf:
        page = zf.read("help/module.html").decode("utf-8")
    head = page.split("</head>", 1)[0]
    assert head.startswith("<!DOCTYPE html>")
    policy = re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]+)">', head)
    assert policy is not None and "default-src &#x27;none&#x27;" in policy.group(1)
    assert "<script" not in page and "River War" in page


def test_the_referee_page_has_a_policy(tmp_path: Path) -> None:
    position = tmp_path / "p.yaml"
    position.write_text("game: gazala-rg\nunits: []\n")
    ended = gazala("referee", "check", position, "--format", "html", "-o", tmp_path / "r.html", cwd=tmp_path)
    assert ended.code in (0, 1), ended
    assert 'http-equiv="Content-Security-Policy"' in (tmp_path / "r.html").read_text()


# --- no Python warning text --------------------------------------------------------------------------------
@pytest.mark.parametrize("verb", ["contact", "sheet"])
def test_pillow_warnings_are_no_lines_on_stderr(ragnarok: Path, tmp_path: Path, verb: str) -> None:
    out = tmp_path / ("c.png" if verb == "contact" else "s.pdf")
    ended = gazala("counters", verb, ragnarok, "-o", out, cwd=tmp_path)
    assert ended.clean(0), ended
    assert ended.err == [] and out.stat().st_size > 0


def test_the_warnings_are_in_the_verbose_log(monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    """A library's warning while a command runs (Pillow's palette warning, as the imported Ragnarok's faces
    gave before their layers were converted quietly) is a log note, not a line of Python on stderr."""
    import warnings

    import gazala_tools.games as games
    from gazala_tools.cli import main

    real = games.builtin_games

    def warning_games():  # type: ignore[no-untyped-def]
        warnings.warn("Palette images with Transparency expressed in bytes should be converted to RGBA images",
                      UserWarning, stacklevel=1)
        return real()

    monkeypatch.setattr(games, "builtin_games", warning_games)
    with caplog.at_level("INFO", logger="gazala_tools"):
        assert main(["game", "list"]) == 0
    notes = [r.getMessage() for r in caplog.records if r.getMessage().startswith("note: UserWarning: Palette images")]
    err = capsys.readouterr().err
    assert notes and "warnings.warn" not in err and "site-packages" not in err and ".py:" not in err
