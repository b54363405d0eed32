"""The referee takes a game folder wherever it takes a game; plugins are found through the data.

``--game DIR`` (check, position, watch) judges a position with the folder's rules; a position
YAML's ``game:`` names only a built-in game, never a path; a folder's ``rules.plugin`` is a ``.py``
file of the folder, loaded by path, that reads its own keys of ``rules:``.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from gazala_tools.cli import main
from gazala_tools.errors import GameDataError
from gazala_tools.games import find_game
from gazala_tools.referee.api import check_file
from gazala_tools.rules import plugins_allowed, rules_for

FOLDER = Path(__file__).resolve().parents[2] / "games" / "river-war"
OVER_STACKED = 'game: river-war\nturn: "2"\nunits:\n' + "".join(
    f'  - {{id: u{i}, side: red, type: infantry, hex: "C-3"}}\n' for i in range(3))

PLUGIN = '''\
"""A game's own rules plugin: one more rule, with its parameters in game.yaml."""
from gazala_tools.referee.engine import RulesPlugin
from gazala_tools.referee.findings import Finding, Severity


class RiverWarRules(RulesPlugin):
    data_keys = frozenset({"capital"})

    def read_data(self, data):
        cap = data.sub("capital", frozenset({"rule", "side", "hexes"}))
        self.capital_rule = cap.rule()
        self.capital_side = cap.side("side")
        self.capital = cap.hexset("hexes")

    def checks(self):
        return (*super().checks(), self.check_capital)

    def check_capital(self, ctx):
        if not any(u.side == self.capital_side for h in self.capital.hexes for u in ctx.by_hex.get(h, [])):
            yield Finding(self.capital_rule, Severity.INFO, f"{self.capital_side} does not hold {self.capital.text}")
'''
CAPITAL = "  capital: {rule: C1, side: blue, hexes: {places: [Ford Town]}}\n"


def copy_game(tmp_path: Path, plugin: str | None = None, extra: str = "") -> Path:
    dest = tmp_path / "river-war"
    shutil.copytree(FOLDER, dest)
    text = (dest / "game.yaml").read_text(encoding="utf-8")
    if plugin is not None:
        text = text.replace("rules:\n", f"rules:\n  plugin: {plugin}\n", 1)
    (dest / "game.yaml").write_text(text + extra, encoding="utf-8")
    return dest


def test_check_a_position_of_a_game_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pos = tmp_path / "pos.yaml"
    pos.write_text(OVER_STACKED, encoding="utf-8")
    assert main(["referee", "check", str(pos), "--game", str(FOLDER), "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["game"] == "river-war" and [f["rule"] for f in data["findings"]] == ["S1"]
    assert data["findings"][0]["hexes"] == ["C-3"]


def test_a_position_cannot_name_a_game_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``game:`` inside an input names a built-in game only: an input file never picks its own rules."""
    pos = tmp_path / "pos.yaml"
    pos.write_text(OVER_STACKED.replace("game: river-war", f"game: {FOLDER}"), encoding="utf-8")
    assert main(["referee", "check", str(pos)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no game" in err and "built-in game id" in err


def test_a_position_naming_a_system_file_is_one_line_that_shows_nothing_of_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pos = tmp_path / "pos.yaml"
    pos.write_text("game: ../../../../etc/passwd\nunits: []\n", encoding="utf-8")
    assert main(["referee", "check", str(pos)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and "root:" not in err
    assert "pos.yaml:1:7: game: no game '../../../../etc/passwd'" in err


def test_position_and_watch_take_a_game_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    watched = tmp_path / "saves"
    watched.mkdir()
    (watched / "a.yaml").write_text(OVER_STACKED, encoding="utf-8")
    assert main(["referee", "position", str(watched / "a.yaml"), "--game", str(FOLDER)]) == 0
    assert "hex: C-3" in capsys.readouterr().out
    assert main(["referee", "watch", str(watched), "--game", str(FOLDER), "--once"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("== ") and "S1" in out


def test_watch_refuses_a_bad_game_folder_once(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["referee", "watch", str(tmp_path), "--game", str(tmp_path / "nothing"), "--once"]) == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_a_plugin_file_of_the_folder_adds_its_rule(tmp_path: Path) -> None:
    game_dir = copy_game(tmp_path, plugin="rules.py", extra=CAPITAL)
    (game_dir / "rules.py").write_text(PLUGIN, encoding="utf-8")
    with plugins_allowed():  # --allow-plugin (docs/games.md)
        rules = rules_for(find_game(game_dir))
        assert type(rules).__name__ == "RiverWarRules" and rules.capital_rule == "C1"  # type: ignore[attr-defined]
        pos = tmp_path / "pos.yaml"
        pos.write_text(OVER_STACKED, encoding="utf-8")
        report = check_file(pos, game=game_dir).report
    assert {f.rule for f in report.findings} == {"S1", "C1", "plugin"}  # the generic rules still apply


def test_a_plugins_keys_are_read_with_file_and_line(tmp_path: Path) -> None:
    game_dir = copy_game(tmp_path, plugin="rules.py", extra=CAPITAL.replace("side: blue", "side: green"))
    (game_dir / "rules.py").write_text(PLUGIN, encoding="utf-8")
    line = (game_dir / "game.yaml").read_text(encoding="utf-8").splitlines().index(CAPITAL.rstrip("\n").replace(
        "side: blue", "side: green")) + 1
    with pytest.raises(GameDataError, match=rf"game.yaml:{line}:\d+: rules.capital.side: 'green' is not a side"), \
            plugins_allowed():
        rules_for(find_game(game_dir))


def test_a_key_no_plugin_reads_is_an_error(tmp_path: Path) -> None:
    game_dir = copy_game(tmp_path, extra=CAPITAL)  # no plugin declares `capital`
    with pytest.raises(GameDataError, match=r"game.yaml:\d+:\d+: rules: unknown key 'capital'"):
        rules_for(find_game(game_dir))


@pytest.mark.parametrize(("source", "problem"), [
    ("def broken(:\n", "failed to load (SyntaxError"),
    ("X = 1\n", "defines 0 RulesPlugin subclasses"),
    ("RULES = 3\n", "RULES is not a RulesPlugin subclass"),
])
def test_a_broken_plugin_file_is_one_error_naming_the_game_yaml_line(tmp_path: Path, source: str, problem: str) -> None:
    game_dir = copy_game(tmp_path, plugin="rules.py")
    (game_dir / "rules.py").write_text(source, encoding="utf-8")
    line = (game_dir / "game.yaml").read_text(encoding="utf-8").splitlines().index("  plugin: rules.py") + 1
    with pytest.raises(GameDataError, match=rf"game.yaml:{line}:\d+: rules.plugin 'rules.py': .*") as exc, \
            plugins_allowed():
        rules_for(find_game(game_dir))
    assert problem in str(exc.value)


def test_a_plugin_module_path_that_does_not_import(tmp_path: Path) -> None:
    game_dir = copy_game(tmp_path, plugin="gazala_tools.rules.no_such_module")
    with pytest.raises(GameDataError, match="cannot be imported"):
        rules_for(find_game(game_dir))


def test_a_plugin_outside_the_folder_is_refused(tmp_path: Path) -> None:
    game_dir = copy_game(tmp_path, plugin="../evil.py")
    (tmp_path / "evil.py").write_text("raise SystemExit('ran')\n", encoding="utf-8")
    with pytest.raises(GameDataError, match="plugin"), plugins_allowed():
        rules_for(find_game(game_dir))


@pytest.mark.parametrize("text", ["game: river-war\nunits: &u [*u]\n", "a: &x {b: *x}\n", "x" * 10 + ": [" * 80 + "]" * 80])
def test_a_position_yaml_that_would_not_end_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                        text: str) -> None:
    """Position YAMLs go through the capped data reader: recursive aliases and deep nesting are input errors."""
    pos = tmp_path / "pos.yaml"
    pos.write_text(text, encoding="utf-8")
    assert main(["referee", "check", str(pos), "--game", str(FOLDER)]) == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_a_recursive_alias_in_the_rules_data_is_a_game_data_error(tmp_path: Path) -> None:
    game_dir = copy_game(tmp_path)
    text = (game_dir / "game.yaml").read_text(encoding="utf-8").replace("rules:\n", "rules:\n  loop: &x [*x]\n", 1)
    (game_dir / "game.yaml").write_text(text, encoding="utf-8")
    with pytest.raises(GameDataError, match="nested too deeply"):
        rules_for(find_game(game_dir))
