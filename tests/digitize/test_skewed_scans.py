"""Issue 12 items 3 and 5: scans rotated and sheared by about half a degree (``tools.scans.skewed``).

The issue's real case: a scan rotated and sheared by about 0.5 degrees had the right pitch but
its hex centres 6-8 px off the VASSAL grid. detect-grid fits the affine lattice (rotation and
shear), and ``deskew`` straightens the scan so that the VASSAL grid found on it lies on the hexes.
"""

from __future__ import annotations

import numpy as np
import pytest

from gazala_tools.digitize.deskew import deskew
from gazala_tools.digitize.lattice import detect_grid
from tools.scans.skewed import Lattice, evaluate, skewed_scan


def test_the_truth_of_a_skewed_scan_is_where_its_hexes_are_drawn() -> None:
    """The generator's own check: the true lattice carried through the skew is the lattice of the
    drawn centres, and the VASSAL grid without deskew is several pixels off, as in the issue."""
    scan = skewed_scan(500)
    assert float(scan.truth.error(scan.centres).max()) < 1e-6
    assert 0.3 <= abs(scan.rotation) <= 0.7 and 0.2 <= abs(scan.shear) <= 0.6
    lattice = Lattice(scan.truth.o, scan.truth.u * 1.01, scan.truth.v)
    assert float(lattice.error(scan.centres).max()) > 2.0  # a 1% wrong step is seen across the map


@pytest.mark.slow
@pytest.mark.parametrize("seed", [500, 502])
def test_a_skewed_scan_is_fitted_affine_and_deskewed_to_a_vassal_grid_within_a_pixel(seed: int) -> None:
    (row,) = evaluate(range(seed, seed + 1))
    assert row["right"], row
    assert float(row["vassal_before_max_px"]) > 3.0, row  # type: ignore[arg-type]  # the skew matters
    assert float(row["affine_max_px"]) < 1.0 and float(row["vassal_after_max_px"]) < 1.0, row  # type: ignore[arg-type]


@pytest.mark.slow
def test_deskew_reads_the_skew_it_was_given() -> None:
    scan = skewed_scan(501)
    before = detect_grid(scan.image)
    result = deskew(scan.image, fit=before)
    assert abs(result.shear) == pytest.approx(abs(scan.shear), abs=0.1)
    assert abs(result.after.rotation) < 0.05
    assert result.after.grid_rms_px < 0.5 * before.grid_rms_px
    assert np.hypot(*np.array(before.affine[1])) == pytest.approx(np.hypot(*scan.truth.u), rel=0.005)  # type: ignore[index]


@pytest.mark.slow
def test_issue_12_skewed_scans_meet_the_bar() -> None:
    """Seeds 510-529 were held out and measured once (19/20 right, the wrong one at confidence
    0.08; docs/digitize.md); six of them hold the bar here: every one right, or wrong below 0.3."""
    rows = evaluate(range(510, 516))
    assert all(r["right"] or float(r["confidence"]) < 0.3 for r in rows), rows  # type: ignore[arg-type]
    assert sum(bool(r["right"]) for r in rows) >= 5, rows
