"""The GameMap API the referee, renderer and exporter use: O(1) lookups by Hex and Hexside."""

from __future__ import annotations

from gazala_tools.hexes import Direction, Hexside
from gazala_tools.mapdata import GameMap, PathKind


def test_hexside_features_are_found_from_either_hex(rg: GameMap) -> None:
    a, b = rg.hex("1217"), rg.hex("1316")
    assert rg.feature(Hexside.between(a, b), "minefield") is rg.feature(
        Hexside.between(b, a), "minefield"
    )
    f = rg.active_feature(Hexside.between(a, b), "minefield")
    assert f is not None and f.owner == "allied" and f.source.startswith("RG")


def test_roads_and_tracks_give_crossed_hexsides(rg: GameMap) -> None:
    road = rg.path("El Adem-Tobruk road")
    for a, b in zip(road.hexes, road.hexes[1:], strict=False):
        assert rg.crosses_path(a, b, "road")
        assert Hexside.between(a, b) in rg.path_sides(PathKind("road"))
    assert rg.hex("2803") in rg.path_hexes("road")
    assert not rg.crosses_path(rg.hex("0110"), rg.hex("0111"), "road")


def test_zone_membership_and_edges(rg: GameMap) -> None:
    h = rg.hex("0110")
    assert "allied-prohibited" in rg.zones_at(h) and "axis-supply" in rg.zones_at(h)
    assert rg.edges(h) == frozenset({"W"})
    assert rg.edges(rg.hex("2922")) == frozenset({"E", "S"})


def test_places_by_name_and_by_hex(rg: GameMap) -> None:
    bh = rg.place("Bir Hacheim")
    assert {rg.label(h) for h in bh.hexes} == {"1118", "1218", "1219", "1318"}
    assert bh in rg.places_at(rg.hex("1219"))
    assert "Knightsbridge" in rg.place_names()


def test_terrain_and_passability(dg: GameMap) -> None:
    assert dg.terrain(dg.hex("0101")) == "sea" and not dg.passable(dg.hex("0101"))
    assert dg.terrain(dg.hex("2924")) == "desert" and dg.passable(dg.hex("2924"))


def test_boxes_at_and_fortified_hexes(rg: GameMap) -> None:
    names = {b.name for b in rg.boxes_at(rg.hex("1118"))}
    assert names == {"Gazala line", "Bir Hacheim"}
    assert rg.hex("1605") in rg.box_kind_hexes("fortified")


def test_minefield_outline_is_the_sides_with_one_box_hex(rg: GameMap) -> None:
    box = rg.box("Rear minefield south")
    h = rg.hex("1315")
    assert Hexside.of(h, Direction.N) not in box.outline()  # 1314/1315: inside the belt
    assert Hexside.of(h, Direction.SW) in box.outline()


def test_geometry_of_the_pixel_grid_puts_hex_centres_in_their_hexes(rg: GameMap) -> None:
    g = rg.geometry()
    for h in rg.hexes():
        x, y = g.hex_center(h)
        assert g.hex_at(x, y) == h
        assert 0 <= x < rg.pixels.board_width and 0 <= y < rg.pixels.board_height


def test_info_has_the_documented_keys(rg: GameMap) -> None:
    info = rg.info()
    assert {"game", "columns", "rows", "hexes", "hexsides", "numbering"} <= set(info)
    assert (info["game"], info["columns"], info["rows"], info["hexes"]) == ("gazala-rg", 29, 22, 638)
