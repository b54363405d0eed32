"""Set-up rules resolved to one hex per unit (gazala_tools.games.scenarios): deterministic, inside the
rule's area, nearest first, never two units on a hex unless the rule says so; bad rules are errors
that name the rule."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gazala_tools.errors import GameDataError
from gazala_tools.games import find_game
from gazala_tools.games.scenarios import Placement, Scenario, read_scenarios, resolve_setup
from gazala_tools.games.tables import read_tables
from gazala_tools.mapdata.loader import load_game_map

RG_MAP = load_game_map(find_game("gazala-rg"))
UNITS = [(f"u{i}", "F1" if i < 6 else "F2") for i in range(12)]


def _scenario(*rules: Placement) -> Scenario:
    return Scenario("s", "S", setup=rules, file="scenarios.yaml")


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(RG_MAP.hexes()), st.integers(0, 3), st.integers(1, 6))
def test_within_puts_each_unit_on_its_own_hex_nearest_first(centre, distance: int, n: int) -> None:  # type: ignore[no-untyped-def]
    free = [h for h in centre.within(distance) if RG_MAP.grid.contains(h)]
    units = [(f"u{i}", "F") for i in range(n)]
    rule = Placement(formation="F", centre=RG_MAP.label(centre), distance=distance)
    if n > len(free):
        with pytest.raises(GameDataError, match="free hexes within"):
            resolve_setup(_scenario(rule), RG_MAP, units)
        return
    setup = resolve_setup(_scenario(rule), RG_MAP, units)
    hexes = [RG_MAP.hex(label) for _u, label in setup.hexes]
    assert [u for u, _l in setup.hexes] == [u for u, _f in units]
    assert len(set(hexes)) == n and all(centre.distance(h) <= distance for h in hexes)
    # nearest first: no unused hex of the area is nearer than a used one
    unused = set(free) - set(hexes)
    assert all(centre.distance(h) >= max(centre.distance(x) for x in hexes) for h in unused)
    assert resolve_setup(_scenario(rule), RG_MAP, units) == setup  # the same every time


def test_a_later_rule_skips_hexes_an_earlier_rule_took() -> None:
    first = Placement(formation="F1", hexes=("1217",), per_hex=6)
    second = Placement(formation="F2", centre="1217", distance=1)
    setup = resolve_setup(_scenario(first, second), RG_MAP, UNITS)
    assert [label for _u, label in setup.hexes[:6]] == ["1217"] * 6
    assert "1217" not in [label for _u, label in setup.hexes[6:]]


@pytest.mark.parametrize(
    ("rules", "words"),
    [
        ((Placement(units=("u1",), hexes=("1217",)), Placement(units=("u1",), hexes=("1218",))), "'u1' is placed twice"),
        ((Placement(formation="F1", hexes=("1217", "1218")),), "6 units for 2 places"),
        ((Placement(units=("u99",), hexes=("1217",)),), "'u99' is not a unit"),
        ((Placement(units=("u7",), formation="F1", hexes=("1217",)),), "of formation 'F2', not 'F1'"),
        ((Placement(formation="F1", hexes=("9999",)),), "hex '9999' is not a hex of the map"),
        ((Placement(units=("u1",), place="Atlantis", source="rule 1.0"),), r"place 'Atlantis' is not a place of the map \(rule 1.0\)"),
    ],
)
def test_bad_rules_are_errors_naming_the_rule(rules: tuple[Placement, ...], words: str) -> None:
    with pytest.raises(GameDataError, match=words):
        resolve_setup(_scenario(*rules), RG_MAP, UNITS)


@pytest.mark.parametrize(
    ("text", "place", "words"),
    [
        ("scenarios:\n  - {id: a, name: A}\n  - {id: a, name: B}\n", "3:10", "listed twice"),
        ("scenarios:\n  - {id: a, name: A, setup: [{unit: x, place: P, per_hex: 2}]}\n", "2:59", "per_hex only with hexes or within"),
        ("scenarios:\n  - {id: a, name: A, setup: [{hex: '0101'}]}\n", "2:30", "names no units"),
        ("scenarios:\n  - {id: a, name: A, setup: [{unit: x, within: {hex: '0101'}}]}\n", "2:48", "missing 'distance'"),
        ("scenarios:\n  - {id: a, name: A, start: Dawn}\n", "2:29", "'Dawn' is not a turn"),
        ("scenarios:\n  - {id: a, name: A, colour: red}\n", "2:22", "unknown key 'colour'"),
    ],
)
def test_scenario_file_errors_name_line_and_column(tmp_path: Path, text: str, place: str, words: str) -> None:
    f = tmp_path / "scenarios.yaml"
    f.write_text(text, encoding="utf-8")
    with pytest.raises(GameDataError, match=words) as exc:
        read_scenarios(f, sides=("axis", "allied"), turns=("Turn 1", "Turn 2"))
    assert exc.value.place == place, str(exc.value)


def test_yaml_anchors_share_a_set_up(tmp_path: Path) -> None:
    f = tmp_path / "scenarios.yaml"
    f.write_text("scenarios:\n  - {id: a, name: A, setup: &s [{unit: x, hex: '0101'}]}\n  - {id: b, name: B, setup: *s}\n")
    a, b = read_scenarios(f)
    assert a.setup == b.setup and a.setup[0].hexes == ("0101",)


def test_tables_are_cells_with_unique_names(tmp_path: Path) -> None:
    f = tmp_path / "tables.yaml"
    f.write_text("tables:\n  - {name: CRT, rows: [[1, '-1', 0.5, '']]}\n", encoding="utf-8")
    (t,) = read_tables(f)
    assert t.rows == (("1", "-1", "0.5", ""),) and t.title == "CRT" and t.image == "chart-crt.png"  # text as written
    f.write_text("tables:\n  - {name: CRT, rows: [[a]]}\n  - {name: crt, rows: [[b]]}\n", encoding="utf-8")
    with pytest.raises(GameDataError, match="names another table") as exc:
        read_tables(f)
    assert exc.value.place == "3:12"
