"""Helpers for the counter tests: rasterise PDF pages with pdftoppm and find crop marks on them."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

MM_PER_IN = 25.4


def rasterize(pdf: Path, page: int, dpi: int, crop: tuple[int, int, int, int] | None = None) -> np.ndarray:
    """Page ``page`` (1-based) of ``pdf`` as a grey-level array, via poppler's pdftoppm.

    ``crop=(x, y, w, h)`` in pixels renders only that area (pdftoppm -x -y -W -H); the array is
    then the page's top-left part up to x+w, y+h, white outside the area.
    """
    exe = shutil.which("pdftoppm")
    if exe is None:
        pytest.fail("pdftoppm not found: install poppler-utils (scripts/setup)")
    args = [exe, "-r", str(dpi), "-f", str(page), "-l", str(page), "-gray", "-png", "-singlefile"]
    if crop is not None:
        args += ["-x", str(crop[0]), "-y", str(crop[1]), "-W", str(crop[2]), "-H", str(crop[3])]
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "p"
        subprocess.run([*args, str(pdf), str(out)], check=True, capture_output=True)
        img = np.asarray(Image.open(out.with_suffix(".png")).convert("L"), dtype=np.uint8)
    if crop is None:
        return img
    full = np.full((crop[1] + img.shape[0], crop[0] + img.shape[1]), 255, dtype=np.uint8)
    full[crop[1] :, crop[0] :] = img
    return full


def crop_marks_of(
    pdf: Path, page: int, dpi: int = 600, margin_mm: float = 40.0
) -> tuple[list[float], list[float]]:
    """:func:`crop_marks` of a page, rendering only its top and left margins (fast at high dpi)."""
    k = dpi / MM_PER_IN
    m = round(margin_mm * k)
    big = round(400 * k)
    top = rasterize(pdf, page, dpi, crop=(0, 0, big, m))
    left = rasterize(pdf, page, dpi, crop=(0, 0, m, big))
    xs, _ = crop_marks(top, dpi)
    _, ys = crop_marks(left, dpi)
    return xs, ys


def rasterize_rgb(pdf: Path, page: int, dpi: int) -> np.ndarray:
    exe = shutil.which("pdftoppm")
    assert exe is not None
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "p"
        subprocess.run(
            [
                exe,
                "-r",
                str(dpi),
                "-f",
                str(page),
                "-l",
                str(page),
                "-png",
                "-singlefile",
                str(pdf),
                str(out),
            ],
            check=True,
            capture_output=True,
        )
        return np.asarray(Image.open(out.with_suffix(".png")).convert("RGB"), dtype=np.uint8)


def _runs(profile: np.ndarray) -> list[float]:
    """Centres (weighted by darkness) of the runs where ``profile`` > 0."""
    centres: list[float] = []
    idx = np.flatnonzero(profile > 0)
    if idx.size == 0:
        return centres
    splits = np.flatnonzero(np.diff(idx) > 1) + 1
    for run in np.split(idx, splits):
        w = profile[run].astype(float)
        centres.append(float((run * w).sum() / w.sum()) + 0.5)
    return centres


def crop_marks(page: np.ndarray, dpi: int, *, dark: int = 160) -> tuple[list[float], list[float]]:
    """The x (from the top marks) and y (from the left marks) of every crop mark, in mm.

    Nothing is printed above the top crop marks or left of the left ones, so the first dark rows
    of the page are the top marks and the first dark columns the left marks: no layout knowledge.
    """
    ink = np.clip(dark - page.astype(int), 0, None)
    px_per_mm = dpi / MM_PER_IN
    rows = np.flatnonzero(ink.sum(axis=1) > 0)
    top = int(rows[0])
    band = ink[top + 2 : top + int(2 * px_per_mm)]
    xs = [c / px_per_mm for c in _runs(band.sum(axis=0))]
    cols = np.flatnonzero(ink.sum(axis=0) > 0)
    left = int(cols[0])
    band_v = ink[:, left + 2 : left + int(2 * px_per_mm)]
    ys = [r / px_per_mm for r in _runs(band_v.sum(axis=1))]
    return xs, ys


@pytest.fixture()
def tmp_pdf(tmp_path: Path) -> Path:
    return tmp_path / "sheet.pdf"


class PdfTools:
    """The helpers above as a fixture (tests cannot import conftest under --import-mode=importlib)."""

    rasterize = staticmethod(rasterize)
    rasterize_rgb = staticmethod(rasterize_rgb)
    crop_marks = staticmethod(crop_marks)
    crop_marks_of = staticmethod(crop_marks_of)


@pytest.fixture(scope="session")
def pdf() -> PdfTools:
    return PdfTools()
