"""Issue 35 item 2: a hex grid without numbering gets map.yaml with the toolkit's labels (0101 at the top-left
whole hex, stated as ours), every hex centre maps to one label and back, and the referee reads a save of such
a module from the pieces' pixel points (docs/module.md, "Referee your existing module").

The module without numbering is made here from Ragnarok (CC0, read in place): its buildFile with the hex
grid's HexGridNumbering removed, written to a temporary folder with the module's images and set-up save."""

from __future__ import annotations

import json
import shutil
import zipfile
from pathlib import Path
from typing import Any

import pytest
import yaml
from lxml import etree

from gazala_tools.cli import main
from gazala_tools.grid import hex_to_raw
from gazala_tools.hexgrid import HexGridGeometry, ZonedGrid
from gazala_tools.mapdata.loader import load_map
from gazala_tools.vassal.buildfile import read_layouts
from gazala_tools.vassal.importer.grids import OURS, label_at
from gazala_tools.vsav import read_save

HEXNUM = "VASSAL.build.module.map.boardPicker.board.mapgrid.HexGridNumbering"


def unnumbered_module(ragnarok: Path, out: Path) -> Path:
    """Ragnarok with no hex numbering: a module folder at ``out``."""
    root = etree.parse(str(ragnarok / "buildFile.xml")).getroot()
    removed = [el for el in root.iter(HEXNUM)]
    assert removed, "the generator found no HexGridNumbering to remove"
    for el in removed:
        el.getparent().remove(el)
    out.mkdir(parents=True)
    (out / "buildFile.xml").write_bytes(etree.tostring(root, xml_declaration=True, encoding="UTF-8"))
    shutil.copytree(ragnarok / "images", out / "images")
    for name in ("moduledata", "ragnarok-start.vsav"):
        shutil.copyfile(ragnarok / name, out / name)
    return out


@pytest.fixture(scope="module")
def plain(ragnarok: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    base = tmp_path_factory.mktemp("plain")
    module = unnumbered_module(ragnarok, base / "module")
    folder = base / "folder"
    assert main(["game", "import", str(module), str(folder)]) == 0
    return module, folder


def _main_geometry(module: Path) -> tuple[HexGridGeometry, tuple[int, int]]:
    lay = next(m for m in read_layouts(module) if m.name == "Main Map")
    board = lay.all_boards[0]
    assert isinstance(board.grid, ZonedGrid)
    geo = next(z.grid for z in board.grid.zones if isinstance(z.grid, HexGridGeometry))
    assert geo.numbering is None
    return geo, (board.width or 0, board.height or 0)


def test_a_grid_without_numbering_gets_map_yaml_with_our_labels(plain: tuple[Path, Path]) -> None:
    _module, folder = plain
    assert (folder / "map.yaml").is_file()
    report = yaml.safe_load((folder / "import-report.yaml").read_text(encoding="utf-8"))
    assert report["main grid"] == {"map": "Main Map", "board": "Map", "labels": OURS}
    for name in ("map.yaml", "game.yaml"):  # stated as ours, not VASSAL's
        assert OURS in (folder / name).read_text(encoding="utf-8")
    game_map = load_map(folder)
    assert len(game_map.hexes()) > 400


def test_0101_is_the_top_left_whole_hex(plain: tuple[Path, Path]) -> None:
    """Of every hex lying whole on the board (searched by brute force over VASSAL's raw indices), 0101 is the
    first one of the first column (columns run along VASSAL's u: x, or y on a sideways grid)."""
    module, folder = plain
    geo, (w, h) = _main_geometry(module)
    game_map = load_map(folder)
    r_u, r_v = geo.dx * 2 / 3, geo.dy / 2  # half extents of a hexagon: along u (corners) and v (flats)
    half_x, half_y = (r_v, r_u) if geo.sideways else (r_u, r_v)
    whole = []
    for c in range(-3, 60):
        for r in range(-3, 60):
            x, y = geo.raw_center(c, r)
            if half_x <= x and half_y <= y and x + half_x <= w - 1 and y + half_y <= h - 1:
                whole.append((c, r))
    first = min(whole)
    assert hex_to_raw(game_map.grid.parse("0101"), geo.orientation) == first


def test_every_hex_centre_maps_to_one_label_and_back(plain: tuple[Path, Path]) -> None:
    module, folder = plain
    geo, size = _main_geometry(module)
    game_map = load_map(folder)
    ours = game_map.geometry()
    seen: dict[str, tuple[int, int]] = {}
    for hx in game_map.hexes():
        label = game_map.grid.label(hx)
        point = geo.raw_center(*hex_to_raw(hx, geo.orientation))  # the module's own centre of that hex
        mine = ours.hex_center(hx)  # map.yaml's dx/dy have 4 decimals: the same centre within a pixel
        assert abs(point[0] - mine[0]) <= 1 and abs(point[1] - mine[1]) <= 1
        numbered = HexGridGeometry(geo.dx, geo.dy, geo.x0, geo.y0, geo.sideways, ours.numbering)
        assert label_at(numbered, *point, size) == label
        assert label not in seen
        seen[label] = point


def test_a_save_of_the_module_is_checked_from_pixel_points(plain: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    """The module's own set-up: Heimdall on the map (VASSAL names no hex there), 84 units in the deployment
    box. The referee puts Heimdall on the hex whose centre is the point he stands on."""
    module, folder = plain
    capsys.readouterr()
    assert main(["referee", "check", str(module / "ragnarok-start.vsav"), "--game", str(folder), "--json"]) == 0
    rep = json.loads(capsys.readouterr().out)
    rows = [f["message"] for f in rep["findings"] if f["rule"] == "positions"]
    on_hex = [m for m in rows if not m.startswith("in ")]
    assert len(on_hex) == 1 and on_hex[0].endswith("aesir 1 (hero-heimdall-194)")
    label = on_hex[0].split(":")[0]
    heimdall = next(p for p in read_save(module / "ragnarok-start.vsav").view().pieces if p.name == "hero-heimdall")
    geo, _size = _main_geometry(module)
    cx, cy = load_map(folder).geometry().hex_center(load_map(folder).grid.parse(label))
    # the map has one board and no edges: map point = board point; he stands within the hex of that centre
    assert (heimdall.x - cx) ** 2 + (heimdall.y - cy) ** 2 <= (min(geo.dx, geo.dy) / 2) ** 2
    assert "in deployment: aesir 48, jotun 36 unit(s)" in rows


@pytest.mark.vassal
def test_every_hex_centre_the_engine_reports_maps_to_a_label(plain: tuple[Path, Path], vassal_engine: Any,
                                                             tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """VASSAL 3.7.26 snaps a point dropped near each of our hex centres to a hex centre: that point maps to
    the label we gave the hex. A save the engine writes with pieces on our hexes is checked on those hexes."""
    module, folder = plain
    vmod = tmp_path / "plain.vmod"
    with zipfile.ZipFile(vmod, "w") as z:
        for p in sorted(module.rglob("*")):
            if p.is_file():
                z.write(p, p.relative_to(module).as_posix())
    game_map = load_map(folder)
    geo, size = _main_geometry(module)
    ours = game_map.geometry()
    numbered = HexGridGeometry(geo.dx, geo.dy, geo.x0, geo.y0, geo.sideways, ours.numbering)
    labels = sorted(game_map.grid.label(h) for h in game_map.hexes())
    points = []
    for label in labels:
        x, y = geo.raw_center(*hex_to_raw(game_map.grid.parse(label), geo.orientation))
        points.append(("Main Map", x + 7, y - 5))  # off centre: the engine snaps it
    located = vassal_engine.locate(vmod, points)
    assert len(located) == len(labels)
    for label, loc in zip(labels, located, strict=True):
        assert label_at(numbered, *loc.snap, size) == label
        assert tuple(loc.snap) == geo.raw_center(*hex_to_raw(game_map.grid.parse(label), geo.orientation))
    # a save written by the engine: three pieces on three of our hexes
    chosen = ["0101", labels[len(labels) // 2], labels[-1]]
    centre = {lab: geo.raw_center(*hex_to_raw(game_map.grid.parse(lab), geo.orientation)) for lab in chosen}
    placements = [{"slot": slot, "map": "Main Map", "x": centre[lab][0], "y": centre[lab][1]}
                  for slot, lab in zip(("hero-odin", "hero-loki", "unit-warrior"), chosen, strict=True)]
    save = tmp_path / "placed.vsav"
    vassal_engine.write_save(vmod, save, placements)
    capsys.readouterr()
    assert main(["referee", "check", str(save), "--game", str(folder), "--json"]) == 0
    rep = json.loads(capsys.readouterr().out)
    rows = {f["message"].split(":")[0]: f["message"] for f in rep["findings"] if f["rule"] == "positions"}
    assert rows[chosen[0]].endswith("aesir 1 (hero-odin-195)")
    assert rows[chosen[1]].endswith("jotun 1 (hero-loki-227)")
    assert rows[chosen[2]].endswith("aesir 1 (unit-warrior-202)")


def _module(tmp: Path, maps: list[tuple[str, str, str]], *, name: str = "Grids") -> Path:
    """A module ``name`` of ``maps`` (map name, board name, the board's grid XML), boards of 800 x 600, one piece."""
    from gazala_tools.vsav import sequence
    from gazala_tools.vsav.traits import make_piece

    pkg = "VASSAL.build.module.map.boardPicker"
    piece = make_piece(["mark;Side", "piece;;;;Red Inf 4-4-6"], ["Red", "null;0;0;1;0"])
    slot = sequence.encode(["+", "null", piece.type_string(), piece.state_string()], "/")
    xml = ('<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n'
           f'<VASSAL.build.GameModule name="{name}" '
           'version="1.0" VassalVersion="3.7.9"><VASSAL.build.module.PlayerRoster><entry>Red</entry><entry>Blue'
           "</entry></VASSAL.build.module.PlayerRoster>"
           + "".join(f'<VASSAL.build.module.Map mapName="{m}"><VASSAL.build.module.map.BoardPicker>'
                     f'<{pkg}.Board name="{b}" width="800" height="600">{grid}</{pkg}.Board>'
                     "</VASSAL.build.module.map.BoardPicker></VASSAL.build.module.Map>" for m, b, grid in maps)
           + '<VASSAL.build.module.PieceWindow name="P"><VASSAL.build.widget.PanelWidget entryName="Red">'
           f'<VASSAL.build.widget.PieceSlot entryName="Red Inf 4-4-6" gpid="1" height="64" width="64">{slot}'
           "</VASSAL.build.widget.PieceSlot></VASSAL.build.widget.PanelWidget></VASSAL.build.module.PieceWindow>"
           "</VASSAL.build.GameModule>\n")
    out = tmp / "module"
    out.mkdir()
    (out / "buildFile.xml").write_text(xml, encoding="utf-8")
    return out


def _two_maps(tmp: Path) -> Path:
    """A module of two maps, each one board with a hex grid without numbering (no images: sized boards)."""
    pkg = "VASSAL.build.module.map.boardPicker.board"
    return _module(tmp, [("Main Map", "A", f'<{pkg}.HexGrid dx="60" dy="70" x0="10" y0="-20"/>'),
                         ("Other", "B", f'<{pkg}.HexGrid dx="50" dy="58" x0="37" y0="5" sideways="true"/>')],
                   name="Two Maps")


def _first_whole(geo: HexGridGeometry, w: int, h: int) -> tuple[int, int]:
    """Brute force: the top-left hex lying whole on a board (first column along u, then first along v)."""
    r_u, r_v = geo.dx * 2 / 3, geo.dy / 2
    half_x, half_y = (r_v, r_u) if geo.sideways else (r_u, r_v)
    whole = [(c, r) for c in range(-3, 40) for r in range(-3, 40)
             if half_x <= geo.raw_center(c, r)[0] <= w - 1 - half_x and half_y <= geo.raw_center(c, r)[1] <= h - 1 - half_y]
    c, r = min(whole)
    return geo.raw_center(c, r)


def test_every_board_of_every_map_gets_its_grid(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The first map's grid is map.yaml's; a unit on the other map's grid stands in the box naming its hex, by
    our labels too: a piece at each grid's top-left whole hex is at 0101 of its grid."""
    from gazala_tools.vassal.importer import read_module
    from gazala_tools.vsav.writer import PiecePlacement, new_save_tree
    from tools.saves import write_new_save

    module = _two_maps(tmp_path)
    folder = tmp_path / "folder"
    assert main(["game", "import", str(module), str(folder)]) == 0
    report = yaml.safe_load((folder / "import-report.yaml").read_text(encoding="utf-8"))
    assert len(report["hex grids"]) == 2 and all("labels of ours" in g for g in report["hex grids"])
    other = folder / "grids" / "other-b.yaml"  # the other map's grid: its own map YAML, our labels
    assert sorted(p.name for p in (folder / "grids").iterdir()) == ["other-b.yaml"]
    other_map = load_map(other)
    geo_b = next(lay for lay in read_layouts(module) if lay.name == "Other").all_boards[0].grid
    assert isinstance(geo_b, HexGridGeometry)
    for hx in other_map.hexes():  # every hex centre of that grid maps to its label and back
        numbered = HexGridGeometry(geo_b.dx, geo_b.dy, geo_b.x0, geo_b.y0, geo_b.sideways, other_map.geometry().numbering)
        assert label_at(numbered, *geo_b.raw_center(*hex_to_raw(hx, geo_b.orientation)), (800, 600)) == \
            other_map.grid.label(hx)
    lays = {lay.name: lay for lay in read_layouts(module)}
    spots = {}
    for name in ("Main Map", "Other"):
        geo = lays[name].all_boards[0].grid
        assert isinstance(geo, HexGridGeometry)
        spots[name] = _first_whole(geo, 800, 600)
    slot = next(iter(yaml.safe_load((folder / "counters.yaml").read_text(encoding="utf-8"))["markers"]))
    p = read_module(module).pieces[0]
    tree = new_save_tree([PiecePlacement(p.type, p.state, m, x, y) for m, (x, y) in spots.items()], first_id=100)
    save = tmp_path / "s.vsav"
    write_new_save(save, tree, module_name="Two Maps")
    capsys.readouterr()
    assert main(["referee", "check", str(save), "--game", str(folder), "--json"]) == 0
    rows = sorted(f["message"] for f in json.loads(capsys.readouterr().out)["findings"] if f["rule"] == "positions")
    cid = slot["id"]
    assert rows == [f"0101: red 1 ({cid}#100)", "in Other B 0101: red 1 unit(s)"]


def test_a_second_hex_zone_of_the_main_board_gets_its_grid(tmp_path: Path) -> None:
    """Every other hex grid, of another board, zone or map, gets its own map YAML: a board of two zones, each
    with a hex grid, gives map.yaml (the first) and grids/ (the second), and the report says where each is."""
    pkg = "VASSAL.build.module.map.boardPicker.board"
    zoned = (f"<{pkg}.ZonedGrid>"
             f'<{pkg}.mapgrid.Zone name="west" path="0,0;399,0;399,599;0,599" useParentGrid="false">'
             f'<{pkg}.HexGrid dx="60" dy="70" x0="10" y0="-20"/></{pkg}.mapgrid.Zone>'
             f'<{pkg}.mapgrid.Zone name="east" path="400,0;799,0;799,599;400,599" useParentGrid="false">'
             f'<{pkg}.HexGrid dx="50" dy="58" x0="437" y0="5"/></{pkg}.mapgrid.Zone></{pkg}.ZonedGrid>')
    folder = tmp_path / "folder"
    assert main(["game", "import", str(_module(tmp_path, [("Main Map", "A", zoned)])), str(folder)]) == 0
    assert sorted(p.name for p in (folder / "grids").iterdir()) == ["main-map-a-east.yaml"]
    report = yaml.safe_load((folder / "import-report.yaml").read_text(encoding="utf-8"))
    assert [g.split(": ")[0] + (" map.yaml" if "(map.yaml)" in g else " grids/") for g in report["hex grids"]] == \
        ["Main Map / A / zone west map.yaml", "Main Map / A / zone east grids/"]


def test_grids_whose_names_run_together_get_a_file_each(tmp_path: Path) -> None:
    """Map "Main", board "A B" and map "Main A", board "B" both slug to main-a-b: two files, not one."""
    hexes = '<VASSAL.build.module.map.boardPicker.board.HexGrid dx="60" dy="70" x0="10" y0="-20"/>'
    folder = tmp_path / "folder"
    module = _module(tmp_path, [("First", "F", hexes), ("Main", "A B", hexes), ("Main A", "B", hexes)])
    assert main(["game", "import", str(module), str(folder)]) == 0
    assert sorted(p.name for p in (folder / "grids").iterdir()) == ["main-a-b-2.yaml", "main-a-b.yaml"]


def test_the_boards_a_save_chooses_are_laid_out_as_the_engine_lays_them(tmp_path: Path,
                                                                         capsys: pytest.CaptureFixture[str]) -> None:
    """A map of two boards that VASSAL asks the player to choose: the save's SetBoards puts board B left of
    board A. A piece at A's top-left whole hex (800 px right: B is 800 wide) is on map.yaml's 0101; a piece at
    B's is on B's own grid, 0101 of it."""
    from gazala_tools.vassal.importer import read_module
    from gazala_tools.vsav import sequence
    from gazala_tools.vsav.traits import make_piece
    from gazala_tools.vsav.writer import PiecePlacement, new_save_tree
    from tools.saves import write_new_save

    pkg = "VASSAL.build.module.map.boardPicker"
    piece = make_piece(["mark;Side", "piece;;;;Blue Cav 2-3-8"], ["Blue", "null;0;0;1;0"])
    slot = sequence.encode(["+", "null", piece.type_string(), piece.state_string()], "/")
    boards = "".join(f'<{pkg}.Board name="{n}" width="800" height="600"><{pkg}.board.HexGrid dx="60" dy="70" '
                     f'x0="{x0}" y0="-20"/></{pkg}.Board>' for n, x0 in (("A", 10), ("B", 40)))
    module = tmp_path / "m"
    module.mkdir()
    (module / "buildFile.xml").write_text(
        '<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n<VASSAL.build.GameModule name="Boards" '
        'version="1.0" VassalVersion="3.7.9"><VASSAL.build.module.PlayerRoster><entry>Red</entry><entry>Blue'
        '</entry></VASSAL.build.module.PlayerRoster><VASSAL.build.module.Map mapName="Main Map">'
        f"<VASSAL.build.module.map.BoardPicker>{boards}</VASSAL.build.module.map.BoardPicker>"
        '</VASSAL.build.module.Map><VASSAL.build.module.PieceWindow name="P"><VASSAL.build.widget.PanelWidget '
        'entryName="Blue"><VASSAL.build.widget.PieceSlot entryName="Blue Cav 2-3-8" gpid="1" height="64" '
        f'width="64">{slot}</VASSAL.build.widget.PieceSlot></VASSAL.build.widget.PanelWidget>'
        "</VASSAL.build.module.PieceWindow></VASSAL.build.GameModule>\n", encoding="utf-8")
    folder = tmp_path / "folder"
    assert main(["game", "import", str(module), str(folder)]) == 0
    lay = read_layouts(module)[0]
    assert lay.choose_boards  # VASSAL asks: no board is laid out until a save says which
    spot = {b.name: _first_whole(b.grid, 800, 600) for b in lay.all_boards if isinstance(b.grid, HexGridGeometry)}
    p = read_module(module).pieces[0]
    placements = [PiecePlacement(p.type, p.state, "Main Map", spot["A"][0] + 800, spot["A"][1]),
                  PiecePlacement(p.type, p.state, "Main Map", *spot["B"])]
    save = tmp_path / "s.vsav"
    write_new_save(save, new_save_tree(placements, boards={"Main Map": [("B", 0, 0), ("A", 1, 0)]}, first_id=7),
                   module_name="Boards")
    capsys.readouterr()
    assert main(["referee", "check", str(save), "--game", str(folder), "--json"]) == 0
    rows = sorted(f["message"] for f in json.loads(capsys.readouterr().out)["findings"] if f["rule"] == "positions")
    cid = "blue-cav-2-3-8-1"
    assert rows == [f"0101: blue 1 ({cid}#7)", "in Main Map B 0101: blue 1 unit(s)"]
