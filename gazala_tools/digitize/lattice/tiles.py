"""A large scan's fit measured again at the fine resolution, tile by tile (issue 12 item 4).

The candidates are compared on whole-image fits of at most ``Params.fit_max_pixels``; only the
fit kept is refined (:func:`refine_in_tiles`), in a few tiles spread over the scan, so memory and
time are a few tiles' whatever the scan's size.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np
from numpy.typing import NDArray

from gazala_tools.digitize.image import threaded_map, tiles
from gazala_tools.digitize.lattice.evidence import Derived, Evidence, Reducer, evidences
from gazala_tools.digitize.lattice.fitting import CentreFit, centre_correlation, fit_measured, measure_centres
from gazala_tools.digitize.lattice.readings import Reading

__all__ = [
    "Refine",
    "log",
    "refine_in_tiles",
    "tiled",
]

log = logging.getLogger(__name__)

#: how to measure a fit (centres found at 1/f for a reading) again: the centres and the finer factor
Refine = Callable[[CentreFit, Reading, int], tuple[CentreFit, int]]


def tiled(grey_at: Reducer, f_fine: int, ev: Evidence) -> Refine:
    """How to measure a fit of ``grey_at`` again in tiles at 1/f_fine on the evidence ``ev``."""

    def refine(cf: CentreFit, rd: Reading, f: int) -> tuple[CentreFit, int]:
        return refine_in_tiles(grey_at, cf, rd, f, f_fine, ev), f_fine

    return refine


def refine_in_tiles(
    grey_at: Reducer, cf: CentreFit, rd: Reading, f_coarse: int, f_fine: int, ev: Evidence | None = None
) -> CentreFit:
    """The lattice ``cf`` (found at 1/f_coarse) measured again at 1/f_fine, one tile at a time.

    Up to ``refine_max_tiles`` tiles (``refine_tile`` a side plus a margin of a hex; the
    parameters are ``grey_at``'s), spread evenly over
    the scan, are read from it at 1/f_fine, their edges correlated with the hexagon kernel, and
    the centres predicted in their cores measured there; then the same robust least squares as
    the whole-image fit (one round, a search radius of 0.12 hex: the coarse lattice is already
    within it). Memory and time are a few tiles', whatever the scan's size; the coverage (for
    the confidence) and the hexes found (for the first hex) stay the coarse fit's, which saw the
    whole map.
    """
    params = grey_at.params
    ev = ev or evidences(params)[0]
    k = f_coarse / f_fine
    shift = (k - 1) / 2.0  # a coarse pixel i covers fine pixels [k*i, k*i + k)
    fine = Reading(rd.sideways, rd.dx * k, rd.dy * k, rd.u_hat, rd.v_hat, rd.rotation)
    h, w = (n // f_fine for n in grey_at.shape)
    margin = int(max(fine.dx, fine.dy)) + 8
    hex_px = min(fine.dx, fine.dy)
    every = list(tiles(h, w, params.refine_tile))
    step = max(1, math.ceil(len(every) / params.refine_max_tiles))
    chosen = every[step // 2 :: step]

    measure = _TileMeasure(grey_at, ev, fine, f_fine, chosen, (h, w), margin, hex_px)
    o, u, v = cf.o * k + shift, cf.u * k, cf.v * k
    refined = fit_measured(measure, (h, w), fine, o, u, v, rounds=1, first_radius=params.next_radius, params=params)
    log.debug("lattice refined in %d tiles at 1/%d", len(chosen), f_fine)
    # the hexes found stay the coarse fit's, over the whole map (same (c, r) indexing): the first
    # hex, where detect-grid's x0/y0 and game new's names start, is the map's, not the first tile's
    return replace(refined, coverage=cf.coverage, inliers=cf.inliers)


@dataclass(frozen=True)
class _TileMeasure:
    """The centres near predicted ones measured in the ``chosen`` tiles of the scan read at
    1/f_fine (each with a ``margin`` around it); those outside the tiles are not measured (NaN)."""

    grey_at: Reducer
    ev: Evidence
    fine: Reading
    f_fine: int
    chosen: list[tuple[slice, slice]]
    shape: tuple[int, int]
    margin: int
    hex_px: float

    def __call__(self, pred: NDArray[np.float64], radius: int) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        h, w = self.shape
        margin, params = self.margin, self.grey_at.params
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
            evidence = self.ev.of(Derived(self.grey_at.tile(self.f_fine, (x0, y0, x1, y1)), params), self.hex_px)
            corr = centre_correlation(evidence, self.fine, self.ev.reach, params=params)
            offset = np.array([x0, y0], dtype=np.float64)
            m, st = measure_centres(corr, pred[idx] - offset, radius)
            return idx, m + offset, st

        for idx, m, st in threaded_map(one, self.chosen, params.workers):
            out[idx] = m
            strength[idx] = st
        return out, strength
