"""The public conformance run (issue 33 item 6): real third-party modules through every stage.

For each module of the run list (``modules.json``: repository, commit, the module's folder or .vmod in
it) it runs, as a new user would:

1. **import**: ``gazala game import MODULE DIR``;
2. **rebuild**: ``gazala module build DIR -o REBUILT.vmod``;
3. **engine**: VASSAL 3.7.26 loads the original and the rebuilt module (``tools.vassal_oracle``); the
   rebuilt module may have no problem (dialog, WARN/ERROR line) the original lacks;
4. **game**: a new game of each (at-start stacks placed) and each predefined set-up (its save read
   with each module), compared piece by piece: name, map, point, location, definition and state;
5. **lint**: ``gazala module lint MODULE``: no error where the engine loads the module and starts a
   game without a problem (a lint error on a module the engine complains about passes);
6. **sheet**: ``gazala counters sheet DIR -o SHEET.pdf``.

A stage that cannot run because an earlier one failed is ``skip``. Everything is written under
``--out`` (default ``/tmp/gazala-conformance``, outside the project): the extracted modules, the
imported folders, ``results.json`` and ``results.md``. Not run in CI.

    python -m tools.conformance [--only NAME] [--out DIR] [--list tools/conformance/modules.json]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import time
import zipfile
from collections import Counter
from pathlib import Path
from typing import Any

from tools.conformance.source import extract

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
STAGES = ("import", "rebuild", "engine", "game", "lint", "sheet")
#: predefined set-ups compared per module (each is two engine runs)
MAX_SETUPS = 4
#: seconds one CLI stage may take
STAGE_TIMEOUT = 900


#: a routine prompt of a new game the oracle does not count as routine: a map of several boards asks the
#: player which to lay out
CHOOSE_BOARDS = "dialog '': Choose Boards"


def _clean(r: dict[str, Any]) -> bool | None:
    """Whether the engine loaded the original and started a game without a word (routine prompts aside)."""
    probs = r.get("engine_original_problems")
    if r.get("engine_clean") is False and probs is not None and len(probs) < 10 \
            and all(p.startswith(CHOOSE_BOARDS) for p in probs):
        return True
    return r.get("engine_clean")


class _Skip(Exception):
    """The original module does not load in the engine."""


#: CPU seconds of each CLI stage run last (the machine is shared: wall seconds say little about the code)
LAST_CPU: dict[str, float] = {}


def _children_cpu() -> float:
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def _cli(args: list[str], timeout: int | None = None) -> tuple[int, str, str, float]:
    timeout = STAGE_TIMEOUT if timeout is None else timeout
    t0, c0 = time.monotonic(), _children_cpu()
    try:
        p = subprocess.run([sys.executable, "-m", "gazala_tools", *args], capture_output=True, text=True,
                           timeout=timeout, cwd=ROOT, check=False)
    except subprocess.TimeoutExpired:
        return 124, "", f"timed out after {timeout} s", time.monotonic() - t0
    finally:
        LAST_CPU[" ".join(args[:2])] = round(_children_cpu() - c0, 1)
    return p.returncode, p.stdout, p.stderr, time.monotonic() - t0


def _why(out: str, err: str) -> str:
    lines = [ln for ln in (err.strip().splitlines() or out.strip().splitlines()) if ln.strip()]
    if any(ln.startswith("Traceback") for ln in lines):
        return "traceback: " + lines[-1][:300]
    return (lines[-1] if lines else "")[:300]


def _setups(vmod: Path) -> list[tuple[str, str]]:
    """(name, file) of each predefined set-up that opens a save."""
    from gazala_tools.vassal.buildfile import open_source, parse_xml

    src = open_source(vmod)
    root = parse_xml(src.xml, src.path)
    out = []
    for el in root.iter("VASSAL.build.module.PredefinedSetup"):
        if el.get("isMenu", "false") == "true" or el.get("useFile", "true") != "true" or not el.get("file"):
            continue
        out.append((el.get("name", ""), el.get("file", "")))
    return out


def _piece_key(p: dict[str, Any], with_state: bool = True) -> tuple[Any, ...]:
    pid = str(p.get("id") or "")
    state = str(p.get("state") or "") if with_state else ""
    if pid:
        state = state.replace(pid, "ID")
    return (p.get("name"), p.get("map"), p.get("x"), p.get("y"), p.get("location"), p.get("type"), state)


def _compare(a: list[dict[str, Any]], b: list[dict[str, Any]], with_state: bool = True) -> str | None:
    """Where two piece lists differ (None: the same pieces). A new game's states are not compared: a
    module may roll dice or shuffle when a game starts (two new games of one module differ)."""
    ca = Counter(_piece_key(p, with_state) for p in a)
    cb = Counter(_piece_key(p, with_state) for p in b)
    if ca == cb:
        return None
    only_a, only_b = ca - cb, cb - ca
    ex = next(iter(only_a or only_b))
    return (f"{sum(only_a.values())} piece(s) only in the original, {sum(only_b.values())} only in the rebuilt "
            f"(of {len(a)}); e.g. {'original' if only_a else 'rebuilt'} {ex[0]!r} on {ex[1]!r} at ({ex[2]}, {ex[3]})")


def _problems(result: dict[str, Any], vmod: Path | None = None) -> list[str]:
    """The engine's problems, the module's own path and the engine's private folders left out (so the
    original's and the rebuilt module's compare)."""
    from tools.vassal_oracle.engine import problems

    out = []
    for p in problems(result):
        if p.startswith(CHOOSE_BOARDS):
            continue
        if vmod is not None:
            p = p.replace(str(vmod.resolve()), "<module>").replace(str(vmod), "<module>")
        out.append(re.sub(r"/tmp/gazala-vassal-[^/\s]+", "<private>", p))
    return out


def _new_game(engine: Any, vmod: Path, work: Path, tag: str) -> tuple[list[dict[str, Any]], list[str]]:
    """A new game as the player starts one (``new-game``: at-start stacks and decks placed): its pieces."""
    r = engine.new_game(vmod, work / f"newgame-{tag}.vsav")
    return list(r.get("pieces", [])), _problems(r, vmod)


def run_module(entry: dict[str, Any], out: Path, engine: Any, carried: dict[str, Any] | None = None) -> dict[str, Any]:
    name = entry["name"]
    work = out / "work" / name
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    res: dict[str, Any] = {"module": name, "repo": entry["repo"], "commit": entry["commit"], "path": entry["path"],
                           "stages": {s: "skip" for s in STAGES}, "why": {}, "seconds": {}}
    try:
        ext = extract(entry["repo"], entry["commit"], entry["path"], work / "src")
    except (FileNotFoundError, subprocess.CalledProcessError) as exc:
        res["why"]["extract"] = str(exc)
        return res
    vmod = ext.module
    res["size_bytes"] = vmod.stat().st_size
    res["snapshot_missing"] = len(ext.missing)
    res["missing_examples"] = ext.missing[:5]
    lost = [m for m in ext.missing if m in ("buildFile.xml", "buildFile")]
    if lost:  # a large buildFile the snapshot does not hold: there is no module to run (not a finding)
        res["stages"] = {s: "n/a" for s in STAGES}
        res["why"]["extract"] = f"the snapshot lacks the module's {lost[0]} (a large blob): nothing to run"
        return res
    with zipfile.ZipFile(vmod) as z:
        res["images"] = sum(1 for n in z.namelist() if n.startswith("images/"))
    folder = work / "imported"
    rebuilt = work / "rebuilt.vmod"

    def stage(s: str, ok: bool, why: str = "", t: float | None = None) -> None:
        res["stages"][s] = "pass" if ok else "FAIL"
        if why:
            res["why"][s] = why
        if t is not None:
            res["seconds"][s] = round(t, 1)
            cpu = LAST_CPU.get({"import": "game import", "rebuild": "module build", "sheet": "counters sheet"}.get(s, ""))
            if cpu is not None:
                res.setdefault("cpu_seconds", {})[s] = cpu

    code, o, e, t = _cli(["game", "import", str(vmod), str(folder), "--json"])
    if entry.get("extension"):  # an extension: the import must refuse it, saying what it extends
        refused = code == 2 and "VASSAL extension" in e
        stage("import", refused, f"refused: {_why(o, e)}" if refused else f"exit {code}: {_why(o, e)}", t)
        for s in ("rebuild", "game", "sheet"):
            res["stages"][s] = "n/a"
        code = 2
    else:
        stage("import", code == 0, "" if code == 0 else _why(o, e), t)
    if code == 0:
        try:
            rep = json.loads(o)
            res["import_summary"] = {k: rep.get(k) for k in ("imported", "not understood", "custom classes")
                                     if k in rep}
        except json.JSONDecodeError:
            pass
        code, o, e, t = _cli(["module", "build", str(folder), "-o", str(rebuilt)])
        stage("rebuild", code == 0, "" if code == 0 else _why(o, e), t)

    # the engine: the original always, the rebuilt one when there is one
    engine_clean = None
    if engine is not None:
        t0 = time.monotonic()
        try:
            orig = engine.module(vmod)
        except Exception as exc:  # the original itself does not load: nothing to compare the rebuilt one with
            res["why"]["engine"] = f"the original does not load: {str(exc)[:300]}"
            res["stages"]["engine"] = res["stages"]["game"] = "n/a"
            engine_clean = False
            orig = None
        try:
            if orig is None:
                raise _Skip
            orig_problems = _problems(orig, vmod)
            orig_pieces, orig_start = _new_game(engine, vmod, work, "orig")
            engine_clean = not orig_problems and not orig_start
            res["engine_original_problems"] = (orig_problems + orig_start)[:10]
            if rebuilt.exists():
                reb = engine.module(rebuilt)
                extra = sorted(set(_problems(reb, rebuilt)) - set(orig_problems))
                reb_pieces, reb_start = _new_game(engine, rebuilt, work, "rebuilt")
                extra += sorted(set(reb_start) - set(orig_start))
                stage("engine", not extra, "; ".join(extra)[:400], time.monotonic() - t0)
                t0 = time.monotonic()
                diffs = []
                d = _compare(orig_pieces, reb_pieces, with_state=False)
                if d:
                    diffs.append(f"new game: {d}")
                setups = _setups(vmod)
                res["setups"] = len(setups)
                res["new_game_pieces"] = len(orig_pieces)
                compared = 0
                setup_problems: list[str] = []
                for sname, sfile in setups[:MAX_SETUPS]:
                    with zipfile.ZipFile(vmod) as z:
                        if sfile not in z.namelist():
                            continue
                        saved = work / f"setup-{compared}.vsav"
                        saved.write_bytes(z.read(sfile))
                    opened = engine.read_save(vmod, saved)
                    setup_problems += _problems(opened, vmod)
                    a = opened.get("pieces", [])
                    b = engine.read_save(rebuilt, saved).get("pieces", [])
                    compared += 1
                    d = _compare(a, b)
                    if d:
                        diffs.append(f"set-up {sname!r}: {d}")
                res["setups_compared"] = compared
                if setup_problems:  # the engine complains when a set-up opens: not a clean module either
                    engine_clean = False
                    res["engine_original_problems"] = (res["engine_original_problems"] + setup_problems)[:10]
                stage("game", not diffs, "; ".join(diffs)[:400], time.monotonic() - t0)
        except _Skip:
            pass
        except Exception as exc:  # an engine that cannot run or load the module: say why, go on
            res["why"]["engine"] = f"{type(exc).__name__}: {str(exc)[:300]}"
            res["stages"]["engine"] = "FAIL"
    res["engine_clean"] = engine_clean
    if engine is None and carried is not None:
        carry_engine(res, carried)
        engine_clean = res.get("engine_clean")

    lint_stage(res, vmod, _clean(res) if engine is None else engine_clean)

    counters = (res.get("import_summary", {}).get("imported") or {}).get("counters")
    if entry.get("extension"):
        pass
    elif folder.exists() and counters == 0:
        res["stages"]["sheet"] = "n/a"
        res["why"]["sheet"] = "the module has no piece slots: no counters to print"
    elif folder.exists():
        code, o, e, t = _cli(["counters", "sheet", str(folder), "-o", str(work / "sheet.pdf"), "--no-progress"])
        stage("sheet", code == 0, "" if code == 0 else _why(o, e), t)
    return res


def lint_stage(res: dict[str, Any], vmod: Path, engine_clean: bool | None) -> None:
    """``module lint``: pass when it finds no error, or when the engine complains about the module too."""
    code, o, e, t = _cli(["module", "lint", str(vmod), "--json"])
    res["why"].pop("lint", None)
    res["seconds"]["lint"] = round(t, 1)
    res.setdefault("cpu_seconds", {})["lint"] = LAST_CPU.get("module lint", 0.0)
    if code not in (0, 1):
        res["stages"]["lint"], res["why"]["lint"] = "FAIL", _why(o, e)
        return
    lint = json.loads(o)
    res["lint_errors"], res["lint_warnings"] = lint["errors"], lint["warnings"]
    checks = Counter(f["check"] for f in lint["findings"] if f["level"] == "error")
    res["stages"]["lint"] = "pass" if lint["errors"] == 0 or engine_clean is False else "FAIL"
    if lint["errors"]:
        why = ", ".join(f"{n} {c}" for c, n in checks.most_common())
        res["why"]["lint"] = ("engine complains too: " if engine_clean is False else "") + why


#: the stages that need the engine (carried over from an earlier run with ``--carry-engine``)
ENGINE_STAGES = ("engine", "game")
#: per-module results the engine stages wrote (carried with them)
ENGINE_KEYS = ("engine_original_problems", "setups", "new_game_pieces", "setups_compared", "engine_clean")


def carry_engine(res: dict[str, Any], old: dict[str, Any] | None) -> None:
    """The engine stages of an earlier run of the same module and commit, marked as carried over (``--no-engine
    --carry-engine``: the original module's engine results do not depend on this project's code; the rebuilt
    module's do, so the table says which were carried)."""
    if old is None or old.get("commit") != res.get("commit") or old.get("module") != res.get("module"):
        return
    for s in ENGINE_STAGES:
        if old["stages"].get(s) not in (None, "skip"):
            res["stages"][s] = old["stages"][s]
            if old["why"].get(s):
                res["why"][s] = old["why"][s]
            if s in old.get("seconds", {}):
                res["seconds"][s] = old["seconds"][s]
    for k in ENGINE_KEYS:
        if k in old:
            res[k] = old[k]
    res["carried"] = [s for s in ENGINE_STAGES if res["stages"][s] not in ("skip",)]


def relint(out: Path) -> None:
    """The lint stage again for every module with results (the other stages as they were)."""
    for f in sorted((out / "per-module").glob("*.json")):
        res = json.loads(f.read_text(encoding="utf-8"))
        vmods = sorted((out / "work" / res["module"] / "src").glob("*.vmod"))
        if vmods:
            lint_stage(res, vmods[0], _clean(res))
            f.write_text(json.dumps(res, indent=1), encoding="utf-8")
            print(res["module"], res["stages"]["lint"], res.get("lint_errors"), flush=True)


def write_table(results: list[dict[str, Any]], out: Path) -> str:
    head = "| module | size | images | " + " | ".join(STAGES) + " | engine clean | lint E/W | notes |"
    rows = [head, "|" + "---|" * (len(STAGES) + 6)]
    for r in results:
        size = r.get("size_bytes")
        size_s = f"{size / 1e6:.1f} MB" if size else "-"
        notes = "; ".join(f"{k}: {v}" for k, v in r["why"].items() if v)
        if r.get("carried"):
            notes = f"{'/'.join(r['carried'])} carried over from the run before; " + notes
        if r.get("snapshot_missing"):
            notes = f"snapshot lacks {r['snapshot_missing']} file(s); " + notes
        notes = notes.replace("|", "/").replace("\n", " ")[:500]
        clean = {True: "yes", False: "no", None: "-"}[_clean(r)]
        lint = f"{r['lint_errors']}/{r['lint_warnings']}" if "lint_errors" in r else "-"
        rows.append(f"| {r['module']} | {size_s} | {r.get('images', '-')} | "
                    + " | ".join(r["stages"][s] for s in STAGES) + f" | {clean} | {lint} | {notes} |")
    passed = {s: sum(1 for r in results if r["stages"][s] == "pass") for s in STAGES}
    rows.append("| **passed** | | | " + " | ".join(f"{passed[s]}/{len(results)}" for s in STAGES) + " | | | |")
    text = "\n".join(rows) + "\n"
    (out / "results.md").write_text(text, encoding="utf-8")
    (out / "results.json").write_text(json.dumps(results, indent=1, sort_keys=True), encoding="utf-8")
    return text


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tools.conformance", description=__doc__.split("\n\n")[0])
    ap.add_argument("--list", default=str(HERE / "modules.json"), help="the run list (JSON)")
    ap.add_argument("--out", default=os.environ.get("GAZALA_CONFORMANCE_OUT", "/tmp/gazala-conformance"))
    ap.add_argument("--only", nargs="*", help="only modules whose name contains one of these")
    ap.add_argument("--timeout", type=int, default=STAGE_TIMEOUT, help="seconds one CLI stage may take (wall)")
    ap.add_argument("--no-engine", action="store_true", help="skip the engine stages")
    ap.add_argument("--carry-engine", action="store_true",
                    help="with --no-engine: keep the engine stages of the module's earlier results (marked carried)")
    ap.add_argument("--table", action="store_true", help="only write the table of the results there are")
    ap.add_argument("--relint", action="store_true", help="run the lint stage again on the modules run before")
    args = ap.parse_args(argv)
    out = Path(args.out)
    globals()["STAGE_TIMEOUT"] = args.timeout
    if ROOT in out.resolve().parents or out.resolve() == ROOT:
        ap.error("--out must be outside the project (third-party modules are never put in it)")
    out.mkdir(parents=True, exist_ok=True)
    entries = json.loads(Path(args.list).read_text(encoding="utf-8"))["modules"]
    per = out / "per-module"
    per.mkdir(exist_ok=True)
    if args.relint:
        relint(out)
    elif not args.table:
        engine = None
        if not args.no_engine:
            from tools.vassal_oracle.engine import Engine

            engine = Engine(timeout=300)
            ok, reason = engine.available()
            if not ok:
                print(f"engine not available: {reason}", file=sys.stderr)
                engine = None
        try:
            for entry in entries:
                if args.only and not any(o in entry["name"] for o in args.only):
                    continue
                t0 = time.monotonic()
                old = per / f"{entry['name']}.json"
                carried = json.loads(old.read_text(encoding="utf-8")) if args.carry_engine and old.exists() else None
                res = run_module(entry, out, engine, carried)
                res["total_seconds"] = round(time.monotonic() - t0, 1)
                (per / f"{entry['name']}.json").write_text(json.dumps(res, indent=1), encoding="utf-8")
                print(entry["name"], " ".join(f"{s}={res['stages'][s]}" for s in STAGES), flush=True)
        finally:
            if engine is not None:
                engine.close()
    results = []
    for entry in entries:
        f = per / f"{entry['name']}.json"
        if f.exists():
            results.append(json.loads(f.read_text(encoding="utf-8")))
    print(write_table(results, out))
    return 0
