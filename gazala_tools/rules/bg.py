"""Batalha de Gazala (Portuguese rules): the rule hooks data cannot say.

Section numbers are the rulebook's (``../shared/seeds/001_...txt``); quotations are translated in
``docs/referee-dg-spi-bg.md``. Interpretations are marked ``Interpretation:``.

The facts are data (``mapdata/batalha/game.yaml``, ``rules:``): the generic rules (4.1.1 stacking,
4.1.2 enemy units, 4.0 boxes and the sea inlets armor may not enter) and this plugin's keys:
``engagement`` (4.1.2 armor ignores infantry zones), ``motorized-range`` (4.1), ``recovery``
(7.0), ``objectives`` and ``kills`` (11.2), ``nationalities``; the map gives the places, the
road entries, the minefield hexes and the sea.

Reduced units (7.0) are those below full strength (``Unit.reduced``: steps 1 of 2, the reduced
back of the counter, from a save's Step layer or ``steps: 1`` in a position YAML).
Position extras: ``reduced: [unit ids]`` (a synonym: units on their reduced side, e.g. inline units
whose full strength is not known); ``cleared: [hexes]`` (minefield hexes with a cleared-minefield
marker, 9.3).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from gazala_tools.hexes import Hex
from gazala_tools.referee.engine import Check, Context, RulesPlugin
from gazala_tools.referee.findings import Finding, Severity
from gazala_tools.referee.generic import eliminated
from gazala_tools.referee.position import Unit
from gazala_tools.referee.ruledata import HexSet, Section
from gazala_tools.referee.search import BlockCost, SearchResult, multi_source_search
from gazala_tools.referee.units import nationality as manifest_nationality
from gazala_tools.rules import MINEFIELD

__all__ = ["BatalhaDeGazala", "Kills"]


@dataclass(frozen=True)
class Kills:
    rule: str
    points: int = 0  #: per enemy unit destroyed
    by_nationality: tuple[tuple[str, int], ...] = ()  #: ... or per nationality of the enemy unit


class BatalhaDeGazala(RulesPlugin):
    """Batalha de Gazala."""

    data_keys: ClassVar[frozenset[str]] = frozenset(
        {"engagement", "motorized-range", "recovery", "objectives", "kills", "nationalities"})
    extra_keys: ClassVar[frozenset[str]] = frozenset({"reduced", "cleared", "held"})
    extra_hex_keys: ClassVar[frozenset[str]] = frozenset({"cleared"})

    def read_data(self, data: Section) -> None:
        m = self.map
        en = data.sub("engagement", frozenset({"rule", "armor", "ignores"}))
        self.engaged_rule = en.rule("rule", "engagement")
        self.armor_types = en.types("armor") or frozenset()
        self.ignored_types = en.types("ignores") or frozenset()
        mr = data.sub("motorized-range", frozenset({"rule", "side", "units", "range", "from", "until-held"}))
        mr.require("side", "units", "range", "from")
        self.range_rule = mr.rule("rule", "range")
        self.range_side = mr.side("side")
        self.motorized_types = mr.types("units") or frozenset()
        self.range = mr.integer("range", lo=0)
        self.road_entries = mr.hexset("from").hexes
        self.until_held: HexSet = mr.hexset("until-held")
        rc = data.sub("recovery", frozenset({"rule", "side", "to"}))
        rc.require("side", "to")
        self.recovery_rule = rc.rule("rule", "recovery")
        self.recovery_side = rc.side("side")
        self.recovery_to: HexSet = rc.hexset("to")
        self.recovery = self.recovery_to.hexes
        ob = data.sub("objectives", frozenset({"rule", "taker", "points"}))
        ob.require("taker", "points")
        self.objectives_rule = ob.rule("rule", "objectives")
        self.taker = ob.side("taker")
        pts = ob.sub("points")
        self.objectives = [(name, pts.key_hexes("places", name),
                            pts.integer(name, lo=0)) for name in pts]
        ks = data.sub("kills")
        self.kills: dict[str, Kills] = {}
        for side in ks.side_keys():
            k = ks.sub(side, frozenset({"rule", "points", "by-nationality"}))
            by = k.sub("by-nationality")
            self.kills[side] = Kills(k.rule("rule", self.objectives_rule), k.integer("points", 0),
                                     tuple((n, by.integer(n, lo=0)) for n in by))
        na = data.sub("nationalities")
        self.nationality_rules: list[tuple[str, tuple[str, ...], tuple[str, ...]]] = []
        for key in na:
            e = na.sub(key, frozenset({"formations", "ids"}))
            self.nationality_rules.append((key, tuple(f.lower() for f in e.names("formations")), e.names("ids")))
        self.minefields = m.box_kind_hexes(MINEFIELD)
        self._out_of_range: tuple[Context, list[Unit]] | None = None

    def extra_names(self) -> Mapping[str, Collection[str]]:
        """``held: {Tobruk: axis}``: who holds each objective (11.2 "em seu poder"), as last taken."""
        return {"held": [name for name, _h, _v in self.objectives]}

    # --- unit kinds ----------------------------------------------------------------------------------
    def is_armor(self, unit: Unit) -> bool:
        return unit.type in self.armor_types

    def is_motorized(self, unit: Unit) -> bool:
        return unit.type in self.motorized_types

    def nationality(self, unit: Unit) -> str | None:
        """``"de"``, ``"it"``, ... from the counter manifest, else from the formation or id prefix."""
        got = manifest_nationality(unit, self.game)
        if got is not None:
            return got
        f = unit.formation.lower()
        for key, formations, ids in self.nationality_rules:
            if any(f.startswith(n) for n in formations) or unit.id.startswith(ids):
                return key
        return None

    def move_rules(self) -> tuple[tuple[str, str], ...]:
        return (*super().move_rules(), (self.range_rule, "no move of a motorized unit out of range"))

    # --- legality ------------------------------------------------------------------------------------
    def checks(self) -> Sequence[Check]:
        return (*super().checks(), self.check_4_1_2_engaged, self.check_4_1_motorized_range, self.check_7_0_recovery)

    # --- 4.1.2 engagement zones ----------------------------------------------------------------------
    def zones_against(self, ctx: Context, mover_side: str, *, armor: bool) -> set[Hex]:
        """Hexes in the engagement zone of ``mover_side``'s enemies, as a mover sees them.

        4.1.2 note: armor ignores the engagement zones of infantry units entirely.
        """
        enemies = self.enemies(mover_side)
        zoc: dict[Hex, list[str]] = ctx.zoc(enemies[0]) if len(enemies) == 1 else {}
        for enemy in enemies if len(enemies) > 1 else ():
            for h, ids in ctx.zoc(enemy).items():
                zoc.setdefault(h, []).extend(ids)
        if not armor:
            return set(zoc)
        ignored = {u.id for u in ctx.units() if u.side != mover_side and u.type in self.ignored_types}
        return {h for h, ids in zoc.items() if any(uid not in ignored for uid in ids)}

    def check_4_1_2_engaged(self, ctx: Context) -> Iterable[Finding]:
        """5.0 / 4.1.2: units adjacent to enemy units are engaged (combat, disengage or dominant terrain)."""
        engaged = [u for u in ctx.on_map() if u.hex in ctx.enemy_zoc(u.side)]
        if engaged:
            yield Finding(self.engaged_rule, Severity.INFO,
                          f"{len(engaged)} unit(s) engaged (in an enemy engagement zone): "
                          + ", ".join(u.id for u in engaged),
                          units=tuple(u.id for u in engaged), hexes=ctx.labels(u.hex for u in engaged if u.hex))

    # --- 4.1 Axis motorized range --------------------------------------------------------------------
    def holds(self, ctx: Context, side: str, hexes: Iterable[Hex]) -> bool:
        sides = {u.side for h in hexes for u in ctx.by_hex.get(h, [])}
        return sides == {side}

    def range_search(self, ctx: Context, *, armor: bool) -> SearchResult:
        """4.1: hexes within range of a west-edge road hex by a path free of enemy engagement zones,
        enemy units, minefield hexes and sea.

        Interpretation: the path is the unit's movement, so armor ignores infantry zones (4.1.2) but
        may not cross a sea inlet (terrain chart), and the unit's own hex may be engaged or a minefield
        hex (only the hexes it would cross count).
        """
        side = self.range_side
        no_go: set[Hex] = set()
        if armor:  # the data's prohibited hexes for armor (sea inlets)
            probe = Unit(id="", side=side, type=next(iter(sorted(self.armor_types)), "armor"))
            for p in self.data.prohibited:
                if p.units.matches(probe, self.names):
                    no_go |= p.enter.hexes
        blocked = (self.zones_against(ctx, side, armor=armor) | ctx.enemy_hexes(side)
                   | self.minefield_hexes(ctx) | self.impassable | no_go)
        cost = BlockCost(self.topology, hexes=blocked)
        return multi_source_search(self.topology, [h for h in self.road_entries if h not in blocked], cost,
                                   reverse=True)

    def minefield_hexes(self, ctx: Context) -> frozenset[Hex]:
        """9.3: minefield hexes without a cleared-minefield marker (``cleared`` hexes are open terrain)."""
        cleared = ctx.position.extra.get("cleared")
        return self.minefields - cleared if isinstance(cleared, frozenset) else self.minefields

    def range_lifted(self, ctx: Context) -> bool:
        """4.1: the range limit lasts "until the Axis takes Tobruk": the Axis has taken it and no
        Allied unit has taken it back (possession, :meth:`possession`, not occupation now)."""
        if not self.until_held:
            return False
        name = next((n for n, hexes, _v in self.objectives if hexes == self.until_held.hexes), None)
        if name is None:
            return self.holds(ctx, self.range_side, self.until_held.hexes)
        return self.possession(ctx).get(name) == self.range_side

    def out_of_range(self, ctx: Context) -> list[Unit]:
        """4.1: motorized units that cannot move (computed once per position)."""
        if self._out_of_range is not None and self._out_of_range[0] is ctx:
            return self._out_of_range[1]
        # off the map (a hex beyond the grid: the 4.0 error says so) is no range question
        units = [u for u in ctx.on_map(self.range_side) if self.is_motorized(u) and u.hex in self.topology]
        out: list[Unit] = []
        if units and not self.range_lifted(ctx):
            reach = {a: self.range_search(ctx, armor=a) for a in {self.is_armor(u) for u in units}}
            out = [u for u in units if u.hex is not None and not _within(reach[self.is_armor(u)], u.hex, self.range)]
        self._out_of_range = (ctx, out)
        return out

    def check_4_1_motorized_range(self, ctx: Context) -> Iterable[Finding]:
        if self.range_lifted(ctx):
            if any(self.is_motorized(u) for u in ctx.on_map(self.range_side)):
                yield Finding(self.range_rule, Severity.INFO,
                              f"the {self.game.side(self.range_side).name} holds {self.until_held.text}: "
                              "no motorized range limit", hexes=ctx.labels(self.until_held.hexes))
            return
        entries = "/".join(ctx.labels(self.road_entries))
        for u in self.out_of_range(ctx):
            assert u.hex is not None
            yield Finding(self.range_rule, Severity.WARNING,
                          f"motorized {u.id} at {ctx.label(u.hex)} is more than {self.range} hexes from the west-edge "
                          f"road hexes {entries} (by a path free of enemy zones and minefields): it cannot move, "
                          "except to retreat",
                          units=(u.id,), hexes=(ctx.label(u.hex),))

    def check_move(self, before: Unit, after: Unit, path: list[Hex] | None, context: Any) -> Iterable[Finding]:
        """4.1 in a log: a motorized unit beyond the range may not move (except to retreat), nor may a
        move take it beyond the range."""
        if (before.side != self.range_side or not self.is_motorized(before) or before.hex is None
                or after.hex is None):
            return
        ctx = context.ctx
        if self.range_lifted(ctx):
            return
        reach = self.range_search(ctx, armor=self.is_armor(before))
        where = (ctx.label(before.hex), ctx.label(after.hex))
        if not _within(reach, before.hex, self.range):
            yield Finding(self.range_rule, Severity.ERROR, f"motorized {before.id} moves from {where[0]}, more than "
                          f"{self.range} hexes from the west-edge road hexes: it cannot move except to retreat",
                          units=(before.id,), hexes=where)
        elif not _within(reach, after.hex, self.range):
            yield Finding(self.range_rule, Severity.ERROR, f"motorized {before.id} moves to {where[1]}, more than "
                          f"{self.range} hexes from the west-edge road hexes", units=(before.id,), hexes=where)

    # --- 7.0 recovery --------------------------------------------------------------------------------
    def check_7_0_recovery(self, ctx: Context) -> Iterable[Finding]:
        """7.0: a reduced unit of the recovering side that stays disengaged and traces a line free of
        enemy zones to Belhamed or Tobruk flips back. Interpretation: the line is not movement, so
        armor does not ignore infantry zones here; enemy units and sea also cut it."""
        reduced = set(ctx.position.extra.get("reduced") or ()) | {u.id for u in ctx.units() if u.reduced}
        if not reduced:
            return
        side = self.recovery_side
        rule = self.recovery_rule
        zones = ctx.enemy_zoc(side)
        blocked = zones | ctx.enemy_hexes(side) | self.impassable
        line = multi_source_search(self.topology, [h for h in self.recovery if h not in blocked],
                                   BlockCost(self.topology, hexes=blocked), reverse=True)
        who = self.game.side(side).name
        for u in ctx.units():
            if u.id not in reduced or u.hex is None:
                continue
            where = ctx.label(u.hex)
            if u.side != side:
                yield Finding(rule, Severity.INFO, f"{u.id} at {where}: only {who} units recover", units=(u.id,),
                              hexes=(where,))
            elif u.hex in zones:
                yield Finding(rule, Severity.INFO, f"{u.id} at {where} is engaged: no recovery", units=(u.id,),
                              hexes=(where,))
            elif u.hex in line:
                path = [ctx.label(h) for h in line.path(u.hex)]
                ctx.add_path("recovery", f"{rule} recovery line of {u.id}", line.path(u.hex), side=side)
                yield Finding(rule, Severity.WARNING,
                              f"{u.id} at {where} may recover (flip to full strength) if it stays disengaged: line "
                              + "-".join(path), units=(u.id,), hexes=tuple(path))
            else:
                yield Finding(rule, Severity.INFO,
                              f"{u.id} at {where}: no line free of enemy zones to {self.recovery_to.text}",
                              units=(u.id,), hexes=(where,))

    # --- 11.2 objectives and points ------------------------------------------------------------------
    def possession(self, ctx: Context) -> dict[str, str]:
        """11.2 "em seu poder" (in their possession): who holds each objective.

        Interpretation: a side takes an objective by occupying it (its units and no enemy's) and keeps
        it, empty, until the enemy occupies it. Who holds an empty objective comes from the position's
        ``held`` key, else from the ``--before`` position (carried forward), else the Allies, who hold
        every objective at the start (11.1)."""
        given = ctx.position.extra.get("held") or {}
        earlier = self.possession(ctx.before) if ctx.before is not None else {}
        out: dict[str, str] = {}
        for name, hexes, _value in self.objectives:
            if not hexes:
                continue
            sides = {u.side for h in hexes for u in ctx.by_hex.get(h, [])}
            if len(sides) == 1:
                out[name] = next(iter(sides))
            else:
                out[name] = given.get(name) or earlier.get(name) or self.enemy(self.taker)
        return out

    def vp(self, ctx: Context) -> tuple[dict[str, object], list[Finding]]:
        findings: list[Finding] = []
        points = dict.fromkeys(self.sides, 0)
        held: dict[str, str] = {}
        possession = self.possession(ctx)
        for name, hexes, value in self.objectives:
            if not hexes:
                findings.append(Finding(self.objectives_rule, Severity.WARNING, f"the map has no place {name!r}: not scored"))
                continue
            side = possession[name]
            held[name] = side
            points[side] += value
        for side, k in self.kills.items():
            unknown: list[str] = []
            table = dict(k.by_nationality)
            for u in eliminated(self, ctx, self.enemy(side)):
                if not table:
                    points[side] += k.points
                    continue
                nat = self.nationality(u)
                if nat in table:
                    points[side] += table[nat]
                else:
                    unknown.append(u.id)
            if unknown:
                findings.append(Finding(k.rule, Severity.WARNING,
                                        f"nationality unknown for eliminated {', '.join(unknown)}: not scored "
                                        "(use a manifest unit, or a formation of a known nationality)",
                                        units=tuple(unknown)))
        a, b = self.sides[0], self.sides[1]
        ahead = a if points[a] > points[b] else b if points[b] > points[a] else None
        findings.append(Finding(self.objectives_rule, Severity.INFO,
                                f"points {a.capitalize()} {points[a]}, {b.capitalize()} {points[b]}: "
                                + (f"{ahead} ahead" if ahead else "level")
                                + " (objectives: " + ", ".join(f"{n} {s}" for n, s in held.items()) + ")"))
        return {**points, "objectives": held, "ahead": ahead,
                "motorized_out_of_range": [u.id for u in self.out_of_range(ctx)]}, findings


    def vp_sentences(self, vp: Mapping[str, object]) -> list[str]:
        name = {s: self.game.side(s).name for s in self.sides}
        ahead = vp.get("ahead")
        out = [f"Points ({self.objectives_rule}): " + ", ".join(f"{name[s]} {vp.get(s, 0)}" for s in self.sides)
               + (f": {name[str(ahead)]} ahead." if ahead in name else ": level.")]
        held = vp.get("objectives")
        if isinstance(held, Mapping):
            out.append(f"Objectives held ({self.objectives_rule}): "
                       + ", ".join(f"{o} {name.get(str(s), s)}" for o, s in held.items()) + ".")
        far = vp.get("motorized_out_of_range")
        out.append(f"Motorized units out of range ({self.range_rule}): "
                   + (", ".join(map(str, far)) if isinstance(far, list) and far else "none") + ".")
        return out


def _within(res: SearchResult, h: Hex, limit: int) -> bool:
    d = res.distance(h)
    return d is not None and d <= limit
