"""The map-data model: what a game's map *is*, as immutable values with O(1) lookups.

A :class:`GameMap` is what :func:`gazala_tools.mapdata.load_map` returns. The referee, the board
renderer, the GeoJSON export and the VASSAL module exporter all read a map through this API and
nothing else. Everything is keyed by the core values of :mod:`gazala_tools.hexes`: a
:class:`~gazala_tools.hexes.Hex` for hexes and the canonical :class:`~gazala_tools.hexes.Hexside`
for hexsides (so ``Hexside.between(a, b)`` finds a feature whichever hex you stand in).

Quick reference (``m = load_map(game)``: a built-in id or a game folder; examples from RG's map)::

    m.grid.hex("1217"), m.label(h)           # labels <-> hexes (GameGrid)
    m.terrain(h) -> "clear"                  # terrain name of a map hex
    m.terrain_type(h).impassable             # sea etc.
    m.features(side)                         # every HexsideFeature on a hexside
    m.feature(side, "minefield")             # the first feature of a kind (map.yaml hexside-kinds), or None
    m.has(side, "escarpment")
    m.active_feature(side, "minefield", active={"June 5-6"})  # in force (dated features: active_from)
    m.climbs(a, b, "escarpment")             # True if moving a -> b climbs a directed hexside of a kind
    m.path_sides("road") / m.crosses_path(a, b, "road", "track")
    m.box_kind_hexes("minefield", side_id)   # hexes of the boxes of a kind (of an owner)
    m.zone("allied-prohibited").hexes / m.in_zone("69th-area", h) / m.zones_at(h)
    m.edges(h) -> frozenset({"N", "W"})      # compass map edges (GameGrid.edges)
    m.place("Tobruk").hexes / m.places_at(h) / m.place_names()

Data and geometry are kept apart (shapely style): hex polygons and segments live in
:mod:`gazala_tools.geometry`; pixel parameters for VASSAL live in :class:`PixelGrid`.

Pure Python: no shapely, Pillow, lxml or numpy here.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import TYPE_CHECKING

from gazala_tools.errors import GazalaError, HexNameError
from gazala_tools.grid import GameGrid
from gazala_tools.hexes import Hex, Hexside, Orientation
from gazala_tools.numbering import Numbering
from gazala_tools.squaregrid import SquareGridGeometry, SquareGridNumbering

if TYPE_CHECKING:  # pragma: no cover
    from gazala_tools.hexgrid import HexGridGeometry

__all__ = [
    "Box",
    "GameMap",
    "HexsideFeature",
    "HexsideKind",
    "HexsideKindType",
    "MapPath",
    "PathKind",
    "PathKindType",
    "PixelGrid",
    "Place",
    "TerrainType",
    "Zone",
]


class HexsideKind(str):
    """The name of a hexside kind, as the map's ``hexside-kinds`` declares it (``river``, ``cliff``).

    A game's own word: the core knows no list of them. What a kind means to the rules is data, in
    its :class:`HexsideKindType` (and in the ``rules:`` keys that name it).
    """

    __slots__ = ()

    @property
    def value(self) -> str:
        """The YAML spelling (the name itself)."""
        return str(self)


@dataclass(frozen=True, slots=True)
class HexsideKindType:
    """A hexside kind the map declares (``hexside-kinds:``): its name and what the data must say
    of each feature of that kind.

    ``directed``: its sides are written ``LOW>HIGH`` and have an up side (an escarpment, a cliff);
    ``owned``: every feature names the side it belongs to (a minefield); ``impassable``: no unit
    crosses it, no supply path and no zone of control pass it (the generic rules, unless a path
    kind listed in ``except-along`` crosses there).
    """

    name: HexsideKind
    description: str = ""
    directed: bool = False
    owned: bool = False
    impassable: bool = False


class PathKind(str):
    """A kind of linear hex-to-hex feature, a word of the map's own (``path-kinds:``: a road, a
    track, a railway ...): the name itself, as the YAML spells it."""

    __slots__ = ()

    @property
    def value(self) -> str:
        """The YAML spelling (the name itself)."""
        return str(self)


@dataclass(frozen=True, slots=True)
class PathKindType:
    """A path kind the map declares (``path-kinds:``). What it does is rules data: movement costs
    along it (``movement.yaml`` ``points.along``), crossings it allows (``except-along``), a supply
    network (``rules.supply`` ``network``)."""

    name: PathKind
    description: str = ""


@dataclass(frozen=True, slots=True)
class TerrainType:
    """A terrain a hex can have. ``impassable``: no unit may enter (sea)."""

    name: str
    description: str = ""
    impassable: bool = False


@dataclass(frozen=True, slots=True)
class HexsideFeature:
    """One feature on one hexside.

    ``source`` names what it rests on: a rule section (``"RG 14.1"``) or ``"geography"``.
    ``group`` is the name of the YAML entry (box, belt, escarpment line) it came from.
    """

    kind: HexsideKind
    side: Hexside
    source: str
    owner: str | None = None  #: a side id of the game, for kinds declared ``owned``
    active_from: str | None = None  #: features built during play (RG's minefields): the turn they take effect
    up: Hex | None = None  #: escarpments: the hex on the high side
    group: str | None = None


@dataclass(frozen=True, slots=True)
class Box:
    """A set of hexes whose outline carries a hexside feature: a minefield belt/box or a
    fortified box. The outline (every side with exactly one hex in the set) is expanded into
    :class:`HexsideFeature` values at load time; the hexes themselves stay queryable
    (RG 14.2 needs "a breached minefield hex from 0104 to 1118").
    """

    name: str
    kind: HexsideKind  #: the kind of its outline (:meth:`GameMap.box_kind_hexes` finds the boxes of a kind)
    hexes: frozenset[Hex]
    source: str
    owner: str | None = None
    active_from: str | None = None
    order: tuple[Hex, ...] = ()  #: the hexes in the order the data lists them

    def outline(self) -> frozenset[Hexside]:
        """Sides with exactly one hex of the box beside them."""
        out: set[Hexside] = set()
        for h in self.hexes:
            for s in h.sides():
                if s.other(h) not in self.hexes:
                    out.add(s)
        return frozenset(out)


@dataclass(frozen=True, slots=True)
class MapPath:
    """A road or track as the chain of hexes it runs through (consecutive hexes adjacent).

    ``sides()`` are the hexsides it crosses: movement "along the road" from ``a`` to ``b`` means
    ``Hexside.between(a, b)`` is one of them.
    """

    name: str
    kind: PathKind
    hexes: tuple[Hex, ...]
    source: str

    def sides(self) -> tuple[Hexside, ...]:
        return tuple(Hexside.between(a, b) for a, b in zip(self.hexes, self.hexes[1:], strict=False))


@dataclass(frozen=True, slots=True)
class Place:
    """A named place: a town, airfield, supply symbol, box, locality. ``hexes[0]`` is the main hex."""

    name: str
    hexes: tuple[Hex, ...]
    kind: str
    source: str
    note: str = ""

    @property
    def hex(self) -> Hex:
        return self.hexes[0]


@dataclass(frozen=True, slots=True)
class Zone:
    """A named area of the map: a hex set, and/or a line of hexsides (``sides``).

    Examples: RG ``allied-prohibited`` (8.1), ``69th-area`` (8.2), ``axis-supply`` and
    ``allied-supply`` (5.0); DG supply symbols; BG west-edge road entries.
    """

    name: str
    kind: str  #: "area", "supply", "line", "entry", "setup", ...
    hexes: frozenset[Hex]
    source: str
    sides: frozenset[Hexside] = frozenset()
    owner: str | None = None
    description: str = ""

    def __contains__(self, h: object) -> bool:
        return h in self.hexes


@dataclass(frozen=True, slots=True)
class PixelGrid:
    """VASSAL pixel parameters of the board (HexGrid dx, dy, x0, y0) and its size.

    ``edge_width``/``edge_height`` are the VASSAL Map's edge buffers around the board.
    A piece at :meth:`geometry` ``.hex_center(h)`` sits in hex ``h`` on the rendered board.
    """

    dx: float
    dy: float
    x0: int
    y0: int
    board_width: int
    board_height: int
    edge_width: int = 0
    edge_height: int = 0
    dpi: int = 100  #: pixels per inch of the board image at VASSAL scale 1.0

    def geometry(self, orientation: Orientation, numbering: Numbering | None = None) -> HexGridGeometry:
        """The :class:`~gazala_tools.hexgrid.HexGridGeometry` (pure Python) for this board."""
        from gazala_tools.hexgrid import HexGridGeometry

        return HexGridGeometry(
            dx=self.dx,
            dy=self.dy,
            x0=self.x0,
            y0=self.y0,
            sideways=orientation is Orientation.POINTY,
            numbering=numbering,
        )


@dataclass(frozen=True)
class GameMap:
    """A game's map: grid, terrain, hexside features, paths, places, zones, provenance.

    Construct through :func:`gazala_tools.mapdata.load_map` (or :meth:`build`); all indexes are
    built once, so every lookup below is O(1) (a dict or set access).
    """

    game: str
    title: str
    grid: GameGrid
    numbering_name: str  #: "game" (from game.yaml), "vassal-default", a game id or "custom"
    pixels: PixelGrid
    provenance: str
    terrain_default: str
    terrain_types: Mapping[str, TerrainType]
    terrain_overrides: Mapping[Hex, str]
    terrain_sources: Mapping[Hex, str]
    boxes: tuple[Box, ...]
    explicit_features: tuple[HexsideFeature, ...]
    paths: tuple[MapPath, ...]
    places: tuple[Place, ...]
    zones: tuple[Zone, ...]
    notes: tuple[str, ...] = ()
    source_dir: Path | None = field(default=None, compare=False)
    #: owned hexside features (``hexside-kinds: {KIND: {owned: true}}``) drawn in their owner's colour
    #: (``style: {owner-colours: true}``; DG 4.x prints each side's minefields in its colour)
    owner_colours: bool = False
    #: the hexside kinds the map declares (``hexside-kinds:``), in data order
    hexside_kinds: Mapping[str, HexsideKindType] = field(default_factory=dict)
    #: the path kinds the map declares (``path-kinds:``), in data order
    path_kinds: Mapping[str, PathKindType] = field(default_factory=dict)
    #: how the board is drawn, as the data says (``style:`` of terrain types, hexside kinds, path kinds
    #: and ``style.markers``): section ("terrain", "hexside", "path", "marker") -> kind -> key -> value
    #: (all strings; docs/render.md). Kinds without an entry are drawn with the renderer's defaults.
    styles: Mapping[str, Mapping[str, Mapping[str, str]]] = field(default_factory=dict)
    # --- indexes (built in __post_init__) ---
    _features: dict[Hexside, tuple[HexsideFeature, ...]] = field(init=False, repr=False, compare=False)
    _path_sides: dict[PathKind, frozenset[Hexside]] = field(init=False, repr=False, compare=False)
    _path_hexes: dict[PathKind, frozenset[Hex]] = field(init=False, repr=False, compare=False)
    _zones: dict[str, Zone] = field(init=False, repr=False, compare=False)
    _zones_at: dict[Hex, tuple[str, ...]] = field(init=False, repr=False, compare=False)
    _places: dict[str, Place] = field(init=False, repr=False, compare=False)
    _places_at: dict[Hex, tuple[Place, ...]] = field(init=False, repr=False, compare=False)
    _box_hexes: dict[Hex, tuple[Box, ...]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        feats: dict[Hexside, list[HexsideFeature]] = {}
        for f in self.all_features():
            feats.setdefault(f.side, []).append(f)
        object.__setattr__(self, "_features", {k: tuple(v) for k, v in feats.items()})
        psides: dict[PathKind, set[Hexside]] = {PathKind(k): set() for k in self.path_kinds}
        phexes: dict[PathKind, set[Hex]] = {PathKind(k): set() for k in self.path_kinds}
        for p in self.paths:
            psides.setdefault(p.kind, set()).update(p.sides())
            phexes.setdefault(p.kind, set()).update(p.hexes)
        object.__setattr__(self, "_path_sides", {k: frozenset(v) for k, v in psides.items()})
        object.__setattr__(self, "_path_hexes", {k: frozenset(v) for k, v in phexes.items()})
        object.__setattr__(self, "_zones", {z.name: z for z in self.zones})
        zat: dict[Hex, list[str]] = {}
        for z in self.zones:
            for h in z.hexes:
                zat.setdefault(h, []).append(z.name)
        object.__setattr__(self, "_zones_at", {k: tuple(v) for k, v in zat.items()})
        object.__setattr__(self, "_places", {p.name: p for p in self.places})
        pat: dict[Hex, list[Place]] = {}
        for pl in self.places:
            for h in pl.hexes:
                pat.setdefault(h, []).append(pl)
        object.__setattr__(self, "_places_at", {k: tuple(v) for k, v in pat.items()})
        bat: dict[Hex, list[Box]] = {}
        for b in self.boxes:
            for h in b.hexes:
                bat.setdefault(h, []).append(b)
        object.__setattr__(self, "_box_hexes", {k: tuple(v) for k, v in bat.items()})

    # --- labels ----------------------------------------------------------------------------------
    def label(self, h: Hex) -> str:
        return self.grid.label(h)

    def hex(self, label: str) -> Hex:
        """The map hex a label names (:class:`HexNameError` if malformed or off the map)."""
        return self.grid.hex(label)

    def hexes(self) -> tuple[Hex, ...]:
        return self.grid.hexes()

    def edges(self, h: Hex) -> frozenset[str]:
        """Compass map edges ("N", "E", "S", "W") hex ``h`` lies on (empty inside the map)."""
        return self.grid.edges(h)

    # --- terrain ---------------------------------------------------------------------------------
    def terrain(self, h: Hex) -> str:
        """The terrain name of a map hex. Raises :class:`HexNameError` for a hex off the map."""
        got = self.terrain_overrides.get(h)
        if got is not None:
            return got
        if h not in self.grid:
            raise HexNameError(f"{h!r} is not on the {self.game} map")
        return self.terrain_default

    def terrain_type(self, h: Hex) -> TerrainType:
        return self.terrain_types[self.terrain(h)]

    def passable(self, h: Hex) -> bool:
        """On the map and not impassable terrain (sea)."""
        return h in self.grid and not self.terrain_type(h).impassable

    def hexes_of_terrain(self, name: str) -> list[Hex]:
        return [h for h in self.grid.hexes() if self.terrain(h) == name]

    # --- hexside features ------------------------------------------------------------------------
    def all_features(self) -> Iterable[HexsideFeature]:
        """Explicit features plus the outlines of boxes, in data order."""
        for b in self.boxes:
            for s in sorted(b.outline()):
                yield HexsideFeature(
                    kind=b.kind,
                    side=s,
                    source=b.source,
                    owner=b.owner,
                    active_from=b.active_from,
                    group=b.name,
                )
        yield from self.explicit_features

    def features(self, side: Hexside) -> tuple[HexsideFeature, ...]:
        """Every feature on a hexside (empty tuple if none)."""
        return self._features.get(side, ())

    def feature(self, side: Hexside, kind: str) -> HexsideFeature | None:
        for f in self._features.get(side, ()):
            if f.kind == kind:
                return f
        return None

    def has(self, side: Hexside, kind: str) -> bool:
        return self.feature(side, kind) is not None

    def feature_sides(self, kind: str) -> frozenset[Hexside]:
        return frozenset(s for s, fs in self._features.items() if any(f.kind == kind for f in fs))

    def active_feature(self, side: Hexside, kind: str, *, active: Iterable[str] | None = None) -> HexsideFeature | None:
        """The feature of ``kind`` on a hexside, if any. With ``active`` (the set of ``active_from``
        values already reached, e.g. ``{"June 5-6"}``) a dated feature counts only once reached."""
        allowed = None if active is None else set(active)
        for f in self._features.get(side, ()):
            if f.kind == kind and (f.active_from is None or allowed is None or f.active_from in allowed):
                return f
        return None

    def climbs(self, a: Hex, b: Hex, kind: str) -> bool:
        """True if stepping from ``a`` to adjacent ``b`` climbs a directed hexside of ``kind`` (b is its up side)."""
        f = self.feature(Hexside.between(a, b), kind)
        return f is not None and f.up == b

    @functools.cached_property
    def impassable_sides(self) -> frozenset[Hexside]:
        """The hexsides of every kind the map declares ``impassable`` (no unit, supply path or ZOC crosses)."""
        kinds = [k for k, t in self.hexside_kinds.items() if t.impassable]
        return frozenset().union(*(self.feature_sides(k) for k in kinds))

    # --- boxes (hex sets whose outline is a hexside feature) --------------------------------------
    def boxes_at(self, h: Hex) -> tuple[Box, ...]:
        return self._box_hexes.get(h, ())

    def box_kind_hexes(self, kind: str, owner: str | None = None) -> frozenset[Hex]:
        """The hexes of the map's boxes of a hexside kind (their outline's), of ``owner`` if given
        (the rules data's ``box-kinds: [KIND]``)."""
        return frozenset(h for b in self.boxes if b.kind == kind and (owner is None or b.owner == owner)
                         for h in b.hexes)

    def box(self, name: str) -> Box:
        for b in self.boxes:
            if b.name == name:
                return b
        raise KeyError(f"no box {name!r} on the {self.game} map")

    # --- roads and tracks ------------------------------------------------------------------------
    def path_sides(self, *kinds: PathKind | str) -> frozenset[Hexside]:
        """Hexsides crossed by paths of the given kinds (all kinds if none given)."""
        ks = [PathKind(k) for k in kinds] if kinds else list(self._path_sides)
        if len(ks) == 1:
            return self._path_sides.get(ks[0], frozenset())
        return frozenset().union(*(self._path_sides.get(k, frozenset()) for k in ks))

    def path_hexes(self, *kinds: PathKind | str) -> frozenset[Hex]:
        ks = [PathKind(k) for k in kinds] if kinds else list(self._path_hexes)
        return frozenset().union(*(self._path_hexes.get(k, frozenset()) for k in ks))

    def path_kind_names(self) -> tuple[str, ...]:
        """The map's path kinds: those it declares (``path-kinds:``), then any its paths use."""
        return tuple(dict.fromkeys([*self.path_kinds, *(p.kind.value for p in self.paths)]))

    def crosses_path(self, a: Hex, b: Hex, *kinds: PathKind | str) -> bool:
        """True if moving between adjacent ``a`` and ``b`` follows a road/track of those kinds."""
        side = Hexside.between(a, b)
        ks = [PathKind(k) for k in kinds] if kinds else list(self._path_sides)
        return any(side in self._path_sides.get(k, ()) for k in ks)

    def path(self, name: str) -> MapPath:
        for p in self.paths:
            if p.name == name:
                return p
        raise KeyError(f"no road or track {name!r} on the {self.game} map")

    # --- zones -----------------------------------------------------------------------------------
    def zone(self, name: str) -> Zone:
        try:
            return self._zones[name]
        except KeyError:
            raise KeyError(
                f"no zone {name!r} on the {self.game} map (have {', '.join(self._zones)})"
            ) from None

    def in_zone(self, name: str, h: Hex) -> bool:
        return h in self.zone(name).hexes

    def zones_at(self, h: Hex) -> tuple[str, ...]:
        """Names of the zones holding ``h``."""
        return self._zones_at.get(h, ())

    # --- places ----------------------------------------------------------------------------------
    def place(self, name: str) -> Place:
        try:
            return self._places[name]
        except KeyError:
            raise KeyError(f"no place {name!r} on the {self.game} map") from None

    def places_at(self, h: Hex) -> tuple[Place, ...]:
        return self._places_at.get(h, ())

    def place_names(self) -> list[str]:
        return [p.name for p in self.places]

    # --- pixels ----------------------------------------------------------------------------------
    def geometry(self) -> HexGridGeometry:
        """VASSAL HexGrid geometry (board coordinates) with this map's numbering. A square map has none (bad
        input naming the map: what draws or locates hexes on a board, the board renderer and the HTML
        report's board, takes hex maps only); its geometry is :meth:`square_geometry`."""
        if self.grid.kind != "hex":
            raise GazalaError(f"the map {self.title!r} has a {self.grid.kind} grid: this draws or locates hexes only",
                              file=self.source_dir, expected="a hex map (docs/mapdata.md, \"Square grids\": what "
                              "works on a square map)")
        return self.pixels.geometry(self.grid.orientation, self.grid.numbering)

    def square_geometry(self) -> SquareGridGeometry:
        """A square map's VASSAL ``SquareGrid`` (board coordinates) with its numbering (no stagger)."""
        n = self.grid.numbering
        p = self.pixels
        return SquareGridGeometry(dx=p.dx, dy=p.dy, x0=p.x0, y0=p.y0, numbering=SquareGridNumbering(**{
            f.name: getattr(n, f.name) for f in fields(SquareGridNumbering) if f.name != "stagger"}))

    def info(self) -> dict[str, object]:
        """Summary numbers (what ``gazala map info --json`` prints)."""
        cols, rows = self.grid.columns, self.grid.rows
        return {
            "game": self.game,
            "title": self.title,
            "orientation": self.grid.orientation.value if self.grid.kind == "hex"
            else f"square ({getattr(self.grid, 'moves', 'orthogonal')} moves)",
            "north": self.grid.north,
            "columns": cols[1] - cols[0] + 1,
            "rows": rows[1] - rows[0] + 1,
            "first_hex": self.label(self.grid.hexes()[0]),
            "last_hex": self.label(self.grid.hexes()[-1]),
            "hexes": len(self.grid),
            "hexsides": len(self.grid.hexsides()),
            "numbering": self.grid.numbering.describe(),
            "provenance": self.provenance,
            "terrain": {t: len(self.hexes_of_terrain(t)) for t in self.terrain_types},
            "hexside_features": {k: len(self.feature_sides(k)) for k in self.hexside_kinds},
            "paths": {k: len([p for p in self.paths if p.kind == k]) for k in self.path_kind_names()},
            "places": len(self.places),
            "zones": [z.name for z in self.zones],
            "board": {
                "width": self.pixels.board_width,
                "height": self.pixels.board_height,
                "dx": self.pixels.dx,
                "dy": self.pixels.dy,
                "x0": self.pixels.x0,
                "y0": self.pixels.y0,
            },
        }
