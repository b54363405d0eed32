"""Issue 25 item 1 (docs/module.md, "Importing a module"): an imported module's predefined set-ups (and its
at-start stacks) are scenarios of the folder: each piece on its hex of map.yaml, or in a box named after
where the module has it; `game scenario` gives the module's own save of the set-up."""

from __future__ import annotations

import zipfile
from pathlib import Path
from typing import Any

import pytest
import yaml

from gazala_tools.cli import main
from gazala_tools.errors import GazalaError
from gazala_tools.games.scenarios import Scenario, read_scenarios, resolve_setup
from gazala_tools.mapdata.loader import load_map
from gazala_tools.vassal.importer.reader import SetupPlacement
from gazala_tools.vassal.importer.scenarios import scenarios_doc


@pytest.fixture(scope="module")
def imported(ragnarok_imported: Path) -> Path:
    return ragnarok_imported


def _load(path: Path) -> Any:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def test_each_predefined_set_up_is_a_scenario_with_its_pieces_where_the_save_has_them(imported: Path) -> None:
    scenarios = {s.id: s for s in read_scenarios(imported / "scenarios.yaml")}
    assert list(scenarios) == ["at-start", "free-setup"]
    assert scenarios["at-start"].name == "At Start" and not scenarios["free-setup"].setup  # no at-start stacks
    markers = [c["id"] for c in _load(imported / "counters.yaml")["markers"]]
    setup = resolve_setup(scenarios["at-start"], load_map(imported), [], counters=markers)
    saved = {s["name"]: s for s in _load(imported / "module.yaml")["vassal"]["set-ups"]}["At Start"]["pieces"]
    # every piece of the save, as many times as the save has it: on its hex or in its box
    assert sorted(u for u, _ in (*setup.hexes, *setup.boxes)) == sorted(p["counter"] for p in saved)
    assert setup.hexes == (("hero-heimdall-194", "0101"),)  # the one piece the save puts on the hex grid
    boxes = dict(setup.boxes)
    assert boxes["en-odin-189"] == "Endurance 019"  # a zone of the main map: its location's name
    assert boxes["hero-loki-227"] == "deployment"  # another map, at no named place: the map's name
    report = _load(imported / "import-report.yaml")
    assert report["scenarios"][0] == {"id": "at-start", "on hexes": 1, "in boxes": 98, "not placed": 0}
    assert report["counts"]["imported"]["scenarios"] == 2


def test_each_set_up_names_its_scenario_and_the_scenario_gives_the_modules_own_save(
        imported: Path, ragnarok: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    setups = {s["name"]: s for s in _load(imported / "module.yaml")["vassal"]["set-ups"]}
    assert (setups["At Start"]["scenario"], setups["Free Setup"]["scenario"]) == ("at-start", "free-setup")
    assert main(["game", "scenario", str(imported), "at-start", "-o", str(tmp_path / "a.vsav")]) == 0
    assert (tmp_path / "a.vsav").read_bytes() == (ragnarok / "ragnarok-start.vsav").read_bytes()
    capsys.readouterr()
    assert main(["game", "scenario", str(imported), "free-setup", "-o", str(tmp_path / "b.vsav")]) == 2
    err = capsys.readouterr().err
    assert "has no save in the module" in err and "Traceback" not in err and not (tmp_path / "b.vsav").exists()


def test_the_opening_position_of_a_module_without_set_ups_is_its_at_start_stacks() -> None:
    stack = [SetupPlacement("Reserves", "7", "tank", "Main", "B", "0203", 10, 20),
             SetupPlacement("Reserves", "7", "tank", "Main", "B", "0203", 10, 20),
             SetupPlacement("Dead", "8", "inf", "Pool", None, None, 5, 5),
             SetupPlacement("Lost", "99", "gone", "Main", "B", "0101", 1, 1)]
    written = scenarios_doc([], stack, {"7": "tank-7", "8": "inf-8"}, lambda pl: pl.location == "0203", "Main")
    assert written.doc == {"scenarios": [{
        "id": "at-start", "name": "At start", "source": "the module's at-start stacks (it has no predefined set-up)",
        "setup": [{"counters": ["tank-7", "tank-7"], "hex": "0203"}, {"counter": "inf-8", "box": "Dead"}]}]}
    assert written.report == [{"id": "at-start", "on hexes": 2, "in boxes": 1, "not placed": 1}]


def test_hostile_set_up_names_stay_data() -> None:
    setups: list[dict[str, Any]] = [{"name": "x\x00\n" + "A" * 500, "file": "s.vsav"},
                                    {"name": "x\x00\n" + "A" * 500, "file": "s.vsav"}]
    pl = SetupPlacement(setups[0]["name"], "1", "p", "M\x07ap", None, "../../etc", 0, 0, "s.vsav")
    written = scenarios_doc(setups, [pl], {"1": "p-1"}, lambda _p: False, "Main")
    assert written.doc is not None
    first, second = written.doc["scenarios"]
    assert first["id"] != second["id"] and len(first["name"]) <= 120 and "\x00" not in first["name"]
    assert first["setup"] == [{"counter": "p-1", "box": "M ap: ../../etc"}]


def _scenario(*placements: dict[str, Any], tmp: Path) -> Scenario:
    (tmp / "scenarios.yaml").write_text(yaml.safe_dump({"scenarios": [{"id": "s", "name": "S",
                                                                        "setup": list(placements)}]}))
    return read_scenarios(tmp / "scenarios.yaml")[0]


def test_a_counter_may_be_placed_again_a_unit_may_not(imported: Path, tmp_path: Path) -> None:
    game_map = load_map(imported)
    twice = _scenario({"counters": ["m-1", "m-1"], "hex": "0101"}, {"counter": "m-1", "box": "Pool"}, tmp=tmp_path)
    assert resolve_setup(twice, game_map, [], counters=["m-1"]).hexes == (("m-1", "0101"), ("m-1", "0101"))
    unit = _scenario({"unit": "u-1", "hex": "0101"}, {"unit": "u-1", "box": "Pool"}, tmp=tmp_path)
    with pytest.raises(GazalaError, match="placed twice"):
        resolve_setup(unit, game_map, [("u-1", "")])
    with pytest.raises(GazalaError, match="'u-1' is not a counter of the manifest \\(it is a unit"):
        resolve_setup(_scenario({"counter": "u-1", "hex": "0101"}, tmp=tmp_path), game_map, [("u-1", "")])
    with pytest.raises(GazalaError, match="both 'formation' and 'counter'"):
        _scenario({"formation": "A", "counter": "m-1", "hex": "0101"}, tmp=tmp_path)


def test_a_menus_set_ups_are_scenarios_of_a_new_game_with_the_at_start_decks(tmp_path: Path) -> None:
    """A set-up menu's set-ups follow it in module.yaml (naming their menu); each one without a save is a
    new game: the module's at-start stacks and decks, a deck's cards in a box of the deck's name."""
    from tests.vassal.importer.test_import_roundtrip import SYNTHETIC

    menu = ('    <VASSAL.build.module.PredefinedSetup isMenu="true" name="Games">'
            '<VASSAL.build.module.PredefinedSetup isMenu="false" name="Short" useFile="false"/>'
            '<VASSAL.build.module.PredefinedSetup isMenu="false" name="Long" useFile="false"/>'
            '</VASSAL.build.module.PredefinedSetup>\n</VASSAL.build.GameModule>')
    module = tmp_path / "mod"
    module.mkdir()
    xml = SYNTHETIC.replace("</VASSAL.build.GameModule>", menu)
    (module / "buildFile.xml").write_text(xml, encoding="utf-8")
    folder = tmp_path / "folder"
    assert main(["game", "import", str(module), str(folder)]) == 0
    setups = _load(folder / "module.yaml")["vassal"]["set-ups"]
    assert [(s["name"], s.get("menu"), s.get("scenario")) for s in setups] == [
        ("Games", None, None), ("Short", "Games", "short"), ("Long", "Games", "long")]
    scenarios = _load(folder / "scenarios.yaml")["scenarios"]
    assert [(s["id"], s["setup"]) for s in scenarios] == [("short", [{"counter": "card-3", "box": "Cards"}]),
                                                          ("long", [{"counter": "card-3", "box": "Cards"}])]
    rebuilt = tmp_path / "r.vmod"
    assert main(["module", "build", str(folder), "-o", str(rebuilt)]) == 0
    with zipfile.ZipFile(rebuilt) as z:
        assert z.read("buildFile.xml") == xml.encode("utf-8")
