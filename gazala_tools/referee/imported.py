"""The referee on an imported module's own saves and logs (issue 35 item 3).

A folder written by ``gazala game import`` has ``units.yaml``: for each of the module's piece slots
(counter id) its ``gpid``, ``name``, ``kind`` (``unit``, ``marker`` or ``counter``), ``side``, ``type``,
``factors`` and ``move`` (inferred, then corrected by the user), and ``main-grid``: the map, board and
zone whose hexes ``map.yaml`` labels. A piece of a save is the slot whose gpid it carries (else whose
name is its BasicPiece name); a unit's hex is found from its **pixel point**: the board the save lays
out under it (the save's own SetBoards, as the engine lays boards out: the caller gives the module's
layouts, read by the edge that knows the module format), the point on that board, and the hex of
``map.yaml``'s geometry that VASSAL's naming puts it in. No VASSAL location name is needed, so a grid
without numbering (labels of ours) is read like a numbered one. A unit off the main grid stands in a
box named after the zone of its board it stands in, else after its map.

:func:`positions_findings` gives what a report shows with no rules written: each side's units per
hex (stacking counts) and the table of positions.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from gazala_tools.errors import GazalaError
from gazala_tools.filecache import FileCache
from gazala_tools.grid import raw_to_hex
from gazala_tools.hexgrid import HexGridGeometry, MapLayout, ZonedGrid
from gazala_tools.inputs import read_text
from gazala_tools.numbering import Numbering
from gazala_tools.referee.findings import Finding, Severity
from gazala_tools.referee.position import Position, Unit
from gazala_tools.squaregrid import SquareGameGrid, SquareGridGeometry
from gazala_tools.squaregrid import toolkit_numbering as toolkit_square_numbering
from gazala_tools.yamlnodes import did_you_mean

__all__ = [
    "ENTRY_KEYS",
    "KINDS",
    "MAX_UNITS_BYTES",
    "OTHER_GRIDS",
    "POSITIONS",
    "REPORT_FILE",
    "UNITS_FILE",
    "Entry",
    "ImportedPieces",
    "PieceTable",
    "check_module_name",
    "is_imported",
    "other_label",
    "piece_table",
    "positions_findings",
    "recorded_module",
    "toolkit_numbering",
]

if TYPE_CHECKING:  # pragma: no cover
    from gazala_tools.games import Game
    from gazala_tools.hexes import Hex
    from gazala_tools.referee.bound import BoundData
    from gazala_tools.vsav import PieceView

UNITS_FILE = "units.yaml"
#: the import's report, whose ``module:`` names the module the folder was imported from
REPORT_FILE = "import-report.yaml"
KINDS = ("unit", "marker", "counter")
ENTRY_KEYS = frozenset({"name", "gpid", "kind", "side", "type", "factors", "move"})
#: largest units.yaml read
MAX_UNITS_BYTES = 64 * 1024 * 1024
#: the rule every finding of the positions table cites
POSITIONS = "positions"
#: ``Position.extra`` key (never interpreted by the rules): unit id -> its hex on a grid other than map.yaml's
OTHER_GRIDS = "hexes of other grids"
_Loader: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
#: a counter's id in counters.yaml as ``game import`` writes it (``- id: ID``) or an editor writes it again
#: (indented, ``-   id:``, ``- {id: ID, ...}``): read without parsing the whole manifest (the 1 s budget)
_COUNTER_ID = re.compile(r"^[ \t]*-[ \t]+\{?[ \t]*id:[ \t]*['\"]?([^'\"\s,}]+)", re.M)


@dataclass(frozen=True, slots=True)
class Entry:
    counter: str
    name: str
    gpid: str
    kind: str
    side: str
    type: str
    factors: str = ""
    move: int | None = None


@dataclass(frozen=True)
class PieceTable:
    """``units.yaml`` read: the module's slots by gpid and by name, and where its main grid is."""

    file: Path
    by_gpid: Mapping[str, Entry]
    by_name: Mapping[str, Entry]
    main_map: str | None
    main_board: str | None
    main_zone: str | None

    def entry(self, view: PieceView) -> Entry | None:
        got = self.by_gpid.get(view.gpid) if view.gpid else None
        return got if got is not None else self.by_name.get(view.base_name or view.name)


def is_imported(game: Game) -> bool:
    """Whether ``game`` is a folder written by ``gazala game import`` (it has ``units.yaml``)."""
    return (game.folder / UNITS_FILE).is_file()


_TABLES: FileCache[PieceTable] = FileCache(maxsize=8)


def piece_table(game: Game) -> PieceTable:
    """The game folder's ``units.yaml``, read once per file version; every bad value is bad input
    naming the file, the entry and what was expected (a side the game lacks: "did you mean")."""
    path = game.folder / UNITS_FILE
    sides = tuple(game.side_ids)
    return _TABLES.get(path, sides, lambda: _read_table(path, sides))


def _read_table(path: Path, sides: tuple[str, ...]) -> PieceTable:
    text = read_text(path, what=UNITS_FILE, cap=MAX_UNITS_BYTES)
    try:
        doc = yaml.load(text, Loader=_Loader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        raise GazalaError(f"not YAML ({getattr(exc, 'problem', exc)})", file=path,
                          place=f"line {mark.line + 1}" if mark is not None else None,
                          expected="the YAML `game import` writes") from None
    if not isinstance(doc, dict) or not isinstance(doc.get("pieces"), dict):
        raise GazalaError("no pieces", file=path, expected="pieces: {COUNTER: {kind: unit, side: ..., ...}}")
    grid = doc.get("main-grid") or {}
    if not isinstance(grid, dict):
        raise GazalaError("main-grid is not a mapping", file=path, place="main-grid",
                          expected="{map: MAP, board: BOARD, zone: ZONE} (the map.yaml grid's place in the module)")
    for key in ("map", "board", "zone"):
        if not isinstance(grid.get(key), str | None):
            raise GazalaError(f"{key} {grid[key]!r} is not a name", file=path, place=f"main-grid.{key}",
                              expected=f"the {key}'s name in the module")
    by_gpid: dict[str, Entry] = {}
    by_name: dict[str, Entry] = {}
    for cid, e in doc["pieces"].items():
        entry = _entry(path, str(cid), e, sides)
        if entry.gpid:
            by_gpid.setdefault(entry.gpid, entry)
        if entry.name:
            by_name.setdefault(entry.name, entry)
    counters = path.parent / "counters.yaml"
    if counters.is_file():  # a line naming a piece the module does not have (a correction gone wrong)
        ids = set(_COUNTER_ID.findall(read_text(counters, what="counters.yaml", cap=MAX_UNITS_BYTES * 4)))
        for cid in doc["pieces"]:
            if str(cid) not in ids:
                raise GazalaError(f"{cid!r} is not a piece of the module{did_you_mean(str(cid), ids)}", file=path,
                                  place=f"pieces.{cid}", expected="a counter id of counters.yaml")
    return PieceTable(path, by_gpid, by_name, _opt(grid.get("map")), _opt(grid.get("board")), _opt(grid.get("zone")))


def _entry(path: Path, cid: str, e: object, sides: tuple[str, ...]) -> Entry:
    """The line of counter ``cid``, every bad value bad input naming its place."""
    place = f"pieces.{cid}"
    if not isinstance(e, dict):
        raise GazalaError("not a mapping", file=path, place=place, expected="{kind: unit, side: ..., type: ...}")
    bad = sorted(str(k) for k in set(e) - ENTRY_KEYS)
    if bad:
        raise GazalaError(f"unknown key {bad[0]!r}{did_you_mean(bad[0], ENTRY_KEYS)}", file=path, place=place,
                          expected="keys " + ", ".join(sorted(ENTRY_KEYS)))
    kind = str(e.get("kind", "counter"))
    if kind not in KINDS:
        raise GazalaError(f"kind {kind!r}{did_you_mean(kind, KINDS)}", file=path, place=f"{place}.kind",
                          expected="unit, marker or counter")
    side = str(e.get("side") or "")
    if side and side not in sides:
        raise GazalaError(f"side {side!r} is not a side of the game{did_you_mean(side, sides)}", file=path,
                          place=f"{place}.side", expected="one of " + ", ".join(sides))
    move = e.get("move")
    if move is not None and (isinstance(move, bool) or not isinstance(move, int) or move < 0):
        raise GazalaError(f"move {move!r} is not a number of movement points", file=path, place=f"{place}.move",
                          expected="a whole number >= 0")
    for key in ("name", "gpid", "type"):  # a number is the user's name or gpid unquoted; a list is no name
        if isinstance(e.get(key), list | dict):
            raise GazalaError(f"{key} {e[key]!r} is not a name", file=path, place=f"{place}.{key}",
                              expected="a name (text)")
    factors = e.get("factors")
    if factors is not None and not re.fullmatch(r"\d+(?:-\d+){0,3}", str(factors)):
        raise GazalaError(f"factors {factors!r} are not printed factors", file=path, place=f"{place}.factors",
                          expected='one to four numbers joined by dashes, e.g. "4-4-6"')
    return Entry(cid, str(e.get("name", "")), str(e.get("gpid", "")), kind, side, str(e.get("type") or ""),
                 str(factors or ""), move)


def _opt(value: object) -> str | None:
    return None if value is None else str(value)


class ImportedPieces:
    """A save's pieces as units of an imported game (see the module docstring).

    ``layouts``: the maps of the save with the boards it lays out (map identifier -> layout,
    ``gazala_tools.vsav.placed_layouts``); ``counts``: how many pieces of each counter the save holds (a
    counter placed once names its unit by the piece's name alone, else with ``#`` and the piece id)."""

    def __init__(self, table: PieceTable, rules: BoundData, layouts: Mapping[str, MapLayout] | None,
                 counts: Mapping[str, int] | None = None) -> None:
        self.table = table
        self.rules = rules
        self.layouts = layouts or {}
        self.counts = counts or {}
        square = rules.map.grid.kind == "square"
        #: map.yaml's geometry, for a board whose grid is not the module's: a hex map's, or a square map's
        self.geometry: HexGridGeometry | None = None if square else rules.map.geometry()
        self.square: SquareGridGeometry | None = rules.map.square_geometry() if square else None
        self.unmatched: list[str] = []
        #: unit id -> the hex of another grid it stands on ("MAP-OR-ZONE BOARD LABEL"), for the positions table
        self.other_hexes: dict[str, str] = {}

    @classmethod
    def for_pieces(cls, table: PieceTable, rules: BoundData, layouts: Mapping[str, MapLayout] | None,
                   pieces: Iterable[PieceView]) -> ImportedPieces:
        counts: Counter[str] = Counter()
        for p in pieces:
            e = table.entry(p)
            if e is not None:
                counts[e.counter] += 1
        return cls(table, rules, layouts, counts)

    def where(self, p: PieceView) -> tuple[Hex | None, str | None]:
        """The hex of ``map.yaml`` under the piece, or the box it stands in."""
        lay = self.layouts.get(p.map or "")
        if lay is None:
            return None, p.map or "off the map"
        found = lay.board_at(p.x, p.y)
        if found is None:
            return None, lay.name or p.map
        board, bx, by = found
        lx, ly = p.x - bx, p.y - by
        zone_name: str | None = None
        exact = board.grid  # the module's own geometry (map.yaml's dx/dy are rounded to 4 decimals)
        if isinstance(board.grid, ZonedGrid):
            zone = board.grid.zone_at(lx, ly)
            zone_name = zone.name if zone is not None else None
            exact = zone.grid if zone is not None else board.grid.background
        on_main = (lay.name == self.table.main_map and board.name == self.table.main_board
                   and (self.table.main_zone is None or zone_name == self.table.main_zone))
        grid = self.rules.map.grid
        if on_main and isinstance(grid, SquareGameGrid) and self.square is not None:  # the cell VASSAL's naming gives
            sq = exact if isinstance(exact, SquareGridGeometry) else self.square
            h = grid.from_raw(*sq.name_raw_at(lx, ly))
            if h in grid:
                return h, None
        elif on_main and self.geometry is not None:
            geo = exact if isinstance(exact, HexGridGeometry) else self.geometry
            c, r = geo.name_raw_at(lx, ly)
            h = raw_to_hex(c, r, self.geometry.orientation)
            if h in self.rules.map.grid:
                return h, None
        elif exact is not None and board.width and board.height:
            # another board's (or map's) grid: the unit is in the box of its zone or map (the rules' name), and
            # the positions table names its hex or square, by the module's numbering or ours
            cell = other_label(exact, lx, ly, (board.width, board.height))
            if cell:
                self.other_hexes[self.unit_id(p) or p.id] = f"{zone_name or lay.name or p.map} {board.name} {cell}"
        return None, zone_name or lay.name or p.map

    def unit(self, p: PieceView) -> Unit | None:
        e = self.table.entry(p)
        if e is None:
            if p.map is not None:
                self.unmatched.append(p.base_name or p.name)
            return None
        if e.kind != "unit" or p.map is None:
            return None
        hex_, box = self.where(p)
        return Unit(id=self.unit_id(p) or p.id, side=e.side, type=e.type.lower(), hex=hex_, box=box)

    def unit_id(self, p: PieceView) -> str | None:
        """The unit id of a piece: its counter's id (its face; the same unit in every save), with ``#`` and
        the piece's id when the save holds several pieces of that counter."""
        e = self.table.entry(p)
        if e is None:
            return None
        return e.counter if self.counts.get(e.counter, 1) == 1 else f"{e.counter}#{p.id}"

    def position(self, pieces: Iterable[PieceView], *, turn: str | None, source: str) -> Position:
        units = [u for u in map(self.unit, pieces) if u is not None]
        other = {u.id: self.other_hexes[u.id] for u in units if u.id in self.other_hexes}
        return Position(game=self.rules.game.id, units=tuple(units), turn=turn, source=source,
                        extra={OTHER_GRIDS: other} if other else {})


def other_label(geo: Any, x: int, y: int, size: tuple[int, int]) -> str:
    """The label of the hex (or square) at board point ``(x, y)`` of a grid that is not map.yaml's: the module's
    numbering, or ours for a grid without one: VASSAL's default numbering with 0101 at the top-left whole hex
    or cell (as ``game import`` labels a main grid without numbering: ``gazala_tools.vassal.importer.grids``).
    "" for any other grid."""
    if isinstance(geo, SquareGridGeometry):
        sq = geo.numbering or toolkit_square_numbering(geo, size)
        return sq.name(*geo.name_raw_at(x, y), max_rows=geo.max_rows(size[1]), max_columns=geo.max_columns(size[0]))
    if not isinstance(geo, HexGridGeometry):
        name = geo.name_at(x, y, *size) if hasattr(geo, "name_at") else None
        if name:
            return str(name)
        if hasattr(geo, "raw_at"):
            c, r = geo.raw_at(x, y)
            return f"{c + 1:02d}{r + 1:02d}"
        return ""
    num = geo.numbering or toolkit_numbering(geo, size)
    c, r = geo.name_raw_at(x, y)
    return num.name(c, r, sideways=geo.sideways, max_rows=geo.max_rows(size[1]), max_columns=geo.max_columns(size[0]))


def toolkit_numbering(geo: HexGridGeometry, size: tuple[int, int]) -> Numbering:
    """VASSAL's default numbering shifted so that the top-left hex lying whole on a board of ``size`` is
    ``0101``: the first column (along u) holding a whole hex, and its first whole hex (along v)."""
    width, height = (size[1], size[0]) if geo.sideways else size
    half_u, half_v = geo.dx * 2 / 3, geo.dy / 2
    c0, r0 = 0, 0
    for c in range(math.ceil((half_u - geo.x0) / geo.dx), math.floor((width - 1 - half_u - geo.x0) / geo.dx) + 1):
        shift = geo.dy / 2 if c % 2 else 0.0
        r = math.ceil((half_v - geo.y0 - shift) / geo.dy)
        if geo.y0 + r * geo.dy + shift + half_v <= height - 1:
            c0, r0 = c, r
            break
    column, row = Numbering(h_off=0, v_off=0).column_row(c0, r0, sideways=geo.sideways)
    return Numbering(h_off=1 - column, v_off=1 - row)


def check_module_name(game: Game, module_name: str | None, file: str | Path) -> None:
    """A save of another module than the folder's is bad input: one line naming both modules. The folder's
    module is the name the import recorded (import-report.yaml's ``module``; game.yaml's ``name`` is the
    user's to change), tidied as game files hold names (:func:`~gazala_tools.games.writing.short_name`: one
    line, spaces run together, at most 200 characters); a save carries it as the module wrote it."""
    from gazala_tools.games.writing import short_name

    ours = recorded_module(game) or game.name
    if module_name and short_name(module_name) != ours:
        raise GazalaError(f"the save was made with the module {module_name!r}, not with {ours!r} (the module "
                          f"the game folder {game.folder.name!r} was imported from)", file=file,
                          expected=f"a save or log of {ours!r}, or --game with the folder of {module_name!r}")


def recorded_module(game: Game) -> str | None:
    """The module's name as ``game import`` recorded it: the ``module:`` line at the head of the folder's
    import-report.yaml (read alone: the report of a large module is megabytes), or None."""
    path = game.folder / REPORT_FILE
    try:
        if path.is_symlink():  # the game folder is a sandbox: a link may lead anywhere
            return None
        with open(path, "rb") as fh:
            head = fh.read(4096).decode("utf-8", "replace")
    except OSError:
        return None
    for line in head.splitlines():
        if line.startswith("module: "):
            try:
                value = yaml.load(line, Loader=_Loader)
            except yaml.YAMLError:
                return None
            got = value.get("module") if isinstance(value, dict) else None
            return got if isinstance(got, str) and got else None
    return None


def positions_findings(position: Position, label: Any) -> list[Finding]:
    """What a report gives with no rules written (issue 35): for each occupied hex each side's units
    (stacking counts), then each side's units in each box: one INFO finding each, hexes in label order."""
    by_hex: dict[Hex, list[Unit]] = {}
    by_box: dict[str, list[Unit]] = {}
    other: Mapping[str, str] = position.extra.get(OTHER_GRIDS) or {}
    for u in position.units:
        if u.hex is not None:
            by_hex.setdefault(u.hex, []).append(u)
        else:
            by_box.setdefault(other.get(u.id) or u.box or "off the map", []).append(u)
    out: list[Finding] = []
    for h, us in sorted(by_hex.items(), key=lambda kv: str(label(kv[0]))):
        lab = str(label(h))
        sides = Counter(u.side or "no side" for u in us)
        counts = ", ".join(f"{s} {n}" for s, n in sorted(sides.items()))
        names = ", ".join(sorted(u.id for u in us))
        out.append(Finding(POSITIONS, Severity.INFO, f"{lab}: {counts} ({names})",
                           units=tuple(sorted(u.id for u in us)), hexes=(lab,)))
    for box, us in sorted(by_box.items()):
        sides = Counter(u.side or "no side" for u in us)
        counts = ", ".join(f"{s} {n}" for s, n in sorted(sides.items()))
        out.append(Finding(POSITIONS, Severity.INFO, f"in {box}: {counts} unit(s)",
                           units=tuple(sorted(u.id for u in us))))
    return out
