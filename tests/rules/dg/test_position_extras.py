"""Game-specific top-level keys of a position YAML (``extra_keys``) and numbered game turns."""

from __future__ import annotations

import pytest

from gazala_tools.errors import GazalaError
from gazala_tools.referee.api import position_from_data
from gazala_tools.referee.turns import game_turn
from gazala_tools.rules.bg import BatalhaDeGazala
from tests.support.fixtures import dg_rules, spi_rules

UNITS = [{"id": "a", "side": "axis", "type": "armor", "hex": "1010"}]


def test_extras_land_in_position_extra(open_map):
    p = position_from_data(spi_rules(open_map), {"game": "cauldron-spi", "units": UNITS, "attacked": ["a"],
                                               "exited": {"a": 8}, "tobruk": "axis"})
    assert p.extra == {"attacked": ["a"], "exited": {"a": 8}, "tobruk": "axis"}


def test_extras_must_name_units_of_the_position(open_map):
    with pytest.raises(GazalaError, match=r"attacked\[0\]: unknown unit id 'zz'"):
        position_from_data(spi_rules(open_map), {"game": "cauldron-spi", "units": UNITS, "attacked": ["zz"]})


def test_a_key_no_rule_knows_is_still_refused(open_map):
    with pytest.raises(GazalaError, match="unknown key"):
        position_from_data(dg_rules(open_map), {"game": "cauldron-dg", "units": UNITS, "reduced": ["a"]})


def test_extra_mappings_take_unit_ids_or_sides(open_map):
    position_from_data(dg_rules(open_map), {"game": "cauldron-dg", "units": UNITS, "losses": {"axis": 2}})
    with pytest.raises(GazalaError, match="losses: unknown key"):
        position_from_data(dg_rules(open_map), {"game": "cauldron-dg", "units": UNITS, "losses": {"germans": 2}})


def test_bg_declares_reduced_units_and_cleared_hexes():
    assert BatalhaDeGazala.extra_keys == frozenset({"reduced", "cleared", "held"})
    assert BatalhaDeGazala.extra_hex_keys == frozenset({"cleared"})


@pytest.mark.parametrize(("label", "n"), [("6", 6), ("Turn 6", 6), ("Game-Turn 12", 12), ("GT3", 3), ("t 14", 14),
                                          ("May 29", None), ("", None), (None, None), ("6a", None)])
def test_game_turn_labels(label, n):
    assert game_turn(label) == n
