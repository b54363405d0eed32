"""``gazala module``: build a game's VASSAL module (.vmod)."""

from __future__ import annotations

import argparse
import json
import logging
import sys

NOUN = "module"
HELP = "Build a complete VASSAL module (.vmod) for a game: board, grid, counters, chits, set-ups."

log = logging.getLogger(__name__)


def register(parser: argparse.ArgumentParser) -> None:
    verbs = parser.add_subparsers(dest="verb", metavar="VERB", required=True)
    b = verbs.add_parser(
        "build",
        help="build GAME's module",
        description="Build GAME's .vmod (gazala-rg, cauldron-dg, cauldron-spi, batalha): rendered board with "
        "the map's hex grid and numbering, a counter palette, prototypes, chit cups, dice, turn track and "
        "predefined set-ups. The output is written atomically.",
    )
    b.add_argument("game", help="game id, e.g. gazala-rg")
    b.add_argument("-o", "--output", required=True, help="the .vmod to write, e.g. modules/gazala-rg.vmod")
    b.add_argument("--dpi", type=float, default=None, help="board and counter resolution (default: the map's native dpi)")
    b.add_argument("--json", action="store_true", help="print a JSON summary")
    b.set_defaults(func=_build)


def _build(args: argparse.Namespace) -> int:
    from gazala_tools.vassal.module import build_game_module

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
            f"({', '.join(f'{n} {k}' for k, n in kinds.items())}), {len(spec.scenarios)} set-ups, "
            f"{len(result.data) / 1e6:.1f} MB in {result.timings['total']:.2f} s"
        )
    return 0
