"""A zone's ``locationFormat`` defaults to ``$name$`` (VASSAL 3.7.26 ``Zone.java``: ``locationFormat = "$" + NAME
+ "$"``): a buildFile Zone without the attribute names a point inside it by the zone's name, in the engine and
in ``gazala grid locate`` (docs/module.md, "Locations")."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from gazala_tools.vassal.buildfile import read_layouts
from tests.oracle import lintmodules as lm

IMAGES = {"board.png": lm.png(600, 400), "unit.png": lm.png(40, 40)}
#: a point inside the plain zone "Box A" and one inside "Camps" (whose region grid has "Camp")
BOX_A, CAMPS = (500, 75), (500, 300)


def zone_module(tmp_path: Path) -> Path:
    """The zoned board of lintmodules with no locationFormat on either zone."""
    board = lm.zoned_board("").replace('locationFormat="$name$" name="Box A"', 'name="Box A"') \
        .replace('locationFormat="$name$" name="Camps"', 'name="Camps"')
    assert board.count("mapgrid.Zone locationFormat") == 0
    return lm.module(tmp_path / "zones.vmod", board, images=IMAGES)


def test_a_zone_without_location_format_is_named_by_its_name(tmp_path: Path) -> None:
    (layout,) = read_layouts(zone_module(tmp_path))
    assert [layout.locate(*p).name for p in (BOX_A, CAMPS)] == ["Box A", "Camps"]


def test_grid_locate_of_a_point_in_such_a_zone(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from gazala_tools.cli import main

    assert main(["grid", "locate", str(zone_module(tmp_path)), str(BOX_A[0]), str(BOX_A[1])]) == 0
    assert capsys.readouterr().out.split("\t")[0].split()[0:2] == ["Box", "A"]


@pytest.mark.vassal
def test_the_engine_names_the_same_location(vassal_engine: Any, tmp_path: Path) -> None:
    vmod = zone_module(tmp_path)
    (layout,) = read_layouts(vmod)
    located = vassal_engine.locate(vmod, [("Main Map", x, y) for x, y in (BOX_A, CAMPS)])
    assert [loc.location for loc in located] == [layout.locate(*p).name for p in (BOX_A, CAMPS)] == ["Box A", "Camps"]
