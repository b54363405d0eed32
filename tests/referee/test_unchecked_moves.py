"""Rules a position cannot show are listed as not checked, by rule id and why (issue 22 item 4):
the moves' rules (a game's ``movement.yaml``, its prohibited hexsides, its reinforcements' entry
hexes off their arrival turn, a plugin's ``check_move``) on every position, and the rules judged
between two positions without ``--before``. The list comes from the game's data, never from a list
of one game's rules: a game folder's own movement data adds its own rule ids."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from gazala_tools.cli import main
from gazala_tools.referee.generic import MOVES_UNSEEN, NEEDS_BEFORE

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "referee" / "golden" / "inputs"
HIGHLAND = ROOT / "games" / "highland"

HIGHLAND_POSITION = """\
game: highland
turn: Turn 3
units:
  - {id: clan-foot-1, hex: "0205"}
  - {id: crown-foot-1, hex: "0602"}
"""


def unchecked(capsys: pytest.CaptureFixture[str], *argv: str) -> list[str]:
    assert main(["referee", "check", *argv, "--format", "json"]) in (0, 1)
    return list(json.loads(capsys.readouterr().out)["unchecked"])


def test_rg_moves_rules_are_listed_with_why(capsys):
    got = unchecked(capsys, str(GOLDEN / "rg-may29.yaml"))
    for rule in ("8.0 movement points (move allowance)", "8.0 crossing an escarpment off a road",
                 "9.0 no move from one enemy ZOC hex directly to another", "15.1 the entry hexes of reinforcements",  # as 15.1 findings cite it
                 "7.0 the units each action chit activates"):
        assert f"{rule}: {MOVES_UNSEEN}" in got
    assert f"8.3 units that left the map wait two turns in the turn record: {NEEDS_BEFORE}" in got


def test_with_before_the_two_position_rules_are_checked_and_the_moves_still_are_not(capsys):
    got = unchecked(capsys, str(GOLDEN / "rg-may29.yaml"), "--before", str(GOLDEN / "rg-before.yaml"))
    assert not [u for u in got if u.endswith(NEEDS_BEFORE)]
    assert f"9.0 no move from one enemy ZOC hex directly to another: {MOVES_UNSEEN}" in got


def test_the_text_header_names_each_reason_once(capsys):
    assert main(["referee", "check", str(GOLDEN / "spi-extras.yaml")]) in (0, 1)
    lines = capsys.readouterr().out.splitlines()
    assert f"not checked ({NEEDS_BEFORE}): 17.0 command control (who moved on the first turn)" in lines


def test_a_data_only_game_lists_its_own_rule_ids(tmp_path, capsys):
    pos = tmp_path / "pos.yaml"
    pos.write_text(HIGHLAND_POSITION)
    plain = unchecked(capsys, str(pos), "--game", str(HIGHLAND))
    # at-entry: true: the entry hexes are checked on the arrival turn only
    assert plain == [f"H6 the entry hexes of reinforcements (a position shows them on the arrival turn only): "
                     f"{MOVES_UNSEEN}"]
    game = tmp_path / "highland"  # the same game with movement data of its own
    shutil.copytree(HIGHLAND, game)
    (game / "movement.yaml").write_text('zoc: {rule: "H7", zoc-to-zoc: true}\n')
    text = (game / "game.yaml").read_text()  # a prohibited hexside of its Terrain Effects Chart
    own = "  terrain-effects:                    # H4: no horse or guns in the bog\n"  # Highland's chart gets a row
    assert text.count(own) == 1
    (game / "game.yaml").write_text(text.replace(
        own, own + '    hexsides: {cliff: {cost: P, rule: "H8", what: "a cliff"}}\n', 1))
    got = unchecked(capsys, str(pos), "--game", str(game))
    assert [u.split(":")[0] for u in got] == ["H6 the entry hexes of reinforcements (a position shows them on the "
                                              "arrival turn only)", "H7 no move from one enemy ZOC hex directly to "
                                              "another", "H8 crossing a cliff"]


def test_the_html_report_lists_them(tmp_path, capsys):
    out = tmp_path / "r.html"
    assert main(["referee", "check", str(GOLDEN / "bg-cleared.yaml"), "--format", "html", "-o", str(out)]) in (0, 1)
    page = out.read_text(encoding="utf-8")
    assert "<ul id='unchecked'><li>4.0 movement points (move allowance): only moves show it;" in page
