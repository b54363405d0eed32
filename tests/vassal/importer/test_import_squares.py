"""Issue 35 item 2, square grids: a module whose main grid is a VASSAL ``SquareGrid`` gets ``map.yaml`` (its
cells; the module's ``SquareGridNumbering`` or ours, ``0101`` at the top-left whole cell, stated as ours), other
square grids get ``grids/``, and ``referee check SAVE --game DIR`` on a save of that module gives each side's units
per cell and the findings of the test game's short rules file (``tests/games/squares/rules.yaml``: S1 stacking,
S2 enemies never share a square, Z1 zones of control into the adjacent squares).

The module is made here (:func:`square_module`): one map of one 800 x 600 board with a square grid, two pieces
a side, and, for the engine, a second map and a set-up. Every expected finding is computed in the test from the
pieces' pixel points with VASSAL's arithmetic written out (``SquareGrid.getColumn``/``getRow``), never with the
code under test."""

from __future__ import annotations

import json
import math
import re
import zipfile
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import pytest
import yaml

from gazala_tools.cli import main
from gazala_tools.mapdata.loader import load_map, load_map_text
from gazala_tools.mapdata.writer import dump_map
from gazala_tools.squaregrid import SquareGameGrid, SquareGridGeometry, SquareGridNumbering
from gazala_tools.vassal.importer.grids import OURS_SQUARE, label_at
from tests.vassal.importer.refcheck import check_json, rows_of

RULES = Path(__file__).resolve().parents[2] / "games" / "squares" / "rules.yaml"
PKG = "VASSAL.build.module.map.boardPicker"
MAIN = "Main Map"
W, H = 800, 600
#: the pieces: palette name -> (gpid, side)
PIECES = {"Red Inf 4-4-6": ("1", "Red"), "Red Arm 6-4-8": ("2", "Red"),
          "Blue Inf 3-3-6": ("3", "Blue"), "Blue Cav 2-2-10": ("4", "Blue")}


def _slot(name: str, gpid: str, side: str) -> str:
    from gazala_tools.vsav import sequence
    from gazala_tools.vsav.traits import make_piece

    piece = make_piece(["mark;Side", f"piece;;;;{name}"], [side, f"null;0;0;{gpid};0"])
    text = sequence.encode(["+", "null", piece.type_string(), piece.state_string()], "/")
    return f'<VASSAL.build.widget.PieceSlot entryName="{name}" gpid="{gpid}" height="64" width="64">{text}' \
           "</VASSAL.build.widget.PieceSlot>"


def _map(name: str, board: str, grid: str, width: int = W, height: int = H) -> str:
    return (f'<VASSAL.build.module.Map mapName="{name}"><VASSAL.build.module.map.BoardPicker>'
            f'<{PKG}.Board name="{board}" width="{width}" height="{height}">{grid}</{PKG}.Board>'
            "</VASSAL.build.module.map.BoardPicker><VASSAL.build.module.map.StackMetrics/>"
            "<VASSAL.build.module.map.PieceMover/><VASSAL.build.module.map.KeyBufferer/>"
            "<VASSAL.build.module.map.MenuDisplayer/><VASSAL.build.module.map.ForwardToKeyBuffer/>"
            "</VASSAL.build.module.Map>")


def square_grid(dx: float = 50, dy: float = 50, x0: int = 25, y0: int = 25, numbering: str | None = None) -> str:
    """A ``SquareGrid`` element (``numbering``: a ``SquareGridNumbering``'s attributes, None: no numbering)."""
    num = f"<{PKG}.board.mapgrid.SquareGridNumbering {numbering}/>" if numbering is not None else ""
    return f'<{PKG}.board.SquareGrid dx="{dx}" dy="{dy}" x0="{x0}" y0="{y0}">{num}</{PKG}.board.SquareGrid>'


def square_module(out: Path, grid: str, *, other: str | None = None, setup: str | None = None,
                  board: tuple[int, int] = (W, H)) -> Path:
    """A module folder at ``out``: map "Main Map" (board A, ``grid``), optionally map "Reserve" (board B,
    ``other``) and a set-up "Start" opening the save file ``setup`` (put beside the buildFile by the caller)."""
    xml = ('<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n'
           '<VASSAL.build.GameModule name="Squares" version="1.0" VassalVersion="3.7.9">'
           "<VASSAL.build.module.BasicCommandEncoder/><VASSAL.build.module.PlayerRoster><entry>Red</entry>"
           "<entry>Blue</entry></VASSAL.build.module.PlayerRoster>"
           + _map(MAIN, "A", grid, *board) + (_map("Reserve", "B", other) if other is not None else "")
           + '<VASSAL.build.module.PieceWindow name="P">'
           + "".join(f'<VASSAL.build.widget.PanelWidget entryName="{side}">'
                     + "".join(_slot(n, g, s) for n, (g, s) in PIECES.items() if s == side)
                     + "</VASSAL.build.widget.PanelWidget>" for side in ("Red", "Blue"))
           + "</VASSAL.build.module.PieceWindow><VASSAL.build.module.Chatter/>"
           + (f'<VASSAL.build.module.PredefinedSetup name="Start" file="{setup}" useFile="true" isMenu="false"/>'
              if setup else "")
           + "</VASSAL.build.GameModule>\n")
    out.mkdir(parents=True, exist_ok=True)
    (out / "buildFile.xml").write_text(xml, encoding="utf-8")
    return out


def zipped(module: Path, out: Path) -> Path:
    with zipfile.ZipFile(out, "w") as z:
        for p in sorted(module.rglob("*")):
            if p.is_file():
                z.write(p, p.relative_to(module).as_posix())
    return out


def with_rules(folder: Path, moves: str = "orthogonal") -> Path:
    """The user's steps after the import: the game's rules in game.yaml (replacing the import's boxes), and
    the game's moves in map.yaml."""
    game = re.sub(r"^rules:\n(?:  .*\n)+", "", (folder / "game.yaml").read_text(encoding="utf-8"), flags=re.M)
    (folder / "game.yaml").write_text(game + "rules:" + RULES.read_text(encoding="utf-8").split("\nrules:", 1)[1],
                                      encoding="utf-8")
    text = (folder / "map.yaml").read_text(encoding="utf-8")
    (folder / "map.yaml").write_text(text.replace("moves: orthogonal", f"moves: {moves}"), encoding="utf-8")
    return folder


def imported(tmp: Path, grid: str, **kw: Any) -> Path:
    module = square_module(tmp / "module", grid, **kw)
    folder = tmp / "folder"
    assert main(["game", "import", str(module), str(folder)]) == 0
    return folder


# --- VASSAL's arithmetic, written out (SquareGrid.java), for the expected values ---------------------------------
def vassal_cell(x: float, y: float, dx: float = 50, dy: float = 50, x0: int = 25, y0: int = 25) -> tuple[int, int]:
    """``getColumn``: floor of the offset over dx plus a half; ``getRow``: the same truncated toward zero."""
    return math.floor((x - x0) / dx + 0.5), int((y - y0) / dy + 0.5)


def our_label(col: int, row: int, first: tuple[int, int] = (0, 0)) -> str:
    """Our label of raw cell ``(col, row)``: columns then rows from 01 at the first whole cell ``first``."""
    return f"{col - first[0] + 1:02d}{row - first[1] + 1:02d}"


def neighbours(c: int, r: int, moves: str) -> set[tuple[int, int]]:
    steps = [(0, 1), (1, 0), (0, -1), (-1, 0)]
    if moves == "diagonal":
        steps += [(1, 1), (1, -1), (-1, 1), (-1, -1)]
    return {(c + a, r + b) for a, b in steps}


def expected_findings(points: dict[str, tuple[str, int, int]], units: dict[str, tuple[str, str]], moves: str,
                      cells: tuple[int, int] = (16, 12)) -> tuple[dict[str, str], list[tuple[str, str]],
                                                                  dict[str, list[str]]]:
    """From each unit's point (id -> (map, x, y)) and (id -> (side, type)): the positions table's line of each
    occupied cell, the errors (S1: more than one unit of a side in a cell; S2: both sides in one cell) and each
    side's zone of control (the cells next to its units, on the board)."""
    by_cell: dict[tuple[int, int], list[str]] = defaultdict(list)
    for uid, (where, x, y) in points.items():
        if where == MAIN:
            by_cell[vassal_cell(x, y)].append(uid)
    rows, errors = {}, []
    zoc: dict[str, set[str]] = {"red": set(), "blue": set()}
    for (c, r), ids in by_cell.items():
        lab = our_label(c, r)
        sides = Counter(units[u][0] for u in ids)
        rows[lab] = f"{lab}: " + ", ".join(f"{s} {n}" for s, n in sorted(sides.items())) + f" ({', '.join(sorted(ids))})"
        errors += [("S1", lab) for _s, n in sides.items() if n > 1]
        if len(sides) > 1:
            errors.append(("S2", lab))
        for u in ids:
            zoc[units[u][0]] |= {our_label(nc, nr) for nc, nr in neighbours(c, r, moves)
                                 if 0 <= nc < cells[0] and 0 <= nr < cells[1]}
    return rows, sorted(errors), {s: sorted(v) for s, v in zoc.items()}


def errors_of(rep: dict[str, Any]) -> list[tuple[str, str]]:
    return sorted((f["rule"], h) for f in rep["findings"] if f["severity"] == "error" for h in f["hexes"])


def unit_ids(folder: Path) -> dict[str, str]:
    """Palette name -> unit id (the counter id of units.yaml)."""
    pieces = yaml.safe_load((folder / "units.yaml").read_text(encoding="utf-8"))["pieces"]
    return {e["name"]: cid for cid, e in pieces.items()}


def our_save(module: Path, out: Path, spots: list[tuple[str, str, int, int]]) -> Path:
    """A save of ``module`` with a piece at each spot (palette name, map, x, y), written by our writer."""
    from gazala_tools.vassal.importer import read_module
    from gazala_tools.vsav.writer import PiecePlacement, new_save_tree
    from tools.saves import write_new_save

    slots = {p.name: p for p in read_module(module).pieces}
    tree = new_save_tree([PiecePlacement(slots[n].type, slots[n].state, m, x, y) for n, m, x, y in spots], first_id=100)
    write_new_save(out, tree, module_name="Squares")
    return out


def trap_hex_geometry(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every part of a hex's geometry fails from here on: a square cell keyed as ``Hex(col, row)`` read as a hex
    is an error (docs/mapdata.md, "Square grids")."""
    from gazala_tools.hexes import Hex, Hexside

    def trap(*_a: object, **_k: object) -> None:
        raise AssertionError("a square cell was read as a hex")

    for name in ("neighbours", "neighbour", "distance", "direction_to", "is_adjacent", "sides", "side", "within",
                 "ring", "line_to", "corners", "to_offset", "center_lattice"):
        monkeypatch.setattr(Hex, name, trap)
    monkeypatch.setattr(Hexside, "between", classmethod(trap))
    monkeypatch.setattr(Hexside, "of", classmethod(trap))


# --- map.yaml ----------------------------------------------------------------------------------------------------
def test_a_square_grid_without_numbering_gets_map_yaml_with_our_labels(tmp_path: Path) -> None:
    folder = imported(tmp_path, square_grid())
    doc = yaml.safe_load((folder / "map.yaml").read_text(encoding="utf-8"))
    assert doc["grid"]["kind"] == "square" and doc["grid"]["moves"] == "orthogonal"
    for name in ("map.yaml", "game.yaml"):  # stated as ours, not VASSAL's
        assert OURS_SQUARE in (folder / name).read_text(encoding="utf-8")
    report = yaml.safe_load((folder / "import-report.yaml").read_text(encoding="utf-8"))
    assert report["main grid"]["labels"] == OURS_SQUARE and report["main grid"]["kind"] == "square"
    game_map = load_map(folder)
    assert isinstance(game_map.grid, SquareGameGrid)
    assert len(game_map.hexes()) == 16 * 12 and game_map.grid.hexsides() == []
    assert [game_map.label(h) for h in game_map.hexes()[:2]] == ["0101", "0102"]


@pytest.mark.parametrize(("x0", "y0"), [(25, 25), (10, -20), (-60, 70), (49, 1)])
def test_0101_is_the_top_left_whole_cell(tmp_path: Path, x0: int, y0: int) -> None:
    """Of every cell lying whole on the board (by brute force over VASSAL's raw indices, rows from 0: VASSAL
    names a point above row 0 row 0), 0101 is the first of the first column; every cell centre on the board
    is a cell of the map."""
    folder = imported(tmp_path, square_grid(x0=x0, y0=y0))
    grid = load_map(folder).grid
    assert isinstance(grid, SquareGameGrid)
    whole = [(c, r) for c in range(-5, 30) for r in range(0, 30)
             if x0 + c * 50 - 25 >= 0 and y0 + r * 50 - 25 >= 0 and x0 + c * 50 + 25 <= W and y0 + r * 50 + 25 <= H]
    assert grid.raw(grid.hex("0101")) == min(whole)
    on_board = {(c, r) for c in range(-5, 30) for r in range(0, 30) if 0 <= x0 + c * 50 < W and 0 <= y0 + r * 50 < H}
    assert {grid.raw(h) for h in grid.hexes()} == on_board


def test_a_numbered_square_grid_keeps_the_modules_labels(tmp_path: Path) -> None:
    """The module's SquareGridNumbering (letters, a separator, descending rows) names every cell as VASSAL does:
    the label of each cell is the engine's name of its centre (the moved SquareGrid code, checked against the
    engine in tests/oracle/test_squaregrid.py), and game.yaml holds that numbering."""
    attrs = 'hType="A" vType="N" sep="-" vDescend="true" hOff="0" vOff="1" vLeading="0"'
    folder = imported(tmp_path, square_grid(dx=40, dy=45, x0=30, y0=20, numbering=attrs))
    assert "OURS" not in (folder / "map.yaml").read_text(encoding="utf-8")
    geo = SquareGridGeometry.from_attrs({"dx": "40", "dy": "45", "x0": "30", "y0": "20"},
                                        {"hType": "A", "vType": "N", "sep": "-", "vDescend": "true", "hOff": "0",
                                         "vOff": "1", "vLeading": "0"})
    game_map = load_map(folder)
    grid = game_map.grid
    assert len(grid) == 20 * 13
    for h in grid.hexes():
        c, r = grid.raw(h)
        point = geo.raw_center(c, r)
        assert geo.name_at(*point, W, H) == grid.label(h) == label_at(geo, *point, (W, H))
    assert grid.label(grid.from_raw(0, 0)) == "A-14"  # the top row counts down from maxRows 13, plus vOff


def test_every_cell_centre_maps_to_one_label_and_back(tmp_path: Path) -> None:
    folder = imported(tmp_path, square_grid(dx=47.5, dy=52.25, x0=11, y0=30))
    game_map = load_map(folder)
    grid = game_map.grid
    assert isinstance(grid, SquareGameGrid) and grid.numbering.stagger is False
    geo = SquareGridGeometry(47.5, 52.25, 11, 30, numbering=SquareGridNumbering(
        h_off=grid.numbering.h_off, v_off=grid.numbering.v_off))
    seen = set()
    for h in grid.hexes():
        label = grid.label(h)
        point = geo.centre(grid.cell(h))
        assert label_at(geo, *point, (W, H)) == label and grid.hex(label) == h
        assert label not in seen
        seen.add(label)


# --- the referee -------------------------------------------------------------------------------------------------
#: S2 at one cell (a red and a blue unit), S1 at another (two red units), a lone blue unit: points off centre
SPOTS = [("Red Inf 4-4-6", MAIN, 125, 130), ("Red Arm 6-4-8", MAIN, 140, 110),
         ("Blue Inf 3-3-6", MAIN, 320, 334), ("Blue Cav 2-2-10", MAIN, 420, 330)]


@pytest.mark.parametrize("moves", ["orthogonal", "diagonal"])
def test_a_save_is_checked_per_cell_with_stacking_and_zoc(moves: str, tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    module = square_module(tmp_path / "module", square_grid())
    folder = tmp_path / "folder"
    assert main(["game", "import", str(module), str(folder)]) == 0
    with_rules(folder, moves)
    ids = unit_ids(folder)
    spots = [*SPOTS, ("Red Inf 4-4-6", MAIN, 330, 320)]  # a second red infantry, into the blue infantry's cell
    save = our_save(module, tmp_path / "s.vsav", spots)
    named = Counter(n for n, *_ in spots)
    points, units = {}, {}
    for i, (name, where, x, y) in enumerate(spots):
        uid = ids[name] if named[name] == 1 else f"{ids[name]}#{100 + i}"
        points[uid] = (where, x, y)
        units[uid] = (PIECES[name][1].lower(), "")
    rows, errors, zoc = expected_findings(points, units, moves)
    assert errors  # the position breaks S1 and S2 somewhere
    rep = check_json(save, folder, capsys, 1)
    assert rows_of(rep) == rows
    assert errors_of(rep) == errors
    assert {s: sorted(v) for s, v in rep["zoc"].items()} == zoc


def test_a_unit_on_another_square_grid_is_in_its_box_by_its_cell(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """Every other square grid gets its own map YAML in grids/ (our labels); a unit on it stands in the box of
    its map, and the positions table names its cell."""
    module = square_module(tmp_path / "module", square_grid(), other=square_grid(dx=60, dy=60, x0=0, y0=0))
    folder = tmp_path / "folder"
    assert main(["game", "import", str(module), str(folder)]) == 0
    assert sorted(p.name for p in (folder / "grids").iterdir()) == ["reserve-b.yaml"]
    other = load_map(folder / "grids" / "reserve-b.yaml")
    # the cells whose centre is on the board: from raw (0, 0), half on the board; 0101 is the first whole one
    assert other.label(other.hexes()[0]) == "0000" and other.label(other.grid.from_raw(1, 1)) == "0101"
    assert OURS_SQUARE in other.title
    assert load_map_text(dump_map(other), "again.yaml") == other  # the map YAML written back reads the same
    save = our_save(module, tmp_path / "s.vsav", [("Red Inf 4-4-6", MAIN, 30, 30), ("Blue Cav 2-2-10", "Reserve", 65, 55)])
    rep = check_json(save, folder, capsys, 0)
    msgs = sorted(f["message"] for f in rep["findings"] if f["rule"] == "positions")
    assert msgs == ["0101: red 1 (red-inf-4-4-6-1)", "in Reserve B 0101: blue 1 unit(s)"]


def test_the_referee_reads_no_hex_geometry_on_a_square_map(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """The proof that a cell keyed as ``Hex(col, row)`` is never read as a hex (docs/mapdata.md, "Square
    grids"): with every piece of a hex's geometry (neighbours, distance, sides, corners, offsets, lines,
    Hexside.between) made to fail, the referee checks a save of a square map with stacking, ZOC, supply
    traced through the grid's neighbours, reinforcements and victory."""
    module = square_module(tmp_path / "module", square_grid())
    folder = tmp_path / "folder"
    assert main(["game", "import", str(module), str(folder)]) == 0
    with_rules(folder, "diagonal")
    game = (folder / "game.yaml").read_text(encoding="utf-8")
    (folder / "game.yaml").write_text(game + """\
  supply:
    rule: "P1"
    trace: {blocked-by: [enemy-units, enemy-zoc], max-length: 12}
    sides:
      red: {sources: {edges: [W]}, goal: "the west edge"}
      blue: {sources: {edges: [E]}, goal: "the east edge"}
  reinforcements:
    rule: "R1"
    schedule:
      - {units: [blue-cav-2-2-10-4], turn: 1, enter: {edges: [E]}}
  victory:
    rule: "V1"
    hexes:
      - {rule: "V2", hexes: {hexes: ["0808"]}, score: [{holds: occupied, vp: 1}]}
""", encoding="utf-8")
    save = our_save(module, tmp_path / "s.vsav", SPOTS[:3])

    trap_hex_geometry(monkeypatch)
    rep = check_json(save, folder, capsys, 1)
    assert set(rep["supply"]) == {"red-inf-4-4-6-1", "red-arm-6-4-8-2", "blue-inf-3-3-6-3"}
    assert errors_of(rep) == [("S1", "0303")]


def test_map_check_finds_vassal_naming_every_cell_by_its_label(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    attrs = 'hType="A" sep="." vDescend="true"'
    folder = imported(tmp_path, square_grid(dx=47, dy=53, x0=20, y0=31, numbering=attrs))
    capsys.readouterr()
    assert main(["map", "check", str(folder)]) == 0
    assert "ok   data       vassal_names_every_hex_by_its_label" in capsys.readouterr().out
    text = (folder / "map.yaml").read_text(encoding="utf-8")
    (folder / "map.yaml").write_text(text.replace("max_rows: 11", "max_rows: 12"), encoding="utf-8")
    assert main(["map", "check", str(folder)]) == 1
    assert "cell(s) VASSAL names otherwise" in capsys.readouterr().out


def test_what_draws_hexes_refuses_a_square_map_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The board renderer and the HTML report's board draw hex maps only: a square map is one line, exit 2,
    nothing written (the text and JSON reports give every finding)."""
    module = square_module(tmp_path / "module", square_grid())
    folder = tmp_path / "folder"
    assert main(["game", "import", str(module), str(folder)]) == 0
    save = our_save(module, tmp_path / "s.vsav", SPOTS[:1])
    for argv in (["map", "render", str(folder), "-o", str(tmp_path / "b.png")],
                 ["referee", "check", str(save), "--game", str(folder), "--format", "html", "-o", str(tmp_path / "r.html")]):
        capsys.readouterr()
        assert main(argv) == 2
        err = capsys.readouterr().err.strip()
        assert len(err.splitlines()) == 1 and "square grid" in err, err
    assert not (tmp_path / "b.png").exists() and not (tmp_path / "r.html").exists()


# --- bad input ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("grid", "board", "says"), [
    (square_grid(dx=0), (W, H), "dx"),
    (square_grid(dx=0.01, dy=0.01), (W, H), "dx='0.01' is out of range"),
    (square_grid(dx=2, dy=2), (W, H), "at most 100,000 cells"),
    (square_grid(x0=5000, y0=5000), (W, H), "no cell centre"),
    (square_grid(), (0, 0), "no cell centre"),
    (square_grid(numbering='hType="Q"'), (W, H), "h_type"),
    (square_grid(numbering='hLeading="99"'), (W, H), "hLeading='99' is out of range"),
], ids=["dx 0", "tiny", "huge", "off the board", "board of no size", "nonsense numbering", "nonsense leading"])
def test_a_square_grid_of_no_or_huge_size_or_nonsense_numbering_is_one_line(
        grid: str, board: tuple[int, int], says: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    module = square_module(tmp_path / "module", grid, board=board)
    capsys.readouterr()
    assert main(["game", "import", str(module), str(tmp_path / "folder")]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and says in err and "Traceback" not in err, err
    assert not (tmp_path / "folder").exists()


def test_a_square_map_yaml_with_hexsides_or_an_orientation_is_bad_input(tmp_path: Path,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    folder = imported(tmp_path, square_grid())
    text = (folder / "map.yaml").read_text(encoding="utf-8")
    for bad, says in ((text.replace("  kind: square\n", "  kind: square\n  orientation: flat\n"), "orientation"),
                      (text + "hexside-kinds: {river: {}}\n", "no hexsides"),
                      (text.replace("moves: orthogonal", "moves: knight"), "moves")):
        (folder / "map.yaml").write_text(bad, encoding="utf-8")
        capsys.readouterr()
        assert main(["map", "check", str(folder)]) == 2
        err = capsys.readouterr().err.strip()
        assert len(err.splitlines()) == 1 and says in err and "map.yaml" in err, err


# --- the engine --------------------------------------------------------------------------------------------------
@pytest.mark.vassal
@pytest.mark.parametrize("numbered", [False, True], ids=["ours", "the module's"])
def test_every_cell_centre_the_engine_reports_maps_to_a_label(numbered: bool, vassal_engine: Any,
                                                              tmp_path: Path) -> None:
    """VASSAL 3.7.26 snaps a point dropped near each of our cell centres to a cell centre: that point maps to the
    label we gave the cell; with the module's numbering, it is also the name the engine gives the point."""
    attrs = 'hType="A" sep="." vDescend="true"' if numbered else None
    grid = square_grid(dx=47, dy=53, x0=20, y0=31, numbering=attrs)
    module = square_module(tmp_path / "module", grid)
    folder = tmp_path / "folder"
    assert main(["game", "import", str(module), str(folder)]) == 0
    game_map = load_map(folder)
    sq = game_map.grid
    assert isinstance(sq, SquareGameGrid)
    labels = [sq.label(h) for h in sq.hexes()]
    centres = [(47 * c + 20, 53 * r + 31) for c, r in (sq.raw(h) for h in sq.hexes())]
    located = vassal_engine.locate(zipped(module, tmp_path / "m.vmod"), [(MAIN, x + 9, y - 11) for x, y in centres])
    assert len(located) == len(labels)
    geo = SquareGridGeometry(47, 53, 20, 31, numbering=sq.numbering if isinstance(sq.numbering, SquareGridNumbering)
                             else SquareGridNumbering(**{k: getattr(sq.numbering, k) for k in (
                                 "first", "sep", "h_type", "v_type", "h_leading", "v_leading", "h_off", "v_off",
                                 "h_descend", "v_descend", "location_format")}))
    for label, centre, loc in zip(labels, centres, located, strict=True):
        assert tuple(loc.snap) == centre
        assert label_at(geo, *loc.snap, (W, H)) == label
        if numbered:
            assert loc.location == label


@pytest.mark.vassal
@pytest.mark.slow  # about 45 s: the engine writes a set-up, a save after moves and a log
def test_a_save_and_a_log_the_engine_writes_after_moves(vassal_engine: Any, vassal_harness: Any, tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str],
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """The engine places the four pieces (the set-up "Start"), then moves three of them; the save it writes after
    the moves and the log of the moves are checked with the findings computed here from the points the engine
    reports (S1, S2, the zones of control); the log's moves are priced with no hex geometry read."""
    base = tmp_path / "module"
    square_module(base, square_grid())
    start = vassal_engine.write_save(zipped(base, tmp_path / "bare.vmod"), base / "start.vsav",
                                     [{"slot": n, "map": MAIN, "x": x, "y": y} for n, x, y in (
                                         ("Red Inf 4-4-6", 75, 75), ("Red Arm 6-4-8", 75, 275),
                                         ("Blue Inf 3-3-6", 675, 75), ("Blue Cav 2-2-10", 675, 475))])
    assert Path(start["saved"]).is_file()
    module = square_module(base, square_grid(), setup="start.vsav")
    vmod = zipped(module, tmp_path / "squares.vmod")
    folder = tmp_path / "folder"
    assert main(["game", "import", str(vmod), str(folder)]) == 0
    report = yaml.safe_load((folder / "import-report.yaml").read_text(encoding="utf-8"))
    assert report["counts"]["imported"]["scenario pieces on hexes"] == 4  # the set-up's pieces, each on its cell
    with_rules(folder)
    ids = unit_ids(folder)
    moves = [{"piece": "Red Arm 6-4-8", "map": MAIN, "x": 80, "y": 70},      # onto the red infantry's cell: S1
             {"piece": "Blue Inf 3-3-6", "map": MAIN, "x": 130, "y": 70},    # beside them: in each other's zone
             {"piece": "Blue Cav 2-2-10", "map": MAIN, "x": 120, "y": 80}]   # onto the blue infantry: S1
    result = vassal_harness.run("setup", vmod, "Start", tmp_path / "out", _moves(tmp_path, moves))
    after = result["pieces_after"]
    points = {ids[p["name"]]: (p["map"], int(p["x"]), int(p["y"])) for p in after}
    units = {ids[n]: (s.lower(), "") for n, (_g, s) in PIECES.items()}
    rows, errors, zoc = expected_findings(points, units, "orthogonal")
    assert errors == [("S1", "0202"), ("S1", "0302")]  # where the moves put them, by VASSAL's arithmetic
    rep = check_json(Path(result["saved"]), folder, capsys, 1)
    assert rows_of(rep) == rows and errors_of(rep) == errors
    assert {s: sorted(v) for s, v in rep["zoc"].items()} == zoc
    log = tmp_path / "moves.vlog"
    written = vassal_harness.log_moves(vmod, "Start", log, moves)
    trap_hex_geometry(monkeypatch)
    capsys.readouterr()
    assert main(["referee", "log", str(log), "--game", str(folder), "--json"]) == 1
    rep = json.loads(capsys.readouterr().out)
    cells = [(vassal_cell(*m["from_xy"]), vassal_cell(*m["to_xy"])) for m in written["moves"]]
    assert [(m["unit"], m["from"], m["to"]) for m in rep["moves"]] == [
        (ids[m["name"]], our_label(*a), our_label(*b)) for m, (a, b) in zip(written["moves"], cells, strict=True)]
    # a path of single steps across the cells' sides, as short as the cells are apart (no rule stands in the way)
    assert [len(m["path"]) - 1 for m in rep["moves"]] == [abs(a[0] - b[0]) + abs(a[1] - b[1]) for a, b in cells]
    ends = [f for f in rep["findings"] if f["kind"] == "position" and f["severity"] == "error"]
    assert sorted((f["rule"], h) for f in ends for h in f["hexes"]) == errors


def _moves(tmp_path: Path, moves: list[dict[str, Any]]) -> Path:
    tmp_path.mkdir(parents=True, exist_ok=True)
    f = tmp_path / "moves.json"
    f.write_text(json.dumps({"moves": moves}), encoding="utf-8")
    return f


@pytest.mark.parametrize(("moves", "cells"), [("orthogonal", 5), ("diagonal", 9)])
def test_a_set_up_within_a_distance_counts_the_games_steps(moves: str, cells: int, tmp_path: Path) -> None:
    """A scenario's ``within: {hex, distance: 1}`` on a square map is the cell and its 4 (or 8) neighbours, nearest
    first: the grid's steps, not a hex's."""
    from gazala_tools.games.scenarios import Placement, Scenario, resolve_setup

    folder = imported(tmp_path, square_grid())
    with_rules(folder, moves)
    game_map = load_map(folder)
    units = [(f"u{i}", "F") for i in range(cells)]
    setup = resolve_setup(Scenario("s", "S", setup=(Placement(formation="F", centre="0505", distance=1),),
                                   file="scenarios.yaml"), game_map, units)
    got = [label for _u, label in setup.hexes]
    around = {our_label(4 + a, 4 + b) for a, b in [(0, 0), *neighbours(0, 0, moves)]}
    assert got[0] == "0505" and set(got) == around and len(got) == cells
