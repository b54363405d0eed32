"""DG (Cauldron: Battle for Gazala) and SPI (Cauldron, 1976): the hexes their rules name."""

from __future__ import annotations

import dataclasses

from gazala_tools.mapdata import GameMap

from . import rulerefs as c


def test_19_0_every_setup_hex_is_on_the_map_in_non_sea_terrain(dg: GameMap) -> None:
    assert c.dg_19_0_every_setup_hex_is_on_the_map_and_not_sea(dg) == []
    assert sum(len(v) for v in c.DG_SETUP.values()) == 23 + 17 + 32


def test_19_0_setup_check_fails_on_a_sea_hex(dg: GameMap) -> None:
    over = dict(dg.terrain_overrides)
    over[dg.hex("0228")] = "sea"
    assert (
        c.dg_19_0_every_setup_hex_is_on_the_map_and_not_sea(dataclasses.replace(dg, terrain_overrides=over))
        != []
    )


def test_18_0_tobruk_is_0608_a_port(dg: GameMap) -> None:
    assert c.dg_18_0_tobruk_is_0608(dg) == []
    assert dg.terrain(dg.hex("0608")) == "town"


def test_15_0_airfields_0709_1510_2707(dg: GameMap) -> None:
    assert c.dg_15_0_airfields(dg) == []


def test_12_0_supply_symbols_and_their_oddities(dg: GameMap) -> None:
    assert c.dg_12_0_supply_symbols(dg) == []
    assert dg.edges(dg.hex("1410")) == frozenset()  # kept visible, not fixed
    assert dg.edges(dg.hex("2924")) == frozenset({"S"})


def test_11_1_reinforcements_arrive_at_1201_and_0608(dg: GameMap) -> None:
    assert c.dg_11_1_reinforcement_hexes(dg) == []


def test_20_0_anti_tank_ditch_rings_tobruk(dg: GameMap) -> None:
    assert c.dg_20_0_anti_tank_ditch_rings_tobruk(dg) == []
    open_ring = dataclasses.replace(
        dg,
        explicit_features=tuple(f for f in dg.explicit_features if f.kind != "anti-tank-ditch"),
    )
    assert c.dg_20_0_anti_tank_ditch_rings_tobruk(open_ring) != []


def test_16_0_escarpment_ring_around_tobruk(dg: GameMap) -> None:
    assert c.dg_16_0_escarpment_ring_around_tobruk(dg) == []


def test_14_0_minefields_of_both_sides_and_14_3_fortified_boxes(dg: GameMap) -> None:
    assert c.dg_14_0_minefields_of_both_sides(dg) == []
    assert {b.owner for b in dg.boxes} == {"allied", "axis"}


def test_every_dg_check_passes(dg: GameMap) -> None:
    assert [(r.rule, r.name, r.problems) for r in c.run_checks(dg) if r.problems] == []


def test_spi_shares_the_dg_map(dg: GameMap, spi: GameMap) -> None:
    assert spi.grid == dg.grid
    assert spi.terrain_overrides == dg.terrain_overrides
    assert spi.boxes == dg.boxes and spi.paths == dg.paths
    assert spi.game == "cauldron-spi" and spi.provenance == "reconstructed"


def test_spi_16_1_axis_supply_roads_reach_the_west_edge(spi: GameMap) -> None:
    assert c.spi_16_1_axis_supply_roads_reach_the_west_edge(spi) == []


def test_spi_16_2_allied_supply_is_the_east_edge(spi: GameMap) -> None:
    assert c.spi_16_2_allied_supply_is_the_east_edge(spi) == []


def test_spi_18_2_tobruk_is_0608(spi: GameMap) -> None:
    assert c.spi_18_2_tobruk_zone_is_0608(spi) == []
    assert c.dg_18_0_tobruk_is_0608(spi) == []


def test_spi_drops_the_dg_only_zones(spi: GameMap) -> None:
    names = {z.name for z in spi.zones}
    assert "axis-supply-symbols" not in names and "axis-supply-entries" in names


def test_every_spi_check_passes(spi: GameMap) -> None:
    assert [(r.rule, r.name, r.problems) for r in c.run_checks(spi) if r.problems] == []
