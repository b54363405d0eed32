"""Fixtures of the referee tests; the helpers (maps and positions as data) are in ``refhelp.py``."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from refhelp import make_map

from gazala_tools.mapdata.model import GameMap


@pytest.fixture(scope="session")
def open_map() -> GameMap:
    """No features at all: supply from the map edges only."""
    return make_map()


@pytest.fixture(scope="session")
def rg_map() -> GameMap:
    from gazala_tools.mapdata import load_map

    return load_map("gazala-rg")
