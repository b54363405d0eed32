"""Rule-sized plugins (issue 34 item 3): a built-in game's plugin over 300 lines is a package of rule
modules (``gazala_tools/rules/rg/``: ``loc``, ``breaches``, ``activation``, ...), each under 250 lines, and
``rules.plugin: gazala_tools.rules.<name>`` of its game.yaml still finds it."""

from __future__ import annotations

from pathlib import Path

import pytest

from gazala_tools.games import find_game
from gazala_tools.rules import plugin_class

RULES = Path(__file__).resolve().parents[2] / "gazala_tools" / "rules"


def lines(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def test_every_module_of_a_plugin_package_is_under_250_lines() -> None:
    packages = [p for p in RULES.iterdir() if p.is_dir() and (p / "__init__.py").is_file()]
    assert {p.name for p in packages} >= {"rg", "dg", "bg"}
    assert [(str(f.relative_to(RULES)), lines(f)) for p in packages for f in sorted(p.glob("*.py"))
            if lines(f) >= 250] == []


def test_a_plugin_of_one_module_stays_under_300_lines() -> None:
    assert [(f.name, lines(f)) for f in sorted(RULES.glob("*.py")) if lines(f) > 300] == []


@pytest.mark.parametrize(("game", "module"), [("gazala-rg", "rg"), ("cauldron-dg", "dg"), ("batalha", "bg"),
                                              ("cauldron-spi", "spi")])
def test_game_yaml_still_names_its_plugin_by_module_path(game: str, module: str) -> None:
    cls = plugin_class(find_game(game))
    assert find_game(game).plugin == f"gazala_tools.rules.{module}" and cls.__module__ == f"gazala_tools.rules.{module}"
