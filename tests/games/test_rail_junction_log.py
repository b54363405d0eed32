"""Rail Junction (``rail-junction/``): a log the VASSAL 3.7.26 engine wrote from the module of the folder,
each step adjudicated by hand from ``rail-junction/RULES.md``. The stored copy is
``tests/fixtures/rail-junction-logs/rj-turns.vlog``; the ``vassal`` test writes it again with the engine
and must find the same.

The set-up (scenarios.yaml): the Guard g-1-inf E4 (Junction), g-2-inf H4 (Millbrook), g-3-cav C4, g-4-art
E3, g-hq E2; the Raiders r-1-inf E7, r-2-inf G7, r-3-cav B7, r-4-cav H7, r-5-art E8, r-hq F8, r-6-cav in
the reinforcement box (turn 2). Infantry and cavalry exert a ZOC (5.1), not into marsh (5.2).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from gazala_tools.cli import main as gazala
from gazala_tools.referee.findings import Severity
from gazala_tools.referee.logcheck import LogReport, check_log

FOLDER = Path(__file__).resolve().parent / "rail-junction"
STORED = Path(__file__).resolve().parents[1] / "fixtures" / "rail-junction-logs" / "rj-turns.vlog"

STEPS: list[dict[str, Any]] = [
    # turn 1, the Raider movement phase (2.1)
    {"piece": "r-1-inf", "to": "E5"},   # 1: along the railway: E6 1/2 (the bridge, 3.3), E5 1/2 + 1 (g-1-inf's zone,
                                        #    5.3) = 2 of 4; it need not stop (5.3)
    {"piece": "r-3-cav", "to": "B5"},   # 2: B6 1, B5 1 + creek 1 + zone (g-3-cav) 1 = 4 of 6
    {"piece": "r-4-cav", "to": "G7"},   # 3: forest 2; G7 now holds two Raider units (4.1)
    {"piece": "r-5-art", "to": "G7"},   # 4: F8 1, G7 forest 2 = 3 of 3: three units, one too many, at once (4.3)
    {"piece": "r-4-cav", "to": "G8"},   # 5: out again (1): two units; the error of step 4 stands (4.3: at all times)
    # the Guard movement phase (2.2)
    {"piece": "g-4-art", "to": "E4"},   # 6: along the railway, 1/2: E4 is in r-1-inf's zone, but g-1-inf stands
                                        #    there (5.4): nothing more; two units in the town (4.1: three)
    {"piece": "g-3-cav", "to": "A6"},   # 7: C5 2 (r-3-cav's zone), B6 1 + creek 1 + zone 1, A6 1 = 6 of 6;
                                        #    A6 is 5 hexes from the north edge, far from the HQ and the railway
    {"piece": "g-2-inf", "to": "H2"},   # 8: H2 is a mountain (3.2, P): illegal, and it stands there at the phase end
    {"turn": "next"},                   # 9: the end phase of turn 1 (2.3): supply (7.6): g-3-cav out (7.2)
    # turn 2, the Raider movement phase
    {"piece": "r-6-cav", "to": "I8", "map": "Main Map"},   # 10: the reinforcement at I8, in no Guard zone (8.1, 8.2)
    {"piece": "r-6-cav", "to": "I4"},   # 11: I7 1, I6 1, I5 1 + creek 1, I4 1 = 5 of 6 (g-2-inf, at H2, has no zone
                                        #     there)
    {"piece": "r-1-inf", "to": "E4"},   # 12: E4 holds Guard units (3.4)
]

#: (step, kind, rule, severity) of every finding but info
EXPECT = [
    (4, "step", "4.1", Severity.ERROR),
    (8, "move", "3.2", Severity.ERROR),
    (8, "position", "3.2", Severity.ERROR),
    (8, "position", "7.2", Severity.WARNING),
    (12, "move", "3.4", Severity.ERROR),
    (12, "position", "4.3", Severity.ERROR),
]


def check(log: Path = STORED) -> LogReport:
    rep, _ = check_log(log, game=str(FOLDER))
    return rep


def findings(rep: LogReport) -> list[tuple[int, str, str, Severity]]:
    return sorted((f.step, f.kind, f.finding.rule, f.finding.severity) for f in rep.findings
                  if f.finding.severity is not Severity.INFO)


def test_each_step_is_judged_as_the_rules_text_says() -> None:
    rep = check()
    assert rep.steps == len(STEPS)
    assert findings(rep) == EXPECT
    assert [p.started_by for p in rep.phases] == ["Raider movement phase (2.1)", "Guard movement phase (2.2)",
                                                  "End phase (2.3)", "Raider movement phase (2.1)"]
    paths = {m.step: m.path for m in rep.moves}
    assert paths[1] == ("E7", "E6", "E5") and paths[6] == ("E3", "E4") and paths[11] == ("I8", "I7", "I6", "I5", "I4")


def test_the_messages_name_the_rule_and_the_hexes() -> None:
    rep = check()
    said = {(f.step, f.kind, f.finding.rule): f.finding.message for f in rep.findings}
    assert said[(4, "step", "4.1")] == "G7: 3 Raider units in one hex (limit 2)"
    assert said[(8, "position", "3.2")] == "g-2-inf (Guard infantry) is in mountain at H2, prohibited to every unit"
    assert said[(8, "position", "7.2")] == ("g-3-cav at A6 is unsupplied: no unobstructed path to the north edge, "
                                            "the Guard HQ or the railway (3 hexes)")


def test_the_text_report_says_when_each_position_finding_was_judged(capsys: pytest.CaptureFixture[str]) -> None:
    assert gazala(["referee", "log", str(STORED), "--game", str(FOLDER)]) == 1
    out = capsys.readouterr().out
    assert "step 4: position after the step: [4.1] error: G7: 3 Raider units" in out
    assert "step 8: position at phase end: [7.2] warning: g-3-cav at A6" in out


@pytest.mark.vassal
def test_the_engine_writes_the_log_and_the_referee_finds_the_same(vassal_harness: Any, vassal_engine: Any,
                                                                  tmp_path: Path) -> None:
    from tools.vassal_oracle.logs import write_log

    vmod = tmp_path / "rail-junction.vmod"
    assert gazala(["module", "build", str(FOLDER), "-o", str(vmod)]) == 0
    vlog = tmp_path / "rj-turns.vlog"
    write_log(vmod, "#0", vlog, STEPS, harness=vassal_harness, engine=vassal_engine)
    assert findings(check(vlog)) == EXPECT
