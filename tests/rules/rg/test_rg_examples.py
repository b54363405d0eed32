"""The rulebook's 11.0 combat example, as a position (the illustration rebuilt from the text)."""

from __future__ import annotations

from gazala_tools.referee.report import SupplyStatus
from tests.rules.rg.refhelp import check

# "The Axis ... uses the 5/2 armor unit and some Italians ... to wipe out the 3 Indian unit in 1521 and
# moves infantry around the remaining two units of the 3 Indian. The 5/1 armor unit then moves from hex
# 1622 ... to hex 1621 and launches an attack." Reconstructed: 5/2 advanced into 1521; the two Axis
# infantry adjacent to the defender stand in 1421 and 1620; Ariete's 12 Ber in 1319.
COMBAT_EXAMPLE = [
    ("axis-21pz-5-1", "axis", "armor", "1621", "21 PZ", [], 3),
    ("axis-21pz-5-2", "axis", "armor", "1521", "21 PZ", [], 3),
    ("axis-90lt-inf-a", "axis", "infantry", "1421", "90 Lt"),
    ("axis-90lt-inf-b", "axis", "infantry", "1620", "90 Lt"),
    ("axis-ariete-12ber", "axis", "infantry", "1319", "Ariete"),
    ("allied-3ind-defender", "allied", "infantry", "1520", "3 Ind"),
    ("allied-3ind-last", "allied", "infantry", "1420", "3 Ind"),
]


def test_11_0_combat_example_position_is_legal(rg_map):
    r = check(rg_map, COMBAT_EXAMPLE, turn="May 27 AM", activations={"21 PZ": 1})
    assert r.legal, r.errors()


def test_11_0_combat_example_defender_surrounded_by_units_or_zoc(rg_map):
    r = check(rg_map, COMBAT_EXAMPLE, turn="May 27 AM")
    zoc = set(r.zoc["axis"])
    axis_hexes = {u[3] for u in COMBAT_EXAMPLE if u[1] == "axis"}
    around = {rg_map.label(n) for n in rg_map.hex("1520").neighbours()}
    assert around - axis_hexes - zoc == set()  # every side: an enemy unit or enemy ZOC
    assert around & {"1420"} == {"1420"}  # ... and the one friendly hex is in enemy ZOC too
    two_away = {rg_map.label(n) for n in rg_map.hex("1420").neighbours()} - around - {"1520"}
    assert two_away and two_away <= zoc | axis_hexes  # "all of those hexes are through enemy ZOC"


def test_11_0_combat_example_zoc_does_not_cut_supply(rg_map):
    r = check(rg_map, COMBAT_EXAMPLE, turn="May 27 AM")
    assert r.supply["allied-3ind-defender"] is SupplyStatus.IN
    assert r.supply["allied-3ind-last"] is SupplyStatus.IN
