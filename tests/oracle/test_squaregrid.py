"""VASSAL SquareGrid + SquareGridNumbering: the engine's answers, its quirks, and round trips."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gazala_tools.errors import HexNameError
from gazala_tools.hexgrid import polygon_contains
from gazala_tools.squaregrid import SquareGridGeometry, SquareGridNumbering

Fixture = Callable[[str], dict[str, Any]]

# the SquareGrid zones of the corpus: (fixture, map, zone name)
SQUARE_ZONES = [
    ("jzhex-template", "TurnTrack", "TurnTrack"),
    ("ragnarok", "Main Map", "endurance"),
    ("ragnarok", "Main Map", "rainbow"),
]


@pytest.fixture(scope="module")
def zone_grids(
    template_vmod: Any, ragnarok_vmod: Any
) -> dict[str, tuple[SquareGridGeometry, list[tuple[int, int]], str]]:
    """zone name -> (SquareGridGeometry from the buildFile attributes, zone path, locationFormat)."""
    from lxml import etree

    from gazala_tools.vassal.buildfile import open_source

    pkg = "VASSAL.build.module.map.boardPicker.board"
    out: dict[str, tuple[SquareGridGeometry, list[tuple[int, int]], str]] = {}
    for source in (template_vmod, ragnarok_vmod):
        root = etree.fromstring(
            open_source(source).xml, etree.XMLParser(resolve_entities=False, no_network=True)
        )
        for z in root.iter(f"{pkg}.mapgrid.Zone"):
            g = z.find(f"{pkg}.SquareGrid")
            if g is None:
                continue
            num = g.find(f"{pkg}.mapgrid.SquareGridNumbering")
            grid = SquareGridGeometry.from_attrs(
                {str(k): str(v) for k, v in g.attrib.items()},
                {str(k): str(v) for k, v in num.attrib.items()} if num is not None else None,
            )
            path = [(int(a), int(b)) for a, b in (p.split(",") for p in z.get("path", "").split(";") if p)]
            out[z.get("name", "")] = (grid, path, z.get("locationFormat", "$gridLocation$"))
    return out


@pytest.mark.parametrize(("fixture", "map_name", "zone"), SQUARE_ZONES)
def test_square_zone_names_and_snaps_equal_the_engine(
    fixture: str, map_name: str, zone: str, engine_fixture: Fixture, zone_grids: dict[str, Any]
) -> None:
    grid, path, fmt = zone_grids[zone]
    xs, ys = [p[0] for p in path], [p[1] for p in path]
    zone_w, zone_h = max(xs) - min(xs), max(ys) - min(ys)  # the Zone is the grid's container
    section = engine_fixture(fixture)["sections"][map_name]
    checked, bad = 0, []
    for kind, x, y, name, sx, sy, _board in section["points"]:
        if not polygon_contains(xs, ys, x, y):
            continue
        checked += 1
        ours = fmt.replace("$name$", zone).replace("$gridLocation$", grid.name_at(x, y, zone_w, zone_h) or "")
        if ours != name or grid.snap(x, y) != (sx, sy):
            bad.append(f"{kind} ({x},{y}): engine {name!r} ({sx},{sy}), ours {ours!r} {grid.snap(x, y)}")
    assert checked >= 100, checked
    assert not bad, f"{len(bad)} of {checked} differ:\n" + "\n".join(bad[:20])


def test_row_truncates_toward_zero_but_column_floors() -> None:
    # SquareGridNumbering.getRow is (int)(dy_offset/dy + 0.5): the band -1.5dy..-0.5dy above row 0
    # is still row 0, while getColumn uses floor and goes to -1.
    g = SquareGridGeometry(dx=100.0, dy=100.0, x0=0, y0=0, numbering=SquareGridNumbering(h_off=0, v_off=0))
    assert g.name_at(0, -60) == "0000"  # (int)(-0.1) = 0
    assert g.name_at(0, -160) == "00-01"  # (int)(-1.1) = -1
    assert g.name_at(-60, 0) == "-0100"  # floor(-0.1) = -1


def test_descending_counts_from_the_container_size() -> None:
    # maxRows = (int)(H/dy + 0.5) of the container: the Ragnarok endurance track (vDescend) numbers
    # its top row 21 because the zone is 1716 px high and dy = 84.3.
    n = SquareGridNumbering(h_off=-24, h_leading=0, v_descend=True)
    g = SquareGridGeometry(dx=136.4, dy=84.3, x0=-104, y0=17, numbering=n, snap_to=False)
    assert g.max_rows(1716) == 20
    assert g.name_at(3170, 20, 161, 1716) == "021"
    assert g.name_at(3170, 1700, 161, 1716) == "001"
    assert g.snap(3170, 1700) == (3170, 1700)  # snapTo="false"


def test_snap_with_edges_and_corners_legal() -> None:
    base = {"dx": "100.0", "dy": "100.0", "x0": "0", "y0": "0"}
    centres = SquareGridGeometry.from_attrs(base)
    edges = SquareGridGeometry.from_attrs(base | {"edgesLegal": "true"})
    corners = SquareGridGeometry.from_attrs(base | {"cornersLegal": "true"})
    both = SquareGridGeometry.from_attrs(base | {"edgesLegal": "true", "cornersLegal": "true"})
    assert centres.snap(45, 10) == (0, 0)
    assert centres.snap(55, 10) == (100, 0)
    assert edges.snap(45, 10) == (50, 0)  # the vertical edge between two cells
    assert edges.snap(10, 45) == (0, 50)  # a horizontal edge
    assert edges.snap(45, 45) == (0, 50)  # no corners: the horizontal edge wins
    assert corners.snap(45, 45) == (50, 50)
    assert corners.snap(45, 10) == (0, 0)
    assert both.snap(45, 45) == (50, 50) and both.snap(45, 10) == (50, 0)


def test_center_of_name_is_get_center_point() -> None:
    n = SquareGridNumbering(first="V", h_leading=0, v_leading=0, h_off=-1, v_off=-1)
    g = SquareGridGeometry(dx=75.0, dy=75.0, x0=-42, y0=-35, numbering=n)
    assert g.center_of_name("00", 718, 142) == (33, 40)
    assert g.name_at(33, 40, 718, 142) == "00"
    with pytest.raises(HexNameError):
        g.center_of_name("x1", 718, 142)
    with pytest.raises(ValueError, match="no numbering"):
        SquareGridGeometry().center_of_name("0101")


def test_from_attrs_reads_like_vassal() -> None:
    g = SquareGridGeometry.from_attrs({"snapTo": "TRUE", "range": "Manhattan"}, {"hType": "A", "vOff": "0"})
    assert (g.dx, g.dy, g.x0, g.y0, g.snap_to) == (48.0, 48.0, 24, 24, True)
    assert g.numbering is not None and g.numbering.h_type == "A" and g.numbering.v_off == 0
    assert g.name_at(24, 24) == "B00"  # hOff defaults to 1
    assert SquareGridNumbering.from_attrs(g.numbering.vassal_attrs()) == g.numbering
    assert SquareGridGeometry.from_attrs(g.vassal_attrs()) == SquareGridGeometry(numbering=None)
    for bad in ({"x0": "1.5"}, {"x0": " 3"}, {"dx": "abc"}, {"dy": "0"}, {"dx": "1_0"}):
        with pytest.raises(ValueError):
            SquareGridGeometry.from_attrs(bad)


grids = st.builds(
    SquareGridGeometry,
    dx=st.floats(8, 300, allow_nan=False),
    dy=st.floats(8, 300, allow_nan=False),
    x0=st.integers(-200, 200),
    y0=st.integers(-200, 200),
    numbering=st.builds(
        SquareGridNumbering,
        first=st.sampled_from("HV"),
        sep=st.sampled_from(["/", ":", " "]),  # unambiguous for getLocation's regex
        h_type=st.sampled_from("NA"),
        h_leading=st.integers(0, 3),
        v_leading=st.integers(0, 3),
        h_off=st.integers(-5, 5),
        v_off=st.integers(-5, 5),
        h_descend=st.booleans(),
        v_descend=st.booleans(),
    ),
)


@given(
    grid=grids,
    i=st.integers(0, 40),
    j=st.integers(0, 40),
    size=st.tuples(st.integers(1, 5000), st.integers(1, 5000)),
)
def test_cell_centre_name_round_trip(grid: SquareGridGeometry, i: int, j: int, size: tuple[int, int]) -> None:
    w, h = size
    cx, cy = grid.raw_center(i, j)
    assert grid.snap(cx, cy) == (cx, cy)
    assert grid.raw_at(cx, cy) == (i, j)
    name = grid.name_at(cx, cy, w, h)
    assert name is not None
    if grid.numbering is not None:
        px, py = grid.center_of_name(name, w, h)
        assert grid.name_at(px, py, w, h) == name


@given(grid=grids, x=st.integers(-1000, 5000), y=st.integers(-1000, 5000))
def test_snap_is_idempotent_and_lands_on_a_centre(grid: SquareGridGeometry, x: int, y: int) -> None:
    sx, sy = grid.snap(x, y)
    assert grid.snap(sx, sy) == (sx, sy)
    assert (sx, sy) == grid.raw_center(*grid.raw_at(sx, sy))
