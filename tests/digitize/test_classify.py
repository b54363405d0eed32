"""classify: terrain per hex by centre-region votes; uncertain flags; hexside lines."""

from __future__ import annotations

import pytest
from PIL import ImageDraw

from gazala_tools.digitize.classify import Legend, classify_hexes, detect_hexsides, legend_from_data
from gazala_tools.digitize.image import RgbRegions, to_rgb_array
from gazala_tools.errors import GazalaError
from gazala_tools.render.board import hex_polygon
from tools.scans.synthetic import DEFAULT_KINDS, SyntheticBoard, legend_for, synthetic_board


def legend(kinds: tuple[str, ...] = DEFAULT_KINDS) -> Legend:
    return Legend(
        {k: (c,) for k, c in legend_for(kinds).items()},
        hexsides={"minefield": ((204, 24, 24), "allied"), "escarpment": ((110, 70, 30), None)},
        directed=frozenset({"escarpment"}),
    )


@pytest.mark.parametrize("board", ["flat_board", "pointy_board"])
def test_terrain_round_trip_on_synthetic_boards(board: str, request: pytest.FixtureRequest) -> None:
    b: SyntheticBoard = request.getfixturevalue(board)
    res = classify_hexes(to_rgb_array(b.image), b.geometry, list(b.terrain), legend())
    right = sum(r.terrain == b.terrain[r.hex] for r in res)
    assert len(res) == len(b.terrain)
    assert right / len(res) >= 0.98
    assert sum(r.uncertain for r in res) <= 0.02 * len(res)


def test_terrain_read_region_by_region_equals_the_whole_array(flat_board: SyntheticBoard) -> None:
    """game new and classify read a large scan from the Pillow image a tile at a time (no full-size array):
    the same terrain, shares, distances and colours as one tile holding the whole array."""
    whole = classify_hexes(to_rgb_array(flat_board.image), flat_board.geometry, list(flat_board.terrain), legend(),
                           tile=10**6)  # fmt: skip
    regions = classify_hexes(RgbRegions(flat_board.image), flat_board.geometry, list(flat_board.terrain), legend(),
                             tile=300)  # fmt: skip
    assert regions == whole and len(whole) == len(flat_board.terrain)


def test_hex_of_an_unknown_colour_is_flagged_uncertain(flat_board: SyntheticBoard) -> None:
    img = flat_board.image.copy()
    target = sorted(flat_board.terrain)[40]
    ImageDraw.Draw(img).polygon(hex_polygon(flat_board.geometry, target), fill=(40, 160, 40))  # green: not in legend
    res = {r.hex: r for r in classify_hexes(to_rgb_array(img), flat_board.geometry, list(flat_board.terrain), legend())}
    assert res[target].uncertain
    others = [r for h, r in res.items() if h != target]
    assert sum(r.uncertain for r in others) <= 0.02 * len(others)


def test_half_covered_hex_is_flagged_uncertain(flat_board: SyntheticBoard) -> None:
    img = flat_board.image.copy()
    target = sorted(flat_board.terrain)[60]
    x, y = flat_board.geometry.hex_center(target)
    # a sea-blue patch over half of the centre region of a land hex
    if flat_board.terrain[target] == "sea":
        pytest.skip("pick a land hex")
    ImageDraw.Draw(img).rectangle((x - 40, y - 40, x, y + 40), fill=legend_for(("sea",))["sea"])
    res = {r.hex: r for r in classify_hexes(to_rgb_array(img), flat_board.geometry, [target], legend())}
    assert res[target].uncertain and 0.3 < res[target].share < 0.7


def test_hexside_lines_are_found_with_the_escarpment_up_side(flat_board: SyntheticBoard) -> None:
    sides = sorted({s for h in flat_board.terrain for s in h.sides() if all(x in flat_board.terrain for x in s.hexes)})
    found = {r.side: r for r in detect_hexsides(to_rgb_array(flat_board.image), flat_board.geometry, sides, legend())}
    truth = {s: f[0] for s, f in flat_board.scene.sides.items() if s in set(sides)}
    assert truth
    for side, feat in truth.items():
        assert side in found and found[side].kind == feat.kind
        if feat.kind == "escarpment":
            assert found[side].up == feat.up
    assert len(set(found) - set(truth)) <= max(1, len(truth) // 10)


@pytest.mark.parametrize("board", ["flat_board", "pointy_board"])
def test_hexsides_read_region_by_region_equal_the_whole_array(board: str, request: pytest.FixtureRequest) -> None:
    """classify --hexsides reads a large scan a region at a time: small regions (sides and their
    hatching windows across region borders) give the same sides, confidences and up sides as
    one region holding the whole array."""
    b: SyntheticBoard = request.getfixturevalue(board)
    sides = sorted({s for h in b.terrain for s in h.sides()})  # the rim's too: some fall off the image
    whole = detect_hexsides(to_rgb_array(b.image), b.geometry, sides, legend(), tile=10**6)
    assert sum(r.kind == "escarpment" for r in whole) >= 3 and sum(r.kind == "minefield" for r in whole) >= 3
    for tile in (97, 256):
        assert detect_hexsides(RgbRegions(b.image), b.geometry, sides, legend(), tile=tile) == whole


def test_classifies_ten_thousand_hexes_in_one_pass() -> None:
    b = synthetic_board(columns=100, rows=100, dx=30.0, dy=35.0, x0=25, y0=25, features=False)
    res = classify_hexes(to_rgb_array(b.image), b.geometry, list(b.terrain), legend())
    assert len(res) == 10_000
    assert sum(r.terrain == b.terrain[r.hex] for r in res) >= 9_800


def test_legend_errors_name_the_place() -> None:
    with pytest.raises(GazalaError, match="terrain"):
        legend_from_data({"colours": {}})
    with pytest.raises(GazalaError, match=r"terrain\.sea.*bad colour"):
        legend_from_data({"terrain": {"sea": "#12345"}})
    with pytest.raises(GazalaError, match="default"):
        legend_from_data({"terrain": {"sea": "#123456"}, "default": "clear"})
    leg = legend_from_data(
        {"terrain": {"clear": [236, 222, 180], "rough": ["#c6a470", "#8c6a3e"]}, "hexsides": {"minefield": {"colour": "#cc1818", "owner": "axis"}}}
    )
    assert leg.terrain["rough"] == ((198, 164, 112), (140, 106, 62))
    assert leg.hexsides["minefield"] == ((204, 24, 24), "axis")
