"""Logs (``.vlog``) written by VASSAL 3.7.26 as a player makes them, for the log referee's tests.

:func:`write_log` plays a list of steps from a module's predefined set-up, one logged Step each. A log
whose steps only move pieces is written by the shared harness (``log-moves``, as its stored logs always
were); a log that also presses the Turn Tracker's "+" button or draws a chit from a deck is written by
our own oracle (``log-steps``, ``oracle/Oracle.java``), which can do both. Either way the answer is one
record per step: ``kind`` (``move``, ``turn`` or ``draw``), and ``piece``, ``name``, ``from``, ``to``
for a move or a draw, ``from_turn``, ``to_turn`` for a turn.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from tools.vassal_oracle.engine import Engine, EngineError
from tools.vassal_oracle.harness import Harness


def only_moves(steps: Sequence[Mapping[str, Any]]) -> bool:
    """Whether every step moves a piece (no Turn Tracker press, no chit drawn from a deck)."""
    return all("turn" not in s and "draw" not in s for s in steps)


def write_log(
    vmod: Path,
    setup: str,
    out: Path,
    steps: Sequence[Mapping[str, Any]],
    *,
    harness: Harness | None = None,
    engine: Engine | None = None,
) -> list[dict[str, Any]]:
    """Play ``steps`` from set-up ``setup`` of ``vmod`` and write ``out``: one record per logged step.

    Steps are those of :meth:`Engine.log_steps`. Raises :class:`~tools.vassal_oracle.engine.EngineError`
    when the engine fails or does not log exactly one Step per step.
    """
    if only_moves(steps):
        written = (harness or Harness()).log_moves(vmod, setup, out, steps)
        records = [{"kind": "move", **m} for m in written["moves"]]
    else:
        own = engine or Engine()
        try:
            written = own.log_steps(vmod, setup, out, steps)
        finally:
            if engine is None:
                own.close()
        records = written["steps"]
        if any(r.get("logged") != 1 for r in records):
            raise EngineError(f"a step was not logged as one Step: {[r.get('logged') for r in records]}",
                              file=str(out))
    if written["logged_commands"] != len(steps):
        raise EngineError(f"{written['logged_commands']} steps logged for {len(steps)} steps", file=str(out))
    return records
