"""Write the engine-written logs of the log referee's tests (``tests/referee/logmoves.py``) again with
VASSAL 3.7.26, into ``tests/fixtures/logs/`` (or ``--out``).

    python -m tools.make_referee_logs [NAME ...] [--out DIR]

Each log: our module of its game built, its first set-up opened, each step of ``LOGS[NAME]`` made as
its own logged Step (:func:`tools.vassal_oracle.logs.write_log`: the shared harness for logs that only
move pieces, our oracle's ``log-steps`` for logs that also press the Turn Tracker or draw chits).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main(argv: list[str] | None = None) -> int:
    from gazala_tools.cli import main as gazala
    from tests.referee.logmoves import LOGS
    from tools.vassal_oracle.engine import Engine, cannot_run
    from tools.vassal_oracle.harness import Harness
    from tools.vassal_oracle.logs import write_log

    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("names", nargs="*", help="logs to write (default: all)")
    ap.add_argument("--out", default=str(ROOT / "tests" / "fixtures" / "logs"))
    args = ap.parse_args(argv)
    unknown = sorted(set(args.names) - set(LOGS))
    if unknown:
        print(f"no log named {', '.join(unknown)} in tests/referee/logmoves.py", file=sys.stderr)
        return 2
    harness, engine = Harness(), Engine()
    if cannot_run(harness, engine):
        return 2
    names = args.names or sorted(LOGS)
    try:
        with tempfile.TemporaryDirectory() as tmp:
            vmods: dict[str, Path] = {}
            for name in names:
                game, steps = LOGS[name]
                if game not in vmods:
                    vmods[game] = Path(tmp) / f"{game}.vmod"
                    if gazala(["module", "build", game, "-o", str(vmods[game])]) != 0:
                        return 1
                out = Path(args.out) / f"{name}.vlog"
                records = write_log(vmods[game], "#0", out, steps, harness=harness, engine=engine)
                print(f"{out}: {len(records)} steps")
    finally:
        engine.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
