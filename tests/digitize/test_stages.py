"""detect-grid's stages on their own, on small synthetic inputs (issue 26 item 5; docs/digitize.md,
detect-grid steps 2-4): honeycombs drawn analytically from a known lattice, so each stage's answer
is known exactly. Seconds in all, where a whole detection on a board takes several."""

from __future__ import annotations

import ast
import dataclasses
import inspect
import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import ndimage

from gazala_tools.digitize.lattice import (
    Params,
    Reading,
    fit_centres,
    fold_score,
    honeycomb_distance,
    lattice_bases,
    readings,
)
from gazala_tools.digitize.lattice import params as params_module
from gazala_tools.digitize.lattice.candidates import _same_points
from gazala_tools.digitize.lattice.evidence import wide_gaussian
from gazala_tools.digitize.lattice.fitting import _opening
from gazala_tools.errors import GazalaError


def reading(dx: float, dy: float, *, sideways: bool = False, rotation: float = 0.0) -> Reading:
    """The hex grid of steps dx, dy turned ``rotation`` degrees clockwise (the detector's convention)."""
    t = math.radians(rotation)
    if sideways:  # v (down a column) near the x axis, u (next column) near the y axis
        v_hat, u_hat = (math.cos(t), math.sin(t)), (-math.sin(t), math.cos(t))
    else:
        v_hat, u_hat = (-math.sin(t), math.cos(t)), (math.cos(t), math.sin(t))
    return Reading(sideways, dx, dy, u_hat, v_hat, rotation)


def honeycomb(rd: Reading, centre: tuple[float, float], size: tuple[int, int] = (260, 300), width: float = 1.0) -> np.ndarray:
    """An edge image (h, w): lines of ``width`` px along every hex edge of ``rd``, one hex centred at ``centre``."""
    h, w = size
    ys, xs = np.mgrid[0:h, 0:w]
    q = np.stack([xs.ravel() - centre[0], ys.ravel() - centre[1]], axis=1).astype(np.float64)
    d = honeycomb_distance(rd, q).reshape(h, w)
    out: np.ndarray = np.exp(-((d / width) ** 2)).astype(np.float32)
    return out


def congruent(p: np.ndarray, q: tuple[float, float], rd: Reading) -> float:
    """Distance from ``p`` to the nearest centre of the lattice of ``rd`` through ``q``."""
    a1, a2 = rd.basis()
    st = np.linalg.solve(np.stack([a1, a2], axis=1), np.asarray(p, dtype=np.float64) - q)
    st -= np.round(st)
    return float(np.hypot(*(st[0] * a1 + st[1] * a2)))


FLAT = reading(30.0, 34.0, rotation=1.5)
POINTY = reading(28.0, 33.0, sideways=True, rotation=-0.7)


# --- the tunables -------------------------------------------------------------------------------
def test_the_parameters_are_frozen_and_each_says_what_it_tunes() -> None:
    p = Params()
    with pytest.raises(dataclasses.FrozenInstanceError):
        p.thin_below = 2.0  # type: ignore[misc]
    tree = ast.parse(inspect.getsource(params_module.Params))
    body = tree.body[0].body  # type: ignore[attr-defined]
    documented = {
        stmt.target.id
        for stmt, nxt in itertools.pairwise(body)
        if isinstance(stmt, ast.AnnAssign) and isinstance(nxt, ast.Expr) and isinstance(nxt.value, ast.Constant)
    }
    assert documented == {f.name for f in dataclasses.fields(Params)}
    assert dataclasses.replace(p, workers=1).workers == 1 and p == Params()


# --- step 2: candidate lattices -----------------------------------------------------------------
@pytest.mark.parametrize("rd", [FLAT, POINTY], ids=["flat", "pointy"])
@pytest.mark.parametrize("ridge_free", [False, True])
def test_2_the_candidate_lattice_of_a_honeycomb_is_its_centres_lattice(rd: Reading, ridge_free: bool) -> None:
    """The autocorrelation of a honeycomb's edges peaks at every vector of its centres' lattice:
    the first candidate spans exactly those points (another basis of them), refined to 0.2%."""
    e = honeycomb(rd, (41.3, 57.8))
    bases = lattice_bases(e, min_period=5.0, count=3, ridge_free=ridge_free)
    b1, b2, share = bases[0]
    assert _same_points((b1, b2), rd.basis(), tol=0.01)
    assert share > 0.5
    assert len(bases) <= 3 and all(not _same_points(b[:2], (b1, b2)) for b in bases[1:])


def test_2_an_image_smaller_than_a_few_periods_is_refused() -> None:
    with pytest.raises(GazalaError, match="too small"):
        lattice_bases(np.zeros((20, 20), dtype=np.float32), min_period=6.0)


# --- step 3: readings ---------------------------------------------------------------------------
@pytest.mark.parametrize("rd", [FLAT, POINTY], ids=["flat", "pointy"])
def test_3_any_basis_of_a_hex_lattice_is_read_as_that_hex_grid_with_its_rotation(rd: Reading) -> None:
    a1, a2 = rd.basis()
    for b1, b2 in ((a1, a2), (a1 + a2, a2), (a1 - 2 * a2, a1 - a2)):
        found = [c for c in readings(b1, b2) if c.sideways == rd.sideways and abs(c.dx - rd.dx) < 1e-6 and abs(c.dy - rd.dy) < 1e-6]
        assert len(found) == 1
        assert found[0].rotation == pytest.approx(rd.rotation, abs=1e-6)


def test_3_a_square_lattice_or_one_turned_past_eight_degrees_has_no_reading() -> None:
    assert readings(np.array([20.0, 0.0]), np.array([0.0, 20.0])) == []
    turned = reading(30.0, 34.0, rotation=12.0)
    assert not [c for c in readings(*turned.basis()) if abs(c.dx - 30.0) < 0.5 and abs(c.dy - 34.0) < 0.5]
    assert [c for c in readings(*turned.basis(), max_angle=13.0) if abs(c.dx - 30.0) < 1e-6]


@pytest.mark.parametrize("rd", [FLAT, POINTY], ids=["flat", "pointy"])
def test_3_a_honeycomb_folded_into_one_cell_matches_its_reading_and_gives_a_centre(rd: Reading) -> None:
    at = (41.3, 57.8)
    score, centre = fold_score(honeycomb(rd, at), rd)
    assert score > 0.9 and congruent(centre, at, rd) < 0.5


@pytest.mark.parametrize("sideways", [False, True], ids=["flat", "pointy"])
def test_3_the_folded_edges_choose_the_drawn_reading_and_its_phase(sideways: bool) -> None:
    """The centres of flat hexes 20 x 40 px are also those of pointy hexes 20 x 40 px (the same
    lattice, two honeycombs): the drawn honeycomb's reading scores several times the other's,
    and the centre it gives is on the drawn lattice (within half a pixel)."""
    drawn = reading(20.0, 40.0, sideways=sideways)
    at = (41.3, 57.8)
    e = honeycomb(drawn, at)
    cands = [c for c in readings(*drawn.basis()) if abs(c.dx - 20.0) < 1e-6 and abs(c.dy - 40.0) < 1e-6]
    assert sorted(c.sideways for c in cands) == [False, True]
    scored = {c.sideways: fold_score(e, c) for c in cands}
    score, centre = scored[sideways]
    assert score > 0.5 and congruent(centre, at, drawn) < 0.5
    assert scored[not sideways][0] < score / 3


# --- step 4: the sub-pixel fit ------------------------------------------------------------------
@pytest.mark.parametrize("rd", [FLAT, POINTY], ids=["flat", "pointy"])
def test_4_the_robust_fit_finds_the_lattice_from_a_centre_a_few_pixels_off(rd: Reading) -> None:
    """From a first centre 3 px off, the fit measures every hex and returns the lattice: steps
    and the origin within 0.1 px, the rotation measured, rms under 0.2 px."""
    at = (41.3, 57.8)
    e = honeycomb(rd, at, size=(300, 340))
    cf = fit_centres(e, rd, np.array([at[0] + 3.0, at[1] - 2.0]))
    u, v = np.array(rd.u_hat) * rd.dx, np.array(rd.v_hat) * rd.dy
    assert np.abs(cf.u - u).max() < 0.1 and np.abs(cf.v - v).max() < 0.1
    assert congruent(cf.o, at, rd) < 0.1
    assert cf.rms < 0.2 and cf.count >= 60 and cf.coverage > 0.9


def test_4_a_blot_over_a_few_hexes_does_not_move_the_fit() -> None:
    """Printed features biasing a minority of hexes (a blot of dark ink over three of them) are
    outliers or down-weighted: the lattice stays within 0.1 px."""
    at = (41.3, 57.8)
    e = honeycomb(FLAT, at, size=(300, 340))
    e[120:150, 150:200] = 1.0
    cf = fit_centres(e, FLAT, np.array(at))
    u = np.array(FLAT.u_hat) * FLAT.dx
    assert np.abs(cf.u - u).max() < 0.1 and congruent(cf.o, at, FLAT) < 0.1


def test_4_too_few_hexes_is_a_clean_error() -> None:
    e = np.zeros((300, 340), dtype=np.float32)
    with pytest.raises(GazalaError, match="too few hex centres"):
        fit_centres(e, FLAT, np.array([40.0, 50.0]))


@settings(max_examples=40, deadline=None)
@given(
    h=st.integers(1, 90),
    w=st.integers(1, 90),
    sigma=st.floats(2.0, 30.0),
    seed=st.integers(0, 2**32 - 1),
    dtype=st.sampled_from([np.float32, np.float64]),
)
def test_1_the_brightness_blur_by_fft_is_ndimages_gaussian(h: int, w: int, sigma: float, seed: int, dtype: type) -> None:
    """The local brightness's wide Gaussian (by FFT) is ``ndimage.gaussian_filter`` to the rounding of its
    type, borders included (its reach past either side of a small image: reflected again), in its type."""
    a = np.random.default_rng(seed).random((h, w)).astype(dtype)
    got = wide_gaussian(a, sigma)
    want = ndimage.gaussian_filter(a, sigma)
    assert got.dtype == want.dtype and got.shape == want.shape
    assert np.allclose(got, want, rtol=1e-5 if dtype is np.float32 else 1e-12, atol=0)


@settings(max_examples=60, deadline=None)
@given(
    angle=st.one_of(st.sampled_from([0.0, 30.0, 60.0, 90.0, 120.0, 150.0]), st.floats(0.0, 180.0)),
    half=st.integers(1, 12),
    h=st.integers(30, 70),
    w=st.integers(30, 70),
    seed=st.integers(0, 2**32 - 1),
)
def test_4_the_straight_edge_opening_is_scipys_grey_opening(angle: float, half: int, h: int, w: int, seed: int) -> None:
    """The opening that keeps the straight edges (a line footprint along a hex-edge direction, made as
    ``line_edges`` makes it) by shifted minima and maxima gives ``ndimage.grey_opening``'s values exactly,
    at any angle."""
    t = np.array([math.cos(math.radians(angle)), math.sin(math.radians(angle))])
    pts = np.round(np.outer(np.arange(-half, half + 1), t)).astype(np.int64)
    r = int(np.abs(pts).max())
    fp = np.zeros((2 * r + 1, 2 * r + 1), dtype=bool)
    fp[pts[:, 1] + r, pts[:, 0] + r] = True
    e = np.random.default_rng(seed).random((h, w)).astype(np.float32)
    assert np.array_equal(_opening(e, fp), ndimage.grey_opening(e, footprint=fp))
