"""Evidence of the grid's lines, and the scan it comes from (detect-grid steps 0, 1, 4, 5).

:class:`Reducer` is the scan at any reduction (block means), read once; :class:`Derived` the
images the evidences make of one reduced image, each made once: the local brightness
(:func:`local_light`), the gradients (:func:`edge_image`), the thin-line response
(:func:`thin_lines`), the printed marks (:func:`printed_marks`). An :class:`Evidence` is one of
them as the fit sees it (:func:`evidences`); :func:`line_filter` is the faint-line matched filter
and :func:`equalise_edges` the edges as the periodicity sees them. :func:`map_area` cuts a frame off.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property

import numpy as np
from numpy.typing import NDArray
from PIL import Image
from scipy import ndimage, signal

from gazala_tools.digitize.image import FloatImage, downsample, row_bands, threaded_map, to_grey
from gazala_tools.digitize.lattice.params import DEFAULT, Params

__all__ = [
    "EDGE_ANGLES",
    "Derived",
    "Evidence",
    "Reducer",
    "edge_image",
    "equalise_edges",
    "evidences",
    "faint_lines",
    "line_filter",
    "local_light",
    "map_area",
    "printed_marks",
    "thin_lines",
    "thin_unmarked",
    "wide_gaussian",
]

#: hex-edge directions of both orientations (degrees from the x axis)
EDGE_ANGLES = (0, 30, 60, 90, 120, 150)


def edge_image(grey: FloatImage, sigma: float = 1.0, light: FloatImage | None = None) -> FloatImage:
    """Gradient magnitude over local brightness (``light``: :func:`local_light` of ``grey``, if
    already made): line contrast independent of uneven lighting."""
    g = ndimage.gaussian_filter(grey, sigma) if sigma > 0 else grey
    gx = ndimage.sobel(g, axis=1)
    gy = ndimage.sobel(g, axis=0)
    mag = np.hypot(gx, gy)
    light = local_light(grey) if light is None else light
    out: FloatImage = (mag / (light + 0.05)).astype(np.float32)
    return out


def local_light(grey: FloatImage, params: Params = DEFAULT) -> FloatImage:
    """The local brightness: ``grey`` blurred by a Gaussian of a 40th of its smaller side (at
    least 8 px), which the edge and line evidences are divided by.

    Above ``params.light_direct_pixels`` (the coarse image of a large scan) the blur is made on the image
    reduced by a quarter of the sigma and enlarged back (bilinear): the brightness varies over
    hundreds of pixels, and the direct blur costs its sigma per pixel (10 s per evidence on the
    15.6 Mpx coarse image of a 250 Mpx scan).
    """
    sigma = max(8.0, min(grey.shape) / 40)
    k = int(sigma / 4)
    if grey.size <= params.light_direct_pixels or k < 2:
        return wide_gaussian(grey, sigma)
    small = ndimage.gaussian_filter(downsample(grey, k), sigma / k)
    h, w = grey.shape
    # block j of the reduced image covers [k*j, k*j + k): its centre is at k*j + (k - 1)/2
    rows = _lerp(small, (np.arange(h) - (k - 1) / 2) / k, axis=0)
    big: FloatImage = _lerp(rows, (np.arange(w) - (k - 1) / 2) / k, axis=1)
    return big


def wide_gaussian(a: FloatImage, sigma: float) -> FloatImage:
    """``ndimage.gaussian_filter(a, sigma)`` of a 2-D float image made by FFT: the same kernel (4 sigma
    each side), the same ``reflect`` border, one axis then the other, rounded to the image's type between
    them as ndimage does; it differs from it only by the rounding of float64 sums (none of the scans' local
    brightness differs in a bit). The direct filter costs 8 sigma per pixel and axis: 0.44 s for a
    1,500 px scan's brightness, against 0.09 s."""
    lw = int(4.0 * sigma + 0.5)
    x = np.arange(-lw, lw + 1, dtype=np.float64)
    w = np.exp(-0.5 / sigma**2 * x**2)
    w /= w.sum()
    out = a
    for axis in (0, 1):
        pad = [(0, 0), (0, 0)]
        pad[axis] = (lw, lw)
        padded = np.pad(out.astype(np.float64), pad, mode="symmetric")  # ndimage's "reflect"
        kernel = w.reshape((-1, 1) if axis == 0 else (1, -1))
        out = signal.fftconvolve(padded, kernel, mode="valid", axes=axis).astype(a.dtype)
    return out


def _lerp(a: FloatImage, at: NDArray[np.float64], axis: int) -> FloatImage:
    """``a`` linearly interpolated at the positions ``at`` (clamped to its ends) along ``axis``."""
    n = a.shape[axis]
    pos = np.clip(at, 0, n - 1)
    i0 = np.minimum(pos.astype(np.int64), max(0, n - 2))
    t = (pos - i0).astype(np.float32)
    if axis == 0:
        out: FloatImage = a[i0] * (1 - t)[:, None] + a[np.minimum(i0 + 1, n - 1)] * t[:, None]
    else:
        out = a[:, i0] * (1 - t)[None, :] + a[:, np.minimum(i0 + 1, n - 1)] * t[None, :]
    return out.astype(np.float32)



def equalise_edges(e: FloatImage) -> FloatImage:
    """Edge strength relative to the neighbourhood's (a window of a sixth of the image).

    On a printed map the hex grid is often thin and faint while a chart's ruling, a turn track or
    a title in the margin is black: without this, their periodicity dominates the autocorrelation.
    Dividing by the local mean edge strength gives every region about the same weight, so the
    grid, which covers most of the image, wins. Flat regions (sea, blank paper) are not amplified:
    the divisor is never below the median of the local means. Strong outliers are clipped.
    """
    size = max(16, min(e.shape) // 6)
    local = ndimage.uniform_filter(e.astype(np.float64), size=size, mode="reflect")
    floor = float(np.median(local))
    out = e / np.maximum(local, floor + 1e-9)
    cap = float(np.quantile(out, 0.995))
    res: FloatImage = np.minimum(out, cap).astype(np.float32)
    return res


def thin_lines(grey: FloatImage, width: int = 2, light: FloatImage | None = None) -> FloatImage:
    """Thin-line evidence: the contrast of lines up to ``width`` px wide (dark or light, of any
    grey) against their local background (black and white top-hats over a window of
    ``2*width + 1``), over the local brightness. Steps between areas and anything wider do not
    respond, so a faint 1 px grid is not drowned by terrain edges, and printed text is strokes
    too short to survive :func:`line_edges`."""
    g = ndimage.gaussian_filter(grey, 0.5)
    size = (2 * width + 1, 2 * width + 1)
    t = np.maximum(ndimage.grey_closing(g, size=size) - g, g - ndimage.grey_opening(g, size=size))
    light = local_light(grey) if light is None else light
    out: FloatImage = (t / (light + 0.05)).astype(np.float32)
    return out


def printed_marks(grey: FloatImage, hex_px: float, params: Params = DEFAULT) -> NDArray[np.bool_]:
    """Where ``grey`` has printed marks smaller than a hex: hex numbers, names, symbols.

    On a faint grid the marks are the strongest thin strokes (:func:`thin_lines` far above the
    image's typical response), and a row of digits lies along a hex-edge direction as well as any
    line does. The strong strokes are joined into marks (a 2 px dilation joins a label's
    characters); a mark that fits in a box of 1.05 hex a side (a hex outline does not) is kept, with a 2 px margin. The grid
    itself is never such a mark: where it is as strong as the marks its lines join into one
    network across the map, and where it is fainter it is not selected.
    """
    return Derived(grey, params).marks(hex_px)


def _marks(t: FloatImage, hex_px: float, params: Params) -> NDArray[np.bool_]:
    """:func:`printed_marks` from the thin-line response ``t``."""
    med = float(np.median(t))
    mad = float(np.median(np.abs(t - med))) + 1e-9
    joined = ndimage.binary_dilation(t > med + params.mark_mads * 1.4826 * mad, iterations=2)
    labels, n = ndimage.label(joined)
    small = np.zeros(n + 1, dtype=bool)
    limit = params.mark_box * hex_px
    for k, sl in enumerate(ndimage.find_objects(labels), start=1):
        if sl is not None and sl[0].stop - sl[0].start <= limit and sl[1].stop - sl[1].start <= limit:
            small[k] = True
    out: NDArray[np.bool_] = ndimage.binary_dilation(small[labels], iterations=2)
    return out


def _fill(grey: FloatImage, mask: NDArray[np.bool_], sigma: float = 4.0) -> FloatImage:
    """``grey`` with the ``mask``ed pixels replaced by the blurred grey of their unmasked surroundings."""
    keep = (~mask).astype(np.float32)
    num = ndimage.gaussian_filter(grey * keep, sigma)
    den = ndimage.gaussian_filter(keep, sigma)
    del keep
    np.maximum(den, np.float32(1e-3), out=den)
    np.divide(num, den, out=num)
    out: FloatImage = np.where(mask, num, grey).astype(np.float32, copy=False)
    return out


def _line_kernel(theta: float, length: float) -> NDArray[np.float64]:
    """A mean over a segment of ``length`` px at angle ``theta`` (bilinear samples, sums to 1)."""
    r = math.ceil(length / 2) + 1
    k = np.zeros((2 * r + 1, 2 * r + 1))
    for t in np.linspace(-length / 2, length / 2, int(length * 4) + 1):
        x, y = t * math.cos(theta) + r, t * math.sin(theta) + r
        ix, iy = math.floor(x), math.floor(y)
        fx, fy = x - ix, y - iy
        k[iy, ix] += (1 - fx) * (1 - fy)
        k[iy, ix + 1] += fx * (1 - fy)
        k[iy + 1, ix] += (1 - fx) * fy
        k[iy + 1, ix + 1] += fx * fy
    out: NDArray[np.float64] = k / k.sum()
    return out




def thin_unmarked(grey: FloatImage, hex_px: float, params: Params = DEFAULT) -> FloatImage:
    """:func:`thin_lines` without the printed marks (:func:`printed_marks`): hex numbers are
    thin strokes too, and as strong as any line."""
    return _thin_unmarked(Derived(grey, params), hex_px)


def _thin_unmarked(d: Derived, hex_px: float) -> FloatImage:
    out: FloatImage = np.where(d.marks(hex_px), np.float32(np.median(d.thin)), d.thin).astype(np.float32)
    return out


def faint_lines(grey: FloatImage, hex_px: float, sigma: float = 1.0, params: Params = DEFAULT) -> FloatImage:
    """Evidence of faint 1-2 px lines of any colour (issue 12): a matched filter.

    The printed marks (:func:`printed_marks`) are filled with their surroundings first, then
    :func:`line_filter` averages along ``params.faint_span`` of a hex edge.
    """
    return _faint_lines(Derived(grey, params), hex_px, sigma)


def _faint_lines(d: Derived, hex_px: float, sigma: float = 1.0) -> FloatImage:
    span = max(5.0, d.params.faint_span * hex_px / math.sqrt(3))
    return line_filter(_fill(d.grey, d.marks(hex_px)), span, sigma, d.params)


class Derived:
    """A grey image and the images the evidences derive from it, each made once when first
    asked for: the local brightness, the gradients, the thin-line response and the printed marks
    (per hex size). The evidences of one fit, and the second opinions at the same resolution,
    share them; they live as long as the detection's :class:`Reducer` keeps the image."""

    def __init__(self, grey: FloatImage, params: Params = DEFAULT) -> None:
        self.grey = grey
        self.params = params
        self._marks: dict[float, NDArray[np.bool_]] = {}

    @cached_property
    def light(self) -> FloatImage:
        return local_light(self.grey, self.params)

    @cached_property
    def gradient(self) -> FloatImage:
        return edge_image(self.grey, sigma=1.0, light=self.light)

    @cached_property
    def thin(self) -> FloatImage:
        return thin_lines(self.grey, light=self.light)

    def marks(self, hex_px: float) -> NDArray[np.bool_]:
        if hex_px not in self._marks:
            self._marks[hex_px] = _marks(self.thin, hex_px, self.params)
        return self._marks[hex_px]


def line_filter(clean: FloatImage, length: float, sigma: float = 1.0, params: Params = DEFAULT) -> FloatImage:
    """Per hex-edge direction, the curvature across a line (second derivative of a Gaussian of
    ``sigma``: a thin line darker or lighter than the paper on both sides) averaged along it over
    ``length`` px, which averages the paper's grain and the scan's noise away (a mean where
    :func:`line_edges` takes a minimum); the largest over the directions, over the local
    brightness.

    Made in strips of about ``params.strip_pixels`` (each with a margin of the filters' reach, so the
    result is the whole image's): a large scan's coarse image would need about 1 GB at once.
    """
    h, w = clean.shape
    margin = int(4 * sigma + 0.5) + math.ceil(length / 2) + 2  # the Gaussian's reach, then the line's
    rows = max(64, params.strip_pixels // max(1, w))
    out = np.empty((h, w), dtype=np.float32)
    for y0 in range(0, h, rows):
        y1 = min(h, y0 + rows)
        a, b = max(0, y0 - margin), min(h, y1 + margin)
        out[y0:y1] = _across_lines(clean[a:b], length, sigma, params.workers)[y0 - a : y1 - a]
    light = local_light(clean, params)
    res: FloatImage = (out / (light + 0.05)).astype(np.float32)
    return res


def _across_lines(clean: FloatImage, length: float, sigma: float, workers: int) -> FloatImage:
    """:func:`line_filter` before the brightness: the largest over the directions."""
    # the three second derivatives, each in bands of rows (the Gaussian's reach as margin: the
    # same values as on the whole image), so that the workers share them evenly
    orders = ((0, 2), (2, 0), (1, 1))
    tasks = [(order, band) for order in orders for band in row_bands(clean.shape[0], int(4 * sigma + 0.5), workers)]

    def derivative(task: tuple[tuple[int, int], tuple[int, int, int, int]]) -> FloatImage:
        order, (a, b, y0, y1) = task
        res: FloatImage = ndimage.gaussian_filter(clean[a:b], sigma, order=order)[y0 - a : y1 - a]
        return res

    hxx, hyy, hxy = (np.empty_like(clean) for _ in orders)
    for (order, (_a, _b, y0, y1)), part in zip(tasks, threaded_map(derivative, tasks, workers), strict=True):
        {(0, 2): hxx, (2, 0): hyy, (1, 1): hxy}[order][y0:y1] = part

    def along(a: float) -> FloatImage:
        th = math.radians(a)
        nx, ny = -math.sin(th), math.cos(th)
        across = (nx * nx * hxx + 2 * nx * ny * hxy + ny * ny * hyy).astype(np.float32)
        kernel = _line_kernel(th, length).astype(np.float32)  # single precision: 3x faster, within 1e-6
        res: FloatImage = np.abs(signal.oaconvolve(across, kernel, mode="same"))
        return res

    out = np.zeros(clean.shape, dtype=np.float32)
    for filtered in threaded_map(along, EDGE_ANGLES, workers):
        np.maximum(out, filtered, out=out)
    return out


@dataclass(frozen=True)
class Evidence:
    """One way to see the grid's lines: ``of(image, hex_px)`` (a :class:`Derived` image; hex_px:
    the smaller of dx and dy at that resolution), and the share of a hex edge a line must run
    straight (:func:`line_edges`)."""

    name: str
    of: Callable[[Derived, float], FloatImage]
    reach: float


def evidences(params: Params = DEFAULT) -> tuple[Evidence, ...]:
    """The evidences in the order they are tried, the next only while the best fit so far scores
    below ``params.thin_below``: gradients locate centres the most precisely where the lines are
    clear; thin lines where terrain edges outweigh them; the faint-line matched filter where hex
    numbers outweigh 1 px lines."""
    return (
        Evidence("gradient", lambda d, _px: d.gradient, params.gradient_reach),
        Evidence("thin-line", _thin_unmarked, params.thin_reach),
        Evidence("faint-line", _faint_lines, params.faint_reach),
    )


def map_area(grey: FloatImage, params: Params = DEFAULT) -> tuple[int, int, int, int]:
    """(x0, y0, x1, y1) inside a dark frame touching the image's edges (the whole image if none).

    From each edge whose outermost rows (columns) are much darker than the middle of the image
    (``params.frame_dark``), inward until ``params.frame_run`` rows in a row are about as light as
    the middle (within ``params.frame_light``; a frame's notches included), at most
    ``params.frame_max`` of the image.
    """
    h, w = grey.shape
    dark = 1.0 - grey
    out = [0, 0, w, h]
    for axis, n in ((0, h), (1, w)):
        prof = dark.mean(axis=1 - axis)
        mid = float(np.median(prof[n // 4 : 3 * n // 4]))
        for side in (0, 1):
            p = prof if side == 0 else prof[::-1]
            if p[:3].mean() < mid + params.frame_dark:
                continue
            cut, run = 0, 0
            for i in range(int(params.frame_max * n)):
                run = run + 1 if p[i] < mid + params.frame_light else 0
                if run >= params.frame_run:
                    cut = i - (params.frame_run - 1)
                    break
            if cut:
                k = (1 - axis) + 2 * side  # out index: x0, y0, x1, y1
                out[k] = cut + 1 if side == 0 else n - cut - 1
    return out[0], out[1], out[2], out[3]


class Reducer:
    """Grey levels of a scan at 1/f resolution (block means; pixel j covers [f*j, f*j + f)).

    A PIL image is kept as 8-bit grey (the caller's own when it is grey already) and reduced by
    Pillow, so a large scan never exists as a full-resolution float array; :meth:`inside` reads a
    part of it (the map inside a frame) without copying it. The reduced images are kept once
    computed, with what the evidences derive from them (:class:`Derived`): the evidences and the
    second opinions of one detection read the same ones.
    """

    def __init__(self, image: object, box: tuple[int, int, int, int] | None = None, params: Params = DEFAULT) -> None:
        self.params = params

        if isinstance(image, Image.Image):
            self._pil: Image.Image | None = image if image.mode == "L" else image.convert("L")
            self._arr: FloatImage | None = None
            full = (0, 0, self._pil.width, self._pil.height)
        else:
            arr: FloatImage = image if box is not None else to_grey(np.asarray(image))  # type: ignore[assignment]
            self._pil, self._arr = None, arr
            full = (0, 0, int(arr.shape[1]), int(arr.shape[0]))
        self._box = box or full
        x0, y0, x1, y1 = self._box
        self.shape: tuple[int, int] = (y1 - y0, x1 - x0)
        self._kept: dict[int, Derived] = {}

    def inside(self, box: tuple[int, int, int, int]) -> Reducer:
        """The part ``box`` = (x0, y0, x1, y1) of this scan, its pixel (0, 0) at (x0, y0)."""
        ox, oy = self._box[:2]
        x0, y0, x1, y1 = box
        whole = self._pil if self._pil is not None else self._arr
        return Reducer(whole, (ox + x0, oy + y0, ox + x1, oy + y1), self.params)

    def __call__(self, f: int) -> FloatImage:
        """The scan at 1/f."""
        return self.derived(f).grey

    def derived(self, f: int) -> Derived:
        """The scan at 1/f and its derived images, kept for two factors at most: the first one
        asked for (stage 1, small) and the last other one (a second opinion at another factor
        drops the previous one's)."""
        if f not in self._kept:
            first = next(iter(self._kept), f)
            self._kept = {k: a for k, a in self._kept.items() if k == first}
            self._kept[f] = Derived(self._whole(f), self.params)
        return self._kept[f]

    def _whole(self, f: int) -> FloatImage:
        return self.tile(f, (0, 0, -(-self.shape[1] // f), -(-self.shape[0] // f)) if self._pil is not None
                         else (0, 0, self.shape[1] // f, self.shape[0] // f))

    def tile(self, f: int, box: tuple[int, int, int, int]) -> FloatImage:
        """Grey levels of ``box`` = (x0, y0, x1, y1), in pixels of the image at 1/f."""
        ox, oy, ex, ey = self._box
        x0, y0, x1, y1 = (ox + min(box[0] * f, ex - ox), oy + min(box[1] * f, ey - oy),
                          ox + min(box[2] * f, ex - ox), oy + min(box[3] * f, ey - oy))
        if self._pil is not None:
            if f <= 1:
                img = self._pil if (x0, y0, x1, y1) == (0, 0, *self._pil.size) else self._pil.crop((x0, y0, x1, y1))
            else:
                img = self._pil.reduce(f, box=(x0, y0, x1, y1))
            out: FloatImage = np.asarray(img, dtype=np.float32) / np.float32(255.0)
            return out
        assert self._arr is not None
        return downsample(self._arr[y0:y1, x0:x1], f)

