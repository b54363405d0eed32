"""Small hand-made maps and positions for the referee tests, written as data.

``make_map(yaml_fragment)`` builds an RG-sized (29 x 22, XXYY) clear map with only the boxes,
hexsides, paths and zones the test names, plus the zones the RG rules data names for supply and
16.0 VP (``DEFAULTS``: as on the real map); ``pos(...)`` builds a position from compact unit tuples
``(id, side, type, hex[, formation[, markers]])``. ``RG`` is the game, ``rules(map)`` its rules
bound to a test map.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from gazala_tools.games import find_game
from gazala_tools.mapdata.model import GameMap
from gazala_tools.referee.engine import Referee, RulesPlugin
from gazala_tools.referee.position import Position, parse_position
from gazala_tools.referee.report import Report
from gazala_tools.rules import rules_for
from tests.support.fixtures import blank_ground, blank_map

RG = find_game("gazala-rg")

BASE = """\
game: gazala-rg
title: referee test map
provenance: test data
grid:
  orientation: flat
  numbering: gazala-rg
  columns: [1, 29]
  rows: [1, 22]
  pixels: {dx: 62.35, dy: 72.0, x0: 60, y0: 90, board_width: 2200, board_height: 1700}
path-kinds: {road: {}, track: {}}
""" + blank_ground("clear")


#: what the RG rules data names beyond what a test names (the real map's entries)
DEFAULTS = """\
zones:
  - {name: axis-supply, source: RG 5.0, hexes: ["0106..0122"]}
  - {name: allied-supply, source: RG 5.0, edges: [N, E]}
  - {name: north-edge, source: RG 16.0, edges: [N]}
  - {name: vp-2803, source: RG 16.0, hexes: ["2803"]}
"""


def make_map(fragment: str = "") -> GameMap:
    return blank_map(BASE, fragment, defaults=DEFAULTS, name="test-map.yaml")


def rules(game_map: GameMap) -> RulesPlugin:
    """The RG rules on a test map (names the map lacks count as no hexes)."""
    return rules_for(RG, game_map)


UnitRow = tuple[Any, ...]


def pos(
    game_map: GameMap,
    units: Iterable[UnitRow] = (),
    *,
    turn: str | None = None,
    breaches: Iterable[Mapping[str, Any]] = (),
    activations: Mapping[str, int] | None = None,
) -> Position:
    rows = []
    for row in units:
        uid, side, type_, where = row[:4]
        d: dict[str, Any] = {"id": uid, "side": side, "type": type_}
        if where.isdigit():
            d["hex"] = where
        else:
            d["box"] = where
        if len(row) > 4 and row[4]:
            d["formation"] = row[4]
        if len(row) > 5:
            d["markers"] = list(row[5])
        if len(row) > 6:
            d["steps"] = row[6]
        rows.append(d)
    data: dict[str, Any] = {"game": "gazala-rg", "units": rows, "breaches": list(breaches)}
    if turn is not None:
        data["turn"] = turn
    if activations is not None:
        data["activations"] = dict(activations)
    return parse_position(data, labels=game_map.grid, state_readers=rules(game_map).state_readers())


def check(game_map: GameMap, units: Iterable[UnitRow] = (), **kw: Any) -> Report:
    return Referee(rules(game_map)).check(pos(game_map, units, **kw))


def rules_of(report: Report, severity: str | None = None) -> list[str]:
    return [f.rule for f in report.findings if severity is None or f.severity.value == severity]
