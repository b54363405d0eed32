"""Which of our games a VASSAL save belongs to: by the module name the save (or module) records.

Our modules are named after their game (``game.yaml`` ``name``), and every save carries the name
of the module it was made with (``moduledata``), so a save of any of our modules finds its rules
without ``--game`` (:func:`gazala_tools.games.game_for_module_name`).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from gazala_tools.errors import GazalaError
from gazala_tools.games import Game
from gazala_tools.games import game_for_module_name as _game_named
from gazala_tools.inputs import ZipInput
from gazala_tools.vsav.container import MAX_META_BYTES, MODULEDATA_ENTRY, _metadata

if TYPE_CHECKING:  # pragma: no cover
    from gazala_tools.vsav import SaveView

__all__ = ["game_for_module_name", "game_of_module_file", "game_of_view"]


def game_for_module_name(name: str | None) -> str | None:
    """The id of the built-in game whose module is called ``name``, or None."""
    game = _game_named(name)
    return game.id if game is not None else None


def _module_name_of_vmod(path: Path) -> str | None:
    try:
        with ZipInput(path, what="module") as zf:
            data = zf.read(MODULEDATA_ENTRY, MAX_META_BYTES) if MODULEDATA_ENTRY in zf.names() else None
    except GazalaError:
        return None
    return _metadata(data, str(path), MODULEDATA_ENTRY).get("name") if data else None


def game_of_view(view: SaveView) -> Game | None:
    """The built-in game a save (already read) was made with, from its module name."""
    return _game_named(view.module_name)


def game_of_module_file(module: Path) -> Game | None:
    """The built-in game of a ``.vmod`` (its ``moduledata`` name), or None."""
    return _game_named(_module_name_of_vmod(module))
