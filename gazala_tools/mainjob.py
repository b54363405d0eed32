"""The main job behind ``scripts/run``: everything the toolkit builds for one game, into one folder.

Each step is a CLI call, so the job does exactly what a user's commands would. A step whose noun
is not available in this installation is reported and skipped; a step that fails stops the job.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from gazala_tools.cli import build_parser, main


def steps(game: str, out: Path) -> list[list[str]]:
    return [
        ["map", "check", game],
        ["map", "info", game, "--json"],
        ["map", "geojson", game, "-o", str(out / "map.geojson")],
        ["map", "render", game, "-o", str(out / "board.png")],
        ["counters", "images", game, "-o", str(out / "counters")],
        ["counters", "sheet", game, "-o", str(out / "counter-sheet.pdf")],
        ["module", "build", game, "-o", str(out / f"{game}.vmod")],
    ]


def _choices(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:  # argparse keeps sub-commands here; there is no public accessor
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def available(argv: list[str]) -> bool:
    """Whether this installation has the noun and verb of ``argv``."""
    nouns = _choices(build_parser())
    noun = nouns.get(argv[0])
    return noun is not None and argv[1] in _choices(noun)


def run(game: str, out: Path) -> int:
    out.mkdir(parents=True, exist_ok=True)
    for argv in steps(game, out):
        if not available(argv):
            print(f"[run] skipped (not available yet): gazala {' '.join(argv)}", file=sys.stderr)
            continue
        print(f"[run] gazala {' '.join(argv)}", file=sys.stderr)
        code = main(argv)
        if code != 0:
            print(f"[run] failed with exit code {code}: gazala {' '.join(argv)}", file=sys.stderr)
            return code
    print(f"[run] done: outputs in {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(run(sys.argv[1] if len(sys.argv) > 1 else "gazala-rg", Path(sys.argv[2] if len(sys.argv) > 2 else "out/gazala-rg")))
