"""Sheets and contact sheets written as they are drawn (issue 26 item 1): a page's images leave
memory once the page is done, the PDF goes to its file object by object, the contact sheet's PNG row
of faces by row of faces, and what is written is what the whole-document way gave.

(Peak memory at 10,000 counters is measured in ``benchmarks/bench_memory.py``, not here.)
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from gazala_tools.counters import load_manifest
from gazala_tools.render import sheets
from gazala_tools.render.counters import contact_sheet, write_contact_sheet
from gazala_tools.render.pngstream import PngStream
from gazala_tools.render.sheets import write_sheet


def _xref_offsets(pdf: bytes) -> dict[int, int]:
    start = int(re.findall(rb"startxref\s+(\d+)", pdf)[-1])
    lines = pdf[start:].split(b"\n")
    first, count = (int(x) for x in lines[1].split())
    return {first + i: int(line[:10]) for i, line in enumerate(lines[2 : 2 + count]) if line[17:18] == b"n"}


def test_every_object_of_a_streamed_sheet_is_where_the_cross_reference_table_says(tmp_path: Path) -> None:
    out = tmp_path / "rg.pdf"
    write_sheet(load_manifest("gazala-rg").counters[:60], out, dpi=100)
    pdf = out.read_bytes()
    offsets = _xref_offsets(pdf)
    assert len(offsets) > 60
    for number, at in offsets.items():
        assert pdf[at:].startswith(f"{number} 0 obj".encode()), number


def test_a_face_on_several_pages_is_one_image_and_images_leave_memory_page_by_page(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    m = load_manifest("gazala-rg")
    same = [m.counters[0]] * 200  # more than one sheet of the same counter
    in_memory: list[int] = []
    spool = sheets._spool_images

    def watched(canvas, *args):  # type: ignore[no-untyped-def]
        at = spool(canvas, *args)
        in_memory.append(sum(len(getattr(o, "streamContent", b"")) for o in canvas._doc.idToObject.values()))
        return at

    monkeypatch.setattr(sheets, "_spool_images", watched)
    out = tmp_path / "same.pdf"
    summary = write_sheet(same, out, dpi=100)
    assert summary.pages >= 4
    assert in_memory == [0] * summary.pages  # after each page, no image data is left in the document
    assert out.read_bytes().count(b"/Subtype /Image") == 2  # its front and its back, shared by every page


def test_a_failed_sheet_leaves_no_file(tmp_path: Path) -> None:
    m = load_manifest("gazala-rg")

    def broken(*_args: object, **_kwargs: object) -> Image.Image:
        raise RuntimeError("the renderer broke")

    out = tmp_path / "sheet.pdf"
    with pytest.raises(RuntimeError):
        write_sheet(m.counters, out, face=broken)
    assert list(tmp_path.iterdir()) == []


def test_the_written_contact_sheet_has_the_pixels_of_the_one_in_memory() -> None:
    cs = load_manifest("gazala-rg").counters[:23]
    buf = io.BytesIO()
    width, height, n_bytes = write_contact_sheet(cs, buf, dpi=50, columns=5, gap_px=3)
    written = Image.open(io.BytesIO(buf.getvalue()))
    assert (written.width, written.height, n_bytes) == (width, height, len(buf.getvalue()))
    assert ImageChops.difference(written.convert("RGB"), contact_sheet(cs, dpi=50, columns=5, gap_px=3)).getbbox() is None


def test_a_png_stream_refuses_a_band_of_another_width_and_a_missing_row() -> None:
    png = PngStream(io.BytesIO(), 10, 4)
    with pytest.raises(ValueError, match="band of 9 pixels"):
        png.add(Image.new("RGB", (9, 2)))
    png.add(Image.new("RGB", (10, 3)))
    with pytest.raises(ValueError, match="3 rows written of a 4-row PNG"):
        png.close()
