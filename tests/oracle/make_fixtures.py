#!/usr/bin/env python3
"""Record what the real VASSAL engine says about the corpus grids (tests/fixtures/engine/).

Run from the repository root (needs Java, Xvfb and the shared VASSAL 3.7.26 jar, i.e. what
scripts/setup-vassal checks; see docs/vassal-engine.md):

    .venv/bin/python -m tests.oracle.make_fixtures [--out tests/fixtures/engine]

For each corpus grid it asks the engine (``Map.locationName``, ``Map.snapTo``, ``Map.findBoard``,
one JVM per module) about every hex or square centre in a generous index range (off-board rows and
columns included) and about many other points: random ones over the board and beyond its edges,
points next to hex corners and sides, along the board edges, on and beside every zone boundary, and
inside the SquareGrid zones. The point lists are deterministic (fixed seed), so a re-run with the same
engine reproduces the files exactly (except the date).

The corpus is read-only and never copied into the repository. The Ragnarok grid has no module file
in the corpus, so a test module is built in a temporary directory from its ``buildFile.xml`` and
``moduledata`` plus a blank ``images/map.jpg`` of :data:`RAGNAROK_BOARD` pixels (its images are not in
the corpus). ``tests/oracle/conftest.py`` builds the same module for the tests.
"""

from __future__ import annotations

import argparse
import datetime as dt
import io
import json
import math
import os
import random
import sys
import tempfile
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]

SHARED = Path(os.environ.get("GAZALA_SHARED", ROOT.parent / "shared")).resolve()
CORPUS = SHARED / "corpus"
TEMPLATE_REL = "hex-n-counters-template/jzhex-n-counters-template-v12-379.vmod"
RAGNAROK_REL = "hex-n-counters-template/ragnarok"
#: The blank board image used for Ragnarok (its real map.jpg is not in the corpus): 3264 x 2448 is a
#: common scan size and holds every zone of the buildFile (they reach x=3252, y=2424).
RAGNAROK_BOARD = (3264, 2448)
SEED = 20261121

PKG = "VASSAL.build.module.map.boardPicker.board"


def build_ragnarok_module(
    out_dir: Path, corpus: Path = CORPUS, size: tuple[int, int] = RAGNAROK_BOARD
) -> Path:
    """A loadable module from the corpus Ragnarok buildFile + moduledata + a blank map image."""
    from PIL import Image

    src = corpus / RAGNAROK_REL
    image = io.BytesIO()
    Image.new("RGB", size, (255, 255, 255)).save(image, "JPEG", quality=50)
    vmod = out_dir / "ragnarok-test.vmod"
    with zipfile.ZipFile(vmod, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("buildFile.xml", (src / "buildFile.xml").read_bytes())
        zf.writestr("moduledata", (src / "moduledata").read_bytes())
        zf.writestr("images/map.jpg", image.getvalue())
    return vmod


# --- reading the grids out of a buildFile (trusted corpus input) -------------------------------------


def _board_grids(build_xml: bytes, board_name: str) -> dict[str, Any]:
    """The hex grid, square grids and zones of one board, as plain attribute dicts."""
    root = ET.fromstring(build_xml)
    for board in root.iter("VASSAL.build.module.map.boardPicker.Board"):
        if board.get("name") != board_name:
            continue
        out: dict[str, Any] = {"hex": [], "square": [], "zones": []}
        for el in board.iter():
            if el.tag == f"{PKG}.HexGrid":
                out["hex"].append(dict(el.attrib))
            elif el.tag == f"{PKG}.SquareGrid":
                out["square"].append(dict(el.attrib))
            elif el.tag == f"{PKG}.mapgrid.Zone":
                pts = [tuple(int(v) for v in p.split(",")) for p in el.get("path", "").split(";") if p]
                out["zones"].append({"name": el.get("name"), "path": pts})
        return out
    raise KeyError(board_name)


# --- point generation --------------------------------------------------------------------------------


def hex_centre(g: dict[str, str], c: int, r: int) -> tuple[int, int]:
    """VASSAL 5.3 centre of raw hex (c, r) in board coordinates."""
    dx, dy = float(g["dx"]), float(g["dy"])
    x0, y0 = int(g["x0"]), int(g["y0"])
    u = int(dx * c + x0)
    v = int(dy * r + y0) if c % 2 == 0 else int(dy * r + int(dy / 2) + y0)
    return (v, u) if g.get("sideways") == "true" else (u, v)


def hex_index_range(g: dict[str, str], w: int, h: int, margin: int = 2) -> tuple[range, range]:
    dx, dy = float(g["dx"]), float(g["dy"])
    x0, y0 = int(g["x0"]), int(g["y0"])
    span_u, span_v = (h, w) if g.get("sideways") == "true" else (w, h)
    cols = range(-margin, math.ceil((span_u - x0) / dx) + margin + 1)
    rows = range(-margin, math.ceil((span_v - y0) / dy) + margin + 1)
    return cols, rows


def hex_points(
    g: dict[str, str], w: int, h: int, rng: random.Random, n_near: int
) -> list[tuple[str, int, int]]:
    """Points next to hex corners and sides: centre + fractions of (dx, dy), +-1 px."""
    cols, rows = hex_index_range(g, w, h, margin=0)
    dx, dy = float(g["dx"]), float(g["dy"])
    sideways = g.get("sideways") == "true"
    out: list[tuple[str, int, int]] = []
    for _ in range(n_near):
        cx, cy = hex_centre(g, rng.choice(cols), rng.choice(rows))
        fu = rng.choice([-2 / 3, -1 / 2, -1 / 3, 1 / 3, 1 / 2, 2 / 3])
        fv = rng.choice([-1 / 2, -1 / 4, 0.0, 1 / 4, 1 / 2])
        du, dv = fu * dx + rng.randint(-1, 1), fv * dy + rng.randint(-1, 1)
        ox, oy = (dv, du) if sideways else (du, dv)
        out.append(("hex-boundary", round(cx + ox), round(cy + oy)))
    return out


def square_points(
    g: dict[str, str], zone: list[tuple[int, int]], rng: random.Random
) -> list[tuple[str, int, int]]:
    """Square centres, half-cell boundaries (+-1 px) and random points in and around a square zone."""
    dx, dy = float(g["dx"]), float(g["dy"])
    x0, y0 = int(g["x0"]), int(g["y0"])
    xs, ys = [p[0] for p in zone], [p[1] for p in zone]
    lo_i, hi_i = math.floor((min(xs) - x0) / dx) - 1, math.ceil((max(xs) - x0) / dx) + 1
    lo_j, hi_j = math.floor((min(ys) - y0) / dy) - 1, math.ceil((max(ys) - y0) / dy) + 1
    out: list[tuple[str, int, int]] = []
    for i in range(lo_i, hi_i + 1):
        for j in range(lo_j, hi_j + 1):
            cx, cy = x0 + i * dx, y0 + j * dy
            out.append(("square-centre", round(cx), round(cy)))
            for e in (-1, 0, 1):
                out.append(("square-boundary", math.floor(cx + dx / 2) + e, round(cy)))
                out.append(("square-boundary", round(cx), math.floor(cy + dy / 2) + e))
    for _ in range(120):
        out.append(
            ("square-random", rng.randint(min(xs) - 5, max(xs) + 5), rng.randint(min(ys) - 5, max(ys) + 5))
        )
    return out


def zone_boundary_points(zone: list[tuple[int, int]], rng: random.Random) -> list[tuple[str, int, int]]:
    out: list[tuple[str, int, int]] = []
    for k, (ax, ay) in enumerate(zone):
        bx, by = zone[(k + 1) % len(zone)]
        out.append(("zone-corner", ax, ay))
        for _ in range(5):
            t = rng.random()
            x, y = round(ax + t * (bx - ax)), round(ay + t * (by - ay))
            for ex, ey in ((0, 0), (-1, 0), (1, 0), (0, -1), (0, 1)):
                out.append(("zone-boundary", x + ex, y + ey))
    return out


def board_points(w: int, h: int, rng: random.Random, n_random: int) -> list[tuple[str, int, int]]:
    margin = 40
    out = [
        ("random", rng.randint(-margin, w + margin), rng.randint(-margin, h + margin))
        for _ in range(n_random)
    ]
    for _ in range(8):
        t = rng.randint(0, max(w, h))
        for x in (-1, 0, 1, w - 2, w - 1, w):
            out.append(("board-edge", x, min(t, h + 1)))
        for y in (-1, 0, 1, h - 2, h - 1, h):
            out.append(("board-edge", min(t, w + 1), y))
    for x in (-1, 0, w - 1, w):
        for y in (-1, 0, h - 1, h):
            out.append(("board-corner", x, y))
    return out


# --- sections ------------------------------------------------------------------------------------------


def section_specs(
    build_xml: bytes, maps: dict[str, tuple[str, int, int]], rng: random.Random
) -> dict[str, Any]:
    """For each map: its hex/square centres (with raw indices) and its other points."""
    specs: dict[str, Any] = {}
    for map_name, (board, w, h) in maps.items():
        grids = _board_grids(build_xml, board)
        centres: list[tuple[str, int, int, int, int]] = []
        points: list[tuple[str, int, int]] = []
        for g in grids["hex"]:
            cols, rows = hex_index_range(g, w, h)
            for c in cols:
                for r in rows:
                    x, y = hex_centre(g, c, r)
                    centres.append(("hex-centre", c, r, x, y))
            points += hex_points(g, w, h, rng, n_near=300)
        for z, g in _zones_with(grids, build_xml, board, "SquareGrid"):
            points += square_points(g, z["path"], rng)
        for z in grids["zones"]:
            points += zone_boundary_points(z["path"], rng)
        points += board_points(w, h, rng, n_random=400 if grids["hex"] else 150)
        specs[map_name] = {
            "board": board,
            "board_size": [w, h],
            "grids": grids,
            "centres": centres,
            "points": points,
        }
    return specs


def _zones_with(
    grids: dict[str, Any], build_xml: bytes, board: str, kind: str
) -> list[tuple[dict[str, Any], dict[str, str]]]:
    """(zone, grid attrs) for every zone of ``board`` holding a grid of ``kind``."""
    root = ET.fromstring(build_xml)
    out = []
    for b in root.iter("VASSAL.build.module.map.boardPicker.Board"):
        if b.get("name") != board:
            continue
        for z in b.iter(f"{PKG}.mapgrid.Zone"):
            g = z.find(f"{PKG}.{kind}")
            if g is not None:
                zone = next(x for x in grids["zones"] if x["name"] == z.get("name"))
                out.append((zone, dict(g.attrib)))
    return out


def record(engine: Any, vmod: Path, specs: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """Ask the engine about every centre and point of every section (one JVM)."""
    queries: list[tuple[str, int, int]] = []
    for map_name, spec in specs.items():
        queries += [(map_name, x, y) for _k, _c, _r, x, y in spec["centres"]]
        queries += [(map_name, x, y) for _k, x, y in spec["points"]]
    result, located = engine.locate_raw(vmod, queries)
    it = iter(located)
    sections: dict[str, Any] = {}
    for map_name, spec in specs.items():
        centres = []
        for kind, c, r, x, y in spec["centres"]:
            loc = next(it)
            centres.append([kind, c, r, x, y, loc.location, loc.snap[0], loc.snap[1], loc.board])
        points = []
        for kind, x, y in spec["points"]:
            loc = next(it)
            points.append([kind, x, y, loc.location, loc.snap[0], loc.snap[1], loc.board])
        sections[map_name] = {
            "board": spec["board"],
            "board_size": spec["board_size"],
            "hex_grids": spec["grids"]["hex"],
            "square_grids": spec["grids"]["square"],
            "zones": spec["grids"]["zones"],
            "centre_fields": [
                "kind",
                "raw_col",
                "raw_row",
                "x",
                "y",
                "location",
                "snap_x",
                "snap_y",
                "board",
            ],
            "centres": centres,
            "point_fields": ["kind", "x", "y", "location", "snap_x", "snap_y", "board"],
            "points": points,
        }
    return result, sections


def dump(path: Path, meta: dict[str, Any], sections: dict[str, Any]) -> None:
    """JSON with one centre/point per line (diff-friendly)."""
    lines = ["{"]
    for k, v in meta.items():
        lines.append(f"  {json.dumps(k)}: {json.dumps(v)},")
    lines.append('  "sections": {')
    names = list(sections)
    for i, name in enumerate(names):
        sec = sections[name]
        lines.append(f"    {json.dumps(name)}: {{")
        for k, v in sec.items():
            if k in ("centres", "points"):
                continue
            lines.append(f"      {json.dumps(k)}: {json.dumps(v)},")
        for key in ("centres", "points"):
            rows = sec[key]
            lines.append(f"      {json.dumps(key)}: [")
            lines += [
                f"        {json.dumps(row)}" + ("," if j < len(rows) - 1 else "")
                for j, row in enumerate(rows)
            ]
            lines.append("      ]" + ("," if key == "centres" else ""))
        lines.append("    }" + ("," if i < len(names) - 1 else ""))
    lines.append("  }")
    lines.append("}")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    from tools.vassal_oracle.engine import ENGINE_VERSION, Engine, cannot_run, file_sha256, jar_version

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=ROOT / "tests" / "fixtures" / "engine")
    args = ap.parse_args(argv)
    engine = Engine()
    if cannot_run(engine):
        return 1
    args.out.mkdir(parents=True, exist_ok=True)
    if jar_version(engine.jar) != ENGINE_VERSION:
        print(f"{engine.jar} is not VASSAL {ENGINE_VERSION}", file=sys.stderr)
        return 1
    today = dt.datetime.now(dt.UTC).strftime("%Y-%m-%d")
    common = {
        "produced_by": "tests/oracle/make_fixtures.py",
        "command": ".venv/bin/python -m tests.oracle.make_fixtures",
        "date": today,
        "engine_version": ENGINE_VERSION,
        "engine_jar": f"shared/vassal/{ENGINE_VERSION}/{engine.jar.name} (built from the release tag, see its README)",
        "engine_jar_sha256": file_sha256(engine.jar),
        "snap_semantics": "VASSAL 3.7.26: HexGrid snaps to the centre of the hexagon holding the point (3.7.0-beta4 on)",
        "coordinates": "map coordinates (these maps have no edge buffer and one board at 0,0)",
    }
    try:
        with tempfile.TemporaryDirectory() as tmp:
            # 1. the template module, as it is in the corpus
            vmod = CORPUS / TEMPLATE_REL
            with zipfile.ZipFile(vmod) as zf:
                build = zf.read("buildFile.xml")
            rng = random.Random(SEED)
            specs = section_specs(
                build, {"Main Map": ("Map", 750, 750), "TurnTrack": ("Turn", 750, 750)}, rng
            )
            result, sections = record(engine, vmod, specs)
            _check_boards(result, specs)
            meta = dict(common, module={"source": f"corpus/{TEMPLATE_REL}", "boards_in_use": result["maps"]})
            dump(args.out / "jzhex-template.json", meta, sections)
            print(f"jzhex-template.json: {_count(sections)} points", file=sys.stderr)

            # 2. Ragnarok: corpus buildFile + moduledata + a blank map image
            vmod = build_ragnarok_module(Path(tmp))
            build = (CORPUS / RAGNAROK_REL / "buildFile.xml").read_bytes()
            rng = random.Random(SEED + 1)
            w, h = RAGNAROK_BOARD
            specs = section_specs(build, {"Main Map": ("Map", w, h)}, rng)
            result, sections = record(engine, vmod, specs)
            _check_boards(result, specs)
            meta = dict(
                common,
                module={
                    "source": f"generated from corpus/{RAGNAROK_REL}/buildFile.xml + moduledata",
                    "recipe": "tests/oracle/make_fixtures.py build_ragnarok_module(): zip of buildFile.xml, "
                    f"moduledata and a blank white images/map.jpg of {w}x{h} px",
                    "board_size": [w, h],
                    "boards_in_use": result["maps"],
                },
            )
            dump(args.out / "ragnarok.json", meta, sections)
            print(f"ragnarok.json: {_count(sections)} points", file=sys.stderr)
    finally:
        engine.close()
    return 0


def _check_boards(result: dict[str, Any], specs: dict[str, Any]) -> None:
    for m in result["maps"]:
        if m["name"] in specs:
            (board,) = m["boards"]
            w, h = specs[m["name"]]["board_size"]
            if board["bounds"] != [0, 0, w, h] or m["edge"] != [0, 0]:
                raise SystemExit(f"unexpected board layout for {m['name']}: {m}")


def _count(sections: dict[str, Any]) -> int:
    return sum(len(s["centres"]) + len(s["points"]) for s in sections.values())


if __name__ == "__main__":
    raise SystemExit(main())
