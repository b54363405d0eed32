"""Fixtures for the map-data tests: the four built-in maps, loaded once."""

from __future__ import annotations

import pytest

from gazala_tools.mapdata import GameMap, load_map


@pytest.fixture(scope="session")
def rg() -> GameMap:
    return load_map("gazala-rg")


@pytest.fixture(scope="session")
def dg() -> GameMap:
    return load_map("cauldron-dg")


@pytest.fixture(scope="session")
def spi() -> GameMap:
    return load_map("cauldron-spi")


@pytest.fixture(scope="session")
def bg() -> GameMap:
    return load_map("batalha")
