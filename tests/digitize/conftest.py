"""Synthetic scans with known grids (drawn by the board renderer from HexGridGeometry)."""

from __future__ import annotations

import pytest

from tools.scans.synthetic import SyntheticBoard, synthetic_board


@pytest.fixture(scope="session")
def flat_board() -> SyntheticBoard:
    return synthetic_board(columns=24, rows=18, dx=48.5, dy=56.0, x0=37, y0=45, seed=1)


@pytest.fixture(scope="session")
def pointy_board() -> SyntheticBoard:
    return synthetic_board(columns=16, rows=22, dx=52.0, dy=61.0, x0=44, y0=31, sideways=True, seed=2)
