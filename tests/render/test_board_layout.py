"""The board reads like a printed map (issue 23 item 5): the image follows the grid (no empty strip),
a title block below it holds the game's title and a legend of exactly the symbols the board shows,
in the map's words, and the drawing styles come from map.yaml."""

from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path

import pytest
from PIL import Image, ImageDraw

from gazala_tools.errors import GazalaError
from gazala_tools.games import find_game
from gazala_tools.mapdata import load_map
from gazala_tools.mapdata.loader import load_game_map
from gazala_tools.mapdata.model import GameMap
from gazala_tools.render.board import (
    BoardScene,
    board_size,
    font,
    grid_bounds,
    hex_size,
    place_labels,
    render_board,
    scene_from_map,
    side_segment,
    style_of,
    title_block_layout,
)

ROOT = Path(__file__).resolve().parents[2]
GAMES = ["gazala-rg", "cauldron-dg", "cauldron-spi", "batalha", "tests/games/highland", "tests/games/river-war"]
MARGIN_SLACK = 2  #: pixels: the right/bottom margin may differ this much from the left/top one (rounding up)


def _map(game: str) -> GameMap:
    return load_map(ROOT / game) if "/" in game else load_map(game)


def _block_bottom(scene: BoardScene) -> float:
    assert scene.title_block is not None
    return title_block_layout(scene, *scene.title_block)[1]


@pytest.mark.parametrize("game", GAMES)
def test_the_board_has_no_empty_strip_its_margins_match(game: str) -> None:
    scene = scene_from_map(_map(game))
    x_min, y_min, x_max, _y_max = grid_bounds(scene.geometry, scene.hexes)
    width, height = scene.size
    left, top = max(0.0, x_min), max(0.0, y_min)
    assert abs((width - x_max) - left) <= MARGIN_SLACK
    assert abs((height - _block_bottom(scene)) - top) <= MARGIN_SLACK


def test_rg_lost_its_empty_strip_and_kept_its_grid() -> None:
    m = _map("gazala-rg")
    scene = scene_from_map(m)
    assert scene.size[0] <= m.pixels.board_width - 300  # the 350 px strip on the right is gone
    assert scene.geometry == m.geometry()  # the VASSAL grid is the map's: modules and saves agree


@pytest.mark.parametrize("game", GAMES)
def test_title_block_covers_no_hex_and_stays_on_the_board(game: str) -> None:
    scene = scene_from_map(_map(game))
    assert scene.title_block is not None
    items, bottom = title_block_layout(scene, *scene.title_block)
    _x0, _y0, _x1, grid_bottom = grid_bounds(scene.geometry, scene.hexes)
    width, height = scene.size
    assert items and bottom <= height
    for _what, _obj, (x0, y0, x1, y1) in items:
        assert y0 > grid_bottom, "the title block covers a hex"
        assert x0 >= 0 and x1 <= width and y1 <= height


def test_title_is_the_games_name_and_a_reconstruction_says_so() -> None:
    game = find_game("gazala-rg")
    scene = scene_from_map(load_game_map(game), title=game.name)
    assert scene.title == game.name
    assert "reconstruction" in scene.subtitle
    assert scene_from_map(_map("tests/games/highland")).subtitle == ""  # provenance: original


@pytest.mark.parametrize("game", GAMES)
def test_legend_lists_exactly_the_kinds_the_board_shows(game: str) -> None:
    m = _map(game)
    scene = scene_from_map(m)
    shown = {(e.section, e.kind) for e in scene.legend}
    used = {("terrain", m.terrain(h)) for h in m.hexes()}
    used |= {("hexside", f.kind.value) for f in m.all_features()}
    used |= {("path", p.kind.value) for p in m.paths}
    used |= {("marker", p.kind) for p in m.places if p.hexes and "symbol" in style_of("marker", p.kind, m.styles)}
    assert shown == used
    assert len(scene.legend) == len({(e.section, e.kind, e.owner, e.pending) for e in scene.legend})


def test_legend_words_are_the_maps_descriptions() -> None:
    m = _map("gazala-rg")
    words = {(e.section, e.kind): e.words for e in scene_from_map(m).legend if not e.pending}
    assert words[("terrain", "clear")] == m.terrain_types["clear"].description
    assert words[("hexside", "escarpment")] == m.hexside_kinds["escarpment"].description
    assert words[("path", "road")] == m.path_kinds["road"].description
    dated = [e for e in scene_from_map(m).legend if e.pending]
    assert [e.kind for e in dated] == ["minefield"]  # RG 14.0's minefields laid on a later turn


def test_dg_legend_has_each_owners_minefield_colour() -> None:
    legend = scene_from_map(_map("cauldron-dg")).legend
    assert {e.owner for e in legend if e.kind == "minefield" and not e.pending} == {"allied", "axis"}


@pytest.mark.parametrize("game", ["gazala-rg", "cauldron-dg", "batalha"])
def test_place_names_cover_no_number_no_name_and_no_title_block(game: str) -> None:
    scene = scene_from_map(_map(game))
    geo, (width, _height) = scene.geometry, scene.size
    size = hex_size(geo)
    draw = ImageDraw.Draw(Image.new("RGB", (8, 8)))
    numbers = font(max(6, round(size * 0.2)))
    taken = [draw.textbbox((geo.hex_center(h)[0], geo.hex_center(h)[1] - size * 0.34), label, font=numbers, anchor="mm")
             for h, label in scene.labels.items()]
    n = len(taken)
    placed = place_labels(draw, scene, font(max(7, round(size * 0.24)), bold=True), size * 0.3, taken)
    block_top = min(box[1] for _w, _o, box in title_block_layout(scene, *scene.title_block)[0])  # type: ignore[misc]
    for i, (place, _at) in enumerate(placed):
        b = taken[n + i]
        assert b[0] >= 0 and b[2] <= width and b[1] >= 0 and b[3] <= block_top, place.name
        for other in taken[:n + i]:
            assert min(b[2], other[2]) <= max(b[0], other[0]) or min(b[3], other[3]) <= max(b[1], other[1]), \
                (place.name, other)


# --- styles are data ----------------------------------------------------------------------------
@pytest.fixture
def highland(tmp_path: Path) -> Path:
    folder = tmp_path / "highland"
    shutil.copytree(ROOT / "tests/games/highland", folder)
    return folder


def _restyle(folder: Path, old: str, new: str) -> GameMap:
    f = folder / "map.yaml"
    text = f.read_text()
    assert old in text
    f.write_text(text.replace(old, new))
    return load_map(folder)


def _centre_pixel(m: GameMap, label: str) -> tuple[int, int, int]:
    img = render_board(m, show_numbers=False, show_places=False)
    x, y = m.geometry().hex_center(m.hex(label))
    px = img.getpixel((x, y))
    assert isinstance(px, tuple)
    return (px[0], px[1], px[2])


def test_a_terrain_types_style_fill_colours_its_hexes(highland: Path) -> None:
    before = _centre_pixel(load_map(highland), "0403")
    m = _restyle(highland, 'bog: {description: "bog: no horse, no guns"}',
                 'bog: {description: "bog: no horse, no guns", style: {fill: "#102030"}}')
    assert before != (16, 32, 48) and _centre_pixel(m, "0403") == (16, 32, 48)


def test_a_hexside_kinds_style_colours_its_sides(highland: Path) -> None:
    m = _restyle(highland, 'cliff: {directed: true,', 'cliff: {style: {colour: "#00ff00", line: heavy}, directed: true,')
    img = render_board(m, show_numbers=False, show_places=False)
    for f in m.all_features():
        if f.kind == "cliff":
            (ax, ay), (bx, by) = side_segment(m.geometry(), f.side)
            assert img.getpixel((round((ax + bx) / 2), round((ay + by) / 2))) == (0, 255, 0)


def test_a_path_kinds_style_colours_its_paths(highland: Path) -> None:
    m = _restyle(highland, '  road: {description: "a military road"}\n',
                 '  road: {description: "military road", style: {colour: "#0000ff", line: solid}}\n')
    assert _centre_pixel(m, "0201") == (0, 0, 255)
    assert ("path", "road", "military road") in {(e.section, e.kind, e.words) for e in scene_from_map(m).legend}


def test_a_place_kinds_marker_is_data(highland: Path) -> None:
    m = _restyle(highland, "provenance: original\n", 'provenance: original\nstyle: {markers: {town: {symbol: dot, colour: "#ff00ff"}}}\n')
    img = render_board(m, show_numbers=False)
    x, y = m.geometry().hex_center(m.hex("0602"))
    assert img.getpixel((x, y)) == (255, 0, 255)


@pytest.mark.parametrize(("old", "new", "says"), [
    ('bog: {description: "bog: no horse, no guns"}', 'bog: {description: "bog", style: {fill: red}}', "not a colour"),
    ('bog: {description: "bog: no horse, no guns"}', 'bog: {description: "bog", style: {shade: "#000000"}}', "shade"),
    ("cliff: {directed: true,", "cliff: {style: {line: wavy}, directed: true,", "wavy"),
    ("cliff: {directed: true,", "cliff: {style: {width: 3}, directed: true,", "out of range"),
])
def test_a_bad_style_is_one_line_naming_file_and_place(highland: Path, old: str, new: str, says: str) -> None:
    with pytest.raises(GazalaError) as err:
        _restyle(highland, old, new)
    text = str(err.value)
    assert says in text and "map.yaml" in text and "\n" not in text


def test_board_size_is_the_drawn_images_size() -> None:
    m = _map("batalha")
    assert board_size(m, dpi=72) == render_board(m, dpi=72).size


# --- rows counted upward keep their names on the drawn board -------------------------------------
def test_a_descending_numbering_keeps_every_hex_name_on_the_drawn_board() -> None:
    from gazala_tools.vassal.gamelayout import numbering_for_size

    m = _map("tests/games/highland")
    geo = m.geometry()
    measured, drawn = (m.pixels.board_width, m.pixels.board_height), render_board(m).size
    assert geo.max_rows(drawn[1]) != geo.max_rows(measured[1])  # the drawn board counts other rows
    numbering = numbering_for_size(m.grid.numbering, geo, measured, drawn)
    named = replace(geo, numbering=numbering)
    for h in m.hexes():
        x, y = geo.hex_center(h)
        assert named.name_at(x, y, *drawn) == m.label(h)
    assert numbering_for_size(_map("gazala-rg").grid.numbering, geo, measured, drawn) == _map("gazala-rg").grid.numbering


def test_a_title_and_words_too_long_for_the_board_are_cut_short_on_it(highland: Path) -> None:
    m = _restyle(highland, 'bog: {description: "bog: no horse, no guns"}', f'bog: {{description: "{"bog " * 400}"}}')
    scene = scene_from_map(m, title="Highland " * 300)
    assert scene.title_block is not None
    items, bottom = title_block_layout(scene, *scene.title_block)
    assert bottom <= scene.size[1]
    for _what, obj, (x0, _y0, x1, _y1) in items:
        assert x0 >= 0 and x1 <= scene.size[0], obj
    assert any(what == "title" and str(obj).endswith("\u2026") for what, obj, _box in items)
