"""The board picker as VASSAL 3.7.26 does it (issue 26 item 4; vassal-format.md, BoardPicker).

A map whose BoardPicker lists several boards and has no default set-up (``<setup>``), as the tld
module's "Normandy" (Normandy, F, G, A, ABCF), starts with its first board alone: a point right
of or below that board is ``offboard``, not a hex of the second board laid out beside it.
"""

from __future__ import annotations

import zipfile
from pathlib import Path
from typing import Any

import pytest

from gazala_tools.vassal.buildfile import read_layouts

BOARD = """      <VASSAL.build.module.map.boardPicker.Board name="{name}" width="600" height="500">
        <VASSAL.build.module.map.boardPicker.board.HexGrid dx="56.0" dy="64.0" x0="40" y0="40">
          <VASSAL.build.module.map.boardPicker.board.mapgrid.HexGridNumbering/>
        </VASSAL.build.module.map.boardPicker.board.HexGrid>
      </VASSAL.build.module.map.boardPicker.Board>
"""

MODULE = """<?xml version="1.0" encoding="UTF-8"?>
<VASSAL.build.GameModule name="Pickers" version="0.1" VassalVersion="3.6.0" nextPieceSlotId="1">
  <VASSAL.build.module.BasicCommandEncoder/>
  <VASSAL.build.module.Map mapName="Main Map" edgeWidth="20" edgeHeight="10">
    <VASSAL.build.module.map.BoardPicker>
{boards}    </VASSAL.build.module.map.BoardPicker>
    <VASSAL.build.module.map.StackMetrics/>
    <VASSAL.build.module.map.PieceMover/>
  </VASSAL.build.module.Map>
</VASSAL.build.GameModule>
"""

MODULEDATA = """<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<data version="1"><version>0.1</version><VassalVersion>3.6.0</VassalVersion><name>Pickers</name></data>
"""

#: map points: on the first board, right of it, below it, and right-below it (map edge 20 x 10)
POINTS = [(120, 110), (400, 300), (700, 110), (900, 300), (120, 600), (700, 600), (1150, 480)]


def picker_module(tmp: Path, boards: list[str]) -> Path:
    vmod = tmp / "pickers.vmod"
    with zipfile.ZipFile(vmod, "w") as zf:
        zf.writestr("buildFile.xml", MODULE.format(boards="".join(BOARD.format(name=b) for b in boards)))
        zf.writestr("moduledata", MODULEDATA)
    return vmod


def test_several_boards_without_a_setup_start_with_the_first_alone(tmp_path: Path) -> None:
    (layout,) = read_layouts(picker_module(tmp_path, ["Normandy", "F", "G", "A", "ABCF"]))
    assert [(b.name, c, r) for b, c, r in layout.boards] == [("Normandy", 0, 0)]
    assert [b.name for b in layout.all_boards] == ["Normandy", "F", "G", "A", "ABCF"]
    names = [layout.locate(x, y).name for x, y in POINTS]
    assert names[:2] == ["0202", "0705"]  # as VASSAL names them with Normandy alone (the engine test)
    assert names[2:] == ["offboard"] * 5


@pytest.mark.vassal
def test_the_engine_lays_out_no_other_board(vassal_engine: Any, tmp_path: Path) -> None:
    """VASSAL 3.7.26 starts a new game of such a map with the "Choose Boards" dialog and no board
    until the player chooses: every point beside or below the first board is offboard there as
    here. (On the first board itself it has no board yet; we name the first board's hexes, as a
    save that sets no boards is read.) With one board, the engine and we agree on every point."""
    vmod = picker_module(tmp_path, ["Normandy", "F", "G", "A", "ABCF"])
    (layout,) = read_layouts(vmod)
    answer, located = vassal_engine.locate_raw(vmod, [("Main Map", x, y) for x, y in POINTS])
    assert {"title": None, "text": "Choose Boards"} in answer["dialogs"]
    assert answer["maps"][0]["boards"] == []
    assert [loc.location for loc in located][2:] == [layout.locate(x, y).name for x, y in POINTS[2:]]
    single = tmp_path / "single"
    single.mkdir()
    vmod = picker_module(single, ["Normandy"])
    (layout,) = read_layouts(vmod)
    located = vassal_engine.locate(vmod, [("Main Map", x, y) for x, y in POINTS])
    assert [loc.location for loc in located] == [layout.locate(x, y).name for x, y in POINTS]
