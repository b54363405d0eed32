"""VASSAL saved games and logs: read every real format, execute to a position, write saves.

Layers (each usable alone): :mod:`.container` (zip, obfuscation) -> :mod:`.sequence`
(SequenceEncoder port) -> :mod:`.commands` (command tree) -> :mod:`.traits` (piece trait chains) ->
:mod:`.pieces` (the final position) ; :mod:`.writer` writes; :mod:`.diff` compares positions.

Typical use::

    save = read_save("game.vsav", layouts=read_layouts("game.vmod"))  # read_layouts: gazala_tools.vassal.buildfile
    for piece in save.position.on_map():
        print(piece.id, piece.name, piece.map, piece.location)
    view = save.view()          # typed: pieces with properties, layers, rotation; the turn
    view.turn.label(game.turns) if view.turn else None
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gazala_tools.errors import VassalFormatError
from gazala_tools.hexgrid import MapLayout, layout_with_boards
from gazala_tools.vsav.commands import Node, count_kinds, parse, to_text
from gazala_tools.vsav.container import SaveContainer, read_container
from gazala_tools.vsav.pieces import Piece, SavedPosition, Stack, execute
from gazala_tools.vsav.view import Layer, PieceView, SaveView, TurnView, piece_view, turn_of

__all__ = [
    "Layer",
    "Piece",
    "PieceView",
    "Save",
    "SaveView",
    "SavedPosition",
    "Stack",
    "TurnView",
    "locate_pieces",
    "read_save",
]


@dataclass
class Save:
    """A save or log: its container, its command tree and the position it leaves."""

    container: SaveContainer
    tree: Node
    position: SavedPosition
    _view: SaveView | None = field(default=None, repr=False, compare=False)

    def view(self) -> SaveView:
        """The save as typed values (pieces with layers and rotation, the turn), decoded once."""
        if self._view is None:
            self._view = SaveView(
                file=self.file,
                module_name=self.container.module_name,
                vassal_version=self.container.vassal_version,
                is_log=self.is_log,
                pieces=tuple(piece_view(p) for p in self.position.pieces.values() if p.map is not None),
                turn=turn_of(self.tree),
            )
        return self._view

    @property
    def file(self) -> str:
        return self.container.file

    @property
    def is_log(self) -> bool:
        return self.kinds().get("log", 0) > 0

    def kinds(self) -> dict[str, int]:
        return count_kinds(self.tree)

    def text(self, *, preserve: bool = True) -> str:
        return to_text(self.tree, preserve=preserve)

    def as_dict(self) -> dict[str, Any]:
        """What ``gazala vsav dump --json`` prints."""
        return {
            "file": self.file,
            "format": self.container.format,
            "kind": "log" if self.is_log else "save",
            "vassal_version": self.container.vassal_version,
            "module": self.container.module_name,
            "pieces": [
                {
                    "id": p.id,
                    "name": p.name,
                    "map": p.map,
                    "x": p.x,
                    "y": p.y,
                    "board": p.board,
                    "location": p.location,
                    "stack": p.stack,
                    "properties": p.properties,
                }
                for p in self.position.pieces.values()
            ],
            "boards": {m: [list(b) for b in bs] for m, bs in self.position.boards.items()},
            "players": self.position.players,
            "global_properties": self.position.global_properties,
            "turns": self.position.turns,
            "commands": dict(sorted(self.kinds().items())),
            "warnings": self.position.warnings,
        }


def read_save(
    source: str | Path | bytes | SaveContainer,
    *,
    layouts: list[MapLayout] | None = None,
    name: str | None = None,
    replay_log: bool = True,
) -> Save:
    """Read, decode and execute a save or log (or a container already read); with a module's ``layouts``
    (``vassal.buildfile.read_layouts``, given by the edge that read the module), give every piece its location."""
    container = source if isinstance(source, SaveContainer) else read_container(source, name=name)
    tree = parse(container.text, file=container.file)
    kinds = count_kinds(tree)
    if not kinds.keys() & {"begin_save", "add", "move", "change", "remove", "log"}:
        raise VassalFormatError(
            "no VASSAL game commands found",
            file=container.file,
            place="command 0",
            expected="a command stream starting with begin_save",
        )
    position = execute(tree, file=container.file, replay_log=replay_log)
    if layouts is not None:
        locate_pieces(position, layouts, file=container.file)
    return Save(container, tree, position)


def map_identifiers(layouts: list[MapLayout]) -> dict[str, MapLayout]:
    """``Map.getIdentifier()`` for every map: its ``mapName``, else ``Map<n>`` in load order."""
    out: dict[str, MapLayout] = {}
    for i, lay in enumerate(layouts):
        out.setdefault(f"Map{i}", lay)
        if lay.name:
            out[lay.name] = lay
    return out


def locate_pieces(position: SavedPosition, layouts: list[MapLayout], *, file: str = "<save>") -> None:
    """Set ``location``/``board`` of every piece on a map, using the save's SetBoards (§4.7)."""
    placed = placed_layouts(position, layouts, file=file)
    decks = [(st, *deck_box(st.type)) for st in position.stacks.values() if st.kind == "deck" and st.map is not None]
    for piece in position.pieces.values():
        if piece.map is None:
            continue
        found = placed.get(piece.map)
        if found is None:
            piece.location = None
            continue
        loc = found.locate(piece.x, piece.y)
        piece.location = loc.name
        piece.board = loc.board
        for st, name, w, h in decks:  # Map.locationName: a point inside a Deck's bounds is named by the deck
            if st.map == piece.map and name and -(w // 2) <= piece.x - st.x < w - w // 2 \
                    and -(h // 2) <= piece.y - st.y < h - h // 2:
                piece.location = name
                break


def placed_layouts(position: SavedPosition, layouts: list[MapLayout], *, file: str = "<save>") -> dict[str, MapLayout]:
    """Each map (by its identifier) with the boards the save's SetBoards lays out (§4.7), as the engine does."""
    by_id = map_identifiers(layouts)
    placed: dict[str, MapLayout] = {}
    for map_id, lay in by_id.items():
        boards = position.boards.get(map_id)
        if boards is None and lay.name:
            boards = position.boards.get(lay.name)
        if boards:
            try:
                placed[map_id] = layout_with_boards(lay, boards)
            except VassalFormatError as exc:
                raise VassalFormatError(exc.problem, file=file, place=f"SetBoards of map {map_id!r}", expected=exc.expected) from None
        else:
            placed[map_id] = lay
    return placed


def deck_box(type_: str) -> tuple[str, int, int]:
    """A ``deck;`` type's (deckName, width, height): fields 13, 3 and 4 (``Deck.getType``)."""
    from gazala_tools.vsav import sequence

    f = sequence.decode(type_[len("deck;"):], ";") if type_.startswith("deck;") else []

    def num(i: int) -> int:
        try:
            return int(f[i]) if len(f) > i and f[i] else 0
        except ValueError:
            return 0

    return (f[12] if len(f) > 12 else ""), num(2), num(3)
