"""``gazala game scenario GAME NAME -o FILE`` (issue 23 item 4): a built-in scenario's set-up out as a
position YAML or as the VASSAL save the module holds; ``referee check`` finds the same in both, and
``game show`` lists the scenarios."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest

from gazala_tools.cli import main
from gazala_tools.games import builtin_games
from gazala_tools.games.scenarios import load_scenarios
from gazala_tools.vassal.module import build_game_module

SCENARIOS = [(g.id, sc.id) for g in builtin_games() for sc in load_scenarios(g)]


def _findings(capsys: pytest.CaptureFixture[str], path: Path) -> tuple[int, object]:
    code = main(["referee", "check", str(path), "--json"])
    report = json.loads(capsys.readouterr().out)
    report.pop("source", None)
    return code, report


@pytest.mark.parametrize(("game", "scenario"), SCENARIOS)
def test_a_scenario_written_as_yaml_and_as_a_save_gives_the_same_findings(
    game: str, scenario: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    save, yaml_file = tmp_path / "setup.vsav", tmp_path / "setup.yaml"
    assert main(["game", "scenario", game, scenario, "-o", str(save)]) == 0
    assert main(["game", "scenario", game, scenario, "-o", str(yaml_file)]) == 0
    assert "units set up" in capsys.readouterr().out
    from_save, from_yaml = _findings(capsys, save), _findings(capsys, yaml_file)
    assert from_save == from_yaml
    assert from_save[1]["turn"]  # type: ignore[index]


def test_the_save_is_the_one_module_build_puts_in_the_module(tmp_path: Path) -> None:
    built = build_game_module("gazala-rg")
    spec = next(s for s in built.spec.scenarios if s.name.startswith("Scenario One"))
    with zipfile.ZipFile(__import__("io").BytesIO(built.data)) as zf:
        inside = zf.read(spec.file)
    assert main(["game", "scenario", "gazala-rg", "scenario-one", "-o", str(tmp_path / "s.vsav")]) == 0
    assert (tmp_path / "s.vsav").read_bytes() == inside


def test_game_show_lists_the_scenarios(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["game", "show", "gazala-rg"]) == 0
    out = capsys.readouterr().out
    assert "2 scenarios" in out and "scenario-one" in out and "campaign" in out


@pytest.mark.parametrize(("name", "output", "place"), [("no-such", "x.yaml", "NAME"), ("campaign", "x.txt", "-o")])
def test_a_bad_scenario_or_output_is_one_line_and_exit_2(
    name: str, output: str, place: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["game", "scenario", "gazala-rg", name, "-o", str(tmp_path / output)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and place in err
    assert not (tmp_path / output).exists()


def test_a_scenario_name_one_letter_off_gets_did_you_mean_as_referee_check_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # one reader of scenario names (games.scenarios.find_scenario) for `game scenario` and `--scenario`
    assert main(["game", "scenario", "gazala-rg", "scenario-on", "-o", str(tmp_path / "x.yaml")]) == 2
    err = capsys.readouterr().err
    assert "NAME: gazala-rg has no scenario 'scenario-on' (did you mean 'scenario-one'?)" in err
