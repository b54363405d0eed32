"""The shared test fixtures plugin (registered by ``pytest_plugins`` in ``tests/conftest.py``).

One way to load a built-in game's map (:func:`builtin_map`, :func:`builtin_map_fixture`; the fixtures
``rg_map``, ``bg_map``), one way to make a blank test map (:func:`blank_map` and :func:`blank_ground`, which each game's
helper module calls with its own grid, ``tests/rules/rg/refhelp.py``, ``dg/dghelp.py``, ``bg/bghelp.py``,
``spi/spihelp.py``; the fixture
``open_map`` gives the blank map of the game whose tests ask), and each built-in game's rules bound
to a test map (``rg_rules(map)`` is ``rules_for(find_game("gazala-rg"), map)``: the game's plugin and
``rules:`` data on a map that is not the game's own, so a name the map lacks counts as no hexes).
Test modules import the helpers from here (``from tests.support.fixtures import rg_rules``); they
never edit ``sys.path``.
"""

from __future__ import annotations

import importlib
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml

from gazala_tools.games import find_game
from gazala_tools.mapdata import load_map, load_map_text
from gazala_tools.mapdata.model import GameMap
from gazala_tools.referee.engine import RulesPlugin
from gazala_tools.rules import rules_for

TESTS = Path(__file__).resolve().parents[1]

#: the engine-written logs of the log referee's tests (``tests/referee/logmoves.py``), stored for runs without Java
LOG_DIR = TESTS / "fixtures" / "logs"


# --- each built-in game's rules on a test map ------------------------------------------------------


def rg_rules(game_map: GameMap) -> RulesPlugin:
    return rules_for(find_game("gazala-rg"), game_map)


def dg_rules(game_map: GameMap) -> RulesPlugin:
    return rules_for(find_game("cauldron-dg"), game_map)


def spi_rules(game_map: GameMap) -> RulesPlugin:
    return rules_for(find_game("cauldron-spi"), game_map)


def bg_rules(game_map: GameMap) -> RulesPlugin:
    return rules_for(find_game("batalha"), game_map)


# --- maps: a built-in game's, or a blank test map ----------------------------------------------------


@cache
def builtin_map(game_id: str) -> GameMap:
    """A built-in game's own map, loaded once per test session."""
    return load_map(game_id)


def with_defaults(text: str, defaults: str) -> str:
    """Map YAML ``text`` with the named entries of ``defaults`` it lacks (list sections merged by name)."""
    data = yaml.safe_load(text)
    for section, entries in yaml.safe_load(defaults).items():
        have = {e.get("name") for e in data.get(section) or []}
        data[section] = [*(data.get(section) or []), *(e for e in entries if e["name"] not in have)]
    return yaml.safe_dump(data, sort_keys=False)


def blank_ground(ground: str) -> str:
    """The end of every blank test map's YAML: the series' hexside kinds, and ``ground`` everywhere
    but the (impassable) sea."""
    return (
        "hexside-kinds:\n  minefield: {owned: true}\n  escarpment: {directed: true}\n  fortified: {}\n"
        f"  anti-tank-ditch: {{}}\nterrain:\n  default: {ground}\n  types:\n    {ground}: {{}}\n"
        "    sea: {impassable: true}\n"
    )


def blank_map(base: str, fragment: str = "", *, defaults: str = "", name: str) -> GameMap:
    """A test map: a game's ``base`` YAML plus the test's ``fragment``, completed with the named
    entries of ``defaults`` the two lack (the entries the game's rules data names), read as ``name``."""
    text = base + fragment
    return load_map_text(with_defaults(text, defaults) if defaults else text, name)


#: the helper module whose ``make_map()`` is the blank map of the tests in a folder (under tests/)
BLANK_MAPS = {
    "rules/rg": "tests.rules.rg.refhelp",
    "referee": "tests.rules.rg.refhelp",
    "rules/dg": "tests.rules.dg.dghelp",
    "rules/bg": "tests.rules.bg.bghelp",
    "rules/spi": "tests.rules.spi.spihelp",
}


@cache
def _open_map(helper: str) -> GameMap:
    made: GameMap = importlib.import_module(helper).make_map()
    return made


@pytest.fixture
def open_map(request: pytest.FixtureRequest) -> GameMap:
    """The blank map of the game whose tests ask (``BLANK_MAPS`` by folder), made once per session:
    RG 29 x 22 clear (tests/referee, tests/rules/rg), DG 29 x 34 desert, BG 25 x 16 open with its
    places and two west-edge road hexes, SPI 29 x 34 desert with no roads (no Axis supply at all)."""
    folder = Path(request.path).resolve().parent.relative_to(TESTS).as_posix()
    helper = BLANK_MAPS.get(folder)
    if helper is None:
        raise LookupError(f"open_map: no blank map for tests in tests/{folder} (add it to BLANK_MAPS)")
    return _open_map(helper)


@pytest.fixture(scope="session")
def road_map() -> GameMap:
    """The SPI open map with one road down column 10 from the west edge (1034) to 1020."""
    from tests.rules.spi.spihelp import ROAD, make_map

    return make_map(ROAD)


def builtin_map_fixture(game_id: str, name: str) -> Any:
    """A session fixture ``name`` giving the built-in game ``game_id``'s map (:func:`builtin_map`)."""

    def fixture() -> GameMap:
        return builtin_map(game_id)

    fixture.__doc__ = f"The map of the built-in game {game_id}, loaded once."
    return pytest.fixture(scope="session", name=name)(fixture)


rg_map = builtin_map_fixture("gazala-rg", "rg_map")
bg_map = builtin_map_fixture("batalha", "bg_map")


@pytest.fixture(scope="session")
def log_dir() -> Path:
    """Logs VASSAL 3.7.26 wrote through the shared harness (``logmoves.LOGS``), stored for runs without Java."""
    return LOG_DIR
