"""The position YAML format: manifest and inline units, breaches, errors naming file and place."""

from __future__ import annotations

import pytest

from gazala_tools.errors import GazalaError
from gazala_tools.referee.position import Vocabulary, parse_position, read_yaml
from gazala_tools.rules.rg import (
    ACTIVATIONS,
    BREACHES,
    BreachState,
    activations_of,
    breaches_of,
    read_activations,
    read_breaches,
    write_activations,
    write_breaches,
)

#: RG's own position state (its rules plugin's ``state_readers`` / ``state_writers``)
RG_STATE = {BREACHES: read_breaches, ACTIVATIONS: read_activations}
RG_WRITERS = {BREACHES: write_breaches, ACTIVATIONS: write_activations}

#: RG's markers (its game.yaml ``rules.markers``): a position names no other
RG_MARKERS = ("disrupted", "out-of-supply", "isolated", "used")
MARKERS_ONLY = Vocabulary(markers=RG_MARKERS)

MANIFEST = {"axis-21pz-5-1": {"side": "axis", "type": "armor", "formation": "21 PZ", "steps": 3}}

EXAMPLE = """\
game: gazala-rg
turn: May 29
units:
  - {id: axis-21pz-5-1, hex: "1621"}
  - {id: x1, side: axis, type: armor, formation: 21 PZ, hex: "1321", steps: 3}
  - {id: b1, side: allied, type: infantry, formation: 3 Ind, hex: "1520", markers: [out-of-supply]}
  - {id: r1, side: allied, type: infantry, box: June 3-4}
breaches: [{hexside: "1217/1316", state: breached}]
activations: {21 PZ: 2}
"""


def test_issue_example_loads(tmp_path, rg_map):
    f = tmp_path / "p.yaml"
    f.write_text(EXAMPLE)
    p = parse_position(read_yaml(f), labels=rg_map.grid, manifest=MANIFEST, file=f, state_readers=RG_STATE)
    assert p.turn == "May 29" and [u.id for u in p.units] == ["axis-21pz-5-1", "x1", "b1", "r1"]
    u = p.unit("axis-21pz-5-1")
    assert (u.side, u.type, u.formation, u.steps, rg_map.label(u.hex)) == ("axis", "armor", "21 PZ", 3, "1621")
    assert p.unit("b1").markers == {"out-of-supply"} and p.unit("r1").box == "June 3-4"
    [breach] = breaches_of(p)
    assert breach.state is BreachState.BREACHED and rg_map.grid.hexside_label(breach.hexside) == "1217/1316"
    assert activations_of(p) == {"21 PZ": 2}


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ({"units": []}, "missing 'game'"),
        ({"game": "gazala-rg"}, "missing 'units'"),
        ({"game": "gazala-rg", "units": [{"id": "nope", "hex": "0101"}]}, "units[0].id: unit 'nope' is not in the manifest"),
        ({"game": "gazala-rg", "units": [{"id": "axis-21pz-5-1", "side": "allied", "hex": "0101"}]},
         "units[0].side: unit 'axis-21pz-5-1': 'allied' disagrees with the manifest"),
        ({"game": "gazala-rg", "units": [{"id": "axis-21pz-5-1"}]}, "exactly one of hex/box"),
        ({"game": "gazala-rg", "units": [{"id": "axis-21pz-5-1", "hex": "01x4"}]}, "units[0].hex"),
        ({"game": "gazala-rg", "units": [{"id": "axis-21pz-5-1", "hex": "0101", "markers": ["drunk"]}]},
         "units[0].markers[0]: unit 'axis-21pz-5-1': unknown marker 'drunk'"),
        ({"game": "gazala-rg", "units": [{"id": "axis-21pz-5-1", "hex": "0101"}] * 2}, "units[1]: duplicate"),
        ({"game": "gazala-rg", "units": [], "breaches": [{"hexside": "0101/0303"}]}, "breaches[0]: "),
        ({"game": "gazala-rg", "units": [], "breaches": [{"hexside": "0101/0102", "state": "x"}]}, "breach state"),
        ({"game": "gazala-rg", "units": [], "colour": "red"}, "unknown key 'colour'"),
    ],
)
def test_bad_positions_name_file_and_place(rg_map, data, words):
    with pytest.raises(GazalaError) as exc:
        parse_position(data, labels=rg_map.grid, manifest=MANIFEST, file="pos.yaml", state_readers=RG_STATE,
                       vocabulary=MARKERS_ONLY)
    assert words in str(exc.value) and str(exc.value).startswith("pos.yaml")


#: each bad position YAML, the text its error must point at (its first occurrence), and what it says
BAD_TEXT = [
    ('game: gazala-rg\nunits:\n  - {id: nope, hex: "0101"}\n', "nope",
     "units[0].id: unit 'nope' is not in the manifest"),
    ('game: gazala-rg\nunits:\n  - {id: axis-21pz-5-l, hex: "0101"}\n', "axis-21pz-5-l",
     "(did you mean 'axis-21pz-5-1'?)"),
    ('game: gazala-rg\nunits:\n  - {id: axis-21pz-5-1, side: allied, hex: "0101"}\n', "allied",
     "units[0].side: unit 'axis-21pz-5-1': 'allied' disagrees with the manifest (expected 'axis' or nothing)"),
    ('game: gazala-rg\nunits:\n  - id: axis-21pz-5-1\n    hex: "01x4"\n', '"01x4"', "units[0].hex: '01x4'"),
    ('game: gazala-rg\nunits:\n  - {id: axis-21pz-5-1, hexx: "0101"}\n', "hexx",
     "units[0]: unknown key 'hexx' (did you mean 'hex'?)"),
    ('game: gazala-rg\nunits:\n  - {id: axis-21pz-5-1, hex: "0101", markers: [out-of-suply]}\n', "out-of-suply",
     "unknown marker 'out-of-suply' (did you mean 'out-of-supply'?)"),
    ('game: gazala-rg\nunits:\n  - {id: axis-21pz-5-1, hex: "0101", steps: 4}\n', "4}",
     "units[0].steps: unit 'axis-21pz-5-1': 4 steps is out of range (expected 1..3)"),
    ('game: gazala-rg\nunits:\n  - {id: axis-21pz-5-1, hex: "0101", steps: two}\n', "two",
     "units[0].steps must be an integer, got 'two'"),
    ('game: gazala-rg\nunits:\n  - {id: axis-21pz-5-1, hex: [1, 2]}\n', "[1, 2]",
     "units[0].hex must be a single value, got a list"),
    ('game: gazala-rg\nunits:\n  - {id: x1, side: axis, type: armor, hex: "0101"}\n'
     '  - {id: x2, side: axis, type: armor, hex: "0102"}\n  - {id: x1, side: axis, type: armor, box: B}\n',
     "{id: x1, side: axis, type: armor, box", "units[2]: duplicate unit id 'x1' (first at line 3)"),
    ('game: gazala-rg\nunits: []\nbreaches:\n  - {hexside: "0101/0102"}\n  - {hexside: "0101/0303"}\n',
     '{hexside: "0101/0303"}', "breaches[1]: "),
    ('game: gazala-rg\nunits: []\nbreache: []\n', "breache", "unknown key 'breache' (did you mean 'breaches'?)"),
    ('game: gazala-rg\nunits: {id: x}\n', "{id: x}", "units must be a list, got a mapping"),
    ('game: gazala-rg\nunits:\n  - just-an-id\n', "just-an-id", "units[0] must be a mapping, got 'just-an-id'"),
]


@pytest.mark.parametrize(("text", "bad", "words"), BAD_TEXT)
def test_each_error_names_line_column_and_the_bad_text(tmp_path, rg_map, text, bad, words):
    from gazala_tools.referee.position import read_node

    f = tmp_path / "pos.yaml"
    f.write_text(text)
    at = text.index(bad)
    line, column = text.count("\n", 0, at) + 1, at - text.rfind("\n", 0, at)
    with pytest.raises(GazalaError) as exc:
        parse_position(read_node(f), labels=rg_map.grid, manifest=MANIFEST, file=f, state_readers=RG_STATE,
                       vocabulary=MARKERS_ONLY)
    assert str(exc.value).startswith(f"{f}:{line}:{column}: ") and words in str(exc.value)


def test_an_inline_unit_of_an_unknown_type_is_named_where_it_is_written(tmp_path, rg_map):
    from gazala_tools.referee.position import Vocabulary, read_node

    f = tmp_path / "pos.yaml"
    f.write_text("game: gazala-rg\nunits:\n  - {id: x1, side: axis, type: armour, hex: '0101'}\n")
    with pytest.raises(GazalaError, match=r"pos.yaml:3:32: units\[0\].type: unit 'x1': unknown type 'armour' "
                                          r"\(did you mean 'armor'\?\)"):
        parse_position(read_node(f), labels=rg_map.grid, file=f, vocabulary=Vocabulary(frozenset({"armor"})))


def test_bad_yaml_names_the_line(tmp_path):
    f = tmp_path / "bad.yaml"
    f.write_text("game: gazala-rg\nunits: [\n")
    with pytest.raises(GazalaError, match=r"bad.yaml:3:1: malformed YAML"):
        read_yaml(f)


def test_manifest_units_and_step_counters(rg_map):
    from gazala_tools.counters import load_manifest
    from gazala_tools.referee.api import rules_for_game
    from gazala_tools.referee.position import unit_specs

    specs = unit_specs(load_manifest("gazala-rg"))
    data = {"game": "gazala-rg", "units": [{"id": "axis-21pz-5-1", "hex": "1621"},
                                           {"id": "axis-21pz-5-2-s2", "hex": "1521"},
                                           {"id": "allied-69inf-5-ey", "hex": "0101"}]}
    p = parse_position(data, labels=rg_map.grid, manifest=specs)
    a, b, c = p.units
    assert (a.id, a.steps, a.formation, a.type) == ("axis-21pz-5-1", 3, "21 PZ", "armor")
    assert (b.id, b.steps) == ("axis-21pz-5-2", 2)
    assert c.id in rules_for_game("gazala-rg").restricted_units() and c.formation == "69 Inf"
    with pytest.raises(GazalaError, match="4 steps is out of range"):
        parse_position({"game": "gazala-rg", "units": [{"id": "axis-21pz-5-1", "hex": "1621", "steps": 4}]},
                       labels=rg_map.grid, manifest=specs)


def test_position_yaml_round_trips(rg_map):
    import yaml
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from gazala_tools.referee.position import position_to_data

    hexes = [rg_map.label(h) for h in rg_map.hexes()]
    sides = ["1217/1316", "1216/1315", "0817/0916"]
    unit = st.fixed_dictionaries({
        "side": st.sampled_from(["axis", "allied"]),
        "type": st.sampled_from(["armor", "infantry", "anti-tank"]),
        "formation": st.sampled_from(["", "21 PZ", "3 Ind"]),
        "where": st.one_of(st.sampled_from(hexes).map(lambda h: ("hex", h)),
                           st.sampled_from(["June 3-4", "reinforcements"]).map(lambda b: ("box", b))),
        "steps": st.integers(1, 3),
        "markers": st.lists(st.sampled_from(RG_MARKERS), unique=True, max_size=2),
    })

    @settings(max_examples=40, deadline=None)
    @given(units=st.lists(unit, max_size=6), turn=st.sampled_from([None, "May 29", "June 1-2"]),
           breaches=st.lists(st.tuples(st.sampled_from(sides), st.sampled_from(["breached", "under-construction"]),
                                       st.booleans()), max_size=2))
    def run(units, turn, breaches):
        data = {"game": "gazala-rg", "units": []}
        if turn:
            data["turn"] = turn
        for i, u in enumerate(units):
            d = {"id": f"u{i}", "side": u["side"], "type": u["type"], u["where"][0]: u["where"][1],
                 "steps": u["steps"], "markers": u["markers"]}
            if u["formation"]:
                d["formation"] = u["formation"]
            data["units"].append(d)
        data["breaches"] = [{"hexside": s, "state": st_, "through": th} for s, st_, th in breaches]
        p = parse_position(data, labels=rg_map.grid, state_readers=RG_STATE)
        again = parse_position(yaml.safe_load(yaml.safe_dump(position_to_data(p, labels=rg_map.grid,
                                                                              state_writers=RG_WRITERS))),
                               labels=rg_map.grid, state_readers=RG_STATE)
        assert again == p

    run()
