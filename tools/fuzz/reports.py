"""The ``html-report`` fuzz target (issue 21): hostile names through every HTML report, then the
pages in headless Chromium.

An input is a name (seeds: :data:`tools.fuzz.hostile.PAYLOADS`; mutated by splicing payloads and
the text mutator's tokens). Each input is rendered as one report kind, picked by the input:
``referee check`` of a position of a River War copy whose names end in it (game, sides, turns,
places, rule texts; the position's unit id and box), ``referee check`` of a save whose piece and map
names carry it (with a ``--mapping``), or ``referee log`` of the engine-written RG log whose move
goes to a map of that name. The page is parsed at once: a payload element, attribute or comment is
a **bug** (:func:`tools.fuzz.hostile.injected`). The page is also kept (``GAZALA_FUZZ_PAGES``) for
the browser stage (:func:`browse`), run by ``scripts/fuzz`` after the workers: one headless Chromium
opens every page; a page whose title became ``PWNED``, that holds a payload element or a second
script, or on which the Content-Security-Policy had to block something, is a **script run**.
"""

from __future__ import annotations

import hashlib
import os
import random
import shutil
from pathlib import Path
from typing import Any

from tools.fuzz import mutate
from tools.fuzz.hostile import (
    MAPPING_YAML,
    PAYLOADS,
    PWNED,
    hostile_game,
    hostile_log,
    hostile_position,
    hostile_save,
    injected,
)

NAME = "html-report"
ROOT = Path(__file__).resolve().parents[2]
RIVER_WAR = ROOT / "tests" / "games" / "river-war"
RG_LOG = ROOT / "tests" / "fixtures" / "logs" / "rg-illegal.vlog"
#: where workers keep each rendered page for the browser stage (set by ``tools.fuzz.run``)
PAGES_ENV = "GAZALA_FUZZ_PAGES"
MAX_NAME = 2000
#: the report kinds, in the proportions an input picks them (the log report is the slowest)
KINDS = ("position", "position", "save", "save", "log")


def seeds() -> list[bytes]:
    return [p.encode("utf-8") for p in PAYLOADS] + ["".join(PAYLOADS).encode("utf-8")]


def mutate_name(rng: random.Random, seed: bytes) -> bytes:
    name = seed.decode("utf-8", "replace")
    for _ in range(rng.randint(1, 4)):
        op = rng.randrange(3)
        if op == 0:
            i = rng.randrange(len(name) + 1)
            name = name[:i] + rng.choice(PAYLOADS) + name[i:]
        elif op == 1:
            name = mutate.mutate_text(rng, name, rounds=1)
        else:
            i = rng.randrange(len(name) + 1)
            name = name[:i] + rng.choice(mutate.TEXT_TOKENS)[:40] + name[i:]
    return name[:MAX_NAME].encode("utf-8", "replace")


def run(path: Path, work: Path) -> None:
    from tools.fuzz.base import Bug, cli

    name = path.read_bytes().decode("utf-8", "replace")
    kind = KINDS[hashlib.sha256(path.read_bytes()).digest()[0] % len(KINDS)]
    d = work / f"report-{path.stem}"
    d.mkdir()
    page = d / "report.html"
    try:
        if kind == "position":
            game = hostile_game(RIVER_WAR, d / "game", name)
            position = hostile_position(game, d / "p.yaml", name)
            argv: list[str | Path] = ["referee", "check", position, "--game", game]
        elif kind == "save":
            (d / "m.yaml").write_text(MAPPING_YAML, encoding="utf-8")
            (d / "s.vsav").write_bytes(hostile_save(name))
            argv = ["referee", "check", d / "s.vsav", "--game", "gazala-rg", "--mapping", d / "m.yaml"]
        else:
            (d / "l.vlog").write_bytes(hostile_log(RG_LOG, name))
            argv = ["referee", "log", d / "l.vlog"]
        cli(*argv, "--format", "html", "--dpi", "10", "-o", page)
        pages = os.environ.get(PAGES_ENV)
        if pages:  # every page, a failing one too: the browser stage counts what would run
            shutil.copyfile(page, Path(pages) / f"{path.stem}-{kind}.html")
        found = injected(page.read_text(encoding="utf-8"))
        if found:
            raise Bug(f"{kind} report: payload markup in the page: {', '.join(found[:5])}")
    finally:
        shutil.rmtree(d, ignore_errors=True)


def browse(pages: Path, out: Path | None) -> dict[str, Any]:
    """Open every page in ``pages`` in one headless Chromium; the summary of the browser stage
    (``scripts_run``: pages where a payload ran or had to be blocked; failing pages kept in ``out``)."""
    import time

    from tools.fuzz.browser import Chromium

    start = time.monotonic()
    files = sorted(pages.glob("*.html"))
    failures: list[dict[str, Any]] = []
    with Chromium() as browser:
        for f in files:
            found = browser.open(f)
            if found["title"] == PWNED or found["pwned"] or found["scripts"] > 1 or found["csp"]:
                failures.append({"page": f.name, **{k: v for k, v in found.items() if k != "title"},
                                 "title": found["title"][:80]})
                if out is not None:
                    out.mkdir(parents=True, exist_ok=True)
                    shutil.copyfile(f, out / f"{NAME}-{f.name}")
    return {"pages": len(files), "scripts_run": len(failures), "seconds": round(time.monotonic() - start, 1),
            "failures": failures[:50]}
