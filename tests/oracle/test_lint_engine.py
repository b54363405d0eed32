"""``module lint`` agrees with the engine (issue 33 item 4; docs/module.md "Linting a module").

For each class of finding that cried wolf on real modules, a small module built here (lintmodules.py)
is given to VASSAL 3.7.26 and to lint twice: in a clean form the engine loads and starts a game with
without a word, and lint reports no error; in a broken form the engine complains, and so does lint.

* at-start stacks in a map's sub-folder, at a zone's name, a region's name and a hex of the
  background grid (they were checked against a map named '');
* pieces on a map inside a chart window (a ``WidgetMap``: they were "on a map the module has not");
* piece slots without a gpid (the player plays them; the editor numbers them);
* a blank layer image name (no image, not a missing file);
* classes of the module's own (item 5): kept, said once, an error only when the module lacks them.
"""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest

from gazala_tools.vassal.lint import LintResult, lint_module
from tests.oracle import lintmodules as lm
from tools.vassal_oracle.engine import EngineError, problems

pytestmark = pytest.mark.vassal

IMAGES = {"board.png": lm.png(600, 400), "unit.png": lm.png(40, 40)}


def errors(result: LintResult) -> list[str]:
    return [f.line() for f in result.findings if f.level == "error"]


def new_game(engine: Any, vmod: Path, tmp: Path) -> dict[str, Any]:
    """A new game as a player starts one (at-start stacks placed), through the oracle's new-game."""
    return engine.new_game(vmod, tmp / "new.vsav")  # type: ignore[no-any-return]


def test_at_start_stacks_in_a_sub_folder_at_a_zone_a_region_and_a_hex(vassal_engine: Any, tmp_path: Path) -> None:
    """SetupStack.getMap is the map above its folders; its grid location is the zoned grid's (a zone's
    name, a region of a zone's region grid, a hex of the background grid)."""
    stacks = "\n".join([lm.stack("A", "Box A", lm.piece("a", gpid=1)), lm.stack("C", "Camp", lm.piece("c", gpid=2)),
                        lm.stack("H", "0203", lm.piece("h", gpid=3))])
    clean = lm.module(tmp_path / "clean.vmod", lm.zoned_board(stacks), images=IMAGES)
    game = new_game(vassal_engine, clean, tmp_path)
    assert problems(game) == []
    placed = {p["name"]: (p["x"], p["y"], p["location"]) for p in game["pieces"]}
    assert placed == {"a": (500, 75, "Box A"), "c": (500, 300, "Camps"), "h": (96, 136, "0203")}
    assert lint_module(clean).findings == []

    broken = lm.module(tmp_path / "broken.vmod", lm.zoned_board(lm.stack("N", "Nowhere", lm.piece("n", gpid=1))),
                       images=IMAGES)
    complaint = problems(new_game(vassal_engine, broken, tmp_path))
    assert any("Bad location name Nowhere" in p for p in complaint), complaint
    found = errors(lint_module(broken))
    assert len(found) == 1 and "MapSubFolder[name=Set-up]/VASSAL.build.module.map.SetupStack[name=N]" in found[0]
    assert "'Nowhere' is not a location" in found[0]


def _rename_map(save: bytes, old: str, new: str) -> bytes:
    from gazala_tools.vsav.container import read_container
    from gazala_tools.vsav.writer import build_zip, encode_savefile

    box = read_container(save)
    assert f"{old};" in box.text
    text = box.text.replace(f"{old};", f"{new};")
    return build_zip([*box.entries[:box.save_index], ("savedGame", encode_savefile(text)),
                      *box.entries[box.save_index:]])


def test_a_set_up_piece_on_a_map_inside_a_chart_window(vassal_engine: Any, tmp_path: Path) -> None:
    """A chart window's map widget is a map: a set-up piece on it is where VASSAL puts it; a piece on a
    map no module map is called is the engine's "not found" and lint's error."""
    base = lm.module(tmp_path / "base.vmod", lm.zoned_board("") + lm.chart_window_map() + lm.palette(lm.piece("p")),
                     images=IMAGES)
    written = vassal_engine.write_save(base, tmp_path / "start.vsav", [{"slot": "p", "map": "Display", "x": 100, "y": 90}])
    assert problems(written) == [] and written["pieces"][0]["map"] == "Display"
    save = (tmp_path / "start.vsav").read_bytes()

    clean = lm.with_setup(base, tmp_path / "clean.vmod", save)
    opened = vassal_engine.read_save(clean, tmp_path / "start.vsav")
    assert problems(opened) == [] and [(p["name"], p["map"]) for p in opened["pieces"]] == [("p", "Display")]
    result = lint_module(clean)
    assert errors(result) == [] and result.counts["set-up pieces"] == 1

    moved = _rename_map(save, "Display", "Gone")
    (tmp_path / "gone.vsav").write_bytes(moved)
    broken = lm.with_setup(base, tmp_path / "broken.vmod", moved)
    complaint = problems(vassal_engine.read_save(broken, tmp_path / "gone.vsav"))
    assert any("Gone" in p for p in complaint), complaint
    found = errors(lint_module(broken))
    assert len(found) == 1 and "1 piece(s) ('p') stand on map 'Gone', which the module has not" in found[0]


def test_piece_slots_without_a_gpid_play(vassal_engine: Any, tmp_path: Path) -> None:
    """VASSAL's player keeps a slot's empty gpid (GameModule.init renumbers only in the editor): the module
    loads, a new game places the at-start piece and a palette piece is placed; lint warns, naming what
    VASSAL does. A root nextPieceSlotId that is not a number stops the load: an error of both."""
    clean = lm.module(tmp_path / "clean.vmod", lm.zoned_board(lm.stack("H", "0203", lm.piece("h", gpid=None)))
                      + lm.palette(lm.piece("p", gpid=None)), images=IMAGES)
    assert problems(vassal_engine.module(clean)) == []
    game = new_game(vassal_engine, clean, tmp_path)
    assert problems(game) == [] and [p["name"] for p in game["pieces"]] == ["h"]
    placed = vassal_engine.write_save(clean, tmp_path / "p.vsav", [{"slot": "p", "map": "Main Map", "x": 96, "y": 136}])
    assert problems(placed) == [] and placed["pieces"][0]["location"] == "0203"
    result = lint_module(clean)
    assert errors(result) == []
    assert [(f.level, f.check) for f in result.findings] == [("warning", "gpid")] * 2
    assert all("VASSAL plays it with an empty gpid" in f.problem for f in result.findings)

    broken = lm.module(tmp_path / "broken.vmod", lm.palette(lm.piece("p")), images=IMAGES, next_id="x")
    with pytest.raises(EngineError, match="NumberFormatException"):
        vassal_engine.module(broken)
    found = errors(lint_module(broken))
    assert len(found) == 1 and "nextPieceSlotId='x' is not an integer" in found[0]


def test_a_blank_layer_image_name_is_no_image(vassal_engine: Any, tmp_path: Path) -> None:
    """ScaledImagePainter takes a blank name for no image: nothing to report. A layer image the module
    lacks is the engine's "Image not found" (when the palette draws it) and lint's error."""
    clean = lm.module(tmp_path / "clean.vmod", lm.zoned_board(lm.stack("H", "0203", lm.piece("h", layer=" ")))
                      + lm.palette(lm.piece("p", layer=" ", gpid=2)), images=IMAGES)
    assert problems(vassal_engine.module(clean)) == []
    assert problems(new_game(vassal_engine, clean, tmp_path)) == []
    assert lint_module(clean).findings == []

    broken = lm.module(tmp_path / "broken.vmod", lm.palette(lm.piece("p", layer="missing.png", gpid=2)), images=IMAGES)
    complaint = problems(vassal_engine.module(broken))
    assert any("missing.png" in p and "Image not found" in p for p in complaint), complaint
    found = errors(lint_module(broken))
    assert len(found) == 1 and "layer image 'missing.png' is not in the module's images/" in found[0]


def _compiled_class(engine: Any, tmp: Path) -> bytes:
    """``custom/Dice.class``: a module's own component (a DiceButton of its own), compiled against the engine."""
    src = tmp / "custom" / "Dice.java"
    src.parent.mkdir(parents=True)
    src.write_text("package custom;\npublic class Dice extends VASSAL.build.module.DiceButton {}\n", encoding="utf-8")
    subprocess.run([engine.javac, "-nowarn", "--release", "11", "-d", str(tmp / "classes"), "-cp", engine.classpath(),
                    str(src)], check=True, capture_output=True)
    return (tmp / "classes" / "custom" / "Dice.class").read_bytes()


def test_a_module_with_classes_of_its_own(vassal_engine: Any, tmp_path: Path) -> None:
    """Item 5: VASSAL loads a module's own class from the module; lint says once that the module has its
    own Java (a warning) and nothing else; the same module without its class file is the engine's "failed
    to load class" and lint's error. Import keeps the component and the class; the rebuilt module loads
    the same way."""
    from gazala_tools.vassal.importer.folder import import_folder
    from gazala_tools.vassal.importer.rebuild import rebuild

    dice = '    <custom.Dice name="d6" nDice="1" nSides="6" text="d6"/>\n'
    body = lm.zoned_board(lm.stack("H", "0203", lm.piece("h"))) + dice
    clean = lm.module(tmp_path / "clean.vmod", body, images=IMAGES,
                      files={"custom/Dice.class": _compiled_class(vassal_engine, tmp_path)})
    loaded = vassal_engine.module(clean)
    assert problems(loaded) == [] and loaded["component_counts"].get("custom.Dice") == 1
    result = lint_module(clean)
    assert errors(result) == []
    assert [(f.level, f.check) for f in result.findings] == [("warning", "classes")]
    assert "custom.Dice" in result.findings[0].problem and "a rebuild needs the module's own classes" in \
        result.findings[0].problem

    report = import_folder(clean, tmp_path / "imported")
    said = [n for n in report["not understood"] if "custom.Dice" in n]
    assert len(said) == 1 and "a rebuild needs the module's own classes" in said[0]
    rebuilt = rebuild(tmp_path / "imported", tmp_path / "rebuilt.vmod").output
    with zipfile.ZipFile(rebuilt) as z:
        assert "custom/Dice.class" in z.namelist() and b"<custom.Dice " in z.read("buildFile.xml")
    assert problems(vassal_engine.module(rebuilt)) == []

    broken = lm.module(tmp_path / "broken.vmod", body, images=IMAGES)
    complaint = problems(vassal_engine.module(broken))
    assert any("failed to load class custom.Dice" in p for p in complaint), complaint
    found = errors(lint_module(broken))
    assert len(found) == 1 and "'custom.Dice' is neither VASSAL 3.7.26's nor in the module" in found[0]


def test_a_moduledata_version_that_sends_vassal_to_a_missing_buildfile(vassal_engine: Any, tmp_path: Path) -> None:
    """GameModule.build reads ``buildFile`` when moduledata's VassalVersion is below 3.5 (a version Maven
    cannot read, such as an unfilled ``${vassal.version}``, is 0.0): a module holding only buildFile.xml
    then does not load. Lint says so; with a version of 3.5 or later both agree it is fine."""
    good = lm.module(tmp_path / "good.vmod", lm.palette(lm.piece("p")), images=IMAGES)
    assert problems(vassal_engine.module(good)) == [] and errors(lint_module(good)) == []
    for version in ("3.4.2", "${vassal.version}"):
        bad = tmp_path / "bad.vmod"
        with zipfile.ZipFile(good) as zin, zipfile.ZipFile(bad, "w") as zout:
            for info in zin.infolist():
                data = zin.read(info)
                if info.filename == "moduledata":
                    data = data.replace(b"<VassalVersion>3.6.0<", f"<VassalVersion>{version}<".encode())
                zout.writestr(info, data)
        with pytest.raises(EngineError, match="Could not find buildFile"):
            vassal_engine.module(bad)
        found = errors(lint_module(bad))
        assert len(found) == 1 and f"VassalVersion {version!r}" in found[0] and "reads buildFile," in found[0]


def test_a_map_without_a_board_and_a_map_of_two_boards_of_one_name(vassal_engine: Any, tmp_path: Path) -> None:
    """BoardPicker.validate runs on load: a map without a board and two boards of one name are the
    engine's warnings, and lint's errors; the same map with one board is clean for both."""
    empty = ('    <VASSAL.build.module.Map mapName="Spare"><VASSAL.build.module.map.BoardPicker/>'
             f'{lm.MAP_PARTS}    </VASSAL.build.module.Map>\n')
    board = f'<{lm.PKG}.Board height="100" name="Twin" width="100"/>'
    twins = empty.replace("<VASSAL.build.module.map.BoardPicker/>",
                          f"<VASSAL.build.module.map.BoardPicker>{board}{board}</VASSAL.build.module.map.BoardPicker>")
    one = empty.replace("<VASSAL.build.module.map.BoardPicker/>",
                        f"<VASSAL.build.module.map.BoardPicker>{board}</VASSAL.build.module.map.BoardPicker>")
    clean = lm.module(tmp_path / "one.vmod", one, images=IMAGES)
    assert problems(vassal_engine.module(clean)) == [] and lint_module(clean).findings == []
    for name, body, said in (("empty", empty, "Must define at least one board in [Spare]"),
                             ("twins", twins, "More than one board named 'Twin'")):
        vmod = lm.module(tmp_path / f"{name}.vmod", body, images=IMAGES)
        assert any(said in p for p in problems(vassal_engine.module(vmod))), name
        found = errors(lint_module(vmod))
        assert len(found) == 1 and said in found[0] and "Map[mapName=Spare]" in found[0]


def test_an_image_a_piece_shows_that_cannot_be_drawn(vassal_engine: Any, tmp_path: Path) -> None:
    """Issue 33 item 2: an image the module holds whose bytes are no image (here a text file named .png) is
    a warning of lint naming the piece that shows it, as ``game import`` reports it; the engine loads the
    module and starts a game, so it is no error."""
    images = {**IMAGES, "broken.png": b"this is not an image\n"}
    vmod = lm.module(tmp_path / "bad-image.vmod", lm.zoned_board(lm.stack("H", "0203", lm.piece("h", image="broken.png")))
                     + lm.palette(lm.piece("p", image="broken.png", gpid=2), lm.piece("q", gpid=3)), images=images)
    vassal_engine.module(vmod)  # loads
    game = new_game(vassal_engine, vmod, tmp_path)
    assert [p["name"] for p in game["pieces"]] == ["h"]
    result = lint_module(vmod)
    assert errors(result) == []
    (found,) = [f for f in result.findings if f.level == "warning" and f.check == "image"]
    assert "piece image 'broken.png' cannot be drawn: it is not a PNG, GIF, JPEG or SVG image" in found.problem
    assert "(named 2 times by the module's pieces)" in found.problem
    assert found.element.endswith("SetupStack[name=H]/VASSAL.build.widget.PieceSlot[entryName=h]")
    assert result.counts["piece images checked"] == 2  # broken.png and unit.png, each once


def extension(out: Path) -> Path:
    """A VASSAL extension of module 'Lint Test' 1.0: a ModuleExtension buildFile adding a piece to its palette."""
    xml = ('<?xml version="1.0" encoding="UTF-8"?>\n<VASSAL.build.module.ModuleExtension anyModule="false" '
           'description="More" extensionId="1aa" module="Lint Test" moduleVersion="1.0" nextPieceSlotId="30" '
           'vassalVersion="3.7.26" version="0.9">\n    <VASSAL.build.module.ExtensionElement '
           'target="VASSAL.build.module.PieceWindow:Pieces/VASSAL.build.widget.ListWidget:Pieces">\n        '
           + lm.piece("x", gpid=20) + "\n    </VASSAL.build.module.ExtensionElement>\n"
           "</VASSAL.build.module.ModuleExtension>\n")
    with zipfile.ZipFile(out, "w") as z:
        z.writestr("buildFile.xml", xml)
        z.writestr("extensiondata", '<?xml version="1.0"?><data version="1"><version>0.9</version>'
                                    "<VassalVersion>3.7.26</VassalVersion></data>")
        z.writestr("images/unit.png", lm.png(40, 40))
    return out


def test_an_extension_is_said_to_be_one_by_lint_and_refused_by_import(vassal_engine: Any, tmp_path: Path) -> None:
    """Issue 33: an extension given as a module is "Not a VASSAL module" to the engine; lint's one error and
    ``game import``'s one line (exit 2) say what it extends, and nothing is written."""
    from gazala_tools.cli import main

    ext = extension(tmp_path / "more.vmdx")
    with pytest.raises(EngineError, match="Not a VASSAL module"):
        vassal_engine.module(ext)
    found = errors(lint_module(ext))
    assert len(found) == 1 and "this is a VASSAL extension (version 0.9) of module 'Lint Test' 1.0, not a module" in found[0]
    code = subprocess.run([sys.executable, "-m", "gazala_tools", "game", "import", str(ext), str(tmp_path / "game")],
                          capture_output=True, text=True, check=False)
    assert code.returncode == 2 and code.stdout == "" and len(code.stderr.strip().splitlines()) == 1
    assert "this is a VASSAL extension (version 0.9) of module 'Lint Test' 1.0, not a module" in code.stderr
    assert "import the module the extension extends" in code.stderr and "Traceback" not in code.stderr
    assert not (tmp_path / "game").exists()
    assert main(["module", "lint", str(ext)]) == 1
