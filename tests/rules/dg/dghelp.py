"""Small DG maps and positions written as data.

``make_map(fragment)`` is a 29 x 34 desert map numbered as DG (CCRR, north on the left) with only
the features a test names; ``pos(map, rows)`` builds a position from ``(id, side, type, hex-or-box)``
rows; ``ring(map, label)`` lists a hex's six neighbours.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from gazala_tools.mapdata.model import GameMap
from gazala_tools.referee.api import position_from_data
from gazala_tools.referee.engine import Referee
from gazala_tools.referee.position import Position
from gazala_tools.referee.report import Report
from tests.support.fixtures import blank_ground, blank_map, dg_rules

BASE = """\
game: cauldron-dg
title: DG referee test map
provenance: test data
grid:
  orientation: flat
  numbering: cauldron-dg
  columns: [1, 29]
  rows: [1, 34]
  north: left
  pixels: {dx: 54.56, dy: 63.0, x0: 50, y0: 75, board_width: 1700, board_height: 2200}
""" + blank_ground("desert")


#: the places and zones the DG rules data names (as on the real map)
DEFAULTS = """\
places:
  - {name: Tobruk, source: DG 18.0, hexes: ["0608"]}
  - {name: Tobruk airfield, source: DG 15.0, hexes: ["0709"]}
  - {name: British supply 1201, source: DG 12.0, hexes: ["1201"]}
zones:
  - {name: allied-supply-symbols, source: DG 12.0, hexes: ["1201", "1410"]}
  - {name: axis-supply-symbols, source: DG 12.0, hexes: ["0734", "2924"]}
"""


def make_map(fragment: str = "") -> GameMap:
    return blank_map(BASE, fragment, defaults=DEFAULTS, name="dg-test-map.yaml")


def ring(game_map: GameMap, label: str) -> list[str]:
    return sorted(game_map.label(n) for n in game_map.hex(label).neighbours() if n in game_map.grid)


def pos(game_map: GameMap, rows: Iterable[tuple[str, ...]] = (), *, turn: str | None = None,
        game: str = "cauldron-dg", rules: Any = None, **extra: Any) -> Position:
    units: list[dict[str, Any]] = []
    for uid, side, type_, where in rows:
        u: dict[str, Any] = {"id": uid, "side": side, "type": type_}
        u["hex" if where.isdigit() else "box"] = where
        units.append(u)
    data: dict[str, Any] = {"game": game, "units": units, **extra}
    if turn is not None:
        data["turn"] = turn
    return position_from_data(rules or dg_rules(game_map), data)


def check(game_map: GameMap, rows: Iterable[tuple[str, ...]] = (), **kw: Any) -> Report:
    return Referee(dg_rules(game_map)).check(pos(game_map, rows, **kw))


def rules_of(report: Report, severity: str | None = None) -> list[str]:
    return [f.rule for f in report.findings if severity is None or f.severity.value == severity]


def victory(report: Report) -> Mapping[str, Any]:
    v = report.vp["victory"]
    assert isinstance(v, Mapping)
    return v


def chromium(page: Path, profile: Path, shot: Path, size: str = "900,900") -> str:
    """Open ``page`` in headless Chromium: screenshot it to ``shot`` and return its DOM."""
    import shutil
    import subprocess

    import pytest

    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser is None:
        pytest.fail("chromium not installed (scripts/apt-packages.txt lists it; run scripts/setup)")
    base = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", f"--user-data-dir={profile}"]
    subprocess.run([*base, f"--screenshot={shot}", f"--window-size={size}", page.as_uri()],
                   check=True, capture_output=True, timeout=120)
    return subprocess.run([*base, "--dump-dom", page.as_uri()], check=True, capture_output=True, timeout=120,
                          text=True).stdout
