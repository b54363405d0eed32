"""Candidate lattices from the periodicity of the edges (detect-grid step 2).

The autocorrelation of the equalised edge image peaks at every vector of the lattice of hex
centres: :func:`lattice_bases` gives the candidate lattices readable as a hex grid (the chosen
one first, then second opinions), each a reduced basis refined by least squares over its peaks.
"""

from __future__ import annotations

import logging

import numpy as np
from numpy.typing import NDArray
from scipy import ndimage
from scipy.fft import next_fast_len

from gazala_tools.digitize.image import FloatImage
from gazala_tools.digitize.lattice.evidence import equalise_edges
from gazala_tools.digitize.lattice.params import DEFAULT, Params, Vec
from gazala_tools.digitize.lattice.readings import readable
from gazala_tools.errors import GazalaError

__all__ = [
    "lattice_bases",
    "lattice_basis",
    "log",
    "subpixel_peak",
]

log = logging.getLogger(__name__)


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
    return int(next_fast_len(n, real=True))

def subpixel_peak(a: NDArray[np.floating], y: int, x: int) -> tuple[float, float]:
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


def _peaks(
    ac: FloatImage, min_r: float, max_r: float, count: int = 40, params: Params = DEFAULT
) -> list[tuple[float, Vec]]:
    """Local maxima of the autocorrelation in a ring, at least ``params.peak_prominence`` as
    prominent as the most or ``params.peak_height`` as high as the highest:
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
    keep = (prom >= params.peak_prominence * prom.max()) | (vals >= params.peak_height * vals.max())
    ys, xs, r = ys[keep], xs[keep], r[keep]
    order = np.argsort(r, kind="stable")[:count]
    out: list[tuple[float, Vec]] = []
    for i in order:
        py, px = subpixel_peak(ac, int(ys[i]), int(xs[i]))
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


def lattice_basis(e: FloatImage, *, min_period: float = 6.0, params: Params = DEFAULT) -> tuple[Vec, Vec, float]:
    """A reduced basis of the centre lattice (pixels of ``e``) and the share of peaks it explains.

    Only lattices that can be read as a hex grid (:func:`readable`) are candidates: a chart's
    rectangular ruling is periodic too.
    """
    return lattice_bases(e, min_period=min_period, params=params)[0]


def lattice_bases(
    e: FloatImage, *, min_period: float = 6.0, count: int = 1, ridge_free: bool = False, params: Params = DEFAULT
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
    peaks = _peaks(ac, min_period, max_shift * 0.9, count=400, params=params)
    if len(peaks) < 2:
        raise GazalaError("no periodic structure found", expected="a scan of a hex grid")
    top = max(v for v, _ in peaks)
    distinct = _distinct_directions(peaks, top, params)
    candidates = _scored_candidates(ac, distinct, min_period, max_shift)
    if not candidates:
        raise GazalaError("found only one direction of periodicity", expected="a two-dimensional hex grid")
    chosen = _chosen_bases(candidates, count, params)
    return [_refine(ac, peaks, b1, b2, top, max_shift, raw, params.refine_peak) for b1, b2 in chosen]


# (mean on the lattice's points, cell area, b1, b2, contrast against half a step off them)
_Candidate = tuple[float, float, Vec, Vec, float]


def _distinct_directions(peaks: list[tuple[float, Vec]], top: float, params: Params) -> list[Vec]:
    """The strong peaks' vectors in distinct directions (up to sign), shortest first, at most 40."""
    strong = [p for v, p in peaks if v >= params.strong_peak * top]
    if len(strong) < 2:
        strong = [p for _, p in peaks[:6]]
    strong.sort(key=lambda p: float(np.hypot(*p)))
    distinct: list[Vec] = []
    for p in strong:
        if not any(np.hypot(*(p - q)) < 1.5 or np.hypot(*(p + q)) < 1.5 for q in distinct):
            distinct.append(p)
        if len(distinct) >= 40:
            break
    return distinct


def _scored_candidates(ac: FloatImage, distinct: list[Vec], min_period: float, max_shift: int) -> list[_Candidate]:
    """Every pair of non-parallel directions, reduced, readable as a hex grid and of cells at
    least ``min_period`` square, scored on the autocorrelation."""
    candidates: list[_Candidate] = []
    ac_max = ndimage.maximum_filter(ac, size=3, mode="nearest")
    # many pairs reduce to the same basis: each reduced basis is read and scored once
    scored: dict[bytes, tuple[float, float] | None] = {}
    for a in range(len(distinct)):
        for b in range(a + 1, len(distinct)):
            p, q = distinct[a], distinct[b]
            if abs(p[0] * q[1] - p[1] * q[0]) < 0.2 * np.hypot(*p) * np.hypot(*q):
                continue
            r1, r2 = _reduce(p, q)
            area = abs(float(r1[0] * r2[1] - r1[1] * r2[0]))
            if area < min_period**2:
                continue
            key = r1.tobytes() + r2.tobytes()
            if key not in scored:
                scored[key] = None if not readable(r1, r2) else (
                    _lattice_mean(ac_max, r1, r2, min_period, max_shift * 0.9),
                    _lattice_contrast(ac_max, r1, r2, min_period, max_shift * 0.9),
                )
            found = scored[key]
            if found is None:
                continue
            mean, contrast = found
            candidates.append((mean, area, r1, r2, contrast))
    return candidates


def _chosen_bases(candidates: list[_Candidate], count: int, params: Params) -> list[tuple[Vec, Vec]]:
    """The best candidate, then up to ``count - 1`` other lattices, strongest first."""
    # Lattices clearly stronger on their points than half a step off them (a spurious finer
    # lattice, e.g. from a chart's ruling or JPEG blocks, is not), then the finest of those whose
    # points are (nearly) all as strong as the best one's (a coarser sub-lattice is not finest).
    best: tuple[float, float, Vec, Vec] | None = None
    top_contrast = max(c[4] for c in candidates)
    clear = [c for c in candidates if c[4] >= top_contrast - params.contrast_margin * abs(top_contrast)]
    top_mean = max(c[0] for c in clear)
    for c in sorted(clear, key=lambda c: c[1]):
        if c[0] >= params.finest_strength * top_mean:
            best = (c[0], c[1], c[2], c[3])
            break
    assert best is not None
    chosen = [(best[2], best[3])]
    for c in sorted(candidates, key=lambda c: -c[0]):
        if len(chosen) >= count:
            break
        if not any(_is_lattice(c[2], *b) and _is_lattice(c[3], *b) and abs(c[1] - _area(*b)) < 0.1 * c[1] for b in chosen):
            chosen.append((c[2], c[3]))
    return chosen


def _area(b1: Vec, b2: Vec) -> float:
    return abs(float(b1[0] * b2[1] - b1[1] * b2[0]))


def _refine(
    ac: FloatImage, peaks: list[tuple[float, Vec]], b1: Vec, b2: Vec, top: float, max_shift: int,
    raw: FloatImage | None = None, least: float = 0.15,
) -> tuple[Vec, Vec, float]:
    """Locate every lattice point's peak in range (at least ``least`` of ``top``), then least
    squares; with the share of peaks explained. The peaks are told by ``ac``; they are located
    on ``raw`` (the autocorrelation before its ridges were taken off: a column's or row's offset would pull a peak sideways,
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
            if ac[yy, xx] <= least * top:
                continue
            k = int(np.argmax(raw[y0:y1, x0:x1]))
            yy, xx = y0 + k // win.shape[1], x0 + k % win.shape[1]
            py, px = subpixel_peak(raw, yy, xx)
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

def _same_points(a: tuple[Vec, Vec], b: tuple[Vec, Vec], tol: float = 0.02) -> bool:
    """Whether the bases ``a`` and ``b`` span the same lattice: the same cell area (within 1%)
    and each vector of ``a`` a lattice point of ``b`` (within ``tol`` of a step)."""
    area_a, area_b = _area(*a), _area(*b)
    if area_b == 0 or abs(area_a / area_b - 1) > 0.01:
        return False
    return all(_is_lattice(p, *b, tol=tol) for p in a)

