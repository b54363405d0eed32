"""The ``rules:`` reader: every bad value is one error naming game.yaml's line and column; the
reader never fails any other way (fuzzed); turn records and names round-trip (property tests)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gazala_tools.errors import GameDataError, GazalaError
from gazala_tools.games import find_game
from gazala_tools.games.model import Game, Side
from gazala_tools.mapdata.loader import load_game_map
from gazala_tools.referee.ruledata import GENERIC_KEYS, FormationNames, read_rules
from gazala_tools.referee.turns import TurnRecord, normalise_turn
from gazala_tools.rules import rules_for

FOLDER = Path(__file__).resolve().parents[2] / "games" / "river-war"
GAME_TEXT = (FOLDER / "game.yaml").read_text(encoding="utf-8")

#: (text in river-war's game.yaml, its replacement, what the error says)
BAD = [
    ("limit: {red: 2, blue: 3}", "limit: {red: 2, green: 3}", "rules.stacking.limit: 'green' is not a side of the game"),
    ("limit: {red: 2, blue: 3}", "limit: {red: 0, blue: 3}", "rules.stacking.limit.red: 0 is out of range"),
    ("types: {hq: 1}", "types: {tank: 1}", "'tank' is not a unit type of the game"),
    ("cross: [river]", "cross: [rivers]", "'rivers' is not a hexside kind of the map (did you mean 'river'?)"),
    ("cross: [river], except-along: [road]", "cross: [river], except-along: [raod]", "'raod' is not a path kind of the map (did you mean 'road'?)"),
    ("zones: [red-base]", "zones: [red-bas]", "zone 'red-bas' is not on the map of river-war"),
    ("places: [Ford Town]", "places: [Nowhere]", "place 'Nowhere' is not on the map of river-war"),
    ("      marsh: {cost: P", "      swamp: {cost: P", "'swamp' is not a terrain of the map"),
    ("cross: [river], except-along: [road], what: \"the river\"}",
     "cross: [river], except-along: [road], what: \"the river\"}\n    - {rule: T1, enter: {terrain: [marsh]}}",
     "rules.prohibited[1].enter.terrain: has moved: a kind of hex is priced by the Terrain Effects Chart (expected "
     "rules.terrain-effects.terrain: {KIND: {cost: P"),
    ("turn: 3", "turn: 9", "'9' is not a turn of river-war"),
    ("max-length: 6", "max-length: -1", "rules.supply.trace.max-length: -1 is out of range"),
    ("max-length: 6", "max-length: six", "must be an integer, got 'six'"),
    ("blocked-by: [enemy-units,", "blocked-by: [enemies,", "'enemies' is not a trace block"),
    ("hexsides: [river]\n    negated-by-friendly", "hexsides: [river]\n    unless-markers: [disrupted]\n    negated-by-friendly",
     "rules.zoc.unless-markers: has moved (expected rules.markers: {MARKER: {zoc: false}}"),
    ("      max-length: 6", "      max-length: 6\n      friendly-negates-zoc: true",
     "rules.supply.trace.friendly-negates-zoc: has moved (expected rules.zoc.negated-by-friendly: [supply]"),
    ("    rule: \"P1\"\n", "    rule: \"P1\"\n    markers: true\n",
     "rules.supply.markers: has moved (expected rules.markers: {MARKER: {supply: out}} and {MARKER: {supply: isolated}}"),
    ("disrupted: {name: Disrupted, zoc: false}", "disrupted: {name: Disrupted, zoc: false, supply: out}",
     "rules.markers.disrupted.supply: the supply phase's marker flow needs a marker with 'supply: isolated' too"),
    ('note: "remove {excess}"', 'note: "remove {extra}"', "has a placeholder other than {excess}"),
    # a note is data, never a format program: an index, attribute, conversion or spec is refused (fuzz: TypeError, exit 3)
    ('note: "remove {excess}"', 'note: "remove {excess[[1]]}"', "has a placeholder other than {excess}"),
    ('note: "remove {excess}"', 'note: "remove {excess.__class__}"', "has a placeholder other than {excess}"),
    ('note: "remove {excess}"', 'note: "remove {excess!r:>9}"', "has a placeholder other than {excess}"),
    ("enter: {places: [Ford Town]}", "enter: {hexes: [Z-99]}", "rules.reinforcements.schedule[0].enter.hexes"),
    ("rule: \"R2\"", "rule: \"R2\"\n    bogus: 1", "rules.boxes: unknown key 'bogus'"),
    ("  stacking:", "  stackin:", "rules: unknown key 'stackin'"),
    ("units: [blue-tank-2], turn: 3", "turn: 3", "names no unit"),
    ("red: {sources: {zones: [red-base]}, goal", "red: {goal", "rules.supply.sides.red: missing 'sources'"),
]


def game_with(tmp_path: Path, old: str, new: str) -> tuple[Path, int]:
    """A copy of river-war with one text replaced, and the line the replacement starts on."""
    dest = tmp_path / "g"
    shutil.copytree(FOLDER, dest)
    assert GAME_TEXT.count(old) == 1, old
    text = GAME_TEXT.replace(old, new)
    (dest / "game.yaml").write_text(text, encoding="utf-8")
    return dest, text[: text.index(new)].count("\n") + 1


@pytest.mark.parametrize(("old", "new", "problem"), BAD, ids=[b[1][:30] for b in BAD])
def test_a_bad_rule_value_names_its_line(tmp_path: Path, old: str, new: str, problem: str) -> None:
    game_dir, line = game_with(tmp_path, old, new)
    with pytest.raises(GameDataError) as exc:
        rules_for(find_game(game_dir))
    text = str(exc.value)
    assert "\n" not in text and problem in text, text
    assert f"game.yaml:{line}:" in text or f"game.yaml:{line + 1}:" in text, (line, text)


def test_the_built_in_games_rules_data_resolves_on_their_own_maps() -> None:
    """Strict: every zone, place, box and terrain the four games' rules name is on their maps."""
    from gazala_tools.games import builtin_games

    for g in builtin_games():
        rules = rules_for(g)
        assert rules.strict and rules.map is load_game_map(g)


def test_on_another_map_a_missing_name_is_no_hexes(tmp_path: Path) -> None:
    from gazala_tools.mapdata import load_map_text

    text = (FOLDER / "map.yaml").read_text(encoding="utf-8").split("zones:")[0]  # no red-base zone
    other = load_map_text(text, "other.yaml", game=find_game(FOLDER))
    rules = rules_for(find_game(FOLDER), other)
    assert not rules.strict and rules.data.supply is not None
    assert rules.data.supply.sides["red"].sources.hexes == frozenset()


# --- fuzz: the reader fails only with a GazalaError ----------------------------------------------------
_scalar = st.one_of(st.integers(-5, 40), st.sampled_from(["red", "blue", "axis", "S1", "D-6", "Z-9", "marsh", "road",
                                                             "river", "Turn 3", "3", "hq", "armor", "", "{excess}", "E"]),
                    st.booleans(), st.none())
_keys = st.sampled_from(sorted(GENERIC_KEYS | {"rule", "limit", "types", "sides", "sources", "trace", "hexes", "zones",
                                                "edges", "places", "schedule", "turn", "units", "enter", "cross",
                                                "red", "blue", "blocked-by", "max-length", "network", "bogus"}))
_values = st.recursive(_scalar, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                       st.dictionaries(_keys, inner, max_size=4)), max_leaves=25)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.dictionaries(st.sampled_from(sorted(GENERIC_KEYS)), _values, max_size=5))
def test_fuzz_any_rules_section_reads_or_fails_with_one_gazala_error(rules_data: dict[str, object]) -> None:
    base = find_game(FOLDER)
    game = Game(id="fuzz", name="Fuzz", folder=base.folder, sides=base.sides, turns=base.turns,
                numbering=base.numbering, provenance="test", rules=rules_data)
    try:
        read_rules(game, load_game_map(base), strict=True)
    except GazalaError as exc:
        assert "\n" not in str(exc)


# --- property tests ------------------------------------------------------------------------------------
@given(st.integers(1, 60), st.integers(-5, 30), st.sampled_from(["Turn {n}", "{n}", "GT {n}", "Game-Turn {n}", "Day {n}"]))
def test_a_numbered_turn_record_reads_labels_and_numbers_alike(count: int, first: int, label: str) -> None:
    record = TurnRecord([label.replace("{n}", str(first + i)) for i in range(count)])
    assert record.numbered and record.first == first
    for i in range(count):
        assert record.index(record.label(i)) == i
        if first + i >= 0:
            assert record.index(first + i) == i and record.index(str(first + i)) == i
    assert record.index(first + count) is None and record.index(first - 1) is None


@given(st.lists(st.text(alphabet="ABCMayJune -0123456789ap", min_size=1, max_size=12), min_size=1, max_size=15,
                unique_by=normalise_turn))
def test_a_labelled_turn_record_finds_each_label_loosely(labels: list[str]) -> None:
    labels = [t for t in labels if normalise_turn(t)]
    record = TurnRecord(labels)
    for i, t in enumerate(labels):
        assert record.index(t) == i and record.index(t.upper()) == i and record.index(f" {t} ") == i


def test_an_open_record_takes_any_game_turn_number() -> None:
    record = TurnRecord(())
    assert record.numbered and record.open and record.index("7") == 6 and record.index("Turn 7") == 6
    assert record.index("May 29") is None and record.index(0) is None and record.label(6) == "7"


def test_rg_turns_are_labels_not_numbers() -> None:
    record = TurnRecord(find_game("gazala-rg").turns)
    assert not record.numbered and record.index("june 1-2") == 6 and record.index("3") is None


@given(st.integers(1, 999), st.sampled_from(["", "st", "nd", "rd", "th"]), st.sampled_from(["Inf", "Bde", "Brigade", ""]),
       st.sampled_from([" ", "", "  "]))
def test_formation_names_compare_by_number_and_synonym_words(n: int, ordinal: str, word: str, gap: str) -> None:
    names = FormationNames({"inf": "", "bde": "", "brigade": ""})
    assert names.same(f"{n}{ordinal}{gap}{word}", f"{n} Inf") and not names.same(f"{n} Inf", f"{n + 1} Inf")


def test_rules_data_of_a_game_object_without_a_file_is_read_too() -> None:
    """A Game built in code (no game.yaml) has its rules read from its plain data, with places
    relative to the data."""
    base = find_game(FOLDER)
    data = yaml.safe_load(GAME_TEXT)["rules"]
    game = Game(id="copy", name="Copy", folder=base.folder, sides=(Side("red", "Red"), Side("blue", "Blue")),
                turns=base.turns, numbering=base.numbering, provenance="test", rules=data)
    generic, _section = read_rules(game, load_game_map(base), strict=True)
    assert generic.stacking is not None and generic.stacking.rule == "S1"
    data["stacking"]["limit"] = {"green": 1}
    bad = Game(id="copy", name="Copy", folder=base.folder, sides=game.sides, turns=base.turns,
               numbering=base.numbering, provenance="test", rules=data)
    with pytest.raises(GameDataError, match=r"<game.yaml>:\d+:\d+: rules.stacking.limit: 'green'"):
        read_rules(bad, load_game_map(base), strict=True)


def test_the_documented_example_is_the_test_games_rules_section() -> None:
    """docs/games.md shows River War's ``rules:`` section verbatim, and documents every generic key."""
    doc = (Path(__file__).resolve().parents[3] / "docs/games.md").read_text(encoding="utf-8")
    assert GAME_TEXT[GAME_TEXT.index("rules:\n"):] in doc
    table = doc[doc.index("### The schema"):]
    assert all(f"| `{key}" in table for key in GENERIC_KEYS)


def test_box_kinds_name_the_maps_own_hexside_kinds(tmp_path):
    """A hex set's ``box-kinds`` are the map's words (Highland's palisade box is Fort William): no
    box kind is special to the core, and a misspelt one says which was meant."""
    game = tmp_path / "highland"
    shutil.copytree(Path(__file__).resolve().parents[2] / "games" / "highland", game)
    text = (game / "game.yaml").read_text()
    assert text.count("{places: [Fort William]}") == 1
    (game / "game.yaml").write_text(text.replace("{places: [Fort William]}", "{box-kinds: [palisade]}"))
    g = find_game(game)
    m = load_game_map(g)
    held = read_rules(g, m, strict=True)[0].supply.sides["crown"].sources
    assert {m.label(h) for h in held.hexes} == {"0602"} and held.text == "palisade hexes"
    (game / "game.yaml").write_text((game / "game.yaml").read_text().replace("[palisade]", "[palisade-s]"))
    with pytest.raises(GameDataError, match=r"'palisade-s' is not a hexside kind of the map \(did you mean 'palisade'\?\)"):
        read_rules(find_game(game), load_game_map(find_game(game)), strict=True)


def test_movement_costs_along_the_maps_own_path_kinds(tmp_path):
    """The Terrain Effects Chart prices the path kinds the map declares (Highland's ``road``); a
    misspelt kind is an error at its line and column with "did you mean"."""
    game = tmp_path / "highland"
    shutil.copytree(Path(__file__).resolve().parents[2] / "games" / "highland", game)
    text = (game / "game.yaml").read_text()

    def with_chart(path: str) -> None:  # Highland's chart (H4's bog) gets a path row
        old = "  terrain-effects:                    # H4: no horse or guns in the bog\n"
        assert text.count(old) == 1
        (game / "game.yaml").write_text(text.replace(old, old + f'    rule: "H8"\n    paths: {{{path}: 1/2}}\n', 1))

    with_chart("road")
    chart = rules_for(find_game(game), load_game_map(find_game(game))).data.chart
    assert chart is not None and [(r.name, str(r.cells["any"])) for r in chart.paths] == [("road", "1/2")]
    with_chart("raod")
    with pytest.raises(GameDataError, match=r"game.yaml:\d+:\d+: .*'raod' is not a path kind of the map "
                                            r"\(did you mean 'road'\?\)"):
        rules_for(find_game(game), load_game_map(find_game(game)))
