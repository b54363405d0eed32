"""Duplex and fold-over counter sheets as PDF (reportlab), at exact physical size.

Geometry is plain data (:class:`SheetLayout`, all lengths in millimetres from the page's top left
corner) and is computed before anything is drawn; :func:`write_sheet` then draws face images and
vector crop marks at those positions.

Duplex (``layout="duplex"``): for each sheet a fronts page, then a backs page. The backs page is the
mirror image of the fronts page about the vertical centre line (``x -> page_width - x - size``), so
after a **long-edge** flip of a portrait page the back of counter k lies under its front. Each face
image is printed upright; only the positions are mirrored. ``back_offset_mm=(dx, dy)`` moves the
whole backs page right by dx and down by dy (as seen on the backs page) to correct a printer's
duplex registration.

Fold-over (``layout="fold"``): one page per sheet, fronts on the left half, backs on the right half
mirrored about the fold line (the page's vertical centre). Cut out the block, fold along the line,
glue.

Counters are ``size_mm`` square, ``gutter_mm`` apart (at least twice the bleed); face images extend
``bleed_mm`` beyond each cut line. Crop marks are hairlines in the margins on the extension of
every cut line, starting 1 mm outside the bleed.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import math
import tempfile
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import IO, Any, Final

from PIL import Image
from reportlab import rl_config
from reportlab.lib.pagesizes import A4, LETTER
from reportlab.lib.utils import ImageReader
from reportlab.pdfbase import pdfdoc, pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

from gazala_tools.counters.model import Counter
from gazala_tools.errors import GazalaError
from gazala_tools.fileio import atomic_open
from gazala_tools.render.counters import FONT_DIR, counter_face

__all__ = [
    "LABEL_FONT",
    "MARK_GAP_MM",
    "MARK_LEN_MM",
    "MARK_WIDTH_PT",
    "PAGE_SIZES_MM",
    "PT_PER_MM",
    "SheetCell",
    "SheetLayout",
    "SheetSummary",
    "log",
    "plan_layout",
    "write_sheet",
]

log = logging.getLogger(__name__)

PT_PER_MM: Final = 72 / 25.4
PAGE_SIZES_MM: Final = {
    "a4": (A4[0] / PT_PER_MM, A4[1] / PT_PER_MM),
    "letter": (LETTER[0] / PT_PER_MM, LETTER[1] / PT_PER_MM),
}
MARK_GAP_MM: Final = 1.0  #: crop marks start this far outside the bleed
MARK_LEN_MM: Final = 4.0
MARK_WIDTH_PT: Final = 0.3
LABEL_FONT: Final = "DejaVuSans"


@dataclass(frozen=True)
class SheetCell:
    """Where one counter is cut from a page: the top-left corner of its cut square, in mm."""

    counter: int  #: index into the counter list
    page: int  #: 0-based page number in the PDF
    x: float
    y: float
    side: str  #: "front" or "back"


@dataclass(frozen=True)
class SheetLayout:
    page_w: float
    page_h: float
    size: float
    gutter: float
    bleed: float
    cols: int  #: counters per row (per half for fold-over)
    rows: int
    x0: float  #: left cut line of the first column (fronts)
    y0: float  #: top cut line of the first row
    layout: str  #: "duplex" or "fold"
    back_dx: float = 0.0
    back_dy: float = 0.0

    @property
    def pitch(self) -> float:
        return self.size + self.gutter

    @property
    def per_sheet(self) -> int:
        return self.cols * self.rows

    def sheets(self, n: int) -> int:
        return max(1, math.ceil(n / self.per_sheet))

    def front_xy(self, slot: int) -> tuple[float, float]:
        r, c = divmod(slot, self.cols)
        return self.x0 + c * self.pitch, self.y0 + r * self.pitch

    def back_xy(self, slot: int) -> tuple[float, float]:
        """The back of slot k: mirrored about the page's vertical centre (long-edge flip / fold line)."""
        x, y = self.front_xy(slot)
        return self.page_w - x - self.size + self.back_dx, y + self.back_dy

    def cells(self, n: int) -> list[SheetCell]:
        out: list[SheetCell] = []
        pages_per_sheet = 2 if self.layout == "duplex" else 1
        for i in range(n):
            sheet, slot = divmod(i, self.per_sheet)
            fx, fy = self.front_xy(slot)
            bx, by = self.back_xy(slot)
            out.append(SheetCell(i, sheet * pages_per_sheet, fx, fy, "front"))
            out.append(SheetCell(i, sheet * pages_per_sheet + pages_per_sheet - 1, bx, by, "back"))
        return out

    def cut_lines(self, side: str) -> tuple[list[float], list[float]]:
        """x of every vertical and y of every horizontal cut line on a page of ``side``."""
        dx, dy = (self.back_dx, self.back_dy) if side == "back" else (0.0, 0.0)
        xs: list[float] = []
        for c in range(self.cols):
            x = self.x0 + c * self.pitch
            xs += [x, x + self.size]
        if side == "back" or self.layout == "fold":
            mirrored = [self.page_w - x + (dx if side == "back" else 0.0) for x in xs]
            xs = mirrored if side == "back" and self.layout == "duplex" else xs + mirrored
        ys = []
        for r in range(self.rows):
            y = self.y0 + r * self.pitch + dy
            ys += [y, y + self.size]
        return sorted(set(round(x, 6) for x in xs)), sorted(set(round(y, 6) for y in ys))


def plan_layout(
    *,
    size_mm: float,
    page: str = "a4",
    layout: str = "duplex",
    bleed_mm: float = 1.0,
    gutter_mm: float | None = None,
    margin_mm: float = 10.0,
    back_offset_mm: tuple[float, float] = (0.0, 0.0),
) -> SheetLayout:
    """The grid that fits the page: centred horizontally, so fronts and backs mirror exactly."""
    if page.lower() not in PAGE_SIZES_MM:
        raise GazalaError(f"page size {page!r} is unknown", expected="a4 or letter")
    if layout not in ("duplex", "fold"):
        raise GazalaError(f"layout {layout!r} is unknown", expected="duplex or fold")
    if size_mm <= 0 or bleed_mm < 0:
        raise GazalaError(f"counter size {size_mm} mm / bleed {bleed_mm} mm", expected="size > 0, bleed >= 0")
    pw, ph = PAGE_SIZES_MM[page.lower()]
    gutter = 2 * bleed_mm if gutter_mm is None else max(gutter_mm, 2 * bleed_mm)
    pitch = size_mm + gutter
    outer = bleed_mm + MARK_GAP_MM + MARK_LEN_MM  # room for bleed and crop marks
    label = 6.0
    avail_h = ph - 2 * margin_mm - 2 * outer - label
    if layout == "duplex":
        avail_w = pw - 2 * margin_mm - 2 * outer
    else:
        avail_w = pw / 2 - margin_mm - outer - (bleed_mm + MARK_GAP_MM + 2.0)
    cols = math.floor((avail_w + gutter) / pitch)
    rows = math.floor((avail_h + gutter) / pitch)
    if cols < 1 or rows < 1:
        raise GazalaError(
            f"{size_mm:.2f} mm counters do not fit on {page}", expected="a smaller counter size"
        )
    grid_w = cols * size_mm + (cols - 1) * gutter
    grid_h = rows * size_mm + (rows - 1) * gutter
    if layout == "duplex":
        x0 = (pw - grid_w) / 2
    else:
        x0 = pw / 2 - (bleed_mm + MARK_GAP_MM + 2.0) - grid_w
    y0 = margin_mm + outer + (avail_h - grid_h) / 2
    if layout == "fold":
        back_offset_mm = (0.0, 0.0)  # fronts and backs share one page: nothing to register
    return SheetLayout(
        page_w=pw, page_h=ph, size=size_mm, gutter=gutter, bleed=bleed_mm, cols=cols, rows=rows,
        x0=x0, y0=y0, layout=layout, back_dx=back_offset_mm[0], back_dy=back_offset_mm[1],
    )  # fmt: skip


@dataclass(frozen=True)
class SheetSummary:
    path: str
    game: str
    layout: str
    page: str
    pages: int
    counters: int
    size_mm: float
    per_page: int
    dpi: float
    bleed_mm: float
    back_offset_mm: tuple[float, float]


class _SpooledImage(pdfdoc.PDFObject):  # type: ignore[misc]
    """An image XObject of a finished page whose compressed pixels wait in a spool file (on disk)
    until the PDF is written: the document keeps only its name and size. Written as reportlab
    writes it, so the bytes are those of an image kept in memory."""

    def __init__(self, image: Any, spool: IO[bytes], at: int) -> None:
        self.image = image
        self.spool = spool
        self.at = at
        data = image.streamContent
        spool.write(data)
        self.n = len(data)
        image.streamContent = b""
        self.width, self.height = image.width, image.height

    def format(self, document: Any) -> bytes:
        self.spool.seek(self.at)
        self.image.streamContent = self.spool.read(self.n)
        try:
            return bytes(self.image.format(document))
        finally:
            self.image.streamContent = b""


def _spool_images(canvas: Canvas, spool: IO[bytes], at: int, done: set[str]) -> int:
    """Move the images of the pages drawn so far out of memory into ``spool`` (from offset ``at``);
    returns the new end offset."""
    objects = canvas._doc.idToObject
    for name in [k for k in objects if k not in done and k.startswith("FormXob.")]:
        obj = objects[name]
        if isinstance(obj, pdfdoc.PDFImageXObject):
            objects[name] = spooled = _SpooledImage(obj, spool, at)
            at += spooled.n
        done.add(name)
    return at


def _no_image_resources(canvas: Canvas) -> None:
    """reportlab gives every new image a resource dictionary of all the images placed on its page
    so far, which is never written (an image XObject has no resources): quadratic in the images of a
    page, a tenth of the time of a page of 200 faces. Pages and forms keep theirs."""
    give = canvas._setXObjects

    def resources(thing: Any) -> None:
        if not isinstance(thing, pdfdoc.PDFImageXObject):
            give(thing)

    canvas._setXObjects = resources


@contextlib.contextmanager
def _written_through(out: IO[bytes]) -> Iterator[None]:
    """While reportlab saves a document, each object goes to ``out`` as soon as it is formatted
    (reportlab collects the whole file in memory before writing it). Same bytes either way."""
    base = pdfdoc.PDFFile

    class Through(base):  # type: ignore[misc,valid-type]
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)  # the header, collected
            head: list[bytes] = self.strings
            out.write(b"".join(head))
            self.strings: list[bytes] = []
            self.write = out.write

        def format(self, document: Any) -> bytes:
            return b""

    pdfdoc.PDFFile = Through
    try:
        yield
    finally:
        pdfdoc.PDFFile = base


def _register_font() -> str:
    if LABEL_FONT not in pdfmetrics.getRegisteredFontNames():
        try:
            pdfmetrics.registerFont(TTFont(LABEL_FONT, str(FONT_DIR / "DejaVuSans.ttf")))
        except Exception:  # pragma: no cover - fonts-dejavu-core missing
            return "Helvetica"
    return LABEL_FONT


def write_sheet(
    counters: Sequence[Counter],
    path: str | Path,
    *,
    game: str = "",
    size_mm: float | None = None,
    page: str = "a4",
    layout: str = "duplex",
    dpi: float = 300,
    bleed_mm: float = 1.0,
    back_offset_mm: tuple[float, float] = (0.0, 0.0),
    label: str | None = None,
    progress: Callable[[int], None] | None = None,
    face: Callable[..., Image.Image] = counter_face,
) -> SheetSummary:
    """Write the counter-sheet PDF for ``counters`` and return what was written.

    ``progress(n)`` is called after every n faces drawn (for a progress bar). Streams are written
    binary (Flate only): reportlab's default ASCII85 layer runs in pure Python without its C
    accelerator and would triple the time.
    """
    old_a85 = rl_config.useA85
    rl_config.useA85 = 0
    try:
        return _write_sheet(
            counters, path, game=game, size_mm=size_mm, page=page, layout=layout, dpi=dpi, bleed_mm=bleed_mm,
            back_offset_mm=back_offset_mm, label=label, progress=progress, face=face,
        )  # fmt: skip
    finally:
        rl_config.useA85 = old_a85


def _write_sheet(
    counters: Sequence[Counter],
    path: str | Path,
    *,
    game: str,
    size_mm: float | None,
    page: str,
    layout: str,
    dpi: float,
    bleed_mm: float,
    back_offset_mm: tuple[float, float],
    label: str | None,
    progress: Callable[[int], None] | None,
    face: Callable[..., Image.Image],
) -> SheetSummary:
    if not counters:
        raise GazalaError("no counters to print", file=path, expected="at least one counter")
    size = size_mm if size_mm is not None else counters[0].size_mm
    lay = plan_layout(
        size_mm=size, page=page, layout=layout, bleed_mm=bleed_mm, back_offset_mm=back_offset_mm
    )
    game = game or counters[0].game
    fontname = _register_font()
    with atomic_open(path, "wb") as out, tempfile.TemporaryFile(prefix="gazala-sheet-") as spool:
        n_pages = _draw_pages(
            counters, out, spool, lay, game=game, size=size, layout=layout, dpi=dpi, bleed_mm=bleed_mm,
            label=label, progress=progress, face=face, fontname=fontname,
        )  # fmt: skip
    log.info("wrote %s: %d pages, %d counters", path, n_pages, len(counters))
    return SheetSummary(
        path=str(path), game=game, layout=layout, page=page, pages=n_pages, counters=len(counters),
        size_mm=lay.size, per_page=lay.per_sheet, dpi=dpi, bleed_mm=lay.bleed, back_offset_mm=back_offset_mm,
    )  # fmt: skip


def _draw_pages(
    counters: Sequence[Counter],
    out: IO[bytes],
    spool: IO[bytes],
    lay: SheetLayout,
    *,
    game: str,
    size: float,
    layout: str,
    dpi: float,
    bleed_mm: float,
    label: str | None,
    progress: Callable[[int], None] | None,
    face: Callable[..., Image.Image],
    fontname: str,
) -> int:
    """Draw every page, one at a time: a page's faces are drawn, placed and compressed, then its
    images go to ``spool``; the document is written to ``out`` object by object. Memory holds one
    page's faces and a few hundred bytes per image, whatever the number of counters."""
    canvas = _new_canvas(out, lay, game)
    by_page: dict[int, list[SheetCell]] = {}
    for cell in lay.cells(len(counters)):
        by_page.setdefault(cell.page, []).append(cell)
    n_pages = max(by_page) + 1
    sheets = lay.sheets(len(counters))
    #: the faces of one page, drawn once each (the PDF itself shares identical images across pages by
    #: their digest): emptied at every page, so memory does not grow with the number of counters
    cache: dict[tuple[Counter, str], ImageReader] = {}
    spooled: set[str] = set()
    at = 0
    # at print resolution a 2x supersample buys nothing visible; below it, keep the smoother lines
    draw_face = functools.partial(face, dpi=dpi, size_mm=size, bleed_mm=bleed_mm, supersample=1 if dpi >= 300 else 2)
    for p in range(n_pages):
        side = "front" if layout == "fold" or p % 2 == 0 else "back"
        sheet_no = p // 2 + 1 if layout == "duplex" else p + 1
        cache.clear()
        _draw_faces(canvas, by_page.get(p, []), counters, lay, cache, draw_face, progress)
        _crop_marks(canvas, lay, "back" if side == "back" else "front")
        if layout == "fold":
            _fold_line(canvas, lay)
        _page_label(canvas, lay, label or _page_text(lay, game, layout, side, sheet_no, sheets), fontname)
        canvas.showPage()
        at = _spool_images(canvas, spool, at, spooled)
    cache.clear()
    with _written_through(out):
        canvas.save()
    return n_pages


def _new_canvas(out: IO[bytes], lay: SheetLayout, game: str) -> Canvas:
    """The PDF canvas of the sheet, written to ``out`` (its images kept out of the page resources)."""
    canvas = Canvas(
        out, pagesize=(lay.page_w * PT_PER_MM, lay.page_h * PT_PER_MM), pageCompression=1, invariant=1
    )
    _no_image_resources(canvas)
    canvas.setTitle(f"{game} counter sheet")
    canvas.setCreator("gazala-tools")
    return canvas


def _draw_faces(canvas: Canvas, cells: Sequence[SheetCell], counters: Sequence[Counter], lay: SheetLayout,
                cache: dict[tuple[Counter, str], ImageReader], face: Callable[[Counter, str], Image.Image],
                progress: Callable[[int], None] | None) -> None:
    """The faces of one page's cells, each over its cut square and bleed; identical faces drawn once
    (``cache``)."""
    for cell in cells:
        c = counters[cell.counter]
        sig = (replace(c, id="", unit_id="", provenance=""), cell.side)  # identical faces share one image
        reader = cache.get(sig)
        if reader is None:
            img = face(c, cell.side)
            reader = cache[sig] = ImageReader(img)
        x = (cell.x - lay.bleed) * PT_PER_MM
        y = (lay.page_h - cell.y - lay.size - lay.bleed) * PT_PER_MM
        wh = (lay.size + 2 * lay.bleed) * PT_PER_MM
        canvas.drawImage(reader, x, y, width=wh, height=wh)
        if progress is not None:
            progress(1)


def _page_text(lay: SheetLayout, game: str, layout: str, side: str, sheet_no: int, sheets: int) -> str:
    """A page's default label: game, sheet, side, counter size, bleed (and the backs' offset)."""
    what = (
        {"front": "fronts", "back": "backs (mirrored for long-edge flip)"}[side]
        if layout == "duplex"
        else "fold-over"
    )
    return (
        f"{game} · sheet {sheet_no}/{sheets} · {what} · counters {lay.size:.2f} mm"
        f" · bleed {lay.bleed:g} mm"
        + (f" · back offset {lay.back_dx:g},{lay.back_dy:g} mm" if side == "back" else "")
    )


def _page_label(canvas: Canvas, lay: SheetLayout, text: str, fontname: str) -> None:
    canvas.setFont(fontname, 7)
    canvas.setFillGray(0.25)
    canvas.drawCentredString(lay.page_w / 2 * PT_PER_MM, 5 * PT_PER_MM, text)


def _crop_marks(canvas: Canvas, lay: SheetLayout, side: str) -> None:
    xs, ys = lay.cut_lines(side)
    dy = lay.back_dy if side == "back" else 0.0
    canvas.setStrokeGray(0)
    canvas.setLineWidth(MARK_WIDTH_PT)
    k = PT_PER_MM
    grid_h = lay.rows * lay.size + (lay.rows - 1) * lay.gutter
    top = lay.y0 + dy - lay.bleed - MARK_GAP_MM
    bottom = lay.y0 + dy + grid_h + lay.bleed + MARK_GAP_MM
    for x in xs:
        canvas.line(x * k, (lay.page_h - top) * k, x * k, (lay.page_h - top + MARK_LEN_MM) * k)
        canvas.line(x * k, (lay.page_h - bottom) * k, x * k, (lay.page_h - bottom - MARK_LEN_MM) * k)
    left, right = min(xs) - lay.bleed - MARK_GAP_MM, max(xs) + lay.bleed + MARK_GAP_MM
    for y in ys:
        canvas.line(left * k, (lay.page_h - y) * k, (left - MARK_LEN_MM) * k, (lay.page_h - y) * k)
        canvas.line(right * k, (lay.page_h - y) * k, (right + MARK_LEN_MM) * k, (lay.page_h - y) * k)


def _fold_line(canvas: Canvas, lay: SheetLayout) -> None:
    """A dashed fold line on the page's vertical centre, between the first and last cut lines."""
    k = PT_PER_MM
    grid_h = lay.rows * lay.size + (lay.rows - 1) * lay.gutter
    canvas.saveState()
    canvas.setDash(3, 2)
    canvas.setStrokeGray(0.5)
    canvas.setLineWidth(0.4)
    canvas.line(
        lay.page_w / 2 * k, (lay.page_h - lay.y0) * k, lay.page_w / 2 * k, (lay.page_h - lay.y0 - grid_h) * k
    )
    canvas.restoreState()
