"""``gazala map``: a game's map data: ``info``, ``check``, ``geojson`` (and ``render``)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from gazala_tools.cli import _common
from gazala_tools.errors import GazalaError
from gazala_tools.fileio import atomic_write_text, refuse_overwrite

__all__ = ["HELP", "NOUN", "register"]

NOUN = "map"
HELP = "A game's map data: summary, validation against the rules, GeoJSON export, board image."


def register(parser: argparse.ArgumentParser) -> None:
    verbs = parser.add_subparsers(dest="verb", metavar="VERB", required=True)
    game_help = _common.game_help(", a map directory or a map YAML (default: the default game)")

    info = verbs.add_parser("info", help="summary: size, numbering, hexes, hexsides, features, zones")
    info.add_argument("game", nargs="?", default=None, help=game_help)
    info.add_argument("--json", action="store_true", help="JSON output")
    info.set_defaults(func=_info)

    check = verbs.add_parser(
        "check", help="validate the data and every rule reference; exit 1 if any check fails"
    )
    check.add_argument("game", nargs="?", default=None, help=game_help)
    check.add_argument("--json", action="store_true", help="JSON output")
    check.set_defaults(func=_check)

    geo = verbs.add_parser("geojson", help="the map as a GeoJSON FeatureCollection (board coordinates)")
    geo.add_argument("game", nargs="?", default=None, help=game_help)
    geo.add_argument("-o", "--output", help="output file (default: stdout)")
    geo.add_argument(
        "--frame",
        choices=("pixel", "lattice"),
        default="pixel",
        help="VASSAL board pixels (default) or the integer corner lattice",
    )
    geo.add_argument("--json", action="store_true", help="(GeoJSON is JSON already; accepted for uniformity)")
    geo.set_defaults(func=_geojson)

    try:  # the board renderer (another area) mounts its own verb here
        from gazala_tools.cli.map_render import register_render
    except ImportError:  # pragma: no cover - renderer not installed
        return
    register_render(verbs)


def _info(args: argparse.Namespace) -> int:
    from gazala_tools.mapdata import load_map

    m = load_map(args.game)
    info: dict[str, Any] = m.info()
    if args.json:
        print(json.dumps(info, indent=2))
        return 0
    print(f"{info['game']}: {info['title']}  ({info['provenance']})")
    print(
        f"  grid      {info['columns']} x {info['rows']} {info['orientation']}, north {info['north']}, "
        f"numbering {info['numbering']}, {info['first_hex']}..{info['last_hex']}"
    )
    print(f"  hexes     {info['hexes']}   hexsides {info['hexsides']}")
    print("  terrain   " + ", ".join(f"{k} {v}" for k, v in info["terrain"].items()))
    print("  hexsides  " + ", ".join(f"{k} {v}" for k, v in info["hexside_features"].items() if v))
    print("  paths     " + ", ".join(f"{k} {v}" for k, v in info["paths"].items()) + f"   places {info['places']}")
    print("  zones     " + ", ".join(info["zones"]))
    b = info["board"]
    print(
        f"  board     {b['width']} x {b['height']} px, dx {b['dx']}, dy {b['dy']}, x0 {b['x0']}, y0 {b['y0']}"
    )
    return 0


def _check(args: argparse.Namespace) -> int:
    from gazala_tools.mapdata import load_map
    from gazala_tools.mapdata.checks import run_checks

    try:
        m = load_map(args.game)
    except GazalaError as exc:
        if args.json:
            print(json.dumps({"game": args.game, "ok": False, "error": str(exc)}))
        raise
    results = run_checks(m)
    failed = [r for r in results if r.problems]
    if args.json:
        print(
            json.dumps(
                {
                    "game": m.game,
                    "ok": not failed,
                    "checks": [
                        {"rule": r.rule, "name": r.name, "ok": not r.problems, "problems": list(r.problems)}
                        for r in results
                    ],
                },
                indent=2,
            )
        )
    else:
        for r in results:
            status = "ok  " if not r.problems else "FAIL"
            print(f"{status} {r.rule:<10} {r.name}")
            for p in r.problems:
                print(f"       - {p}")
        print(f"{m.game}: {len(results) - len(failed)}/{len(results)} checks passed")
    return 1 if failed else 0


def _geojson(args: argparse.Namespace) -> int:
    from gazala_tools.geometry import to_geojson
    from gazala_tools.mapdata import load_map

    m = load_map(args.game)
    text = json.dumps(to_geojson(m, frame=args.frame))
    if args.output:
        from gazala_tools.mapdata.loader import map_file

        refuse_overwrite(args.output, [map_file(args.game)])
        atomic_write_text(args.output, text + "\n")
    else:
        sys.stdout.write(text + "\n")
    return 0
