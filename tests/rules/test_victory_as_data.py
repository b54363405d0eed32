"""Victory as data, the keys that took over what the built-in plugins computed (issue 32 item 7,
``docs/games.md`` "Rules mechanics"): ``vp: printed`` (SPI 18.11), ``vp-by-nationality`` with
``victory.nationalities`` (BG 11.2.2), a table of levels per side (SPI 18.4), and hex awards of
``units: N`` with ``in-supply: marked`` (RG 16.0), and awards of one scenario (RG 17.0).

Each rule is stated in a copy of Lowland Front (a data-only game, ``tests/games/lowland-front``) whose
``victory`` section is replaced by the case's, and judged by the generic referee; bad values exit 2
with ``game.yaml:LINE:COL`` and "did you mean".
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from gazala_tools.cli import main
from gazala_tools.games import find_game
from gazala_tools.referee.api import position_from_data
from gazala_tools.referee.engine import Referee, RulesPlugin
from gazala_tools.referee.findings import Severity
from gazala_tools.referee.report import Report
from gazala_tools.rules import rules_for

FOLDER = Path(__file__).resolve().parents[1] / "games" / "lowland-front"
L, E = "league", "empire"

#: the rules of the cases, as a rulebook would print them
VICTORY = """\
  victory:
    rule: "10"
    end: 6
    eliminated:
      - {rule: "10.1", units: {sides: [empire]}, vp: printed}          # 10.1: an Imperial unit, its combat factors
      - {rule: "10.2", units: {sides: [league]}, vp-by-nationality: {gold: 2, iron: 1}}   # 10.2: per nationality
    nationalities:
      gold: {ids: [g-]}
      iron: {formations: [I Corps]}
    levels:                                                            # 10.3: each side's own table
      league: [{name: League triumph, margin: 6}, {name: League edge, margin: 3}]
      empire: [{name: Imperial triumph, margin: 4}]
    draw: stalemate
"""

#: 10.4 of the cases: "3 VP to the League when two League units not marked Out of Supply or Isolated stand
#: on west-edge hexes together"
EDGE = """\
  victory:
    rule: "10"
    hexes:
      - {rule: "10.4", hexes: {edges: [W]}, sides: [league], units: 2, score: [{holds: occupied, in-supply: marked, vp: 3}]}
      - {rule: "10.5", scenario: the-lisse, hexes: {hexes: ["01.05"]}, sides: [league], score: [{holds: occupied, vp: 4}]}
"""


def game_with(tmp_path: Path, victory: str = VICTORY) -> Path:
    game = tmp_path / "lf"
    shutil.copytree(FOLDER, game)
    text = (game / "game.yaml").read_text(encoding="utf-8")
    start = text.index("  victory:")
    end = text.index("\n", text.index("    draw: a draw")) + 1
    (game / "game.yaml").write_text(text[:start] + victory + text[end:], encoding="utf-8")
    # the end phase judges the case's victory rules, not Lowland Front's own (2.6; a judged id must be a rule)
    movement = (game / "movement.yaml").read_text(encoding="utf-8")
    judged = '"9.1", "10.2", "10.3", "10.4", "10.5"'
    assert judged in movement
    (game / "movement.yaml").write_text(movement.replace(judged, '"9.1"'), encoding="utf-8")
    return game


@pytest.fixture(scope="module")
def rules(tmp_path_factory: pytest.TempPathFactory) -> RulesPlugin:
    return rules_for(find_game(game_with(tmp_path_factory.mktemp("victory"))))


@pytest.fixture(scope="module")
def edge_rules(tmp_path_factory: pytest.TempPathFactory) -> RulesPlugin:
    return rules_for(find_game(game_with(tmp_path_factory.mktemp("edge"), EDGE)))


def check(rules: RulesPlugin, *units: tuple[str, str, str, str], turn: str = "Turn 6") -> Report:
    rows: list[dict[str, Any]] = [{"id": i, "side": s, "type": "infantry", "formation": f, "box": "eliminated"}
                                  for i, s, f, _ in units]
    return Referee(rules).check(position_from_data(rules, {"game": "lowland-front", "turn": turn, "units": rows}))


def test_10_1_vp_printed_an_eliminated_unit_scores_its_printed_combat_factors(rules: RulesPlugin) -> None:
    """``vp: printed``: every printed number but the movement allowance (a ``4-5-6`` unit: 9)."""
    r = check(rules, ("e-inf-4-5-6", E, "", ""))
    assert r.vp[L] == 9 and r.vp[E] == 0
    assert [a["rule"] for a in r.vp["awards"]] == ["10.1"]


def test_10_1_a_unit_without_printed_values_is_reported_not_scored(rules: RulesPlugin) -> None:
    r = check(rules, ("e-inf", E, "", ""))
    assert r.vp[L] == 0
    warned = [f for f in r.by_rule("10.1") if f.severity is Severity.WARNING]
    assert len(warned) == 1 and warned[0].units == ("e-inf",) and "printed values unknown" in warned[0].message


def test_10_2_vp_by_nationality_from_the_id_or_the_formation(rules: RulesPlugin) -> None:
    """``vp-by-nationality``: gold by its id (``g-``), iron by its formation (``I Corps``)."""
    r = check(rules, ("g-1", L, "", ""), ("l-2", L, "I Corps", ""))
    assert r.vp[E] == 2 + 1


def test_10_2_a_unit_of_no_known_nationality_is_reported_not_scored(rules: RulesPlugin) -> None:
    r = check(rules, ("l-3", L, "Reserve", ""))
    assert r.vp[E] == 0
    assert [f.units for f in r.by_rule("10.2") if f.severity is Severity.WARNING] == [("l-3",)]


@pytest.mark.parametrize(("killed", "result"), [
    (["e-a-3-3-4"], "League triumph (by 6 VP)"),  # 6 net: the League's best level
    (["e-a-2-2-4"], "League edge (by 4 VP)"),
    (["e-a-1-1-4"], "stalemate"),  # 2 net: below the League's smallest margin (3)
    ([], "stalemate"),
])
def test_10_3_the_leaders_own_table_and_below_it_a_draw(rules: RulesPlugin, killed: list[str], result: str) -> None:
    r = check(rules, *((k, E, "", "") for k in killed))
    assert r.vp["final"] and r.vp["result"] == result


def test_10_3_the_other_sides_table_when_it_leads(rules: RulesPlugin) -> None:
    r = check(rules, *((f"g-{i}", L, "", "") for i in range(2)))  # the Empire 4 VP ahead
    assert r.vp["result"] == "Imperial triumph (by 4 VP)"


def on_edge(rules: RulesPlugin, *markers: list[str]) -> Report:
    rows = [{"id": f"l{i}", "side": L, "type": "infantry", "hex": "01.05", **({"markers": m} if m else {})}
            for i, m in enumerate(markers)]
    return Referee(rules).check(position_from_data(rules, {"game": "lowland-front", "turn": "Turn 2", "units": rows}))


def test_10_4_units_n_two_units_on_the_edge_score_once(edge_rules: RulesPlugin) -> None:
    """``units: 2``: once for the side (3 VP), not per hex nor per unit."""
    r = on_edge(edge_rules, [], [])
    assert r.vp[L] == 3 and [a["what"] for a in r.vp["awards"] if "scenario" not in a] == ["2 units on W in supply"]


def test_10_4_in_supply_marked_a_unit_marked_out_of_supply_does_not_count(edge_rules: RulesPlugin) -> None:
    assert on_edge(edge_rules, [], ["out-of-supply"]).vp[L] == 0
    assert on_edge(edge_rules, [], ["isolated"]).vp[L] == 0
    assert on_edge(edge_rules, [], ["out-of-supply"], []).vp[L] == 3  # two others are enough


def test_10_4_one_unit_is_not_enough(edge_rules: RulesPlugin) -> None:
    assert on_edge(edge_rules, []).vp[L] == 0


def test_10_5_scenario_an_award_of_one_scenario_is_tallied_apart(edge_rules: RulesPlugin) -> None:
    """``scenario: the-lisse``: 4 VP at the end of that scenario, never in the running tally (which
    scenario a position is of, it does not say)."""
    r = on_edge(edge_rules, [])
    assert r.vp[L] == 0 and r.vp["scenarios"] == {"the-lisse": {L: 4, E: 0}}
    assert [a.get("scenario") for a in r.vp["awards"]] == ["the-lisse"]


#: (the text in VICTORY, what it becomes, what the error says)
BAD = [
    ("vp: printed}", "vp: printd}", "'printd' is not VP (did you mean 'printed'?)"),
    ("{gold: 2, iron: 1}", "{gold: 2, irn: 1}", "'irn' is not a nationality of victory.nationalities (did you mean 'iron'?)"),
    ("      league: [{name", "      leage: [{name", "'leage' is not a side of the game (did you mean 'league'?)"),
    ("vp-by-nationality: {gold: 2, iron: 1}}", "vp-by-nationality: {gold: 2, iron: 1}, vp: 1}",
     "'vp' and 'vp-by-nationality' exclude each other"),
    ("      gold: {ids: [g-]}", "      gold: {idz: [g-]}", "unknown key 'idz'"),
]


BAD_EDGE = [
    ("in-supply: marked", "in-supply: marke", "'marke' is not a supply condition (did you mean 'marked'?)"),
    ("holds: occupied, in-supply", "holds: controlled, in-supply",
     "an award of 'units: N' counts the units that occupy its hexes"),
    ("scenario: the-lisse", "scenario: the-lise", "'the-lise' is not a scenario of the game (did you mean 'the-lisse'?)"),
]


def exit_2(tmp_path: Path, game: Path, capsys: pytest.CaptureFixture[str]) -> str:
    """``referee check`` of an empty position of ``game``: exit 2, one line (returned), no traceback."""
    pos = tmp_path / "pos.yaml"
    pos.write_text("game: lowland-front\nunits: []\n", encoding="utf-8")
    capsys.readouterr()
    assert main(["referee", "check", str(pos), "--game", str(game)]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    return err


@pytest.mark.parametrize(("base", "old", "new", "words"), [(VICTORY, *b) for b in BAD] + [(EDGE, *b) for b in BAD_EDGE],
                         ids=[b[2][:40] for b in BAD + BAD_EDGE])
def test_bad_victory_data_is_one_line_with_its_place(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                    base: str, old: str, new: str, words: str) -> None:
    assert base.count(old) == 1, old
    game = game_with(tmp_path, base.replace(old, new))
    err = exit_2(tmp_path, game, capsys)
    text = (game / "game.yaml").read_text(encoding="utf-8")
    line = next(i for i, x in enumerate(text.splitlines(), 1) if new.strip() in x)
    assert f"{game / 'game.yaml'}:{line}:" in err and words in err, err


def test_vp_by_nationality_needs_the_nationalities(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = game_with(tmp_path, VICTORY.replace("    nationalities:\n      gold: {ids: [g-]}\n      iron: "
                                               "{formations: [I Corps]}\n", ""))
    assert "needs the nationalities of the units" in exit_2(tmp_path, game, capsys)
