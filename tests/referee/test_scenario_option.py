"""``gazala referee check --scenario ID`` (issue 23 item 6): the report names the scenario the position
belongs to, in text, JSON and HTML, and warns when the position's turn lies outside the scenario's
turns (RG scenarios.yaml: Scenario One runs May 27 AM - June 1-2, the campaign to June 13-14)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from gazala_tools.cli import main

HIGHLAND = Path(__file__).resolve().parents[1] / "games" / "highland"
POSITION = """\
game: gazala-rg
turn: {turn}
units:
  - {{id: axis-ariete-132-8, hex: "1321"}}
"""


def _check(tmp_path: Path, capsys: pytest.CaptureFixture[str], turn: str, *extra: str) -> tuple[int, str, str]:
    pos = tmp_path / "p.yaml"
    pos.write_text(POSITION.format(turn=json.dumps(turn)), encoding="utf-8")
    code = main(["referee", "check", str(pos), *extra])
    out, err = capsys.readouterr()
    return code, out, err


def test_the_text_and_json_reports_name_the_scenario(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _check(tmp_path, capsys, "May 28", "--scenario", "scenario-one")
    assert code == 0 and out.splitlines()[0].startswith("gazala-rg  Scenario One (May 27 AM - June 1-2)  turn May 28")
    code, out, _ = _check(tmp_path, capsys, "May 28", "--scenario", "Campaign Game (May 27 AM - June 13-14)", "--json")
    report = json.loads(out)
    assert report["scenario"] == "Campaign Game (May 27 AM - June 13-14)"
    assert not [f for f in report["findings"] if f["rule"] == "scenario"]


def test_without_the_option_the_json_has_no_scenario_key(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = _check(tmp_path, capsys, "May 28", "--json")
    assert "scenario" not in json.loads(out)


def test_a_turn_after_the_scenarios_last_turn_is_a_warning(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = _check(tmp_path, capsys, "June 5-6", "--scenario", "scenario-one", "--json")
    found = [f for f in json.loads(out)["findings"] if f["rule"] == "scenario"]
    assert [(f["severity"], f["message"]) for f in found] == [
        ("warning", "turn June 5-6 is after its last turn, June 1-2: is this a position of "
                    "Scenario One (May 27 AM - June 1-2)?")]
    _, out, _ = _check(tmp_path, capsys, "June 5-6", "--scenario", "campaign", "--json")
    assert not [f for f in json.loads(out)["findings"] if f["rule"] == "scenario"]


def test_an_unknown_scenario_is_one_line_with_did_you_mean(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _check(tmp_path, capsys, "May 28", "--scenario", "campain")
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "no scenario 'campain' (did you mean 'campaign'?)" in err and "scenario-one, campaign" in err


def test_the_html_report_names_the_scenario(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out_file = tmp_path / "r.html"
    code, _, _ = _check(tmp_path, capsys, "May 28", "--scenario", "scenario-one", "--format", "html", "-o", str(out_file))
    html = out_file.read_text(encoding="utf-8")
    assert code == 0 and '<span id="scenario">Scenario One (May 27 AM - June 1-2)</span>' in html


def test_a_hostile_scenario_name_of_a_game_folder_stays_text(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A game folder is untrusted input: its scenario's name is escaped in the HTML report."""
    folder = tmp_path / "highland"
    shutil.copytree(HIGHLAND, folder)
    scenarios = folder / "scenarios.yaml"
    scenarios.write_text(scenarios.read_text(encoding="utf-8").replace(
        '"The Moor (Turn 1 - Turn 6)"', '"<script>alert(1)</script> & <b>"'), encoding="utf-8")
    pos, out_file = tmp_path / "p.yaml", tmp_path / "r.html"
    pos.write_text("game: highland\nturn: 1\nunits: []\n", encoding="utf-8")
    code = main(["referee", "check", str(pos), "--game", str(folder), "--scenario", "the-moor", "--format", "html",
                 "-o", str(out_file)])
    capsys.readouterr()
    html = out_file.read_text(encoding="utf-8")
    assert code == 0 and "<script>alert" not in html and "<b>" not in html
    assert '<span id="scenario">&lt;script&gt;alert(1)&lt;/script&gt; &amp; &lt;b&gt;</span>' in html
