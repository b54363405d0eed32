"""What the reports say: VP as sentences, no supply line without a supply rule, no findings about
what cannot apply (off-map range, a LOC with no Axis unit, the outcome of an illegal breach marker)."""

from __future__ import annotations

import pytest

from gazala_tools.referee.api import manifest_specs, position_from_data, rules_for_game
from gazala_tools.referee.engine import Referee
from gazala_tools.referee.findings import Severity
from gazala_tools.render.report import render_text
from tests.rules.rg.refhelp import check


def report_of(game, units, turn):
    rules = rules_for_game(game)
    data = {"game": game, "turn": turn, "units": units}
    return Referee(rules).check(position_from_data(rules, data, manifest=manifest_specs(game)))


def test_16_0_text_report_prints_one_sentence_per_vp_item():
    r = report_of("gazala-rg", [{"id": "axis-21pz-5-1", "hex": "2803"}], "May 29")
    text = render_text(r)
    vp = text.split("VP:\n", 1)[1].splitlines()
    assert "  Hex 2803: occupied by axis-21pz-5-1: 1 VP." in vp and "  Axis VP phase (16.0): 1 VP this turn." in vp
    assert not any("{" in line for line in vp)


@pytest.mark.parametrize(("game", "unit", "turn", "sentence"), [
    ("cauldron-dg", {"id": "axis-21pz-5-1", "hex": "2020"}, "3", "Support fire this turn (12.0): German 11, British 6 markers."),
    ("batalha", {"id": "axis-15pz-8-pz", "hex": "C05"}, "3", "Objectives held (11.2): Tobruk Allied, Bir Hacheim Allied, "
     "El Adem Allied, Knightsbridge Allied."),
    ("cauldron-spi", {"id": "axis-21pz-5-1", "hex": "2020"}, "9", "Tobruk (18.21): Allied (100 VP)."),
])
def test_vp_sentences_of_every_game(game, unit, turn, sentence):
    text = render_text(report_of(game, [unit], turn))
    assert f"  {sentence}" in text.split("VP:\n", 1)[1].splitlines()


def test_no_supply_line_for_games_without_a_supply_rule():
    dg = report_of("cauldron-dg", [{"id": "axis-21pz-5-1", "hex": "2020"}], "3")
    bg = report_of("batalha", [{"id": "axis-15pz-8-pz", "hex": "C05"}], "3")
    assert "supply:" not in render_text(dg) and "supply:" not in render_text(bg)
    assert "supply: 1 in" in render_text(report_of("gazala-rg", [{"id": "axis-21pz-5-1", "hex": "1621"}], "May 28"))


def test_4_1_an_off_map_unit_gets_no_range_warning_only_the_4_0_error():
    r = report_of("batalha", [{"id": "axis-15pz-8-pz", "hex": "Z40"}], "3")
    assert [f.rule for f in r.findings if f.severity is not Severity.INFO] == ["4.0"]


def test_14_2_no_lost_action_without_axis_units(rg_map):
    r = check(rg_map, [("b", "allied", "infantry", "1520")], turn="June 1-2")
    assert r.by_rule("14.2") == [] and r.sections.get("loc") is not None and not r.sections.get("loc").action_lost


def test_14_1_no_breach_outcome_for_a_marker_the_report_calls_illegal(rg_map):
    r = check(rg_map, [("i", "axis", "infantry", "1216")], turn="May 27 PM",
              breaches=[{"hexside": "1216/1315", "state": "under-construction"}])
    assert [f.severity for f in r.by_rule("14.1")] == [Severity.ERROR]
