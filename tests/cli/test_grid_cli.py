"""``gazala grid``: locate/center on real modules, many points per call, and bad input."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest

from gazala_tools.cli import main

TEMPLATE = "hex-n-counters-template/jzhex-n-counters-template-v12-379.vmod"
RAGNAROK = "hex-n-counters-template/ragnarok/buildFile.xml"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_locate_one_point_on_the_template_module(corpus_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # raw hex (0, 1) of HexGrid dx=80.88 dy=93.9 x0=22 y0=-4, numbering offsets 0, stagger
    code, out, _ = run(capsys, "grid", "locate", str(corpus_dir / TEMPLATE), "22", "89", "--map", "Main Map")
    assert (code, out) == (0, "0001 22 89\n")
    code, out, _ = run(capsys, "grid", "locate", str(corpus_dir / TEMPLATE), "22", "-4", "--map", "Main Map")
    assert (code, out) == (0, "offboard 22 -4\n")  # above the board: y < 0


def test_center_then_locate_round_trip(corpus_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = str(corpus_dir / TEMPLATE)
    code, out, _ = run(capsys, "grid", "center", src, "0305", "--map", "Main Map", "--json")
    assert code == 0
    c = json.loads(out)
    code, out, _ = run(capsys, "grid", "locate", src, str(c["x"]), str(c["y"]), "--map", "Main Map")
    assert out.split() == ["0305", str(c["x"]), str(c["y"])]


def test_locate_many_points_in_input_order(corpus_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pts = tmp_path / "pts.txt"
    pts.write_text("100 100\n# a comment\n\n300 200\n102 100\n")
    src = str(corpus_dir / TEMPLATE)
    code, out, _ = run(capsys, "grid", "locate", src, "--points", str(pts), "--map", "Main Map")
    assert code == 0
    lines = out.splitlines()
    assert len(lines) == 3
    code, js, _ = run(capsys, "grid", "locate", src, "--points", str(pts), "--map", "Main Map", "--json")
    data = json.loads(js)
    assert [(d["x"], d["y"]) for d in data] == [(100, 100), (300, 200), (102, 100)]
    assert [d["name"] for d in data] == [line.rsplit(" ", 2)[0] for line in lines]


def test_zones_first_on_ragnarok(corpus_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Ragnarok's hex grid sits inside the "map" zone; outside every zone there is no grid
    code, out, _ = run(capsys, "grid", "locate", str(corpus_dir / RAGNAROK), "500", "500", "--json")
    assert code == 0
    assert json.loads(out)["name"] not in ("", "offboard")


def test_bad_points_file_names_file_and_line(tmp_path: Path, corpus_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pts = tmp_path / "pts.txt"
    pts.write_text("1 2\n3 four\n")
    code, out, err = run(capsys, "grid", "locate", str(corpus_dir / TEMPLATE), "--points", str(pts))
    assert code == 2 and out == ""
    assert "pts.txt:line 2" in err and "two integers" in err
    assert len(err.strip().splitlines()) == 1


def test_unknown_hex_name_is_a_one_line_error(corpus_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "grid", "center", str(corpus_dir / TEMPLATE), "zz9", "--map", "Main Map")
    assert code == 2 and out == ""
    assert "zz9" in err and len(err.strip().splitlines()) == 1


def test_xxe_buildfile_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP SECRET")
    bf = tmp_path / "buildFile.xml"
    bf.write_text(
        f'<?xml version="1.0"?>\n<!DOCTYPE m [<!ENTITY x SYSTEM "file://{secret}">]>\n'
        '<VASSAL.build.GameModule name="&x;"/>'
    )
    before = sorted(p.name for p in tmp_path.iterdir())
    code, out, err = run(capsys, "grid", "locate", str(bf), "1", "1")
    assert code == 2 and "XXE" in err and str(bf) in err and "TOP SECRET" not in out + err
    assert sorted(p.name for p in tmp_path.iterdir()) == before


def test_zip_slip_member_names_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    vmod = tmp_path / "evil.vmod"
    with zipfile.ZipFile(vmod, "w") as zf:
        zf.writestr("buildFile.xml", "<VASSAL.build.GameModule/>")
        zf.writestr("../../escape.txt", "x")
    code, _, err = run(capsys, "grid", "locate", str(vmod), "1", "1")
    assert code == 2 and "outside the archive" in err and "evil.vmod" in err
    assert not (tmp_path.parent / "escape.txt").exists()


def test_non_zip_vmod_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    vmod = tmp_path / "notazip.vmod"
    vmod.write_bytes(b"hello, I am not a module")
    code, _, err = run(capsys, "grid", "locate", str(vmod), "1", "1")
    assert code == 2 and "not a zip" in err and "notazip.vmod" in err
    assert len(err.strip().splitlines()) == 1


def test_broken_xml_names_the_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bf = tmp_path / "buildFile.xml"
    bf.write_text("<VASSAL.build.GameModule>\n<oops>\n</VASSAL.build.GameModule>")
    code, _, err = run(capsys, "grid", "locate", str(bf), "1", "1")
    assert code == 2 and "line" in err and "buildFile.xml" in err


def test_non_integer_grid_attribute_names_place(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bf = tmp_path / "buildFile.xml"
    bf.write_text(
        '<VASSAL.build.GameModule><VASSAL.build.module.Map mapName="M"><VASSAL.build.module.map.BoardPicker>'
        '<VASSAL.build.module.map.boardPicker.Board name="B" width="100" height="100">'
        '<VASSAL.build.module.map.boardPicker.board.HexGrid x0="33.2"/>'
        "</VASSAL.build.module.map.boardPicker.Board></VASSAL.build.module.map.BoardPicker>"
        "</VASSAL.build.module.Map></VASSAL.build.GameModule>"
    )
    code, _, err = run(capsys, "grid", "locate", str(bf), "1", "1")
    assert code == 2 and "x0" in err and "line 1" in err


def test_center_of_a_hex_off_the_game_map_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "grid", "center", "gazala-rg", "9999")
    assert code == 2 and out == ""
    assert "'9999' is not on the map" in err


def test_center_of_a_hex_off_every_board_is_refused(corpus_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "grid", "center", str(corpus_dir / TEMPLATE), "9999", "--map", "Main Map")
    assert code == 2 and out == "" and "9999" in err and "off board" in err


def test_game_id_center_and_locate_agree_for_every_rg_hex(capsys: pytest.CaptureFixture[str]) -> None:
    from gazala_tools.mapdata import load_map
    from gazala_tools.vassal.gamelayout import layout_for_game

    m = load_map("gazala-rg")
    layout = layout_for_game("gazala-rg")
    for h in m.hexes():
        label = m.label(h)
        x, y = layout.center_of(label)
        assert layout.locate(x, y).name == label
