"""Issue 12 item 3: a rotated and sheared scan is straightened so that a VASSAL grid fits it."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from PIL import Image

from gazala_tools.cli import main
from gazala_tools.digitize.deskew import deskew
from gazala_tools.digitize.lattice import detect_grid
from tools.scans.synthetic import SyntheticBoard


def warp(img: Image.Image, rotation: float, shear: float) -> Image.Image:
    """Rotate and shear (degrees) about the image centre, as a skewed scanner would."""
    th, sh = math.radians(rotation), math.tan(math.radians(shear))
    a, b, d, e = math.cos(th), -math.sin(th) + sh, math.sin(th), math.cos(th)
    cx, cy = img.width / 2, img.height / 2
    data = (a, b, cx - a * cx - b * cy, d, e, cy - d * cx - e * cy)
    return img.convert("RGB").transform(img.size, Image.Transform.AFFINE, data, resample=Image.Resampling.BICUBIC, fillcolor=(255, 255, 255))


@pytest.mark.slow
@pytest.mark.parametrize("board", ["flat_board", "pointy_board"])
def test_deskew_removes_rotation_and_shear_and_the_vassal_grid_then_fits(board: str, request: pytest.FixtureRequest) -> None:
    b: SyntheticBoard = request.getfixturevalue(board)
    floor = detect_grid(b.image).grid_rms_px  # the straight board's own residual
    result = deskew(warp(b.image, 0.4, 0.5))
    assert abs(result.shear) == pytest.approx(0.5, abs=0.1)
    assert result.before.grid_rms_px > 2 * floor  # the skew is measurable
    assert abs(result.after.rotation) < 0.05
    assert result.after.grid_rms_px < 1.25 * floor
    assert result.after.dx == pytest.approx(b.geometry.dx, rel=0.002)
    assert result.after.dy == pytest.approx(b.geometry.dy, rel=0.002)


def test_cli_deskew_writes_the_straight_image_and_reports_the_residual(
    flat_board: SyntheticBoard, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    scan = tmp_path / "skewed.png"
    warp(flat_board.image, -0.5, 0.3).save(scan)
    out = tmp_path / "straight.png"
    assert main(["digitize", "deskew", str(scan), "-o", str(out), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["residual_rms_px"] < data["grid_rms_before_px"]
    assert abs(data["rotation_after_deg"]) < 0.05
    with Image.open(out) as im:
        assert im.size == flat_board.image.size


@pytest.mark.slow
def test_deskew_from_file_to_file_equals_the_whole_image_method(flat_board: SyntheticBoard, tmp_path: Path) -> None:
    """The command line straightens a scan in strips, streamed into the PNG, detecting on grey
    levels: the same fits and the same pixels as deskew() on the whole image in memory; the scan's
    dpi is kept."""
    import numpy as np

    from gazala_tools.digitize.deskew import deskew_file

    skewed = warp(flat_board.image, 0.6, -0.4)
    scan = tmp_path / "skewed.png"
    skewed.save(scan, dpi=(300, 300))
    whole = deskew(skewed)
    out = tmp_path / "straight.png"
    result = deskew_file(scan, out)
    assert result.image is None
    assert result.as_dict() == whole.as_dict()
    assert whole.image is not None
    with Image.open(out) as im:
        assert np.array_equal(np.asarray(im), np.asarray(whole.image))
        assert round(im.info["dpi"][0]) == 300


def test_cli_deskew_refuses_a_bad_output_before_working(flat_board: SyntheticBoard, tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip

    scan = tmp_path / "skewed.png"
    warp(flat_board.image, -0.5, 0.3).save(scan)
    before = scan.read_bytes()
    for out, why in ((scan, "overwrite an input"), (tmp_path, "is a directory")):
        assert main(["digitize", "deskew", str(scan), "-o", str(out)]) == 2
        err = capsys.readouterr().err
        assert why in err and err.count("\n") == 1  # one line, no traceback
    assert scan.read_bytes() == before and sorted(p.name for p in tmp_path.iterdir()) == ["skewed.png"]
