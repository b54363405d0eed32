"""Synthetic scans with a known grid, for the digitizer's tests and evaluations (not installed)."""

from __future__ import annotations

import sys
from collections.abc import Callable


def run_evaluation(evaluate: Callable[[range], list[dict[str, object]]], default: tuple[int, int]) -> None:
    """``python -m tools.scans.<kind> LO HI``: evaluate seeds LO..HI-1, one row each, then the tally
    the issue's bar reads (right, and wrong with confidence >= 0.3)."""
    lo, hi = (int(a) for a in sys.argv[1:3]) if len(sys.argv) >= 3 else default
    table = evaluate(range(lo, hi))
    for r in table:
        print(r)
    wrong_confident = [r for r in table if not r["right"] and float(r["confidence"]) >= 0.3]  # type: ignore[arg-type]
    print(f"right {sum(bool(r['right']) for r in table)}/{len(table)}; wrong with confidence >= 0.3: {len(wrong_confident)}")
