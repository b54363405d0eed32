"""A module from a game folder made only of data (tools/synthgame.py): its own numbering, two sides,
a board image (a stand-in for a scan) on the grid of map.yaml, set-ups by rule areas, a place, a hex
and a box, a track start value, a table, a help page; and the build is byte-reproducible."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from lxml import etree
from PIL import Image

from gazala_tools.cli import main
from gazala_tools.counters.loader import load_game_manifest
from gazala_tools.errors import GazalaError
from gazala_tools.games import find_game
from gazala_tools.games.scenarios import load_scenarios
from gazala_tools.mapdata.loader import load_game_map
from gazala_tools.vassal.buildfile import read_layouts
from gazala_tools.vassal.module import build_game_module
from gazala_tools.vassal.module.games import module_spec
from gazala_tools.vsav import read_save
from tools.synthgame import SynthGame, write_game

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def synth(tmp_path_factory: pytest.TempPathFactory) -> SynthGame:
    return write_game(tmp_path_factory.mktemp("synth") / "synthetic-war", units=24, art=True)


@pytest.fixture(scope="module")
def built(synth: SynthGame, tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    out = tmp_path_factory.mktemp("out") / "synthetic.vmod"
    return out, build_game_module(synth.folder, out)


def test_the_board_is_the_given_image_byte_for_byte(built, synth: SynthGame) -> None:  # type: ignore[no-untyped-def]
    out, result = built
    with zipfile.ZipFile(out) as zf:
        assert zf.read("images/board.png") == (synth.folder / "board.png").read_bytes()
    assert result.spec.board.image == "board.png"


def test_hexgrid_is_the_map_grid_and_location_names_the_games_numbering(built, synth: SynthGame) -> None:  # type: ignore[no-untyped-def]
    out, _result = built
    game = find_game(synth.folder)
    game_map = load_game_map(game)
    px = game_map.pixels
    root = etree.fromstring(zipfile.ZipFile(out).read("buildFile.xml"))
    (grid,) = [e for e in root.iter() if e.tag.endswith("board.HexGrid")]
    assert (float(grid.get("dx")), float(grid.get("dy")), int(grid.get("x0")), int(grid.get("y0"))) == (px.dx, px.dy, px.x0, px.y0)
    (numbering,) = [e for e in root.iter() if e.tag.endswith("HexGridNumbering")]
    assert {k: numbering.get(k) for k in game.numbering.vassal_attrs()} == dict(game.numbering.vassal_attrs())
    (layout, *_) = read_layouts(out)
    board = layout.boards[0][0]
    assert (board.width, board.height) == (px.board_width, px.board_height)
    geometry = game_map.geometry()
    names = [layout.locate(*geometry.hex_center(h)).name for h in game_map.hexes()]
    assert names == [game_map.label(h) for h in game_map.hexes()]
    assert names[:3] == ["A01", "A02", "A03"] and f"L{synth.rows:02d}" in names


def test_set_up_rules_place_each_unit_and_the_track_and_box(built, synth: SynthGame) -> None:  # type: ignore[no-untyped-def]
    out, result = built
    (scenario,) = result.spec.scenarios
    game_map = load_game_map(find_game(synth.folder))
    placed = dict(scenario.placements)
    assert len(placed) == synth.on_map and placed[next(iter(placed))]
    (s,) = load_scenarios(find_game(synth.folder))
    for rule in s.setup:
        if rule.centre:
            for uid in (u for u, f in ((c.unit_id, c.formation) for c in load_game_manifest(find_game(synth.folder)).units) if f == rule.formation):
                assert game_map.hex(placed[uid]).distance(game_map.hex(rule.centre)) <= rule.distance
    assert len(set(placed.values())) == len(placed)  # one unit per hex
    hill = game_map.label(game_map.place("Hill").hex)
    assert hill in placed.values() and "A01" in placed.values()
    assert scenario.boxes == (("blue-90", "Reinforcements"),) or len(scenario.boxes) == 1
    assert dict(scenario.track) == {"red-vp": 3, "blue-vp": 0}
    save = read_save(zipfile.ZipFile(out).read(scenario.file), layouts=read_layouts(out))
    where = {p.properties.get("UnitId"): p for p in save.position.pieces.values() if p.map}
    assert {pid: where[pid].location for pid in placed} == placed
    assert where["red-vp"].location == "VP 3" and where["blue-vp"].location == "VP 0"
    ((boxed, box),) = scenario.boxes
    assert where[boxed].map == "Holding Boxes" and where[boxed].location == box


def test_module_parts_come_from_the_folder_data(built, synth: SynthGame) -> None:  # type: ignore[no-untyped-def]
    out, result = built
    spec = result.spec
    assert spec.name == "Synthetic War" and spec.version == "2.1"
    assert spec.sides == ("Red Army", "Blue") and spec.turns == tuple(f"Turn {n}" for n in range(1, 7))
    assert [c.name for c in spec.charts] == ["CRT", "Red Army order of battle", "Blue order of battle"]
    assert [(d.name, d.n_dice, d.n_sides, d.report_total) for d in spec.dice] == [("2d6", 2, 6, True)]
    assert [h.title for h in spec.help_pages] == ["Designer's notes"]
    with zipfile.ZipFile(out) as zf:
        assert zf.read("help/notes.html") == (synth.folder / "help" / "notes.html").read_bytes()
    assert [s.name for s in spec.status] == ["Shaken"]
    (breach,) = [p for p in spec.pieces if p.facing is not None]
    assert breach.type == "breach" and len(breach.faces) == 2
    groups = {p.group for p in spec.pieces if p.kind == "unit"}
    assert groups <= {"Armor", "Infantry", "Motorized infantry", "Anti tank", "Recon", "Artillery", "Engineer"}


def test_counter_art_is_the_users_images_scaled_to_the_palette(built, synth: SynthGame) -> None:  # type: ignore[no-untyped-def]
    _out, result = built
    spec = result.spec
    size = Image.open(io.BytesIO(spec.images["images/red-0-s2-front.png"])).size
    for name in ("red-0-s2-front", "red-0-s1-front", "blue-11-back"):
        art = Image.open(synth.folder / "art" / f"{name}.png").convert("RGB").resize(size)
        face = Image.open(io.BytesIO(spec.images[f"images/{name}.png"])).convert("RGB")
        assert face.getpixel((2, 2)) == art.getpixel((2, 2)), name


def test_two_builds_give_the_same_bytes(built, synth: SynthGame, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    out, result = built
    again = build_game_module(synth.folder, tmp_path / "again.vmod")
    assert again.data == result.data == out.read_bytes()


def test_a_build_in_another_process_gives_the_same_bytes(built, synth: SynthGame, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Another interpreter (another string hash seed, more processes drawing faces): same bytes."""
    out, _result = built
    other = tmp_path / "other.vmod"
    env = {**os.environ, "PYTHONHASHSEED": "12345", "GAZALA_JOBS": "2"}
    code = ("import sys; from gazala_tools.vassal.module import games; games.PARALLEL_FACES = 1; "
            "from gazala_tools.vassal.module import build_game_module; build_game_module(sys.argv[1], sys.argv[2])")
    subprocess.run([sys.executable, "-c", code, str(synth.folder), str(other)], check=True, cwd=ROOT, env=env)
    assert other.read_bytes() == out.read_bytes()


def test_a_config_yaml_names_its_game_folder(built, synth: SynthGame, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:  # type: ignore[no-untyped-def]
    config = tmp_path / "configs" / "plain.yaml"
    config.parent.mkdir()
    rel = os.path.relpath(synth.folder, config.parent)
    config.write_text(f"game: {rel}\nname: Synthetic War (plain)\nboard: {{art: render, dpi: 40}}\n"
                      "track: {id: vp, map: Score, marker_type: vp}\nboxes: {map: Boxes, names: [Reinforcements]}\n",
                      encoding="utf-8")
    out = tmp_path / "plain.vmod"
    assert main(["module", "build", str(config), "-o", str(out), "--json"]) == 0
    spec = module_spec(config)
    assert spec.name == "Synthetic War (plain)" and spec.board.image == "board.png"
    assert spec.track is not None and spec.track.boxes[:2] == ("Score 0", "Score 1")
    assert spec.dice == () and spec.status == () and spec.help_pages == ()  # nothing the config does not say
    assert spec.board.width < load_game_map(find_game(synth.folder)).pixels.board_width  # rendered at 40 dpi
    assert '"Synthetic War (plain)"' in capsys.readouterr().out


def test_the_output_may_not_be_an_input(synth: SynthGame) -> None:
    with pytest.raises(GazalaError, match="overwrite an input"):
        build_game_module(synth.folder, synth.folder / "board.png")


# --- bad data: one line naming file, line, column and the bad value ---------------------------------
def _copy(synth: SynthGame, tmp_path: Path) -> Path:
    import shutil

    dst = tmp_path / "game"
    shutil.copytree(synth.folder, dst)
    return dst


@pytest.mark.parametrize(
    ("file", "change", "words"),
    [
        ("module.yaml", ("key: Ctrl+Shift+S", "key: Ctrl+D"), "module.yaml:8:.*Ctrl\\+D is the module's Delete key"),
        ("module.yaml", ("key: Ctrl+Shift+S", "key: Shift+S"), "module.yaml:8:.*'Shift\\+S' is not a key"),
        ("module.yaml", ("tables: [CRT]", "tables: [CRT, Terrain]"), r"module.yaml:15:24: charts.tables\[1\]: 'Terrain' is not a table"),
        ("module.yaml", ("file: help/notes.html", "file: ../../etc/passwd.html"), r"module.yaml:17:37: help\[0\].file: '../../etc/passwd.html' leaves the game folder"),
        ("module.yaml", ("board: {art: board.png}", "board: {art: scan.jpg}"), "module.yaml:3:.*'scan.jpg' not found"),
        ("module.yaml", ('version: "2.1"', 'version: "two"'), "module.yaml:1:10: version: 'two' is not a version"),
        ("module.yaml", ("palette:", "colours: 3\npalette:"), "module.yaml:5:1: module config: unknown key 'colours'"),
        ("scenarios.yaml", ('start: "Turn 2"', 'start: "Turn 9"'), "scenarios.yaml:5:.*'Turn 9' is not a turn"),
        ("scenarios.yaml", ("side: red", "side: green"), "scenarios.yaml:8:.*'green' is not a side"),
        ("scenarios.yaml", ("distance: 2}", "distance: 2}, hex: \"A01\""), "exactly one of"),
        ("scenarios.yaml", ('formation: "Red 1"', 'formation: "Red 99"'), "scenarios.yaml:10:.*formation 'Red 99' has no units"),
        ("scenarios.yaml", ('hex: "A01"', 'hex: "Z99"'), "scenarios.yaml:.*hex 'Z99' is not a hex of the map"),
        ("scenarios.yaml", ("box: Reinforcements", "box: Nowhere"), "scenarios.yaml:.*box 'Nowhere'.*Reinforcements, Eliminated"),
        ("scenarios.yaml", ("place: Hill", "place: Valley"), "scenarios.yaml:.*place 'Valley' is not a place"),
        ("scenarios.yaml", ("track: vp", "track: score"), "scenarios.yaml:8:.*track 'score' is not the module's track"),
        ("tables.yaml", ('["1", "AE", "EX", "DR"]', '{die: 1}'), "tables.yaml:7:9: .*must be a list"),
    ],
)
def test_bad_data_is_one_error_naming_file_line_and_value(synth: SynthGame, tmp_path: Path, file: str,
                                                           change: tuple[str, str], words: str) -> None:
    folder = _copy(synth, tmp_path)
    text = (folder / file).read_text(encoding="utf-8")
    assert change[0] in text, change
    (folder / file).write_text(text.replace(*change, 1), encoding="utf-8")
    with pytest.raises(GazalaError, match=words):
        module_spec(folder)


def test_a_board_image_of_another_size_than_the_grid_is_refused(synth: SynthGame, tmp_path: Path) -> None:
    folder = _copy(synth, tmp_path)
    Image.new("RGB", (100, 80), "white").save(folder / "board.png")
    with pytest.raises(GazalaError, match=r"board image is 100 x 80 pixels, but map.yaml's grid.pixels says"):
        module_spec(folder)
    (folder / "board.png").write_bytes(b"not an image at all")
    with pytest.raises(GazalaError, match="board image cannot be read"):
        module_spec(folder)


def test_art_only_configuration_refuses_a_counter_without_art(synth: SynthGame, tmp_path: Path) -> None:
    folder = _copy(synth, tmp_path)
    text = (folder / "module.yaml").read_text(encoding="utf-8").replace("counters: {art: render}", "counters: {art: images}")
    (folder / "module.yaml").write_text(text, encoding="utf-8")
    with pytest.raises(GazalaError, match=r"counters.yaml: counter 'red-action-1' has no art"):
        module_spec(folder)


def test_cli_builds_a_game_folder(synth: SynthGame, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "cli.vmod"
    assert main(["module", "build", str(synth.folder), "-o", str(out)]) == 0
    assert "Synthetic War v2.1" in capsys.readouterr().out
    assert main(["module", "build", str(tmp_path / "nowhere"), "-o", str(tmp_path / "x.vmod")]) == 2
    assert "no game" in capsys.readouterr().err


# --- the real engine (marker vassal) ------------------------------------------------------------------
@pytest.mark.vassal
def test_engine_loads_the_synthetic_module_cleanly_and_names_its_hexes(vassal_engine, built, synth: SynthGame) -> None:  # type: ignore[no-untyped-def]
    from gazala_tools.vassal.gamelayout import MAIN_MAP

    out, result = built
    loaded = vassal_engine.module(out)
    assert loaded["dialogs"] == []  # VASSAL 3.7.26 loads it with no dialog at all
    assert [line for line in loaded["log"] if "ERROR" in line or "WARN" in line] == []
    assert loaded["roundtrip"]["dropped_elements"] == [] and loaded["roundtrip"]["dropped_attributes"] == []
    assert {s["gpid"] for s in loaded["piece_slots"] if s["valid"]} == {str(g) for g in result.built.gpids.values()}
    game_map = load_game_map(find_game(synth.folder))
    geometry = game_map.geometry()
    points = [(MAIN_MAP, *geometry.hex_center(h)) for h in game_map.hexes()]
    located = vassal_engine.locate(out, points)
    assert [loc.location for loc in located] == [game_map.label(h) for h in game_map.hexes()]


@pytest.mark.vassal
def test_engine_opens_the_set_up_with_every_unit_on_its_hex_box_and_track(vassal_engine, built) -> None:  # type: ignore[no-untyped-def]
    from gazala_tools.vassal.gamelayout import MAIN_MAP

    from .test_engine import _open_setup

    out, result = built
    (scenario,) = result.spec.scenarios
    opened = _open_setup(vassal_engine, out, scenario.file)
    assert opened["game_started"]
    where = {p["id"]: (p["map"], p["location"]) for p in opened["pieces"]}
    assert {pid: loc for pid, (m, loc) in where.items() if m == MAIN_MAP} == dict(scenario.placements)
    assert {pid: loc for pid, (m, loc) in where.items() if m == "Holding Boxes"} == dict(scenario.boxes)
    assert {pid: loc for pid, (m, loc) in where.items() if m == "VP Track"} == {"red-vp": "VP 3", "blue-vp": "VP 0"}
    decks = {s["id"]: len(s["pieces"]) for s in opened["stacks"] if s["class"].endswith(".Deck")}
    assert sorted(decks.values()) == sorted(len(d.pieces) for d in result.spec.decks)
