"""detect-grid and calibrate on harsh synthetic scans of printed maps (tools.scans.harsh).

Thin low-contrast grid lines (grey, dark, or white on dark terrain), dense terrain art painted over
them, 20-30% sea without a grid, a margin with a title, ruled tables and a turn track, hex numbers
and dots, rivers and roads, paper texture, JPEG, rotation up to 1 degree, dx/dy a few percent off
regular, hexes 40-150 px. Acceptance on real scans: dx, dy within 0.5%, the origin within 2 px.
"""

from __future__ import annotations

import math
import statistics

import pytest

from gazala_tools.digitize.calibrate import Ref, calibrate
from gazala_tools.digitize.lattice import LatticeFit, detect_grid, number_lattice
from gazala_tools.hexgrid import HexGridGeometry
from gazala_tools.numbering import Numbering
from tools.scans.harsh import HarshScan, harsh_scan

RG = Numbering()  # VASSAL's default, also RG's


def errors(fit: LatticeFit, scan: HarshScan) -> tuple[float, float, float]:
    """(dx error %, dy error %, px from the reported centre to the nearest true hex centre)."""
    return (
        abs(fit.dx / scan.dx - 1) * 100,
        abs(fit.dy / scan.dy - 1) * 100,
        scan.nearest_centre_error(fit.cx, fit.cy),
    )


def within_acceptance(fit: LatticeFit, scan: HarshScan) -> bool:
    edx, edy, eo = errors(fit, scan)
    return fit.sideways == scan.sideways and edx <= 0.5 and edy <= 0.5 and eo <= 2.0


# Seeds that once failed (a margin chart's ruling won the autocorrelation; texture made many
# stronger but broad peaks; dense art and rivers moved the folded honeycomb's phase), both
# orientations, hexes from 40 to 139 px: each must meet every threshold, not only count in the batch.
ONCE_FAILED = [0, 3, 7, 11, 17, 25]


def regression(seed: int, fit: LatticeFit, scan: HarshScan) -> list[str]:
    """What a seed that once failed gets wrong: orientation, dx/dy over 0.5%, the origin over 2 px, the
    rotation over 0.15 degrees off, a confidence of 0.3 or less."""
    edx, edy, eo = errors(fit, scan)
    wrong = {
        "orientation": fit.sideways != scan.sideways,
        f"dx {edx:.3f}% dy {edy:.3f}%": edx > 0.5 or edy > 0.5,
        f"origin {eo:.2f} px": eo > 2.0,
        f"rotation {fit.rotation:.3f} for {scan.rotation:.3f}": abs(fit.rotation - scan.rotation) > 0.15,
        f"confidence {fit.confidence:.2f}": fit.confidence <= 0.3,
    }
    return [f"seed {seed}: {what}" for what, bad in wrong.items() if bad]


@pytest.mark.slow
def test_detect_grid_over_a_batch_of_thirty_harsh_scans() -> None:
    """Issue 12's bar over seeds 0-29: at least 28 within dx, dy 0.5% and the origin 2 px, with small
    median errors; and every seed that once failed meets every threshold."""
    results = []
    wrong: list[str] = []
    for seed in range(30):
        scan = harsh_scan(seed)
        fit = detect_grid(scan.image)
        results.append((within_acceptance(fit, scan), *errors(fit, scan)))
        if seed in ONCE_FAILED:
            wrong += regression(seed, fit, scan)
    assert wrong == []
    passed = sum(1 for r in results if r[0])
    # measured: 29 of 30 (seed 20, the faintest grid, is 0.53% off in dy)
    assert passed >= 28
    assert statistics.median(r[1] for r in results) < 0.05
    assert statistics.median(r[2] for r in results) < 0.05
    assert statistics.median(r[3] for r in results) < 0.6


@pytest.mark.slow
@pytest.mark.parametrize("seed", [108, 105, 119])
def test_second_opinion_lattices_fix_an_unrotated_scan_and_keep_true_low_confidence_fits(seed: int) -> None:
    """Unrotated: on 108 a spurious lattice (margin ruling, text lines) wins the autocorrelation and
    another candidate lattice fits far better; on 105 and 119 the first fit is right but of low
    confidence, and a wrong candidate with a higher confidence but loose centres must not replace it."""
    scan = harsh_scan(seed, rotation=0.0, integer_origin=True)
    fit = detect_grid(scan.image)
    assert within_acceptance(fit, scan), errors(fit, scan)


def vassal_truth(scan: HarshScan, h_off: int) -> HexGridGeometry:
    """The module's grid for an unrotated harsh scan with an integer origin."""
    ox, oy = scan.origin
    x0, y0 = (oy, ox) if scan.sideways else (ox, oy)
    assert x0 == int(x0) and y0 == int(y0)
    return HexGridGeometry(
        dx=scan.dx, dy=scan.dy, x0=int(x0), y0=int(y0), sideways=scan.sideways, numbering=RG.with_(h_off=h_off)
    )


def map_raws(scan: HarshScan, geo: HexGridGeometry) -> list[tuple[int, int]]:
    """Raw indices of hexes whose centre is on the gridded map."""
    bx0, by0, bx1, by1 = scan.map_box
    out = []
    for c in range(0, 40):
        for r in range(0, 40):
            x, y = geo.raw_center(c, r)
            if bx0 < x < bx1 and by0 < y < by1:
                out.append((c, r))
    return out


@pytest.mark.slow
@pytest.mark.parametrize(
    ("seed", "sideways", "hex_px", "h_off"),
    [(101, False, 57.3, 1), (105, True, 83.6, 0), (103, False, 121.7, 0), (112, True, 97.4, 1)],
)
def test_one_reference_gives_vassal_x0_y0_within_two_pixels(seed: int, sideways: bool, hex_px: float, h_off: int) -> None:
    """With one --ref the origin is VASSAL's: the centre of raw hex (0, 0), integers."""
    scan = harsh_scan(seed, sideways=sideways, hex_px=hex_px, rotation=0.0, integer_origin=True)
    truth = vassal_truth(scan, h_off)
    assert truth.numbering is not None
    fit = detect_grid(scan.image)
    raws = map_raws(scan, truth)
    c, r = raws[len(raws) // 2]
    label = truth.numbering.name(c, r, sideways=sideways)
    x, y = scan.centre(c, r)
    geo, used = number_lattice(fit, truth.numbering, label, x + 0.2 * scan.dx, y - 0.1 * scan.dy)  # a click inside the hex
    assert used == truth.numbering
    assert isinstance(geo.x0, int) and isinstance(geo.y0, int)
    assert abs(geo.x0 - truth.x0) <= 2 and abs(geo.y0 - truth.y0) <= 2
    assert max(math.dist(geo.raw_center(*cr), truth.raw_center(*cr)) for cr in raws) <= 2.5


@pytest.mark.slow
@pytest.mark.parametrize(("seed", "sideways", "hex_px"), [(113, False, 66.1), (112, True, 97.4)])
def test_calibrate_from_two_refs_on_a_harsh_scan_within_a_pixel(seed: int, sideways: bool, hex_px: float) -> None:
    scan = harsh_scan(seed, sideways=sideways, hex_px=hex_px, rotation=0.0, integer_origin=True)
    truth = vassal_truth(scan, 1)
    assert truth.numbering is not None
    raws = map_raws(scan, truth)
    first, last = min(raws), max(raws, key=lambda cr: (cr[0], cr[1] * (cr[0] % 2 == 0)))
    # the user clicks the printed centres (to the nearest pixel)
    refs = [
        Ref(truth.numbering.name(c, r, sideways=sideways), *(round(v) for v in scan.centre(c, r))) for c, r in (first, last)
    ]
    fit = detect_grid(scan.image)
    cal = calibrate(refs, RG, shape_hint=(fit.dx / fit.dy, fit.sideways))
    assert cal.geometry.sideways == sideways
    worst = max(
        max(abs(p - q) for p, q in zip(cal.geometry.raw_center(*cr), truth.raw_center(*cr), strict=True)) for cr in raws
    )
    assert worst <= 1.0
