"""A save as typed values: what a reader of the game (the referee) needs, with no trait strings.

``read_save(path).view()`` gives a :class:`SaveView`: the module name, every piece on a map with
its name, map, coordinates, VASSAL location, stack, properties, **layers** (name -> level and
whether it is shown) and **rotation** (facing index of its fixed-angle rotator), and the **turn**
the save's Turn Tracker shows (:class:`TurnView`). Trait chains are decoded here, once; callers
never split a trait string. Changing a piece's layers goes the other way through
:func:`layer_change` (one ``ChangePiece`` command).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from gazala_tools.vsav import sequence
from gazala_tools.vsav.commands import ChangePiece, Node, Turn, walk
from gazala_tools.vsav.traits import join_chain

if TYPE_CHECKING:  # pragma: no cover
    from gazala_tools.vsav.pieces import Piece

__all__ = [
    "Layer",
    "PieceView",
    "SaveView",
    "TurnKind",
    "TurnView",
    "layer_change",
    "piece_view",
    "turn_of",
]


@dataclass(frozen=True, slots=True)
class Layer:
    """A Layer (``emb2;``) trait's state: the level shown (1-based) and whether it is active."""

    name: str
    level: int
    active: bool


@dataclass(frozen=True, slots=True)
class PieceView:
    """A piece on a map, decoded. ``rotation``: facing index of its first fixed-angle rotator
    (None without one); ``facings``: that rotator's number of facings."""

    id: str
    name: str
    map: str | None
    x: int
    y: int
    location: str | None = None
    board: str | None = None
    stack: str | None = None
    properties: Mapping[str, str] = field(default_factory=dict)
    layers: Mapping[str, Layer] = field(default_factory=dict)
    rotation: int | None = None
    facings: int = 0
    base_name: str = ""  #: the BasicPiece name, before layers and labels change it (``name`` is what VASSAL displays)
    gpid: str = ""  #: the id of the palette slot the piece was made from (its BasicPiece state)

    def layer_active(self, name: str) -> bool:
        got = self.layers.get(name)
        return got is not None and got.active

    def layer_level(self, name: str, default: int = 1) -> int:
        got = self.layers.get(name)
        return got.level if got is not None else default


TurnKind = Literal["list", "counter"]


@dataclass(frozen=True, slots=True)
class TurnView:
    """The first level of a Turn Tracker's state (``TURN`` command).

    ``list``: ``current`` indexes the ``ListTurnLevel``'s list, ``entries`` is its length (from its
    active flags; 0 if not known). ``counter``: ``current`` is the ``CounterTurnLevel``'s number.
    """

    tracker: str
    kind: TurnKind
    current: int
    entries: int = 0

    def label(self, turns: Sequence[str]) -> str | None:
        """The label of ``turns`` (the game's turn record) the tracker shows, or None.

        Our modules put a pre-game "Set-up" entry before the turn record; a list one longer than the
        record has it, and Set-up reads as the first turn. A counter level shows a game-turn number.
        """
        if self.kind == "counter":
            text = str(self.current)
            return text if not turns or text in turns else None
        if not turns:
            return None
        current = self.current
        if self.entries == len(turns) + 1:
            current = max(current - 1, 0)
        return turns[current] if 0 <= current < len(turns) else None

    def number(self) -> int | None:
        """The game-turn number a counter level shows (None for a list level)."""
        return self.current if self.kind == "counter" else None


def turn_of(tree: Node) -> TurnView | None:
    """The turn a save's Turn Tracker shows: its last ``TURN`` command, decoded.

    VASSAL ``TurnTracker.getState()`` is ``currentLevel|level0|level1...``; a ``ListTurnLevel``
    state is ``current;currentSubLevel;first;active flags``, a ``CounterTurnLevel`` state
    ``current;currentSubLevel;loop;loopLimit``.
    """
    last: Turn | None = None
    for node in walk(tree):
        if isinstance(node, Turn):
            last = node
    if last is None:
        return None
    parts = sequence.decode(last.state, "|")
    if len(parts) < 2:
        return None
    level = sequence.decode(parts[1], ";")
    try:
        current = int(level[0])
    except (ValueError, IndexError):
        return None
    if len(level) > 2 and level[2] in ("true", "false"):
        return TurnView(last.tracker, "counter", current)
    flags = sequence.decode(level[3], ",") if len(level) > 3 and level[3] else []
    return TurnView(last.tracker, "list", current, len(flags))


def piece_view(p: Piece) -> PieceView:
    """One piece, decoded: properties, layers and rotation from its trait chain."""
    d = p.definition
    layers: dict[str, Layer] = {}
    rotation: int | None = None
    facings = 0
    for t in d.traits:
        if t.id == "emb2;":
            f = t.fields()
            name = f[18] if len(f) > 18 else ""
            if not name or name in layers:
                continue
            try:
                value = sequence.java_int(t.state)
            except ValueError:
                value = 1
            layers[name] = Layer(name, abs(value) or 1, value > 0)
        elif t.id == "rotate;" and rotation is None:
            f = t.fields()
            try:
                n = int(f[0]) if f and f[0] else 1
            except ValueError:
                n = 1
            if n > 1:
                facings = n
                try:
                    rotation = int(str(t.state).split(";")[0] or 0) % n
                except ValueError:
                    rotation = 0
    return PieceView(p.id, p.name, p.map, p.x, p.y, p.location, p.board, p.stack, dict(p.properties), layers,
                     rotation, facings, d.common_name(), _gpid(d.basic.state))


def _gpid(state: str) -> str:
    """The gpid of a BasicPiece state (``map;x;y;gpid;...``)."""
    parts = state.split(";", 4)
    return parts[3] if len(parts) > 3 else ""


@dataclass(frozen=True)
class SaveView:
    """A save or log as the referee reads it."""

    file: str
    module_name: str | None
    vassal_version: str | None
    is_log: bool
    pieces: tuple[PieceView, ...]  #: pieces on a map, in creation order
    turn: TurnView | None


def layer_change(piece: Piece, layers: Mapping[str, bool]) -> ChangePiece | None:
    """A ``ChangePiece`` that shows (True) or hides (False) the named layers of a piece (VASSAL
    keeps an inactive layer's level as a negative number); None if nothing changes."""
    old = list(piece.states)
    new = list(old)
    for i, tr in enumerate(piece.definition.traits):
        if tr.id != "emb2;":
            continue
        f = tr.fields()
        name = f[18] if len(f) > 18 else ""
        if name in layers:
            try:
                level = abs(int(old[i])) or 1
            except ValueError:
                level = 1
            new[i] = str(level if layers[name] else -level)
    if new == old:
        return None
    return ChangePiece(piece.id, join_chain(new), join_chain(old))
