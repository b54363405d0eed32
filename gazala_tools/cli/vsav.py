"""``gazala vsav``: read VASSAL saves and logs (every real format) and compare positions."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

__all__ = ["HELP", "NOUN", "register"]

NOUN = "vsav"
HELP = "VASSAL saved games and logs: dump the final position, diff two saves."


def register(parser: argparse.ArgumentParser) -> None:
    verbs = parser.add_subparsers(dest="verb", metavar="VERB", required=True)

    dump = verbs.add_parser(
        "dump",
        help="the position a save/log leaves: pieces with map, x, y (and location with --module)",
        description="Read a .vsav/.vlog (zipped or bare; !VCSK, plain, XZ or VOBS), run its commands "
        "(LOG steps included) and print every piece.",
    )
    dump.add_argument("save", help="a .vsav, .vlog, .sav or .log file")
    dump.add_argument("--module", help="a .vmod or buildFile(.xml): adds board and VASSAL location names")
    dump.add_argument("--no-log", action="store_true", help="stop at end_save: do not replay LOG steps")
    dump.add_argument("--json", action="store_true", help="JSON output")
    dump.set_defaults(func=_dump)

    diff = verbs.add_parser(
        "diff",
        help="what moved, was added, removed or changed between two saves (hex to hex with --module)",
    )
    diff.add_argument("a", help="the earlier save or log")
    diff.add_argument("b", help="the later save or log")
    diff.add_argument("--module", help="a .vmod or buildFile(.xml) for location names")
    diff.add_argument("--json", action="store_true", help="JSON output")
    diff.set_defaults(func=_diff)


def _dump(args: argparse.Namespace) -> int:
    from gazala_tools.vassal.buildfile import read_layouts
    from gazala_tools.vsav import read_save

    layouts = read_layouts(args.module) if args.module is not None else None
    save = read_save(args.save, layouts=layouts, replay_log=not args.no_log)
    data: dict[str, Any] = save.as_dict()
    if args.json:
        json.dump(data, sys.stdout, indent=1, ensure_ascii=False)
        sys.stdout.write("\n")
        return 0
    out = sys.stdout
    out.write(f"{data['file']}: {data['kind']}, format {data['format']}, VASSAL {data['vassal_version'] or '?'}, "
              f"module {data['module'] or '?'}\n")
    out.write("commands: " + ", ".join(f"{k} {v}" for k, v in data["commands"].items()) + "\n")
    for p in data["pieces"]:
        where = "off-map" if p["map"] is None else f"{p['map']} {p['x']},{p['y']}"
        loc = f" {p['location']}" if p["location"] else ""
        out.write(f"{p['id']}\t{p['name']}\t{where}{loc}\n")
    for w in data["warnings"]:
        out.write(f"warning: {w}\n")
    return 0


def _diff(args: argparse.Namespace) -> int:
    from gazala_tools.vassal.buildfile import read_layouts
    from gazala_tools.vsav import read_save
    from gazala_tools.vsav.diff import diff_positions

    layouts = read_layouts(args.module) if args.module is not None else None
    a = read_save(args.a, layouts=layouts)
    b = read_save(args.b, layouts=layouts)
    d = diff_positions(a.position, b.position)
    if args.json:
        json.dump(d.as_dict(), sys.stdout, indent=1, ensure_ascii=False)
        sys.stdout.write("\n")
    else:
        for line in d.lines():
            sys.stdout.write(line + "\n")
        if d.is_empty():
            sys.stdout.write("no differences\n")
    return 0
