"""Readings of a lattice as a hex grid, and the one the edges choose (detect-grid step 3).

A lattice of centres can be read as flat-topped columns or pointy-topped rows in several ways
(:func:`readings`); each predicts where the hex edges are (:func:`honeycomb_distance`), and
:func:`fold_score` correlates the edges folded into one lattice cell with that honeycomb, which
gives the reading's score and the phase (one hex centre).
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from gazala_tools.digitize.image import FloatImage
from gazala_tools.digitize.lattice.params import Vec

__all__ = [
    "HALF_STEP_TOL",
    "MAX_ANGLE",
    "RATIOS",
    "Reading",
    "dist_to_segments",
    "fold_score",
    "hex_segments",
    "honeycomb_distance",
    "readable",
    "readings",
]

#: a reading's columns (flat) or rows (pointy) are at most this many degrees off the image's axis
MAX_ANGLE = 8.0
#: the dx/dy ratios a hex grid is read with
RATIOS = (0.3, 3.0)
#: a hex grid's next column is half a step along it, within this share of a step
HALF_STEP_TOL = 0.12


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


def readings(b1: Vec, b2: Vec, *, max_angle: float = MAX_ANGLE) -> list[Reading]:
    """Every way to read the lattice as flat columns or pointy rows with hexes of ratio 0.3..3
    (:data:`RATIOS`), their columns (rows) within ``max_angle`` degrees of the image's axis."""
    return list(_readings(b1, b2, max_angle))


def readable(b1: Vec, b2: Vec, *, max_angle: float = MAX_ANGLE) -> bool:
    """Can the lattice be read as a hex grid at all (is :func:`readings` not empty)? It stops at the
    first reading: the candidate lattices of a scan are asked this hundreds of times."""
    return next(_readings(b1, b2, max_angle), None) is not None


def _readings(b1: Vec, b2: Vec, max_angle: float) -> Iterator[Reading]:
    """The readings of :func:`readings`, one at a time, each (sideways, dx, dy) once."""
    area = abs(float(b1[0] * b2[1] - b1[1] * b2[0]))
    (x1, y1), (x2, y2) = (float(c) for c in b1), (float(c) for c in b2)
    seen: set[tuple[bool, int, int]] = set()
    for i in range(-4, 5):
        for j in range(-4, 5):
            if math.gcd(i, j) != 1:
                continue
            vx, vy = i * x1 + j * x2, i * y1 + j * y2  # V = i*b1 + j*b2, as floats: most (i, j) read no grid
            for sideways in (False, True):
                along = vx if sideways else vy  # V along its axis: flat, V near vertical; pointy, horizontal
                if along < 0:
                    continue
                dy = float(np.hypot(vx, vy))
                if math.degrees(math.acos(max(-1.0, min(1.0, along / dy)))) > max_angle:
                    continue
                reading = _reading(b1, b2, i, j, sideways, area, (vx, vy), dy)
                if reading is None:
                    continue
                key = (sideways, round(reading.dx * 4), round(reading.dy * 4))
                if key not in seen:
                    seen.add(key)
                    yield reading


def _reading(b1: Vec, b2: Vec, i: int, j: int, sideways: bool, area: float, v: tuple[float, float],
             dy: float) -> Reading | None:
    """The reading whose columns (rows) run along ``v`` = ``i*b1 + j*b2`` (of length ``dy``, within the
    angle of its axis), None when that is no hex grid's: hexes of another ratio, or a next column not
    half a step along it."""
    dx = area / dy
    if not (RATIOS[0] <= dx / dy <= RATIOS[1]):
        return None
    v_hat = np.array(v) / dy
    # u: perpendicular to v, pointing right (flat) or down (pointy)
    u_hat = np.array([v_hat[1], -v_hat[0]]) if not sideways else np.array([-v_hat[1], v_hat[0]])
    if (u_hat[0] if not sideways else u_hat[1]) < 0:
        u_hat = -u_hat
    # half-offset test: a completing basis vector W sits half a step along V
    _g, k, m = _ext_gcd(i, j)
    w = -m * b1 + k * b2  # det([i j], [-m k]) = i*k + j*m = 1
    e = float(w @ v_hat) / dy
    if abs(e - math.floor(e) - 0.5) > HALF_STEP_TOL:
        return None
    # rotation: angle of v from its axis, clockwise positive on screen
    rot = math.degrees(math.atan2(-v_hat[0], v_hat[1])) if not sideways else math.degrees(
        math.atan2(v_hat[1], v_hat[0])
    )
    return Reading(sideways, dx, dy, (float(u_hat[0]), float(u_hat[1])), (float(v_hat[0]), float(v_hat[1])), rot)


def _ext_gcd(a: int, b: int) -> tuple[int, int, int]:
    """(g, x, y) with a*x + b*y = g."""
    if b == 0:
        return (abs(a), 1 if a >= 0 else -1, 0)
    g, x, y = _ext_gcd(b, a % b)
    return g, y, x - (a // b) * y


def hex_segments(reading: Reading) -> list[tuple[Vec, Vec]]:
    """The six edges of the hexagon around centre 0, in screen pixels (float)."""
    u, v = np.array(reading.u_hat), np.array(reading.v_hat)
    dx, dy = reading.dx, reading.dy
    corners_uv = ((-dx / 3, -dy / 2), (dx / 3, -dy / 2), (2 * dx / 3, 0.0), (dx / 3, dy / 2), (-dx / 3, dy / 2), (-2 * dx / 3, 0.0))
    pts = [cu * u + cv * v for cu, cv in corners_uv]
    return [(pts[k], pts[(k + 1) % 6]) for k in range(6)]


def dist_to_segments(q: NDArray[np.float64], segs: list[tuple[Vec, Vec]]) -> NDArray[np.float64]:
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
    base = hex_segments(reading)
    for i in (-1, 0, 1):
        for j in (-1, 0, 1):
            off = i * a1 + j * a2
            segs.extend((a + off, b + off) for a, b in base)
    # fold q into the cell around 0 first
    m = np.stack([a1, a2], axis=1)
    st = np.linalg.solve(m, q.T).T
    st -= np.round(st)
    qf = st @ m.T
    return dist_to_segments(qf, segs)


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

