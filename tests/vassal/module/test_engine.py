"""The real VASSAL engine loads every game's module cleanly (vassal-engine-oracle.md).

Marker ``vassal``: skipped, naming what to install, when Java, Xvfb or the engine jar are missing.
The engine is VASSAL 3.7.26 (its NetBeans wizard is part of VASSAL), so ``PredefinedSetup`` builds and
the set-ups are part of what must load cleanly. Our modules' VassalVersion (3.6.0) is older than the
engine: they load with no dialog at all.
"""

from __future__ import annotations

import tempfile
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from gazala_tools.cli import main
from gazala_tools.games import find_game
from gazala_tools.games.scenarios import load_scenarios
from gazala_tools.hexgrid import HexGridGeometry
from gazala_tools.mapdata import load_map
from gazala_tools.numbering import Numbering
from gazala_tools.vassal.buildfile import read_layouts
from gazala_tools.vassal.gamelayout import MAIN_MAP
from gazala_tools.vsav import read_save
from tests.vassal.conftest import GAMES
from tools.vassal_oracle.engine import is_routine

pytestmark = pytest.mark.vassal

GameModule = Callable[[str], tuple[Path, Any]]

def _unexpected(dialogs: list[dict[str, str]]) -> list[dict[str, str]]:
    """Dialogs other than VASSAL's own prompts when a game starts (choose side, start a new log?) or is
    saved (save comments): user preferences, not module faults."""
    return [d for d in dialogs if not is_routine(d)]


def _open_setup(vassal_engine: Any, vmod: Path, member: str) -> dict[str, Any]:
    """The engine opens the module's set-up save ``member``; no dialog but the engine's own prompts."""
    with tempfile.TemporaryDirectory() as tmp:
        save = Path(tmp) / "setup.vsav"
        with zipfile.ZipFile(vmod) as zf:
            save.write_bytes(zf.read(member))
        result: dict[str, Any] = vassal_engine.read_save(vmod, save)
    assert _unexpected(result["dialogs"]) == []
    return result


@pytest.fixture(scope="module")
def engine_setup(vassal_engine: Any) -> Callable[[Path, str], dict[str, Any]]:
    """:func:`_open_setup` once per module and set-up (the tests below ask for the same set-ups)."""
    cache: dict[tuple[Path, str], dict[str, Any]] = {}

    def get(vmod: Path, member: str) -> dict[str, Any]:
        if (vmod, member) not in cache:
            cache[vmod, member] = _open_setup(vassal_engine, vmod, member)
        return cache[vmod, member]

    return get


def _hex_points(game: str, game_module: GameModule) -> list[tuple[str, int, int]]:
    """The centre of every hex of ``game``'s map, in main-map coordinates."""
    board = game_module(game)[1].spec.board
    geometry = HexGridGeometry.from_vassal_attrs(dict(board.grid_attrs), Numbering.from_vassal_attrs(board.numbering_attrs))
    points = []
    for h in load_map(game).hexes():
        x, y = geometry.hex_center(h)
        points.append((MAIN_MAP, x + board.edge_width, y + board.edge_height))
    return points


def _track_points(game: str, game_module: GameModule) -> list[tuple[str, int, int]]:
    """The centre of each VP track box, then a point a quarter of a box off each centre."""
    track = game_module(game)[1].spec.track
    points = [(track.map_name, *track.centre(i)) for i in range(len(track.boxes))]
    return points + [(m, x + track.box // 4, y - track.box // 4) for m, x, y in points]


@pytest.fixture(scope="module")
def engine_located(vassal_engine: Any, game_module: GameModule) -> Callable[[str, str], list[Any]]:
    """What the engine says of the hex centres (``"hexes"``) and the VP track's points (``"track"``) of a
    game: one ``locate`` call per game for both."""
    cache: dict[str, dict[str, list[Any]]] = {}

    def get(game: str, which: str) -> list[Any]:
        if game not in cache:
            hexes, track = _hex_points(game, game_module), _track_points(game, game_module)
            located = vassal_engine.locate(game_module(game)[0], hexes + track)
            cache[game] = {"hexes": located[: len(hexes)], "track": located[len(hexes) :]}
        return cache[game][which]

    return get


@pytest.fixture(scope="module")
def engine_module(vassal_engine: Any, game_module: GameModule) -> Callable[[str], dict[str, Any]]:
    cache: dict[str, dict[str, Any]] = {}

    def get(game: str) -> dict[str, Any]:
        if game not in cache:
            cache[game] = vassal_engine.module(game_module(game)[0])
        return cache[game]

    return get


@pytest.mark.parametrize("game", GAMES)
def test_module_loads_with_no_errors_dialogs_or_dropped_components(engine_module: Callable[[str], dict[str, Any]], game: str) -> None:
    result = engine_module(game)
    assert result["dialogs"] == []
    assert [line for line in result["log"] if "ERROR" in line or "WARN" in line] == []
    rt = result["roundtrip"]
    assert rt["dropped_elements"] == []
    assert rt["dropped_attributes"] == []
    assert rt["changed_text"] == []  # 3.7.26 re-encodes every piece definition exactly as we wrote it
    assert all(p["valid"] for p in result["prototypes"])


@pytest.mark.parametrize("game", GAMES)
def test_every_palette_slot_is_present_and_builds(engine_module: Callable[[str], dict[str, Any]], game_module: GameModule,
                                                   game: str) -> None:
    result = engine_module(game)
    built = game_module(game)[1]
    ours = {str(built.built.gpids[p.id]): p.name for p in built.spec.pieces}
    theirs = {s["gpid"]: s["name"] for s in result["piece_slots"] if s["valid"]}
    assert theirs == ours
    assert len(result["piece_slots"]) == len(built.spec.pieces)


@pytest.mark.parametrize("game", GAMES)
def test_engine_names_every_hex_centre_by_our_label(engine_located: Callable[[str, str], list[Any]], game: str) -> None:
    game_map = load_map(game)
    hexes = game_map.hexes()
    located = engine_located(game, "hexes")
    wrong = [(game_map.label(h), loc.location) for h, loc in zip(hexes, located, strict=True) if loc.location != game_map.label(h)]
    assert wrong == []
    assert len(located) == len(game_map.grid)


@pytest.mark.parametrize("game", GAMES)
def test_17_0_setup_places_each_unit_in_its_rule_given_hex(
    engine_setup: Callable[[Path, str], dict[str, Any]], game_module: GameModule, game: str
) -> None:
    path, built = game_module(game)
    (scenario, *_) = built.spec.scenarios
    result = engine_setup(path, scenario.file)
    assert result["game_started"]
    where = {p["id"]: p["location"] for p in result["pieces"] if p["map"] == MAIN_MAP}
    assert where == dict(scenario.placements)
    assert len(where) > 0
    # opening the set-up fills every chit cup (no SETUP_STACK in the save: VASSAL deals them fresh)
    decks = {s["id"]: len(s["pieces"]) for s in result["stacks"] if s["class"].endswith(".Deck")}
    assert sorted(decks.values()) == sorted(len(d.pieces) for d in built.spec.decks)


@pytest.mark.parametrize("game", GAMES)
def test_our_reader_names_every_piece_of_an_engine_save_by_our_id(vassal_engine: Any, game_module: GameModule,
                                                                  game: str, tmp_path: Path) -> None:
    path, built = game_module(game)
    spec = built.spec
    board = spec.board
    geometry = HexGridGeometry.from_vassal_attrs(dict(board.grid_attrs), Numbering.from_vassal_attrs(board.numbering_attrs))
    hexes = load_map(game).hexes()
    in_decks = {pid for d in spec.decks for pid in d.pieces}
    palette = [p for p in spec.pieces if p.id not in in_decks]
    placements = []
    for p, h in zip(palette, hexes[:: max(1, len(hexes) // max(1, len(palette)))], strict=False):
        x, y = geometry.hex_center(h)
        placements.append({"slot": str(built.built.gpids[p.id]), "map": MAIN_MAP, "x": x + board.edge_width,
                           "y": y + board.edge_height})
    out = tmp_path / "engine.vsav"
    written = vassal_engine.write_save(path, out, placements)
    assert _unexpected(written["dialogs"]) == []
    engine_pieces = {p["id"]: p for p in vassal_engine.read_save(path, out)["pieces"]}
    save = read_save(out, layouts=read_layouts(path))
    ours = save.position.pieces
    assert set(ours) == set(engine_pieces)
    named = {p.properties.get("UnitId") for p in ours.values()}
    # the oracle's new game does not run the at-start stacks (decks); the set-up test covers the cups
    assert {p.id for p in palette[: len(placements)]} <= named <= {p.id for p in spec.pieces}
    for pid, piece in ours.items():
        e = engine_pieces[pid]
        assert piece.properties["UnitId"], pid
        assert (piece.map, piece.x, piece.y) == (e["map"], e["x"], e["y"])
        if piece.map == MAIN_MAP:
            assert piece.location == e["location"]


@pytest.mark.parametrize("game", GAMES)
def test_engine_builds_every_chart_page(engine_module: Callable[[str], dict[str, Any]], game_module: GameModule, game: str) -> None:
    """Every chart (rules tables and orders of battle) is a Chart of the one ChartWindow; the load test
    above shows no build error and no dropped attribute or element."""
    counts = engine_module(game)["component_counts"]
    spec = game_module(game)[1].spec
    assert counts.get("VASSAL.build.module.ChartWindow") == 1
    assert counts.get("VASSAL.build.widget.Chart") == len(spec.charts) >= 3


@pytest.mark.parametrize("game", GAMES)
def test_engine_names_each_vp_track_box_and_snaps_a_marker_to_its_centre(
    engine_located: Callable[[str, str], list[Any]], game_module: GameModule, game: str
) -> None:
    track = game_module(game)[1].spec.track
    points = _track_points(game, game_module)[: len(track.boxes)]  # the centres
    located = engine_located(game, "track")
    assert [loc.location for loc in located] == [*track.boxes, *track.boxes]
    assert [loc.snap for loc in located[len(points):]] == [(x, y) for _m, x, y in points]
    assert {loc.board for loc in located} == {track.map_name}


@pytest.mark.parametrize("game", GAMES)
def test_vp_markers_are_in_the_palette_with_their_track_properties(engine_module: Callable[[str], dict[str, Any]],
                                                                   game_module: GameModule, game: str) -> None:
    built = game_module(game)[1]
    markers = [p for p in built.spec.pieces if p.properties.get("Track")]
    slots = {s["gpid"]: s for s in engine_module(game)["piece_slots"]}
    assert len(markers) == 4
    for p in markers:
        slot = slots[str(built.built.gpids[p.id])]
        assert slot["valid"] and slot["piece_name"] == p.name
        for prop in ("UnitId", "Track", "TrackScale", "MarkerType"):
            assert prop in slot["type"], (p.id, prop)
        assert p.id in slot["state"] and built.spec.track.map_name in slot["state"]  # the Marker values


def test_11_1_bg_setup_places_each_unit_in_a_hex_of_its_named_place(
    engine_setup: Callable[[Path, str], dict[str, Any]], game_module: GameModule
) -> None:
    (bg,) = load_scenarios(find_game("batalha"))
    setup = [(p.units[0], p.place, p.source) for p in bg.setup]
    path, built = game_module("batalha")
    (scenario,) = built.spec.scenarios
    result = engine_setup(path, scenario.file)
    assert result["game_started"]
    where = {p["id"]: p["location"] for p in result["pieces"] if p["map"] == MAIN_MAP}
    game_map = load_map("batalha")
    for uid, place, source in setup:
        assert where[uid] in {game_map.label(h) for h in game_map.place(place).hexes}, source
    assert len(where) == len(setup) == 7


@pytest.mark.parametrize("game", GAMES)
def test_each_setup_starts_the_vp_markers_in_their_track_boxes(
    engine_setup: Callable[[Path, str], dict[str, Any]], game_module: GameModule, game: str
) -> None:
    """RG 17.0: "The Axis player starts with 2VP marked on the VP track" (Scenario One); else 0."""
    path, built = game_module(game)
    track = built.spec.track
    for scenario in built.spec.scenarios:
        result = engine_setup(path, scenario.file)
        on_track = {p["id"]: p["location"] for p in result["pieces"] if p["map"] == track.map_name}
        assert on_track == {pid: track.boxes[box] for pid, box in scenario.track}
        assert len(on_track) == 2
        if scenario.name.startswith("Scenario One"):
            assert on_track["axis-vp"] == "VP 2"


SCENARIOS = [(g, sc.id) for g in GAMES for sc in load_scenarios(find_game(g))]


@pytest.mark.parametrize(("game", "scenario_id"), SCENARIOS)
def test_game_scenario_save_opens_with_every_unit_on_its_hex(
    vassal_engine: Any, game_module: GameModule, game: str, scenario_id: str, tmp_path: Path
) -> None:
    """Issue 23 item 4: ``gazala game scenario GAME ID -o FILE.vsav`` writes a save that VASSAL 3.7.26
    opens, every unit on the hex the scenario gives it."""
    save = tmp_path / f"{scenario_id}.vsav"
    assert main(["game", "scenario", game, scenario_id, "-o", str(save)]) == 0
    path, built = game_module(game)
    chosen = next(sc for sc in load_scenarios(find_game(game)) if sc.id == scenario_id)
    spec = next(sc for sc in built.spec.scenarios if sc.name == chosen.name)
    result = vassal_engine.read_save(path, save)
    assert _unexpected(result["dialogs"]) == [] and result["game_started"]
    on_map = {p["id"]: p["location"] for p in result["pieces"] if p["map"] == MAIN_MAP}
    assert on_map == dict(spec.placements) and on_map
