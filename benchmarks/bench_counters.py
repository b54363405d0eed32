"""Counter faces per second and the RG duplex counter-sheet PDF at 300 dpi (budget <= 2 s).

Baseline measured in the same run: plain Pillow, i.e. what a script without this toolkit does:
faces drawn directly at print size (no supersampling: frame, X, text) and pasted onto 300-dpi page
rasters saved with Pillow's own PDF writer (``Image.save(..., save_all=True)``).

pywargame (0.8.0 runs under Python 3.12 in .cache/pywargame-venv) is not a usable baseline: it does
not draw counters. Its LaTeX exporter takes counter images from a PDF typeset with the LaTeX
``wargame`` package (pdflatex is not installed here) and rasterises them with pdftocairo, one
subprocess per face; there is nothing in it to time against a face renderer.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from PIL import Image, ImageDraw

from benchmarks.common import Result, best_of, size
from gazala_tools.counters import load_manifest
from gazala_tools.render.counters import FONT_BOLD, face_pixels, font, render_face
from gazala_tools.render.sheets import write_sheet

DPI = 300


def _plain_face(px: int, colour: str, text: str) -> Image.Image:
    img = Image.new("RGB", (px, px), colour)
    d = ImageDraw.Draw(img)
    d.rectangle([px * 0.29, px * 0.21, px * 0.71, px * 0.47], fill="white", outline="black", width=4)
    d.line([(px * 0.29, px * 0.21), (px * 0.71, px * 0.47)], fill="black", width=4)
    d.line([(px * 0.29, px * 0.47), (px * 0.71, px * 0.21)], fill="black", width=4)
    d.text((px / 2, px * 0.8), text, font=font(FONT_BOLD, int(px * 0.22)), fill="black", anchor="mm")
    return img


def _plain_sheet(faces: list[Image.Image], path: Path) -> None:
    page_w, page_h = round(210 / 25.4 * DPI), round(297 / 25.4 * DPI)
    px = faces[0].width
    pitch = px + 24
    cols, rows = (page_w - 240) // pitch, (page_h - 300) // pitch
    pages: list[Image.Image] = []
    for start in range(0, len(faces), 2 * cols * rows):
        for side in (0, 1):
            page = Image.new("RGB", (page_w, page_h), "white")
            chunk = faces[start + side : start + 2 * cols * rows : 2]
            for i, f in enumerate(chunk):
                r, c = divmod(i, cols)
                x = 120 + c * pitch if side == 0 else page_w - 120 - (c + 1) * pitch
                page.paste(f, (x, 150 + r * pitch))
            pages.append(page)
    pages[0].save(path, "PDF", resolution=DPI, save_all=True, append_images=pages[1:])


def run() -> list[Result]:
    m = load_manifest("gazala-rg")
    counters = list(m.counters)[: size(None, 8)]
    n_faces = 2 * len(counters)
    px = face_pixels(m.counter_size_mm, DPI)

    def ours() -> None:
        for c in counters:
            render_face(c, "front", dpi=DPI)
            render_face(c, "back", dpi=DPI)

    def plain() -> None:
        for c in counters:
            _plain_face(px, c.color, c.designation or c.front.title)
            _plain_face(px, c.color, c.designation or c.back.title)

    def ours_1x() -> None:
        for c in counters:
            render_face(c, "front", dpi=DPI, supersample=1)
            render_face(c, "back", dpi=DPI, supersample=1)

    ours()  # warm font caches
    t_ours = best_of(ours, 3)
    t_ours_1x = best_of(ours_1x, 3)
    t_plain = best_of(plain, 3)
    results = [
        Result(
            "RG faces at 300 dpi (supersampled 2x)", n_faces / t_ours, "faces/s",
            baseline="plain Pillow faces (no supersampling, simpler art)", baseline_value=n_faces / t_plain,
            ratio=t_plain / t_ours, note="ratio = our rate / baseline rate",
        ),
        Result(
            "RG faces at 300 dpi, no supersampling (as the PDF sheet draws them)", n_faces / t_ours_1x, "faces/s",
            baseline="plain Pillow faces", baseline_value=n_faces / t_plain, ratio=t_plain / t_ours_1x,
            note="ratio = our rate / baseline rate",
        ),
    ]  # fmt: skip
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "rg.pdf"
        t_pdf = best_of(lambda: write_sheet(counters, out, dpi=DPI), 3)
        c0 = time.process_time()
        write_sheet(counters, out, dpi=DPI)
        cpu_pdf = time.process_time() - c0
        pdf_bytes = out.stat().st_size
        base = Path(tmp) / "plain.pdf"

        def plain_pdf() -> None:
            faces = [
                _plain_face(px, c.color, c.designation or c.front.title) for c in counters for _ in (0, 1)
            ]
            _plain_sheet(faces, base)

        t_base = best_of(plain_pdf, 3)
    results.append(
        Result(
            "RG duplex sheet PDF, 168 counters, 300 dpi faces",
            t_pdf,
            "s",
            budget="<= 2 s",
            ok=t_pdf <= 2.0,
            baseline="plain Pillow: page rasters + Image.save(PDF)",
            baseline_value=t_base,
            ratio=t_base / t_pdf,
            note=f"ratio = baseline time / ours; ours {pdf_bytes / 1e6:.1f} MB with vector crop marks, "
            f"{cpu_pdf:.2f} s CPU (wall time suffers when the machine is loaded)",
        )
    )
    return results
