"""The game folder format: game.yaml read into a Game, the registry, and errors naming file:line."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import jsonschema
import pytest
import yaml

from gazala_tools.errors import GameDataError, GazalaError
from gazala_tools.games import builtin_games, builtin_ids, default_game_id, find_game
from gazala_tools.games.loader import TOP_KEYS
from gazala_tools.mapdata.loader import load_game_map
from gazala_tools.numbering import Numbering

SCHEMA = json.loads((Path(__file__).resolve().parents[2] / "gazala_tools/games/schema.json").read_text())
RIVER_WAR = Path(__file__).resolve().parent / "river-war"

MINIMAL = """\
id: tiny
name: Tiny Game
provenance: original
sides:
  - {id: red, name: Red, color: "#c03030"}
  - {id: blue, name: Blue}
turns: {count: 3, label: "Turn {n}"}
numbering: {hType: A, hOff: 0}
"""


def folder(tmp_path: Path, text: str = MINIMAL) -> Path:
    (tmp_path / "game.yaml").write_text(text, encoding="utf-8")
    return tmp_path


def test_builtin_games_are_the_index_default_first() -> None:
    assert builtin_ids()[0] == default_game_id()
    assert [g.id for g in builtin_games()] == list(builtin_ids())
    for g in builtin_games():
        assert g.builtin and g.folder.name == g.id and g.map_file.is_file() and g.counters_file.is_file()


def schema_errors(raw: object) -> list[str]:
    return [f"{'.'.join(map(str, e.absolute_path))}: {e.message}"
            for e in jsonschema.Draft202012Validator(SCHEMA).iter_errors(raw)]


@pytest.mark.parametrize("game", [*builtin_ids(), str(RIVER_WAR)])
def test_game_files_follow_the_json_schema_rules_section_included(game: str) -> None:
    raw = yaml.safe_load(find_game(game).source_file.read_text(encoding="utf-8"))  # type: ignore[union-attr]
    assert raw["rules"] and schema_errors(raw) == []


def test_schema_documents_every_top_level_key_the_loader_accepts() -> None:
    assert set(SCHEMA["properties"]) == set(TOP_KEYS)


def test_schema_of_the_rules_section_names_what_the_reader_reads() -> None:
    from gazala_tools.referee import ruledata as rd

    defs = SCHEMA["$defs"]
    assert set(defs["rules"]["properties"]) == rd.GENERIC_KEYS | {"plugin"} == set(defs["rules"]["then"]["propertyNames"]["enum"])
    assert set(defs["hexes"]["properties"]) == rd.HEXSET_KEYS and defs["edge"]["enum"] == list(rd.EDGES)
    assert set(defs["trace"]["properties"]) == rd.TRACE_KEYS and defs["trace-block"]["enum"] == list(rd.TRACE_BLOCKS)
    assert "enum" not in defs["marker"]  # the game's own markers (rules.markers): no closed list
    assert "enum" not in defs["hexside-kind"] and "enum" not in defs["path-kind"]  # the map's own words


#: (River War's game.yaml text, a bad replacement, where the schema says so): the schema refuses what the reader does
BAD_RULES = [
    ("  stacking:", "  stackin:", "rules"),
    ("limit: {red: 2, blue: 3}", "limit: {red: 0, blue: 3}", "rules.stacking.limit"),
    ("except-along: [road], what", "except-along: [Road], what", "rules.prohibited.0.except-along"),
    ("negated-by-friendly: [supply]", "negated-by-friendly: [supply]\n    unless-markers: [disrupted]", "rules.zoc"),
    ("disrupted: {name: Disrupted, zoc: false}", "disrupted: {name: Disrupted, movement: half}",
     "rules.markers.disrupted.movement"),
    ("blocked-by: [enemy-units,", "blocked-by: [enemies,", "rules.supply.trace.blocked-by"),
    ("max-length: 6", "max-length: -1", "rules.supply.trace.max-length"),
    ('rule: "R2"', 'rule: "R2"\n    bogus: 1', "rules.boxes"),
    ("units: [blue-tank-2], turn: 3", "turn: 3", "rules.reinforcements.schedule.0"),
    ("red: {sources: {zones: [red-base]}, goal", "red: {goal", "rules.supply.sides.red"),
    ('{rule: "T2", units:', "{units:", "rules.prohibited.0"),
    # a fact stated once: a kind of hex is the chart's (a P cell), the supply marker flow the markers' roles
    ('cross: [river], except-along', "enter: {terrain: [marsh]}, cross: [river], except-along", "rules.prohibited.0.enter"),
    ('    rule: "P1"\n', '    rule: "P1"\n    markers: true\n', "rules.supply"),
]


@pytest.mark.parametrize(("old", "new", "where"), BAD_RULES, ids=[b[1][:24] for b in BAD_RULES])
def test_schema_refuses_a_bad_rules_section_as_the_reader_does(tmp_path: Path, old: str, new: str, where: str) -> None:
    from gazala_tools.rules import rules_for

    text = (RIVER_WAR / "game.yaml").read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    shutil.copytree(RIVER_WAR, tmp_path / "g")
    (tmp_path / "g" / "game.yaml").write_text(text.replace(old, new), encoding="utf-8")
    errors = schema_errors(yaml.safe_load((tmp_path / "g" / "game.yaml").read_text(encoding="utf-8")))
    assert errors and all(e.startswith(where) for e in errors), errors
    with pytest.raises(GameDataError, match=r"game\.yaml:\d+:\d+: rules"):
        rules_for(find_game(tmp_path / "g"))


def test_a_plugin_adds_keys_the_schema_leaves_to_it() -> None:
    rules = {"plugin": "my_rules", "capital": {"rule": "C1"}}
    game = {**yaml.safe_load(MINIMAL), "rules": rules}
    assert schema_errors(game) == []
    assert schema_errors({**game, "rules": {"capital": {"rule": "C1"}}}) != []  # no plugin: generic keys only


def test_a_folder_is_a_game(tmp_path: Path) -> None:
    g = find_game(folder(tmp_path))
    assert g.id == "tiny" and g.side_ids == ("red", "blue") and g.side("red").color == "#c03030"
    assert g.turns == ("Turn 1", "Turn 2", "Turn 3")
    assert g.numbering == Numbering(h_type="A", h_off=0)
    assert not g.builtin and g.plugin is None
    assert find_game(tmp_path / "game.yaml") is g  # read once, cached


def test_turn_labels_may_be_listed(tmp_path: Path) -> None:
    g = find_game(folder(tmp_path, MINIMAL.replace('{count: 3, label: "Turn {n}"}', '["Dawn", "Dusk"]')))
    assert g.turns == ("Dawn", "Dusk")


def test_a_name_from_inside_a_data_file_never_opens_a_path(tmp_path: Path) -> None:
    folder(tmp_path)
    with pytest.raises(GameDataError) as exc:
        find_game(str(tmp_path), allow_path=False)
    assert "built-in game id" in str(exc.value) and "folder" not in exc.value.expected  # type: ignore[operator]
    with pytest.raises(GameDataError):
        find_game("../../../../etc/passwd", allow_path=False)


def test_unknown_game_is_one_line_naming_the_builtin_ids() -> None:
    with pytest.raises(GazalaError) as exc:
        find_game("no-such-game")
    msg = str(exc.value)
    assert "no-such-game" in msg and "gazala-rg" in msg and "\n" not in msg


@pytest.mark.parametrize(
    ("change", "place", "words"),
    [
        (("id: tiny", "id: Tiny"), "1:5", "not an id"),
        (("  - {id: blue, name: Blue}\n", ""), "5:3", "at least two sides"),
        (("{id: blue, name: Blue}", "{id: red, name: Blue}"), "6:10", "listed twice"),
        (('color: "#c03030"', 'color: "red"'), "5:33", "not a colour"),
        (('{count: 3, label: "Turn {n}"}', '{count: 0}'), "7:16", "out of range"),
        (('{count: 3, label: "Turn {n}"}', '["A", "a"]'), "7:8", "listed twice"),
        (("numbering: {hType: A, hOff: 0}", "numbering: {hType: A, hOff: 99999999999999999999}"), "8:29", "integer"),
        (("numbering: {hType: A, hOff: 0}", "numbering: {hKind: A}"), "8:13", "unknown key"),
        (("provenance: original\n", "provenance: original\ncolour: red\n"), "4:1", "unknown key 'colour'"),
        (("id: tiny\n", "id: tiny\nrules: {plugin: ../evil.py}\n"), "2:17", "not a plugin reference"),
    ],
)
def test_errors_name_file_line_column_and_the_value(tmp_path: Path, change: tuple[str, str], place: str, words: str) -> None:
    text = MINIMAL.replace(*change)
    assert text != MINIMAL
    with pytest.raises(GameDataError) as exc:
        find_game(folder(tmp_path, text))
    assert exc.value.place == place and words in str(exc.value) and "game.yaml" in str(exc.value)


def test_malformed_yaml_and_deep_nesting_are_clean_errors(tmp_path: Path) -> None:
    with pytest.raises(GameDataError, match="malformed YAML"):
        find_game(folder(tmp_path, "id: [\n"))
    with pytest.raises(GameDataError, match="nested too deeply"):
        find_game(folder(tmp_path, "id: " + "[" * 5000 + "]" * 5000 + "\n"))


def test_the_map_of_a_game_folder_takes_the_games_numbering_and_states_none(tmp_path: Path) -> None:
    shutil.copytree(find_game("batalha").folder, tmp_path, dirs_exist_ok=True)
    g = find_game(tmp_path)
    assert load_game_map(g).grid.label(load_game_map(g).hexes()[0]) == load_game_map(find_game("batalha")).grid.label(load_game_map(g).hexes()[0])
    text = (tmp_path / "map.yaml").read_text().replace("  orientation: flat", "  orientation: flat\n  numbering: vassal-default")
    (tmp_path / "map.yaml").write_text(text)
    with pytest.raises(GazalaError, match=r"stated in its game\.yaml"):
        load_game_map(find_game(tmp_path))


def test_data_paths_never_leave_the_folder(tmp_path: Path) -> None:
    g = find_game(folder(tmp_path))
    assert g.file("art/a.png") == (tmp_path / "art/a.png").resolve()
    with pytest.raises(GazalaError, match="leaves the game folder"):
        g.file("../outside.png")


def test_game_cli_lists_and_shows(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from gazala_tools.cli import main

    assert main(["game", "list", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert [g["id"] for g in listed] == list(builtin_ids())
    assert main(["game", "show", str(folder(tmp_path)), "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["id"] == "tiny" and shown["files"]["map"] is None and shown["numbering"]["hType"] == "A"
    assert main(["game", "show", "nope"]) == 2
    assert "no game 'nope'" in capsys.readouterr().err
