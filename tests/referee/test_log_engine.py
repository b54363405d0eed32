"""The log referee on logs the real VASSAL 3.7.26 writes now (marker ``vassal``): the steps of
``logmoves.LOGS`` played from the first set-up of our module, one logged Step per step (moves through
the shared harness; Turn Tracker presses and chits drawn from their cups through our oracle's
``log-steps``). Each illegal move is found at its step; our replay moves what the engine says it moved,
and the turn changes where the engine's tracker says it did."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from gazala_tools.cli import main as gazala
from gazala_tools.referee.logcheck import check_log
from gazala_tools.vassal.buildfile import read_layouts
from tests.referee.logmoves import EXPECT, LOGS
from tools.vassal_oracle.logs import write_log


@pytest.fixture(scope="module")
def vmods(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("modules")
    got = {}
    for game in sorted({game for game, _moves in LOGS.values()}):
        got[game] = out / f"{game}.vmod"
        assert gazala(["module", "build", game, "-o", str(got[game])]) == 0
    return got


@pytest.mark.vassal
@pytest.mark.parametrize("name", sorted(LOGS))
def test_engine_written_log_each_illegal_move_at_its_step(name: str, vassal_harness: Any, vassal_engine: Any,
                                                          vmods: dict[str, Path], tmp_path: Path) -> None:
    game, steps = LOGS[name]
    vlog = tmp_path / f"{name}.vlog"
    written = write_log(vmods[game], "#0", vlog, steps, harness=vassal_harness, engine=vassal_engine)
    rep, _ = check_log(vlog, module=vmods[game], read_layouts=read_layouts)
    assert rep.steps == len(steps)
    got = {(f.step, f.kind, f.finding.rule, f.unit) for f in rep.findings}
    want = EXPECT.get(name, set())
    assert want <= got, sorted(got)
    assert {(s, u) for s, k, _r, u in got if k == "move"} == {(s, u) for s, k, _r, u in want if k == "move"}
    # our replay moved each unit where the engine says it moved it (chits are not units)
    engine = [(i + 1, m["piece"], m["from"], m["to"]) for i, m in enumerate(written)
              if m["kind"] == "move" and not m["name"].endswith(("action)", "tactical)"))]
    ours = [(m.step, m.unit, m.from_hex, m.to_hex) for m in rep.moves]
    assert [o[:3] for o in ours] == [e[:3] for e in engine]
    assert [o[3] for o in ours if o[3] is not None] == [e[3] for e, o in zip(engine, ours, strict=True)
                                                        if o[3] is not None]
    # a phase starts at each step whose tracker the engine moved on, showing the turn it shows
    turns = {r["step"]: r["to_turn"] for r in written if r["kind"] == "turn"}
    starts = {p.first_step: p.turn for p in rep.phases if p.started_by.startswith("turn")}
    assert {s: str(t).removeprefix("Turn ") for s, t in turns.items()} == starts
