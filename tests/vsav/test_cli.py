"""``gazala vsav dump`` and ``gazala vsav diff``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gazala_tools.cli import main
from gazala_tools.vsav import read_save
from gazala_tools.vsav.writer import PiecePlacement, SaveEditor, write_copy


def test_dump_json_has_the_documented_keys(ragnarok_save: Path, ragnarok_buildfile: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["vsav", "dump", str(ragnarok_save), "--module", str(ragnarok_buildfile), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["format"] == "zip/vcsk" and data["vassal_version"] == "3.7.9"
    assert data["commands"]["add"] == 154
    assert len(data["pieces"]) == 99
    first = data["pieces"][0]
    assert {"id", "name", "map", "x", "y", "location", "properties"} <= set(first)
    assert first["location"] is not None


def test_dump_text(ragnarok_save: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["vsav", "dump", str(ragnarok_save)]) == 0
    out = capsys.readouterr().out
    assert "1711658022991\ten-odin\tMain Map 3196,190" in out


def test_diff_reports_moves_hex_to_hex_and_additions(
    ragnarok_save: Path, ragnarok_buildfile: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    save = read_save(ragnarok_save)
    odin = save.position.pieces["1711658022991"]
    editor = SaveEditor(save.tree)
    editor.add([PiecePlacement(odin.type, odin.state, "Main Map", 80, 1682, id="m1")])
    from gazala_tools.vsav.commands import MoveFields, MovePiece

    group, at = editor._end_save()
    group.items.insert(at, MovePiece(MoveFields("1711658022991", "Main Map", 80, 1682, None, "Main Map", 3196, 190, None, "u")))
    out = tmp_path / "b.vsav"
    write_copy(out, save.container, editor.tree)
    assert main(["vsav", "diff", str(ragnarok_save), str(out), "--module", str(ragnarok_buildfile)]) == 0
    text = capsys.readouterr().out
    assert "moved   1711658022991 en-odin: Main Map Endurance" in text and "-> Main Map 0101 (80,1682)" in text
    assert "added   m1 en-odin: Main Map 0101 (80,1682)" in text
    assert main(["vsav", "diff", str(ragnarok_save), str(out), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [m["id"] for m in data["moved"]] == ["1711658022991"] and [a["id"] for a in data["added"]] == ["m1"]


def test_bad_file_exits_2_with_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.vsav"
    bad.write_bytes(b"!VCSK2a48z")
    assert main(["vsav", "dump", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "bad.vsav" in err and "byte" in err and len(err.strip().splitlines()) == 1
