"""Where lint places an at-start stack (issue 33 item 4): as VASSAL 3.7.26's ``SetupStack`` does, in a map's
sub-folders too, at a zone's name, a region's name or a hex of a zoned grid's background grid; a zone whose
location format names its own grid's locations; a board without a grid (the stack's x/y). The same modules
run in the engine in tests/oracle/test_lint_engine.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from gazala_tools.vassal.lint import lint_module
from tests.oracle import lintmodules as lm

IMAGES = {"board.png": lm.png(600, 400), "unit.png": lm.png(40, 40)}


@pytest.mark.parametrize(("location", "level"), [
    ("Box A", None),          # a zone named alone: the mean of its corners
    ("Camp", None),           # a region of a zone's region grid (ZonedGrid.getRegionLocation)
    ("0203", None),           # a hex of the background grid
    ("0909", "warning"),      # a hex the numbering reads, off the 600x400 board
    ("Nowhere", "error"),     # no grid names it: VASSAL's "Bad location name"
])
def test_a_stack_in_a_map_sub_folder(location: str, level: str | None, tmp_path: Path) -> None:
    vmod = lm.module(tmp_path / "m.vmod", lm.zoned_board(lm.stack("S", location, lm.piece("s"))), images=IMAGES)
    result = lint_module(vmod)
    assert [f.level for f in result.findings] == ([level] if level else []), [f.line() for f in result.findings]
    assert all(f.check == "setup" and "MapSubFolder[name=Set-up]" in f.element for f in result.findings)
    assert result.counts["at-start stacks"] == 1


def test_a_zone_naming_its_own_grids_hexes(tmp_path: Path) -> None:
    """A zone of format ``Track $gridLocation$`` with a hex grid of its own: ``Track 0101`` is that grid's
    hex (inside the zone); ``Track 0909`` lies outside the zone, so no zone names it: an error."""
    zone = ('<VASSAL.build.module.map.boardPicker.board.mapgrid.Zone locationFormat="Track $gridLocation$" '
            'name="Track" path="0,0;300,0;300,200;0,200" useHighlight="false" useParentGrid="false">'
            '<VASSAL.build.module.map.boardPicker.board.HexGrid dx="56.0" dy="64.0" x0="40" y0="40">'
            '<VASSAL.build.module.map.boardPicker.board.mapgrid.HexGridNumbering/>'
            '</VASSAL.build.module.map.boardPicker.board.HexGrid></VASSAL.build.module.map.boardPicker.board.mapgrid.Zone>')
    for location, errors in (("Track 0101", 0), ("Track 0909", 1)):
        body = lm.zoned_board(lm.stack("S", location, lm.piece("s"))).replace(
            '<VASSAL.build.module.map.boardPicker.board.ZonedGrid>', '<VASSAL.build.module.map.boardPicker.board.ZonedGrid>' + zone)
        result = lint_module(lm.module(tmp_path / f"m{errors}.vmod", body, images=IMAGES))
        assert result.errors == errors, [f.line() for f in result.findings]


def test_a_board_without_a_grid_places_the_stack_at_its_x_y(tmp_path: Path) -> None:
    """SetupStack.isUseGridLocation: no grid, no grid location (the stack's x/y are used): no error."""
    body = lm.zoned_board(lm.stack("S", "0203", lm.piece("s")))
    start, end = body.index("<VASSAL.build.module.map.boardPicker.board.ZonedGrid>"), body.index(
        "</VASSAL.build.module.map.boardPicker.board.ZonedGrid>") + len("</VASSAL.build.module.map.boardPicker.board.ZonedGrid>")
    result = lint_module(lm.module(tmp_path / "m.vmod", body[:start] + body[end:], images=IMAGES))
    assert result.findings == []


def test_a_stack_whose_owning_board_is_not_on_its_map_is_a_warning(tmp_path: Path) -> None:
    """SetupStack.isOwningBoardActive: VASSAL never places it, without a word."""
    body = lm.zoned_board(lm.stack("S", "0203", lm.piece("s")).replace('owningBoard="Board"', 'owningBoard="Other"'))
    result = lint_module(lm.module(tmp_path / "m.vmod", body, images=IMAGES))
    assert [(f.level, f.check) for f in result.findings] == [("warning", "setup")]
    assert "VASSAL never places this stack" in result.findings[0].problem
