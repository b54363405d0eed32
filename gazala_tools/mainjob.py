"""The main job behind ``scripts/run``: everything the toolkit does for one game, into one folder:
the map checked and drawn, counters and their sheet, the VASSAL module, and the referee's report on
each of the module's own scenario set-ups.

Each step is a CLI call, so the job does exactly what a user's commands would. A step whose noun
is not available in this installation is reported and skipped; a step that fails stops the job.
"""

from __future__ import annotations

import argparse
import functools
import sys
from pathlib import Path

from gazala_tools.cli import build_parser, main
from gazala_tools.fileio import atomic_write_bytes
from gazala_tools.games.scenarios import load_scenarios

__all__ = ["available", "referee_setups", "run", "steps"]


def _name(game: str) -> str:
    """The file name part of a game's outputs: its id (a built-in id or a game folder's game.yaml)."""
    from gazala_tools.games import find_game

    try:
        return find_game(game).id
    except Exception:  # the step that reads the game reports what is wrong with it
        return Path(game).stem or "game"


def steps(game: str, out: Path) -> list[list[str]]:
    return [
        ["map", "check", game],
        ["map", "info", game, "--json"],
        ["map", "geojson", game, "-o", str(out / "map.geojson")],
        ["map", "render", game, "-o", str(out / "board.png")],
        ["counters", "images", game, "-o", str(out / "counters")],
        ["counters", "sheet", game, "-o", str(out / "counter-sheet.pdf")],
        ["module", "build", game, "-o", str(out / f"{_name(game)}.vmod")],
    ]


def _choices(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:  # argparse keeps sub-commands here; there is no public accessor
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


@functools.cache
def _commands() -> dict[str, frozenset[str]]:
    """Every noun of the ``gazala`` command with its verbs (the parser is built once)."""
    return {noun: frozenset(_choices(p)) for noun, p in _choices(build_parser()).items()}


def available(argv: list[str]) -> bool:
    """Whether this installation has the noun and verb of ``argv``."""
    return argv[1] in _commands().get(argv[0], frozenset())


def _scenario_ids(game: str) -> dict[str, str]:
    """The file name of each scenario's set-up save in the module -> the scenario's id."""
    from gazala_tools.games import find_game
    from gazala_tools.vassal.module.spec import setup_file

    try:
        return {setup_file(sc.name): sc.id for sc in load_scenarios(find_game(game))}
    except Exception:  # the steps that read the game report what is wrong with it
        return {}


def referee_setups(game: str, out: Path) -> list[list[str]]:
    """Referee the module's own predefined set-ups: extract each save, check it (text + HTML) as a
    position of its scenario (``--scenario``: the report names it)."""
    vmod = out / f"{_name(game)}.vmod"
    if not vmod.is_file():
        return []
    scenario_of = _scenario_ids(game)
    (out / "setups").mkdir(exist_ok=True)
    calls: list[list[str]] = []
    from gazala_tools.inputs import ZipInput

    with ZipInput(vmod, what="module") as zf:  # the one boundary of every zip member (issue 31)
        for name in sorted(n for n in zf.names() if n.startswith("setups/") and n.endswith(".vsav")):
            save = out / name
            atomic_write_bytes(save, zf.read(name))
            report = out / f"referee-{save.stem}.html"
            check = ["referee", "check", str(save), "--module", str(vmod), "--game", game]  # a game folder's module
            if name in scenario_of:                                                          # names no built-in game
                check += ["--scenario", scenario_of[name]]
            calls.append(check)
            calls.append([*check, "--format", "html", "-o", str(report)])
    return calls


def run(game: str, out: Path) -> int:
    out.mkdir(parents=True, exist_ok=True)
    code = _run_steps(steps(game, out))
    if code == 0 and available(["referee", "check"]):
        code = _run_steps(referee_setups(game, out))
    if code == 0:
        print(f"[run] done: outputs in {out}", file=sys.stderr)
    return code


def _run_steps(argvs: list[list[str]]) -> int:
    for argv in argvs:
        if not available(argv):
            print(f"[run] skipped (not available yet): gazala {' '.join(argv)}", file=sys.stderr)
            continue
        print(f"[run] gazala {' '.join(argv)}", file=sys.stderr)
        code = main(argv)
        if code != 0:
            print(f"[run] failed with exit code {code}: gazala {' '.join(argv)}", file=sys.stderr)
            return code
    return 0


if __name__ == "__main__":
    from gazala_tools.games import default_game_id

    _game = sys.argv[1] if len(sys.argv) > 1 else default_game_id()
    sys.exit(run(_game, Path(sys.argv[2] if len(sys.argv) > 2 else f"out/{_name(_game)}")))
