"""The whole detection: ``detect_grid(image, params=...) -> LatticeFit`` (detect-grid steps 0-8).

The frame is cut off (:func:`~.evidence.map_area`); the candidate lattices of the periodicity
(:mod:`.candidates`) are read as hex grids (:mod:`.readings`) and fitted (:mod:`.fitting`) on one
evidence after another (:mod:`.evidence`) while none is confident; the ridge-free, faint-line and
other candidate lattices are second opinions below a confidence; a large scan's kept fit is
measured again in tiles (:mod:`.tiles`). Every tunable is a field of the :class:`Params` given.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable
from dataclasses import dataclass, field, replace

import numpy as np
import scipy.fft
from numpy.typing import NDArray

from gazala_tools.digitize.image import FloatImage, downsample, factor_for
from gazala_tools.digitize.lattice.candidates import _same_points, lattice_bases
from gazala_tools.digitize.lattice.evidence import Reducer, evidences, line_filter, map_area
from gazala_tools.digitize.lattice.fitting import (
    CentreFit,
    axis_aligned,
    axis_aligned_rms,
    fit_centres,
    line_edges,
)
from gazala_tools.digitize.lattice.params import DEFAULT, Params, Progress, Vec
from gazala_tools.digitize.lattice.readings import Reading, fold_score, readings
from gazala_tools.digitize.lattice.tiles import Refine, tiled
from gazala_tools.errors import GazalaError
from gazala_tools.hexgrid import HexGridGeometry
from gazala_tools.numbering import Numbering

__all__ = [
    "LatticeFit",
    "detect_grid",
    "log",
    "rms_quality",
]

log = logging.getLogger(__name__)


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


def detect_grid(image: object, *, progress: Progress | None = None, params: Params = DEFAULT) -> LatticeFit:
    """Detect the hex lattice of a scan (a PIL image or a grey/RGB numpy array).

    A dark frame around the map (a border touching the image's edges, with its notches) is cut
    off first (:func:`map_area`), so that it cannot decide the lattice; coordinates are the
    image's. ``params``: the tunables (:class:`Params`; the default is the detector documented
    in docs/digitize.md).
    """
    with scipy.fft.set_workers(params.workers):
        return _detect_in_frame(Reducer(image, params=params), progress)


def _detect_in_frame(grey_at: Reducer, progress: Progress | None) -> LatticeFit:
    f0 = factor_for(grey_at.shape, grey_at.params.autocorr_side)
    x0, y0, x1, y1 = (v * f0 for v in map_area(grey_at(f0), grey_at.params))
    if (x0, y0) != (0, 0) or x1 < grey_at.shape[1] - f0 or y1 < grey_at.shape[0] - f0:
        log.info("map area (%d, %d)-(%d, %d): a frame is cut off", x0, y0, x1, y1)
        return _shifted(_detect(grey_at.inside((x0, y0, x1, y1)), progress), float(x0), float(y0))
    return _detect(grey_at, progress)


def _shifted(fit: LatticeFit, dx: float, dy: float) -> LatticeFit:
    """``fit`` of a crop at (dx, dy), in the whole image's pixels."""
    gc = None if fit.grid_centre is None else (fit.grid_centre[0] + dx, fit.grid_centre[1] + dy)
    affine = None if fit.affine is None else ((fit.affine[0][0] + dx, fit.affine[0][1] + dy), fit.affine[1], fit.affine[2])
    return replace(fit, cx=fit.cx + dx, cy=fit.cy + dy, grid_centre=gc, affine=affine)


def _detect(grey_at: Reducer, progress: Progress | None) -> LatticeFit:
    say = progress or (lambda _msg: None)
    p = grey_at.params
    # stage 1 at low resolution
    f1 = factor_for(grey_at.shape, p.autocorr_side)
    say("edges")
    e1 = grey_at.derived(f1).gradient
    say("periodicity")
    bases = lattice_bases(e1, min_period=p.min_period, count=1 + p.second_opinions, params=p)
    b1, b2, _share = bases[0]
    fit = _fit_lattice(grey_at, f1, b1 * f1, b2 * f1, say)
    tried = [(b1, b2)]
    if fit.fit.confidence < p.ridge_below:
        # a pattern periodic one way only (a pitch's mown stripes) can outweigh the grid's peaks:
        # the lattices of the autocorrelation without its ridges
        try:
            ridge_free = lattice_bases(e1, min_period=p.min_period, count=2, ridge_free=True, params=p)
        except GazalaError:
            ridge_free = []
        fit = _second_opinions(grey_at, f1, fit, ridge_free, tried, "ridge-free lattice")
    if fit.fit.confidence < p.low_confidence:
        # a grid too faint for the edges' periodicity: the periodicity of faint lines (a span of
        # stage1_span px at this resolution suits hexes from about 14 px up)
        say("faint lines")
        faint_e = line_filter(grey_at(f1), p.stage1_span, params=p)
        faint = lattice_bases(faint_e, min_period=p.min_period, count=2, params=p)
        fit = _second_opinions(grey_at, f1, fit, faint, tried, "faint-line lattice")
    if fit.fit.confidence < p.low_confidence:
        # second opinions: the other candidate lattices, kept if they fit the edges more consistently
        fit = _second_opinions(grey_at, f1, fit, bases[1:], tried, "second opinion")
    return fit.done()


@dataclass(frozen=True)
class _Pending:
    """A lattice fitted on the whole image (at most ``Params.fit_max_pixels``) and, on a large scan, how to
    measure it again in tiles at the fine resolution (:func:`refine_in_tiles`). The candidates
    (evidences, second opinions) are compared on their whole-image fits: only the one kept is
    refined."""

    fit: LatticeFit
    finish: Callable[[], LatticeFit] | None = None

    def done(self) -> LatticeFit:
        """The fit, refined in tiles if it is a large scan's."""
        return self.fit if self.finish is None else self.finish()

    def doubted(self, note: str, factor: float) -> _Pending:
        """The same with its confidence scaled by ``factor``, and ``note``, refined or not."""

        def doubt(fit: LatticeFit) -> LatticeFit:
            return replace(fit, confidence=round(fit.confidence * factor, 4), notes=(*fit.notes, note))

        finish = self.finish
        return _Pending(doubt(self.fit), None if finish is None else (lambda: doubt(finish())))


def _second_opinions(
    grey_at: Reducer, f1: int, fit: _Pending, bases: list[tuple[Vec, Vec, float]], tried: list[tuple[Vec, Vec]],
    what: str,
) -> _Pending:
    """``fit``, or the fit of one of the other lattices ``bases`` (at 1/f1) if it is more
    confident (by ``opinion_margin``) and either its centres lie at most half as far from it (in
    hexes, ``tighter``) or it is confident where ``fit`` is not (at least ``low_confidence`` and
    ``clearly`` times ``fit``'s; the parameters are ``grey_at``'s). A lattice already
    ``tried`` (the same points from another basis) is not fitted again; those fitted are added."""
    for a1, a2, _s in bases:
        if any(_same_points((a1, a2), t) for t in tried):
            continue
        tried.append((a1, a2))
        p = grey_at.params
        try:
            alt = _fit_lattice(grey_at, f1, a1 * f1, a2 * f1, lambda _msg: None)
        except GazalaError:
            continue
        a, b = alt.fit, fit.fit
        log.debug("%s dx=%.2f dy=%.2f confidence %.3f", what, a.dx, a.dy, a.confidence)
        tighter = _relative_rms(a) < p.tighter * _relative_rms(b)
        clearly = a.confidence >= max(p.low_confidence, p.clearly * b.confidence)
        if a.confidence > b.confidence + p.opinion_margin and (tighter or clearly):
            fit = alt
    return fit


def _relative_rms(fit: LatticeFit) -> float:
    """The fit's rms residual of the measured centres in hex sizes (a true grid's is about 1%)."""
    return fit.rms_px / min(fit.dx, fit.dy)


def _fit_lattice(grey_at: Reducer, f1: int, b1: Vec, b2: Vec, say: Progress) -> _Pending:
    """Read the lattice (b1, b2, full-resolution pixels) as a hex grid and fit it to the edges.

    Edge strength (gradients) first; when that fit is not confident (below ``Params.thin_below``),
    thin lines (:func:`thin_lines`) too, and the more confident fit wins: on small images and
    faint grids the gradients of printed numbers and terrain outweigh 1 px lines.
    """
    p = grey_at.params
    cands = readings(b1, b2)
    if not cands:
        raise GazalaError(
            "the periodic pattern is not a hex grid aligned with the image (within 8 degrees)",
            expected="a hex map scan, straightened",
        )
    # stage 3 resolution: hexes about fit_hex_px high
    dmin = min(min(c.dx, c.dy) for c in cands)
    f_fine = max(1, int(dmin / p.fit_hex_px))
    # large scans: the whole image at most fit_max_pixels, then the centres again in tiles at f_fine
    h, w = grey_at.shape
    f3 = f_fine * max(1, math.ceil(math.sqrt(h * w / f_fine**2 / p.fit_max_pixels)))
    f3 = max(f_fine, min(f3, int(dmin / p.coarse_hex_px)))  # the coarse fit still needs hexes to measure
    log.debug("candidate lattice: hexes of %.1f px, fitted at 1/%d, refined at 1/%d", dmin, f3, f_fine)
    say("orientation")
    image3 = grey_at.derived(f3)
    fits: list[_Pending] = []
    for ev in evidences(p):
        if fits and _score(fits[0].fit) >= p.thin_below:
            break
        refine = None if f3 == f_fine else tiled(grey_at, f_fine, ev)
        try:
            fits.append(_fit_on(ev.of(image3, dmin / f3), cands, f3, say, ev.reach, refine, p))
        except GazalaError:
            continue
        log.debug("%s evidence: confidence %.3f", ev.name, fits[-1].fit.confidence)
    if not fits:
        raise GazalaError("too few hex centres could be located", expected="a scan with visible hex edges")
    return _choose(fits, p)


def _choose(fits: list[_Pending], params: Params = DEFAULT) -> _Pending:
    """The fit to keep among those on several evidences (none confident on its own).

    Ranked by confidence times :func:`rms_quality`: a lattice placed on hex numbers or a frame's
    notches rather than the lines has centres scattered 4-8% of a hex around it, the lines'
    1-2%. (Not in the confidence itself: on hexes under about 30 px the gradient's centres
    scatter 5% around a right lattice.) Where the gradients' fit is the same lattice as the best
    (steps within 0.25%, centres within 0.04 hex) it is kept: it is the most precise. When no
    other evidence places the lattice where the chosen one does, the grid is ambiguous: the
    confidence is scaled by ``params.disagreement`` (other fits of at least ``params.doubt_from``).
    """
    first = fits[0]
    best = max(fits, key=lambda p: _score(p.fit))
    if best is not first and _same_lattice(first.fit, best.fit, tol=params.gradient_same_hex, steps=params.gradient_same_steps):
        best = first  # the same lattice: the gradients locate it the most precisely
    others = [p.fit for p in fits if p is not best and p.fit.confidence >= params.doubt_from]
    if others and not any(_same_lattice(best.fit, f, tol=params.same_hex, steps=params.same_steps) for f in others):
        note = "the grid's lines, edges and marks place the hexes differently; check the fit"
        return best.doubted(note, params.disagreement)
    return best


def _score(fit: LatticeFit) -> float:
    return fit.confidence * rms_quality(_relative_rms(fit))


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


def _fit_on(
    e3: FloatImage,
    cands: list[Reading],
    f3: int,
    say: Progress,
    reach: float = 0.45,
    refine: Refine | None = None,
    params: Params = DEFAULT,
) -> _Pending:
    """Choose the reading on the evidence ``e3`` (at 1/f3 resolution) and fit the centres;
    ``refine`` (large scans): how to measure them again at a finer resolution, returning that
    factor, when the fit is kept (:meth:`_Pending.done`)."""
    # the readings are told apart on hexes of about fold_hex_px (the phase needs no more)
    kf = max(1, int(min(min(c.dx, c.dy) for c in cands) / f3 / params.fold_hex_px))
    ef = downsample(e3, kf) if kf > 1 else e3
    ranked: list[tuple[float, Reading]] = []
    top, centre, lines = -math.inf, np.zeros(2), ef
    for c in cands:
        cs = Reading(c.sideways, c.dx / (f3 * kf), c.dy / (f3 * kf), c.u_hat, c.v_hat, c.rotation)
        edges = line_edges(ef, cs, reach, params)
        score, at = fold_score(edges, cs)
        if score > top:  # the best reading's lines only are kept (the first of equals, as the sort)
            top, centre, lines = score, at * kf + (kf - 1) / 2.0, edges
        ranked.append((score, c))
    ranked.sort(key=lambda t: -t[0])
    best = ranked[0][1]
    say("sub-pixel fit")
    rd = Reading(best.sideways, best.dx / f3, best.dy / f3, best.u_hat, best.v_hat, best.rotation)
    cf = fit_centres(e3, rd, centre, reach=reach, lines=lines if kf == 1 else None, params=params)
    fit = _lattice_fit(cf, f3, ranked, params)
    if refine is None:
        return _Pending(fit)

    def finish() -> LatticeFit:
        say("refine in tiles")
        return _lattice_fit(*refine(cf, rd, f3), ranked, params)

    return _Pending(fit, finish)


def _lattice_fit(cf: CentreFit, f: int, ranked: list[tuple[float, Reading]], params: Params = DEFAULT) -> LatticeFit:
    """The :class:`LatticeFit` of the centres ``cf`` measured at 1/f, for the best of the
    readings ``ranked`` by their edge score (full-resolution pixels)."""
    best_score, best = ranked[0]
    rms, count = cf.rms, cf.count
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
    adx, ady, a_origin = axis_aligned(cf, best.sideways, params)
    dx, dy = adx * scale, ady * scale
    if not (math.isfinite(dx) and math.isfinite(dy) and min(dx, dy) >= 2.0):
        # the centres measured lie on no grid VASSAL can draw (a degenerate axis-aligned fit)
        raise GazalaError("the hex centres found do not form a grid", expected="a scan with visible hex edges")
    a_u = np.array([0.0, dx] if best.sideways else [dx, 0.0])
    a_v = np.array([dy, 0.0] if best.sideways else [0.0, dy])
    grid_centre = _first_hex(a_origin * scale + shift, a_u, a_v, cf.inliers)
    grid_rms = axis_aligned_rms(cf, best.sideways, adx, ady, a_origin) * scale
    notes = _fit_notes(rotation, ranked, params)
    confidence = _confidence(cf, scale, ranked, params)
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


def _fit_notes(rotation: float, ranked: list[tuple[float, Reading]], params: Params) -> list[str]:
    """What the user should know of the fit: a rotated scan, a second reading nearly as good."""
    notes: list[str] = []
    if abs(rotation) > 0.05:
        notes.append(f"the grid is rotated {rotation:.2f} degrees; straighten the scan for VASSAL")
    if len(ranked) > 1 and ranked[1][0] > params.close_reading * ranked[0][0]:
        notes.append("another reading of the lattice fits the edges almost as well; check the orientation")
    return notes


def _confidence(cf: CentreFit, scale: float, ranked: list[tuple[float, Reading]], params: Params) -> float:
    """The fit's confidence, 0-1: the best reading's edge score and its lead over the next, the
    share of hexes found, the centres' rms (``scale``: full-resolution pixels a measured one) and
    their count."""
    best_score, best = ranked[0]
    margin = best_score - (ranked[1][0] if len(ranked) > 1 else 0.0)
    return float(
        max(0.0, min(1.0, best_score * params.score_gain)) * min(1.0, cf.coverage * params.coverage_gain)
        * min(1.0, 0.5 + margin * params.margin_gain)
        * (1.0 if cf.rms * scale < params.loose_rms * min(best.dx, best.dy) else 0.5)
        * min(1.0, cf.count / params.few_hexes)
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

def _first_hex(o: Vec, u: Vec, v: Vec, inliers: NDArray[np.int64]) -> tuple[float, float]:
    """The centre of the top hex of the first well-populated column of measured hexes."""
    cols, counts = np.unique(inliers[:, 0], return_counts=True)
    full = cols[counts >= 0.5 * np.median(counts)]
    c = int(full.min())
    r = int(inliers[inliers[:, 0] == c, 1].min())
    p = o + c * u + (r + (c % 2) / 2.0) * v
    return float(p[0]), float(p[1])

