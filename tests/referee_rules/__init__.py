"""Test support shared by the referee tests: each built-in game's rules bound to a small test map,
and test maps completed with the entries a game's rules data names.

``rg_rules(map)`` is ``rules_for(find_game("gazala-rg"), map)``: the game's rules (its plugin, its
``rules:`` data) on a map that is not the game's own, so a name the map lacks counts as no hexes.
"""

from __future__ import annotations

import yaml

from gazala_tools.games import find_game
from gazala_tools.mapdata.model import GameMap
from gazala_tools.referee.engine import RulesPlugin
from gazala_tools.rules import rules_for


def rg_rules(game_map: GameMap) -> RulesPlugin:
    return rules_for(find_game("gazala-rg"), game_map)


def dg_rules(game_map: GameMap) -> RulesPlugin:
    return rules_for(find_game("cauldron-dg"), game_map)


def spi_rules(game_map: GameMap) -> RulesPlugin:
    return rules_for(find_game("cauldron-spi"), game_map)


def bg_rules(game_map: GameMap) -> RulesPlugin:
    return rules_for(find_game("batalha"), game_map)


def with_defaults(text: str, defaults: str) -> str:
    """Map YAML ``text`` with the named entries of ``defaults`` it lacks (list sections merged by name)."""
    data = yaml.safe_load(text)
    for section, entries in yaml.safe_load(defaults).items():
        have = {e.get("name") for e in data.get(section) or []}
        data[section] = [*(data.get(section) or []), *(e for e in entries if e["name"] not in have)]
    return yaml.safe_dump(data, sort_keys=False)
