"""A save written by the real VASSAL engine for our module gives the same report as the equivalent
position YAML (the engine as oracle: marker ``vassal``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from gazala_tools.referee.api import check_file
from gazala_tools.vassal.buildfile import read_layouts

#: unit id -> hex: an over-stacked hex, enemies sharing a hex, an Axis unit cut off by a ring
POSITION = {
    "axis-21pz-5-1": "1510",
    "allied-3ind-2-lcr": "1509", "allied-3ind-11-cav": "1511", "allied-3ind-18-cav": "1410",
    "allied-22arm-2-rgh": "1610", "allied-22arm-3-cly": "1411", "allied-22arm-4-cly": "1611",
    "axis-21pz-5-2": "2010", "axis-15pz-8-1": "2010", "axis-15pz-8-2": "2010",
    "axis-ariete-132-8": "1801", "allied-201gd-2-sg": "1801",
}


@pytest.mark.vassal
def test_engine_save_gives_the_same_report_as_the_yaml(vassal_engine, rg_map, tmp_path: Path) -> None:
    from gazala_tools.counters import load_manifest
    from gazala_tools.hexgrid import HexGridGeometry
    from gazala_tools.numbering import Numbering
    from gazala_tools.vassal.module import build_game_module

    unit_ids = {c.unit_id for c in load_manifest("gazala-rg").units}
    units = {u: h for u, h in POSITION.items() if u in unit_ids}
    assert len(units) == len(POSITION), sorted(set(POSITION) - unit_ids)
    vmod = tmp_path / "gazala-rg.vmod"
    built = build_game_module("gazala-rg", vmod)
    board = built.spec.board
    geometry = HexGridGeometry.from_vassal_attrs(dict(board.grid_attrs), Numbering.from_vassal_attrs(board.numbering_attrs))
    placements = []
    for uid, label in units.items():
        x, y = geometry.hex_center(rg_map.hex(label))
        placements.append({"slot": str(built.built.gpids[uid]), "map": "Main Map", "x": x + board.edge_width,
                           "y": y + board.edge_height})
    save = tmp_path / "engine.vsav"
    vassal_engine.write_save(vmod, save, placements)

    yaml_file = tmp_path / "same.yaml"
    yaml_file.write_text("game: gazala-rg\nturn: May 29\nunits:\n"
                         + "".join(f'  - {{id: {u}, hex: "{h}"}}\n' for u, h in units.items()))
    from_save = check_file(save, module=vmod, read_layouts=read_layouts, turn="May 29")
    from_yaml = check_file(yaml_file)
    assert sorted(from_save.position.units, key=lambda u: u.id) == sorted(from_yaml.position.units, key=lambda u: u.id)
    a, b = from_save.report.to_dict(), from_yaml.report.to_dict()
    a.pop("source"), b.pop("source")
    assert a == b
    assert {f["rule"] for f in a["findings"] if f["severity"] == "error"} == {"10.0"}
    assert a["supply"]["axis-21pz-5-1"] == "out"
    # The Turn Tracker of the engine's new game: VASSAL (3.6 and 3.7.26) leaves a ListTurnLevel at its field
    # default current = 1 (TurnLevel.current) until the tracker is reset. Our list starts with a
    # pre-game "Set-up" entry, so that index is the first turn of the record.
    assert check_file(save, module=vmod, read_layouts=read_layouts).position.turn == "May 27 AM"
