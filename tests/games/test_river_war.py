"""River War, the fifth game: a game made only of data (``river-war/``), end to end through the CLI
and the real VASSAL 3.7.26 engine.

Its own numbering (row letter, column number: ``D-6``), two sides that are neither axis nor allied
(named "Red Army" and "Blue League", ids ``red`` and ``blue``), stacking (S1: two red or three blue
units a hex) and supply (P1: red traces six hexes to the west edge; P2: blue four to the east edge)
as rules data, no plugin. ``gazala map check``, ``counters sheet`` and ``module build`` take the
folder; the engine loads the module cleanly, names every hex centre as the game does and opens the
set-up with every unit where scenarios.yaml puts it; a save the engine writes after two moves gets
exactly the S1 and P1 findings from ``gazala referee check``, and the engine's save of the set-up
none. The generic rules one by one: ``tests/referee/ruledata/test_river_war.py``.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from gazala_tools.counters.loader import load_game_manifest
from gazala_tools.games import find_game
from gazala_tools.games.scenarios import load_scenarios, resolve_setup
from gazala_tools.mapdata.loader import load_game_map

from .conftest import assert_loads_cleanly, engine_hex_names, placed_by_map, referee_json, run

FOLDER = Path(__file__).resolve().parent / "river-war"
SCENARIO = "The Ford (Turn 1 - Turn 8)"

#: scenarios.yaml's set-up, as the rules say it (9.1, 9.2): C-3 and its nearest hexes by label,
#: two units stacked in E-2, the ford held, blue-tank-2 waiting for turn 3 (R1)
SETUP = {
    "red-inf-1": "C-3", "red-inf-2": "B-3", "red-inf-3": "C-2", "red-tank-1": "D-4", "red-inf-4": "E-2",
    "red-hq": "E-2", "blue-inf-1": "C-8", "blue-inf-2": "E-8", "blue-inf-3": "F-9", "blue-tank-1": "D-6",
    "blue-hq": "E-9",
}
BOXED = {"blue-tank-2": "Reinforcements"}

#: two moves the engine makes from the set-up: the tank joins the stack in E-2 (three red units: S1),
#: a rifle company crosses the river away from the ford (no path to the west edge: P1)
MOVES = [{"piece": "red-tank-1", "to": "E-2"}, {"piece": "red-inf-1", "to": "B-6"}]
FINDINGS = [
    {"rule": "S1", "severity": "error", "units": ["red-hq", "red-inf-4", "red-tank-1"], "hexes": ["E-2"],
     "message": "E-2: 3 red units in one hex (limit 2); remove 1"},
    {"rule": "P1", "severity": "warning", "units": ["red-inf-1"], "hexes": ["B-6"],
     "message": "red-inf-1 at B-6 is unsupplied: no unobstructed path to the west edge"},
]



def folder_digest() -> dict[str, str]:
    return {str(p.relative_to(FOLDER)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(FOLDER.rglob("*")) if p.is_file()}



# --- the CLI -----------------------------------------------------------------------------------------
def test_map_check_passes_on_the_games_own_numbering(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "map", "check", str(FOLDER), "--json")
    data = json.loads(out)
    assert code == 0 and data["game"] == "river-war" and data["ok"]
    assert len(data["checks"]) >= 5 and all(c["ok"] for c in data["checks"])
    code, out, _ = run(capsys, "map", "info", str(FOLDER), "--json")
    info = json.loads(out)
    assert (info["first_hex"], info["last_hex"], info["hexes"]) == ("A-1", "H-10", 80)


def test_counter_sheet_prints_every_counter(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pdf = tmp_path / "sheet.pdf"
    code, out, _ = run(capsys, "counters", "sheet", str(FOLDER), "-o", str(pdf), "--json")
    summary = json.loads(out)
    assert code == 0 and pdf.read_bytes().startswith(b"%PDF")
    assert (summary["game"], summary["counters"], summary["pages"]) == ("river-war", 19, 2)  # duplex: fronts, backs


def test_module_build_makes_the_scenario_a_set_up(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = folder_digest()
    out = tmp_path / "rw.vmod"
    code, text, _ = run(capsys, "module", "build", str(FOLDER), "-o", str(out), "--json")
    summary = json.loads(text)
    assert code == 0 and out.is_file()
    assert (summary["name"], summary["pieces_by_kind"]) == ("River War (test game)", {"unit": 12, "marker": 5})
    assert summary["setups"] == {SCENARIO: len(SETUP)}
    assert summary["charts"] == ["Terrain", "Stacking and supply", "Red Army order of battle",
                                 "Blue League order of battle"]
    assert folder_digest() == before  # nothing is written into a game folder


def test_the_set_up_rules_resolve_to_the_set_up() -> None:
    game = find_game(FOLDER)
    (scenario,) = load_scenarios(game)
    units = [(u.unit_id, u.formation) for u in load_game_manifest(game).units]
    setup = resolve_setup(scenario, load_game_map(game), units)
    assert dict(setup.hexes) == SETUP and dict(setup.boxes) == BOXED


def test_a_save_of_a_data_only_module_names_its_game_folder(vmod: Path, tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    """The module's name is no built-in game's: the referee asks for --game rather than judging the
    save by the default game's rules."""
    import zipfile

    save = tmp_path / "setup.vsav"
    with zipfile.ZipFile(vmod) as zf:
        save.write_bytes(zf.read(next(n for n in zf.namelist() if n.startswith("setups/"))))
    code, out, err = run(capsys, "referee", "check", str(save), "--module", str(vmod))
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "'River War (test game)', whose units are of sides blue, red" in err and "--game" in err
    code, out, _ = run(capsys, "referee", "check", str(save), "--module", str(vmod), "--game", str(FOLDER), "--json")
    assert code == 0 and json.loads(out)["findings"] == []


def test_the_main_job_runs_on_the_game_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``scripts/run tests/games/river-war``: every step, the referee of the module's own set-up included."""
    from gazala_tools.mainjob import run as main_job

    before = folder_digest()
    assert main_job(str(FOLDER), tmp_path) == 0
    assert "river-war  The Ford (Turn 1 - Turn 8)  turn 1" in capsys.readouterr().out  # --scenario: the report names it
    for name in ("map.geojson", "board.png", "counter-sheet.pdf", "river-war.vmod",
                 "referee-the-ford-turn-1-turn-8.html"):
        assert (tmp_path / name).stat().st_size > 0, name
    assert folder_digest() == before


# --- the engine (marker vassal) -------------------------------------------------------------------------



@pytest.mark.vassal
def test_engine_loads_the_module_with_no_error_dialog_or_dropped_attribute(vassal_engine: Any, vmod: Path) -> None:
    loaded = vassal_engine.module(vmod)
    assert_loads_cleanly(loaded)
    assert len(loaded["piece_slots"]) == 17 and all(s["valid"] for s in loaded["piece_slots"])
    assert all(p["valid"] for p in loaded["prototypes"])


@pytest.mark.vassal
def test_engine_names_every_hex_centre_by_the_games_numbering(vassal_engine: Any, vmod: Path) -> None:
    names, labels = engine_hex_names(vassal_engine, vmod, FOLDER)
    assert names == labels
    assert {"A-1", "D-6", "H-10"} <= set(names) and len(names) == 80


@pytest.mark.vassal
def test_engine_opens_the_set_up_with_every_unit_on_its_hex(opened: dict[str, Any]) -> None:
    from gazala_tools.vassal.gamelayout import MAIN_MAP

    placed = placed_by_map(opened)
    assert placed[MAIN_MAP] == SETUP and placed["Holding Boxes"] == BOXED
    assert placed["VP Track"] == {"red-vp": "VP 0", "blue-vp": "VP 1"}


@pytest.mark.vassal
def test_referee_finds_nothing_in_the_engines_save_of_the_set_up(opened: dict[str, Any], vmod: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    code, report = referee_json(capsys, opened["saved"], vmod, FOLDER)
    assert code == 0 and report["legal"] and report["findings"] == []
    assert report["game"] == "river-war" and report["turn"] == "1"
    assert set(report["supply"].values()) == {"in"} and len(report["supply"]) == 12


@pytest.mark.vassal
def test_referee_finds_S1_and_P1_in_a_save_the_engine_wrote_after_two_moves(
        moved: dict[str, Any], vmod: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert [(m["piece"], m["from"], m["to"]) for m in moved["moves"]] == [
        ("red-tank-1", "D-4", "E-2"), ("red-inf-1", "C-3", "B-6")]
    code, report = referee_json(capsys, moved["saved"], vmod, FOLDER)
    assert code == 1 and not report["legal"]
    assert report["findings"] == FINDINGS
    assert {u: s for u, s in report["supply"].items() if s != "in"} == {"red-inf-1": "out"}
    code, text, _ = run(capsys, "referee", "check", moved["saved"], "--module", str(vmod), "--game", str(FOLDER))
    assert code == 1 and "error   S1    E-2: 3 red units in one hex (limit 2); remove 1 [E-2]" in text
