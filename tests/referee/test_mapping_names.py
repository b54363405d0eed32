"""``--mapping``: patterns match the piece's base name (VASSAL's displayed name carries layer
suffixes such as a fan module's " OOS"), and unit-like pieces no pattern matches are reported."""

from __future__ import annotations

from gazala_tools.referee.engine import Referee
from gazala_tools.referee.saves import PieceMapping, position_from_mapped_pieces
from gazala_tools.vsav import PieceView
from tests.support.fixtures import rg_rules

MAPPING = PieceMapping({
    "units": [{"match": "^(?P<id>2 Lcr)$", "side": "allied", "type": "infantry", "formation": "3 Ind"}],
    "properties": [{"property": "OOS_Active", "value": "true", "marker": "out-of-supply"}],
}, "mapping.yaml")


def pieces(rg_map):
    x, y = rg_map.geometry().hex_center(rg_map.hex("1520"))
    ringed = PieceView(id="1", name="2 Lcr OOS", base_name="2 Lcr", map="Main Map", x=x, y=y,
                       properties={"OOS_Active": "true"})
    stranger = PieceView(id="2", name="1 Worc", base_name="1 Worc", map="Main Map", x=x, y=y + 80)
    chit = PieceView(id="3", name="Axis tactical chit", base_name="Axis tactical chit", map="Main Map", x=5, y=5)
    return [ringed, stranger, chit]


def test_5_0_a_dollar_anchored_pattern_still_finds_a_unit_whose_layer_renames_it(rg_map):
    pos = position_from_mapped_pieces(pieces(rg_map), rules=rg_rules(rg_map), mapping=MAPPING, turn="May 29")
    [u] = pos.units
    assert u.id == "2 Lcr" and u.markers == {"out-of-supply"}


def test_mapping_unmatched_unit_like_pieces_are_reported_by_count_and_name(rg_map):
    rules = rg_rules(rg_map)
    pos = position_from_mapped_pieces(pieces(rg_map), rules=rules, mapping=MAPPING, turn="May 29")
    assert pos.unmatched == ("1 Worc",)
    r = Referee(rules).check(pos)
    assert r.unmatched == ["1 Worc"] and r.to_dict()["unmatched_pieces"] == ["1 Worc"]
    [f] = [f for f in r.findings if f.rule == "mapping"]
    assert f.message.startswith("1 piece(s) that look like units matched no --mapping pattern") and "1 Worc" in f.message
