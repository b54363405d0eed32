"""Gazala: The Cauldron (Revolution Games, 2nd edition): the rule hooks data cannot say.

Section numbers are the rulebook's (``../shared/seeds/000_...txt``). Interpretations of ambiguous
wording are marked ``Interpretation:`` here and listed in ``docs/referee.md``.

Every fact comes from the game's data: the generic rules (10.0 stacking, 8.3 boxes, 8.1
prohibited zone, 9.0 ZOC, 5.0 supply) and this plugin's own keys of ``rules:`` in
``mapdata/gazala-rg/game.yaml`` (``restricted-area`` 8.2, ``activations`` 7.0, ``minefields``
14.0/14.1, ``loc`` 14.2, ``victory`` 16.0, ``scenario-vp`` 17.0); the map gives the zones, the
minefield boxes with ``owner`` and ``active_from``, the fortified boxes, escarpments and roads.
What is code here: the breach outcomes of 14.1, the LOC search of 14.2 and the 7.0 limits.

The plugin owns its position state (``Position.extra``): the breach markers (14.1: a position
YAML's ``breaches``, a save's ``Breach`` pieces), the activations of the turn (7.0: ``activations``)
and, from the counter manifest, which units are restricted (8.2); its report section is the LOC of
14.2 (:class:`LocReport`, JSON ``loc``).
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Final

from gazala_tools.errors import GameDataError, GazalaError, HexNameError
from gazala_tools.hexes import Direction, Hex, Hexside
from gazala_tools.referee.engine import Check, Context, RulesPlugin
from gazala_tools.referee.findings import Finding, Severity
from gazala_tools.referee.position import (
    ISOLATED,
    OUT_OF_SUPPLY,
    Labels,
    LabelWriter,
    Position,
    StateReader,
    StateWriter,
    Unit,
)
from gazala_tools.referee.report import ReportSection
from gazala_tools.referee.ruledata import HexSet, Section
from gazala_tools.referee.search import BlockCost, SearchResult, multi_source_search
from gazala_tools.referee.units import manifest_units
from gazala_tools.rules import MINEFIELD

if TYPE_CHECKING:  # pragma: no cover
    from gazala_tools.vsav import PieceView

__all__ = [
    "ACTIVATIONS",
    "BREACHES",
    "DOUBLE_MOVE",
    "EXTRA_MOVE",
    "SCENARIO_KEYS",
    "Breach",
    "BreachState",
    "GazalaRG",
    "LocPath",
    "LocReport",
    "Scenario",
    "activations_of",
    "breaches_of",
    "read_activations",
    "read_breaches",
    "write_activations",
    "write_breaches",
]

SCENARIO_KEYS: Final = frozenset({"name", "vp", "boxes"})
BREACHES: Final = "breaches"  #: the position state key of the breach markers (14.1)
ACTIVATIONS: Final = "activations"  #: the position state key of the turn's activations (7.0)


class BreachState(enum.Enum):
    UNDER_CONSTRUCTION = "under-construction"
    BREACHED = "breached"


@dataclass(frozen=True, slots=True)
class Breach:
    """A breach marker (14.1) pointing at a minefield ``hexside``.

    ``through``: the marker sits in the minefield box and marks both the hexside and the one on
    the opposite side of the box. ``at``: the hex the marker stands in, when known (a save).
    """

    hexside: Hexside
    state: BreachState
    through: bool = False
    at: Hex | None = None


def breaches_of(position: Position) -> tuple[Breach, ...]:
    """The position's breach markers (14.1)."""
    got = position.extra.get(BREACHES, ())
    return got if isinstance(got, tuple) else ()


def activations_of(position: Position) -> Mapping[str, int] | None:
    """The times each formation was activated this turn (7.0); None: not given."""
    got = position.extra.get(ACTIVATIONS)
    return got if isinstance(got, Mapping) else None


def read_breaches(value: object, labels: Labels, file: str | Path | None, place: str) -> tuple[Breach, ...] | None:
    """A position YAML's ``breaches``: ``[{hexside: "1217/1316", state: breached, through: true, at: "1316"}]``
    (None: no marker)."""
    raw = value or []
    if not isinstance(raw, list):
        raise GazalaError(f"bad 'breaches' {str(raw)[:40]!r}", file=file, place=place,
                          expected="a list of breach markers, e.g. [{hexside: 0817/0916, state: breached}]")
    return tuple(_read_breach(b, labels, file, f"{place}[{i}]") for i, b in enumerate(raw)) or None


def _read_breach(rb: object, labels: Labels, file: str | Path | None, place: str) -> Breach:
    if not isinstance(rb, Mapping) or "hexside" not in rb:
        raise GazalaError("bad breach", file=file, place=place, expected='{hexside: "1217/1316", state: breached}')
    try:
        side = labels.hexside(str(rb["hexside"]))
    except HexNameError as exc:
        raise GazalaError(exc.problem, file=file, place=place, expected=exc.expected) from None
    try:
        state = BreachState(rb.get("state", "breached"))
    except ValueError:
        raise GazalaError(f"bad breach state {rb.get('state')!r}", file=file, place=place,
                          expected="breached or under-construction") from None
    at = labels.parse(str(rb["at"])) if rb.get("at") is not None else None
    return Breach(hexside=side, state=state, through=bool(rb.get("through", False)), at=at)


def read_activations(value: object, labels: Labels, file: str | Path | None, place: str) -> dict[str, int] | None:
    """A position YAML's ``activations: {21 PZ: 2}`` (None: not given)."""
    if value is None:
        return None
    if not isinstance(value, Mapping) or not all(isinstance(v, int) and v >= 0 for v in value.values()):
        raise GazalaError("bad 'activations'", file=file, expected="a mapping formation -> count >= 0")
    return {str(k): int(v) for k, v in value.items()}


def write_breaches(value: object, labels: LabelWriter) -> list[dict[str, object]] | None:
    breaches = value if isinstance(value, tuple) else ()
    return [
        {"hexside": labels.hexside_label(b.hexside), "state": b.state.value,
         **({"through": True} if b.through else {}), **({"at": labels.label(b.at)} if b.at is not None else {})}
        for b in breaches
    ] or None


def write_activations(value: object, labels: LabelWriter) -> dict[str, object] | None:
    return dict(value) if isinstance(value, Mapping) else None


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


def __getattr__(name: str) -> Any:
    """``TURNS``: the turn record, now ``game.yaml``'s (kept for code that imported it)."""
    if name == "TURNS":
        from gazala_tools.games import find_game

        return find_game("gazala-rg").turns
    raise AttributeError(name)


@dataclass(frozen=True)
class Scenario:
    """17.0: VP at the end of a scenario for each fortified hex the side occupies."""

    id: str
    name: str
    vp: int  #: per hex (when ``boxes`` is empty)
    boxes: Mapping[str, tuple[frozenset[Hex], int]]  #: fortified box -> its hexes and the VP of each


class GazalaRG(RulesPlugin):
    """Gazala: The Cauldron."""

    data_keys: ClassVar[frozenset[str]] = frozenset(
        {"restricted-area", "activations", "minefields", "loc", "victory", "scenario-vp"})

    def read_data(self, data: Section) -> None:
        m = self.map
        ra = data.sub("restricted-area", frozenset({"rule", "formation", "units", "area", "what"}))
        ra.require("rule", "formation", "units", "area")
        self.area_rule = ra.rule()
        self.area_formation = ra.text("formation")
        self.area_units = ra.integer("units", lo=1)
        self.area: HexSet = ra.hexset("area")
        self.area_what = ra.text("what", self.area.text)

        act = data.sub("activations", frozenset({"rule", "max", "first-turns", "once-first-turns", "not-first-turns"}))
        self.act_rule = act.rule("rule", "activations")
        self.act_max = act.integer("max", 2, lo=1)
        self.first_turns = frozenset(act.turns("first-turns"))
        self.once_first = act.names("once-first-turns")
        self.none_first = act.names("not-first-turns")

        mf = data.sub("minefields", frozenset({"rule", "owner", "first-breach", "breaches-per-turn", "breach-counters",
                                               "breach-types"}))
        mf.require("owner", "first-breach")
        self.mf_rule = mf.rule("rule", "minefields")
        self.mf_owner = mf.side("owner")
        self.first_breach = mf.turn("first-breach")
        self.breaches_per_turn = mf.integer("breaches-per-turn", 2, lo=0)
        self.breach_counters = mf.integer("breach-counters", 1000, lo=0)
        self.breach_types = mf.types("breach-types") or frozenset({"infantry"})
        # 14.0: this owner's minefield hexsides with the turn they take effect (None: from the start)
        self.minefields: dict[Hexside, int | None] = {}
        for s in m.feature_sides(MINEFIELD):
            f = m.active_feature(s, MINEFIELD)
            if f is not None and f.owner == self.mf_owner:
                self.minefields[s] = self._active_index(f.active_from)
        self.minefield_boxes: list[tuple[frozenset[Hex], int | None]] = [
            (b.hexes, self._active_index(b.active_from))
            for b in m.boxes
            if b.kind == MINEFIELD and b.owner == self.mf_owner
        ]

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

        vic = data.sub("victory", frozenset({"rule", "side", "north-edge", "occupy"}))
        vic.require("side", "north-edge", "occupy")
        self.vp_rule = vic.rule("rule", "victory")
        self.vp_side = vic.side("side")
        ne = vic.sub("north-edge", frozenset({"hexes", "units", "vp"}))
        self.north_edge = ne.hexset("hexes")
        self.north_units = ne.integer("units", lo=1)
        self.north_vp = ne.integer("vp", 1)
        oc = vic.sub("occupy", frozenset({"hexes", "vp", "key"}))
        self.occupy = oc.hexset("hexes")
        self.occupy_vp = oc.integer("vp", 1)
        self.occupy_key = oc.text("key", self.occupy.text)

        sv = data.sub("scenario-vp", frozenset({"rule", "side", "hexes", "scenarios"}))
        sv.require("side", "hexes", "scenarios")
        self.sc_rule = sv.rule("rule", "scenario")
        self.sc_side = sv.side("side")
        self.fortified = sv.hexset("hexes").hexes
        self.scenarios = [self._scenario(sv.sub("scenarios"), k) for k in sv.sub("scenarios")]

    def _scenario(self, s: Section, key: str) -> Scenario:
        e = s.sub(key, SCENARIO_KEYS)
        boxes: dict[str, tuple[frozenset[Hex], int]] = {}
        bx = e.sub("boxes")
        for name in bx:
            hexes = bx.key_hexes("boxes", name)
            boxes[name] = (hexes, bx.integer(name, lo=0))
        if not boxes and "vp" not in e:
            raise e.err(None, "gives no VP", expected="vp (per hex) or boxes (VP per hex of each box)")
        return Scenario(key, e.text("name", key), e.integer("vp", 0), boxes)

    # --- helpers ---------------------------------------------------------------------------------
    def side_name(self, side: str) -> str:
        return self.game.side(side).name

    def _active_index(self, active_from: str | None) -> int | None:
        if active_from is None:
            return None
        idx = self.turn_index(active_from)
        if idx is None:
            raise GameDataError(f"minefield active_from {active_from!r} is not a turn of {self.game.id}",
                                file=self.map.source_dir, expected="a label of the game's turn record")
        return idx

    def minefield_active(self, ctx: Context, start: int | None) -> bool:
        """14.0: a minefield built during the battle has no effect before its turn.

        Interpretation: with no turn given, dated minefields are taken as not yet built.
        """
        if start is None:
            return True
        return ctx.turn_index is not None and ctx.turn_index >= start

    def active_minefield_sides(self, ctx: Context) -> frozenset[Hexside]:
        """Minefield hexsides in force on the position's turn (14.0), computed once per turn."""
        memo: dict[int | None, frozenset[Hexside]] | None = self.__dict__.get("_active_sides")
        if memo is None:
            memo = self.__dict__["_active_sides"] = {}
        got = memo.get(ctx.turn_index)
        if got is None:
            got = memo[ctx.turn_index] = frozenset(
                s for s, start in self.minefields.items() if self.minefield_active(ctx, start))
        return got

    def active_minefield_hexes(self, ctx: Context) -> set[Hex]:
        return self.active_minefield_hexes_at(ctx.position.turn)

    def active_minefield_hexes_at(self, turn: str | None) -> set[Hex]:
        """Minefield box hexes in force on ``turn`` (dated ones only once reached; 14.0)."""
        idx = self.turn_index(turn)
        return {h for hexes, start in self.minefield_boxes
                if start is None or (idx is not None and idx >= start) for h in hexes}

    def minefield_hex_of(self, ctx: Context, side: Hexside, at: Hex | None = None) -> Hex | None:
        """The minefield hex (box) a breached hexside leads into (14.1)."""
        boxes = self.active_minefield_hexes(ctx)
        a, b = side.hexes
        cands = [h for h in (a, b) if h in boxes]
        if len(cands) != 1:
            # no box data, or a side between two boxes: the hex whose opposite side is minefield too
            mf = self.active_minefield_sides(ctx)
            cands = [h for h in (a, b) if _opposite_side(h, side) in mf] or cands
        if len(cands) > 1 and at is not None and at in cands:
            cands = [h for h in cands if h != at] or cands
        return cands[0] if len(cands) == 1 else None

    def breached_sides(self, ctx: Context) -> set[Hexside]:
        """Hexsides a *breached* marker opens: its hexside, and with ``through`` the opposite one."""
        out: set[Hexside] = set()
        for br in breaches_of(ctx.position):
            if br.state is not BreachState.BREACHED:
                continue
            out.add(br.hexside)
            if br.through:
                m = self.minefield_hex_of(ctx, br.hexside, br.at)
                if m is not None:
                    out.add(_opposite_side(m, br.hexside))
        return out

    def breached_hexes(self, ctx: Context) -> set[Hex]:
        """Minefield hexes a *breached* marker leads into (5.0 "minefield hexes ... unless they have
        been breached"): the box hex behind each breached minefield hexside."""
        mf = self.active_minefield_sides(ctx)
        out: set[Hex] = set()
        for br in breaches_of(ctx.position):
            if br.state is BreachState.BREACHED and br.hexside in mf:
                m = self.minefield_hex_of(ctx, br.hexside, br.at)
                if m is not None:
                    out.add(m)
        return out

    def supply_blocks(self, ctx: Context, side: str) -> tuple[frozenset[Hex], frozenset[Hexside]]:
        """5.0, 14.0, 14.2: the owner's enemies may not enter its un-breached minefield hexes (boxes
        and belts, 5.0) nor cross its un-breached minefield hexsides (14.0)."""
        if side == self.mf_owner:
            return frozenset(), frozenset()
        return (frozenset(self.active_minefield_hexes(ctx) - self.breached_hexes(ctx)),
                frozenset(self.active_minefield_sides(ctx) - self.breached_sides(ctx)))

    def trace_cost(self, ctx: Context, side: str) -> BlockCost:
        """5.0 / 14.2 trace cost for ``side``: the data's supply trace (1 per hex; no entering
        enemy-occupied hexes or impassable terrain, no escarpment off a road) and the minefields."""
        ss = self.data.supply.sides[side] if self.data.supply is not None else None
        mine_hexes, mines = self.supply_blocks(ctx, side)
        return BlockCost(
            self.topology,
            hexes=self.impassable | ctx.enemy_hexes(side) | mine_hexes,
            sides=(ss.trace.sides if ss is not None else frozenset()) | mines,
        )

    def turn_rules(self) -> tuple[str, ...]:
        return (*super().turn_rules(), f"{self.mf_rule.split('.')[0]}.0 dated minefields",
                f"{self.mf_rule} breach timing", f"{self.loc_rule} LOC", f"{self.act_rule} first-turn activation limits")

    def move_rules(self) -> tuple[tuple[str, str], ...]:
        return (*super().move_rules(), (self.act_rule, "the units each action chit activates"))

    # --- the plugin's position state ------------------------------------------------------------------
    state_piece_kinds: ClassVar[frozenset[str]] = frozenset({"breach"})

    def state_readers(self) -> Mapping[str, StateReader]:
        return {BREACHES: read_breaches, ACTIVATIONS: read_activations}

    def state_writers(self) -> Mapping[str, StateWriter]:
        return {BREACHES: write_breaches, ACTIVATIONS: write_activations}

    def state_from_pieces(self, pieces: Sequence[tuple[PieceView, Hex]], turn: str | None) -> dict[str, object]:
        """A save's breach markers (14.1): the ``Breach`` layer's level 2 is breached, 1 under
        construction; the marker's facing names the hexside; one in a minefield box marks through it."""
        boxes = self.active_minefield_hexes_at(turn)
        out: list[Breach] = []
        for p, where in pieces:
            state = BreachState.BREACHED if p.layer_level("Breach") == 2 else BreachState.UNDER_CONSTRUCTION
            side = where.side(Direction((p.rotation or 0) % 6))
            out.append(Breach(hexside=side, state=state, through=state is BreachState.BREACHED and where in boxes,
                              at=where))
        return {BREACHES: tuple(out)} if out else {}

    def with_activations(self, position: Position, activations: Mapping[str, int]) -> Position:
        return replace(position, extra={**position.extra, ACTIVATIONS: dict(activations)})

    def marker_states_at(self, position: Position, h: Hex) -> frozenset[str]:
        return frozenset(b.state.value for b in breaches_of(position) if b.at == h)

    # --- hooks -----------------------------------------------------------------------------------
    def checks(self) -> Sequence[Check]:
        return (*super().checks(), self.check_8_2_restricted_area, self.check_14_1_breaches,
                self.check_7_0_activations)

    def restricted_units(self) -> frozenset[str]:
        """Ids of the units printed with a bracketed movement allowance (8.2: the manifest's ``restricted``)."""
        got: frozenset[str] | None = getattr(self, "_restricted", None)
        if got is None:
            got = frozenset(getattr(c, "unit_id", "") or c.id for c in manifest_units(self.game).values()
                            if getattr(c, "restricted", False))
            self._restricted = got
        return got

    def check_8_2_restricted_area(self, ctx: Context) -> Iterable[Finding]:
        """8.2: two units of the 69th Brigade stay in the 0104-0801-north-edge area.

        The two are the units printed with a bracketed movement allowance (``restricted`` in the
        manifest); with no such flag, any two. Interpretation: eliminated or off-map units cannot be
        there, so the requirement is min(2, those units on the map).
        """
        if not self.area:
            return
        units = [u for u in ctx.units() if self.names.same(u.formation, self.area_formation)]
        restricted = self.restricted_units()
        if any(u.id in restricted for u in units):
            units = [u for u in units if u.id in restricted]
        if not units:
            return
        on_map = [u for u in units if u.hex is not None]
        inside = [u for u in on_map if u.hex in self.area]
        need = min(self.area_units, len(on_map))
        if len(inside) < need:
            outside = [u for u in on_map if u.hex not in self.area]
            yield Finding(self.area_rule, Severity.ERROR,
                          f"only {len(inside)} of the {self.area_formation} units are in {self.area_what}; "
                          f"{need} must stay there",
                          units=tuple(u.id for u in outside), hexes=ctx.labels(u.hex for u in outside if u.hex))

    # --- 14.1 breaches ---------------------------------------------------------------------------
    def check_14_1_breaches(self, ctx: Context) -> Iterable[Finding]:
        breaches = breaches_of(ctx.position)
        rule = self.mf_rule
        if not breaches:
            return
        first = self.turn_name(self.first_breach)
        too_early = ctx.turn_index is not None and ctx.turn_index < self.first_breach
        if too_early:
            yield Finding(rule, Severity.ERROR, f"breach markers before the {first} turn",
                          hexes=ctx.labels(h for b in breaches for h in b.hexside.hexes))
        elif ctx.turn_index is not None and ctx.turn_index <= self.first_breach:
            # a breach placed in the first breach turn's Minefield Phase is made at the next turn's (14.1)
            done = [b for b in breaches if b.state is BreachState.BREACHED]
            if done:
                yield Finding(rule, Severity.ERROR,
                              f"breached markers on the {first} turn: a breach started then is made at the "
                              "start of the next turn's Minefield Phase",
                              hexes=ctx.labels(h for b in done for h in b.hexside.hexes))
        if len(breaches) > self.breach_counters:
            yield Finding(rule, Severity.ERROR,
                          f"{len(breaches)} breach markers: the game provides {self.breach_counters}",
                          hexes=ctx.labels(h for b in breaches for h in b.hexside.hexes))
        building = [b for b in breaches if b.state is BreachState.UNDER_CONSTRUCTION]
        if len(building) > self.breaches_per_turn:
            breaker = self.side_name(self.enemy(self.mf_owner))
            yield Finding(rule, Severity.ERROR,
                          f"{len(building)} breaches under construction: the {breaker} may place only "
                          f"{self.breaches_per_turn} a turn",
                          hexes=ctx.labels(h for b in building for h in b.hexside.hexes))
        mf = self.active_minefield_sides(ctx)
        for br in breaches:
            side_label = self.map.grid.hexside_label(br.hexside)
            if br.hexside not in mf:
                yield Finding(rule, Severity.ERROR, f"breach marker at {side_label} points at no (active) minefield hexside",
                              hexes=ctx.labels(br.hexside.hexes))
                continue
            if br.state is BreachState.UNDER_CONSTRUCTION and not too_early:  # no outcome for an illegal marker
                yield from self._breach_outcome(ctx, br, side_label)

    def _breach_outcome(self, ctx: Context, br: Breach, side_label: str) -> Iterable[Finding]:
        rule = self.mf_rule
        owner = self.mf_owner
        breaker = self.enemy(owner)
        m = self.minefield_hex_of(ctx, br.hexside, br.at)
        if m is None:
            yield Finding(rule, Severity.WARNING, f"breach at {side_label}: cannot tell which hex is the minefield box",
                          hexes=ctx.labels(br.hexside.hexes))
            return
        origin = br.hexside.other(m)
        infantry = [u for u in ctx.by_hex.get(origin, []) if u.side == breaker and u.type in self.breach_types]
        if not infantry:
            yield Finding(rule, Severity.WARNING,
                          f"breach under construction at {side_label} but no {self.side_name(breaker)} infantry unit "
                          f"in {ctx.label(origin)}",
                          hexes=(ctx.label(origin),))
        defenders = [u.id for u in ctx.by_hex.get(m, []) if u.side == owner]
        if defenders:
            yield Finding(rule, Severity.INFO,
                          f"breach {side_label} will fail: {self.side_name(owner)} {', '.join(defenders)} in "
                          f"{ctx.label(m)}; the marker is removed",
                          units=tuple(defenders), hexes=(ctx.label(m),))
            return
        far = _opposite_side(m, br.hexside)
        far_label = self.map.grid.hexside_label(far)
        if far in self.active_minefield_sides(ctx):
            beside = [u.id for h in far.hexes for u in ctx.by_hex.get(h, []) if u.side == owner]
            if beside:
                yield Finding(rule, Severity.INFO,
                              f"breach {side_label} will succeed into {ctx.label(m)}; the far side {far_label} stays "
                              f"closed ({self.side_name(owner)} {', '.join(beside)} adjacent)",
                              units=tuple(beside), hexes=ctx.labels((m, *far.hexes)))
                return
            yield Finding(rule, Severity.INFO,
                          f"breach {side_label} will succeed into {ctx.label(m)} and through {far_label} "
                          f"(no {self.side_name(owner)} unit adjacent): place the marker in the box",
                          hexes=ctx.labels((m, *far.hexes)))
            return
        yield Finding(rule, Severity.INFO, f"breach {side_label} will succeed into {ctx.label(m)}", hexes=(ctx.label(m),))

    # --- 7.0 activation limits ---------------------------------------------------------------------
    def check_7_0_activations(self, ctx: Context) -> Iterable[Finding]:
        acts = activations_of(ctx.position)
        if not acts:
            return
        rule = self.act_rule
        first = ctx.turn_index is not None and ctx.turn_index in self.first_turns
        for formation, n in sorted(acts.items()):
            if n > self.act_max:
                yield Finding(rule, Severity.ERROR,
                              f"{formation} activated {n} times: no formation more than {_times(self.act_max)} a turn")
            if first and self.names.any_of(formation, self.once_first) and n > 1:
                yield Finding(rule, Severity.ERROR, f"{formation} activated {n} times on {ctx.position.turn}: only once")
            if first and self.names.any_of(formation, self.none_first) and n > 0:
                yield Finding(rule, Severity.ERROR, f"{formation} may not be activated on {ctx.position.turn}")

    def check_move(self, before: Unit, after: Unit, path: list[Hex] | None, context: Any) -> Iterable[Finding]:
        """7.0 in a log, for each move. Formations barred on the turn (``not-first-turns``) never move,
        whether or not the log shows the chits. When it shows the action chit that began the phase,
        the moving unit belongs to the formation(s) it names, or is accounted for: the chit used to
        activate one unit of any other formation instead (7.0, 15.0 for a reinforcement), an Extra
        Move chit drawn this turn (13.2, one more unit each), or the Double Move chit (any two units).

        Interpretations: a unit of the other side moving during an action is a retreat or an advance
        after combat, not judged here; Extra Move chits are used before the chit's "instead"."""
        rule = self.act_rule
        formation = before.formation or ""
        turn = context.ctx.turn_index
        if turn is not None and turn in self.first_turns and formation and self.names.any_of(formation, self.none_first):
            yield Finding(rule, Severity.ERROR,
                          f"{before.id} of {formation} moves on {self.turn_name(turn)}: no unit of {formation} may be "
                          f"activated then", units=(before.id,), hexes=_at(self, before))
            return
        chit = context.activation
        if chit is None or (chit.side and chit.side != before.side):
            return
        st = context.phase_state.setdefault(rule, {"units": set(), "own": False, "instead": None})
        if before.id in st["units"]:
            return  # already activated in this action
        faces = self._chit_faces(chit.formation)
        named: tuple[str, ...] | None = ()
        if faces is None:  # Double Move: any two units
            named = None
            if len(st["units"]) < 2:
                st["units"].add(before.id)
                return
        else:  # a two-sided chit (Axis): the formation(s) of the face the first unit moved chose
            choice = st.get("face")
            for k, fs in enumerate(faces):
                if (choice is None or choice == k) and formation and any(self.names.same(formation, f) for f in fs):
                    named = fs
                    st["face"] = k
                    break
        if named:
            if st["instead"] is None:
                st["own"] = True
                st["units"].add(before.id)
                return
            yield Finding(rule, Severity.ERROR,
                          f"{before.id} of {formation} moves, but the {chit.formation} chit of this action activated "
                          f"{st['instead']} of another formation instead of its own units",
                          units=(before.id,), hexes=_at(self, before))
            return
        used = context.turn_state.setdefault(rule, {})
        extras = sum(1 for c in context.drawn if c.side == before.side and _is_extra_move(c.name))
        if used.get(before.side, 0) < extras:
            used[before.side] = used.get(before.side, 0) + 1
            st["units"].add(before.id)
            return
        if named is not None and not st["own"] and st["instead"] is None:
            st["instead"] = before.id
            st["units"].add(before.id)
            return
        yield Finding(rule, Severity.ERROR,
                      f"{before.id} ({formation or 'no formation'}) moves in the {chit.formation} action but was not "
                      "activated: not of the formation the chit names, and no Extra Move chit (13.2) nor the action "
                      "chit itself (7.0, 15.0) is left to activate it",
                      units=(before.id,), hexes=_at(self, before))

    def _chit_faces(self, name: str) -> list[tuple[str, ...]] | None:
        """The formations an action chit may activate (7.0), per face: a two-sided chit ("15 PZ / 21 PZ")
        activates the formation of either face, the player's choice; a face naming two formations
        ("Pavia Brescia") activates both. None for the Double Move chit (any two units)."""
        if self.names.same(name, DOUBLE_MOVE):
            return None
        known = self.formations()
        out: list[tuple[str, ...]] = []
        for face in (f.strip() for f in name.split("/")):
            if any(self.names.same(face, f) for f in known):
                out.append((face,))
                continue
            parts = tuple(f for f in known if self.names.key(f) and self.names.key(f) in self.names.key(face))
            out.append(parts or (face,))
        return out

    # --- 14.2 LOC --------------------------------------------------------------------------------
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
        prohibited = self.prohibited
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
        good = [c for c in candidates if len(c[3]) >= need]
        chosen = _choose(good, required, need)
        paths = self._loc_paths(ctx, chosen, west, own_at)
        traced = len(chosen)
        lost = traced < required
        findings: list[Finding] = []
        who = self.side_name(side)
        if lost:
            findings.append(Finding(
                self.loc_rule, Severity.WARNING,
                f"the {who} traces {traced} of the {required} LOC(s) required (each through a different breached "
                f"minefield hex to {need} {who} units): {who} actions are reduced by one this turn",
                hexes=tuple(p.via for p in paths)))
        else:
            findings.append(Finding(self.loc_rule, Severity.INFO,
                                    f"{who} LOC traced via {', '.join(p.via for p in paths)}",
                                    hexes=tuple(p.via for p in paths)))
        return self._loc_report(required, traced, tuple(paths), lost), findings

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

    # --- 16.0 / 17.0 victory points ----------------------------------------------------------------
    def vp(self, ctx: Context) -> tuple[dict[str, object], list[Finding]]:
        """16.0 VP phase and 17.0 scenario VP for the position as it stands.

        Interpretation: "not Out of Supply or Isolated" is read from the markers the units carry
        (supply status is only adjusted in the Supply Phase, 5.0).
        """
        findings: list[Finding] = []
        side, rule = self.vp_side, self.vp_rule
        who = self.side_name(side)
        north = [u for u in ctx.on_map(side) if u.hex in self.north_edge
                 and not u.has(OUT_OF_SUPPLY) and not u.has(ISOLATED)]
        north_vp = self.north_vp if len(north) >= self.north_units else 0
        held_hex = [u for u in ctx.on_map(side) if u.hex in self.occupy]
        hex_vp = self.occupy_vp if held_hex else 0
        if north_vp:
            findings.append(Finding(rule, Severity.INFO,
                                    f"{who} scores {north_vp} VP: {len(north)} in-supply units on north-edge hexes",
                                    units=tuple(u.id for u in north), hexes=ctx.labels(u.hex for u in north if u.hex)))
        if hex_vp:
            findings.append(Finding(rule, Severity.INFO, f"{who} scores {hex_vp} VP: {held_hex[0].id} occupies "
                                    f"{self.occupy_key}",
                                    units=tuple(u.id for u in held_hex), hexes=ctx.labels(self.occupy.hexes)))
        held: dict[str, str] = {}
        for h in sorted(self.fortified, key=ctx.label):
            sides = {u.side for u in ctx.by_hex.get(h, [])}
            if sides:
                held[ctx.label(h)] = next(iter(sides)) if len(sides) == 1 else "contested"
        mine = sorted(k for k, v in held.items() if v == self.sc_side)
        mine_hexes = {self.map.hex(k) for k in mine}
        vp: dict[str, object] = {
            f"{side}_vp_phase": north_vp + hex_vp,
            "north_edge": {"units": [u.id for u in north], "scored": bool(north_vp)},
            self.occupy_key: {"units": [u.id for u in held_hex], "scored": bool(hex_vp)},
            "fortified": held,
        }
        scored: list[str] = []
        for sc in self.scenarios:
            if sc.boxes:
                got = sum(per for hexes, per in sc.boxes.values() for h in hexes if h in mine_hexes)
            else:
                got = sc.vp * len(mine)
            vp[f"{self.sc_side}_{sc.id.replace('-', '_')}"] = got
            scored.append(f"{sc.name} {got} VP")
        if mine:
            findings.append(Finding(self.sc_rule, Severity.INFO,
                                    f"{self.side_name(self.sc_side)}-occupied fortified hexes: {', '.join(mine)} "
                                    f"({', '.join(scored)} at the end of the game)",
                                    hexes=tuple(mine)))
        return vp, findings


    def vp_sentences(self, vp: Mapping[str, object]) -> list[str]:
        who = self.side_name(self.vp_side)
        north, occ = vp.get("north_edge"), vp.get(self.occupy_key)
        out = [f"{who} VP phase ({self.vp_rule}): {vp.get(f'{self.vp_side}_vp_phase', 0)} VP this turn."]
        if isinstance(north, Mapping):
            units = list(north.get("units") or [])
            out.append(f"North map edge: {len(units)} {who} unit(s) not Out of Supply or Isolated"
                       f"{' (' + ', '.join(units) + ')' if units else ''}, {self.north_units} needed: "
                       f"{f'{self.north_vp} VP' if north.get('scored') else 'no VP'}.")
        if isinstance(occ, Mapping):
            units = list(occ.get("units") or [])
            out.append(f"Hex {self.occupy_key}: " + (f"occupied by {', '.join(units)}: {self.occupy_vp} VP." if units
                                                     else f"no {who} unit: no VP."))
        held = vp.get("fortified")
        if isinstance(held, Mapping):
            out.append(f"Fortified hexes occupied ({self.sc_rule}): "
                       + (", ".join(f"{h} {self.side_name(s) if s in self.sides else s}" for h, s in held.items())
                          or "none") + ".")
        for sc in self.scenarios:
            got = vp.get(f"{self.sc_side}_{sc.id.replace('-', '_')}")
            out.append(f"{sc.name}: {got} {self.side_name(self.sc_side)} VP for the fortified hexes occupied "
                       "at the end of the game.")
        return out


DOUBLE_MOVE: Final = "Double Move"  #: 7.0: the Allied chit that activates any two units
EXTRA_MOVE: Final = "extra move"  #: 13.2: the tactical chit that activates one more unit


def _is_extra_move(chit_name: str) -> bool:
    return chit_name.lower().startswith(EXTRA_MOVE)


def _at(rules: RulesPlugin, unit: Unit) -> tuple[str, ...]:
    return (rules.map.label(unit.hex),) if unit.hex is not None else ()


def _times(n: int) -> str:
    return {1: "once", 2: "twice"}.get(n, f"{n} times")


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


def _opposite_side(h: Hex, side: Hexside) -> Hexside:
    """The hexside of ``h`` opposite ``side`` (14.1: the far side of a minefield box)."""
    return h.side(side.direction_from(h).opposite())
