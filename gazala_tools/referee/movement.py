"""Movement rules, as data: what a move may not do on its way, what it costs, when a unit must stop.

A game's movement rules are its folder's ``movement.yaml`` (``docs/games.md``, "Movement data");
a game without one has only the rules its ``rules:`` data already gives (``prohibited`` hexes and
hexsides, enemy-held hexes). :class:`MovementRules` reads the file once per rules object.

Paths. VASSAL records where a piece ends a move, not the way it went. The referee takes the
**shortest legal path** from start to end: a search whose step cost is ``PENALTY`` per rule the
step breaks plus its movement points. A path with no broken rule is legal; when every path breaks
some rule, the one breaking the fewest is reported with the rules it breaks ("no legal path").

A plugin adds what data cannot say with ``check_move(before, after, path, context)`` (a method of
its :class:`~gazala_tools.referee.engine.RulesPlugin`), called for every move after the data rules.
"""

from __future__ import annotations

import heapq
import itertools
import logging
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from gazala_tools.counters.loader import load_game_manifest
from gazala_tools.errors import GameDataError
from gazala_tools.filecache import BoundedDict, ObjectCache
from gazala_tools.hexes import Hex, Hexside
from gazala_tools.mapdata.model import PathKind
from gazala_tools.referee.findings import Finding, Severity
from gazala_tools.referee.position import Unit
from gazala_tools.referee.ruledata import ANY_UNIT, RulesReader, Section, UnitFilter

if TYPE_CHECKING:  # pragma: no cover
    from gazala_tools.referee.engine import Context, RulesPlugin
    from gazala_tools.referee.search import Topology

log = logging.getLogger(__name__)

MOVEMENT_FILE = "movement.yaml"
PENALTY = 10_000.0  #: search cost of one broken rule: any legal path is cheaper than any illegal one
TOP_KEYS = frozenset({"phases", "impassable", "enemy-hexes", "cross", "blocked-sides", "enemy-hexsides", "zoc",
                      "exits", "immobile", "points", "notes"})


@dataclass(frozen=True, slots=True)
class Crossing:
    """Units of ``units`` may not cross ``sides`` (8.0: escarpments off a road)."""

    rule: str
    units: UnitFilter
    sides: frozenset[Hexside]
    what: str


@dataclass(frozen=True, slots=True)
class Immobile:
    """Units of ``units`` in the hex of a breach marker in ``state`` may not move (14.1)."""

    rule: str
    units: UnitFilter
    breach: str  #: "under-construction" or "breached"
    what: str


@dataclass(frozen=True, slots=True)
class Points:
    """Movement points (BG 4.0): terrain costs per class, costs along roads/tracks, extras."""

    rule: str
    role: str  #: the counter value that is the allowance ("move")
    fast: UnitFilter  #: the units of the second cost column (motorized)
    terrain: Mapping[str, tuple[float, float]]
    along: Mapping[PathKind, tuple[float, float]]
    leave_zone: float
    default: tuple[float, float] = (1.0, 1.0)
    #: ``boxes: {kind, cost, units}``: entering a hex of a box of this hexside kind costs ``box_cost``
    #: more (BG 9.1's minefield hexes: +1), for the units of ``box_units`` (None: every unit)
    box_kind: str | None = None
    box_cost: float = 0.0
    box_units: UnitFilter | None = None
    #: ``own-hexsides: {kind, cost, add}``: crossing a hexside of this kind owned by the unit's own
    #: side costs ``own_cost`` points (RG 14.0: 12, into or out of a minefield box) or, with
    #: ``own_add``, that many more (DG 14.1: +2, even along a trail or road)
    own_kind: str | None = None
    own_cost: float = 0.0
    own_add: bool = False


@dataclass(frozen=True, slots=True)
class ZocMoves:
    rule: str
    zoc_to_zoc: bool  #: no move from one enemy-ZOC hex directly to another (RG 9.0)
    stop: bool  #: a unit stops on entering an enemy zone (BG 4.1.2)
    zone: str  #: "zoc" (the referee's ZOC) or "engagement" (the plugin's ``zones_against``)
    across: frozenset[Hexside] | None = None  #: zoc-to-zoc only across these hexsides (DG 14.2 note)


@dataclass(frozen=True, slots=True)
class Phases:
    rule: str = ""
    chits: frozenset[str] = frozenset()  #: chit types whose draw starts an action phase
    activations: bool = False  #: count formations' action chits per turn (7.0)


@dataclass
class MovementRules:
    """The movement data of one game (empty: only the ``rules:`` data's prohibitions)."""

    phases: Phases = field(default_factory=Phases)
    impassable_rule: str | None = None
    enemy_rule: str | None = None
    crossings: tuple[Crossing, ...] = ()
    blocked_rule: str | None = None  #: hexsides the rules' ``supply_blocks`` closes (un-breached minefields)
    blocked_what: str = ""
    #: ``enemy-hexsides: {kind, rule, what}``: hexsides of this kind owned by another side are crossed
    #: only as a unit's whole move from its start hex (DG 14.2's enemy minefields)
    mines_rule: str | None = None
    mines_what: str = ""
    mines_kind: str = ""
    zoc: ZocMoves | None = None
    exits_rule: str | None = None
    exits: Mapping[str, frozenset[Hex]] = field(default_factory=dict)
    immobile: tuple[Immobile, ...] = ()
    points: Points | None = None
    notes: tuple[str, ...] = ()
    source: str = ""

    @property
    def empty(self) -> bool:
        return not (self.crossings or self.blocked_rule or self.mines_rule or self.zoc or self.exits_rule
                    or self.immobile or self.points)


_CACHE: ObjectCache[MovementRules] = ObjectCache(maxsize=8)


def movement_rules(rules: RulesPlugin) -> MovementRules:
    """The movement data of ``rules``' game (read once per rules object)."""
    got = _CACHE.get(rules)
    if got is not None:
        return got
    return _CACHE.put(read_movement(rules), rules)


def read_movement(rules: RulesPlugin) -> MovementRules:
    from gazala_tools.yamlnodes import compose

    file = rules.game.data_file(MOVEMENT_FILE)
    enemy = rules.data.enemy_rule if rules.data.stacking is not None else None
    if not file.is_file():
        return MovementRules(enemy_rule=enemy)
    r = RulesReader(rules.game, rules.map, strict=rules.strict, file=file)
    r.unit_types = rules.data.unit_types
    r.groups = dict(rules.data.groups)
    root = Section(r, compose(file, "movement data", GameDataError), "movement", TOP_KEYS)
    ph = root.sub("phases", frozenset({"rule", "chits", "activations"}))
    phases = Phases(ph.rule("rule", "phases"), frozenset(ph.names("chits")), ph.boolean("activations", False))
    crossings = tuple(
        Crossing(s.rule(), s.units("units"), s.crossing("sides"), s.text("what", "that hexside"))
        for s in root.each("cross", frozenset({"rule", "units", "sides", "except-along", "what"})))
    blocked = root.sub("blocked-sides", frozenset({"rule", "what"}))
    zoc = None
    if "zoc" in root:
        z = root.sub("zoc", frozenset({"rule", "zoc-to-zoc", "stop", "zone", "across"}))
        zoc = ZocMoves(z.rule(), z.boolean("zoc-to-zoc", False), z.boolean("stop", False),
                       z.choice("zone", ("zoc", "engagement"), "zoc"),
                       z.crossing("across") if "across" in z else None)
    mines = root.sub("enemy-hexsides", frozenset({"kind", "rule", "what"}))
    if mines:
        mines.require("kind", "rule")
    exits: dict[str, frozenset[Hex]] = {}
    ex = root.sub("exits", frozenset({"rule", "edges"}))
    if ex:
        edges = ex.sub("edges")
        for side in edges.side_keys():
            names = edges.names(side)
            exits[side] = frozenset().union(*(r.edge(n) for n in names)) if names else frozenset()
    immobile = tuple(
        Immobile(s.rule(), s.units("units"), s.choice("breach", ("under-construction", "breached"), "under-construction"),
                 s.text("what", "a breaching unit"))
        for s in root.each("immobile", frozenset({"rule", "units", "breach", "what"})))
    points = None
    if "points" in root:
        p = root.sub("points", frozenset({"rule", "allowance", "fast", "terrain", "along", "leave-zone", "boxes",
                                          "own-hexsides"}))
        p.require("rule", "terrain")
        t = p.sub("terrain")
        terrain = {k: _pair(t, k) for k in t}
        al = p.sub("along")
        along: dict[PathKind, tuple[float, float]] = {}
        for k in al:  # the map's own path kinds (path-kinds: of map.yaml), with "did you mean"
            along[r.path_kind(al.m[k], al.what(k), k)] = _pair(al, k)
        bx = p.sub("boxes", frozenset({"kind", "cost", "units"})) if "boxes" in p else None
        own = p.sub("own-hexsides", frozenset({"kind", "cost", "add"})) if "own-hexsides" in p else None
        for s in (bx, own):
            if s is not None:
                s.require("kind", "cost")
        points = Points(p.rule(), p.text("allowance", "move"), p.units("fast") if "fast" in p else UnitFilter(frozenset()),
                        terrain, along, _num(p, "leave-zone"),
                        box_kind=bx.hexside_kinds("kind")[0] if bx is not None else None,
                        box_cost=_num(bx, "cost") if bx is not None else 0.0,
                        box_units=bx.units("units") if bx is not None and "units" in bx else None,
                        own_kind=own.hexside_kinds("kind")[0] if own is not None else None,
                        own_cost=_num(own, "cost") if own is not None else 0.0,
                        own_add=own.boolean("add", False) if own is not None else False)
    notes = tuple(root.names("notes")) if "notes" in root else ()
    return MovementRules(
        phases=phases,
        impassable_rule=root.text("impassable") if "impassable" in root else None,
        enemy_rule=root.text("enemy-hexes") if "enemy-hexes" in root else enemy,
        crossings=crossings,
        blocked_rule=blocked.rule() if blocked else None,
        blocked_what=blocked.text("what", "a closed hexside") if blocked else "",
        mines_rule=mines.rule() if mines else None,
        mines_what=mines.text("what", "an enemy hexside") if mines else "",
        mines_kind=mines.hexside_kinds("kind")[0] if mines else "",
        zoc=zoc, exits_rule=ex.rule() if ex else None, exits=exits, immobile=immobile, points=points,
        notes=notes, source=str(file),
    )


def _num(s: Section, key: str) -> float:
    if key not in s:
        return 0.0
    return s.r.doc.number(s.m[key], s.what(key))


def _pair(s: Section, key: str) -> tuple[float, float]:
    """A cost: one number for every unit, or ``[others, fast]``."""
    import yaml

    node = s.m[key]
    if isinstance(node, yaml.ScalarNode):
        v = s.r.doc.number(node, s.what(key))
        return (v, v)
    items = s.r.doc.seq(node, s.what(key))
    if len(items) != 2:
        raise s.err(key, "must be one cost or two [others, fast]", expected="a number or [n, m]")
    a, b = (s.r.doc.number(n, s.what(key)) for n in items)
    return (a, b)


_SIDES: BoundedDict[tuple[Hex, Hex], Hexside] = BoundedDict(maxsize=200_000)


def side_between(a: Hex, b: Hex) -> Hexside:
    """``Hexside.between``, remembered (a log prices the same few hexsides again and again)."""
    got = _SIDES.get((a, b))
    if got is None:
        got = _SIDES.put((a, b), Hexside.between(a, b))
    return got


_SIDE_TABLES: ObjectCache[dict[tuple[Hex, Hex], Hexside]] = ObjectCache(maxsize=8)


def side_table(topology: Topology) -> dict[tuple[Hex, Hex], Hexside]:
    """(a, b) -> the hexside between, for every pair of adjacent hexes of a map (computed once per
    map: a plain look-up, where the remembered ``side_between`` pays its LRU bookkeeping per call)."""
    got = _SIDE_TABLES.get(topology)
    if got is None:
        got = _SIDE_TABLES.put({(a, b): Hexside.between(a, b) for a, ns in topology.neighbours.items() for b in ns},
                               topology)
    return got


_ALONG: ObjectCache[dict[Hexside, tuple[float, float]]] = ObjectCache(maxsize=8)


def along_costs(rules: RulesPlugin, points: Points) -> dict[Hexside, tuple[float, float]]:
    """Hexside -> the cheapest cost pair of the roads/tracks crossing it (computed once per rules)."""
    got = _ALONG.get(rules)
    if got is not None:
        return got
    out: dict[Hexside, tuple[float, float]] = {}
    for kind, pair in points.along.items():
        for side in rules.map.path_sides(kind):
            old = out.get(side)
            out[side] = pair if old is None else (min(old[0], pair[0]), min(old[1], pair[1]))
    return _ALONG.put(out, rules)


_TERRAIN: ObjectCache[dict[Hex, tuple[float, float]]] = ObjectCache(maxsize=8)


def terrain_costs(rules: RulesPlugin, points: Points) -> dict[Hex, tuple[float, float]]:
    """Map hex -> the cost pair of entering it off a road (computed once per rules)."""
    got = _TERRAIN.get(rules, points)
    if got is None:
        m = rules.map
        got = _TERRAIN.put({h: points.terrain.get(m.terrain(h), points.default) for h in rules.topology.order},
                           rules, points)
    return got


# =================================================================================================
# One move
# =================================================================================================
@dataclass
class UnitPhase:
    """What a unit did so far in the current movement phase."""

    spent: float = 0.0
    engaged: bool = False  #: entered an enemy zone it must stop in (BG 4.1.2)
    moves: int = 0


@dataclass
class MoveContext:
    """What ``check_move`` knows besides the move: the position before it (``ctx``), the phase so
    far (per-unit :class:`UnitPhase`), the step number and the movement data."""

    rules: RulesPlugin
    data: MovementRules
    ctx: Context
    step: int
    phase: int
    units: dict[str, UnitPhase]
    allowance: Mapping[str, int]
    #: "legal": a drag is the shortest legal path (a detour is warned); "direct": the straight route,
    #: the cheapest ignoring the rules (groups who move hex by hex), whose broken rules are errors
    paths: str = "legal"
    #: the route ignoring the rules when the legal path is a detour from it (set by ``check_move``)
    direct: list[Hex] | None = None
    #: the action chit (a log's ``ChitDraw``) that began this phase; None when the log shows none
    activation: Any = None
    #: the chits drawn this turn so far (``ChitDraw``), tactical ones included (RG 13.2 Extra Move)
    drawn: tuple[Any, ...] = ()
    #: the plugin's own bookkeeping for this phase and for this turn (kept between the moves)
    phase_state: dict[str, Any] = field(default_factory=dict)
    turn_state: dict[str, Any] = field(default_factory=dict)

    def unit_phase(self, unit: str) -> UnitPhase:
        return self.units.setdefault(unit, UnitPhase())


@dataclass
class PathResult:
    path: list[Hex] | None  #: start .. end, None when the end cannot be reached at all
    cost: float  #: movement points along it
    broken: list[Finding]  #: the rules it breaks (empty: a legal path)


class MoveChecker:
    """Prices steps and finds paths for one unit's move in one position."""

    def __init__(self, mc: MoveContext, unit: Unit) -> None:
        self.mc = mc
        self.unit = unit
        rules, data, ctx = mc.rules, mc.data, mc.ctx
        self.map = rules.map
        self.topology = rules.topology
        self.sides = side_table(rules.topology)
        side = unit.side
        self.impassable = rules.impassable
        self.enemy_hexes = ctx.enemy_hexes(side)
        self.enter: list[tuple[str, frozenset[Hex], str]] = []
        self.cross: list[tuple[str, frozenset[Hexside], str]] = []
        for p in rules.data.prohibited:
            if p.units.matches(unit, rules.names):
                if p.enter.hexes:
                    self.enter.append((p.rule, p.enter.hexes, p.what))
                if p.cross:
                    self.cross.append((p.rule, p.cross, p.what))
        for c in data.crossings:
            if c.units.matches(unit, rules.names) and c.sides:
                self.cross.append((c.rule, c.sides, c.what))
        if data.blocked_rule is not None:
            _h, sides = rules.supply_blocks(ctx, side)
            if sides:
                self.cross.append((data.blocked_rule, frozenset(sides), data.blocked_what))
        self.zone: frozenset[Hex] = frozenset()
        if data.zoc is not None:
            self.zone = _zone(rules, ctx, unit, data.zoc.zone)
        pts = data.points
        self.col = 1 if pts is not None and pts.fast.matches(unit, rules.names) else 0
        pays = pts is not None and pts.box_kind is not None and pts.box_cost and (
            pts.box_units is None or pts.box_units.matches(unit, rules.names))
        self.box_hexes = self.map.box_kind_hexes(pts.box_kind) if pays and pts and pts.box_kind else frozenset()
        self.along = along_costs(rules, pts) if pts is not None else {}
        self.terrain_cost = terrain_costs(rules, pts) if pts is not None else {}
        self.start: Hex | None = None
        self.targets: frozenset[Hex] = frozenset()
        self.fresh = mc.unit_phase(unit.id).moves == 0  #: the unit has not moved yet this phase
        self.mines: frozenset[Hexside] = frozenset()
        if data.mines_rule is not None:
            self.mines = owned_sides(rules, data.mines_kind, side, own=False)
        #: (a, b) steps across a hexside of ``own-hexsides``' kind of the unit's own side (both ways)
        self.own_mines: frozenset[tuple[Hex, Hex]] = frozenset()
        if pts is not None and pts.own_kind is not None:
            self.own_mines = own_side_steps(rules, pts.own_kind, side)
        self._broken_n: dict[tuple[Hex, Hex], int] = {}
        self._points_of: dict[tuple[Hex, Hex], float] = {}

    # --- one step ---------------------------------------------------------------------------------
    def side(self, a: Hex, b: Hex) -> Hexside:
        """The hexside between adjacent ``a`` and ``b``."""
        got = self.sides.get((a, b))
        return got if got is not None else side_between(a, b)

    def broken(self, a: Hex, b: Hex) -> list[tuple[str, str]]:
        """(rule, what) for every rule the step from ``a`` into adjacent ``b`` breaks."""
        out: list[tuple[str, str]] = []
        data = self.mc.data
        if b in self.impassable:
            out.append((data.impassable_rule or "movement", f"enters impassable {self.map.terrain(b)} terrain"))
        if b in self.enemy_hexes and data.enemy_rule is not None:
            out.append((data.enemy_rule, "enters a hex held by the enemy"))
        for rule, hexes, what in self.enter:
            if b in hexes and a not in hexes:
                out.append((rule, f"enters {what}"))
        if self.cross:
            side = self.side(a, b)
            for rule, sides, what in self.cross:
                if side in sides:
                    out.append((rule, f"crosses {what}"))
        if self.mines and self.side(a, b) in self.mines and not (a == self.start and self.fresh and b in self.targets):
            out.append((data.mines_rule or "enemy-hexsides", f"crosses {data.mines_what} other than as its whole move from "
                        "where it began its movement"))
        z = data.zoc
        if z is not None and a in self.zone:
            if z.zoc_to_zoc and b in self.zone and (z.across is None or self.side(a, b) in z.across):
                out.append((z.rule, "moves from one enemy ZOC hex directly to another"
                            + (" across that hexside" if z.across is not None else "")))
            if z.stop and a != self.start:
                out.append((z.rule, "goes on after entering an enemy engagement zone (it must stop)"))
        return out

    def points(self, a: Hex, b: Hex) -> float:
        pts = self.mc.data.points
        if pts is None:
            return 1.0
        pair = self.along.get(self.side(a, b)) if self.along else None
        if pair is None:
            pair = self.terrain_cost.get(b) or pts.terrain.get(self.map.terrain(b), pts.default)
        cost = pair[self.col]
        if self.own_mines and (a, b) in self.own_mines:
            cost = cost + pts.own_cost if pts.own_add else pts.own_cost
        if b in self.box_hexes:
            cost += pts.box_cost
        if a in self.zone and pts.leave_zone:
            cost += pts.leave_zone
        return cost

    # the steps a move's searches price again and again (a failed legal search is followed by one
    # that breaks rules, and by a detour's direct route): each step is priced once per move
    def _n_broken(self, a: Hex, b: Hex) -> int:
        got = self._broken_n.get((a, b))
        if got is None:
            got = self._broken_n[(a, b)] = len(self.broken(a, b))
        return got

    def _points(self, a: Hex, b: Hex) -> float:
        got = self._points_of.get((a, b))
        if got is None:
            got = self._points_of[(a, b)] = self.points(a, b)
        return got

    # --- a path -----------------------------------------------------------------------------------
    def path(self, start: Hex, targets: frozenset[Hex], *, legal: bool = False,
             limit: float | None = None, ignore: bool = False) -> PathResult:
        """The cheapest path from ``start`` to any of ``targets`` spending at most ``limit`` movement
        points (A* on the hex distance; None when there is no such path).

        ``legal``: only steps that break no rule. Otherwise every step is allowed and costs
        ``PENALTY`` per broken rule: the path breaks the fewest rules, then spends the fewest points.
        ``ignore``: the rules are not looked at (the direct route: the fewest points whatever it breaks)."""
        if start != self.start or targets != self.targets:
            self._broken_n.clear()  # what a step breaks depends on where the move starts and ends
        self.start = start
        self.targets = targets
        if start not in self.topology:
            return PathResult(None, 0.0, [])
        if start in targets:
            return PathResult([start], 0.0, [])
        neighbours = self.topology.neighbours
        tlist = list(targets)
        pts = self.mc.data.points
        least = min([1.0, *(p[self.col] for p in pts.along.values())]) if pts is not None else 1.0

        def h(x: Hex) -> float:
            return least * min(x.distance(t) for t in tlist) if len(tlist) < 8 else 0.0

        best: dict[Hex, float] = {start: 0.0}
        spent: dict[Hex, float] = {start: 0.0}
        parent: dict[Hex, Hex] = {}
        heap: list[tuple[float, int, Hex]] = [(h(start), 0, start)]
        tie = 0
        done: set[Hex] = set()
        end: Hex | None = None
        while heap:
            _f, _t, a = heapq.heappop(heap)
            if a in done:
                continue
            done.add(a)
            if a in targets:
                end = a
                break
            ga = best[a]
            for b in neighbours[a]:
                if b in done:
                    continue
                n_broken = 0 if ignore else self._n_broken(a, b)
                if legal and n_broken:
                    continue
                mp = self._points(a, b)
                if limit is not None and spent[a] + mp > limit + 1e-9:
                    continue
                g = ga + mp + PENALTY * n_broken
                if g < best.get(b, float("inf")):
                    best[b] = g
                    spent[b] = spent[a] + mp
                    parent[b] = a
                    tie += 1
                    heapq.heappush(heap, (g + h(b), tie, b))
        if end is None:
            return PathResult(None, 0.0, [])
        path = [end]
        while path[-1] != start:
            path.append(parent[path[-1]])
        path.reverse()
        cost = 0.0
        broken: list[Finding] = []
        seen: set[tuple[str, str]] = set()
        for a, b in itertools.pairwise(path):
            cost += self.points(a, b)
            for rule, what in self.broken(a, b):
                if (rule, what) in seen:
                    continue
                seen.add((rule, what))
                where = (self.map.label(a), self.map.label(b))
                broken.append(Finding(rule, Severity.ERROR, f"{self.unit.id} {what} ({where[0]} to {where[1]})",
                                      units=(self.unit.id,), hexes=where))
        return PathResult(path, cost, broken)


def _zone(rules: RulesPlugin, ctx: Context, unit: Unit, kind: str) -> frozenset[Hex]:
    """The enemy zone a unit moves through: the ZOC of its enemies, or the plugin's engagement
    zones (``zones_against(ctx, side, armor=...)``, BG 4.1.2)."""
    zones_against = getattr(rules, "zones_against", None)
    if kind == "engagement" and zones_against is not None:
        is_armor = getattr(rules, "is_armor", None)
        armor = bool(is_armor(unit)) if is_armor is not None else False
        return frozenset(zones_against(ctx, unit.side, armor=armor))
    return ctx.enemy_zoc(unit.side)


def check_move(before: Unit, after: Unit, mc: MoveContext) -> tuple[list[Hex] | None, list[Finding]]:
    """The data rules of one unit's move from ``before`` to ``after``: the path taken, and findings."""
    data, rules = mc.data, mc.rules
    findings: list[Finding] = []
    up = mc.unit_phase(before.id)
    label = rules.map.label
    if before.hex is None:
        return None, findings  # entering from a box: reinforcement / entry rules are position checks
    for im in data.immobile:
        if not im.units.matches(before, rules.names):
            continue
        if im.breach in rules.marker_states_at(mc.ctx.position, before.hex):
            findings.append(Finding(im.rule, Severity.ERROR, f"{before.id} is {im.what} and may not move",
                                    units=(before.id,), hexes=(label(before.hex),)))
    checker = MoveChecker(mc, before)
    if data.zoc is not None and data.zoc.stop and up.engaged:
        findings.append(Finding(data.zoc.rule, Severity.ERROR,
                                f"{before.id} moves again after entering an enemy engagement zone this phase",
                                units=(before.id,), hexes=(label(before.hex),)))
    if after.hex is not None:
        targets = frozenset({after.hex})
    else:
        if data.exits_rule is None or after.box in rules.data.boxes.eliminated:
            return None, findings
        targets = data.exits.get(before.side, frozenset())
        if not targets:
            findings.append(Finding(data.exits_rule, Severity.ERROR,
                                    f"{before.id} leaves the map: {before.side} units may not exit",
                                    units=(before.id,), hexes=(label(before.hex),)))
            return None, findings
    pts = data.points
    allowance = mc.allowance.get(before.id) if pts is not None else None
    remaining = max(0.0, allowance - up.spent) if allowance is not None else None
    up.moves += 1
    mc.direct = None
    exiting = after.hex is None
    to_text = label(after.hex) if after.hex is not None else "an edge it may exit by"
    if mc.paths == "direct":
        res = checker.path(before.hex, targets, ignore=True)
        if res.path is None:
            findings.append(Finding(data.exits_rule if exiting and data.exits_rule else "movement", Severity.ERROR,
                                    f"{before.id}: no path at all from {label(before.hex)} to {to_text}",
                                    units=(before.id,), hexes=(label(before.hex),)))
            return None, findings
        findings.extend(replace(f, message=f"the direct route from {label(before.hex)} to {to_text}: {f.message}")
                        for f in res.broken)
        if pts is not None and remaining is not None and res.cost > remaining + 1e-9:
            findings.append(Finding(pts.rule, Severity.ERROR,
                                    f"{before.id} needs {_fmt(res.cost)} movement points from {label(before.hex)} "
                                    f"to {to_text} by the direct route, more than the {_fmt(remaining)} of its "
                                    f"{allowance} it has left this phase",
                                    units=(before.id,), hexes=(label(before.hex), label(res.path[-1]))))
        return _spend(res, before, checker, mc, up, allowance), findings
    res = checker.path(before.hex, targets, legal=True, limit=remaining)
    if res.path is not None and len(res.path) > 2:
        detour = _detour(checker, before, targets, res)
        if detour is not None:
            findings.append(detour)
    if res.path is None:
        within = "" if remaining is None else f" within its {_fmt(remaining)} movement points left"
        res = checker.path(before.hex, targets, limit=remaining)
        if res.path is None:
            res = checker.path(before.hex, targets)
        if res.path is None:
            findings.append(Finding(data.exits_rule if exiting and data.exits_rule else "movement", Severity.ERROR,
                                    f"{before.id}: no path at all from {label(before.hex)} to {to_text}",
                                    units=(before.id,), hexes=(label(before.hex),)))
            return None, findings
        end = label(res.path[-1])
        if exiting and data.exits_rule is not None:
            edges = "/".join(sorted(_edge_names(rules, targets))) or "none"
            findings.append(Finding(data.exits_rule, Severity.ERROR,
                                    f"{before.id} leaves the map from {label(before.hex)}: no legal way to the edges "
                                    f"{before.side} units may exit by ({edges}){within}",
                                    units=(before.id,), hexes=(label(before.hex), end)))
        elif res.broken:
            for f in res.broken:
                findings.append(replace(f, message=f"no legal path from {label(before.hex)} to {to_text}{within}: "
                                                   f"the shortest {f.message}"))
        elif pts is not None and remaining is not None:
            findings.append(Finding(pts.rule, Severity.ERROR,
                                    f"{before.id} needs {_fmt(res.cost)} movement points from {label(before.hex)} "
                                    f"to {to_text}, more than the {_fmt(remaining)} of its {allowance} it has left "
                                    "this phase", units=(before.id,), hexes=(label(before.hex), end)))
    return _spend(res, before, checker, mc, up, allowance), findings


def _spend(res: PathResult, unit: Unit, checker: MoveChecker, mc: MoveContext, up: UnitPhase,
           allowance: int | None) -> list[Hex] | None:
    """Count the points of the path taken and what it did this phase; the path."""
    assert res.path is not None
    data = mc.data
    if data.points is not None:
        up.spent += res.cost
        if allowance is not None and checker.mines and any(
                checker.side(x, y) in checker.mines for x, y in itertools.pairwise(res.path)):
            up.spent = max(up.spent, float(allowance))  # DG 14.2: crossing spends all its points
    if data.zoc is not None and data.zoc.stop and res.path[-1] in checker.zone and len(res.path) > 1:
        up.engaged = True
    return res.path


def _detour(checker: MoveChecker, unit: Unit, targets: frozenset[Hex], legal: PathResult) -> Finding | None:
    """A warning when the legal path is longer than the direct route because that route breaks a rule:
    the opponent is told the move is legal only by a route the log does not show."""
    assert legal.path is not None
    checker.mc.direct = None
    if len(legal.path) - 1 <= legal.path[0].distance(legal.path[-1]):
        return None  # as few hexes as the straight line: no detour
    direct = checker.path(legal.path[0], targets, ignore=True)
    if direct.path is None or not direct.broken:
        return None
    if legal.cost <= direct.cost + 1e-9 and len(legal.path) <= len(direct.path):
        return None  # a legal route as short as the direct one
    checker.mc.direct = direct.path
    label = checker.map.label
    first = direct.broken[0]
    what = first.message.removeprefix(f"{unit.id} ")
    why = "; ".join([what, *(f.message.removeprefix(f"{unit.id} ") for f in direct.broken[1:])])
    route = "-".join(label(h) for h in legal.path)
    return Finding(first.rule, Severity.WARNING,
                   f"{unit.id} is legal only by {route}, {_fmt(legal.cost)} MP: the direct route {why}, "
                   f"{', '.join(dict.fromkeys(f.rule for f in direct.broken))}",
                   units=(unit.id,), hexes=tuple(label(h) for h in legal.path))


_OWNED: ObjectCache[frozenset[Hexside]] = ObjectCache(maxsize=16)
_STEPS: ObjectCache[frozenset[tuple[Hex, Hex]]] = ObjectCache(maxsize=16)


def own_side_steps(rules: RulesPlugin, kind: str, side: str) -> frozenset[tuple[Hex, Hex]]:
    """The steps (a, b), both ways, across a hexside of ``kind`` owned by ``side`` (computed once)."""
    got = _STEPS.get(rules, kind, side)
    if got is not None:
        return got
    out = frozenset(p for s in owned_sides(rules, kind, side, own=True) for p in (s.hexes, s.hexes[::-1]))
    return _STEPS.put(out, rules, kind, side)


def owned_sides(rules: RulesPlugin, kind: str, side: str, *, own: bool) -> frozenset[Hexside]:
    """The map's hexsides of ``kind`` owned by ``side`` (``own``) or by another side (computed once)."""
    got = _OWNED.get(rules, kind, side, own)
    if got is not None:
        return got
    m = rules.map
    out = frozenset(s for s in m.feature_sides(kind)
                    if (f := m.active_feature(s, kind)) is not None and f.owner is not None and (f.owner == side) == own)
    return _OWNED.put(out, rules, kind, side, own)


def _edge_names(rules: RulesPlugin, hexes: frozenset[Hex]) -> set[str]:
    from gazala_tools.referee.ruledata import map_edges

    return {name for name, hs in map_edges(rules.map).items() if hs and hs <= hexes}


def _fmt(x: float) -> str:
    return f"{x:g}"


def allowances(rules: RulesPlugin, role: str) -> dict[str, int]:
    """Unit id -> the printed ``role`` value (movement allowance) of its full-strength counter."""
    out: dict[str, int] = {}
    try:
        manifest = load_game_manifest(rules.game)
    except Exception as exc:  # no manifest: no allowances
        log.info("no counter manifest for %s (%s): movement points not checked", rules.game.id, exc)
        return out
    for c in manifest.units:
        v = c.front.value(role)
        uid = c.unit_id or c.id
        if v is not None and v.number is not None and (uid not in out or c.step == c.steps):
            out[uid] = v.number
    return out


__all__ = ["ANY_UNIT", "MoveContext", "MovementRules", "check_move", "movement_rules"]
