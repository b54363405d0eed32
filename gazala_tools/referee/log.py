"""Replaying a VASSAL log (``.vlog``) one Step at a time, as the referee reads it.

A log is the save of the moment logging started (``begin_save`` ... ``end_save``) followed by its
``LOG`` entries; VASSAL's "Step" button runs one top-level ``LOG`` entry (with the ``LOG`` entries
nested in it) at a time (``docs/vassal-format.md`` 4.8). :class:`LogReplay` runs the set-up, then
yields one :class:`Step` per entry, in order: the units whose hex or box changed (before and after,
as referee :class:`~gazala_tools.referee.position.Unit` values with their markers), units whose
markers or steps changed in place, the turn the Turn Tracker shows when the step moved it, and the
chits the step drew out of a cup (a deck).

Pieces become units exactly as for a save (:mod:`.saves`: our module's ``Marker`` properties, or
another module's through ``--mapping``). Only the pieces a step touches are decoded again, so a
long log replays in time proportional to what moved.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from gazala_tools.errors import GazalaError
from gazala_tools.referee.imported import ImportedPieces, PieceTable
from gazala_tools.referee.position import Position, Unit
from gazala_tools.referee.saves import (
    BoxAt,
    PieceMapping,
    position_from_mapped_pieces,
    position_from_pieces,
    turn_label,
)
from gazala_tools.vsav.commands import (
    AddPiece,
    ChangePiece,
    Group,
    Log,
    MovePiece,
    Node,
    RemovePiece,
    Turn,
    Undo,
    walk,
)
from gazala_tools.vsav.pieces import Replayer
from gazala_tools.vsav.view import piece_view, turn_of

if TYPE_CHECKING:  # pragma: no cover
    from gazala_tools.hexgrid import MapLayout
    from gazala_tools.referee.engine import RulesPlugin
    from gazala_tools.vsav import PieceView, Save
    from gazala_tools.vsav.pieces import Piece

__all__ = [
    "MAX_LOG_MOVES",
    "MAX_LOG_STEPS",
    "ChitDraw",
    "LogReplay",
    "Step",
    "UnitMove",
    "log",
    "log_entries",
]

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class UnitMove:
    """A unit whose hex or box changed in one step: its state before and after."""

    piece: str  #: the VASSAL piece id
    before: Unit
    after: Unit

    @property
    def unit(self) -> str:
        return self.after.id


@dataclass(frozen=True, slots=True)
class ChitDraw:
    """A chit taken out of a cup (a VASSAL deck) in a step."""

    piece: str
    name: str
    side: str
    kind: str  #: the chit's type ("action", "tactical", ...)
    formation: str  #: the formation an action chit names ("" when it names none)


@dataclass
class Step:
    """One VASSAL Step of a log (1-based ``index``)."""

    index: int
    moves: list[UnitMove] = field(default_factory=list)
    changed: list[UnitMove] = field(default_factory=list)  #: markers / steps changed in place
    turn: str | None = None  #: the turn the tracker shows, when this step changed it
    turn_changed: bool = False
    chits: list[ChitDraw] = field(default_factory=list)
    undo: bool = False  #: the step holds an UNDO command
    removed: list[Unit] = field(default_factory=list)  #: units removed from the game (eliminated)
    position_before: Position | None = None  #: the referee position just before the step


def log_entries(tree: Node) -> tuple[list[Node], list[Node]]:
    """The set-up part of a log's command tree and its Step entries, in order.

    A Step is each top-level item that is a ``LOG`` entry or a chain headed by one; what comes
    before the first Step is the set-up.
    """
    items = tree.items if isinstance(tree, Group) else [tree]
    setup: list[Node] = []
    steps: list[Node] = []
    for item in items:
        head = item.items[0] if isinstance(item, Group) and item.items else item
        if isinstance(head, (Log, Undo)):
            steps.append(item)
        elif steps:
            steps.append(item)  # a non-LOG item after the first step: run it as a step of its own
        else:
            setup.append(item)
    return setup, steps


#: most steps and most moves of one log (a player turn has tens to hundreds; checking a move costs up
#: to about 1.5 ms, so 10,000 take at most about 15 s and an HTML report of about 8 MB)
MAX_LOG_STEPS = 10_000
MAX_LOG_MOVES = 10_000


class LogReplay:
    """A log's set-up and Steps, replayed for ``rules``' game.

    ``mapping``: another module's pieces as our units (``--mapping``); ``module_layouts``: the maps
    of the module the log belongs to, to name each piece's location (``--module``); ``turn``
    overrides the turn of the set-up.
    """

    def __init__(
        self,
        save: Save,
        rules: RulesPlugin,
        *,
        manifest: Mapping[str, Mapping[str, Any]] | None = None,
        mapping: PieceMapping | None = None,
        module_layouts: list[MapLayout] | None = None,
        turn: str | None = None,
        imported: PieceTable | None = None,
        box_at: BoxAt | None = None,
    ) -> None:
        self.save = save
        self.box_at = box_at  #: the game folder's holding boxes (a log read without its module)
        self.rules = rules
        self.manifest = manifest
        self.mapping = mapping
        self.layouts = module_layouts
        self.file = save.file
        setup, self._entries = log_entries(save.tree)
        if len(self._entries) > MAX_LOG_STEPS:  # refused before any step is replayed (docs/reliability.md)
            raise GazalaError(f"the log has {len(self._entries):,} steps", file=save.file,
                              expected=f"at most {MAX_LOG_STEPS:,} steps (split the log)")
        self._replayer = Replayer(save.file)
        for node in setup:
            self._replayer.apply(node, into_logs=False)
        pos = self._replayer.position
        if self.layouts is not None:
            self._locate(list(pos.pieces.values()))
        #: an imported game's pieces (its units.yaml), located on the boards the log lays out (issue 35)
        self.imported: ImportedPieces | None = None
        if imported is not None:
            from gazala_tools.vsav import placed_layouts

            placed = placed_layouts(pos, self.layouts, file=self.file) if self.layouts is not None else None
            self.imported = ImportedPieces.for_pieces(imported, rules, placed,
                                                      [piece_view(p) for p in pos.pieces.values()])
        self.units: dict[str, Unit] = {}  #: piece id -> unit, as the replay stands
        self.state_pieces: dict[str, PieceView] = {}  #: piece id -> a piece of the plugin's state (RG breach)
        for pid in pos.pieces:
            self._convert(pid)
        self.turn: str | None = turn if turn is not None else self._turn_of(setup)
        self.turn_given = turn is not None

    @property
    def step_count(self) -> int:
        return len(self._entries)

    def _turn_of(self, nodes: list[Node]) -> str | None:
        got = None
        for n in nodes:
            t = turn_of(n)
            if t is not None:
                got = t
        return turn_label(got, self.rules) if got is not None else None

    def _locate(self, pieces: list[Piece]) -> None:
        from gazala_tools.vsav import locate_pieces
        from gazala_tools.vsav.pieces import SavedPosition

        assert self.layouts is not None
        sub = SavedPosition(pieces={p.id: p for p in pieces}, boards=self._replayer.position.boards)
        locate_pieces(sub, self.layouts, file=self.file)

    def _convert(self, pid: str) -> None:
        """(Re)decode piece ``pid`` into a unit or a piece of the plugin's state (or nothing)."""
        pos = self._replayer.position
        self.units.pop(pid, None)
        self.state_pieces.pop(pid, None)
        piece = pos.pieces.get(pid)
        if piece is None or piece.map is None:
            return
        view = piece_view(piece)
        if self.imported is not None:
            unit = self.imported.unit(view)
            if unit is not None:
                self.units[pid] = unit
            return
        if self.mapping is not None:
            views = [view]
            if piece.stack is not None and self.mapping.markers:
                st = pos.stacks.get(piece.stack)
                for cid in st.children if st is not None else ():
                    other = pos.pieces.get(cid)
                    if cid != pid and other is not None and self.mapping.marker(other.name) is not None:
                        views.append(piece_view(other))
            got = position_from_mapped_pieces(views, rules=self.rules, mapping=self.mapping, manifest=self.manifest,
                                              turn=self.turn if hasattr(self, "turn") else None, source=self.file)
        else:
            got = position_from_pieces([view], rules=self.rules, manifest=self.manifest,
                                       turn=self.turn if hasattr(self, "turn") else None, source=self.file,
                                       box_at=self.box_at)
        if got.units:
            self.units[pid] = got.units[0]
        elif got.extra:
            self.state_pieces[pid] = view

    def position(self) -> Position:
        """The referee position the replay stands at."""
        extra = (position_from_pieces(list(self.state_pieces.values()), rules=self.rules, turn=self.turn,
                                      source=self.file).extra if self.state_pieces else {})
        return Position(game=self.rules.game.id, units=tuple(self.units.values()), turn=self.turn, extra=extra,
                        source=self.file)

    def _touched(self, node: Node) -> list[str]:
        """Ids of the pieces a step's commands may move or change (stacks: their pieces), in the order
        the commands name them: the replay decodes them in that order, so the position's units (and
        everything drawn from them) are a function of the log alone, never of the hash seed."""
        pos = self._replayer.position
        ids: dict[str, None] = {}  # an ordered set
        for cmd in walk(node):
            pid: str | None = None
            if isinstance(cmd, MovePiece):
                pid = cmd.move.id
                if cmd.move.new_under:
                    ids[cmd.move.new_under] = None
            elif isinstance(cmd, (ChangePiece, RemovePiece)):
                pid = cmd.id
            elif isinstance(cmd, AddPiece):
                pid = cmd.id
                if pid is not None and (cmd.type == "stack" or cmd.type.startswith("deck;")):
                    ids.update(dict.fromkeys(t for t in cmd.state.split(";") if t in pos.pieces))
            if pid is None:
                continue
            ids[pid] = None
            st = pos.stacks.get(pid)
            if st is not None:
                ids.update(dict.fromkeys(st.children))
        for pid in list(ids):
            p = pos.pieces.get(pid)
            if p is not None and p.stack is not None and self.mapping is not None:
                st = pos.stacks.get(p.stack)
                if st is not None:
                    ids.update(dict.fromkeys(st.children))
        return [i for i in ids if i in pos.pieces or i in self.units or i in self.state_pieces]

    def steps(self) -> Iterator[Step]:
        """Run each Step in order and say what it did (the replay's state advances with it)."""
        pos = self._replayer.position
        for n, node in enumerate(self._entries, start=1):
            touched = self._touched(node)
            before_units = {pid: self.units[pid] for pid in touched if pid in self.units}
            before_place = {pid: (p.map, p.x, p.y, p.stack) for pid in touched if (p := pos.pieces.get(pid))}
            in_deck = [pid for pid in touched if self._in_deck(pid)]
            before = self.position()
            self._replayer.apply(node)
            pos = self._replayer.position
            step = Step(n, undo=any(isinstance(c, Undo) for c in walk(node)), position_before=before)
            if any(isinstance(c, Turn) for c in walk(node)) and not self.turn_given:
                label = self._turn_of([node])
                if label is not None and label != self.turn:
                    self.turn = label
                    step.turn = label
                    step.turn_changed = True
            changed = [pid for pid in touched
                       if (p := pos.pieces.get(pid)) is None or before_place.get(pid) != (p.map, p.x, p.y, p.stack)
                       or pid in before_units]
            if self.layouts is not None:
                self._locate([pos.pieces[pid] for pid in changed if pid in pos.pieces])
            for pid in touched:
                self._convert(pid)
                old, new = before_units.get(pid), self.units.get(pid)
                if old is None:
                    continue
                if new is None:
                    step.removed.append(old)
                elif (old.hex, old.box) != (new.hex, new.box):
                    step.moves.append(UnitMove(pid, old, new))
                elif old != new:
                    step.changed.append(UnitMove(pid, old, new))
            for pid in sorted(in_deck):
                if not self._in_deck(pid):
                    p = pos.pieces.get(pid)
                    if p is not None and p.map is not None:
                        step.chits.append(self._chit(p))
            step.moves.sort(key=lambda m: m.unit)
            yield step

    def _in_deck(self, pid: str) -> bool:
        pos = self._replayer.position
        p = pos.pieces.get(pid)
        if p is None or p.stack is None:
            return False
        st = pos.stacks.get(p.stack)
        return st is not None and st.kind == "deck"

    def _chit(self, p: Piece) -> ChitDraw:
        props = p.properties
        name = p.name
        formation = props.get("Formation") or ""
        kind = (props.get("ChitType") or props.get("Type") or "").lower()
        if not formation and kind == "action":
            formation = name.split(" (")[0].strip()
        return ChitDraw(p.id, name, (props.get("SideId") or props.get("Side") or "").lower(), kind, formation)
