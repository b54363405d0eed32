"""A small hand-made map with every feature the renderer draws, independent of the shipped data."""

from __future__ import annotations

import pytest

from gazala_tools.grid import GameGrid
from gazala_tools.hexes import Orientation
from gazala_tools.mapdata.model import (
    Box,
    GameMap,
    HexsideFeature,
    HexsideKind,
    MapPath,
    PathKind,
    PixelGrid,
    Place,
    TerrainType,
)
from gazala_tools.numbering import Numbering


def small_map(orientation: Orientation = Orientation.FLAT, *, dx: float = 55.0, dy: float = 64.0) -> GameMap:
    grid = GameGrid(orientation, Numbering(), columns=(1, 10), rows=(1, 8))
    g = grid.hex
    terrain = {g("0302"): "rough", g("0303"): "rough", g("0506"): "town", g("0101"): "sea", g("0102"): "sea"}
    span_u = dx * 10 + 100
    span_v = dy * 9 + 100
    w, h = (span_u, span_v) if orientation is Orientation.FLAT else (span_v, span_u)
    return GameMap(
        game="test-small",
        title="Test board",
        grid=grid,
        numbering_name="rg",
        pixels=PixelGrid(dx=dx, dy=dy, x0=60, y0=60 + round(dy / 2), board_width=round(w), board_height=round(h), dpi=100),
        provenance="test",
        terrain_default="clear",
        terrain_types={t: TerrainType(t) for t in ("clear", "rough", "town", "sea")},
        terrain_overrides=terrain,
        terrain_sources={},
        boxes=(
            Box("box A", HexsideKind("minefield"), frozenset({g("0604"), g("0605")}), "test", owner="allied"),
            Box("fort", HexsideKind("fortified"), frozenset({g("0807")}), "test"),
        ),
        explicit_features=(
            HexsideFeature(HexsideKind("escarpment"), grid.hexside("0403/0404"), "test", up=g("0403")),
            HexsideFeature(HexsideKind("escarpment"), grid.hexside("0503/0504"), "test", up=g("0503")),
            HexsideFeature(HexsideKind("minefield"), grid.hexside("0202/0203"), "test", active_from="June 5-6"),
        ),
        paths=(
            MapPath("Via Test", PathKind("road"), tuple(g(x) for x in ("0101", "0201", "0301", "0401", "0501", "0602")), "test"),
            MapPath("Trigh Test", PathKind("track"), tuple(g("0106").line_to(g("1002"))), "test"),
        ),
        places=(Place("Testville", (g("0506"),), "town", "test"),),
        zones=(),
    )


@pytest.fixture(params=[Orientation.FLAT, Orientation.POINTY], ids=["flat", "pointy"])
def any_small_map(request: pytest.FixtureRequest) -> GameMap:
    return small_map(request.param)
