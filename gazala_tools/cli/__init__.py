"""The ``gazala`` command: ``gazala <noun> <verb> [options]``.

Each noun is a module in this package that defines ``NOUN`` (its name), ``HELP`` and
``register(subparsers)``; nouns are discovered automatically, so adding one touches no other file.
The CLI owns output and exit codes: a :class:`~gazala_tools.errors.GazalaError` becomes one line on
stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import pkgutil
import sys
from collections.abc import Sequence

from gazala_tools import __version__
from gazala_tools.errors import GazalaError


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="gazala",
        description="Hex-and-counter wargame tools for VASSAL: modules, referee, counter sheets.",
    )
    parser.add_argument("--version", action="version", version=f"gazala-tools {__version__}")
    parser.add_argument("-v", "--verbose", action="store_true", help="log progress to stderr")
    nouns = parser.add_subparsers(dest="noun", metavar="NOUN", required=True)
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        register = getattr(module, "register", None)
        if register is None:
            continue
        sub = nouns.add_parser(module.NOUN, help=module.HELP, description=module.HELP)
        register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING, format="%(message)s")
    try:
        result = args.func(args)
    except GazalaError as exc:
        print(f"gazala: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
    return int(result or 0)


if __name__ == "__main__":
    sys.exit(main())
