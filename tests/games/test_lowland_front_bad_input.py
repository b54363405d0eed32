"""Bad input in the keys of the Terrain Effects Chart, of the movement data and of the sequence of play
(issue 32): one line naming file:line:column, "did you mean" where a name is close, exit 2, never a
traceback. Each case is Lowland Front's folder with one mistake."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
import yaml

from gazala_tools.cli import main as gazala
from gazala_tools.errors import GazalaError
from gazala_tools.games import find_game
from gazala_tools.referee.plugins import rules_for
from gazala_tools.referee.ruledata import RulesReader, RulesSection

FOLDER = Path(__file__).resolve().parent / "lowland-front"
LOG = Path(__file__).resolve().parents[1] / "fixtures" / "lowland-front-logs" / "lf-legal.vlog"


def broken(tmp_path: Path, file: str, old: str, new: str) -> Path:
    game = tmp_path / "lowland-front"
    shutil.copytree(FOLDER, game)
    text = (game / file).read_text(encoding="utf-8")
    assert old in text, old
    (game / file).write_text(text.replace(old, new, 1), encoding="utf-8")
    return game


def refused(capsys: pytest.CaptureFixture[str], game: Path) -> str:
    assert gazala(["referee", "log", str(LOG), "--game", str(game)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err
    return err


@pytest.mark.parametrize(("file", "old", "new", "said"), [
    ("game.yaml", "      woods: {foot: 2, motor: 3}", "      wods: {foot: 2, motor: 3}",
     r"game\.yaml:\d+:\d+: .*'wods' is not a terrain of the map \(did you mean 'woods'\?\)"),
    ("game.yaml", "      woods: {foot: 2, motor: 3}", "      woods: {foot: 2, motr: 3}",
     r"game\.yaml:\d+:\d+: .*'motr' is not a movement class of the chart \(did you mean 'motor'\?\)"),
    ("game.yaml", '      stream: {foot: "+1", motor: "+2"}', '      steam: {foot: "+1", motor: "+2"}',
     r"game\.yaml:\d+:\d+: .*'steam' is not a hexside kind of the map \(did you mean 'stream'\?\)"),
    ("game.yaml", "bridges: [stream, river], rule: \"3.3\"}\n      railway",
     "bridges: [stream, rivr], rule: \"3.3\"}\n      railway",
     r"game\.yaml:\d+:\d+: .*'rivr' is not a hexside kind of the map \(did you mean 'river'\?\)"),
    ("game.yaml", "      railway: {cost: 1,", "      railwya: {cost: 1,",
     r"game\.yaml:\d+:\d+: .*'railwya' is not a path kind of the map \(did you mean 'railway'\?\)"),
    ("game.yaml", "      motor: {types: [motor]}", "      motor: {types: [motr]}",
     r"game\.yaml:\d+:\d+: .*'motr' is not a unit type of the game \(did you mean 'motor'\?\)"),
    ("game.yaml", "      swamp: {foot: all, motor: P}", "      swamp: {foot: al, motor: P}",
     r"game\.yaml:\d+:\d+: .*'al' is not a chart cell \(expected a number \(halves allowed: 1/2\), \+N, all or P\)"),
    ("game.yaml", "      hills: {foot: 2, motor: 2}", "      hills: {foot: -2, motor: 2}",
     r"game\.yaml:\d+:\d+: .*'-2' is not a chart cell"),
    ("game.yaml", "      city: 1", "      city: {foot: 1}",
     r"game\.yaml:\d+:\d+: .*no cost for class 'motor'"),
    ("game.yaml", "      road: {cost: {foot: 1, motor: 1/2}", "      road: {cost: {foot: +1, motor: 1/2}",
     r"game\.yaml:\d+:\d+: .*\+1 is not a cost along a path"),
    ("movement.yaml", "side: league, movement: true", "side: leage, movement: true",
     r"movement\.yaml:\d+:\d+: .*'leage' is not a side of the game \(did you mean 'league'\?\)"),
    ("movement.yaml", 'rule: "2.6", judge: ["9.1"', 'rule: "2.6", judge: ["3.61"',
     r"movement\.yaml:\d+:\d+: .*'3\.61' is not a rule of the game's data \(did you mean '3\.6'\?\)"),
    ("movement.yaml", "    empire: {rule: \"5.4\", leave: 1,", "    empier: {rule: \"5.4\", leave: 1,",
     r"movement\.yaml:\d+:\d+: .*'empier' is not a side of the game \(did you mean 'empire'\?\)"),
    ("movement.yaml", '  entry-cost: "8.1"', '  terrain: {clear: 1}\n  entry-cost: "8.1"',
     r"movement\.yaml:\d+:\d+: movement\.points\.terrain: has moved \(expected rules\.terrain-effects\.terrain of "
     r"game\.yaml"),
    ("movement.yaml", "exits:", "cross: [{rule: \"3.6\", sides: [river]}]\nexits:",
     r"movement\.yaml:\d+:\d+: movement\.cross: has moved to the Terrain Effects Chart \(expected "
     r"rules\.terrain-effects\.hexsides"),
    # a fact is stated once: the markers' factors and the zone's name live in game.yaml's rules: section
    ("movement.yaml", '  entry-cost: "8.1"', '  entry-cost: "8.1"\n  markers: {out-of-supply: 1/2}',
     r"movement\.yaml:\d+:\d+: movement\.points\.markers: has moved \(expected rules\.markers of game\.yaml "
     r"\(\{MARKER: \{movement: 1/2, round: down\}\}"),
    ("movement.yaml", "exits:", 'immobile:\n  - {rule: "6.3", markers: [disrupted]}\nexits:',
     r"movement\.yaml:\d+:\d+: movement\.immobile\[0\]\.markers: has moved \(expected rules\.markers of "
     r"game\.yaml \(\{MARKER: \{move: false\}\}\)\)"),
    ("movement.yaml", "zoc:                         # 5.3", "zoc:\n  name: zone of control  # 5.3",
     r"movement\.yaml:\d+:\d+: movement\.zoc\.name: has moved \(expected rules\.zoc\.name of game\.yaml"),
])
def test_a_mistake_is_one_line_with_its_place_and_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                          file: str, old: str, new: str, said: str) -> None:
    err = refused(capsys, broken(tmp_path, file, old, new))
    assert re.search(said, err), err


def test_a_supply_trace_in_mp_names_a_class_of_the_chart() -> None:
    # what a supply trace counted in movement points "as a foot unit moves" (7.2) reads its class with
    rules = rules_for(find_game(str(FOLDER)))
    chart = rules.data.chart
    assert chart is not None
    node = yaml.compose('trace: {max-mp: 4, class: fot}\n')
    reader = RulesReader(rules.game, rules.map, strict=True, file="game.yaml")
    reader.chart = chart
    trace = RulesSection(reader, node, "rules.supply").sub("trace")
    with pytest.raises(GazalaError, match=r"game\.yaml:1:\d+: .*'fot' is not a unit class of the terrain "
                                          r"effects chart \(did you mean 'foot'\?\)"):
        reader.mp_class(trace.m["class"], trace.what("class"))
    ok = RulesSection(reader, yaml.compose('trace: {class: foot}\n'), "rules.supply").sub("trace")
    assert reader.mp_class(ok.m["class"], ok.what("class")) == "foot"


def test_a_key_naming_a_phase_of_the_sequence_says_did_you_mean() -> None:
    # what a rule judged in a named phase reads its phase with (supply "judged in the Supply phase", 7.6)
    from gazala_tools.referee.sequence import phase_named

    rules = rules_for(find_game(str(FOLDER)))
    seq = rules.movement.sequence
    assert seq is not None
    reader = RulesReader(rules.game, rules.map, strict=True, file="game.yaml")
    ok = RulesSection(reader, yaml.compose("supply: {judged-in: Supply phase}\n"), "rules").sub("supply")
    assert phase_named(seq, ok, "judged-in").rule == "2.1"
    bad = RulesSection(reader, yaml.compose("supply: {judged-in: Suply phase}\n"), "rules").sub("supply")
    with pytest.raises(GazalaError, match=r"game\.yaml:1:\d+: .*'Suply phase' is not a phase of the sequence of play "
                                          r"\(did you mean 'Supply phase'\?\)"):
        phase_named(seq, bad, "judged-in")
