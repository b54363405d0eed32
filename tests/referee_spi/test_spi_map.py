"""SPI rules on the built-in map (the DG map with SPI's supply zones)."""

from __future__ import annotations

from pathlib import Path

from gazala_tools.mapdata import load_map
from gazala_tools.referee.api import position_from_data
from gazala_tools.referee.engine import Referee
from gazala_tools.referee.position import read_yaml
from gazala_tools.referee.report import SupplyStatus
from gazala_tools.rules.spi import CauldronSPI

SETUP = Path(__file__).resolve().parent.parent / "referee_dg" / "setup_19_0.yaml"


def test_16_1_west_edge_entries_are_road_or_trail_hexes_on_the_west_edge():
    m = load_map("cauldron-spi")
    rules = CauldronSPI(m)
    assert rules.west_entries
    assert all("W" in m.edges(h) and h in rules.path_hexes for h in rules.west_entries)
    assert rules.east_edge and all("E" in m.edges(h) for h in rules.east_edge)


def test_16_0_the_historical_set_up_is_supplied_after_automatic_supply_ends():
    """The DG 19.0 set-up (the same battle on the same map) at game-turn 8: everyone traces supply."""
    rules = CauldronSPI(load_map("cauldron-spi"))
    data = {**read_yaml(SETUP), "game": "cauldron-spi", "turn": "8"}
    r = Referee(rules).check(position_from_data(rules, data))
    assert len(r.supply) == 72 and set(r.supply.values()) == {SupplyStatus.IN}
    assert not r.by_rule("16.3")
