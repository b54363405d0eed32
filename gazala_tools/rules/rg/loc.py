"""Gazala: The Cauldron (RG) 14.2 lines of communication: from the turn the data says, the Axis
traces LOCs through different breached minefield hexes of the 0104-1118 line, each to four Axis
units, or loses an action; the report section ``loc`` (:class:`LocReport`)."""

from __future__ import annotations

from dataclasses import dataclass

from gazala_tools.hexes import Hex
from gazala_tools.referee.context import Context
from gazala_tools.referee.findings import Finding, Severity
from gazala_tools.referee.report import ReportSection
from gazala_tools.referee.ruledata import RulesSection
from gazala_tools.referee.search import BlockCost, SearchResult, multi_source_search
from gazala_tools.rules.rg.minefields import Minefields

__all__ = ["Loc", "LocPath", "LocReport"]


@dataclass(frozen=True)
class LocPath:
    """One traced LOC: the breached hex it passes (``via``), its hexes and the units it reaches."""

    via: str
    hexes: tuple[str, ...]
    units: tuple[str, ...]
    breached: tuple[str, ...] = ()  #: the breached minefield hexes the path passes, in order

    def to_dict(self) -> dict[str, object]:
        return {"via": self.via, "hexes": list(self.hexes), "units": list(self.units), "breached": list(self.breached)}


@dataclass(frozen=True)
class LocReport:
    """14.2 in the report: the LOCs required and traced (a :class:`ReportSection`, JSON ``loc``)."""

    required: int  #: LOCs the turn requires (0, 1 or 2)
    traced: int  #: LOCs traced (at most ``required`` when required > 0)
    paths: tuple[LocPath, ...] = ()
    action_lost: bool = False
    rule: str = "14.2"
    side_name: str = ""  #: who loses an action

    @property
    def title(self) -> str:
        return f"LOC ({self.rule})"

    @property
    def path_kinds(self) -> tuple[str, ...]:
        return ("loc",)

    def to_dict(self) -> dict[str, object]:
        return {
            "required": self.required,
            "traced": self.traced,
            "action_lost": self.action_lost,
            "paths": [p.to_dict() for p in self.paths],
        }

    def _path_text(self, p: LocPath, none: str) -> str:
        return (f"via {p.via}: {' '.join(p.hexes)} ({len(p.units)} units; breached minefield hexes "
                f"{', '.join(p.breached) or none})")

    def text_lines(self) -> list[str]:
        lost = f"  -> {self.side_name} loses an action" if self.action_lost else ""
        return [f"LOC: {self.traced} of {self.required} traced{lost}",
                *(f"  {self._path_text(p, 'none')}" for p in self.paths)]

    def html_parts(self) -> tuple[str, list[str]]:
        lost = f" \u2014 the {self.side_name} loses an action" if self.action_lost else ""
        return f"{self.traced} of {self.required} traced{lost}", [self._path_text(p, "") for p in self.paths]


class Loc(Minefields):
    """14.2 LOC."""

    def read_loc(self, data: RulesSection) -> None:
        loc = data.sub("loc", frozenset({"rule", "side", "units", "required", "from", "zone", "exclude"}))
        loc.require("side", "units", "required", "from", "zone")
        self.loc_rule = loc.rule("rule", "loc")
        self.loc_side = loc.side("side")
        self.loc_units = loc.integer("units", lo=1)
        req = loc.sub("required")
        self.loc_required = sorted(((req.key_turn(k), req.integer(k, lo=0, hi=10)) for k in req),
                                   key=lambda t: t[0])
        self.loc_sources = loc.hexset("from").hexes
        self.prohibited = loc.hexset("zone").hexes
        self.loc_exclude = loc.hexset("exclude").hexes

    def loc_hexes(self, ctx: Context) -> list[Hex]:
        """Breachable minefield hexes of the line 0104-1118 (14.2).

        Interpretation: the minefield hexes that border the Allied Prohibited Movement Zone (the
        8.1 line from 0104 to 1119), without the data's ``exclude`` (1119, which 14.2 leaves out).
        """
        if not self.prohibited:
            return []
        boxes = self.active_minefield_hexes(ctx)
        adj = self.topology.neighbours
        return sorted(
            h for h in boxes
            if h not in self.loc_exclude and h not in self.prohibited and any(n in self.prohibited for n in adj[h])
        )

    def sections(self, ctx: Context) -> tuple[dict[str, ReportSection], list[Finding]]:
        loc, findings = self.loc(ctx)
        return {"loc": loc}, findings

    def loc(self, ctx: Context) -> tuple[LocReport, list[Finding]]:
        """14.2: from the turns the data says, the Axis traces the LOCs required, each through a
        different breached minefield hex to its own units, or loses an action."""
        required = 0
        for start, n in self.loc_required:
            if ctx.turn_reached(start):
                required = n
        if required == 0:
            return self._loc_report(0, 0), []  # before the first LOC turn (or turn unknown): none required
        side = self.loc_side
        if not ctx.on_map(side):  # no Axis unit on the map: no LOC to trace, no action to lose
            return self._loc_report(required, 0), []
        need = self.loc_units
        cost = self.trace_cost(ctx, side)
        # 14.2: "may not cross into a breached minefield hex and then back into the Allied Prohibited
        # Movement Area": the LOC reaches the prohibited hex beside its breached hex without passing
        # any minefield hex (round the south end of the line and back in through another breach is no LOC)
        west_cost = BlockCost(self.topology, hexes=cost.blocked_hexes | self.active_minefield_hexes(ctx), sides=cost.sides)
        # ... and not through enemy units, its first (west-edge) hex included
        west = multi_source_search(self.topology, self.loc_sources - west_cost.blocked_hexes, west_cost)
        own_at: dict[Hex, list[str]] = {}
        for u in ctx.on_map(side):
            assert u.hex is not None
            own_at.setdefault(u.hex, []).append(u.id)
        candidates = self._loc_candidates(ctx, cost, west, own_at)
        good = [c for c in candidates if len(c[3]) >= need]
        chosen = _choose(good, required, need)
        paths = self._loc_paths(ctx, chosen, west, own_at)
        traced = len(chosen)
        lost = traced < required
        return self._loc_report(required, traced, tuple(paths), lost), [self._loc_finding(required, traced, paths)]

    def _loc_candidates(self, ctx: Context, cost: BlockCost, west: SearchResult,
                        own_at: dict[Hex, list[str]]) -> list[tuple[Hex, Hex, SearchResult, frozenset[str]]]:
        """Each breached minefield hex a LOC may pass (14.2): the prohibited hex beside it the trace
        from the west reaches it by, the trace beyond it and the Axis units that reaches; most units first."""
        prohibited = self.prohibited
        adj = self.topology.neighbours
        candidates: list[tuple[Hex, Hex, SearchResult, frozenset[str]]] = []
        for m in self.loc_hexes(ctx):
            entries = [p for p in adj[m] if p in prohibited and p in west and cost(p, m) is not None]
            exits = [e for e in adj[m] if e not in prohibited and cost(m, e) is not None]
            if not entries or not exits:
                continue
            # 14.2: no crossing into the breached hex and back into the prohibited area.
            # ... so the rest of the LOC stays out of it (and does not come back through m)
            beyond = BlockCost(self.topology, hexes=cost.blocked_hexes | prohibited | {m}, sides=cost.sides)
            east = multi_source_search(self.topology, exits, beyond)
            units = frozenset(uid for h in (m, *east.dist) for uid in own_at.get(h, ()))
            entry = min(entries, key=lambda p: (west.distance(p) or 0, p))
            candidates.append((m, entry, east, units))
        candidates.sort(key=lambda c: (-len(c[3]), c[0]))
        return candidates

    def _loc_finding(self, required: int, traced: int, paths: list[LocPath]) -> Finding:
        """14.2 said: the LOCs traced, or an action lost when fewer than required."""
        who = self.side_name(self.loc_side)
        if traced < required:
            return Finding(
                self.loc_rule, Severity.WARNING,
                f"the {who} traces {traced} of the {required} LOC(s) required (each through a different breached "
                f"minefield hex to {self.loc_units} {who} units): {who} actions are reduced by one this turn",
                hexes=tuple(p.via for p in paths))
        return Finding(self.loc_rule, Severity.INFO, f"{who} LOC traced via {', '.join(p.via for p in paths)}",
                       hexes=tuple(p.via for p in paths))

    def _loc_report(self, required: int, traced: int, paths: tuple[LocPath, ...] = (),
                    lost: bool = False) -> LocReport:
        return LocReport(required=required, traced=traced, paths=paths, action_lost=lost, rule=self.loc_rule,
                         side_name=self.side_name(self.loc_side))

    def _loc_paths(self, ctx: Context, chosen: list[tuple[Hex, Hex, SearchResult, frozenset[str]]],
                   west: SearchResult, own_at: dict[Hex, list[str]]) -> list[LocPath]:
        paths: list[LocPath] = []
        taken: set[str] = set()
        others = [c[3] for c in chosen]
        for i, (m, entry, east, units) in enumerate(chosen):
            rest = frozenset().union(*(o for j, o in enumerate(others) if j != i))
            order = sorted(units, key=lambda uid: (uid in rest, uid))  # own units first, shared ones last
            mine = [uid for uid in order if uid not in taken][:self.loc_units]
            taken.update(mine)
            mine_set = set(mine)
            far = [h for h in east.dist if any(uid in mine_set for uid in own_at.get(h, ()))]
            tail: list[Hex] = []
            if far:
                end = max(far, key=lambda h: (east.dist[h], h))
                tail = list(reversed(east.path(end)))
            hexes = [*reversed(west.path(entry)), m, *tail]
            mined = self.active_minefield_hexes(ctx)
            breached = tuple(ctx.label(h) for h in hexes if h in mined)  # all breached: the search avoids the others
            paths.append(LocPath(via=ctx.label(m), hexes=tuple(ctx.label(h) for h in hexes), units=tuple(sorted(mine)),
                                 breached=breached))
            ctx.add_path("loc", f"LOC via {ctx.label(m)} to {len(mine)} units (breached minefield hexes "
                                f"{', '.join(breached)})", hexes, side=self.loc_side)
        return paths


def _choose(good: list[tuple[Hex, Hex, SearchResult, frozenset[str]]], required: int,
            need: int) -> list[tuple[Hex, Hex, SearchResult, frozenset[str]]]:
    """``required`` LOCs through different breached hexes, each to ``need`` distinct units (Hall's
    condition for two: together ``2 * need``); fewer if not possible."""
    if required >= 2:
        for i, a in enumerate(good):
            for b in good[i + 1:]:
                if len(a[3] | b[3]) >= 2 * need:
                    return [a, b]
    return good[:1]
