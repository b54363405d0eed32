"""The sub-pixel fit of a read lattice to the hex centres (detect-grid step 4).

The evidence is reduced to long straight edges (:func:`line_edges`), correlated with a hexagon
outline (:func:`centre_correlation`); the maximum near every predicted centre is measured and the
lattice ``centre(c, r) = O + c*U + (r + (c odd)/2)*V`` fitted to them by robust least squares
(:func:`fit_centres`, :func:`fit_measured`); :func:`axis_aligned` is the grid VASSAL can draw
through the same centres.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray
from scipy import ndimage, signal

from gazala_tools.digitize.image import FloatImage, row_bands, threaded_map
from gazala_tools.digitize.lattice.params import DEFAULT, Params, Vec
from gazala_tools.digitize.lattice.readings import Reading, dist_to_segments, hex_segments
from gazala_tools.errors import GazalaError

__all__ = [
    "CentreFit",
    "Measure",
    "axis_aligned",
    "axis_aligned_rms",
    "centre_correlation",
    "fit_centres",
    "fit_measured",
    "hexagon_kernel",
    "line_edges",
    "measure_centres",
]


def line_edges(e: FloatImage, reading: Reading, reach: float = 0.45, params: Params = DEFAULT) -> FloatImage:
    """Keep only edges that run straight along a hex-edge direction for ``reach`` of an edge's length.

    A grey opening with a line element per edge direction: hex numbers, names and symbols are
    made of short strokes and vanish; the grid's long straight edges stay.
    """
    segs = hex_segments(reading)
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
    # each direction in bands of rows (with the opening's reach as margin: the same values as on
    # the whole image), so that the workers share the directions evenly
    tasks = [(fp, band) for fp in footprints for band in row_bands(e.shape[0], fp.shape[0] - 1, params.workers)]

    def opened(task: tuple[NDArray[np.bool_], tuple[int, int, int, int]]) -> FloatImage:
        fp, (a, b, y0, y1) = task
        res: FloatImage = _opening(e[a:b], fp)[y0 - a : y1 - a]
        return res

    for (_fp, (_a, _b, y0, y1)), part in zip(tasks, threaded_map(opened, tasks, params.workers), strict=True):
        np.maximum(out[y0:y1], part, out=out[y0:y1])
    return out


def _opening(e: FloatImage, footprint: NDArray[np.bool_]) -> FloatImage:
    """``ndimage.grey_opening(e, footprint=footprint)`` for a footprint symmetric about its centre
    (a line), the same values about twice as fast: the erosion and then the dilation as the
    minimum and the maximum of the image shifted to each point of the footprint (edges mirrored,
    SciPy's ``reflect``)."""

    def extreme(a: FloatImage, op: np.ufunc) -> FloatImage:
        ry, rx = footprint.shape[0] // 2, footprint.shape[1] // 2
        padded = np.pad(a, ((ry, ry), (rx, rx)), mode="symmetric")
        h, w = a.shape
        ys, xs = np.nonzero(footprint)
        out: FloatImage = padded[ys[0] : ys[0] + h, xs[0] : xs[0] + w].copy()
        for y, x in zip(ys[1:], xs[1:], strict=True):
            op(out, padded[y : y + h, x : x + w], out=out)
        return out

    if min(e.shape) <= max(footprint.shape):  # a tiny image: mirrored more than once at its edges
        tiny: FloatImage = ndimage.grey_opening(e, footprint=footprint)
        return tiny
    return extreme(extreme(e, np.minimum), np.maximum)


def hexagon_kernel(reading: Reading, sigma: float) -> NDArray[np.float64]:
    r = math.ceil(max(reading.dx * 2 / 3, reading.dy / 2, reading.dx, reading.dy) * 0.75 + 3 * sigma)
    ys, xs = np.mgrid[-r : r + 1, -r : r + 1]
    q = np.stack([xs.ravel(), ys.ravel()], axis=1).astype(np.float64)
    d = dist_to_segments(q, hex_segments(reading)).reshape(xs.shape)
    k = np.exp(-((d / sigma) ** 2))
    # Hex numbers and names are centred horizontally in the hex (near its top): ignore the middle
    # band, so text never pulls the fit. Flat: the top and bottom edges go; pointy: the apexes.
    half = (reading.dx / 3 + 2 * sigma) if not reading.sideways else 0.3 * reading.dy
    k[np.abs(xs) < half] = 0.0
    out: NDArray[np.float64] = k - k.mean()
    return out


def measure_centres(
    corr: NDArray[np.floating], predicted: NDArray[np.float64], radius: int
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Sub-pixel maxima of ``corr`` within ``radius`` of each predicted (x, y); NaN where off-image
    or where the window's maximum is on its rim (no clear centre). Vectorised over the centres, in
    chunks: the same values as :func:`subpixel_peak` at each window's first maximum."""
    h, w = corr.shape
    out = np.full_like(predicted, np.nan)
    strength = np.zeros(len(predicted))
    side = 2 * radius + 1
    xs, ys = np.round(predicted[:, 0]).astype(np.int64), np.round(predicted[:, 1]).astype(np.int64)
    inside = np.nonzero((xs - radius - 1 >= 0) & (ys - radius - 1 >= 0) & (xs + radius + 1 < w) & (ys + radius + 1 < h))[0]
    offs = np.arange(-radius, radius + 1)
    chunk = max(1, (1 << 22) // (side * side))  # at most 4 M window values at once
    for start in range(0, len(inside), chunk):
        idx = inside[start : start + chunk]
        x, y = xs[idx], ys[idx]
        win = corr[(y[:, None] + offs)[:, :, None], (x[:, None] + offs)[:, None, :]].reshape(len(idx), side * side)
        k = np.argmax(win, axis=1)
        iy, ix = np.divmod(k, side)
        clear = (iy != 0) & (iy != 2 * radius) & (ix != 0) & (ix != 2 * radius)
        idx, x, y, iy, ix, k, win = idx[clear], x[clear], y[clear], iy[clear], ix[clear], k[clear], win[clear]
        py, px = y + offs[iy], x + offs[ix]
        c = corr[py, px].astype(np.float64)
        sy = _parabola(corr[py - 1, px].astype(np.float64), c, corr[py + 1, px].astype(np.float64))
        sx = _parabola(corr[py, px - 1].astype(np.float64), c, corr[py, px + 1].astype(np.float64))
        out[idx, 0] = px + sx
        out[idx, 1] = py + sy
        strength[idx] = win[np.arange(len(idx)), k]
    return out, strength


def _parabola(lo: NDArray[np.float64], c: NDArray[np.float64], hi: NDArray[np.float64]) -> NDArray[np.float64]:
    """:func:`subpixel_peak`'s step along one axis, for arrays of neighbours (0 where not a maximum)."""
    den = lo - 2 * c + hi
    neg = den < 0
    step = np.zeros_like(c)
    step[neg] = np.minimum(0.5, np.maximum(-0.5, 0.5 * (lo[neg] - hi[neg]) / den[neg]))
    return step


def _surrounded(cr: NDArray[np.int64], found: NDArray[np.bool_]) -> NDArray[np.bool_]:
    """Which lattice hexes (c, r) have all six neighbours among the found ones."""
    if len(cr) == 0:
        return np.zeros(0, dtype=bool)
    lo = cr.min(axis=0) - 1
    c, r = cr[:, 0], cr[:, 1]
    have = np.zeros(tuple(cr.max(axis=0) - lo + 2), dtype=bool)
    have[c[found] - lo[0], r[found] - lo[1]] = True
    up = np.where(c % 2 == 0, r - 1, r)  # the row of the upper neighbours in the next columns
    ring = ((c, r - 1), (c, r + 1), (c - 1, up), (c - 1, up + 1), (c + 1, up), (c + 1, up + 1))
    out = np.ones(len(cr), dtype=bool)
    for nc, nr in ring:
        out &= have[nc - lo[0], nr - lo[1]]
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
    e: FloatImage, reading: Reading, reach: float = 0.45, lines: FloatImage | None = None, params: Params = DEFAULT
) -> NDArray[np.float64]:
    """The hexagon-outline kernel correlated with the straight edges of ``e``: peaks at hex centres."""
    sigma = max(1.0, min(reading.dx, reading.dy) / 30)
    kern = hexagon_kernel(reading, sigma)
    lines = line_edges(e, reading, reach, params) if lines is None else lines
    # in single precision (3x faster than double; peaks within 1e-6 of the double's)
    zero_mean = (lines - np.float32(lines.mean())).astype(np.float32)
    out: NDArray[np.float64] = signal.fftconvolve(zero_mean, kern[::-1, ::-1].astype(np.float32), mode="same").astype(np.float64)
    return out


def fit_centres(
    e: FloatImage,
    reading: Reading,
    origin: Vec,
    *,
    rounds: int = 3,
    reach: float = 0.45,
    lines: FloatImage | None = None,
    params: Params = DEFAULT,
) -> CentreFit:
    """Robust least squares of O, U, V to measured hex centres (``lines``: ``e``'s
    :func:`line_edges` for ``reading``, if already made)."""
    corr = centre_correlation(e, reading, reach, lines, params)
    u, v = np.array(reading.u_hat) * reading.dx, np.array(reading.v_hat) * reading.dy
    return fit_measured(
        lambda pred, radius: measure_centres(corr, pred, radius), e.shape, reading, origin, u, v, rounds=rounds,
        params=params,
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
    first_radius: float | None = None,
    params: Params = DEFAULT,
) -> CentreFit:
    """Robust least squares of O, U, V to the centres ``measure`` finds near the predicted ones
    (search radius ``first_radius`` hex in the first round, ``params.first_radius`` if not
    given, then ``params.next_radius``)."""
    first = params.first_radius if first_radius is None else first_radius
    h, w = shape[0], shape[1]
    o = origin.copy()
    rms, count, coverage = float("nan"), 0, 0.0
    inliers = np.zeros((0, 2), dtype=np.int64)
    used, measured = np.zeros((0, 2), dtype=np.int64), np.zeros((0, 2))
    for rnd in range(rounds):
        cr, a, pred = _lattice_on_image(o, u, v, w, h)
        radius = max(2, int(min(reading.dx, reading.dy) * (first if rnd == 0 else params.next_radius)))
        meas, strength = measure(pred, radius)
        ok = ~np.isnan(meas[:, 0])
        if ok.sum() < 6:
            raise GazalaError("too few hex centres could be located", expected="a scan with visible hex edges")
        med = float(np.median(strength[ok]))
        ok &= strength > params.weak_centre * med
        sol, sel = _trimmed_fit(a, meas, ok, params)
        # Hexes on the rim of the found area are pulled outwards (nothing beyond them balances
        # the kernel): fit only hexes whose six neighbours were all found, when there are enough.
        inner = sel & _surrounded(cr, sel)
        use = inner if inner.sum() >= params.min_surrounded else sel
        sol = _huber_fit(a, meas, use, sol, params)
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


def _lattice_on_image(
    o: Vec, u: Vec, v: Vec, w: int, h: int
) -> tuple[NDArray[np.int64], NDArray[np.float64], NDArray[np.float64]]:
    """Every lattice hex whose centre is on the image: its (column, row), design row and centre."""
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
    return cr[inside], a[inside], pred[inside]


def _trimmed_fit(
    a: NDArray[np.float64], meas: NDArray[np.float64], ok: NDArray[np.bool_], params: Params
) -> tuple[NDArray[np.floating], NDArray[np.bool_]]:
    """Least squares on the ``ok`` centres, refitted (up to three times) without the outliers:
    the solution and the centres kept."""
    sel = ok.copy()
    for _ in range(3):
        sol, *_ = np.linalg.lstsq(a[sel], meas[sel], rcond=None)
        res = np.hypot(*(meas - a @ sol).T)
        mad = float(np.median(res[sel])) + 1e-6
        new = ok & (res < max(params.outlier_mads * 1.4826 * mad, params.outlier_floor_px))
        if new.sum() < 6 or np.array_equal(new, sel):
            break
        sel = new
    return sol, sel


def _huber_fit(
    a: NDArray[np.float64], meas: NDArray[np.float64], use: NDArray[np.bool_], sol: NDArray[np.floating],
    params: Params,
) -> NDArray[np.floating]:
    """Huber-weighted least squares (IRLS) from ``sol`` on the ``use`` centres: printed features
    biasing a minority of hexes (escarpment hatching, symbols on one side) do not move the lattice."""
    for _ in range(8):
        r_x = meas[use] - a[use] @ sol
        wts = 1.0 / np.sqrt(np.maximum(np.abs(r_x), params.huber_px))
        sol = np.stack(
            [np.linalg.lstsq(a[use] * wts[:, k : k + 1], meas[use, k] * wts[:, k], rcond=None)[0] for k in (0, 1)],
            axis=1,
        )
    return sol


def axis_aligned_rms(cf: CentreFit, sideways: bool, dx: float, dy: float, origin: Vec) -> float:
    """RMS distance of the measured centres from the axis-aligned lattice (what VASSAL draws)."""
    c = cf.used[:, 0].astype(np.float64)
    r = cf.used[:, 1].astype(np.float64) + (cf.used[:, 0] % 2) / 2.0
    du, dv = c * dx, r * dy
    pred = origin + (np.stack([dv, du], axis=1) if sideways else np.stack([du, dv], axis=1))
    return float(np.sqrt(np.mean(np.sum((cf.measured - pred) ** 2, axis=1))))


def axis_aligned(cf: CentreFit, sideways: bool, params: Params = DEFAULT) -> tuple[float, float, Vec]:
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
    u0 = _robust_offset(cf.measured[:, k_u] - c * dx, params.huber_px)
    v0 = _robust_offset(cf.measured[:, k_v] - r * dy, params.huber_px)
    origin = np.array([v0, u0] if sideways else [u0, v0], dtype=np.float64)
    return dx, dy, origin


def _robust_offset(values: NDArray[np.float64], huber_px: float) -> float:
    """Huber (IRLS) location of ``values``."""
    m = float(np.median(values))
    for _ in range(8):
        wts = 1.0 / np.sqrt(np.maximum(np.abs(values - m), huber_px))
        m = float(np.sum(wts * values) / np.sum(wts))
    return m

