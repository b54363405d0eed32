"""Against the real VASSAL engine (marker ``vassal``): our piece lists equal the engine's.

* the corpus save (3.7.9), read by the engine and by us;
* saves the engine (VASSAL 3.7.26) writes from placements (3.7 style: every stacked piece with its map and ``UniqueID``);
* a save we write loads in the engine with exactly our pieces.

The Ragnarok module ships without images; the engine then gives its boards 0x0 bounds and every
location is ``offboard``, while our grid code still names hexes (a deliberate choice: names need only
the grid). Locations are therefore compared wherever the engine's board has a size.
"""

from __future__ import annotations

import zipfile
from pathlib import Path
from typing import Any

import pytest

from gazala_tools.vassal.buildfile import read_layouts
from gazala_tools.vsav import read_save
from gazala_tools.vsav.writer import PiecePlacement, new_save_tree
from tools.saves import module_pieces, write_new_save

pytestmark = pytest.mark.vassal


def _engine_rows(result: dict[str, Any]) -> dict[str, tuple[Any, ...]]:
    return {p["id"]: (p["map"], p["x"], p["y"], p["name"], p["stack"]) for p in result["pieces"]}


def _our_rows(path: Path, module: Path) -> tuple[dict[str, tuple[Any, ...]], dict[str, str | None]]:
    save = read_save(path, layouts=read_layouts(module))
    rows = {p.id: (p.map, p.x, p.y, p.name, p.stack) for p in save.position.pieces.values()}
    return rows, {p.id: p.location for p in save.position.pieces.values()}


def _sized_boards(result: dict[str, Any]) -> set[str]:
    return {m["id"] for m in result["maps"] if all(b["bounds"][2] > 0 for b in m["boards"])}


def test_corpus_save_equals_the_engine(vassal_engine: Any, ragnarok_save: Path, ragnarok_buildfile: Path, tmp_path: Path) -> None:
    vmod = tmp_path / "ragnarok.vmod"
    with zipfile.ZipFile(vmod, "w") as zf:
        zf.write(ragnarok_buildfile, "buildFile.xml")
        zf.write(ragnarok_buildfile.parent / "moduledata", "moduledata")
    result = vassal_engine.read_save(vmod, ragnarok_save)
    ours, locations = _our_rows(ragnarok_save, vmod)
    assert ours == _engine_rows(result)
    sized = _sized_boards(result)
    checked = [p for p in result["pieces"] if p["map"] in sized]
    assert checked, "some pieces lie on boards of known size"
    assert {p["id"]: locations[p["id"]] for p in checked} == {p["id"]: p["location"] for p in checked}


PLACEMENTS = [
    {"slot": "143", "map": "Main Map", "x": 200, "y": 300, "snap": True, "id": "7000001"},
    {"slot": "144", "map": "Main Map", "x": 200, "y": 300, "snap": True, "id": "7000002"},
    {"slot": "150", "map": "Main Map", "x": 205, "y": 298, "snap": True, "id": "7000003"},
    {"slot": "151", "map": "Main Map", "x": 520, "y": 411, "snap": True, "id": "7000004"},
    {"slot": "155", "map": "Main Map", "x": 700, "y": 100, "snap": False, "id": "7000005"},
    {"slot": "146", "map": "TurnTrack", "x": 60, "y": 60, "snap": True, "id": "7000006"},
    {"slot": "169", "map": "DeadPile", "x": 50, "y": 50, "snap": False, "id": "7000007"},
]


def _our_placements(vmod: Path) -> list[PiecePlacement]:
    """PLACEMENTS as our writer's input: the module's palette pieces at the raw (unsnapped) points."""
    slots = {s.gpid: s for s in module_pieces(vmod)}
    return [PiecePlacement(slots[p["slot"]].type, slots[p["slot"]].state, p["map"], p["x"], p["y"], id=p["id"]) for p in PLACEMENTS]


def test_saves_the_engine_writes_equal_the_engine_reading(vassal_engine: Any, template_vmod: Path, tmp_path: Path) -> None:
    out = tmp_path / "engine.vsav"
    vassal_engine.write_save(template_vmod, out, PLACEMENTS)
    result = vassal_engine.read_save(template_vmod, out)
    ours, locations = _our_rows(out, template_vmod)
    assert ours == _engine_rows(result)
    assert locations == {p["id"]: p["location"] for p in result["pieces"]}
    assert {"7000001", "7000002", "7000003"} <= set(ours)


def test_a_save_we_write_loads_with_exactly_our_pieces(vassal_engine: Any, template_vmod: Path, tmp_path: Path) -> None:
    tree = new_save_tree(_our_placements(template_vmod), setup_stack=True, first_id=7100000)
    out = tmp_path / "ours.vsav"
    write_new_save(out, tree, module_name="Hex-n-Counters Template", vassal_version="3.6.0")
    result = vassal_engine.read_save(template_vmod, out)
    ours, locations = _our_rows(out, template_vmod)
    assert _engine_rows(result) == ours
    assert locations == {p["id"]: p["location"] for p in result["pieces"]}
    assert set(ours) == {p["id"] for p in PLACEMENTS}


def test_4_8_a_vlog_loads_at_its_start_position_equal_to_ours_without_replay(
    vassal_engine: Any, template_vmod: Path, tmp_path: Path
) -> None:
    from gazala_tools.vsav.commands import Log, MoveFields, MovePiece

    tree = new_save_tree(_our_placements(template_vmod), setup_stack=True, first_id=7100000)
    tree.items.append(Log(MovePiece(MoveFields("7000001", "Main Map", 400, 400, None, "Main Map", 200, 300, "7100000", "u"))))
    out = tmp_path / "ours.vlog"
    write_new_save(out, tree, module_name="Hex-n-Counters Template", vassal_version="3.6.0")
    result = vassal_engine.read_save(template_vmod, out)  # the engine queues LOG steps for the Step button
    start = read_save(out, layouts=read_layouts(template_vmod), replay_log=False)
    assert {p.id: (p.map, p.x, p.y, p.name, p.stack) for p in start.position.pieces.values()} == _engine_rows(result)
    end = read_save(out, layouts=read_layouts(template_vmod)).position.pieces["7000001"]
    assert (end.x, end.y, end.location, end.stack) == (400, 400, "0505", None)
