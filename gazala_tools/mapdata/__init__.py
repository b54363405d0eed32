"""Map data: the format (``schema.json``), the model (:mod:`.model`) and the YAML reader/writer.

``load_map(game_or_dir)`` returns a :class:`~gazala_tools.mapdata.model.GameMap`; game ids are
``gazala-rg`` (default), ``cauldron-dg``, ``cauldron-spi`` and ``batalha``. Pure Python.
"""

from gazala_tools.mapdata.loader import (
    dump_map,
    load_map,
    load_map_file,
    load_map_text,
    map_to_data,
    mapdata_root,
)
from gazala_tools.mapdata.model import (
    DEFAULT_GAME,
    GAMES,
    Box,
    GameMap,
    HexsideFeature,
    HexsideKind,
    MapPath,
    PathKind,
    PixelGrid,
    Place,
    TerrainType,
    Zone,
)

__all__ = [
    "DEFAULT_GAME",
    "GAMES",
    "Box",
    "GameMap",
    "HexsideFeature",
    "HexsideKind",
    "MapPath",
    "PathKind",
    "PixelGrid",
    "Place",
    "TerrainType",
    "Zone",
    "dump_map",
    "load_map",
    "load_map_file",
    "load_map_text",
    "map_to_data",
    "mapdata_root",
]
