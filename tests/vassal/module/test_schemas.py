"""The data formats of the module build: every file of ours follows its JSON Schema, and each schema
documents exactly the keys its loader accepts."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
import yaml

from gazala_tools.games import builtin_ids, find_game, moduleyaml
from gazala_tools.games import scenarios as scenarios_loader
from gazala_tools.games import tables as tables_loader
from gazala_tools.vassal.module import config as config_loader

ROOT = Path(__file__).resolve().parents[3]
SCHEMAS = {
    "scenarios": ROOT / "gazala_tools/games/scenarios.schema.json",
    "tables": ROOT / "gazala_tools/games/tables.schema.json",
    "module": ROOT / "gazala_tools/vassal/module/config.schema.json",
}


def _schema(kind: str) -> dict:  # type: ignore[type-arg]
    return json.loads(SCHEMAS[kind].read_text(encoding="utf-8"))


def _errors(kind: str, file: Path) -> list[str]:
    raw = yaml.safe_load(file.read_text(encoding="utf-8"))
    return [f"{list(e.path)}: {e.message}" for e in jsonschema.Draft202012Validator(_schema(kind)).iter_errors(raw)]


@pytest.mark.parametrize("game", builtin_ids())
def test_our_game_files_follow_their_schemas(game: str) -> None:
    g = find_game(game)
    assert _errors("scenarios", g.scenarios_file) == []
    assert _errors("tables", g.tables_file) == []
    assert g.module_config is not None and _errors("module", g.module_config) == []


def test_the_synthetic_game_follows_the_schemas(tmp_path: Path) -> None:
    from tools.synthgame import write_game

    g = write_game(tmp_path / "g")
    for kind, name in (("scenarios", "scenarios.yaml"), ("tables", "tables.yaml"), ("module", "module.yaml")):
        assert _errors(kind, g.folder / name) == [], name


def test_schemas_document_every_key_the_loaders_accept() -> None:
    s = _schema("scenarios")
    assert set(s["properties"]) == set(scenarios_loader.TOP_KEYS)
    item = s["properties"]["scenarios"]["items"]
    assert set(item["properties"]) == set(scenarios_loader.SCENARIO_KEYS)
    assert set(s["$defs"]["placement"]["properties"]) == set(scenarios_loader.PLACEMENT_KEYS)
    assert set(item["properties"]["tracks"]["items"]["properties"]) == set(scenarios_loader.TRACK_KEYS)
    t = _schema("tables")
    assert set(t["properties"]["tables"]["items"]["properties"]) == set(tables_loader.TABLE_KEYS)
    m = _schema("module")["properties"]
    assert set(m) == set(config_loader.TOP_KEYS)
    for key, keys in (("board", config_loader.BOARD_KEYS), ("counters", config_loader.COUNTER_KEYS),
                      ("palette", config_loader.PALETTE_KEYS), ("prototypes", config_loader.PROTO_KEYS),
                      ("cups", config_loader.CUP_KEYS), ("track", config_loader.TRACK_KEYS),
                      ("boxes", moduleyaml.BOXES_KEYS), ("charts", config_loader.CHART_KEYS)):
        assert set(m[key]["properties"]) == set(keys), key
    assert set(m["dice"]["items"]["properties"]) == set(config_loader.DICE_KEYS)
    assert set(m["help"]["items"]["properties"]) == set(config_loader.HELP_KEYS)
    assert set(m["prototypes"]["properties"]["status"]["items"]["properties"]) == set(config_loader.STATUS_KEYS)
    assert set(m["prototypes"]["properties"]["facing"]["items"]["properties"]) == set(config_loader.FACING_KEYS)
