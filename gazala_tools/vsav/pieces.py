"""Executing a save or log: the final position (pieces, stacks, boards) the commands leave.

This follows what VASSAL's commands do to the game state (``AddPiece``, ``Stack.setState``,
``ChangePiece``/``BasicPiece.setState``, ``MovePiece``, ``RemovePiece``, ``SetBoards``); the
display-only commands are counted but change nothing here. A stacked piece is where its stack is
(``BasicPiece.getPosition`` defers to the parent), which is why the 3.6 ``null`` map in the states of
a stack's upper pieces does not matter.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from gazala_tools.errors import VassalFormatError
from gazala_tools.vsav import sequence
from gazala_tools.vsav.commands import (
    AddPiece,
    BeginSave,
    ChangePiece,
    GlobalProperty,
    MovePiece,
    Node,
    Player,
    RemovePiece,
    SetBoards,
    Turn,
    walk,
)
from gazala_tools.vsav.traits import (
    BasicState,
    PieceDef,
    join_chain,
    make_piece,
    split_chain,
    split_piece,
)

__all__ = [
    "Piece",
    "Replayer",
    "SavedPosition",
    "Stack",
    "execute",
    "log",
    "rebuild_state",
]

log = logging.getLogger(__name__)


class Piece:
    """A game piece in the final position. ``map`` None: not on any map.

    The trait chain is kept as split strings; :attr:`definition` (traits, name, properties) is
    decoded on first use.
    """

    __slots__ = ("_definition", "_types", "board", "id", "location", "map", "stack", "states", "x", "y")

    def __init__(
        self, id: str, types: list[str] | str, states: list[str], map: str | None, x: int, y: int
    ) -> None:
        self.id = id
        self._types = types
        self.states = states
        self.map = map
        self.x = x
        self.y = y
        self.stack: str | None = None  #: id of the stack (or deck) holding it
        self.location: str | None = None  #: VASSAL location name, when a module was given
        self.board: str | None = None
        self._definition: PieceDef | None = None

    def __repr__(self) -> str:
        return f"Piece({self.id!r}, map={self.map!r}, x={self.x}, y={self.y}, stack={self.stack!r})"

    @property
    def types(self) -> list[str]:
        if isinstance(self._types, str):
            self._types = split_chain(self._types)
        return self._types

    @property
    def definition(self) -> PieceDef:
        if self._definition is None:
            self._definition = make_piece(self.types, self.states)
        return self._definition

    def set_states(self, states: list[str]) -> None:
        self.states = states
        self._definition = None

    @property
    def name(self) -> str:
        return self.definition.name()

    @property
    def properties(self) -> dict[str, str]:
        return self.definition.properties()

    @property
    def type(self) -> str:
        return join_chain(self.types)

    @property
    def state(self) -> str:
        return join_chain(self.states)

    def as_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "map": self.map,
            "x": self.x,
            "y": self.y,
            "board": self.board,
            "location": self.location,
            "stack": self.stack,
            "traits": [t.id for t in self.definition.traits],
            "properties": self.properties,
        }


@dataclass
class Stack:
    """A ``stack`` (or ``deck;``): children bottom to top; they share its map and position."""

    id: str
    map: str | None
    x: int
    y: int
    children: list[str] = field(default_factory=list)
    layer: str | None = None
    kind: str = "stack"  #: "stack" or "deck"
    type: str = "stack"


@dataclass
class SavedPosition:
    """What a save or log leaves on the table."""

    pieces: dict[str, Piece] = field(default_factory=dict)  #: in creation order
    stacks: dict[str, Stack] = field(default_factory=dict)
    boards: dict[str, list[tuple[str, int, int]]] = field(default_factory=dict)  #: SetBoards per map id
    players: list[list[str]] = field(default_factory=list)  #: PLAYER lines: [id, name, side]
    global_properties: dict[str, str] = field(default_factory=dict)  #: "container/name" -> value
    turns: dict[str, str] = field(default_factory=dict)  #: turn tracker id -> its state
    warnings: list[str] = field(default_factory=list)

    def on_map(self) -> list[Piece]:
        return [p for p in self.pieces.values() if p.map is not None]


class _Executor:
    def __init__(self, file: str) -> None:
        self.file = file
        self.pos = SavedPosition()
        self.index = -1
        self._synthetic = 0

    def warn(self, text: str) -> None:
        self.pos.warnings.append(f"command {self.index}: {text}")

    # -- helpers ---------------------------------------------------------------------------------
    def _detach(self, pid: str) -> None:
        piece = self.pos.pieces.get(pid)
        if piece is None or piece.stack is None:
            return
        st = self.pos.stacks.get(piece.stack)
        piece.stack = None
        if st is not None:
            if pid in st.children:
                st.children.remove(pid)
            if not st.children and st.kind == "stack":
                # Stack.remove: an emptied stack leaves its map
                del self.pos.stacks[st.id]

    def _drop_stack(self, sid: str) -> None:
        """A stack leaves the table; its pieces stay where it was, unstacked."""
        st = self.pos.stacks.pop(sid)
        for cid in st.children:
            child = self.pos.pieces.get(cid)
            if child is not None:
                child.stack = None

    def _sync(self, st: Stack) -> None:
        for cid in st.children:
            child = self.pos.pieces.get(cid)
            if child is not None:
                child.map, child.x, child.y, child.stack = st.map, st.x, st.y, st.id

    def _chain(self, state: str) -> list[str]:
        try:
            return split_chain(state)
        except ValueError as exc:  # more than MAX_TRAITS traits
            raise VassalFormatError(f"piece state chain: {exc}", file=self.file, place=f"command {self.index}",
                                    expected="a trait chain VASSAL writes") from None

    # -- commands --------------------------------------------------------------------------------
    def add(self, cmd: AddPiece) -> None:
        pid = cmd.id
        if pid is None:
            self.warn("AddPiece without an id ignored")
            return
        if cmd.type == "stack" or cmd.type.startswith("deck;"):
            self.add_stack(pid, cmd.type, cmd.state)
            return
        states = self._chain(cmd.state)
        tail = cmd.type.rfind("\t")
        if cmd.type.count("\t") + 1 == len(states) and cmd.type.startswith("piece;", tail + 1) and "'" not in cmd.type:
            # well-formed chain: split the type lazily, when traits are asked for
            types: list[str] | None = None
        else:
            types, states = split_piece(cmd.type, cmd.state, file=self.file, place=f"command {self.index}")
        basic = BasicState.parse(states[-1])
        if pid in self.pos.stacks:
            self._drop_stack(pid)  # one id space (GameState): the new piece replaces the stack
        if pid in self.pos.pieces:
            self._detach(pid)
        self.pos.pieces[pid] = Piece(pid, cmd.type if types is None else types, states, basic.map, basic.x, basic.y)

    def add_stack(self, sid: str, type_: str, state: str) -> None:
        kind = "deck" if type_.startswith("deck;") else "stack"
        if kind == "stack" and "\\" not in state and "'" not in state:
            # the common case, read without a Decoder (a set-up save may hold 76,000 stacks): "MAP;X;Y;ID;..."
            # or "null;X;Y;..." (an empty stack off the maps keeps no point), the same tokens as decode()
            toks = state.split(";")
            map_id = toks[0]
            x = y = 0
            if map_id != "null":
                x, y = _int_or(toks, 1), _int_or(toks, 2)
            self._place_stack(sid, kind, type_, map_id, x, y, toks[3:] if map_id != "null" else toks[1:])
            return
        d = sequence.Decoder(state, ";")
        map_id = d.next_token("null")
        x = y = 0
        if map_id != "null":
            x = d.next_int(0)
            y = d.next_int(0)
        if kind == "deck":
            tokens: list[str] = []
            self._place_stack(sid, kind, type_, map_id, x, y, tokens, d)
        else:
            self._place_stack(sid, kind, type_, map_id, x, y, d.remaining())

    def _place_stack(self, sid: str, kind: str, type_: str, map_id: str, x: int, y: int, tokens: list[str],
                     deck: sequence.Decoder | None = None) -> None:
        """A stack (or deck, its state's rest in ``deck``) at its point with the pieces ``tokens`` names."""
        if sid in self.pos.pieces:
            # one id space (GameState): the new stack replaces the piece
            self._detach(sid)
            del self.pos.pieces[sid]
        st = self.pos.stacks.get(sid)
        if st is None:
            st = Stack(sid, None, 0, 0, kind=kind, type=type_)
            self.pos.stacks[sid] = st
        else:
            for cid in st.children:
                child = self.pos.pieces.get(cid)
                if child is not None:
                    child.stack = None
            st.children = []
        st.map, st.x, st.y = (None if map_id == "null" else map_id), x, y
        if deck is not None:
            deck.next_token("")  # faceDown
            ids = sequence.decode(deck.next_token(""), ",") if deck.has_more() else []
            tokens = [i for i in ids if i]
        if not tokens:
            return
        for tok in tokens:
            if tok.startswith("@@"):
                st.layer = tok[2:]
                continue
            if tok in self.pos.pieces:
                if tok in st.children:
                    st.children.remove(tok)
                else:
                    self._detach(tok)
                st.children.append(tok)
        self._sync(st)

    def change(self, cmd: ChangePiece) -> None:
        if cmd.id in self.pos.stacks:
            st = self.pos.stacks[cmd.id]
            self.add_stack(cmd.id, st.type, cmd.new_state)
            return
        piece = self.pos.pieces.get(cmd.id)
        if piece is None:
            self.warn(f"ChangePiece for unknown piece {cmd.id!r} ignored")
            return
        states = self._chain(cmd.new_state)
        if len(states) < len(piece.types):
            # Decorator.setState runs out of tokens: the inner traits keep their states
            self.warn(f"ChangePiece for {cmd.id!r} has {len(states)} trait states, the piece {len(piece.types)}")
            piece.set_states(states + piece.states[len(states) :])
            return
        piece.set_states(states[: len(piece.types)])
        basic = BasicState.parse(piece.states[-1])
        if piece.stack is not None:
            holder = self.pos.stacks.get(piece.stack)
            if basic.map is not None and holder is not None and basic.map != holder.map:
                # BasicPiece.setState with a new map: Map.addPiece takes it out of the stack
                self._detach(piece.id)
                piece.map, piece.x, piece.y = basic.map, basic.x, basic.y
            return
        piece.map, piece.x, piece.y = basic.map, basic.x, basic.y

    def move(self, cmd: MovePiece) -> None:
        m = cmd.move
        st = self.pos.stacks.get(m.id)
        piece = self.pos.pieces.get(m.id)
        if st is None and piece is None:
            self.warn(f"MovePiece for unknown piece {m.id!r} ignored")
            return
        if m.new_map is None:
            # moved off every map
            if st is not None:
                st.map = None
                self._sync(st)
            elif piece is not None:
                self._detach(m.id)
                piece.map = None
            return
        under = m.new_under if m.new_under != m.id else None
        if st is not None:
            target = self._stack_of(under) if under else None
            if target is not None and target.id != st.id:
                moving = list(st.children)
                for cid in moving:
                    self._detach(cid)
                self._insert_above(target, under, moving)
                self.pos.stacks.pop(st.id, None)
                return
            st.map, st.x, st.y = m.new_map, m.new_x, m.new_y
            self._sync(st)
            return
        assert piece is not None
        self._detach(m.id)
        target = self._stack_of(under)
        if target is not None:
            self._insert_above(target, under, [m.id])
            return
        under_piece = self.pos.pieces.get(under) if under else None
        if under_piece is not None and under_piece.stack is None and under_piece.map == m.new_map:
            # merge onto a loose piece: VASSAL wraps both in a new stack
            self._synthetic += 1
            sid = f"new-stack-{self._synthetic}"
            new = Stack(sid, under_piece.map, under_piece.x, under_piece.y, [under_piece.id, m.id])
            self.pos.stacks[sid] = new
            self._sync(new)
            return
        piece.map, piece.x, piece.y = m.new_map, m.new_x, m.new_y

    def _stack_of(self, pid: str | None) -> Stack | None:
        if pid is None:
            return None
        if pid in self.pos.stacks:
            return self.pos.stacks[pid]
        piece = self.pos.pieces.get(pid)
        if piece is not None and piece.stack is not None:
            return self.pos.stacks.get(piece.stack)
        return None

    def _insert_above(self, st: Stack, under: str | None, ids: list[str]) -> None:
        at = st.children.index(under) + 1 if under in st.children else len(st.children)
        st.children[at:at] = ids
        self._sync(st)

    def remove(self, cmd: RemovePiece) -> None:
        if cmd.id in self.pos.stacks:
            st = self.pos.stacks.pop(cmd.id)
            for cid in st.children:
                child = self.pos.pieces.get(cid)
                if child is not None:
                    child.map = None
                    child.stack = None
            return
        if cmd.id not in self.pos.pieces:
            self.warn(f"RemovePiece for unknown piece {cmd.id!r} ignored")
            return
        self._detach(cmd.id)
        del self.pos.pieces[cmd.id]

    def run(self, tree: Node, *, replay_log: bool) -> SavedPosition:
        for cmd in walk(tree, into_logs=replay_log):
            self.do(cmd)
        return self.pos

    def do(self, cmd: Node) -> None:
        """Execute one single command (not a group or LOG wrapper)."""
        self.index += 1
        if isinstance(cmd, AddPiece):
            self.add(cmd)
        elif isinstance(cmd, MovePiece):
            self.move(cmd)
        elif isinstance(cmd, ChangePiece):
            self.change(cmd)
        elif isinstance(cmd, RemovePiece):
            self.remove(cmd)
        elif isinstance(cmd, SetBoards):
            self.pos.boards[cmd.map_id] = list(cmd.boards)
        elif isinstance(cmd, Player):
            if cmd.tokens not in self.pos.players:
                self.pos.players.append(list(cmd.tokens))
        elif isinstance(cmd, GlobalProperty):
            name, value, holder = ([*cmd.tokens, "", "", ""])[:3]
            self.pos.global_properties[f"{holder}/{name}" if holder else name] = value
        elif isinstance(cmd, Turn):
            self.pos.turns[cmd.tracker] = cmd.state
        elif isinstance(cmd, BeginSave):
            self.pos = SavedPosition(warnings=self.pos.warnings)


class Replayer:
    """Execute a command tree a part at a time: the set-up of a log, then each LOG step in order
    (``gazala referee log``). :attr:`position` is the live position after what was applied."""

    def __init__(self, file: str = "<commands>") -> None:
        self._ex = _Executor(file)

    @property
    def position(self) -> SavedPosition:
        return self._ex.pos

    def apply(self, node: Node, *, into_logs: bool = True) -> None:
        """Execute every single command of ``node`` (entering LOG wrappers when ``into_logs``)."""
        try:
            for cmd in walk(node, into_logs=into_logs):
                self._ex.do(cmd)
        except RecursionError:
            raise VassalFormatError("command tree too deep", file=self._ex.file,
                                    expected="a shallower command tree") from None


def _int_or(toks: list[str], i: int, default: int = 0) -> int:
    """``Decoder.next_int(default)`` of token ``i``."""
    if i >= len(toks):
        return default
    try:
        return sequence.java_int(toks[i])
    except ValueError:
        return default


def execute(tree: Node, *, file: str = "<commands>", replay_log: bool = True) -> SavedPosition:
    """Run every command (and, with ``replay_log``, every LOG step) and return the final position."""
    try:
        return _Executor(file).run(tree, replay_log=replay_log)
    except RecursionError:
        raise VassalFormatError("command tree too deep", file=file, expected="a shallower command tree") from None


def rebuild_state(definition: PieceDef, basic: BasicState) -> str:
    """The FULLSTATE of ``definition`` with its BasicPiece state replaced by ``basic``."""
    states = [t.state for t in definition.traits]
    states[-1] = basic.encode()
    return join_chain(states)
