"""Issue 21 item 4: hostile text in a game folder and hostile output targets end in one clean line (exit 2).

Each test fails on the code before issue 21: designations with control characters reached lxml and the
text layout (exit 3), output errors (read-only folder, full disk, a name too long) escaped as OSError.
"""

from __future__ import annotations

import errno
import io
import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from .conftest import Run

RIVER_WAR = Path(__file__).parents[1] / "games" / "river-war"


def _river_war(tmp_path: Path, designation: str) -> Path:
    folder = tmp_path / "rw"
    shutil.copytree(RIVER_WAR, folder)
    counters = folder / "counters.yaml"
    text = counters.read_text()
    assert 'designation: "1/1"' in text
    counters.write_text(text.replace('designation: "1/1"', f'designation: "{designation}"', 1))
    return folder


# designations as written in counters.yaml (YAML double-quoted escapes) and what the error says
HOSTILE_DESIGNATIONS = [
    ("A\\e[31mB", "an ESC (U+001B)"),
    ("A\\0B", "a NUL (U+0000)"),
    ("A\\x07B", "a control character (U+0007)"),
    ("A\\nB", "a line break (U+000A)"),
    ("A\\rB", "a carriage return (U+000D)"),
    ("A\\tB", "a tab (U+0009)"),
    ("A\\x85B", "a control character (U+0085)"),
    ("A\\PB", "a paragraph separator (U+2029)"),  # Pillow's text layout fails on it
    ("AB\\\\", "ends with a backslash"),
]


@pytest.mark.parametrize(("designation", "says"), HOSTILE_DESIGNATIONS)
@pytest.mark.parametrize("command", [["counters", "sheet"], ["counters", "contact"], ["module", "build"]])
def test_designation_with_a_control_character_is_refused_at_load(
        tmp_path: Path, run: Run, designation: str, says: str, command: list[str]) -> None:
    folder = _river_war(tmp_path, designation)
    out = tmp_path / "out.bin"
    code, _out, err = run(*command, folder, "-o", out)
    assert code == 2, err
    line = err.strip()
    assert "\n" not in line and "\x1b" not in line and "\x00" not in line
    # file:line:col of the designation's value in counters.yaml
    assert f"{folder / 'counters.yaml'}:14:75: units[0].designation: " in line
    assert says in line
    assert not out.exists()


def test_designation_with_other_printable_unicode_still_builds(tmp_path: Path, run: Run) -> None:
    folder = _river_war(tmp_path, "1/1 \\u2028 Ä \\\\ x")
    code, _out, err = run("module", "build", folder, "-o", tmp_path / "m.vmod")
    assert code == 0, err


# --- output errors: a name too long, a read-only file system, a full disk (issue 21 item 4) -------------
LONG = "a" * 300  # more than a file name's 255 bytes: ENAMETOOLONG


@pytest.mark.parametrize("command", [["module", "build", RIVER_WAR, "-o", f"{LONG}.vmod"],
                                     ["counters", "sheet", RIVER_WAR, "-o", f"{LONG}.pdf"],
                                     ["counters", "images", RIVER_WAR, "-o", LONG],
                                     ["map", "render", RIVER_WAR, "-o", f"{LONG}.png"]])
def test_output_name_too_long_is_a_clean_error(tmp_path: Path, run: Run, command: list[object]) -> None:
    *head, name = command
    code, _out, err = run(*head, tmp_path / str(name))
    assert code == 2, err
    assert err.count("\n") == 1 and "File name too long" in err
    assert list(tmp_path.iterdir()) == []


def test_plugin_name_too_long_is_a_clean_error(tmp_path: Path, run: Run) -> None:
    folder = tmp_path / "rw"
    shutil.copytree(RIVER_WAR, folder)
    game = folder / "game.yaml"
    game.write_text(game.read_text().replace("\nrules:", f"\nrules:\n  plugin: {LONG}.py", 1))
    code, _out, err = run("game", "show", folder)
    assert code == 2, err
    assert "game.yaml:" in err and "rules.plugin" in err and "at most 200 characters" in err


def test_output_under_a_file_is_a_clean_error(tmp_path: Path, run: Run) -> None:
    (tmp_path / "file").write_text("x")
    code, _out, err = run("counters", "images", RIVER_WAR, "-o", tmp_path / "file" / "faces")
    assert code == 2 and "cannot create the output folder (Not a directory)" in err
    code, _out, err = run("module", "build", RIVER_WAR, "-o", tmp_path / "file" / "m.vmod")
    assert code == 2 and "cannot create the output's folder (File exists)" in err


def _read_only_below(monkeypatch: pytest.MonkeyPatch, root: Path) -> None:
    """Every creation under ``root`` fails as on a read-only file system (tests run as root, whom
    chmod does not stop, and a read-only mount needs privileges a test does not have)."""
    real_open, real_mkdir = os.open, os.mkdir

    def refuse(path: object) -> None:
        if str(path).startswith(str(root)):
            raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(path))

    def fake_open(path: object, flags: int, *a: object, **k: object) -> int:
        if flags & (os.O_CREAT | getattr(os, "O_TMPFILE", 0) | os.O_WRONLY | os.O_RDWR):
            refuse(path)
        return real_open(path, flags, *a, **k)  # type: ignore[arg-type]

    def fake_mkdir(path: object, *a: object, **k: object) -> None:
        refuse(path)
        real_mkdir(path, *a, **k)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "open", fake_open)
    monkeypatch.setattr(os, "mkdir", fake_mkdir)


def test_counters_images_into_a_read_only_file_system(tmp_path: Path, run: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    ro = tmp_path / "ro"
    ro.mkdir()
    _read_only_below(monkeypatch, ro)
    code, _out, err = run("counters", "images", RIVER_WAR, "-o", ro / "faces")
    assert code == 2, err
    assert err.count("\n") == 1 and "Read-only file system" in err and str(ro / "faces") in err
    code, _out, err = run("counters", "images", RIVER_WAR, "-o", ro)  # the folder exists, its files cannot
    assert code == 2, err
    assert "Read-only file system" in err
    monkeypatch.undo()
    assert list(ro.iterdir()) == []


class _FullDisk(io.FileIO):
    """A file on a disk with 4 KiB left."""

    room = 4096

    def write(self, b: Any) -> int:
        if self.tell() + len(b) > self.room:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return super().write(b)


def _full_disk(monkeypatch: pytest.MonkeyPatch) -> None:
    real = os.fdopen

    def fake_fdopen(fd: int, mode: str = "r", *a: object, **k: object) -> Any:
        if "w" in mode and "b" in mode:
            return io.BufferedWriter(_FullDisk(fd, "w"))
        return real(fd, mode, *a, **k)  # type: ignore[call-overload]

    monkeypatch.setattr(os, "fdopen", fake_fdopen)


@pytest.mark.parametrize("command", [["module", "build", RIVER_WAR, "-o", "m.vmod"],
                                     ["counters", "sheet", RIVER_WAR, "-o", "s.pdf"],
                                     ["counters", "images", RIVER_WAR, "-o", "faces"]])
def test_full_disk_is_a_clean_error_and_leaves_no_file(
        tmp_path: Path, run: Run, monkeypatch: pytest.MonkeyPatch, command: list[object]) -> None:
    *head, name = command
    _full_disk(monkeypatch)
    code, _out, err = run(*head, tmp_path / str(name))
    monkeypatch.undo()
    assert code == 2, err
    assert err.count("\n") == 1 and "No space left on device" in err and str(tmp_path / str(name)) in err
    left = [p for p in tmp_path.rglob("*") if p.is_file()]
    assert left == [] or all(p.stat().st_size <= _FullDisk.room for p in left if p.suffix == ".png")
    assert not any(p.name.endswith(".tmp") for p in tmp_path.rglob("*"))


# --- --ref numbers (issue 21 item 4) ---------------------------------------------------------------------
@pytest.fixture(scope="module")
def small_scan(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from tools.scans.synthetic import synthetic_board

    path = tmp_path_factory.mktemp("scan") / "board.png"
    synthetic_board(columns=8, rows=6).image.save(path)  # 482 x 444
    return path


@pytest.mark.parametrize(("ref", "says"), [("0303=nan,inf", "not a finite position"),
                                           ("0303=-1e9,-1e9", "is off the image"),
                                           ("0303=1e300,5", "is off the image"),
                                           ("0303=" + "1" * 400 + ",5", "bad reference '0303=111"),
                                           ("0303=600,100", "is off the image")])
@pytest.mark.parametrize("command", [["game", "new", "{tmp}/g", "--image", "{scan}"],
                                     ["digitize", "calibrate", "{scan}", "--ref", "0404=200,200"],
                                     ["digitize", "detect-grid", "{scan}"]])
def test_ref_that_is_no_pixel_of_the_scan_is_a_clean_error(
        tmp_path: Path, run: Run, small_scan: Path, ref: str, says: str, command: list[str]) -> None:
    argv = [a.format(tmp=tmp_path, scan=small_scan) for a in command]
    code, _out, err = run(*argv, "--ref", ref)
    assert code == 2, err
    assert err.count("\n") == 1 and err.startswith("gazala: error: --ref: ") and says in err
    assert len(err) < 400
    assert list(tmp_path.iterdir()) == []


# --- game new: the scan's real format (issue 21 item 6) ----------------------------------------------------
@pytest.mark.parametrize(("fmt", "name"), [("TIFF", "scan.png"), ("BMP", "scan.jpg"), ("WEBP", "scan.png")])
def test_game_new_refuses_data_module_build_cannot_show_whatever_its_name(
        tmp_path: Path, run: Run, small_scan: Path, fmt: str, name: str) -> None:
    from PIL import Image

    image = tmp_path / "in" / name
    image.parent.mkdir()
    with Image.open(small_scan) as im:
        im.convert("RGB").save(image, format=fmt)
    code, _out, err = run("game", "new", tmp_path / "g", "--image", image, "--ref", "0303=150,168")
    assert code == 2, err
    assert f"the scan is {fmt} data under a {image.suffix} name" in err and err.count("\n") == 1
    assert not (tmp_path / "g").exists() and sorted(p.name for p in tmp_path.iterdir()) == ["in"]


def test_game_new_names_a_jpeg_called_png_board_jpg_and_module_build_takes_it(
        tmp_path: Path, run: Run, small_scan: Path) -> None:
    from PIL import Image

    image = tmp_path / "scan.png"
    with Image.open(small_scan) as im:
        im.convert("RGB").save(image, format="JPEG", quality=95)
    code, _out, err = run("game", "new", tmp_path / "g", "--image", image, "--ref", "0303=150,168")
    assert code == 0, err
    assert (tmp_path / "g" / "board.jpg").read_bytes() == image.read_bytes()
    code, _out, err = run("module", "build", tmp_path / "g", "-o", tmp_path / "g.vmod")
    assert code == 0, err


# --- pixel bombs in every format (issue 26 item 2) ---------------------------------------------------------
@pytest.mark.parametrize(("fmt", "name", "options"), [("PNG", "bomb.png", {"optimize": True}),
                                                      ("TIFF", "bomb.tif", {"compression": "group4"})])
@pytest.mark.parametrize("command", [["game", "new", "{tmp}/g", "--image", "{image}"],
                                     ["digitize", "detect-grid", "{image}"],
                                     ["digitize", "overlay", "{image}", "--grid", "{image}", "-o", "{tmp}/o.png"]])
def test_a_large_image_in_a_tiny_file_is_refused_before_decoding(
        tmp_path: Path, run: Run, fmt: str, name: str, options: dict[str, Any], command: list[str]) -> None:
    from PIL import Image

    from gazala_tools.digitize.image import BOMB_FROM_PIXELS, MAX_SCAN_PIXELS_PER_BYTE

    image = tmp_path / name
    Image.new("1", (5000, 4000), 1).save(image, format=fmt, **options)  # 20 Mpx of white in a few KB
    assert BOMB_FROM_PIXELS < 5000 * 4000 and image.stat().st_size * MAX_SCAN_PIXELS_PER_BYTE < 5000 * 4000
    argv = [a.format(tmp=tmp_path, image=image) for a in command]
    code, _out, err = run(*argv)
    assert code == 2, err
    # game new refuses a TIFF before it looks at the pixels (VASSAL cannot show it)
    says = "cannot show a .tif" if (command[0], fmt) == ("game", "TIFF") else "not a pixel bomb"
    assert says in err and err.count("\n") == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == [name]


# --- cost caps: aliases in every data YAML (issue 26 item 2) ------------------------------------------------
def _with_aliases(tmp_path: Path, file: str, extra: str) -> Path:
    folder = tmp_path / "rw"
    shutil.copytree(RIVER_WAR, folder)
    path = folder / file
    path.write_text(path.read_text() + extra)
    return folder


@pytest.mark.parametrize(("file", "command"), [("map.yaml", ["map", "check"]), ("game.yaml", ["game", "show"]),
                                               ("scenarios.yaml", ["module", "build"]),
                                               ("tables.yaml", ["module", "build"])])
def test_data_yaml_with_too_many_aliases_is_refused_while_composing(
        tmp_path: Path, run: Run, file: str, command: list[str]) -> None:
    from gazala_tools.yamlnodes import MAX_ALIASES

    folder = _with_aliases(tmp_path, file, "\nx: &a {k: [1, 2, 3]}\ny: [" + ", ".join(["*a"] * (MAX_ALIASES + 1)) + "]\n")
    code, _out, err = run(*command, folder, *(["-o", tmp_path / "m.vmod"] if command[0] == "module" else []))
    assert code == 2, err
    assert f"{folder / file}:" in err and f"more than {MAX_ALIASES:,} aliases" in err


def test_data_yaml_whose_aliases_expand_too_far_is_refused(tmp_path: Path, run: Run) -> None:
    from gazala_tools.yamlnodes import MAX_EXPANDED

    big = "[" + ", ".join(["1"] * 50_000) + "]"  # 100 uses of 50,000 values: 5 million values to walk
    folder = _with_aliases(tmp_path, "map.yaml", f"\nx: &a {big}\ny: [" + ", ".join(["*a"] * 100) + "]\n")
    code, _out, err = run("map", "check", folder)
    assert code == 2, err
    assert "with its aliases expanded" in err and f"at most {MAX_EXPANDED:,}" in err


def test_counters_yaml_with_too_many_aliases_is_refused(tmp_path: Path, run: Run) -> None:
    from gazala_tools.yamlnodes import MAX_ALIASES

    folder = tmp_path / "rw"
    shutil.copytree(RIVER_WAR, folder)
    counters = folder / "counters.yaml"
    text = counters.read_text()
    uses = ", ".join(["*u"] * (MAX_ALIASES + 1))
    counters.write_text(text.replace("nationalities:", f"x: &u {{a: 1}}\nxs: [{uses}]\nnationalities:", 1))
    code, _out, err = run("counters", "list", folder)
    assert code == 2, err
    assert f"more than {MAX_ALIASES:,} aliases" in err


# --- cost caps: zones per module, hexes per map (issue 26 item 2) -------------------------------------------
def _zoned_buildfile(zones: str) -> str:
    from tools.fuzz.samples import BUILDFILE

    pkg = "VASSAL.build.module.map.boardPicker.board"
    hexgrid = (f'<{pkg}.HexGrid dx="40" dy="46" x0="0" y0="0">\n<{pkg}.mapgrid.HexGridNumbering {{numbering}}/>\n'
               f'</{pkg}.HexGrid>')
    assert hexgrid in BUILDFILE
    zone = f"{pkg}.mapgrid.Zone"
    body = "".join(f'<{zone} name="z{i}" path="{path}" locationFormat="$name$"/>' for i, path in enumerate(zones.split("|")))
    return BUILDFILE.replace(hexgrid, f"<{pkg}.ZonedGrid>{body}</{pkg}.ZonedGrid>").format(image="", numbering="")


@pytest.mark.parametrize("shape", ["many zones", "long paths"])
def test_module_with_too_many_zone_points_is_refused_before_building_zones(tmp_path: Path, run: Run, shape: str) -> None:
    from gazala_tools.vassal.buildfile import MAX_ZONE_POINTS, MAX_ZONES

    if shape == "many zones":
        zones = "|".join(["0,0;10,0;10,10"] * (MAX_ZONES + 1))
    else:
        zones = ";".join(["0,0", "300,0", "300,300"] * (MAX_ZONE_POINTS // 3 + 1))
    bf = tmp_path / "buildFile.xml"
    bf.write_text(_zoned_buildfile(zones))
    code, _out, err = run("grid", "locate", bf, "100", "100")
    assert code == 2, err
    assert f"at most {MAX_ZONES:,} zones and {MAX_ZONE_POINTS:,} points" in err


def test_module_with_zones_below_the_caps_still_names_points(tmp_path: Path, run: Run) -> None:
    bf = tmp_path / "buildFile.xml"
    bf.write_text(_zoned_buildfile("0,0;200,0;200,200;0,200|200,0;400,0;400,200;200,200"))
    code, out, err = run("grid", "locate", bf, "300", "100")
    assert code == 0, err
    assert "z1" in out


def test_map_of_more_hexes_than_the_cap_is_refused_at_load(tmp_path: Path, run: Run) -> None:
    from gazala_tools.grid import MAX_HEXES

    folder = tmp_path / "rw"
    shutil.copytree(RIVER_WAR, folder)
    m = folder / "map.yaml"
    m.write_text(m.read_text().replace("columns: [1, 10]", "columns: [1, 317]").replace("rows: [0, 7]", "rows: [0, 315]"))
    assert MAX_HEXES < 317 * 316
    for command in (["map", "info"], ["map", "check"]):
        code, _out, err = run(*command, folder)
        assert code == 2, err
        assert "map.yaml:6:3: grid: grid of 100,172 hexes" in err and f"at most {MAX_HEXES:,} hexes" in err


# --- cost caps: steps and moves per log (issue 26 item 2) ----------------------------------------------------
LOG_700 = Path(__file__).parents[1] / "fixtures" / "logs" / "rg-700-steps.vlog"


def test_log_of_more_steps_than_the_cap_is_refused_before_the_replay(
        run: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    from gazala_tools.referee import log

    monkeypatch.setattr(log, "MAX_LOG_STEPS", 699)  # the fixture has 700: the cap trips without 10,000 steps
    code, _out, err = run("referee", "log", LOG_700)
    assert code == 2, err
    assert "the log has 700 steps (expected at most 699 steps (split the log))" in err


def test_log_of_more_moves_than_the_cap_is_refused(run: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    from gazala_tools.referee import logcheck

    monkeypatch.setattr(logcheck, "MAX_LOG_MOVES", 20)
    code, _out, err = run("referee", "log", LOG_700)
    assert code == 2, err
    assert "the log has more than 20 moves" in err


def test_log_within_the_caps_is_checked(run: Run) -> None:
    from gazala_tools.referee.log import MAX_LOG_MOVES, MAX_LOG_STEPS

    assert MAX_LOG_STEPS >= 700 and MAX_LOG_MOVES >= 700
    code, _out, err = run("referee", "log", LOG_700, "--format", "json")
    assert code in (0, 1), err


def test_a_side_name_ending_in_a_backslash_is_a_clean_error_in_module_build(tmp_path: Path, run: Run) -> None:
    """Names outside counters.yaml reach VASSAL's piece format too (docs/vassal-format.md 1.1)."""
    folder = tmp_path / "rw"
    shutil.copytree(RIVER_WAR, folder)
    game = folder / "game.yaml"
    game.write_text(game.read_text().replace("name: Red Army,", 'name: "Red Army\\\\",', 1))
    code, _out, err = run("module", "build", folder, "-o", tmp_path / "m.vmod")
    assert code == 2, err
    assert "'Red Army\\\\' ends with a backslash" in err
    assert not (tmp_path / "m.vmod").exists()
