"""Fixtures of the SPI referee tests; helpers (maps and positions as data) are in ``spihelp.py``."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from spihelp import ROAD, make_map

from gazala_tools.mapdata.model import GameMap


@pytest.fixture(scope="session")
def open_map() -> GameMap:
    """29 x 34 desert, SPI numbering (= DG), no roads: no Axis supply at all."""
    return make_map()


@pytest.fixture(scope="session")
def road_map() -> GameMap:
    """The open map with one road down column 10 from the west edge (1034) to 1020."""
    return make_map(ROAD)
