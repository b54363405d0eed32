"""Run the benchmarks: ``python -m benchmarks [area ...] [--json]``."""

from __future__ import annotations

import importlib
import json
import pkgutil
import sys
from dataclasses import asdict
from pathlib import Path

from benchmarks.common import Result


def main(argv: list[str]) -> int:
    as_json = "--json" in argv
    wanted = [a for a in argv if not a.startswith("-")]
    here = Path(__file__).parent
    results: list[Result] = []
    failed = False
    for info in sorted(pkgutil.iter_modules([str(here)]), key=lambda m: m.name):
        if not info.name.startswith("bench_"):
            continue
        area = info.name[len("bench_") :]
        if wanted and area not in wanted:
            continue
        mod = importlib.import_module(f"benchmarks.{info.name}")
        print(f"== {area}", file=sys.stderr)
        for r in mod.run():
            results.append(r)
            failed |= r.ok is False
            if not as_json:
                line = f"{r.name}: {r.value:,.4g} {r.unit}"
                if r.budget:
                    line += f"  (budget {r.budget}: {'ok' if r.ok else 'MISSED'})"
                if r.baseline:
                    bv = f"{r.baseline_value:,.4g}" if r.baseline_value is not None else "n/a"
                    rt = f"{r.ratio:,.2f}x" if r.ratio is not None else "n/a"
                    line += f"  vs {r.baseline} {bv} -> ratio {rt}"
                if r.note:
                    line += f"  [{r.note}]"
                print(line, flush=True)
    if as_json:
        print(json.dumps([asdict(r) for r in results], indent=2))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
