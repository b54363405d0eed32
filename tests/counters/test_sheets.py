"""Counter-sheet PDFs measured the way a printer sees them: rasterised with pdftoppm.

The crop marks are found on the rendered page (no layout knowledge): the distance between the two
marks of one counter is its size; the colour under each front, on the flipped backs page, is its back.
"""

from __future__ import annotations

import itertools
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gazala_tools.counters import load_manifest, parse_manifest
from gazala_tools.render.sheets import PAGE_SIZES_MM, plan_layout, write_sheet

DPI = 600


def _sizes(xs: list[float]) -> tuple[list[float], list[float]]:
    """Counter widths and gutters from alternating cut lines (left, right, left, right...)."""
    return [b - a for a, b in zip(xs[0::2], xs[1::2], strict=False)], [
        b - a for a, b in zip(xs[1::2], xs[2::2], strict=False)
    ]


@pytest.mark.parametrize(
    ("game", "page", "nominal"), [("gazala-rg", "a4", 15.875), ("batalha", "letter", 12.7)]
)
def test_counter_size_measured_from_crop_marks_within_0_1_mm(
    pdf: Any, tmp_pdf: Path, game: str, page: str, nominal: float
) -> None:
    m = load_manifest(game)
    summary = write_sheet(m.counters, tmp_pdf, page=page, dpi=150)
    page_px = pdf.rasterize(tmp_pdf, 1, 100)
    w_mm, h_mm = PAGE_SIZES_MM[page]
    assert abs(page_px.shape[0] - h_mm / 25.4 * 100) < 1 and abs(page_px.shape[1] - w_mm / 25.4 * 100) < 1
    xs, ys = pdf.crop_marks_of(tmp_pdf, 1, DPI)
    widths, gutters = _sizes(xs)
    heights, _ = _sizes(ys)
    assert len(widths) >= 5 and len(heights) >= 5
    assert max(abs(w - nominal) for w in widths + heights) < 0.1
    assert max(abs(g - 2.0) for g in gutters) < 0.1  # bleed 1 mm each side
    pitches = [b - a for a, b in itertools.pairwise(xs[0::2])] + [
        b - a for a, b in itertools.pairwise(ys[0::2])
    ]
    assert max(abs(p - (nominal + 2.0)) for p in pitches) < 0.1
    assert len(widths) * len(heights) == summary.per_page


def test_size_override_5_8_in_for_a_half_inch_game(pdf: Any, tmp_pdf: Path) -> None:
    m = load_manifest("cauldron-dg")
    write_sheet(m.counters[:20], tmp_pdf, size_mm=15.875, dpi=100, bleed_mm=0.0)
    xs, _ = pdf.crop_marks_of(tmp_pdf, 1, DPI)
    # no bleed, no gutter: neighbours share a cut line
    assert max(abs(b - a - 15.875) for a, b in itertools.pairwise(xs)) < 0.1


def test_pdf_page_is_exactly_a4_or_letter(tmp_pdf: Path) -> None:
    m = load_manifest("batalha")
    for page, (w, h) in (("a4", (595.2756, 841.8898)), ("letter", (612.0, 792.0))):
        write_sheet(m.counters[:4], tmp_pdf, page=page, dpi=50)
        box = re.search(rb"/MediaBox \[ *0 0 ([0-9.]+) ([0-9.]+) *\]", tmp_pdf.read_bytes())
        assert box is not None
        assert (float(box.group(1)), float(box.group(2))) == pytest.approx((w, h), abs=1e-3)


def _colour_manifest(n: int):  # type: ignore[no-untyped-def]
    """n markers, each one flat colour on both faces, all colours different."""
    rng = np.random.default_rng(7)
    lines = ["game: colours", "counter_size: 5/8 in", "markers:"]
    colours = set()
    while len(colours) < n:
        colours.add(tuple(int(v) for v in rng.integers(30, 226, size=3)))
    for i, (r, g, b) in enumerate(sorted(colours)):
        lines.append(f"  - {{id: c{i}, front: {{color: '#{r:02x}{g:02x}{b:02x}'}}}}")
    return parse_manifest("\n".join(lines) + "\n")


def _cells(xs: list[float], ys: list[float]) -> list[tuple[float, float]]:
    cx = [(a + b) / 2 for a, b in zip(xs[0::2], xs[1::2], strict=False)]
    cy = [(a + b) / 2 for a, b in zip(ys[0::2], ys[1::2], strict=False)]
    return [(x, y) for y in cy for x in cx]


def _at(page: np.ndarray, x_mm: float, y_mm: float, dpi: int) -> tuple[int, ...]:
    k = dpi / 25.4
    return tuple(int(v) for v in page[round(y_mm * k), round(x_mm * k)])


@pytest.mark.parametrize("offset", [(0.0, 0.0), (1.5, -0.8)])
def test_back_of_counter_k_lands_under_front_k_after_long_edge_flip(
    pdf: Any, tmp_pdf: Path, offset: tuple[float, float]
) -> None:
    m = _colour_manifest(24)
    write_sheet(m.counters, tmp_pdf, dpi=60, back_offset_mm=offset)
    dpi = 150
    front = pdf.rasterize_rgb(tmp_pdf, 1, dpi)
    back = pdf.rasterize_rgb(tmp_pdf, 2, dpi)
    flipped = back[:, ::-1]  # long-edge flip of a portrait sheet: left and right swap
    xs, ys = pdf.crop_marks_of(tmp_pdf, 1, DPI)
    cells = _cells(xs, ys)
    seen = []
    dx, dy = offset
    for x, y in cells:
        f = _at(front, x, y, dpi)
        if f == (255, 255, 255):
            continue  # empty cell
        # the printer adds the calibration offset on the backs page: undo it to compare
        w_mm = PAGE_SIZES_MM["a4"][0]
        b = _at(back, w_mm - x + dx, y + dy, dpi)
        assert _at(flipped, x - dx, y + dy, dpi) == b
        assert b == f, (x, y)
        seen.append(f)
    assert len(seen) == 24 == len(set(seen))  # every counter once, each its own colour
    # and the backs page's crop marks moved by exactly the offset
    bxs, bys = pdf.crop_marks_of(tmp_pdf, 2, DPI)
    w_mm = PAGE_SIZES_MM["a4"][0]
    assert sorted(w_mm - x for x in xs) == pytest.approx([x - dx for x in bxs], abs=0.1)
    assert ys == pytest.approx([y - dy for y in bys], abs=0.1)


def test_fold_over_backs_mirror_fronts_about_the_fold_line(pdf: Any, tmp_pdf: Path) -> None:
    m = _colour_manifest(12)
    summary = write_sheet(m.counters, tmp_pdf, dpi=60, layout="fold")
    assert summary.pages == 1
    dpi = 150
    page = pdf.rasterize_rgb(tmp_pdf, 1, dpi)
    xs, ys = pdf.crop_marks_of(tmp_pdf, 1, DPI)
    w_mm = PAGE_SIZES_MM["a4"][0]
    left = [(x, y) for x, y in _cells(xs, ys) if x < w_mm / 2]
    found = 0
    for x, y in left:
        f = _at(page, x, y, dpi)
        if f != (255, 255, 255):
            assert _at(page, w_mm - x, y, dpi) == f
            found += 1
    assert found == 12


def test_rg_duplex_sheet_has_fronts_then_backs(tmp_pdf: Path) -> None:
    m = load_manifest("gazala-rg")
    s = write_sheet(m.counters, tmp_pdf, dpi=100)
    assert s.pages == 4 and s.counters == 168
    assert tmp_pdf.read_bytes().count(b"/Type /Page\n") + tmp_pdf.read_bytes().count(b"/Type /Page ") >= 4


@settings(max_examples=60, deadline=None)
@given(
    size=st.floats(8, 30),
    bleed=st.floats(0, 3),
    page=st.sampled_from(["a4", "letter"]),
    layout=st.sampled_from(["duplex", "fold"]),
    n=st.integers(1, 400),
)
def test_layout_cells_fit_the_page_never_overlap_and_mirror(
    size: float, bleed: float, page: str, layout: str, n: int
) -> None:
    lay = plan_layout(size_mm=size, page=page, layout=layout, bleed_mm=bleed)
    cells = lay.cells(n)
    assert len(cells) == 2 * n
    for c in cells:
        assert bleed <= c.x - 0 and c.x + size + bleed <= lay.page_w
        assert c.y - bleed >= 0 and c.y + size + bleed <= lay.page_h
    fronts = {c.counter: c for c in cells if c.side == "front"}
    for c in cells:
        if c.side == "back":
            f = fronts[c.counter]
            assert f.x + c.x + size == pytest.approx(lay.page_w) and f.y == c.y
            assert c.page == f.page + (1 if layout == "duplex" else 0)
    by_page: dict[int, list[tuple[float, float]]] = {}
    for c in cells:
        by_page.setdefault(c.page, []).append((c.x, c.y))
    for pts in by_page.values():
        assert len(set((round(x, 6), round(y, 6)) for x, y in pts)) == len(pts)
        xs = sorted({round(x, 6) for x, _ in pts})
        assert all(b - a >= size + 2 * bleed - 1e-6 for a, b in itertools.pairwise(xs))



def test_a_sheet_keeps_the_faces_of_one_page_only(tmp_pdf: Path) -> None:
    """Issue 26 item 1: memory does not grow with the counters. A face drawn for a page is let go
    once the page is done (the PDF shares identical images by itself): while page 3 is drawn, no
    face image of page 1 is alive."""
    import gc
    import weakref

    from gazala_tools.render.counters import counter_face

    counters = list(load_manifest("gazala-rg").counters)
    per_page = plan_layout(size_mm=counters[0].size_mm, page="a4", layout="duplex").per_sheet
    assert len(counters) > per_page  # RG's 168 counters: two sheets, four pages (fronts, backs, fronts, backs)
    first_page: list[weakref.ref[Any]] = []
    drawn = [0]
    alive_on_page_3: list[int] = []

    def face(*args: Any, **kw: Any) -> Any:
        img = counter_face(*args, **kw)
        if drawn[0] < per_page:
            first_page.append(weakref.ref(img))
        return img

    def progress(n: int) -> None:
        drawn[0] += n
        if drawn[0] == 2 * per_page + 1:  # the first face of page 3 is drawn
            gc.collect()
            alive_on_page_3.append(sum(ref() is not None for ref in first_page))

    write_sheet(counters, tmp_pdf, dpi=75, face=face, progress=progress)
    assert len(first_page) >= per_page // 2 and alive_on_page_3 == [0]
