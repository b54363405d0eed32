"""BG (Batalha de Gazala): our own numbering, the places the rules name, the 4.0 example."""

from __future__ import annotations

import dataclasses

from gazala_tools.mapdata import GameMap

from . import rulerefs as c


def test_2_1_the_map_has_400_hexes(bg: GameMap) -> None:
    assert c.bg_2_1_the_map_has_400_hexes(bg) == []
    assert bg.label(bg.grid.hexes()[0]) == "A01" and bg.label(bg.grid.hexes()[-1]) == "Y16"


def test_4_0_movement_example_costs_16_movement_points(bg: GameMap) -> None:
    assert c.bg_4_0_movement_example_costs_16_points(bg) == []


def test_4_0_example_fails_if_the_minefield_is_cleared(bg: GameMap) -> None:
    m = dataclasses.replace(bg, boxes=tuple(b for b in bg.boxes if b.kind.value != "minefield"))
    assert c.bg_4_0_movement_example_costs_16_points(m) != []


def test_4_1_two_west_edge_road_hexes(bg: GameMap) -> None:
    assert c.bg_4_1_two_west_edge_road_hexes(bg) == []
    assert all("W" in bg.edges(h) for h in bg.zone("axis-road-entries").hexes)


def test_11_1_setup_places_exist_on_land(bg: GameMap) -> None:
    assert c.bg_11_1_setup_places_exist_on_land(bg) == []


def test_11_2_objectives_tobruk_bir_hacheim_el_adem_knightsbridge(bg: GameMap) -> None:
    assert c.bg_11_2_objectives(bg) == []


def test_terrain_chart_sea_is_prohibited(bg: GameMap) -> None:
    assert bg.terrain_types["sea"].impassable
    assert not bg.terrain_types["sea-inlet"].impassable
    assert bg.hexes_of_terrain("sea") and bg.hexes_of_terrain("ridge")


def test_every_bg_check_passes(bg: GameMap) -> None:
    assert [(r.rule, r.name, r.problems) for r in c.run_checks(bg) if r.problems] == []
