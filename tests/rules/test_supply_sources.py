"""Supply sources that are units (``source-units``: an HQ supplies where it stands), on a copy of Lowland
Front whose League traces to its HQs too (a variant of its rule 7.1)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from gazala_tools.games import find_game
from gazala_tools.referee.api import position_from_data
from gazala_tools.referee.engine import Referee, RulesPlugin
from gazala_tools.rules import rules_for

FOLDER = Path(__file__).resolve().parents[1] / "games" / "lowland-front"


@pytest.fixture(scope="module")
def rules(tmp_path_factory: pytest.TempPathFactory) -> RulesPlugin:
    game = tmp_path_factory.mktemp("lf") / "lowland-front"
    shutil.copytree(FOLDER, game)
    text = (game / "game.yaml").read_text(encoding="utf-8")
    old = "league: {sources: {edges: [W], places: [Westhaven]}, network: [road, railway], direct: true,"
    assert text.count(old) == 1
    (game / "game.yaml").write_text(text.replace(old, old[:-1] + ", source-units: {types: [hq]},"), encoding="utf-8")
    return rules_for(find_game(game))


def supply(rules: RulesPlugin, *units: tuple[str, str, str]) -> dict[str, str]:
    rows = [{"id": i, "side": "league", "type": t, "hex": h} for i, t, h in units]
    report = Referee(rules).check(position_from_data(rules, {"game": "lowland-front", "units": rows}))
    return {k: v.value for k, v in report.supply.items()}


def test_an_hq_is_a_source_where_it_stands(rules: RulesPlugin) -> None:
    # 20.01 is 5 MP from the League's nearest network hex (the high road at 20.06); the HQ beside it
    # (21.01) is a source: 1 MP
    assert supply(rules, ("a", "infantry", "20.01"), ("h", "hq", "21.01")) == {"a": "in", "h": "in"}


def test_without_the_hq_the_unit_is_out_of_supply(rules: RulesPlugin) -> None:
    assert supply(rules, ("a", "infantry", "20.01")) == {"a": "out"}
    assert supply(rules, ("a", "infantry", "20.01"), ("h", "infantry", "21.01")) == {"a": "out", "h": "out"}


def test_isolated_at_once_when_the_data_says_so(tmp_path: Path) -> None:
    """``supply.isolated-after: 1``: a unit out of supply is Isolated in the first supply phase (Lowland
    Front's 7.6 says two; a variant)."""
    game = tmp_path / "lowland-front"
    shutil.copytree(FOLDER, game)
    text = (game / "game.yaml").read_text(encoding="utf-8")
    old = "    off-map: reinforcements\n"
    assert text.count(old) == 1
    (game / "game.yaml").write_text(text.replace(old, "    isolated-after: 1\n" + old), encoding="utf-8")
    rules = rules_for(find_game(game))
    report = Referee(rules).check(position_from_data(rules, {"game": "lowland-front", "units": [
        {"id": "a", "side": "league", "type": "infantry", "hex": "20.01"}]}))
    assert report.supply["a"].value == "isolated" and [(m.add, m.remove) for m in report.markers] == [("isolated", None)]


def test_a_trace_in_mp_may_not_cross_the_hexsides_its_data_closes() -> None:
    """``trace.hexsides`` with a trace in MP: the chart's step costs with those hexsides closed (a
    variant of Lowland Front 7.2 whose trace may not cross 04.01/05.01)."""
    import dataclasses

    from gazala_tools.referee.engine import Context
    from gazala_tools.referee.generic import supplied, supply_search

    rules = rules_for(find_game(FOLDER))
    assert rules.data.supply is not None
    ss = rules.data.supply.sides["league"]
    ctx = Context(rules, position_from_data(rules, {"game": "lowland-front", "units": []}))
    h = rules.map.hex("05.01")
    assert supplied(ss, supply_search(rules, ctx, ss), h)  # 04.01, 03.01, 02.01, 01.01: 4 MP
    closed = dataclasses.replace(ss, trace=dataclasses.replace(ss.trace, sides=frozenset({
        rules.map.grid.hexside("04.01/05.01")})))
    assert not supplied(closed, supply_search(rules, ctx, closed), h)  # the other ways: 05.02 woods 2, then 4 more


def test_a_trace_of_n_mp_at_1_mp_a_hex_is_a_trace_of_n_hexes(tmp_path: Path) -> None:
    """River War's P1/P2 (6 and 4 hexes) restated as 6 and 4 MP on a chart of one class where every hex
    costs 1: the same supply for every unit, the river closed except along the road in both. ``class``
    may be left out when the chart has one class."""
    import random

    game = tmp_path / "river-war"
    shutil.copytree(FOLDER.parent / "river-war", game)
    text = (game / "game.yaml").read_text(encoding="utf-8")
    text = text.replace("      max-length: 6\n", "      max-mp: 6\n").replace("max-length: 4,", "max-mp: 4,")
    # River War's own chart prices every terrain 1 for a trace (T1's marsh row is for vehicles: units, not a class)
    assert "  terrain-effects:" in text
    (game / "game.yaml").write_text(text, encoding="utf-8")
    by_mp = rules_for(find_game(game))
    by_hexes = rules_for(find_game(FOLDER.parent / "river-war"))
    assert by_mp.data.supply is not None and by_mp.data.supply.sides["red"].trace.max_mp == 6
    labels = [by_hexes.map.label(h) for h in by_hexes.map.hexes() if by_hexes.map.passable(h)]
    rng = random.Random(4)
    seen: set[str] = set()
    for _ in range(20):
        picks = rng.sample(labels, 8)
        rows = [{"id": f"u{i}", "side": "red" if i % 2 else "blue", "type": "infantry", "hex": h}
                for i, h in enumerate(picks)]
        got = [{k: v.value for k, v in Referee(r).check(position_from_data(r, {"game": "river-war", "units": rows}))
                .supply.items()} for r in (by_mp, by_hexes)]
        assert got[0] == got[1], picks
        seen.update(got[0].values())
    assert seen == {"in", "out"}  # both answers were asked
