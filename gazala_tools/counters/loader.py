"""Read a counter manifest (``mapdata/<game>/counters.yaml``) into a :class:`~.model.Manifest`.

The format is documented in ``docs/counters.md``. In short: ``units`` list each combat unit once
with its values per step (full strength first); ``chits`` and ``markers`` list each kind once with
a ``count``. The reader expands them into physical counters with stable ids:

* a unit with ``steps: 3`` and id ``axis-21pz-5-1`` gives ``axis-21pz-5-1-s3``, ``-s2``, ``-s1``;
* a marker with ``count: 8`` and id ``disrupted`` gives ``disrupted-1`` ... ``disrupted-8``.

Ids never depend on a counter's position in the file, so adding a unit renumbers nothing.
The file is composed and read section by section through :mod:`gazala_tools.yamlnodes`
(:class:`~.reader.ManifestReader`, :class:`~.section.ManifestSection`): every error names the file,
the line and column, the key path and the bad value (``counters.yaml:12:7: units[3].type: ...``).

Nothing here knows a game's rules: the colour code of printed values is the manifest's
``value_inks``, the sides are the game's (``game.yaml``), and a counter's own art is an image file
named in the manifest or found by the ``art.folder`` naming convention (``<id>-front.png``).
"""

from __future__ import annotations

from pathlib import Path

from gazala_tools.counters.model import Manifest
from gazala_tools.counters.reader import ManifestReader
from gazala_tools.counters.schema import ManifestError, parse_size
from gazala_tools.filecache import FileCache
from gazala_tools.fileio import note_input
from gazala_tools.games import Game, find_game
from gazala_tools.games.model import COUNTERS_FILE, GAME_FILE
from gazala_tools.yamlnodes import compose_text, few_collections, read_text

__all__ = [
    "ManifestError",
    "load_game_manifest",
    "load_manifest",
    "manifest_file",
    "parse_manifest",
    "parse_size",
]


def manifest_file(game_or_path: str | Path) -> Path:
    """The manifest YAML of a game (id or folder) or a YAML file."""
    p = Path(game_or_path)
    if p.suffix in (".yaml", ".yml") and p.is_file():
        return p
    return find_game(game_or_path).counters_file


#: manifests by file version and game (a game's manifest takes its id and name from game.yaml)
_CACHE: FileCache[Manifest] = FileCache()


def _cached(path: Path, game: Game | None) -> Manifest:
    def load() -> Manifest:
        return parse_manifest(read_text(path, "counter manifest", ManifestError), file=path, game=game)

    note_input(path)
    try:
        return _CACHE.get(path, game, load)
    except OSError as exc:
        raise ManifestError(f"cannot read manifest ({exc.strerror})", file=path) from None


def load_game_manifest(game: Game) -> Manifest:
    """A game's ``counters.yaml`` (cached per file and modification time)."""
    return _cached(game.counters_file, game)


def load_manifest(game_or_path: str | Path | Game) -> Manifest:
    """The counter manifest of a game (built-in id, folder or :class:`Game`) or of a YAML file.

    Cached per file and modification time, like ``mapdata.load_map``: the referee, its game
    detection, the rules plugins and the module builder all ask for the same manifests.
    """
    if isinstance(game_or_path, Game):
        return load_game_manifest(game_or_path)
    p = Path(game_or_path)
    if p.suffix in (".yaml", ".yml") and p.is_file():
        if (p.parent / GAME_FILE).is_file() and p.name == COUNTERS_FILE:
            return load_game_manifest(find_game(p.parent))
        return _cached(p, None)
    return load_game_manifest(find_game(game_or_path))


def parse_manifest(text: str, *, file: str | Path = "<string>", game: Game | None = None, art: bool = True) -> Manifest:
    """Parse a manifest. ``game``: the game folder it belongs to (its id and name come from game.yaml,
    so the file must not state them); without it the file is stand-alone and names its ``game``.
    ``art=False``: each counter's ``art`` is left out (``game import`` reads back the manifest it writes
    while the art it names is still being copied)."""
    with few_collections():
        node = compose_text(text, file, "counter manifest", ManifestError, libyaml=True)
        return ManifestReader(file, game, art=art).manifest(node)
