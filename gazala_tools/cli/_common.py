"""What several nouns of the ``gazala`` command share."""

from __future__ import annotations


def game_help(extra: str = "") -> str:
    """The help text of a GAME argument: a built-in id or a game folder."""
    from gazala_tools.games import builtin_ids

    return f"a built-in game ({', '.join(builtin_ids())}) or a game folder with game.yaml{extra}"
