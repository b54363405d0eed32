"""Lowland Front's rules 4-10 on saves the real VASSAL 3.7.26 engine writes (marker ``vassal``).

The module is built from the folder (``gazala module build tests/games/lowland-front``); the engine opens
its set-up "The Lisse" as a player, makes the moves below and saves; ``gazala referee check`` judges the
save. Adjudicated by hand from ``lowland-front/RULES.md``:

* the set-up breaks no rule: Westhaven 03.05 holds the division (3 points) and the HQ (0, 4.2); every
  unit is on the high road or the railway, or within 4 MP of it (7.2: 09.02 -> 09.03 -> 10.04 -> 10.05,
  3 MP; 14.02 -> 14.03 -> 14.04 -> 14.05 -> 14.06, 4 MP; 15.04 -> 15.05 -> 15.06, 2 MP), and no zone of
  control crosses the Lisse (5.2) or reaches a trace;
* after the moves, 10.05 holds lg-2-bde (2), lg-4-pz (2), lg-5-mot (2) and lg-7-art (1): 7 points (4.1:
  6); em-6-rec at 06.01 is 5 MP from the west edge's road and nowhere near its own sources: it cannot
  trace supply (7.2) and must take an Out of Supply marker (7.6);
* victory points (10.2), as the position stands: the League occupies Westhaven in supply (3) and controls
  Marrenburg (1); the Empire occupies Ostfurt in supply (3).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .conftest import referee_json

FOLDER = Path(__file__).resolve().parent / "lowland-front"
SCENARIO = "The Lisse (Turn 1 - Turn 6)"
MOVES = [{"piece": "lg-4-pz", "to": "10.05"}, {"piece": "lg-5-mot", "to": "10.05"},
         {"piece": "lg-7-art", "to": "10.05"}, {"piece": "em-6-rec", "to": "06.01"}]


def errors_and_warnings(report: dict[str, Any]) -> list[tuple[str, str, str]]:
    return [(f["rule"], f["severity"], f["message"]) for f in report["findings"] if f["severity"] != "info"]


@pytest.mark.vassal
def test_the_engines_save_of_the_set_up_breaks_no_rule(opened: dict[str, Any], vmod: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    code, report = referee_json(capsys, opened["saved"], vmod, FOLDER)
    assert code == 0 and report["legal"] and errors_and_warnings(report) == []
    assert set(report["supply"].values()) == {"in"}
    assert (report["vp"]["league"], report["vp"]["empire"], report["vp"]["final"]) == (4, 3, False)


@pytest.mark.vassal
def test_4_1_and_7_2_in_a_save_the_engine_wrote_after_four_moves(moved: dict[str, Any], vmod: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    code, report = referee_json(capsys, moved["saved"], vmod, FOLDER)
    assert code == 1
    assert errors_and_warnings(report) == [
        ("4.1", "error", "10.05: 7 League stacking points in one hex (lg-2-bde 2 + lg-4-pz 2 + lg-5-mot 2 + "
                         "lg-7-art 1) (limit 6)"),
        ("7.2", "warning", "supply phase: em-6-rec at 06.01 cannot trace supply to the east edge or the Depot "
                           "(4 MP, or the road and railway): mark it Out of Supply"),
    ]
    assert {u: s for u, s in report["supply"].items() if s != "in"} == {"em-6-rec": "out"}
    assert report["markers"] == [{"unit": "em-6-rec", "add": "out-of-supply", "remove": None, "rule": "7.2"}]
