"""The generic rules: what the ``rules:`` data of any game says, checked on a position.

Every function here takes the bound rules (``rules.data`` is the typed data of
:mod:`.ruledata`) and a :class:`~gazala_tools.referee.context.Context`; every finding cites the
rule section the data gives for that rule. The four built-in plugins use these too:

* :func:`check_on_map` (boxes), :func:`check_enemy_share`, :func:`check_stacking`,
  :func:`check_prohibited`, :func:`check_reinforcements`: position legality;
* :func:`exerts_zoc` / :func:`zoc_projects`: zones of control;
* :func:`supply`, :func:`supply_search`, :func:`obstructed`: one multi-source trace per side;
* helpers every plugin needs: :func:`trace`, :func:`marker_flow`, :func:`find_path`,
  :func:`box_in`, :func:`eliminated`, :func:`moved`, :func:`side_steps`.

Pure Python.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from gazala_tools.errors import GazalaError, HexNameError
from gazala_tools.games.scenarios import load_scenarios
from gazala_tools.hexes import Hex, Hexside
from gazala_tools.referee.findings import Finding, Severity
from gazala_tools.referee.movement import check_chart_terrain, side_adjective, zone_name, zone_short
from gazala_tools.referee.movement import move_rules as movement_move_rules
from gazala_tools.referee.position import Labels, LabelWriter, StateReader, StateWriter, Unit
from gazala_tools.referee.report import MarkerChange, SupplyStatus
from gazala_tools.referee.ruledata import (
    Arrival,
    HexAward,
    HexScore,
    ReinforcementRules,
    SideSupply,
    StackingRules,
    UnitAward,
    VictoryRules,
)
from gazala_tools.referee.search import (
    ArrayCost,
    BlockCost,
    Cost,
    SearchResult,
    Topology,
    multi_source_search,
)
from gazala_tools.referee.units import values_code
from gazala_tools.referee.victory import award_vp, leader_level
from gazala_tools.yamlnodes import did_you_mean

if TYPE_CHECKING:  # pragma: no cover
    from gazala_tools.referee.context import BoundRules, Check, Context

__all__ = [
    "CONTROL",
    "MOVES_UNSEEN",
    "MP_SCALE",
    "NEEDS_BEFORE",
    "PathAnswer",
    "SupplyOutcome",
    "arriving_now",
    "before_rules",
    "box_allowed",
    "box_in",
    "check_enemy_share",
    "check_markers",
    "check_on_map",
    "check_prohibited",
    "check_reinforcements",
    "check_returns",
    "check_stacking",
    "checks",
    "control_of",
    "control_readers",
    "control_writers",
    "eliminated",
    "entry_blocked",
    "exerts_zoc",
    "find_path",
    "frontier",
    "hex_awards",
    "marker_flow",
    "may_be",
    "may_cross",
    "may_enter",
    "move_rules",
    "moved",
    "network_obstructed",
    "obstructed",
    "placed_in_blocked_entry",
    "record_entries",
    "scheduled",
    "scheduled_formation",
    "side_adjective",
    "side_name",
    "side_steps",
    "source_unit_hexes",
    "stack_problems",
    "supplied",
    "supply",
    "supply_markers",
    "supply_search",
    "trace",
    "trace_sources",
    "units_on",
    "victory",
    "vp_sentences",
    "zoc_name",
    "zoc_negated",
    "zoc_projects",
]


@dataclass
class SupplyOutcome:
    status: dict[str, SupplyStatus]
    markers: list[MarkerChange] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    reached: dict[str, SearchResult] = field(default_factory=dict)


def checks(rules: BoundRules) -> tuple[Check, ...]:
    """The generic position checks the game's data calls for."""
    d = rules.data
    out: list[Check] = [lambda ctx: check_on_map(rules, ctx), lambda ctx: check_enemy_share(rules, ctx)]
    if any(m.excludes or m.attack is not None or m.defense is not None for m in d.markers.values()):
        out.append(lambda ctx: check_markers(rules, ctx))
    if d.stacking is not None:
        out.append(lambda ctx: check_stacking(rules, ctx))
    if d.prohibited:
        out.append(lambda ctx: check_prohibited(rules, ctx))
    if d.chart is not None and any(c.prohibited for r in d.chart.terrain for c in r.cells.values()):
        out.append(lambda ctx: check_chart_terrain(rules, ctx))  # P terrain of the Terrain Effects Chart
    if d.reinforcements is not None:
        out.append(lambda ctx: check_reinforcements(rules, ctx))
    return tuple(out)


# --- what one position cannot show ------------------------------------------------------------------
#: why a move rule is listed unchecked on a position (with or without ``--before``)
MOVES_UNSEEN = "only moves show it; `gazala referee log` checks them"
#: why a two-position rule is listed unchecked on a position without ``--before``
NEEDS_BEFORE = "needs the earlier position, --before EARLIER"


def move_rules(rules: BoundRules) -> tuple[tuple[str, str], ...]:
    """The rules the game's data gives that only a move shows, as ``(rule, what)``
    (:func:`gazala_tools.referee.movement.move_rules`)."""
    return movement_move_rules(rules)


def before_rules(rules: BoundRules) -> tuple[tuple[str, str], ...]:
    """The rules the data gives that compare two positions (``--before``), as ``(rule, what)``."""
    b = rules.data.boxes
    return ((b.rule, "units that left the map wait two turns in the turn record"),) if b.turn_boxes else ()


def _unique(items: Iterable[tuple[str, str]]) -> tuple[tuple[str, str], ...]:
    return tuple(dict.fromkeys(items))


# --- boxes, enemies, stacking ---------------------------------------------------------------------
def box_in(unit: Unit, names: Iterable[str]) -> bool:
    """Is the unit off the map in one of the boxes ``names`` (lower case)?"""
    return unit.hex is None and (unit.box or "").strip().lower() in names


def box_allowed(rules: BoundRules, unit: Unit) -> bool:
    b = rules.data.boxes
    name = (unit.box or "").strip().lower()
    if name in b.all:
        return True
    return b.turn_boxes and rules.turns.is_label(name)


def check_on_map(rules: BoundRules, ctx: Context, rule: str | None = None,
                 box_ok: Callable[[Unit], bool] | None = None) -> Iterable[Finding]:
    """Units stand on passable map hexes, or in an off-map box the data allows (``boxes``)."""
    rule = rule or rules.data.boxes.rule
    ok = box_ok or (lambda u: box_allowed(rules, u))
    for u in ctx.position.units:
        if u.hex is None:
            if not ok(u):
                yield Finding(rule, Severity.ERROR, f"{u.id} is off the map in {u.box!r}, not a box the rules allow",
                              units=(u.id,))
        elif u.hex not in ctx.topology:
            yield Finding(rule, Severity.ERROR, f"{u.id} is off the map at {ctx.label(u.hex)}",
                          units=(u.id,), hexes=(ctx.label(u.hex),))
        elif not ctx.map.passable(u.hex):
            yield Finding(rule, Severity.ERROR, f"{u.id} stands in impassable terrain at {ctx.label(u.hex)}",
                          units=(u.id,), hexes=(ctx.label(u.hex),))


def check_enemy_share(rules: BoundRules, ctx: Context, rule: str | None = None) -> Iterable[Finding]:
    """Enemy units never share a hex."""
    rule = rule or rules.data.enemy_rule
    for h, us in ctx.by_hex.items():
        sides = {u.side for u in us}
        if len(sides) > 1:
            yield Finding(rule, Severity.ERROR, f"enemy units share hex {ctx.label(h)}: "
                          + ", ".join(f"{u.id} ({side_adjective(rules, u.side)})" for u in us),
                          units=tuple(sorted(u.id for u in us)), hexes=(ctx.label(h),))


def stack_problems(rules: BoundRules, s: StackingRules, units: list[Unit],
                   h: Hex | None = None) -> list[tuple[str, str]]:
    """What is wrong with one side's stack in one hex (the data's ``stacking`` rules): (rule, message)
    pairs, each citing its own sub-rule (``alone-rule``, ``types-rule``, else the stacking rule).
    ``h``: the hex (its terrain's limit); the limit counts units, or stacking points when the data
    gives ``points``."""
    side = units[0].side
    who = side_adjective(rules, side)

    def note(excess: int) -> str:
        return f"; {s.note.format(excess=excess)}" if s.note else ""

    if s.alone is not None:
        big = [u for u in units if s.alone.matches(u, rules.names)]
        if big and len(units) > 1:
            what = big[0].formation or big[0].type
            return [(s.alone_rule or s.rule,
                     f"{', '.join(u.id for u in big)} ({what}) fills the hex: no unit may stack with it"
                     + note(len(units) - 1))]
    out: list[tuple[str, str]] = []
    if s.points is not None:
        limit = s.limit_at(side, h)
        counted = [u for u in units if s.exempt is None or not s.exempt.matches(u, rules.names)]
        pts = sum(s.points_of(u) for u in counted)
        if limit is not None and pts > limit:
            where = next((f" in {tl.terrain}" for tl in s.terrain if h in tl.hexes and tl.limits.get(side) == limit),
                         "")
            what = " + ".join(f"{u.id} {s.points_of(u)}" for u in counted if s.points_of(u))
            out.append((s.rule, f"{pts} {who} stacking points in one hex ({what}) (limit {limit}{where})"
                        + note(pts - limit)))
    elif s.limit is not None:
        limit = s.limit_at(side, h)
        counted = [u for u in units if s.exempt is None or not s.exempt.matches(u, rules.names)]
        if limit is not None and len(counted) > limit:
            also = f" ({len(units) - len(counted)} more not counted)" if len(counted) < len(units) else ""
            out.append((s.rule, f"{len(counted)} {who} units in one hex{also} (limit {limit})"
                        + note(len(counted) - limit)))
    for tl in s.types:
        n = sum(1 for u in units if u.type in tl.types)
        most = tl.limit(side)
        if most is not None and n > most:
            out.append((tl.rule, f"{n} {who} {tl.name} units in one hex (limit {most} {tl.name})" + note(n - most)))
    return out


def check_stacking(rules: BoundRules, ctx: Context) -> Iterable[Finding]:
    """Each side's units of a hex against the data's ``stacking`` limits (enemy units in one hex are
    :func:`check_enemy_share`'s finding, not an over-stack)."""
    s = rules.data.stacking
    if s is None:
        return
    r = rules.data.reinforcements
    together = arriving_now(rules, ctx) if r is not None and r.stack_on_arrival else {}
    for h, all_units in ctx.by_hex.items():
        for side in sorted({u.side for u in all_units}):
            us = [u for u in all_units if u.side == side]
            new = [u for u in us if u.id in together.get(h, ())]
            if len(new) > 1 and r is not None and r.stack_on_arrival:
                # the reinforcements arriving here this turn count as one unit (e.g. DG 11.1/11.3)
                yield Finding(r.stack_on_arrival, Severity.INFO,
                              f"{ctx.label(h)}: {', '.join(u.id for u in new)} arrive together as reinforcements "
                              f"on {rules.turn_name(ctx.turn_index or 0)}: the hex holds them all this turn",
                              units=tuple(u.id for u in new), hexes=(ctx.label(h),))
                us = [u for u in us if u not in new[1:]]
            for rule, msg in stack_problems(rules, s, us, h):
                yield Finding(rule, Severity.ERROR, f"{ctx.label(h)}: {msg}", units=tuple(sorted(u.id for u in us)),
                              hexes=(ctx.label(h),))


def check_prohibited(rules: BoundRules, ctx: Context) -> Iterable[Finding]:
    """Units standing where the data's ``prohibited`` entries say they may not be."""
    for p in rules.data.prohibited:
        if not p.enter:
            continue
        for u in ctx.on_map():
            h = u.hex
            if h is not None and h in p.enter and p.units.matches(u, rules.names):
                yield Finding(p.rule, Severity.ERROR, f"{u.id} ({side_adjective(rules, u.side)} {u.type}) is in {p.what} at "
                              f"{ctx.label(h)}",
                              units=(u.id,), hexes=(ctx.label(h),))


def may_enter(rules: BoundRules, unit: Unit, h: Hex) -> Finding | None:
    """Why ``unit`` may not enter hex ``h`` (a ``prohibited`` entry), or None (movement hooks)."""
    for p in rules.data.prohibited:
        if h in p.enter and p.units.matches(unit, rules.names):
            return Finding(p.rule, Severity.ERROR, f"{unit.id} may not enter {p.what}", units=(unit.id,))
    return None


def may_cross(rules: BoundRules, unit: Unit, a: Hex, b: Hex) -> Finding | None:
    """Why ``unit`` may not step from ``a`` to adjacent ``b`` (a ``prohibited`` crossing or hex), or None."""
    side = rules.topology.side(a, b)
    for p in rules.data.prohibited:
        if side in p.cross and p.units.matches(unit, rules.names):
            return Finding(p.rule, Severity.ERROR, f"{unit.id} may not cross {p.what}", units=(unit.id,))
    return may_enter(rules, unit, b)


# --- reinforcements -------------------------------------------------------------------------------
def may_be(rules: BoundRules, unit: Unit, arrival: Arrival) -> bool:
    """Could ``unit`` be (one of) the reinforcement(s) of ``arrival``? By id, or by printed values
    (unknown values: maybe)."""
    if arrival.side is not None and unit.side != arrival.side:
        return False
    if unit.id in arrival.units or scheduled_formation(rules, unit, arrival):
        return True
    if arrival.values is None:
        return False
    got = values_code(unit, rules)
    return got is None or got == arrival.values


def scheduled_formation(rules: BoundRules, unit: Unit, arrival: Arrival) -> bool:
    """Is ``unit`` of a formation the arrival brings in whole ("29 Ind-all units")?"""
    return bool(unit.formation) and any(rules.names.same(unit.formation, f) for f in arrival.formations)


def scheduled(rules: BoundRules, unit: Unit, arrival: Arrival) -> bool:
    """Is ``unit`` named by the arrival (its id, or its formation)? Printed values name no unit."""
    return unit.id in arrival.units or scheduled_formation(rules, unit, arrival)


def arriving_now(rules: BoundRules, ctx: Context) -> dict[Hex, set[str]]:
    """Units in the arrival hexes of the reinforcements due this turn that may be those reinforcements."""
    r = rules.data.reinforcements
    out: dict[Hex, set[str]] = {}
    if r is None or ctx.turn_index is None:
        return out
    late = set(ctx.position.extra.get("arriving") or ())  # delayed arrivals (DG 11.4), the position says
    for a in r.schedule:
        if a.turn != ctx.turn_index and not (late and a.turn < ctx.turn_index):
            continue
        for h in a.enter.hexes:
            got = [u.id for u in ctx.by_hex.get(h, []) if may_be(rules, u, a)
                   and (a.turn == ctx.turn_index or u.id in late)]
            if got:
                out.setdefault(h, set()).update(got)
    return out


def check_reinforcements(rules: BoundRules, ctx: Context) -> Iterable[Finding]:
    """The data's reinforcement schedule: a scheduled unit (named by id) on the map before its turn
    (error); an entry whose hexes all hold enemy units when reinforcements are due there, or later
    while one may still wait off the map (warning: they may not arrive)."""
    r = rules.data.reinforcements
    turn = ctx.turn_index
    if r is None or turn is None:
        return
    waiting = [u for u in ctx.units() if box_in(u, rules.data.boxes.reinforcements)]
    blocked: dict[frozenset[Hex], tuple[list[str], list[Arrival]]] = {}
    for a in r.schedule:
        yield from _misplaced_arrivals(rules, ctx, r, a, turn)
        if a.turn > turn or not a.enter:
            continue
        side = a.side or next((u.side for u in ctx.units() if scheduled(rules, u, a)), None)
        if side is None:
            continue
        if a.turn == turn and "enemy-zoc" in r.blocked_by:
            yield from _placed_in_enemy_zone(rules, ctx, a, side)
        if a.turn < turn and not any(may_be(rules, u, a) for u in waiting):
            continue
        enemies = [u.id for h in sorted(a.enter.hexes) for u in ctx.by_hex.get(h, []) if u.side != side]
        if all(entry_blocked(rules, ctx, side, h) for h in a.enter.hexes):
            got = blocked.setdefault(a.enter.hexes, ([], []))
            got[0].extend(e for e in enemies if e not in got[0])
            got[1].append(a)
    yield from _blocked_entries(rules, ctx, r, turn, blocked)


def _misplaced_arrivals(rules: BoundRules, ctx: Context, r: ReinforcementRules, a: Arrival,
                        turn: int) -> Iterator[Finding]:
    """The units of one arrival on the map before its turn; with ``at-entry``, on its arrival turn
    anywhere but its entry hexes (errors, each citing the arrival's rule, else the schedule's)."""
    if turn < a.turn:
        for u in ctx.on_map():
            if scheduled(rules, u, a) and u.hex is not None:
                yield Finding(a.rule or r.rule, Severity.ERROR,
                              f"{u.id} is on the map on {rules.turn_name(turn)}: it arrives on "
                              f"{rules.turn_name(a.turn)}"
                              + (f" at {_where(ctx, a)}" if a.enter else ""),
                              units=(u.id,), hexes=(ctx.label(u.hex),))
    if a.turn == turn and a.enter and r.at_entry:
        for u in ctx.on_map():
            if u.hex is not None and u.hex not in a.enter.hexes and scheduled(rules, u, a):
                yield Finding(a.rule or r.rule, Severity.ERROR,
                              f"{u.id} is at {ctx.label(u.hex)} on its arrival turn {rules.turn_name(turn)}, "
                              f"not at its entry hexes ({_where(ctx, a)})",
                              units=(u.id,), hexes=(ctx.label(u.hex),))


def _blocked_entries(rules: BoundRules, ctx: Context, r: ReinforcementRules, turn: int,
                     blocked: Mapping[frozenset[Hex], tuple[list[str], list[Arrival]]]) -> Iterator[Finding]:
    """A warning per set of entry hexes all blocked while reinforcements are due there: what happens
    to them (``when-blocked``: they wait, are delayed a turn, or enter at the nearest free hex)."""
    for hexes, (enemies, arrivals) in blocked.items():
        now = [a for a in arrivals if a.turn == turn] or arrivals
        what = ", ".join(f"{a.what} ({rules.turn_name(a.turn)})" for a in now)
        where = "/".join(ctx.labels(hexes))
        if r.blocked_by == {"enemy-units"} and r.when_blocked == "wait":
            yield Finding(r.entry_rule, Severity.WARNING,
                          f"reinforcement hex {where} is occupied by {', '.join(enemies)}: {what} may not arrive "
                          "until no enemy unit occupies it",
                          units=tuple(enemies), hexes=ctx.labels(hexes))
            continue
        side = now[0].side or next((u.side for u in ctx.units() if scheduled(rules, u, now[0])), "")
        why = "; ".join(f"{ctx.label(h)} {entry_blocked(rules, ctx, side, h)}" for h in sorted(hexes, key=ctx.label))
        then = {"wait": "may not arrive until an entry hex is free",
                "delay": "is delayed one turn" + (f" (to {rules.turn_name(turn + 1)})"
                                                  if rules.turns.open or turn + 1 < len(rules.turns) else ""),
                "shift": "enters at the nearest free hex instead"}[r.when_blocked]
        yield Finding(r.entry_rule, Severity.WARNING,
                      f"every reinforcement hex of {what} is blocked ({why}): it {then}",
                      units=tuple(enemies), hexes=ctx.labels(hexes))


def entry_blocked(rules: BoundRules, ctx: Context, side: str, h: Hex) -> str | None:
    """Why ``side`` may not place a reinforcement in hex ``h`` (``reinforcements.entry-blocked-by``:
    an enemy unit in it, the hex in an enemy zone), or None. The log checker asks it for each unit
    it sees placed from a reinforcement box (:func:`placed_in_blocked_entry`)."""
    r = rules.data.reinforcements
    blocks = r.blocked_by if r is not None else frozenset({"enemy-units"})
    if "enemy-units" in blocks and h in ctx.enemy_hexes(side):
        enemies = [u.id for u in ctx.by_hex.get(h, []) if u.side != side]
        return "is occupied by " + ", ".join(enemies)
    if "enemy-zoc" in blocks and h in ctx.enemy_zoc(side):
        who = sorted({uid for e in rules.enemies(side) for uid in ctx.zoc(e).get(h, ())})
        at = {u.id: ctx.label(u.hex) for u in ctx.on_map() if u.id in who and u.hex is not None}
        return f"is in the enemy {zoc_name(rules)} of " + ", ".join(f"{w} ({at[w]})" if w in at else w for w in who)
    return None


def placed_in_blocked_entry(rules: BoundRules, ctx: Context, unit: Unit, h: Hex) -> list[Finding]:
    """A log's move of ``unit`` from a reinforcement box onto the map at ``h``, one of the entry hexes
    of its schedule: an error when the hex is blocked (``entry-blocked-by``: an enemy unit, an enemy
    zone) in the position before the move."""
    r = rules.data.reinforcements
    if r is None or not box_in(unit, rules.data.boxes.reinforcements):
        return []
    if not any(h in a.enter.hexes and may_be(rules, unit, a) for a in r.schedule):
        return []
    why = entry_blocked(rules, ctx, unit.side, h)
    if why is None:
        return []
    where = "an enemy-occupied hex" if h in ctx.enemy_hexes(unit.side) else f"an enemy {zoc_name(rules)}"
    return [Finding(r.entry_rule, Severity.ERROR, f"{unit.id} arrives at {ctx.label(h)}, which {why}: a reinforcement may "
                    f"not be placed in {where}", units=(unit.id,), hexes=(ctx.label(h),))]


def _placed_in_enemy_zone(rules: BoundRules, ctx: Context, a: Arrival, side: str) -> Iterable[Finding]:
    """A reinforcement standing on its arrival turn in one of its entry hexes that lies in an enemy
    zone: it was placed there (a position is judged as at the end of its side's movement phase)."""
    r = rules.data.reinforcements
    assert r is not None
    for h in sorted(a.enter.hexes, key=ctx.label):
        if h not in ctx.enemy_zoc(side):
            continue
        for u in ctx.by_hex.get(h, []):
            if u.side == side and (scheduled(rules, u, a) or (a.values is not None and may_be(rules, u, a))):
                yield Finding(r.entry_rule, Severity.ERROR,
                              f"{u.id} arrives at {ctx.label(h)}, which {entry_blocked(rules, ctx, side, h)}: a "
                              f"reinforcement may not be placed in an enemy {zoc_name(rules)}",
                              units=(u.id,), hexes=(ctx.label(h),))


def check_returns(rules: BoundRules, before: Context, after: Context) -> Iterable[Finding]:
    """RG 8.3 "Units that exit the map are placed on the turn record track two turns in advance, at
    which time they may enter as reinforcements", between two positions: a unit on the map before and
    in a turn box after must be in the box two turns after a turn it could have left on; a unit in a
    turn box before may not stand on the map before that turn."""
    b = rules.data.boxes
    if not b.turn_boxes or after.turn_index is None:
        return
    now = {u.id: u for u in after.position.units}
    lo = before.turn_index if before.turn_index is not None else after.turn_index
    for u in before.units():
        back = now.get(u.id)
        if u.hex is not None and back is not None and back.hex is None and back.box:
            due = rules.turns.index(back.box)  # it left the map in between: "two turns in advance"
            if due is not None and not lo + 2 <= due <= after.turn_index + 2:
                yield Finding(b.rule, Severity.ERROR,
                              f"{u.id} left the map and waits in the {rules.turn_name(due)} box: a unit that exits "
                              f"is placed two turns in advance ({_turn_span(rules, lo + 2, after.turn_index + 2)})",
                              units=(u.id,))
            continue
        if u.hex is not None or not u.box:
            continue
        due = rules.turns.index(u.box)
        back = now.get(u.id)
        if due is not None and back is not None and back.hex is not None and after.turn_index < due:
            yield Finding(b.rule, Severity.ERROR,
                          f"{u.id} waited in the {rules.turn_name(due)} box and is on the map on "
                          f"{rules.turn_name(after.turn_index)}: it may return on {rules.turn_name(due)}",
                          units=(u.id,), hexes=(after.label(back.hex),))


def _turn_span(rules: BoundRules, first: int, last: int) -> str:
    names = [rules.turn_name(i) for i in range(first, last + 1) if rules.turns.open or i < len(rules.turns)]
    return " or ".join(names) if names else "after the last turn"


def _where(ctx: Context, a: Arrival) -> str:
    """An arrival's hexes: their labels, or how the data names them when they are many (map edges)."""
    if len(a.enter.hexes) > 6 and a.enter.text:
        return a.enter.text
    return ", ".join(ctx.labels(a.enter.hexes))


# --- zones of control -----------------------------------------------------------------------------
def exerts_zoc(rules: BoundRules, unit: Unit) -> bool:
    """Does ``unit`` exert a zone of control (``rules.zoc``: ``units``, not ``exempt`` units, not with
    a marker whose effects say ``zoc: false``)?"""
    z = rules.data.zoc
    if not z.exert or not z.units.matches(unit, rules.names):
        return False
    if z.exempt is not None and z.exempt.matches(unit, rules.names):
        return False
    markers = rules.data.markers
    return not any(not markers[m].zoc for m in unit.markers if m in markers)


def zoc_name(rules: BoundRules) -> str:
    """The game's own name for the zone (``rules.zoc.name``; default "zone of control"): messages
    say "enemy {name}"."""
    return zone_name(rules)


def zoc_negated(rules: BoundRules, purpose: str) -> bool:
    """Does a friendly unit in an enemy-zone hex negate the zone there for ``purpose`` (``supply``,
    ``movement``; ``rules.zoc.negated-by-friendly``)?"""
    return purpose in rules.data.zoc.negated_for


def check_markers(rules: BoundRules, ctx: Context) -> Iterable[Finding]:
    """Markers a unit may not carry together (``excludes``), and what each unit's markers do (info:
    the attack and defense factors are reported, not resolved)."""
    markers = rules.data.markers
    for u in ctx.units():
        where = (ctx.label(u.hex),) if u.hex is not None else ()
        carried = sorted(m for m in u.markers if m in markers)
        for i, a in enumerate(carried):
            for b in carried[i + 1:]:
                if b in markers[a].excludes or a in markers[b].excludes:
                    m = markers[a] if b in markers[a].excludes else markers[b]
                    yield Finding(m.rule, Severity.ERROR, f"{u.id} carries both {markers[a].name} and "
                                  f"{markers[b].name}: a unit carries at most one of them", units=(u.id,), hexes=where)
        for mid in carried:
            m = markers[mid]
            if m.attack is not None or m.defense is not None:
                what = ", ".join(f"{k} x{v:g}" for k, v in (("attack", m.attack), ("defense", m.defense)) if v is not None)
                yield Finding(m.rule, Severity.INFO, f"{u.id} is {m.name}: {what} (combat is not refereed)",
                              units=(u.id,), hexes=where)


def zoc_projects(rules: BoundRules, a: Hex, b: Hex) -> bool:
    z = rules.data.zoc
    if b in z.into:
        return False
    ups = z.uphill.get(a)
    if ups is not None and b in ups:
        return False
    side = rules.topology.side(a, b)
    return side not in z.sides and side not in rules.map.impassable_sides


# --- supply ---------------------------------------------------------------------------------------
def obstructed(rules: BoundRules, ctx: Context, ss: SideSupply) -> dict[Hex, str]:
    """Hexes a ``ss.side`` supply path may not enter, with the reason (the data's ``trace``)."""
    t = ss.trace
    return _blocked_hexes(rules, ctx, ss.side, enemy_units=t.enemy_units, enemy_zoc=t.enemy_zoc,
                          impassable=t.impassable, negates=t.friendly_negates_zoc, hexes=t.hexes)


def _blocked_hexes(rules: BoundRules, ctx: Context, side: str, *, enemy_units: bool, enemy_zoc: bool,
                   impassable: bool, negates: bool, hexes: frozenset[Hex] = frozenset()) -> dict[Hex, str]:
    why: dict[Hex, str] = {}
    if enemy_zoc:
        own = ctx.hexes_of.get(side, set()) if negates else set()
        zone = f"in enemy {zone_short(rules)}"
        why.update({h: zone for h in ctx.enemy_zoc(side) if h not in own})
    for h in hexes:
        why[h] = "blocked terrain"
    if enemy_units:
        why.update({h: "enemy-occupied" for h in ctx.enemy_hexes(side)})
    if impassable:  # the map's impassable terrain, and the chart's hexes prohibited to every class
        closed = rules.data.chart.closed_hexes(rules.map) if rules.data.chart is not None else frozenset()
        why.update({h: "impassable" for h in rules.impassable | closed})
    return why


def network_obstructed(rules: BoundRules, ctx: Context, ss: SideSupply) -> dict[Hex, str]:
    """Hexes that cut a ``ss.side`` supply network (``network-blocked-by``; by default what blocks
    the trace)."""
    t = ss.trace
    if t.network_blocks is None:
        return obstructed(rules, ctx, ss)
    return _blocked_hexes(rules, ctx, ss.side, enemy_units=t.network_blocked_by("enemy-units"),
                          enemy_zoc=t.network_blocked_by("enemy-zoc"), impassable=t.network_blocked_by("impassable"),
                          negates=t.friendly_negates_zoc)


def trace_sources(rules: BoundRules, ctx: Context, ss: SideSupply) -> frozenset[Hex]:
    """The hexes a ``ss.side`` trace may end at before any blocking: its sources (those on the network,
    when the side traces to one), and the hexes of its ``source-units``. A unit standing on one is in
    supply (it enters nothing)."""
    units = source_unit_hexes(rules, ctx, ss)
    if ss.network is None or ss.direct:
        return ss.sources.hexes | units
    return (ss.sources.hexes & ss.network_hexes) | units


def source_unit_hexes(rules: BoundRules, ctx: Context, ss: SideSupply) -> frozenset[Hex]:
    """Where the side's units that are sources (``source-units``: its HQs) stand."""
    if ss.source_units is None:
        return frozenset()
    f = ss.source_units
    return frozenset(u.hex for u in ctx.on_map(ss.side) if u.hex is not None and f.matches(u, rules.names))


def supply_search(rules: BoundRules, ctx: Context, ss: SideSupply,
                  why: Mapping[Hex, str] | None = None) -> SearchResult:
    """One backwards search from all of ``ss.side``'s sources (through its road/trail network when
    the data gives one): the distance of every hex to supply (in hexes, or in movement points
    times :data:`MP_SCALE` for a trace counted in MP)."""
    if why is None:
        why = obstructed(rules, ctx, ss)
    extra_hexes, extra_sides = rules.supply_blocks(ctx, ss.side)
    blocked = set(why) | extra_hexes
    sides = ss.trace.sides | extra_sides | (rules.map.impassable_sides if ss.trace.impassable else frozenset())
    sources = [h for h in ss.sources.hexes if h not in blocked]
    units = source_unit_hexes(rules, ctx, ss)
    if ss.network is not None:  # the sources on the network, and the network hexes joined to them
        if ss.trace.network_blocks is None:
            net_blocked, net_sides = blocked, sides
        else:
            net_blocked = set(network_obstructed(rules, ctx, ss)) | extra_hexes
            net_sides = extra_sides | (rules.map.impassable_sides if ss.trace.network_blocked_by("impassable")
                                       else frozenset())
        network = _pairs(ss.network - net_sides)
        sources = [h for h in ss.sources.hexes if h not in net_blocked and h in ss.network_hexes]

        def along(a: Hex, b: Hex) -> int | None:
            return 1 if b not in net_blocked and (a, b) in network else None

        joined = [h for h in multi_source_search(rules.topology, sources, along).dist if h not in blocked]
        sources = list(dict.fromkeys([*joined, *(h for h in ss.sources.hexes if h not in blocked)])) if ss.direct \
            else joined
    if units:  # a unit that is a source supplies where it stands
        sources = list(dict.fromkeys([*sources, *(h for h in sorted(units) if h not in blocked)]))
    if ss.trace.max_mp is not None and ss.trace.mp_class is not None:
        return _mp_search(rules, ss, sources, blocked, sides)
    cost = BlockCost(rules.topology, hexes=blocked, sides=sides)
    return multi_source_search(rules.topology, sources, cost, reverse=True)


#: movement points are counted in halves in a trace search (costs are integers there: road 1/2 = 1)
MP_SCALE = 2


def _pairs(sides: Iterable[Hexside]) -> dict[tuple[Hex, Hex], Hexside]:
    """Hexsides by the steps across them, both ways (a search looks a step up without building a
    :class:`Hexside` for it)."""
    out: dict[tuple[Hex, Hex], Hexside] = {}
    for s in sides:
        a, b = s.hexes
        out[(a, b)] = out[(b, a)] = s
    return out


def _mp_search(rules: BoundRules, ss: SideSupply, sources: Sequence[Hex], blocked: set[Hex],
               sides: frozenset[Hexside]) -> SearchResult:
    """The trace counted in movement points of ``ss.trace.mp_class`` (the terrain effects chart, as a
    unit of that class of the side moves), from the unit towards the sources: entering a hex of cost
    ``all`` ends the trace there, so it may only be the trace's last hex (a source or network hex).

    Speed: every step of the map is priced once per rules (the chart's :class:`~.search.ArrayCost`,
    with the hexsides the trace may not cross closed); a position adds only its blocked hexes."""
    cls = ss.trace.mp_class
    assert cls is not None and ss.trace.max_mp is not None
    cost = _mp_costs(rules, cls, ss.side, sides).with_blocked(blocked)
    return multi_source_search(rules.topology, sources, cost, reverse=True, max_cost=round(ss.trace.max_mp * MP_SCALE))


def _mp_costs(rules: BoundRules, cls: str, side: str, sides: frozenset[Hexside]) -> ArrayCost:
    """The chart's step costs of class ``cls`` for ``side`` in ``1/MP_SCALE`` MP, with the steps across
    ``sides`` (hexsides a trace may not cross) impossible: computed once per rules."""
    cache: dict[tuple[str, str, frozenset[Hexside]], ArrayCost] = rules.__dict__.setdefault("_mp_costs", {})
    got = cache.get((cls, side, sides))
    if got is not None:
        return got
    chart = rules.data.chart
    assert chart is not None
    topo = rules.topology
    got = chart.costs(rules.map, cls, side).array_cost(topo, MP_SCALE)
    if sides:
        forward, backward = list(got.forward), list(got.backward)
        idx, adj = topo.index, topo.adj
        for s in sides:
            a, b = s.hexes
            ia, ib = idx.get(a), idx.get(b)
            if ia is None or ib is None:
                continue
            for u, v in ((ia, ib), (ib, ia)):
                k = adj[u].index(v)
                forward[u] = (*forward[u][:k], ArrayCost.IMPOSSIBLE, *forward[u][k + 1:])
                backward[u] = (*backward[u][:k], ArrayCost.IMPOSSIBLE, *backward[u][k + 1:])
        got = ArrayCost(topo, forward, backward)
    if len(cache) > 32:
        cache.clear()
    cache[(cls, side, sides)] = got
    return got


def supplied(ss: SideSupply, res: SearchResult, h: Hex) -> bool:
    d = res.distance(h)
    if d is None:
        return False
    if ss.trace.max_mp is not None:
        return d <= ss.trace.max_mp * MP_SCALE
    return ss.trace.max_length is None or d <= ss.trace.max_length


def supply(rules: BoundRules, ctx: Context) -> SupplyOutcome | None:
    """Supply of every unit, as the data's ``supply`` section says (None: the game has no supply rule)."""
    data = rules.data.supply
    if data is None:
        return None
    out = SupplyOutcome(status={})
    reinf = rules.data.boxes.reinforcements
    for side in rules.sides:
        ss = data.sides.get(side)
        if ss is None:
            continue
        units = [u for u in ctx.units(side)
                 if (u.hex is not None and u.hex in ctx.topology) or data.off_map == "in"
                 or (data.off_map == "reinforcements" and box_in(u, reinf))]
        if not units:
            continue
        if ss.automatic_through is not None and ctx.turn_index is not None and ctx.turn_index <= ss.automatic_through:
            out.status.update({u.id: SupplyStatus.IN for u in units})
            out.findings.append(Finding(ss.automatic_rule, Severity.INFO,
                                        f"{side_adjective(rules, side)} units are automatically supplied through "
                                        f"{rules.turn_name(ss.automatic_through)} (now {rules.turn_name(ctx.turn_index)})"))
            continue
        res = supply_search(rules, ctx, ss)
        out.reached[side] = res
        own_sources = trace_sources(rules, ctx, ss)
        for u in units:
            if u.hex is None or u.hex not in ctx.topology:  # off the map: in supply (RG 8.3; reinforcements not yet arrived)
                out.status[u.id] = SupplyStatus.IN
                continue
            ok = supplied(ss, res, u.hex) or u.hex in own_sources
            if data.markers:
                _marker_status(rules, out, ctx, ss, u, ok)
            else:
                out.status[u.id] = SupplyStatus.IN if ok else SupplyStatus.OUT
                if not ok:
                    out.findings.append(Finding(ss.rule, Severity.WARNING,
                                                f"{u.id} at {ctx.label(u.hex)} is unsupplied: no unobstructed path to "
                                                f"{ss.goal}", units=(u.id,), hexes=(ctx.label(u.hex),)))
    return out


def _marker_status(rules: BoundRules, out: SupplyOutcome, ctx: Context, ss: SideSupply, u: Unit,
                   traced: bool) -> None:
    assert u.hex is not None
    where = ctx.label(u.hex)
    oos, iso = supply_markers(rules)
    if u.has(oos) and u.has(iso) and not rules.data.markers[oos].excludes and not rules.data.markers[iso].excludes:
        names = rules.data.markers
        out.findings.append(Finding(ss.rule, Severity.ERROR, f"{u.id} carries both {names[oos].name} and {names[iso].name}",
                                    units=(u.id,), hexes=(where,)))
    data = rules.data.supply
    status, change = marker_flow(u, traced, ss.rule, oos, iso,
                                 isolated_after=data.isolated_after if data is not None else 2)
    out.status[u.id] = status
    if change is not None:
        out.markers.append(change)
        names = rules.data.markers
        what = " and ".join(x for x in (f"remove its {names[change.remove].name} marker" if change.remove else "",
                                        f"mark it {names[change.add].name}" if change.add else "") if x)
        out.findings.append(Finding(ss.rule, Severity.WARNING,
                                    f"supply phase: {u.id} at {where} traces supply to {ss.goal}: {what}"
                                    if status is SupplyStatus.IN else
                                    f"supply phase: {u.id} at {where} cannot trace supply to {ss.goal}: {what}",
                                    units=(u.id,), hexes=(where,)))
    elif status is not SupplyStatus.IN:
        out.findings.append(Finding(ss.rule, Severity.INFO, f"{u.id} at {where} stays {rules.data.markers[iso].name}",
                                    units=(u.id,), hexes=(where,)))


def trace(ctx: Context, sources: Iterable[Hex], cost: Cost, *, within: Callable[[Hex], bool] | None = None) -> SearchResult:
    """One multi-source search from ``sources``, traced from a unit towards them (reverse)."""
    return multi_source_search(ctx.topology, sources, cost, reverse=True, within=within)


def supply_markers(rules: BoundRules) -> tuple[str, str]:
    """The game's markers of the supply phase: (out of supply, isolated), by their ``supply:`` role
    (``rules.markers``; the reader refuses one role without the other)."""
    got = rules.__dict__.get("_supply_markers")
    if got is not None:
        return got  # type: ignore[no-any-return]
    oos, iso = rules.data.supply_marker("out"), rules.data.supply_marker("isolated")
    if oos is None or iso is None:
        raise ValueError("the game's markers have no supply roles (rules.markers ... supply: out / isolated)")
    rules.__dict__["_supply_markers"] = (oos, iso)
    return oos, iso


def marker_flow(unit: Unit, traced: bool, rule: str, oos: str, iso: str, *,
                isolated_after: int = 2) -> tuple[SupplyStatus, MarkerChange | None]:
    """The Out of Supply -> Isolated marker flow of the supply phase (RG 5.0 and its family; Lowland
    Front 7.6), with the game's markers ``oos`` (``supply: out``) and ``iso`` (``supply: isolated``).

    Traced: in supply, any marker removed. Not traced: Out of Supply, or Isolated if the unit was
    already Out of Supply (or Isolated): out of supply in two consecutive supply phases
    (``isolated_after=1``: Isolated at once).
    """
    had_out, had_iso = unit.has(oos), unit.has(iso)
    if traced:
        if had_iso:
            return SupplyStatus.IN, MarkerChange(unit.id, remove=iso, rule=rule)
        if had_out:
            return SupplyStatus.IN, MarkerChange(unit.id, remove=oos, rule=rule)
        return SupplyStatus.IN, None
    if had_iso:  # an Out of Supply marker beside the Isolated one goes: the unit is now Isolated
        return SupplyStatus.ISOLATED, (MarkerChange(unit.id, remove=oos, rule=rule) if had_out else None)
    if had_out:
        return SupplyStatus.ISOLATED, MarkerChange(unit.id, add=iso, remove=oos, rule=rule)
    if isolated_after <= 1:
        return SupplyStatus.ISOLATED, MarkerChange(unit.id, add=iso, rule=rule)
    return SupplyStatus.OUT, MarkerChange(unit.id, add=oos, rule=rule)


# --- helpers for plugins --------------------------------------------------------------------------
def eliminated(rules: BoundRules, ctx: Context, side: str) -> list[Unit]:
    """Units of ``side`` in an eliminated box (the data's ``boxes.eliminated``)."""
    return [u for u in ctx.units(side) if box_in(u, rules.data.boxes.eliminated)]


def moved(before: Context, after: Context, side: str) -> list[Unit]:
    """Units of ``side`` (as in ``before``) standing on a map hex there and elsewhere in ``after``."""
    now = {u.id: u.hex for u in after.position.units}
    return [u for u in before.units(side) if u.hex is not None and u.id in now and now[u.id] != u.hex]


def side_steps(sides: Iterable[Hexside]) -> dict[Hex, frozenset[Hex]]:
    """Hexsides as steps: ``a -> {b, ...}`` for each side between a and b (both directions)."""
    out: dict[Hex, set[Hex]] = {}
    for s in sides:
        a, b = s.hexes
        out.setdefault(a, set()).add(b)
        out.setdefault(b, set()).add(a)
    return {k: frozenset(v) for k, v in out.items()}


@dataclasses.dataclass(frozen=True)
class PathAnswer:
    """A path found (``path``, start first) or why there is none (``reason``, ``blockers``)."""

    path: tuple[Hex, ...] | None
    reason: str = ""
    blockers: tuple[Hex, ...] = ()

    def labels(self, ctx: Context) -> list[str]:
        return [ctx.label(h) for h in self.path or ()]

    def to_dict(self, ctx: Context) -> dict[str, object]:
        if self.path is not None:
            return {"found": True, "hexes": self.labels(ctx)}
        return {"found": False, "reason": self.reason, "blockers": list(ctx.labels(self.blockers))}


def find_path(ctx: Context, start: Hex, targets: Sequence[Hex], cost: Cost, why: Mapping[Hex, str],
              side_reason: str = "behind a blocked hexside") -> PathAnswer:
    """Shortest path from ``start`` to any of ``targets``; if none, the reason and the hexes that block.

    ``why`` says why a hex cannot be on the path; the start and the targets must be allowed too.
    ``side_reason`` names what stops a step into an allowed hex (the cost hook's hexside rules).
    """
    if start in why:
        return PathAnswer(None, f"{ctx.label(start)} itself is {why[start]}", (start,))
    res = multi_source_search(ctx.topology, [start], cost)
    got = [t for t in targets if t in res]
    if got:
        best = min(got, key=lambda t: (res.dist[t], t))
        return PathAnswer(tuple(reversed(res.path(best))))
    bad = [f"{ctx.label(t)} is {why[t]}" for t in targets if t in why]
    if bad:
        return PathAnswer(None, "; ".join(bad), tuple(t for t in targets if t in why))
    edge = frontier(ctx.topology, res)
    kinds = sorted({why.get(h, side_reason) for h in edge})
    return PathAnswer(None, f"every route is cut: {len(res.dist)} hexes reachable, bounded by hexes "
                            f"{', '.join(kinds)}", tuple(sorted(edge)))


def frontier(topology: Topology, res: SearchResult) -> set[Hex]:
    """Hexes just outside the reached region (the ones that stopped the search)."""
    adj = topology.neighbours
    return {n for h in res.dist for n in adj[h] if n not in res.dist}


# --- control and victory (item 7) --------------------------------------------------------------------
#: ``Position.extra`` key of the hexes' control a log has seen (hex -> the side that last entered it)
CONTROL = "control"


def control_of(rules: BoundRules, ctx: Context, h: Hex) -> str | None:
    """The side controlling hex ``h`` (``rules.control``): the side with a unit in it; else, with
    ``by: last-entered``, the side a log (or the position's ``control:``) saw enter it last; else its
    starting owner (None: nobody)."""
    c = rules.data.control
    here = {u.side for u in ctx.by_hex.get(h, ())}
    if len(here) == 1:
        return next(iter(here))
    if c is None:
        return None
    if c.by == "last-entered":
        seen = ctx.position.extra.get(CONTROL)
        if isinstance(seen, Mapping) and h in seen:
            return str(seen[h])
    return c.starting_owner(h)


def record_entries(control: dict[Hex, str], side: str, hexes: Iterable[Hex]) -> None:
    """The log checker's hook for ``by: last-entered``: a unit of ``side`` entered these hexes (its
    path, in order), so ``side`` controls them now. Feed the result to a position as
    ``Position.extra[CONTROL]``."""
    for h in hexes:
        control[h] = side


def control_readers(rules: BoundRules) -> dict[str, StateReader]:
    """The position YAML's ``control: {HEX: side}`` (who last entered each hex), for a game whose
    control is ``by: last-entered``; kept in ``Position.extra[CONTROL]``."""
    c = rules.data.control
    if c is None or c.by != "last-entered":
        return {}
    sides = rules.sides

    def read_control(value: object, labels: Labels, file: str | Path | None, place: str) -> object:
        if not isinstance(value, Mapping):
            raise GazalaError(f"{place} must be a mapping", file=file, place=place,
                              expected="{HEX: side}: the side that last entered each hex")
        out: dict[Hex, str] = {}
        for k, side in value.items():
            try:
                h = labels.parse(str(k))
            except HexNameError as exc:
                raise GazalaError(f"{place}.{k}: {exc.problem}", file=file, place=f"{place}.{k}",
                                  expected=exc.expected) from None
            if side not in sides:
                raise GazalaError(f"{place}.{k}: {side!r} is not a side{did_you_mean(str(side), sides)}",
                                  file=file, place=f"{place}.{k}", expected=" or ".join(sides))
            out[h] = str(side)
        return out

    return {CONTROL: read_control}


def control_writers(rules: BoundRules) -> dict[str, StateWriter]:
    """How ``referee position`` writes ``control:`` back."""
    c = rules.data.control
    if c is None or c.by != "last-entered":
        return {}

    def write_control(value: object, labels: LabelWriter) -> object:
        got = value if isinstance(value, Mapping) else {}
        return {labels.label(h): side for h, side in sorted(got.items(), key=lambda kv: labels.label(kv[0]))}

    return {CONTROL: write_control}


def _holds(rules: BoundRules, ctx: Context, side: str, h: Hex, holds: str, in_supply: bool,
           marked: bool = False) -> bool:
    units = [u for u in ctx.by_hex.get(h, ()) if u.side == side]
    supplied = not in_supply or any(_in_supply(rules, ctx, u, marked) for u in units)
    if holds == "controlled":
        return control_of(rules, ctx, h) == side and (not units or supplied)
    return bool(units) and supplied


def _in_supply(rules: BoundRules, ctx: Context, u: Unit, marked: bool = False) -> bool:
    """In supply as the position traces it; ``marked``: as the unit's markers say (none of the
    ``out`` or ``isolated`` supply role)."""
    if marked:
        return not any(m is not None and u.has(m) for m in (rules.data.supply_marker("out"),
                                                             rules.data.supply_marker("isolated")))
    status = ctx.supply_status
    return status is None or status.get(u.id, SupplyStatus.IN) is SupplyStatus.IN


def units_on(rules: BoundRules, ctx: Context, side: str, hexes: frozenset[Hex], tier: HexScore) -> list[Unit]:
    """``side``'s units on ``hexes`` that meet ``tier`` (in supply if it asks), in the position's order:
    what an award of ``units: N`` counts."""
    return [u for u in ctx.on_map(side) if u.hex in hexes and (not tier.in_supply
                                                               or _in_supply(rules, ctx, u, tier.marked))]


@dataclass
class _Tally:
    """The victory points scored as the position stands: per side, per scenario that ends earlier
    (``scenario`` of an award), every award with its rule, and the findings that say them."""

    rules: BoundRules
    vp: dict[str, int]
    awards: list[dict[str, object]] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    scenarios: dict[str, dict[str, int]] = field(default_factory=dict)

    def award(self, rule: str, side: str, vp: int, what: str, hexes: tuple[str, ...] = (),
              units: tuple[str, ...] = (), scenario: str | None = None) -> None:
        rules = self.rules
        if scenario is None:
            self.vp[side] = self.vp.get(side, 0) + vp
            self.awards.append({"rule": rule, "side": side, "vp": vp, "what": what})
            self.findings.append(Finding(rule, Severity.INFO, f"{side_name(rules, side)} scores {vp} VP: {what}",
                                         hexes=hexes, units=units))
            return
        got = self.scenarios.setdefault(scenario, dict.fromkeys(rules.sides, 0))
        got[side] = got.get(side, 0) + vp
        self.awards.append({"rule": rule, "side": side, "vp": vp, "what": what, "scenario": scenario})
        self.findings.append(Finding(rule, Severity.INFO, f"{side_name(rules, side)} scores {vp} VP at the end of "
                                     f"{_scenario_name(rules, scenario)}: {what}", hexes=hexes, units=units))


def victory(rules: BoundRules, ctx: Context) -> tuple[dict[str, object], list[Finding]]:
    """Victory points as the data's ``victory`` section says: the tally per side (JSON ``vp``: each
    side's total, ``awards``: every award with its rule, ``final``: the game has ended, ``result``
    once it has or a sudden death has come)."""
    v = rules.data.victory
    if v is None:
        return {}, []
    tally = _Tally(rules, {side: 0 for side in rules.sides})
    end = v.end if v.end is not None else (len(rules.turns) - 1 if rules.turns and not rules.turns.open else None)
    final = end is not None and ctx.turn_index is not None and ctx.turn_index >= end
    for ha in v.hexes:
        if ha.at is None or ctx.turn_index == ha.at:
            for side, got, what, hexes, units in hex_awards(rules, ctx, ha):
                tally.award(ha.rule, side, got, what, hexes, units, ha.scenario)
    for ua in v.units:
        _score_units(rules, ctx, v, ua, tally)
    out: dict[str, object] = {**tally.vp, "awards": tally.awards, "final": final}
    if tally.scenarios:
        out["scenarios"] = tally.scenarios
    result = _sudden_death(rules, ctx, v, tally.findings)
    if result is not None:
        out["result"] = result
    elif final:
        out["result"] = _level(rules, v, tally.vp)
        tally.findings.append(Finding(v.levels_rule or v.rule, Severity.INFO, f"the game has ended: {out['result']}"))
    return out, tally.findings


def _score_units(rules: BoundRules, ctx: Context, v: VictoryRules, ua: UnitAward, tally: _Tally) -> None:
    """An award for units gone: each one eliminated scores for its enemies, each one exited the map
    (in the award's boxes) for its own side; a unit whose value is unknown is warned, not scored."""
    unknown: list[str] = []
    for u in sorted(ctx.units(), key=lambda u: u.id):
        if not ua.units.matches(u, rules.names):
            continue
        gone = box_in(u, rules.data.boxes.eliminated) if ua.kind == "eliminated" else box_in(u, ua.boxes)
        if not gone:
            continue
        vp = award_vp(ua, u, rules, v.nationalities)
        if vp is None:
            unknown.append(u.id)
        elif ua.kind == "eliminated":
            for enemy in rules.enemies(u.side):
                tally.award(ua.rule, enemy, vp, f"{u.id} ({side_adjective(rules, u.side)} {u.type}) eliminated",
                            units=(u.id,))
        else:
            tally.award(ua.rule, u.side, vp, f"{u.id} ({u.type}) exited the map ({u.box})", units=(u.id,))
    if unknown:
        what = "nationality" if ua.by_nationality is not None else "printed values"
        tally.findings.append(Finding(ua.rule, Severity.WARNING, f"{what} unknown for {ua.kind} {', '.join(unknown)}: "
                                      "not scored", units=tuple(unknown)))


def _sudden_death(rules: BoundRules, ctx: Context, v: VictoryRules, findings: list[Finding]) -> str | None:
    """The result of the first sudden death whose side holds all its hexes (it wins at once), or None."""
    for sd in v.sudden_death:
        if sd.hexes and all(_holds(rules, ctx, sd.side, h, sd.holds, sd.in_supply) for h in sd.hexes.hexes):
            findings.append(Finding(sd.rule, Severity.INFO, f"sudden death: {side_name(rules, sd.side)} holds "
                                    f"{sd.hexes.text or ', '.join(ctx.labels(sd.hexes.hexes))} "
                                    f"({sd.holds}{' in supply' if sd.in_supply else ''}) and wins at once",
                                    hexes=ctx.labels(sd.hexes.hexes)))
            return f"{side_name(rules, sd.side)} wins by sudden death ({sd.rule})"
    return None


def hex_awards(rules: BoundRules, ctx: Context, ha: HexAward
               ) -> Iterator[tuple[str, int, str, tuple[str, ...], tuple[str, ...]]]:
    """What a hex award scores as the position stands: (side, VP, what, hexes, units) each. Per hex,
    the first tier the side meets; with ``units: N`` once per side, the first tier with enough units."""
    sides = [s for s in rules.sides if ha.sides is None or s in ha.sides]
    if ha.units is not None:
        for side in sides:
            for t in ha.tiers:
                on = units_on(rules, ctx, side, ha.hexes.hexes, t)
                if len(on) >= ha.units:
                    if t.vp:
                        yield (side, t.vp, f"{len(on)} units on {ha.hexes.text or 'the hexes'}"
                               + (" in supply" if t.in_supply else ""),
                               ctx.labels(u.hex for u in on if u.hex), tuple(u.id for u in on))
                    break
        return
    for h in sorted(ha.hexes.hexes, key=ctx.label):
        for side in sides:
            tier = next((t for t in ha.tiers if _holds(rules, ctx, side, h, t.holds, t.in_supply, t.marked)), None)
            if tier is not None and tier.vp:
                how = ("occupied" if tier.holds == "occupied" else "controlled") + (" in supply" if tier.in_supply
                                                                                      else "")
                yield side, tier.vp, f"{_hex_name(ctx, h)} {how}", (ctx.label(h),), ()


def _scenario_name(rules: BoundRules, scenario: str) -> str:
    return next((sc.name for sc in load_scenarios(rules.game) if sc.id == scenario), scenario)


def _level(rules: BoundRules, v: VictoryRules, tally: Mapping[str, int]) -> str:
    side, margin, level = leader_level(v, tally)
    if side is None or level is None:
        return v.draw
    # a table per side names its levels whole ("Axis Decisive"); one table names them for any side
    return f"{level if v.side_levels else side_name(rules, side) + ' ' + level} (by {margin} VP)"


def _hex_name(ctx: Context, h: Hex) -> str:
    places = [p.name for p in ctx.map.places if h in p.hexes]
    return f"{places[0]} ({ctx.label(h)})" if places else ctx.label(h)


def side_name(rules: BoundRules, side: str) -> str:
    try:
        return rules.game.side(side).name
    except KeyError:
        return side


def vp_sentences(rules: BoundRules, vp: Mapping[str, object]) -> list[str]:
    """The generic victory as sentences: the tally per side, each award, the result."""
    v = rules.data.victory
    if v is None or not vp:
        return []
    out = [f"Victory points ({v.rule}): " + ", ".join(f"{side_name(rules, s)} {vp.get(s, 0)}" for s in rules.sides)
           + ("" if vp.get("final") else " (as the position stands)") + "."]
    awards = vp.get("awards")
    for a in awards if isinstance(awards, list) else ():
        at_end = f" at the end of {_scenario_name(rules, str(a['scenario']))}" if "scenario" in a else ""
        out.append(f"{a['rule']}: {side_name(rules, str(a['side']))} {a['vp']} VP{at_end}, {a['what']}.")
    scenarios = vp.get("scenarios")
    for sc, got in scenarios.items() if isinstance(scenarios, Mapping) else ():
        out.append(f"At the end of {_scenario_name(rules, str(sc))}: "
                   + ", ".join(f"{side_name(rules, s)} {n}" for s, n in got.items()) + " VP.")
    if "result" in vp:
        out.append(f"Result: {vp['result']}.")
    return out
