"""Issue 12 item 2: faint grids, strong cluster outlines, notched frames, small images (tools.scans.faint).

Held-out seeds 100-105 (`python -m tools.scans.faint 100 106`) are measured in docs/digitize.md;
the issue's bar (>= 95% right, every wrong one below confidence 0.3) is not met yet. Here: what the
thin-line evidence and the map area already fix.
"""

from __future__ import annotations

import pytest

from gazala_tools.digitize.image import factor_for
from gazala_tools.digitize.lattice import _reducer, detect_grid, map_area
from tools.scans.faint import faint_scan


def within_acceptance(seed: int, kind: str) -> tuple[bool, float]:
    scan = faint_scan(seed, kind)
    fit = detect_grid(scan.image)
    ok = (
        fit.sideways == scan.sideways
        and abs(fit.dx / scan.dx - 1) <= 0.005
        and abs(fit.dy / scan.dy - 1) <= 0.005
        and scan.nearest_centre_error(fit.cx, fit.cy) <= 2.0
    )
    return ok, fit.confidence


# small images whose gradients (hex numbers, terrain) once decided a wrong phase: thin lines fix them
@pytest.mark.parametrize("seed", [100, 101])
def test_small_images_with_faint_1px_grids_are_read_on_thin_line_evidence(seed: int) -> None:
    ok, confidence = within_acceptance(seed, "small")
    assert ok and confidence > 0.3


@pytest.mark.parametrize("seed", [100, 101, 102, 103])
def test_the_map_area_leaves_out_a_notched_frame_and_keeps_the_map(seed: int) -> None:
    scan = faint_scan(seed, "notched")
    grey_at = _reducer(scan.image)
    f = factor_for(grey_at.shape, 1400)
    x0, y0, x1, y1 = (v * f for v in map_area(grey_at(f)))
    bx0, by0, bx1, by1 = scan.map_box  # the map starts 2 px inside the frame
    frame = bx0 - 2
    notch = 0.6 * frame
    assert bx0 - 4 <= x0 <= bx0 + notch + 4 and by0 - 4 <= y0 <= by0 + notch + 4
    assert bx1 - notch - 4 <= x1 <= bx1 + 4 and by1 - notch - 4 <= y1 <= by1 + 4


def test_a_scan_without_a_frame_keeps_its_whole_area() -> None:
    scan = faint_scan(100, "faint")
    grey_at = _reducer(scan.image)
    assert map_area(grey_at(1)) == (0, 0, scan.image.width, scan.image.height)
