"""Shapely geometry of a map: hex polygons, hexside segments, zones, GeoJSON.

All polygons are built from **one shared vertex table**: every hex corner is an integer point of
the corner lattice (:func:`gazala_tools.grid.corner_lattice`), converted to coordinates once, so
neighbouring hexes use the very same floats for their shared corners. Their polygons therefore
``touches()`` along exactly one segment and unions have no slivers.

Frames: ``"pixel"`` (default) is VASSAL board coordinates (``x0 + X*dx/3``, ``y0 + Y*dy/2``; y grows
downwards, as on the board image); ``"lattice"`` is the integer lattice itself.

Data lives beside geometries (dicts keyed by Hex/Hexside), never on them.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Literal

from shapely.geometry import LineString, MultiLineString, Point, Polygon, mapping
from shapely.ops import linemerge, unary_union

from gazala_tools.grid import corner_lattice, side_lattice
from gazala_tools.hexes import Hex, Hexside, Orientation
from gazala_tools.mapdata.model import Box, GameMap, MapPath, Zone

Frame = Literal["pixel", "lattice"]

__all__ = [
    "Frame",
    "VertexTable",
    "box_outline",
    "hex_polygon",
    "hex_polygons",
    "hexside_segment",
    "path_line",
    "to_geojson",
    "zone_geometry",
]


class VertexTable:
    """Lattice point -> coordinates, computed once per point (the no-sliver guarantee)."""

    def __init__(self, m: GameMap, frame: Frame = "pixel") -> None:
        self.map = m
        self.frame = frame
        self.orientation: Orientation = m.grid.orientation
        self._grid = m.pixels.geometry(self.orientation)  # the board's VASSAL grid: one pixel formula
        self._cache: dict[tuple[int, int], tuple[float, float]] = {}

    def point(self, X: int, Y: int) -> tuple[float, float]:
        key = (X, Y)
        got = self._cache.get(key)
        if got is None:
            got = (float(X), float(Y)) if self.frame == "lattice" else self._grid.lattice_to_pixel(X, Y)
            self._cache[key] = got
        return got

    def center(self, h: Hex) -> tuple[float, float]:
        """Hex centre in the frame (the midpoint of the lattice corners 0 and 3)."""
        c = corner_lattice(h, self.orientation)
        a, b = self.point(*c[0]), self.point(*c[3])
        return ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)

    def polygon(self, h: Hex) -> Polygon:
        return Polygon([self.point(X, Y) for X, Y in corner_lattice(h, self.orientation)])

    def segment(self, side: Hexside) -> LineString:
        a, b = side_lattice(side, self.orientation)
        return LineString([self.point(*a), self.point(*b)])


def hex_polygon(m: GameMap, h: Hex, *, frame: Frame = "pixel") -> Polygon:
    return VertexTable(m, frame).polygon(h)


def hex_polygons(
    m: GameMap, *, frame: Frame = "pixel", table: VertexTable | None = None
) -> dict[Hex, Polygon]:
    """Every map hex's polygon, all from one vertex table."""
    t = table or VertexTable(m, frame)
    return {h: t.polygon(h) for h in m.grid.hexes()}


def hexside_segment(m: GameMap, side: Hexside, *, frame: Frame = "pixel") -> LineString:
    return VertexTable(m, frame).segment(side)


def _sides_geometry(t: VertexTable, sides: Iterable[Hexside]) -> Any:
    segs = [t.segment(s) for s in sides]
    if not segs:
        return MultiLineString()
    return linemerge(segs)


def zone_geometry(m: GameMap, zone: Zone, *, frame: Frame = "pixel", table: VertexTable | None = None) -> Any:
    """A zone's hexes as one (Multi)Polygon, its ``sides`` as merged lines; both if it has both."""
    t = table or VertexTable(m, frame)
    parts: list[Any] = []
    if zone.hexes:
        parts.append(unary_union([t.polygon(h) for h in sorted(zone.hexes)]))
    if zone.sides:
        parts.append(_sides_geometry(t, sorted(zone.sides)))
    if len(parts) == 1:
        return parts[0]
    from shapely.geometry import GeometryCollection

    return GeometryCollection(parts)


def box_outline(m: GameMap, box: Box, *, frame: Frame = "pixel", table: VertexTable | None = None) -> Any:
    t = table or VertexTable(m, frame)
    return _sides_geometry(t, sorted(box.outline()))


def path_line(
    m: GameMap, path: MapPath, *, frame: Frame = "pixel", table: VertexTable | None = None
) -> LineString:
    """A road or track through the centres of its hexes."""
    t = table or VertexTable(m, frame)
    return LineString([t.center(h) for h in path.hexes])


def to_geojson(m: GameMap, *, frame: Frame = "pixel") -> dict[str, Any]:
    """A GeoJSON FeatureCollection of the whole map (board coordinates; no CRS).

    Feature ``properties.layer`` is one of ``hex``, ``hexside``, ``box``, ``path``, ``place``, ``zone``.
    """
    t = VertexTable(m, frame)
    feats = [*_hex_features(m, t), *_hexside_features(m, t), *_box_features(m, t), *_path_features(m, t),
             *_place_features(m, t), *_zone_features(m, t)]
    return {
        "type": "FeatureCollection",
        "properties": {"game": m.game, "frame": frame, "provenance": m.provenance, "y_axis": "down"},
        "features": feats,
    }


def _feature(geom: Any, **props: Any) -> dict[str, Any]:
    return {"type": "Feature", "geometry": mapping(geom), "properties": props}


def _hex_features(m: GameMap, t: VertexTable) -> list[dict[str, Any]]:
    lab = m.label
    return [
        _feature(
            t.polygon(h),
            layer="hex",
            label=lab(h),
            terrain=m.terrain(h),
            edges=sorted(m.edges(h)),
            zones=list(m.zones_at(h)),
        )
        for h in m.grid.hexes()
    ]


def _hexside_features(m: GameMap, t: VertexTable) -> list[dict[str, Any]]:
    feats: list[dict[str, Any]] = []
    for f in m.all_features():
        props: dict[str, Any] = {
            "layer": "hexside",
            "kind": f.kind.value,
            "side": m.grid.hexside_label(f.side),
            "source": f.source,
        }
        if f.owner:
            props["owner"] = f.owner
        if f.active_from:
            props["active_from"] = f.active_from
        if f.up is not None:
            props["up"] = m.label(f.up)
        if f.group:
            props["group"] = f.group
        feats.append(_feature(t.segment(f.side), **props))
    return feats


def _box_features(m: GameMap, t: VertexTable) -> list[dict[str, Any]]:
    lab = m.label
    return [
        _feature(
            unary_union([t.polygon(h) for h in sorted(b.hexes)]),
            layer="box",
            name=b.name,
            kind=b.kind.value,
            owner=b.owner,
            active_from=b.active_from,
            hexes=[lab(h) for h in b.order],
            source=b.source,
        )
        for b in m.boxes
    ]


def _path_features(m: GameMap, t: VertexTable) -> list[dict[str, Any]]:
    lab = m.label
    return [
        _feature(
            path_line(m, p, table=t),
            layer="path",
            name=p.name,
            kind=p.kind.value,
            source=p.source,
            hexes=[lab(h) for h in p.hexes],
        )
        for p in m.paths
    ]


def _place_features(m: GameMap, t: VertexTable) -> list[dict[str, Any]]:
    lab = m.label
    return [
        _feature(
            Point(t.center(pl.hex)),
            layer="place",
            name=pl.name,
            kind=pl.kind,
            hexes=[lab(h) for h in pl.hexes],
            source=pl.source,
        )
        for pl in m.places
    ]


def _zone_features(m: GameMap, t: VertexTable) -> list[dict[str, Any]]:
    return [
        _feature(
            zone_geometry(m, z, table=t),
            layer="zone",
            name=z.name,
            kind=z.kind,
            owner=z.owner,
            source=z.source,
            description=z.description,
            hexes=len(z.hexes),
            sides=len(z.sides),
        )
        for z in m.zones
    ]
