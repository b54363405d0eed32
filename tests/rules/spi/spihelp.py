"""Small SPI maps and positions written as data (same grid as DG: CCRR, north on the left,
row 34 on the west edge, row 01 on the east edge)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from gazala_tools.mapdata.model import GameMap
from gazala_tools.referee.api import position_from_data
from gazala_tools.referee.engine import Referee
from gazala_tools.referee.position import Position
from gazala_tools.referee.report import Report
from tests.support.fixtures import blank_ground, blank_map, spi_rules

BASE = """\
game: cauldron-spi
title: SPI referee test map
provenance: test data
grid:
  orientation: flat
  numbering: cauldron-spi
  columns: [1, 29]
  rows: [1, 34]
  north: left
  pixels: {dx: 54.56, dy: 63.0, x0: 50, y0: 75, board_width: 1700, board_height: 2200}
path-kinds: {road: {}, track: {}}
""" + blank_ground("desert")
ROAD = "paths:\n  - {name: west road, kind: road, source: test, hexes: [" + ", ".join(
    f'"10{r:02d}"' for r in range(34, 19, -1)) + "]}\n"


#: the place the SPI rules data names (as on the real map)
DEFAULTS = """\
places:
  - {name: Tobruk, source: SPI 18.2, hexes: ["0608"]}
"""


def make_map(fragment: str = "") -> GameMap:
    return blank_map(BASE, fragment, defaults=DEFAULTS, name="spi-test-map.yaml")


def pos(game_map: GameMap, rows: Iterable[tuple[str, ...]] = (), *, turn: int | None = None,
        rules: Any = None, **extra: Any) -> Position:
    units: list[dict[str, Any]] = []
    for uid, side, type_, where in rows:
        u: dict[str, Any] = {"id": uid, "side": side, "type": type_}
        u["hex" if where.isdigit() else "box"] = where
        units.append(u)
    data: dict[str, Any] = {"game": "cauldron-spi", "units": units, **extra}
    if turn is not None:
        data["turn"] = str(turn)
    return position_from_data(rules or spi_rules(game_map), data)


def check(game_map: GameMap, rows: Iterable[tuple[str, ...]] = (), **kw: Any) -> Report:
    return Referee(spi_rules(game_map)).check(pos(game_map, rows, **kw))


def ring(game_map: GameMap, label: str, side: str, prefix: str = "e") -> list[tuple[str, ...]]:
    """Units of ``side`` on the six neighbours of ``label``."""
    hexes = sorted(game_map.label(n) for n in game_map.hex(label).neighbours() if n in game_map.grid)
    return [(f"{prefix}{i}", side, "infantry", h) for i, h in enumerate(hexes)]
