"""What the core reads of a game folder's ``module.yaml`` (the module's build configuration, read in
full by ``gazala_tools.vassal.module.config``, which reads these parts with the functions here): the
board art the module shows, its holding boxes, and where the module lays the boxes out.

Each fact is stated once, in the folder's data, and read by one reader: the module builder and the
core (a save read without ``--module``, a report's board) agree by construction. Pure Python.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Final

import yaml

from gazala_tools.errors import GameDataError, GazalaError
from gazala_tools.inputs import sniff_image_file
from gazala_tools.yamlnodes import Doc, compose

if TYPE_CHECKING:  # pragma: no cover
    from gazala_tools.games.model import Game

__all__ = [
    "BOARD_KEYS",
    "BOARD_SUFFIXES",
    "BOXES_KEYS",
    "HOLDING_BOX",
    "HOLDING_COLUMNS",
    "MAX_BOXES",
    "NAME_RE",
    "RENDER",
    "TRACK_MARGIN",
    "TRACK_TOP",
    "BoxesConfig",
    "board_art",
    "box_rect",
    "boxes",
    "folder_file",
    "given_board",
    "holding_box_at",
    "holding_boxes",
    "name",
    "status_names",
]

#: ``board: art: render``: the board is drawn from the map data
RENDER: Final = "render"
BOARD_KEYS: Final = frozenset({"art", "dpi"})
BOARD_SUFFIXES: Final = (".png", ".jpg", ".jpeg", ".gif")
BOXES_KEYS: Final = frozenset({"map", "title", "names"})
#: what a name shown in the module may be: one line of 1-80 characters, not ending in a backslash
#: (VASSAL's SequenceEncoder would read it as escaping the separator after it)
NAME_RE: Final = re.compile(r"^[^\t\n\r]{0,79}[^\t\n\r\\]$")
MAX_BOXES: Final = 1000

#: a track's (and the holding boxes') board: a margin round the boxes, room for the title above
TRACK_MARGIN = 20
TRACK_TOP = 56
#: the holding boxes (``module.yaml`` ``boxes``): squares of this many pixels, at most this many a row
HOLDING_BOX = 160
HOLDING_COLUMNS = 5


@dataclass(frozen=True)
class BoxesConfig:
    """Named holding boxes (reinforcements, eliminated units ...) on a map of their own."""

    map: str
    title: str
    names: tuple[str, ...]


def box_rect(i: int, *, columns: int, box: int, margin: int = TRACK_MARGIN, top: int = TRACK_TOP) -> tuple[int, int, int, int]:
    """Box ``i`` of a track's board, boxes in rows of ``columns``: left, top, right, bottom (right
    and bottom exclusive)."""
    r, c = divmod(i, columns)
    x, y = margin + c * box, top + r * box
    return x, y, x + box, y + box


def name(doc: Doc, node: yaml.Node, what: str) -> str:
    """A name the module shows (:data:`NAME_RE`)."""
    text = doc.scalar(node, what).strip()
    if not NAME_RE.match(text):
        raise doc.err(node, f"{what}: {text!r} is not a name", expected="one line of 1-80 characters, not ending in a backslash")
    return text


def folder_file(doc: Doc, game: Game, node: yaml.Node, what: str, suffixes: tuple[str, ...]) -> Path:
    """A file of the game folder named in the config (``game.file``: never outside the folder)."""
    text = doc.scalar(node, what)
    try:
        p = game.file(text, what=f"{what}:")
    except GazalaError as exc:  # outside the folder, a symlink loop, a NUL byte (docs/games.md)
        raise doc.err(node, exc.problem, expected=exc.expected) from None
    if p.suffix.lower() not in suffixes and not (suffixes == BOARD_SUFFIXES and p.is_file()
                                                 and sniff_image_file(p, what=what) in ("PNG", "JPEG", "GIF")):
        # an image is known by its bytes (issue 33 item 3): a module's board image may have no extension
        raise doc.err(node, f"{what}: {text!r} is not a {' / '.join(suffixes)} file")
    if not p.is_file():
        raise doc.err(node, f"{what}: {text!r} not found in the game folder", expected=f"a file of {game.folder}")
    return p


def board_art(doc: Doc, game: Game, board: dict[str, yaml.Node]) -> Path | None:
    """The board image of ``module.yaml``'s ``board`` section, or None: drawn from the map data."""
    if "art" not in board or doc.scalar(board["art"], "board.art") == RENDER:
        return None
    return folder_file(doc, game, board["art"], "board.art", BOARD_SUFFIXES)


def boxes(doc: Doc, node: yaml.Node) -> BoxesConfig:
    """``module.yaml``'s ``boxes: {map, title, names}``."""
    x = doc.mapping(node, "boxes", BOXES_KEYS)
    doc.require(x, node, "boxes", "map", "names")
    names = tuple(name(doc, n, f"boxes.names[{i}]") for i, n in enumerate(doc.seq(x["names"], "boxes.names")))
    if not names or len(names) > MAX_BOXES or len(set(names)) != len(names):
        raise doc.err(x["names"], f"boxes.names: {len(names)} names", expected=f"1 to {MAX_BOXES} distinct names")
    mp = name(doc, x["map"], "boxes.map")
    return BoxesConfig(mp, doc.scalar(x["title"], "boxes.title") if "title" in x else mp, names)


def _top(game: Game) -> tuple[Doc, dict[str, yaml.Node]] | None:
    file = game.module_config
    if file is None:
        return None
    doc = Doc(file, GameDataError)
    return doc, doc.mapping(compose(file, "module config", GameDataError), "module config")


def given_board(game: Game | None) -> Path | None:
    """The board image the game's module shows (``module.yaml``'s ``board: art``), or None: drawn."""
    top = _top(game) if game is not None else None
    if game is None or top is None:
        return None
    doc, m = top
    return board_art(doc, game, doc.mapping(m["board"], "board", BOARD_KEYS) if "board" in m else {})


def holding_boxes(game: Game) -> BoxesConfig | None:
    """The game folder's holding boxes (``module.yaml`` ``boxes``), or None; a file the module build
    would refuse names none (the build says why)."""
    if game.module_config is None or not game.module_config.is_file():
        return None
    try:
        top = _top(game)
        if top is None or "boxes" not in top[1]:
            return None
        return boxes(top[0], top[1]["boxes"])
    except GameDataError:
        return None


def holding_box_at(game: Game) -> Callable[[str, int, int], str | None] | None:
    """Which of the game folder's holding boxes a point of their map lies in, as the module built
    from the folder lays them out (None: no holding boxes). A save read without ``--module`` names the
    box of a unit in one so, as the module's zones would."""
    got = holding_boxes(game)
    if got is None:
        return None
    columns = min(HOLDING_COLUMNS, len(got.names))
    rects = [(box_rect(i, columns=columns, box=HOLDING_BOX), n) for i, n in enumerate(got.names)]

    def at(on_map: str, x: int, y: int) -> str | None:
        if on_map != got.map:
            return None
        return next((n for (x0, y0, x1, y1), n in rects if x0 <= x < x1 and y0 <= y < y1), None)

    return at


def status_names(game: Game) -> tuple[str, ...]:
    """The names of the status layers the game's module gives every unit (``module.yaml``
    ``prototypes.status[].name``): a game whose rules data declares no ``markers`` has these (and the
    builder's own ``Used``) as its markers. A file the module build would refuse names none."""
    if game.module_config is None or not game.module_config.is_file():
        return ()
    try:
        top = _top(game)
        if top is None or "prototypes" not in top[1]:
            return ()
        doc, m = top
        pr = doc.mapping(m["prototypes"], "prototypes")
        if "status" not in pr:
            return ()
        return tuple(name(doc, doc.mapping(n, "prototypes.status")["name"], "prototypes.status.name")
                     for n in doc.seq(pr["status"], "prototypes.status"))
    except (GameDataError, KeyError):
        return ()
