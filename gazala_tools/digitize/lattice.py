"""Find the hex lattice of a scan: ``detect_grid(image) -> LatticeFit``.

Three stages, each on an edge-strength image (gradient magnitude divided by the local brightness,
so uneven lighting cancels):

1. **Periodicity.** The autocorrelation of the edge image (FFT, unbiased by overlap; edges
   equalised by their local mean so a black chart in the margin cannot outweigh a faint grid)
   peaks at every lattice vector of the hex centres; only lattices readable as a hex grid count. The two shortest independent strong peaks form a reduced
   basis; it is refined by least squares over all lattice peaks up to a third of the image.
2. **Which hex lattice.** A lattice of centres can be read as flat-topped columns or pointy-topped
   rows in several ways (a primitive lattice vector near the vertical, or the horizontal, whose
   neighbouring lines are offset by half a step). Each reading predicts where hex *edges* are: its
   straight edges (:func:`line_edges`: no texture, text or dots) folded into one lattice cell is cross-correlated with the predicted honeycomb, which
   picks the reading (orientation, dx, dy) and the position of the centres (the origin).
3. **Sub-pixel fit.** A hexagon-outline kernel is correlated with the edge image; near every
   predicted centre the correlation maximum is located to sub-pixel precision, and the lattice
   ``centre(c, r) = O + c*U + (r + (c odd)/2)*V`` is fitted to all of them by robust least squares
   (two rounds, outliers beyond 3 MADs dropped). Rotation of the scan is measured, not assumed away.

Works for any dx/dy ratio (0.3 to 3), both orientations, any parity: the lattice does not know
parity or numbering, a reference hex fixes those (:func:`number_lattice`).
"""

from __future__ import annotations

import logging
import math
import os
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import cached_property

import numpy as np
import scipy.fft
from numpy.typing import NDArray
from scipy import ndimage, signal

from gazala_tools.digitize.image import FloatImage, downsample, factor_for, threaded_map, tiles, to_grey
from gazala_tools.errors import GazalaError
from gazala_tools.numbering import Numbering
from gazala_tools.vassal.grid import HexGridGeometry

log = logging.getLogger(__name__)

Vec = NDArray[np.float64]
Progress = Callable[[str], None]

#: Working resolution of stage 1 (longest side, pixels).
AUTOCORR_SIDE = 1400
#: Stage 3 works at a resolution where a hex is about this many pixels high (never upsampled).
FIT_HEX_PX = 80.0
#: Residual (pixels, per axis) above which hex centres count with L1 (Huber) rather than L2 weight.
HUBER_PX = 0.5
#: Threads for the filters of one image per direction, the tiles and the FFTs: the machine's
#: cores (at most 4). SciPy's filters and FFTs release the GIL; the results do not depend on it.
WORKERS = max(1, min(4, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1))


@dataclass(frozen=True)
class LatticeFit:
    """A detected hex lattice, in pixels of the full image.

    ``cx``/``cy`` are the measured screen centre of one hex: the top measured hex of the first
    column (along u) in which at least half as many hexes as in a typical column were found.
    ``dx``/``dy`` and ``grid_centre`` (that hex's centre) are the best lattice VASSAL can draw, the
    axis-aligned least-squares fit over all measured centres (:func:`axis_aligned`); on a rotated
    or unevenly printed scan it differs from ``cx``/``cy`` by up to a few pixels. VASSAL's
    ``x0``/``y0`` (:attr:`x0`, :attr:`y0`) are ``grid_centre`` in grid terms: ``x0`` is along u,
    which is the screen's y axis on a sideways grid. A reference hex fixes which hex is raw (0, 0).
    ``rotation`` is the angle (degrees, clockwise on screen) of the scan's grid from the axes;
    VASSAL cannot rotate a grid, so a rotated scan should be straightened before use.
    ``affine`` is the fitted (rotated, sheared) lattice: screen centre of hex (c, r) of the
    detector's own indexing = ``o + c*u + (r + (c odd)/2)*v``, as (o, u, v).
    """

    dx: float
    dy: float
    cx: float
    cy: float
    sideways: bool
    rotation: float
    confidence: float
    rms_px: float  #: RMS of measured hex centres around the fitted lattice
    hexes_measured: int
    edge_score: float  #: correlation of the folded edges with the honeycomb (0..1)
    notes: tuple[str, ...] = ()
    alternatives: tuple[dict[str, float | bool], ...] = field(default=(), compare=False)
    grid_centre: tuple[float, float] | None = None  #: None: (cx, cy)
    grid_rms_px: float = math.nan  #: RMS of the measured centres around the VASSAL (axis-aligned) grid
    affine: tuple[tuple[float, float], tuple[float, float], tuple[float, float]] | None = None

    @property
    def x0(self) -> float:
        """VASSAL x0 (along u: screen x, or screen y when sideways), unrounded."""
        gx, gy = self.grid_centre or (self.cx, self.cy)
        return gy if self.sideways else gx

    @property
    def y0(self) -> float:
        gx, gy = self.grid_centre or (self.cx, self.cy)
        return gx if self.sideways else gy

    def geometry(self, numbering: Numbering | None = None) -> HexGridGeometry:
        return HexGridGeometry(
            dx=self.dx, dy=self.dy, x0=round(self.x0), y0=round(self.y0), sideways=self.sideways, numbering=numbering
        )

    def as_dict(self) -> dict[str, object]:
        return {
            "dx": round(self.dx, 4),
            "dy": round(self.dy, 4),
            "x0": round(self.x0),
            "y0": round(self.y0),
            "x0_exact": round(self.x0, 2),
            "y0_exact": round(self.y0, 2),
            "center": [round(v, 2) for v in (self.grid_centre or (self.cx, self.cy))],
            "measured_center": [round(self.cx, 2), round(self.cy, 2)],
            "sideways": self.sideways,
            "orientation": "pointy" if self.sideways else "flat",
            "rotation_deg": round(self.rotation, 3),
            "confidence": round(self.confidence, 3),
            "rms_px": round(self.rms_px, 3),
            "grid_rms_px": round(self.grid_rms_px, 3),
            "hexes_measured": self.hexes_measured,
            "edge_score": round(self.edge_score, 3),
            "notes": list(self.notes),
        }


# --- stage 0: edges ---------------------------------------------------------------------------
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


def local_light(grey: FloatImage) -> FloatImage:
    """The local brightness: ``grey`` blurred by a Gaussian of a 40th of its smaller side (at
    least 8 px), which the edge and line evidences are divided by.

    Above LIGHT_DIRECT_PIXELS (the coarse image of a large scan) the blur is made on the image
    reduced by a quarter of the sigma and enlarged back (bilinear): the brightness varies over
    hundreds of pixels, and the direct blur costs its sigma per pixel (10 s per evidence on the
    15.6 Mpx coarse image of a 250 Mpx scan).
    """
    sigma = max(8.0, min(grey.shape) / 40)
    k = int(sigma / 4)
    if grey.size <= LIGHT_DIRECT_PIXELS or k < 2:
        out: FloatImage = ndimage.gaussian_filter(grey, sigma)
        return out
    small = ndimage.gaussian_filter(downsample(grey, k), sigma / k)
    h, w = grey.shape
    # block j of the reduced image covers [k*j, k*j + k): its centre is at k*j + (k - 1)/2
    rows = _lerp(small, (np.arange(h) - (k - 1) / 2) / k, axis=0)
    big: FloatImage = _lerp(rows, (np.arange(w) - (k - 1) / 2) / k, axis=1)
    return big


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


#: images above this many pixels get their local brightness from a reduced image
LIGHT_DIRECT_PIXELS = 4_000_000


# --- stage 1: lattice vectors from the autocorrelation ------------------------------------------
def _without_ridges(ac: FloatImage) -> FloatImage:
    """The autocorrelation without its ridges along the image axes: the median of each column
    (over every vertical shift) and then of each row is taken off. A pattern periodic one way only
    (a pitch's mown stripes, a chart's ruling, long lines) is a ridge of equal height along the
    other axis; a hex grid's peaks are spots and hardly move a median."""
    out = ac - np.median(ac, axis=0, keepdims=True)
    out = out - np.median(out, axis=1, keepdims=True)
    res: FloatImage = out.astype(np.float32)
    return res


def _autocorrelation(e: FloatImage, max_shift: int) -> FloatImage:
    h, w = e.shape
    z = e - e.mean()
    fh, fw = _fast_len(2 * h), _fast_len(2 * w)
    spec = np.fft.rfft2(z, s=(fh, fw))
    ac = np.fft.irfft2(spec * np.conj(spec), s=(fh, fw))
    ac = np.fft.fftshift(ac)
    cy, cx = fh // 2, fw // 2
    sy = np.arange(-max_shift, max_shift + 1)
    win = ac[cy - max_shift : cy + max_shift + 1, cx - max_shift : cx + max_shift + 1]
    overlap = np.outer(h - np.abs(sy), w - np.abs(sy)).astype(np.float64)
    out: FloatImage = (win / np.maximum(overlap, 1.0) / (z.var() + 1e-12)).astype(np.float32)
    return out


def _fast_len(n: int) -> int:
    from scipy.fft import next_fast_len

    return int(next_fast_len(n, real=True))


def _subpixel_peak(a: NDArray[np.floating], y: int, x: int) -> tuple[float, float]:
    """Parabolic refinement of a local maximum at integer (y, x)."""
    h, w = a.shape
    dy = dx = 0.0
    if 0 < y < h - 1:
        lo, c, hi = float(a[y - 1, x]), float(a[y, x]), float(a[y + 1, x])
        den = lo - 2 * c + hi
        if den < 0:
            dy = max(-0.5, min(0.5, 0.5 * (lo - hi) / den))
    if 0 < x < w - 1:
        lo, c, hi = float(a[y, x - 1]), float(a[y, x]), float(a[y, x + 1])
        den = lo - 2 * c + hi
        if den < 0:
            dx = max(-0.5, min(0.5, 0.5 * (lo - hi) / den))
    return y + dy, x + dx


def _peaks(ac: FloatImage, min_r: float, max_r: float, count: int = 40) -> list[tuple[float, Vec]]:
    """Local maxima of the autocorrelation in a ring, at least 25% as prominent as the most or 30%
    as high as the highest:
    (value, vector (x, y)), shortest first (the lattice's basis is among the shortest)."""
    m = ac.shape[0] // 2
    mx = ndimage.maximum_filter(ac, size=5, mode="nearest")
    ys, xs = np.nonzero((ac == mx) & (ac > 0))
    r = np.hypot(ys - m, xs - m)
    keep = (r >= min_r) & (r <= max_r)
    ys, xs, r = ys[keep], xs[keep], r[keep]
    if len(ys) == 0:
        return []
    # Rank by prominence over the surroundings (a white top-hat), not by height: texture, paper
    # and JPEG noise make many broad low bumps, a grid's lattice makes sharp peaks.
    prom = ndimage.white_tophat(ac, size=9)[ys, xs]
    vals = ac[ys, xs]
    keep = (prom >= 0.25 * prom.max()) | (vals >= 0.3 * vals.max())
    ys, xs, r = ys[keep], xs[keep], r[keep]
    order = np.argsort(r, kind="stable")[:count]
    out: list[tuple[float, Vec]] = []
    for i in order:
        py, px = _subpixel_peak(ac, int(ys[i]), int(xs[i]))
        out.append((float(ac[ys[i], xs[i]]), np.array([px - m, py - m], dtype=np.float64)))
    return out


def _reduce(b1: Vec, b2: Vec) -> tuple[Vec, Vec]:
    """Gauss (Lagrange) reduction of a 2-D lattice basis."""
    for _ in range(100):
        if b1 @ b1 > b2 @ b2:
            b1, b2 = b2, b1
        mu = round(float(b1 @ b2) / float(b1 @ b1))
        if mu == 0:
            break
        b2 = b2 - mu * b1
    if b1 @ b1 > b2 @ b2:
        b1, b2 = b2, b1
    return b1, b2


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


def lattice_basis(e: FloatImage, *, min_period: float = 6.0) -> tuple[Vec, Vec, float]:
    """A reduced basis of the centre lattice (pixels of ``e``) and the share of peaks it explains.

    Only lattices that can be read as a hex grid (:func:`readings`) are candidates: a chart's
    rectangular ruling is periodic too.
    """
    return lattice_bases(e, min_period=min_period)[0]


def lattice_bases(
    e: FloatImage, *, min_period: float = 6.0, count: int = 1, ridge_free: bool = False
) -> list[tuple[Vec, Vec, float]]:
    """:func:`lattice_basis`'s choice first, then up to ``count - 1`` other candidate lattices
    (strongest autocorrelation on their points first), each refined the same way; ``ridge_free``:
    on the autocorrelation without its ridges (:func:`_without_ridges`).

    On an unrotated scan the grid's peaks can share the image axes with a margin's ruling, text
    lines and JPEG blocks, and a spurious lattice can win; the others are second opinions.
    """
    e = equalise_edges(e)
    h, w = e.shape
    max_shift = int(min(h, w) * 0.4)
    if max_shift < 3 * min_period:
        raise GazalaError(f"image too small to find a hex grid ({w}x{h} px)", expected="several hexes across")
    raw = _autocorrelation(e, max_shift)
    ac = _without_ridges(raw) if ridge_free else raw
    peaks = _peaks(ac, min_period, max_shift * 0.9, count=400)
    if len(peaks) < 2:
        raise GazalaError("no periodic structure found", expected="a scan of a hex grid")
    top = max(v for v, _ in peaks)
    strong = [p for v, p in peaks if v >= 0.25 * top]
    if len(strong) < 2:
        strong = [p for _, p in peaks[:6]]
    # distinct directions (up to sign), shortest first
    strong.sort(key=lambda p: float(np.hypot(*p)))
    distinct: list[Vec] = []
    for p in strong:
        if not any(np.hypot(*(p - q)) < 1.5 or np.hypot(*(p + q)) < 1.5 for q in distinct):
            distinct.append(p)
        if len(distinct) >= 40:
            break
    best: tuple[float, float, Vec, Vec] | None = None
    candidates: list[tuple[float, float, Vec, Vec, float]] = []
    ac_max = ndimage.maximum_filter(ac, size=3, mode="nearest")
    for a in range(len(distinct)):
        for b in range(a + 1, len(distinct)):
            p, q = distinct[a], distinct[b]
            if abs(p[0] * q[1] - p[1] * q[0]) < 0.2 * np.hypot(*p) * np.hypot(*q):
                continue
            r1, r2 = _reduce(p, q)
            area = abs(float(r1[0] * r2[1] - r1[1] * r2[0]))
            if area < min_period**2 or not readings(r1, r2):
                continue
            mean = _lattice_mean(ac_max, r1, r2, min_period, max_shift * 0.9)
            contrast = _lattice_contrast(ac_max, r1, r2, min_period, max_shift * 0.9)
            candidates.append((mean, area, r1, r2, contrast))
    if not candidates:
        raise GazalaError("found only one direction of periodicity", expected="a two-dimensional hex grid")
    # Lattices clearly stronger on their points than half a step off them (a spurious finer
    # lattice, e.g. from a chart's ruling or JPEG blocks, is not), then the finest of those whose
    # points are (nearly) all as strong as the best one's (a coarser sub-lattice is not finest).
    top_contrast = max(c[4] for c in candidates)
    clear = [c for c in candidates if c[4] >= top_contrast - 0.4 * abs(top_contrast)]
    top_mean = max(c[0] for c in clear)
    for c in sorted(clear, key=lambda c: c[1]):
        if c[0] >= 0.6 * top_mean:
            best = (c[0], c[1], c[2], c[3])
            break
    assert best is not None
    chosen = [(best[2], best[3])]
    for c in sorted(candidates, key=lambda c: -c[0]):
        if len(chosen) >= count:
            break
        if not any(_is_lattice(c[2], *b) and _is_lattice(c[3], *b) and abs(c[1] - _area(*b)) < 0.1 * c[1] for b in chosen):
            chosen.append((c[2], c[3]))
    return [_refine(ac, peaks, b1, b2, top, max_shift, raw) for b1, b2 in chosen]


def _area(b1: Vec, b2: Vec) -> float:
    return abs(float(b1[0] * b2[1] - b1[1] * b2[0]))


def _refine(
    ac: FloatImage, peaks: list[tuple[float, Vec]], b1: Vec, b2: Vec, top: float, max_shift: int,
    raw: FloatImage | None = None,
) -> tuple[Vec, Vec, float]:
    """Locate every lattice point's peak in range, then least squares; with the share of peaks
    explained. The peaks are told by ``ac``; they are located on ``raw`` (the autocorrelation
    before its ridges were taken off: a column's or row's offset would pull a peak sideways,
    0.5 px on hexes of 10 px)."""
    raw = ac if raw is None else raw
    basis = np.stack([b1, b2], axis=1)  # columns
    m = ac.shape[0] // 2
    rows: list[tuple[int, int]] = []
    pts: list[Vec] = []
    weights: list[float] = []
    lim = max_shift * 0.9
    n = int(lim / min(np.hypot(*b1), np.hypot(*b2))) + 1
    for i in range(-n, n + 1):
        for j in range(0, n + 1):
            if j == 0 and i <= 0:
                continue
            v = basis @ np.array([i, j], dtype=np.float64)
            if np.hypot(*v) > lim:
                continue
            x, y = round(v[0]) + m, round(v[1]) + m
            y0, y1, x0, x1 = max(0, y - 2), min(ac.shape[0], y + 3), max(0, x - 2), min(ac.shape[1], x + 3)
            win = ac[y0:y1, x0:x1]
            if win.size == 0:
                continue
            k = int(np.argmax(win))
            yy, xx = y0 + k // win.shape[1], x0 + k % win.shape[1]
            if ac[yy, xx] <= 0.15 * top:
                continue
            k = int(np.argmax(raw[y0:y1, x0:x1]))
            yy, xx = y0 + k // win.shape[1], x0 + k % win.shape[1]
            py, px = _subpixel_peak(raw, yy, xx)
            rows.append((i, j))
            pts.append(np.array([px - m, py - m]))
            weights.append(float(np.hypot(*v)))
    if len(rows) >= 3:
        design = np.array(rows, dtype=np.float64)
        found = np.array(pts)
        wts = np.sqrt(np.array(weights))
        sol, *_ = np.linalg.lstsq(design * wts[:, None], found * wts[:, None], rcond=None)
        b1, b2 = sol[0], sol[1]
    share = sum(1 for v, p in peaks[:20] if _is_lattice(p, b1, b2)) / min(20, len(peaks))
    log.debug("lattice basis %s %s from %d peaks (%d refined), share %.2f", b1, b2, len(peaks), len(rows), share)
    return b1, b2, share


def _lattice_mean(ac_max: FloatImage, b1: Vec, b2: Vec, min_r: float, max_r: float) -> float:
    """Mean autocorrelation at the lattice points in a ring (``ac_max``: its 3x3 maximum filter)."""
    m = ac_max.shape[0] // 2
    basis = np.stack([b1, b2], axis=1)
    n = int(max_r / min(np.hypot(*b1), np.hypot(*b2))) + 1
    n = min(n, 40)
    ii, jj = np.meshgrid(np.arange(-n, n + 1), np.arange(0, n + 1))
    pts = basis @ np.stack([ii.ravel(), jj.ravel()]).astype(np.float64)
    r = np.hypot(*pts)
    keep = (r >= min_r) & (r <= min(max_r, 6 * max(np.hypot(*b1), np.hypot(*b2))))
    if keep.sum() < 4:
        return -1.0
    xs = np.round(pts[0, keep]).astype(np.int64) + m
    ys = np.round(pts[1, keep]).astype(np.int64) + m
    return float(np.mean(ac_max[ys, xs]))


def _lattice_contrast(ac_max: FloatImage, b1: Vec, b2: Vec, min_r: float, max_r: float) -> float:
    """How much stronger the autocorrelation is on the lattice than half a step off it.

    Mean at the lattice points in a ring, minus the largest mean over the three half-step cosets
    (+b1/2, +b2/2, +(b1+b2)/2). A finer, spurious lattice has weak points of its own; a coarser
    sub-lattice has a coset on the true lattice's points: both score lower than the true lattice.
    ``ac_max`` is the autocorrelation's 3x3 maximum filter.
    """
    m = ac_max.shape[0] // 2
    basis = np.stack([b1, b2], axis=1)
    n = int(max_r / min(np.hypot(*b1), np.hypot(*b2))) + 1
    n = min(n, 40)
    ii, jj = np.meshgrid(np.arange(-n, n + 1), np.arange(0, n + 1))
    lim = min(max_r, 6 * max(np.hypot(*b1), np.hypot(*b2)))
    means = []
    for oi, oj in ((0.0, 0.0), (0.5, 0.0), (0.0, 0.5), (0.5, 0.5)):
        pts = basis @ np.stack([ii.ravel() + oi, jj.ravel() + oj]).astype(np.float64)
        r = np.hypot(*pts)
        keep = (r >= min_r) & (r <= lim)
        if keep.sum() < 4:
            return -1.0
        xs = np.round(pts[0, keep]).astype(np.int64) + m
        ys = np.round(pts[1, keep]).astype(np.int64) + m
        means.append(float(np.mean(ac_max[ys, xs])))
    return means[0] - max(means[1:])


def _is_lattice(p: Vec, b1: Vec, b2: Vec, tol: float = 0.12) -> bool:
    coef = np.linalg.solve(np.stack([b1, b2], axis=1), p)
    return bool(np.all(np.abs(coef - np.round(coef)) < tol))


# --- stage 2: readings of the lattice as a hex grid ---------------------------------------------
@dataclass(frozen=True)
class Reading:
    sideways: bool
    dx: float
    dy: float
    u_hat: tuple[float, float]  #: screen direction of the u axis (columns advance along it)
    v_hat: tuple[float, float]  #: screen direction of the v axis (down a column)
    rotation: float

    def basis(self) -> tuple[Vec, Vec]:
        """Lattice basis a1 = dx*u + dy/2*v (next column), a2 = dy*v (next row)."""
        u, v = np.array(self.u_hat), np.array(self.v_hat)
        return self.dx * u + self.dy / 2 * v, self.dy * v


def readings(b1: Vec, b2: Vec, *, max_angle: float = 8.0) -> list[Reading]:
    """Every way to read the lattice as flat columns or pointy rows with hexes of ratio 0.3..3."""
    area = abs(float(b1[0] * b2[1] - b1[1] * b2[0]))
    out: list[Reading] = []
    seen: set[tuple[bool, int, int]] = set()
    for i in range(-4, 5):
        for j in range(-4, 5):
            if math.gcd(i, j) != 1:
                continue
            vv = i * b1 + j * b2
            for sideways in (False, True):
                # flat: V near vertical; pointy: V near horizontal
                axis = np.array([1.0, 0.0]) if sideways else np.array([0.0, 1.0])
                if vv @ axis < 0:
                    continue
                dy = float(np.hypot(*vv))
                cosang = float(vv @ axis) / dy
                ang = math.degrees(math.acos(max(-1.0, min(1.0, cosang))))
                if ang > max_angle:
                    continue
                dx = area / dy
                if not (0.3 <= dx / dy <= 3.0):
                    continue
                v_hat = vv / dy
                # u: perpendicular to v, pointing right (flat) or down (pointy)
                u_hat = np.array([v_hat[1], -v_hat[0]]) if not sideways else np.array([-v_hat[1], v_hat[0]])
                if (u_hat[0] if not sideways else u_hat[1]) < 0:
                    u_hat = -u_hat
                # half-offset test: a completing basis vector W sits half a step along V
                _g, k, m = _ext_gcd(i, j)
                w = -m * b1 + k * b2  # det([i j], [-m k]) = i*k + j*m = 1
                e = float(w @ v_hat) / dy
                frac = e - math.floor(e)
                if abs(frac - 0.5) > 0.12:
                    continue
                key = (sideways, round(dx * 4), round(dy * 4))
                if key in seen:
                    continue
                seen.add(key)
                # rotation: angle of v from its axis, clockwise positive on screen
                rot = math.degrees(math.atan2(-v_hat[0], v_hat[1])) if not sideways else math.degrees(
                    math.atan2(v_hat[1], v_hat[0])
                )
                out.append(Reading(sideways, dx, dy, (float(u_hat[0]), float(u_hat[1])), (float(v_hat[0]), float(v_hat[1])), rot))
    return out


def _ext_gcd(a: int, b: int) -> tuple[int, int, int]:
    """(g, x, y) with a*x + b*y = g."""
    if b == 0:
        return (abs(a), 1 if a >= 0 else -1, 0)
    g, x, y = _ext_gcd(b, a % b)
    return g, y, x - (a // b) * y


def _segments(reading: Reading) -> list[tuple[Vec, Vec]]:
    """The six edges of the hexagon around centre 0, in screen pixels (float)."""
    u, v = np.array(reading.u_hat), np.array(reading.v_hat)
    dx, dy = reading.dx, reading.dy
    corners_uv = ((-dx / 3, -dy / 2), (dx / 3, -dy / 2), (2 * dx / 3, 0.0), (dx / 3, dy / 2), (-dx / 3, dy / 2), (-2 * dx / 3, 0.0))
    pts = [cu * u + cv * v for cu, cv in corners_uv]
    return [(pts[k], pts[(k + 1) % 6]) for k in range(6)]


def _dist_to_segments(q: NDArray[np.float64], segs: list[tuple[Vec, Vec]]) -> NDArray[np.float64]:
    """Distance of points q (N x 2) to the union of segments."""
    best = np.full(q.shape[0], np.inf)
    for a, b in segs:
        ab = b - a
        t = np.clip(((q - a) @ ab) / float(ab @ ab), 0.0, 1.0)
        d = np.hypot(*(q - (a + t[:, None] * ab)).T)
        best = np.minimum(best, d)
    return best


def honeycomb_distance(reading: Reading, q: NDArray[np.float64]) -> NDArray[np.float64]:
    """Distance of screen offsets q (from a hex centre) to the nearest hex edge of the lattice."""
    a1, a2 = reading.basis()
    segs: list[tuple[Vec, Vec]] = []
    base = _segments(reading)
    for i in (-1, 0, 1):
        for j in (-1, 0, 1):
            off = i * a1 + j * a2
            segs.extend((a + off, b + off) for a, b in base)
    # fold q into the cell around 0 first
    m = np.stack([a1, a2], axis=1)
    st = np.linalg.solve(m, q.T).T
    st -= np.round(st)
    qf = st @ m.T
    return _dist_to_segments(qf, segs)


def fold_score(e: FloatImage, reading: Reading, bins: int = 48) -> tuple[float, Vec]:
    """Correlate the edge image folded into one lattice cell with the honeycomb of ``reading``.

    Returns (correlation 0..1, the screen position of one hex centre).
    """
    a1, a2 = reading.basis()
    m = np.stack([a1, a2], axis=1)
    inv = np.linalg.inv(m)
    h, w = e.shape
    step = max(1, int(math.sqrt(h * w / 1.5e6)))
    ys, xs = np.mgrid[0:h:step, 0:w:step]
    vals = e[ys, xs].ravel().astype(np.float64)
    st = inv @ np.stack([xs.ravel().astype(np.float64), ys.ravel().astype(np.float64)])
    st -= np.floor(st)
    bi = np.minimum((st * bins).astype(np.int64), bins - 1)
    idx = bi[0] * bins + bi[1]
    sums = np.bincount(idx, weights=vals, minlength=bins * bins)
    cnts = np.bincount(idx, minlength=bins * bins)
    motif = (sums / np.maximum(cnts, 1)).reshape(bins, bins)
    # template: honeycomb edges for a centre at cell (0, 0)
    g = (np.arange(bins) + 0.5) / bins
    ss, tt = np.meshgrid(g, g, indexing="ij")
    q = np.stack([ss.ravel(), tt.ravel()], axis=1) @ m.T
    sigma = max(1.0, min(reading.dx, reading.dy) / 40)
    tmpl = np.exp(-((honeycomb_distance(reading, q) / sigma) ** 2)).reshape(bins, bins)
    mz = motif - motif.mean()
    tz = tmpl - tmpl.mean()
    corr = np.real(np.fft.ifft2(np.fft.fft2(mz) * np.conj(np.fft.fft2(tz))))
    k = int(np.argmax(corr))
    i, j = divmod(k, bins)
    # sub-bin refinement (circular parabola)
    def para(lm: float, c: float, rp: float) -> float:
        den = lm - 2 * c + rp
        return 0.0 if den >= 0 else max(-0.5, min(0.5, 0.5 * (lm - rp) / den))

    di = para(corr[(i - 1) % bins, j], corr[i, j], corr[(i + 1) % bins, j])
    dj = para(corr[i, (j - 1) % bins], corr[i, j], corr[i, (j + 1) % bins])
    score = float(corr[i, j]) / (float(np.sqrt((mz**2).sum() * (tz**2).sum())) + 1e-12)
    shift = np.array([(i + di) / bins, (j + dj) / bins])
    centre = m @ shift
    return score, centre


# --- stage 3: sub-pixel centres and the robust fit ----------------------------------------------
def line_edges(e: FloatImage, reading: Reading, reach: float = 0.45) -> FloatImage:
    """Keep only edges that run straight along a hex-edge direction for ``reach`` of an edge's length.

    A grey opening with a line element per edge direction: hex numbers, names and symbols are
    made of short strokes and vanish; the grid's long straight edges stay.
    """
    segs = _segments(reading)
    footprints: list[NDArray[np.bool_]] = []
    done: list[tuple[float, float]] = []
    for a, b in segs:
        d = b - a
        length = float(np.hypot(*d))
        t = d / length
        if any(abs(t[0] * q[1] - t[1] * q[0]) < 1e-3 for q in done):
            continue
        done.append((float(t[0]), float(t[1])))
        half = max(1, int(reach * length) // 2)  # odd length, symmetric: no half-pixel shift
        pts = np.round(np.outer(np.arange(-half, half + 1), t)).astype(np.int64)
        r = int(np.abs(pts).max())
        fp = np.zeros((2 * r + 1, 2 * r + 1), dtype=bool)
        fp[pts[:, 1] + r, pts[:, 0] + r] = True
        footprints.append(fp)
    out = np.zeros_like(e)
    for opened in threaded_map(lambda fp: ndimage.grey_opening(e, footprint=fp), footprints, WORKERS):
        out = np.maximum(out, opened)
    return out


def hexagon_kernel(reading: Reading, sigma: float) -> NDArray[np.float64]:
    r = math.ceil(max(reading.dx * 2 / 3, reading.dy / 2, reading.dx, reading.dy) * 0.75 + 3 * sigma)
    ys, xs = np.mgrid[-r : r + 1, -r : r + 1]
    q = np.stack([xs.ravel(), ys.ravel()], axis=1).astype(np.float64)
    d = _dist_to_segments(q, _segments(reading)).reshape(xs.shape)
    k = np.exp(-((d / sigma) ** 2))
    # Hex numbers and names are centred horizontally in the hex (near its top): ignore the middle
    # band, so text never pulls the fit. Flat: the top and bottom edges go; pointy: the apexes.
    half = (reading.dx / 3 + 2 * sigma) if not reading.sideways else 0.3 * reading.dy
    k[np.abs(xs) < half] = 0.0
    out: NDArray[np.float64] = k - k.mean()
    return out


def _measure_centres(
    corr: NDArray[np.floating], predicted: NDArray[np.float64], radius: int
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Sub-pixel maxima of ``corr`` within ``radius`` of each predicted (x, y); NaN where off-image."""
    h, w = corr.shape
    out = np.full_like(predicted, np.nan)
    strength = np.zeros(len(predicted))
    offs = np.arange(-radius, radius + 1)
    for n, (px, py) in enumerate(predicted):
        x, y = round(px), round(py)
        if x - radius - 1 < 0 or y - radius - 1 < 0 or x + radius + 1 >= w or y + radius + 1 >= h:
            continue
        win = corr[y - radius : y + radius + 1, x - radius : x + radius + 1]
        k = int(np.argmax(win))
        iy, ix = divmod(k, win.shape[1])
        if iy in (0, 2 * radius) or ix in (0, 2 * radius):
            continue  # the maximum is on the window's rim: no clear centre here
        sy, sx = _subpixel_peak(corr, y + int(offs[iy]), x + int(offs[ix]))
        out[n] = (sx, sy)
        strength[n] = float(win[iy, ix])
    return out, strength


def _surrounded(cr: NDArray[np.int64], found: NDArray[np.bool_]) -> NDArray[np.bool_]:
    """Which lattice hexes (c, r) have all six neighbours among the found ones."""
    have = {(int(c), int(r)) for (c, r), f in zip(cr, found, strict=True) if f}
    out = np.zeros(len(cr), dtype=bool)
    for n, (c, r) in enumerate(cr):
        c, r = int(c), int(r)
        up = r - 1 if c % 2 == 0 else r  # the row of the upper neighbours in the next columns
        ring = ((c, r - 1), (c, r + 1), (c - 1, up), (c - 1, up + 1), (c + 1, up), (c + 1, up + 1))
        out[n] = all(x in have for x in ring)
    return out


def _design(cr: NDArray[np.int64]) -> NDArray[np.float64]:
    c = cr[:, 0].astype(np.float64)
    r = cr[:, 1].astype(np.float64) + (cr[:, 0] % 2) / 2.0
    return np.stack([np.ones_like(c), c, r], axis=1)


@dataclass(frozen=True)
class CentreFit:
    """:func:`fit_centres`' result: the lattice ``centre(c, r) = o + c*u + (r + (c odd)/2)*v``."""

    o: Vec
    u: Vec
    v: Vec
    rms: float
    count: int
    coverage: float
    inliers: NDArray[np.int64]  #: (c, r) of the inlier hexes
    used: NDArray[np.int64]  #: (c, r) of the hexes the final fit used
    measured: NDArray[np.float64]  #: their measured centres (x, y)


Measure = Callable[[NDArray[np.float64], int], tuple[NDArray[np.float64], NDArray[np.float64]]]


def centre_correlation(
    e: FloatImage, reading: Reading, reach: float = 0.45, lines: FloatImage | None = None
) -> NDArray[np.float64]:
    """The hexagon-outline kernel correlated with the straight edges of ``e``: peaks at hex centres."""
    sigma = max(1.0, min(reading.dx, reading.dy) / 30)
    kern = hexagon_kernel(reading, sigma)
    lines = line_edges(e, reading, reach) if lines is None else lines
    # in single precision (3x faster than double; peaks within 1e-6 of the double's)
    zero_mean = (lines - np.float32(lines.mean())).astype(np.float32)
    out: NDArray[np.float64] = signal.fftconvolve(zero_mean, kern[::-1, ::-1].astype(np.float32), mode="same").astype(np.float64)
    return out


def fit_centres(
    e: FloatImage, reading: Reading, origin: Vec, *, rounds: int = 3, reach: float = 0.45, lines: FloatImage | None = None
) -> CentreFit:
    """Robust least squares of O, U, V to measured hex centres (``lines``: ``e``'s
    :func:`line_edges` for ``reading``, if already made)."""
    corr = centre_correlation(e, reading, reach, lines)
    u, v = np.array(reading.u_hat) * reading.dx, np.array(reading.v_hat) * reading.dy
    return fit_measured(
        lambda pred, radius: _measure_centres(corr, pred, radius), e.shape, reading, origin, u, v, rounds=rounds
    )


def fit_measured(
    measure: Measure,
    shape: tuple[int, ...],
    reading: Reading,
    origin: Vec,
    u: Vec,
    v: Vec,
    *,
    rounds: int = 3,
    first_radius: float = 0.22,
) -> CentreFit:
    """Robust least squares of O, U, V to the centres ``measure`` finds near the predicted ones
    (search radius ``first_radius`` hex in the first round, 0.12 after)."""
    h, w = shape[0], shape[1]
    o = origin.copy()
    rms, count, coverage = float("nan"), 0, 0.0
    inliers = np.zeros((0, 2), dtype=np.int64)
    used, measured = np.zeros((0, 2), dtype=np.int64), np.zeros((0, 2))
    for rnd in range(rounds):
        # every lattice hex whose centre is on the image
        m = np.stack([u, v], axis=1)
        corners = np.array([[0, 0], [w, 0], [0, h], [w, h]], dtype=np.float64) - o
        cr_f = np.linalg.solve(m, corners.T).T
        cmin, cmax = math.floor(cr_f[:, 0].min()) - 1, math.ceil(cr_f[:, 0].max()) + 1
        rmin, rmax = math.floor(cr_f[:, 1].min()) - 2, math.ceil(cr_f[:, 1].max()) + 2
        cc, rr = np.meshgrid(np.arange(cmin, cmax + 1), np.arange(rmin, rmax + 1), indexing="ij")
        cr = np.stack([cc.ravel(), rr.ravel()], axis=1)
        a = _design(cr)
        pred = a[:, :1] * o + a[:, 1:2] * u + a[:, 2:3] * v
        inside = (pred[:, 0] >= 0) & (pred[:, 0] < w) & (pred[:, 1] >= 0) & (pred[:, 1] < h)
        cr, a, pred = cr[inside], a[inside], pred[inside]
        radius = max(2, int(min(reading.dx, reading.dy) * (first_radius if rnd == 0 else 0.12)))
        meas, strength = measure(pred, radius)
        ok = ~np.isnan(meas[:, 0])
        if ok.sum() < 6:
            raise GazalaError("too few hex centres could be located", expected="a scan with visible hex edges")
        med = float(np.median(strength[ok]))
        ok &= strength > 0.35 * med
        sel = ok.copy()
        for _ in range(3):
            sol, *_ = np.linalg.lstsq(a[sel], meas[sel], rcond=None)
            res = np.hypot(*(meas - a @ sol).T)
            mad = float(np.median(res[sel])) + 1e-6
            new = ok & (res < max(3.0 * 1.4826 * mad, 0.35))
            if new.sum() < 6 or np.array_equal(new, sel):
                break
            sel = new
        # Hexes on the rim of the found area are pulled outwards (nothing beyond them balances
        # the kernel): fit only hexes whose six neighbours were all found, when there are enough.
        inner = sel & _surrounded(cr, sel)
        use = inner if inner.sum() >= 12 else sel
        # then Huber-weighted least squares (IRLS): printed features biasing a minority of hexes
        # (escarpment hatching, symbols on one side) do not move the lattice
        for _ in range(8):
            r_x = meas[use] - a[use] @ sol
            wts = 1.0 / np.sqrt(np.maximum(np.abs(r_x), HUBER_PX))
            sol = np.stack(
                [np.linalg.lstsq(a[use] * wts[:, k : k + 1], meas[use, k] * wts[:, k], rcond=None)[0] for k in (0, 1)],
                axis=1,
            )
        res = np.hypot(*(meas - a @ sol).T)
        o, u, v = sol[0], sol[1], sol[2]
        used, measured = cr[use], meas[use]
        rms = float(np.sqrt(np.mean(res[sel] ** 2)))
        count = int(sel.sum())
        inliers = cr[sel]
        # coverage: found hexes among the lattice positions spanned by the found ones
        lo, hi = inliers.min(axis=0), inliers.max(axis=0)
        box = np.all((cr >= lo) & (cr <= hi), axis=1)
        coverage = count / max(1, int(box.sum()))
    return CentreFit(o, u, v, rms, count, coverage, inliers, used, measured)


def axis_aligned_rms(cf: CentreFit, sideways: bool, dx: float, dy: float, origin: Vec) -> float:
    """RMS distance of the measured centres from the axis-aligned lattice (what VASSAL draws)."""
    c = cf.used[:, 0].astype(np.float64)
    r = cf.used[:, 1].astype(np.float64) + (cf.used[:, 0] % 2) / 2.0
    du, dv = c * dx, r * dy
    pred = origin + (np.stack([dv, du], axis=1) if sideways else np.stack([du, dv], axis=1))
    return float(np.sqrt(np.mean(np.sum((cf.measured - pred) ** 2, axis=1))))


def axis_aligned(cf: CentreFit, sideways: bool) -> tuple[float, float, Vec]:
    """The best lattice VASSAL can draw (no rotation) through the measured centres.

    VASSAL's grid is ``u = x0 + c*dx``, ``v = y0 + (r + (c odd)/2)*dy`` along the image axes. The
    steps are the fitted lattice's along those axes (its rotation and shear do not bias them);
    the origin is then fitted to all measured centres (Huber-weighted, each axis on its own)
    rather than taken from one hex: on a slightly rotated or unevenly printed scan the lattice
    anchored at a corner hex drifts away from the print across the map, this one does not.
    Returns dx, dy and the screen point of hex (0, 0) of the lattice's own indexing.
    """
    k_u, k_v = (1, 0) if sideways else (0, 1)
    dx, dy = float(cf.u[k_u]), float(cf.v[k_v])
    c = cf.used[:, 0].astype(np.float64)
    r = cf.used[:, 1].astype(np.float64) + (cf.used[:, 0] % 2) / 2.0
    u0 = _robust_offset(cf.measured[:, k_u] - c * dx)
    v0 = _robust_offset(cf.measured[:, k_v] - r * dy)
    origin = np.array([v0, u0] if sideways else [u0, v0], dtype=np.float64)
    return dx, dy, origin


def _robust_offset(values: NDArray[np.float64]) -> float:
    """Huber (IRLS) location of ``values``."""
    m = float(np.median(values))
    for _ in range(8):
        wts = 1.0 / np.sqrt(np.maximum(np.abs(values - m), HUBER_PX))
        m = float(np.sum(wts * values) / np.sum(wts))
    return m


# --- the whole detection -------------------------------------------------------------------------
def detect_grid(image: object, *, progress: Progress | None = None) -> LatticeFit:
    """Detect the hex lattice of a scan (a PIL image or a grey/RGB numpy array).

    A dark frame around the map (a border touching the image's edges, with its notches) is cut
    off first (:func:`map_area`), so that it cannot decide the lattice; coordinates are the
    image's.
    """
    with scipy.fft.set_workers(WORKERS):
        return _detect_in_frame(_reducer(image), progress)


def _detect_in_frame(grey_at: _reducer, progress: Progress | None) -> LatticeFit:
    f0 = factor_for(grey_at.shape, AUTOCORR_SIDE)
    x0, y0, x1, y1 = (v * f0 for v in map_area(grey_at(f0)))
    if (x0, y0) != (0, 0) or x1 < grey_at.shape[1] - f0 or y1 < grey_at.shape[0] - f0:
        log.info("map area (%d, %d)-(%d, %d): a frame is cut off", x0, y0, x1, y1)
        return _shifted(_detect(grey_at.inside((x0, y0, x1, y1)), progress), float(x0), float(y0))
    return _detect(grey_at, progress)


def map_area(grey: FloatImage) -> tuple[int, int, int, int]:
    """(x0, y0, x1, y1) inside a dark frame touching the image's edges (the whole image if none).

    From each edge whose outermost rows (columns) are much darker than the middle of the image,
    inward until 8 rows in a row are about as light as the middle (a frame's notches included),
    at most 15% of the image.
    """
    h, w = grey.shape
    dark = 1.0 - grey
    out = [0, 0, w, h]
    for axis, n in ((0, h), (1, w)):
        prof = dark.mean(axis=1 - axis)
        mid = float(np.median(prof[n // 4 : 3 * n // 4]))
        for side in (0, 1):
            p = prof if side == 0 else prof[::-1]
            if p[:3].mean() < mid + 0.25:
                continue
            cut, run = 0, 0
            for i in range(int(0.15 * n)):
                run = run + 1 if p[i] < mid + 0.1 else 0
                if run >= 8:
                    cut = i - 7
                    break
            if cut:
                k = (1 - axis) + 2 * side  # out index: x0, y0, x1, y1
                out[k] = cut + 1 if side == 0 else n - cut - 1
    return out[0], out[1], out[2], out[3]


def _shifted(fit: LatticeFit, dx: float, dy: float) -> LatticeFit:
    """``fit`` of a crop at (dx, dy), in the whole image's pixels."""
    gc = None if fit.grid_centre is None else (fit.grid_centre[0] + dx, fit.grid_centre[1] + dy)
    affine = None if fit.affine is None else ((fit.affine[0][0] + dx, fit.affine[0][1] + dy), fit.affine[1], fit.affine[2])
    return replace(fit, cx=fit.cx + dx, cy=fit.cy + dy, grid_centre=gc, affine=affine)


def _detect(grey_at: _reducer, progress: Progress | None) -> LatticeFit:
    say = progress or (lambda _msg: None)
    # stage 1 at low resolution
    f1 = factor_for(grey_at.shape, AUTOCORR_SIDE)
    say("edges")
    e1 = grey_at.derived(f1).gradient
    say("periodicity")
    bases = lattice_bases(e1, min_period=5.0, count=1 + SECOND_OPINIONS)
    b1, b2, _share = bases[0]
    fit = _fit_lattice(grey_at, f1, b1 * f1, b2 * f1, say)
    tried = [(b1, b2)]
    if fit.fit.confidence < RIDGE_BELOW:
        # a pattern periodic one way only (a pitch's mown stripes) can outweigh the grid's peaks:
        # the lattices of the autocorrelation without its ridges
        try:
            ridge_free = lattice_bases(e1, min_period=5.0, count=2, ridge_free=True)
        except GazalaError:
            ridge_free = []
        fit = _second_opinions(grey_at, f1, fit, ridge_free, tried, "ridge-free lattice")
    if fit.fit.confidence < LOW_CONFIDENCE:
        # a grid too faint for the edges' periodicity: the periodicity of faint lines (a span of
        # STAGE1_SPAN px at this resolution suits hexes from about 14 px up)
        say("faint lines")
        faint = lattice_bases(line_filter(grey_at(f1), STAGE1_SPAN), min_period=5.0, count=2)
        fit = _second_opinions(grey_at, f1, fit, faint, tried, "faint-line lattice")
    if fit.fit.confidence < LOW_CONFIDENCE:
        # second opinions: the other candidate lattices, kept if they fit the edges more consistently
        fit = _second_opinions(grey_at, f1, fit, bases[1:], tried, "second opinion")
    return fit.done()


@dataclass(frozen=True)
class _Pending:
    """A lattice fitted on the whole image (at most FIT_MAX_PIXELS) and, on a large scan, how to
    measure it again in tiles at the fine resolution (:func:`refine_in_tiles`). The candidates
    (evidences, second opinions) are compared on their whole-image fits: only the one kept is
    refined."""

    fit: LatticeFit
    finish: Callable[[], LatticeFit] | None = None

    def done(self) -> LatticeFit:
        """The fit, refined in tiles if it is a large scan's."""
        return self.fit if self.finish is None else self.finish()

    def doubted(self, note: str) -> _Pending:
        """The same with its confidence scaled by DISAGREEMENT, and ``note``, refined or not."""

        def doubt(fit: LatticeFit) -> LatticeFit:
            return replace(fit, confidence=round(fit.confidence * DISAGREEMENT, 4), notes=(*fit.notes, note))

        finish = self.finish
        return _Pending(doubt(self.fit), None if finish is None else (lambda: doubt(finish())))


def _second_opinions(
    grey_at: _reducer, f1: int, fit: _Pending, bases: list[tuple[Vec, Vec, float]], tried: list[tuple[Vec, Vec]],
    what: str,
) -> _Pending:
    """``fit``, or the fit of one of the other lattices ``bases`` (at 1/f1) if it is more
    confident (by 0.05) and either its centres lie at most half as far from it (in hexes) or it is
    confident where ``fit`` is not (at least 0.3 and three times ``fit``'s). A lattice already
    ``tried`` (the same points from another basis) is not fitted again; those fitted are added."""
    for a1, a2, _s in bases:
        if any(_same_points((a1, a2), t) for t in tried):
            continue
        tried.append((a1, a2))
        try:
            alt = _fit_lattice(grey_at, f1, a1 * f1, a2 * f1, lambda _msg: None)
        except GazalaError:
            continue
        a, b = alt.fit, fit.fit
        log.debug("%s dx=%.2f dy=%.2f confidence %.3f", what, a.dx, a.dy, a.confidence)
        tighter = _relative_rms(a) < 0.5 * _relative_rms(b)
        clearly = a.confidence >= max(LOW_CONFIDENCE, 3 * b.confidence)
        if a.confidence > b.confidence + 0.05 and (tighter or clearly):
            fit = alt
    return fit


def _same_points(a: tuple[Vec, Vec], b: tuple[Vec, Vec], tol: float = 0.02) -> bool:
    """Whether the bases ``a`` and ``b`` span the same lattice: the same cell area (within 1%)
    and each vector of ``a`` a lattice point of ``b`` (within ``tol`` of a step)."""
    area_a, area_b = _area(*a), _area(*b)
    if area_b == 0 or abs(area_a / area_b - 1) > 0.01:
        return False
    return all(_is_lattice(p, *b, tol=tol) for p in a)


def _relative_rms(fit: LatticeFit) -> float:
    """The fit's rms residual of the measured centres in hex sizes (a true grid's is about 1%)."""
    return fit.rms_px / min(fit.dx, fit.dy)


#: below this confidence detect-grid also tries the other candidate lattices
LOW_CONFIDENCE = 0.3
#: below this confidence detect-grid also tries the lattices of the autocorrelation without its
#: ridges (a pitch's stripes gave a lattice 311% off at 0.30)
RIDGE_BELOW = 0.5
SECOND_OPINIONS = 4
#: the faint-line filter's span (px) for the periodicity of a faint grid
STAGE1_SPAN = 8.0


def _fit_lattice(grey_at: _reducer, f1: int, b1: Vec, b2: Vec, say: Progress) -> _Pending:
    """Read the lattice (b1, b2, full-resolution pixels) as a hex grid and fit it to the edges.

    Edge strength (gradients) first; when that fit is not confident (below :data:`THIN_BELOW`),
    thin lines (:func:`thin_lines`) too, and the more confident fit wins: on small images and
    faint grids the gradients of printed numbers and terrain outweigh 1 px lines.
    """
    cands = readings(b1, b2)
    if not cands:
        raise GazalaError(
            "the periodic pattern is not a hex grid aligned with the image (within 8 degrees)",
            expected="a hex map scan, straightened",
        )
    # stage 3 resolution: hexes about FIT_HEX_PX high
    dmin = min(min(c.dx, c.dy) for c in cands)
    f_fine = max(1, int(dmin / FIT_HEX_PX))
    # large scans: the whole image at most FIT_MAX_PIXELS, then the centres again in tiles at f_fine
    h, w = grey_at.shape
    f3 = f_fine * max(1, math.ceil(math.sqrt(h * w / f_fine**2 / FIT_MAX_PIXELS)))
    f3 = max(f_fine, min(f3, int(dmin / COARSE_HEX_PX)))  # the coarse fit still needs hexes to measure
    log.debug("candidate lattice: hexes of %.1f px, fitted at 1/%d, refined at 1/%d", dmin, f3, f_fine)
    say("orientation")
    image3 = grey_at.derived(f3)
    fits: list[_Pending] = []
    for ev in EVIDENCE:
        if fits and _score(fits[0].fit) >= THIN_BELOW:
            break
        refine = None if f3 == f_fine else _tiled(grey_at, f_fine, ev)
        try:
            fits.append(_fit_on(ev.of(image3, dmin / f3), cands, f3, say, ev.reach, refine))
        except GazalaError:
            continue
        log.debug("%s evidence: confidence %.3f", ev.name, fits[-1].fit.confidence)
    if not fits:
        raise GazalaError("too few hex centres could be located", expected="a scan with visible hex edges")
    return _choose(fits)


def _choose(fits: list[_Pending]) -> _Pending:
    """The fit to keep among those on several evidences (none confident on its own).

    Ranked by confidence times :func:`rms_quality`: a lattice placed on hex numbers or a frame's
    notches rather than the lines has centres scattered 4-8% of a hex around it, the lines'
    1-2%. (Not in the confidence itself: on hexes under about 30 px the gradient's centres
    scatter 5% around a right lattice.) Where the gradients' fit is the same lattice as the best
    (steps within 0.25%, centres within 0.04 hex) it is kept: it is the most precise. When no
    other evidence places the lattice where the chosen one does, the grid is ambiguous: the
    confidence is scaled by DISAGREEMENT.
    """
    first = fits[0]
    best = max(fits, key=lambda p: _score(p.fit))
    if best is not first and _same_lattice(first.fit, best.fit, tol=0.04, steps=0.0025):
        best = first  # the same lattice: the gradients locate it the most precisely
    others = [p.fit for p in fits if p is not best and p.fit.confidence >= 0.1]
    if others and not any(_same_lattice(best.fit, f) for f in others):
        return best.doubted("the grid's lines, edges and marks place the hexes differently; check the fit")
    return best


def _score(fit: LatticeFit) -> float:
    return fit.confidence * rms_quality(_relative_rms(fit))


#: confidence factor when the evidences place the hexes differently
DISAGREEMENT = 0.6


def _same_lattice(a: LatticeFit, b: LatticeFit, tol: float = 0.15, steps: float = 0.01) -> bool:
    """Whether ``a`` and ``b`` are one lattice: same orientation, steps within ``steps`` (a
    share), and ``a``'s measured centre within ``tol`` hex of a centre of ``b``."""
    if a.sideways != b.sideways or b.affine is None:
        return False
    if abs(a.dx / b.dx - 1) > steps or abs(a.dy / b.dy - 1) > steps:
        return False
    o, u, v = (np.array(t, dtype=np.float64) for t in b.affine)
    c0, r0 = np.linalg.solve(np.stack([u, v], axis=1), np.array([a.cx, a.cy]) - o)
    d = min(
        float(np.hypot(*(o + c * u + (r + (c % 2) / 2.0) * v - (a.cx, a.cy))))
        for c in range(math.floor(c0) - 1, math.floor(c0) + 3)
        for r in range(math.floor(r0) - 2, math.floor(r0) + 3)
    )
    return d <= tol * min(a.dx, a.dy)


def _tiled(grey_at: _reducer, f_fine: int, ev: Evidence) -> Refine:
    def refine(cf: CentreFit, rd: Reading, f: int) -> tuple[CentreFit, int]:
        return refine_in_tiles(grey_at, cf, rd, f, f_fine, ev), f_fine

    return refine


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


def printed_marks(grey: FloatImage, hex_px: float) -> NDArray[np.bool_]:
    """Where ``grey`` has printed marks smaller than a hex: hex numbers, names, symbols.

    On a faint grid the marks are the strongest thin strokes (:func:`thin_lines` far above the
    image's typical response), and a row of digits lies along a hex-edge direction as well as any
    line does. The strong strokes are joined into marks (a 2 px dilation joins a label's
    characters); a mark that fits in a box of 1.05 hex a side (a hex outline does not) is kept, with a 2 px margin. The grid
    itself is never such a mark: where it is as strong as the marks its lines join into one
    network across the map, and where it is fainter it is not selected.
    """
    return Derived(grey).marks(hex_px)


def _marks(t: FloatImage, hex_px: float) -> NDArray[np.bool_]:
    """:func:`printed_marks` from the thin-line response ``t``."""
    med = float(np.median(t))
    mad = float(np.median(np.abs(t - med))) + 1e-9
    joined = ndimage.binary_dilation(t > med + 8 * 1.4826 * mad, iterations=2)
    labels, n = ndimage.label(joined)
    small = np.zeros(n + 1, dtype=bool)
    limit = 1.05 * hex_px
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


#: the faint-line filter averages along this share of a hex edge
FAINT_SPAN = 0.8
#: hex-edge directions of both orientations (degrees from the x axis)
EDGE_ANGLES = (0, 30, 60, 90, 120, 150)


def thin_unmarked(grey: FloatImage, hex_px: float) -> FloatImage:
    """:func:`thin_lines` without the printed marks (:func:`printed_marks`): hex numbers are
    thin strokes too, and as strong as any line."""
    return _thin_unmarked(Derived(grey), hex_px)


def _thin_unmarked(d: Derived, hex_px: float) -> FloatImage:
    out: FloatImage = np.where(d.marks(hex_px), np.float32(np.median(d.thin)), d.thin).astype(np.float32)
    return out


def faint_lines(grey: FloatImage, hex_px: float, sigma: float = 1.0) -> FloatImage:
    """Evidence of faint 1-2 px lines of any colour (issue 12): a matched filter.

    The printed marks (:func:`printed_marks`) are filled with their surroundings first, then
    :func:`line_filter` averages along FAINT_SPAN of a hex edge.
    """
    return _faint_lines(Derived(grey), hex_px, sigma)


def _faint_lines(d: Derived, hex_px: float, sigma: float = 1.0) -> FloatImage:
    return line_filter(_fill(d.grey, d.marks(hex_px)), max(5.0, FAINT_SPAN * hex_px / math.sqrt(3)), sigma)


class Derived:
    """A grey image and the images the evidences derive from it, each made once when first
    asked for: the local brightness, the gradients, the thin-line response and the printed marks
    (per hex size). The evidences of one fit, and the second opinions at the same resolution,
    share them; they live as long as the detection's :class:`_reducer` keeps the image."""

    def __init__(self, grey: FloatImage) -> None:
        self.grey = grey
        self._marks: dict[float, NDArray[np.bool_]] = {}

    @cached_property
    def light(self) -> FloatImage:
        return local_light(self.grey)

    @cached_property
    def gradient(self) -> FloatImage:
        return edge_image(self.grey, sigma=1.0, light=self.light)

    @cached_property
    def thin(self) -> FloatImage:
        return thin_lines(self.grey, light=self.light)

    def marks(self, hex_px: float) -> NDArray[np.bool_]:
        if hex_px not in self._marks:
            self._marks[hex_px] = _marks(self.thin, hex_px)
        return self._marks[hex_px]


def line_filter(clean: FloatImage, length: float, sigma: float = 1.0) -> FloatImage:
    """Per hex-edge direction, the curvature across a line (second derivative of a Gaussian of
    ``sigma``: a thin line darker or lighter than the paper on both sides) averaged along it over
    ``length`` px, which averages the paper's grain and the scan's noise away (a mean where
    :func:`line_edges` takes a minimum); the largest over the directions, over the local
    brightness.

    Made in strips of about STRIP_PIXELS (each with a margin of the filters' reach, so the
    result is the whole image's): a large scan's coarse image would need about 1 GB at once.
    """
    h, w = clean.shape
    margin = int(4 * sigma + 0.5) + math.ceil(length / 2) + 2  # the Gaussian's reach, then the line's
    rows = max(64, STRIP_PIXELS // max(1, w))
    out = np.empty((h, w), dtype=np.float32)
    for y0 in range(0, h, rows):
        y1 = min(h, y0 + rows)
        a, b = max(0, y0 - margin), min(h, y1 + margin)
        out[y0:y1] = _across_lines(clean[a:b], length, sigma)[y0 - a : y1 - a]
    light = local_light(clean)
    res: FloatImage = (out / (light + 0.05)).astype(np.float32)
    return res


def _across_lines(clean: FloatImage, length: float, sigma: float) -> FloatImage:
    """:func:`line_filter` before the brightness: the largest over the directions."""
    hxx, hyy, hxy = threaded_map(
        lambda order: ndimage.gaussian_filter(clean, sigma, order=order), ((0, 2), (2, 0), (1, 1)), WORKERS
    )

    def along(a: float) -> FloatImage:
        th = math.radians(a)
        nx, ny = -math.sin(th), math.cos(th)
        across = (nx * nx * hxx + 2 * nx * ny * hxy + ny * ny * hyy).astype(np.float32)
        kernel = _line_kernel(th, length).astype(np.float32)  # single precision: 3x faster, within 1e-6
        res: FloatImage = np.abs(signal.oaconvolve(across, kernel, mode="same"))
        return res

    out = np.zeros(clean.shape, dtype=np.float32)
    for filtered in threaded_map(along, EDGE_ANGLES, WORKERS):
        np.maximum(out, filtered, out=out)
    return out


#: the faint-line filter works in strips of about this many pixels
STRIP_PIXELS = 4_000_000

#: the faint-line evidence is already straight; line_edges only trims it
FAINT_REACH = 0.2




#: thin lines must run straight along this share of a hex edge (printed numbers are shorter)
THIN_REACH = 0.75
#: below this confidence the thin-line evidence is tried as well (not above: where gradients
#: locate the centres well they do so more precisely, e.g. 0.2 vs 0.6 px on 20 px hexes)
THIN_BELOW = 0.45


@dataclass(frozen=True)
class Evidence:
    """One way to see the grid's lines: ``of(image, hex_px)`` (a :class:`Derived` image; hex_px:
    the smaller of dx and dy at that resolution), and the share of a hex edge a line must run
    straight (:func:`line_edges`)."""

    name: str
    of: Callable[[Derived, float], FloatImage]
    reach: float


#: in this order, the next tried only while the best fit so far is below THIN_BELOW: gradients
#: locate centres the most precisely where the lines are clear; thin lines where terrain edges
#: outweigh them; the faint-line matched filter where hex numbers outweigh 1 px lines.
EVIDENCE = (
    Evidence("gradient", lambda d, _px: d.gradient, 0.45),
    Evidence("thin-line", _thin_unmarked, THIN_REACH),
    Evidence("faint-line", _faint_lines, FAINT_REACH),
)


Refine = Callable[[CentreFit, Reading, int], tuple[CentreFit, int]]


def _fit_on(
    e3: FloatImage, cands: list[Reading], f3: int, say: Progress, reach: float = 0.45, refine: Refine | None = None
) -> _Pending:
    """Choose the reading on the evidence ``e3`` (at 1/f3 resolution) and fit the centres;
    ``refine`` (large scans): how to measure them again at a finer resolution, returning that
    factor, when the fit is kept (:meth:`_Pending.done`)."""
    # the readings are told apart on hexes of about FOLD_HEX_PX (the phase needs no more)
    kf = max(1, int(min(min(c.dx, c.dy) for c in cands) / f3 / FOLD_HEX_PX))
    ef = downsample(e3, kf) if kf > 1 else e3
    ranked: list[tuple[float, Reading]] = []
    top, centre, lines = -math.inf, np.zeros(2), ef
    for c in cands:
        cs = Reading(c.sideways, c.dx / (f3 * kf), c.dy / (f3 * kf), c.u_hat, c.v_hat, c.rotation)
        edges = line_edges(ef, cs, reach)
        score, at = fold_score(edges, cs)
        if score > top:  # the best reading's lines only are kept (the first of equals, as the sort)
            top, centre, lines = score, at * kf + (kf - 1) / 2.0, edges
        ranked.append((score, c))
    ranked.sort(key=lambda t: -t[0])
    best = ranked[0][1]
    say("sub-pixel fit")
    rd = Reading(best.sideways, best.dx / f3, best.dy / f3, best.u_hat, best.v_hat, best.rotation)
    cf = fit_centres(e3, rd, centre, reach=reach, lines=lines if kf == 1 else None)
    fit = _lattice_fit(cf, f3, ranked)
    if refine is None:
        return _Pending(fit)

    def finish() -> LatticeFit:
        say("refine in tiles")
        return _lattice_fit(*refine(cf, rd, f3), ranked)

    return _Pending(fit, finish)


def _lattice_fit(cf: CentreFit, f: int, ranked: list[tuple[float, Reading]]) -> LatticeFit:
    """The :class:`LatticeFit` of the centres ``cf`` measured at 1/f, for the best of the
    readings ``ranked`` by their edge score (full-resolution pixels)."""
    best_score, best = ranked[0]
    rms, count, coverage = cf.rms, cf.count, cf.coverage
    # back to full-resolution pixels: a block-mean pixel (i, j) covers [f*i, f*i + f)
    scale = float(f)
    shift = (scale - 1) / 2.0
    v_full = cf.v * scale
    if best.sideways:
        rotation = math.degrees(math.atan2(v_full[1], v_full[0]))
    else:
        rotation = math.degrees(math.atan2(-v_full[0], v_full[1]))
    o_full, u_full = cf.o * scale + shift, cf.u * scale
    cx, cy = _first_hex(o_full, u_full, v_full, cf.inliers)
    # the grid VASSAL can draw: the axis-aligned fit through the same centres
    adx, ady, a_origin = axis_aligned(cf, best.sideways)
    dx, dy = adx * scale, ady * scale
    if not (math.isfinite(dx) and math.isfinite(dy) and min(dx, dy) >= 2.0):
        # the centres measured lie on no grid VASSAL can draw (a degenerate axis-aligned fit)
        raise GazalaError("the hex centres found do not form a grid", expected="a scan with visible hex edges")
    a_u = np.array([0.0, dx] if best.sideways else [dx, 0.0])
    a_v = np.array([dy, 0.0] if best.sideways else [0.0, dy])
    grid_centre = _first_hex(a_origin * scale + shift, a_u, a_v, cf.inliers)
    grid_rms = axis_aligned_rms(cf, best.sideways, adx, ady, a_origin) * scale
    notes: list[str] = []
    if abs(rotation) > 0.05:
        notes.append(f"the grid is rotated {rotation:.2f} degrees; straighten the scan for VASSAL")
    if len(ranked) > 1 and ranked[1][0] > 0.9 * best_score:
        notes.append("another reading of the lattice fits the edges almost as well; check the orientation")
    margin = best_score - (ranked[1][0] if len(ranked) > 1 else 0.0)
    confidence = float(
        max(0.0, min(1.0, best_score * 1.6)) * min(1.0, coverage * 1.25) * min(1.0, 0.5 + margin * 2)
        * (1.0 if rms * scale < 0.15 * min(best.dx, best.dy) else 0.5)
        * min(1.0, count / FEW_HEXES)
    )
    alternatives = tuple(
        {"sideways": c.sideways, "dx": round(c.dx, 3), "dy": round(c.dy, 3), "edge_score": round(s, 3)}
        for s, c in ranked[1:4]
    )
    log.info("grid dx=%.3f dy=%.3f sideways=%s from %d centres (rms %.2f px)", dx, dy, best.sideways, count, rms)
    return LatticeFit(
        dx=dx,
        dy=dy,
        cx=cx,
        cy=cy,
        sideways=best.sideways,
        rotation=rotation,
        confidence=round(confidence, 4),
        rms_px=rms * scale,
        hexes_measured=count,
        edge_score=best_score,
        notes=tuple(notes),
        alternatives=alternatives,
        grid_centre=grid_centre,
        grid_rms_px=grid_rms,
        affine=(tuple(o_full.tolist()), tuple(u_full.tolist()), tuple(v_full.tolist())),
    )


def rms_quality(relative_rms: float) -> float:
    """A quality factor for the measured centres' rms around the fitted lattice, in hexes.

    A printed grid's centres lie within about 2% of a hex of a regular lattice (Ragnarok 1.4%,
    clean synthetic scans 0.5%); a lattice placed on hex numbers or a frame's notches instead of
    the lines measures 4-8%: 1 up to 2%, then falling linearly to 0.25 at 8%.
    """
    return max(0.25, min(1.0, (0.1 - relative_rms) / 0.08))


#: a fit on fewer hexes is that much less confident: a few large "hexes" fit any picture with
#: boxes in it (a pitch's markings: 8 hexes of 300 px at 0.48 before), a map has dozens at least
FEW_HEXES = 20
#: the readings of a lattice are scored (:func:`fold_score`) on hexes reduced to about this size
FOLD_HEX_PX = 40.0
#: the whole-image fit works on at most this many pixels; finer measurement goes tile by tile
FIT_MAX_PIXELS = 12_000_000
#: the coarse fit of a large scan keeps hexes at least this many pixels across
COARSE_HEX_PX = 24
#: tile side (pixels at the fine resolution) of the refinement
REFINE_TILE = 1024
#: at most this many tiles, spread evenly over the scan, are measured at the fine resolution
REFINE_MAX_TILES = 16


def refine_in_tiles(
    grey_at: _reducer, cf: CentreFit, rd: Reading, f_coarse: int, f_fine: int, ev: Evidence | None = None
) -> CentreFit:
    """The lattice ``cf`` (found at 1/f_coarse) measured again at 1/f_fine, one tile at a time.

    Up to REFINE_MAX_TILES tiles (REFINE_TILE a side plus a margin of a hex), spread evenly over
    the scan, are read from it at 1/f_fine, their edges correlated with the hexagon kernel, and
    the centres predicted in their cores measured there; then the same robust least squares as
    the whole-image fit (one round, a search radius of 0.12 hex: the coarse lattice is already
    within it). Memory and time are a few tiles', whatever the scan's size; the coverage (for
    the confidence) and the hexes found (for the first hex) stay the coarse fit's, which saw the
    whole map.
    """
    ev = ev or EVIDENCE[0]
    k = f_coarse / f_fine
    shift = (k - 1) / 2.0  # a coarse pixel i covers fine pixels [k*i, k*i + k)
    fine = Reading(rd.sideways, rd.dx * k, rd.dy * k, rd.u_hat, rd.v_hat, rd.rotation)
    h, w = (n // f_fine for n in grey_at.shape)
    margin = int(max(fine.dx, fine.dy)) + 8
    hex_px = min(fine.dx, fine.dy)
    every = list(tiles(h, w, REFINE_TILE))
    step = max(1, math.ceil(len(every) / REFINE_MAX_TILES))
    chosen = every[step // 2 :: step]

    def measure(pred: NDArray[np.float64], radius: int) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        out = np.full_like(pred, np.nan)
        strength = np.zeros(len(pred))
        px, py = np.round(pred[:, 0]).astype(np.int64), np.round(pred[:, 1]).astype(np.int64)

        def one(tile: tuple[slice, slice]) -> tuple[NDArray[np.intp], NDArray[np.float64], NDArray[np.float64]]:
            ys, xs = tile
            idx = np.nonzero((px >= xs.start) & (px < xs.stop) & (py >= ys.start) & (py < ys.stop))[0]
            if len(idx) == 0:
                return idx, np.empty((0, 2)), np.empty(0)
            y0, y1 = max(0, ys.start - margin), min(h, ys.stop + margin)
            x0, x1 = max(0, xs.start - margin), min(w, xs.stop + margin)
            corr = centre_correlation(ev.of(Derived(grey_at.tile(f_fine, (x0, y0, x1, y1))), hex_px), fine, ev.reach)
            offset = np.array([x0, y0], dtype=np.float64)
            m, st = _measure_centres(corr, pred[idx] - offset, radius)
            return idx, m + offset, st

        for idx, m, st in threaded_map(one, chosen, WORKERS):
            out[idx] = m
            strength[idx] = st
        return out, strength

    refined = fit_measured(measure, (h, w), fine, cf.o * k + shift, cf.u * k, cf.v * k, rounds=1, first_radius=0.12)
    # the hexes found stay the coarse fit's, over the whole map (same (c, r) indexing): the first
    # hex, where detect-grid's x0/y0 and game new's names start, is the map's, not the first tile's
    return replace(refined, coverage=cf.coverage, inliers=cf.inliers)


class _reducer:
    """Grey levels of a scan at 1/f resolution (block means; pixel j covers [f*j, f*j + f)).

    A PIL image is kept as 8-bit grey (the caller's own when it is grey already) and reduced by
    Pillow, so a large scan never exists as a full-resolution float array; :meth:`inside` reads a
    part of it (the map inside a frame) without copying it. The reduced images are kept once
    computed, with what the evidences derive from them (:class:`Derived`): the evidences and the
    second opinions of one detection read the same ones.
    """

    def __init__(self, image: object, box: tuple[int, int, int, int] | None = None) -> None:
        from PIL import Image

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

    def inside(self, box: tuple[int, int, int, int]) -> _reducer:
        """The part ``box`` = (x0, y0, x1, y1) of this scan, its pixel (0, 0) at (x0, y0)."""
        ox, oy = self._box[:2]
        x0, y0, x1, y1 = box
        return _reducer(self._pil if self._pil is not None else self._arr, (ox + x0, oy + y0, ox + x1, oy + y1))

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
            self._kept[f] = Derived(self._whole(f))
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


def _first_hex(o: Vec, u: Vec, v: Vec, inliers: NDArray[np.int64]) -> tuple[float, float]:
    """The centre of the top hex of the first well-populated column of measured hexes."""
    cols, counts = np.unique(inliers[:, 0], return_counts=True)
    full = cols[counts >= 0.5 * np.median(counts)]
    c = int(full.min())
    r = int(inliers[inliers[:, 0] == c, 1].min())
    p = o + c * u + (r + (c % 2) / 2.0) * v
    return float(p[0]), float(p[1])


# --- numbering from one reference hex ------------------------------------------------------------
def number_lattice(
    fit: LatticeFit, numbering: Numbering, label: str, x: float, y: float, *, board: tuple[int, int] = (0, 0)
) -> tuple[HexGridGeometry, Numbering]:
    """Fix raw (0, 0) from one reference hex: the hex under pixel (x, y) is named ``label``.

    The numbering is the user's and is never changed; the label is a raw index (c, r) under it
    with VASSAL's own column parity (raw odd columns are half a hex toward +v). A hex grid has no
    intrinsic parity, so any label at any hex gives one origin: the lattice hex nearest (x, y)
    is raw (c, r), so raw (0, 0) is at its centre minus ``c*dx`` along u and ``r*dy`` (plus half
    a hex when c is odd) along v. VASSAL draws its grid and names points on that continuous
    lattice (only snapping truncates), so x0, y0 are the fitted origin rounded. ``board`` (the
    image size) matters only for descending numberings (VASSAL's maxRows/maxColumns).

    Returns the VASSAL grid and the numbering (the given one).
    """
    uc, vc = _nearest_centre(fit, *((y, x) if fit.sideways else (x, y)))
    probe = HexGridGeometry(dx=fit.dx, dy=fit.dy, x0=0, y0=0, sideways=fit.sideways, numbering=numbering)
    kw = {"sideways": fit.sideways, "max_rows": probe.max_rows(board[1]), "max_columns": probe.max_columns(board[0])}
    try:
        c, r = numbering.parse(label, **kw)  # type: ignore[arg-type]
    except ValueError as exc:
        raise GazalaError(
            f"reference hex {label!r} is not a label of the numbering",
            place="--ref",
            expected=f"a name like {numbering.format_name(0, 0)!r} ({numbering.describe()})",
        ) from exc
    u0 = uc - c * fit.dx
    v0 = vc - r * fit.dy - (fit.dy / 2 if c % 2 else 0.0)
    geo = HexGridGeometry(dx=fit.dx, dy=fit.dy, x0=round(u0), y0=round(v0), sideways=fit.sideways, numbering=numbering)
    return geo, numbering


def _nearest_centre(fit: LatticeFit, u: float, v: float) -> tuple[float, float]:
    """The fitted lattice's hex centre (u, v) nearest the point (u, v) (grid axes)."""
    best: tuple[float, float, float] | None = None
    k0 = round((u - fit.x0) / fit.dx)
    for k in (k0 - 1, k0, k0 + 1):
        shift = fit.dy / 2 if k % 2 else 0.0
        j = round((v - fit.y0 - shift) / fit.dy)
        cu, cv = fit.x0 + k * fit.dx, fit.y0 + j * fit.dy + shift
        d = math.hypot(cu - u, cv - v)
        if best is None or d < best[0]:
            best = (d, cu, cv)
    assert best is not None
    return best[1], best[2]


