"""Run the benchmarks: ``python -m benchmarks [area ...] [--json] [--smoke]``.

A bench that raises is reported (its error's last lines) and the others still run; the exit status
is 1 when any bench failed or (in a real run) missed its budget. ``--smoke`` runs every bench once
at a small size (``benchmarks.common.smoke``): budgets are not judged there, only that it runs.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
import time
import traceback
from dataclasses import asdict

from benchmarks.common import SMOKE_ENV, Result, areas, smoke


def _line(r: Result) -> str:
    line = f"{r.name}: {r.value:,.4g} {r.unit}"
    if r.budget:
        verdict = "not judged (smoke)" if smoke() else "ok" if r.ok else "MISSED"
        line += f"  (budget {r.budget}: {verdict})"
    if r.baseline:
        bv = f"{r.baseline_value:,.4g}" if r.baseline_value is not None else "n/a"
        rt = f"{r.ratio:,.2f}x" if r.ratio is not None else "n/a"
        line += f"  vs {r.baseline} {bv} -> ratio {rt}"
    if r.note:
        line += f"  [{r.note}]"
    return line


def _parser(names: list[str]) -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="scripts/bench", description="Run the benchmarks (all, or the areas named), each against its named "
        "baseline measured in the same run; exit 1 when a bench fails or misses its budget.",
        epilog="areas: " + ", ".join(names))
    p.add_argument("area", nargs="*", help="benches to run (default: all)")
    p.add_argument("--json", action="store_true", help="print the results as JSON")
    p.add_argument("--smoke", action="store_true", help="run each bench once at a small size; budgets not judged")
    return p


def main(argv: list[str]) -> int:
    names = areas()
    args = _parser(names).parse_args(argv)
    as_json = args.json
    if args.smoke:
        os.environ[SMOKE_ENV] = "1"  # the benches' child processes see it too
    wanted = args.area
    unknown = [a for a in wanted if a not in names]
    if unknown:
        print(f"no such bench: {', '.join(unknown)} (benches: {', '.join(names)})", file=sys.stderr)
        return 2
    results: list[Result] = []
    broken: list[str] = []
    missed: list[str] = []
    for area in names:
        if wanted and area not in wanted:
            continue
        print(f"== {area}" + (" (smoke)" if smoke() else ""), file=sys.stderr, flush=True)
        t = time.perf_counter()
        try:
            mod = importlib.import_module(f"benchmarks.bench_{area}")
            got = list(mod.run())
        except Exception:  # one broken bench is reported, the others still run
            tail = traceback.format_exc().strip().splitlines()[-12:]
            print(f"FAILED {area}:\n  " + "\n  ".join(tail), file=sys.stderr, flush=True)
            broken.append(area)
            continue
        for r in got:
            results.append(r)
            if r.ok is False and not smoke():
                missed.append(f"{area}: {r.name}")
            if not as_json:
                print(_line(r), flush=True)
        print(f"   ({area}: {time.perf_counter() - t:.1f} s)", file=sys.stderr, flush=True)
    if as_json:
        print(json.dumps([asdict(r) for r in results], indent=2))
    if missed:
        print("budgets missed:\n  " + "\n  ".join(missed), file=sys.stderr)
    if broken:
        print(f"benches FAILED: {', '.join(broken)}", file=sys.stderr)
    return 1 if broken or missed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
