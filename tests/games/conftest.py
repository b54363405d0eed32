"""Fixtures shared by the data-only games' end-to-end tests (``test_river_war.py``, ``test_highland.py``).

A test module names its game with module constants, and these fixtures read them from it:
``FOLDER`` (the game folder), ``SCENARIO`` (the module's set-up name) and ``MOVES`` (the engine's moves
from that set-up, each ``{"piece": id, "to": label}``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from gazala_tools.cli import main
from gazala_tools.mapdata.loader import load_game_map


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """``gazala ARGV``: its exit status, standard output and standard error."""
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def assert_loads_cleanly(loaded: dict[str, Any]) -> None:
    """The engine's load of a module: no dialog, no error or warning logged, nothing dropped on its
    own round trip of the buildFile."""
    assert loaded["dialogs"] == []
    assert [line for line in loaded["log"] if "ERROR" in line or "WARN" in line] == []
    rt = loaded["roundtrip"]
    assert rt["dropped_elements"] == [] and rt["dropped_attributes"] == [] and rt["changed_text"] == []


@pytest.fixture(scope="module")
def vmod(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The module ``gazala module build FOLDER`` writes, once per test module."""
    folder: Path = request.module.FOLDER
    out = tmp_path_factory.mktemp(folder.name) / f"{folder.name}.vmod"
    assert main(["module", "build", str(folder), "-o", str(out)]) == 0
    return out


def _setup_save(request: pytest.FixtureRequest, harness: Any, vmod: Path, out: Path,
                moves: list[dict[str, Any]]) -> dict[str, Any]:
    """The harness opens the set-up ``SCENARIO`` as a player, makes ``moves`` (each
    ``Map.placeOrMerge``) and has VASSAL save the game."""
    out.mkdir()
    moves_file = out / "moves.json"
    moves_file.write_text(json.dumps({"moves": moves}), encoding="utf-8")
    result: dict[str, Any] = harness.run("setup", vmod, request.module.SCENARIO, out, moves_file)
    assert Path(result["saved"]).is_file()
    return result


@pytest.fixture(scope="module")
def opened(request: pytest.FixtureRequest, vassal_harness: Any, vmod: Path,
           tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The set-up as the engine opens it, saved by the engine without a move."""
    return _setup_save(request, vassal_harness, vmod, tmp_path_factory.mktemp("engine") / "setup", [])


@pytest.fixture(scope="module")
def moved(request: pytest.FixtureRequest, vassal_harness: Any, vmod: Path,
          tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The set-up after the engine made ``MOVES``, saved by the engine."""
    return _setup_save(request, vassal_harness, vmod, tmp_path_factory.mktemp("engine") / "moved",
                       request.module.MOVES)


def engine_hex_names(engine: Any, vmod: Path, folder: Path) -> tuple[list[str], list[str]]:
    """The engine's location names of every hex centre of ``folder``'s map, and the game's labels."""
    from gazala_tools.games import find_game
    from gazala_tools.vassal.gamelayout import MAIN_MAP

    game_map = load_game_map(find_game(folder))
    geometry, px = game_map.geometry(), game_map.pixels
    hexes = game_map.hexes()
    points = [(MAIN_MAP, x + px.edge_width, y + px.edge_height) for x, y in map(geometry.hex_center, hexes)]
    return [loc.location for loc in engine.locate(vmod, points)], [game_map.label(h) for h in hexes]


def placed_by_map(result: dict[str, Any]) -> dict[str, dict[str, str]]:
    """An engine save's pieces as ``{map: {piece id: location}}``, once the engine started the game
    with no problem."""
    from tools.vassal_oracle.engine import problems

    assert result["game_started"] and problems(result) == []
    out: dict[str, dict[str, str]] = {}
    for p in result["pieces"]:
        out.setdefault(p["map"], {})[p["id"]] = p["location"]
    return out


def referee_json(capsys: pytest.CaptureFixture[str], save: str, vmod: Path, folder: Path) -> tuple[int, Any]:
    """``gazala referee check SAVE --module VMOD --game FOLDER --json``: exit status and report."""
    code, out, _ = run(capsys, "referee", "check", save, "--module", str(vmod), "--game", str(folder), "--json")
    return code, json.loads(out)


class MovePhase:
    """One movement phase of a data-only game (Lowland Front, Rail Junction): moves of the units of a
    position, one after another (the position before each move is the one the earlier moves left)."""

    def __init__(self, rules: Any, units: list[Any], allowance: dict[str, int] | None = None) -> None:
        from gazala_tools.referee.movement import allowances

        self.rules = rules
        self.units = {u.id: u for u in units}
        self.data = rules.movement
        self.allowance = allowances(rules, "move") if allowance is None else allowance
        self.phase: dict[str, Any] = {}
        self.paths: list[list[str] | None] = []

    def move(self, uid: str, to: str | None, *, box: str | None = None) -> list[Any]:
        from gazala_tools.referee.engine import Context
        from gazala_tools.referee.movement import MoveContext, check_move
        from gazala_tools.referee.position import Position, Unit

        position = Position(game=self.rules.game.id, units=tuple(self.units.values()))
        mc = MoveContext(self.rules, self.data, Context(self.rules, position), 1, 1, self.phase, self.allowance)
        before = self.units[uid]
        after = Unit(before.id, before.side, before.type, before.formation, self.rules.map.hex(to) if to else None,
                     box=box, markers=before.markers)
        path, found = check_move(before, after, mc)
        self.paths.append([self.rules.map.label(h) for h in path] if path else None)
        self.units[uid] = after
        return list(found)

    def spent(self, uid: str) -> float:
        return float(self.phase[uid].spent)
