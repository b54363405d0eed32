"""RG position legality: 10.0 stacking, enemy hexes, 8.3 off-map, 8.1 prohibited zone, 8.2 69th Bde, 7.0."""

from __future__ import annotations

from gazala_tools.referee.findings import Severity
from tests.rules.rg.refhelp import check, make_map, rules_of
from tests.support.fixtures import rg_rules

ZONES = """\
zones:
  - name: allied-prohibited
    source: test
    hexes: ["0105..0122", "0207..0222"]
  - name: 69th-area
    source: test
    hexes: ["0101..0104", "0201..0204", "0301..0303"]
"""


def test_10_0_two_units_may_stack(open_map):
    r = check(open_map, [("a", "axis", "armor", "1520"), ("b", "axis", "infantry", "1520")])
    assert r.legal and r.by_rule("10.0") == []


def test_10_0_three_units_are_over_stacked(open_map):
    r = check(open_map, [(f"u{i}", "allied", "infantry", "1520") for i in range(3)])
    [f] = r.by_rule("10.0")
    assert f.severity is Severity.ERROR and f.hexes == ("1520",) and set(f.units) == {"u0", "u1", "u2"}
    assert "eliminates 1" in f.message


def test_10_0_nothing_stacks_with_pavia(open_map):
    r = check(open_map, [("p", "axis", "infantry", "0110", "Pavia"), ("t", "axis", "infantry", "0110", "Trieste")])
    [f] = r.by_rule("10.0")
    assert f.severity is Severity.ERROR and "Pavia" in f.message


def test_10_0_nothing_stacks_with_brescia(open_map):
    r = check(open_map, [("b", "axis", "infantry", "0108", "Brescia"), ("c", "axis", "infantry", "0108", "Brescia")])
    assert rules_of(r, "error") == ["10.0"]


def test_10_0_a_lone_pavia_unit_is_legal(open_map):
    assert check(open_map, [("p", "axis", "infantry", "0110", "Pavia")]).legal


def test_10_0_enemy_units_never_share_a_hex(open_map):
    r = check(open_map, [("a", "axis", "armor", "1520"), ("b", "allied", "infantry", "1520")])
    [f] = r.by_rule("10.0")
    assert "enemy units share hex 1520" in f.message and set(f.units) == {"a", "b"}


def test_8_3_unit_off_the_map_hex_is_an_error(open_map):
    r = check(open_map, [("a", "axis", "armor", "3005")])
    [f] = r.by_rule("8.3")
    assert f.severity is Severity.ERROR and f.hexes == ("3005",)


def test_8_3_units_in_off_map_boxes(open_map):
    r = check(open_map, [("a", "allied", "armor", "June 3-4"), ("b", "allied", "armor", "reinforcements"),
                         ("c", "allied", "armor", "kitchen")])
    [f] = r.by_rule("8.3")
    assert f.units == ("c",)
    assert r.supply["a"].value == "in"  # 8.3: they return in full supply


def test_impassable_terrain_holds_no_unit():
    m = make_map('  hexes:\n    - {terrain: sea, hexes: ["1501"]}\n')
    r = check(m, [("a", "allied", "armor", "1501")])
    assert [f.rule for f in r.errors()] == ["8.3"]


def test_8_1_allied_unit_in_the_prohibited_zone():
    m = make_map(ZONES)
    r = check(m, [("b", "allied", "infantry", "0210"), ("a", "axis", "infantry", "0211")])
    [f] = r.by_rule("8.1")
    assert f.units == ("b",) and f.hexes == ("0210",) and f.severity is Severity.ERROR


def test_8_1_allied_unit_on_the_line_is_legal():
    m = make_map(ZONES)
    assert check(m, [("b", "allied", "infantry", "0306")]).by_rule("8.1") == []


def test_8_2_two_69th_units_in_the_area_third_roams():
    m = make_map(ZONES)
    r = check(m, [("x", "allied", "infantry", "0101", "69 Inf"), ("y", "allied", "infantry", "0303", "69 Inf"),
                  ("z", "allied", "infantry", "1510", "69 Inf")])
    assert r.by_rule("8.2") == []


def test_8_2_only_one_69th_unit_in_the_area():
    m = make_map(ZONES)
    r = check(m, [("x", "allied", "infantry", "0101", "69 Inf"), ("y", "allied", "infantry", "0605", "69 Inf"),
                  ("z", "allied", "infantry", "1510", "69 Inf")])
    [f] = r.by_rule("8.2")
    assert set(f.units) == {"y", "z"} and f.severity is Severity.ERROR


def test_8_2_with_one_unit_left_it_must_stay():
    """Interpretation: eliminated units cannot count; the one survivor must stay in the area."""
    m = make_map(ZONES)
    assert check(m, [("x", "allied", "infantry", "0101", "69th Bde")]).by_rule("8.2") == []
    assert len(check(m, [("x", "allied", "infantry", "0901", "69th Bde")]).by_rule("8.2")) == 1


def test_8_1_and_8_2_limits_on_the_real_map(rg_map):
    r = check(rg_map, [("x", "allied", "infantry", "0801", "69 Inf"), ("y", "allied", "infantry", "0104", "69 Inf"),
                       ("z", "allied", "infantry", "0105", "69 Inf")])
    assert r.by_rule("8.2") == []  # 0104 and 0801 are inside, inclusive
    [f] = r.by_rule("8.1")
    assert f.hexes == ("0105",)  # south of 0104: the prohibited zone
    r = check(rg_map, [("x", "allied", "infantry", "0901", "69 Inf"), ("y", "allied", "infantry", "0104", "69 Inf")])
    assert len(r.by_rule("8.2")) == 1


def test_7_0_no_formation_more_than_twice(open_map):
    r = check(open_map, turn="May 30", activations={"Ariete": 3, "21 PZ": 2})
    [f] = r.by_rule("7.0")
    assert "Ariete" in f.message


def test_7_0_first_turn_limits(open_map):
    r = check(open_map, turn="May 27 AM", activations={"21 PZ": 2, "15 PZ": 1, "Trieste": 1, "69 Inf": 0})
    msgs = sorted(f.message for f in r.by_rule("7.0"))
    assert len(msgs) == 2 and "21 PZ" in msgs[0] and "Trieste" in msgs[1]
    assert check(open_map, turn="May 28", activations={"21 PZ": 2, "Trieste": 1}).by_rule("7.0") == []


def test_every_finding_at_once(open_map):
    r = check(open_map, [(f"u{i}", "allied", "infantry", "1520") for i in range(3)]
              + [("a", "axis", "armor", "1720"), ("b", "allied", "armor", "1720"), ("c", "axis", "armor", "3001")])
    assert {"10.0", "8.3"} <= set(rules_of(r, "error")) and len(r.errors()) == 3


def test_unknown_turn_is_a_warning(open_map):
    r = check(open_map, turn="Christmas")
    assert [f.rule for f in r.findings] == ["turn"]


def test_8_2_the_two_bracketed_units_must_stay(rg_map):
    from gazala_tools.counters import load_manifest
    from gazala_tools.referee.engine import Referee
    from gazala_tools.referee.position import parse_position, unit_specs

    specs = unit_specs(load_manifest("gazala-rg"))
    ids = sorted(k for k, v in specs.items() if v["formation"] == "69 Inf" and k == v["unit_id"])
    restricted = rg_rules(rg_map).restricted_units()
    free = next(i for i in ids if i not in restricted)
    bracketed = [i for i in ids if i in restricted]
    assert len(bracketed) == 2

    def run(hexes):
        data = {"game": "gazala-rg", "units": [{"id": i, "hex": h} for i, h in zip(ids, hexes, strict=True)]}
        return Referee(rg_rules(rg_map)).check(parse_position(data, labels=rg_map.grid, manifest=specs)).by_rule("8.2")

    where = {i: "0101" if i in bracketed else "1510" for i in ids}
    assert run([where[i] for i in ids]) == []
    where = {bracketed[0]: "0101", bracketed[1]: "1510", free: "0102"}
    [f] = run([where[i] for i in ids])
    assert f.units == (bracketed[1],)


def test_10_0_stacking_counts_units_not_steps(open_map):
    """10.0 "A maximum of two units": two three-step German armor units stack legally."""
    r = check(open_map, [("a", "axis", "armor", "1520", "21 PZ", [], 3), ("b", "axis", "armor", "1520", "21 PZ", [], 3)])
    assert r.legal and r.by_rule("10.0") == []


def test_10_0_stacking_limit_is_a_side_s_own_units(open_map):
    """10.0: "the owning player eliminates ... units of his choice": a hex is over-stacked by its owner's
    units; an enemy unit in the hex is the enemy-share error, not an over-stack."""
    r = check(open_map, [("a", "axis", "armor", "1520"), ("b", "axis", "infantry", "1520"),
                         ("c", "allied", "infantry", "1520")])
    [f] = r.by_rule("10.0")
    assert "enemy units share hex 1520" in f.message


def test_10_0_pavia_with_an_enemy_unit_is_enemy_sharing_not_stacking(open_map):
    r = check(open_map, [("p", "axis", "infantry", "0110", "Pavia"), ("c", "allied", "infantry", "0110")])
    [f] = r.by_rule("10.0")
    assert "enemy units share hex 0110" in f.message


def test_7_0_formation_names_as_the_rules_print_them(open_map):
    """7.0 names "the 15th Panzer and the 21st Panzer" and "1 Free Fr." brigades."""
    r = check(open_map, turn="May 27 PM", activations={"15th Panzer": 2, "1 Free Fr.": 1, "201 Guards": 1})
    msgs = sorted(f.message for f in r.by_rule("7.0"))
    assert len(msgs) == 3, msgs
    assert any("15th Panzer" in m for m in msgs) and any("1 Free Fr." in m for m in msgs)


def test_10_0_units_in_an_off_map_box_do_not_stack(open_map):
    r = check(open_map, [(f"u{i}", "allied", "armor", "June 3-4") for i in range(3)])
    assert r.by_rule("10.0") == [] and r.legal
