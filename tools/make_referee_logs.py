"""Write the engine-written logs of the log referee's tests (``tests/referee_log/logmoves.py``) again with
VASSAL 3.7.26 through the shared harness, into ``tests/fixtures/logs/`` (or ``--out``).

    python -m tools.make_referee_logs [NAME ...] [--out DIR]

Each log: our module of its game built, its first set-up opened, each move of ``LOGS[NAME]`` made as
its own logged Step (``Harness.log_moves``).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main(argv: list[str] | None = None) -> int:
    sys.path.insert(0, str(ROOT / "tests" / "referee_log"))
    from logmoves import LOGS

    from gazala_tools.cli import main as gazala
    from tools.vassal_oracle.harness import Harness

    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("names", nargs="*", help="logs to write (default: all)")
    ap.add_argument("--out", default=str(ROOT / "tests" / "fixtures" / "logs"))
    args = ap.parse_args(argv)
    harness = Harness()
    ok, reason = harness.available()
    if not ok:
        print(reason, file=sys.stderr)
        return 2
    names = args.names or sorted(LOGS)
    with tempfile.TemporaryDirectory() as tmp:
        vmods: dict[str, Path] = {}
        for name in names:
            game, moves = LOGS[name]
            if game not in vmods:
                vmods[game] = Path(tmp) / f"{game}.vmod"
                if gazala(["module", "build", game, "-o", str(vmods[game])]) != 0:
                    return 1
            out = Path(args.out) / f"{name}.vlog"
            written = harness.log_moves(vmods[game], "#0", out, moves)
            print(f"{out}: {written['logged_commands']} steps")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
