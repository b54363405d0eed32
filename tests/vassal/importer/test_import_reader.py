"""Reading a module for ``game import`` (issue 25 item 1; docs/module.md "Importing a module"): every
piece slot with its prototypes resolved, its art and side, and every set-up placement where VASSAL puts it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from gazala_tools.vassal.importer import read_module
from gazala_tools.vsav.traits import decode_piece


@pytest.mark.parametrize("game", ["batalha", "gazala-rg"])
def test_our_setups_come_back_at_their_hexes(game: str, game_module: Callable[[str], tuple[Path, Any]]) -> None:
    """Every piece of our built module's set-up saves is read back at the hex its scenario names."""
    path, built = game_module(game)
    gpid_to_id = {str(g): pid for pid, g in built.built.gpids.items()}
    mod = read_module(path)
    for scenario in built.spec.scenarios:
        want = dict(scenario.placements)
        got = {gpid_to_id[p.gpid]: p.location for p in mod.placements if p.setup == scenario.name and p.map == "Main Map"}
        on_hexes = {pid: hx for pid, hx in want.items() if pid in got}
        assert on_hexes and got == {pid: want[pid] for pid in got}


def test_our_pieces_keep_name_side_and_both_faces(game_module: Callable[[str], tuple[Path, Any]]) -> None:
    path, built = game_module("batalha")
    mod = read_module(path)
    assert len(mod.pieces) == len(built.spec.pieces) and mod.not_understood == []
    assert mod.sides == ["Axis", "Allied"]
    unit = next(p for p in mod.pieces if p.name == "8/15 (15 Pz)")
    assert unit.side == "Axis"
    assert unit.front == ("axis-15pz-8-pz-front.png",) and unit.back == ("axis-15pz-8-pz-back.png",)
    assert "prototype;" not in unit.traits and unit.traits[-1] == "piece;"


def test_prototypes_are_resolved_in_place(ragnarok: Path) -> None:
    """vassal-format.md 3.5: each prototype trait is replaced by the prototype's traits, BasicPiece dropped."""
    mod = read_module(ragnarok)
    assert mod.not_understood == [] and len(mod.pieces) == 34
    for p in mod.pieces:
        assert "prototype;" not in p.traits
        written = decode_piece(p.type, p.state)
        assert len(p.traits) >= len(written.traits) - sum(t.id == "prototype;" for t in written.traits)


def test_ragnarok_start_save_placements(ragnarok: Path) -> None:
    """The 99 pieces of Ragnarok's start save, each with a gpid of the module, on its maps and boards
    (location names as VASSAL gives them: tests/oracle/test_conformance.py)."""
    mod = read_module(ragnarok)
    gpids = {p.gpid for p in mod.pieces}
    placed = [p for p in mod.placements if p.setup == "At Start"]
    assert len(placed) == 99
    assert {p.gpid for p in placed} <= gpids
    maps = {p.map for p in placed}
    assert "Main Map" in maps and maps <= {"Main Map", "deployment", "DeadPile"}
    assert all(p.board is not None for p in placed if p.map == "Main Map")
    assert any(p.location == "0101" and p.name == "hero-heimdall" for p in placed)
    assert mod.counts()["traits kept verbatim"] > 0


def test_a_prototype_cycle_is_refused_not_followed() -> None:
    from gazala_tools.errors import VassalFormatError
    from gazala_tools.vassal.importer import expand_prototypes

    a = decode_piece("prototype;B\tpiece;;;;", "\tnull;0;0;;0")
    b = decode_piece("prototype;A\tpiece;;;;", "\tnull;0;0;;0")
    with pytest.raises(VassalFormatError, match="nest more than"):
        expand_prototypes(a, {"A": a, "B": b})
