"""Fixtures of the DG referee tests; helpers (maps and positions as data) are in ``dghelp.py``."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from dghelp import make_map

from gazala_tools.mapdata.model import GameMap


@pytest.fixture(scope="session")
def open_map() -> GameMap:
    """A 29 x 34 all-desert DG-numbered map: no sea, no hexside features."""
    return make_map()


@pytest.fixture(scope="session")
def dg_map() -> GameMap:
    from gazala_tools.mapdata import load_map

    return load_map("cauldron-dg")
