"""``gazala module lint``: the problems a VASSAL module has, found without the engine (docs/module.md).

Read-only and safe: the module is read through :mod:`gazala_tools.inputs` (capped zip members, XML
without DTDs), images by their headers only. Each :class:`Finding` names the element by its path in
the buildFile (``VASSAL.build.module.Map[name=Main Map]/.../PieceSlot[entryName=X]``) and says what to do.

Checks: images named but missing (outside the engine's own ``images/``, ``engine_images.json``),
duplicate or missing GPIDs, piece definitions that do not parse or name unknown traits, prototypes named
but missing, at-start stacks and set-up saves whose pieces stand off every board or name a missing
board or grid location, grids that do not fit their board image, hex numberings that give two hexes
one name, and set-up saves that are missing or cannot be read.
"""

from __future__ import annotations

import json
import math
import re
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from lxml import etree

from gazala_tools.errors import GazalaError, VassalFormatError
from gazala_tools.hexgrid import Board, HexGridGeometry, MapLayout, ZonedGrid, layout_with_boards
from gazala_tools.vassal.buildfile import (
    HEXGRID,
    MAP_CLASSES,
    PKG,
    SQUAREGRID,
    ZONE,
    ZONEDGRID,
    ModuleSource,
    layouts_from_xml,
    open_source,
    parse_xml,
)
from gazala_tools.vassal.saves import map_identifiers, read_save, sequence
from gazala_tools.vsav.traits import Trait, decode_piece

#: bytes read from a set-up save inside a module
MAX_SETUP_BYTES = 64 * 1024 * 1024
#: bytes read from a zipped module in all (the buildFile, image headers and the set-up saves)
MAX_LINT_BYTES = 1024 * 1024 * 1024
#: a gpid VASSAL's GpIdChecker reads: a decimal Java int (issue 31: '²' and 5,000 digits were internal errors)
_JAVA_GPID = re.compile(r"[0-9]{1,10}")
#: hexes named per board when looking for duplicate names (beyond this the board is sampled no further)
MAX_NAMED_HEXES = 250_000

PIECE_SLOT = "VASSAL.build.widget.PieceSlot"
PROTOTYPE = "VASSAL.build.module.PrototypeDefinition"
PIECE_WINDOW = "VASSAL.build.module.PieceWindow"
SETUP_STACK = "VASSAL.build.module.map.SetupStack"
DRAW_PILE = "VASSAL.build.module.map.DrawPile"
PREDEFINED_SETUP = "VASSAL.build.module.PredefinedSetup"
GAME_PIECE_IMAGE = "VASSAL.build.module.gamepieceimage.GamePieceImage"
BOARD = f"{PKG}.Board"

#: trait ids the 3.7 engine knows (vassal-format.md 3.2); any other is replaced by an empty Marker
KNOWN_TRAITS = frozenset(
    ["piece;", "stack", "deck;", "emb2;", "emb;", "mark;", "label;", "rotate;", "delete;", "clone;", "report;", "prototype;", "immob;", "hide;", "obs;", "propertysheet;", "PROP;", "restrict;", "return;", "sendto;", "macro;", "globalkey;", "footprint;", "table;", "pivot;", "nonRect;", "nonRect2;", "locmsg;", "placemark;", "replace;", "markmoved;", "submenu;", "menuSeparator;", "translate;", "AreaOfEffect;", "calcProp;", "setprop;", "setpieceprop;", "hideCmd;", "playSound;", "button;", "globalhotkey;", "deselect;", "mat;", "matPiece;", "basicName;", "border;", "attach;", "locCommand;", "cmt;"]
)
#: attributes that name an image in ``images/`` (any element), and the elements whose ``fileName`` is one
IMAGE_ATTRS = frozenset({"image", "icon", "buttonIcon", "iconName", "markUnmovedIcon", "inIconName",
                         "pickIconName", "outIconName", "reportIcon", "nextIcon", "prevIcon"})
FILENAME_IMAGE = ("VASSAL.build.module.documentation.AboutScreen", "VASSAL.build.widget.Chart")


@dataclass(frozen=True)
class Finding:
    """One problem: ``level`` is ``error`` (the engine fails or players meet a broken piece) or
    ``warning``; ``element`` is the path in the buildFile (or the save entry)."""

    level: str
    check: str
    element: str
    problem: str
    fix: str

    def line(self) -> str:
        return f"{self.level}: [{self.check}] {self.element}: {self.problem} -> {self.fix}"


@dataclass
class LintResult:
    file: str
    findings: list[Finding] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)

    @property
    def errors(self) -> int:
        return sum(1 for f in self.findings if f.level == "error")

    @property
    def warnings(self) -> int:
        return sum(1 for f in self.findings if f.level == "warning")

    def as_dict(self) -> dict[str, Any]:
        return {"file": self.file, "errors": self.errors, "warnings": self.warnings, "counts": self.counts,
                "findings": [asdict(f) for f in self.findings]}


@cache
def engine_images() -> frozenset[str]:
    """The image names VASSAL 3.7.26 finds in its own jar (``images/`` entries)."""
    data = json.loads(resources.files("gazala_tools.vassal").joinpath("engine_images.json").read_text("utf-8"))
    return frozenset(data["images"])


def _short(tag: str) -> str:
    return tag.rsplit(".", 1)[-1]


def element_path(el: etree._Element) -> str:
    """The element's path from the module root: each step its class name and its name attribute."""
    steps: list[str] = []
    node: etree._Element | None = el
    while node is not None and node.getparent() is not None:
        tag = str(node.tag)
        name = next((node.get(k) for k in ("mapName", "name", "entryName", "title") if node.get(k)), None)
        if name is None and tag == PIECE_SLOT:
            name = node.get("gpid")
        steps.append(f"{tag}[{_name_key(node)}={name}]" if name is not None else tag)
        node = node.getparent()
    return "/".join(reversed(steps)) or str(el.tag)


def _name_key(el: etree._Element) -> str:
    return next((k for k in ("mapName", "name", "entryName", "title", "gpid") if el.get(k)), "name")


class _Linter:
    def __init__(self, src: ModuleSource) -> None:
        self.src = src
        self.file = str(src.path)
        self.findings: list[Finding] = []
        self.members = src.member_names()
        self.images = {m[len("images/"):] for m in self.members if m.startswith("images/")}
        self.counts: dict[str, int] = defaultdict(int)

    def add(self, level: str, check: str, element: str, problem: str, fix: str) -> None:
        self.findings.append(Finding(level, check, element, problem, fix))

    # --- the checks ------------------------------------------------------------------------------
    def run(self) -> LintResult:
        root = parse_xml(self.src.xml, self.src.path)
        self.generated = {el.get("name", "") for el in root.iter(GAME_PIECE_IMAGE)}
        self.prototypes = {el.get("name", "") for el in root.iter(PROTOTYPE)}
        self._element_images(root)
        self._pieces(root)
        self._gpids(root)
        try:
            layouts = layouts_from_xml(self.src)
        except VassalFormatError as exc:
            self.add("error", "grid", exc.place or "buildFile", exc.problem, "fix the grid's attributes in the editor")
            layouts = []
        self._boards(root)
        self._setup_stacks(root, layouts)
        self._setup_saves(root, layouts)
        return LintResult(self.file, sorted(self.findings, key=lambda f: (f.level != "error", f.check, f.element)),
                          dict(sorted(self.counts.items())))

    def _image(self, name: str, where: str, what: str, level: str = "error") -> None:
        if not name or "$" in name:  # empty, or computed from properties when the game runs
            return
        self.counts["image references"] += 1
        bare = name[len("/images/"):] if name.startswith("/images/") else name
        if name in self.images or name in self.generated or bare in engine_images():
            return
        hidden = " (in a hidden palette: the engine loads it quietly, a piece placed from it shows no image)"
        self.add(level, "image", where, f"{what} image {name!r} is not in the module's images/"
                 + (hidden if level == "warning" else ""),
                 f"add images/{name} to the module, or pick an image the module has")

    def _element_images(self, root: etree._Element) -> None:
        for el in root.iter():
            if not isinstance(el.tag, str):
                continue
            for key, value in el.attrib.items():
                key = str(key)
                if key in IMAGE_ATTRS or (key == "fileName" and el.tag in FILENAME_IMAGE):
                    self._image(str(value), element_path(el), f"{key}")
            if el.tag == "option" and str(el.get("name", "")).endswith("Icon") and el.text:
                self._image(el.text.strip(), element_path(el), f"option {el.get('name')}")

    def _pieces(self, root: etree._Element) -> None:
        for el in root.iter(PIECE_SLOT, PROTOTYPE):
            where = element_path(el)
            self.counts["piece slots" if el.tag == PIECE_SLOT else "prototypes"] += 1
            text = (el.text or "").strip()
            try:
                tokens = sequence.decode(text, "/")
                if len(tokens) < 3 or tokens[0] != "+":
                    raise VassalFormatError(f"definition starts {text[:30]!r}", expected="'+/null/TYPE/STATE'")
                piece = decode_piece(tokens[2], tokens[3] if len(tokens) > 3 else "", file=self.file, place=where)
            except (GazalaError, ValueError, IndexError) as exc:
                problem = exc.problem if isinstance(exc, GazalaError) else str(exc)
                self.add("error", "piece", where, f"the piece definition does not parse: {problem}",
                         "open the piece in the editor and save it again, or rebuild the slot")
                continue
            hidden = any(a.tag == PIECE_WINDOW and a.get("hidden") == "true" for a in el.iterancestors())
            for trait in piece.traits:
                self._trait(trait, where, "warning" if hidden else "error")

    def _trait(self, t: Trait, where: str, image_level: str) -> None:
        if t.id not in KNOWN_TRAITS:
            self.add("warning", "piece", where, f"unknown trait {t.id[:40]!r} (the engine replaces it by an empty Marker)",
                     "remove the trait, or load the module with the extension that defines it")
            return
        try:
            f = t.fields()
        except ValueError:
            return
        if t.id == "piece;" and len(f) > 2:
            self._image(f[2], where, "piece", image_level)
        elif t.id in ("emb2;", "emb;") and len(f) > 15:
            for name in sequence.decode(f[15], ","):
                self._image(name, where, "layer", image_level)
        elif t.id == "obs;" and len(f) > 1:
            self._image(f[1], where, "mask", image_level)
            if len(f) > 3 and f[3].startswith("G"):
                self._image(f[3][1:], where, "mask display", image_level)
        elif t.id == "prototype;":
            name = f[0] if f else ""
            self.counts["prototype references"] += 1
            if name and "$" not in name and name not in self.prototypes:
                self.add("error", "prototype", where, f"prototype {name!r} is not defined",
                         f"define a prototype named {name!r}, or change the trait to one of the module's prototypes")

    def _gpids(self, root: etree._Element) -> None:
        seen: dict[str, list[str]] = defaultdict(list)
        for el in root.iter(PIECE_SLOT):
            gpid = (el.get("gpid") or "").strip()
            if not gpid:
                self.add("error", "gpid", element_path(el), "the piece slot has no gpid",
                         "open the module in the editor (it numbers slots) or give the slot a unique gpid")
                continue
            seen[gpid].append(element_path(el))
        for gpid, where in seen.items():
            for w in where[1:]:
                self.add("error", "gpid", w, f"gpid {gpid!r} is also the gpid of {where[0]}",
                         "give each piece slot its own gpid (the editor renumbers duplicates when it opens the module)")
        try:
            nxt = int(root.get("nextPieceSlotId", "0") or 0)
        except ValueError:
            nxt = 0
        numeric = [int(g) for g in seen if _JAVA_GPID.fullmatch(g)]  # never int() of '²' or 5,000 digits
        for gpid, where in seen.items():
            if not _JAVA_GPID.fullmatch(gpid.rsplit(":", 1)[-1]):
                shown = gpid if len(gpid) <= 20 else gpid[:17] + "..."
                self.add("error", "gpid", where[0], f"gpid {shown!r} is not a number VASSAL reads (a Java int, "
                         "after 'extension:' in an extension)",
                         "open the module in the editor (it renumbers such slots) or give the slot a numeric gpid")
        if numeric and nxt and max(numeric) >= nxt:
            self.add("warning", "gpid", _short(str(root.tag)),
                     f"nextPieceSlotId={nxt} is not above the largest gpid {max(numeric)}",
                     f"set nextPieceSlotId to {max(numeric) + 1}")

    def _boards(self, root: etree._Element) -> None:
        for el in root.iter(BOARD):
            self.counts["boards"] += 1
            image = el.get("image") or ""
            if not image:
                continue
            size = self.src.image_size(image) if image in self.images else None
            where = element_path(el)
            if size is None:
                if image in self.images:
                    self.add("warning", "board", where, f"board image {image!r} has no PNG, GIF or JPEG header",
                             "save the board image as PNG or JPEG")
                continue
            for grid_el in el:
                if isinstance(grid_el.tag, str) and grid_el.tag in (HEXGRID, SQUAREGRID, ZONEDGRID):
                    self._grid_fit(grid_el, size)

    def _grid_fit(self, el: etree._Element, size: tuple[int, int]) -> None:
        w, h = size
        where = element_path(el)
        if el.tag in (HEXGRID, SQUAREGRID):
            try:
                x0, y0 = int(el.get("x0", "0")), int(el.get("y0", "0"))
                dx, dy = float(el.get("dx", "1")), float(el.get("dy", "1"))
            except ValueError:
                return  # reported by the grid reader
            sideways = el.get("sideways", "false") == "true"
            ox, oy = (y0, x0) if sideways else (x0, y0)
            sx, sy = (dy, dx) if sideways else (dx, dy)
            if not (-sx <= ox <= w and -sy <= oy <= h):
                self.add("error", "grid", where, f"the grid origin ({ox}, {oy}) lies outside its {w}x{h} board image",
                         "set the grid's x0/y0 inside the board image")
            if sx > w or sy > h:
                self.add("error", "grid", where, f"one grid cell ({sx:g}x{sy:g}) is larger than its {w}x{h} board image",
                         "set the grid's dx/dy to the size of a cell on the image")
        for zone in el.iter(ZONE):
            pts = [p.split(",") for p in (zone.get("path") or "").split(";") if p]
            try:
                xs, ys = [int(p[0]) for p in pts], [int(p[1]) for p in pts]
            except (ValueError, IndexError):
                continue  # reported by the grid reader
            if xs and (min(xs) < 0 or min(ys) < 0 or max(xs) > w or max(ys) > h):
                self.add("warning", "grid", element_path(zone),
                         f"the zone reaches ({min(xs)},{min(ys)})-({max(xs)},{max(ys)}), outside its {w}x{h} board image",
                         "move the zone's points inside the board image")

    def _setup_stacks(self, root: etree._Element, layouts: list[MapLayout]) -> None:
        by_name = {lay.name: lay for lay in layouts}
        for map_el in root.iter(*MAP_CLASSES):
            lay = by_name.get(map_el.get("mapName", ""))
            if lay is None:
                continue
            for st in map_el.iter(SETUP_STACK, DRAW_PILE):
                self.counts["at-start stacks" if st.tag == SETUP_STACK else "decks"] += 1
                self._setup_stack(st, lay)
        self._hex_names(layouts)

    def _setup_stack(self, st: etree._Element, lay: MapLayout) -> None:
        where = element_path(st)
        boards = {b.name: b for b in lay.all_boards}
        owning = st.get("owningBoard") or ""
        if owning and owning not in boards:
            self.add("error", "setup", where, f"owning board {owning!r} is not a board of map {lay.name!r}",
                     "pick one of the map's boards: " + ", ".join(repr(b) for b in boards))
            return
        board = boards.get(owning) if owning else (lay.all_boards[0] if len(lay.all_boards) == 1 else None)
        if st.get("useGridLocation", "false") == "true" and st.tag == SETUP_STACK:
            loc = st.get("location") or ""
            if board is None:
                return
            try:
                self._grid_point(board, loc)
            except (ValueError, KeyError, GazalaError) as exc:
                self.add("error", "setup", where, f"grid location {loc!r} is not on board {board.name!r} ({exc})",
                         "name a location of the board's grid")
            return
        try:
            x, y = int(st.get("x", "0")), int(st.get("y", "0"))
        except ValueError:
            self.add("error", "setup", where, "x/y are not integers", "set the stack's x and y")
            return
        if board is not None and board.width is not None and board.height is not None \
                and not (0 <= x < board.width and 0 <= y < board.height):
            self.add("warning", "setup", where, f"({x}, {y}) is off board {board.name!r} ({board.width}x{board.height})",
                     "move the stack onto the board")

    def _grid_point(self, board: Board, name: str) -> tuple[int, int]:
        grid = board.grid
        w, h = board.width or 0, board.height or 0
        if isinstance(grid, ZonedGrid):
            x, y = MapLayout("", 0, 0, ((board, 0, 0),), (board,)).center_of(name)
        elif grid is not None and hasattr(grid, "center_of_name"):  # hex and square grids
            x, y = grid.center_of_name(name, w, h)
        else:
            raise ValueError("the board has no grid that names locations")
        if board.width is not None and board.height is not None and not (0 <= x < w and 0 <= y < h):
            raise ValueError(f"its centre ({x}, {y}) is off the {w}x{h} board")
        return x, y

    def _hex_names(self, layouts: list[MapLayout]) -> None:
        done: set[int] = set()
        for lay in layouts:
            for board in lay.all_boards:
                grid = board.grid
                if id(board) in done or not isinstance(grid, HexGridGeometry) or grid.numbering is None:
                    continue
                done.add(id(board))
                if board.width is None or board.height is None:
                    continue
                dup = _duplicate_hex_name(grid, board.width, board.height)
                if dup is not None:
                    name, a, b = dup
                    self.add("warning", "numbering", f"map {lay.name!r} board {board.name!r}",
                             f"hexes at {a} and {b} are both named {name!r}",
                             "widen the numbering (hHexDigits/vHexDigits, a separator) so every hex has its own name")

    def _save_piece_images(self, traits: list[Trait], where: str, since: int) -> None:
        """The images of a piece of a set-up save (players see these when the set-up opens): each missing
        image is reported once per save (findings from ``since`` on are this save's)."""
        before = len(self.findings)
        for t in traits:
            if t.id in ("piece;", "emb2;", "emb;", "obs;"):
                self._trait(t, where, "error")
        seen = {f.problem for f in self.findings[since:before]}
        fresh = []
        for f in self.findings[before:]:
            if f.problem not in seen:
                seen.add(f.problem)
                fresh.append(f)
        del self.findings[before:]
        self.findings.extend(fresh)

    def _setup_saves(self, root: etree._Element, layouts: list[MapLayout]) -> None:
        for el in root.iter(PREDEFINED_SETUP):
            if el.get("useFile", "true") != "true" or el.get("isMenu", "false") == "true":
                continue
            where = element_path(el)
            name = el.get("file") or ""
            if not name:  # a set-up without a file starts an empty game
                continue
            self.counts["set-up saves"] += 1
            if not self.src.has_member(name):
                self.add("error", "save", where, f"set-up file {name!r} is not in the module",
                         "add the save to the module, or point the set-up at a save it holds")
                continue
            try:
                save = read_save(self.src.read_member(name, MAX_SETUP_BYTES), name=f"{self.file}!{name}")
            except GazalaError as exc:
                self.add("error", "save", where, f"the set-up save cannot be read: {exc.problem}",
                         "save the set-up again from a game of this module")
                continue
            by_id = map_identifiers(layouts)
            for map_id, boards in save.position.boards.items():
                lay = by_id.get(map_id)
                if lay is None:
                    continue
                try:
                    layout_with_boards(lay, boards)
                except VassalFormatError as exc:
                    self.add("error", "save", where, f"map {map_id!r}: {exc.problem}",
                             "save the set-up again from a game of this module")
            reported = len(self.findings)
            for piece in save.position.pieces.values():
                self._save_piece_images(piece.definition.traits, f"{where} piece {piece.name!r}", reported)
                if piece.map is None:
                    continue
                self.counts["set-up pieces"] += 1
                lay = by_id.get(piece.map)
                if lay is None:
                    self.add("error", "save", f"{where} piece {piece.id}",
                             f"piece {piece.name!r} stands on map {piece.map!r}, which the module has not",
                             "move the piece to one of the module's maps and save the set-up again")
                    continue
                used = save.position.boards.get(piece.map)
                placed = layout_with_boards(lay, used) if used else lay
                if placed.boards and placed.board_at(piece.x, piece.y) is None:
                    self.add("warning", "save", f"{where} piece {piece.id}",
                             f"piece {piece.name!r} at ({piece.x}, {piece.y}) on map {piece.map!r} is off every board",
                             "move the piece onto a board and save the set-up again")


def _duplicate_hex_name(grid: HexGridGeometry, w: int, h: int) -> tuple[str, tuple[int, int], tuple[int, int]] | None:
    """Two hex centres on a ``w`` x ``h`` board that the numbering gives one name, if any."""
    seen: dict[str, tuple[int, int]] = {}
    u_span, v_span = (h, w) if grid.sideways else (w, h)
    cols = math.ceil((u_span - grid.x0) / grid.dx) + 1
    rows = math.ceil((v_span - grid.y0) / grid.dy) + 1
    if cols * rows > MAX_NAMED_HEXES:
        return None
    for c in range(-1, cols):
        for r in range(-1, rows):
            x, y = grid.raw_center(c, r)
            if not (0 <= x < w and 0 <= y < h):
                continue
            name = grid.name_at(x, y, w, h)
            if not name:
                continue
            if name in seen and seen[name] != (x, y):
                return name, seen[name], (x, y)
            seen[name] = (x, y)
    return None


def lint_module(source: str | Path) -> LintResult:
    """Lint a ``.vmod``, an unzipped module folder or a buildFile."""
    return _Linter(open_source(source, budget=MAX_LINT_BYTES)).run()


def iter_lines(result: LintResult) -> Iterator[str]:
    for f in result.findings:
        yield f.line()
