"""The `gazala` command's contract: exit 2 and one line for bad input (JSON with --json), exit 3 and
one line (never a traceback) for a bug, clean stops, and outputs that never overwrite an input."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from gazala_tools import cli
from gazala_tools.cli import main
from gazala_tools.games import find_game


def test_bad_input_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["map", "info", "no-such-game"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1 and "no-such-game" in captured.err


def test_with_json_the_error_is_also_json_on_stdout(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["map", "info", "no-such-game", "--json"]) == 2
    err = json.loads(capsys.readouterr().out)["error"]
    assert set(err) == {"file", "place", "expected", "message"} and "no-such-game" in err["message"]


def test_a_usage_error_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["map", "frobnicate"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "invalid choice" in err and "--help" in err


def test_a_bug_is_one_line_exit_3_and_no_traceback(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import gazala_tools.cli.game as game_cli

    def boom(args: object) -> int:
        raise ZeroDivisionError("division by zero")

    monkeypatch.setattr(game_cli, "_list", boom)
    monkeypatch.delenv("GAZALA_DEBUG", raising=False)
    assert main(["game", "list"]) == 3
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "ZeroDivisionError" in err and "please report" in err and "Traceback" not in err


def test_ctrl_c_is_a_clean_stop(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import gazala_tools.cli.game as game_cli

    def interrupted(args: object) -> int:
        raise KeyboardInterrupt

    monkeypatch.setattr(game_cli, "_list", interrupted)
    assert main(["game", "list"]) == 130
    assert capsys.readouterr().err == "gazala: interrupted\n"


def test_no_output_may_be_an_input_the_command_read(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    shutil.copytree(find_game("batalha").folder, tmp_path / "g")
    before = (tmp_path / "g" / "counters.yaml").read_bytes()
    # the sheet command reads counters.yaml (and game.yaml, map.yaml...): none of them may be the output
    for name in ("counters.yaml", "game.yaml"):
        assert main(["counters", "sheet", str(tmp_path / "g"), "-o", str(tmp_path / "g" / name)]) == 2
        assert "overwrite an input" in capsys.readouterr().err
    assert (tmp_path / "g" / "counters.yaml").read_bytes() == before
    assert cli.UsageError is not None


def test_the_command_starts_without_the_image_xml_and_array_libraries() -> None:
    """``gazala --help`` (and the parsing of every verb's options) imports no numpy, SciPy, Pillow, lxml,
    Shapely or ReportLab: each verb imports what it uses when it runs. They were 0.2 s of every start
    (the digitize verbs' pixel cap came from ``digitize.image``)."""
    import subprocess
    import sys

    heavy = ("numpy", "scipy", "PIL", "lxml", "shapely", "reportlab")
    code = ("import contextlib, io, sys\nfrom gazala_tools.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):\n    main(['--help'])\n"
            "print(' '.join(sorted({m.split('.')[0] for m in sys.modules})))")
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert "gazala_tools" in loaded and [m for m in heavy if m in loaded] == []
