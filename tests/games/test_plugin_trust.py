"""Issue 21 item 3: plugins are opt-in code (docs/games.md, "Plugins are code").

A game folder's plugin file runs only with ``--allow-plugin``, only from its source (a forged
``__pycache__/*.pyc`` beside it is never run), writes no ``__pycache__`` into the folder, and the
report says it ran; ``plugin:`` names a file of the folder or a module of ``gazala_tools.rules``,
nothing else.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import sys
from pathlib import Path

import pytest

from gazala_tools.cli import main
from gazala_tools.errors import GameDataError
from gazala_tools.games import find_game
from gazala_tools.rules import plugins_allowed, rules_for

RIVER_WAR = Path(__file__).resolve().parent / "river-war"
POSITION = 'game: river-war\nturn: "2"\nunits:\n' + "".join(
    f'  - {{id: u{i}, side: red, type: infantry, hex: "C-3"}}\n' for i in range(3))
PLUGIN = '''\
from pathlib import Path
from gazala_tools.referee.engine import RulesPlugin
Path({marker!r}).write_text("{what}")

class Rules(RulesPlugin):
    pass
'''


@pytest.fixture
def game(tmp_path: Path) -> Path:
    g = tmp_path / "game"
    shutil.copytree(RIVER_WAR, g)
    text = (g / "game.yaml").read_text(encoding="utf-8")
    (g / "game.yaml").write_text(text.replace("rules:\n", "rules:\n  plugin: rules.py\n", 1), encoding="utf-8")
    (g / "rules.py").write_text(PLUGIN.format(marker=str(tmp_path / "ran"), what="source"), encoding="utf-8")
    (tmp_path / "pos.yaml").write_text(POSITION, encoding="utf-8")
    return g


def check(game: Path, *extra: str) -> list[str]:
    return ["referee", "check", str(game.parent / "pos.yaml"), "--game", str(game), *extra]


def test_a_folder_plugin_without_allow_plugin_is_refused_and_never_runs(game: Path,
                                                                        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(check(game)) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "rules.plugin 'rules.py'" in err and "--allow-plugin" in err
    assert not (game.parent / "ran").exists()
    with pytest.raises(GameDataError, match="--allow-plugin"):
        rules_for(find_game(game))


@pytest.mark.parametrize("fmt", ["text", "json", "html"])
def test_with_allow_plugin_it_runs_and_every_report_says_so(game: Path, fmt: str, tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / f"report.{fmt}"
    assert main(check(game, "--allow-plugin", "--format", fmt, "-o", str(out))) == 1
    assert (game.parent / "ran").read_text() == "source"
    text = out.read_text(encoding="utf-8")
    assert "rules plugin rules.py of the game folder ran" in text
    if fmt == "json":
        assert json.loads(text)["findings"][0]["rule"] == "plugin"


def test_an_allowed_plugin_cached_in_the_process_still_needs_allow_plugin(game: Path,
                                                                        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(check(game, "--allow-plugin")) == 1
    assert main(check(game)) == 2
    assert "--allow-plugin" in capsys.readouterr().err


def test_a_forged_pyc_beside_the_plugin_never_runs_and_no_pycache_is_written(game: Path, tmp_path: Path) -> None:
    source = game / "rules.py"
    st = source.stat()
    evil = compile(PLUGIN.format(marker=str(tmp_path / "ran"), what="FORGED PYC"), str(source), "exec")
    pyc = Path(importlib.util.cache_from_source(str(source)))
    pyc.parent.mkdir()
    from importlib._bootstrap_external import _code_to_timestamp_pyc  # type: ignore[attr-defined]

    pyc.write_bytes(bytes(_code_to_timestamp_pyc(evil, int(st.st_mtime), st.st_size)))  # matches mtime and size
    os.utime(source, ns=(st.st_atime_ns, st.st_mtime_ns))
    with plugins_allowed():
        rules_for(find_game(game))
    assert (tmp_path / "ran").read_text() == "source"
    assert sorted(p.name for p in pyc.parent.iterdir()) == [pyc.name]  # nothing new in the folder


def test_loading_a_plugin_writes_no_pycache_into_the_folder(game: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    before = sorted(p.relative_to(game) for p in game.rglob("*"))
    monkeypatch.setattr(sys, "dont_write_bytecode", False)  # Python's default: its import machinery would write one
    with plugins_allowed():
        rules_for(find_game(game))
    assert sorted(p.relative_to(game) for p in game.rglob("*")) == before


@pytest.mark.parametrize("ref", ["this", "antigravity", "os", "gazala_tools.cli", "gazala_tools.rules.rg.os", "x" * 300 + ".py"])
def test_a_plugin_module_path_outside_the_package_rules_is_refused(tmp_path: Path, ref: str,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    g = tmp_path / "game"
    shutil.copytree(RIVER_WAR, g)
    text = (g / "game.yaml").read_text(encoding="utf-8")
    (g / "game.yaml").write_text(text.replace("rules:\n", f"rules:\n  plugin: {ref}\n", 1), encoding="utf-8")
    (tmp_path / "pos.yaml").write_text(POSITION, encoding="utf-8")
    assert main(["referee", "check", str(tmp_path / "pos.yaml"), "--game", str(g), "--allow-plugin"]) == 2
    out, err = capsys.readouterr()
    assert err.count("\n") == 1 and "is not a plugin reference" in err and "gazala_tools.rules" in err
    assert "Beautiful is better" not in out + err


def test_a_module_of_the_package_rules_needs_no_allow_plugin(tmp_path: Path) -> None:
    g = tmp_path / "game"
    shutil.copytree(find_game("gazala-rg").folder, g)
    assert type(rules_for(find_game(g))).__module__ == "gazala_tools.rules.rg"


def test_a_plugin_file_that_is_a_symlink_out_of_the_folder_is_refused(game: Path, tmp_path: Path) -> None:
    (tmp_path / "outside.py").write_text(PLUGIN.format(marker=str(tmp_path / "ran"), what="outside"), encoding="utf-8")
    (game / "rules.py").unlink()
    (game / "rules.py").symlink_to(tmp_path / "outside.py")
    with pytest.raises(GameDataError, match="leaves the game folder"), plugins_allowed():
        rules_for(find_game(game))
    assert not (tmp_path / "ran").exists()


@pytest.mark.parametrize("fmt", ["text", "json", "html"])
def test_referee_log_needs_allow_plugin_and_its_report_says_the_plugin_ran(tmp_path: Path, fmt: str,
                                                                          capsys: pytest.CaptureFixture[str]) -> None:
    g = tmp_path / "rg"
    shutil.copytree(find_game("gazala-rg").folder, g)
    text = (g / "game.yaml").read_text(encoding="utf-8")
    (g / "game.yaml").write_text(text.replace("plugin: gazala_tools.rules.rg", "plugin: rules.py"), encoding="utf-8")
    (g / "rules.py").write_text("from gazala_tools.rules.rg import GazalaRG\n\nRULES = GazalaRG\n", encoding="utf-8")
    log = Path(__file__).resolve().parents[1] / "fixtures" / "logs" / "rg-legal.vlog"
    argv = ["referee", "log", str(log), "--game", str(g), "--format", fmt]
    assert main(argv) == 2
    assert "--allow-plugin" in capsys.readouterr().err
    assert main([*argv, "--allow-plugin"]) in (0, 1)
    assert "rules plugin rules.py of the game folder ran" in capsys.readouterr().out
