"""RG board place names (issue 23 item 5): each covers no hex number and no other name, and stays
inside the board ("Knightsbridge" sat on 1505/1605, "Bir el Hafad" ran past the last column)."""

from __future__ import annotations

from PIL import Image, ImageDraw

from gazala_tools.games import find_game
from gazala_tools.mapdata.loader import load_game_map
from gazala_tools.render.board import font, hex_size, place_labels, scene_from_map


def test_rg_place_names_cover_no_hex_number_no_other_name_and_stay_on_the_board() -> None:
    scene = scene_from_map(load_game_map(find_game("gazala-rg")))
    geo, (width, height) = scene.geometry, scene.size
    size = hex_size(geo)
    draw = ImageDraw.Draw(Image.new("RGB", (8, 8)))
    numbers = font(max(6, round(size * 0.2)))  # as draw_scene draws them without module counters
    taken = [draw.textbbox((geo.hex_center(h)[0], geo.hex_center(h)[1] - size * 0.34), label, font=numbers, anchor="mm")
             for h, label in scene.labels.items()]
    n_numbers = len(taken)
    names = font(max(7, round(size * 0.24)), bold=True)
    placed = place_labels(draw, scene, names, size * 0.3, taken)
    assert len(placed) == len(scene.places) > 10
    boxes = taken[n_numbers:]
    for i, (place, _at) in enumerate(placed):
        b = boxes[i]
        assert b[0] >= 0 and b[2] <= width and b[1] >= 0 and b[3] <= height, place.name
        for other in taken[:n_numbers] + boxes[:i]:
            w = min(b[2], other[2]) - max(b[0], other[0])
            h = min(b[3], other[3]) - max(b[1], other[1])
            assert w <= 0 or h <= 0, (place.name, other)
