"""``gazala referee check`` / ``watch``: formats, exit codes, errors."""

from __future__ import annotations

import json

import pytest

from gazala_tools.cli import main

LEGAL = """\
game: gazala-rg
turn: May 28
units:
  - {id: axis-21pz-5-1, hex: "1621"}
  - {id: b1, side: allied, type: infantry, formation: 3 Ind, hex: "1520", markers: [out-of-supply]}
"""
ILLEGAL = LEGAL + '  - {id: b2, side: allied, type: infantry, hex: "1621"}\n'


@pytest.fixture()
def files(tmp_path):
    (tmp_path / "legal.yaml").write_text(LEGAL)
    (tmp_path / "illegal.yaml").write_text(ILLEGAL)
    return tmp_path


def test_check_json(files, capsys):
    assert main(["referee", "check", str(files / "legal.yaml"), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["supply"] == {"axis-21pz-5-1": "in", "b1": "in"} and data["loc"] == {"required": 0, "traced": 0, "action_lost": False, "paths": []}
    assert data["markers"] == [{"unit": "b1", "add": None, "remove": "out-of-supply", "rule": "5.0"}]


def test_check_illegal_position_exits_1(files, capsys):
    assert main(["referee", "check", str(files / "illegal.yaml")]) == 1
    assert "enemy units share hex 1621" in capsys.readouterr().out


def test_check_turn_override_and_png_output(files):
    out = files / "r.png"
    assert main(["referee", "check", str(files / "legal.yaml"), "--turn", "May 29", "--format", "png", "-o", str(out)]) == 0
    assert out.read_bytes().startswith(b"\x89PNG")


def test_bad_input_exits_2(files, capsys):
    (files / "bad.yaml").write_text("game: gazala-rg\nunits: [{id: q, hex: '0101'}]\n")
    assert main(["referee", "check", str(files / "bad.yaml")]) == 2
    err = capsys.readouterr().err
    assert "bad.yaml:2:14: units[0].id: unit 'q' is not in the manifest" in err


def test_refuses_to_overwrite_the_input(files):
    assert main(["referee", "check", str(files / "legal.yaml"), "-o", str(files / "legal.yaml")]) == 2


def test_watch_once_checks_every_position(files, capsys):
    out = files / "out"
    assert main(["referee", "watch", str(files), "--once", "--format", "json", "--out-dir", str(out)]) == 0
    text = capsys.readouterr().out
    assert text.count("== ") == 2 and sorted(p.name for p in out.iterdir()) == ["illegal.yaml.json", "legal.yaml.json"]


def test_position_verb_round_trips(files, capsys):
    assert main(["referee", "position", str(files / "legal.yaml"), "-o", str(files / "again.yaml")]) == 0
    assert main(["referee", "check", str(files / "again.yaml"), "--json"]) == 0
    again = json.loads(capsys.readouterr().out)
    assert main(["referee", "check", str(files / "legal.yaml"), "--json"]) == 0
    first = json.loads(capsys.readouterr().out)
    again.pop("source"), first.pop("source")
    assert again == first
