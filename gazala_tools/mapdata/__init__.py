"""Map data: the format (``schema.json``), the model (:mod:`.model`) and the YAML reader/writer.

``load_map(game)`` returns a :class:`~gazala_tools.mapdata.model.GameMap` for a game (a built-in
id, a game folder or a :class:`~gazala_tools.games.Game`) or a stand-alone map YAML. Pure Python.
"""

from gazala_tools.mapdata.loader import load_map, load_map_file, load_map_text
from gazala_tools.mapdata.model import (
    Box,
    GameMap,
    HexsideFeature,
    HexsideKind,
    HexsideKindType,
    MapPath,
    PathKind,
    PathKindType,
    PixelGrid,
    Place,
    TerrainType,
    Zone,
)
from gazala_tools.mapdata.writer import dump_map, map_to_data

__all__ = [
    "Box",
    "GameMap",
    "HexsideFeature",
    "HexsideKind",
    "HexsideKindType",
    "MapPath",
    "PathKind",
    "PathKindType",
    "PixelGrid",
    "Place",
    "TerrainType",
    "Zone",
    "dump_map",
    "load_map",
    "load_map_file",
    "load_map_text",
    "map_to_data",
]
