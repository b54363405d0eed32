"""VASSAL HexGrid pixel geometry: the worked examples of vassal-format.md section 5.6 and properties."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gazala_tools.hexes import Hex
from gazala_tools.hexgrid import Board, HexGridGeometry, MapLayout, polygon_contains
from gazala_tools.numbering import Numbering

GRID_A = HexGridGeometry(dx=56.0, dy=64.0, x0=40, y0=40, numbering=Numbering())


def layout(grid: HexGridGeometry, edge: tuple[int, int] = (20, 10)) -> MapLayout:
    return MapLayout("Main Map", edge[0], edge[1], ((Board("Board", 600, 500, grid), 0, 0),))


@pytest.mark.parametrize(
    ("xy", "name", "snap"),
    [((60, 50), "0101", (60, 50)), ((116, 82), "0202", (116, 82)), ((116, 18), "0201", (116, 18)),
     ((172, 50), "0301", (172, 50)), ((88, 50), "0202", (60, 50)), ((100, 50), "0202", (116, 82))],
)
def test_5_6_grid_a(xy: tuple[int, int], name: str, snap: tuple[int, int]) -> None:
    loc = layout(GRID_A).locate(*xy)
    assert (loc.name, loc.snapped, loc.board) == (name, snap, "Board")


def test_5_6_board_corner_is_named_0001() -> None:
    assert layout(GRID_A).locate(20, 10).name == "0001"


def test_5_6_outside_every_board_is_offboard() -> None:
    assert layout(GRID_A).locate(5, 5).name == "offboard"


def test_5_6_other_numbering_options() -> None:
    g = HexGridGeometry(dx=56.0, dy=64.0, x0=40, y0=40, numbering=Numbering(v_descend=True))
    assert layout(g).locate(60, 50).name == "0110"
    assert layout(g).locate(116, 82).name == "0209"


def test_5_6_sideways() -> None:
    g = HexGridGeometry(dx=56.0, dy=64.0, x0=40, y0=40, sideways=True, numbering=Numbering())
    assert layout(g).locate(116, 82).name == "0202"
    loc = layout(g).locate(60, 114)
    assert (loc.name, loc.snapped) == ("0202", (92, 106))


def test_5_6_two_boards_side_by_side() -> None:
    two = MapLayout("M", 20, 10, ((Board("B0", 600, 500, GRID_A), 0, 0), (Board("B1", 600, 500, GRID_A), 1, 0)))
    assert two.locate(619, 50) .name == "1101"
    assert (two.locate(620, 50).name, two.locate(620, 50).board) == ("0002", "B1")


def test_5_6_example_d_name_is_not_the_containing_hex() -> None:
    g = HexGridGeometry(dy=64.0, x0=0, y0=32, numbering=Numbering())
    assert g.dx == pytest.approx(55.42562584220407)
    loc = layout(g).locate(100, 100)
    assert loc.name == "0202"
    assert loc.snapped == (130, 106)
    assert g.name_at(*g.raw_center(2, 1)) == "0302"


def test_5_6_centres_on_default_dx_grid() -> None:
    g = HexGridGeometry(dy=64.0, x0=0, y0=32, numbering=Numbering())
    assert g.raw_center(3, 2) == (166, 192)
    assert g.raw_center(1, 0) == (55, 64)


def test_5_1_dx_follows_dy_only_when_default() -> None:
    assert HexGridGeometry.from_vassal_attrs({"dy": "100"}).dx == pytest.approx(math.sqrt(3) / 2 * 100)
    assert HexGridGeometry.from_vassal_attrs({"dy": "100", "dx": "80"}).dx == 80.0


def test_1_3_non_integer_x0_is_refused() -> None:
    with pytest.raises(ValueError, match="x0"):
        HexGridGeometry.from_vassal_attrs({"x0": "33.2"})


def test_5_3_engine_3_6_snaps_to_the_rectangular_cell_3_7_to_the_hexagon() -> None:
    # (68, 40) lies in hex 0101's hexagon, but on the boundary of column 1's rectangular cell
    assert GRID_A.snap(48, 40, version="3.6") == (40, 40)
    assert GRID_A.snap(68, 40, version="3.6") == (96, 72)
    assert GRID_A.snap(68, 40, version="3.7") == (40, 40)


geoms = st.builds(
    HexGridGeometry,
    dx=st.floats(20, 150),
    dy=st.floats(20, 150),
    x0=st.integers(-100, 100),
    y0=st.integers(-100, 100),
    sideways=st.booleans(),
    numbering=st.just(Numbering()),
)


@settings(max_examples=200, deadline=None)
@given(geoms, st.integers(-20, 20), st.integers(-20, 20))
def test_hex_centre_round_trips(g: HexGridGeometry, c: int, r: int) -> None:
    x, y = g.raw_center(c, r)
    assert g.raw_at(x, y) == (c, r)
    assert g.raw_at(x, y, version="3.6") == (c, r)
    assert g.name_raw_at(x, y) == (c, r)
    assert g.snap(x, y) == (x, y)


@settings(max_examples=200, deadline=None)
@given(st.integers(-20, 20), st.integers(-20, 20), st.booleans())
def test_hex_to_pixel_to_hex(q: int, r: int, sideways: bool) -> None:
    g = HexGridGeometry(dx=81.0, dy=93.5, x0=22, y0=-4, sideways=sideways, numbering=Numbering())
    h = Hex(q, r)
    assert g.hex_at(*g.hex_center(h)) == h


@settings(max_examples=300, deadline=None)
@given(geoms.filter(lambda g: 0.6 < g.dx / g.dy < 1.1), st.floats(0, 1500), st.floats(0, 1500))
def test_snap_lands_in_a_hex_that_contains_the_point(g: HexGridGeometry, x: float, y: float) -> None:
    x, y = int(x), int(y)
    c, r = g.raw_at(x, y)
    cx, cy = g.raw_center(c, r)
    # the containing hexagon's centre is never farther than its farthest corner (+ rounding)
    radius = 2 * g.dx / 3
    assert math.hypot(cx - x, cy - y) <= max(radius, math.hypot(radius / 2, g.dy / 2)) + 3


def test_polygon_contains_half_open_edges() -> None:
    xs, ys = (0, 10, 10, 0), (0, 0, 10, 10)
    assert polygon_contains(xs, ys, 0, 0)
    assert not polygon_contains(xs, ys, 10, 5)
    assert not polygon_contains(xs, ys, 5, 10)
    assert polygon_contains(xs, ys, 9.999, 9.999)


def test_5_3_edges_legal_snaps_to_hexside_midpoints() -> None:
    g = HexGridGeometry(dx=56.0, dy=64.0, x0=40, y0=40, edges_legal=True)
    assert g.snap(40, 40) == (40, 40)  # at the centre: the centre
    assert g.snap(40, 10) == (40, 8)  # near the top side: its midpoint (centre - dy/2)
    assert g.snap(68, 24) == (68, 24)  # the NE side's midpoint (centre + dx/2, - dy/4)


def test_5_3_corners_legal_snaps_to_vertices() -> None:
    g = HexGridGeometry(dx=56.0, dy=64.0, x0=40, y0=40, corners_legal=True)
    assert g.snap(40, 41) == (40, 40)
    # the E vertex is at centre + 2dx/3 = 77.33; VASSAL's (int) casts put it at 77
    assert g.snap(76, 40) == (77, 40)
