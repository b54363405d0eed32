"""Issue 25 items 1 and 2 (docs/module.md, "Importing a module"): an imported folder keeps the whole module
(maps, boards, grids, zones, decks, dice, turn tracker, charts, help pages, set-ups as data; every component
as written; each piece's definition on its counter), `module build` gives the module back, and importing
that module again gives the same folder, byte for byte (a fixed point)."""

from __future__ import annotations

import os
import random
import shutil
import zipfile
from pathlib import Path
from typing import Any

import pytest
import yaml

from gazala_tools.cli import main


def _import(module: Path, out: Path) -> Path:
    assert main(["game", "import", str(module), str(out)]) == 0
    return out


def _build(folder: Path, out: Path) -> Path:
    assert main(["module", "build", str(folder), "-o", str(out)]) == 0
    return out


def _files(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _members(module: Path) -> dict[str, bytes]:
    if module.is_dir():
        return _files(module)
    with zipfile.ZipFile(module) as z:
        return {i.filename: z.read(i) for i in z.infolist() if not i.is_dir()}


@pytest.fixture(scope="module")
def imported(ragnarok_imported: Path) -> Path:
    return ragnarok_imported


@pytest.fixture(scope="module")
def kept(imported: Path) -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((imported / "module.yaml").read_text(encoding="utf-8"))["vassal"]
    return data


@pytest.mark.parametrize("which", ["ragnarok", "ragnarok_vmod", "jzhex"])
def test_import_of_the_rebuilt_module_is_the_same_folder(which: str, request: pytest.FixtureRequest,
                                                          tmp_path: Path) -> None:
    """import -> build -> import: every file of the folder the same bytes; and the rebuilt module holds the
    original's buildFile and every other file of it, byte for byte."""
    original: Path = request.getfixturevalue(which)
    first = _import(original, tmp_path / "first")
    rebuilt = _build(first, tmp_path / "rebuilt.vmod")
    second = _import(rebuilt, tmp_path / "second")
    assert _files(first) == _files(second)
    assert _members(rebuilt) == _members(original)
    assert _build(second, tmp_path / "again.vmod").read_bytes() == rebuilt.read_bytes()
    assert _lint(rebuilt) == _lint(original)


def _lint(module: Path) -> list[tuple[str, str, str]]:
    from gazala_tools.vassal.lint import lint_module

    return [(f.level, f.check, f.element) for f in lint_module(module).findings]


def test_maps_boards_grids_and_zones_are_data(kept: dict[str, Any]) -> None:
    maps = {m["name"]: m for m in kept["maps"]}
    assert list(maps) == ["Main Map", "deployment", "DeadPile"]
    board = maps["Main Map"]["boards"][0]
    assert (board["name"], board["image"], board["position"]) == ("Map", "map.jpg", [0, 0])
    grid = board["grid"]
    assert grid["kind"] == "ZonedGrid"
    zones = {z["name"]: z for z in grid["zones"]}
    assert list(zones) == ["map", "endurance", "rainbow", "warrior"]
    assert zones["map"]["grid"]["kind"] == "HexGrid" and zones["map"]["grid"]["numbering"]["vDescend"] == "true"
    assert zones["endurance"]["grid"]["kind"] == "SquareGrid"
    assert zones["map"]["path"] == [[12, 34], [3081, 34], [3074, 1760], [17, 1757]]


def test_dice_turns_charts_help_and_setups_are_data(kept: dict[str, Any], imported: Path) -> None:
    assert [d["name"] for d in kept["dice"]] == ["1d6", "2d6"]
    assert [t["name"] for t in kept["turn trackers"]] == ["Turn"]
    assert [c["title"] for c in kept["help"][0]["children"]] == ["About Module", "Quick Start", "ReadMe", "Guide"]
    setups = {s["name"]: s for s in kept["set-ups"]}
    assert setups["At Start"]["file"] == "ragnarok-start.vsav" and len(setups["At Start"]["pieces"]) == 99
    counters = yaml.safe_load((imported / "counters.yaml").read_text(encoding="utf-8"))["markers"]
    ids = {c["id"] for c in counters}
    assert {p["counter"] for p in setups["At Start"]["pieces"]} <= ids
    freyr = next(p for p in setups["At Start"]["pieces"] if p["name"] == "en-freyr")
    assert freyr["map"] == "Main Map" and freyr["location"]
    assert "pieces" not in setups["Free Setup"]  # its save is not in the module (lint says so too)
    report = yaml.safe_load((imported / "import-report.yaml").read_text(encoding="utf-8"))
    assert report["counts"]["imported"]["charts"] == 8 and report["counts"]["imported"]["help pages"] == 4
    assert "PrototypesContainer" in report["kept verbatim only"]
    assert report["counts"]["kept verbatim"]["traits"] > 0


def test_a_counters_kept_definition_is_what_the_rebuild_writes(imported: Path, tmp_path: Path) -> None:
    """The piece slots are not in module.yaml: each is its counter's `vassal: slot`, so an edit there is in
    the rebuilt module."""
    folder = tmp_path / "edited"
    shutil.copytree(imported, folder)
    counters = folder / "counters.yaml"
    text = counters.read_text(encoding="utf-8")
    assert "hero-odin.png" in text and "hero-odin.png" not in (folder / "module.yaml").read_text(encoding="utf-8")
    counters.write_text(text.replace("hero-odin.png;", "hero-odin-r.png;", 1), encoding="utf-8")
    with zipfile.ZipFile(_build(folder, tmp_path / "e.vmod")) as z:
        xml = z.read("buildFile.xml").decode("utf-8")
    assert "hero-odin-r.png;" in xml and xml.count("hero-odin.png;") == 0


def test_a_symlink_out_of_the_module_is_refused_and_nothing_written(ragnarok: Path, tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("do not copy")
    module = tmp_path / "mod"
    shutil.copytree(ragnarok, module)
    os.symlink(secret, module / "images" / "evil.png")
    assert main(["game", "import", str(module), str(tmp_path / "out")]) == 2
    assert "leaves" in capsys.readouterr().err
    assert not (tmp_path / "out").exists() and [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_a_rebuild_reads_nothing_outside_the_folder(imported: Path, tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "f"
    shutil.copytree(imported, folder)
    secret = tmp_path / "secret.txt"
    secret.write_text("do not copy")
    os.symlink(secret, folder / "vmod" / "stolen.txt")
    assert main(["module", "build", str(folder), "-o", str(tmp_path / "x.vmod")]) == 2
    assert "leaves" in capsys.readouterr().err and not (tmp_path / "x.vmod").exists()


@pytest.mark.vassal
def test_the_engine_opens_the_rebuilt_set_up_with_every_piece_where_it_was(
        vassal_harness: Any, ragnarok_vmod: Path, imported: Path, tmp_path: Path) -> None:
    """VASSAL 3.7.26 loads the rebuilt module with no problem beyond the original's, and opens its "At
    Start" set-up with every piece of the original's on the same map, at the same point, with the same
    location name, name and definition (images, key commands: the type) and state."""
    from tools.vassal_oracle.engine import problems

    rebuilt = _build(imported, tmp_path / "r.vmod")

    def opened(vmod: Path, out: Path) -> tuple[list[str], list[tuple[str, ...]]]:
        result: dict[str, Any] = vassal_harness.run("setup", vmod, "At Start", out)
        pieces = sorted((p["id"], p["name"], p["map"], str(p["x"]), str(p["y"]), p["board"] or "", p["location"],
                         p["type"], p["state"]) for p in result["pieces"])
        return problems(result), pieces

    want_problems, want = opened(ragnarok_vmod, tmp_path / "original")
    got_problems, got = opened(rebuilt, tmp_path / "rebuilt")
    assert len(want) == 99 and got == want
    assert got_problems == want_problems == []


@pytest.mark.vassal
@pytest.mark.parametrize("which", ["ragnarok_vmod", "jzhex"])
def test_the_engine_loads_the_rebuilt_module_as_the_original(which: str, request: pytest.FixtureRequest,
                                                            vassal_engine: Any, tmp_path: Path) -> None:
    """Loaded in VASSAL 3.7.26: no problem, and the same piece slots (name, gpid, valid) as the original."""
    from tools.vassal_oracle.engine import problems

    original: Path = request.getfixturevalue(which)
    rebuilt = _build(_import(original, tmp_path / "folder"), tmp_path / "r.vmod")
    want, got = vassal_engine.module(original), vassal_engine.module(rebuilt)
    assert problems(got) == problems(want) == []
    assert got["piece_slots"] == want["piece_slots"] and len(got["piece_slots"]) > 0


def test_names_our_files_cannot_hold_are_tidied_and_kept_as_written(ragnarok: Path, tmp_path: Path) -> None:
    """A piece named with a line break and a final backslash: its counter's title is one clean line (so
    counters.yaml loads), its name stays as written in the kept definition, and the round trip holds."""
    from gazala_tools.counters.loader import load_manifest

    module = tmp_path / "mod"
    shutil.copytree(ragnarok, module)
    xml = module / "buildFile.xml"
    xml.write_text(xml.read_text(encoding="utf-8").replace('entryName="en-freyr"', 'entryName="en&#10;freyr\\"', 1),
                   encoding="utf-8")
    first = _import(module, tmp_path / "first")
    titles = {c.front.title for c in load_manifest(first).counters}
    assert "en freyr" in titles
    rebuilt = _build(first, tmp_path / "r.vmod")
    assert _members(rebuilt)["buildFile.xml"] == xml.read_bytes()
    assert _files(_import(rebuilt, tmp_path / "second")) == _files(first)


SYNTHETIC = """<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<VASSAL.build.GameModule name="Two Boards" version="2.0" VassalVersion="3.7.9" nextPieceSlotId="10">
    <VASSAL.build.module.BasicCommandEncoder/>
    <VASSAL.build.module.Map mapName="Front">
        <VASSAL.build.module.map.BoardPicker>
            <VASSAL.build.module.map.boardPicker.Board name="West" width="400" height="300">
                <VASSAL.build.module.map.boardPicker.board.HexGrid dx="40" dy="46" x0="0" y0="0">
                    <VASSAL.build.module.map.boardPicker.board.mapgrid.HexGridNumbering/>
                </VASSAL.build.module.map.boardPicker.board.HexGrid>
            </VASSAL.build.module.map.boardPicker.Board>
            <VASSAL.build.module.map.boardPicker.Board name="East" width="400" height="300">
                <VASSAL.build.module.map.boardPicker.board.SquareGrid dx="50" dy="50" x0="0" y0="0">
                    <VASSAL.build.module.map.boardPicker.board.mapgrid.SquareGridNumbering/>
                </VASSAL.build.module.map.boardPicker.board.SquareGrid>
            </VASSAL.build.module.map.boardPicker.Board>
            <setup>FrontBoardPicker\tWest\t0\t0\tEast\t1\t0</setup>
        </VASSAL.build.module.map.BoardPicker>
        <VASSAL.build.module.map.DrawPile name="Cards" owningBoard="West" x="50" y="50">
            <VASSAL.build.widget.PieceSlot entryName="card" gpid="3" height="40" width="40">+/null/piece;;;;card/null;0;0;3;0</VASSAL.build.widget.PieceSlot>
        </VASSAL.build.module.map.DrawPile>
    </VASSAL.build.module.Map>
    <VASSAL.build.module.Map mapName="Areas">
        <VASSAL.build.module.map.BoardPicker>
            <VASSAL.build.module.map.boardPicker.Board name="Areas" width="300" height="300">
                <VASSAL.build.module.map.boardPicker.board.RegionGrid snapto="true">
                    <VASSAL.build.module.map.boardPicker.board.Region name="Town" originx="40" originy="60"/>
                    <VASSAL.build.module.map.boardPicker.board.Region name="Port" originx="200" originy="90"/>
                </VASSAL.build.module.map.boardPicker.board.RegionGrid>
            </VASSAL.build.module.map.boardPicker.Board>
        </VASSAL.build.module.map.BoardPicker>
    </VASSAL.build.module.Map>
    <VASSAL.build.module.DiceButton name="2d6" nDice="2" nSides="6"/>
</VASSAL.build.GameModule>
"""


def test_several_boards_square_grids_regions_and_decks(tmp_path: Path) -> None:
    """Boards placed by the BoardPicker's default layout, a square grid, a region grid, a deck and a die
    are data in module.yaml; the other board is reported as not in map.yaml; the round trip holds."""
    module = tmp_path / "mod"
    module.mkdir()
    (module / "buildFile.xml").write_text(SYNTHETIC, encoding="utf-8")
    first = _import(module, tmp_path / "first")
    kept = yaml.safe_load((first / "module.yaml").read_text(encoding="utf-8"))["vassal"]
    front, areas = kept["maps"]
    assert [(b["name"], b["position"], b["grid"]["kind"]) for b in front["boards"]] == [
        ("West", [0, 0], "HexGrid"), ("East", [1, 0], "SquareGrid")]
    assert front["boards"][1]["grid"]["numbering"]["kind"] == "SquareGridNumbering"
    assert front["decks"] == [{"name": "Cards", "owningBoard": "West", "x": "50", "y": "50", "counters": ["card-3"]}]
    assert areas["boards"][0]["grid"]["regions"] == [{"name": "Town", "x": "40", "y": "60"},
                                                     {"name": "Port", "x": "200", "y": "90"}]
    assert kept["dice"] == [{"class": "DiceButton", "name": "2d6", "nDice": "2", "nSides": "6"}]
    report = yaml.safe_load((first / "import-report.yaml").read_text(encoding="utf-8"))
    assert [b.split(":")[0] for b in report["boards not in map.yaml"]] == ["Front / East", "Areas / Areas"]
    assert report["counts"]["imported"]["regions"] == 2 and report["counts"]["imported"]["decks"] == 1
    rebuilt = _build(first, tmp_path / "r.vmod")
    assert _members(rebuilt)["buildFile.xml"] == SYNTHETIC.encode("utf-8")
    assert _files(_import(rebuilt, tmp_path / "second")) == _files(first)


RIVER_WAR = Path(__file__).resolve().parents[2] / "games" / "river-war"


@pytest.mark.parametrize("game", ["batalha", "cauldron-dg", "cauldron-spi", "gazala-rg", "river-war"])
def test_our_modules_import_and_rebuild_to_the_same_bytes(game: str, game_module: Any, tmp_path: Path) -> None:
    """Our own modules (the four built-in games and River War): built, imported and rebuilt, the same bytes."""
    if game == "river-war":
        from gazala_tools.vassal.module import build_game_module

        built = tmp_path / "river-war.vmod"
        build_game_module(RIVER_WAR, built)
    else:
        built = game_module(game)[0]
    rebuilt = _build(_import(built, tmp_path / "folder"), tmp_path / "rebuilt.vmod")
    assert rebuilt.read_bytes() == built.read_bytes()


def test_a_member_is_streamed_and_stops_at_its_cap(tmp_path: Path) -> None:
    """ZipInput.copy hands a member over in chunks and stops at the cap (never holding it whole)."""
    from gazala_tools.errors import GazalaError
    from gazala_tools.inputs import ZipInput

    path = tmp_path / "m.zip"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("images/big.png", random.Random(25).randbytes(3_000_000))  # incompressible, as an image
    chunks: list[int] = []
    with ZipInput(path) as zf:
        assert zf.copy("images/big.png", lambda b: chunks.append(len(b)), cap=4_000_000) == 3_000_000
    assert sum(chunks) == 3_000_000 and max(chunks) < 3_000_000
    written: list[int] = []
    with ZipInput(path) as zf, pytest.raises(GazalaError, match="size cap"):
        zf.copy("images/big.png", lambda b: written.append(len(b)), cap=1_000_000)
    assert sum(written) <= 1_000_000


def test_a_rebuild_refuses_yaml_aliases(imported: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`game import` writes no alias; the rebuild reads its files without YAML's constructors and refuses
    any alias (so no "billion laughs" document can expand)."""
    folder = tmp_path / "f"
    shutil.copytree(imported, folder)
    counters = folder / "counters.yaml"
    counters.write_text(counters.read_text(encoding="utf-8") + "extra: &a [*a]\n", encoding="utf-8")
    assert main(["module", "build", str(folder), "-o", str(tmp_path / "x.vmod")]) == 2
    assert "alias" in capsys.readouterr().err and not (tmp_path / "x.vmod").exists()


@pytest.mark.parametrize("edit", [("tag: VASSAL.build.GameModule", "tag: 'not a tag'"),
                                  ("- <VASSAL.build.module.BasicCommandEncoder/>", "- <unclosed>"),
                                  ("- <VASSAL.build.module.BasicCommandEncoder/>",
                                   "- <!DOCTYPE x [<!ENTITY a 'b'>]><x/>")])
def test_a_broken_kept_module_is_one_line_exit_2(edit: tuple[str, str], imported: Path, tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "f"
    shutil.copytree(imported, folder)
    cfg = folder / "module.yaml"
    text = cfg.read_text(encoding="utf-8")
    assert edit[0] in text
    cfg.write_text(text.replace(edit[0], edit[1], 1), encoding="utf-8")
    assert main(["module", "build", str(folder), "-o", str(tmp_path / "x.vmod")]) == 2
    err = capsys.readouterr().err
    assert "module.yaml" in err and "internal error" not in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "x.vmod").exists()
