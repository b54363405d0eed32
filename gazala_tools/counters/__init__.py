"""Counter manifests: every counter of a game with a stable id, its two faces and its provenance.

The core of the counters area (pure Python, no Pillow). Rendering lives in
:mod:`gazala_tools.render.counters` (faces) and :mod:`gazala_tools.render.sheets` (PDF sheets).

>>> from gazala_tools.games import default_game_id
>>> m = load_manifest(default_game_id())          # a built-in game, a game folder or a counters.yaml
>>> len(m) > 0 and all(c.id for c in m)
True
"""

from __future__ import annotations

from gazala_tools.counters.loader import (
    ManifestError,
    load_manifest,
    manifest_file,
    parse_manifest,
    parse_size,
)
from gazala_tools.counters.model import Counter, Face, Manifest, Nationality, Value
from gazala_tools.games import Game

__all__ = [
    "Counter",
    "Face",
    "Manifest",
    "ManifestError",
    "Nationality",
    "Value",
    "load_manifest",
    "manifest_file",
    "marker_ids",
    "parse_manifest",
    "parse_size",
]


def marker_ids(game: str | Game) -> tuple[str, ...]:
    """Ids of the chits and markers (every counter that is not a combat unit) of a game."""
    return load_manifest(game).marker_ids()
