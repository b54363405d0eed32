"""Our VASSAL geometry equals the real engine's, point for point (tests/fixtures/engine/).

The fixtures hold what VASSAL 3.7.26 answered (``Map.locationName``, ``Map.snapTo``,
``Map.findBoard``) for every hex/square centre of the two corpus grids in a generous range and for
thousands of other points (random, next to hex corners and sides, on board edges and zone
boundaries, inside the SquareGrid zones). Location names must match exactly; snaps are compared
with our default 3.7 (hexagon-exact) snap mode. ``vassal-3.6.0/`` keeps what the earlier oracle,
VASSAL 3.6.0-SNAPSHOT, answered for the same points: the evidence for our 3.6 (rectangular cell)
snap mode, which ``gazala grid --snap 3.6`` offers.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from gazala_tools.hexgrid import MapLayout
from gazala_tools.vassal.buildfile import find_layout, read_layouts

Fixture = Callable[[str], dict[str, Any]]
CASES = [("jzhex-template", "Main Map"), ("jzhex-template", "TurnTrack"), ("ragnarok", "Main Map")]
#: (folder of tests/fixtures/engine, our snap mode for that engine)
ENGINES = [("", "3.7"), ("vassal-3.6.0/", "3.6")]


def _layout(name: str, map_name: str, template_vmod: Path, ragnarok_vmod: Path) -> MapLayout:
    source = template_vmod if name == "jzhex-template" else ragnarok_vmod
    return find_layout(read_layouts(source), map_name, source)


def _rows(section: dict[str, Any]) -> list[Any]:
    """Every recorded point as (kind, x, y, location, snap_x, snap_y, board)."""
    rows = [(k, x, y, loc, sx, sy, b) for k, _c, _r, x, y, loc, sx, sy, b in section["centres"]]
    rows += [tuple(p) for p in section["points"]]
    return rows


Row = tuple[Any, ...]  # (kind, x, y, location, snap_x, snap_y, board)


def _ours(layout: MapLayout, aspect: str, x: int, y: int, snap_mode: str) -> object:
    if aspect == "board":
        found = layout.board_at(x, y)
        return found[0].name if found is not None else None
    loc = layout.locate(x, y, version=snap_mode)
    return loc.name if aspect == "name" else loc.snapped


def _engine(row: Row, aspect: str) -> object:
    _kind, _x, _y, name, sx, sy, board = row
    return {"name": name, "snap": (sx, sy), "board": board}[aspect]


@pytest.mark.parametrize("aspect", ["name", "snap", "board"])
@pytest.mark.parametrize(("fixture", "map_name"), CASES)
@pytest.mark.parametrize(("engine", "snap_mode"), ENGINES)
def test_locate_equals_the_engine(
    engine: str,
    snap_mode: str,
    fixture: str,
    map_name: str,
    aspect: str,
    template_vmod: Path,
    ragnarok_vmod: Path,
    engine_fixture: Fixture,
) -> None:
    """Location name, snap point (in that engine's mode) and board of every recorded point equal the engine's."""
    layout = _layout(fixture, map_name, template_vmod, ragnarok_vmod)
    rows = _rows(engine_fixture(engine + fixture)["sections"][map_name])
    bad = [
        f"{row[0]} ({row[1]},{row[2]}): engine {_engine(row, aspect)!r}, "
        f"ours {_ours(layout, aspect, row[1], row[2], snap_mode)!r}"
        for row in rows
        if _ours(layout, aspect, row[1], row[2], snap_mode) != _engine(row, aspect)
    ]
    assert not bad, (
        f"{len(bad)} of {len(rows)} points differ from the engine ({aspect}), e.g.:\n" + "\n".join(bad[:25])
    )


@pytest.mark.parametrize(("engine", "version"), [("", "3.7.26"), ("vassal-3.6.0/", "3.6.0-SNAPSHOT-9a37405aa")])
def test_fixtures_are_big_enough_and_say_how_they_were_made(engine_fixture: Fixture, engine: str, version: str) -> None:
    for name in ("jzhex-template", "ragnarok"):
        fx = engine_fixture(engine + name)
        assert fx["engine_version"] == version
        assert fx["command"] and fx["date"] and fx["engine_jar_sha256"]
        centres = sum(len(s["centres"]) for s in fx["sections"].values())
        points = sum(len(s["points"]) for s in fx["sections"].values())
        assert centres >= 200 and points >= 500, (name, centres, points)
    ragnarok = engine_fixture(engine + "ragnarok")["sections"]["Main Map"]
    names = {p[3] for p in ragnarok["points"]}
    assert any(n.startswith("Endurance ") for n in names) and any(n.startswith("Rainbow ") for n in names)
    assert "warrior" in names and "offboard" in names


def test_3_7_26_snaps_differ_from_3_6_only_where_the_hexagon_and_the_rectangle_disagree(
    engine_fixture: Fixture,
) -> None:
    """Same points, same names and boards in both engines; only some hex snaps moved (3.7.0-beta4)."""
    for name in ("jzhex-template", "ragnarok"):
        new, old = engine_fixture(name), engine_fixture("vassal-3.6.0/" + name)
        moved = 0
        for map_name, section in new["sections"].items():
            rows, old_rows = _rows(section), _rows(old["sections"][map_name])
            assert [r[:4] + r[6:] for r in rows] == [r[:4] + r[6:] for r in old_rows]
            moved += sum(r[4:6] != o[4:6] for r, o in zip(rows, old_rows, strict=True))
        assert 0 < moved < 100, (name, moved)
