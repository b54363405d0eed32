"""Predefined set-ups: one save per scenario, made in memory by our save writer, stored in the module.

Each unit is a copy of its palette piece (prototypes expanded as ``PieceCloner`` does, from the
pieces' trait chains in memory: nothing is written out and parsed back), placed at the VASSAL centre
of its hex (§5.5: the point whose location name is the hex label), with the unit id as its piece
id; track markers at the centre of their box, and units a scenario puts in a holding box at that
box's centre. The saves carry no ``SETUP_STACK`` and no deck pieces, so VASSAL fills the chit cups
fresh when a set-up is opened (§4.4). A save's bytes depend only on its content: fixed obfuscation
key, fixed ``dateSaved`` and zip timestamps (:mod:`.package`).
"""

from __future__ import annotations

from collections.abc import Mapping

from gazala_tools.errors import GazalaError
from gazala_tools.hexgrid import HexGridGeometry
from gazala_tools.numbering import Numbering
from gazala_tools.vassal.gamelayout import MAIN_MAP
from gazala_tools.vassal.module import traits as t
from gazala_tools.vassal.module.build import Built
from gazala_tools.vassal.module.package import BUILD_DATE_MS, zip_bytes
from gazala_tools.vassal.module.pieces import expanded_traits, prototypes
from gazala_tools.vassal.module.spec import ModuleSpec, ScenarioSpec, turn_state
from gazala_tools.vsav.commands import Turn, to_text
from gazala_tools.vsav.container import MODULEDATA_ENTRY, SAVEDATA_ENTRY, SAVEFILE_ENTRY
from gazala_tools.vsav.traits import decode_piece, join_chain
from gazala_tools.vsav.writer import (
    PiecePlacement,
    SaveEditor,
    SlotPiece,
    encode_savefile,
    metadata_xml,
    new_save_tree,
)

__all__ = [
    "SAVE_KEY",
    "board_geometry",
    "hex_point",
    "placements",
    "save_bytes",
    "setup_saves",
    "slot_pieces",
]

#: the ``!VCSK`` obfuscation key of our set-up saves (any key reads the same; a fixed one keeps
#: the bytes reproducible)
SAVE_KEY = 0x47


def board_geometry(spec: ModuleSpec) -> HexGridGeometry:
    numbering = Numbering.from_vassal_attrs(spec.board.numbering_attrs)
    return HexGridGeometry.from_vassal_attrs(dict(spec.board.grid_attrs), numbering)


def hex_point(spec: ModuleSpec, geometry: HexGridGeometry, label: str) -> tuple[int, int]:
    """Map coordinates of the centre VASSAL gives hex ``label`` on the main board."""
    x, y = geometry.center_of_name(label, spec.board.width, spec.board.height)
    return x + spec.board.edge_width, y + spec.board.edge_height


def slot_pieces(spec: ModuleSpec, built: Built) -> dict[str, SlotPiece]:
    """Every palette piece as VASSAL clones it onto a map (prototypes expanded), by piece id."""
    facing_keys = sorted({p.facing.key for p in spec.pieces if p.facing is not None})
    protos = prototypes(spec.status, facing_keys)
    out: dict[str, SlotPiece] = {}
    for p in spec.pieces:
        gpid = built.gpids[p.id]
        full_type, full_state = t.chain(expanded_traits(p, gpid, protos))
        out[p.id] = SlotPiece(p.name, str(gpid), full_type, full_state)
    return out


def _used(piece: SlotPiece) -> str:
    """The piece's state with its "Used" layer active."""
    d = decode_piece(piece.type, piece.state, place=f"piece {piece.name!r}")
    states = [tr.state for tr in d.traits]
    for i, tr in enumerate(d.traits):
        if tr.id == "emb2;" and len(tr.fields()) > 18 and tr.fields()[18] == "Used":
            states[i] = str(abs(int(tr.state or "1")))
            return join_chain(states)
    raise GazalaError(f"piece {piece.name!r} has no Used layer", expected="a unit with a used side")


def placements(spec: ModuleSpec, scenario: ScenarioSpec, slots: Mapping[str, SlotPiece]) -> list[PiecePlacement]:
    geometry = board_geometry(spec)
    used = set(scenario.used)
    out: list[PiecePlacement] = []
    for piece_id, label in scenario.placements:
        slot = slots.get(piece_id)
        if slot is None:
            raise GazalaError(f"set-up {scenario.name!r} places {piece_id!r}, which has no palette piece")
        x, y = hex_point(spec, geometry, label)
        state = _used(slot) if piece_id in used else slot.state
        out.append(PiecePlacement(slot.type, state, MAIN_MAP, x, y, id=piece_id))
    for piece_id, box in scenario.track:
        slot = slots.get(piece_id)
        if slot is None or spec.track is None:
            raise GazalaError(f"set-up {scenario.name!r} puts {piece_id!r} on a track the module lacks")
        x, y = spec.track.centre(box)
        out.append(PiecePlacement(slot.type, slot.state, spec.track.map_name, x, y, id=piece_id))
    for piece_id, name in scenario.boxes:
        slot = slots.get(piece_id)
        holding = spec.holding
        if slot is None or holding is None or name not in holding.boxes:
            raise GazalaError(f"set-up {scenario.name!r} puts {piece_id!r} in box {name!r}, which the module lacks")
        x, y = holding.centre(holding.boxes.index(name))
        state = _used(slot) if piece_id in used else slot.state
        out.append(PiecePlacement(slot.type, state, holding.map_name, x, y, id=piece_id))
    return out


def save_bytes(spec: ModuleSpec, scenario: ScenarioSpec, slots: Mapping[str, SlotPiece]) -> bytes:
    """The ``.vsav`` of ``scenario``: its pieces, then the turn it opens on."""
    tree = new_save_tree(placements(spec, scenario, slots), first_id=BUILD_DATE_MS)  # stack ids: fixed, not the clock
    # open on the scenario's first turn, whatever index the engine starts at
    SaveEditor(tree, file=scenario.file).insert([Turn(f"TURNTurnTracker0\t{turn_state(spec.turns, scenario.turn)}")])
    common = {"version": spec.version, "VassalVersion": spec.vassal_version, "dateSaved": str(BUILD_DATE_MS)}
    return zip_bytes([
        (SAVEFILE_ENTRY, encode_savefile(to_text(tree), key=SAVE_KEY)),
        (SAVEDATA_ENTRY, metadata_xml({**common, "description": f"{scenario.name} ({scenario.source})"}, with_name=False)),
        (MODULEDATA_ENTRY, metadata_xml({**common, "name": spec.name}, with_name=True)),
    ], stored=())


def setup_saves(spec: ModuleSpec, built: Built) -> dict[str, bytes]:
    """``{path in the module: .vsav bytes}`` for every scenario of ``spec``."""
    if not spec.scenarios:
        return {}
    slots = slot_pieces(spec, built)
    return {scenario.file: save_bytes(spec, scenario, slots) for scenario in spec.scenarios}
