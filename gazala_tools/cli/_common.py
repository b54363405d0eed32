"""What several nouns of the ``gazala`` command share."""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from gazala_tools.hexgrid import MapLayout


def game_help(extra: str = "") -> str:
    """The help text of a GAME argument: a built-in id or a game folder."""
    from gazala_tools.games import builtin_ids

    return f"a built-in game ({', '.join(builtin_ids())}) or a game folder with game.yaml{extra}"


def number_in(lo: float, hi: float, *, integer: bool = False) -> Callable[[str], float]:
    """An argparse ``type=``: a finite number within ``lo..hi`` (``--dpi 0``, ``nan`` or ``1e9`` is a
    usage error, exit 2, never a crash or a huge allocation)."""

    def parse(text: str) -> float:
        try:
            value: float = int(text) if integer else float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text[:40]!r} is not {'an integer' if integer else 'a number'}") from None
        if not math.isfinite(value) or not lo <= value <= hi:
            raise argparse.ArgumentTypeError(f"{text[:40]} is out of range (expected {lo:g} to {hi:g})")
        return value

    parse.__name__ = "integer" if integer else "number"
    return parse


#: resolutions every command accepts (dots per inch)
DPI = number_in(1, 1200)


def on_terminal() -> bool:
    """Whether stderr is a terminal (progress bars are drawn only there)."""
    isatty = getattr(sys.stderr, "isatty", None)
    return bool(isatty and isatty())


def read_layouts(module: str | Path) -> list[MapLayout]:
    """A module's map layouts, for the referee (which imports no edge: it is given this reader).
    The module reader (lxml) is imported when a module is given, not when the CLI starts."""
    from gazala_tools.vassal.buildfile import read_layouts as read
    from gazala_tools.vassal.importer.layouts import folder_layouts, is_imported

    if is_imported(module):  # an imported game folder: the module's maps it keeps (issue 35)
        return folder_layouts(module)
    return read(module)


#: what a module argument may be (``module lint``, ``game import``)
MODULE_SOURCE_HELP = "a .vmod, a module folder, or a buildFile.xml"


def add_module_source(parser: argparse.ArgumentParser) -> None:
    """The ``MODULE`` argument of the verbs that read any VASSAL module (``module lint``, ``game import``)."""
    parser.add_argument("module", metavar="MODULE", help=MODULE_SOURCE_HELP)
