"""Predefined set-ups: one save per scenario, written by our save writer, stored in the module.

Each unit is a copy of its palette piece (prototypes expanded as ``PieceCloner`` does), placed at the
VASSAL centre of its hex (§5.5: the point whose location name is the hex label), with the unit id as
its piece id. The saves carry no ``SETUP_STACK`` and no deck pieces, so VASSAL fills the chit cups
fresh when a set-up is opened (§4.4).
"""

from __future__ import annotations

import tempfile
from collections.abc import Mapping
from pathlib import Path

from gazala_tools.errors import GazalaError
from gazala_tools.numbering import Numbering
from gazala_tools.vassal.gamelayout import MAIN_MAP
from gazala_tools.vassal.grid import HexGridGeometry
from gazala_tools.vassal.module.build import Built
from gazala_tools.vassal.module.spec import ModuleSpec, ScenarioSpec, turn_state
from gazala_tools.vassal.saves.commands import Turn
from gazala_tools.vassal.saves.traits import decode_piece, join_chain
from gazala_tools.vassal.saves.writer import (
    Placement,
    SaveEditor,
    SlotPiece,
    module_pieces,
    new_save_tree,
    write_new_save,
)


def board_geometry(spec: ModuleSpec) -> HexGridGeometry:
    numbering = Numbering.from_vassal_attrs(spec.board.numbering_attrs)
    return HexGridGeometry.from_vassal_attrs(dict(spec.board.grid_attrs), numbering)


def hex_point(spec: ModuleSpec, geometry: HexGridGeometry, label: str) -> tuple[int, int]:
    """Map coordinates of the centre VASSAL gives hex ``label`` on the main board."""
    x, y = geometry.center_of_name(label, spec.board.width, spec.board.height)
    return x + spec.board.edge_width, y + spec.board.edge_height


def _used(piece: SlotPiece) -> str:
    """The piece's state with its "Used" layer active."""
    d = decode_piece(piece.type, piece.state, place=f"piece {piece.name!r}")
    states = [t.state for t in d.traits]
    for i, t in enumerate(d.traits):
        if t.id == "emb2;" and len(t.fields()) > 18 and t.fields()[18] == "Used":
            states[i] = str(abs(int(t.state or "1")))
            return join_chain(states)
    raise GazalaError(f"piece {piece.name!r} has no Used layer", expected="a unit with a used side")


def placements(spec: ModuleSpec, scenario: ScenarioSpec, slots: Mapping[str, SlotPiece]) -> list[Placement]:
    geometry = board_geometry(spec)
    used = set(scenario.used)
    out: list[Placement] = []
    for piece_id, label in scenario.placements:
        slot = slots.get(piece_id)
        if slot is None:
            raise GazalaError(f"set-up {scenario.name!r} places {piece_id!r}, which has no palette piece")
        x, y = hex_point(spec, geometry, label)
        state = _used(slot) if piece_id in used else slot.state
        out.append(Placement(slot.type, state, MAIN_MAP, x, y, id=piece_id))
    for piece_id, box in scenario.track:
        slot = slots.get(piece_id)
        if slot is None or spec.track is None:
            raise GazalaError(f"set-up {scenario.name!r} puts {piece_id!r} on a track the module lacks")
        x, y = spec.track.centre(box)
        out.append(Placement(slot.type, slot.state, spec.track.map_name, x, y, id=piece_id))
    return out


def setup_saves(spec: ModuleSpec, built: Built) -> dict[str, bytes]:
    """``{path in the module: .vsav bytes}`` for every scenario of ``spec``."""
    if not spec.scenarios:
        return {}
    by_gpid = {str(g): pid for pid, g in built.gpids.items()}
    out: dict[str, bytes] = {}
    with tempfile.TemporaryDirectory(prefix="gazala-setup-") as tmp:
        (Path(tmp) / "buildFile.xml").write_bytes(built.xml)
        slots = {by_gpid[s.gpid]: s for s in module_pieces(tmp) if s.gpid in by_gpid}
        for scenario in spec.scenarios:
            tree = new_save_tree(placements(spec, scenario, slots))
            # open on the scenario's first turn, whatever index the engine starts at
            state = turn_state(spec.turns, scenario.turn)
            SaveEditor(tree, file=scenario.file).insert([Turn(f"TURNTurnTracker0\t{state}")])
            data = write_new_save(
                Path(tmp) / "setup.vsav",
                tree,
                module_name=spec.name,
                module_version=spec.version,
                vassal_version=spec.vassal_version,
                description=f"{scenario.name} ({scenario.source})",
            )
            out[scenario.file] = data
    return out
