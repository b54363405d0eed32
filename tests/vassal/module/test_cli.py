"""``gazala module build``: writes the module, prints a JSON summary, exit 2 on a bad game."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest

from gazala_tools.cli import main


def test_build_writes_a_module_and_a_json_summary(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "sub" / "batalha.vmod"
    assert main(["module", "build", "batalha", "-o", str(out), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["output"] == str(out) and summary["piece_slots"] > 50
    assert summary["charts"][:2] == ["CRT", "Terrain"] and summary["track"] == {"map": "VP Track", "boxes": 20}
    assert summary["setups"] == {"Set-up (11.1: units at named places)": 7}
    with zipfile.ZipFile(out) as zf:
        assert {"buildFile.xml", "moduledata", "images/board.png"} <= set(zf.namelist())
    assert out.stat().st_mode & 0o044 == 0o044  # readable by others: a module is meant to be shared


def test_unknown_game_is_exit_2_naming_the_games(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["module", "build", "chess", "-o", str(tmp_path / "x.vmod")]) == 2
    err = capsys.readouterr().err
    assert "chess" in err and "gazala-rg" in err
    assert not (tmp_path / "x.vmod").exists()
