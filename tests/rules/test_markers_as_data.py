"""Markers are the game's (issue 32 item 5): the referee and the module builder read one list, the
game's ``rules.markers``; a game that declares none has its module's status layers (and ``used``)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from gazala_tools.errors import GameDataError
from gazala_tools.games import find_game
from gazala_tools.rules import rules_for
from gazala_tools.vassal.module.games import game_and_config

TESTS = Path(__file__).resolve().parents[1] / "games"


def copy(tmp_path: Path, name: str, old: str, new: str, file: str = "game.yaml") -> Path:
    game = tmp_path / name
    shutil.copytree(TESTS / name, game)
    text = (game / file).read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    (game / file).write_text(text.replace(old, new), encoding="utf-8")
    return game


def test_without_markers_the_modules_status_layers_are_the_markers(tmp_path: Path) -> None:
    game = copy(tmp_path, "river-war", "  markers:                            # the game's markers (the module's "
                "Disrupted layer)\n    disrupted: {name: Disrupted, zoc: false}   # Z1: a disrupted unit exerts no ZOC\n", "")
    rules = rules_for(find_game(game))
    assert {m: rules.data.markers[m].name for m in rules.data.markers} == {"disrupted": "Disrupted", "used": "Used"}


def test_the_module_builds_its_status_layers_from_the_games_markers(tmp_path: Path) -> None:
    # Lowland Front's module.yaml without prototypes.status: the markers that give a key become layers
    game = copy(tmp_path, "lowland-front", "prototypes:\n  status:\n"
                "    - {name: Out of Supply, key: Ctrl+Shift+O, badge: OOS, color: \"#c8a01e\"}\n"
                "    - {name: Isolated, key: Ctrl+Shift+I, badge: ISO, color: \"#c8641e\"}\n"
                "    - {name: Disrupted, key: Ctrl+Shift+D, badge: DIS, color: \"#c81e1e\"}\n", "", "module.yaml")
    text = (game / "game.yaml").read_text(encoding="utf-8")
    (game / "game.yaml").write_text(text.replace("disrupted: {name: Disrupted, rule: \"6.3\",",
                                                 "disrupted: {name: Disrupted, key: Ctrl+Shift+D, color: \"#c81e1e\", "
                                                 "rule: \"6.3\","), encoding="utf-8")
    _game, cfg = game_and_config(game)
    assert [(s.name, s.key.text, s.badge) for s in cfg.status] == [("Disrupted", "Ctrl+Shift+D", "DIS")]


def test_a_status_layer_that_is_no_marker_of_the_game_is_refused(tmp_path: Path) -> None:
    game = copy(tmp_path, "lowland-front", "{name: Isolated, key: Ctrl+Shift+I", "{name: Isolatd, key: Ctrl+Shift+I",
                "module.yaml")
    with pytest.raises(GameDataError, match=r"module\.yaml:\d+:\d+: prototypes\.status\[1\]\.name: 'Isolatd' is not a "
                       r"marker of the game \(did you mean 'Isolated'\?\)"):
        game_and_config(game)
