"""Shapely geometry: polygons from one vertex table, so neighbours touch along exactly one segment."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from shapely.geometry import LineString

from gazala_tools.games import builtin_ids
from gazala_tools.geometry import (
    VertexTable,
    box_outline,
    hex_polygons,
    hexside_segment,
    path_line,
    to_geojson,
    zone_geometry,
)
from gazala_tools.mapdata import GameMap, load_map

GAMES = builtin_ids()


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("frame", ["pixel", "lattice"])
def test_neighbours_touch_along_exactly_one_segment(game: str, frame: str) -> None:
    m = load_map(game)
    polys = hex_polygons(m, frame=frame)  # type: ignore[arg-type]
    table = VertexTable(m, frame)  # type: ignore[arg-type]
    for side in m.grid.hexsides():
        a, b = side.hexes
        if a not in polys or b not in polys:
            continue
        pa, pb = polys[a], polys[b]
        assert pa.touches(pb)
        shared = pa.intersection(pb)
        assert isinstance(shared, LineString)
        assert shared.equals(table.segment(side))


def test_hexes_tile_the_map_without_slivers(rg: GameMap) -> None:
    from shapely.ops import unary_union

    polys = hex_polygons(rg)
    union = unary_union(list(polys.values()))
    assert union.geom_type == "Polygon" and not union.interiors
    assert union.area == pytest.approx(sum(p.area for p in polys.values()), rel=1e-12)


def test_pixel_polygons_hold_the_vassal_hex_centres(rg: GameMap) -> None:
    from shapely.geometry import Point

    g = rg.geometry()
    polys = hex_polygons(rg)
    for h, p in polys.items():
        assert p.contains(Point(g.hex_center(h)))


def test_zone_polygon_area_is_its_hex_count(rg: GameMap) -> None:
    one = hex_polygons(rg)[rg.hex("0101")].area
    zone = rg.zone("69th-area")
    geom = zone_geometry(rg, zone)
    assert geom.area == pytest.approx(one * len(zone.hexes))
    line = zone_geometry(rg, rg.zone("prohibited-line"))
    assert line.length == pytest.approx(
        sum(hexside_segment(rg, s).length for s in rg.zone("prohibited-line").sides)
    )


def test_box_outline_and_path_line(rg: GameMap) -> None:
    out = box_outline(rg, rg.box("Bir Hacheim"))
    assert out.length > 0
    road = rg.path("El Adem-Tobruk road")
    assert len(path_line(rg, road).coords) == len(road.hexes)


@pytest.mark.parametrize("game", GAMES)
def test_geojson_holds_every_hex_and_feature(game: str) -> None:
    m = load_map(game)
    doc = json.loads(json.dumps(to_geojson(m)))
    layers: dict[str, int] = {}
    for f in doc["features"]:
        layers[f["properties"]["layer"]] = layers.get(f["properties"]["layer"], 0) + 1
    assert layers["hex"] == len(m.hexes())
    assert layers["hexside"] == len(list(m.all_features()))
    assert layers.get("zone", 0) == len(m.zones) and layers.get("place", 0) == len(m.places)
    assert doc["properties"]["provenance"] == "reconstructed"


@settings(max_examples=80, deadline=None)
@given(data=st.data())
def test_pixel_frame_is_the_lattice_frame_scaled(data: st.DataObject) -> None:
    m = load_map(data.draw(st.sampled_from(GAMES)))
    h = data.draw(st.sampled_from(m.hexes()))
    px = VertexTable(m, "pixel").polygon(h)
    lat = VertexTable(m, "lattice").polygon(h)
    p = m.pixels
    for (x, y), (X, Y) in zip(px.exterior.coords, lat.exterior.coords, strict=True):
        u, v = (y, x) if m.grid.orientation.value == "pointy" else (x, y)
        assert u == pytest.approx(p.x0 + X * p.dx / 3) and v == pytest.approx(p.y0 + Y * p.dy / 2)


@pytest.mark.parametrize("game", GAMES)
def test_every_hex_lies_on_the_board_image(game: str) -> None:
    from shapely.ops import unary_union

    m = load_map(game)
    minx, miny, maxx, maxy = unary_union(list(hex_polygons(m).values())).bounds
    assert minx >= 0 and miny >= 0
    assert maxx <= m.pixels.board_width and maxy <= m.pixels.board_height


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_box_outline_has_one_box_hex_per_side(data: st.DataObject) -> None:
    from gazala_tools.mapdata import Box, HexsideKind

    m = load_map("gazala-rg")
    picked = frozenset(data.draw(st.sets(st.sampled_from(m.hexes()), min_size=1, max_size=30)))
    box = Box("b", HexsideKind("minefield"), picked, "test", owner="allied")
    outline = box.outline()
    inner = sum(1 for h in picked for n in h.neighbours() if n in picked) // 2
    assert len(outline) == 6 * len(picked) - 2 * inner
    for s in outline:
        a, b = s.hexes
        assert (a in picked) != (b in picked)
