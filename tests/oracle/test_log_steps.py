"""Our oracle's ``log-steps`` (``tools/vassal_oracle/oracle/Oracle.java``, issue 24 item 5): logs beyond
one phase, written by VASSAL 3.7.26 as a player makes them. Besides moves (as the shared harness's
``log-moves``), a step presses the Turn Tracker's "+" button or drags a chit out of its cup; each is one
logged Step, which the engine steps through, and our reader ends where the engine ends."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from gazala_tools.referee.log import log_entries
from gazala_tools.vassal.buildfile import read_layouts
from gazala_tools.vsav import read_save
from gazala_tools.vsav.commands import Chat, Log, MovePiece, Turn, walk
from gazala_tools.vsav.view import turn_of
from tools.vassal_oracle.engine import Engine, EngineError, is_routine
from tools.vassal_oracle.harness import Harness

STEPS: list[dict[str, Any]] = [
    {"piece": "allied-22arm-3-cly", "to": "1310"},
    {"draw": "Allied action chits", "piece": "22 Arm (Allied action)", "map": "Chit Cups", "x": 600, "y": 400},
    {"turn": "next"},
    {"draw": "Axis action chits", "map": "Chit Cups", "x": 100, "y": 400},   # the deck draws (shuffled)
    {"draw": "Allied tactical chits", "top": True, "map": "Chit Cups", "x": 200, "y": 400},   # its top chit
]


def _on_map(pieces: list[dict[str, Any]]) -> dict[str, tuple[Any, ...]]:
    return {p["id"]: (p["map"], p["x"], p["y"]) for p in pieces if p["map"]}


@pytest.mark.vassal
def test_a_turn_press_and_chits_drawn_are_one_logged_step_each(
    vassal_engine: Engine, vassal_harness: Harness, rg_vmod: Path, tmp_path: Path
) -> None:
    vlog = tmp_path / "steps.vlog"
    w = vassal_engine.log_steps(rg_vmod, "#0", vlog, STEPS)
    assert w["logged_commands"] == 5 and [s["logged"] for s in w["steps"]] == [1, 1, 1, 1, 1]
    assert all(is_routine(d) for d in w["dialogs"]) and w["log"] == []
    move, chit, turn, drawn, top = w["steps"]
    assert [s["kind"] for s in w["steps"]] == ["move", "draw", "turn", "draw", "draw"]
    assert (move["piece"], move["from"], move["to"]) == ("allied-22arm-3-cly", "1210", "1310")
    for d, deck in ((chit, "Allied action chits"), (drawn, "Axis action chits"), (top, "Allied tactical chits")):
        assert d["from"] == deck and d["to_xy"] != d["from_xy"]
        assert d["deck_count_after"] == d["deck_count_before"] - 1
    assert top["piece"] == top["deck_top_before"]
    assert (turn["from_turn"], turn["to_turn"]) == ("May 27 AM", "May 27 PM")

    # the press is logged as VASSAL logs it: the tracker's report and its new state, one Step
    log = read_save(vlog, layouts=read_layouts(rg_vmod))
    _setup, entries = log_entries(log.tree)
    assert len(entries) == 5
    kinds = [{type(c) for c in walk(e)} - {Log} for e in entries]
    assert {Chat, Turn} <= kinds[2] and MovePiece not in kinds[2]
    assert all(MovePiece in kinds[i] for i in (0, 1, 3, 4))
    (pressed,) = [c for c in walk(entries[2]) if isinstance(c, Turn)]
    assert (pressed.tracker, pressed.state) == ("TurnTracker0", turn["to_state"])
    view = turn_of(log.tree)
    assert view is not None and view.current == 2  # "Set-up, May 27 AM, May 27 PM, ...": May 27 PM

    # the engine steps through our log: each step moves its piece (the press none); our reader ends there
    replay = vassal_harness.read_log(rg_vmod, vlog)
    assert replay["log_steps"] == 5
    assert [[c["id"] for c in s["changed"]] for s in replay["steps"]] == [
        [move["piece"]], [chit["piece"]], [], [drawn["piece"]], [top["piece"]]]
    ours = {p.id: (p.map, p.x, p.y) for p in log.position.pieces.values() if p.map}
    assert ours == _on_map(replay["pieces"])


@pytest.mark.vassal
def test_a_bad_step_is_a_clear_error(vassal_engine: Engine, rg_vmod: Path, tmp_path: Path) -> None:
    with pytest.raises(EngineError, match="no deck named Allied cup"):
        vassal_engine.log_steps(rg_vmod, "#0", tmp_path / "x.vlog",
                                [{"turn": "next"}, {"draw": "Allied cup", "map": "Chit Cups", "x": 1, "y": 1}])
