"""The one registry of games: built-in game folders (package data) and any folder a user names.

``find_game(ID)`` is a built-in game; ``find_game("path/to/my-game")`` is the user's folder
(a directory with a ``game.yaml``, or the ``game.yaml`` itself). The built-in games are the folders
listed in ``mapdata/games.yaml`` (first = the default game), installed with the package and read
through :mod:`importlib.resources`; their module build configurations are ``modules/<id>.yaml``.

Pure Python.
"""

from __future__ import annotations

import functools
import importlib.resources
import os
from pathlib import Path
from typing import Final

from gazala_tools.errors import GameDataError, GazalaError
from gazala_tools.filecache import BoundedDict
from gazala_tools.fileio import note_input, note_input_folder
from gazala_tools.games.loader import read_game_file
from gazala_tools.games.model import GAME_FILE, MODULE_FILE, Game
from gazala_tools.inputs import inside_folder
from gazala_tools.yamlnodes import ID_RE, Doc, compose

__all__ = [
    "INDEX_FILE",
    "builtin_game",
    "builtin_games",
    "builtin_ids",
    "default_game_id",
    "docs_root",
    "find_game",
    "game_for_module_name",
    "is_builtin",
    "load_game_folder",
    "mapdata_root",
    "modules_root",
]

INDEX_FILE: Final = "games.yaml"


def _package_data(kind: str) -> Path | None:
    """``gazala_tools/data/<kind>`` of an installed wheel (setup.py copies the folders in)."""
    try:
        root = importlib.resources.files("gazala_tools").joinpath("data", kind)
    except (ModuleNotFoundError, OSError):  # pragma: no cover - the package is importable by construction
        return None
    if isinstance(root, Path) and root.is_dir():
        return root
    return None


def _data_dir(kind: str, env: str) -> Path:
    override = os.environ.get(env)
    if override:
        return Path(override)
    installed = _package_data(kind)
    if installed is not None:
        return installed
    checkout = Path(__file__).resolve().parents[2] / kind  # a source checkout or an editable install
    if checkout.is_dir():
        return checkout
    raise GazalaError(f"the built-in {kind} folder is missing", file=str(checkout),
                      expected="an installation of gazala-tools with its game data")


def mapdata_root() -> Path:
    """The built-in game folders: ``$GAZALA_MAPDATA``, the installed package data or the checkout's ``mapdata/``."""
    return _data_dir("mapdata", "GAZALA_MAPDATA")


def docs_root() -> Path:
    """The user documentation (``docs/*.md``: what ``gazala help`` prints), installed or the checkout's."""
    return _data_dir("docs", "GAZALA_DOCS")


def modules_root() -> Path:
    """The built-in module build configurations (``modules/<id>.yaml``)."""
    return _data_dir("modules", "GAZALA_MODULES")


@functools.lru_cache(maxsize=4)
def _index(root: Path) -> tuple[str, ...]:
    file = root / INDEX_FILE
    doc = Doc(file, GameDataError)
    node = compose(file, "the game index", GameDataError)
    m = doc.mapping(node, "games index", frozenset({"games"}))
    doc.require(m, node, "games index", "games")
    ids = tuple(doc.ident(n, "games") for n in doc.seq(m["games"], "games"))
    if not ids:
        raise doc.err(m["games"], "no built-in games listed", expected="at least one game id")
    return ids


def builtin_ids() -> tuple[str, ...]:
    """Ids of the built-in games, the default game first."""
    return _index(mapdata_root())


def default_game_id() -> str:
    return builtin_ids()[0]


def is_builtin(name: str) -> bool:
    return name in builtin_ids()


_CACHE: BoundedDict[tuple[Path, int, int | None], Game] = BoundedDict(maxsize=16)


def _mtime(p: Path | None) -> int | None:
    try:
        return p.stat().st_mtime_ns if p is not None else None
    except OSError:
        return None


def load_game_folder(folder: Path, *, module_config: Path | None = None, builtin: bool = False) -> Game:
    """The game of a folder (cached per ``game.yaml`` and its modification time)."""
    file = folder / GAME_FILE
    for name in (GAME_FILE, MODULE_FILE):  # the folder is a sandbox: its own files too (docs/games.md)
        inside_folder(folder / name, folder, name=name, what="data file", file=folder / name, error=GameDataError)
    if module_config is None and (folder / MODULE_FILE).is_file():
        module_config = folder / MODULE_FILE
    mt = _mtime(file)
    if mt is None:
        raise GameDataError("no game.yaml in the game folder", file=str(folder),
                            expected="a game folder (`gazala help games`) with game.yaml")
    key = (file.resolve(), mt, _mtime(module_config))
    note_input(file)  # read now or earlier in this process: an input of this command either way
    note_input_folder(folder)  # and the whole folder: no output of the command is written into it
    got = _CACHE.get(key)
    if got is None:
        got = _CACHE.put(key, read_game_file(file, module_config=module_config, builtin=builtin))
    return got


def builtin_game(game_id: str) -> Game:
    if not is_builtin(game_id):
        raise GameDataError(f"unknown game {game_id!r}", expected="one of " + ", ".join(builtin_ids()))
    try:
        config: Path | None = modules_root() / f"{game_id}.yaml"
    except GazalaError:
        config = None
    if config is not None and not config.is_file():
        config = None
    game = load_game_folder(mapdata_root() / game_id, module_config=config, builtin=True)
    if game.id != game_id:
        raise GameDataError(f"game.yaml says id {game.id!r}", file=game.source_file, expected=f"id {game_id!r}")
    return game


def find_game(ref: str | Path | Game, *, allow_path: bool = True) -> Game:
    """A game by built-in id, or (``allow_path``) by folder / ``game.yaml`` path.

    ``allow_path=False`` is for names that come from inside a data file (a position YAML's
    ``game:``): they may only name a built-in game, never a file to open.
    """
    if isinstance(ref, Game):
        return ref
    text = str(ref)
    if isinstance(ref, str) and ID_RE.match(text) and is_builtin(text):
        return builtin_game(text)
    if allow_path:
        p = Path(ref)
        if p.is_dir():
            return load_game_folder(p)
        if p.name == GAME_FILE and p.is_file():
            return load_game_folder(p.parent)
    shown = text if len(text) <= 80 else text[:77] + "..."
    raise GameDataError(
        f"no game {shown!r}",
        expected=("a built-in game id (" + ", ".join(builtin_ids()) + ")"
                  + (" or a game folder with game.yaml" if allow_path else "")),
    )


def builtin_games() -> tuple[Game, ...]:
    return tuple(builtin_game(g) for g in builtin_ids())


def game_for_module_name(name: str | None) -> Game | None:
    """The built-in game whose module is called ``name`` (what a save's ``moduledata`` records)."""
    if not name:
        return None
    wanted = " ".join(name.split()).casefold()
    for g in builtin_games():
        if " ".join(g.name.split()).casefold() == wanted:
            return g
    return None
