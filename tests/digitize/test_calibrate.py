"""calibrate: least squares over reference hexes; the orientation from the fit, the numbering as given."""

from __future__ import annotations

import random

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from gazala_tools.digitize.calibrate import Ref, calibrate, parse_ref
from gazala_tools.errors import GazalaError
from gazala_tools.hexgrid import HexGridGeometry
from gazala_tools.numbering import Numbering
from tools.scans.synthetic import SyntheticBoard

RG = Numbering()  # VASSAL's default, also RG's


def refs_for(geo: HexGridGeometry, labels: list[str], noise: float = 0.0, seed: int = 0) -> list[Ref]:
    rng = random.Random(seed)
    out = []
    assert geo.numbering is not None
    for lab in labels:
        x, y = geo.raw_center(*geo.numbering.parse(lab, sideways=geo.sideways))
        out.append(Ref(lab, x + rng.uniform(-noise, noise), y + rng.uniform(-noise, noise)))
    return out


def max_centre_error(a: HexGridGeometry, b: HexGridGeometry) -> float:
    """Largest x or y difference between the two grids' VASSAL hex centres (integer pixels)."""
    return max(
        max(abs(p - q) for p, q in zip(a.raw_center(c, r), b.raw_center(c, r), strict=True))
        for c in range(0, 30, 3)
        for r in range(0, 22, 3)
    )


@pytest.mark.parametrize("sideways", [False, True])
@pytest.mark.parametrize("h_off", [1, 0])
def test_two_refs_give_the_grid_within_a_pixel(sideways: bool, h_off: int) -> None:
    truth = HexGridGeometry(dx=55.4, dy=64.0, x0=37, y0=51, sideways=sideways, numbering=RG.with_(h_off=h_off))
    assert truth.numbering is not None
    cal = calibrate(refs_for(truth, ["0101", "3021"]), truth.numbering)
    assert cal.geometry.sideways == sideways
    assert cal.numbering == truth.numbering
    assert max_centre_error(cal.geometry, truth) <= 1.0 + 1e-9


def test_many_noisy_refs_are_least_squares_with_residuals() -> None:
    truth = HexGridGeometry(dx=41.3, dy=47.9, x0=22, y0=30, numbering=RG)
    labels = ["0101", "0512", "1003", "1520", "2207", "2818", "0922", "1711"]
    cal = calibrate(refs_for(truth, labels, noise=1.5, seed=3), RG)
    assert cal.dx == pytest.approx(41.3, abs=0.1) and cal.dy == pytest.approx(47.9, abs=0.1)
    assert len(cal.residuals) == len(labels) and cal.rms < 2.5
    assert not cal.ambiguous


@pytest.mark.parametrize("sideways", [False, True])
def test_shape_hint_from_the_image_decides_the_orientation_between_exact_fits(sideways: bool) -> None:
    # stretched hexes (dx/dy = 0.75): two refs fit both orientations exactly; the image decides
    truth = HexGridGeometry(dx=48.0, dy=64.0, x0=30, y0=40, sideways=sideways, numbering=RG.with_(h_off=0))
    assert truth.numbering is not None
    refs = refs_for(truth, ["0101", "3021"])
    cal = calibrate(refs, truth.numbering, shape_hint=(0.75, sideways))
    assert cal.geometry.sideways == sideways and cal.dy == pytest.approx(64.0, abs=0.1)


@pytest.mark.parametrize("sideways", [False, True])
def test_the_given_numbering_is_never_switched_even_when_columns_differ_by_an_even_number(sideways: bool) -> None:
    # labels 0101 and 1314 are raw columns 0 and 12 under hOff=1 and 1 and 13 under hOff=0: both
    # fit the same dx, dy; only the given numbering says which hexes they are (issue 12 item 1)
    truth = HexGridGeometry(dx=82.5, dy=97.4, x0=224, y0=91, sideways=sideways, numbering=RG)
    cal = calibrate(refs_for(truth, ["0101", "1314"]), RG, shape_hint=(82.5 / 97.4, sideways))
    assert cal.numbering == RG
    assert max_centre_error(cal.geometry, truth) <= 1.0 + 1e-9


@settings(max_examples=60, deadline=None)
@given(
    dx=st.floats(20, 120),
    ratio=st.floats(0.7, 1.1),
    x0=st.integers(-50, 200),
    y0=st.integers(-50, 200),
    sideways=st.booleans(),
    h_off=st.sampled_from([0, 1]),
)
def test_refs_at_vassal_centres_recover_any_grid_within_a_pixel(
    dx: float, ratio: float, x0: int, y0: int, sideways: bool, h_off: int
) -> None:
    numbering = RG.with_(h_off=h_off)
    truth = HexGridGeometry(dx=dx, dy=dx / ratio, x0=x0, y0=y0, sideways=sideways, numbering=numbering)
    # references are pixels of the scan: under hOff=0 label 0101 is raw (1, -1), which can lie off it
    assume(all(min(r.x, r.y) >= 0 for r in refs_for(truth, ["0101", "3021", "1522"])))
    # dy/2 a float hair below a whole number (49.99999999999999 / 2): VASSAL's trunc(dy/2) is then a
    # pixel less than for any step a fit can tell from it within float precision
    assume(abs(truth.dy / 2 - round(truth.dy / 2)) > 1e-9)
    # two refs fit both orientations exactly: the image's hex shape (here measured 1% off) decides
    cal = calibrate(refs_for(truth, ["0101", "3021"]), numbering, shape_hint=(ratio * 1.01, sideways))
    assert max_centre_error(cal.geometry, truth) <= 1.0 + 1e-9
    # three refs spread over the map decide by their residuals alone
    cal = calibrate(refs_for(truth, ["0101", "3021", "1522"]), numbering)
    assert max_centre_error(cal.geometry, truth) <= 1.0 + 1e-9


def test_bad_references_are_clear_errors() -> None:
    with pytest.raises(GazalaError, match="at least two"):
        calibrate([Ref("0101", 1, 2)], RG)
    with pytest.raises(GazalaError, match="no grid fits"):
        calibrate([Ref("0101", 1, 2), Ref("0105", 1, 300)], RG)
    with pytest.raises(GazalaError, match="LABEL=X,Y"):
        parse_ref("0101:1,2")
    assert parse_ref("0104=12.5,7") == Ref("0104", 12.5, 7.0)


@pytest.mark.parametrize("count", [1, 2])
def test_grid_from_image_gives_the_vassal_grid_from_one_or_more_refs(flat_board: SyntheticBoard, count: int) -> None:
    from gazala_tools.digitize.calibrate import grid_from_image

    g = flat_board.geometry
    numbering = Numbering(h_off=0)  # not the board's own: the labels are named under this one
    raws = [(3, 4), (20, 15)][:count]
    refs = [Ref(numbering.name(c, r), *g.raw_center(c, r)) for c, r in raws]
    geo, used = grid_from_image(flat_board.image, refs, numbering)
    assert used == numbering and geo.numbering == numbering
    assert (geo.x0, geo.y0) == (g.x0, g.y0)
    assert max_centre_error(geo, g) <= 1.0
