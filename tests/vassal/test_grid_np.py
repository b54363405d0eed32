"""The numpy lookups equal the scalar VASSAL-exact ones, point for point."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gazala_tools.hexgrid import HexGridGeometry
from gazala_tools.vassal.grid_np import name_raw_at_many, raw_at_many


@settings(max_examples=40, deadline=None)
@given(
    st.floats(20, 150), st.floats(20, 150), st.integers(-50, 50), st.integers(-50, 50), st.booleans(),
    st.sampled_from(["3.6", "3.7"]), st.integers(0, 2**31 - 1),
)
def test_vectorised_equals_scalar(dx: float, dy: float, x0: int, y0: int, sideways: bool, version: str, seed: int) -> None:
    g = HexGridGeometry(dx=dx, dy=dy, x0=x0, y0=y0, sideways=sideways)
    rng = np.random.default_rng(seed)
    pts = rng.integers(-200, 1200, size=(400, 2))
    c, r = raw_at_many(g, pts[:, 0], pts[:, 1], version)
    nc, nr = name_raw_at_many(g, pts[:, 0], pts[:, 1])
    for i, (x, y) in enumerate(pts.tolist()):
        assert (int(c[i]), int(r[i])) == g.raw_at(x, y, version), (x, y)
        assert (int(nc[i]), int(nr[i])) == g.name_raw_at(x, y), (x, y)


@pytest.mark.parametrize("sideways", [False, True])
def test_every_pixel_of_a_board_matches_scalar(sideways: bool) -> None:
    g = HexGridGeometry(dx=56.0, dy=64.0, x0=40, y0=40, sideways=sideways)
    ys, xs = np.mgrid[0:150, 0:150]
    c, r = raw_at_many(g, xs.ravel(), ys.ravel())
    for i, (x, y) in enumerate(zip(xs.ravel().tolist(), ys.ravel().tolist(), strict=True)):
        assert (int(c[i]), int(r[i])) == g.raw_at(x, y)
