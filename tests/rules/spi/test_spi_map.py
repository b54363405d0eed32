"""SPI rules on the built-in map (the DG map with SPI's supply zones)."""

from __future__ import annotations

from pathlib import Path

from gazala_tools.mapdata import load_map
from gazala_tools.referee.api import position_from_data
from gazala_tools.referee.engine import Referee
from gazala_tools.referee.position import read_yaml
from gazala_tools.referee.report import SupplyStatus
from tests.support.fixtures import spi_rules

SETUP = Path(__file__).resolve().parent.parent / "dg" / "setup_19_0.yaml"


def test_16_1_west_edge_entries_are_road_or_trail_hexes_on_the_west_edge():
    """16.1's sources are the west edge's road/trail hexes (data: sources W edge, network road+track):
    the map's zone ``axis-supply-entries`` lists the same hexes; 16.2's are the east edge."""
    m = load_map("cauldron-spi")
    axis = spi_rules(m).data.supply.sides["axis"]
    entries = axis.sources.hexes & axis.network_hexes
    assert entries and entries == m.zone("axis-supply-entries").hexes
    allied = spi_rules(m).data.supply.sides["allied"].sources.hexes
    assert allied == m.zone("allied-supply").hexes and all("E" in m.edges(h) for h in allied)


def test_16_0_the_historical_set_up_is_supplied_after_automatic_supply_ends():
    """The DG 19.0 set-up (the same battle on the same map) at game-turn 8: everyone traces supply."""
    rules = spi_rules(load_map("cauldron-spi"))
    data = {**read_yaml(SETUP), "game": "cauldron-spi", "turn": "8"}
    r = Referee(rules).check(position_from_data(rules, data))
    assert len(r.supply) == 72 and set(r.supply.values()) == {SupplyStatus.IN}
    assert not r.by_rule("16.3")
