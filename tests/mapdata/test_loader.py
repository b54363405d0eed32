"""The map-data format: round trips, the JSON Schema, and errors that name file, line and value."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from gazala_tools.errors import MapDataError
from gazala_tools.games import builtin_ids, find_game
from gazala_tools.mapdata import GameMap, dump_map, load_map, load_map_text, map_to_data
from gazala_tools.mapdata.loader import map_file
from gazala_tools.mapdata.writer import compress

GAMES = builtin_ids()

SCHEMA = json.loads((Path(__file__).resolve().parents[2] / "gazala_tools/mapdata/schema.json").read_text())

MINIMAL = """\
game: test
provenance: reconstructed
grid:
  orientation: flat
  numbering: vassal-default
  columns: [1, 6]
  rows: [1, 5]
  pixels: {dx: 62.35, dy: 72.0, x0: 60, y0: 90, board_width: 500, board_height: 500}
terrain:
  default: clear
  types: {clear: {}, sea: {impassable: true}}
"""
KINDS = "hexside-kinds: {minefield: {owned: true}, escarpment: {directed: true}, fortified: {}, river: {}}\n"


@pytest.mark.parametrize("game", GAMES)
def test_yaml_load_dump_load_is_equal(game: str) -> None:
    m = load_map(game)
    text = dump_map(m)
    again = load_map_text(text, f"{game}.yaml", game=find_game(game))
    assert again == m
    assert dump_map(again) == text


@pytest.mark.parametrize("game", GAMES)
def test_label_hex_label_round_trip_for_every_hex(game: str) -> None:
    m = load_map(game)
    assert len(m.hexes()) == len(set(m.hexes()))
    for h in m.hexes():
        assert m.hex(m.label(h)) == h


@pytest.mark.parametrize("game", GAMES)
def test_map_files_and_their_dumps_follow_the_json_schema(game: str) -> None:
    validator = jsonschema.Draft202012Validator(SCHEMA)
    raw = yaml.safe_load(map_file(game).read_text(encoding="utf-8"))
    assert [e.message for e in validator.iter_errors(raw)] == []
    dumped = yaml.safe_load(dump_map(load_map(game)))
    assert [e.message for e in validator.iter_errors(dumped)] == []


def test_schema_documents_every_top_level_key_the_loader_accepts() -> None:
    from gazala_tools.mapdata.loader import TOP_KEYS

    assert set(SCHEMA["properties"]) == set(TOP_KEYS)


def test_minimal_map_loads_with_defaults() -> None:
    m = load_map_text(MINIMAL)
    assert len(m.hexes()) == 30
    assert m.terrain(m.hex("0303")) == "clear"
    assert m.boxes == () and m.zones == ()


def _error(text: str) -> MapDataError:
    with pytest.raises(MapDataError) as exc:
        load_map_text(text, "bad.yaml")
    return exc.value


def test_malformed_yaml_names_file_and_line() -> None:
    err = _error(MINIMAL + "zones: [\n  - {name: x\n")
    assert str(err).startswith("bad.yaml:") and "malformed YAML" in str(err)
    assert err.place is not None and int(err.place.split(":")[0]) >= 12


def test_unknown_key_names_line_and_key() -> None:
    err = _error(MINIMAL + "colour: red\n")
    assert err.place == "12:1" and "'colour'" in str(err)


def test_off_map_hex_names_line_and_label() -> None:
    err = _error(MINIMAL + "places:\n  - {name: X, source: s, hexes: ['0101', '0909']}\n")
    assert err.place is not None and err.place.startswith("13:")
    assert "'0909'" in str(err) and "not on the map" in str(err)


def test_malformed_label_is_quoted() -> None:
    err = _error(MINIMAL + "places:\n  - {name: X, source: s, hexes: ['01x1']}\n")
    assert "01x1" in str(err) and err.place is not None


def test_path_hexes_must_be_adjacent() -> None:
    err = _error(MINIMAL + "path-kinds: {road: {}}\npaths:\n  - {name: R, kind: road, source: s, hexes: ['0101', '0103']}\n")
    assert "not adjacent" in str(err) and err.place is not None and err.place.startswith("14:")


def test_path_kinds_are_the_maps_own_words() -> None:
    """A path names a kind the map declares (``path-kinds:``), like a hexside names a hexside kind:
    a railway is as good as a road, and a typo says which kind was meant."""
    rail = "path-kinds: {railway: {description: the line}}\n"
    m = load_map_text(MINIMAL + rail + "paths:\n  - {name: L, kind: railway, source: s, hexes: ['0101', '0102']}\n")
    assert [p.kind.value for p in m.paths] == ["railway"] and m.path_sides("railway") == m.path_sides()
    assert m.info()["paths"] == {"railway": 1}
    err = _error(MINIMAL + rail + "paths:\n  - {name: L, kind: railwya, source: s, hexes: ['0101', '0102']}\n")
    assert str(err).startswith("bad.yaml:14:21: path L.kind: 'railwya' is not a path kind of this map "
                               "(did you mean 'railway'?)")
    err = _error(MINIMAL + "paths:\n  - {name: R, kind: road, source: s, hexes: ['0101', '0102']}\n")
    assert "'road' is not a path kind of this map" in str(err) and "declare it under path-kinds" in str(err)


def test_escarpment_needs_an_up_side() -> None:
    err = _error(MINIMAL + KINDS + "hexsides:\n  - {name: E, kind: escarpment, source: s, sides: ['0101/0102']}\n")
    assert "0101/0102" in str(err) and "up side" in str(err)


def test_minefield_needs_an_owner() -> None:
    err = _error(MINIMAL + KINDS + "boxes:\n  - {name: M, kind: minefield, source: s, hexes: ['0202']}\n")
    assert "owner" in str(err)


def test_duplicate_zone_names_are_refused() -> None:
    z = "  - {name: A, source: s, hexes: ['0101']}\n"
    err = _error(MINIMAL + "zones:\n" + z + z)
    assert "duplicate" in str(err) and err.place is not None and err.place.startswith("14:")


def test_unknown_terrain_is_refused() -> None:
    text = MINIMAL + "  hexes:\n    - {terrain: swamp, hexes: ['0101']}\n"
    err = _error(text)
    assert "'swamp'" in str(err) and "clear" in str(err)


def test_column_ranges_expand_and_must_run_down_one_column() -> None:
    m = load_map_text(MINIMAL + "zones:\n  - {name: A, source: s, hexes: ['0102..0104']}\n")
    assert {m.label(h) for h in m.zone("A").hexes} == {"0102", "0103", "0104"}
    err = _error(MINIMAL + "zones:\n  - {name: A, source: s, hexes: ['0102..0204']}\n")
    assert "one column" in str(err)


def test_edges_add_the_passable_edge_hexes() -> None:
    text = (
        MINIMAL
        + "  hexes:\n    - {terrain: sea, hexes: ['0101']}\nzones:\n  - {name: N, source: s, edges: [N]}\n"
    )
    m = load_map_text(text)
    assert {m.label(h) for h in m.zone("N").hexes} == {"0201", "0301", "0401", "0501", "0601"}


def test_extends_replaces_and_removes_named_entries(tmp_path: Path) -> None:
    base = tmp_path / "base.yaml"
    base.write_text(
        MINIMAL
        + "zones:\n  - {name: A, source: s, hexes: ['0101']}\n  - {name: B, source: s, hexes: ['0102']}\n"
    )
    child = tmp_path / "child.yaml"
    child.write_text(
        "game: child\nextends: base.yaml\nprovenance: reconstructed\nremove: {zones: [B]}\n"
        "zones:\n  - {name: A, source: t, hexes: ['0303']}\n  - {name: C, source: t, hexes: ['0404']}\n"
    )
    m = load_map(child)
    assert m.game == "child"
    assert [z.name for z in m.zones] == ["A", "C"]
    assert m.zone("A").hexes == frozenset({m.hex("0303")})


def test_unknown_game_is_a_one_line_error() -> None:
    from gazala_tools.errors import GazalaError

    with pytest.raises(GazalaError) as exc:
        load_map("no-such-game")
    assert "no-such-game" in str(exc.value) and "\n" not in str(exc.value)


def _grid_only(game: str) -> dict[str, object]:
    data = map_to_data(load_map(game))
    terrain = {"default": data["terrain"]["default"], "types": data["terrain"]["types"]}
    return {"game": "p", "provenance": "reconstructed", "grid": {**data["grid"], "numbering": game},
            "terrain": terrain}


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_compressed_hex_lists_expand_to_the_same_set(data: st.DataObject) -> None:
    game = data.draw(st.sampled_from(GAMES))
    m = load_map(game)
    picked = data.draw(st.sets(st.sampled_from(m.hexes()), min_size=1, max_size=60))
    doc = dict(_grid_only(game))
    doc["zones"] = [{"name": "P", "source": "test", "hexes": compress(m.grid, picked)}]
    again = load_map_text(yaml.safe_dump(doc), "p.yaml")
    assert again.zone("P").hexes == frozenset(picked)


@settings(max_examples=40, deadline=None)
@given(
    orientation=st.sampled_from(["flat", "pointy"]),
    scheme=st.sampled_from(["vassal-default", *GAMES]),
    cols=st.integers(min_value=1, max_value=12),
    rows=st.integers(min_value=1, max_value=12),
    first_col=st.integers(min_value=0, max_value=3),
    first_row=st.integers(min_value=1, max_value=3),
)
def test_random_grids_round_trip_labels_and_yaml(
    orientation: str, scheme: str, cols: int, rows: int, first_col: int, first_row: int
) -> None:
    text = (
        MINIMAL.replace("orientation: flat", f"orientation: {orientation}")
        .replace("numbering: vassal-default", f"numbering: {scheme}")
        .replace("columns: [1, 6]", f"columns: [{first_col}, {first_col + cols - 1}]")
        .replace("rows: [1, 5]", f"rows: [{first_row}, {first_row + rows - 1}]")
    )
    m = load_map_text(text)
    assert len(m.hexes()) == cols * rows
    for h in m.hexes():
        assert m.hex(m.label(h)) == h
    assert load_map_text(dump_map(m)) == m


def test_map_to_data_is_plain_data(rg: GameMap) -> None:
    data = map_to_data(rg)
    assert json.loads(json.dumps(data)) == data


@pytest.mark.parametrize(
    "entry",
    [
        "paths:\n  - {name: R, source: s, hexes: ['0101', '0102']}\n",
        "boxes:\n  - {name: B, kind: fortified, hexes: ['0101']}\n",
        "hexsides:\n  - {name: H, kind: river, source: s}\n",
        "zones:\n  - {hexes: ['0101'], source: s}\n",
    ],
)
def test_missing_required_keys_name_the_entry_line(entry: str) -> None:
    err = _error(MINIMAL + entry)
    assert "missing" in str(err) and err.place is not None and err.place.startswith("13:")


def test_non_utf8_map_is_a_one_line_error(tmp_path: Path) -> None:
    (tmp_path / "map.yaml").write_bytes(b"game: \xff\xfe\n")
    with pytest.raises(MapDataError) as exc:
        load_map(tmp_path)
    assert "UTF-8" in str(exc.value)


def test_a_hexside_kind_is_the_maps_own_word() -> None:
    """A kind the map declares (a ``cliff``, directed) reads; one it does not is refused with "did you mean"."""
    text = MINIMAL + KINDS.replace("river: {}}", "river: {}, cliff: {directed: true, impassable: true}}")
    m = load_map_text(text + "hexsides:\n  - {name: C, kind: cliff, source: s, sides: ['0101>0102']}\n")
    assert m.climbs(m.hex("0101"), m.hex("0102"), "cliff") and not m.climbs(m.hex("0102"), m.hex("0101"), "cliff")
    assert m.impassable_sides == m.feature_sides("cliff") and len(m.impassable_sides) == 1
    assert m.info()["hexside_features"] == {"minefield": 0, "escarpment": 0, "fortified": 0, "river": 0, "cliff": 1}
    err = _error(MINIMAL + KINDS + "hexsides:\n  - {name: C, kind: clif, source: s, sides: ['0101/0102']}\n")
    assert "'clif' is not a hexside kind of this map (did you mean 'cliff'?)" not in str(err)  # cliff undeclared here
    assert "'clif' is not a hexside kind" in str(err) and ":14:" in str(err)
    err = _error(text + "hexsides:\n  - {name: C, kind: clif, source: s, sides: ['0101>0102']}\n")
    assert "(did you mean 'cliff'?)" in str(err)


def test_an_owned_kind_needs_an_owner_and_a_box_its_kind() -> None:
    err = _error(MINIMAL + KINDS + "boxes:\n  - {name: B, source: s, hexes: ['0101']}\n")
    assert "missing 'kind'" in str(err)
    err = _error(MINIMAL + KINDS + "boxes:\n  - {name: B, kind: minefield, source: s, hexes: ['0101']}\n")
    assert "a minefield needs an owner" in str(err)
