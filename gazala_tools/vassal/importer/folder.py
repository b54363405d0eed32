"""``gazala game import``: a game folder from a module (docs/module.md, "Importing a module").

Writes game.yaml (name, the roster's sides, the main grid's numbering), map.yaml (the main board's hex
grid), counters.yaml (every piece slot as a marker with its own front and back art, its name and side, and
its definition kept as written), module.yaml (board art; the module's maps, decks, dice, turn trackers,
charts, help pages and set-ups as data and its components as written: :mod:`.kept`), vmod/ (the module's
other files, streamed byte for byte) and import-report.yaml (counts: imported, kept verbatim, not
understood). All or nothing: assembled beside the folder and renamed. :mod:`.rebuild` gives the module back.
"""

from __future__ import annotations

import io
import posixpath
import re
import threading
import warnings
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from lxml import etree
from PIL import Image

from gazala_tools.counters.schema import ART_SUFFIXES
from gazala_tools.errors import GazalaError
from gazala_tools.escape import NOT_DRAWN
from gazala_tools.filecache import SizedDict
from gazala_tools.fileio import write_new_folder
from gazala_tools.games.scenarios import load_scenarios
from gazala_tools.games.writing import SIDE_COLORS, short_name, slug, unique_ids
from gazala_tools.games.writing import dump_yaml as _dump
from gazala_tools.games.writing import numbering_data as _numbering_data
from gazala_tools.hexgrid import Board, HexGridGeometry, ZonedGrid
from gazala_tools.inputs import MAX_MEMBERS, check_pixels, image_header_size, safe_member_name, sniff_image
from gazala_tools.mapdata.gridfile import spec_for
from gazala_tools.mapdata.loader import load_map_text
from gazala_tools.numbering import Numbering
from gazala_tools.render.art import MAX_ART_PIXELS, ArtProblems, image_problem
from gazala_tools.render.budget import ArtBudget, command_budget, current_budget
from gazala_tools.render.counters import near_square
from gazala_tools.render.svg import MAX_SVG_BYTES, open_any_image
from gazala_tools.squaregrid import SquareGridGeometry
from gazala_tools.vassal.buildfile import IMAGE_HEADER_BYTES, ModuleSource, open_source
from gazala_tools.vassal.importer.grids import (
    MOVES_NOTE,
    OURS,
    OURS_SQUARE,
    GridFound,
    box_names,
    first_square,
    first_unnumbered,
    hex_grids,
    is_main,
    other_grid_docs,
    relabel,
    square_grid_doc,
    square_grids,
    zone_of,
)
from gazala_tools.vassal.importer.kept import FILES, components, dump, module_data, newline, short
from gazala_tools.vassal.importer.reader import ImportedModule, ImportedPiece, SetupPlacement, read_module
from gazala_tools.vassal.importer.scenarios import Written, scenarios_doc
from gazala_tools.vassal.importer.units import (
    UNITS_HEAD,
    Inferred,
    infer_units,
    load_words,
    report_section,
    units_doc,
)
from gazala_tools.vassal.importer.update import finish_update, sha
from gazala_tools.yamlnodes import MAX_BYTES as MAX_DATA_BYTES

__all__ = [
    "COPY_THREADS",
    "DPI",
    "IMAGE_SUFFIX",
    "KEPT_BYTES",
    "LAYER_CACHE_BYTES",
    "MAX_IMAGE_BYTES",
    "MAX_MODULE_BYTES",
    "MainGrid",
    "board_numbering",
    "import_folder",
    "main_grid",
]

#: largest image copied into the folder
MAX_IMAGE_BYTES = 256 * 1024 * 1024
#: bytes read from a zipped module in all (the buildFile, the board and every piece image copied)
MAX_MODULE_BYTES = 4 * 1024 * 1024 * 1024
#: module files copied at once (the copies wait on the disk)
COPY_THREADS = 8
#: the dpi the board and counter sizes are given at (module pixels are taken as 100 per inch)
DPI = 100


@dataclass(frozen=True)
class MainGrid:
    map: str
    board: Board
    geometry: HexGridGeometry | SquareGridGeometry
    size: tuple[int, int]  #: what the numbering is sized by: the board, or the zone's bounds


def main_grid(mod: ImportedModule) -> MainGrid | None:
    """The first board (in map order) with a numbered hex grid, directly or in a zone; None when no board
    has one (then the folder has no map.yaml: the maps are data in module.yaml only)."""
    for lay in mod.layouts:
        for board in lay.all_boards:
            grid = board.grid
            if board.width is None or board.height is None:
                continue
            if isinstance(grid, HexGridGeometry) and grid.numbering is not None:
                return MainGrid(lay.name, board, grid, (board.width, board.height))
            if isinstance(grid, ZonedGrid):
                for zone in grid.zones:
                    if isinstance(zone.grid, HexGridGeometry) and zone.grid.numbering is not None:
                        return MainGrid(lay.name, board, zone.grid, zone.bounds_size())
    return None


def _map_doc(mod: ImportedModule, main: MainGrid | None, file: str | Path = "") -> dict[str, Any] | None:
    """map.yaml: the main grid (every hex whose centre is on the board, one terrain), or None."""
    if main is None or main.geometry.numbering is None:
        return None
    if isinstance(main.geometry, SquareGridGeometry):  # issue 35: a square grid's cells
        found = GridFound(main.map, main.board, main.geometry, main.size, zone_of(main.board, main.geometry), False)
        return {"title": short_name(mod.name) or "imported", "provenance": "imported",
                "notes": [MOVES_NOTE],
                "grid": square_grid_doc(found, board_numbering(main), str(file)),
                "terrain": {"default": "clear", "types": {"clear": {"description": "not in the module"}}}}
    spec = spec_for(main.geometry, main.geometry.numbering, "custom", main.size, dpi=DPI)
    grid = spec.to_data()
    grid["pixels"]["board_width"], grid["pixels"]["board_height"] = main.board.width, main.board.height
    del grid["numbering"]
    # a descending numbering counts from the last row (column) of the board: VASSAL's count for the board, which
    # map.yaml's grid spans (a zone's own count is in its numbering's offsets: board_numbering)
    board_h, board_w = main.board.height or 0, main.board.width or 0
    if spec.grid.max_rows:
        grid["max_rows"] = main.geometry.max_rows(board_h)
    if spec.grid.max_columns:
        grid["max_columns"] = main.geometry.max_columns(board_w)
    return {"title": short_name(mod.name) or "imported", "provenance": "imported", "grid": grid,
            "terrain": {"default": "clear", "types": {"clear": {"description": "not in the module"}}}}


def board_numbering(main: MainGrid) -> Numbering:
    """The main grid's numbering as map.yaml and game.yaml give it: counted from the board, as every grid of a
    game folder is. A grid in a zone counts its descending rows (columns) from the zone's bounds (VASSAL's
    ``Zone``): the offsets move by the difference, so that every hex keeps the module's own label (Ragnarok's
    zone of 18 rows on a board of 25: ``vOff`` 7 lower; issue 31 item 7)."""
    n, g = main.geometry.numbering, main.geometry
    assert n is not None
    (zone_w, zone_h), board_w, board_h = main.size, main.board.width or 0, main.board.height or 0
    rows, cols = g.max_rows(zone_h) - g.max_rows(board_h), g.max_columns(zone_w) - g.max_columns(board_w)
    h_off, v_off = n.h_off, n.v_off
    if n.v_descend:  # Numbering.column_row: max_rows counts columns when sideways
        h_off, v_off = (h_off + rows, v_off) if g.sideways else (h_off, v_off + rows)
    if n.h_descend:
        h_off, v_off = (h_off, v_off + cols) if g.sideways else (h_off + cols, v_off)
    return replace(n, h_off=h_off, v_off=v_off)


#: the suffix an image's copy is named by, by its format (counters.yaml's art convention knows these)
IMAGE_SUFFIX = {"PNG": "png", "GIF": "gif", "JPEG": "jpg", "SVG": "svg"}
#: decoded layers kept for the faces of one import (pieces share their layer images), in bytes
LAYER_CACHE_BYTES = 128 * 1024 * 1024
#: the bytes of the module files read for one import (piece images, set-up saves), kept so that each is read
#: once (sized, checked, drawn, copied)
KEPT_BYTES = 64 * 1024 * 1024


class _Art:
    """The art of one import (issue 33 items 2-3, issue 31 item 2): every image a piece shows is checked
    once, by its bytes (an SVG parsed, resolved inside the module and costed; a raster's header against its
    file), and a face of several layers is drawn one layer at a time, each at most the counter-art pixel
    cap, the face too, within the command's art budget. An image that cannot be drawn is recorded with its
    reason and the pieces that show it; the import goes on."""

    def __init__(self, src: ModuleSource, present: set[str]) -> None:
        self.src = src
        self.present = present
        self.problems = ArtProblems()  #: the images that cannot be drawn, their reasons and pieces
        self.budget = ArtBudget()  #: the import's art budget (every face drawn in it)
        self.sizes: dict[str, tuple[int, int] | None] = {}
        self.checked: dict[str, str | None] = {}
        self.layers: SizedDict[str, Image.Image] = SizedDict(LAYER_CACHE_BYTES, lambda im: 4 * im.width * im.height)
        self.resolve = self.read  #: one object: an SVG checked, then drawn, is prepared once (render.svg)

    def read(self, name: str) -> bytes | None:
        """A member a piece shows or the module's SVG refers to (inside the module only), None when there is
        none; read once while it fits the source's :attr:`~ModuleSource.kept` bytes."""
        if not self.src.has_member(name):
            return None
        return self.src.read_member(name, MAX_SVG_BYTES)

    def size(self, layer: str) -> tuple[int, int] | None:
        if layer not in self.sizes:  # a piece's faces share their images: each is read once, sized by its header
            try:
                data = self.read(f"images/{layer}")
                self.sizes[layer] = image_header_size(data[:IMAGE_HEADER_BYTES]) if data else None
            except GazalaError:  # too large to read whole (or unreadable): its header alone, as it says
                try:
                    self.sizes[layer] = self.src.image_size(layer)
                except GazalaError:
                    self.sizes[layer] = None
        return self.sizes[layer]

    def problem(self, layer: str, piece: str) -> str | None:
        """Why ``images/<layer>`` cannot be drawn (recorded for ``piece``), or None."""
        if layer not in self.checked:
            self.checked[layer] = image_problem(f"images/{layer}", self.resolve, draw=False)
        reason = self.checked[layer]
        if reason is not None:
            self.problems.add(f"images/{layer}", reason, piece)
        return reason

    def face(self, layers: tuple[str, ...], piece: str) -> tuple[bytes | str, str, tuple[int, int] | None] | None:
        """One image of a face: the single layer's member name (copied, never decoded), or the layers drawn
        centred on one another (a new PNG's bytes); a layer that cannot be drawn makes the face that layer
        (kept byte for byte: sheets show it as a placeholder). None: the face shows no image of the module."""
        with command_budget(self.budget):
            return self._face(layers, piece)

    def _face(self, layers: tuple[str, ...], piece: str) -> tuple[bytes | str, str, tuple[int, int] | None] | None:
        layers = tuple(x for x in layers if x in self.present)
        if not layers:
            return None
        for x in layers:  # a header over the counter-art cap: art no reader draws, so the counter is drawn
            size = self.size(x)
            if size is not None and size[0] * size[1] > MAX_ART_PIXELS:
                self.problem(x, piece)  # reported, with its reason
                return None
        bad = next((x for x in layers if self.problem(x, piece) is not None), None)
        if bad is not None:  # no size: it neither sizes the counters nor is checked for squareness
            return f"images/{bad}", "", None
        if len(layers) == 1:
            size = self.size(layers[0])
            if size is None:
                return None
            if Path(layers[0]).suffix.lower() not in ART_SUFFIXES:  # `counter-white`: a copy named by its format
                data = self.read(f"images/{layers[0]}") or b""
                return data, f".{IMAGE_SUFFIX.get(sniff_image(data) or '', 'png')}", size
            return f"images/{layers[0]}", "", size
        try:
            return self.compose(layers)
        except GazalaError as exc:
            self.problems.add(f"images/{layers[0]}", f"its layers cannot be drawn together: {exc.problem}", piece)
            return f"images/{layers[0]}", "", None

    def compose(self, layers: tuple[str, ...]) -> tuple[bytes, str, tuple[int, int]]:
        sizes = [self.size(x) or (0, 0) for x in layers]
        w, h = max(s[0] for s in sizes), max(s[1] for s in sizes)
        check_pixels((w, h), file=f"images/{layers[0]}", what="piece face of layers", max_pixels=MAX_ART_PIXELS)
        budget = current_budget()
        canvas = Image.new("RGBA", (w, h), (0, 0, 0, 0))
        for x in layers:  # one layer decoded at a time (a face of 100 layers is 100 composites, not 100 images)
            im = self.layers.get(x)
            if im is None:
                with warnings.catch_warnings():  # a palette image with transparency bytes: converted, as asked
                    warnings.simplefilter("ignore", UserWarning)
                    data = self.src.read_member(f"images/{x}", MAX_IMAGE_BYTES)
                    im = self.layers.put(x, open_any_image(data, file=f"images/{x}", what="piece image",
                                                           max_pixels=MAX_ART_PIXELS, resolve=self.resolve,
                                                           name=f"images/{x}").convert("RGBA"))
            if im.width > w or im.height > h:  # an SVG's declared size rounded otherwise than its header's
                raise GazalaError(f"layer is {im.width} x {im.height}, the face {w} x {h}", file=f"images/{x}")
            budget.charge(pixels=w * h, file=f"images/{x}", what="piece layer")
            canvas.alpha_composite(im, ((w - im.width) // 2, (h - im.height) // 2))
        buf = io.BytesIO()
        canvas.save(buf, "PNG")
        return buf.getvalue(), ".png", (w, h)


def _square(size: tuple[int, int] | None) -> bool:
    if size is None:  # an image that cannot be drawn: its art is kept (a placeholder where it is printed)
        return True
    return near_square(*size)  # the sheets' rule: such art is drawn fitted into the counter


def _members(src: ModuleSource) -> list[str]:
    """The module's files other than its buildFile, sorted; within the input caps."""
    names = sorted(m for m in src.member_names(limit=MAX_MEMBERS + 1) if m != src.buildfile_name)
    if len(names) > MAX_MEMBERS:
        raise GazalaError(f"the module holds more than {MAX_MEMBERS:,} files", file=src.path,
                          expected=f"at most {MAX_MEMBERS:,}")
    return [m for m in names if not m.endswith("/")]


def import_folder(source: str | Path, folder: str | Path, *, words: str | Path | None = None,
                  update: Path | None = None) -> dict[str, Any]:
    """Write the game folder of a module; returns the import report (also written as import-report.yaml).
    ``words``: a word table added to the package's (:mod:`.units`); ``update``: the folder being updated
    (``--update``: :mod:`.update` keeps the user's edits)."""
    src = open_source(source, budget=MAX_MODULE_BYTES)
    src.kept = SizedDict(KEPT_BYTES, len)  # each file read once: the set-up saves and images, then copied
    mod = read_module(src)
    found = _find_main(mod)
    members = _members(src)
    present = {m[len("images/"):] for m in members if m.startswith("images/")}
    game = _game(mod, source, found.main, src.path)
    counters = _counters(mod, _Art(src, present), game)
    parts = _module_parts(src, mod, found.main, game, counters, words)
    module_doc = _module_doc(src, mod, found.main, present, parts, counters.slot_counter)
    report = _report(mod, found, game, counters, parts, module_doc, members)
    files = _files(src, mod, found, game, counters, parts, module_doc, report)
    return _write(src, Path(folder), files, counters.binary, members, report, update, named=bool(short_name(mod.name)))


@dataclass(frozen=True)
class _Found:
    """The grid map.yaml gives: the first numbered hex grid, else the first hex grid without a numbering
    (labels of ours), else the first square grid (issue 35); None: no map.yaml."""

    main: MainGrid | None
    square: bool  #: the main grid is a square grid
    ours_text: str | None  #: what map.yaml and game.yaml say when the labels are ours, else None


def _find_main(mod: ImportedModule) -> _Found:
    """The main grid of ``mod``; a grid labelled by us relabels the module's placements."""
    main = main_grid(mod)
    ours = first_unnumbered(mod) if main is None else None  # issue 35: a grid without numbering gets our labels
    if ours is not None:
        main = MainGrid(ours.map, ours.board, ours.geometry, ours.size)
        mod.placements = relabel(mod, ours)
    square = first_square(mod) if main is None else None  # no hex grid: the first square grid's cells
    if square is not None:
        main = MainGrid(square.map, square.board, square.geometry, square.size)
        if square.ours:
            mod.placements = relabel(mod, square)
    ours_text = OURS if ours is not None else OURS_SQUARE if square is not None and square.ours else None
    return _Found(main, square is not None, ours_text)


@dataclass(frozen=True)
class _Game:
    """game.yaml and map.yaml, and the names they give."""

    title: str
    sides: list[str]
    side_ids: dict[str, str]
    doc: dict[str, Any]  #: game.yaml
    map_doc: dict[str, Any] | None  #: map.yaml (None: the folder has none)


def _game(mod: ImportedModule, source: str | Path, main: MainGrid | None, file: str | Path) -> _Game:
    title = short_name(mod.name or Path(source).stem) or "imported"
    roster = list(dict.fromkeys(mod.sides))  # a side the roster lists twice is one side
    sides = roster if len(roster) >= 2 else [*roster, *(x for x in ("Side 1", "Side 2") if x not in roster)][:2]
    side_ids = unique_ids(sides)  # `Axis` and `AXIS`: two sides, two ids
    game_doc: dict[str, Any] = {
        "id": slug(title), "name": title, "provenance": "imported",
        "sources": [f"imported from the VASSAL module {title!r} (version {short_name(mod.version)})"],
        "sides": [{"id": side_ids[s], "name": short_name(s) or side_ids[s], "color": SIDE_COLORS[i % 2]}
                  for i, s in enumerate(sides)],
    }
    map_doc = _map_doc(mod, main, file)
    if map_doc is not None:  # a unit off the main grid stands in a box named after its zone or map (issue 35)
        game_doc["rules"] = {"boxes": {"rule": "boxes", "allowed": box_names(mod)}}
    if main is not None and main.geometry.numbering is not None:
        game_doc["numbering"] = _numbering_data(board_numbering(main))
    return _Game(title, sides, side_ids, game_doc, map_doc)


@dataclass(frozen=True)
class _Counters:
    """counters.yaml: a marker for each piece slot, and the art drawn for them."""

    doc: dict[str, Any]  #: counters.yaml
    markers: list[dict[str, Any]]
    drawn: int  #: the counters without art of their own (drawn by the sheets)
    slot_counter: dict[int, str]  #: each piece slot's counter id
    binary: dict[str, bytes]  #: the images drawn, by their name in the folder
    problems: ArtProblems  #: the images that cannot be drawn


def _counters(mod: ImportedModule, pictures: _Art, game: _Game) -> _Counters:
    binary: dict[str, bytes] = {}
    markers: list[dict[str, Any]] = []
    drawn: list[str] = []
    used: set[str] = set()
    sizes: list[int] = []
    slot_counter: dict[int, str] = {}
    for p in mod.pieces:
        pid = _piece_id(p, used)
        slot_counter[p.slot] = pid
        entry: dict[str, Any] = {"id": pid, "type": "piece", "front": {"title": _title(p.name) or pid},
                                 "provenance": f"gpid {p.gpid}: {p.element}"[:300]}
        if p.side is not None:
            entry["side"] = game.side_ids[p.side]
        art = _piece_art(p, pid, pictures, binary, sizes)
        if art is not None:
            entry["art"] = art
        else:
            drawn.append(pid)
        entry["vassal"] = {"slot": p.text}
        markers.append(entry)
    size_in = (sorted(sizes)[len(sizes) // 2] / DPI) if sizes else 0.5
    doc = {"provenance": "imported", "sources": [f"the piece slots of the VASSAL module {game.title!r}"],
           "counter_size": f"{size_in:g} in", "total": len(markers), "markers": markers}
    return _Counters(doc, markers, len(drawn), slot_counter, binary, pictures.problems)


def _piece_art(p: ImportedPiece, pid: str, pictures: _Art, binary: dict[str, bytes],
               sizes: list[int]) -> dict[str, str] | None:
    """A counter's ``art``: its faces' images (the module's, or its layers drawn, added to ``binary``), each
    face's width added to ``sizes``; None when the counter is drawn (the images made for it are dropped)."""
    art: dict[str, str] = {}
    made: list[str] = []
    for face, layers in (("front", p.front), ("back", p.back)):
        got = pictures.face(layers, pid)
        if got is None or not _square(got[2]):
            break
        image, suffix, size = got
        if isinstance(image, str):  # the module's own image, copied with the module's files
            art[face] = f"{FILES}/{image}"
        else:
            name = f"art/{pid}-{face}{suffix}"
            binary[name] = image
            art[face] = name
            made.append(name)
        if size is not None:
            sizes.append(size[0])
    if "front" in art and ("back" in art or p.back == p.front):
        return {"front": art["front"], **({"back": art["back"]} if "back" in art else {})}
    for name in made:
        binary.pop(name, None)
    return None


@dataclass(frozen=True)
class _Parts:
    """The module read as data: module.yaml's, units.yaml's and scenarios.yaml's content."""

    root: etree._Element  #: the buildFile (module.yaml's components change it: they come last)
    data: dict[str, Any]  #: module.yaml's maps, decks, dice, set-ups...
    kept_only: list[str]  #: the components kept verbatim only
    written: Written  #: scenarios.yaml
    facts: list[Inferred]  #: each piece slot's unit facts
    units: dict[str, Any]  #: units.yaml
    main_place: tuple[str, str, str | None] | None  #: the main grid's map, board and zone


def _module_parts(src: ModuleSource, mod: ImportedModule, main: MainGrid | None, game: _Game,
                  counters: _Counters, words: str | Path | None) -> _Parts:
    root = src.root()  # parsed once, by read_module; components() (_module_doc) changes it, so it comes last
    data = module_data(root, mod.layouts, counters.slot_counter)
    by_gpid: dict[str, str] = {}
    for p in mod.pieces:
        by_gpid.setdefault(p.gpid, counters.slot_counter[p.slot])
    setups = _setups(mod, data.get("set-ups", []), by_gpid)
    if setups:
        data["set-ups"] = setups
    on_hex = _on_hex(main, game.map_doc)
    written = scenarios_doc(setups, mod.placements, by_gpid, on_hex, main.map if main else None)
    facts = infer_units(mod, root, counters.slot_counter, game.side_ids, main_map=main.map if main else None,
                        on_hex=on_hex, words=load_words(words))
    main_place = (main.map, main.board.name, zone_of(main.board, main.geometry)) if main is not None else None
    units = units_doc(facts, [game.side_ids[s] for s in game.sides],
                      dict(zip(("map", "board", "zone"), main_place, strict=True)) if main_place else None)
    kept_only = data.pop("kept verbatim only")
    return _Parts(root, data, kept_only, written, facts, units, main_place)


def _module_doc(src: ModuleSource, mod: ImportedModule, main: MainGrid | None, present: set[str], parts: _Parts,
                slot_counter: dict[int, str]) -> dict[str, Any]:
    """module.yaml: the board art, the module's data and its components as written."""
    numbers = re.match(r"\d+(?:\.\d+)*", mod.version.strip())
    module_doc: dict[str, Any] = {"version": numbers.group(0) if numbers else "1.0", "vassal_version": "3.6.0",
                                  "counters": {"art": "render"}}
    if main is not None and main.board.image and main.board.image in present:
        module_doc["board"] = {"art": f"{FILES}/images/{main.board.image}", "dpi": DPI}
    module_doc["vassal"] = {
        "buildfile": src.buildfile_name, "files": FILES, **({"newline": "crlf"} if newline(src.xml) != "\n" else {}),
        "root": {"tag": str(parts.root.tag), "attributes": {str(k): str(v) for k, v in parts.root.attrib.items()}},
        **parts.data,
        "components": components(parts.root, slot_counter),
    }
    return module_doc


def _report(mod: ImportedModule, found: _Found, game: _Game, counters: _Counters, parts: _Parts,
            module_doc: dict[str, Any], members: list[str]) -> dict[str, Any]:
    """import-report.yaml, less what it says was written."""
    main, data, written = found.main, parts.data, parts.written
    return {
        "module": game.title,
        "counts": _counts(mod, counters, parts, module_doc, members),
        "main grid": ({"map": main.map, "board": main.board.name,
                       **({"labels": found.ours_text} if found.ours_text else {}),
                       **({"kind": "square", "moves": "orthogonal (map.yaml grid.moves)"} if found.square else {})}
                      if main is not None else None),
        **_grid_lines(mod, parts.main_place),
        "units": report_section(parts.facts, {k: v for k, v in parts.units.items() if k != "pieces"}),
        "kept verbatim only": sorted(set(parts.kept_only)),
        "boards not in map.yaml": [f"{m['name']} / {b['name']}: {b.get('grid', {}).get('kind', 'no grid')}"
                                   f" (module.yaml vassal.maps, kept verbatim for the rebuild)"
                                   for m in data.get("maps", []) for b in m["boards"]
                                   if main is None or (m["name"], b["name"]) != (main.map, main.board.name)],
        "placements": [{"setup": pl.setup, "gpid": pl.gpid, "name": pl.name, "map": pl.map, "board": pl.board,
                        "location": pl.location, "x": pl.x, "y": pl.y} for pl in mod.placements],
        "scenarios": written.report,
        "set-ups not written as scenarios": written.left_out,
        "traits kept verbatim": _trait_counts(mod),
        "images not drawn": counters.problems.records(),
        "not understood": mod.not_understood,
    }


def _counts(mod: ImportedModule, counters: _Counters, parts: _Parts, module_doc: dict[str, Any],
            members: list[str]) -> dict[str, Any]:
    """The report's counts: imported, kept verbatim, not understood."""
    data, root, written = parts.data, parts.root, parts.written
    maps = data.get("maps", [])
    imported = {"maps": len(maps),
                "boards": sum(len(m["boards"]) for m in maps),
                "zones": sum(len(b.get("grid", {}).get("zones", [])) for m in maps for b in m["boards"]),
                "regions": sum(len(b.get("grid", {}).get("regions", [])) for m in maps for b in m["boards"]),
                "counters": len(counters.markers), "counters with own art": len(counters.markers) - counters.drawn,
                "counters drawn": counters.drawn, "placements": len(mod.placements),
                "scenarios": len(written.report),
                **{f"scenario pieces {k}": sum(r[k] for r in written.report)
                   for k in ("on hexes", "in boxes", "not placed")},
                **{k: len(data.get(k, [])) for k in ("set-ups", "dice", "turn trackers")},
                "charts": sum(1 for el in root.iter() if short(el.tag) == "Chart"),
                "help pages": sum(1 for el in root.iter() if short(el.tag) in ("HelpFile", "AboutScreen")),
                "decks": sum(len(m.get("decks", [])) for m in maps),
                "images not drawn": len(counters.problems)}
    kept = {"components": len(module_doc["vassal"]["components"]),
            "components kept verbatim only": len(parts.kept_only),
            "traits": sum(len(p.verbatim) for p in mod.pieces), "module files": len(members)}
    return {"imported": imported, "kept verbatim": kept, "not understood": len(mod.not_understood)}


def _grid_lines(mod: ImportedModule, main_place: tuple[str, str, str | None] | None) -> dict[str, list[str]]:
    """The report's ``hex grids`` and (when there are any) ``square grids``: each grid and where it went."""
    def where(g: GridFound) -> str:
        return (f"{g.map} / {g.board.name}{f' / zone {g.zone}' if g.zone else ''}: "
                + ("labels of ours (no numbering in the module)" if g.ours else "the module's numbering"))

    squares = square_grids(mod)
    return {"hex grids": [where(g) + (" (map.yaml)" if is_main(g, main_place) else
                                      " (a map YAML in grids/; the referee names a unit there 'ZONE-OR-MAP BOARD LABEL')")
                          for g in hex_grids(mod)],
            **({"square grids": [where(g) + (" (map.yaml)" if is_main(g, main_place) else " (a map YAML in grids/)")
                                 for g in squares]} if squares else {})}


def _files(src: ModuleSource, mod: ImportedModule, found: _Found, game: _Game, counters: _Counters,
           parts: _Parts, module_doc: dict[str, Any], report: dict[str, Any]) -> dict[str, str]:
    """The folder's YAML files, import-report.yaml last (with what the others are); each within what a game
    folder's reader takes."""
    head = "# Written by `gazala game import` (`gazala help module`, \"Importing a module\").\n"
    grid_files = other_grid_docs(mod, parts.main_place,
                                 lambda g: _map_doc(mod, MainGrid(g.map, g.board, g.geometry, g.size), src.path))
    mark = f"# {found.ours_text}.\n" if found.ours_text else ""
    files = {"game.yaml": head + mark + _dump(game.doc),
             **({"map.yaml": head + mark + _dump(game.map_doc)} if game.map_doc else {}),
             **{name: head + _dump(doc) for name, doc in grid_files.items()},
             "units.yaml": head + UNITS_HEAD + dump(parts.units),
             "counters.yaml": head + dump(counters.doc), "module.yaml": head + dump(module_doc),
             **({"scenarios.yaml": head + _dump(parts.written.doc)} if parts.written.doc else {})}
    report["written"] = {n: sha(t) for n, t in sorted(files.items())}
    files["import-report.yaml"] = head + dump(report)  # once, with what it records (10,000 pieces: seconds)
    for name, text in files.items():  # what a game folder's reader takes at most: refused before any copy
        if name not in ("module.yaml", "import-report.yaml") and len(text.encode("utf-8")) > MAX_DATA_BYTES:
            raise GazalaError(f"the module cannot be imported: its {name} would be {len(text.encode('utf-8')):,} "
                              f"bytes, more than a game folder's {name} may be ({len(counters.markers):,} piece slots)",
                              file=src.path, expected=f"at most {MAX_DATA_BYTES:,} bytes")
    return files


def _write(src: ModuleSource, folder: Path, files: dict[str, str], binary: dict[str, bytes], members: list[str],
           report: dict[str, Any], update: Path | None, *, named: bool) -> dict[str, Any]:
    """Write the folder (all or nothing): ``files``, ``binary`` and the module's ``members`` copied, the folder
    read back before it appears; or, with ``update``, replace that folder keeping the user's edits. Returns
    the report."""
    copies = [(m, f"{FILES}/{m}") for m in members]
    stop = threading.Event()
    copy = _copier(src, copies, stop, read=src.kept.snapshot() if src.kept is not None else None)  # not read again
    # the manifest written, read as the readers check it less the art paths: those are made here (an image suffix,
    # a file copied or written, a name that stays in the folder), and checking 20,000 of them takes longer than
    # the copy; read from the text written (dumping it again without them cost as much as writing it)
    counters_text = files["counters.yaml"]

    def more(tmp: Path) -> None:
        with ThreadPoolExecutor(1) as pool:  # the copies wait on the disk: the reading back runs meanwhile
            copied = pool.submit(copy, tmp)
            try:
                _readable(tmp, folder, src.path, counters_text)
            except BaseException:
                stop.set()
                raise
            copied.result()

    if update is not None:  # --update: the user's edits kept, what changed said (issue 35)
        return finish_update(update, files, binary, src, more, report, named=named)
    write_new_folder(folder, {**files, **binary}, [src.path], more=more)
    return report


def _readable(tmp: Path, folder: Path, source: str | Path, counters: str) -> None:
    """The folder being assembled in ``tmp`` read as the toolkit's commands read it (``game show``: game.yaml
    and scenarios.yaml; ``map check``: map.yaml; ``counters list``: the manifest ``counters``); what they would
    refuse refuses the import, with the reason, before the folder appears (issue 31 item 7: a numbering
    game.yaml does not take)."""
    from gazala_tools.counters.loader import parse_manifest
    from gazala_tools.games.registry import load_game_folder
    from gazala_tools.mapdata.loader import load_game_map

    try:
        game = load_game_folder(tmp)
        load_scenarios(game)
        if game.map_file is not None and game.map_file.is_file():
            load_game_map(game)
        parse_manifest(counters, file=tmp / "counters.yaml", game=game, art=False)
    except GazalaError as exc:
        reason = exc.message().replace(str(tmp), str(folder))
        raise GazalaError(f"the module cannot be imported: the game folder it gives would be refused ({reason})",
                          file=source, expected="a module whose import the toolkit can read") from None


def _trait_counts(mod: ImportedModule) -> dict[str, int]:
    """How many of the pieces' traits this toolkit does not model, by trait (each is kept, as written, in
    its counter's ``vassal: slot``)."""
    counts: dict[str, int] = {}
    for p in mod.pieces:
        for t in p.verbatim:
            key = t.split(";", 1)[0].split("\t", 1)[0] + ";"
            counts[key] = counts.get(key, 0) + 1
    return dict(sorted(counts.items()))


def _setups(mod: ImportedModule, declared: list[dict[str, Any]], by_gpid: dict[str, str]) -> list[dict[str, Any]]:
    """Each predefined set-up with the pieces its save places (counter, map, board, location, point)."""
    out = []
    for s in declared:
        pieces = [{"counter": by_gpid.get(pl.gpid, ""), "name": pl.name, "map": pl.map, "board": pl.board,
                   "location": pl.location, "x": pl.x, "y": pl.y}
                  for pl in mod.placements if pl.file and pl.file == s.get("file") and pl.setup == s.get("name")]
        out.append({**s, **({"pieces": pieces} if pieces else {})})
    return out


def _on_hex(main: MainGrid | None, map_doc: dict[str, Any] | None) -> Callable[[SetupPlacement], bool]:
    """Whether a piece stands on a hex of map.yaml: on the main grid's board, at a location that is one of
    its hexes' labels."""
    if main is None or map_doc is None:
        return lambda pl: False
    assert main.geometry.numbering is not None  # map_doc is None without it
    alone = {"game": "imported", **map_doc,  # the map on its own: the numbering game.yaml gives the folder's
             "grid": {**map_doc["grid"], "numbering": _numbering_data(board_numbering(main))}}
    game_map = load_map_text(_dump(alone), "map.yaml")
    known: dict[str, bool] = {}

    def on_hex(pl: SetupPlacement) -> bool:
        label = pl.location
        if pl.map != main.map or pl.board != main.board.name or not label:
            return False
        if label not in known:
            try:
                known[label] = game_map.grid.contains(game_map.hex(label))
            except (GazalaError, KeyError, ValueError):
                known[label] = False
        return known[label]

    return on_hex


def _copier(src: ModuleSource, copies: list[tuple[str, str]], stop: threading.Event | None = None,
            read: Mapping[str, bytes] | None = None) -> Callable[[Path], None]:
    """What copies the module members ``copies`` (member, name in the folder) into the folder being
    assembled, each streamed (never held whole), within :data:`MAX_IMAGE_BYTES` each and
    :data:`MAX_MODULE_BYTES` in all; no name may lead out of the folder. ``stop``: once set, no further
    file is started (the import was refused meanwhile). ``read``: members already read (their bytes are
    written, the member is not read again)."""

    def more(tmp: Path) -> None:
        made: set[Path] = set()
        jobs: list[tuple[str, Path]] = []
        for member, name in copies:
            # the folder being assembled is new (no symlink in it): a name that stays inside stays inside
            if not safe_member_name(name) or posixpath.normpath(name) in (".", "") or "\\" in name:
                raise GazalaError(f"file name {name!r} would leave the game folder", file=src.path)
            path = tmp / name
            if path.parent not in made:
                path.parent.mkdir(parents=True, exist_ok=True)
                made.add(path.parent)
            jobs.append((member, path))

        def copy(job: tuple[str, Path]) -> int:
            member, path = job
            if stop is not None and stop.is_set():
                return 0
            data = read.get(member) if read is not None else None
            with open(path, "xb") as fh:
                if data is not None:  # within MAX_IMAGE_BYTES: it was read within a smaller cap
                    fh.write(data)
                    return len(data)
                return src.copy_member(member, fh.write, MAX_IMAGE_BYTES)

        # creating a file waits on the disk, not the CPU: several at once (4x faster for 10,000 images)
        total = 0
        with ThreadPoolExecutor(COPY_THREADS) as pool:
            try:
                for n in pool.map(copy, jobs):
                    total += n
                    if total > MAX_MODULE_BYTES:
                        raise GazalaError("the module's files pass the import's size budget", file=src.path,
                                          expected=f"at most {MAX_MODULE_BYTES:,} bytes in all")
            except BaseException:
                pool.shutdown(cancel_futures=True)
                raise

    return more


def _title(name: str) -> str:
    """A counter's title from a piece's name: one line of printable characters, at most 60, not ending in a
    backslash (what counters.yaml accepts; the name itself stays in the kept definition)."""
    text = NOT_DRAWN.sub(" ", name)[:60].rstrip("\\ ")
    return text


def _piece_id(p: ImportedPiece, used: set[str]) -> str:
    base = slug(p.name)[:40].strip("-") or "piece"
    pid = f"{base}-{slug(p.gpid)}" if p.gpid else base
    n = 2
    out = pid
    while out in used:
        out = f"{pid}-{n}"
        n += 1
    used.add(out)
    return out
