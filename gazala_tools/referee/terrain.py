"""The Terrain Effects Chart (TEC): one chart of a game's data that movement, supply traces counted
in movement points and prohibitions all read (``docs/games.md``, "Rules mechanics").

The chart is the ``terrain-effects:`` key of a game's ``rules:`` section. It prices, for each
**movement class** the game declares (``classes: {foot: {types: [...]}, motor: {...}}``; a unit
takes the first class it matches):

- each **terrain** of a hex (the map's terrain types, and the kinds of the map's boxes a hex lies
  in: BG's minefield hexes), as a :class:`ChartCell`: a number (halves allowed: ``1/2``, ``0.5``),
  ``+N`` over the rest of the hex, ``all`` (all the MP the unit has left) or ``P`` (prohibited).
  Several terrains in a hex: the most expensive (``P`` > ``all`` > the highest number), with the
  ``+N`` cells added;
- each **hexside kind** crossed (nobody need own it; a row may be for the unit's own side's or
  the enemy's hexsides only): ``+N`` is added to the hex entered, a number replaces what the hex
  costs (RG 14.0: 12 to cross an own minefield hexside), ``all``, ``P``;
- each **path kind** (road, trail, railway: ``path-kinds`` of map.yaml): a step from hex to hex
  along the path pays the path's cell instead of the hex's terrain (its ``+N`` cells still add)
  and crosses the hexside kinds the path ``bridges`` at no cost.

A row may be for some units only (``units:``), carry the rule it cites (``rule:``, default the
chart's) and the words of its messages (``what:``). :class:`Chart` is the data (read by
:mod:`gazala_tools.referee.ruledata.chart`);
:meth:`Chart.costs` compiles, once per map, class, side and row filter, a :class:`ClassCosts`
whose :meth:`~ClassCosts.step` prices one step, :meth:`~ClassCosts.breakdown` names its parts for
messages, and :meth:`~ClassCosts.search_cost` is a ``Cost`` hook of :mod:`.search` (integers in
units of ``1/scale`` MP; ``None`` for ``P``; :data:`~gazala_tools.referee.search.ALL` for ``all``).

Pure Python.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Final

from gazala_tools.filecache import ObjectCache
from gazala_tools.hexes import Hex, Hexside
from gazala_tools.referee.search import ALL, ArrayCost

if TYPE_CHECKING:  # pragma: no cover
    from gazala_tools.mapdata.model import GameMap
    from gazala_tools.referee.position import Unit
    from gazala_tools.referee.ruledata.filters import FormationNames, UnitFilter
    from gazala_tools.referee.search import Topology

#: the class a chart without ``classes:`` prices every unit as
ANY_CLASS: Final = "any"
#: cell kinds
NUMBER: Final = "number"
PLUS: Final = "plus"
ALL_MP: Final = "all"
PROHIBITED: Final = "P"
MAX_COST: Final = 1000.0
_CELL_RE: Final = re.compile(r"^(\+)?\s*(\d{1,4}(?:\.\d{1,4})?|\d{1,4}\s*/\s*\d{1,3})$")


@dataclass(frozen=True, slots=True)
class ChartCell:
    """One cell of the chart: ``kind`` NUMBER (``value`` MP), PLUS (``value`` MP over the rest),
    ALL_MP (all the MP left) or PROHIBITED."""

    kind: str
    value: float = 0.0
    text: str = ""

    @property
    def prohibited(self) -> bool:
        return self.kind == PROHIBITED

    def __str__(self) -> str:
        return self.text or (self.kind if self.kind in (ALL_MP, PROHIBITED) else _num(self.value))


P_CELL: Final = ChartCell(PROHIBITED, text="P")
ALL_CELL: Final = ChartCell(ALL_MP, text="all")


def parse_cell(text: str) -> ChartCell | None:
    """``"2"``, ``"1/2"``, ``"0.5"``, ``"+1"``, ``"all"``, ``"P"`` -> a :class:`ChartCell`; None if it is none."""
    t = text.strip()
    if t == "P":
        return P_CELL
    if t == "all":
        return ALL_CELL
    m = _CELL_RE.match(t)
    if m is None:
        return None
    value = float(Fraction(m.group(2).replace(" ", ""))) if "/" in m.group(2) else float(m.group(2))
    if not math.isfinite(value) or value > MAX_COST:
        return None
    return ChartCell(PLUS if m.group(1) else NUMBER, value, t)


@dataclass(frozen=True, slots=True)
class MoveClass:
    """A movement class (movement mode) of the game: the units of ``units``."""

    name: str
    units: UnitFilter


@dataclass(frozen=True, slots=True)
class Row:
    """One row of the chart: a terrain, box kind, hexside kind or path kind, priced per class."""

    name: str
    cells: Mapping[str, ChartCell]  #: class -> cell (every class of the chart)
    rule: str
    what: str  #: how messages name it ("the river", "an escarpment off a road")
    units: UnitFilter | None = None  #: only these units (None: every unit)
    owner: str | None = None  #: hexsides and boxes: only those of the unit's "own" side or an "enemy"'s
    first_step: bool = False  #: hexsides: only as the unit's whole move from the hex it began its phase in
    bridges: frozenset[str] = frozenset()  #: paths: the hexside kinds crossed along it at no cost
    unless: frozenset[str] = frozenset()  #: hexsides: not where a hexside of these kinds is too (a ford, a bridge)


@dataclass(frozen=True)
class Chart:
    """The Terrain Effects Chart of a game (``rules.terrain-effects``)."""

    rule: str
    classes: tuple[MoveClass, ...]
    terrain: tuple[Row, ...] = ()
    hexsides: tuple[Row, ...] = ()
    paths: tuple[Row, ...] = ()
    default: ChartCell = field(default_factory=lambda: ChartCell(NUMBER, 1.0, "1"))

    @property
    def class_names(self) -> tuple[str, ...]:
        return tuple(c.name for c in self.classes)

    def class_of(self, unit: Unit, names: FormationNames) -> str:
        """The unit's movement class: the first that matches, else the last."""
        for c in self.classes:
            if c.units.matches(unit, names):
                return c.name
        return self.classes[-1].name

    def profile(self, unit: Unit, names: FormationNames) -> tuple[str, str, tuple[bool, ...]]:
        """What the chart prices a unit by: its class, side, and which rows with ``units:`` it matches."""
        rows = self.filtered_rows()
        return (self.class_of(unit, names), unit.side,
                tuple(r.units.matches(unit, names) for r in rows if r.units is not None))

    def filtered_rows(self) -> tuple[Row, ...]:
        return tuple(r for r in (*self.terrain, *self.hexsides, *self.paths) if r.units is not None)

    def costs(self, game_map: GameMap, unit_class: str, side: str | None,
              matches: tuple[bool, ...] | None = None) -> ClassCosts:
        """The compiled costs of one class and side on a map (cached). ``matches``: per row with
        ``units:``, whether it applies (default: rows naming only sides apply by ``side``)."""
        if unit_class not in self.class_names:
            raise KeyError(unit_class)
        if matches is None:
            matches = tuple((r.units.sides is None or side in r.units.sides) and r.units.types is None
                            and r.units.formations is None for r in self.filtered_rows() if r.units is not None)
        key = (unit_class, side, matches)
        compiled = _COSTS.get(self, game_map)
        if compiled is None:
            compiled = _COSTS.put({}, self, game_map)
        got = compiled.get(key)
        if got is None:
            if len(compiled) >= MAX_PROFILES:
                compiled.clear()
            got = compiled[key] = ClassCosts(self, game_map, unit_class, side, matches)
        return got

    def closed_hexes(self, game_map: GameMap) -> frozenset[Hex]:
        """The hexes the chart prohibits (``P``) to every class, whoever the unit: no unit enters them,
        so neither does a supply path counted in hexes (``blocked-by: [impassable]``). Cached per map."""
        got = _CLOSED.get(self, game_map)
        if got is not None:
            return got
        none = tuple(False for r in self.filtered_rows() if r.units is not None)
        closed: set[Hex] | None = None
        for c in self.class_names:
            k = self.costs(game_map, c, None, none)
            hexes = {h for h in game_map.hexes() if k.prohibited_in(h)} if (k.p_hexes or k.p_terrain) else set()
            closed = hexes if closed is None else closed & hexes
        return _CLOSED.put(frozenset(closed or ()), self, game_map)

    def unit_costs(self, game_map: GameMap, unit: Unit, names: FormationNames) -> ClassCosts:
        cls, side, matches = self.profile(unit, names)
        return self.costs(game_map, cls, side, matches)


#: per chart and map, the compiled costs of each (class, side, rows) profile
_COSTS: ObjectCache[dict[tuple[str, str | None, tuple[bool, ...]], ClassCosts]] = ObjectCache(maxsize=8)
MAX_PROFILES: Final = 256
#: per chart and map, the hexes prohibited to every class
_CLOSED: ObjectCache[frozenset[Hex]] = ObjectCache(maxsize=8)


@dataclass(frozen=True, slots=True)
class StepParts:
    """What one step costs and why (the MP breakdown of messages)."""

    base: float  #: the hex (or path) cost, before additions
    base_what: str  #: "clear", "woods", "along the road"
    extras: tuple[tuple[str, float, str], ...]  #: (what, MP, rule): "+2 across the river (3.6)"
    replaced: tuple[str, float, str] | None  #: a hexside whose number replaced the hex cost (RG 14.0)
    all_mp: bool
    prohibited: tuple[Row, ...]


class ClassCosts:
    """The chart compiled for one class and side on one map: step costs in O(1)."""

    def __init__(self, chart: Chart, game_map: GameMap, unit_class: str, side: str | None,
                 matches: tuple[bool, ...]) -> None:
        self.chart = chart
        self.map = game_map
        self.unit_class = unit_class
        self.side = side
        filtered = chart.filtered_rows()
        off = [r for r, m in zip(filtered, matches, strict=True) if not m]  #: rows with units: this profile is not

        def applies(r: Row) -> bool:
            return r.units is None or not any(r is x for x in off)

        self.applies = applies
        # --- hexes: terrain types; kinds of the boxes (owned boxes by the unit's side) and places a hex is in
        self.terrain_rows: dict[str, list[Row]] = {}
        for r in chart.terrain:
            if applies(r):
                self.terrain_rows.setdefault(r.name, []).append(r)
        #: terrain name -> (cell, what, rows) off any path
        self.by_terrain: dict[str, tuple[ChartCell, str, tuple[Row, ...]]] = {
            t: self._combine(list(self.terrain_rows.get(t, ())), [], t) for t in game_map.terrain_types}
        #: hexes with more terrain than their type (a box or place of a priced kind) -> (cell, what, rows),
        #: and their +N (added along paths too)
        self.box_hex, self.box_plus = self._box_terrain()
        #: paths: hexside -> (cell, what, bridges), the cheapest path kind crossing it
        self.along = self._along_paths()
        #: hexsides: hexside -> rows of the kinds on it that apply to this class and side
        self.sides = self._hexside_rows()
        #: the cheapest step a unit of the class may take (the A* heuristic's cost per hex)
        self.least = self._least_step()
        #: what may be prohibited, for a quick "no": hexsides with a P row, terrain and hexes whose cell is P
        self.p_sides = frozenset(s for s, rows in self.sides.items() if any(c.kind == PROHIBITED for _r, c, _k in rows))
        self.p_terrain = frozenset(t for t, got in self.by_terrain.items() if any(
            r.cells.get(unit_class) == P_CELL for r in got[2]))
        self.p_hexes = frozenset(h for h, got in self.box_hex.items() if any(
            r.cells.get(unit_class) == P_CELL for r in got[2]))
        self.first_sides = frozenset(s for s, rows in self.sides.items() if any(r.first_step for r, _c, _k in rows))
        self._arrays: list[tuple[Topology, int, ArrayCost]] = []
        self._cells: dict[Hex, ChartCell] = {}

    def _box_terrain(self) -> tuple[dict[Hex, tuple[ChartCell, str, tuple[Row, ...]]],
                                    dict[Hex, tuple[float, tuple[Row, ...]]]]:
        """The hexes whose boxes (owned ones by the unit's side) and places are of a kind the chart
        prices: what entering each costs, all its terrains combined, and the ``+N`` of those kinds."""
        game_map, side, unit_class = self.map, self.side, self.unit_class
        box_hex: dict[Hex, tuple[ChartCell, str, tuple[Row, ...]]] = {}
        box_plus: dict[Hex, tuple[float, tuple[Row, ...]]] = {}
        extra: dict[Hex, list[Row]] = {}
        if self.terrain_rows:
            for b in game_map.boxes:
                rows = [r for r in self.terrain_rows.get(b.kind, ()) if _owned(r.owner, b.owner, side)]
                for h in b.hexes if rows else ():
                    extra.setdefault(h, []).extend(r for r in rows if r not in extra.get(h, ()))
            for pl in game_map.places:
                rows = [r for r in self.terrain_rows.get(pl.kind, ()) if r.owner is None]
                for h in pl.hexes if rows else ():
                    extra.setdefault(h, []).extend(r for r in rows if r not in extra.get(h, ()))
        for h, rows in extra.items():
            t = game_map.terrain(h)
            box_hex[h] = self._combine(list(self.terrain_rows.get(t, ())), rows, t)
            plus = [r for r in rows if r.cells[unit_class].kind == PLUS]
            if plus:
                box_plus[h] = (sum(r.cells[unit_class].value for r in plus), tuple(plus))
        return box_hex, box_plus

    def _along_paths(self) -> dict[Hexside, tuple[ChartCell, str, frozenset[str], Row]]:
        """Per hexside a path kind runs across, the cheapest path's cell (one prohibited or priced
        ``all`` to the class is not followed) and every kind of hexside the paths there bridge."""
        along: dict[Hexside, tuple[ChartCell, str, frozenset[str], Row]] = {}
        for r in self.chart.paths:
            if not self.applies(r):
                continue
            cell = r.cells[self.unit_class]
            if cell.kind not in (NUMBER,):
                continue  # a path prohibited (or priced "all") to the class is not followed
            for s in self.map.path_sides(r.name):
                old_a = along.get(s)
                if old_a is None:
                    along[s] = (cell, f"along the {r.what}", r.bridges, r)
                elif cell.value < old_a[0].value:  # the cheapest path; it bridges what any path there does
                    along[s] = (cell, f"along the {r.what}", r.bridges | old_a[2], r)
                else:
                    along[s] = (old_a[0], old_a[1], old_a[2] | r.bridges, old_a[3])
        return along

    def _hexside_rows(self) -> dict[Hexside, tuple[tuple[Row, ChartCell, str], ...]]:
        """Per hexside, the rows of the kinds on it that apply to this class and side: owned ones by
        the side the row names, a row ``unless`` another kind is there (a river with a ford) left out."""
        game_map = self.map
        by_kind: dict[str, list[Row]] = {}
        for r in self.chart.hexsides:
            if self.applies(r):
                by_kind.setdefault(r.name, []).append(r)
        if not by_kind:
            return {}
        acc: dict[Hexside, list[tuple[Row, ChartCell, str]]] = {}
        for kind, rows in by_kind.items():
            for s in game_map.feature_sides(kind):
                f = game_map.feature(s, kind)
                owner = f.owner if f is not None else None
                for r in rows:
                    if r.unless and any(g.kind in r.unless for g in game_map.features(s)):
                        continue  # a river row where a ford or bridge is too
                    if _owned(r.owner, owner, self.side):
                        acc.setdefault(s, []).append((r, r.cells[self.unit_class], kind))
        return {s: tuple(v) for s, v in acc.items()}

    def _least_step(self) -> float:
        """The cheapest step a unit of the class may take, at most 1 (the A* heuristic's cost per hex)."""
        unit_class = self.unit_class
        cheap = [c[0].value for c in self.along.values()] + [
            r.cells[unit_class].value for rows in self.terrain_rows.values() for r in rows
            if r.cells[unit_class].kind == NUMBER] + [
            c.value for rows in self.sides.values() for _r, c, _k in rows if c.kind == NUMBER]
        if self.chart.default.kind == NUMBER:
            cheap.append(self.chart.default.value)
        return min([1.0, *cheap])

    def _combine(self, own: list[Row], extra: list[Row], terrain: str) -> tuple[ChartCell, str, tuple[Row, ...]]:
        """Several terrains of a hex (its type's rows ``own``, its boxes' and places' ``extra``): the
        most expensive absolute cell (the chart's default for a type it does not price), plus every ``+N``."""
        cls = self.unit_class
        pairs = [(r, r.cells[cls]) for r in (*own, *extra)]
        absolute = [(r, c) for r, c in pairs if c.kind != PLUS]
        if not any(c.kind != PLUS for r, c in pairs if r in own):
            absolute.append((Row(terrain, {cls: self.chart.default}, self.chart.rule, terrain), self.chart.default))
        plus = [c for _r, c in pairs if c.kind == PLUS]
        worst = max(absolute, key=lambda rc: _rank(rc[1]))
        rows = tuple(r for r, c in pairs if c.kind in (PROHIBITED, PLUS) or r is worst[0])
        cell = worst[1]
        if cell.kind == NUMBER and plus:
            cell = ChartCell(NUMBER, cell.value + sum(c.value for c in plus))
        return cell, worst[0].name, rows

    # --- one step ---------------------------------------------------------------------------------
    def hex_cell(self, b: Hex) -> ChartCell:
        """What entering ``b`` costs off any path (terrain and boxes combined; remembered per hex)."""
        got = self._cells.get(b)
        if got is None:
            box = self.box_hex.get(b)
            got = self._cells[b] = box[0] if box is not None else self.by_terrain[self.map.terrain(b)][0]
        return got

    def step(self, a: Hex, b: Hex, side: Hexside | None = None) -> tuple[float, int]:
        """``(mp, flag)`` for the step from ``a`` into adjacent ``b``: flag 0 a plain cost, 1 ``all``
        (the MP left; ``mp`` is then what is added to it), 2 prohibited (``P``; ``mp`` is what the step
        would cost without the prohibited cells: how a path that breaks the rule is priced)."""
        s = side if side is not None else Hexside.between(a, b)
        al = self.along.get(s)
        flag = 0
        if al is not None:
            mp = al[0].value
            bridges = al[2]
            if self.box_plus:
                got = self.box_plus.get(b)
                if got is not None:
                    mp += got[0]
        else:
            bridges = frozenset()
            cell = self.hex_cell(b)
            if cell.kind == PROHIBITED:
                flag = 2
                mp = self.chart.default.value if self.chart.default.kind == NUMBER else 1.0
            elif cell.kind == ALL_MP:
                flag = 1
                mp = 0.0
            else:
                mp = cell.value
        rows = self.sides.get(s) if self.sides else None
        if rows:
            replace = None
            for _r, c, kind in rows:
                if kind in bridges:
                    continue
                k = c.kind
                if k == PROHIBITED:
                    flag = 2
                elif k == PLUS:
                    mp += c.value
                elif k == ALL_MP:
                    flag = max(flag, 1)
                else:
                    replace = c.value if replace is None else max(replace, c.value)
            if replace is not None:
                plus = sum(c.value for _r, c, kind in rows if c.kind == PLUS and kind not in bridges)
                mp = replace + plus + (self.box_plus[b][0] if self.box_plus and b in self.box_plus else 0.0)
        return mp, flag

    def prohibited_in(self, h: Hex) -> tuple[Row, ...]:
        """The rows that make standing in (entering) ``h`` prohibited to this class (empty: none)."""
        if h not in self.p_hexes and self.map.terrain(h) not in self.p_terrain:
            return ()
        got = self.box_hex.get(h) or self.by_terrain[self.map.terrain(h)]
        return tuple(r for r in got[2] if r.cells.get(self.unit_class) == P_CELL)

    def prohibitions(self, a: Hex, b: Hex, side: Hexside | None = None) -> list[tuple[Row, str]]:
        """The ``P`` rows the step breaks, each with "enters" or "crosses"."""
        s = side if side is not None else Hexside.between(a, b)
        if s not in self.p_sides and b not in self.p_hexes and (
                not self.p_terrain or self.map.terrain(b) not in self.p_terrain):
            return []
        out: list[tuple[Row, str]] = []
        al = self.along.get(s)
        bridges = al[2] if al is not None else frozenset()
        if al is None:
            got = self.box_hex.get(b) or self.by_terrain[self.map.terrain(b)]
            out.extend((r, "enters") for r in got[2] if r.cells.get(self.unit_class) == P_CELL)
        for r, c, kind in self.sides.get(s, ()):
            if c.kind == PROHIBITED and kind not in bridges:
                out.append((r, "crosses"))
        return out

    def first_step_rows(self, a: Hex, b: Hex, side: Hexside | None = None) -> tuple[Row, ...]:
        """The hexside rows of the step crossed only as a unit's whole move (DG 14.2)."""
        s = side if side is not None else Hexside.between(a, b)
        if s not in self.first_sides:
            return ()
        al = self.along.get(s)
        bridges = al[2] if al is not None else frozenset()
        return tuple(r for r, _c, kind in self.sides.get(s, ()) if r.first_step and kind not in bridges)

    def breakdown(self, a: Hex, b: Hex, side: Hexside | None = None) -> StepParts:
        """The parts of a step's cost, for messages."""
        s = side if side is not None else Hexside.between(a, b)
        al = self.along.get(s)
        extras: list[tuple[str, float, str]] = []
        prohibited = tuple(r for r, _v in self.prohibitions(a, b, s))
        all_mp = False
        if al is not None:
            base, what, bridges = al[0].value, al[1], al[2]
            if b in self.box_plus:
                extras.extend((f"in {r.what}", r.cells[self.unit_class].value, r.rule) for r in self.box_plus[b][1])
        else:
            bridges = frozenset()
            got = self.box_hex.get(b) or self.by_terrain[self.map.terrain(b)]
            cell = got[0]
            plus_rows = [r for r in got[2] if r.cells.get(self.unit_class, P_CELL).kind == PLUS]
            plus = sum(r.cells[self.unit_class].value for r in plus_rows)
            all_mp = cell.kind == ALL_MP
            base = cell.value - plus if cell.kind == NUMBER else 0.0
            what = got[1]
            extras.extend((f"in {r.what}", r.cells[self.unit_class].value, r.rule) for r in plus_rows)
        replaced: tuple[str, float, str] | None = None
        for r, c, kind in self.sides.get(s, ()):
            if kind in bridges:
                continue
            if c.kind == PLUS:
                extras.append((f"across {r.what}", c.value, r.rule))
            elif c.kind == ALL_MP:
                all_mp = True
            elif c.kind == NUMBER and (replaced is None or c.value > replaced[1]):
                replaced = (f"across {r.what}", c.value, r.rule)
        return StepParts(base, what, tuple(extras), replaced, all_mp, prohibited)

    # --- for the search -------------------------------------------------------------------------------
    def array_cost(self, topology: Topology, scale: int = 2) -> ArrayCost:
        """Every step of a map priced once, as an :class:`~.search.ArrayCost` in units of ``1/scale`` MP
        (what a supply trace counted in MP searches on: no Python call per step). Cached per topology."""
        for topo, sc, got in self._arrays:
            if topo is topology and sc == scale:
                return got
        order, adj, index = topology.order, topology.adj, topology.index

        def code(mp: float, flag: int) -> int:
            return -1 if flag == 2 else -2 if flag == 1 else round(mp * scale)

        # most steps cost what entering their hex costs; the steps across a priced hexside or along a
        # path are priced one by one
        enter = []
        for h in order:
            c = self.hex_cell(h)
            enter.append(-1 if c.kind == PROHIBITED else -2 if c.kind == ALL_MP else round(c.value * scale))
        special: dict[tuple[int, int], int] = {}
        for s in (*self.along, *self.sides):
            a, b = s.hexes
            ia, ib = index.get(a), index.get(b)
            if ia is not None and ib is not None:
                special[(ia, ib)] = code(*self.step(a, b, s))
                special[(ib, ia)] = code(*self.step(b, a, s))
        forward = [tuple(special.get((u, v), enter[v]) for v in adj[u]) for u in range(len(order))]
        backward = [tuple(special.get((v, u), enter[u]) for v in adj[u]) for u in range(len(order))]
        got = ArrayCost(topology, forward, backward)
        self._arrays = [(topology, scale, got), *self._arrays[:3]]
        return got

    def search_cost(self, scale: int = 2, sides: Mapping[tuple[Hex, Hex], Hexside] | None = None
                    ) -> Callable[[Hex, Hex], int | None]:
        """A ``Cost`` hook of :mod:`.search`: the step in units of ``1/scale`` MP (``scale=2``: half
        points are whole units), ``None`` for ``P``, :data:`~.search.ALL` for ``all``."""
        step = self.step

        def cost(a: Hex, b: Hex, /) -> int | None:
            mp, flag = step(a, b, sides.get((a, b)) if sides is not None else None)
            if flag == 2:
                return None
            if flag == 1:
                return ALL
            return round(mp * scale)

        return cost


def _owned(want: str | None, owner: str | None, side: str | None) -> bool:
    """Does a row for ``want`` ("own", "enemy", None: any) apply to a feature of ``owner`` for ``side``?"""
    if want is None:
        return True
    if owner is None or side is None:
        return False
    return (owner == side) == (want == "own")


def _rank(c: ChartCell) -> tuple[int, float]:
    return (3, 0.0) if c.kind == PROHIBITED else (2, 0.0) if c.kind == ALL_MP else (1, c.value)


def _num(x: float) -> str:
    f = Fraction(x).limit_denominator(16)
    if f.denominator == 1:
        return str(f.numerator)
    return f"{x:g}"


def describe_parts(parts: Iterable[StepParts]) -> tuple[str, float]:
    """The MP of a path's steps, summed by what makes them: ``"5 hexes + 2 across the river (3.6)"``
    and the total (an ``all`` step counts 0 here: its cost is what was left)."""
    hexes: dict[str, tuple[int, float]] = {}
    extras: dict[tuple[str, str], float] = {}
    total = 0.0
    alls: dict[str, int] = {}
    for p in parts:
        if p.replaced is not None:
            key = (p.replaced[0], p.replaced[2])
            extras[key] = extras.get(key, 0.0) + p.replaced[1]
            total += p.replaced[1]
        elif p.all_mp:
            alls[p.base_what] = alls.get(p.base_what, 0) + 1
        else:
            n, mp = hexes.get(p.base_what, (0, 0.0))
            hexes[p.base_what] = (n + 1, mp + p.base)
            total += p.base
        for what, mp, rule in p.extras:
            extras[(what, rule)] = extras.get((what, rule), 0.0) + mp
            total += mp
    words: list[str] = []
    if len(hexes) == 1 and all(mp == n for n, mp in hexes.values()):
        n = next(iter(hexes.values()))[0]
        words.append(f"{n} {'hex' if n == 1 else 'hexes'}")
    else:
        for what, (n, mp) in hexes.items():
            if what.startswith("along "):
                words.append(f"{_num(mp)} {what} ({n} {'hex' if n == 1 else 'hexes'})")
            else:
                words.append(f"{_num(mp)} for {n} {what} {'hex' if n == 1 else 'hexes'}")
    for what, n in alls.items():
        words.append(f"all MP left for {n} {what} {'hex' if n == 1 else 'hexes'}")
    for (what, rule), mp in extras.items():
        words.append(f"{_num(mp)} {what} ({rule})")
    return " + ".join(words), total


__all__ = [
    "ALL",
    "ALL_CELL",
    "ALL_MP",
    "ANY_CLASS",
    "MAX_COST",
    "MAX_PROFILES",
    "NUMBER",
    "PLUS",
    "PROHIBITED",
    "P_CELL",
    "Chart",
    "ChartCell",
    "ClassCosts",
    "MoveClass",
    "Row",
    "StepParts",
    "describe_parts",
    "parse_cell",
]
