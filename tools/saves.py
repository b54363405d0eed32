"""Test support for saves (never installed; for tests, fuzzing and benchmarks): synthetic saves and
logs shaped like real ones, a new save written from placed pieces, a module's palette pieces read
back, and the game of a save file.

The pieces carry the trait chain of the corpus module's units (layer, area of effect, movement
trail, rotation, send-to, mark-moved, three report actions, clone, delete, property sheet, marker,
BasicPiece), stacked 1-3 high. ``style`` picks what a VASSAL version writes: ``"3.7"`` (map in every
BasicPiece state, ``UniqueID`` property, ``@@1`` stack layer), ``"3.6"`` (``null`` map for the upper
pieces of a stack, no properties) or ``"3.2"`` (``map;x;y;gpid`` only, no stack layer).
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from gazala_tools.errors import VassalFormatError
from gazala_tools.fileio import atomic_write_bytes, refuse_overwrite
from gazala_tools.games import default_game_id
from gazala_tools.referee.detect import game_for_module_name, game_of_module_file
from gazala_tools.vassal.buildfile import open_source, parse_xml
from gazala_tools.vassal.importer.reader import expand_prototypes
from gazala_tools.vsav import sequence
from gazala_tools.vsav.commands import Node, to_text
from gazala_tools.vsav.container import (
    MODULEDATA_ENTRY,
    SAVEDATA_ENTRY,
    SAVEFILE_ENTRY,
    read_container,
)
from gazala_tools.vsav.sequence import ESC, TAB
from gazala_tools.vsav.traits import BasicState, PieceDef, decode_piece, join_chain
from gazala_tools.vsav.writer import SlotPiece, build_zip, encode_savefile, metadata_xml

UNIT_TRAITS = [
    "emb2;Flip;128;A;;128;;;128;;;;1;false;0;0;{img}-r.png;;true;Flip;;;false;;1;1;false;70,130;;;Flip;1.0;;true",
    "AreaOfEffect;102,102,102;30;1;false;Show ZOC;90,195;;true;;ZOC;;;;;;true",
    "footprint;84,130;Movement Trail;false;false;10;255,255,255;0,0,0;100;50;20;30;1.0;;;;",
    "rotate;6;93,130;91,130;Rotate CW;Rotate CCW;;;;;;;;true",
    "sendto;Deadpile;69,130;DeadPile;DeadPile;50;50;;;;0;0;0;Send to Deadpile;L;;;;",
    "markmoved;moved.gif;35;-35;Mark Moved;77,130;",
    "report;68\\,130;$oldPieceName$ deleted;;;Delete;false",
    "label;76,130;Change Label;10;;0,0,0;t;0;c;0;b;c;$pieceName$ ($label$);Dialog;0;0;TextLabel;;false",
    "clone;Clone;67,130;",
    "delete;Delete;68,130;",
    "propertysheet;0Notes;Notes;;2;;;;78,130;",
    "PROP;Steps;true,0,10,false;Increase:73\\,130:I\\,1;",
    "mark;Side,Class",
]
UNIT_STATES = ["-1", "false", "false;;0", "0", ";;", "false", "-1", "", "", "", "~", "2", "{side},Infantry"]


def unit(i: int) -> tuple[str, str, str]:
    """(name, FULLTYPE, FULLSTATE-without-BasicPiece) of sample unit ``i``."""
    name = f"unit-{i:05d}"
    types = [t.replace("{img}", name) for t in UNIT_TRAITS] + [f"piece;;;{name}.png;{name}"]
    side = "Allies" if i % 2 else "Axis"
    states = [s.replace("{side}", side) for s in UNIT_STATES]
    return name, join_chain(types), join_chain([*states, "{basic}"])


def sample_commands(
    n_pieces: int,
    *,
    style: str = "3.7",
    map_id: str = "Main Map",
    first_id: int = 1_700_000_000_000,
    log_steps: int = 0,
) -> str:
    """The command string of a save with ``n_pieces`` units (and ``log_steps`` LOG entries: a .vlog)."""
    adds: list[str] = [""]
    stacks: list[tuple[str, list[str], int, int]] = []
    pid = first_id
    i = 0
    while i < n_pieces:
        height = 1 + (i % 3)
        members: list[str] = []
        x, y = 100 + (i * 37) % 3000, 100 + (i * 53) % 2000
        for k in range(min(height, n_pieces - i)):
            _name, ftype, fstate = unit(i)
            id_ = str(pid)
            pid += 1
            if style == "3.2":
                basic = f"{map_id};{x};{y};{100 + i % 10}"
            elif style == "3.6":
                basic = f"{map_id if k == 0 else 'null'};{x};{y};{100 + i % 10};0"
            else:
                basic = f"{map_id};{x};{y};{100 + i % 10};1;UniqueID;{id_}"
            state = fstate.replace("{basic}", basic)
            adds.append("+/" + sequence.encode([id_, ftype, state], "/"))
            members.append(id_)
            i += 1
        sid = str(pid)
        pid += 1
        stacks.append((sid, members, x, y))
        layer = [] if style == "3.2" else ["@@1"]
        adds.append("+/" + sequence.encode([sid, "stack", sequence.encode([map_id, str(x), str(y), *members, *layer], ";")], "/"))
    items = ["begin_save", "", sequence.encode(adds, ESC)]
    items.append(sequence.encode([f"{map_id}BoardPicker", "Map", "0", "0"], TAB))
    items.append(sequence.encode(["PLAYER", "u1", "me", "Allies"], TAB))
    items.append("GlobalProperty\t;VP;3;Module")
    items.append("TURNTurnTracker0\t0|1;0;false;-1")
    items.append("end_save")
    for s in range(log_steps):
        sid, members, x, y = stacks[s % len(stacks)]
        mover = members[-1]
        kind = s % 4
        if kind == 0:
            step = "M/" + sequence.encode([mover, map_id, str(x + 75), str(y), "null", map_id, str(x), str(y), sid, "u1"], "/")
        elif kind == 1:
            step = sequence.encode(["UNDO", "false"], TAB)
            items.append(step)
            continue
        elif kind == 2:
            step = sequence.encode(["CHAT<me> moving on", ""], ESC)
        else:
            first = int(members[0]) - first_id
            _n, _t, fstate = unit(first)
            basic = f"{map_id};{x};{y};{100 + first % 10};1;UniqueID;{members[0]}"
            new = fstate.replace("{basic}", basic)
            step = "D/" + sequence.encode([members[0], "1" + new[2:], new], "/")
        items.append("LOG\t" + step)
    return sequence.encode(items, ESC)


#: every container form a reader must handle: (zipped, savedGame encoding)
FORMS = [(True, "vcsk"), (True, "plain"), (True, "xz"), (True, "vobs"), (False, "vcsk"), (False, "plain"), (False, "xz")]


def sample_file(text: str, *, zipped: bool = True, encoding: str = "vcsk", key: int = 0x5A) -> bytes:
    """``text`` as a save file: a zip with ``savedGame``/``savedata``/``moduledata``, or bare."""
    payload = encode_savefile(text, encoding=encoding, key=key)
    if not zipped:
        return payload
    meta = b'<?xml version="1.0" encoding="UTF-8"?><data version="1"><VassalVersion>3.7.9</VassalVersion></data>'
    mod = b'<?xml version="1.0" encoding="UTF-8"?><data version="1"><name>Sample</name></data>'
    return build_zip([("savedGame", payload), ("savedata", meta), ("moduledata", mod)])


def write_new_save(
    out: str | Path,
    tree: Node,
    *,
    module_name: str,
    module_version: str = "",
    vassal_version: str = "3.6.0",
    description: str = "",
    encoding: str = "vcsk",
    key: int | None = None,
    zipped: bool = True,
    inputs: Iterable[str | Path] = (),
) -> bytes:
    """Write a save holding ``tree`` (atomically; never over one of ``inputs``); returns its bytes."""
    refuse_overwrite(out, inputs)
    payload = encode_savefile(to_text(tree), encoding=encoding, key=key)
    if zipped:
        now = str(int(time.time() * 1000))
        common = {"version": module_version, "VassalVersion": vassal_version, "dateSaved": now}
        data = build_zip(
            [
                (SAVEFILE_ENTRY, payload),
                (SAVEDATA_ENTRY, metadata_xml({**common, "description": description}, with_name=False)),
                (MODULEDATA_ENTRY, metadata_xml({**common, "name": module_name}, with_name=True)),
            ]
        )
    else:
        data = payload
    atomic_write_bytes(out, data)
    return data


def _slot_text(text: str, file: str, what: str) -> tuple[str, str]:
    body = (text or "").strip()
    if not body.startswith("+/"):
        raise VassalFormatError(f"{what} body is not an AddPiece command", file=file, expected="+/null/TYPE/STATE")
    t = sequence.decode(body[2:], "/")
    if len(t) < 3:
        raise VassalFormatError(f"{what} body has {len(t)} fields", file=file, expected="+/null/TYPE/STATE")
    return t[1], t[2]


def _text(el: Any) -> str:
    """``Builder.getText``: the element's text nodes (CDATA is ignored by VASSAL; lxml merges it)."""
    return "".join(t for t in el.itertext() if isinstance(t, str))


def module_pieces(source: str | Path) -> list[SlotPiece]:
    """Every PieceSlot of a module (.vmod / buildFile), in document order, prototypes expanded."""
    src = open_source(source)
    root = parse_xml(src.xml, src.path)
    file = str(src.path)
    prototypes: dict[str, PieceDef] = {}
    for el in root.iter("VASSAL.build.module.PrototypeDefinition"):
        type_, state = _slot_text(_text(el), file, f"prototype {el.get('name')!r}")
        prototypes[el.get("name", "")] = decode_piece(type_, state, file=file, place=f"prototype {el.get('name')!r}")
    out: list[SlotPiece] = []
    for el in root.iter("VASSAL.build.widget.PieceSlot"):
        name = el.get("entryName", "")
        type_, state = _slot_text(_text(el), file, f"piece slot {name!r}")
        d = expand_prototypes(decode_piece(type_, state, file=file, place=f"piece slot {name!r}"), prototypes)
        basic = BasicState.parse(d.basic.state)
        gpid = el.get("gpid") or basic.gpid
        basic.gpid = gpid
        states = [t.state for t in d.traits]
        states[-1] = basic.encode()
        out.append(SlotPiece(name, gpid, d.type_string(), join_chain(states)))
    return out


def game_of_save(path: str | Path, module: str | Path | None = None) -> str:
    """The game of a save: from its own ``moduledata``, else the ``--module``'s, else the default.

    Reads only the container layer (zip and metadata), not the commands.
    """
    game = game_for_module_name(read_container(path).module_name)
    if game is None and module is not None:
        got = game_of_module_file(Path(module))
        game = got.id if got is not None else None
    return game or default_game_id()
