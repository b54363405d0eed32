"""A typo must never make a position look legal: unknown turns, missing turns (--strict), inline
formation/type values, --json errors."""

from __future__ import annotations

import json

import pytest

from gazala_tools.cli import main
from gazala_tools.errors import GazalaError
from gazala_tools.referee.api import position_from_data, rules_for_game

RG_UNITS = """\
units:
  - {id: axis-21pz-5-1, hex: "1621"}
  - {id: b1, side: allied, type: infantry, formation: 3 Ind, hex: "1520"}
"""


def write(tmp_path, text, name="p.yaml"):
    p = tmp_path / name
    p.write_text(text)
    return str(p)


@pytest.mark.parametrize(("game", "turn"), [("gazala-rg", "June 2"), ("cauldron-dg", "27"), ("batalha", "Turn 15")])
def test_turn_an_unknown_turn_label_is_bad_input_naming_the_valid_ones(tmp_path, capsys, game, turn):
    p = write(tmp_path, f"game: {game}\nturn: \"{turn}\"\nunits: []\n")
    assert main(["referee", "check", p]) == 2
    err = capsys.readouterr().err
    assert f"unknown turn '{turn}'" in err and "expected" in err
    assert ("June 1-2" in err) if game == "gazala-rg" else ("Turn 1" in err)


def test_turn_an_unknown_turn_option_is_bad_input(tmp_path, capsys):
    p = write(tmp_path, "game: gazala-rg\n" + RG_UNITS)
    assert main(["referee", "check", p, "--turn", "Jun 31"]) == 2
    assert "--turn" in capsys.readouterr().err


def test_turn_missing_the_header_lists_the_rules_not_checked(tmp_path, capsys):
    p = write(tmp_path, "game: gazala-rg\n" + RG_UNITS)
    assert main(["referee", "check", p]) == 0
    out = capsys.readouterr().out
    assert "not checked (no turn given):" in out and "14.2 LOC" in out and "15.1 reinforcement schedule" in out
    assert main(["referee", "check", p, "--json"]) == 0
    assert "14.2 LOC" in json.loads(capsys.readouterr().out)["unchecked"]


def test_turn_missing_is_an_error_with_strict(tmp_path, capsys):
    p = write(tmp_path, "game: gazala-rg\n" + RG_UNITS)
    assert main(["referee", "check", p, "--strict"]) == 2
    assert "no turn given" in capsys.readouterr().err
    assert main(["referee", "check", p, "--strict", "--turn", "May 29"]) in (0, 1)


def test_json_bad_input_prints_an_error_object(tmp_path, capsys):
    p = write(tmp_path, "game: gazala-rg\nturn: June 2\nunits: []\n")
    assert main(["referee", "check", p, "--json"]) == 2
    err = json.loads(capsys.readouterr().out)["error"]
    assert set(err) >= {"file", "place", "expected", "message"} and err["place"] == "turn"


def rg_inline(**unit):
    return {"game": "gazala-rg", "turn": "May 29", "units": [{"id": "x", "side": "axis", "hex": "0110", **unit}]}


def test_10_0_inline_formation_typo_is_refused_with_did_you_mean():
    """`formation: Pavai` would silently disable the Pavia stacking rule."""
    with pytest.raises(GazalaError, match="unknown formation 'Pavai' \\(did you mean 'Pavia'\\?\\)"):
        position_from_data(rules_for_game("gazala-rg"), rg_inline(type="infantry", formation="Pavai"))


def test_inline_type_typo_is_refused_with_did_you_mean():
    with pytest.raises(GazalaError, match="unknown type 'armour' \\(did you mean 'armor'\\?\\)"):
        position_from_data(rules_for_game("gazala-rg"), rg_inline(type="armour"))


def test_7_0_formation_names_as_the_rules_print_them_are_accepted():
    pos = position_from_data(rules_for_game("gazala-rg"), rg_inline(type="armor", formation="15th Panzer"))
    assert pos.units[0].formation == "15th Panzer"
