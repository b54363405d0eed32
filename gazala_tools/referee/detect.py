"""Which of our games a VASSAL save belongs to: by the module name the save (or module) records.

Our modules are named after their counter manifest's title, and every save carries the name of
the module it was made with (``moduledata``), so a save of any of our modules finds its rules
without ``--game``.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

from gazala_tools.mapdata.model import DEFAULT_GAME, GAMES


def game_for_module_name(name: str | None) -> str | None:
    """The game id whose module is called ``name``, or None."""
    if not name:
        return None
    from gazala_tools.counters import load_manifest

    wanted = name.strip().casefold()
    for game in GAMES:
        if load_manifest(game).title.strip().casefold() == wanted:
            return game
    return None


def _module_name_of_vmod(path: Path) -> str | None:
    from gazala_tools.vassal.saves.container import MODULEDATA_ENTRY, _metadata

    try:
        with zipfile.ZipFile(path) as zf:
            data = zf.read(MODULEDATA_ENTRY) if MODULEDATA_ENTRY in zf.namelist() else None
    except (OSError, zipfile.BadZipFile):
        return None
    return _metadata(data, str(path), MODULEDATA_ENTRY).get("name") if data else None


def game_of_save(path: str | Path, module: str | Path | None = None) -> str:
    """The game of a save: from its own ``moduledata``, else the ``--module``'s, else RG.

    Reads only the container layer (zip and metadata), not the commands.
    """
    from gazala_tools.vassal.saves.container import read_container

    game = game_for_module_name(read_container(path).module_name)
    if game is None and module is not None:
        game = game_for_module_name(_module_name_of_vmod(Path(module)))
    return game or DEFAULT_GAME
