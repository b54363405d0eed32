"""Lowland Front's rules judged in a log: 4.3, "Stacking is judged at the end of each movement phase"
(the sequence's judge lists: ``stacking.when: end-of-movement``, the default), against a variant judged at all times (``when: always``): a stack
over 6 points in the middle of the League's movement phase, undone by the phase's end; 8.2, a
reinforcement placed from its box in an enemy zone of control (found at its move, said once).

The log is a replay given as data (its steps and the positions before them), as ``gazala referee log``
reads a ``.vlog``.
"""

from __future__ import annotations

import dataclasses
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from gazala_tools.games import find_game
from gazala_tools.referee.engine import RulesPlugin
from gazala_tools.referee.log import Step, UnitMove
from gazala_tools.referee.logcheck import LogReferee
from gazala_tools.referee.position import Position, Unit
from gazala_tools.rules import rules_for

FOLDER = Path(__file__).resolve().parents[1] / "games" / "lowland-front"


def lowland(tmp: Path, when: str) -> RulesPlugin:
    game = tmp / f"lowland-front-{when}"
    shutil.copytree(FOLDER, game)
    text = (game / "game.yaml").read_text(encoding="utf-8")
    mine = '    enemy-rule: "3.7"'  # the game's default (the sequence's phase ends, 4.3) or the variant
    assert text.count(mine) == 1
    (game / "game.yaml").write_text(text.replace(mine, f"{mine}\n    when: {when}"), encoding="utf-8")
    return rules_for(find_game(game))


class Replay:
    """A log as data: units at the start, then one move a step."""

    def __init__(self, rules: RulesPlugin, units: list[Unit], moves: list[tuple[str, str]]) -> None:
        self.rules, self.file, self.turn = rules, "moves.vlog", "Turn 1"
        self.units = {u.id: u for u in units}
        self.moves = moves
        self.step_count = len(moves)

    def steps(self) -> Iterator[Step]:
        for i, (uid, to) in enumerate(self.moves, 1):
            before = self.position()
            old = self.units[uid]
            new = dataclasses.replace(old, hex=self.rules.map.hex(to))
            self.units[uid] = new
            yield Step(i, moves=[UnitMove(uid, old, new)], position_before=before)

    def position(self) -> Position:
        return Position(game=self.rules.game.id, units=tuple(self.units.values()), turn=self.turn, source=self.file)


def over_stacks(rules: RulesPlugin) -> list[tuple[int, str]]:
    m = rules.map
    units = [Unit("d", "league", "infantry-division", hex=m.hex("05.07")), Unit("b", "league", "armor", hex=m.hex("05.06")),
             Unit("c", "league", "motorized", hex=m.hex("06.06"))]
    # b joins d (5 points), c joins them (7: over 6), c moves on (5): the phase ends legal
    rep = LogReferee(Replay(rules, units, [("b", "05.07"), ("c", "05.07"), ("c", "04.07")])).check()  # type: ignore[arg-type]
    return [(f.step, f.finding.message) for f in rep.findings if f.finding.rule == "4.1"]


def test_4_3_judged_at_the_end_of_the_movement_phase_a_passing_over_stack_is_legal(tmp_path: Path) -> None:
    assert over_stacks(lowland(tmp_path, "end-of-movement")) == []


def test_4_3_variant_judged_at_all_times_the_over_stack_is_found_at_its_step(tmp_path: Path) -> None:
    assert over_stacks(lowland(tmp_path, "always")) == [
        (2, "05.07: 7 League stacking points in one hex (b 2 + c 2 + d 3) (limit 6)")]


@pytest.mark.parametrize("when", ["end-of-movement", "always"])
def test_4_3_an_over_stack_standing_at_the_phase_end_is_found_either_way(tmp_path: Path, when: str) -> None:
    rules = lowland(tmp_path, when)
    m = rules.map
    units = [Unit("d", "league", "infantry-division", hex=m.hex("05.07")), Unit("b", "league", "armor", hex=m.hex("05.06")),
             Unit("c", "league", "motorized", hex=m.hex("06.06"))]
    rep = LogReferee(Replay(rules, units, [("b", "05.07"), ("c", "05.07")])).check()  # type: ignore[arg-type]
    assert [f.finding.rule for f in rep.findings if f.finding.rule == "4.1"] == ["4.1"]


class BoxReplay(Replay):
    """A log whose moves may bring a unit from a box (``to`` a hex, the unit starting in ``box``)."""

    def __init__(self, rules: RulesPlugin, units: list[Unit], moves: list[tuple[str, str]], turn: str) -> None:
        super().__init__(rules, units, moves)
        self.turn = turn


def test_8_2_a_log_places_a_reinforcement_in_an_enemy_zone(tmp_path: Path) -> None:
    rules = rules_for(find_game(FOLDER))
    m = rules.map
    # lg-8-bde arrives on turn 2 (8.3) at the west-edge hexes of rows 03-06; 01.04 is in the zone of
    # the Imperial unit at 02.04, 01.06 is not
    units = [Unit("lg-8-bde", "league", "infantry", box="reinforcements"), Unit("e", "empire", "infantry",
                                                                                hex=m.hex("02.04"))]
    rep = LogReferee(BoxReplay(rules, units, [("lg-8-bde", "01.04")], "Turn 2")).check()  # type: ignore[arg-type]
    assert [(f.step, f.kind, f.finding.message) for f in rep.findings if f.finding.rule == "8.2"] == [
        (1, "move", "lg-8-bde arrives at 01.04, which is in the enemy zone of control of e (02.04): a reinforcement may not be "
                    "placed in an enemy zone of control")]
    units[0] = Unit("lg-8-bde", "league", "infantry", box="reinforcements")
    ok = LogReferee(BoxReplay(rules, units, [("lg-8-bde", "01.06")], "Turn 2")).check()  # type: ignore[arg-type]
    assert [f for f in ok.findings if f.finding.rule == "8.2"] == []
