"""Rail Junction (``rail-junction/``, issue 32): a second game made only of data, written from its rules
text (``rail-junction/RULES.md``) with nothing but ``docs/games.md`` and ``docs/mapdata.md``, each case
adjudicated by hand from that text. The engine-written log is in ``test_rail_junction_log.py``.

The map (``rail-junction/map.yaml``): flat-topped hexes, columns A-J west to east, rows 1-8 north to
south; columns B, D, F, H, J lie half a hex lower, so a hex of column E (or A, C, G, I) ``E4`` has the
neighbours E3, F4, F5, E5, D5, D4, and a hex of column D ``D5`` has D4, E4, E5, D6, C5, C4. Towns
Junction E4 and Millbrook H4; forest B2 B3 C2 C4 G6 G7; marsh C6 D7; mountains H2 I2; the creek
between rows 5 and 6; the railway down column E (E1-E8, its bridge at E5/E6); the trail A5-B5-C4-D4-
E4-F4-G4-H4. Movement allowances: infantry 4, cavalry 6, artillery 3, HQ 4.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from gazala_tools.games import find_game
from gazala_tools.referee.api import manifest_specs, position_from_data
from gazala_tools.referee.engine import Context, Referee, RulesPlugin
from gazala_tools.referee.findings import Finding, Severity
from gazala_tools.referee.plugins import rules_for
from gazala_tools.referee.position import Unit
from gazala_tools.referee.report import Report

from .conftest import MovePhase

FOLDER = Path(__file__).resolve().parent / "rail-junction"
G, R = "guard", "raider"
TYPES = {"g-1-inf": (G, "infantry"), "g-2-inf": (G, "infantry"), "g-3-cav": (G, "cavalry"),
         "g-4-art": (G, "artillery"), "g-hq": (G, "hq"), "r-1-inf": (R, "infantry"), "r-2-inf": (R, "infantry"),
         "r-3-cav": (R, "cavalry"), "r-4-cav": (R, "cavalry"), "r-5-art": (R, "artillery"), "r-hq": (R, "hq"),
         "r-6-cav": (R, "cavalry")}


@pytest.fixture(scope="module")
def rules() -> RulesPlugin:
    return rules_for(find_game(str(FOLDER)))


def u(uid: str, where: str, *markers: str) -> dict[str, Any]:
    """A unit of the counter sheet, on a hex (``E4``) or in a box (lower case: ``eliminated``)."""
    side, kind = TYPES[uid]
    d: dict[str, Any] = {"id": uid, "side": side, "type": kind}
    d["box" if where.islower() else "hex"] = where
    if markers:
        d["markers"] = list(markers)
    return d


def check(rules: RulesPlugin, *units: dict[str, Any], turn: int | None = None) -> Report:
    data: dict[str, Any] = {"game": "rail-junction", "units": list(units)}
    if turn is not None:
        data["turn"] = str(turn)
    return Referee(rules).check(position_from_data(rules, data, manifest=manifest_specs(FOLDER)))


def rules_of(report: Report, severity: Severity = Severity.ERROR) -> list[str]:
    return [f.rule for f in report.findings if f.severity is severity]


def supply(report: Report) -> dict[str, str]:
    return {k: v.value for k, v in report.supply.items()}


# --- 4 stacking: units, a town holds three, HQs free -----------------------------------------------------
def test_4_1_three_units_in_a_clear_hex_are_one_too_many(rules: RulesPlugin) -> None:
    r = check(rules, u("g-1-inf", "D3"), u("g-2-inf", "D3"), u("g-4-art", "D3"))
    assert rules_of(r) == ["4.1"]
    assert r.errors()[0].message.startswith("D3: 3 Guard units in one hex")


def test_4_1_a_town_holds_three(rules: RulesPlugin) -> None:
    assert rules_of(check(rules, u("g-1-inf", "E4"), u("g-2-inf", "E4"), u("g-4-art", "E4"))) == []
    four = check(rules, u("g-1-inf", "H4"), u("g-2-inf", "H4"), u("g-3-cav", "H4"), u("g-4-art", "H4"))
    assert rules_of(four) == ["4.1"]


def test_4_2_an_hq_does_not_count(rules: RulesPlugin) -> None:
    assert rules_of(check(rules, u("g-1-inf", "D3"), u("g-2-inf", "D3"), u("g-hq", "D3"))) == []


def test_4_3_enemy_units_never_share_a_hex(rules: RulesPlugin) -> None:
    assert rules_of(check(rules, u("g-1-inf", "D3"), u("r-1-inf", "D3"))) == ["4.3"]


# --- 5 zones of control ----------------------------------------------------------------------------------
def zoc(rules: RulesPlugin, side: str, *units: dict[str, Any]) -> list[str]:
    pos = position_from_data(rules, {"game": "rail-junction", "units": list(units)})
    return sorted(rules.map.label(h) for h in Context(rules, pos).zoc(side))


def test_5_1_5_2_infantry_exerts_a_zoc_into_its_neighbours_but_not_into_marsh(rules: RulesPlugin) -> None:
    # E7's neighbours: E6, F7, F8, E8, D8 and D7, a marsh (5.2); across the creek (E6) it extends
    assert zoc(rules, R, u("r-1-inf", "E7")) == ["D8", "E6", "E8", "F7", "F8"]


def test_5_1_artillery_hqs_and_disorganized_units_exert_none(rules: RulesPlugin) -> None:
    assert zoc(rules, R, u("r-5-art", "E7"), u("r-hq", "B3"), u("r-3-cav", "H6", "disorganized")) == []
    assert zoc(rules, R, u("r-3-cav", "H6")) == ["G5", "G6", "H5", "H7", "I5", "I6"]


# --- 7 supply -------------------------------------------------------------------------------------------
def test_7_2_three_hexes_to_the_north_edge(rules: RulesPlugin) -> None:
    # A4-A3-A2-A1: three hexes; A5 is four from the edge, from the railway (B5-C4-D4-E4) and from no HQ
    r = check(rules, u("g-1-inf", "A4"), u("g-2-inf", "A5"))
    assert supply(r)["g-1-inf"] == "in" and supply(r)["g-2-inf"] == "out"
    assert [f.message for f in r.findings if f.rule == "7.2"] == [
        "g-2-inf at A5 is unsupplied: no unobstructed path to the north edge, the Guard HQ or the railway (3 hexes)"]


def test_7_1_an_hq_is_a_source_where_it_stands(rules: RulesPlugin) -> None:
    # the HQ at C4 is two hexes from A5 (A5-B5-C4); the HQ itself, far from everything, is in supply (7.5)
    r = check(rules, u("g-2-inf", "A5"), u("g-hq", "C4"), u("r-hq", "A2"))
    assert supply(r) == {"g-2-inf": "in", "g-hq": "in", "r-hq": "in"}


def test_7_2_the_railway_joined_to_the_edge_carries_supply(rules: RulesPlugin) -> None:
    # F7 is one hex from the railway at E6, joined to the north edge along E5-E1
    assert supply(check(rules, u("g-3-cav", "F7")))["g-3-cav"] == "in"


def test_7_4_an_enemy_zoc_cuts_the_railway(rules: RulesPlugin) -> None:
    # a Raider unit at D5 has E4 and E5 in its zone: the railway south of E3 is cut off the north edge,
    # and F7 is four hexes from E3 (F6-F5-F4-E3)
    assert supply(check(rules, u("g-3-cav", "F7"), u("r-2-inf", "D5")))["g-3-cav"] == "out"


def test_7_4_friendly_units_negate_the_zoc_on_the_railway(rules: RulesPlugin) -> None:
    # Guard units in E4 and E5 negate the zone there (5.4): the railway carries supply to E6 again (one
    # hex from F7); with only E5 held, E4 still cuts the railway, and the path may not enter E4 either:
    # E3 is four hexes away (F6-F5-F4-E3)
    both = check(rules, u("g-3-cav", "F7"), u("r-2-inf", "D5"), u("g-1-inf", "E4"), u("g-4-art", "E5"))
    assert supply(both)["g-3-cav"] == "in"
    one = check(rules, u("g-3-cav", "F7"), u("r-2-inf", "D5"), u("g-4-art", "E5"))
    assert supply(one)["g-3-cav"] == "out"
    # with only E4 held, E4 is a railway hex joined to the edge, three hexes from F7 (F6-F5-E4): in supply
    only_e4 = check(rules, u("g-3-cav", "F7"), u("r-2-inf", "D5"), u("g-1-inf", "E4"))
    assert supply(only_e4)["g-3-cav"] == "in"


def test_7_3_the_path_may_not_enter_an_enemy_zoc(rules: RulesPlugin) -> None:
    # a Raider cavalry at B3 has A2, A3 and B4 in its zone: A4 cannot reach the edge in 3 hexes
    assert supply(check(rules, u("g-1-inf", "A4"), u("r-3-cav", "B3")))["g-1-inf"] == "out"


def test_7_3_5_4_friendly_units_negate_the_zoc_for_the_path(rules: RulesPlugin) -> None:
    r = check(rules, u("g-1-inf", "A4"), u("r-3-cav", "B3"), u("g-4-art", "A3"), u("g-3-cav", "A2"))
    assert supply(r)["g-1-inf"] == "in"


def test_7_3_the_path_never_enters_a_mountain(rules: RulesPlugin) -> None:
    # I3's neighbours: I2 (a mountain), J3 (a Raider artillery: no zone, but enemy-held), J4 (a dead end),
    # I4, H4 (a Raider infantry, whose zone holds H3) and H3: the only way north within 3 hexes is I2-I1
    r = check(rules, u("g-2-inf", "I3"), u("r-5-art", "J3"), u("r-1-inf", "H4"))
    assert supply(r)["g-2-inf"] == "out"
    # without the infantry, H3-G2-G1 (three hexes) goes round the mountains
    assert supply(check(rules, u("g-2-inf", "I3"), u("r-5-art", "J3")))["g-2-inf"] == "in"


# --- 8 reinforcements ------------------------------------------------------------------------------------
def test_8_1_the_cavalry_on_the_map_before_turn_2(rules: RulesPlugin) -> None:
    assert rules_of(check(rules, u("r-6-cav", "I8"), turn=1)) == ["8.1"]
    assert rules_of(check(rules, u("r-6-cav", "I8"), turn=2)) == []


def test_8_2_an_entry_hex_in_a_guard_zoc_may_not_be_used(rules: RulesPlugin) -> None:
    # a Guard infantry at I7 has I8 and J8 in its zone; a Raider unit at J8 does not open it (5.4 is
    # for movement and supply only)
    assert rules_of(check(rules, u("r-6-cav", "I8"), u("g-1-inf", "I7"), turn=2)) == ["8.2"]
    assert "8.2" in rules_of(check(rules, u("r-6-cav", "J8"), u("r-4-cav", "J8"), u("g-1-inf", "I7"), turn=2))


def test_8_2_both_entry_hexes_blocked_the_cavalry_waits(rules: RulesPlugin) -> None:
    r = check(rules, u("r-6-cav", "reinforcements"), u("g-1-inf", "I7"), turn=2)
    [w] = [f.message for f in r.findings if f.rule == "8.2"]
    assert w == ("every reinforcement hex of r-6-cav (Turn 2) is blocked (I8 is in the enemy zone of control of "
                 "g-1-inf (I7); J8 is in the enemy zone of control of g-1-inf (I7)): it may not arrive until an entry hex is free")


# --- 9/10 control and victory ---------------------------------------------------------------------------
def vp(report: Report) -> tuple[object, object, object]:
    assert report.vp is not None
    return report.vp["guard"], report.vp["raider"], report.vp.get("result")


def test_10_3_junction_and_millbrook_score_at_the_end_of_turn_5_only(rules: RulesPlugin) -> None:
    # a Raider unit in Junction (4); Millbrook, empty, is the Guard's by its start (9.1): 2
    assert vp(check(rules, u("r-1-inf", "E4"), u("g-2-inf", "A1"), turn=5)) == (2, 4, "The Raiders minor victory (by 2 VP)")
    assert vp(check(rules, u("r-1-inf", "E4"), u("g-2-inf", "A1"), turn=3))[:2] == (0, 0)


def test_9_1_a_unit_in_millbrook_controls_it(rules: RulesPlugin) -> None:
    assert vp(check(rules, u("r-1-inf", "E4"), u("r-2-inf", "H5"), u("g-2-inf", "E3"), turn=5))[:2] == (2, 4)
    assert vp(check(rules, u("r-1-inf", "E3"), u("r-2-inf", "H4"), u("g-2-inf", "E4"), turn=5))[:2] == (4, 2)


def test_10_1_eliminations(rules: RulesPlugin) -> None:
    # the Guard loses an infantry (2) and its HQ (3); the Raiders a cavalry (1)
    r = check(rules, u("g-1-inf", "eliminated"), u("g-hq", "eliminated"), u("r-3-cav", "eliminated"),
              u("g-2-inf", "E4"), turn=2)
    assert vp(r)[:2] == (1, 5)


def test_10_2_exits_score_three_an_hq_none(rules: RulesPlugin) -> None:
    r = check(rules, u("r-3-cav", "exited"), u("r-4-cav", "exited"), u("r-hq", "exited"), turn=2)
    assert vp(r)[:2] == (0, 6)


def test_10_4_sudden_death(rules: RulesPlugin) -> None:
    r = check(rules, u("r-1-inf", "E4"), u("r-2-inf", "H4"), turn=2)
    assert "10.4" in [f.rule for f in r.findings]
    assert rules_of(check(rules, u("r-1-inf", "E4"), u("g-2-inf", "H4"), turn=2), Severity.INFO).count("10.4") == 0


def test_10_5_a_major_victory_and_a_stalemate(rules: RulesPlugin) -> None:
    # the Guard holds Junction (4) and Millbrook (2): by 6, a major victory
    assert vp(check(rules, u("g-1-inf", "E4"), turn=5)) == (6, 0, "The Guard major victory (by 6 VP)")
    # the Raiders hold Junction (4), the Guard Millbrook (2) and two Raider units are eliminated (2)
    r = check(rules, u("r-1-inf", "E4"), u("r-2-inf", "eliminated"), u("r-3-cav", "eliminated"), turn=5)
    assert vp(r) == (4, 4, "a stalemate")


# --- 3, 5.3, 6.1 movement --------------------------------------------------------------------------------
def Phase(rules: RulesPlugin, *units: dict[str, Any]) -> MovePhase:
    """One movement phase of these units (``u(...)``)."""
    return MovePhase(rules, [Unit(d["id"], d["side"], d["type"], "", rules.map.hex(d["hex"]) if "hex" in d else None,
                                  box=d.get("box"), markers=frozenset(d.get("markers", ()))) for d in units])


def errors(found: list[Finding]) -> list[str]:
    return [f.rule for f in found if f.severity is Severity.ERROR]


def test_3_3_the_railway_costs_half_and_bridges_the_creek(rules: RulesPlugin) -> None:
    ph = Phase(rules, u("r-1-inf", "E8"))
    assert ph.move("r-1-inf", "E4") == [] and ph.spent("r-1-inf") == 2  # E7, E6 (bridge), E5, E4: 4 x 1/2


def test_3_2_the_creek_off_the_railway_adds_one(rules: RulesPlugin) -> None:
    ph = Phase(rules, u("r-1-inf", "D6"))
    assert ph.move("r-1-inf", "D5") == [] and ph.spent("r-1-inf") == 2


def test_3_3_the_trail_through_the_forest_costs_one(rules: RulesPlugin) -> None:
    # B5-C4-D4 along the trail: 2 (C4 is forest, 2 off the trail)
    ph = Phase(rules, u("g-3-cav", "B5"))
    assert ph.move("g-3-cav", "D4") == [] and ph.spent("g-3-cav") == 2
    ph = Phase(rules, u("g-3-cav", "B4"))  # B4 is not on the trail: into the forest at C4, 2
    assert ph.move("g-3-cav", "C4") == [] and ph.spent("g-3-cav") == 2


def test_3_1_no_minimum_move(rules: RulesPlugin) -> None:
    # artillery (3 MP) from D6 into the marsh D7 (3): legal; from D5 across the creek into the marsh
    # (D6 is clear: 1 + 1, then D7 3 = 5): too far, and no exception for the first hex
    assert errors(Phase(rules, u("r-5-art", "D6")).move("r-5-art", "D7")) == []
    found = Phase(rules, u("r-5-art", "C5")).move("r-5-art", "C6")  # creek + marsh = 4 of 3
    assert errors(found) == ["3.1"]


def test_3_2_a_mountain_is_prohibited(rules: RulesPlugin) -> None:
    assert errors(Phase(rules, u("g-2-inf", "H3")).move("g-2-inf", "H2")) == ["3.2"]


def test_5_3_entering_an_enemy_zoc_costs_one_more_and_never_stops(rules: RulesPlugin) -> None:
    # a Guard infantry at F4 has F3, G3, G4, F5, E4 and E3 in its zone. A Raider cavalry (6 MP) from F7 to
    # G4: F6 (1), G5 across the creek (1 + 1), G4 (1 + 1 for the zone) = 5; by F5 it would be F6 1, F5 3
    # (creek, zone), G4 2 = 6; by the railway E6 1, E5 1/2, F5 2 (zone), G4 2 = 5.5. It may move on (no stop)
    ph = Phase(rules, u("r-3-cav", "F7"), u("g-1-inf", "F4"))
    found = ph.move("r-3-cav", "G4")
    assert errors(found) == [] and ph.spent("r-3-cav") == 5 and ph.paths[-1] == ["F7", "F6", "G5", "G4"]
    assert errors(ph.move("r-3-cav", "G3")) == ["3.1"]  # one more zone hex: 2 of the 1 left


def test_5_4_a_friendly_unit_negates_the_zoc_for_movement(rules: RulesPlugin) -> None:
    # the same move with Raider units in F5 and G4: no extra point there, so the railway way is the
    # cheapest: E6 1, E5 1/2, F5 1, G4 1 = 3.5
    ph = Phase(rules, u("r-3-cav", "F7"), u("g-1-inf", "F4"), u("r-1-inf", "F5"), u("r-2-inf", "G4"))
    assert ph.move("r-3-cav", "G4") == [] and ph.spent("r-3-cav") == 3.5
    assert ph.paths[-1] == ["F7", "E6", "E5", "F5", "G4"]


def test_6_1_disorganized_halves_the_allowance_rounded_up(rules: RulesPlugin) -> None:
    # artillery 3 -> 2: two clear hexes; a third is too far
    assert errors(Phase(rules, u("g-4-art", "A1", "disorganized")).move("g-4-art", "A3")) == []
    assert errors(Phase(rules, u("g-4-art", "A1", "disorganized")).move("g-4-art", "A4")) == ["3.1"]


def test_3_5_the_guard_never_leaves_the_map(rules: RulesPlugin) -> None:
    assert errors(Phase(rules, u("g-3-cav", "A1")).move("g-3-cav", None, box="Exited")) == ["3.5"]
    assert errors(Phase(rules, u("r-3-cav", "A1")).move("r-3-cav", None, box="Exited")) == []


def test_game_yaml_follows_the_json_schema() -> None:
    # a path row with a rule and no bridges ({cost: 1, rule: "3.3"}) is a row, though it reads as cells too
    import json

    import jsonschema
    import yaml

    schema = json.loads((Path(__file__).resolve().parents[2] / "gazala_tools/games/schema.json").read_text())
    raw = yaml.safe_load((FOLDER / "game.yaml").read_text(encoding="utf-8"))
    assert [e.message for e in jsonschema.Draft202012Validator(schema).iter_errors(raw)] == []
    raw["rules"]["terrain-effects"]["paths"]["trail"] = {"cost": "x1", "rule": "3.3"}
    assert [e.message for e in jsonschema.Draft202012Validator(schema).iter_errors(raw)]
