"""Highland, a second game made only of data (``highland/``), with its own words: sides ``clans``
("Highland") and ``crown`` ("Crown") with their colours, a ``cavalry`` type drawn with the recon
symbol, a ``cliff`` hexside (directed, impassable), Fort William's palisade owned by the Crown, an
HQ exempt from stacking (H3), guns two a hex for the Crown and none for the clans (H3.1), Crown
horse standing alone (H3.2), entry hexes checked on the arrival turn (H6) and rows numbered upward
(``vDescend``, ``grid.max_rows`` = VASSAL's count for the board, ``vOff: -1``).

Through the CLI (map check, counter sheet, module build), the rules one by one on positions, and
the real VASSAL 3.7.26 engine (marker ``vassal``): the module loads cleanly, names every hex centre
as the game does, opens the set-up with every unit on its hex, and a save it writes after two
moves gets exactly the H3, H3.1 and H3.2 findings.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from gazala_tools.counters.loader import load_game_manifest
from gazala_tools.errors import GazalaError
from gazala_tools.games import find_game
from gazala_tools.games.scenarios import load_scenarios, resolve_setup
from gazala_tools.mapdata.loader import load_game_map
from gazala_tools.referee.api import position_from_data
from gazala_tools.referee.engine import Context, Referee, RulesPlugin
from gazala_tools.referee.generic import supply_search, zoc_projects
from gazala_tools.referee.report import Report
from gazala_tools.rules import rules_for

from .conftest import assert_loads_cleanly, engine_hex_names, placed_by_map, referee_json, run

FOLDER = Path(__file__).resolve().parent / "highland"
SCENARIO = "The Moor (Turn 1 - Turn 6)"

#: scenarios.yaml's set-up: three clans and their HQ in 0205 (the HQ not counted: H3), the Crown's
#: two guns at Fort William 0602 (H3.1 allows two), its dragoons alone in 0702 (H3.2)
SETUP = {
    "clan-foot-1": "0205", "clan-foot-2": "0205", "clan-foot-3": "0205", "clan-hq": "0205", "clan-foot-4": "0305",
    "clan-horse": "0104", "crown-foot-1": "0602", "crown-guns-1": "0602", "crown-guns-2": "0602", "crown-hq": "0602",
    "crown-foot-2": "0502", "crown-guns-3": "0502", "crown-dragoons-1": "0702",
}
BOXED = {"crown-dragoons-2": "Reinforcements", "clan-guns": "Eliminated"}

#: two moves: the third gun joins Fort William (four counted units: H3; three guns: H3.1), the foot
#: joins the dragoons (Crown horse stands alone: H3.2)
MOVES = [{"piece": "crown-guns-3", "to": "0602"}, {"piece": "crown-foot-2", "to": "0702"}]
FINDINGS = [
    {"rule": "H3", "severity": "error",
     "units": ["crown-foot-1", "crown-guns-1", "crown-guns-2", "crown-guns-3", "crown-hq"], "hexes": ["0602"],
     "message": "0602: 4 Crown units in one hex (1 more not counted) (limit 3)"},
    {"rule": "H3.1", "severity": "error",
     "units": ["crown-foot-1", "crown-guns-1", "crown-guns-2", "crown-guns-3", "crown-hq"], "hexes": ["0602"],
     "message": "0602: 3 Crown artillery units in one hex (limit 2 artillery)"},
    {"rule": "H3.2", "severity": "error", "units": ["crown-dragoons-1", "crown-foot-2"], "hexes": ["0702"],
     "message": "0702: crown-dragoons-1 (Cobham's) fills the hex: no unit may stack with it"},
]



@pytest.fixture(scope="module")
def rules() -> RulesPlugin:
    return rules_for(find_game(FOLDER))


def check(rules: RulesPlugin, *units: tuple[str, str, str, str], **keys: Any) -> Report:
    rows = [{"id": i, "side": s, "type": t, **({"box": w} if w.isalpha() else {"hex": w})} for i, s, t, w in units]
    return Referee(rules).check(position_from_data(rules, {"game": "highland", "units": rows, **keys}))


def findings(report: Report) -> list[tuple[str, str]]:
    return [(f.rule, f.message) for f in report.findings]



# --- the game's own words -------------------------------------------------------------------------
def test_the_game_declares_its_sides_types_and_kinds() -> None:
    game = find_game(FOLDER)
    assert [(s.id, s.name, s.adjective, s.rgb) for s in game.sides] == [
        ("clans", "Highland Clans", "Highland", (0x2E, 0x7D, 0x32)), ("crown", "Crown Forces", "Crown", (0xC6, 0x28, 0x28))]
    assert game.unit_type_ids() == ("infantry", "cavalry", "artillery", "hq") and game.symbol_of("cavalry") == "recon"
    m = load_game_map(game)
    assert list(m.hexside_kinds) == ["cliff", "palisade"] and m.box("Fort William").owner == "crown"
    assert m.climbs(m.hex("0304"), m.hex("0305"), "cliff") and len(m.impassable_sides) == 2
    assert {c.id: c.symbol for c in load_game_manifest(game).units}["clan-horse"] == "recon"


def test_a_counter_of_an_undeclared_type_is_refused_with_did_you_mean(tmp_path: Path) -> None:
    shutil.copytree(FOLDER, tmp_path / "g")
    f = tmp_path / "g" / "counters.yaml"
    f.write_text(f.read_text(encoding="utf-8").replace("type: cavalry, size: II, values: [2, 2, 6]",
                                                      "type: cavalary, size: II, values: [2, 2, 6]"), encoding="utf-8")
    with pytest.raises(GazalaError, match=r"'cavalary' is not a unit type of the game \(did you mean 'cavalry'\?\)"):
        load_game_manifest(find_game(tmp_path / "g"))


def test_referee_check_names_the_manifests_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    shutil.copytree(FOLDER, tmp_path / "g")
    f = tmp_path / "g" / "counters.yaml"
    f.write_text(f.read_text(encoding="utf-8").replace("type: cavalry, size: II, values: [2, 2, 6]",
                                                      "type: cavalary, size: II, values: [2, 2, 6]"), encoding="utf-8")
    pos = tmp_path / "pos.yaml"
    pos.write_text("units:\n  - {id: clan-foot-1, hex: '0205'}\n", encoding="utf-8")
    code, _, err = run(capsys, "referee", "check", str(pos), "--game", str(tmp_path / "g"))
    assert code == 2 and "counters.yaml" in err and "'cavalary' is not a unit type of the game" in err
    assert "not in the manifest" not in err


def test_a_zone_owner_must_be_a_side_of_the_game(tmp_path: Path) -> None:
    shutil.copytree(FOLDER, tmp_path / "g")
    f = tmp_path / "g" / "map.yaml"
    f.write_text(f.read_text(encoding="utf-8").replace("owner: crown, source: test, hexes: [\"0801\"",
                                                      "owner: crwn, source: test, hexes: [\"0801\""), encoding="utf-8")
    with pytest.raises(GazalaError, match=r"'crwn' is not allowed \(did you mean 'crown'\?\)"):
        load_game_map(find_game(tmp_path / "g"))


# --- the CLI -----------------------------------------------------------------------------------------
def test_map_check_passes_with_upward_rows(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "map", "check", str(FOLDER))
    assert code == 0 and "ok   data       vassal_names_every_hex_by_its_label" in out
    game_map = load_game_map(find_game(FOLDER))
    geo = game_map.geometry()
    assert geo.hex_center(game_map.hex("0101"))[1] > geo.hex_center(game_map.hex("0106"))[1]  # row 01 at the bottom


def test_grid_center_and_locate_take_the_game_folder(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "grid", "center", str(FOLDER), "0101", "--json")
    got = json.loads(out)
    assert code == 0 and (got["x"], got["y"]) == load_game_map(find_game(FOLDER)).geometry().hex_center(load_game_map(find_game(FOLDER)).hex("0101"))
    code, out, _ = run(capsys, "grid", "locate", str(FOLDER), str(got["x"]), str(got["y"]))
    assert code == 0 and "0101" in out


def test_map_check_fails_on_a_max_rows_vassal_does_not_count(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    shutil.copytree(FOLDER, tmp_path / "g")
    f = tmp_path / "g" / "map.yaml"
    f.write_text(f.read_text(encoding="utf-8").replace("max_rows: 8", "max_rows: 6"), encoding="utf-8")
    code, out, _ = run(capsys, "map", "check", str(tmp_path / "g"))
    assert code == 1 and "grid.max_rows 6: VASSAL counts 8 rows" in out and "VASSAL names otherwise" in out


def test_counter_sheet_prints_every_counter(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "counters", "sheet", str(FOLDER), "-o", str(tmp_path / "sheet.pdf"))
    assert code == 0 and "16 counters of highland" in out and (tmp_path / "sheet.pdf").stat().st_size > 10_000


def test_module_build_and_set_up(vmod: Path) -> None:
    assert vmod.stat().st_size > 10_000
    game = find_game(FOLDER)
    (scenario,) = load_scenarios(game)
    units = [(u.unit_id, u.formation) for u in load_game_manifest(game).units]
    setup = resolve_setup(scenario, load_game_map(game), units)
    assert dict(setup.hexes) == SETUP and dict(setup.boxes) == BOXED


# --- the rules, one by one -------------------------------------------------------------------------
def test_H3_an_hq_does_not_count_against_the_stacking_limit(rules: RulesPlugin) -> None:
    three_and_hq = [(f"f{i}", "clans", "infantry", "0205") for i in range(3)] + [("hq", "clans", "hq", "0205")]
    assert check(rules, *three_and_hq).legal
    r = check(rules, *three_and_hq, ("f4", "clans", "infantry", "0205"))
    assert findings(r) == [("H3", "0205: 4 Highland units in one hex (1 more not counted) (limit 3)")]


def test_H3_1_two_crown_guns_but_no_clan_guns(rules: RulesPlugin) -> None:
    assert check(rules, ("g1", "crown", "artillery", "0502"), ("g2", "crown", "artillery", "0502")).legal
    r = check(rules, ("g", "clans", "artillery", "0205"))
    assert findings(r) == [("H3.1", "0205: 1 Highland artillery units in one hex (limit 0 artillery)")]


def test_H3_2_crown_horse_stands_alone_but_clan_horse_may_stack(rules: RulesPlugin) -> None:
    assert check(rules, ("h", "clans", "cavalry", "0205"), ("f", "clans", "infantry", "0205")).legal
    r = check(rules, ("d", "crown", "cavalry", "0702"), ("f", "crown", "infantry", "0702"))
    assert [f.rule for f in r.findings] == ["H3.2"]


def test_H6_a_reinforcement_on_its_arrival_turn_outside_its_entry_hexes(rules: RulesPlugin) -> None:
    assert check(rules, ("crown-dragoons-2", "crown", "cavalry", "0801"), turn="Turn 2").legal
    r = check(rules, ("crown-dragoons-2", "crown", "cavalry", "0702"), turn="Turn 2")
    assert findings(r) == [("H6", "crown-dragoons-2 is at 0702 on its arrival turn Turn 2, not at its entry hexes "
                                  "(0801, 0802)")]


def test_H6_without_a_turn_the_schedule_is_listed_unchecked(rules: RulesPlugin) -> None:
    r = check(rules, ("crown-dragoons-2", "crown", "cavalry", "0702"))
    assert "H6 reinforcement schedule" in r.unchecked and not [f for f in r.findings if f.rule == "H6"]


def test_H5_a_unit_off_the_map_is_in_supply_when_off_map_says_in(rules: RulesPlugin) -> None:
    r = check(rules, ("f", "crown", "infantry", "0909"))
    assert [f.rule for f in r.findings] == ["H2"] and "off the map at 0909" in r.findings[0].message
    assert {k: v.value for k, v in r.supply.items()} == {"f": "in"}


def test_the_cliff_is_impassable_to_zones_of_control_and_supply(rules: RulesPlugin) -> None:
    m = rules.map
    assert not zoc_projects(rules, m.hex("0305"), m.hex("0304")) and zoc_projects(rules, m.hex("0305"), m.hex("0205"))
    assert not zoc_projects(rules, m.hex("0306"), m.hex("0305"))
    far = supply_search(rules, Context(rules, position_from_data(rules, {"game": "highland", "units": []})),
                        rules.data.supply.sides["clans"])  # type: ignore[union-attr]
    # from the north edge, 0305 is one step down through the cliff: the path goes around it
    assert far.distance(m.hex("0305")) == 2


# --- the engine (marker vassal) -------------------------------------------------------------------------



@pytest.mark.vassal
def test_engine_loads_the_module_with_no_error(vassal_engine: Any, vmod: Path) -> None:
    loaded = vassal_engine.module(vmod)
    assert_loads_cleanly(loaded)


@pytest.mark.vassal
def test_engine_names_every_hex_centre_with_rows_counted_upward(vassal_engine: Any, vmod: Path) -> None:
    names, labels = engine_hex_names(vassal_engine, vmod, FOLDER)
    assert names == labels and len(names) == 48


@pytest.mark.vassal
def test_engine_opens_the_set_up_with_every_unit_on_its_hex(opened: dict[str, Any]) -> None:
    from gazala_tools.vassal.gamelayout import MAIN_MAP

    placed = placed_by_map(opened)
    assert placed[MAIN_MAP] == SETUP and placed["Holding Boxes"] == BOXED


@pytest.mark.vassal
def test_referee_finds_nothing_in_the_engines_save_of_the_set_up(opened: dict[str, Any], vmod: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    code, report = referee_json(capsys, opened["saved"], vmod, FOLDER)
    assert code == 0 and report["legal"] and report["findings"] == [], report["findings"]


@pytest.mark.vassal
def test_referee_finds_H3_H3_1_and_H3_2_in_a_save_the_engine_wrote(
        moved: dict[str, Any], vmod: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert [(m["piece"], m["from"], m["to"]) for m in moved["moves"]] == [
        ("crown-guns-3", "0502", "0602"), ("crown-foot-2", "0502", "0702")]
    code, report = referee_json(capsys, moved["saved"], vmod, FOLDER)
    assert code == 1 and report["findings"] == FINDINGS
