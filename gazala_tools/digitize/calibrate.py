"""Fit a VASSAL grid to reference hexes: ``calibrate(refs, numbering)``.

Each reference says "the centre of hex LABEL is at pixel (X, Y)". Under a numbering, a label is a
raw VASSAL index (c, r), and VASSAL puts its centre at

    u = x0 + dx * c,        v = y0 + dy * r + dy/2 * (c odd)

(u, v) = (x, y), or (y, x) on a sideways grid. That is two independent linear least-squares
problems, (x0, dx) and (y0, dy).

The numbering is the user's and is never changed: a label names one raw index under it, with
VASSAL's own column parity (raw odd columns are the lower ones), so the parity needs no guess.
The one thing the labels do not say is the orientation, flat columns or pointy rows
(``sideways``): with three or more references spread over the map the residuals decide; two
references fit both exactly, so the hexes' shape decides: the reading whose dx/dy is nearest the
image's own (from :func:`~gazala_tools.digitize.lattice.detect_grid`, when an image is given) or
else nearest a regular hexagon's (sqrt(3)/2).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from gazala_tools.errors import GazalaError, HexNameError
from gazala_tools.hexgrid import HexGridGeometry
from gazala_tools.numbering import Numbering, java_odd

__all__ = [
    "MAX_REF_CHARS",
    "REGULAR",
    "Calibration",
    "Ref",
    "calibrate",
    "grid_from_image",
    "parse_ref",
    "ref_on_image",
]

REGULAR = math.sqrt(3) / 2


@dataclass(frozen=True)
class Ref:
    label: str
    x: float
    y: float


@dataclass(frozen=True)
class Calibration:
    geometry: HexGridGeometry  #: with the given numbering
    numbering: Numbering
    dx: float
    dy: float
    x0: float  #: unrounded
    y0: float
    residuals: tuple[tuple[str, float, float], ...]  #: (label, ex, ey) in pixels, after rounding x0/y0
    rms: float
    ambiguous: bool  #: another reading fits (nearly) as well
    alternatives: tuple[dict[str, object], ...] = ()

    def as_dict(self) -> dict[str, object]:
        return {
            "dx": round(self.dx, 4),
            "dy": round(self.dy, 4),
            "x0": self.geometry.x0,
            "y0": self.geometry.y0,
            "sideways": self.geometry.sideways,
            "orientation": "pointy" if self.geometry.sideways else "flat",
            "rms_px": round(self.rms, 3),
            "residuals": [{"ref": lab, "dx": round(ex, 3), "dy": round(ey, 3)} for lab, ex, ey in self.residuals],
            "ambiguous": self.ambiguous,
            "numbering": self.numbering.vassal_attrs(),
            "alternatives": list(self.alternatives),
        }


#: longest coordinate of a reference (a pixel position: ``12345.25``), so no 400-digit number is read
MAX_REF_CHARS = 20


def parse_ref(text: str, size: tuple[int, int] | None = None) -> Ref:
    """``"0101=123,456"`` (also ``0101=123.5,456``): finite pixel coordinates, on the image of ``size``."""
    expected = "LABEL=X,Y, e.g. 0101=120,96, with X and Y pixels of the scan"
    shown = text if len(text) <= 60 else text[:57] + "..."
    try:
        label, xy = text.split("=", 1)
        xs, ys = xy.split(",", 1)
        if max(len(xs.strip()), len(ys.strip())) > MAX_REF_CHARS:
            raise ValueError
        ref = Ref(label.strip(), float(xs), float(ys))
    except ValueError:
        raise GazalaError(f"bad reference {shown!r}", place="--ref", expected=expected) from None
    if not (math.isfinite(ref.x) and math.isfinite(ref.y)):
        raise GazalaError(f"bad reference {shown!r}: not a finite position", place="--ref", expected=expected)
    if size is not None:
        ref_on_image(ref, size)
    return ref


def ref_on_image(ref: Ref, size: tuple[int, int]) -> Ref:
    """``ref`` if its centre lies on an image of ``size`` (a printed hex is on the scan)."""
    w, h = size
    if not (0 <= ref.x <= w and 0 <= ref.y <= h):
        raise GazalaError(f"reference {ref.label}={ref.x:g},{ref.y:g} is off the image", place="--ref",
                          expected=f"a hex centre on the {w}x{h} scan (0..{w}, 0..{h})")
    return ref


def _fit_line(idx: np.ndarray, val: np.ndarray) -> tuple[float, float, np.ndarray] | None:
    """Least squares val = a + b*idx; None if idx has no spread."""
    if np.ptp(idx) == 0:
        return None
    design = np.stack([np.ones_like(idx), idx], axis=1)
    sol, *_ = np.linalg.lstsq(design, val, rcond=None)
    return float(sol[0]), float(sol[1]), val - design @ sol


def _interval_mid(idx: np.ndarray, val: np.ndarray, shift: np.ndarray | float, fallback: float) -> float:
    """The middle of the step sizes d with VASSAL's ``trunc(d*idx + shift) == val`` for every ref.

    ``val`` are the refs' coordinates, ``shift`` the integer origin (plus the odd columns'
    ``trunc(dy/2)``); Java truncates toward zero, so a centre left of or above the board's
    corner (negative) has its interval mirrored. Refs that are not integers (clicks) or an
    empty interval give ``fallback`` (the least-squares value).
    """
    if not np.allclose(val, np.round(val)):
        return fallback
    shifts = np.broadcast_to(np.asarray(shift, dtype=np.float64), np.shape(idx))
    lo, hi = -math.inf, math.inf
    for i, v, s0 in zip(idx, val, shifts, strict=True):
        # t = d*i + s0 with trunc(t) == v: v <= t < v + 1 (v > 0), v - 1 < t <= v (v < 0), |t| < 1 (v == 0)
        a, b = (v, v + 1) if v > 0 else ((v - 1, v) if v < 0 else (-1, 1))
        if i == 0:
            if not (a <= s0 <= b):
                return fallback
            continue
        a, b = (a - s0) / i, (b - s0) / i
        if i < 0:
            a, b = b, a
        lo, hi = max(lo, a), min(hi, b)
    if not (lo < hi) or not math.isfinite(lo) or not math.isfinite(hi):
        return fallback
    mid = float(lo + hi) / 2
    return mid if abs(mid - fallback) <= 0.02 * fallback + 0.5 else fallback


def calibrate(
    refs: Sequence[Ref],
    numbering: Numbering,
    *,
    board: tuple[int, int] = (0, 0),
    shape_hint: tuple[float, bool] | None = None,
) -> Calibration:
    """Fit the grid. ``shape_hint`` = (dx/dy, sideways) measured on the image, if any."""
    if len(refs) < 2:
        raise GazalaError("calibration needs at least two references", place="--ref", expected="two or more --ref")
    fits: list[tuple[float, float, Calibration]] = []
    problems: list[str] = []
    for sideways in (False, True):
        fit = _fit_orientation(refs, numbering, sideways, board, shape_hint, problems)
        if fit is not None:
            fits.append(fit)
    if not fits:
        raise GazalaError(
            "no grid fits the references" + (f" ({problems[0]})" if problems else ""),
            place="--ref",
            expected="labels of the numbering scheme at distinct columns and rows",
        )
    return _choose(fits)


@dataclass(frozen=True)
class _Reading:
    """The references read under one orientation: each one's raw index, and its centre along VASSAL's
    column axis (``us``) and row axis (``vs``)."""

    sideways: bool
    raws: list[tuple[int, int]]
    c: np.ndarray  #: the raw columns
    odd: np.ndarray  #: 1.0 in an odd column (VASSAL's parity), else 0.0
    rv: np.ndarray  #: the raw rows, plus half a row in the odd columns
    us: np.ndarray
    vs: np.ndarray


def _read(refs: Sequence[Ref], numbering: Numbering, sideways: bool, board: tuple[int, int]) -> _Reading:
    """The references under one orientation; raises :class:`HexNameError` for a label it cannot name."""
    probe = HexGridGeometry(sideways=sideways, numbering=numbering)
    kw = {"sideways": sideways, "max_rows": probe.max_rows(board[1]), "max_columns": probe.max_columns(board[0])}
    raws = [numbering.parse(r.label, **kw) for r in refs]  # type: ignore[arg-type]
    c = np.array([rc[0] for rc in raws], dtype=np.float64)
    odd = np.array([1.0 if java_odd(rc[0]) else 0.0 for rc in raws])
    rv = np.array([rc[1] for rc in raws], dtype=np.float64) + odd / 2
    us = np.array([r.y if sideways else r.x for r in refs])
    vs = np.array([r.x if sideways else r.y for r in refs])
    return _Reading(sideways, raws, c, odd, rv, us, vs)


def _fit_orientation(
    refs: Sequence[Ref],
    numbering: Numbering,
    sideways: bool,
    board: tuple[int, int],
    shape_hint: tuple[float, bool] | None,
    problems: list[str],
) -> tuple[float, float, Calibration] | None:
    """(rms, shape distance, calibration) of the grid of one orientation; None when none fits (why, when
    the references say it, added to ``problems``)."""
    try:
        reading = _read(refs, numbering, sideways, board)
    except HexNameError as exc:
        problems.append(str(exc))
        return None
    line = _least_squares(reading)
    if line is None:
        problems.append("the references must differ in column and in row")
        return None
    x0, dx, y0, dy = line
    if dx <= 0 or dy <= 0:
        return None
    # float fuzz below an exact value (19.999999999999993) would truncate a pixel short
    dx, dy = dx * (1 + 1e-12), dy * (1 + 1e-12)
    ss, geo, res = _best_origin(refs, numbering, reading, (x0, dx, y0, dy), shape_hint)
    rms = math.sqrt(ss / len(res))
    if shape_hint is not None:
        ratio, hint_sideways = shape_hint
        shape = abs(math.log((dx / dy) / ratio)) + (0.0 if sideways == hint_sideways else 1.0)
    else:
        shape = abs(math.log((dx / dy) / REGULAR))
    cal = Calibration(geo, numbering, dx, dy, x0, y0, tuple(res), rms, False)
    return rms, shape, cal


def _least_squares(reading: _Reading) -> tuple[float, float, float, float] | None:
    """(x0, dx, y0, dy) fitted to the references; None when they do not differ in column and in row."""
    c, odd, rv, us, vs = reading.c, reading.odd, reading.rv, reading.us, reading.vs
    fu, fv = _fit_line(c, us), _fit_line(rv, vs)
    if fu is None or fv is None:
        return None
    x0, dx, _ = fu
    x0, dx = float(x0), float(dx)
    y0, dy, _ = fv
    # VASSAL shifts odd columns by trunc(dy/2), not dy/2: refit with that offset fixed
    for _ in range(2):
        if dy <= 0 or np.ptp(rv - odd / 2) == 0:
            break
        again = _fit_line(rv - odd / 2, vs - odd * math.trunc(dy / 2))
        if again is None:
            break
        y0, dy, _ = again
    return x0, dx, y0, dy


def _best_origin(
    refs: Sequence[Ref],
    numbering: Numbering,
    reading: _Reading,
    fitted: tuple[float, float, float, float],
    shape_hint: tuple[float, bool] | None,
) -> tuple[float, HexGridGeometry, list[tuple[str, float, float]]]:
    """The integer origin (and steps) near the least-squares ``fitted`` (x0, dx, y0, dy) that fits the
    references best: (sum of squared residuals, grid, residuals)."""
    x0, dx, y0, dy = fitted
    c, odd, rv, us, vs, sideways = reading.c, reading.odd, reading.rv, reading.us, reading.vs, reading.sideways
    # VASSAL truncates centres, so the best integer origin is near the fitted one + 0.5
    # (exact ties, e.g. refs on VASSAL's own integer centres: the origin nearest the fit wins)
    best: tuple[float, float, HexGridGeometry, list[tuple[str, float, float]]] | None = None
    # Two refs fit several (origin, step) pairs exactly (VASSAL truncates): among exact fits
    # the image's hex shape decides, when known, then the origin nearest the fit
    # (the odd columns' trunc(dy/2) may be one off the least-squares dy's: all are tried)
    for ix, iy, half_dy in itertools.product(
        range(round(x0 + 0.5) - 2, round(x0 + 0.5) + 3),
        range(round(y0 + 0.5) - 2, round(y0 + 0.5) + 3),
        range(math.trunc(dy / 2) - 1, math.trunc(dy / 2) + 2),
    ):
        # refs on VASSAL's integer centres pin dx, dy to an interval: take its middle
        fdx = _interval_mid(c, us, float(ix), dx)
        fdy = _interval_mid(rv - odd / 2, vs, iy + odd * half_dy, dy)
        geo = HexGridGeometry(dx=fdx, dy=fdy, x0=ix, y0=iy, sideways=sideways, numbering=numbering)
        res = []
        for ref, (cc, rr) in zip(refs, reading.raws, strict=True):
            px, py = geo.raw_center(cc, rr)
            res.append((ref.label, px - ref.x, py - ref.y))
        ss = round(sum(ex * ex + ey * ey for _, ex, ey in res), 9)
        near = abs(ix - x0) + abs(iy - y0)
        if shape_hint is not None and shape_hint[1] == sideways:
            near = abs(math.log((fdx / fdy) / shape_hint[0])) * 1e4 + near
        if best is None or (ss, near) < (best[0], best[1]):
            best = (ss, near, geo, res)
    assert best is not None
    return best[0], best[2], best[3]


def _choose(fits: list[tuple[float, float, Calibration]]) -> Calibration:
    """The calibration of the orientation that fits: residuals first (beyond a pixel of click noise), then
    the hex shape; ambiguous when the other fits (nearly) as well."""
    best_rms = min(f[0] for f in fits)
    close = [f for f in fits if f[0] <= best_rms + 1.5]
    close.sort(key=lambda f: (f[1], f[0]))
    chosen = close[0][2]
    others = [f for f in fits if f[2] is not chosen]
    ambiguous = len(close) > 1 and close[1][1] - close[0][1] < 0.05
    alternatives: tuple[dict[str, object], ...] = tuple(
        {
            "sideways": f[2].geometry.sideways,
            "dx": round(f[2].dx, 3),
            "dy": round(f[2].dy, 3),
            "rms_px": round(f[0], 3),
        }
        for f in sorted(others, key=lambda f: (f[0], f[1]))[:3]
    )
    return Calibration(
        chosen.geometry,
        chosen.numbering,
        chosen.dx,
        chosen.dy,
        chosen.x0,
        chosen.y0,
        chosen.residuals,
        chosen.rms,
        ambiguous,
        alternatives,
    )


def grid_from_image(
    image: object, refs: Sequence[Ref], numbering: Numbering, *, board: tuple[int, int] | None = None
) -> tuple[HexGridGeometry, Numbering]:
    """The VASSAL grid (with ``numbering``) of a scan from one or more reference hexes.

    One reference: detect-grid finds the lattice, the reference names the hex under it
    (:func:`~gazala_tools.digitize.lattice.number_lattice`). Two or more: least squares over them
    (:func:`calibrate`), the image's hex shape deciding between exact fits when it is confident.
    ``board``: the size VASSAL numbers the grid by (descending numberings); the image's by default.
    """
    from gazala_tools.digitize.lattice import DEFAULT, detect_grid, number_lattice

    size = board or (int(image.width), int(image.height))  # type: ignore[attr-defined]
    if not refs:
        raise GazalaError("no reference hex", place="--ref", expected="at least one LABEL=X,Y")
    if len(refs) == 1:
        fit = detect_grid(image)
        return number_lattice(fit, numbering, refs[0].label, refs[0].x, refs[0].y, board=size)
    hint = None
    try:
        fit = detect_grid(image)
        if fit.confidence >= DEFAULT.low_confidence:
            hint = (fit.dx / fit.dy, fit.sideways)
    except GazalaError:
        pass
    cal = calibrate(refs, numbering, board=size, shape_hint=hint)
    return cal.geometry, cal.numbering
