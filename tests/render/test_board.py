"""The board renderer: the image agrees with the VASSAL grid, and features are drawn where they belong."""

from __future__ import annotations

import argparse
import io
from pathlib import Path

import pytest
from PIL import Image

from gazala_tools.games import find_game
from gazala_tools.hexes import Orientation
from gazala_tools.hexgrid import HexGridGeometry
from gazala_tools.mapdata.loader import load_game_map
from gazala_tools.mapdata.model import GameMap
from gazala_tools.render.board import (
    board_geometry,
    exact_center,
    feature_colour,
    hex_polygon,
    render_board,
    scaled_geometry,
    scene_from_map,
    terrain_colour,
)

from .conftest import small_map


def _inside(poly: list[tuple[float, float]], x: float, y: float) -> bool:
    """Even-odd point in polygon for float corners."""
    inside = False
    n = len(poly)
    for i in range(n):
        (x1, y1), (x2, y2) = poly[i], poly[(i + 1) % n]
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


@pytest.mark.parametrize("dpi", [None, 72, 150, 300])
def test_vassal_hex_centre_lies_in_its_drawn_hex(any_small_map: GameMap, dpi: int | None) -> None:
    geo = board_geometry(any_small_map, dpi=dpi)
    for h in any_small_map.hexes():
        x, y = geo.hex_center(h)
        assert _inside(hex_polygon(geo, h), x, y), h
        assert geo.hex_at(x, y) == h


@pytest.mark.parametrize("dpi", [None, 150])
def test_pixel_at_vassal_centre_shows_that_hexs_terrain(any_small_map: GameMap, dpi: int | None) -> None:
    img = render_board(any_small_map, dpi=dpi, show_numbers=False, show_places=False)
    geo = board_geometry(any_small_map, dpi=dpi)
    on_path = {h for p in any_small_map.paths for h in p.hexes}
    checked = 0
    for h in any_small_map.hexes():
        if h in on_path:
            continue
        x, y = geo.hex_center(h)
        assert img.getpixel((x, y)) == terrain_colour(any_small_map.terrain(h)), any_small_map.label(h)
        checked += 1
    assert checked > 50


def test_dpi_scales_board_and_grid_together() -> None:
    m = small_map()
    base = render_board(m, legend=False, title="")
    big = render_board(m, dpi=200, legend=False, title="")
    assert abs(big.width - 2 * base.width) <= 2 and abs(big.height - 2 * base.height) <= 2
    geo = board_geometry(m, dpi=200)
    assert geo.dx == pytest.approx(2 * m.pixels.dx) and geo.dy == pytest.approx(2 * m.pixels.dy)
    assert (geo.x0, geo.y0) == (2 * m.pixels.x0, 2 * m.pixels.y0)
    assert 'dx="110.0"' in big.info["vassal-hexgrid"]


def test_scaled_geometry_keeps_integer_origin() -> None:
    g = scaled_geometry(HexGridGeometry(dx=55.0, dy=64.0, x0=33, y0=47), 1.37)
    assert (g.x0, g.y0) == (45, 64) and g.dx == pytest.approx(75.35)


def _colour_count(img: Image.Image, poly: list[tuple[float, float]], colour: tuple[int, int, int]) -> int:
    xs = [p[0] for p in poly]
    ys = [p[1] for p in poly]
    n = 0
    for x in range(int(min(xs)), int(max(xs)) + 1):
        for y in range(int(min(ys)), int(max(ys)) + 1):
            if _inside(poly, x + 0.5, y + 0.5) and img.getpixel((x, y)) == colour:
                n += 1
    return n


def test_escarpment_hatches_fall_on_the_down_side(any_small_map: GameMap) -> None:
    img = render_board(any_small_map, show_numbers=False, show_places=False)
    geo = board_geometry(any_small_map)
    colour = feature_colour("escarpment")
    feats = [f for f in any_small_map.all_features() if f.kind == "escarpment"]
    assert feats
    for f in feats:
        assert f.up is not None
        down = f.side.other(f.up)
        # shrink the polygons towards their centres so the side line itself is not counted
        def core(h):  # type: ignore[no-untyped-def]
            cx, cy = exact_center(geo, h)
            return [(cx + (x - cx) * 0.8, cy + (y - cy) * 0.8) for x, y in hex_polygon(geo, h)]

        assert _colour_count(img, core(down), colour) > 10
        assert _colour_count(img, core(f.up), colour) == 0


def test_minefield_sides_are_dotted_red_and_fortified_sides_heavy() -> None:
    m = small_map()
    img = render_board(m, show_numbers=False, show_places=False)
    geo = board_geometry(m)
    from gazala_tools.render.board import side_segment

    for f in m.all_features():
        (ax, ay), (bx, by) = side_segment(geo, f.side)
        mx, my = (ax + bx) / 2, (ay + by) / 2
        window = [img.getpixel((round(mx) + i, round(my) + j)) for i in range(-4, 5) for j in range(-4, 5)]
        if f.kind == "minefield" and f.active_from is None:
            assert feature_colour("minefield") in window
        if f.kind == "fortified":
            assert window.count(feature_colour("fortified")) > 20


def test_turn_track_grows_the_canvas_downwards_only() -> None:
    m = small_map()
    plain = scene_from_map(m)
    tracked = scene_from_map(m, turn_track=find_game("gazala-rg").turns)
    assert tracked.geometry == plain.geometry
    assert tracked.size[0] == plain.size[0] and tracked.size[1] >= plain.size[1]
    assert tracked.boxes[0].entries[0].startswith("May 27") and tracked.boxes[0].entries[-1].endswith("13-14")


def test_render_is_a_pure_function(any_small_map: GameMap) -> None:
    a = render_board(any_small_map)
    b = render_board(any_small_map)
    assert a.tobytes() == b.tobytes()


def test_bad_dpi_is_refused() -> None:
    with pytest.raises(ValueError, match="dpi"):
        render_board(small_map(), dpi=0)


def test_cli_render_writes_png_with_grid(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from gazala_tools.cli import map_render as board_cli

    m = small_map()
    monkeypatch.setattr("gazala_tools.mapdata.load_map", lambda game: m)
    parser = argparse.ArgumentParser()
    board_cli.register_render(parser.add_subparsers())
    out = tmp_path / "b.png"
    args = parser.parse_args(["render", "test-small", "-o", str(out), "--dpi", "150", "--json"])
    assert args.func(args) == 0
    with Image.open(io.BytesIO(out.read_bytes())) as img:
        assert img.size == scene_from_map(m, dpi=150).size  # the board follows the grid
        assert 'dx="82.5"' in img.text["vassal-hexgrid"]


def test_pointy_grid_is_drawn_sideways() -> None:
    m = small_map(Orientation.POINTY)
    geo = board_geometry(m)
    assert geo.sideways
    h = m.hex("0101")
    xs = sorted(x for x, _ in hex_polygon(geo, h))
    # pointy-topped: two corners share the leftmost x (vertical sides)
    assert xs[0] == pytest.approx(xs[1])


def test_hex_numbers_and_place_names_are_drawn_where_a_module_counter_does_not_hide_them() -> None:
    """RG's 5/8 in counters on 0.72 in hexes (62 px at 100 dpi) cover the hex centre: the number and
    the name go in the strips above and below the counter."""
    from gazala_tools.render.board import render_board

    rg = load_game_map(find_game("gazala-rg"))
    counter = 62
    plain = render_board(rg, show_numbers=False, show_places=False, counter_px=counter).convert("RGB")
    drawn = render_board(rg, counter_px=counter).convert("RGB")
    named = next(p for p in rg.places if p.name == "Bir Hacheim").hex  # where the name is written
    for label in ("1621", rg.label(named)):
        cx, cy = (round(v) for v in rg.geometry().hex_center(rg.hex(label)))
        inner = (cx - counter // 2 + 1, cy - counter // 2 + 1, cx + counter // 2 - 1, cy + counter // 2 - 1)
        assert list(plain.crop(inner).get_flattened_data()) == list(drawn.crop(inner).get_flattened_data()), label
        above = (cx - 20, cy - 37, cx + 20, cy - counter // 2)
        assert list(plain.crop(above).get_flattened_data()) != list(drawn.crop(above).get_flattened_data()), label
    cx, cy = (round(v) for v in rg.geometry().hex_center(named))
    below = (cx - 30, cy + counter // 2, cx + 30, cy + 37)
    assert list(plain.crop(below).get_flattened_data()) != list(drawn.crop(below).get_flattened_data())
