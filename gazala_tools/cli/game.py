"""``gazala game``: the games this installation knows, and what a game folder holds."""

from __future__ import annotations

import argparse
import json
from typing import Any

from gazala_tools.cli import _common

NOUN = "game"
HELP = "Games as data: list the built-in games, show what a game folder holds."


def register(parser: argparse.ArgumentParser) -> None:
    verbs = parser.add_subparsers(dest="verb", metavar="VERB", required=True)
    ls = verbs.add_parser("list", help="the built-in games (the default first)")
    ls.add_argument("--json", action="store_true", help="JSON output")
    ls.set_defaults(func=_list)

    show = verbs.add_parser("show", help="a game's id, name, sides, turns, numbering, files and rules plugin")
    show.add_argument("game", help=_common.game_help())
    show.add_argument("--json", action="store_true", help="JSON output")
    show.set_defaults(func=_show)


def _summary(game: Any) -> dict[str, Any]:
    files = {
        name: str(path) if path is not None and path.is_file() else None
        for name, path in (
            ("game", game.source_file), ("map", game.map_file), ("counters", game.counters_file),
            ("scenarios", game.scenarios_file), ("tables", game.tables_file), ("module", game.module_config),
        )
    }  # fmt: skip
    return {
        "id": game.id,
        "name": game.name,
        "builtin": game.builtin,
        "folder": str(game.folder),
        "provenance": game.provenance,
        "sides": [{"id": s.id, "name": s.name, "color": s.color} for s in game.sides],
        "turns": list(game.turns),
        "numbering": game.numbering.vassal_attrs(),
        "numbering_text": game.numbering.describe(),
        "plugin": game.plugin,
        "files": files,
    }


def _list(args: argparse.Namespace) -> int:
    from gazala_tools.games import builtin_games

    games = [_summary(g) for g in builtin_games()]
    if args.json:
        print(json.dumps(games, indent=2))
        return 0
    for i, g in enumerate(games):
        print(f"{g['id']:<14} {g['name']}{'  (default)' if i == 0 else ''}")
    return 0


def _show(args: argparse.Namespace) -> int:
    from gazala_tools.games import find_game

    g = _summary(find_game(args.game))
    if args.json:
        print(json.dumps(g, indent=2))
        return 0
    print(f"{g['id']}: {g['name']}  ({g['provenance']}{', built in' if g['builtin'] else ''})")
    print(f"  folder    {g['folder']}")
    print("  sides     " + ", ".join(f"{s['name']} ({s['id']})" for s in g["sides"]))
    turns = g["turns"]
    print(f"  turns     {len(turns)}" + (f": {turns[0]} .. {turns[-1]}" if turns else " (no turn record)"))
    print(f"  numbering {g['numbering_text']}")
    print(f"  rules     {g['plugin'] or 'rules data only (no plugin)'}")
    for name, path in g["files"].items():
        print(f"  {name:<9} {path or '-'}")
    return 0
