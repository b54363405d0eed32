"""Fixtures of the BG referee tests; helpers (maps and positions as data) are in ``bghelp.py``."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bghelp import make_map

from gazala_tools.mapdata.model import GameMap


@pytest.fixture(scope="session")
def open_map() -> GameMap:
    """25 x 16 open ground (A01-Y16) with the BG places and the two west-edge road hexes A05, A09."""
    return make_map()


@pytest.fixture(scope="session")
def bg_map() -> GameMap:
    from gazala_tools.mapdata import load_map

    return load_map("batalha")
