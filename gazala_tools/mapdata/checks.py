"""Checks of map data that hold for every game: sources named, labels round-trip, roads and places
on passable hexes, escarpments with an up side.

Each check is a function ``(GameMap) -> list[str]`` returning the problems it finds (empty = ok),
registered with what it rests on. ``gazala map check GAME`` runs :func:`run_checks`. The checks of
our four reconstructions against their rulebooks (every hex a rule names) are tests
(``tests/mapdata/rulerefs.py``): they state rule facts a second time on purpose, to test the data.
Pure Python.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from gazala_tools.hexes import Hex, Hexside
from gazala_tools.mapdata.model import GameMap

__all__ = [
    "Check",
    "CheckResult",
    "check",
    "checks_for",
    "directed_hexsides_have_an_up_side",
    "every_feature_names_its_source",
    "flood",
    "hexes",
    "label_hex_label_round_trip",
    "labels",
    "roads_tracks_and_places_are_on_passable_hexes",
    "run_checks",
    "setup_and_entry_zones_are_passable",
    "vassal_names_every_hex_by_its_label",
]

Check = Callable[[GameMap], list[str]]


@dataclass(frozen=True)
class CheckResult:
    rule: str
    name: str
    problems: tuple[str, ...]


_REGISTRY: dict[str, list[tuple[str, str, Check]]] = {}


def check(games: str | tuple[str, ...], rule: str) -> Callable[[Check], Check]:
    """Register a check for one or more game ids (``"*"``: every game)."""
    ids = (games,) if isinstance(games, str) else games

    def deco(fn: Check) -> Check:
        for g in ids:
            _REGISTRY.setdefault(g, []).append((rule, fn.__name__, fn))
        return fn

    return deco


def checks_for(game: str) -> list[tuple[str, str, Check]]:
    """The checks of every game, then those registered for ``game`` (by tests, or by a plugin)."""
    return [*_REGISTRY.get("*", []), *_REGISTRY.get(game, [])]


def run_checks(m: GameMap) -> list[CheckResult]:
    """Run every check for the map's game; each result lists all its problems."""
    out = []
    for rule, name, fn in checks_for(m.game):
        try:
            problems = fn(m)
        except (KeyError, ValueError) as exc:
            problems = [f"{type(exc).__name__}: {exc}"]
        out.append(CheckResult(rule, name, tuple(problems)))
    return out


# --- helpers ---------------------------------------------------------------------------------------


def hexes(m: GameMap, labels: Iterable[str]) -> list[Hex]:
    return [m.hex(x) for x in labels]


def labels(m: GameMap, hs: Iterable[Hex]) -> list[str]:
    return sorted(m.label(h) for h in hs)


def flood(
    m: GameMap,
    start: Iterable[Hex],
    *,
    blocked_hexes: Iterable[Hex] = (),
    blocked_sides: Iterable[Hexside] = (),
    passable_only: bool = True,
) -> set[Hex]:
    """Hexes reachable from ``start`` over map hexes, not entering ``blocked_hexes`` nor crossing
    ``blocked_sides`` (and not entering impassable terrain when ``passable_only``)."""
    bh = set(blocked_hexes)
    bs = set(blocked_sides)
    seen = {h for h in start if h in m.grid}
    todo = list(seen)
    while todo:
        h = todo.pop()
        for n in h.neighbours():
            if n in seen or n not in m.grid or n in bh or Hexside.between(h, n) in bs:
                continue
            if passable_only and not m.passable(n):
                continue
            seen.add(n)
            todo.append(n)
    return seen


def _is_chain(hs: list[Hex]) -> bool:
    return all(a.is_adjacent(b) for a, b in itertools.pairwise(hs))


# --- every game ----------------------------------------------------------------------------------


@check("*", "data")
def every_feature_names_its_source(m: GameMap) -> list[str]:
    out = []
    items: list[tuple[str, str]] = [(f"box {b.name}", b.source) for b in m.boxes]
    items += [(f"hexside {f.group}", f.source) for f in m.explicit_features]
    items += [(f"path {p.name}", p.source) for p in m.paths]
    items += [(f"place {p.name}", p.source) for p in m.places]
    items += [(f"zone {z.name}", z.source) for z in m.zones]
    for what, src in items:
        if not src.strip():
            out.append(f"{what} has no source")
    return out


@check("*", "data")
def label_hex_label_round_trip(m: GameMap) -> list[str]:
    return [f"{m.label(h)} does not round-trip" for h in m.hexes() if m.hex(m.label(h)) != h]


@check("*", "data")
def roads_tracks_and_places_are_on_passable_hexes(m: GameMap) -> list[str]:
    out = []
    for p in m.paths:
        out += [
            f"{p.kind.value} {p.name!r} runs through impassable {m.label(h)}"
            for h in p.hexes
            if not m.passable(h)
        ]
    for pl in m.places:
        out += [f"place {pl.name!r} sits on impassable {m.label(h)}" for h in pl.hexes if not m.passable(h)]
    return out


@check("*", "data")
def setup_and_entry_zones_are_passable(m: GameMap) -> list[str]:
    out = []
    for z in m.zones:
        if z.kind in ("setup", "entry", "supply"):
            out += [
                f"zone {z.name!r}: {m.label(h)} is impassable" for h in sorted(z.hexes) if not m.passable(h)
            ]
    return out


@check("*", "data")
def directed_hexsides_have_an_up_side(m: GameMap) -> list[str]:
    out = []
    directed = {k for k, t in m.hexside_kinds.items() if t.directed}
    for f in m.all_features():
        if f.kind in directed and (f.up is None or f.up not in f.side.hexes):
            out.append(f"{f.kind} {m.grid.hexside_label(f.side)} has no up side among its hexes")
    return out


@check("*", "data")
def vassal_names_every_hex_by_its_label(m: GameMap) -> list[str]:
    """VASSAL names each hex centre as the data does: the numbering (``vOff``, ``vDescend``...) and
    ``grid.max_rows``/``max_columns`` agree with the board (VASSAL counts descending rows and
    columns from the board's size: ``max_rows`` must be ``floor(board_height / dx + 0.5)``). A square map's
    cells: the name VASSAL's ``SquareGrid`` gives each cell centre."""
    if m.grid.kind == "square":
        sq = m.square_geometry()
        px = m.pixels
        return [f"{len(bad)} cell(s) VASSAL names otherwise: " + ", ".join(bad[:8]) + (" ..." if len(bad) > 8 else "")
                for bad in [[f"{m.label(h)} (VASSAL: {name})" for h in m.hexes()
                             for name in [sq.name_at(*sq.raw_center(*m.grid.raw(h)), px.board_width, px.board_height)]
                             if name != m.label(h)]] if bad]
    geo = m.geometry()
    p = m.pixels
    out: list[str] = []
    g = m.grid
    if g.numbering.v_descend and g.max_rows and g.max_rows != geo.max_rows(p.board_height):
        out.append(f"grid.max_rows {g.max_rows}: VASSAL counts {geo.max_rows(p.board_height)} rows on a board "
                   f"{p.board_height} px high (dx {p.dx}); state that and choose numbering vOff so the labels hold")
    if g.numbering.h_descend and g.max_columns and g.max_columns != geo.max_columns(p.board_width):
        out.append(f"grid.max_columns {g.max_columns}: VASSAL counts {geo.max_columns(p.board_width)} columns on a "
                   f"board {p.board_width} px wide (dy {p.dy})")
    wrong = []
    for h in g.hexes():
        x, y = geo.hex_center(h)
        name = geo.name_at(x, y, p.board_width, p.board_height)
        if name is not None and name != g.label(h):
            wrong.append(f"{g.label(h)} (VASSAL: {name})")
    if wrong:
        out.append(f"{len(wrong)} hex(es) VASSAL names otherwise: " + ", ".join(wrong[:8]) + (" ..." if len(wrong) > 8 else ""))
    return out
