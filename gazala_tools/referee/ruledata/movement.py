"""``movement.yaml``: a game's movement data (phases, what an enemy zone does to a move, exits, units
that may not move, movement points, the sequence of play), read with the rules reader beside the
``rules:`` section it builds on (its types, groups and chart). The moves are judged by
:mod:`gazala_tools.referee.movement`."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from gazala_tools.errors import GameDataError
from gazala_tools.hexes import Hex, Hexside
from gazala_tools.referee.ruledata.filters import UnitFilter
from gazala_tools.referee.ruledata.section import RulesReader, RulesSection
from gazala_tools.referee.terrain import Chart

__all__ = [
    "MOVED_KEYS",
    "MOVEMENT_FILE",
    "POINTS_KEYS",
    "TOP_KEYS",
    "ZOC_EFFECTS",
    "Immobile",
    "MovementRules",
    "Phases",
    "Points",
    "ZocMoves",
    "read_movement",
]

if TYPE_CHECKING:  # pragma: no cover
    from gazala_tools.referee.bound import BoundData
    from gazala_tools.referee.sequence import Sequence

MOVEMENT_FILE = "movement.yaml"
TOP_KEYS = frozenset({"phases", "sequence", "impassable", "enemy-hexes", "cross", "blocked-sides", "enemy-hexsides",
                      "zoc", "exits", "immobile", "points", "notes"})
#: keys of earlier versions and where what they said is now (a folder using one gets exit 2 naming it)
MOVED_KEYS: Mapping[str, str] = {
    "cross": "rules.terrain-effects.hexsides of game.yaml ({KIND: {cost: P, rule, what}}; a path crossing it "
             "'bridges: [KIND]')",
    "enemy-hexsides": "rules.terrain-effects.hexsides of game.yaml ({KIND: {owner: enemy, cost: all, first-step: true, "
                      "rule, what}})",
    "points.terrain": "rules.terrain-effects.terrain of game.yaml ({TERRAIN: cost or {CLASS: cost}})",
    "points.along": "rules.terrain-effects.paths of game.yaml ({PATH: {cost, bridges}})",
    "points.fast": "rules.terrain-effects.classes of game.yaml ({CLASS: {types: [...]}})",
    "points.boxes": "rules.terrain-effects.terrain of game.yaml ({BOX-KIND: {cost: '+N', units}})",
    "points.own-hexsides": "rules.terrain-effects.hexsides of game.yaml ({KIND: {owner: own, cost: N or '+N'}})",
    "points.leave-zone": "zoc.leave of movement.yaml",
    "points.markers": "rules.markers of game.yaml ({MARKER: {movement: 1/2, round: down}}: one list of markers "
                      "for positions, supply and moves)",
    "immobile[].markers": "rules.markers of game.yaml ({MARKER: {move: false}})",
    "zoc.name": "rules.zoc.name of game.yaml (the game's word for the zone, in every message)",
}
ZOC_EFFECTS = frozenset({"rule", "zoc-to-zoc", "stop", "across", "enter", "leave", "leave-at-start"})


@dataclass(frozen=True, slots=True)
class Immobile:
    """Units of ``units`` may not move while they stand in the hex of a plugin marker in ``state``
    (RG 14.1: a breach under construction). A marker that forbids moving is ``rules.markers``'
    ``move: false`` (LF 6.3 Disrupted: :func:`~gazala_tools.referee.statuses.may_move`)."""

    rule: str
    units: UnitFilter
    state: str  #: a state of the plugin's markers (``marker_states_at``), e.g. RG's "under-construction"
    what: str


@dataclass(frozen=True, slots=True)
class Points:
    """Movement points: the rule cited, the counter value that is the allowance, and what changes it."""

    rule: str
    role: str  #: the counter value that is the allowance ("move"; markers' factors: ``rules.markers``)
    #: a unit may always move one hex in a phase, whatever it costs, unless prohibited (LF 3.2)
    minimum_move: str | None = None
    #: a unit placed on the map from a box pays the cost of the hex it enters (LF 8.1); the rule cited
    entry_cost: str | None = None


@dataclass(frozen=True, slots=True)
class ZocMoves:
    """What an enemy zone does to one side's movement (``zoc`` of movement.yaml, per side)."""

    rule: str
    zoc_to_zoc: bool = False  #: no move from one enemy-ZOC hex directly to another (RG 9.0)
    stop: bool = False  #: a unit stops on entering an enemy zone (BG 4.1.2, LF 5.3)
    zone: str = "zoc"  #: "zoc" (the referee's ZOC) or "plugin" (the plugin's ``zones_against``: BG 4.1.2)
    across: frozenset[Hexside] | None = None  #: zoc-to-zoc only across these hexsides (DG 14.2 note)
    enter: float = 0.0  #: more MP to enter an enemy-zone hex
    leave: float = 0.0  #: more MP to leave one (RG 9.0: 2, BG 4.1.2: 1, LF 5.4: 1)
    leave_at_start: bool = False  #: an enemy-zone hex is left only as the first step of the phase

    @property
    def effective(self) -> bool:
        return self.zoc_to_zoc or self.stop or bool(self.enter) or bool(self.leave) or self.leave_at_start


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
    blocked_rule: str | None = None  #: hexsides the rules' ``supply_blocks`` closes (un-breached minefields)
    blocked_what: str = ""
    #: per side, what an enemy zone does to its movement (a side not named: ``zoc_all``)
    zoc_sides: Mapping[str, ZocMoves] = field(default_factory=dict)
    zoc_all: ZocMoves | None = None
    exits_rule: str | None = None
    exits: Mapping[str, frozenset[Hex]] = field(default_factory=dict)
    immobile: tuple[Immobile, ...] = ()
    points: Points | None = None
    notes: tuple[str, ...] = ()
    source: str = ""
    chart: Chart | None = None  #: the game's Terrain Effects Chart (``rules.terrain-effects``)
    sequence: Sequence | None = None  #: the sequence of play (``sequence``: :mod:`.sequence`)

    def zoc_for(self, side: str) -> ZocMoves | None:
        """What an enemy zone does to ``side``'s movement (None: nothing)."""
        got = self.zoc_sides.get(side, self.zoc_all)
        return got if got is not None and got.effective else None

    @property
    def zoc(self) -> ZocMoves | None:
        """The zone rules of every side (the first side's when they differ; for listing)."""
        return self.zoc_all if self.zoc_all is not None else next(iter(self.zoc_sides.values()), None)

    @property
    def empty(self) -> bool:
        return not (self.chart_rows or self.blocked_rule or self.zoc_all or self.zoc_sides or self.exits_rule
                    or self.immobile or self.points)

    @property
    def chart_rows(self) -> bool:
        return self.chart is not None and bool(self.chart.terrain or self.chart.hexsides or self.chart.paths)


def read_movement(rules: BoundData) -> MovementRules:
    from gazala_tools.referee.sequence import read_sequence
    from gazala_tools.yamlnodes import compose

    file = rules.game.data_file(MOVEMENT_FILE)
    enemy = rules.data.enemy_rule if rules.data.stacking is not None else None
    chart = rules.data.chart
    if not file.is_file():
        return MovementRules(enemy_rule=enemy, chart=chart)
    r = RulesReader(rules.game, rules.map, strict=rules.strict, file=file, turns=rules.turns)
    r.unit_types = rules.data.unit_types
    r.groups = dict(rules.data.groups)
    root = RulesSection(r, compose(file, "movement data", GameDataError), "movement", TOP_KEYS)
    for old in ("cross", "enemy-hexsides"):
        if old in root:
            raise root.err(old, "has moved to the Terrain Effects Chart", expected=MOVED_KEYS[old])
    ph = root.sub("phases", frozenset({"rule", "chits", "activations"}))
    phases = Phases(ph.rule("rule", "phases"), frozenset(ph.names("chits")), ph.boolean("activations", False))
    blocked = root.sub("blocked-sides", frozenset({"rule", "what"}))
    zoc_all, zoc_sides = _zoc(root)
    ex = root.sub("exits", frozenset({"rule", "edges"}))
    exits = _exits(ex, r)
    moved = rules.moved_keys
    immobile = tuple(_immobile(s, moved) for s in root.each("immobile", frozenset(
        {"rule", "units", "state", "markers", "what"} | {k.removeprefix("immobile[].") for k in moved
                                                          if k.startswith("immobile[].")})))
    points = _points(root.sub("points", POINTS_KEYS)) if "points" in root else None
    notes = tuple(root.names("notes")) if "notes" in root else ()
    return MovementRules(
        phases=phases,
        impassable_rule=root.text("impassable") if "impassable" in root else None,
        enemy_rule=root.text("enemy-hexes") if "enemy-hexes" in root else enemy,
        blocked_rule=blocked.rule() if blocked else None,
        blocked_what=blocked.text("what", "a closed hexside") if blocked else "",
        zoc_all=zoc_all, zoc_sides=zoc_sides,
        exits_rule=ex.rule() if ex else None, exits=exits, immobile=immobile, points=points,
        notes=notes, source=str(file), chart=chart,
        sequence=read_sequence(root.sub("sequence"), rules, root.node) if "sequence" in root else None,
    )


def _immobile(s: RulesSection, moved: Mapping[str, str]) -> Immobile:
    """``immobile: [{rule, units, state, what}]``: a key that has moved (``immobile[].markers``, or one
    the plugin's ``moved_keys`` names) is exit 2 naming where it went."""
    for key, where in {**moved, "immobile[].markers": MOVED_KEYS["immobile[].markers"]}.items():
        old = key.removeprefix("immobile[].")
        if key.startswith("immobile[].") and old in s:
            raise s.err(old, "has moved", expected=where)
    s.require("state")
    state = s.text("state")
    return Immobile(s.rule(), s.units("units"), state, s.text("what", f"in a hex marked {state}"))


def _zoc(root: RulesSection) -> tuple[ZocMoves | None, dict[str, ZocMoves]]:
    """``zoc: {rule, zone, name, EFFECTS, sides: {side: {rule, EFFECTS}}}``: what an enemy zone does to
    the movement of every side, and of each side named (its keys over the section's)."""
    if "zoc" not in root:
        return None, {}
    z = root.sub("zoc", ZOC_EFFECTS | {"zone", "name", "sides"})
    if "name" in z:
        raise z.err("name", "has moved", expected=MOVED_KEYS["zoc.name"])
    zone = z.choice("zone", ("zoc", "plugin"), "zoc")
    base = _zoc_effects(z, ZocMoves(z.rule("rule", "zoc"), zone=zone))
    sides = {}
    per = z.sub("sides")
    for side in per.side_keys():
        sides[side] = _zoc_effects(per.sub(side, ZOC_EFFECTS), base)
    return base, sides


def _zoc_effects(s: RulesSection, base: ZocMoves) -> ZocMoves:
    return replace(
        base,
        rule=s.rule("rule", base.rule),
        zoc_to_zoc=s.boolean("zoc-to-zoc", base.zoc_to_zoc),
        stop=s.boolean("stop", base.stop),
        across=s.crossing("across") if "across" in s else base.across,
        enter=_num(s, "enter") if "enter" in s else base.enter,
        leave=_num(s, "leave") if "leave" in s else base.leave,
        leave_at_start=s.boolean("leave-at-start", base.leave_at_start),
    )


def _num(s: RulesSection, key: str) -> float:
    if key not in s:
        return 0.0
    v = s.r.doc.number(s.m[key], s.what(key))
    if not 0 <= v <= 1000:
        raise s.err(key, f"{v:g} is out of range", expected="0..1000")
    return v


def _exits(ex: RulesSection, r: RulesReader) -> dict[str, frozenset[Hex]]:
    """``exits: {rule, edges: {side: [N, E, S, W]}}``: the hexes of the map edges each side exits by."""
    exits: dict[str, frozenset[Hex]] = {}
    if ex:
        edges = ex.sub("edges")
        for side in edges.side_keys():
            names = edges.names(side)
            exits[side] = frozenset().union(*(r.edge(n) for n in names)) if names else frozenset()
    return exits


POINTS_KEYS = frozenset({"rule", "allowance", "markers", "minimum-move", "entry-cost", "terrain", "along", "fast",
                         "boxes", "own-hexsides", "leave-zone"})


def _points(p: RulesSection) -> Points:
    """``points: {rule, allowance, minimum-move, entry-cost}`` (a key that has moved: exit 2 naming where)."""
    for old in ("terrain", "along", "fast", "boxes", "own-hexsides", "leave-zone", "markers"):
        if old in p:
            raise p.err(old, "has moved", expected=MOVED_KEYS[f"points.{old}"])
    p.require("rule")
    return Points(p.rule(), p.text("allowance", "move"),
                  p.rule("minimum-move") if "minimum-move" in p else None,
                  p.rule("entry-cost") if "entry-cost" in p else None)
