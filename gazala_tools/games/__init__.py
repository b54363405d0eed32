"""Games as data: one folder per game, one registry (``docs/games.md``).

>>> from gazala_tools.games import builtin_ids, find_game
>>> game = find_game(builtin_ids()[0])   # a built-in game (package data), by id
>>> len(game.sides) >= 2
True
>>> mine = find_game("path/to/my-game")  # a folder with game.yaml  # doctest: +SKIP

Everything that asks which games exist, or what a game's numbering, sides, turns, map, counters,
scenarios and tables are, goes through :func:`find_game`. Pure Python.
"""

from gazala_tools.games.model import Game, Side
from gazala_tools.games.registry import (
    builtin_games,
    builtin_ids,
    default_game_id,
    find_game,
    game_for_module_name,
    is_builtin,
    load_game_folder,
    mapdata_root,
    modules_root,
)

__all__ = [
    "Game",
    "Side",
    "builtin_games",
    "builtin_ids",
    "default_game_id",
    "find_game",
    "game_for_module_name",
    "is_builtin",
    "load_game_folder",
    "mapdata_root",
    "modules_root",
]
