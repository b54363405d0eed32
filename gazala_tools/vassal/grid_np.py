"""Vectorised (numpy) versions of the VASSAL HexGrid lookups, equal to the scalar ones point for point.

Use for bulk work (digitizing, rendering checks, benchmarks): :func:`raw_at_many` answers which
hex contains each point (3.7 hexagon-exact or 3.6 rectangular), :func:`name_raw_at_many` gives the
raw index VASSAL's naming uses.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from gazala_tools.hexgrid import HexGridGeometry

__all__ = ["FloatArray", "IntArray", "name_raw_at_many", "raw_at_many"]

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]


def _jround(x: FloatArray) -> IntArray:
    return np.floor(x + 0.5).astype(np.int64)


def _centers(g: HexGridGeometry, c: IntArray, r: IntArray) -> tuple[IntArray, IntArray]:
    """(u, v) centres per HexGrid 5.3 (truncation toward zero like Java's (int))."""
    cu = np.trunc(g.dx * c + g.x0).astype(np.int64)
    odd = (c % 2) != 0
    half = int(g.dy / 2)
    cv = np.where(odd, np.trunc(g.dy * r + half + g.y0), np.trunc(g.dy * r + g.y0)).astype(np.int64)
    return cu, cv


def _hexagon_contains(g: HexGridGeometry, c: IntArray, r: IntArray, u: FloatArray, v: FloatArray) -> npt.NDArray[np.bool_]:
    cu_i, cv_i = _centers(g, c, r)
    f = np.float32
    x = cu_i.astype(f)
    y = cv_i.astype(f)
    dx, dy = f(g.dx), f(g.dy)
    rad = f(f(f(2.0) * dx) / f(3.0))
    half_r = f(f(0.5) * rad)
    half_dy = f(f(0.5) * dy)
    x2 = (x - half_r).astype(f)
    x3 = (x + half_r).astype(f)
    y2 = (y - half_dy).astype(f)
    y5 = (y + half_dy).astype(f)

    def rnd(a: npt.NDArray[np.float32]) -> IntArray:
        return np.floor(a.astype(np.float64) + 0.5).astype(np.int64)

    xs = [rnd((x - rad).astype(f)), rnd(x2), rnd(x3) + 1, rnd((x + rad).astype(f)) + 1, rnd(x3) + 1, rnd(x2)]
    ys = [rnd(y), rnd(y2), rnd(y2), rnd(y), rnd(y5) + 1, rnd(y5) + 1]
    inside_box = (u >= np.minimum.reduce(xs)) & (v >= np.minimum.reduce(ys))
    inside_box &= (u < np.maximum.reduce(xs)) & (v < np.maximum.reduce(ys))
    crossings = np.zeros(u.shape, dtype=np.int64)
    for i in range(6):
        # Area/Curve.crossingsFor per edge, oriented top to bottom (see grid.area_contains)
        ax0, ay0 = xs[i - 1].astype(np.float64), ys[i - 1].astype(np.float64)
        bx0, by0 = xs[i].astype(np.float64), ys[i].astype(np.float64)
        swap = ay0 > by0
        ax, ay = np.where(swap, bx0, ax0), np.where(swap, by0, ay0)
        bx, by = np.where(swap, ax0, bx0), np.where(swap, ay0, by0)
        live = (ay != by) & (ay <= v) & (v < by) & (u < np.maximum(ax, bx))
        left = live & (u < np.minimum(ax, bx))
        with np.errstate(divide="ignore", invalid="ignore"):
            xt = np.where((ax == bx) | (v <= ay), ax, np.where(v >= by, bx, ax + (v - ay) * (bx - ax) / (by - ay)))
        hit = left | (live & ~left & (u < xt))
        crossings += hit.astype(np.int64)
    result: npt.NDArray[np.bool_] = inside_box & ((crossings & 1) == 1)
    return result


def raw_at_many(
    g: HexGridGeometry, x: npt.ArrayLike, y: npt.ArrayLike, version: str = "3.7"
) -> tuple[IntArray, IntArray]:
    """Raw ``(c, r)`` arrays of the hexes the board points snap into (see ``HexGridGeometry.raw_at``)."""
    xa = np.asarray(x, dtype=np.float64)
    ya = np.asarray(y, dtype=np.float64)
    u, v = (ya, xa) if g.sideways else (xa, ya)
    c = np.floor((u - g.x0 + g.dx / 2) / g.dx).astype(np.int64)
    odd = (c % 2) != 0
    r = np.where(odd, np.floor((v - g.y0) / g.dy), np.floor((v - g.y0 + g.dy / 2) / g.dy)).astype(np.int64)
    if version < "3.7":
        return c, r
    ok = _hexagon_contains(g, c, r, u, v)
    todo = np.nonzero(~ok)[0]
    if todo.size:
        c0, r0, uu, vv = c[todo], r[todo], u[todo], v[todo]
        o = (c0 % 2) != 0
        found = np.zeros(todo.size, dtype=bool)
        rc, rr = c0.copy(), r0.copy()
        # neighbour order of HexGrid.hexPoint: even (c-1,r-1),(c-1,r),(c+1,r-1),(c+1,r); odd (c-1,r),(c-1,r+1),(c+1,r),(c+1,r+1)
        for dc, dr_even, dr_odd in ((-1, -1, 0), (-1, 0, 1), (1, -1, 0), (1, 0, 1)):
            cc = c0 + dc
            rr_try = r0 + np.where(o, dr_odd, dr_even)
            hit = ~found & _hexagon_contains(g, cc, rr_try, uu, vv)
            rc = np.where(hit, cc, rc)
            rr = np.where(hit, rr_try, rr)
            found |= hit
        c[todo], r[todo] = rc, rr
    return c, r


def name_raw_at_many(g: HexGridGeometry, x: npt.ArrayLike, y: npt.ArrayLike) -> tuple[IntArray, IntArray]:
    """Raw ``(c, r)`` that VASSAL's location *naming* assigns (rectangular rounding, 5.4)."""
    xa = np.asarray(x, dtype=np.float64)
    ya = np.asarray(y, dtype=np.float64)
    u, v = (ya, xa) if g.sideways else (xa, ya)
    col = np.floor((u - g.x0) / g.dx + 0.5).astype(np.int64)
    n = _jround((u - g.x0) / g.dx)
    odd = (n % 2) != 0
    row = np.where(odd, _jround((v - g.y0 - g.dy / 2) / g.dy), _jround((v - g.y0) / g.dy))
    return col, row
