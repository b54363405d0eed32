"""The four manifests against what the rulebooks say (counts, steps, named units, colour code)."""

from __future__ import annotations

import re
from collections import Counter as Multiset
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gazala_tools.counters import ManifestError, load_manifest, marker_ids, parse_manifest, parse_size
from gazala_tools.errors import GazalaError
from gazala_tools.games import builtin_ids
from gazala_tools.yamlnodes import ID_RE

GAMES = builtin_ids()

RG = "gazala-rg"


def test_2_0_rg_has_exactly_168_counters() -> None:
    m = load_manifest(RG)
    assert len(m) == 168
    assert m.counts() == {"unit": 108, "chit": 36, "marker": 24}


def test_11_0_rg_armor_steps_german_3_allied_and_italian_2_others_1() -> None:
    m = load_manifest(RG)
    units: dict[str, list[int]] = {}
    for c in m.units:
        units.setdefault(c.unit_id, []).append(c.step)
        expected = 1
        if c.type == "armor":
            expected = 3 if c.nationality == "de" else 2
        assert c.steps == expected, c.id
    # one counter per step, full strength first ("replace the counter with ... the next lower step number")
    assert all(
        steps == sorted(steps, reverse=True) == list(range(len(steps), 0, -1)) for steps in units.values()
    )
    assert [c.id for c in m.units if c.unit_id == "axis-21pz-5-1"] == [
        f"axis-21pz-5-1-s{n}" for n in (3, 2, 1)
    ]


def test_2_2_3_rg_colour_code_of_values() -> None:
    m = load_manifest(RG)
    for c in m.units:
        hard, soft = c.front.value("hard"), c.front.value("soft")
        assert hard is not None and soft is not None
        if c.type in ("infantry", "motorized-infantry"):
            assert hard.ink == "black", c.id  # infantry may not attack armor (11.0)
        if c.type == "anti-tank":
            assert soft.ink == "white" and hard.ink == "red", c.id  # AT may not attack infantry (11.0)
        if c.type == "armor":
            assert hard.ink == "red" and soft.ink == "black", c.id


def test_2_2_3_rg_nationality_colours_and_used_backs() -> None:
    m = load_manifest(RG)
    names = {n.key: n.name for n in m.nationalities.values()}
    assert set(names.values()) == {"German", "Italian", "British", "Indian", "Free French"}
    for c in m.units:
        assert c.back.state == "used"
        assert c.back.value("move") is not None and c.back.value("move").number is None  # type: ignore[union-attr]
        assert c.back.value("hard") == c.front.value("hard")


def test_11_0_rg_values_the_examples_state() -> None:
    m = load_manifest(RG)
    five_one = m["axis-21pz-5-1-s3"].front
    assert (five_one.value("soft").number, five_one.value("move").number) == (12, 24)  # type: ignore[union-attr]
    hard_132 = sum(m[f"axis-ariete-132-{b}-s2"].front.value("hard").number for b in (8, 9))  # type: ignore[misc,union-attr]
    assert hard_132 == 16
    defence = (
        m["allied-2arm-10-hus-s2"].front.value("hard").number
        + m["allied-1ff-marine"].front.value("hard").number
    )  # type: ignore[operator,union-attr]
    assert defence == 17
    assert m["allied-3ind-2-lcr"].front.value("hard").number == 3  # type: ignore[union-attr]


def test_rg_units_named_by_the_rules_exist() -> None:
    m = load_manifest(RG)
    designations = {(c.formation, c.designation) for c in m.units}
    for fm, des in [("21 PZ", "5/1"), ("21 PZ", "5/2"), ("Ariete", "132/8"), ("Ariete", "132/9"), ("Ariete", "12 Ber"),
                    ("Trieste", "65/1"), ("Trieste", "65/2"), ("1 FF", "Marine"), ("2 Arm", "10 Hus"), ("150 Inf", "5 GH"),
                    ("151 Inf", "9 Dur Lt"), ("7 Motor", "2 KRR"), ("7 Motor", "2 RB"), ("7 Motor", "9 KRR"),
                    ("9 Ind", "3/12 FR"), ("9 Ind", "3/9 Jat"), ("9 Ind", "2 WY"), ("Indep", "Cumber.")]:  # fmt: skip
        assert (fm, des) in designations, (fm, des)
    formations = {c.formation for c in m.units}
    assert {"15 PZ", "90 Lt", "Pavia", "Brescia", "3 Ind", "201 Gd", "22 Arm", "4 Arm", "1 ATB", "32 ATB",
            "69 Inf", "29 Ind", "10 Ind"} <= formations  # fmt: skip


def test_8_2_two_69th_brigade_units_have_bracketed_movement() -> None:
    m = load_manifest(RG)
    restricted = [c for c in m.units if c.restricted]
    assert len(restricted) == 2 and {c.formation for c in restricted} == {"69 Inf"}
    assert restricted[0].front.value("move").text() == "[6]"  # type: ignore[union-attr]


def test_13_0_rg_chits_and_markers() -> None:
    m = load_manifest(RG)
    tactical = {(c.side, c.front.title) for c in m.chits if c.type == "tactical"}
    common = {"Combat", "Extra Move", "Replacement", "Air", "Sandstorm"}
    assert {t for s, t in tactical if s == "axis"} == common | {"Anti-Tank"}
    assert {t for s, t in tactical if s == "allied"} == common | {"Withdraw / Attack"}
    axis_action = [c for c in m.chits if c.type == "action" and c.side == "axis"]
    assert all(c.front.title != c.back.title for c in axis_action)  # 7.0: two-sided Axis chits
    assert any("Double" in c.front.title for c in m.chits)
    kinds = {c.type for c in m.markers}
    assert {"disrupted", "supply", "actions-available", "turn", "vp", "breach"} <= kinds
    breach = m["breach-1"]
    assert breach.front.title == "BREACH" and breach.back.title == "BREACHED"
    assert set(marker_ids(RG)) == {c.id for c in m if c.kind != "unit"}


def _setup_values(seed: Path) -> Multiset[tuple[str, str]]:
    """(nation, A-D-M) of every unit in DG 19.0 plus the 11.1 reinforcements (British)."""
    text = seed.read_text(encoding="utf-8")
    out: Multiset[tuple[str, str]] = Multiset()
    start = text.index("### 19.0 SCENARIOS")  # the section, not the table of contents
    setup = text[start : text.index("## 20.0 GAME NOTES", start)]
    nation = ""
    for line in setup.splitlines():
        h = re.match(r"#### (GERMANY|ITALY|UNITED KINGDOM)", line)
        if h:
            nation = {"GERMANY": "de", "ITALY": "it", "UNITED KINGDOM": "uk"}[h.group(1)]
        v = re.match(r"(\d+-\d+-\d+)\t\d+", line)
        if v:
            out[(nation, v.group(1))] += 1
    start = text.index("### 11.1 QUANTITY")
    reinf = text[start : text.index("### 11.2", start)]
    for v in re.findall(r"^(\d+-\d+-\d+)\t", reinf, flags=re.M):
        out[("uk", v)] += 1
    return out


def test_19_0_dg_units_are_the_setup_plus_reinforcements(shared_dir: Path) -> None:
    m = load_manifest("cauldron-dg")
    want = _setup_values(shared_dir / "seeds" / "002_0cc14fa2691c9c54.txt")
    assert sum(want.values()) == 78
    got = Multiset((c.nationality, "-".join(v.text() for v in c.front.values)) for c in m.units)
    assert got == want


def test_spi_has_100_counters_and_20_random_number_counters() -> None:
    m = load_manifest("cauldron-spi")
    random = [c for c in m if c.type == "random-number"]
    assert len(random) == 20
    assert len(m) - len(random) == 100
    art = [c for c in m.units if c.type == "artillery"]
    assert art and all([v.role for v in c.front.values] == ["barrage", "fpf", "defence", "move"] for c in art)


def test_2_2_bg_has_54_pieces_by_nationality_plus_markers() -> None:
    m = load_manifest("batalha")
    assert len(m.units) == 54
    names = {n.key: n.name for n in m.nationalities.values()}
    by = Multiset(names[c.nationality] for c in m.units)
    assert by == {
        "Italian": 20,
        "British": 13,
        "German": 10,
        "Indian": 5,
        "South African": 5,
        "Free French": 1,
    }
    assert m.markers  # turn, air power X1/X10, cleared minefields


def test_7_0_bg_reduced_side_halves_combat_rounding_up_and_keeps_movement() -> None:
    m = load_manifest("batalha")
    for c in m.units:
        for f, b in zip(c.front.values, c.back.values, strict=True):
            if f.role in ("attack", "defence"):
                assert b.number == -(-f.number // 2), c.id  # type: ignore[operator]
            else:
                assert b.number == f.number
    mot = m["allied-7arm-7mot"].front
    assert "-".join(v.text() for v in mot.values) == "4-4-15"  # 2.2.2 example


@pytest.mark.parametrize("game", GAMES)
def test_ids_are_stable_unique_and_units_say_where_values_come_from(game: str) -> None:
    m = load_manifest(game)
    ids = [c.id for c in m]
    assert len(ids) == len(set(ids))
    assert all(ID_RE.match(i) for i in ids)
    assert all(c.provenance for c in m.units), [c.id for c in m.units if not c.provenance]
    assert m.provenance == "reconstructed"


BASE = """
game: test
counter_size: 1/2 in
value_style: attack-defence-move
nationalities:
  de: {name: German, side: axis, color: "#999999"}
units:
  - {id: axis-a, nationality: de, designation: A, type: armor, values: [4, 5, 15], provenance: test}
  - {id: axis-b, nationality: de, designation: B, type: infantry, values: [1, 2, 6], provenance: test}
markers:
  - {id: dis, count: 3, front: {title: D}}
"""


def test_adding_a_unit_renumbers_nothing() -> None:
    before = [c.id for c in parse_manifest(BASE)]
    added = BASE.replace(
        "units:\n",
        "units:\n  - {id: axis-new, nationality: de, designation: N, type: recon, values: [1, 1, 20]}\n",
    )
    after = [c.id for c in parse_manifest(added)]
    assert set(before) < set(after)
    assert after == ["axis-new", *before]
    assert before == ["axis-a", "axis-b", "dis-1", "dis-2", "dis-3"]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (("type: armor", "type: tank"), r"8:57: units\[0\].type: 'tank' is not a unit type of the game"),
        (("values: [4, 5, 15]", "values: [4, 5]"), r"8:72: units\[0\].values: 2 values do not match the roles"),
        (("id: axis-b", "id: axis-a"), r"9:5: units\[1\]: duplicate counter id 'axis-a' \(also units\[0\]\)"),
        (("id: axis-b", "id: Axis B"), r"9:10: units\[1\].id: 'Axis B' is not a stable id"),
        (("nationality: de, designation: B", "nationality: xx, designation: B"),
         r"9:31: units\[1\].nationality: 'xx' is not a declared nationality \(expected de\)"),
        (("game: test", "game: test\ntotal: 9"), r"3:8: total: the manifest has 5 counters.*expected total: 9"),
        (("counter_size: 1/2 in", "counter_size: half an inch"), r"3:15: counter_size: size 'half an inch' is not a length"),
        (("values: [1, 2, 6]", "values: [1, 2, -6]"), r"9:82: units\[1\].values\[2\]: -6 is not a whole number >= 0"),
        (("values: [1, 2, 6]", "values: [1, 2, 6], roles: [attack, luck, move]"),
         r"9:102: units\[1\].roles\[1\]: 'luck' is not a value role"),
        (("value_style: attack-defence-move", "value_style: attack-defence-move\nartillery_roles: [fire]"),
         r"5:19: artillery_roles\[0\]: 'fire' is not a value role"),
        (("counter_size: 1/2 in", "counter_size: 0"), "3:15: counter_size: size 0 is not positive"),
        (("game: test", "game: test\nvalue_styl: x"),
         r"3:1: the manifest: unknown key 'value_styl' \(did you mean 'value_style'\?\)"),
    ],
)
def test_bad_manifests_name_file_line_column_key_and_expectation(change: tuple[str, str], message: str) -> None:
    text = BASE.replace(*change)
    assert text != BASE
    with pytest.raises(ManifestError, match="^bad.yaml:" + message):
        parse_manifest(text, file="bad.yaml")


def test_an_unknown_key_of_a_unit_says_which_was_meant_at_its_place() -> None:
    text = BASE.replace("designation: B", "desgnation: B")
    with pytest.raises(ManifestError, match=r"^counters.yaml:9:35: units\[1\]: unknown key 'desgnation' "
                                            r"\(did you mean 'designation'\?\)"):
        parse_manifest(text, file="counters.yaml")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (("front: {title: D}", "front: {title: D, color: 5}"), r"11:50: markers\[0\].front.color: '5' is not a colour"),
        (("front: {title: D}", "front: {title: [D]}"), r"11:40: markers\[0\].front.title must be a single value, got a list"),
        (("count: 3", "count: three"), r"11:22: markers\[0\].count: 'three' is not a whole number"),
        (("side: axis", "side: [axis]"), r"6:28: nationalities.de.side must be a single value, got a list"),
        (("values: [4, 5, 15]", "values: [4, [5], 15]"), r"8:76: units\[0\].values\[1\]: a list is not a whole number"),
        (("designation: A", "designation: yes"), r"8:48: units\[0\].designation: 'yes' is true or false, not text"),
    ],
)
def test_a_value_of_the_wrong_type_names_its_nested_key_path(change: tuple[str, str], message: str) -> None:
    text = BASE.replace(*change)
    assert text != BASE
    with pytest.raises(ManifestError, match="^bad.yaml:" + message):
        parse_manifest(text, file="bad.yaml")


#: manifests broken every way the reader refuses: (what to replace in BASE, with what)
BROKEN = [
    ("game: test", "game: test\nchits: [{id: c, type: [x]}]"), ("game: test", "game: [test]"), ("game: test", "gme: test"),
    ("game: test", "game: test\ngame: again"), ("game: test", "game: test\n? [a]\n: b"),
    ("counter_size: 1/2 in", "counter_size: 1/0 in"), ("counter_size: 1/2 in", "counter_size: .inf"),
    ("value_style: attack-defence-move", "value_style: fancy"), ("game: test", "game: test\nunit_back: gone"),
    ("game: test", "game: test\nvalue_inks: [{ink: blue}]"), ("game: test", "game: test\nvalue_inks: {ink: red}"),
    ("game: test", "game: test\nvalue_inks: [{ink: red, types: [tank]}]"), ("game: test", "game: test\nart: {folder: nowhere}"),
    ("game: test", "game: test\nart: {required: maybe}"), ("game: test", "game: test\ntotal: -1"),
    ("game: test", "game: test\nsources: [[a]]"), ('color: "#999999"', 'color: "#99"'), ("name: German, ", ""),
    ("side: axis", "side: Axis"), ('de: {name: German, side: axis, color: "#999999"}', "de: [German]"), ("markers:\n  - {id: dis, count: 3, front: {title: D}}", "markers: {id: dis}"), ("id: axis-a, ", ""),
    ("designation: A, ", ""), ("designation: A", 'designation: "A\\tB"'), ("designation: A", 'designation: "A\\\\"'),
    ("type: armor", "type: [armor]"), ("values: [4, 5, 15]", "values: 4"), ("values: [4, 5, 15]", "values: []"),
    ("type: armor,", "type: armor, steps: 2,"), ("type: armor,", "type: armor, steps: 0,"),
    ("type: armor,", "type: armor, size: XXXX,"), ("type: armor,", "type: armor, restricted: 2,"),
    ("type: armor,", "type: armor, back: [1],"), ("type: armor,", "type: armor, roles: [],"),
    ("type: armor,", "type: armor, art: [{front: a.png}],"), ("type: armor,", "type: armor, art: {front: a.png},"),
    ("type: armor,", "type: armor, art: {back: a.png},"), ("count: 3", "count: 0"), ("count: 3", "count: 99999999"),
    ("front: {title: D}", "front: {title: D, icon: {a: b}}"), ("front: {title: D}", "front: {titel: D}"),
    ("front: {title: D}", "front: {title: D}, vassal: {}"), ("front: {title: D}", "front: {title: D}, vassal: {slot: [a]}"),
    ("front: {title: D}", "front: {title: D}, side: Nobody"), ("front: {title: D}", "front: {title: D}, nationality: xx"),
    ("front: {title: D}", "front: {title: D}, art: {front: ../../etc/passwd}"),
    ("markers:\n", "markers:\n  - just a marker\n"), ("id: dis,", "id: dis, id: dat,"),
]


@pytest.mark.parametrize(("old", "new"), BROKEN)
def test_every_error_of_the_reader_names_line_and_column(old: str, new: str, tmp_path: Path) -> None:
    text = BASE.replace(old, new, 1)
    assert text != BASE
    with pytest.raises(ManifestError) as info:
        parse_manifest(text, file=tmp_path / "counters.yaml")
    message = str(info.value)
    assert re.match(rf"^{re.escape(str(tmp_path / 'counters.yaml'))}:\d+:\d+: \S", message), message
    assert "\n" not in message


def test_a_count_past_the_cap_is_refused_before_a_counter_is_made() -> None:
    text = BASE.replace("count: 3", "count: 1000000000")
    with pytest.raises(ManifestError, match=r"^bad.yaml:11:22: markers\[0\].count: 1000000000 is out of range \(expected 1..50000\)"):
        parse_manifest(text, file="bad.yaml")
    many = BASE.replace("count: 3", "count: 30000") + "  - {id: more, count: 30000}\n"
    with pytest.raises(ManifestError, match=r"^bad.yaml:12:23: markers\[1\].count: 30,000 more counters make more than 50,000"):
        parse_manifest(many, file="bad.yaml")


def test_unknown_game_is_an_error() -> None:
    with pytest.raises(GazalaError, match="no game 'no-such-game'"):
        load_manifest("no-such-game")


@pytest.mark.parametrize(
    ("text", "mm"), [("5/8 in", 15.875), ("0.5 in", 12.7), ("1/2in", 12.7), ("16 mm", 16.0), (12, 12.0)]
)
def test_parse_size(text: str | int, mm: float) -> None:
    assert parse_size(text) == pytest.approx(mm)


@given(st.integers(1, 64), st.sampled_from([2, 4, 8, 16, 32]))
def test_parse_size_inch_fractions_are_exact(num: int, den: int) -> None:
    assert parse_size(f"{num}/{den} in") == pytest.approx(num / den * 25.4, rel=1e-12)
    assert parse_size(f"{num / den * 25.4!r} mm") == pytest.approx(num / den * 25.4, rel=1e-12)


def test_load_manifest_is_cached_until_the_file_changes(tmp_path: Path) -> None:
    import os

    from gazala_tools.counters.loader import manifest_file

    src = 'game: batalha\ntitle: "A title"\n' + manifest_file("batalha").read_text(encoding="utf-8")
    f = tmp_path / "counters.yaml"  # a stand-alone manifest (no game.yaml beside it) names its game
    f.write_text(src, encoding="utf-8")
    first = load_manifest(f)
    assert load_manifest(f) is first  # parsed once
    edited = re.sub(r"(?m)^title: .*$", 'title: "Edited title"', src, count=1)
    assert edited != src
    f.write_text(edited, encoding="utf-8")
    st = f.stat()
    os.utime(f, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))
    assert load_manifest(f).title == "Edited title"


# --- YAML the safe loader refuses, or that is not the manifest's shape: a located error ---------------
@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("? [1]\n: 2\n", "1:3: the manifest: keys must be plain names"),
        ("a: &r [*r]\n", "1:4: YAML nested too deeply"),
        ("a: &r {b: *r}\n", "1:4: YAML nested too deeply"),
        ("x: !!python/object:os.system {}\n", "1:1: the manifest: unknown key 'x'"),
        ("base: &b {color: '#ffffff'}\nunits:\n  - <<: *b\n", "1:1: the manifest: unknown key 'base'"),
        ("units:\n  - {<<: 5, id: a}\n", "2:6: units[0].<<: '5' cannot be merged"),
        ("game: [\n", "2:1: malformed YAML"),
    ],
)
def test_manifest_yaml_the_reader_refuses_is_a_located_error(text: str, message: str) -> None:
    with pytest.raises(ManifestError, match="^bad.yaml:" + re.escape(message)):
        parse_manifest(text, file="bad.yaml")


# --- libyaml composes the nodes PyYAML's own composer does (tags, values, places) ---------------------
ROOT = Path(__file__).resolve().parents[2]
MANIFESTS = sorted([*ROOT.glob("mapdata/*/counters.yaml"), *ROOT.glob("tests/games/*/counters.yaml")])
YAML_CASES = [
    "a: &x [1, 2]\nb: *x\n",
    "a: 2020-01-01\nb: 0x1F\nc: 1_000\nd: .inf\ne: ~\nf: yes\ng: !!str 5\nh: !!binary aGk=\ni: 1.5\nj: 'x'\n",
    "- {a: 1}\n- !!set {x, y}\n- !!omap [{k: v}]\n",
    "units:\n  - id: x\n    values: [4, 5, 15]\n  - id: y\n    back: {title: \"\\u00e9 USED\"}\n",
    "a: [éé, x]\nb: 😀😀 y\nc: [😀, z]\n",
    "a: &x {k: 1, j: 2}\nb: &y {i: 0}\nc: {<<: [*x, *y], j: 3}\n",
]


def _shape(node: object) -> object:
    import yaml

    assert isinstance(node, yaml.Node)
    place = (node.tag, node.start_mark.line, node.start_mark.column)
    if isinstance(node, yaml.ScalarNode):
        return (*place, node.value)
    if isinstance(node, yaml.SequenceNode):
        return (*place, [_shape(n) for n in node.value])
    return (*place, [(_shape(k), _shape(v)) for k, v in node.value])


@pytest.mark.parametrize("text", [*YAML_CASES, *(p.read_text(encoding="utf-8") for p in MANIFESTS)])
def test_libyaml_composes_the_nodes_pyyamls_composer_does(text: str) -> None:
    from gazala_tools.yamlnodes import compose_text

    fast = compose_text(text, "c.yaml", "counter manifest", ManifestError, libyaml=True)
    assert _shape(fast) == _shape(compose_text(text, "c.yaml", "counter manifest", ManifestError))


def test_reading_a_manifest_leaves_the_garbage_collector_as_it_was() -> None:
    """The collector runs seldom while a manifest is read (yamlnodes.few_collections), then as before,
    also after an error."""
    import gc

    before = gc.get_threshold()
    assert len(parse_manifest(BASE)) == 5
    with pytest.raises(ManifestError):
        parse_manifest(BASE.replace("count: 3", "count: 0"))
    assert gc.get_threshold() == before
