"""``gazala module lint`` (docs/module.md "Linting a module"; issue 25 item 3): clean modules lint clean,
and each break made in a copy (an image removed, a gpid duplicated, a prototype renamed, a set-up
piece moved off its board) is found, named by its element path, and nothing else is."""

from __future__ import annotations

import json
import re
import shutil
import tempfile
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from gazala_tools.cli import main
from gazala_tools.vassal.lint import LintResult, engine_images, lint_module
from tools.vassal_oracle.engine import problems

#: the images the Ragnarok and jzhex modules really lack: their hidden "unused palette" names images that
#: neither module holds (no images/INF-white, MEC-black-white, blank-white). The engine loads Ragnarok with no
#: error or warning (tools/vassal_oracle, checked by hand), so these are warnings, not errors.
TEMPLATE_MISSING = {"INF-white", "MEC-black-white", "blank-white"}


def _rewrite(src: Path, out: Path, *, drop: str | None = None, edit: Callable[[str], str] | None = None) -> Path:
    """A copy of the module ``src`` without member ``drop`` and with its buildFile passed through ``edit``."""
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zout:
        for info in zin.infolist():
            if info.filename == drop:
                continue
            data = zin.read(info)
            if edit is not None and info.filename == "buildFile.xml":
                data = edit(data.decode("utf-8")).encode("utf-8")
            zout.writestr(info, data)
    return out


def _keys(result: LintResult) -> list[tuple[str, str]]:
    return [(f.level, f.check) for f in result.findings]


@pytest.fixture(scope="module")
def batalha(game_module: Callable[[str], tuple[Path, object]]) -> Path:
    return game_module("batalha")[0]


def test_engine_images_are_the_jars_images_folder() -> None:
    """The built-in icons are data (engine_images.json), the images/ entries of the 3.7.26 jar."""
    names = engine_images()
    assert {"Undo16.gif", "StepForward16.gif", "connect.gif", "unmoved.gif", "moved.gif"} <= names
    assert not any(n.endswith((".au", ".wav")) for n in names)


@pytest.mark.parametrize("game", ["batalha", "cauldron-dg", "cauldron-spi", "gazala-rg"])
def test_our_built_modules_lint_clean(game: str, game_module: Callable[[str], tuple[Path, object]]) -> None:
    result = lint_module(game_module(game)[0])
    assert result.findings == [], [f.line() for f in result.findings]
    assert result.counts["piece slots"] > 50 and result.counts["set-up pieces"] > 0


def test_engine_test_module_gives_the_engines_one_complaint(corpus_dir: Path) -> None:
    """Its set-up without a file starts an empty game: not a missing save. Its map has no board, which
    VASSAL 3.7.26 logs on load ("Must define at least one board in [Main Map] Map Window", checked with
    tools/vassal_oracle): lint's one error."""
    result = lint_module(corpus_dir / "vassal-test-fixture" / "test-predefined-setups.vmod")
    assert [(f.level, f.check) for f in result.findings] == [("error", "board")]
    assert "Must define at least one board in [Main Map]" in result.findings[0].problem


@pytest.mark.parametrize("which", ["folder", "vmod", "buildfile"])
def test_ragnarok_finds_only_its_real_problems(which: str, ragnarok: Path, ragnarok_vmod: Path) -> None:
    """Ragnarok as a folder, a .vmod or its buildFile: the three images its hidden palette lacks and three
    set-up pieces its save puts right of the 500x500 deployment board, all warnings (the engine loads it
    without error)."""
    source = {"folder": ragnarok, "vmod": ragnarok_vmod, "buildfile": ragnarok / "buildFile.xml"}[which]
    result = lint_module(source)
    missing = {re.search(r"image '([^']*)'", f.problem).group(1)  # type: ignore[union-attr]
               for f in result.findings if f.check == "image"}
    assert missing == TEMPLATE_MISSING
    assert all("PieceWindow[name=unused palette]" in f.element for f in result.findings if f.check == "image")
    off = [f for f in result.findings if f.check == "save"]
    assert [f.level for f in off] == ["warning"] * 3
    assert all("deployment" in f.problem and "off every board" in f.problem for f in off)
    assert len(result.findings) == 6 and result.errors == 0
    assert result.counts["set-up pieces"] == 99


def test_jzhex_template_finds_only_its_missing_images(jzhex: Path) -> None:
    result = lint_module(jzhex)
    assert _keys(result) == [("warning", "image")] * 3


def test_a_removed_image_is_found(batalha: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with zipfile.ZipFile(batalha) as z:
        victim = next(n for n in z.namelist() if n.startswith("images/") and "counter" not in n and n.endswith(".png")
                      and n[len("images/"):].encode() in z.read("buildFile.xml"))
    result = lint_module(_rewrite(batalha, tmp_path / "m.vmod", drop=victim))
    assert {f.check for f in result.findings} == {"image"}
    assert all(victim[len("images/"):] in f.problem for f in result.findings)
    assert {f.level for f in result.findings} == {"error"}
    assert main(["module", "lint", str(tmp_path / "m.vmod")]) == 1
    assert "images/" in capsys.readouterr().out


def test_a_duplicated_gpid_is_a_warning_that_says_what_vassal_does(batalha: Path, tmp_path: Path) -> None:
    """The 3.7.26 player plays two slots of one gpid (only the editor renumbers them, GpIdChecker): a
    warning naming what breaks (Refresh Counters), not an error."""
    def dup(xml: str) -> str:
        gpids = re.findall(r'PieceSlot entryName="[^"]*" gpid="(\d+)"', xml)
        return xml.replace(f'gpid="{gpids[1]}"', f'gpid="{gpids[0]}"', 1)

    result = lint_module(_rewrite(batalha, tmp_path / "m.vmod", edit=dup))
    assert _keys(result) == [("warning", "gpid")]
    assert "PieceSlot[entryName=" in result.findings[0].element
    assert "Refresh Counters" in result.findings[0].problem


def test_a_next_piece_slot_id_that_is_not_a_number_is_an_error(batalha: Path, tmp_path: Path) -> None:
    """VASSAL stops loading a module whose root nextPieceSlotId is not an integer (vassal-format.md 1.3)."""
    result = lint_module(_rewrite(batalha, tmp_path / "m.vmod",
                                  edit=lambda xml: re.sub(r'nextPieceSlotId="\d+"', 'nextPieceSlotId="x"', xml, count=1)))
    assert _keys(result) == [("error", "gpid")]
    assert "nextPieceSlotId='x'" in result.findings[0].problem


def test_a_renamed_prototype_is_found(batalha: Path, tmp_path: Path) -> None:
    def rename(xml: str) -> str:
        return xml.replace('PrototypeDefinition description="game marker: delete, report" name="Marker"',
                           'PrototypeDefinition description="game marker: delete, report" name="Markers"')

    result = lint_module(_rewrite(batalha, tmp_path / "m.vmod", edit=rename))
    assert {(f.level, f.check) for f in result.findings} == {("warning", "prototype")}
    assert all("'Marker' is not defined" in f.problem for f in result.findings)
    assert len(result.findings) == result.counts["prototype references"] - sum(
        1 for _ in re.finditer("prototype;Unit", _buildfile(batalha)))


def _buildfile(vmod: Path) -> str:
    with zipfile.ZipFile(vmod) as z:
        return z.read("buildFile.xml").decode("utf-8")


def test_a_deck_moved_off_its_board_is_found(game_module: Callable[[str], tuple[Path, object]], tmp_path: Path) -> None:
    src = game_module("gazala-rg")[0]

    def move(xml: str) -> str:
        return re.sub(r'(name="Axis action chits"[^>]* x=")\d+(" y=")\d+', r"\g<1>99999\g<2>5", xml, count=1)

    result = lint_module(_rewrite(src, tmp_path / "m.vmod", edit=move))
    assert _keys(result) == [("warning", "setup")]
    assert "DrawPile[name=Axis action chits]" in result.findings[0].element
    assert "(99999, 5) is off board" in result.findings[0].problem


@pytest.mark.parametrize(("location", "level"), [("Nowhere", "error"), ("ZZ99", "warning")])
def test_a_setup_stack_at_a_location_the_grid_lacks_is_found(location: str, level: str, batalha: Path,
                                                             tmp_path: Path) -> None:
    """A name the numbering cannot read is VASSAL's set-up position error (an error); a hex name it reads
    gives a point, here far off the board, where VASSAL puts the stack without a word (a warning)."""
    def add(xml: str) -> str:
        stack = ('<VASSAL.build.module.map.SetupStack name="Lost" owningBoard="{b}" useGridLocation="true" '
                 f'location="{location}" x="0" y="0"/>')
        board = re.search(r'boardPicker.Board [^>]*name="([^"]*)"', xml).group(1)  # type: ignore[union-attr]
        return xml.replace("</VASSAL.build.module.map.BoardPicker>",
                           "</VASSAL.build.module.map.BoardPicker>" + stack.format(b=board), 1)

    result = lint_module(_rewrite(batalha, tmp_path / "m.vmod", edit=add))
    assert _keys(result) == [(level, "setup")]
    assert "SetupStack[name=Lost]" in result.findings[0].element
    assert (f"{location!r}" if level == "error" else "is off board") in result.findings[0].problem


def test_a_missing_setup_save_is_found(batalha: Path, tmp_path: Path) -> None:
    with zipfile.ZipFile(batalha) as z:
        save = next(n for n in z.namelist() if n.endswith(".vsav"))
    result = lint_module(_rewrite(batalha, tmp_path / "m.vmod", drop=save))
    assert _keys(result) == [("error", "save")]
    assert "PredefinedSetup[name=" in result.findings[0].element


def test_a_piece_that_does_not_parse_is_found(batalha: Path, tmp_path: Path) -> None:
    def garble(xml: str) -> str:
        return re.sub(r'(<VASSAL.build.widget.PieceSlot [^>]*>)\+/null/', r"\1-/garbage/", xml, count=1)

    result = lint_module(_rewrite(batalha, tmp_path / "m.vmod", edit=garble))
    assert _keys(result) == [("error", "piece")]


def test_cli_exit_codes_and_json(batalha: Path, ragnarok: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["module", "lint", str(batalha)]) == 0
    assert "0 errors, 0 warnings" in capsys.readouterr().out
    assert main(["module", "lint", str(ragnarok), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["errors"] == 0 and data["warnings"] == 6
    assert {"level", "check", "element", "problem", "fix"} <= data["findings"][0].keys()


def test_cli_refuses_a_file_that_is_not_a_module(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "x.vmod"
    bad.write_bytes(b"not a zip")
    assert main(["module", "lint", str(bad)]) == 2
    assert "not a zip archive" in capsys.readouterr().err


def test_a_module_folder_is_read_not_written(ragnarok: Path, tmp_path: Path) -> None:
    copy = tmp_path / "r"
    shutil.copytree(ragnarok, copy)
    before = sorted((p.name, p.stat().st_mtime_ns) for p in copy.rglob("*"))
    lint_module(copy)
    assert sorted((p.name, p.stat().st_mtime_ns) for p in copy.rglob("*")) == before


@pytest.mark.vassal
def test_ragnarok_lint_errors_are_the_engines(vassal_engine: Any, ragnarok_vmod: Path) -> None:
    """VASSAL 3.7.26 loads Ragnarok and opens its start save with no error or warning, every palette
    slot and prototype valid; lint agrees: no error, only the warnings above."""
    loaded = vassal_engine.module(ragnarok_vmod)
    assert problems(loaded) == []
    assert all(s["valid"] for s in loaded["piece_slots"]) and all(p["valid"] for p in loaded["prototypes"])
    with zipfile.ZipFile(ragnarok_vmod) as z, tempfile.TemporaryDirectory() as tmp:
        save = Path(tmp) / "start.vsav"
        save.write_bytes(z.read("ragnarok-start.vsav"))
        opened = vassal_engine.read_save(ragnarok_vmod, save)
    assert problems(opened) == []
    assert lint_module(ragnarok_vmod).errors == 0


def test_river_war_builds_a_module_that_lints_clean(tmp_path: Path) -> None:
    """The data-only game of tests/games builds into a module with nothing to report."""
    out = tmp_path / "rw.vmod"
    assert main(["module", "build", str(Path(__file__).parents[1] / "games" / "river-war"), "-o", str(out)]) == 0
    result = lint_module(out)
    assert result.findings == [] and result.counts["piece slots"] > 0


@pytest.mark.parametrize("breakage", ["image", "gpid", "prototype"])
def test_broken_copies_of_ragnarok(breakage: str, ragnarok: Path, tmp_path: Path) -> None:
    """Ragnarok's own six warnings stay; each break adds findings of its own check only: an error among
    them where the engine complains (a removed image: the set-up save's piece that shows it, and the hidden
    palette's slot; a nextPieceSlotId that is not a number stops the load), warnings only for a renamed
    prototype (VASSAL's UsePrototype leaves an undefined prototype's traits out without a word)."""
    copy = tmp_path / "r"
    shutil.copytree(ragnarok, copy)
    xml = (copy / "buildFile.xml").read_text("utf-8")
    if breakage == "image":
        (copy / "images" / "hero-odin.png").unlink()
    elif breakage == "gpid":
        xml = re.sub(r'nextPieceSlotId="\d+"', 'nextPieceSlotId="1e3"', xml, count=1)
    else:
        name = re.search(r'PrototypeDefinition description="[^"]*" name="([^"]*)"', xml).group(1)  # type: ignore[union-attr]
        xml = xml.replace(f'name="{name}"', f'name="{name} renamed"', 1)
    (copy / "buildFile.xml").write_text(xml, "utf-8")
    baseline = set(lint_module(ragnarok).findings)
    result = lint_module(copy)
    new = [f for f in result.findings if f not in baseline]
    assert baseline <= set(result.findings)
    assert {f.check for f in new} == {breakage}
    assert any(f.level == "error" for f in new) == (breakage != "prototype"), [f.line() for f in new]
    if breakage == "image":
        assert all("hero-odin.png" in f.problem for f in new)


def test_a_setup_save_piece_moved_off_the_board_is_found(batalha: Path, tmp_path: Path) -> None:
    """A copy of batalha whose set-up save has one hex's pieces moved right of the board: each is found,
    as a warning of check 'save', and nothing else."""
    from gazala_tools.vsav import read_save
    from gazala_tools.vsav.container import read_container
    from gazala_tools.vsav.writer import build_zip, encode_savefile

    with zipfile.ZipFile(batalha) as z:
        member = next(n for n in z.namelist() if n.endswith(".vsav"))
        data = z.read(member)
    piece = next(p for p in read_save(data).position.pieces.values() if p.map == "Main Map")
    box = read_container(data)
    old, new = f"Main Map;{piece.x};{piece.y};", f"Main Map;99999;{piece.y};"
    assert old in box.text
    moved = box.text.replace(old, new)
    entries = [*box.entries[:box.save_index], ("savedGame", encode_savefile(moved)), *box.entries[box.save_index:]]
    save = build_zip(entries)
    assert read_save(save).position.pieces[piece.id].x == 99999

    def put(out: Path) -> Path:
        with zipfile.ZipFile(batalha) as zin, zipfile.ZipFile(out, "w") as zout:
            for info in zin.infolist():
                zout.writestr(info, save if info.filename == member else zin.read(info))
        return out

    result = lint_module(put(tmp_path / "m.vmod"))
    assert result.findings and _keys(result) == [("warning", "save")] * len(result.findings)
    assert any(repr(piece.name) in f.problem and "(99999," in f.problem for f in result.findings)


def test_an_image_named_in_another_case_is_missing_and_lint_names_the_one_there_is(tmp_path: Path) -> None:
    """A module's entries are looked up case-sensitively (DataArchive reads the zip): 'Unit.png' is not
    'unit.png'. The error says which image the module has."""
    from tests.oracle import lintmodules as lm

    vmod = lm.module(tmp_path / "m.vmod", lm.palette(lm.piece("p", image="Unit.png")), images={"unit.png": lm.png(40, 40)})
    result = lint_module(vmod)
    assert _keys(result) == [("error", "image")]
    assert "it has 'unit.png': names in a module are case-sensitive" in result.findings[0].problem
