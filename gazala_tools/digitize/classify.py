"""Terrain per hex (and optional hexside lines) from a scan, against a colour legend.

Per hex: a fixed pattern of sample points in the centre region (a disc of ``radius`` hex sizes,
default 0.3) is read for all hexes at once (vectorised, in batches, so a 10,000-hex scan is one
pass). Every sample votes for its nearest legend colour; the hex takes the terrain with the most
votes. It is **uncertain** when the winner has under ``min_share`` of the votes, or the median
colour of its voters is far (``max_distance``) from the legend colour. Votes are robust to
hex numbers, road lines and symbols that cover a minority of the centre region; a median colour
would not be.

Hexsides (optional): along the middle 70% of each side, in a band a few pixels wide, the share of
pixels near a hexside colour of the legend (minefield red, escarpment brown ...) is that side's
confidence. For escarpments the hatching side (more feature pixels) is the *down* side.

Legend YAML::

    terrain:                 # name: colour | [colour, ...]; colours "#rrggbb" or [r, g, b]
      clear: "#ecdeb4"
      rough: ["#c6a470", "#8c6a3e"]
      sea: "#80acd6"
    default: clear           # optional: the map's default terrain (most common if absent)
    hexsides:                # optional: line colours for hexside detection
      minefield: {colour: "#cc1818", owner: allied}
      escarpment: {colour: "#6e461e", directed: true}   # directed: its hatching marks the down side
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from gazala_tools.digitize.image import RgbRegions, tiles
from gazala_tools.errors import GazalaError
from gazala_tools.grid import side_lattice
from gazala_tools.hexes import Hex, Hexside
from gazala_tools.hexgrid import HexGridGeometry
from gazala_tools.yamlnodes import load_plain

__all__ = [
    "RGB",
    "Box",
    "HexResult",
    "Legend",
    "Progress",
    "SideResult",
    "classify_hexes",
    "detect_hexsides",
    "legend_from_data",
    "parse_colour",
    "read_legend",
    "sample_offsets",
]

RGB = tuple[int, int, int]
Progress = Callable[[int], None]


@dataclass(frozen=True)
class Legend:
    terrain: Mapping[str, tuple[RGB, ...]]
    default: str | None = None
    hexsides: Mapping[str, tuple[RGB, str | None]] = ()  # type: ignore[assignment]
    #: hexside kinds drawn with hatching on their down side (the map's ``directed`` kinds): the
    #: up side is read for these, whatever their name
    directed: frozenset[str] = frozenset()

    def names(self) -> list[str]:
        return list(self.terrain)


@dataclass(frozen=True)
class HexResult:
    hex: Hex
    terrain: str
    share: float  #: share of centre samples that voted for the terrain
    distance: float  #: RGB distance of the voters' median colour from the legend colour
    uncertain: bool
    colour: RGB  #: median colour of the centre region


@dataclass(frozen=True)
class SideResult:
    side: Hexside
    kind: str
    confidence: float
    up: Hex | None = None
    owner: str | None = None


def parse_colour(value: Any, *, file: str | Path = "", place: str = "") -> RGB:
    if isinstance(value, str):
        v = value.strip().lstrip("#")
        if len(v) == 6:
            try:
                return (int(v[0:2], 16), int(v[2:4], 16), int(v[4:6], 16))
            except ValueError:
                pass
    elif (
        isinstance(value, Sequence)
        and len(value) == 3
        and all(isinstance(c, int) for c in value)
        and all(0 <= c <= 255 for c in value)
    ):
        return (int(value[0]), int(value[1]), int(value[2]))
    raise GazalaError(f"bad colour {value!r}", file=file, place=place, expected='"#rrggbb" or [r, g, b]')


def _colours(value: Any, file: str | Path, place: str) -> tuple[RGB, ...]:
    if isinstance(value, list) and value and not all(isinstance(c, int) for c in value):
        return tuple(parse_colour(v, file=file, place=place) for v in value)
    return (parse_colour(value, file=file, place=place),)


def legend_from_data(data: Any, file: str | Path = "<legend>") -> Legend:
    if not isinstance(data, dict) or not isinstance(data.get("terrain"), dict) or not data["terrain"]:
        raise GazalaError("no terrain colours", file=file, place="terrain", expected="terrain: {name: colour, ...}")
    terrain = {str(k): _colours(v, file, f"terrain.{k}") for k, v in data["terrain"].items()}
    default = data.get("default")
    if default is not None and (not isinstance(default, str) or default not in terrain):
        raise GazalaError(f"default {default!r} is not a legend terrain", file=file, place="default")
    sides: dict[str, tuple[RGB, str | None]] = {}
    if not isinstance(data.get("hexsides") or {}, dict):
        raise GazalaError("hexsides must be a mapping", file=file, place="hexsides", expected="hexsides: {name: colour}")
    directed: set[str] = set()
    for k, v in (data.get("hexsides") or {}).items():
        if isinstance(v, dict):
            sides[str(k)] = (parse_colour(v.get("colour", v.get("color")), file=file, place=f"hexsides.{k}"),
                             None if v.get("owner") is None else str(v.get("owner")))
            if v.get("directed") not in (None, True, False):
                raise GazalaError(f"hexsides.{k}.directed: {v.get('directed')!r} is not true or false", file=file,
                                  place=f"hexsides.{k}.directed", expected="true or false")
            if v.get("directed"):
                directed.add(str(k))
        else:
            sides[str(k)] = (parse_colour(v, file=file, place=f"hexsides.{k}"), None)
    return Legend(terrain, default, sides, frozenset(directed))


def read_legend(path: str | Path) -> Legend:
    p = Path(path)
    data = load_plain(p, "legend", GazalaError)  # capped: regular file, size, UTF-8, nesting
    return legend_from_data(data, p)


def sample_offsets(geometry: HexGridGeometry, radius: float = 0.3, count: int = 160) -> NDArray[np.int64]:
    """Integer (dx, dy) offsets on a sunflower spiral filling a disc of ``radius`` hex sizes."""
    size = min(geometry.dy, geometry.dx * 2 / math.sqrt(3))
    rmax = radius * size
    n = np.arange(count) + 0.5
    r = rmax * np.sqrt(n / count)
    theta = n * math.pi * (3 - math.sqrt(5))
    pts = np.stack([r * np.cos(theta), r * np.sin(theta)], axis=1)
    out = np.unique(np.round(pts).astype(np.int64), axis=0)
    return out


def classify_hexes(
    rgb: NDArray[np.uint8] | RgbRegions,
    geometry: HexGridGeometry,
    hexes: Sequence[Hex],
    legend: Legend,
    *,
    radius: float = 0.3,
    min_share: float = 0.55,
    max_distance: float = 60.0,
    batch: int = 2048,
    tile: int = 2048,
    progress: Progress | None = None,
) -> list[HexResult]:
    """Classify every hex of ``hexes`` whose centre is on the image (others are skipped).

    Works tile by tile (``tile`` pixels a side, overlapping by the sampling reach), in batches of
    ``batch`` hexes, so the working set stays small on large scans. Results keep ``hexes``' order.
    """
    h, w = rgb.shape[:2]
    offs = sample_offsets(geometry, radius)
    reach = int(np.abs(offs).max()) + 1
    pal = _palette(legend)
    centres = np.array([geometry.hex_center(hx) for hx in hexes], dtype=np.int64).reshape(-1, 2)
    on = (centres[:, 0] >= 0) & (centres[:, 0] < w) & (centres[:, 1] >= 0) & (centres[:, 1] < h)
    found: dict[int, HexResult] = {}
    for ys_t, xs_t in tiles(h, w, tile=tile):
        core = on & (centres[:, 0] >= xs_t.start) & (centres[:, 0] < xs_t.stop)
        core &= (centres[:, 1] >= ys_t.start) & (centres[:, 1] < ys_t.stop)
        idx = np.nonzero(core)[0]
        if len(idx) == 0:
            continue
        y0, y1 = max(0, ys_t.start - reach), min(h, ys_t.stop + reach)
        x0, x1 = max(0, xs_t.start - reach), min(w, xs_t.stop + reach)
        sub = np.ascontiguousarray(rgb[y0:y1, x0:x1]).reshape(-1, 3)
        sw, sh = x1 - x0, y1 - y0
        for start in range(0, len(idx), batch):
            sel = idx[start : start + batch]
            xs = np.clip(centres[sel, 0][:, None] + offs[None, :, 0], 0, w - 1) - x0
            ys = np.clip(centres[sel, 1][:, None] + offs[None, :, 1], 0, h - 1) - y0
            px = sub[(np.clip(ys, 0, sh - 1) * sw + np.clip(xs, 0, sw - 1)).ravel()].astype(np.float32)
            for gi, (terrain, share, dist, colour) in zip(sel, _votes(px, len(sel), pal, legend), strict=True):
                found[int(gi)] = HexResult(
                    hexes[gi], terrain, share, dist, bool(share < min_share or dist > max_distance), colour
                )
            if progress is not None:
                progress(len(sel))
    return [found[i] for i in sorted(found)]


@dataclass(frozen=True)
class _Palette:
    """The legend's terrain colours as one array: each colour's terrain (index into ``names``)
    and squared length, for the nearest-colour votes."""

    names: list[str]
    colours: NDArray[np.float32]
    owner: NDArray[np.int64]
    sq: NDArray[np.float32]


def _palette(legend: Legend) -> _Palette:
    names = legend.names()
    palette = []
    owner = []
    for i, name in enumerate(names):
        for col in legend.terrain[name]:
            palette.append(col)
            owner.append(i)
    pal = np.array(palette, dtype=np.float32)
    return _Palette(names, pal, np.array(owner, dtype=np.int64), (pal**2).sum(axis=1))


def _votes(
    px: NDArray[np.float32], n: int, pal: _Palette, legend: Legend
) -> list[tuple[str, float, float, RGB]]:
    """Per hex of a batch of ``n`` (``px``: its samples, hex after hex): the terrain most samples
    are nearest to, the share of them, the distance of the voters' median colour from that
    terrain's nearest colour, and the median colour of all samples."""
    d2 = (px**2).sum(axis=1)[:, None] - 2 * px @ pal.colours.T + pal.sq[None, :]
    nearest = pal.owner[np.argmin(d2, axis=1)].reshape(n, -1)
    k = nearest.shape[1]
    counts = np.zeros((n, len(pal.names)), dtype=np.int64)
    np.add.at(counts, (np.repeat(np.arange(n), k), nearest.ravel()), 1)
    win = np.argmax(counts, axis=1)
    share = counts[np.arange(n), win] / k
    pxr = px.reshape(n, k, 3)
    med_all = np.median(pxr, axis=1)
    out: list[tuple[str, float, float, RGB]] = []
    for j in range(n):
        voters = pxr[j][nearest[j] == win[j]]
        med = np.median(voters, axis=0) if len(voters) else med_all[j]
        cand = np.array(legend.terrain[pal.names[win[j]]], dtype=np.float32)
        dist = float(np.min(np.hypot.reduce(cand - med, axis=1)))
        colour = (int(med_all[j][0]), int(med_all[j][1]), int(med_all[j][2]))
        out.append((pal.names[win[j]], float(share[j]), dist, colour))
    return out


def detect_hexsides(
    rgb: NDArray[np.uint8] | RgbRegions,
    geometry: HexGridGeometry,
    sides: Sequence[Hexside],
    legend: Legend,
    *,
    threshold: float = 0.25,
    tolerance: float = 70.0,
    tile: int = 2048,
) -> list[SideResult]:
    """Hexsides carrying a legend line colour, with the share of matching pixels as confidence.

    Reads the image one region at a time: the sides whose midpoints fall in a ``tile`` x ``tile``
    square, with every pixel they look at (so the result does not depend on ``tile``). Results
    keep ``sides``' order, and the legend's order for one side.
    """
    if not legend.hexsides:
        return []
    h, w = rgb.shape[:2]
    size = min(geometry.dy, geometry.dx * 2 / math.sqrt(3))
    band = max(1, round(size / 25))
    ts = np.linspace(0.15, 0.85, 24)
    across = np.arange(-band, band + 1)
    hatched = bool(legend.directed & set(legend.hexsides))
    groups: dict[tuple[int, int], list[_Ends]] = {}
    for i, side in enumerate(sides):
        (ax, ay), (bx, by) = (geometry.lattice_to_pixel(*p) for p in side_lattice(side, geometry.orientation))
        key = (int((ay + by) / 2) // tile, int((ax + bx) / 2) // tile)
        groups.setdefault(key, []).append((i, side, (ax, ay), (bx, by)))
    found: list[tuple[int, SideResult]] = []
    for key in sorted(groups):  # one region at a time: its sides' points are worked out only here
        group: list[_Probe] = []
        for ends in groups[key]:
            probe = _probe(ends, geometry, ts, across, size, (h, w), hatched)
            if probe is not None:
                group.append(probe)
        if group:
            found.extend(_read_sides(rgb, group, legend, threshold, tolerance))
    found.sort(key=lambda f: f[0])  # stable: one side's kinds stay in the legend's order
    return [r for _i, r in found]


Box = tuple[int, int, int, int]
#: a hexside's index among the sides asked for, the side, and its two ends (image pixels)
_Ends = tuple[int, Hexside, tuple[float, float], tuple[float, float]]


def _probe(
    ends: _Ends, geometry: HexGridGeometry, ts: NDArray[np.float64], across: NDArray[np.int64], size: float,
    shape: tuple[int, int], hatched: bool,
) -> _Probe | None:
    """The side's sample points (and hatching windows if ``hatched``), or None when it has no
    length or a point is off the image."""
    h, w = shape
    i, side, (ax, ay), (bx, by) = ends
    length = math.hypot(bx - ax, by - ay)
    if length == 0:
        return None
    nx, ny = -(by - ay) / length, (bx - ax) / length
    xs = ax + (bx - ax) * ts[:, None] + nx * across[None, :]
    ys = ay + (by - ay) * ts[:, None] + ny * across[None, :]
    xi, yi = np.round(xs).astype(np.int64), np.round(ys).astype(np.int64)
    if xi.min() < 0 or yi.min() < 0 or xi.max() >= w or yi.max() >= h:
        return None
    windows = _hatch_windows(geometry, side, (ax + bx) / 2, (ay + by) / 2, size, (h, w)) if hatched else ([], [])
    box = [int(xi.min()), int(yi.min()), int(xi.max()) + 1, int(yi.max()) + 1]
    for wx0, wy0, wx1, wy1 in (*windows[0], *windows[1]):
        box = [min(box[0], wx0), min(box[1], wy0), max(box[2], wx1), max(box[3], wy1)]
    return _Probe(i, side, xi, yi, windows, (box[0], box[1], box[2], box[3]))


def _read_sides(
    rgb: NDArray[np.uint8] | RgbRegions, group: list[_Probe], legend: Legend, threshold: float, tolerance: float
) -> list[tuple[int, SideResult]]:
    """The group's sides that carry a legend line colour (one read of the region they span)."""
    found: list[tuple[int, SideResult]] = []
    x0, y0 = min(p.box[0] for p in group), min(p.box[1] for p in group)
    x1, y1 = max(p.box[2] for p in group), max(p.box[3] for p in group)
    sub = np.asarray(rgb[y0:y1, x0:x1]).astype(np.int32)
    for p in group:
        pix = sub[p.yi - y0, p.xi - x0]  # (24, 2band+1, 3)
        for kind, (colour, owner) in legend.hexsides.items():
            near = np.hypot.reduce(pix - np.array(colour), axis=2) < tolerance
            conf = float(near.any(axis=1).mean())
            if conf < threshold:
                continue
            up: Hex | None = None
            if kind in legend.directed:
                a, b = p.side.hexes
                counts = [_feature_pixels(sub, (x0, y0), wins, colour, tolerance / 2) for wins in p.windows]
                up = a if counts[0] < counts[1] else b  # hatches hang on the down side
            found.append((p.index, SideResult(p.side, kind, conf, up, owner)))
    return found


@dataclass(frozen=True)
class _Probe:
    """One hexside's sample points and hatching windows (image pixels), and the box they span."""

    index: int
    side: Hexside
    xi: NDArray[np.int64]
    yi: NDArray[np.int64]
    windows: tuple[Sequence[Box], Sequence[Box]]  #: per hex of the side, near the side
    box: Box


def _hatch_windows(
    geometry: HexGridGeometry, side: Hexside, mx: float, my: float, size: float, shape: tuple[int, int]
) -> tuple[list[Box], list[Box]]:
    """Per hex of ``side``: 7 x 7 windows (clipped to the image) on the way from the side's middle
    to the hex's centre, where an escarpment's hatching would be."""
    h, w = shape
    out: list[list[Box]] = []
    for hx in side.hexes:
        cx, cy = geometry.hex_center(hx)
        vx, vy = cx - mx, cy - my
        n = math.hypot(vx, vy) or 1.0
        boxes = []
        for t in np.linspace(0.06, 0.2, 6):
            xi, yi = round(mx + vx / n * size * t), round(my + vy / n * size * t)
            boxes.append((max(0, xi - 3), max(0, yi - 3), min(w, xi + 4), min(h, yi + 4)))
        out.append(boxes)
    return out[0], out[1]


def _feature_pixels(sub: NDArray[np.int32], origin: tuple[int, int], windows: Sequence[Box], colour: RGB, tol: float) -> int:
    """How many pixels of ``windows`` (image pixels; ``sub`` starts at ``origin``) are near ``colour``."""
    ox, oy = origin
    c = 0
    for x0, y0, x1, y1 in windows:
        win = sub[max(0, y0 - oy) : max(0, y1 - oy), max(0, x0 - ox) : max(0, x1 - ox)]
        c += int((np.hypot.reduce(win - np.array(colour), axis=2) < tol).sum())
    return c
