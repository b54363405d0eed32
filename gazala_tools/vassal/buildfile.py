"""Read maps, boards and grids from a VASSAL module or buildFile: read-only and safe.

Sources: a ``.vmod`` (zip), a ``buildFile.xml``/``buildFile`` path, or a directory holding one.
Safety: XML is parsed with entity resolution, DTD loading and network access off (a DOCTYPE
that declares entities is refused: XXE); zip member names with ``..`` or absolute paths are
refused; entries are size-capped; a file that is not a zip is refused with a clear error.
Nothing is ever written.
"""

from __future__ import annotations

import io
import logging
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from lxml import etree

from gazala_tools.errors import VassalFormatError
from gazala_tools.filecache import SizedDict
from gazala_tools.hexgrid import Board, Grid, GridZone, HexGridGeometry, MapLayout, ZonedGrid
from gazala_tools.inputs import (
    XmlBudget,
    ZipInput,
    check_xml_budget,
    image_header_size,
    inside_folder,
    is_regular,
    open_file,
    read_file,
    refuse_doctype,
    refuse_dtd,
)
from gazala_tools.numbering import GRID_MAX_PIXEL, Numbering, module_int
from gazala_tools.squaregrid import SquareGridGeometry
from gazala_tools.vsav import sequence
from gazala_tools.vsav.sequence import TAB

__all__ = [
    "ALL_MAP_CLASSES",
    "BUILDFILE_BUDGET",
    "HEXGRID",
    "HEXNUM",
    "IMAGE_HEADER_BYTES",
    "MAP_CLASSES",
    "MAX_BUILDFILE_BYTES",
    "MAX_ELEMENTS",
    "MAX_PIECE_DEFINITIONS",
    "MAX_ZONES",
    "MAX_ZONE_POINTS",
    "PKG",
    "SQNUM",
    "SQUAREGRID",
    "ZONE",
    "ZONEDGRID",
    "ModuleSource",
    "find_layout",
    "layouts_from_xml",
    "log",
    "open_source",
    "parse_xml",
    "read_layouts",
]

log = logging.getLogger(__name__)

MAX_BUILDFILE_BYTES = 64 * 1024 * 1024
#: most zones a module may have, and most points of all their paths together (real modules: some
#: hundreds of zones of 4 to 50 points); each point is held and tested for every location looked up
MAX_ZONES = 20_000
MAX_ZONE_POINTS = 200_000
#: what a parsed buildFile may hold, counted before lxml builds it (issue 31: 2.4 million empty elements
#: took 1.2 GB to import, 300,000 piece slots 64 s to lint, 49,000 slots 42 s to import). Real modules: some thousands to 100,000
#: elements, at most some thousands of piece slots and prototypes.
MAX_ELEMENTS = 150_000
MAX_PIECE_DEFINITIONS = 20_000
BUILDFILE_BUDGET = XmlBudget(MAX_ELEMENTS, tags={"VASSAL.build.widget.PieceSlot": MAX_PIECE_DEFINITIONS,
                                                 "VASSAL.build.module.PrototypeDefinition": MAX_PIECE_DEFINITIONS})
#: bytes read from an image to find its size (PNG/GIF: 24; a JPEG's SOF marker is near the start)
IMAGE_HEADER_BYTES = 256 * 1024

PKG = "VASSAL.build.module.map.boardPicker"
MAP_CLASSES = ("VASSAL.build.module.Map", "VASSAL.build.module.PrivateMap", "VASSAL.build.module.PlayerHand")
#: every class that is a VASSAL Map, a chart window's map widget (``WidgetMap``) too: it has boards, takes
#: pieces and shares the maps' ``Map<n>`` ids (``module lint`` reads them; the importer keeps them verbatim)
ALL_MAP_CLASSES = (*MAP_CLASSES, "VASSAL.build.widget.WidgetMap")
HEXGRID = f"{PKG}.board.HexGrid"
SQUAREGRID = f"{PKG}.board.SquareGrid"
ZONEDGRID = f"{PKG}.board.ZonedGrid"
ZONE = f"{PKG}.board.mapgrid.Zone"
HEXNUM = f"{PKG}.board.mapgrid.HexGridNumbering"
SQNUM = f"{PKG}.board.mapgrid.SquareGridNumbering"


@dataclass
class ModuleSource:
    """The bytes of a module's buildFile and a way to read its images; :meth:`root` is the buildFile
    parsed, once per source (issue 34: the reader, the layouts and the importer share it)."""

    path: Path
    buildfile_name: str
    xml: bytes
    _zip: ZipInput | None = None
    _dir: Path | None = None
    _root: etree._Element | None = field(default=None, repr=False, compare=False)
    #: the members read so far, kept while they fit (None: none kept); ``game import`` sets it so that each
    #: file of the module is read once (sized, checked, drawn, copied)
    kept: SizedDict[str, bytes] | None = field(default=None, repr=False, compare=False)

    def root(self) -> etree._Element:
        """The buildFile's root element, parsed (safely, :func:`parse_xml`) on the first call only.
        Shared by every reader of this source: a reader that changes the tree says so."""
        if self._root is None:
            self._root = parse_xml(self.xml, self.path)
        return self._root

    def member_names(self, limit: int = 200_000) -> set[str]:
        """The module's member names (a folder: its files' relative paths, ``/``-separated; at most
        ``limit``, symlinks not followed)."""
        if self._zip is not None:
            return set(self._zip.names())
        out: set[str] = set()
        if self._dir is None:
            return out
        for dirpath, _dirs, files in os.walk(self._dir):
            rel = Path(dirpath).relative_to(self._dir)
            for f in files:
                out.add((rel / f).as_posix())
                if len(out) >= limit:
                    return out
        return out

    def has_member(self, name: str) -> bool:
        """Whether the module holds ``name`` (a zip member, or a regular file inside the folder)."""
        if self._zip is not None:
            return self._zip.info(name) is not None
        if self._dir is not None:
            try:
                p = _inside(self._dir, name)
            except VassalFormatError:
                return False
            return is_regular(p)
        return False

    def read_member(self, name: str, cap: int) -> bytes:
        """The bytes of a module member (capped; a folder's file must stay inside the folder); kept in
        :attr:`kept` when it is set."""
        got = self.kept.get(name) if self.kept is not None else None
        if got is not None and len(got) <= cap:
            return got
        if self._zip is not None:
            data = self._zip.read(name, cap)
        else:
            root = self._dir if self._dir is not None else self.path.parent
            p = _inside(root, name, file=self.path)
            data = read_file(p, what="module file", cap=cap, error=VassalFormatError)
        return self.kept.put(name, data) if self.kept is not None else data

    def copy_member(self, name: str, write: Callable[[bytes], object], cap: int) -> int:
        """Stream a module member to ``write`` in chunks, never held whole (capped as :meth:`read_member`);
        returns the bytes copied."""
        if self._zip is not None:
            return self._zip.copy(name, write, cap)
        root = self._dir if self._dir is not None else self.path.parent
        p = _inside(root, name, file=self.path)
        n = 0
        with open_file(p, what="module file", cap=cap, error=VassalFormatError) as fh:
            while chunk := fh.read(1 << 20):
                n += len(chunk)
                if n > cap:
                    raise VassalFormatError("module file is larger than the size cap", file=p,
                                            expected=f"at most {cap:,} bytes")
                write(chunk)
        return n

    def member_head(self, name: str, n: int) -> tuple[bytes, int] | None:
        """The first ``n`` bytes of a module member and its whole size in bytes (nothing more is read or
        decompressed), or None when the module has no such member."""
        if self._zip is not None:
            info = self._zip.info(name)
            return None if info is None else (self._zip.read_head(info, n), info.file_size)
        if not self.has_member(name):
            return None
        root = self._dir if self._dir is not None else self.path.parent
        p = inside_folder(root / name, root, name=name, what="module file", file=self.path, error=VassalFormatError)
        with open_file(p, what="module file", error=VassalFormatError) as fh:
            return fh.read(n), os.fstat(fh.fileno()).st_size

    def image_size(self, name: str) -> tuple[int, int] | None:
        """Width and height of ``images/<name>`` from its header (at most :data:`IMAGE_HEADER_BYTES`
        read, never decoded), or None when it is missing or not a PNG, GIF or JPEG."""
        data = b""
        member = f"images/{name}"
        if self._zip is not None:
            data = self._zip.read_head(member, IMAGE_HEADER_BYTES)
        elif self._dir is not None:
            p = _inside(self._dir, member, what="module image", file=self.path)  # a symlink out is refused
            if not is_regular(p):
                return None
            with open_file(p, what="board image", error=VassalFormatError) as fh:
                data = fh.read(IMAGE_HEADER_BYTES)
        return image_header_size(data) if data else None


def _inside(root: Path, name: str, *, what: str = "module file", file: Path | None = None) -> Path:
    """``root/name`` resolved, refused when it leaves the module folder ``root`` (issue 31 item 4: an unzipped
    module is read through the same sandbox as a game folder)."""
    return inside_folder(root / name, root, name=name, what=what, file=file, error=VassalFormatError,
                         folder="module folder")


def _image_size(data: bytes) -> tuple[int, int] | None:
    """Image dimensions from PNG/GIF/JPEG headers, else from the header Pillow reads (BMP, TIFF, ...);
    never decoded, and only the first :data:`IMAGE_HEADER_BYTES` are looked at."""
    head = data[:IMAGE_HEADER_BYTES]
    size = image_header_size(head)
    if size is not None:
        return size
    try:
        from PIL import Image

        with Image.open(io.BytesIO(head)) as im:  # the header only
            return im.size
    except Exception:  # an image Pillow cannot identify (or refuses) has no known size
        return None


def open_source(source: str | Path, *, budget: int = MAX_BUILDFILE_BYTES + 16 * 1024 * 1024) -> ModuleSource:
    """Open a module, buildFile or module directory for reading; ``budget`` caps the bytes read from a
    zip in all (the buildFile and image headers by default; ``game import`` copies images too)."""
    path = Path(source)
    if not path.exists():
        raise VassalFormatError("no such file", file=path, expected="a .vmod, buildFile.xml or buildFile")
    if path.is_dir():  # an unzipped module: a sandbox like a game folder (nothing read from outside it)
        for name in ("buildFile.xml", "buildFile"):
            if os.path.lexists(path / name):
                inside = _inside(path, name, what="buildFile", file=path)
                return ModuleSource(path, name, _read_capped(inside), _dir=path)
        raise VassalFormatError("directory holds no buildFile.xml or buildFile", file=path)
    zipped = path.suffix.lower() in (".vmod", ".zip", ".vext")
    if not zipped:  # a buildFile named directly: its folder is the module's, and it may not leave it
        path_inside = _inside(path.parent, path.name, what="buildFile", file=path)
    with open_file(path, what="module", error=VassalFormatError) as fh:
        head = fh.read(4)
    if head[:2] == b"PK":
        zf = ZipInput(path, budget=budget, error=VassalFormatError, what="module")
        names = set(zf.names())
        for name in ("buildFile.xml", "buildFile"):
            if name in names:
                return ModuleSource(path, name, zf.read(name, MAX_BUILDFILE_BYTES), _zip=zf)
        zf.close()
        raise VassalFormatError("module holds no buildFile.xml or buildFile", file=path)
    if zipped:
        raise VassalFormatError(
            f"not a zip archive (starts with {head!r})", file=path, expected="a VASSAL module, which is a zip file"
        )
    return ModuleSource(path, path.name, _read_capped(path_inside), _dir=path.parent)


def _read_capped(path: Path) -> bytes:
    return read_file(path, what="buildFile", cap=MAX_BUILDFILE_BYTES, error=VassalFormatError)


def parse_xml(data: bytes, file: str | Path) -> etree._Element:
    """Parse a buildFile safely: the parser resolves no entity, loads no DTD and uses no network, and a
    document with any DOCTYPE (in whatever encoding, however far in) is refused."""
    refuse_doctype(data, file=file, error=VassalFormatError)
    check_xml_budget(data, BUILDFILE_BUDGET, file=file, what="buildFile", error=VassalFormatError)
    parser = etree.XMLParser(
        resolve_entities=False, no_network=True, load_dtd=False, dtd_validation=False, huge_tree=False
    )
    try:
        root = etree.fromstring(data, parser)
    except etree.XMLSyntaxError as exc:
        line = getattr(exc, "lineno", None)
        raise VassalFormatError(f"XML syntax error: {exc.msg}", file=file, place=f"line {line}" if line else None) from None
    except (ValueError, LookupError) as exc:
        raise VassalFormatError(f"XML cannot be parsed ({exc})", file=file) from None
    refuse_dtd(root, file=file, error=VassalFormatError)
    return root


def _children(el: etree._Element, tag: str) -> Iterator[etree._Element]:
    for child in el:
        if isinstance(child.tag, str) and child.tag == tag:
            yield child


def _attrs(el: etree._Element) -> dict[str, str]:
    return {str(k): str(v) for k, v in el.attrib.items()}


def _int_attr(el: etree._Element, key: str, default: int, file: Path) -> int:
    """An integer attribute (a map's edge, a board's size) within the pixels a map may have (issue 31)."""
    raw = el.get(key)
    if raw is None or raw == "":
        return default
    try:
        return module_int(el.tag.rsplit(".", 1)[-1], key, raw, lo=0)
    except ValueError as exc:
        raise VassalFormatError(str(exc), file=file, place=f"line {el.sourceline}",
                                expected=f"a plain decimal integer within 0..{GRID_MAX_PIXEL:,}") from None


def _grid(el: etree._Element, file: Path) -> Grid | None:
    tag = el.tag
    try:
        if tag == HEXGRID:
            num = next(_children(el, HEXNUM), None)
            numbering = Numbering.from_vassal_attrs(_attrs(num)) if num is not None else None
            return HexGridGeometry.from_vassal_attrs(_attrs(el), numbering)
        if tag == SQUAREGRID:
            sq_num = next(_children(el, SQNUM), None)
            return SquareGridGeometry.from_attrs(_attrs(el), _attrs(sq_num) if sq_num is not None else None)
        if tag == ZONEDGRID:
            zones: list[GridZone] = []
            background: Grid | None = None
            for child in el:
                if not isinstance(child.tag, str):
                    continue
                if child.tag == ZONE:
                    zones.append(_zone(child, file))
                elif child.tag in (HEXGRID, SQUAREGRID, ZONEDGRID):
                    background = _grid(child, file)
            return ZonedGrid(tuple(zones), background)
    except ValueError as exc:
        raise VassalFormatError(str(exc), file=file, place=f"line {el.sourceline}") from None
    log.info("%s: grid type %s is not supported; its hexes have no names", file, tag)
    return None


def _zone(el: etree._Element, file: Path) -> GridZone:
    path_text = el.get("path", "")
    points: list[tuple[int, int]] = []
    for pair in filter(None, path_text.split(";")):
        try:
            xs, ys = pair.split(",")
            point = (int(xs), int(ys)) if len(xs) + len(ys) < 40 else (0, 0)
            if len(xs) + len(ys) >= 40 or max(abs(point[0]), abs(point[1])) > GRID_MAX_PIXEL:
                raise ValueError(pair)  # beyond any map (issue 31)
            points.append(point)
        except ValueError:
            raise VassalFormatError(
                f"zone {el.get('name')!r} path point {pair!r} is malformed",
                file=file,
                place=f"line {el.sourceline}",
                expected=f"x,y;x,y;... integers within +-{GRID_MAX_PIXEL:,}",
            ) from None
    grid: Grid | None = None
    for child in el:
        if isinstance(child.tag, str) and child.tag in (HEXGRID, SQUAREGRID):
            grid = _grid(child, file)
    return GridZone(
        name=el.get("name", ""),
        path=tuple(points),
        # Zone.locationFormat is "$name$" unless the buildFile says otherwise (VASSAL 3.7.26 Zone.java)
        location_format=el.get("locationFormat", "$name$"),
        grid=grid,
        use_parent_grid=(el.get("useParentGrid", "false").lower() == "true"),
    )


def read_layouts(source: str | Path) -> list[MapLayout]:
    """Every map of a module with its boards: the boards a new game of VASSAL lays out
    (``MapLayout.boards``: the default set-up, or the one board; none when VASSAL asks the player,
    ``MapLayout.choose_boards``), every board of its BoardPicker in XML order (``MapLayout.all_boards``).

    A saved game's SetBoards command may lay boards out differently; use
    :func:`layout_with_boards` for that.
    """
    src = open_source(source)
    return layouts_from_xml(src)


def _check_zones(root: etree._Element, file: Path) -> None:
    """Refuse, before any zone is built, a module with more zones or zone points than the caps (a
    77 KB module with 7,800 zones of 1,100 points each took 1.1 GB and 90 s to name one point)."""
    points = 0
    for zones, el in enumerate(root.iter(ZONE), 1):
        points += el.get("path", "").count(";") + 1
        if zones > MAX_ZONES or points > MAX_ZONE_POINTS:
            raise VassalFormatError(f"the module's zones have more than {MAX_ZONES:,} zones or {MAX_ZONE_POINTS:,} "
                                    "path points", file=file, place=f"line {el.sourceline}",
                                    expected=f"at most {MAX_ZONES:,} zones and {MAX_ZONE_POINTS:,} points in all")


def layouts_from_xml(src: ModuleSource, classes: tuple[str, ...] = MAP_CLASSES) -> list[MapLayout]:
    """The layouts of the maps of ``classes`` (``ALL_MAP_CLASSES``: chart windows' map widgets too)."""
    root = src.root()
    _check_zones(root, src.path)
    layouts: list[MapLayout] = []
    index = -1
    for el in root.iter():
        if not isinstance(el.tag, str) or el.tag not in classes:
            continue
        index += 1
        name = el.get("mapName", "")
        edge_w = _int_attr(el, "edgeWidth", 0, src.path)
        edge_h = _int_attr(el, "edgeHeight", 0, src.path)
        boards: list[Board] = []
        setup: str | None = None
        for picker in _children(el, "VASSAL.build.module.map.BoardPicker"):
            for b in _children(picker, f"{PKG}.Board"):
                boards.append(_board(b, src))
            for st in _children(picker, "setup"):
                setup = setup if setup is not None else (st.text or "")
        placed, choose = _new_game_boards(boards, setup, (name, f"Map{index}"))
        layouts.append(MapLayout(name, edge_w, edge_h, placed, tuple(boards), choose_boards=choose))
    return layouts


def _new_game_boards(boards: list[Board], setup: str | None,
                     map_ids: tuple[str, ...]) -> tuple[tuple[tuple[Board, int, int], ...], bool]:
    """The boards VASSAL 3.7.26 lays out when a new game starts, and whether it asks the player
    instead (``BoardPicker.setup``, ``getDefaultSetup``, ``isFinished``; vassal-format.md §4.7):

    * the picker's default set-up (its ``<setup>`` element: a SetBoards command, ``<map>BoardPicker``
      then board, column, row...): those boards, at their columns and rows (an unknown board name is
      left out, a column or row that is not a number is 0, as VASSAL's ``decode`` does; a command of
      another map lays out nothing);
    * no default set-up and exactly one board that is not reversible: that board;
    * otherwise (several boards, or one reversible board): the player is asked ("Choose Boards")
      and, until a game's SetBoards says which, the map has no board: every point is offboard.
    """
    if setup:
        tokens = sequence.decode(setup, TAB)
        if not any(tokens[0] == f"{m}BoardPicker" for m in map_ids if m):
            return (), False
        by_name = {b.name: b for b in boards}
        placed: list[tuple[Board, int, int]] = []
        rest = tokens[1:]
        for i in range(0, len(rest), 3):
            board = by_name.get(rest[i].split("/")[0])
            if board is not None:
                placed.append((board, _java_int_or_0(rest, i + 1), _java_int_or_0(rest, i + 2)))
        return tuple(placed), False
    if len(boards) == 1 and not boards[0].reversible:
        return ((boards[0], 0, 0),), False
    return (), bool(boards)


def _java_int_or_0(tokens: list[str], i: int) -> int:
    """``SequenceEncoder.Decoder.nextInt(0)``: the token as an int, 0 when missing or not a number."""
    try:
        return sequence.java_int(tokens[i]) if i < len(tokens) else 0
    except ValueError:
        return 0


def _board(el: etree._Element, src: ModuleSource) -> Board:
    image = el.get("image") or None
    width: int | None = _int_attr(el, "width", 500, src.path)
    height: int | None = _int_attr(el, "height", 500, src.path)
    if image:
        size = src.image_size(image)
        if size is None:
            log.info("%s: board %r image %r is missing; board size unknown", src.path, el.get("name"), image)
            width = height = None
        else:
            width, height = size
    grid: Grid | None = None
    for child in el:
        if isinstance(child.tag, str) and child.tag in (HEXGRID, SQUAREGRID, ZONEDGRID):
            grid = _grid(child, src.path)
    return Board(
        name=el.get("name", ""),
        width=width,
        height=height,
        grid=grid,
        reversible=(el.get("reversible", "false").lower() == "true"),
        image=image,
    )


def find_layout(layouts: list[MapLayout], name: str | None, file: str | Path) -> MapLayout:
    """The map called ``name`` (or the first map with a grid when ``name`` is None)."""
    if name is not None:
        for lay in layouts:
            if lay.name == name:
                return lay
        raise VassalFormatError(
            f"no map named {name!r}", file=file, expected="one of " + ", ".join(repr(x.name) for x in layouts)
        )
    for lay in layouts:
        if any(b.grid is not None for b in (lay.all_boards or tuple(b for b, _c, _r in lay.boards))):
            return lay
    if layouts:
        return layouts[0]
    raise VassalFormatError("module has no maps", file=file)
