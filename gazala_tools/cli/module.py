"""``gazala module build``: build a game's VASSAL module (.vmod)."""

from __future__ import annotations

import argparse
import json
import logging
import sys

__all__ = [
    "HELP",
    "NOUN",
    "log",
    "register",
]

NOUN = "module"
HELP = "Build a complete VASSAL module (.vmod) of a game: board, grid, counters, chits, set-ups."

log = logging.getLogger(__name__)


def register(parser: argparse.ArgumentParser) -> None:
    from gazala_tools.cli._common import DPI, add_module_source, game_help

    verbs = parser.add_subparsers(dest="verb", metavar="VERB", required=True)
    b = verbs.add_parser(
        "build",
        help="build GAME's module",
        description="Build GAME's .vmod from its game folder and build configuration (`gazala help module`): the board "
        "(rendered from the map data, or the configuration's image, e.g. a scan) with the map's hex grid and "
        "numbering, a counter palette, prototypes, chit cups, dice, turn track, charts and predefined set-ups. "
        "The same input gives the same bytes; the output is written atomically.",
    )
    b.add_argument("game", metavar="GAME", help=game_help(", or a module build configuration YAML whose game: names the game"))
    b.add_argument("-o", "--output", required=True, help="the .vmod to write, e.g. my-game.vmod")
    b.add_argument("--dpi", type=DPI, default=None,
                   help="pixels per inch. A board drawn from the map is drawn at DPI (default: the configuration's "
                        "board: dpi, else the map's), the counters too. A board image (board: art, a scan) is "
                        "used as it is: DPI says how many of its pixels make an inch (default: map.yaml's "
                        "grid: pixels: dpi), which sizes the counters from their printed size (counters.yaml "
                        "counter_size); counters: size_px in the build configuration sets their side in board "
                        "pixels instead, and then --dpi changes nothing")
    b.add_argument("--json", action="store_true", help="print a JSON summary")
    b.set_defaults(func=_build)

    lint = verbs.add_parser(
        "lint",
        help="check a VASSAL module without the engine",
        description="Check a VASSAL module (.vmod, an unzipped module folder, or a buildFile) without the engine "
        "for what the engine reports on load or players meet later: missing images, duplicate or missing gpids, "
        "piece definitions that do not parse, missing prototypes, set-up pieces off their board or grid, grids "
        "that do not fit their board image, hex numberings that repeat names, set-up saves the module cannot "
        "read. Each finding names the element's path in the buildFile and what to do. Exit 1 on an error.",
    )
    add_module_source(lint)
    lint.add_argument("--json", action="store_true", help="print the findings as JSON")
    lint.set_defaults(func=_lint)


def _build(args: argparse.Namespace) -> int:
    from gazala_tools.vassal.importer.rebuild import is_imported, rebuild
    from gazala_tools.vassal.module import build_game_module
    from gazala_tools.wording import count

    if is_imported(args.game):  # a folder of `game import`: the module it came from, again
        if args.dpi is not None:
            log.warning("--dpi changes nothing for an imported module (its images are used as they are)")
        done = rebuild(args.game, args.output)
        if args.json:
            json.dump({"output": args.output, "name": done.name, "version": done.version, "imported": True,
                       "counters": done.counters, "files": done.files, "bytes": done.bytes}, sys.stdout, indent=2)
            sys.stdout.write("\n")
        else:
            print(f"{args.output}: {done.name} v{done.version} rebuilt from the imported folder, "
                  f"{count(done.counters, 'counter')}, {count(done.files, 'file')}, {done.bytes / 1e6:.1f} MB")
        return 0

    result = build_game_module(args.game, args.output, dpi=args.dpi)
    summary = result.summary()
    summary["output"] = args.output
    if args.json:
        json.dump(summary, sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        spec = result.spec
        kinds = result.kinds()
        print(
            f"{args.output}: {spec.name} v{spec.version}, {len(spec.pieces)} palette pieces "
            f"({', '.join(f'{n} {k}' for k, n in kinds.items())}), {count(len(spec.scenarios), 'set-up')}, "
            f"{result.size / 1e6:.1f} MB in {result.timings['total']:.2f} s"
        )
    return 0


def _lint(args: argparse.Namespace) -> int:
    from gazala_tools.vassal.lint import lint_module

    result = lint_module(args.module)
    if args.json:
        json.dump(result.as_dict(), sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        for f in result.findings:
            print(f.line())
        counted = ", ".join(f"{n} {k}" for k, n in result.counts.items())
        print(f"{args.module}: {result.errors} errors, {result.warnings} warnings ({counted})")
    return 1 if result.errors else 0
