"""BG 4.1.1 stacking, 4.1.2 engagement zones, 4.1 Axis motorized range, 7.0 recovery, 11.2 points."""

from __future__ import annotations

import pytest

from gazala_tools.errors import GazalaError
from gazala_tools.referee.api import manifest_specs, position_from_data
from gazala_tools.referee.engine import Context, Referee
from gazala_tools.referee.findings import Severity
from tests.rules.bg.bghelp import check, column, make_map, pos
from tests.support.fixtures import bg_rules

# --- 4.1.1 / 4.1.2 / terrain ---------------------------------------------------------------------


def test_4_1_1_three_units_may_stack(open_map):
    assert check(open_map, [(f"b{i}", "allied", "infantry", "M08") for i in range(3)]).legal


def test_4_1_1_a_fourth_unit_overstacks(open_map):
    r = check(open_map, [(f"b{i}", "allied", "infantry", "M08") for i in range(4)])
    assert [f.rule for f in r.errors()] == ["4.1.1"] and r.errors()[0].hexes == ("M08",)


def test_4_1_2_enemy_units_never_share_a_hex(open_map):
    r = check(open_map, [("a", "axis", "armor", "M08"), ("b", "allied", "infantry", "M08")])
    assert [f.rule for f in r.errors()] == ["4.1.2"]


def test_4_0_sea_is_prohibited():
    m = make_map('  hexes:\n    - {terrain: sea, source: test, hexes: ["D01"]}\n')
    r = check(m, [("a", "allied", "infantry", "D01"), ("b", "allied", "infantry", "exited")])
    assert [(f.rule, f.units) for f in r.errors()] == [("4.0", ("a",))]


def test_4_1_2_engagement_zone_is_the_six_surrounding_hexes(open_map):
    r = check(open_map, [("a", "axis", "infantry", "M08")])
    assert sorted(r.zoc["axis"]) == sorted(open_map.label(n) for n in open_map.hex("M08").neighbours())


def test_4_1_2_adjacent_enemies_are_engaged(open_map):
    r = check(open_map, [("a", "axis", "infantry", "M08"), ("b", "allied", "armor", "M09"), ("c", "allied", "armor", "P12")])
    f = r.by_rule("4.1.2")
    assert len(f) == 1 and set(f[0].units) == {"a", "b"}


def test_4_1_2_armor_ignores_infantry_engagement_zones(open_map):
    rules = bg_rules(open_map)
    ctx = Context(rules, pos(open_map, [("i", "allied", "infantry", "M08"), ("t", "allied", "armor", "R08")]))
    ring_i = {open_map.hex(x) for x in ("M07", "M09")}
    ring_t = {open_map.hex(x) for x in ("R07", "R09")}
    assert ring_i | ring_t <= rules.zones_against(ctx, "axis", armor=False)
    seen_by_armor = rules.zones_against(ctx, "axis", armor=True)
    assert ring_t <= seen_by_armor and not ring_i & seen_by_armor


# --- 4.1 Axis motorized range --------------------------------------------------------------------


def out_of_range(report) -> list[str]:
    return sorted(u for f in report.by_rule("4.1") if f.severity is Severity.WARNING for u in f.units)


def test_4_1_motorized_unit_20_hexes_from_a_west_road_hex_may_move(open_map):
    assert open_map.hex("A05").distance(open_map.hex("U05")) == 20
    assert out_of_range(check(open_map, [("m", "axis", "motorized-infantry", "U05")])) == []


def test_4_1_motorized_unit_21_hexes_away_cannot_move(open_map):
    r = check(open_map, [("m", "axis", "motorized-infantry", "V05"), ("i", "axis", "infantry", "Y05")])
    assert out_of_range(r) == ["m"]  # the infantry unit is not motorized
    assert r.vp["motorized_out_of_range"] == ["m"]


WALL = [(f"w{r}", "allied", "infantry", h) for r, h in zip(range(1, 17, 2), column("K", range(1, 17, 2)), strict=True)]


def test_4_1_path_must_be_free_of_enemy_engagement_zones(open_map):
    # Allied infantry on the odd rows of column K: its zones close the even rows between them
    assert out_of_range(check(open_map, [("m", "axis", "motorized-infantry", "M05"), *WALL])) == ["m"]


def test_4_1_armor_passes_infantry_zones(open_map):
    assert out_of_range(check(open_map, [("t", "axis", "armor", "M05"), *WALL])) == []
    tanks = [(i, s, "armor", h) for i, s, _, h in WALL]
    assert out_of_range(check(open_map, [("t", "axis", "armor", "M05"), *tanks])) == ["t"]


def test_4_1_path_may_not_cross_minefield_hexes():
    belt = make_map("boxes:\n  - {name: belt, kind: minefield, owner: allied, source: test, hexes: ["
                    + ", ".join(f'"{h}"' for h in column("K", range(1, 17))) + "]}\n")
    r = check(belt, [("m", "axis", "armor", "M05"), ("n", "axis", "armor", "K05")])
    assert out_of_range(r) == ["m"]  # a unit standing in the belt is not cut off by its own hex


def test_4_1_no_limit_once_the_axis_takes_tobruk(open_map):
    r = check(open_map, [("m", "axis", "armor", "X05"), ("t", "axis", "infantry", "T04")])
    assert out_of_range(r) == [] and r.by_rule("4.1")[0].severity is Severity.INFO



def test_4_1_within_20_hexes_of_either_west_road_hex_is_enough(open_map):
    # A05 held by an Allied unit: the path from it is cut, but U09 is 20 hexes from A09
    rows = [("m", "axis", "motorized-infantry", "U09"), ("b", "allied", "infantry", "A05")]
    assert out_of_range(check(open_map, rows)) == []
    both = [*rows, ("c", "allied", "infantry", "A09")]
    assert out_of_range(check(open_map, both)) == ["m"]

# --- 7.0 recovery --------------------------------------------------------------------------------


def recovery(report) -> dict[str, Severity]:
    return {f.units[0]: f.severity for f in report.by_rule("7.0")}


def test_7_0_disengaged_allied_reduced_unit_with_a_line_recovers(open_map):
    r = check(open_map, [("b", "allied", "infantry", "R09")], reduced=["b"])
    f = r.by_rule("7.0")
    assert recovery(r) == {"b": Severity.WARNING} and f[0].hexes[-1] in ("T04", "Y09")


def test_7_0_engaged_unit_does_not_recover(open_map):
    r = check(open_map, [("b", "allied", "infantry", "R09"), ("a", "axis", "infantry", "R10")], reduced=["b"])
    assert recovery(r) == {"b": Severity.INFO} and "engaged" in r.by_rule("7.0")[0].message


def test_7_0_line_cut_by_enemy_zones(open_map):
    wall = [(f"a{r}", "axis", "infantry", f"S{r:02d}") for r in range(1, 17, 2)]
    r = check(open_map, [("b", "allied", "infantry", "P09"), *wall], reduced=["b"])
    assert recovery(r) == {"b": Severity.INFO} and "no line" in r.by_rule("7.0")[0].message


def test_7_0_only_allied_units_recover(open_map):
    r = check(open_map, [("a", "axis", "infantry", "C09")], reduced=["a"])
    assert "only Allied" in r.by_rule("7.0")[0].message


def test_7_0_units_at_full_strength_have_nothing_to_recover(open_map):
    assert not check(open_map, [("b", "allied", "infantry", "R09")]).by_rule("7.0")


# --- 11.2 objectives and points ------------------------------------------------------------------


def test_11_2_the_allies_start_with_every_objective(open_map):
    r = check(open_map, [])
    assert (r.vp["axis"], r.vp["allied"], r.vp["ahead"]) == (0, 110, "allied")


def test_11_2_objective_points_for_the_side_holding_them(open_map):
    r = check(open_map, [("a", "axis", "infantry", "T04"), ("b", "axis", "infantry", "K14")])
    assert r.vp["objectives"] == {"Tobruk": "axis", "Bir Hacheim": "axis", "El Adem": "allied",
                                  "Knightsbridge": "allied"}
    assert (r.vp["axis"], r.vp["allied"], r.vp["ahead"]) == (80, 30, "axis")


def test_11_2_eliminated_units(open_map):
    rows = [("b1", "allied", "infantry", "eliminated"), ("b2", "allied", "armor", "eliminated"),
            ("g", "axis", "armor", "eliminated", "15 Pz"), ("i", "axis", "infantry", "eliminated", "Ariete"),
            ("j", "axis", "infantry", "eliminated", "Pavia")]
    r = check(open_map, rows)
    assert r.vp["axis"] == 2 * 5 and r.vp["allied"] == 110 + 5 + 1 + 1


def test_11_2_nationality_from_the_counter_manifest(open_map):
    r = check(open_map, [])
    rules = bg_rules(open_map)
    data = {"game": "batalha", "units": [{"id": "axis-15pz-8-pz", "box": "eliminated"}]}
    p = position_from_data(rules, data, manifest=manifest_specs("batalha"))
    assert Referee(rules).check(p).vp["allied"] == r.vp["allied"] + 5


def test_11_2_unknown_nationality_is_reported(open_map):
    r = check(open_map, [("x", "axis", "infantry", "eliminated")])
    assert r.by_rule("11.2.2") and r.vp["allied"] == 110


def test_11_2_four_eliminated_allied_units_put_the_axis_level(open_map):
    rows = [(f"b{i}", "allied", "infantry", "eliminated") for i in range(11)] + [("t", "axis", "armor", "T04")]
    r = check(open_map, rows)
    assert (r.vp["axis"], r.vp["allied"]) == (105, 60) and r.vp["ahead"] == "axis"


def test_2_4_1_fourteen_numbered_turns(open_map):
    assert check(open_map, [], turn=14).by_rule("turn") == []
    assert [f.severity for f in check(open_map, [], turn=15).by_rule("turn")] == [Severity.WARNING]


def test_9_3_a_cleared_minefield_hex_is_open_terrain():
    belt = make_map("boxes:\n  - {name: belt, kind: minefield, owner: allied, source: test, hexes: ["
                    + ", ".join(f'"{h}"' for h in column("K", range(1, 17))) + "]}\n")
    rows = [("m", "axis", "armor", "M05")]
    assert out_of_range(check(belt, rows)) == ["m"]
    assert out_of_range(check(belt, rows, cleared=["K05"])) == []


def test_9_3_cleared_hexes_must_be_map_hexes(open_map):
    with pytest.raises(GazalaError, match=r"cleared\[0\]"):
        pos(open_map, [], cleared=["Z99"])


def test_4_2_2_units_retreated_off_the_map_are_not_destroyed(open_map):
    r = check(open_map, [("b", "allied", "infantry", "exited"), ("g", "axis", "armor", "exited", "15 Pz")])
    assert (r.vp["axis"], r.vp["allied"]) == (0, 110) and not r.by_rule("11.2.2") and r.legal


def test_11_2_eliminated_unit_of_either_axis_nationality_by_id_prefix(open_map):
    r = check(open_map, [("de-x", "axis", "armor", "eliminated"), ("it-y", "axis", "armor", "eliminated")])
    assert r.vp["allied"] == 110 + 5 + 1


INLET = ("    sea-inlet: {}\n  hexes:\n    - {terrain: sea-inlet, source: test, hexes: ["
         + ", ".join(f'"{h}"' for h in column("K", range(1, 17))) + "]}\n")


def test_4_0_sea_inlet_is_prohibited_to_armor():
    # terrain chart: "Braço de Mar ... * Proibido para blindados"; 5.3.2: armor retreating into one is eliminated
    m = make_map(INLET)
    r = check(m, [("t", "axis", "armor", "K05"), ("i", "allied", "infantry", "K09")])
    assert [(f.rule, f.units) for f in r.errors()] == [("4.0", ("t",))]


def test_4_1_armor_range_path_may_not_cross_a_sea_inlet():
    m = make_map(INLET)
    r = check(m, [("t", "axis", "armor", "M05"), ("m", "axis", "motorized-infantry", "M07")])
    assert out_of_range(r) == ["t"]
