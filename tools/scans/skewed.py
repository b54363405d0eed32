"""Skewed scans (issue 12 items 3 and 5): a harsh scan (``tools.scans.harsh``) as a scanner that
rotates and shears the page would give it, about half a degree of each, with the true lattice
carried through the same affine map.

``evaluate`` runs ``detect_grid`` and ``deskew`` on each and checks, over every true hex centre of
the map, that the fitted affine lattice lies within 2 px of it (the measured steps within 0.5%),
and that after straightening the VASSAL grid detect-grid gives (axis-aligned) does too, in the
straightened image: ``python -m tools.scans.skewed LO HI``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray
from PIL import Image

from gazala_tools.digitize.deskew import affine_to_straight, deskew
from gazala_tools.digitize.lattice import LatticeFit, detect_grid
from gazala_tools.errors import GazalaError
from tools.scans.harsh import HarshScan, harsh_scan, jpeg

F = NDArray[np.float64]
#: PIL's transforms map pixel centres, at index + 0.5
_HALF = np.array([0.5, 0.5])


@dataclass(frozen=True)
class Lattice:
    """Hex centres ``o + c*u + (r + (c odd)/2)*v`` (screen pixels, pixel centres at integers):
    whatever the parity, the lattice spanned by ``u + v/2`` and ``v`` through ``o``."""

    o: F
    u: F
    v: F

    def error(self, points: F) -> F:
        """Distance of each of ``points`` (n x 2) to the nearest hex centre of this lattice."""
        b1, b2 = self.u + self.v / 2, self.v
        m = np.stack([b1, b2], axis=1)
        k = np.linalg.solve(m, (points - self.o).T).T
        best = np.full(len(points), np.inf)
        for di in (-1, 0, 1):
            for dj in (-1, 0, 1):
                near = np.floor(k) + np.array([di, dj])
                q = self.o + near @ m.T
                best = np.minimum(best, np.hypot(*(points - q).T))
        return best

    def mapped(self, a: F, t: F) -> Lattice:
        """This lattice in the image a PIL affine transform makes (output pixel p samples the input at
        ``a @ (p + 0.5) + t - 0.5``)."""
        inv = np.linalg.inv(a)
        return Lattice(inv @ (self.o + _HALF - t) - _HALF, inv @ self.u, inv @ self.v)


@dataclass(frozen=True)
class SkewedScan:
    image: Image.Image
    truth: Lattice  #: the true hex centres in ``image``
    centres: F  #: the true centres of the map's hexes in ``image`` (n x 2)
    rotation: float  #: degrees
    shear: float  #: degrees
    sideways: bool
    dx: float  #: the true steps (|u|, |v|)
    dy: float


def skew_data(size: tuple[int, int], rotation: float, shear: float) -> tuple[F, F]:
    """(A, t) of PIL's AFFINE data for a rotation and a shear (degrees) about the image centre."""
    th, sh = math.radians(rotation), math.tan(math.radians(shear))
    a = np.array([[math.cos(th), -math.sin(th) + sh], [math.sin(th), math.cos(th)]])
    c = np.array([size[0] / 2.0, size[1] / 2.0])
    return a, c - a @ c


def skewed_scan(seed: int) -> SkewedScan:
    """A harsh scan (its own seed, unrotated) turned by 0.3-0.7 degrees and sheared by 0.2-0.6
    degrees, either way, then saved as JPEG q85 again."""
    rng = np.random.default_rng(30_000 + seed)
    rotation = float(rng.uniform(0.3, 0.7)) * (1 if rng.random() < 0.5 else -1)
    shear = float(rng.uniform(0.2, 0.6)) * (1 if rng.random() < 0.5 else -1)
    base: HarshScan = harsh_scan(seed, rotation=0.0)
    a, t = skew_data(base.image.size, rotation, shear)
    data = (a[0, 0], a[0, 1], t[0], a[1, 0], a[1, 1], t[1])
    image = base.image.convert("RGB").transform(
        base.image.size, Image.Transform.AFFINE, tuple(float(x) for x in data),
        resample=Image.Resampling.BICUBIC, fillcolor=(255, 255, 255),
    )
    truth = Lattice(np.array(base.origin), np.array(base.u), np.array(base.v)).mapped(a, t)
    bx0, by0, bx1, by1 = base.map_box
    hex_px = max(base.dx, base.dy)
    span = range(-4, int(max(base.image.size) / min(base.dx, base.dy)) + 4)
    pts = [base.centre(float(c), float(r)) for c in span for r in span]
    inside = np.array([p for p in pts if bx0 + hex_px < p[0] < bx1 - hex_px and by0 + hex_px < p[1] < by1 - hex_px])
    inv = np.linalg.inv(a)
    centres = (inv @ (inside + _HALF - t).T).T - _HALF
    return SkewedScan(jpeg(image, 85), truth, centres, rotation, shear, base.sideways, base.dx, base.dy)


def _vassal(fit: LatticeFit) -> Lattice:
    """The axis-aligned lattice of a detect-grid result: the grid VASSAL draws."""
    assert fit.grid_centre is not None
    u = np.array([0.0, fit.dx] if fit.sideways else [fit.dx, 0.0])
    v = np.array([fit.dy, 0.0] if fit.sideways else [0.0, fit.dy])
    return Lattice(np.array(fit.grid_centre), u, v)


def evaluate(seeds: range) -> list[dict[str, object]]:
    """Per scan: the affine fit's and the straightened VASSAL grid's worst error over the map's hexes."""
    rows: list[dict[str, object]] = []
    for seed in seeds:
        scan = skewed_scan(seed)
        row: dict[str, object] = {"seed": seed, "size": scan.image.size, "hex_px": round(max(scan.dx, scan.dy), 1),
                                  "rotation": round(scan.rotation, 2), "shear": round(scan.shear, 2)}
        try:
            before = detect_grid(scan.image)
            result = deskew(scan.image, fit=before)
        except GazalaError as exc:
            rows.append(row | {"right": False, "confidence": 0.0, "error": exc.problem})
            continue
        assert before.affine is not None
        o, u, v = (np.array(p) for p in before.affine)
        affine_px = float(Lattice(o, u, v).error(scan.centres).max())
        steps = abs(float(np.hypot(*u)) / scan.dx - 1) * 100, abs(float(np.hypot(*v)) / scan.dy - 1) * 100
        if before.sideways != scan.sideways:
            steps = (100.0, 100.0)
        # the VASSAL grid (axis-aligned) of the skewed scan itself: what VASSAL could do without deskew
        vassal_before = float(_vassal(before).error(scan.centres).max())
        # the truth in the straightened image, against the VASSAL grid found there
        d = affine_to_straight(before, scan.image.size)
        a2, t2 = np.array([[d[0], d[1]], [d[3], d[4]]]), np.array([d[2], d[5]])
        inv = np.linalg.inv(a2)
        centres = (inv @ (scan.centres + _HALF - t2).T).T - _HALF
        vassal_px = float(_vassal(result.after).error(centres).max())
        right = max(steps) <= 0.5 and affine_px <= 2.0 and vassal_px <= 2.0
        rows.append(row | {"right": right, "confidence": before.confidence, "steps_pct": [round(s, 2) for s in steps],
                           "affine_max_px": round(affine_px, 2), "vassal_before_max_px": round(vassal_before, 2),
                           "vassal_after_max_px": round(vassal_px, 2)})
    return rows


if __name__ == "__main__":
    from tools.scans import run_evaluation

    run_evaluation(evaluate, (500, 510))
