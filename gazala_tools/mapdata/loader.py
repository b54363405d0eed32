"""Read map-data YAML (``mapdata/<game>/map.yaml``); the format is ``schema.json`` (the writer is
:mod:`.writer`).

The reader composes the YAML into nodes first (``yaml.compose``), so every error names the file,
the line and column, and the bad value: ``map.yaml:41:7: hex '3301' is not on the map (expected
columns 1-29, rows 1-22)``. It parses the whole document before building anything.

Hex lists take labels (``"0104"``) and same-column ranges (``"0106..0122"``). Hexsides are
``"1217/1316"``; escarpment sides are written ``"LOW>HIGH"`` (``"0507>0508"``: 0508 is up).
A map may ``extends: <game>`` another map: its sections replace the base's, and its list
entries (``boxes``, ``hexsides``, ``paths``, ``places``, ``zones``) replace base entries of the same
``name`` or are appended; ``remove: {places: [...], ...}`` drops base entries by name.
"""

from __future__ import annotations

import itertools
import os
import re
from collections.abc import Iterator, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Final

import yaml

from gazala_tools.errors import GazalaError, MapDataError
from gazala_tools.filecache import FileCache
from gazala_tools.fileio import note_input
from gazala_tools.games import Game, default_game_id, find_game, is_builtin
from gazala_tools.games.model import GAME_FILE, MAP_FILE
from gazala_tools.grid import GameGrid
from gazala_tools.hexes import Hex, Hexside, Orientation
from gazala_tools.inputs import inside_folder
from gazala_tools.mapdata.model import (
    Box,
    GameMap,
    HexsideFeature,
    HexsideKind,
    HexsideKindType,
    MapPath,
    PathKind,
    PathKindType,
    PixelGrid,
    Place,
    TerrainType,
    Zone,
)
from gazala_tools.numbering import Numbering
from gazala_tools.squaregrid import MOVES, SquareGameGrid
from gazala_tools.yamlnodes import Doc, compose, did_you_mean

__all__ = [
    "GAME_NUMBERING",
    "LIST_SECTIONS",
    "MAX_PIXEL",
    "STYLE_KEYS",
    "TOP_KEYS",
    "load_game_map",
    "load_map",
    "load_map_file",
    "load_map_text",
    "map_file",
]

#: ``GameMap.numbering_name`` of a map read as part of a game folder (numbering from game.yaml)
GAME_NUMBERING: Final = "game"
#: largest pixel coordinate or size of a board (hex sizes, origins, board and edge sizes)
MAX_PIXEL: Final = 1_000_000
_KIND: Final = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*")
LIST_SECTIONS: Final = ("boxes", "hexsides", "paths", "places", "zones")
TOP_KEYS: Final = frozenset(
    {"game", "title", "provenance", "notes", "extends", "remove", "grid", "terrain", "style", "hexside-kinds",
     "path-kinds", *LIST_SECTIONS}
)
_COLOUR: Final = re.compile(r"#[0-9a-fA-F]{6}")
#: the drawing styles the data may give (docs/render.md): per section, each key and its values
#: (a tuple of choices, or "colour", "fraction" (0 < x <= 1), "integer", "owners" (side: colour))
STYLE_KEYS: Final[Mapping[str, Mapping[str, tuple[str, ...] | str]]] = {
    "terrain": {"fill": "colour", "symbol": ("none", "specks", "crest"), "symbol-colour": "colour"},
    "hexside": {"colour": "colour", "line": ("solid", "heavy", "dots", "rings", "hatched", "ditch", "dashed"),
                "width": "fraction", "pending": ("solid", "heavy", "dots", "rings", "hatched", "ditch", "dashed"),
                "owners": "owners"},
    "path": {"colour": "colour", "line": ("solid", "dashed", "cased"), "width": "fraction", "inner": "colour",
             "layer": "integer"},
    "marker": {"symbol": ("square", "dot"), "colour": "colour", "size": "fraction"},
}


def map_file(game_or_dir: str | Path) -> Path:
    """The map YAML of a game (id or folder), a map directory or a YAML file."""
    p = Path(game_or_dir)
    if p.is_file():
        return p
    if p.is_dir():
        return p / MAP_FILE
    return find_game(str(game_or_dir)).map_file


#: maps by file version and game (a game's map depends on its game.yaml too)
_CACHE: FileCache[GameMap] = FileCache()


def _cached(path: Path, game: Game | None) -> GameMap:
    def load() -> GameMap:
        if game is None:
            return load_map_file(path)
        return load_map_file(path, game=game.id, numbering=game.numbering, sides=game.side_ids)

    note_input(path)
    try:
        return _CACHE.get(path, game, load)
    except OSError as exc:
        raise MapDataError(f"cannot read map data ({exc.strerror})", file=path) from None


def load_game_map(game: Game) -> GameMap:
    """A game's ``map.yaml``, read with the game's id, numbering and sides (cached)."""
    return _cached(game.map_file, game)


def load_map(game_or_dir: str | Path | Game | None = None) -> GameMap:
    """Load and validate a map: a game (id, folder or :class:`Game`; default: the default game),
    or a bare map YAML / map directory without a ``game.yaml`` (cached per file and mtime)."""
    if game_or_dir is None:
        game_or_dir = default_game_id()
    if isinstance(game_or_dir, Game):
        return load_game_map(game_or_dir)
    p = Path(game_or_dir)
    folder = p if p.is_dir() else p.parent if p.is_file() else None
    if folder is not None:
        # lexists: a game.yaml that cannot be stat'ed (a symlink to a 300-character name) is the registry's
        # to refuse cleanly (is_file raised ENAMETOOLONG: an internal error, issue 31's fuzz)
        if os.path.lexists(folder / GAME_FILE) and (p.is_dir() or p.name == MAP_FILE):
            return load_game_map(find_game(folder))
        if p.is_dir():  # a map folder: its map.yaml may not lead out of it
            inside_folder(p / MAP_FILE, p, name=MAP_FILE, what="data file", file=p / MAP_FILE, error=MapDataError)
        return _cached(p / MAP_FILE if p.is_dir() else p, None)
    return load_game_map(find_game(str(game_or_dir)))


# --- node access with positions (gazala_tools.yamlnodes) ---------------------------------------------


class _Doc(Doc):
    def __init__(self, file: Path) -> None:
        super().__init__(file, MapDataError)


def _compose(file: Path) -> yaml.Node:
    return compose(file, "map data", MapDataError)


def _sections(file: Path, seen: tuple[Path, ...] = (), folder: Path | None = None
              ) -> tuple[dict[str, tuple[_Doc, yaml.Node]], Path]:
    """Top-level sections of a map file, with ``extends`` resolved (each with its own file). A path
    that ``extends`` names stays inside ``folder`` (default: the map's folder; docs/games.md); a
    built-in game's id names that game's map (its folder is then the sandbox of what it extends)."""
    folder = file.parent if folder is None else folder
    doc = _Doc(file)
    root = doc.mapping(_compose(file), "map data", TOP_KEYS)
    own = {k: (doc, v) for k, v in root.items()}
    if "extends" not in root:
        return own, file
    base_file, base_folder = _extended(doc, root["extends"], file, folder, seen)
    base, _ = _sections(base_file.resolve(), (*seen, file.resolve()), base_folder.resolve())
    merged = dict(base)
    removals: dict[str, set[str]] = {}
    if "remove" in root:
        rm = doc.mapping(root["remove"], "remove", frozenset(LIST_SECTIONS))
        for sec, node in rm.items():
            removals[sec] = {doc.scalar(n, f"remove.{sec}") for n in doc.seq(node, f"remove.{sec}")}
    for key, (d, node) in own.items():
        if key in ("extends", "remove"):
            continue
        if key in LIST_SECTIONS and key in merged:
            continue  # merged below
        merged[key] = (d, node)
    merged.pop("extends", None)
    merged.pop("remove", None)
    for sec in LIST_SECTIONS:
        if sec in base or sec in own:
            merged[sec] = (doc, _merged_list(sec, base.get(sec), own.get(sec), removals.get(sec, set())))
    return merged, file


def _extended(doc: _Doc, node: yaml.Node, file: Path, folder: Path, seen: tuple[Path, ...]) -> tuple[Path, Path]:
    """The map file ``extends`` names (a built-in game's id, or a map .yaml inside ``folder``) and the
    folder its own ``extends`` stays in."""
    base_id = doc.scalar(node, "extends")
    if is_builtin(base_id):
        base_file = find_game(base_id).map_file
        base_folder = base_file.parent
    else:
        try:
            inside_folder(file.parent / base_id, folder, name=base_id, what="extends", error=MapDataError)
        except MapDataError as exc:
            raise doc.err(node, exc.problem, expected="a game id or a map .yaml of the game folder") from None
        base_file, base_folder = file.parent / base_id, folder
    if not base_file.is_file() or base_file.suffix.lower() not in (".yaml", ".yml"):
        raise doc.err(node, f"extends {base_id!r}: no such map", expected="a game id or a map .yaml path")
    if base_file.resolve() in seen:
        raise doc.err(node, f"extends {base_id!r} loops back to itself")
    return base_file, base_folder


def _merged_list(sec: str, base_entry: tuple[_Doc, yaml.Node] | None, own_entry: tuple[_Doc, yaml.Node] | None,
                 drop: set[str]) -> yaml.Node:
    """A list section of an extending map: the base's entries but those removed or replaced (by
    ``name``), then the map's own."""
    items: list[tuple[_Doc, yaml.Node]] = []
    if base_entry is not None:
        bd, bnode = base_entry
        items = [(bd, n) for n in bd.seq(bnode, sec)]
    if own_entry is not None:
        od, onode = own_entry
        for n in od.seq(onode, sec):
            name = _entry_name(od, n)
            if name is not None:
                drop.add(name)
    items = [(d, n) for d, n in items if _entry_name(d, n) not in drop]
    if own_entry is not None:
        od, onode = own_entry
        items += [(od, n) for n in od.seq(onode, sec)]
    return yaml.SequenceNode("tag:yaml.org,2002:seq", [_Tagged(d, n) for d, n in items])


class _Tagged(yaml.Node):
    """A list entry remembering which file (of an ``extends`` chain) it came from."""

    def __init__(self, doc: _Doc, node: yaml.Node) -> None:
        super().__init__(node.tag, node.value, node.start_mark, node.end_mark)
        self.doc = doc
        self.node = node


def _entry_name(doc: _Doc, node: yaml.Node) -> str | None:
    if isinstance(node, yaml.MappingNode):
        for k, v in node.value:
            if isinstance(k, yaml.ScalarNode) and k.value == "name" and isinstance(v, yaml.ScalarNode):
                return str(v.value)
    return None


def _items(doc: _Doc, node: yaml.Node, what: str) -> Iterator[tuple[_Doc, yaml.Node]]:
    for n in doc.seq(node, what):
        if isinstance(n, _Tagged):
            yield n.doc, n.node
        else:
            yield doc, n


def _named(
    d: _Doc, node: yaml.Node, section: str, keys: frozenset[str], required: tuple[str, ...] = ()
) -> Iterator[tuple[_Doc, yaml.Node, dict[str, yaml.Node], str]]:
    """Entries of a list section as (doc, node, mapping, name): names unique, required keys present."""
    names: set[str] = set()
    for ed, entry in _items(d, node, section):
        em = ed.mapping(entry, f"{section} entry", keys)
        for key in ("name", *required):
            if key not in em:
                raise ed.err(
                    entry, f"{section} entry: missing {key!r}", expected=", ".join(("name", *required))
                )
        name = ed.scalar(em["name"], f"{section}.name")
        if name in names:
            raise ed.err(em["name"], f"{section}: duplicate name {name!r}")
        names.add(name)
        yield ed, entry, em, name


def load_map_file(
    file: str | Path, *, game: str | None = None, numbering: Numbering | None = None, sides: tuple[str, ...] = ()
) -> GameMap:
    """Parse and validate one map YAML file (following ``extends``).

    ``game``/``numbering``: the game folder's id and numbering (``game.yaml``); the map then must not
    state its own (a fact is stated once). Without them the file is a stand-alone map and carries
    ``game:`` and ``grid.numbering`` itself (a digitized map before it has a game folder).
    """
    path = Path(file)
    sections, _ = _sections(path)
    return _Builder(path, sections, game=game, numbering=numbering, sides=sides).build()


def load_map_text(text: str, file: str | Path = "<string>", *, game: Game | None = None) -> GameMap:
    """Parse map YAML given as text (``extends`` resolves against the built-in maps); ``game``: the
    game folder it is the map of (else a stand-alone map)."""
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        p = Path(tmp) / Path(str(file)).name
        p.write_text(text, encoding="utf-8")
        try:
            if game is None:
                return load_map_file(p)
            return load_map_file(p, game=game.id, numbering=game.numbering, sides=game.side_ids)
        except MapDataError as exc:
            raise MapDataError(exc.problem, file=file, place=exc.place, expected=exc.expected) from None


def _square_grid(d: _Doc, m: Mapping[str, yaml.Node], numbering: Numbering, cols: tuple[int, int],
                 rows: tuple[int, int], north: str, max_rows: int, max_cols: int) -> GameGrid:
    """``grid: {kind: square}``: the cells (docs/mapdata.md, "Square grids"); ``moves`` says whether a step
    crosses a corner (``diagonal``, 8 neighbours) or only a side (``orthogonal``, the default, 4). A square
    numbering has no stagger: the numbering's ``stagger`` is not read."""
    moves = d.choice(m["moves"], "grid.moves", MOVES) if "moves" in m else "orthogonal"
    return SquareGameGrid(Orientation.FLAT, replace(numbering, stagger=False), cols, rows, north=north,
                          max_rows=max_rows, max_columns=max_cols, moves=moves)


class _Builder:
    def __init__(
        self,
        file: Path,
        sections: dict[str, tuple[_Doc, yaml.Node]],
        *,
        game: str | None,
        numbering: Numbering | None,
        sides: tuple[str, ...] = (),
    ) -> None:
        self.file = file
        self.s = sections
        self.game = game
        self.numbering = numbering
        self.sides = sides
        self.grid: GameGrid | None = None
        self.impassable: set[Hex] = set()

    def owner_expected(self) -> str:
        return "a side of the game (" + ", ".join(self.sides) + ")" if self.sides else "a side id"

    def owner(self, d: _Doc, node: yaml.Node, what: str) -> str:
        """A side id: one of the game's sides (game.yaml), or any id for a stand-alone map."""
        if self.sides:
            return d.choice(node, what, self.sides)
        return d.ident(node, what)

    def need(self, key: str) -> tuple[_Doc, yaml.Node]:
        if key not in self.s:
            raise MapDataError(f"missing top-level section {key!r}", file=self.file)
        return self.s[key]

    def build(self) -> GameMap:
        game, provenance, title, notes = self._read_header()
        grid, numbering_name, pixels = self.read_grid()
        self.grid = grid
        self.styles: dict[str, dict[str, dict[str, str]]] = {}
        default, types, overrides, tsources = self.read_terrain()
        self.kinds = self.read_hexside_kinds()
        self.path_kinds = self.read_path_kinds()
        self.impassable = {h for h, t in overrides.items() if types[t].impassable}
        if types[default].impassable:
            self.impassable |= {h for h in grid.hexes() if h not in overrides}
        boxes = self.read_boxes()
        feats = self.read_hexsides()
        paths = self.read_paths()
        places = self.read_places()
        zones = self.read_zones()
        owner_colours = self.read_style()
        return GameMap(
            game=game,
            title=title,
            grid=grid,
            numbering_name=numbering_name,
            pixels=pixels,
            provenance=provenance,
            terrain_default=default,
            terrain_types=types,
            terrain_overrides=overrides,
            terrain_sources=tsources,
            boxes=boxes,
            explicit_features=feats,
            paths=paths,
            places=places,
            zones=zones,
            notes=notes,
            source_dir=self.file.parent,
            owner_colours=owner_colours,
            hexside_kinds=self.kinds,
            path_kinds=self.path_kinds,
            styles=self.styles,
        )

    def _read_header(self) -> tuple[str, str, str, tuple[str, ...]]:
        """The map's game (none in a game folder's map), provenance, title and notes."""
        if self.game is None:
            d, gnode = self.need("game")
            game = d.scalar(gnode, "game")
        else:
            game = self.game
            if "game" in self.s:
                d, gnode = self.s["game"]
                raise d.err(gnode, "the map of a game folder does not name its game", expected="the id in game.yaml only")
        d, pnode = self.need("provenance")
        provenance = d.scalar(pnode, "provenance")
        title = self.s["title"][0].scalar(self.s["title"][1], "title") if "title" in self.s else game
        notes: tuple[str, ...] = ()
        if "notes" in self.s:
            nd, nn = self.s["notes"]
            notes = tuple(nd.scalar(n, "notes") for n in nd.seq(nn, "notes"))
        return game, provenance, title, notes

    def _declared_kinds(self, section: str, keys: frozenset[str]) -> Iterator[tuple[_Doc, str, dict[str, yaml.Node], str]]:
        """The entries of ``hexside-kinds:`` or ``path-kinds:`` (``{name: {keys...}}``, an empty value
        allowed) as (doc, name, mapping, what); a name that is not lowercase words is an error."""
        if section not in self.s:
            return
        d, node = self.s[section]
        for k, v in d.mapping(node, section).items():
            if not _KIND.fullmatch(k):
                raise d.err(v, f"{section}: {k!r} is not a kind name", expected="lowercase words joined by '-'")
            what = f"{section}.{k}"
            m = d.mapping(v, what, keys) if not (isinstance(v, yaml.ScalarNode) and v.value in ("", "~", "null")) else {}
            yield d, k, m, what

    def read_path_kinds(self) -> dict[str, PathKindType]:
        """``path-kinds: {name: {description, style}}``: the map's own words for its roads, tracks, railways,
        and how they are drawn."""
        out: dict[str, PathKindType] = {}
        for d, k, m, what in self._declared_kinds("path-kinds", frozenset({"description", "style"})):
            out[k] = PathKindType(PathKind(k), d.opt(m, "description", what) or "")
            if "style" in m:
                self.read_drawing(d, m["style"], "path", k, f"{what}.style")
        return out

    def path_kind(self, d: _Doc, node: yaml.Node, what: str) -> PathKind:
        """A path kind the map declares (``path-kinds``), with "did you mean"."""
        name = d.scalar(node, what)
        if name not in self.path_kinds:
            declared = ", ".join(self.path_kinds) or "none: declare it under path-kinds"
            raise d.err(node, f"{what}: {name!r} is not a path kind of this map{did_you_mean(name, self.path_kinds)}",
                        expected=f"one of path-kinds ({declared})")
        return PathKind(name)

    def read_hexside_kinds(self) -> dict[str, HexsideKindType]:
        """``hexside-kinds: {name: {description, directed, owned, impassable}}``: the map's own words."""
        out: dict[str, HexsideKindType] = {}
        keys = frozenset({"description", "directed", "owned", "impassable", "style"})
        for d, k, m, what in self._declared_kinds("hexside-kinds", keys):
            if "style" in m:
                self.read_drawing(d, m["style"], "hexside", k, f"{what}.style")

            def flag(key: str, m: Mapping[str, yaml.Node] = m, what: str = what, d: _Doc = d) -> bool:
                return d.boolean(m[key], f"{what}.{key}") if key in m else False

            out[k] = HexsideKindType(
                name=HexsideKind(k),
                description=d.opt(m, "description", what) or "",
                directed=flag("directed"),
                owned=flag("owned"),
                impassable=flag("impassable"),
            )
        return out

    def kind(self, d: _Doc, node: yaml.Node, what: str) -> HexsideKindType:
        """A hexside kind the map declares (``hexside-kinds``), with "did you mean"."""
        name = d.scalar(node, what)
        if name not in self.kinds:
            declared = ", ".join(self.kinds) or "none: declare it under hexside-kinds"
            raise d.err(node, f"{what}: {name!r} is not a hexside kind of this map{did_you_mean(name, self.kinds)}",
                        expected=f"one of hexside-kinds ({declared})")
        return self.kinds[name]

    def read_drawing(self, d: _Doc, node: yaml.Node, section: str, kind: str, what: str) -> None:
        """One ``style:`` mapping (docs/render.md), checked and kept as strings in ``self.styles``."""
        keys = STYLE_KEYS[section]
        out: dict[str, str] = {}
        for key, v in d.mapping(node, what, frozenset(keys)).items():
            spec, at = keys[key], f"{what}.{key}"
            if isinstance(spec, tuple):
                out[key] = d.choice(v, at, spec)
            elif spec == "colour":
                out[key] = self.colour(d, v, at)
            elif spec == "fraction":
                x = d.number(v, at)
                if not 0 < x <= 1:
                    raise d.err(v, f"{at}: {x:g} is out of range", expected="a fraction of the hex size, 0 < x <= 1")
                out[key] = f"{x:g}"
            elif spec == "integer":
                out[key] = str(d.integer(v, at, lo=-99, hi=99))
            else:  # owners: side -> colour
                for side, c in d.mapping(v, at).items():
                    out[f"owners.{side}"] = self.colour(d, c, f"{at}.{side}")
        self.styles.setdefault(section, {})[kind] = out

    @staticmethod
    def colour(d: _Doc, node: yaml.Node, what: str) -> str:
        text = d.scalar(node, what)
        if not _COLOUR.fullmatch(text):
            raise d.err(node, f"{what}: {text!r} is not a colour", expected='"#rrggbb" (quoted: # starts a YAML comment)')
        return text.lower()

    def read_style(self) -> bool:
        """``style: {owner-colours, markers}``: whether owned hexside features are drawn in their
        owner's colour (and the place markers' drawing); the answer of ``owner-colours``."""
        if "style" not in self.s:
            return False
        d, node = self.s["style"]
        m = d.mapping(node, "style", frozenset({"owner-colours", "markers"}))
        if "markers" in m:
            for k, v in d.mapping(m["markers"], "style.markers").items():
                self.read_drawing(d, v, "marker", k, f"style.markers.{k}")
        return d.boolean(m["owner-colours"], "style.owner-colours") if "owner-colours" in m else False

    # --- grid ----------------------------------------------------------------------------------------
    def read_grid(self) -> tuple[GameGrid, str, PixelGrid]:
        d, node = self.need("grid")
        keys = frozenset(
            {"kind", "moves", "orientation", "numbering", "columns", "rows", "north", "pixels", "max_rows",
             "max_columns"}
        )
        m = d.mapping(node, "grid", keys)
        square = "kind" in m and d.choice(m["kind"], "grid.kind", ("hex", "square")) == "square"
        self._check_grid_keys(d, node, m, square)
        orientation = Orientation.FLAT if square else Orientation(
            d.choice(m["orientation"], "grid.orientation", ("flat", "pointy")))
        if self.numbering is None:
            numbering, numbering_name = self.read_numbering(d, m["numbering"])
        elif "numbering" in m:
            raise d.err(m["numbering"], "grid.numbering: the numbering of a game folder is stated in its game.yaml",
                        expected="no numbering in map.yaml")
        else:
            numbering, numbering_name = self.numbering, GAME_NUMBERING
        cols = self.pair(d, m["columns"], "grid.columns")
        rows = self.pair(d, m["rows"], "grid.rows")
        north = (
            d.choice(m["north"], "grid.north", ("top", "left", "right", "bottom")) if "north" in m else "top"
        )
        max_rows = d.integer(m["max_rows"], "grid.max_rows") if "max_rows" in m else 0
        max_cols = d.integer(m["max_columns"], "grid.max_columns") if "max_columns" in m else 0
        try:
            grid = GameGrid(
                orientation, numbering, cols, rows, north=north, max_rows=max_rows, max_columns=max_cols
            ) if not square else _square_grid(d, m, numbering, cols, rows, north, max_rows, max_cols)
        except ValueError as exc:
            raise d.err(node, f"grid: {exc}") from None
        pixels = self._read_pixels(d, m["pixels"])
        if square:
            self._check_no_hexsides(d)
        return grid, numbering_name, pixels

    def _check_grid_keys(self, d: _Doc, node: yaml.Node, m: dict[str, yaml.Node], square: bool) -> None:
        """The keys a hex or square ``grid:`` must have, and none that only the other kind has."""
        for k in (*(() if square else ("orientation",)), "columns", "rows", "pixels",
                  *(("numbering",) if self.numbering is None else ())):
            if k not in m:
                raise d.err(node, f"grid: missing {k!r}")
        for k, other in (("orientation", "hex"), ("moves", "square")):
            if k in m and square != (other == "square"):
                raise d.err(m[k], f"grid.{k}: only a {other} grid has it", expected=f"no {k} in a "
                            f"{'square' if square else 'hex'} grid")

    @staticmethod
    def _read_pixels(d: _Doc, node: yaml.Node) -> PixelGrid:
        """``grid.pixels``: where the grid stands on the board image."""
        pkeys = frozenset(
            {"dx", "dy", "x0", "y0", "board_width", "board_height", "edge_width", "edge_height", "dpi"}
        )
        pm = d.mapping(node, "grid.pixels", pkeys)
        for k in ("dx", "dy", "x0", "y0", "board_width", "board_height"):
            if k not in pm:
                raise d.err(node, f"grid.pixels: missing {k!r}")
        pixels = PixelGrid(
            dx=d.number(pm["dx"], "grid.pixels.dx"),
            dy=d.number(pm["dy"], "grid.pixels.dy"),
            x0=d.integer(pm["x0"], "grid.pixels.x0", lo=-MAX_PIXEL, hi=MAX_PIXEL),
            y0=d.integer(pm["y0"], "grid.pixels.y0", lo=-MAX_PIXEL, hi=MAX_PIXEL),
            board_width=d.integer(pm["board_width"], "grid.pixels.board_width", lo=0, hi=MAX_PIXEL),
            board_height=d.integer(pm["board_height"], "grid.pixels.board_height", lo=0, hi=MAX_PIXEL),
            edge_width=d.integer(pm["edge_width"], "grid.pixels.edge_width", lo=0, hi=MAX_PIXEL) if "edge_width" in pm else 0,
            edge_height=d.integer(pm["edge_height"], "grid.pixels.edge_height", lo=0, hi=MAX_PIXEL) if "edge_height" in pm else 0,
            dpi=d.integer(pm["dpi"], "grid.pixels.dpi", lo=1, hi=1200) if "dpi" in pm else 100,
        )
        if not (0 < pixels.dx <= MAX_PIXEL and 0 < pixels.dy <= MAX_PIXEL):
            raise d.err(node, f"grid.pixels: dx and dy must be positive, got {pixels.dx}, {pixels.dy}")
        return pixels

    def _check_no_hexsides(self, d: _Doc) -> None:
        """A square map has nothing that stands on a hexside (empty sections, as dump_map writes, pass)."""
        for key in ("hexsides", "paths", "boxes", "hexside-kinds", "path-kinds"):
            kd, knode = self.s.get(key, (d, None))
            if isinstance(knode, yaml.SequenceNode | yaml.MappingNode) and knode.value:
                raise kd.err(knode, f"{key}: a square grid has no hexsides", expected="terrain, places and zones")

    def read_numbering(self, d: _Doc, node: yaml.Node) -> tuple[Numbering, str]:
        if isinstance(node, yaml.ScalarNode):
            name = d.scalar(node, "grid.numbering")
            if name == "vassal-default":
                return Numbering(), name
            try:
                return find_game(name, allow_path=False).numbering, name
            except GazalaError as exc:
                raise d.err(node, f"grid.numbering: {exc.problem}", expected="'vassal-default', a built-in game id "
                            "(its numbering) or VASSAL HexGridNumbering attributes") from None
        m = d.mapping(node, "grid.numbering")
        attrs = {k: d.scalar(v, f"grid.numbering.{k}") for k, v in m.items()}
        try:
            return Numbering.from_vassal_attrs(attrs), "custom"
        except ValueError as exc:
            raise d.err(node, f"grid.numbering: {exc}") from None

    def pair(self, d: _Doc, node: yaml.Node, what: str) -> tuple[int, int]:
        items = d.seq(node, what)
        if len(items) != 2:
            raise d.err(node, f"{what} must be [first, last]")
        return d.integer(items[0], what), d.integer(items[1], what)

    # --- hexes and hexsides ------------------------------------------------------------------------
    def hex_at(self, d: _Doc, node: yaml.Node, what: str) -> Hex:
        text = d.scalar(node, what)
        assert self.grid is not None
        try:
            return self.grid.hex(text)
        except GazalaError as exc:
            raise d.err(node, f"{what}: {exc.problem}", exc.expected) from None

    def hex_list(self, d: _Doc, node: yaml.Node, what: str) -> list[Hex]:
        """Labels and same-column ranges ``"0106..0122"``, in order, without duplicates."""
        assert self.grid is not None
        out: list[Hex] = []
        seen: set[Hex] = set()
        for n in d.seq(node, what):
            text = d.scalar(n, what)
            if ".." in text:
                hexes = self.expand_range(d, n, text, what)
            else:
                hexes = [self.hex_at(d, n, what)]
            for h in hexes:
                if h in seen:
                    raise d.err(n, f"{what}: hex {self.grid.label(h)!r} listed twice")
                seen.add(h)
                out.append(h)
        return out

    def expand_range(self, d: _Doc, node: yaml.Node, text: str, what: str) -> list[Hex]:
        assert self.grid is not None
        a_text, _, b_text = text.partition("..")
        try:
            a, b = self.grid.hex(a_text.strip()), self.grid.hex(b_text.strip())
        except GazalaError as exc:
            raise d.err(node, f"{what}: range {text!r}: {exc.problem}", exc.expected) from None
        (ca, ra), (cb, rb) = self.grid.numbers(a), self.grid.numbers(b)
        if ca != cb or rb < ra:
            raise d.err(
                node, f"{what}: range {text!r} must run down one column", expected="like '0106..0122'"
            )
        out = []
        for r in range(ra, rb + 1):
            h = self._by_numbers(ca, r)
            if h is None:
                raise d.err(node, f"{what}: range {text!r} leaves the map")
            out.append(h)
        return out

    def _by_numbers(self, column: int, row: int) -> Hex | None:
        assert self.grid is not None
        g = self.grid
        n = g.numbering
        try:
            h = g.parse(n.format_name(column - n.h_off, row - n.v_off))
        except GazalaError:
            return None
        return h if h in g else None

    def side_at(self, d: _Doc, node: yaml.Node, what: str, *, directed: bool) -> tuple[Hexside, Hex | None]:
        text = d.scalar(node, what)
        assert self.grid is not None
        sep = ">" if directed else "/"
        parts = text.split(sep)
        if len(parts) != 2:
            example = "'0507>0508' (0508 is the up side)" if directed else "'1217/1316'"
            raise d.err(node, f"{what}: {text!r} is not a hexside", expected=example)
        try:
            a, b = (self.grid.parse(p.strip()) for p in parts)
        except GazalaError as exc:
            raise d.err(node, f"{what}: {exc.problem}", exc.expected) from None
        if a not in self.grid and b not in self.grid:
            raise d.err(node, f"{what}: hexside {text!r} is not on the map")
        if not a.is_adjacent(b):
            raise d.err(node, f"{what}: {text!r}: the two hexes are not adjacent")
        return Hexside.between(a, b), (b if directed else None)

    # --- terrain -----------------------------------------------------------------------------------
    def read_terrain(self) -> tuple[str, dict[str, TerrainType], dict[Hex, str], dict[Hex, str]]:
        d, node = self.need("terrain")
        m = d.mapping(node, "terrain", frozenset({"default", "types", "hexes"}))
        if "types" not in m or "default" not in m:
            raise d.err(node, "terrain: needs 'types' and 'default'")
        types: dict[str, TerrainType] = {}
        for k, v in d.mapping(m["types"], "terrain.types").items():
            tm = d.mapping(v, f"terrain.types.{k}", frozenset({"description", "impassable", "style"}))
            if "style" in tm:
                self.read_drawing(d, tm["style"], "terrain", k, f"terrain.types.{k}.style")
            types[k] = TerrainType(
                name=k,
                description=d.opt(tm, "description", f"terrain.types.{k}") or "",
                impassable=d.boolean(tm["impassable"], f"terrain.types.{k}.impassable")
                if "impassable" in tm
                else False,
            )
        default = d.choice(m["default"], "terrain.default", tuple(types))
        overrides: dict[Hex, str] = {}
        sources: dict[Hex, str] = {}
        if "hexes" in m:
            for ed, entry in _items(d, m["hexes"], "terrain.hexes"):
                em = ed.mapping(
                    entry, "terrain.hexes entry", frozenset({"terrain", "hexes", "source", "name"})
                )
                if "terrain" not in em or "hexes" not in em:
                    raise ed.err(entry, "terrain.hexes entry needs 'terrain' and 'hexes'")
                t = ed.choice(em["terrain"], "terrain", tuple(types))
                src = ed.string(em, "source", "terrain.hexes entry", default="geography")
                for h in self.hex_list(ed, em["hexes"], "terrain.hexes"):
                    if h in overrides and overrides[h] != t:
                        assert self.grid is not None
                        raise ed.err(
                            em["hexes"],
                            f"terrain: hex {self.grid.label(h)!r} is both {overrides[h]!r} and {t!r}",
                        )
                    overrides[h] = t
                    sources[h] = src
        return default, types, overrides, sources

    # --- boxes -------------------------------------------------------------------------------------
    def read_boxes(self) -> tuple[Box, ...]:
        if "boxes" not in self.s:
            return ()
        d, node = self.s["boxes"]
        out: list[Box] = []
        keys = frozenset({"name", "kind", "owner", "active_from", "hexes", "source", "note"})
        for ed, entry, em, name in _named(d, node, "boxes", keys, ("hexes", "source")):
            if "kind" not in em:
                raise ed.err(entry, f"box {name!r}: missing 'kind'", expected="a kind of hexside-kinds (its outline)")
            ktype = self.kind(ed, em["kind"], f"box {name}.kind")
            kind = ktype.name
            owner = self.owner(ed, em["owner"], f"box {name}.owner") if "owner" in em else None
            if ktype.owned and owner is None:
                raise ed.err(entry, f"box {name!r}: a {kind} needs an owner", expected=self.owner_expected())
            if "hexes" not in em:
                raise ed.err(entry, f"box {name!r}: missing 'hexes'")
            hexes = self.hex_list(ed, em["hexes"], f"box {name}.hexes")
            out.append(
                Box(
                    name=name,
                    kind=kind,
                    hexes=frozenset(hexes),
                    source=ed.string(em, "source", f"box {name}"),
                    owner=owner,
                    active_from=ed.opt(em, "active_from", f"box {name}"),
                    order=tuple(hexes),
                )
            )
        return tuple(out)

    # --- explicit hexside features -----------------------------------------------------------------
    def read_hexsides(self) -> tuple[HexsideFeature, ...]:
        if "hexsides" not in self.s:
            return ()
        d, node = self.s["hexsides"]
        out: list[HexsideFeature] = []
        seen: dict[tuple[Hexside, HexsideKind], str] = {}
        keys = frozenset({"name", "kind", "owner", "active_from", "sides", "source", "note"})
        for ed, entry, em, name in _named(d, node, "hexsides", keys, ("kind", "sides", "source")):
            if "kind" not in em or "sides" not in em:
                raise ed.err(entry, f"hexsides {name!r}: needs 'kind' and 'sides'")
            ktype = self.kind(ed, em["kind"], f"hexsides {name}.kind")
            kind = ktype.name
            owner = self.owner(ed, em["owner"], f"hexsides {name}.owner") if "owner" in em else None
            if ktype.owned and owner is None:
                raise ed.err(entry, f"hexsides {name!r}: a {kind} needs an owner", expected=self.owner_expected())
            src = ed.string(em, "source", f"hexsides {name}")
            active = ed.opt(em, "active_from", f"hexsides {name}")
            for n in ed.seq(em["sides"], f"hexsides {name}.sides"):
                side, up = self.side_at(
                    ed, n, f"hexsides {name}.sides", directed=ktype.directed
                )
                if (side, kind) in seen:
                    raise ed.err(
                        n,
                        f"hexsides {name!r}: {ed.scalar(n, 'side')!r} already has a {kind.value} (in {seen[(side, kind)]!r})",
                    )
                seen[(side, kind)] = name
                out.append(
                    HexsideFeature(
                        kind=kind, side=side, source=src, owner=owner, active_from=active, up=up, group=name
                    )
                )
        return tuple(out)

    # --- paths -------------------------------------------------------------------------------------
    def read_paths(self) -> tuple[MapPath, ...]:
        if "paths" not in self.s:
            return ()
        d, node = self.s["paths"]
        out: list[MapPath] = []
        keys = frozenset({"name", "kind", "hexes", "source", "note"})
        for ed, _entry, em, name in _named(d, node, "paths", keys, ("kind", "hexes", "source")):
            kind = self.path_kind(ed, em["kind"], f"path {name}.kind")
            nodes = ed.seq(em["hexes"], f"path {name}.hexes")
            hexes = [self.hex_at(ed, n, f"path {name}.hexes") for n in nodes]
            if len(hexes) < 2:
                raise ed.err(em["hexes"], f"path {name!r} needs at least two hexes")
            for (a, b), n in zip(itertools.pairwise(hexes), nodes[1:], strict=False):
                if not a.is_adjacent(b):
                    assert self.grid is not None
                    raise ed.err(
                        n,
                        f"path {name!r}: {self.grid.label(a)!r} -> {self.grid.label(b)!r} are not adjacent",
                        expected="consecutive hexes of a path to be neighbours",
                    )
            out.append(
                MapPath(
                    name=name, kind=kind, hexes=tuple(hexes), source=ed.string(em, "source", f"path {name}")
                )
            )
        return tuple(out)

    # --- places ------------------------------------------------------------------------------------
    def read_places(self) -> tuple[Place, ...]:
        if "places" not in self.s:
            return ()
        d, node = self.s["places"]
        out: list[Place] = []
        keys = frozenset({"name", "kind", "hexes", "source", "note"})
        for ed, entry, em, name in _named(d, node, "places", keys, ("source",)):
            hexes = self.hex_list(ed, em["hexes"], f"place {name}.hexes") if "hexes" in em else []
            if not hexes:
                raise ed.err(entry, f"place {name!r} needs at least one hex")
            out.append(
                Place(
                    name=name,
                    hexes=tuple(hexes),
                    kind=ed.string(em, "kind", f"place {name}", default="locality"),
                    source=ed.string(em, "source", f"place {name}"),
                    note=ed.opt(em, "note", f"place {name}") or "",
                )
            )
        return tuple(out)

    # --- zones -------------------------------------------------------------------------------------
    def read_zones(self) -> tuple[Zone, ...]:
        if "zones" not in self.s:
            return ()
        d, node = self.s["zones"]
        out: list[Zone] = []
        keys = frozenset({"name", "kind", "owner", "hexes", "edges", "sides", "source", "description"})
        assert self.grid is not None
        for ed, entry, em, name in _named(d, node, "zones", keys, ("source",)):
            hexes: set[Hex] = (
                set(self.hex_list(ed, em["hexes"], f"zone {name}.hexes")) if "hexes" in em else set()
            )
            if "edges" in em:
                for n in ed.seq(em["edges"], f"zone {name}.edges"):
                    edge = ed.choice(n, f"zone {name}.edges", ("N", "E", "S", "W"))
                    hexes.update(h for h in self.grid.edge_hexes(edge) if h not in self.impassable)
            sides: set[Hexside] = set()
            if "sides" in em:
                for n in ed.seq(em["sides"], f"zone {name}.sides"):
                    sides.add(self.side_at(ed, n, f"zone {name}.sides", directed=False)[0])
            if not hexes and not sides:
                raise ed.err(entry, f"zone {name!r} has no hexes, edges or sides")
            out.append(
                Zone(
                    name=name,
                    kind=ed.string(em, "kind", f"zone {name}", default="area"),
                    hexes=frozenset(hexes),
                    sides=frozenset(sides),
                    source=ed.string(em, "source", f"zone {name}"),
                    owner=self.owner(ed, em["owner"], f"zone {name}.owner") if "owner" in em else None,
                    description=ed.opt(em, "description", f"zone {name}") or "",
                )
            )
        return tuple(out)
