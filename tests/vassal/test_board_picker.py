"""The board picker as VASSAL 3.7.26 does it (issue 26 item 4; vassal-format.md §4.7).

VASSAL's ``BoardPicker.setup(true)`` (a new game) lays out the picker's default set-up (its
``<setup>`` element) or, with none, a single board that is not reversible. Otherwise
(``isFinished()`` is false: several boards, as the tld module's "Normandy" with Normandy, F, G, A,
ABCF, or one reversible board) the new-game wizard asks the player ("Choose Boards") and the map
has no board until a SetBoards command sets them: every point is ``offboard``, the first board's
too, never a hex of a board laid out beside it.
"""

from __future__ import annotations

import json
import zipfile
from pathlib import Path
from typing import Any

import pytest

from gazala_tools.vassal.buildfile import read_layouts

BOARD = """      <VASSAL.build.module.map.boardPicker.Board name="{name}" width="600" height="500" reversible="{rev}">
        <VASSAL.build.module.map.boardPicker.board.HexGrid dx="56.0" dy="64.0" x0="40" y0="40">
          <VASSAL.build.module.map.boardPicker.board.mapgrid.HexGridNumbering/>
        </VASSAL.build.module.map.boardPicker.board.HexGrid>
      </VASSAL.build.module.map.boardPicker.Board>
"""

MODULE = """<?xml version="1.0" encoding="UTF-8"?>
<VASSAL.build.GameModule name="Pickers" version="0.1" VassalVersion="3.6.0" nextPieceSlotId="1">
  <VASSAL.build.module.BasicCommandEncoder/>
  <VASSAL.build.module.Map mapName="Main Map" edgeWidth="20" edgeHeight="10">
    <VASSAL.build.module.map.BoardPicker>{setup}
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


def picker_module(tmp: Path, boards: list[str], *, setup: str | None = None, reversible: bool = False) -> Path:
    """A module of one map whose BoardPicker offers ``boards`` (600 x 500, a hex grid each), with
    the default set-up ``setup`` (board, column, row... of a SetBoards command) or none."""
    vmod = tmp / "pickers.vmod"
    rev = "true" if reversible else "false"
    setup_el = "" if setup is None else f"\n      <setup>Main MapBoardPicker\t{setup}</setup>"
    with zipfile.ZipFile(vmod, "w") as zf:
        zf.writestr("buildFile.xml", MODULE.format(boards="".join(BOARD.format(name=b, rev=rev) for b in boards),
                                                   setup=setup_el))
        zf.writestr("moduledata", MODULEDATA)
    return vmod


def names(vmod: Path) -> list[str]:
    (layout,) = read_layouts(vmod)
    return [layout.locate(x, y).name for x, y in POINTS]


def test_several_boards_without_a_setup_lay_out_none_until_the_player_chooses(tmp_path: Path) -> None:
    (layout,) = read_layouts(picker_module(tmp_path, ["Normandy", "F", "G", "A", "ABCF"]))
    assert layout.boards == () and layout.choose_boards
    assert [b.name for b in layout.all_boards] == ["Normandy", "F", "G", "A", "ABCF"]
    assert names(picker_module(tmp_path, ["Normandy", "F", "G", "A", "ABCF"])) == ["offboard"] * len(POINTS)


def test_one_reversible_board_without_a_setup_is_chosen_by_the_player_too(tmp_path: Path) -> None:
    # getDefaultSetup: a single board is the default only when it is not reversible
    (layout,) = read_layouts(picker_module(tmp_path, ["Normandy"], reversible=True))
    assert layout.boards == () and layout.choose_boards


def test_one_board_is_laid_out_alone(tmp_path: Path) -> None:
    (layout,) = read_layouts(picker_module(tmp_path, ["Normandy"]))
    assert [(b.name, c, r) for b, c, r in layout.boards] == [("Normandy", 0, 0)] and not layout.choose_boards
    assert names(picker_module(tmp_path, ["Normandy"]))[:3] == ["0202", "0705", "offboard"]


def test_the_default_setup_lays_out_its_boards_at_their_columns_and_rows(tmp_path: Path) -> None:
    vmod = picker_module(tmp_path, ["Normandy", "F", "G"], setup="Normandy\t0\t0\tF\t1\t0\tNowhere\t2\t0")
    (layout,) = read_layouts(vmod)
    # the unknown board "Nowhere" is left out, as VASSAL's decode does
    assert [(b.name, c, r) for b, c, r in layout.boards] == [("Normandy", 0, 0), ("F", 1, 0)]
    assert not layout.choose_boards
    assert [layout.locate(x, y).board for x, y in POINTS] == ["Normandy", "Normandy", "F", "F", None, None, "F"]


#: the module variants the engine test runs: (boards, default set-up, reversible)
CASES = [
    (["Normandy", "F", "G", "A", "ABCF"], None, False),
    (["Normandy"], None, True),
    (["Normandy", "F", "G"], "Normandy\t0\t0\tF\t1\t0", False),
    (["Normandy", "F", "G"], "F\t0\t0\tG\t0\t1", False),
    (["Normandy"], None, False),
]


@pytest.mark.vassal
def test_the_engine_lays_out_the_boards_we_do(vassal_engine: Any, tmp_path: Path) -> None:
    """VASSAL 3.7.26 starting a new game of each variant: the boards it lays out, whether it asks
    "Choose Boards", and every point's name (offboard everywhere when it lays out none)."""
    for i, (boards, setup, reversible) in enumerate(CASES):
        case = tmp_path / str(i)
        case.mkdir()
        vmod = picker_module(case, boards, setup=setup, reversible=reversible)
        (layout,) = read_layouts(vmod)
        answer, located = vassal_engine.locate_raw(vmod, [("Main Map", x, y) for x, y in POINTS])
        asked = {"title": None, "text": "Choose Boards"} in answer["dialogs"]
        assert asked == layout.choose_boards, (boards, setup, answer["dialogs"])
        assert [b["name"] for b in answer["maps"][0]["boards"]] == [b.name for b, _c, _r in layout.boards]
        assert [loc.location for loc in located] == [layout.locate(x, y).name for x, y in POINTS], (boards, setup)
        if layout.choose_boards:
            assert [loc.location for loc in located] == ["offboard"] * len(POINTS)


def test_grid_locate_says_why_every_point_is_offboard_and_boards_lays_some_out(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from gazala_tools.cli import main

    vmod = str(picker_module(tmp_path, ["Normandy", "F", "G", "A", "ABCF"]))
    assert main(["grid", "locate", vmod, "700", "110"]) == 0
    out, err = capsys.readouterr()
    assert out.split()[0] == "offboard" and "Choose Boards" in err
    assert main(["grid", "locate", vmod, "700", "110", "--boards", "Normandy,F:1:0"]) == 0
    out, err = capsys.readouterr()
    (tmp_path / "f").mkdir()
    (alone,) = read_layouts(picker_module(tmp_path / "f", ["F"]))
    assert out.split()[0] == alone.locate(700 - 600, 110).name != "offboard" and err == ""
    # a board's column counts the boards laid out left of it: F alone at column 1 starts at the edge
    code = main(["grid", "center", vmod, "0202", "--boards", "F:1:0", "--json"])
    out, err = capsys.readouterr()
    assert (code, err) == (0, "")
    assert tuple(json.loads(out)[k] for k in "xy") == alone.center_of("0202")
    assert main(["grid", "locate", vmod, "1", "1", "--boards", "Nowhere"]) == 2
    err = capsys.readouterr().err
    assert "Nowhere" in err and "'Normandy'" in err and len(err.strip().splitlines()) == 1
