"""Straighten a rotated or sheared scan so that a VASSAL grid fits it: ``deskew(image)``.

VASSAL's hex grid is axis-aligned (columns along x, or along y when sideways). detect-grid fits
an affine lattice to the measured hex centres, ``centre(c, r) = o + c*U + (r + (c odd)/2)*V``
(:attr:`~gazala_tools.digitize.lattice.LatticeFit.affine`), which measures rotation and shear. The
scan is resampled by the one affine map that takes that lattice onto the axis-aligned lattice of
the same steps (|U|, |V|), keeping the image centre in place; then detect-grid runs again on the
result and its rotation and residual are reported: the RMS distance of the measured hex centres
from the best VASSAL (axis-aligned) grid, before and after.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from gazala_tools.digitize.lattice import LatticeFit, Progress, detect_grid
from gazala_tools.errors import GazalaError


@dataclass(frozen=True)
class Deskewed:
    image: object  #: the straightened PIL image (same size as the scan)
    before: LatticeFit
    after: LatticeFit
    rotation: float  #: degrees, the lattice's rotation before (clockwise on screen)
    shear: float  #: degrees, how far the angle between U and V was from 90

    def as_dict(self) -> dict[str, object]:
        return {
            "rotation_before_deg": round(self.rotation, 4),
            "shear_before_deg": round(self.shear, 4),
            "rotation_after_deg": round(self.after.rotation, 4),
            "grid_rms_before_px": round(self.before.grid_rms_px, 3),
            "residual_rms_px": round(self.after.grid_rms_px, 3),
            "dx": round(self.after.dx, 4),
            "dy": round(self.after.dy, 4),
            "confidence": round(self.after.confidence, 3),
        }


def affine_to_straight(fit: LatticeFit, size: tuple[int, int]) -> tuple[float, float, float, float, float, float]:
    """PIL ``Image.AFFINE`` data: output pixel (x, y) samples the scan at (a x + b y + c, d x + e y + f)."""
    if fit.affine is None:
        raise GazalaError("the fit has no affine lattice", expected="a detect_grid result")
    _o, u, v = (np.array(p, dtype=np.float64) for p in fit.affine)
    dx, dy = float(np.hypot(*u)), float(np.hypot(*v))
    if fit.sideways:
        u_t, v_t = np.array([0.0, dx]), np.array([dy, 0.0])
    else:
        u_t, v_t = np.array([dx, 0.0]), np.array([0.0, dy])
    m = np.stack([u, v], axis=1) @ np.linalg.inv(np.stack([u_t, v_t], axis=1))  # straight -> scan
    centre = np.array([size[0] / 2.0, size[1] / 2.0])
    t = centre - m @ centre
    return float(m[0, 0]), float(m[0, 1]), float(t[0]), float(m[1, 0]), float(m[1, 1]), float(t[1])


def deskew(image: object, *, fit: LatticeFit | None = None, progress: Progress | None = None) -> Deskewed:
    """Straighten a scan (a PIL image); ``fit``: its detect-grid result, if already known."""
    from PIL import Image

    if not isinstance(image, Image.Image):
        raise GazalaError("deskew needs an image", expected="a PIL image")
    before = fit or detect_grid(image, progress=progress)
    assert before.affine is not None
    _o, u, v = (np.array(p, dtype=np.float64) for p in before.affine)
    cos_uv = float(u @ v) / float(np.hypot(*u) * np.hypot(*v))
    shear = 90.0 - math.degrees(math.acos(max(-1.0, min(1.0, cos_uv))))
    data = affine_to_straight(before, image.size)
    fill = (255, 255, 255) if image.mode == "RGB" else 255 if image.mode == "L" else None
    straight = image.transform(image.size, Image.Transform.AFFINE, data, resample=Image.Resampling.BICUBIC, fillcolor=fill)
    after = detect_grid(straight, progress=progress)
    return Deskewed(straight, before, after, before.rotation, shear)
