"""Small BG maps and positions written as data: our numbering (column letter A-Y west to east,
row 01-16 north to south), flat-topped hexes in columns, north up."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from gazala_tools.mapdata.model import GameMap
from gazala_tools.referee.api import position_from_data
from gazala_tools.referee.engine import Referee
from gazala_tools.referee.position import Position
from gazala_tools.referee.report import Report
from tests.support.fixtures import bg_rules, blank_ground, blank_map

BASE = """\
game: batalha
title: BG referee test map
provenance: test data
grid:
  orientation: flat
  numbering: batalha
  columns: [0, 24]
  rows: [1, 16]
  pixels: {dx: 69.28, dy: 80.0, x0: 70, y0: 100, board_width: 1820, board_height: 1420}
places:
  - {name: Tobruk, source: test, hexes: ["T04"]}
  - {name: Bir Hacheim, source: test, hexes: ["K14"]}
  - {name: El Adem, source: test, hexes: ["T09"]}
  - {name: Knightsbridge, source: test, hexes: ["O09"]}
  - {name: Belhamed, source: test, hexes: ["Y09"]}
zones:
  - {name: axis-road-entries, source: test, hexes: ["A05", "A09"]}
""" + blank_ground("open")


def make_map(fragment: str = "") -> GameMap:
    return blank_map(BASE, fragment, name="bg-test-map.yaml")


def column(letter: str, rows: Iterable[int]) -> list[str]:
    return [f"{letter}{r:02d}" for r in rows]


def pos(game_map: GameMap, rows: Iterable[tuple[str, ...]] = (), *, turn: int | None = None, **extra: Any) -> Position:
    units: list[dict[str, Any]] = []
    for row in rows:
        uid, side, type_, where = row[:4]
        u: dict[str, Any] = {"id": uid, "side": side, "type": type_}
        u["hex" if where[1:].isdigit() else "box"] = where
        if len(row) > 4:
            u["formation"] = row[4]
        units.append(u)
    data: dict[str, Any] = {"game": "batalha", "units": units, **extra}
    if turn is not None:
        data["turn"] = str(turn)
    return position_from_data(bg_rules(game_map), data)


def check(game_map: GameMap, rows: Iterable[tuple[str, ...]] = (), **kw: Any) -> Report:
    return Referee(bg_rules(game_map)).check(pos(game_map, rows, **kw))
