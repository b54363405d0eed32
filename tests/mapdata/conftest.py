"""Fixtures for the map-data tests: the four built-in maps by short name, loaded once (the shared
loader of ``tests/support/fixtures.py``)."""

from __future__ import annotations

import pytest

from gazala_tools.mapdata import GameMap
from tests.support.fixtures import builtin_map


@pytest.fixture(scope="session")
def rg() -> GameMap:
    return builtin_map("gazala-rg")


@pytest.fixture(scope="session")
def dg() -> GameMap:
    return builtin_map("cauldron-dg")


@pytest.fixture(scope="session")
def spi() -> GameMap:
    return builtin_map("cauldron-spi")


@pytest.fixture(scope="session")
def bg() -> GameMap:
    return builtin_map("batalha")
