"""The detector's tunables: one frozen :class:`Params`, passed down from :func:`detect_grid`.

Every number that was chosen by trying scans (a threshold, a share, a size of work) is a field
here, with what it tunes; numbers that are geometry (a hexagon's corners at a third of dx, the six
edge directions) stay where they are used. ``Params()`` is the detector as documented in
docs/digitize.md; tests and benchmarks change a field with ``dataclasses.replace``.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

__all__ = ["DEFAULT", "Params", "Progress", "Vec"]

Vec = NDArray[np.float64]
Progress = Callable[[str], None]


def _cores() -> int:
    """The machine's cores available to this process, at most 4."""
    return max(1, min(4, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1))


@dataclass(frozen=True)
class Params:
    """The tunables of detect-grid, by stage (docs/digitize.md names the steps)."""

    # --- work sizes (results do not depend on workers) -------------------------------------------
    workers: int = field(default_factory=_cores)
    """Threads for the filters of one image per direction, the tiles and the FFTs (SciPy's filters
    and FFTs release the GIL). The result does not depend on it."""
    light_direct_pixels: int = 4_000_000
    """Images above this many pixels get their local brightness from an image reduced by a quarter
    of the blur (a 250 Mpx scan's coarse image: 10 s per evidence otherwise)."""
    strip_pixels: int = 4_000_000
    """The faint-line filter works in strips of about this many pixels (with a margin of its
    reach: the same result as on the whole image)."""

    # --- evidence (steps 1, 4 and 5) ------------------------------------------------------------
    gradient_reach: float = 0.45
    """Gradient evidence: a straight edge must run along this share of a hex edge
    (:func:`line_edges`: hex numbers, names and symbols are shorter strokes)."""
    thin_reach: float = 0.75
    """Thin-line evidence: lines must run straight along this share of a hex edge."""
    faint_reach: float = 0.2
    """Faint-line evidence: it is straight already; :func:`line_edges` only trims it."""
    faint_span: float = 0.8
    """The faint-line matched filter averages along this share of a hex edge."""
    mark_mads: float = 8.0
    """Printed marks are thin strokes this many MADs above the image's typical thin-line response."""
    mark_box: float = 1.05
    """A printed mark fits in a box of this many hexes a side (a hex outline or a line across the
    map does not)."""

    frame_dark: float = 0.25
    """Map area: an edge's outermost rows are a frame if this much darker (0-1) than the middle's."""
    frame_light: float = 0.1
    """... and the frame ends where rows are within this much of the middle's darkness..."""
    frame_run: int = 8
    """... this many rows in a row..."""
    frame_max: float = 0.15
    """... within this share of the image from its edge."""

    # --- periodicity: candidate lattices (step 2) -----------------------------------------------
    autocorr_side: int = 1400
    """Working resolution of the periodicity stage (longest side, pixels)."""
    min_period: float = 5.0
    """The shortest lattice vector looked for at that resolution (pixels)."""
    peak_prominence: float = 0.25
    """Autocorrelation peaks count if at least this share as prominent (white top-hat) as the most
    prominent one..."""
    peak_height: float = 0.3
    """... or at least this share as high as the highest."""
    strong_peak: float = 0.25
    """Candidate lattices are built from pairs of the peaks at least this share as high as the
    highest."""
    contrast_margin: float = 0.4
    """A candidate is kept if its contrast (on its points over half a step off) is within this
    share of the best candidate's (a spurious finer lattice is not)."""
    finest_strength: float = 0.6
    """Of those, the finest whose points are at least this share as strong as the strongest
    candidate's (a coarser sub-lattice is not the finest)."""
    refine_peak: float = 0.15
    """The least-squares refinement of a basis uses its lattice points whose peak is at least this
    share of the highest."""

    # --- which hex grid: readings (step 3) ------------------------------------------------------
    fold_hex_px: float = 40.0
    """The readings of a lattice are scored (:func:`fold_score`) on hexes reduced to about this
    many pixels (the phase needs no more)."""

    # --- sub-pixel fit (step 4) -----------------------------------------------------------------
    fit_hex_px: float = 80.0
    """The fit works at a resolution where a hex is about this many pixels high (never upsampled)."""
    first_radius: float = 0.22
    """The first round searches a centre within this many hexes of the predicted one..."""
    next_radius: float = 0.12
    """... the later rounds (and the tiles) within this many."""
    weak_centre: float = 0.35
    """A centre whose correlation peak is below this share of the median is not measured."""
    outlier_mads: float = 3.0
    """Centres farther than this many MADs (and than ``outlier_floor_px``) from the lattice are
    outliers."""
    outlier_floor_px: float = 0.35
    """Centres within this many pixels of the lattice are never outliers."""
    min_surrounded: int = 12
    """The final fit uses only the hexes whose six neighbours were found, when at least this many."""
    huber_px: float = 0.5
    """Residual (pixels, per axis) above which hex centres count with L1 (Huber) rather than L2
    weight (the fit and the VASSAL grid's origin)."""
    score_gain: float = 1.6
    """Confidence: the reading's edge score times this (at most 1)..."""
    coverage_gain: float = 1.25
    """... times the share of lattice positions found times this (at most 1)..."""
    margin_gain: float = 2.0
    """... times 0.5 + this times the margin over the next reading's score (at most 1)..."""
    loose_rms: float = 0.15
    """... halved when the centres' rms around the lattice is above this share of a hex."""
    close_reading: float = 0.9
    """A note says another reading fits almost as well when it scores this share of the best's."""
    few_hexes: int = 20
    """A fit on fewer hexes is that much less confident: a few large "hexes" fit any picture with
    boxes in it (a pitch's markings: 8 hexes of 300 px at 0.48 before), a map has dozens at least."""

    # --- large scans: refinement in tiles --------------------------------------------------------
    fit_max_pixels: int = 12_000_000
    """The whole-image fit works on at most this many pixels; finer measurement goes tile by tile."""
    coarse_hex_px: int = 24
    """The coarse fit of a large scan keeps hexes at least this many pixels across."""
    refine_tile: int = 1024
    """Tile side (pixels at the fine resolution) of the refinement."""
    refine_max_tiles: int = 16
    """At most this many tiles, spread evenly over the scan, are measured at the fine resolution."""

    # --- which fit is kept (steps 5-8) ----------------------------------------------------------
    thin_below: float = 0.45
    """Below this score (confidence times rms quality) the next evidence is tried as well (not
    above: where gradients locate the centres well they do so more precisely, e.g. 0.2 vs 0.6 px on
    20 px hexes)."""
    disagreement: float = 0.6
    """Confidence factor when no other evidence places the hexes where the kept fit does."""
    same_hex: float = 0.15
    """Two fits are one lattice when their centres are within this share of a hex..."""
    same_steps: float = 0.01
    """... and their steps within this share."""
    gradient_same_hex: float = 0.04
    """The gradients' fit is kept (the most precise) when it is the best fit's lattice within this
    share of a hex..."""
    gradient_same_steps: float = 0.0025
    """... and its steps within this share."""
    doubt_from: float = 0.1
    """Only other evidences' fits at least this confident can make the kept one doubtful."""
    ridge_below: float = 0.5
    """Below this confidence the lattices of the autocorrelation without its ridges are tried too
    (a pitch's stripes gave a lattice 311% off at 0.30)."""
    low_confidence: float = 0.3
    """Below this confidence the faint-line periodicity and the other candidate lattices are
    tried; a second opinion at least this (and ``clearly`` times the fit's) confident wins."""
    second_opinions: int = 4
    """How many other candidate lattices of the periodicity are tried as second opinions."""
    stage1_span: float = 8.0
    """The faint-line filter's span (pixels at the periodicity's resolution) for the periodicity
    of a faint grid: suits hexes from about 14 px up."""
    opinion_margin: float = 0.05
    """A second opinion replaces the fit only if more confident by this much..."""
    tighter: float = 0.5
    """... and either its centres lie at most this share as far from its lattice (in hexes)..."""
    clearly: float = 3.0
    """... or it is this many times as confident (and at least ``low_confidence``)."""


#: the detector as documented
DEFAULT = Params()
