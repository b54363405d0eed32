"""VASSAL saves as an edge reads them: :func:`read_save` with a module **path**, whose layouts (map,
boards, zones: lxml, :mod:`gazala_tools.vassal.buildfile`) name every piece's location.

The save format itself (container, commands, traits, pieces, the typed view, the writer) is
:mod:`gazala_tools.vsav`, in the core, so that the referee reads saves without importing an edge
(issue 22 item 3); its names are re-exported here for code written before the move.
"""

from __future__ import annotations

from pathlib import Path

from gazala_tools.vassal.buildfile import read_layouts
from gazala_tools.vsav import (
    Layer,
    Piece,
    PieceView,
    Position,
    Save,
    SaveView,
    Stack,
    TurnView,
    commands,
    container,
    locate_pieces,
    map_identifiers,
    pieces,
    sequence,
    traits,
    view,
    writer,
)
from gazala_tools.vsav import read_save as read_save_core

__all__ = [
    "Layer", "Piece", "PieceView", "Position", "Save", "SaveView", "Stack", "TurnView", "commands", "container",
    "locate_pieces", "map_identifiers", "pieces", "read_save", "sequence", "traits", "view", "writer",
]


def read_save(
    source: str | Path | bytes,
    *,
    module: str | Path | None = None,
    name: str | None = None,
    replay_log: bool = True,
) -> Save:
    """Read, decode and execute a save or log; with ``module`` (a .vmod or buildFile), give every piece
    its location (``gazala_tools.vsav.read_save`` with the module's layouts)."""
    layouts = read_layouts(module) if module is not None else None
    return read_save_core(source, layouts=layouts, name=name, replay_log=replay_log)
