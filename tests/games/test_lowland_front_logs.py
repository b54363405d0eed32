"""Lowland Front (``lowland-front/``, issue 32): logs VASSAL 3.7.26 wrote from the module of the folder,
each step adjudicated by hand from ``lowland-front/RULES.md`` (the sequence of play 2.x, movement 3.x,
zones of control 5.3/5.4). Stored copies in ``tests/fixtures/lowland-front-logs/``; the ``vassal`` test
writes them again with the engine and must find the same.

The set-up (scenarios.yaml): League lg-1-div and lg-hq 03.05 (Westhaven), lg-2-bde 10.05, lg-3-bde 11.09,
lg-4-pz 08.06, lg-5-mot 07.08, lg-6-rec 09.02, lg-7-art 09.05; Empire em-1-div 19.06 (Ostfurt), em-hq
21.11 (the Depot), em-2-div 14.06, em-3-bde 14.10, em-4-pz 16.07, em-5-mot 15.04, em-6-rec 14.02,
em-7-art 17.05. Every unit but HQs and artillery exerts a zone of control (5.1), not across the Lisse
(5.2). Odd rows lie half a hex east of even rows.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from gazala_tools.cli import main as gazala
from gazala_tools.referee.findings import Severity
from gazala_tools.referee.logcheck import LogReport, check_log

FOLDER = Path(__file__).resolve().parent / "lowland-front"
STORED = Path(__file__).resolve().parents[1] / "fixtures" / "lowland-front-logs"
NEXT: dict[str, Any] = {"turn": "next"}

LOGS: dict[str, list[dict[str, Any]]] = {
    "lf-turn": [
        # turn 1, League movement phase (2.2)
        {"piece": "lg-4-pz", "to": "13.06"},   # 1: 08.05 (1) and the high road 09.05-13.06 (5 x 1/2) = 3.5 of 8, over the
                                               #    Lisse by the bridge (3.3); 13.06 is beside em-2-div: it stops there (5.3)
        {"piece": "lg-4-pz", "to": "13.07"},   # 2: 5.3: it moves again after entering an enemy zone of control
        {"piece": "lg-6-rec", "to": "08.03"},  # 3: 3.6: swamp is P to motor units
        {"piece": "lg-7-art", "to": "09.04"},  # 4: swamp costs the artillery (foot) all its 5 MP: legal
        {"piece": "lg-7-art", "to": "09.05"},  # 5: 3.1: none left (3.2 is for the first hex of a phase only)
        # an Empire unit moves: the League movement and combat phases are over (2.3), the Empire's begins (2.4)
        {"piece": "em-2-div", "to": "18.05"},  # 6: 3.1: 5 hexes + 1 to leave lg-4-pz's zone (5.4) = 6 of 5
        {"piece": "em-4-pz", "to": "14.07"},   # 7: 16.07-15.07-14.07, 2 of 8, into lg-4-pz's zone
        {"piece": "em-4-pz", "to": "14.08"},   # 8: 5.4: not from one zone hex to another (14.07, 14.08 are both
                                               #    beside 13.07): legal only round by 15.08, 1 + 1 to leave + 1 = 3
        NEXT,                                  # 9: turn 2: the end phase of turn 1 (2.6), the supply phase (2.1)
        {"piece": "lg-2-bde", "to": "12.04"},  # 10: League movement phase of turn 2: 10.05-11.05-12.04, 2 of 5
        {"piece": "em-5-mot", "to": "15.03"},  # 11: the Empire movement phase of turn 2
        {"piece": "lg-3-bde", "to": "11.08"},  # 12: 2.0: a League unit moves in the Empire movement phase
    ],
    "lf-combat": [
        {"piece": "lg-4-pz", "to": "13.06"},   # 1: as lf-turn 1
        {"piece": "em-2-div", "map": "Holding Boxes", "x": 260, "y": 136},   # 2: eliminated in combat: no move,
                                               #    no phase of the Empire's
        {"piece": "em-4-pz", "to": "15.07"},   # 3: the Empire movement phase
        NEXT,                                  # 4: turn 2
        {"piece": "lg-8-bde", "to": "01.04", "map": "Main Map"},   # 5: a reinforcement placed at 01.04 pays 1 (8.1)
        {"piece": "lg-8-bde", "to": "06.04"},  # 6: 3.1: 5 clear hexes with the 4 left
    ],
    "lf-legal": [
        {"piece": "lg-4-pz", "to": "13.06"},   # 1: as lf-turn 1
        {"piece": "lg-5-mot", "to": "12.10"},  # 2: 07.08 to the railway hex 12.10, west of the Lisse
        {"piece": "em-2-div", "to": "15.07"},  # 3: the Empire's phase: leaves lg-4-pz's zone (+1, 5.4)
        NEXT,                                  # 4: turn 2
        {"piece": "lg-4-pz", "to": "14.06"},   # 5: it began the phase in no zone; 14.06 is beside no Empire unit
        {"piece": "lg-3-bde", "to": "13.10"},  # 6: 11.09-12.10-13.10 along the railway and its bridge, 2 of 5 (3.3),
                                               #    into em-3-bde's zone (14.10): it stops there (5.3)
    ],
    "lf-stacking": [
        # turn 1, League movement phase (2.2): 10.05 holds lg-2-bde (a brigade, 2 points: 4.2)
        {"piece": "lg-4-pz", "to": "10.05"},   # 1: 08.06-08.05 (1) then the road 09.05, 10.05 (2 x 1/2) = 2 of 8; 4 points
        {"piece": "lg-5-mot", "to": "10.05"},  # 2: 07.08-07.07-08.06-08.05 (3) + 2 x 1/2 = 4 of 8; 6 points
        {"piece": "lg-7-art", "to": "10.05"},  # 3: along the road, 1 of 5: 7 points, over 6 (4.1) in mid-phase
        {"piece": "lg-7-art", "to": "09.05"},  # 4: back, 2 of 5: 6 points, fixed before the phase ends (4.3)
        {"piece": "lg-6-rec", "to": "06.01"},  # 5: across the Aa (+2 motor), 6.01 is 5 MP from the west edge
                                               #    and from the road (7.2): out of supply, judged in 2.1 only
        # the Empire movement phase (2.4): 14.06 holds em-2-div (a division, 3 points)
        {"piece": "em-4-pz", "to": "14.06"},   # 6: 16.07-16.06 (1), the road 15.06, 14.06 (2 x 1/2) = 2 of 8; 5 points
        {"piece": "em-5-mot", "to": "14.06"},  # 7: 15.04-15.05-15.06 (2) + 1/2 = 2.5 of 8; 7 points, left so
        NEXT,                                  # 8: turn 2: the Empire movement phase ends over-stacked (4.3: error),
                                               #    then the end phase (2.6), the supply phase (2.1)
        {"piece": "lg-2-bde", "to": "11.05"},  # 9: the League movement phase of turn 2 ends the supply phase
    ],
}

#: log -> the findings (step, rule, severity, unit) it must give, and no other move finding
EXPECT: dict[str, set[tuple[int, str, Severity, str]]] = {
    "lf-turn": {
        (2, "5.3", Severity.ERROR, "lg-4-pz"),
        (3, "3.6", Severity.ERROR, "lg-6-rec"),
        (5, "3.1", Severity.ERROR, "lg-7-art"),
        (6, "3.1", Severity.ERROR, "em-2-div"),
        (8, "5.4", Severity.WARNING, "em-4-pz"),
        (12, "2.0", Severity.ERROR, "lg-3-bde"),
    },
    "lf-combat": {(6, "3.1", Severity.ERROR, "lg-8-bde")},
    "lf-legal": set(),
    "lf-stacking": set(),
}


def check(name: str, folder: Path = FOLDER, log: Path | None = None) -> LogReport:
    rep, _ = check_log(log or STORED / f"{name}.vlog", game=str(folder))
    return rep


def move_findings(rep: LogReport) -> set[tuple[int, str, Severity, str]]:
    return {(f.step, f.finding.rule, f.finding.severity, f.unit) for f in rep.findings if f.kind == "move"}


@pytest.mark.parametrize("name", sorted(LOGS))
def test_each_step_is_judged_as_the_rules_text_says(name: str) -> None:
    rep = check(name)
    assert rep.steps == len(LOGS[name])
    assert move_findings(rep) == EXPECT[name]
    assert rep.legal == (not any(sev is Severity.ERROR for _s, _r, sev, _u in EXPECT[name])
                         and name != "lf-stacking")  # its Empire over-stack at a phase end (4.3)


def test_2_0_the_phases_follow_the_sequence_of_play() -> None:
    rep = check("lf-turn")
    assert [(p.first_step, p.started_by) for p in rep.phases] == [
        (1, "League movement phase (2.2)"), (5, "League combat phase (2.3)"), (6, "Empire movement phase (2.4)"),
        (8, "Empire combat phase (2.5)"), (8, "End phase (2.6)"), (9, "Supply phase (2.1)"),
        (10, "League movement phase (2.2)"), (10, "League combat phase (2.3)"), (11, "Empire movement phase (2.4)")]
    assert [p.turn for p in rep.phases] == ["1"] * 5 + ["2"] * 4
    out = next(f for f in rep.findings if f.step == 12)
    assert out.finding.message == ("lg-3-bde moves in the Empire movement phase (2.4): a League unit moves only in the "
                                   "League movement phase (2.2)")


def test_2_0_an_elimination_is_no_move_and_starts_no_phase() -> None:
    rep = check("lf-combat")
    assert [p.started_by for p in rep.phases][:3] == ["League movement phase (2.2)", "League combat phase (2.3)",
                                                      "Empire movement phase (2.4)"]
    assert [(p.first_step, p.last_step) for p in rep.phases][:3] == [(1, 2), (2, 2), (3, 3)]


def test_8_1_the_entry_hex_is_paid_in_a_log() -> None:
    rep = check("lf-combat")
    f = next(f for f in rep.findings if f.step == 6)
    assert "needs 5 movement points from 01.04 to 06.04, more than the 4 of its 5 it has left this phase: " \
           "5 hexes = 5 of 4" in f.finding.message


def test_3_1_the_message_names_what_makes_the_total() -> None:
    rep = check("lf-turn")
    f = next(f for f in rep.findings if f.step == 6)
    assert f.finding.message == ("em-2-div needs 6 movement points from 14.06 to 18.05, more than the 5 of its 5 it "
                                 "has left this phase: 5 hexes + 1 to leave an enemy zone of control hex (5.4) = 6 of 5")


def test_5_4_the_detour_round_the_zones_is_named() -> None:
    rep = check("lf-turn")
    f = next(f for f in rep.findings if f.step == 8)
    assert "is legal only by 14.07-15.08-14.08, 3 MP: the direct route moves from one enemy zone of control hex " \
           "directly to another (14.07 to 14.08), 5.4" in f.finding.message


def judged(rep: LogReport) -> list[tuple[int, str, str, Severity]]:
    """The position findings of a log (no info): (step, the phase that ended, rule, severity)."""
    title = {p.index: p.started_by for p in rep.phases}
    return [(f.step, title[f.phase], f.finding.rule, f.finding.severity) for f in rep.findings
            if f.kind in ("position", "step") and f.finding.severity is not Severity.INFO]


def variant(tmp_path: Path, name: str, file: str, old: str, new: str) -> Path:
    """A copy of the game with one line of its data changed."""
    game = tmp_path / name
    if not game.exists():
        shutil.copytree(FOLDER, game)
    text = (game / file).read_text(encoding="utf-8")
    assert old in text, old
    (game / file).write_text(text.replace(old, new), encoding="utf-8")
    return game


def test_4_3_an_over_stack_fixed_before_the_movement_phase_ends_is_no_error() -> None:
    # 4.3: stacking is judged at the end of each movement phase. The League's 7 points at 10.05 (step 3) are
    # 6 again at step 4, before its phase ends: no error. The Empire's 7 points at 14.06 (step 7) stand when
    # its phase ends (the turn marker's "+", step 8): one error, at that phase's end. 7.6: lg-6-rec, out of
    # supply from step 5, is judged in the supply phase of turn 2 (it ends at step 9's League move), not at
    # the end of the League's movement phase
    rep = check("lf-stacking")
    assert judged(rep) == [(7, "Empire movement phase (2.4)", "4.1", Severity.ERROR),
                           (8, "Supply phase (2.1)", "7.2", Severity.WARNING)]
    stack = next(f for f in rep.findings if f.finding.rule == "4.1")
    assert stack.finding.message == ("14.06: 7 Imperial stacking points in one hex (em-2-div 3 + em-4-pz 2 + em-5-mot 2) "
                                     "(limit 6)")


def test_4_3_stacking_judged_at_all_times_reports_the_mid_phase_over_stack(tmp_path: Path) -> None:
    # the other reading a game may state (rules.stacking.when: always): the League's over-stack at step 3
    # is an error at that step, the Empire's at step 7 too (and not again at the phase end while it stands)
    game = variant(tmp_path, "always", "game.yaml", "    enemy-rule: \"3.7\"", "    enemy-rule: \"3.7\"\n    when: always")
    got = [(s, r) for s, _p, r, _sev in judged(check("lf-stacking", game))]
    assert got == [(3, "4.1"), (7, "4.1"), (8, "7.2")]


def test_2_0_a_rule_no_phase_names_is_judged_at_every_phase_end(tmp_path: Path) -> None:
    # without the judge lists, lg-6-rec's supply is judged at the end of the League movement phase (step 5),
    # as soon as it is out of supply, and the over-stack at the end of the Empire's
    game = tmp_path / "nowhere"
    shutil.copytree(FOLDER, game)
    movement = game / "movement.yaml"
    movement.write_text(re.sub(r"judge: \[[^]]*\]", "judge: []", movement.read_text(encoding="utf-8")),
                        encoding="utf-8")
    got = [(s, p, r) for s, p, r, _sev in judged(check("lf-stacking", game))]
    assert got == [(5, "League movement phase (2.2)", "7.2"), (7, "Empire movement phase (2.4)", "4.1")]


def test_2_0_each_rule_is_judged_at_the_phase_ends_the_rules_text_names() -> None:
    # 2.1/7.6 supply in the supply phase, 4.3 stacking at each movement phase end, 2.6 control (9.1) and
    # victory (10.2-10.5) in the end phase; 3.7 ("enemy units never share a hex at any time") at every end
    from gazala_tools.games import find_game
    from gazala_tools.referee.plugins import rules_for

    seq = rules_for(find_game(str(FOLDER))).movement.sequence
    assert seq is not None
    at = {rule: [p.rule for p in seq.phases if seq.judges(p, rule)] for rule in ("7.2", "4.1", "9.1", "10.2", "10.5", "3.7")}
    assert at == {"7.2": ["2.1"], "4.1": ["2.2", "2.4"], "9.1": ["2.6"], "10.2": ["2.6"], "10.5": ["2.6"],
                  "3.7": ["2.1", "2.2", "2.3", "2.4", "2.5", "2.6"]}


def test_the_cli_exit_status_follows_the_findings(capsys: pytest.CaptureFixture[str]) -> None:
    assert gazala(["referee", "log", str(STORED / "lf-legal.vlog"), "--game", str(FOLDER)]) == 0
    assert gazala(["referee", "log", str(STORED / "lf-turn.vlog"), "--game", str(FOLDER)]) == 1
    assert "step 12: lg-3-bde 11.09 -> 11.08: [2.0] error" in capsys.readouterr().out


@pytest.mark.vassal
@pytest.mark.parametrize("name", sorted(LOGS))
def test_the_engine_writes_the_logs_and_the_referee_finds_the_same(name: str, vassal_harness: Any, vassal_engine: Any,
                                                                  tmp_path: Path) -> None:
    from tools.vassal_oracle.logs import write_log

    vmod = tmp_path / "lowland-front.vmod"
    assert gazala(["module", "build", str(FOLDER), "-o", str(vmod)]) == 0
    vlog = tmp_path / f"{name}.vlog"
    written = write_log(vmod, "#0", vlog, LOGS[name], harness=vassal_harness, engine=vassal_engine)
    rep = check(name, log=vlog)
    assert move_findings(rep) == EXPECT[name]
    engine = [(i + 1, m["piece"], m["from"], m["to"]) for i, m in enumerate(written) if m["kind"] == "move"]
    assert [(m.step, m.unit, m.from_hex or m.from_box, m.to_hex or m.to_box) for m in rep.moves] == engine
