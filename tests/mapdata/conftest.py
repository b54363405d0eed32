"""Fixtures for the map-data tests: the four built-in maps by short name, loaded once (the shared
loader of ``tests/support/fixtures.py``)."""

from __future__ import annotations

from tests.support.fixtures import builtin_map_fixture

rg = builtin_map_fixture("gazala-rg", "rg")
dg = builtin_map_fixture("cauldron-dg", "dg")
spi = builtin_map_fixture("cauldron-spi", "spi")
bg = builtin_map_fixture("batalha", "bg")
