"""The generic rules: what the ``rules:`` data of any game says, checked on a position.

Every function here takes the bound rules (``rules.data`` is the typed data of
:mod:`.ruledata`) and a :class:`~gazala_tools.referee.engine.Context`; every finding cites the
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
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from gazala_tools.hexes import Hex, Hexside
from gazala_tools.referee.findings import Finding, Severity
from gazala_tools.referee.movement import movement_rules
from gazala_tools.referee.position import ISOLATED, OUT_OF_SUPPLY, Unit
from gazala_tools.referee.report import MarkerChange, SupplyStatus
from gazala_tools.referee.ruledata import Arrival, SideSupply, StackingRules
from gazala_tools.referee.search import BlockCost, Cost, SearchResult, Topology, multi_source_search
from gazala_tools.referee.units import values_code

if TYPE_CHECKING:  # pragma: no cover
    from gazala_tools.referee.engine import Check, Context, RulesPlugin

__all__ = [
    "MOVES_UNSEEN",
    "NEEDS_BEFORE",
    "PathAnswer",
    "SupplyOutcome",
    "arriving_now",
    "before_rules",
    "box_allowed",
    "box_in",
    "check_enemy_share",
    "check_on_map",
    "check_prohibited",
    "check_reinforcements",
    "check_returns",
    "check_stacking",
    "checks",
    "eliminated",
    "exerts_zoc",
    "find_path",
    "frontier",
    "marker_flow",
    "may_be",
    "may_cross",
    "may_enter",
    "move_rules",
    "moved",
    "obstructed",
    "scheduled",
    "scheduled_formation",
    "side_adjective",
    "side_steps",
    "stack_problems",
    "supplied",
    "supply",
    "supply_search",
    "trace",
    "zoc_projects",
]


@dataclass
class SupplyOutcome:
    status: dict[str, SupplyStatus]
    markers: list[MarkerChange] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    reached: dict[str, SearchResult] = field(default_factory=dict)


def checks(rules: RulesPlugin) -> tuple[Check, ...]:
    """The generic position checks the game's data calls for."""
    d = rules.data
    out: list[Check] = [lambda ctx: check_on_map(rules, ctx), lambda ctx: check_enemy_share(rules, ctx)]
    if d.stacking is not None:
        out.append(lambda ctx: check_stacking(rules, ctx))
    if d.prohibited:
        out.append(lambda ctx: check_prohibited(rules, ctx))
    if d.reinforcements is not None:
        out.append(lambda ctx: check_reinforcements(rules, ctx))
    return tuple(out)


# --- what one position cannot show ------------------------------------------------------------------
#: why a move rule is listed unchecked on a position (with or without ``--before``)
MOVES_UNSEEN = "only moves show it; `gazala referee log` checks them"
#: why a two-position rule is listed unchecked on a position without ``--before``
NEEDS_BEFORE = "needs the earlier position, --before EARLIER"


def move_rules(rules: RulesPlugin) -> tuple[tuple[str, str], ...]:
    """The rules the game's data gives that only a move shows, as ``(rule, what)``: its movement data
    (``movement.yaml``: movement points, ZOC moves, crossings, exits, units that may not move), its
    prohibited hexsides and where its reinforcements enter (checked in a position only on a unit's
    arrival turn with ``at-entry: true``)."""
    m = movement_rules(rules)
    out: list[tuple[str, str]] = []
    if m.points is not None:
        out.append((m.points.rule, f"movement points ({m.points.role} allowance)"))
    if m.zoc is not None:
        if m.zoc.zoc_to_zoc:
            out.append((m.zoc.rule, "no move from one enemy ZOC hex directly to another"
                        + (" across those hexsides" if m.zoc.across is not None else "")))
        if m.zoc.stop:
            out.append((m.zoc.rule, f"a unit stops on entering an enemy {'ZOC' if m.zoc.zone == 'zoc' else 'zone'}"))
    out.extend((c.rule, f"crossing {c.what}") for c in m.crossings)
    out.extend((p.rule, f"crossing {p.what}") for p in rules.data.prohibited if p.cross)
    if m.blocked_rule is not None:
        out.append((m.blocked_rule, f"crossing {m.blocked_what}"))
    if m.mines_rule is not None:
        out.append((m.mines_rule, f"crossing {m.mines_what}"))
    if m.exits_rule is not None:
        out.append((m.exits_rule, "the map edges units exit by"))
    out.extend((i.rule, f"no move while {i.what}") for i in m.immobile)
    r = rules.data.reinforcements
    if r is not None and any(a.enter for a in r.schedule):
        out.append((r.entry_rule, "the entry hexes of reinforcements" + (" (a position shows them on the arrival turn "
                                                                          "only)" if r.at_entry else "")))
    return _unique(out)


def before_rules(rules: RulesPlugin) -> tuple[tuple[str, str], ...]:
    """The rules the data gives that compare two positions (``--before``), as ``(rule, what)``."""
    b = rules.data.boxes
    return ((b.rule, "units that left the map wait two turns in the turn record"),) if b.turn_boxes else ()


def _unique(items: Iterable[tuple[str, str]]) -> tuple[tuple[str, str], ...]:
    return tuple(dict.fromkeys(items))


# --- boxes, enemies, stacking ---------------------------------------------------------------------
def box_in(unit: Unit, names: Iterable[str]) -> bool:
    """Is the unit off the map in one of the boxes ``names`` (lower case)?"""
    return unit.hex is None and (unit.box or "").strip().lower() in names


def box_allowed(rules: RulesPlugin, unit: Unit) -> bool:
    b = rules.data.boxes
    name = (unit.box or "").strip().lower()
    if name in b.all:
        return True
    return b.turn_boxes and rules.turns.is_label(name)


def check_on_map(rules: RulesPlugin, ctx: Context, rule: str | None = None,
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


def check_enemy_share(rules: RulesPlugin, ctx: Context, rule: str | None = None) -> Iterable[Finding]:
    """Enemy units never share a hex."""
    rule = rule or rules.data.enemy_rule
    for h, us in ctx.by_hex.items():
        sides = {u.side for u in us}
        if len(sides) > 1:
            yield Finding(rule, Severity.ERROR,
                          f"enemy units share hex {ctx.label(h)}: " + ", ".join(f"{u.id} ({u.side})" for u in us),
                          units=tuple(sorted(u.id for u in us)), hexes=(ctx.label(h),))


def stack_problems(rules: RulesPlugin, s: StackingRules, units: list[Unit]) -> list[tuple[str, str]]:
    """What is wrong with one side's stack in one hex (the data's ``stacking`` rules): (rule, message)
    pairs, each citing its own sub-rule (``alone-rule``, ``types-rule``, else the stacking rule)."""
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
    if s.limit is not None:
        limit = s.limit.get(side)
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


def side_adjective(rules: RulesPlugin, side: str) -> str:
    """How findings name a side's units ("German"): game.yaml's ``adjective`` (default: the side's id)."""
    try:
        return rules.game.side(side).adjective
    except KeyError:
        return side


def check_stacking(rules: RulesPlugin, ctx: Context) -> Iterable[Finding]:
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
            for rule, msg in stack_problems(rules, s, us):
                yield Finding(rule, Severity.ERROR, f"{ctx.label(h)}: {msg}", units=tuple(sorted(u.id for u in us)),
                              hexes=(ctx.label(h),))


def check_prohibited(rules: RulesPlugin, ctx: Context) -> Iterable[Finding]:
    """Units standing where the data's ``prohibited`` entries say they may not be."""
    for p in rules.data.prohibited:
        if not p.enter:
            continue
        for u in ctx.on_map():
            h = u.hex
            if h is not None and h in p.enter and p.units.matches(u, rules.names):
                yield Finding(p.rule, Severity.ERROR, f"{u.id} ({u.side} {u.type}) is in {p.what} at {ctx.label(h)}",
                              units=(u.id,), hexes=(ctx.label(h),))


def may_enter(rules: RulesPlugin, unit: Unit, h: Hex) -> Finding | None:
    """Why ``unit`` may not enter hex ``h`` (a ``prohibited`` entry), or None (movement hooks)."""
    for p in rules.data.prohibited:
        if h in p.enter and p.units.matches(unit, rules.names):
            return Finding(p.rule, Severity.ERROR, f"{unit.id} may not enter {p.what}", units=(unit.id,))
    return None


def may_cross(rules: RulesPlugin, unit: Unit, a: Hex, b: Hex) -> Finding | None:
    """Why ``unit`` may not step from ``a`` to adjacent ``b`` (a ``prohibited`` crossing or hex), or None."""
    side = Hexside.between(a, b)
    for p in rules.data.prohibited:
        if side in p.cross and p.units.matches(unit, rules.names):
            return Finding(p.rule, Severity.ERROR, f"{unit.id} may not cross {p.what}", units=(unit.id,))
    return may_enter(rules, unit, b)


# --- reinforcements -------------------------------------------------------------------------------
def may_be(rules: RulesPlugin, unit: Unit, arrival: Arrival) -> bool:
    """Could ``unit`` be (one of) the reinforcement(s) of ``arrival``? By id, or by printed values
    (unknown values: maybe)."""
    if arrival.side is not None and unit.side != arrival.side:
        return False
    if unit.id in arrival.units or scheduled_formation(rules, unit, arrival):
        return True
    if arrival.values is None:
        return False
    got = values_code(unit, rules.game)
    return got is None or got == arrival.values


def scheduled_formation(rules: RulesPlugin, unit: Unit, arrival: Arrival) -> bool:
    """Is ``unit`` of a formation the arrival brings in whole ("29 Ind-all units")?"""
    return bool(unit.formation) and any(rules.names.same(unit.formation, f) for f in arrival.formations)


def scheduled(rules: RulesPlugin, unit: Unit, arrival: Arrival) -> bool:
    """Is ``unit`` named by the arrival (its id, or its formation)? Printed values name no unit."""
    return unit.id in arrival.units or scheduled_formation(rules, unit, arrival)


def arriving_now(rules: RulesPlugin, ctx: Context) -> dict[Hex, set[str]]:
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


def check_reinforcements(rules: RulesPlugin, ctx: Context) -> Iterable[Finding]:
    """The data's reinforcement schedule: a scheduled unit (named by id) on the map before its turn
    (error); an entry whose hexes all hold enemy units when reinforcements are due there, or later
    while one may still wait off the map (warning: they may not arrive)."""
    r = rules.data.reinforcements
    if r is None:
        return
    turn = ctx.turn_index
    waiting = [u for u in ctx.units() if box_in(u, rules.data.boxes.reinforcements)]
    blocked: dict[frozenset[Hex], tuple[list[str], list[Arrival]]] = {}
    for a in r.schedule:
        if turn is None:
            continue
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
        if a.turn > turn or not a.enter:
            continue
        side = a.side or next((u.side for u in ctx.units() if scheduled(rules, u, a)), None)
        if side is None:
            continue
        if a.turn < turn and not any(may_be(rules, u, a) for u in waiting):
            continue
        enemies = [u.id for h in sorted(a.enter.hexes) for u in ctx.by_hex.get(h, []) if u.side != side]
        if all(any(u.side != side for u in ctx.by_hex.get(h, [])) for h in a.enter.hexes):
            got = blocked.setdefault(a.enter.hexes, ([], []))
            got[0].extend(e for e in enemies if e not in got[0])
            got[1].append(a)
    for hexes, (enemies, arrivals) in blocked.items():
        now = [a for a in arrivals if a.turn == turn] or arrivals
        what = ", ".join(f"{a.what} ({rules.turn_name(a.turn)})" for a in now)
        where = "/".join(ctx.labels(hexes))
        yield Finding(r.entry_rule, Severity.WARNING,
                      f"reinforcement hex {where} is occupied by {', '.join(enemies)}: {what} may not arrive "
                      "until no enemy unit occupies it",
                      units=tuple(enemies), hexes=ctx.labels(hexes))


def check_returns(rules: RulesPlugin, before: Context, after: Context) -> Iterable[Finding]:
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


def _turn_span(rules: RulesPlugin, first: int, last: int) -> str:
    names = [rules.turn_name(i) for i in range(first, last + 1) if rules.turns.open or i < len(rules.turns)]
    return " or ".join(names) if names else "after the last turn"


def _where(ctx: Context, a: Arrival) -> str:
    """An arrival's hexes: their labels, or how the data names them when they are many (map edges)."""
    if len(a.enter.hexes) > 6 and a.enter.text:
        return a.enter.text
    return ", ".join(ctx.labels(a.enter.hexes))


# --- zones of control -----------------------------------------------------------------------------
def exerts_zoc(rules: RulesPlugin, unit: Unit) -> bool:
    z = rules.data.zoc
    return z.exert and not (unit.markers & z.unless_markers) and z.units.matches(unit, rules.names)


def zoc_projects(rules: RulesPlugin, a: Hex, b: Hex) -> bool:
    z = rules.data.zoc
    if b in z.into:
        return False
    ups = z.uphill.get(a)
    if ups is not None and b in ups:
        return False
    side = Hexside.between(a, b)
    return side not in z.sides and side not in rules.map.impassable_sides


# --- supply ---------------------------------------------------------------------------------------
def obstructed(rules: RulesPlugin, ctx: Context, ss: SideSupply) -> dict[Hex, str]:
    """Hexes a ``ss.side`` supply path may not enter, with the reason (the data's ``trace``)."""
    t = ss.trace
    side = ss.side
    why: dict[Hex, str] = {}
    if t.enemy_zoc:
        own = ctx.hexes_of.get(side, set()) if t.friendly_negates_zoc else set()
        why.update({h: "in enemy ZOC" for h in ctx.enemy_zoc(side) if h not in own})
    for h in t.hexes:
        why[h] = "blocked terrain"
    if t.enemy_units:
        why.update({h: "enemy-occupied" for h in ctx.enemy_hexes(side)})
    if t.impassable:
        why.update({h: "impassable" for h in rules.impassable})
    return why


def supply_search(rules: RulesPlugin, ctx: Context, ss: SideSupply,
                  why: Mapping[Hex, str] | None = None) -> SearchResult:
    """One backwards search from all of ``ss.side``'s sources (through its road/trail network when
    the data gives one): the distance of every hex to supply."""
    if why is None:
        why = obstructed(rules, ctx, ss)
    extra_hexes, extra_sides = rules.supply_blocks(ctx, ss.side)
    blocked = set(why) | extra_hexes
    sides = ss.trace.sides | extra_sides | (rules.map.impassable_sides if ss.trace.impassable else frozenset())
    sources = [h for h in ss.sources.hexes if h not in blocked]
    if ss.network is not None:  # the sources on the network, and the network hexes joined to them
        network = ss.network - sides
        sources = [h for h in sources if h in ss.network_hexes]

        def along(a: Hex, b: Hex) -> int | None:
            return 1 if b not in blocked and Hexside.between(a, b) in network else None

        sources = list(multi_source_search(rules.topology, sources, along).dist)
    cost = BlockCost(rules.topology, hexes=blocked, sides=sides)
    return multi_source_search(rules.topology, sources, cost, reverse=True)


def supplied(ss: SideSupply, res: SearchResult, h: Hex) -> bool:
    d = res.distance(h)
    return d is not None and (ss.trace.max_length is None or d <= ss.trace.max_length)


def supply(rules: RulesPlugin, ctx: Context) -> SupplyOutcome | None:
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
                                        f"{side} units are automatically supplied through "
                                        f"{rules.turn_name(ss.automatic_through)} (now {rules.turn_name(ctx.turn_index)})"))
            continue
        res = supply_search(rules, ctx, ss)
        out.reached[side] = res
        for u in units:
            if u.hex is None or u.hex not in ctx.topology:  # off the map: in supply (RG 8.3; reinforcements not yet arrived)
                out.status[u.id] = SupplyStatus.IN
                continue
            ok = supplied(ss, res, u.hex)
            if data.markers:
                _marker_status(out, ctx, ss, u, ok)
            else:
                out.status[u.id] = SupplyStatus.IN if ok else SupplyStatus.OUT
                if not ok:
                    out.findings.append(Finding(ss.rule, Severity.WARNING,
                                                f"{u.id} at {ctx.label(u.hex)} is unsupplied: no unobstructed path to "
                                                f"{ss.goal}", units=(u.id,), hexes=(ctx.label(u.hex),)))
    return out


def _marker_status(out: SupplyOutcome, ctx: Context, ss: SideSupply, u: Unit, traced: bool) -> None:
    assert u.hex is not None
    where = ctx.label(u.hex)
    if u.has(OUT_OF_SUPPLY) and u.has(ISOLATED):
        out.findings.append(Finding(ss.rule, Severity.ERROR, f"{u.id} carries both Out of Supply and Isolated",
                                    units=(u.id,), hexes=(where,)))
    status, change = marker_flow(u, traced, ss.rule)
    out.status[u.id] = status
    if change is not None:
        out.markers.append(change)
        what = " and ".join(x for x in (f"remove {change.remove}" if change.remove else "",
                                        f"add {change.add}" if change.add else "") if x)
        out.findings.append(Finding(ss.rule, Severity.WARNING,
                                    f"supply phase: {u.id} at {where} is {status.value} supply: {what}"
                                    if status is SupplyStatus.IN else
                                    f"supply phase: {u.id} at {where} cannot trace supply ({status.value}): {what}",
                                    units=(u.id,), hexes=(where,)))
    elif status is not SupplyStatus.IN:
        out.findings.append(Finding(ss.rule, Severity.INFO, f"{u.id} at {where} stays Isolated",
                                    units=(u.id,), hexes=(where,)))


def trace(ctx: Context, sources: Iterable[Hex], cost: Cost, *, within: Callable[[Hex], bool] | None = None) -> SearchResult:
    """One multi-source search from ``sources``, traced from a unit towards them (reverse)."""
    return multi_source_search(ctx.topology, sources, cost, reverse=True, within=within)


def marker_flow(unit: Unit, traced: bool, rule: str) -> tuple[SupplyStatus, MarkerChange | None]:
    """The Out of Supply -> Isolated marker flow of the supply phase (RG 5.0 and its family).

    Traced: in supply, any marker removed. Not traced: Out of Supply, or Isolated if the unit was
    already Out of Supply (or Isolated).
    """
    had_out, had_iso = unit.has(OUT_OF_SUPPLY), unit.has(ISOLATED)
    if traced:
        if had_iso:
            return SupplyStatus.IN, MarkerChange(unit.id, remove=ISOLATED, rule=rule)
        if had_out:
            return SupplyStatus.IN, MarkerChange(unit.id, remove=OUT_OF_SUPPLY, rule=rule)
        return SupplyStatus.IN, None
    if had_iso:  # an Out of Supply marker beside the Isolated one goes: the unit is now Isolated
        return SupplyStatus.ISOLATED, (MarkerChange(unit.id, remove=OUT_OF_SUPPLY, rule=rule) if had_out else None)
    if had_out:
        return SupplyStatus.ISOLATED, MarkerChange(unit.id, add=ISOLATED, remove=OUT_OF_SUPPLY, rule=rule)
    return SupplyStatus.OUT, MarkerChange(unit.id, add=OUT_OF_SUPPLY, rule=rule)


# --- helpers for plugins --------------------------------------------------------------------------
def eliminated(rules: RulesPlugin, ctx: Context, side: str) -> list[Unit]:
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
