"""The round trip on our own boards: render a game's map, digitize the image, get the map back."""

from __future__ import annotations

import math

import pytest

from gazala_tools.digitize.classify import Legend, classify_hexes
from gazala_tools.digitize.image import to_rgb_array
from gazala_tools.digitize.lattice import detect_grid, number_lattice
from gazala_tools.errors import GazalaError
from gazala_tools.games import builtin_ids
from gazala_tools.mapdata import load_map
from gazala_tools.render.board import board_geometry, exact_center, render_board, terrain_colour

GAMES = builtin_ids()


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_render_then_digitize_gives_the_same_grid_and_terrain(game: str) -> None:
    try:
        m = load_map(game)
    except GazalaError as exc:  # the map data of a game may not exist yet
        pytest.skip(str(exc))
    img = render_board(m)
    geo = board_geometry(m)
    fit = detect_grid(img)
    first = m.hexes()[0]
    x, y = geo.hex_center(first)
    found, numbering = number_lattice(fit, m.grid.numbering, m.label(first), x, y, board=img.size)
    assert numbering == m.grid.numbering and found.sideways == geo.sideways
    assert abs(found.dx - geo.dx) < 0.5 and abs(found.dy - geo.dy) < 0.5
    tx, ty = exact_center(geo, geo.hex_at(fit.cx, fit.cy))  # the hex the detected centre lies in
    assert math.hypot(fit.cx - tx, fit.cy - ty) < 0.5
    assert (found.x0, found.y0) == (geo.x0, geo.y0)
    # terrain: the legend is the renderer's palette (kinds sharing a colour cannot be told apart)
    legend = Legend({k: (terrain_colour(k),) for k in m.terrain_types})
    res = classify_hexes(to_rgb_array(img), found, list(m.hexes()), legend)
    same = sum(terrain_colour(r.terrain) == terrain_colour(m.terrain(r.hex)) for r in res)
    assert len(res) == len(m.hexes())
    assert same >= 0.98 * len(res)
