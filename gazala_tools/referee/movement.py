"""Movement rules, as data: what a move may not do on its way, what it costs, when a unit must stop.

A game's movement rules are its folder's ``movement.yaml`` (``docs/games.md``, "Movement data");
a game without one has only the rules its ``rules:`` data already gives (``prohibited`` hexes and
hexsides, enemy-held hexes). :mod:`gazala_tools.referee.ruledata.movement` reads the file into a
:class:`MovementRules`, once per rules object (``rules.movement``).

Paths. VASSAL records where a piece ends a move, not the way it went. The referee takes the
**shortest legal path** from start to end: a search whose step cost is ``PENALTY`` per rule the
step breaks plus its movement points. A path with no broken rule is legal; when every path breaks
some rule, the one breaking the fewest is reported with the rules it breaks ("no legal path").

A plugin adds what data cannot say with ``check_move(before, after, path, context)`` (a method of
its :class:`~gazala_tools.referee.engine.RulesPlugin`), called for every move after the data rules.
"""

from __future__ import annotations

import dataclasses
import heapq
import itertools
import logging
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from gazala_tools.filecache import BoundedDict, ObjectCache
from gazala_tools.hexes import Hex, Hexside
from gazala_tools.referee.findings import Finding, Severity
from gazala_tools.referee.position import Unit
from gazala_tools.referee.ruledata import ANY_UNIT
from gazala_tools.referee.ruledata.movement import MovementRules
from gazala_tools.referee.statuses import allowance, may_move
from gazala_tools.referee.terrain import ANY_CLASS, ClassCosts

if TYPE_CHECKING:  # pragma: no cover
    from gazala_tools.referee.context import BoundRules, Context
    from gazala_tools.referee.search import Topology

log = logging.getLogger(__name__)

PENALTY = 10_000.0  #: search cost of one broken rule: any legal path is cheaper than any illegal one
#: the words a message uses for an enemy zone when the game's data names none
DEFAULT_ZONE_NAME = "zone of control"


def side_adjective(rules: BoundRules, side: str) -> str:
    """How findings name a side's units ("German"): game.yaml's ``adjective`` (default: the side's id)."""
    try:
        return rules.game.side(side).adjective
    except KeyError:
        return side


def zone_name(rules: BoundRules) -> str:
    """How messages name an enemy zone: the game's word (``rules.zoc.name`` of game.yaml, stated
    once), by default "zone of control"."""
    return rules.data.zoc.name or DEFAULT_ZONE_NAME


def zone_short(rules: BoundRules) -> str:
    """The zone's name in short messages: the game's word, or "ZOC" when the game names none."""
    return rules.data.zoc.name or "ZOC"


def move_rules(rules: BoundRules) -> tuple[tuple[str, str], ...]:
    """The rules the game's data gives that only a move shows, as ``(rule, what)``: its movement data
    (``movement.yaml``: movement points, ZOC moves, crossings, exits, units that may not move), the
    chart's prohibited hexsides and where its reinforcements enter (checked in a position only on a
    unit's arrival turn with ``at-entry: true``), each by the id of the rule that states it."""
    m = rules.movement
    out: list[tuple[str, str]] = []
    if m.points is not None:
        out.append((m.points.rule, f"movement points ({m.points.role} allowance)"))
        if m.points.minimum_move is not None:
            out.append((m.points.minimum_move, "a unit may always move one hex"))
    zones = [z for z in (m.zoc_all, *m.zoc_sides.values()) if z is not None and z.effective]
    for z in dict.fromkeys(zones):
        if z.zoc_to_zoc:
            out.append((z.rule, f"no move from one enemy {zone_short(rules)} hex directly to another"
                        + (" across those hexsides" if z.across is not None else "")))
        if z.stop:
            out.append((z.rule, f"a unit stops on entering an enemy {zone_short(rules) if z.zone == 'zoc' else 'zone'}"))
        if z.leave_at_start:
            out.append((z.rule, f"an enemy {zone_name(rules)} is left only at the start of the phase"))
        if (z.enter or z.leave) and not any(r == z.rule for r, _w in out):  # a rule of costs only (RJ 5.3)
            costs = [f"{v:g} more MP to {verb} an enemy {zone_short(rules)} hex" for v, verb in
                     ((z.enter, "enter"), (z.leave, "leave")) if v]
            out.append((z.rule, " and ".join(costs)))
    if m.chart is not None:
        for row in m.chart.hexsides:
            if any(c.prohibited for c in row.cells.values()) and not row.first_step:
                to = [k for k, c in row.cells.items() if c.prohibited]
                some = f" (prohibited to {' and '.join(to)} units)" if len(to) < len(row.cells) else ""
                out.append((row.rule, f"crossing {row.what}{some}"))
    out.extend((p.rule, f"crossing {p.what}") for p in rules.data.prohibited if p.cross)
    if m.blocked_rule is not None:
        out.append((m.blocked_rule, f"crossing {m.blocked_what}"))
    if m.chart is not None:
        out.extend((row.rule, f"crossing {row.what}") for row in m.chart.hexsides if row.first_step)
    if m.exits_rule is not None:
        out.append((m.exits_rule, "the map edges units exit by"))
    out.extend((i.rule, f"no move while {i.what}") for i in m.immobile)
    out.extend((mk.rule, f"no move while marked {mk.name}") for mk in rules.data.markers.values() if not mk.move)
    r = rules.data.reinforcements
    if r is not None:  # cited as a unit standing off its entry hexes is (the line's rule, else the schedule's)
        for rule in dict.fromkeys(a.rule or r.rule for a in r.schedule if a.enter):
            out.append((rule, "the entry hexes of reinforcements" + (" (a position shows them on the arrival turn "
                                                                     "only)" if r.at_entry else "")))
    return tuple(dict.fromkeys(out))


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
        side = topology.side
        got = _SIDE_TABLES.put({(a, b): side(a, b) for a, ns in topology.neighbours.items() for b in ns}, topology)
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

    rules: BoundRules
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
        if data.blocked_rule is not None:
            _h, sides = rules.supply_blocks(ctx, side)
            if sides:
                self.cross.append((data.blocked_rule, frozenset(sides), data.blocked_what))
        walls = rules.map.impassable_sides
        if walls:  # hexside kinds the map declares impassable (Highland's cliff): no unit crosses them
            self.cross.append((data.impassable_rule or "movement", walls, "an impassable hexside"))
        self.zoc = data.zoc_for(side)
        self.zone: frozenset[Hex] = frozenset()
        if self.zoc is not None:
            self.zone = _zone(rules, ctx, unit, self.zoc.zone)
        self.zone_name = zone_name(rules)
        self.zone_short = zone_short(rules)
        #: the chart's costs for this unit's class, side and rows (None: 1 MP a hex, nothing prohibited)
        self.costs: ClassCosts | None = (data.chart.unit_costs(self.map, unit, rules.names)
                                         if data.chart is not None else None)
        self.first_steps = self.costs is not None and any(r.first_step for r in data.chart.hexsides) \
            if data.chart is not None else False
        self.start: Hex | None = None
        self.targets: frozenset[Hex] = frozenset()
        up = mc.unit_phase(unit.id)
        self.fresh = up.moves == 0  #: the unit has not moved yet this phase
        self._broken_n: dict[tuple[Hex, Hex], int] = {}
        self._points_of: dict[tuple[Hex, Hex], tuple[float, int]] = {}

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
        costs = self.costs
        if costs is not None:
            side = self.side(a, b)
            for row, verb in costs.prohibitions(a, b, side):
                out.append((row.rule, f"{verb} {row.what}"))
            if self.first_steps:
                for row in costs.first_step_rows(a, b, side):
                    if not (a == self.start and self.fresh and b in self.targets):
                        out.append((row.rule, f"crosses {row.what} other than as its whole move from where it "
                                    "began its movement"))
        if self.cross:
            side = self.side(a, b)
            for rule, sides, what in self.cross:
                if side in sides:
                    out.append((rule, f"crosses {what}"))
        z = self.zoc
        if z is not None and a in self.zone:
            if z.zoc_to_zoc and b in self.zone and (z.across is None or self.side(a, b) in z.across):
                out.append((z.rule, f"moves from one enemy {self.zone_short} hex directly to another"
                            + (" across that hexside" if z.across is not None else "")))
            if z.stop and a != self.start:
                out.append((z.rule, f"goes on after entering an enemy {self.zone_name} (it must stop)"))
            if z.leave_at_start and not (a == self.start and self.fresh):
                out.append((z.rule, f"leaves an enemy {self.zone_name} hex other than at the start of its "
                            "movement phase"))
        return out

    def step_points(self, a: Hex, b: Hex) -> tuple[float, int]:
        """``(mp, flag)`` of the step: flag 1 when it costs all the points left (``mp``: what the
        enemy zone adds), 2 when the chart prohibits it."""
        costs = self.costs
        if costs is None:
            mp, flag = 1.0, 0
        else:
            mp, flag = costs.step(a, b, self.side(a, b))
        z = self.zoc
        if z is not None:
            if z.leave and a in self.zone:
                mp += z.leave
            if z.enter and b in self.zone:
                mp += z.enter
        return mp, flag

    def points(self, a: Hex, b: Hex) -> float:
        """The movement points of the step (a step costing all the points left: what the zone adds)."""
        return self.step_points(a, b)[0]

    # the steps a move's searches price again and again (a failed legal search is followed by one
    # that breaks rules, and by a detour's direct route): each step is priced once per move
    def _n_broken(self, a: Hex, b: Hex) -> int:
        got = self._broken_n.get((a, b))
        if got is None:
            got = self._broken_n[(a, b)] = len(self.broken(a, b))
        return got

    def _points(self, a: Hex, b: Hex) -> tuple[float, int]:
        got = self._points_of.get((a, b))
        if got is None:
            got = self._points_of[(a, b)] = self.step_points(a, b)
        return got

    @staticmethod
    def spend(spent: float, step: tuple[float, int], limit: float | None) -> float | None:
        """The points spent after a step (None: it cannot be taken within ``limit``). A step costing
        ``all`` takes every point left (at least one must be left), or 1 without a limit; a prohibited
        step is priced as if it were not (a path breaking the rule is still compared by points)."""
        mp, flag = step
        if flag == 1:
            if limit is None:
                return spent + 1.0 + mp
            if spent >= limit - 1e-9:
                return None
            return max(limit, spent + mp)
        return spent + mp

    def path_cost(self, path: list[Hex], limit: float | None) -> float:
        spent = 0.0
        for a, b in itertools.pairwise(path):
            got = self.spend(spent, self.step_points(a, b), limit)
            spent = got if got is not None else spent + max(self.points(a, b), 1.0)
        return spent

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
        found = self._search(start, targets, legal, limit, ignore)
        if found is None:
            return PathResult(None, 0.0, [])
        path, spent = found
        return PathResult(path, spent, self._broken_along(path))

    def _search(self, start: Hex, targets: frozenset[Hex], legal: bool, limit: float | None,
                ignore: bool) -> tuple[list[Hex], float] | None:
        """The A* search of :meth:`path`: the path found and the movement points it spends, or None."""
        neighbours = self.topology.neighbours
        distance = self.topology.distance
        tlist = list(targets)
        least = self.costs.least if self.costs is not None else 1.0

        def h(x: Hex) -> float:
            return least * min(distance(x, t) for t in tlist) if len(tlist) < 8 else 0.0

        best: dict[Hex, float] = {start: 0.0}
        spent: dict[Hex, float] = {start: 0.0}
        parent: dict[Hex, Hex] = {}
        heap: list[tuple[float, int, Hex]] = [(h(start), 0, start)]
        tie = 0
        done: set[Hex] = set()
        spend = self.spend
        while heap:
            _f, _t, a = heapq.heappop(heap)
            if a in done:
                continue
            done.add(a)
            if a in targets:
                return _walk_back(parent, start, a), spent[a]
            ga = best[a]
            sa = spent[a]
            for b in neighbours[a]:
                if b in done:
                    continue
                n_broken = 0 if ignore else self._n_broken(a, b)
                if legal and n_broken:
                    continue
                sb = spend(sa, self._points(a, b), limit)
                if sb is None or (limit is not None and sb > limit + 1e-9):
                    continue
                g = ga + (sb - sa) + PENALTY * n_broken
                if g < best.get(b, float("inf")):
                    best[b] = g
                    spent[b] = sb
                    parent[b] = a
                    tie += 1
                    heapq.heappush(heap, (g + h(b), tie, b))
        return None

    def _broken_along(self, path: list[Hex]) -> list[Finding]:
        """The rules a path breaks, each (rule, what) once, where it first breaks it."""
        broken: list[Finding] = []
        seen: set[tuple[str, str]] = set()
        for a, b in itertools.pairwise(path):
            for rule, what in self.broken(a, b):
                if (rule, what) in seen:
                    continue
                seen.add((rule, what))
                where = (self.map.label(a), self.map.label(b))
                broken.append(Finding(rule, Severity.ERROR, f"{self.unit.id} {what} ({where[0]} to {where[1]})",
                                      units=(self.unit.id,), hexes=where))
        return broken

    def breakdown(self, path: list[Hex], limit: float | None) -> str:
        """What a path's movement points are made of: ``"5 hexes + 2 across the river (3.6) + 1 to leave
        the enemy zone of control (5.4) = 8"``."""
        from gazala_tools.referee.terrain import StepParts, describe_parts

        parts: list[StepParts] = []
        extra: dict[tuple[str, str], float] = {}
        z = self.zoc
        for a, b in itertools.pairwise(path):
            if self.costs is not None:
                parts.append(self.costs.breakdown(a, b, self.side(a, b)))
            else:
                parts.append(StepParts(1.0, "", (), None, False, ()))
            if z is not None and z.leave and a in self.zone:
                key = (f"to leave an enemy {self.zone_name} hex", z.rule)
                extra[key] = extra.get(key, 0.0) + z.leave
            if z is not None and z.enter and b in self.zone:
                key = (f"to enter an enemy {self.zone_name} hex", z.rule)
                extra[key] = extra.get(key, 0.0) + z.enter
        words, _total = describe_parts(parts)
        pieces = [words, *(f"{v:g} {what} ({rule})" for (what, rule), v in extra.items())]
        return " + ".join(p for p in pieces if p) + f" = {_fmt(self.path_cost(path, limit))}"


def _walk_back(parent: Mapping[Hex, Hex], start: Hex, end: Hex) -> list[Hex]:
    """The path a search found, from ``start`` to ``end``, by each hex's parent."""
    path = [end]
    while path[-1] != start:
        path.append(parent[path[-1]])
    path.reverse()
    return path


def _zone(rules: BoundRules, ctx: Context, unit: Unit, kind: str) -> frozenset[Hex]:
    """The enemy zone a unit moves through: the ZOC of its enemies, or the plugin's own zones
    (``zone: plugin``: ``zones_against(ctx, side, armor=...)``, BG 4.1.2)."""
    zones_against = getattr(rules, "zones_against", None)
    if kind == "plugin" and zones_against is not None:
        is_armor = getattr(rules, "is_armor", None)
        armor = bool(is_armor(unit)) if is_armor is not None else False
        return frozenset(zones_against(ctx, unit.side, armor=armor))
    zone = ctx.enemy_zoc(unit.side)
    if "movement" in rules.data.zoc.negated_for:  # another friendly unit in the hex negates the zone for moves
        zone = zone - {u.hex for u in ctx.units(unit.side) if u.hex is not None and u.id != unit.id}
    return zone


@dataclass(frozen=True)
class _Move:
    """One move on the map being judged: the unit before and after it, the hexes it may end in (its
    end hex, or the edge hexes it may exit by) and the movement points it has."""

    before: Unit
    after: Unit
    start: Hex  #: where it begins (``before.hex``)
    mc: MoveContext
    checker: MoveChecker
    up: UnitPhase
    targets: frozenset[Hex]
    allowance: float | None  #: None: movement points are not counted
    remaining: float | None  #: the points left this phase
    fresh: bool  #: the unit's first move this phase

    @property
    def exiting(self) -> bool:
        return self.after.hex is None

    def label(self, h: Hex) -> str:
        return self.mc.rules.map.label(h)

    @property
    def to_text(self) -> str:
        return self.label(self.after.hex) if self.after.hex is not None else "an edge it may exit by"


def check_move(before: Unit, after: Unit, mc: MoveContext) -> tuple[list[Hex] | None, list[Finding]]:
    """The data rules of one unit's move from ``before`` to ``after``: the path taken, and findings."""
    data = mc.data
    findings: list[Finding] = []
    up = mc.unit_phase(before.id)
    if before.hex is None:  # entering from a box: where it may enter is a position check (reinforcements)
        if after.hex is not None and data.points is not None and data.points.entry_cost is not None:
            _enter(before, after, mc, findings)
        return None, findings
    findings.extend(_held_in_place(before, before.hex, mc))
    checker = MoveChecker(mc, before)
    z = checker.zoc
    if z is not None and z.stop and up.engaged:
        findings.append(Finding(z.rule, Severity.ERROR,
                                f"{before.id} moves again after entering an enemy {checker.zone_name} this phase",
                                units=(before.id,), hexes=(mc.rules.map.label(before.hex),)))
    targets = _move_targets(before, after, before.hex, mc, findings)
    if targets is None:
        return None, findings
    allowance = unit_allowance(mc, before) if data.points is not None else None
    move = _Move(before, after, before.hex, mc, checker, up, targets, allowance,
                 max(0.0, allowance - up.spent) if allowance is not None else None, up.moves == 0)
    up.moves += 1
    mc.direct = None
    if mc.paths == "direct":
        return _by_direct_route(move, findings), findings
    return _by_legal_path(move, findings), findings


def _held_in_place(before: Unit, at: Hex, mc: MoveContext) -> list[Finding]:
    """A unit that may not move: in a state the movement data's ``immobile`` names (LF 7.0 disrupted),
    else marked with a marker of ``rules.markers`` that has ``move: false``."""
    rules = mc.rules
    label = rules.map.label
    out: list[Finding] = []
    for im in mc.data.immobile:
        if im.units.matches(before, rules.names) and im.state in rules.marker_states_at(mc.ctx.position, at):
            out.append(Finding(im.rule, Severity.ERROR, f"{before.id} is {im.what} and may not move",
                               units=(before.id,), hexes=(label(at),)))
    if not out and (held := may_move(rules, before)) is not None:  # rules.markers: move: false
        out.append(dataclasses.replace(held, hexes=(label(at),)))
    return out


def _move_targets(before: Unit, after: Unit, start: Hex, mc: MoveContext,
                  findings: list[Finding]) -> frozenset[Hex] | None:
    """Where the move may end: its end hex; for a unit leaving the map (``exits``), the edge hexes its
    side may exit by (none: an error). None when the move is not judged further (eliminated, or no exit)."""
    data, rules = mc.data, mc.rules
    if after.hex is not None:
        return frozenset({after.hex})
    if data.exits_rule is None or (after.box or "").strip().lower() in rules.data.boxes.eliminated:
        return None
    targets = data.exits.get(before.side, frozenset())
    if not targets:
        findings.append(Finding(data.exits_rule, Severity.ERROR,
                                f"{before.id} leaves the map: {side_adjective(rules, before.side)} units may not exit",
                                units=(before.id,), hexes=(rules.map.label(start),)))
        return None
    return targets


def _no_path_at_all(move: _Move) -> Finding:
    data = move.mc.data
    return Finding(data.exits_rule if move.exiting and data.exits_rule else "movement", Severity.ERROR,
                   f"{move.before.id}: no path at all from {move.label(move.start)} to {move.to_text}",
                   units=(move.before.id,), hexes=(move.label(move.start),))


def _by_direct_route(move: _Move, findings: list[Finding]) -> list[Hex] | None:
    """``paths: direct``: the move is the direct route (the fewest points whatever it crosses); every
    rule it breaks is an error, and so are points beyond those left (movement points rule)."""
    before, pts, remaining = move.before, move.mc.data.points, move.remaining
    res = move.checker.path(move.start, move.targets, ignore=True)
    if res.path is None:
        findings.append(_no_path_at_all(move))
        return None
    start = move.label(move.start)
    findings.extend(replace(f, message=f"the direct route from {start} to {move.to_text}: {f.message}")
                    for f in res.broken)
    if pts is not None and remaining is not None and res.cost > remaining + 1e-9:
        findings.append(Finding(pts.rule, Severity.ERROR,
                                f"{before.id} needs {_fmt(res.cost)} movement points from {start} "
                                f"to {move.to_text} by the direct route, more than the {_fmt(remaining)} of its "
                                f"{_fmt(move.allowance)} it has left this phase: "
                                f"{move.checker.breakdown(res.path, remaining)} of {_fmt(remaining)}",
                                units=(before.id,), hexes=(start, move.label(res.path[-1]))))
    return _spend(res, before, move.checker, move.mc, move.up, move.allowance)


def _by_legal_path(move: _Move, findings: list[Finding]) -> list[Hex] | None:
    """``paths: legal``: the move is the shortest legal path within the points left (a detour from
    the direct route is warned); a unit may still move one hex (``minimum-move``); without a legal
    path, the path breaking the fewest rules is reported with why."""
    checker = move.checker
    res = checker.path(move.start, move.targets, legal=True, limit=move.remaining)
    if res.path is None and _one_hex_anyway(move):
        return _move_one_hex(move, findings)
    if res.path is not None and len(res.path) > 2:
        detour = _detour(checker, move.before, move.targets, res)
        if detour is not None:
            findings.append(detour)
    if res.path is None:
        res = _no_legal_path(move, findings)
        if res.path is None:
            return None
    return _spend(res, move.before, checker, move.mc, move.up, move.allowance)


def _one_hex_anyway(move: _Move) -> bool:
    """LF 3.2: a unit that has not moved this phase may always move one hex, unless prohibited."""
    pts, after = move.mc.data.points, move.after
    return (pts is not None and pts.minimum_move is not None and move.fresh and move.remaining is not None
            and after.hex is not None and move.checker.topology.distance(move.start, after.hex) == 1
            and not move.checker.broken(move.start, after.hex))


def _move_one_hex(move: _Move, findings: list[Finding]) -> list[Hex] | None:
    """LF 3.2: one hex a phase whatever it costs: it spends the whole allowance."""
    before, end, pts, remaining = move.before, move.after.hex, move.mc.data.points, move.remaining
    assert end is not None and pts is not None and pts.minimum_move is not None and remaining is not None
    one = [move.start, end]
    res = PathResult(one, max(remaining, move.checker.points(move.start, end)), [])
    findings.append(Finding(pts.minimum_move, Severity.INFO,
                            f"{before.id} moves one hex from {move.label(move.start)} to {move.label(end)} although "
                            f"it costs {move.checker.breakdown(one, None)}, more than its {_fmt(remaining)} "
                            "points: a unit may always move one hex a phase", units=(before.id,),
                            hexes=(move.label(move.start), move.label(end))))
    move.up.spent = float(move.allowance or 0)
    return _spend(res, before, move.checker, move.mc, move.up, None)


def _no_legal_path(move: _Move, findings: list[Finding]) -> PathResult:
    """No legal path within the points left: the path breaking the fewest rules (within the points,
    else at any cost), reported as an exit the unit may not make, the rules it breaks, or the points
    it lacks (a path with None: no path at all)."""
    before, checker, remaining, data = move.before, move.checker, move.remaining, move.mc.data
    rules, pts = move.mc.rules, data.points
    within = "" if remaining is None else f" within its {_fmt(remaining)} movement points left"
    res = checker.path(move.start, move.targets, limit=remaining)
    if res.path is None:
        res = checker.path(move.start, move.targets)
    if res.path is None:
        findings.append(_no_path_at_all(move))
        return res
    start, end = move.label(move.start), move.label(res.path[-1])
    if move.exiting and data.exits_rule is not None:
        edges = "/".join(sorted(_edge_names(rules, move.targets))) or "none"
        findings.append(Finding(data.exits_rule, Severity.ERROR,
                                f"{before.id} leaves the map from {start}: no legal way to the edges "
                                f"{side_adjective(rules, before.side)} units may exit by ({edges}){within}",
                                units=(before.id,), hexes=(start, end)))
    elif res.broken:
        for f in res.broken:  # "<unit> enters ..." read as what the unit's shortest path does
            what = f.message.removeprefix(f"{before.id} ") if f.message.startswith(f"{before.id} ") else \
                f"breaks this: {f.message}"
            findings.append(replace(f, message=f"{before.id} has no legal path from {start} to "
                                               f"{move.to_text}{within}: its shortest path {what}; take the move back"))
    elif pts is not None and remaining is not None:
        findings.append(Finding(pts.rule, Severity.ERROR,
                                f"{before.id} needs {_fmt(res.cost)} movement points from {start} "
                                f"to {move.to_text}, more than the {_fmt(remaining)} of its {_fmt(move.allowance)} it "
                                f"has left this phase: {checker.breakdown(res.path, remaining)} of {_fmt(remaining)}",
                                units=(before.id,), hexes=(start, end)))
    return res


def _enter(before: Unit, after: Unit, mc: MoveContext, findings: list[Finding]) -> None:
    """A unit placed on the map from a box pays the hex it enters (LF 8.1: "paying the cost of the entry
    hex"), by the chart (its terrain; no hexside is crossed), as the first hex of its phase."""
    assert after.hex is not None and mc.data.points is not None
    up = mc.unit_phase(before.id)
    allowance = unit_allowance(mc, before)
    checker = MoveChecker(mc, after)
    costs = checker.costs
    if costs is None:
        mp, flag = 1.0, 0
    else:
        cell = costs.hex_cell(after.hex)
        mp, flag = (0.0, 2) if cell.prohibited else (0.0, 1) if cell.kind == "all" else (cell.value, 0)
    label = mc.rules.map.label(after.hex)
    if flag == 2:
        rows = costs.prohibited_in(after.hex) if costs is not None else ()
        findings.append(Finding(rows[0].rule if rows else (mc.data.points.entry_cost or "movement"), Severity.ERROR,
                                f"{before.id} enters the map at {label}, prohibited to it",
                                units=(before.id,), hexes=(label,)))
        return
    up.moves += 1
    if allowance is None:
        return
    up.spent += max(allowance - up.spent, 0.0) if flag == 1 else mp


def _spend(res: PathResult, unit: Unit, checker: MoveChecker, mc: MoveContext, up: UnitPhase,
           allowance: float | None) -> list[Hex] | None:
    """Count the points of the path taken and what it did this phase; the path."""
    assert res.path is not None
    data = mc.data
    if data.points is not None and allowance is not None:
        up.spent += res.cost
    z = checker.zoc
    if z is not None and z.stop and res.path[-1] in checker.zone and len(res.path) > 1:
        up.engaged = True
    return res.path


def _detour(checker: MoveChecker, unit: Unit, targets: frozenset[Hex], legal: PathResult) -> Finding | None:
    """A warning when the legal path is longer than the direct route because that route breaks a rule:
    the opponent is told the move is legal only by a route the log does not show."""
    assert legal.path is not None
    checker.mc.direct = None
    if len(legal.path) - 1 <= checker.topology.distance(legal.path[0], legal.path[-1]):
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


def _edge_names(rules: BoundRules, hexes: frozenset[Hex]) -> set[str]:
    from gazala_tools.referee.ruledata import map_edges

    return {name for name, hs in map_edges(rules.map).items() if hs and hs <= hexes}


def _fmt(x: float | None) -> str:
    return f"{x:g}" if x is not None else "?"


def check_chart_terrain(rules: BoundRules, ctx: Context) -> Iterable[Finding]:
    """Units standing in a hex the Terrain Effects Chart prohibits to their class (``P``): a lake, a
    swamp for motor units (Lowland Front 3.6)."""
    chart = rules.data.chart
    if chart is None:
        return
    for u in ctx.on_map():
        if u.hex is None or u.hex not in ctx.topology:  # off the grid: the on-map check's finding
            continue
        costs = chart.unit_costs(rules.map, u, rules.names)
        for row in costs.prohibited_in(u.hex):
            every = costs.unit_class == ANY_CLASS or all(c.prohibited for c in row.cells.values())
            # a row with units: prohibits the hex to those units only (BG's sea inlet to armor): its what names them
            who = "" if row.units is not None else ", prohibited to every unit" if every else \
                f", prohibited to {costs.unit_class} units"
            yield Finding(row.rule, Severity.ERROR, f"{u.id} ({side_adjective(rules, u.side)} {u.type}) is in {row.what} "
                          f"at {ctx.label(u.hex)}{who}", units=(u.id,), hexes=(ctx.label(u.hex),))


def unit_allowance(mc: MoveContext, unit: Unit) -> float | None:
    """The unit's movement allowance this phase: its printed value, times the ``movement`` factor of
    each marker it carries (``rules.markers``: LF 6.1 Out of Supply 1/2, rounded down)."""
    printed = mc.allowance.get(unit.id)
    if printed is None:
        return None
    return allowance(mc.rules, unit, printed) if unit.markers else printed


def allowances(rules: BoundRules, role: str) -> dict[str, int]:
    """Unit id -> the printed ``role`` value (movement allowance) of its full-strength counter."""
    out: dict[str, int] = {}
    try:
        manifest = rules.manifest  # read once, by the rules
    except Exception as exc:  # no manifest: no allowances
        log.info("no counter manifest for %s (%s): movement points not checked", rules.game.id, exc)
        return out
    if manifest is None:
        log.info("no counter manifest for %s: movement points not checked", rules.game.id)
        return out
    for c in manifest.units:
        v = c.front.value(role)
        uid = c.unit_id or c.id
        if v is not None and v.number is not None and (uid not in out or c.step == c.steps):
            out[uid] = v.number
    return out


__all__ = [
    "ANY_UNIT",
    "DEFAULT_ZONE_NAME",
    "PENALTY",
    "MoveChecker",
    "MoveContext",
    "MovementRules",
    "PathResult",
    "UnitPhase",
    "allowances",
    "check_chart_terrain",
    "check_move",
    "log",
    "move_rules",
    "side_adjective",
    "side_between",
    "side_table",
    "unit_allowance",
    "zone_name",
    "zone_short",
]
