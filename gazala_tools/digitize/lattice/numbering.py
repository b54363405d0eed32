"""Which hex is which: raw (0, 0) of VASSAL's grid from one reference hex (``detect-grid --ref``).

A lattice does not know parity or numbering; :func:`number_lattice` fixes both from one label
at one point, under the user's numbering, which it never changes.
"""

from __future__ import annotations

import math

from gazala_tools.digitize.lattice.detect import LatticeFit
from gazala_tools.errors import GazalaError
from gazala_tools.hexgrid import HexGridGeometry
from gazala_tools.numbering import Numbering

__all__ = ["number_lattice"]


def number_lattice(
    fit: LatticeFit, numbering: Numbering, label: str, x: float, y: float, *, board: tuple[int, int] = (0, 0)
) -> tuple[HexGridGeometry, Numbering]:
    """Fix raw (0, 0) from one reference hex: the hex under pixel (x, y) is named ``label``.

    The numbering is the user's and is never changed; the label is a raw index (c, r) under it
    with VASSAL's own column parity (raw odd columns are half a hex toward +v). A hex grid has no
    intrinsic parity, so any label at any hex gives one origin: the lattice hex nearest (x, y)
    is raw (c, r), so raw (0, 0) is at its centre minus ``c*dx`` along u and ``r*dy`` (plus half
    a hex when c is odd) along v. VASSAL draws its grid and names points on that continuous
    lattice (only snapping truncates), so x0, y0 are the fitted origin rounded. ``board`` (the
    image size) matters only for descending numberings (VASSAL's maxRows/maxColumns).

    Returns the VASSAL grid and the numbering (the given one).
    """
    uc, vc = _nearest_centre(fit, *((y, x) if fit.sideways else (x, y)))
    probe = HexGridGeometry(dx=fit.dx, dy=fit.dy, x0=0, y0=0, sideways=fit.sideways, numbering=numbering)
    kw = {"sideways": fit.sideways, "max_rows": probe.max_rows(board[1]), "max_columns": probe.max_columns(board[0])}
    try:
        c, r = numbering.parse(label, **kw)  # type: ignore[arg-type]
    except ValueError as exc:
        raise GazalaError(
            f"reference hex {label!r} is not a label of the numbering",
            place="--ref",
            expected=f"a name like {numbering.format_name(0, 0)!r} ({numbering.describe()})",
        ) from exc
    u0 = uc - c * fit.dx
    v0 = vc - r * fit.dy - (fit.dy / 2 if c % 2 else 0.0)
    geo = HexGridGeometry(dx=fit.dx, dy=fit.dy, x0=round(u0), y0=round(v0), sideways=fit.sideways, numbering=numbering)
    return geo, numbering


def _nearest_centre(fit: LatticeFit, u: float, v: float) -> tuple[float, float]:
    """The fitted lattice's hex centre (u, v) nearest the point (u, v) (grid axes)."""
    best: tuple[float, float, float] | None = None
    k0 = round((u - fit.x0) / fit.dx)
    for k in (k0 - 1, k0, k0 + 1):
        shift = fit.dy / 2 if k % 2 else 0.0
        j = round((v - fit.y0 - shift) / fit.dy)
        cu, cv = fit.x0 + k * fit.dx, fit.y0 + j * fit.dy + shift
        d = math.hypot(cu - u, cv - v)
        if best is None or d < best[0]:
            best = (d, cu, cv)
    assert best is not None
    return best[1], best[2]


