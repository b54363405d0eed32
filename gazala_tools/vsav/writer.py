"""Write saves: a new ``.vsav`` from placed pieces, or a modified copy of an existing save.

A new save is what VASSAL itself writes (§4.5): ``begin_save``, the empty version-check token, one
chain of AddPiece commands (stacked pieces before their Stack), SetBoards, PLAYER lines, optionally
``SETUP_STACK``, ``end_save``; obfuscated (``!VCSK``) in a zip with ``savedata`` and ``moduledata``.
A modified copy keeps every untouched command's exact text, the obfuscation key and every other zip
entry byte for byte. Output is atomic and never replaces an input.
"""

from __future__ import annotations

import io
import lzma
import os
import time
import zipfile
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from xml.sax.saxutils import escape

from gazala_tools.errors import GazalaError, VassalFormatError
from gazala_tools.fileio import atomic_write_bytes, refuse_overwrite
from gazala_tools.vsav import sequence
from gazala_tools.vsav.commands import (
    AddPiece,
    BeginSave,
    Empty,
    EndSave,
    Group,
    Node,
    Player,
    RemovePiece,
    SetBoards,
    SetupStack,
    to_text,
)
from gazala_tools.vsav.container import (
    SAVEFILE_ENTRY,
    SaveContainer,
)
from gazala_tools.vsav.traits import BasicState, decode_piece, join_chain

__all__ = [
    "PiecePlacement",
    "SaveEditor",
    "SlotPiece",
    "build_zip",
    "check_id",
    "encode_savefile",
    "metadata_xml",
    "new_save_tree",
    "placement_commands",
    "stacks_allowed",
    "write_copy",
]

#: characters a piece id must not contain (§4.5)
_BAD_ID_CHARS = set("/;,\t\x1b\\")


@dataclass
class PiecePlacement:
    """A piece to put on a map: its FULLTYPE, a FULLSTATE template, and where it goes.

    ``type``/``state`` are typically a PieceSlot's (``+/null/TYPE/STATE``) with prototypes expanded;
    the BasicPiece state's map, x and y are replaced (gpid and properties kept).
    """

    type: str
    state: str
    map: str
    x: int
    y: int
    id: str | None = None
    properties: dict[str, str] = field(default_factory=dict)  #: extra BasicPiece persistent properties


def check_id(pid: str) -> str:
    if not pid or pid == "null" or any(c in _BAD_ID_CHARS for c in pid):
        raise GazalaError(f"bad piece id {pid!r}", expected="a non-empty id without / ; , TAB, ESC or backslash, not 'null'")
    return pid


def stacks_allowed(type_: str) -> bool:
    """False when the piece has a Does-Not-Stack trait whose stacking char is ``R`` (or missing)."""
    for part in type_.split("\t"):
        part = part.lstrip("\\")
        if part.startswith("immob;"):
            fields = part[len("immob;") :].split(";")
            return len(fields) > 2 and fields[2][:1] == "L"
    return True


def _ids(first: int | None, taken: set[str]) -> Iterator[str]:
    n = int(time.time() * 1000) if first is None else first
    while True:
        s = str(n)
        if s not in taken:
            taken.add(s)
            yield s
        n += 1


def placement_commands(
    placements: Sequence[PiecePlacement],
    *,
    first_id: int | None = None,
    taken: Iterable[str] = (),
    unique_id: bool = True,
    stack: bool = True,
) -> list[AddPiece]:
    """AddPiece commands for the placements: pieces at one map point share a Stack (3.7 style)."""
    used = set(taken)
    for p in placements:
        if p.id is not None:
            if p.id in used:
                raise GazalaError(f"duplicate piece id {p.id!r}", expected="unique piece ids")
            used.add(check_id(p.id))
    fresh = _ids(first_id, used)
    out: list[AddPiece] = []
    groups: dict[tuple[str, int, int], list[str]] = {}
    order: list[tuple[str, int, int]] = []
    adds: dict[str, AddPiece] = {}
    for p in placements:
        pid = p.id if p.id is not None else next(fresh)
        definition = decode_piece(p.type, p.state, place="placement")
        basic = BasicState.parse(definition.basic.state)
        basic.map, basic.x, basic.y = p.map, p.x, p.y
        if unique_id:
            basic.properties["UniqueID"] = pid
        basic.properties.update(p.properties)
        states = [t.state for t in definition.traits]
        states[-1] = basic.encode()
        cmd = AddPiece(pid, p.type, join_chain(states))
        adds[pid] = cmd
        if stack and stacks_allowed(p.type):
            key = (p.map, p.x, p.y)
            if key not in groups:
                groups[key] = []
                order.append(key)
            groups[key].append(pid)
        else:
            out.append(cmd)
    for key in order:
        members = groups[key]
        out.extend(adds[m] for m in members)
        sid = next(fresh)
        state = sequence.encode([key[0], str(key[1]), str(key[2]), *members, "@@1"], ";")
        out.append(AddPiece(sid, "stack", state))
    return out


def new_save_tree(
    placements: Sequence[PiecePlacement],
    *,
    boards: dict[str, list[tuple[str, int, int]]] | None = None,
    players: Sequence[tuple[str, str, str]] = (),
    setup_stack: bool = False,
    first_id: int | None = None,
    unique_id: bool = True,
) -> Group:
    """The command tree of a new save holding ``placements``."""
    adds: list[Node] = [Empty(""), *placement_commands(placements, first_id=first_id, unique_id=unique_id)]
    items: list[Node] = [BeginSave("begin_save"), Empty(""), Group(adds)]
    for map_id, bs in (boards or {}).items():
        items.append(SetBoards(map_id, list(bs)))
    for pid, name, side in players:
        items.append(Player([pid, name, side]))
    if setup_stack:
        items.append(SetupStack("SETUP_STACK\t"))
    items.append(EndSave("end_save"))
    return Group(items)


def metadata_xml(fields: dict[str, str], *, with_name: bool) -> bytes:
    """``savedata``/``moduledata`` as VASSAL writes them."""
    order = ["version", "extra1", "extra2", "VassalVersion", "dateSaved", "description"]
    if with_name:
        order.append("name")
    lines = ['<?xml version="1.0" encoding="UTF-8" standalone="no"?>', '<data version="1">']
    for key in order:
        value = fields.get(key, "")
        lines.append(f"  <{key}>{escape(value)}</{key}>" if value else f"  <{key}/>")
    lines.append("</data>")
    return ("\n".join(lines) + "\n").encode("utf-8")


def encode_savefile(text: str, *, encoding: str = "vcsk", key: int | None = None) -> bytes:
    """The ``savedGame`` payload: ``!VCSK`` hex obfuscation (default), ``plain``, ``xz`` or ``vobs``."""
    data = text.encode("utf-8")
    if encoding == "plain":
        return data
    if encoding == "xz":
        return lzma.compress(data, format=lzma.FORMAT_XZ)
    k = (os.urandom(1)[0] if key is None else key) & 0xFF
    table = bytes(b ^ k for b in range(256))
    if encoding == "vobs":
        return b"VOBS" + bytes([k]) + data.translate(table)
    if encoding == "vcsk":
        return b"!VCSK" + f"{k:02x}".encode() + data.translate(table).hex().encode("ascii")
    raise ValueError(f"unknown save encoding {encoding!r}")


def build_zip(entries: Sequence[tuple[zipfile.ZipInfo | str, bytes]]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for info, data in entries:
            if isinstance(info, str):
                zf.writestr(info, data)
            else:
                copy = zipfile.ZipInfo(info.filename, date_time=info.date_time)
                copy.compress_type = info.compress_type
                copy.external_attr = info.external_attr
                copy.comment = info.comment
                copy.extra = info.extra
                zf.writestr(copy, data)
    return buf.getvalue()


def write_copy(
    out: str | Path, container: SaveContainer, tree: Node, *, inputs: Iterable[str | Path] = ()
) -> bytes:
    """Write ``tree`` in ``container``'s form: same encoding and key, every other zip entry as it was."""
    srcs = list(inputs)
    if container.file and not container.file.startswith("<"):
        srcs.append(container.file)
    refuse_overwrite(out, srcs)
    payload = encode_savefile(to_text(tree), encoding=container.encoding, key=container.key)
    if container.zipped:
        entries: list[tuple[zipfile.ZipInfo | str, bytes]] = list(container.entries)
        save_info: zipfile.ZipInfo | str = container.save_info or SAVEFILE_ENTRY
        entries.insert(container.save_index, (save_info, payload))
        data = build_zip(entries)
    else:
        data = payload
    atomic_write_bytes(out, data)
    return data


class SaveEditor:
    """Changes to a decoded save's command tree that leave every other command's text untouched."""

    def __init__(self, tree: Node, *, file: str = "<save>") -> None:
        self.tree = tree
        self.file = file

    def _end_save(self) -> tuple[Group, int]:
        stack: list[Node] = [self.tree]
        while stack:
            node = stack.pop()
            if isinstance(node, Group):
                for i, item in enumerate(node.items):
                    if isinstance(item, EndSave):
                        return node, i
                stack.extend(reversed(node.items))
        raise VassalFormatError("save has no end_save command", file=self.file, expected="begin_save ... end_save")

    def _touch(self, target: Node) -> None:
        """Forget the raw text of every group on the way to ``target`` (they will be re-encoded)."""

        def visit(node: Node) -> bool:
            if node is target:
                return True
            if isinstance(node, Group):
                for item in node.items:
                    if visit(item):
                        node.raw = None
                        return True
            return False

        visit(self.tree)

    def piece_ids(self) -> set[str]:
        from gazala_tools.vsav.commands import walk

        return {n.id for n in walk(self.tree) if isinstance(n, AddPiece) and n.id is not None}

    def add(self, placements: Sequence[PiecePlacement], *, first_id: int | None = None, unique_id: bool = True) -> list[str]:
        """Add pieces (and their stacks) just before ``end_save``; returns the new ids."""
        group, at = self._end_save()
        cmds = placement_commands(placements, first_id=first_id, taken=self.piece_ids(), unique_id=unique_id)
        group.items[at:at] = cmds
        self._touch(group)
        group.raw = None
        return [c.id for c in cmds if c.id is not None and c.type != "stack"]

    def insert(self, commands: Sequence[Node]) -> None:
        """Insert commands (e.g. ChangePiece, MovePiece) just before ``end_save``, in order."""
        group, at = self._end_save()
        group.items[at:at] = list(commands)
        self._touch(group)
        group.raw = None

    def remove(self, ids: Iterable[str]) -> None:
        """Remove pieces: a RemovePiece command for each, just before ``end_save``."""
        self.insert([RemovePiece(check_id(i)) for i in ids])


@dataclass(frozen=True)
class SlotPiece:
    """A module's palette piece (PieceSlot), prototypes expanded as ``PieceCloner`` does."""

    name: str
    gpid: str
    type: str
    state: str

    def place(self, map_id: str, x: int, y: int, *, id: str | None = None) -> PiecePlacement:
        return PiecePlacement(self.type, self.state, map_id, x, y, id=id)
