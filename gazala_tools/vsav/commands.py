"""The command model: a save's command string as a tree of typed commands, and back.

``GameModule.decode``: a string with an unescaped ESC is a chain; its ESC tokens are each decoded
again (one level of escaping less) and the results chained in order; a string without one is a single
command, recognised by its prefix. Every node keeps the exact text it was read from (``raw``), so
writing an untouched node gives back the same bytes; :func:`to_text` with ``preserve=False``
re-encodes every node from its fields instead (the round-trip tests use that).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field

from gazala_tools.errors import VassalFormatError
from gazala_tools.vsav import sequence
from gazala_tools.vsav.sequence import ESC, TAB

__all__ = [
    "MAX_DEPTH",
    "MAX_NESTED_CHARS",
    "MAX_NESTED_FACTOR",
    "AddPiece",
    "Audio",
    "BeginSave",
    "ChangePiece",
    "Chat",
    "Command",
    "Empty",
    "EndSave",
    "GlobalProperty",
    "Group",
    "Log",
    "MoveFields",
    "MovePiece",
    "Node",
    "Notes",
    "Player",
    "RemovePiece",
    "SetBoards",
    "SetupStack",
    "Turn",
    "Undo",
    "Verbatim",
    "count_kinds",
    "parse",
    "to_text",
    "walk",
]

#: deepest nesting of command chains (and LOG wrappers) accepted
MAX_DEPTH = 200
#: nested command text held in all, as a multiple of the save's command text (real saves: about 3)
MAX_NESTED_FACTOR = 8
#: nested command text held in all, at most (characters)
MAX_NESTED_CHARS = 384 * 1024 * 1024


class Node:
    """A node of the command tree. ``raw`` is the text it was read from (None when built)."""

    __slots__ = ("raw",)
    kind = "node"

    def __init__(self, raw: str | None = None) -> None:
        self.raw = raw

    def encode(self, preserve: bool = True) -> str:  # pragma: no cover - overridden
        raise NotImplementedError


class Group(Node):
    """A chain: ``SequenceEncoder(ESC)`` of its items' encodings (first item = the head command)."""

    __slots__ = ("items",)
    kind = "group"

    def __init__(self, items: list[Node], raw: str | None = None) -> None:
        super().__init__(raw)
        self.items = items

    def encode(self, preserve: bool = True) -> str:
        if preserve and self.raw is not None:
            return self.raw
        return sequence.encode([i.encode(preserve) for i in self.items], ESC)

    def __repr__(self) -> str:
        return f"Group({self.items!r})"


class Command(Node):
    """A single command. Subclasses with fields re-encode from them; the rest are kept as text."""

    __slots__ = ()

    def encode(self, preserve: bool = True) -> str:
        if preserve and self.raw is not None:
            return self.raw
        return self.build()

    def build(self) -> str:
        return self.raw or ""

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.encode()!r})"


class Verbatim(Command):
    """A command we do not interpret; its text is kept exactly."""

    __slots__ = ()
    kind = "unknown"

    def __init__(self, raw: str) -> None:
        super().__init__(raw)


class Empty(Verbatim):
    """The empty token (VASSAL's version check, or any command no encoder knows)."""

    __slots__ = ()
    kind = "empty"


class BeginSave(Verbatim):
    __slots__ = ()
    kind = "begin_save"


class EndSave(Verbatim):
    __slots__ = ()
    kind = "end_save"


class SetupStack(Verbatim):
    __slots__ = ()
    kind = "setup_stack"


class Chat(Verbatim):
    __slots__ = ()
    kind = "chat"


class Audio(Verbatim):
    __slots__ = ()
    kind = "audio"


class Notes(Verbatim):
    __slots__ = ()
    kind = "notes"


class Undo(Verbatim):
    __slots__ = ()
    kind = "undo"


class Turn(Verbatim):
    """``TURN<trackerId>⇥<state>``."""

    __slots__ = ()
    kind = "turn"

    @property
    def tracker(self) -> str:
        return (self.raw or "")[4:].split(TAB, 1)[0]

    @property
    def state(self) -> str:
        parts = (self.raw or "").split(TAB, 1)
        return parts[1] if len(parts) > 1 else ""


def _wrap(value: str | None) -> str:
    return "null" if value is None else value


def _unwrap(value: str) -> str | None:
    return None if value == "null" else value


class AddPiece(Command):
    """``+/id/FULLTYPE/FULLSTATE``: create a piece (or a ``stack``/``deck;``) with that state."""

    __slots__ = ("extra", "id", "state", "type")
    kind = "add"

    def __init__(self, id: str | None, type: str, state: str, extra: tuple[str, ...] = (), raw: str | None = None):
        super().__init__(raw)
        self.id = id
        self.type = type
        self.state = state
        self.extra = extra

    def build(self) -> str:
        return "+/" + sequence.encode([_wrap(self.id), self.type, self.state, *self.extra], "/")


class RemovePiece(Command):
    __slots__ = ("id",)
    kind = "remove"

    def __init__(self, id: str, raw: str | None = None) -> None:
        super().__init__(raw)
        self.id = id

    def build(self) -> str:
        return "-/" + self.id


class ChangePiece(Command):
    """``D/id/newState[/oldState]``."""

    __slots__ = ("extra", "id", "new_state", "old_state")
    kind = "change"

    def __init__(
        self,
        id: str,
        new_state: str,
        old_state: str | None = None,
        extra: tuple[str, ...] = (),
        raw: str | None = None,
    ) -> None:
        super().__init__(raw)
        self.id = id
        self.new_state = new_state
        self.old_state = old_state
        self.extra = extra

    def build(self) -> str:
        tokens = [self.id, self.new_state]
        if self.old_state is not None:
            tokens.append(self.old_state)
        return "D/" + sequence.encode([*tokens, *self.extra], "/")


@dataclass(slots=True)
class MoveFields:
    id: str
    new_map: str | None
    new_x: int
    new_y: int
    new_under: str | None
    old_map: str | None
    old_x: int
    old_y: int
    old_under: str | None
    player: str | None
    tokens: list[str] = field(default_factory=list)  #: the decoded tokens as read


class MovePiece(Command):
    """``M/id/newMap/newX/newY/newUnder/oldMap/oldX/oldY/oldUnder/player``."""

    __slots__ = ("move",)
    kind = "move"

    def __init__(self, move: MoveFields, raw: str | None = None) -> None:
        super().__init__(raw)
        self.move = move

    def build(self) -> str:
        m = self.move
        if m.tokens:
            return "M/" + sequence.encode(m.tokens, "/")
        tokens = [
            m.id, _wrap(m.new_map), str(m.new_x), str(m.new_y), _wrap(m.new_under),
            _wrap(m.old_map), str(m.old_x), str(m.old_y), _wrap(m.old_under),
        ]
        if m.player is not None:
            tokens.append(m.player)
        return "M/" + sequence.encode(tokens, "/")


class SetBoards(Command):
    """``<mapId>BoardPicker⇥board⇥col⇥row⇥...`` (a board name may end in ``/rev``)."""

    __slots__ = ("boards", "map_id")
    kind = "set_boards"

    def __init__(self, map_id: str, boards: list[tuple[str, int, int]], raw: str | None = None) -> None:
        super().__init__(raw)
        self.map_id = map_id
        self.boards = boards

    def build(self) -> str:
        tokens = [self.map_id + "BoardPicker"]
        for name, col, row in self.boards:
            tokens += [name, str(col), str(row)]
        return sequence.encode(tokens, TAB)


class Player(Command):
    """``PLAYER⇥id⇥name⇥side``."""

    __slots__ = ("tokens",)
    kind = "player"

    def __init__(self, tokens: list[str], raw: str | None = None) -> None:
        super().__init__(raw)
        self.tokens = tokens

    def build(self) -> str:
        return sequence.encode(["PLAYER", *self.tokens], TAB)


class GlobalProperty(Command):
    """``GlobalProperty⇥;name;value;container``."""

    __slots__ = ("tokens",)
    kind = "global_property"

    def __init__(self, tokens: list[str], raw: str | None = None) -> None:
        super().__init__(raw)
        self.tokens = tokens  #: name, value, container, ...

    def build(self) -> str:
        return sequence.encode(["GlobalProperty\t", *self.tokens], ";")


class Log(Command):
    """``LOG⇥<encoded command>`` in a ``.vlog``: a step replayed after loading."""

    __slots__ = ("logged",)
    kind = "log"

    def __init__(self, logged: Node, raw: str | None = None) -> None:
        super().__init__(raw)
        self.logged = logged

    def encode(self, preserve: bool = True) -> str:
        if preserve and self.raw is not None:
            return self.raw
        return "LOG\t" + self.logged.encode(preserve)


_SIMPLE: dict[str, type[Verbatim]] = {"begin_save": BeginSave, "end_save": EndSave, "SETUP_STACK\t": SetupStack}


class _Parser:
    def __init__(self, file: str, size: int = 0) -> None:
        self.file = file
        self.index = 0  #: running index of single commands (pre-order), for error places
        #: characters the nested levels may hold in all (each level keeps its text for exact copies):
        #: real saves use about 3 x their size; a chain nested 199 deep would use 199 x
        self.budget = min(MAX_NESTED_FACTOR * size + (1 << 20), MAX_NESTED_CHARS)

    def fail(self, problem: str, expected: str) -> VassalFormatError:
        return VassalFormatError(problem, file=self.file, place=f"command {self.index}", expected=expected)

    def node(self, text: str, depth: int) -> Node:
        if depth > MAX_DEPTH:
            raise self.fail(f"commands nested deeper than {MAX_DEPTH} levels", "a shallower command tree")
        self.budget -= len(text)
        if self.budget < 0:
            raise self.fail("commands nested so deep that decoding them would hold too many copies",
                            f"at most {MAX_NESTED_FACTOR} x the save's size in nested command text")
        if ESC not in text:
            if text[:1] == "'" and len(text) > 1 and text[-1] == "'":
                # GameModule.decode: the single token differs from the text (quotes stripped)
                return Group([self.node(text[1:-1], depth + 1)], raw=text)
            return self.leaf(text, depth)
        tokens = sequence.decode(text, ESC)
        if len(tokens) == 1:
            return Group([self.node(tokens[0], depth + 1)], raw=text)
        return Group([self.node(t, depth + 1) for t in tokens], raw=text)

    def leaf(self, text: str, depth: int) -> Node:
        index = self.index
        self.index += 1
        head = text[:2]
        if head == "+/":
            t = sequence.decode(text[2:], "/")
            if len(t) < 3:
                raise self.fail_at(index, "AddPiece with fewer than 3 fields", "+/id/type/state")
            return AddPiece(_unwrap(t[0]), t[1], t[2], tuple(t[3:]), raw=text)
        if head == "M/":
            return MovePiece(self.move(text, index), raw=text)
        if head == "D/":
            t = sequence.decode(text[2:], "/")
            if len(t) < 2:
                raise self.fail_at(index, "ChangePiece with fewer than 2 fields", "D/id/newState[/oldState]")
            return ChangePiece(t[0], t[1], t[2] if len(t) > 2 else None, tuple(t[3:]), raw=text)
        if head == "-/":
            return RemovePiece(text[2:], raw=text)
        if not text:
            return Empty(text)
        simple = _SIMPLE.get(text)
        if simple is not None:
            return simple(text)
        if text.startswith("LOG\t"):
            return Log(self.node(text[4:], depth + 1), raw=text)
        if text.startswith("PLAYER\t"):
            return Player(sequence.decode(text, TAB)[1:], raw=text)
        if text.startswith("GlobalProperty\t"):
            return GlobalProperty(sequence.decode(text, ";")[1:], raw=text)
        if text.startswith("TURN"):
            return Turn(text)
        if text.startswith("UNDO\t"):
            return Undo(text)
        if text.startswith("CHAT"):
            return Chat(text)
        if text.startswith("AUDIO\t"):
            return Audio(text)
        if text.startswith(("NOTES\t", "PNOTES\t")):
            return Notes(text)
        first = text.split(TAB, 1)[0]
        if first.endswith("BoardPicker") and TAB in text:
            return self.boards(text, index)
        return Verbatim(text)

    def fail_at(self, index: int, problem: str, expected: str) -> VassalFormatError:
        return VassalFormatError(problem, file=self.file, place=f"command {index}", expected=expected)

    def move(self, text: str, index: int) -> MoveFields:
        t = sequence.decode(text[2:], "/")
        if len(t) < 9:
            raise self.fail_at(index, f"MovePiece with {len(t)} fields", "M/id/newMap/newX/newY/newUnder/oldMap/oldX/oldY/oldUnder[/player]")
        try:
            nx, ny, ox, oy = (sequence.java_int(t[i]) for i in (2, 3, 6, 7))
        except ValueError as exc:
            raise self.fail_at(index, f"MovePiece coordinate {exc.args[0]!r} is not an integer", "integer x and y") from None
        return MoveFields(
            t[0], _unwrap(t[1]), nx, ny, _unwrap(t[4]), _unwrap(t[5]), ox, oy, _unwrap(t[8]),
            t[9] if len(t) > 9 else None, t,
        )

    def boards(self, text: str, index: int) -> SetBoards:
        t = sequence.decode(text, TAB)
        map_id = t[0][: -len("BoardPicker")]
        boards: list[tuple[str, int, int]] = []
        rest = t[1:]
        if len(rest) % 3:
            raise self.fail_at(index, f"SetBoards for {map_id!r} has {len(rest)} fields", "board, column, row triples")
        for i in range(0, len(rest), 3):
            try:
                boards.append((rest[i], sequence.java_int(rest[i + 1]), sequence.java_int(rest[i + 2])))
            except ValueError:
                raise self.fail_at(index, f"SetBoards position {rest[i + 1]!r},{rest[i + 2]!r} is not integer", "integer column and row") from None
        return SetBoards(map_id, boards, raw=text)


def parse(text: str, *, file: str = "<commands>") -> Node:
    """The command tree of a command string."""
    return _Parser(file, len(text)).node(text, 0)


def to_text(node: Node, *, preserve: bool = True) -> str:
    """The command string of a tree (``preserve``: untouched nodes give their original text)."""
    return node.encode(preserve)


def walk(node: Node, *, into_logs: bool = True) -> Iterator[Node]:
    """Single commands in execution (= text) order; LOG steps are entered when ``into_logs``."""
    stack: list[Node] = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, Group):
            stack.extend(reversed(n.items))
        else:
            yield n
            if into_logs and isinstance(n, Log):
                stack.append(n.logged)


def count_kinds(node: Node) -> dict[str, int]:
    """How many commands of each kind (LOG steps counted as ``log`` and by what they hold)."""
    return dict(Counter(n.kind for n in walk(node)))
