"""detect-grid: the lattice found on synthetic and rendered boards, clean and degraded."""

from __future__ import annotations

import logging
import math
import random
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from PIL import Image

from gazala_tools.digitize.lattice import LatticeFit, Params, Reducer, detect_grid, evidences, number_lattice
from gazala_tools.digitize.lattice.numbering import _nearest_centre
from gazala_tools.errors import GazalaError
from gazala_tools.grid import hex_to_raw
from gazala_tools.hexgrid import HexGridGeometry
from gazala_tools.numbering import Numbering
from tests.hexes.test_numbering import numberings
from tools.scans import synthetic as syn


def _continuous_centre(geo: HexGridGeometry, c: int, r: int) -> tuple[float, float]:
    """Where VASSAL draws raw hex (c, r)'s centre (its grid lines are continuous; only snapping truncates)."""
    u = geo.x0 + c * geo.dx
    v = geo.y0 + r * geo.dy + (geo.dy / 2 if c % 2 else 0.0)
    return (v, u) if geo.sideways else (u, v)


def origin_error(fit: LatticeFit, geo: HexGridGeometry) -> float:
    """Distance from the detected centre (x0, y0) to the nearest true hex centre (continuous lattice)."""
    tx, ty = _continuous_centre(geo, *hex_to_raw(geo.hex_at(fit.cx, fit.cy), geo.orientation))
    return math.hypot(fit.cx - tx, fit.cy - ty)


@pytest.mark.parametrize(
    "kw",
    [
        dict(dx=55.0, dy=64.0, x0=40, y0=40),
        dict(dx=40.5, dy=47.3, x0=25, y0=33, columns=30, rows=25),
        dict(dx=70.0, dy=52.0, x0=61, y0=28),  # wide hexes, ratio 1.35
        dict(dx=38.0, dy=64.0, x0=30, y0=40),  # narrow hexes, ratio 0.59
        dict(dx=50.0, dy=60.0, x0=40, y0=40, sideways=True),
        dict(dx=55.4, dy=64.0, x0=35, y0=52, sideways=True, columns=14, rows=20),
        dict(dx=20.0, dy=23.0, x0=20, y0=20, columns=60, rows=45),  # small hexes, half-pixel offsets
        dict(dx=300.0, dy=346.0, x0=220, y0=240, columns=22, rows=16),  # a 600 dpi scan (6740x5796 px)
    ],
)
def test_detect_grid_round_trip_within_half_a_pixel(kw: dict[str, Any]) -> None:
    b = syn.synthetic_board(**kw)
    fit = detect_grid(b.image)
    g = b.geometry
    assert fit.sideways == g.sideways
    assert abs(fit.dx - g.dx) < 0.5 and abs(fit.dy - g.dy) < 0.5
    assert abs(fit.dx / g.dx - 1) < 0.002 and abs(fit.dy / g.dy - 1) < 0.002
    assert origin_error(fit, g) < 0.5
    assert abs(fit.rotation) < 0.1
    assert fit.confidence > 0.3


DEGRADATIONS = {
    "jpeg q60": (lambda im: syn.jpeg(im, 60), 1.0),
    "blur": (lambda im: syn.blur(im, 1.5), 1.0),
    "rotate +1": (lambda im: syn.rotate(im, 1.0), 1.0),
    "rotate -1": (lambda im: syn.rotate(im, -1.0), 1.0),
    "uneven lighting": (lambda im: syn.uneven_lighting(im, 0.5), 1.0),
    "scale 0.97": (lambda im: syn.scale(im, 0.97), 0.97),
    "scale 1.03": (lambda im: syn.scale(im, 1.03), 1.03),
    "all at once": (
        lambda im: syn.jpeg(syn.uneven_lighting(syn.blur(syn.scale(syn.rotate(im, 0.8), 0.98), 1.2), 0.4), 60),
        0.98,
    ),
}


@pytest.mark.parametrize("name", list(DEGRADATIONS))
@pytest.mark.parametrize("board", ["flat_board", "pointy_board"])
def test_detect_grid_survives_scanner_degradation(name: str, board: str, request: pytest.FixtureRequest) -> None:
    b = request.getfixturevalue(board)
    degrade, factor = DEGRADATIONS[name]
    fit = detect_grid(degrade(b.image))
    assert fit.sideways == b.geometry.sideways
    assert fit.dx == pytest.approx(b.geometry.dx * factor, rel=0.005)
    assert fit.dy == pytest.approx(b.geometry.dy * factor, rel=0.005)
    if name.startswith("rotate"):
        assert fit.rotation == pytest.approx(-float(name.split()[1]), abs=0.1)  # Pillow turns counter-clockwise


@pytest.mark.parametrize("h_off", [1, 0])
@pytest.mark.parametrize("board", ["flat_board", "pointy_board"])
def test_one_reference_at_either_column_parity_fixes_the_origin(board: str, h_off: int, request: pytest.FixtureRequest) -> None:
    b = request.getfixturevalue(board)
    truth = Numbering(h_off=h_off)
    g = b.geometry
    fit = detect_grid(b.image)
    for raw in ((3, 4), (6, 7)):
        label = truth.name(*raw, sideways=g.sideways)
        x, y = g.raw_center(*raw)
        geo, used = number_lattice(fit, truth, label, x + 3, y - 2)
        assert used == truth
        assert (geo.x0, geo.y0) == (g.x0, g.y0)
        # every hex centre VASSAL computes is within a pixel of the truth
        for c, r in ((0, 0), (10, 12), (15, 3)):
            assert math.dist(geo.raw_center(c, r), g.raw_center(c, r)) <= 1.5


def test_blank_image_is_a_clear_error() -> None:
    with pytest.raises(GazalaError, match=r"periodic|direction|hex"):
        detect_grid(Image.new("RGB", (400, 300), (240, 230, 200)))


def test_tiny_image_is_a_clear_error() -> None:
    with pytest.raises(GazalaError, match="too small"):
        detect_grid(Image.new("RGB", (20, 20), (0, 0, 0)))


@pytest.mark.slow
def test_scan_with_a_chart_beside_the_map_noise_and_jpeg() -> None:
    """A printed chart's ruling, sensor noise and JPEG blocks make spurious periodicities."""
    import numpy as np
    from PIL import ImageDraw

    b = syn.synthetic_board(columns=26, rows=18, dx=57.3, dy=66.1, x0=80, y0=70, seed=9)
    w, h = b.image.size
    scan = Image.new("RGB", (w + 500, h + 200), (245, 240, 230))
    scan.paste(b.image, (0, 0))
    draw = ImageDraw.Draw(scan)
    for i in range(12):
        draw.line([(w + 20, 40 + i * 40), (w + 480, 40 + i * 40)], fill=(0, 0, 0), width=2)
    for j in range(6):
        draw.line([(w + 20 + j * 92, 40), (w + 20 + j * 92, 480)], fill=(0, 0, 0), width=2)
    noisy = np.asarray(scan).astype(np.float32) + np.random.default_rng(0).normal(0, 12, (h + 200, w + 500, 3))
    scan = Image.fromarray(np.clip(noisy, 0, 255).astype(np.uint8))
    fit = detect_grid(syn.jpeg(syn.uneven_lighting(syn.rotate(scan, 0.6), 0.4), 70))
    assert not fit.sideways
    assert fit.dx == pytest.approx(57.3, rel=0.005) and fit.dy == pytest.approx(66.1, rel=0.005)
    assert fit.rotation == pytest.approx(-0.6, abs=0.05)
    assert any("rotated" in n for n in fit.notes)


@settings(max_examples=300, deadline=None)
@given(
    numbering=numberings,
    dx=st.floats(20, 120),
    ratio=st.floats(0.6, 1.4),
    x0=st.integers(-60, 200),
    y0=st.integers(-60, 200),
    sideways=st.booleans(),
    first=st.tuples(st.integers(0, 6), st.integers(0, 6)),
    ref=st.tuples(st.integers(0, 24), st.integers(0, 18)),
    click=st.tuples(st.floats(-0.3, 0.3), st.floats(-0.3, 0.3)),
    noise=st.tuples(st.floats(-0.2, 0.2), st.floats(-0.2, 0.2)),
    seed=st.integers(0, 2**16),
)
def test_issue_12_item_1_one_reference_under_any_numbering_gives_the_exact_origin_and_vassals_names(
    numbering: Numbering,
    dx: float,
    ratio: float,
    x0: int,
    y0: int,
    sideways: bool,
    first: tuple[int, int],
    ref: tuple[int, int],
    click: tuple[float, float],
    noise: tuple[float, float],
    seed: int,
) -> None:
    """The label names the hex under the point, under the given numbering with VASSAL's parity: the
    detector's own first hex (any column parity) does not matter, and the numbering is never changed."""
    truth = HexGridGeometry(dx=dx, dy=dx / ratio, x0=x0, y0=y0, sideways=sideways, numbering=numbering)
    board = (int(26 * truth.dy + 300), int(26 * dx + 300)) if sideways else (int(26 * dx + 300), int(20 * truth.dy + 300))
    kw = {"sideways": sideways, "max_rows": truth.max_rows(board[1]), "max_columns": truth.max_columns(board[0])}
    label = numbering.name(*ref, **kw)  # type: ignore[arg-type]
    assume(numbering.parse(label, **kw) == ref)  # type: ignore[arg-type]  # some formats cannot be read back (VASSAL too)
    # a detector that found the lattice to 0.2 px, reporting a hex of an arbitrary column as its first
    fx, fy = _continuous_centre(truth, *first)
    fit = LatticeFit(
        dx=dx, dy=truth.dy, cx=fx + noise[0], cy=fy + noise[1], sideways=sideways, rotation=0.0,
        confidence=1.0, rms_px=0.1, hexes_measured=100, edge_score=1.0,
    )
    rx, ry = _continuous_centre(truth, *ref)
    geo, used = number_lattice(fit, numbering, label, rx + click[0] * dx, ry + click[1] * truth.dy, board=board)
    assert used == numbering
    assert (geo.x0, geo.y0) == (truth.x0, truth.y0)
    rng = random.Random(seed)
    for _ in range(50):
        px, py = rng.randrange(board[0]), rng.randrange(board[1])
        assert geo.name_at(px, py, *board) == truth.name_at(px, py, *board)


def _as_if_large(image: Image.Image) -> Params:
    """The parameters that make ``image`` "large": the whole-image fit may use a quarter of its
    pixels, tiles are a third of its side."""
    return Params(fit_max_pixels=image.height * image.width // 4, refine_tile=max(image.size) // 3)


def _refinements(caplog: pytest.LogCaptureFixture) -> int:
    """How many fits were refined in tiles (``refine_in_tiles`` logs each)."""
    return sum("refined in" in r.getMessage() for r in caplog.records if r.name.endswith(".tiles"))


@pytest.mark.slow
def test_issue_12_item_4_a_large_scan_is_fitted_coarse_then_refined_in_tiles_to_the_same_lattice(
    flat_board: syn.SyntheticBoard, caplog: pytest.LogCaptureFixture
) -> None:
    whole = detect_grid(flat_board.image)
    large = _as_if_large(flat_board.image)
    with caplog.at_level(logging.DEBUG, logger="gazala_tools.digitize.lattice"):
        tiled = detect_grid(flat_board.image, params=large)
    assert _refinements(caplog) == 1
    g = flat_board.geometry
    assert tiled.dx == pytest.approx(g.dx, abs=0.05) and tiled.dy == pytest.approx(g.dy, abs=0.05)
    # the same lattice and the same first hex
    assert math.dist((tiled.x0, tiled.y0), (whole.x0, whole.y0)) < 0.3
    # and the VASSAL grid it gives has a hex centred on the board's raw (0, 0)
    assert math.dist(_nearest_centre(tiled, g.x0, g.y0), (g.x0, g.y0)) < 0.5
    # the first hex (x0, y0; game new's names start there) is the map's top-left one even when
    # no refined tile covers it: every other tile of a quarter of the side
    few = detect_grid(flat_board.image, params=replace(large, refine_tile=max(flat_board.image.size) // 4, refine_max_tiles=4))
    assert math.dist((few.x0, few.y0), (whole.x0, whole.y0)) < 1.0


@pytest.mark.slow
def test_issue_12_item_4_on_a_large_scan_only_the_fit_kept_is_refined_in_tiles(
    flat_board: syn.SyntheticBoard, caplog: pytest.LogCaptureFixture
) -> None:
    """Every evidence and every candidate lattice is fitted on the coarse image; the tiles are
    measured once, for the fit that is kept (each refinement reads 16 tiles at full resolution)."""
    # all three evidences; the faint-line lattice and every second opinion
    every = replace(_as_if_large(flat_board.image), thin_below=2.0, low_confidence=1.1)
    with caplog.at_level(logging.DEBUG, logger="gazala_tools.digitize.lattice"):
        fit = detect_grid(flat_board.image, params=every)
    assert _refinements(caplog) == 1
    g = flat_board.geometry
    assert fit.dx == pytest.approx(g.dx, abs=0.05) and fit.dy == pytest.approx(g.dy, abs=0.05)
    assert origin_error(fit, g) < 0.5


def test_the_evidences_of_one_reduced_image_share_the_thin_lines_the_marks_and_the_local_brightness(
    flat_board: syn.SyntheticBoard,
) -> None:
    """The thin-line and faint-line evidences both start from the thin-line response (the marks
    are found on it), and every evidence divides by the local brightness: each is made once per
    reduced image, which the detection's reducer keeps (the evidences and the second opinions at
    one resolution read the same one)."""
    scan = Reducer(flat_board.image)
    d = scan.derived(2)
    assert scan.derived(2) is d and scan(2) is d.grey
    faint = evidences()[2]
    faint.of(d, 24.0)  # the faint-line evidence: marks from the thin lines
    made = {name: d.__dict__[name] for name in ("thin", "light")}
    marks = d.marks(24.0)
    for ev in evidences():
        ev.of(d, 24.0)
    assert all(d.__dict__[name] is made[name] for name in made) and d.marks(24.0) is marks
    assert d.gradient is d.gradient


@pytest.mark.slow
def test_the_detection_on_several_threads_is_the_detection_on_one(flat_board: syn.SyntheticBoard) -> None:
    one = detect_grid(flat_board.image, params=Params(thin_below=2.0, workers=1))
    assert detect_grid(flat_board.image, params=Params(thin_below=2.0, workers=3)) == one


@settings(max_examples=60, deadline=None)
@given(
    st.tuples(st.floats(20, 200), st.floats(-0.3, 0.3), st.floats(-0.3, 0.3), st.floats(20, 200)),
    st.sampled_from([((1, 0), (0, 1)), ((1, 1), (0, 1)), ((2, 1), (1, 1)), ((1, -1), (1, 0)), ((0, 1), (-1, 0)), ((3, 2), (1, 1))]),
)
def test_two_bases_of_one_lattice_are_the_same_points_and_a_sub_or_super_lattice_is_not(
    basis: tuple[float, float, float, float], unimodular: tuple[tuple[int, int], tuple[int, int]]
) -> None:
    """A lattice already fitted is not fitted again as a second opinion: another basis of it
    (any integer change of basis of determinant +-1) is recognised; twice or half the lattice is not."""
    import numpy as np

    from gazala_tools.digitize.lattice.candidates import _same_points

    ax, ay_shear, bx_shear, by = basis
    b1, b2 = np.array([ax, ay_shear * ax]), np.array([bx_shear * by, by])
    (p, q), (r, s) = unimodular
    other = (p * b1 + q * b2, r * b1 + s * b2)
    assert _same_points(other, (b1, b2)) and _same_points((b1, b2), other)
    assert not _same_points((2 * b1, b2), (b1, b2))
    assert not _same_points((b1, b2), (2 * b1, b2))
    assert not _same_points((b1 * 1.05, b2), (b1, b2))
