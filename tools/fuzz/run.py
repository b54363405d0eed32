"""Run the fuzzer: ``python -m tools.fuzz.run N [--seed S] [--targets a,b] [--out DIR]`` (``scripts/fuzz N``).

Inputs are spread evenly over the targets. Each batch runs in a worker process, so the checks hold per
input: a **bug** (an exception other than GazalaError, or exit 3), a **hang** (over
:data:`TIME_LIMIT` s: the worker's alarm stops the input), **memory** (the worker's peak resident
size passes :data:`MEMORY_LIMIT` while reading the input; the worker then restarts with a fresh
peak), a **changed input** (its bytes after the read differ) and, for hostile game folders, a **read
outside** (an audit hook on ``open`` saw a file outside the folder opened, :mod:`tools.fuzz.folders`). Every failing input is kept in
``--out`` with its seed so it can be replayed. Prints one JSON summary; exit 1 if anything failed.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import multiprocessing
import os
import random
import resource
import shutil
import signal
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

TIME_LIMIT = 30
MEMORY_LIMIT = 1 << 30
#: address space a worker may take (a safety net for the machine; the check is MEMORY_LIMIT)
ADDRESS_SPACE = 6 << 30
#: inputs a worker reads before it is replaced (readers cache per file: keep the worker's peak honest)
BATCH = 300


class _Hang(BaseException):
    """Raised by the alarm; a BaseException so no reader's ``except Exception`` swallows it."""


def _alarm(signum: int, frame: object) -> None:
    raise _Hang


def _peak() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def run_one(target_name: str, data: bytes, work: Path, index: int) -> tuple[str, str, float]:
    """Feed one input; returns (outcome, detail, seconds). Outcomes: ok, error (clean), bug, hang, changed."""
    from gazala_tools.errors import GazalaError
    from tools.fuzz.base import Bug
    from tools.fuzz.folders import ReadOutside
    from tools.fuzz.targets import TARGETS

    target = TARGETS[target_name]
    path = work / f"in{index}{target.suffix}"
    path.write_bytes(data)
    digest = hashlib.sha256(data).digest()
    outcome, detail = "ok", ""
    start = time.monotonic()
    signal.alarm(TIME_LIMIT)
    try:
        target.run(path, work)
    except GazalaError:
        outcome = "error"
    except ReadOutside as exc:
        outcome, detail = "outside", str(exc)
    except Bug as exc:
        outcome, detail = "bug", str(exc)
    except _Hang:
        outcome, detail = "hang", f"over {TIME_LIMIT} s"
    except RecursionError as exc:
        outcome, detail = "bug", f"RecursionError: {exc}"
    except MemoryError:
        outcome, detail = "memory", "MemoryError"
    except Exception as exc:
        outcome, detail = "bug", f"{type(exc).__name__}: {' '.join(str(exc).split())[:300]}"
    finally:
        signal.alarm(0)
    seconds = time.monotonic() - start
    if outcome in ("ok", "error") and hashlib.sha256(path.read_bytes()).digest() != digest:
        outcome, detail = "changed", "the input's bytes changed"
    path.unlink(missing_ok=True)
    return outcome, detail, seconds


def _worker(wid: int, jobs: list[tuple[str, int, int]], results: Any) -> None:
    """Read the inputs ``(target, index, input seed)`` in order; report each through ``results``."""
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE, ADDRESS_SPACE))
    signal.signal(signal.SIGALRM, _alarm)
    import logging
    import warnings

    logging.disable(logging.CRITICAL)
    warnings.simplefilter("ignore")
    from tools.fuzz.targets import TARGETS

    work = Path(tempfile.mkdtemp(prefix="gazala-fuzz-"))
    try:
        for name, index, input_seed in jobs:
            rng = random.Random(input_seed)
            target = TARGETS[name]
            data = target.mutate(rng, rng.choice(target.seeds()))
            before = _peak()
            outcome, detail, seconds = run_one(name, data, work, index)
            after = _peak()
            if outcome in ("ok", "error") and after > MEMORY_LIMIT >= before:
                outcome, detail = "memory", f"peak {after / 2**30:.2f} GiB"
            keep = data if outcome not in ("ok", "error") else b""
            results.put((wid, (name, index, input_seed, outcome, detail, seconds, keep, after)))
            if after > MEMORY_LIMIT:
                break  # a fresh worker, with a fresh peak, takes the rest
    finally:
        shutil.rmtree(work, ignore_errors=True)
        results.put((wid, None))


def fuzz(n: int, *, seed: int = 1, targets: list[str] | None = None, out: Path | None = None,
         workers: int = 2) -> dict[str, Any]:
    """Feed ``n`` inputs (spread over ``targets``) through worker processes; the summary as a dict."""
    import queue

    from tools.fuzz.targets import TARGETS

    names = targets or list(TARGETS)
    from tools.fuzz import reports

    pages = Path(tempfile.mkdtemp(prefix="gazala-fuzz-pages-")) if reports.NAME in names else None
    if pages is not None:  # the workers keep each report page there for the browser stage
        os.environ[reports.PAGES_ENV] = str(pages)
    master = random.Random(seed)
    jobs = [(names[i % len(names)], i, master.randrange(1 << 62)) for i in range(n)]
    todo = list(reversed(jobs))
    done: dict[int, tuple[Any, ...]] = {}
    ctx = multiprocessing.get_context("fork")
    results: Any = ctx.Queue()
    running: dict[int, tuple[Any, list[tuple[str, int, int]], float]] = {}
    next_id = 0
    started = time.monotonic()

    def finish(wid: int, crashed: str | None) -> None:
        proc, batch, _ = running.pop(wid)
        if crashed is not None:
            proc.kill()
        proc.join()
        left = [j for j in batch if j[1] not in done]
        if left and crashed is not None:  # the input it was reading when it hung or died
            name, index, input_seed = left.pop(0)
            rng = random.Random(input_seed)
            data = TARGETS[name].mutate(rng, rng.choice(TARGETS[name].seeds()))
            outcome = "hang" if crashed == "hang" else "bug"
            done[index] = (name, index, input_seed, outcome, crashed, float(TIME_LIMIT), data, 0)
        todo.extend(reversed(left))

    while todo or running:
        while todo and len(running) < workers:
            batch = [todo.pop() for _ in range(min(BATCH, len(todo)))]
            proc = ctx.Process(target=_worker, args=(next_id, batch, results))
            proc.start()
            running[next_id] = (proc, batch, time.monotonic())
            next_id += 1
        try:
            wid, got = results.get(timeout=1)
        except queue.Empty:
            now = time.monotonic()
            for wid, (proc, _batch, last) in list(running.items()):
                if not proc.is_alive() and results.empty():
                    finish(wid, f"worker died (exit {proc.exitcode})")
                elif now - last > TIME_LIMIT + 15:  # the alarm could not interrupt it (stuck in C)
                    finish(wid, "hang")
            continue
        if wid not in running:
            continue
        if got is None:
            finish(wid, None)
            continue
        done[got[1]] = got
        proc, batch, _ = running[wid]
        running[wid] = (proc, batch, time.monotonic())
    summary = _summary(jobs, done, time.monotonic() - started, seed, out)
    if pages is not None:  # the pages in headless Chromium: no script may run
        try:
            summary["browser"] = reports.browse(pages, out)
        finally:
            shutil.rmtree(pages, ignore_errors=True)
            os.environ.pop(reports.PAGES_ENV, None)
        summary["totals"]["scripts_run"] = summary["browser"]["scripts_run"]
    return summary


def _summary(jobs: list[tuple[str, int, int]], done: dict[int, tuple[Any, ...]], elapsed: float, seed: int,
             out: Path | None) -> dict[str, Any]:
    per: dict[str, dict[str, Any]] = {}
    failures = []
    for name, index, input_seed in jobs:
        row = per.setdefault(name, {"inputs": 0, "ok": 0, "error": 0, "bug": 0, "hang": 0, "memory": 0,
                                    "changed": 0, "outside": 0, "lost": 0, "max_seconds": 0.0, "worker_peak_mib": 0})
        row["inputs"] += 1
        got = done.get(index)
        if got is None:
            row["lost"] += 1
            continue
        _, _, _, outcome, detail, seconds, data, peak = got
        row[outcome] += 1
        row["max_seconds"] = round(max(row["max_seconds"], seconds), 2)
        row["worker_peak_mib"] = max(row["worker_peak_mib"], round(peak / (1 << 20)))
        if outcome not in ("ok", "error"):
            failures.append({"target": name, "index": index, "input_seed": input_seed, "outcome": outcome,
                             "detail": detail})
            if out is not None:
                out.mkdir(parents=True, exist_ok=True)
                (out / f"{name}-{index}-{outcome}.bin").write_bytes(data)
    totals = {k: sum(r[k] for r in per.values()) for k in ("inputs", "ok", "error", "bug", "hang", "memory",
                                                           "changed", "outside", "lost")}
    totals["max_seconds"] = max((r["max_seconds"] for r in per.values()), default=0.0)
    totals["worker_peak_mib"] = max((r["worker_peak_mib"] for r in per.values()), default=0)
    return {"seed": seed, "seconds": round(elapsed, 1), "totals": totals, "targets": per, "failures": failures[:50]}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="scripts/fuzz", description=__doc__.split("\n\n")[0])
    ap.add_argument("n", type=int, nargs="?", default=2000, help="number of inputs (default 2000)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--targets", help="comma-separated target names (default: all)")
    ap.add_argument("--out", type=Path, default=Path("fuzz-failures"), help="where failing inputs are kept")
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args(argv)
    summary = fuzz(args.n, seed=args.seed, targets=args.targets.split(",") if args.targets else None,
                   out=args.out, workers=args.workers)
    json.dump(summary, sys.stdout, indent=1)
    sys.stdout.write("\n")
    t = summary["totals"]
    return 1 if (t["bug"] or t["hang"] or t["memory"] or t["changed"] or t["outside"] or t["lost"]
                 or t.get("scripts_run")) else 0


if __name__ == "__main__":
    sys.exit(main())
