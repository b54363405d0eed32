"""YAML merge keys (YAML 1.1, https://yaml.org/type/merge.html) in every data file: ``<<: *name`` or
``<<: [*a, *b]`` shares entries among similar counters or set-up entries. Keys written in the mapping
win, then the earlier mappings of the list; a bad merge is an error at its ``file:line:col`` and key
path; what is merged counts against the caps of every data YAML (:data:`yamlnodes.MAX_EXPANDED`)."""

from __future__ import annotations

import dataclasses
import re
import time
from pathlib import Path
from typing import Any

import pytest
import yaml

from gazala_tools.counters.loader import parse_manifest
from gazala_tools.counters.schema import ManifestError
from gazala_tools.errors import GameDataError
from gazala_tools.games.registry import load_game_folder
from gazala_tools.games.scenarios import Scenario, read_scenarios
from gazala_tools.mapdata.loader import load_map_text
from gazala_tools.yamlnodes import MAX_EXPANDED, Doc, compose_text, merged_via, plain

RIVER_WAR = Path(__file__).resolve().parents[1] / "games" / "river-war"


def load(text: str, *, libyaml: bool = False) -> Any:
    return plain(compose_text(text, "units.yaml", "units", GameDataError, libyaml=libyaml))


def refused(text: str) -> str:
    with pytest.raises(GameDataError) as info:
        compose_text(text, "units.yaml", "units", GameDataError)
    return str(info.value)


# --- what a merge key means ---------------------------------------------------------------------------
def test_a_merge_key_takes_every_entry_of_one_mapping() -> None:
    text = "units:\n  - &inf {type: infantry, size: III, strength: 3}\n  - {<<: *inf, id: it-1}\n"
    assert load(text) == {"units": [{"type": "infantry", "size": "III", "strength": 3},
                                    {"type": "infantry", "size": "III", "strength": 3, "id": "it-1"}]}


def test_a_list_of_mappings_is_merged_the_earlier_mapping_winning() -> None:
    text = ("units:\n  - &inf {type: infantry, strength: 3}\n  - &elite {strength: 4, morale: A}\n"
            "  - <<: [*inf, *elite]\n    id: it-2\n")
    assert load(text)["units"][2] == {"type": "infantry", "strength": 3, "morale": "A", "id": "it-2"}


def test_keys_written_in_the_mapping_win_wherever_they_are_written() -> None:
    text = "a: &a {type: infantry, size: III}\nb: {size: II, <<: *a}\nc: {<<: *a, size: I}\n"
    got = load(text)
    assert got == {"a": {"type": "infantry", "size": "III"}, "b": {"size": "II", "type": "infantry"},
                   "c": {"type": "infantry", "size": "I"}}
    assert list(got["b"]) == ["size", "type"] and list(got["c"]) == ["type", "size"]


def test_a_merged_mapping_brings_what_it_merged_itself() -> None:
    text = "a: &a {x: 1, y: 1}\nb: &b {<<: *a, y: 2, z: 2}\nc: {<<: *b, z: 3}\nd: {<<: {<<: *a, w: 4}}\n"
    got = load(text)
    assert got["c"] == {"x": 1, "y": 2, "z": 3} and got["d"] == {"x": 1, "y": 1, "w": 4}


def test_a_quoted_key_is_no_merge_key() -> None:
    assert load("a: &a {x: 1}\nb: {'<<': *a}\n") == {"a": {"x": 1}, "b": {"<<": {"x": 1}}}


def test_libyaml_merges_as_the_python_composer_does() -> None:
    text = "a: &a {x: 1, y: 1}\nb: &b {y: 2, z: 2}\nc: &c {<<: [*a, *b], z: 3}\nd: [{<<: *c}]\n"
    assert load(text, libyaml=True) == load(text) == {"a": {"x": 1, "y": 1}, "b": {"y": 2, "z": 2},
                                                      "c": {"x": 1, "y": 1, "z": 3}, "d": [{"x": 1, "y": 1, "z": 3}]}


# --- errors at their place ----------------------------------------------------------------------------
@pytest.mark.parametrize(("text", "message"), [
    ("units:\n  - {id: a, <<: 5}\n", "units.yaml:2:13: units[0].<<: '5' cannot be merged (expected a mapping or "
                                     "a list of mappings: <<: *name or <<: [*a, *b])"),
    ("units:\n  - {id: a, <<: }\n", "units.yaml:2:13: units[0].<<: '' cannot be merged"),
    ("a: &a [1, 2]\nb:\n  c: {<<: *a}\n", "units.yaml:3:7: b.c.<<[0]: '1' cannot be merged (expected a mapping: "
                                          "*name of one)"),
    ("a: &a {x: 1}\nb: {<<: [*a, [x]]}\n", "units.yaml:2:5: b.<<[1]: a list cannot be merged"),
])
def test_a_value_that_is_no_mapping_cannot_be_merged(text: str, message: str) -> None:
    assert refused(text).startswith(message)


def test_duplicate_keys_written_in_one_mapping_stay_an_error() -> None:
    assert refused("a: &a {x: 1}\nb: {<<: *a, <<: *a}\n") == (
        "units.yaml:2:13: b: duplicate key '<<' (expected one merge key; <<: [*a, *b] merges several mappings)")
    assert refused("a: &a {x: 1, x: 2}\nb: {<<: *a}\n") == "units.yaml:1:14: a: duplicate key 'x', merged by '<<' at 2:5"
    doc = Doc("units.yaml", GameDataError)
    node = compose_text("a: &a {x: 1}\nb: {<<: *a, y: 1, y: 2}\n", "units.yaml", "units", GameDataError)
    with pytest.raises(GameDataError, match=r"^units.yaml:2:19: b: duplicate key 'y'$"):
        doc.mapping(doc.mapping(node, "top")["b"], "b")


def test_an_unknown_key_that_was_merged_is_shown_where_it_is_written() -> None:
    doc = Doc("units.yaml", GameDataError)
    node = compose_text("units:\n  - &inf {type: infantry, sise: III}\n  - {<<: *inf, id: it-1}\n",
                        "units.yaml", "units", GameDataError)
    first, second = doc.seq(doc.mapping(node, "top")["units"], "units")
    keys = frozenset({"id", "type", "size"})
    with pytest.raises(GameDataError) as info:
        doc.mapping(second, "units[1]", keys)
    assert str(info.value) == ("units.yaml:2:27: units[1]: unknown key 'sise', merged by '<<' at 3:6 (did you mean "
                               "'size'?) (expected id, size, type)")
    with pytest.raises(GameDataError, match=r"^units.yaml:2:27: units\[0\]: unknown key 'sise' \(did you mean"):
        doc.mapping(first, "units[0]", keys)
    assert isinstance(second, yaml.MappingNode)
    assert [merged_via(second, i) is not None for i in range(3)] == [True, True, False]


# --- caps: what is merged counts --------------------------------------------------------------------------
def test_a_billion_laughs_through_merge_keys_is_refused_at_once() -> None:
    """Each level merges the one below and names it ten times: 10**9 values expanded."""
    levels = ["l0: &l0 {" + ", ".join(f"k{i}: x" for i in range(10)) + "}"]
    levels += [f"l{n}: &l{n} {{<<: *l{n - 1}, " + ", ".join(f"n{n}k{i}: *l{n - 1}" for i in range(10)) + "}"
               for n in range(1, 10)]
    start = time.monotonic()
    message = refused("\n".join(levels) + "\n")
    assert "with its aliases expanded" in message and f"at most {MAX_EXPANDED:,}" in message
    assert time.monotonic() - start < 10


def test_merges_nested_in_merges_are_capped_by_what_they_look_at() -> None:
    """``<<: {<<: {<<: *big}}`` 60 deep names ``big`` once (within the alias caps) but merges it 60
    times: the entries merged count against MAX_EXPANDED, so the merging stops there."""
    keys = MAX_EXPANDED // 100
    text = ("big: &big {" + ", ".join(f"k{i}: 1" for i in range(keys)) + "}\n"
            "x: " + "{<<: " * 60 + "*big" + "}" * 60 + "\n")
    with pytest.raises(ManifestError, match=re.escape(f"more than {MAX_EXPANDED:,} values with its merge keys (<<) "
                                                      "applied")):
        parse_manifest(text, file="counters.yaml")  # libyaml composes it
    below = "big: &big {k: 1}\nx: " + "{<<: " * 60 + "*big" + "}" * 60 + "\n"
    assert load(below) == {"big": {"k": 1}, "x": {"k": 1}}


# --- the readers of a game folder: merged is as written out -----------------------------------------------
def _edit(file: str, old: str, new: str) -> str:
    text = (RIVER_WAR / file).read_text(encoding="utf-8")
    assert old in text
    return text.replace(old, new, 1)


RIFLES = ('- {id: red-inf-1, nationality: r, formation: "1st Rifles", designation: "1/1", type: infantry, size: II, '
          'values: [3, 4, 4], provenance: original}\n'
          '  - {id: red-inf-2, nationality: r, formation: "1st Rifles", designation: "2/1", type: infantry, size: II, '
          'values: [3, 4, 4], provenance: original}\n'
          '  - {id: red-inf-3, nationality: r, formation: "1st Rifles", designation: "3/1", type: infantry, size: II, '
          'values: [3, 4, 4], provenance: original}\n')
RIFLES_MERGED = ('- &rifles {id: red-inf-1, nationality: r, formation: "1st Rifles", designation: "1/1", '
                 'type: infantry, size: II, values: [3, 4, 4], provenance: original}\n'
                 '  - {<<: *rifles, id: red-inf-2, designation: "2/1"}\n'
                 '  - <<: [{designation: "3/1"}, *rifles]\n    id: red-inf-3\n')


def test_a_counter_manifest_with_merge_keys_reads_as_the_one_written_out() -> None:
    game = load_game_folder(RIVER_WAR)
    file = RIVER_WAR / "counters.yaml"
    merged = parse_manifest(_edit("counters.yaml", RIFLES, RIFLES_MERGED), file=file, game=game)
    assert merged == parse_manifest(file.read_text(encoding="utf-8"), file=file, game=game)
    assert [c.id for c in merged.counters][:3] == ["red-inf-1", "red-inf-2", "red-inf-3"]


def test_a_map_with_merge_keys_reads_as_the_one_written_out() -> None:
    game = load_game_folder(RIVER_WAR)
    file = RIVER_WAR / "map.yaml"
    text = _edit("map.yaml", '    - {terrain: marsh, source: test, hexes: ["F-3", "F-4"]}\n'
                             '    - {terrain: lake, source: test, hexes: ["B-8"]}\n',
                 '    - &test-terrain {terrain: marsh, source: test, hexes: ["F-3", "F-4"]}\n'
                 '    - {<<: *test-terrain, terrain: lake, hexes: ["B-8"]}\n')
    assert load_map_text(text, file, game=game) == load_map_text(file.read_text(encoding="utf-8"), file, game=game)


def test_a_scenario_merged_from_another_reads_as_the_one_written_out(tmp_path: Path) -> None:
    """A variant of a scenario: the same set-up and tracks, its own id and name."""
    def unplaced(s: Scenario) -> Scenario:  # each placement's and track's line:column left out
        return dataclasses.replace(s, file="", setup=tuple(dataclasses.replace(p, at=None) for p in s.setup),
                                   tracks=tuple(dataclasses.replace(t, at=None) for t in s.tracks))

    file = tmp_path / "scenarios.yaml"
    file.write_text(_edit("scenarios.yaml", "  - id: the-ford\n", "  - &the-ford\n    id: the-ford\n")
                    + "  - <<: *the-ford\n    id: the-ford-at-night\n    name: The Ford at night\n", encoding="utf-8")
    original, variant = read_scenarios(file)
    (written,) = read_scenarios(RIVER_WAR / "scenarios.yaml")
    assert variant == dataclasses.replace(original, id="the-ford-at-night", name="The Ford at night")
    assert unplaced(original) == unplaced(written)
