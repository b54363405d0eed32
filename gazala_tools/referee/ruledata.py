"""The ``rules:`` section of a game's ``game.yaml``, read into typed values (``docs/games.md``, "Rules as data").

One reader for the generic rules every game may state as data (stacking, off-map boxes, where
units may not go, zones of control, supply, reinforcements) and for the keys a rules plugin adds
(:class:`Section` is what a plugin reads its own keys with). Every error names the file, line and
column and the bad value (:mod:`gazala_tools.yamlnodes`), and every name the data gives is
resolved once, here: hex labels on the game's grid, zones, places, boxes and terrain of its map,
turn labels of its turn record, sides of ``game.yaml``.

Strict and lenient maps. Against the game's own map every zone, place, box and terrain name must
exist (a typo is an error, never a silently disabled rule). Rules bound to another map (a test's
small map, a scenario map) take a missing name as "no hexes" and log it.

Pure Python.
"""

from __future__ import annotations

import dataclasses
import logging
import re
import string
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Final, TypeVar

import yaml

from gazala_tools.errors import GameDataError, HexNameError
from gazala_tools.filecache import ObjectCache
from gazala_tools.games.moduleyaml import status_names
from gazala_tools.hexes import Hex, Hexside
from gazala_tools.mapdata.model import GameMap, HexsideKind, PathKind
from gazala_tools.referee.terrain import CHART_KEYS, Chart, read_chart
from gazala_tools.referee.turns import TurnRecord
from gazala_tools.yamlnodes import ID_RE, Doc, compose, did_you_mean

if TYPE_CHECKING:  # pragma: no cover
    from gazala_tools.games.model import Game
    from gazala_tools.referee.position import Unit

log = logging.getLogger(__name__)

T = TypeVar("T")

#: generic keys of the ``rules:`` section (a plugin adds its own ``data_keys``)
GENERIC_KEYS: Final = frozenset({
    "unit-types", "type-groups", "formation-words", "boxes", "stacking", "prohibited", "zoc", "supply",
    "reinforcements", "markers", "control", "victory", "piece-words", "terrain-effects",
})
HEXSET_KEYS: Final = frozenset({"hexes", "zones", "places", "boxes", "box-kinds", "edges", "terrain"})
EDGES: Final = ("N", "E", "S", "W")
TRACE_BLOCKS: Final = ("enemy-units", "enemy-zoc", "impassable")
#: what may block a supply network (``network-blocked-by``): as the trace, or nothing
NETWORK_BLOCKS: Final = TRACE_BLOCKS
#: the marker every unit of a module may show whatever the game (the module builder's ``Used`` layer,
#: a counter's used side up): the one marker the core names
USED: Final = "used"
RULE_RE: Final = re.compile(r"^[^\n]{1,40}$")
MAX_LIST: Final = 10_000


# =================================================================================================
# Typed values
# =================================================================================================
@dataclass(frozen=True, slots=True)
class HexSet:
    """Hexes the data names, resolved on the map, and how the data named them (for messages)."""

    hexes: frozenset[Hex]
    text: str = ""

    def __contains__(self, h: object) -> bool:
        return h in self.hexes

    def __bool__(self) -> bool:
        return bool(self.hexes)


class FormationNames:
    """Formation names compared as the rules print them: ``"69th Bde"`` is ``"69 Inf"`` when the
    game's ``formation-words`` say ``bde`` and ``inf`` are the same word (or no word)."""

    __slots__ = ("_keys", "words")

    def __init__(self, words: Mapping[str, str] | None = None) -> None:
        self.words = dict(words or {})
        self._keys: dict[str, str] = {}

    def key(self, name: str) -> str:
        got = self._keys.get(name)
        if got is None:
            s = re.sub(r"[^a-z0-9]", "", name.lower())
            m = re.fullmatch(r"(\d+)(?:st|nd|rd|th)?([a-z]*)", s)
            if m:
                word = m.group(2)
                got = m.group(1) + self.words.get(word, word)
            else:
                got = self.words.get(s, s)
            if len(self._keys) < 100_000:
                self._keys[name] = got
        return got

    def same(self, a: str, b: str) -> bool:
        return self.key(a) == self.key(b)

    def any_of(self, name: str, names: tuple[str, ...]) -> bool:
        k = self.key(name)
        return any(k == self.key(n) for n in names)


@dataclass(frozen=True, slots=True)
class UnitFilter:
    """Which units a rule is about (None: any). ``formations`` are compared by :class:`FormationNames`."""

    sides: frozenset[str] | None = None
    types: frozenset[str] | None = None
    formations: tuple[str, ...] | None = None
    text: str = "units"

    def matches(self, unit: Unit, names: FormationNames) -> bool:
        if self.sides is not None and unit.side not in self.sides:
            return False
        if self.types is not None and unit.type not in self.types:
            return False
        return self.formations is None or names.any_of(unit.formation, self.formations)


ANY_UNIT: Final = UnitFilter()


@dataclass(frozen=True, slots=True)
class BoxRules:
    """Off-map boxes a unit may stand in (names compared case-insensitively)."""

    rule: str = "on-map"
    allowed: frozenset[str] = frozenset()
    reinforcements: frozenset[str] = frozenset({"reinforcements"})
    eliminated: frozenset[str] = frozenset({"eliminated"})
    exited: frozenset[str] = frozenset()
    turn_boxes: bool = False  #: a box named after a turn of the record (a turn record track)

    @property
    def all(self) -> frozenset[str]:
        return self.allowed | self.reinforcements | self.eliminated | self.exited


@dataclass(frozen=True, slots=True)
class TypeLimit:
    """At most ``limits[side]`` units of ``types`` in one side's stack (a side not named: no limit)."""

    types: frozenset[str]
    name: str
    limits: Mapping[str, int]
    rule: str  #: the rule its findings cite (``types-rule``, else the stacking rule)

    def limit(self, side: str) -> int | None:
        return self.limits.get(side)


@dataclass(frozen=True, slots=True)
class TerrainLimit:
    """A hex of one of these terrains holds ``limits[side]`` (in the stacking unit) instead."""

    terrain: str
    hexes: frozenset[Hex]
    limits: Mapping[str, int]


#: when stacking is judged: at the end of each movement phase (a log), or at every step of one
STACKING_WHEN: Final = ("end-of-movement", "always")


@dataclass(frozen=True, slots=True)
class StackingRules:
    rule: str
    limit: Mapping[str, int] | None  #: units (or points) of a side in one hex, per side (None: no general limit)
    types: tuple[TypeLimit, ...] = ()
    alone: UnitFilter | None = None  #: units no other unit may stack with
    note: str = ""  #: appended to a finding; ``{excess}`` is the number of units too many
    exempt: UnitFilter | None = None  #: units the ``limit`` does not count (HQs, leaders)
    alone_rule: str = ""  #: the rule the ``alone`` finding cites ("" = ``rule``)
    #: stacking points by unit type (``points``; None: the limit counts units); a type not named counts
    #: ``default_points``
    points: Mapping[str, int] | None = None
    default_points: int = 1
    terrain: tuple[TerrainLimit, ...] = ()  #: per-terrain limits (a city holds more)
    when: str = "end-of-movement"

    def points_of(self, unit: Unit) -> int:
        """A unit's stacking points (1 when the limit counts units)."""
        if self.points is None:
            return 1
        return self.points.get(unit.type, self.default_points)

    def limit_at(self, side: str, h: Hex | None) -> int | None:
        """The side's limit in hex ``h``: the largest limit of its terrains (``terrain``), else the
        general one."""
        got = [tl.limits[side] for tl in self.terrain if h in tl.hexes and side in tl.limits]
        if got:
            return max(got)
        return self.limit.get(side) if self.limit is not None else None


@dataclass(frozen=True, slots=True)
class Prohibition:
    """Units of ``units`` may not stand in ``enter`` hexes nor cross ``cross`` hexsides."""

    rule: str
    units: UnitFilter
    enter: HexSet
    cross: frozenset[Hexside]
    what: str


@dataclass(frozen=True, slots=True)
class Marker:
    """A marker (status) of the game's ``rules.markers``, and what it does to the unit carrying it.

    ``name`` is how the game prints it and the module's status layer (a save's ``<name>_Active``).
    Effects: ``movement`` multiplies the movement allowance (rounded ``round``: down, up, nearest);
    ``move: false`` the unit may not move; ``zoc: false`` it exerts no zone of control; ``attack`` /
    ``defense`` factors are reported, not resolved (combat is not refereed); ``supply``: the marker
    the supply phase puts on a unit out of supply (``out``) or isolated (``isolated``); ``excludes``:
    markers a unit may not carry together with this one (cited as ``rule``)."""

    id: str
    name: str
    rule: str = "markers"
    movement: float | None = None
    round: str = "down"
    move: bool = True
    zoc: bool = True
    attack: float | None = None
    defense: float | None = None
    supply: str | None = None
    excludes: frozenset[str] = frozenset()
    key: str | None = None  #: the module's keystroke for the status layer (``Ctrl+O``)
    badge: str | None = None
    color: str | None = None

    def effects(self) -> list[str]:
        """What the marker does, in words (reports, docs)."""
        out: list[str] = []
        if self.movement is not None:
            out.append(f"movement allowance x{_num(self.movement)} (rounded {self.round})")
        if not self.move:
            out.append("may not move")
        if not self.zoc:
            out.append("no zone of control")
        if self.attack is not None:
            out.append(f"attack x{_num(self.attack)}")
        if self.defense is not None:
            out.append(f"defense x{_num(self.defense)}")
        return out


def _num(x: float) -> str:
    return str(int(x)) if x == int(x) else f"{x:g}"


#: ``round:`` of a marker's movement factor
ROUNDING: Final = ("down", "up", "nearest")
#: ``supply:`` roles of a marker in the supply phase's marker flow
SUPPLY_ROLES: Final = ("out", "isolated")


@dataclass(frozen=True, slots=True)
class ZocRules:
    exert: bool = True
    units: UnitFilter = ANY_UNIT  #: the units that exert a ZOC
    sides: frozenset[Hexside] = frozenset()  #: a ZOC does not extend across these hexsides
    uphill: Mapping[Hex, frozenset[Hex]] = field(default_factory=dict)  #: low hex -> high hexes it does not reach
    into: frozenset[Hex] = frozenset()  #: hexes no ZOC extends into
    exempt: UnitFilter | None = None  #: units that exert none (HQs, artillery)
    name: str = ""  #: the game's own name for the zone (messages; "" not given: "zone of control")
    rule: str = "zoc"  #: the rule the zone's findings cite
    #: what a friendly unit standing in an enemy-zone hex negates there: supply, movement (or nothing)
    negated_for: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class Trace:
    """How a side's supply path runs (``docs/games.md``)."""

    enemy_units: bool = True
    enemy_zoc: bool = False
    impassable: bool = True
    friendly_negates_zoc: bool = False
    hexes: frozenset[Hex] = frozenset()  #: hexes the path may not enter
    sides: frozenset[Hexside] = frozenset()  #: hexsides it may not cross
    max_length: int | None = None  #: hexes from the unit to the source (or network), at most
    #: at most this many movement points of ``mp_class`` (the terrain effects chart) instead of hexes
    max_mp: float | None = None
    mp_class: str | None = None
    #: what blocks the network (the part along paths): ``enemy-units``, ``enemy-zoc``, ``impassable``;
    #: None: what blocks the trace
    network_blocks: frozenset[str] | None = None

    def network_blocked_by(self, what: str) -> bool:
        if self.network_blocks is not None:
            return what in self.network_blocks
        return {"enemy-units": self.enemy_units, "enemy-zoc": self.enemy_zoc, "impassable": self.impassable}[what]


@dataclass(frozen=True, slots=True)
class SideSupply:
    side: str
    rule: str
    sources: HexSet
    trace: Trace
    network: frozenset[Hexside] | None = None  #: sources extend along these path hexsides ...
    network_hexes: frozenset[Hex] = frozenset()  #: ... from the sources on these path hexes
    #: with a network: the trace may also end at any source itself (not only at the network)
    direct: bool = False
    #: the side's own units that are sources too (an HQ, a supply truck), where they stand
    source_units: UnitFilter | None = None
    goal: str = "a supply source"
    automatic_through: int | None = None  #: turn index: supplied automatically up to it
    automatic_rule: str = ""


@dataclass(frozen=True, slots=True)
class SupplyRules:
    rule: str
    sides: Mapping[str, SideSupply]
    markers: bool = False  #: Out of Supply -> Isolated marker flow (RG 5.0 family)
    #: the marker flow: isolated in the Nth consecutive supply phase out of supply (2: RG 5.0; 1: at once)
    isolated_after: int = 2
    off_map: str = "reinforcements"  #: which off-map units are in supply: in | reinforcements | none


@dataclass(frozen=True, slots=True)
class Arrival:
    """One line of a reinforcement schedule."""

    turn: int  #: turn index
    enter: HexSet  #: where the unit(s) arrive (empty: the rules do not say)
    units: tuple[str, ...] = ()
    values: str | None = None  #: printed values of the unit(s), e.g. ``"5-4-15"`` (DG 11.1)
    side: str | None = None
    what: str = ""
    formations: tuple[str, ...] = ()  #: every unit of these formations ("29 Ind-all units", RG 15.1)
    rule: str | None = None  #: the section of this line, when not the schedule's (BG 11.1.4)


@dataclass(frozen=True, slots=True)
class ReinforcementRules:
    rule: str
    entry_rule: str
    schedule: tuple[Arrival, ...]
    #: the units arriving in one hex on their turn share it beyond the stacking limit (DG 11.1/11.3:
    #: two reinforcements in 1201 on turn 6 although DG has no stacking); the rule the exception cites
    stack_on_arrival: str | None = None
    #: ``at-entry: true``: a unit on the map on its arrival turn stands in its entry hexes (the rules
    #: let it move no further that turn); false (default): it may have moved on from them
    at_entry: bool = False
    #: what makes an entry hex unusable (``entry-blocked-by``): ``enemy-units``, ``enemy-zoc``
    blocked_by: frozenset[str] = frozenset({"enemy-units"})
    #: when every entry hex is blocked (``when-blocked``): ``wait`` (until one is free), ``delay``
    #: (one turn), ``shift`` (to the nearest free hex of the same edge or entry area)
    when_blocked: str = "wait"


@dataclass(frozen=True, slots=True)
class ControlRules:
    """Who controls a hex (``rules.control``): ``by: occupation`` (the side with a unit in it now) or
    ``by: last-entered`` (the side that last entered it, from a log; a single position falls back on
    occupation); otherwise its starting owner (``start``)."""

    rule: str
    by: str = "occupation"
    start: Mapping[str, frozenset[Hex]] = field(default_factory=dict)

    def starting_owner(self, h: Hex) -> str | None:
        return next((side for side, hexes in self.start.items() if h in hexes), None)


#: how a hex is held for victory points: a unit of the side in it, or control (``rules.control``)
HOLDS: Final = ("occupied", "controlled")


@dataclass(frozen=True, slots=True)
class HexScore:
    """One tier of a hex award: a side scores ``vp`` for each hex it ``holds`` (``occupied`` or
    ``controlled``; ``in_supply``: by a unit in supply)."""

    holds: str
    in_supply: bool
    vp: int
    #: ``in-supply: marked``: in supply as the unit is marked (no marker of the ``out`` or ``isolated``
    #: supply role), not as the position traces it (RG 16.0: supply is adjusted in the Supply Phase only)
    marked: bool = False


@dataclass(frozen=True, slots=True)
class HexAward:
    """Victory points for hexes held: each hex scores the first tier its side meets (10.2: 3 VP for
    an objective occupied in supply, else 1 VP if controlled). ``at``: a turn index (scored from the
    end of that turn on), None: at the end of the game."""

    rule: str
    hexes: HexSet
    tiers: tuple[HexScore, ...]
    sides: frozenset[str] | None = None
    at: int | None = None
    #: ``units: N``: the award scores once per side, when at least N of its units stand on these hexes
    #: together (each meeting the tier), not per hex (RG 16.0: four units on north-edge hexes, 1 VP)
    units: int | None = None
    #: ``scenario: ID`` (of scenarios.yaml): the award counts at the end of that scenario only, tallied
    #: apart per scenario (a position does not say which scenario it is of; RG 17.0)
    scenario: str | None = None


@dataclass(frozen=True, slots=True)
class UnitAward:
    """Victory points per unit: ``eliminated`` (enemy units in an eliminated box score for their
    enemies) or ``exited`` (own units in the ``boxes`` they exit to score for their side)."""

    rule: str
    kind: str  #: eliminated | exited
    units: UnitFilter
    vp: int
    per_step: bool = False
    boxes: frozenset[str] = frozenset()
    #: ``vp: printed``: the unit's printed combat factors (every printed number but its movement allowance)
    printed: bool = False
    #: ``vp-by-nationality``: the VP of a unit by its nationality (``victory.nationalities``); a unit of
    #: another nationality, or of none known, scores nothing (reported)
    by_nationality: Mapping[str, int] | None = None


@dataclass(frozen=True, slots=True)
class SuddenDeath:
    """``side`` wins at once when it holds every hex of ``hexes`` (``holds``, ``in_supply``) at the end
    of any turn."""

    rule: str
    side: str
    hexes: HexSet
    holds: str = "occupied"
    in_supply: bool = False


@dataclass(frozen=True, slots=True)
class VictoryLevel:
    name: str
    margin: int  #: at least this many VP more than the other side


@dataclass(frozen=True, slots=True)
class Nationality:
    """``victory.nationalities``: a nationality key (as the counter manifest's ``nationality``) and how a
    unit the manifest lacks is known to have it: its formation or the start of its id."""

    key: str
    formations: tuple[str, ...] = ()  #: lower case; a unit's formation starting with one of these
    ids: tuple[str, ...] = ()  #: the starts of unit ids


@dataclass(frozen=True, slots=True)
class VictoryRules:
    rule: str
    end: int | None  #: the turn the game ends (its last turn by default)
    hexes: tuple[HexAward, ...] = ()
    units: tuple[UnitAward, ...] = ()
    sudden_death: tuple[SuddenDeath, ...] = ()
    levels: tuple[VictoryLevel, ...] = ()
    draw: str = "draw"
    levels_rule: str = ""
    #: ``levels: {side: [...]}``: each side's own table, used when that side leads (names said whole)
    side_levels: Mapping[str, tuple[VictoryLevel, ...]] = field(default_factory=dict)
    nationalities: tuple[Nationality, ...] = ()


@dataclass(frozen=True, slots=True)
class PieceWords:
    """How a piece of another module (``--mapping``) looks like a unit: its name carries a designation
    (a number, ``5/1``, ``(21``) or one of ``unit`` words, and none of the ``not_unit`` words (the
    game's marker names are among those)."""

    unit: tuple[str, ...] = ()
    not_unit: tuple[str, ...] = ()


@dataclass(frozen=True)
class GenericRules:
    """The generic rules of a game, as data (every field has a no-rule default)."""

    unit_types: frozenset[str] | None = None
    groups: Mapping[str, frozenset[str]] = field(default_factory=dict)
    names: FormationNames = field(default_factory=FormationNames)
    boxes: BoxRules = field(default_factory=BoxRules)
    stacking: StackingRules | None = None
    enemy_rule: str = "stacking"
    prohibited: tuple[Prohibition, ...] = ()
    zoc: ZocRules = field(default_factory=ZocRules)
    supply: SupplyRules | None = None
    reinforcements: ReinforcementRules | None = None
    chart: Chart | None = None  #: the Terrain Effects Chart (``terrain-effects``: :mod:`.terrain`)
    #: the game's markers by id (``rules.markers``; without it the module's status layers and ``used``)
    markers: Mapping[str, Marker] = field(default_factory=dict)
    control: ControlRules | None = None
    victory: VictoryRules | None = None
    #: words of piece names (``--mapping``): a unit's designation, a marker's name
    piece_words: PieceWords = field(default_factory=lambda: PieceWords())

    def marker_names(self) -> tuple[str, ...]:
        return tuple(self.markers)

    def supply_marker(self, role: str) -> str | None:
        """The marker id of a supply role (``out``, ``isolated``), or None."""
        return next((m.id for m in self.markers.values() if m.supply == role), None)


# =================================================================================================
# The reader
# =================================================================================================
class RulesReader:
    """What every :class:`Section` needs: the file, the map, the turns, the sides, strictness."""

    def __init__(self, game: Game, game_map: GameMap, *, strict: bool, file: str | Path,
                 turns: TurnRecord | None = None) -> None:
        self.game = game
        self.map = game_map
        self.strict = strict
        self.doc = Doc(file, GameDataError)
        self.turns = turns if turns is not None else TurnRecord(game.turns)  #: the rules' own (issue 34: one)
        self.sides = tuple(game.side_ids)
        self.unit_types: frozenset[str] | None = None
        self.groups: dict[str, frozenset[str]] = {}
        self.notes: list[str] = []
        self.mentioned_types: set[str] = set()  #: every unit type the rules data names (inline-unit checks)
        self.markers: Mapping[str, Marker] = {}  #: the game's markers (read first: other keys name them)
        self.chart: Chart | None = None  #: the terrain effects chart (supply traces in MP name its classes)

    def mp_class(self, node: yaml.Node, what: str) -> str:
        """A unit class (movement mode) of the game's terrain effects chart, with "did you mean"."""
        text = self.doc.scalar(node, what)
        classes = self.chart.class_names if self.chart is not None else ()
        if text not in classes:
            raise self.doc.err(node, f"{what}: {text!r} is not a unit class of the terrain effects chart"
                               f"{did_you_mean(text, classes)}",
                               expected="one of " + (", ".join(classes) or "none (the game has no chart)"))
        return text

    def edge(self, name: str) -> frozenset[Hex]:
        """The passable hexes of a compass map edge (as a zone's ``edges`` in map.yaml)."""
        return map_edges(self.map).get(name, frozenset())

    def path_kind(self, node: yaml.Node, what: str, text: str | None = None) -> PathKind:
        """A path kind of the map (``path-kinds:`` of map.yaml, or one its paths use): ``node``'s
        text, or ``text`` (a key, ``node`` its value: where an error points)."""
        text = self.doc.scalar(node, what) if text is None else text
        kinds = self.map.path_kind_names()
        if text not in kinds:
            if not self.strict and ID_RE.match(text):
                self.missing(node, "path kind", text, list(kinds))  # another map: no paths of it
            else:
                raise self.doc.err(node, f"{what}: {text!r} is not a path kind of the map{did_you_mean(text, kinds)}",
                                   expected="one of " + (", ".join(kinds) or "none (map.yaml path-kinds)"))
        return PathKind(text)

    def missing(self, node: yaml.Node, what: str, name: str, have: list[str]) -> None:
        """A name the map lacks: an error on the game's own map, nothing (logged) on another map."""
        if self.strict:
            raise self.doc.err(node, f"{what} {name!r} is not on the map of {self.game.id}{did_you_mean(name, have)}",
                               expected=("one of " + ", ".join(have[:30])) if have else f"a {what} of map.yaml")
        note = f"rules data: {what} {name!r} is not on this map; taken as no hexes"
        self.notes.append(note)
        log.info(note)


_EDGES: ObjectCache[dict[str, frozenset[Hex]]] = ObjectCache(maxsize=8)


def map_edges(m: GameMap) -> dict[str, frozenset[Hex]]:
    """The passable hexes of each compass edge of a map, found in one pass (cached per map)."""
    got = _EDGES.get(m)
    if got is not None:
        return got
    edges: dict[str, set[Hex]] = {e: set() for e in EDGES}
    for h in m.hexes():
        on = m.grid.edges(h)
        if on and m.passable(h):
            for e in on:
                edges[e].add(h)
    out = {e: frozenset(hs) for e, hs in edges.items()}
    return _EDGES.put(out, m)


class Section:
    """A mapping of the rules data with typed, validated getters (every error: file:line:col).

    ``Section(reader, node, "rules.supply", allowed_keys)``; a missing section is empty
    (``node=None``). Getters take the key and a default; a key given with a bad value is an error.
    """

    def __init__(self, r: RulesReader, node: yaml.Node | None, path: str,
                 allowed: frozenset[str] | None = None) -> None:
        self.r = r
        self.node = node
        self.path = path
        self.m: dict[str, yaml.Node] = r.doc.mapping(node, path, allowed) if node is not None else {}

    # --- structure -------------------------------------------------------------------------------
    def __contains__(self, key: str) -> bool:
        return key in self.m

    def __bool__(self) -> bool:
        return self.node is not None

    def __iter__(self) -> Iterator[str]:
        """The keys of this mapping, in the file's order."""
        return iter(list(self.m))

    def what(self, key: str) -> str:
        return f"{self.path}.{key}"

    def err(self, key: str | None, problem: str, expected: str | None = None) -> GameDataError:
        node = self.m.get(key, self.node) if key is not None else self.node
        where = self.what(key) if key is not None else self.path
        e = self.r.doc.err(node, f"{where}: {problem}", expected)
        assert isinstance(e, GameDataError)
        return e

    def sub(self, key: str, allowed: frozenset[str] | None = None) -> Section:
        """A nested mapping (empty if the key is missing)."""
        return Section(self.r, self.m.get(key), self.what(key), allowed)

    def require(self, *keys: str) -> None:
        for k in keys:
            if k not in self.m:
                raise self.err(None, f"missing {k!r}", expected=", ".join(keys))

    def each(self, key: str, allowed: frozenset[str] | None = None) -> Iterator[Section]:
        """Each mapping of a list."""
        if key not in self.m:
            return
        items = self.r.doc.seq(self.m[key], self.what(key))
        if len(items) > MAX_LIST:
            raise self.err(key, f"{len(items)} entries", expected=f"at most {MAX_LIST}")
        for i, n in enumerate(items):
            yield Section(self.r, n, f"{self.what(key)}[{i}]", allowed)

    def mapping(self, key: str, value: Callable[[Section, str], T]) -> dict[str, T]:
        """A mapping name -> value; ``value(section, name)`` reads one entry of this mapping."""
        if key not in self.m:
            return {}
        sub = self.sub(key)
        return {k: value(sub, k) for k in sub}

    # --- scalars ---------------------------------------------------------------------------------
    def text(self, key: str, default: str | None = None) -> str:
        if key not in self.m:
            if default is None:
                raise self.err(None, f"missing {key!r}")
            return default
        return self.r.doc.scalar(self.m[key], self.what(key))

    def rule(self, key: str = "rule", default: str | None = None) -> str:
        """A rule section a finding cites (``"10.0"``, ``"stacking"``)."""
        text = self.text(key, default)
        if not RULE_RE.match(text) or not text.strip():
            raise self.err(key, f"{text!r} is not a rule section", expected="a short name like '10.0'")
        return text.strip()

    def integer(self, key: str, default: int | None = None, *, lo: int | None = 0, hi: int | None = 1_000_000) -> int:
        if key not in self.m:
            if default is None:
                raise self.err(None, f"missing {key!r}", expected="an integer")
            return default
        return self.r.doc.integer(self.m[key], self.what(key), lo=lo, hi=hi)

    def opt_integer(self, key: str, *, lo: int | None = 0, hi: int | None = 1_000_000) -> int | None:
        return self.integer(key, lo=lo, hi=hi) if key in self.m else None

    def boolean(self, key: str, default: bool) -> bool:
        return self.r.doc.boolean(self.m[key], self.what(key)) if key in self.m else default

    def choice(self, key: str, options: tuple[str, ...], default: str) -> str:
        return self.r.doc.choice(self.m[key], self.what(key), options) if key in self.m else default

    def names(self, key: str) -> tuple[str, ...]:
        """A list of names (a single name is a list of one)."""
        if key not in self.m:
            return ()
        node = self.m[key]
        if isinstance(node, yaml.ScalarNode):
            return (self.r.doc.scalar(node, self.what(key)),)
        items = self.r.doc.strings(node, self.what(key))
        if len(items) > MAX_LIST:
            raise self.err(key, f"{len(items)} entries", expected=f"at most {MAX_LIST}")
        return items

    # --- game references -------------------------------------------------------------------------
    def side(self, key: str) -> str:
        node = self.m[key]
        return self._side(node, self.what(key))

    def _side(self, node: yaml.Node, what: str) -> str:
        text = self.r.doc.scalar(node, what)
        if text not in self.r.sides:
            raise self.r.doc.err(node, f"{what}: {text!r} is not a side of the game{did_you_mean(text, self.r.sides)}",
                                 expected="one of " + ", ".join(self.r.sides))
        return text

    def sides(self, key: str) -> frozenset[str] | None:
        """A side or list of sides (None if the key is missing)."""
        if key not in self.m:
            return None
        node = self.m[key]
        nodes = [node] if isinstance(node, yaml.ScalarNode) else self.r.doc.seq(node, self.what(key))
        return frozenset(self._side(n, self.what(key)) for n in nodes)

    def side_keys(self) -> list[str]:
        """This mapping's keys, each a side of the game."""
        for k, n in self.m.items():
            if k not in self.r.sides:
                raise self.r.doc.err(self.key_node(k) or n,
                                     f"{self.path}: {k!r} is not a side of the game{did_you_mean(k, self.r.sides)}",
                                     expected="one of " + ", ".join(self.r.sides))
        return list(self.m)

    def key_node(self, key: str) -> yaml.Node | None:
        """The node of a key itself (its place in the file)."""
        if isinstance(self.node, yaml.MappingNode):
            for k, _v in self.node.value:
                if isinstance(k, yaml.ScalarNode) and k.value == key:
                    return k
        return None

    def key_turn(self, key: str) -> int:
        """A key of this mapping read as a turn of the record (``required: {"May 29": 1}``)."""
        return self._turn(self.key_node(key) or self.m[key], f"{self.path} key {key!r}")

    def key_hexes(self, kind: str, key: str) -> frozenset[Hex]:
        """A key of this mapping read as the name of a map ``zones`` / ``places`` / ``boxes`` entry."""
        return self._resolve(kind, self.key_node(key) or self.m[key], self.what(key), key)

    def turn(self, key: str) -> int:
        """A turn of the record (label or game-turn number) as its index."""
        return self._turn(self.m[key], self.what(key))

    def opt_turn(self, key: str) -> int | None:
        return self.turn(key) if key in self.m else None

    def _turn(self, node: yaml.Node, what: str) -> int:
        text = self.r.doc.scalar(node, what)
        idx = self.r.turns.index(text)
        if idx is None:
            known = self.r.turns.labels
            raise self.r.doc.err(node, f"{what}: {text!r} is not a turn of {self.r.game.id}",
                                 expected=("one of " + ", ".join(known[:30])) if known else "a game-turn number >= 1")
        return idx

    def turns(self, key: str) -> tuple[int, ...]:
        if key not in self.m:
            return ()
        node = self.m[key]
        nodes = [node] if isinstance(node, yaml.ScalarNode) else self.r.doc.seq(node, self.what(key))
        return tuple(self._turn(n, self.what(key)) for n in nodes)

    def types(self, key: str) -> frozenset[str] | None:
        """Unit types (a type-group name stands for its types); None if the key is missing."""
        if key not in self.m:
            return None
        node = self.m[key]
        nodes = [node] if isinstance(node, yaml.ScalarNode) else self.r.doc.seq(node, self.what(key))
        out: set[str] = set()
        for n in nodes:
            out |= self.r_type(n, self.what(key))
        return frozenset(out)

    def r_type(self, node: yaml.Node, what: str) -> frozenset[str]:
        text = self.r.doc.scalar(node, what)
        if text in self.r.groups:
            self.r.mentioned_types.update(self.r.groups[text])
            return self.r.groups[text]
        self.r.mentioned_types.add(text)
        known = self.r.unit_types
        if known is not None and text not in known:
            raise self.r.doc.err(node, f"{what}: {text!r} is not a unit type of the game"
                                 f"{did_you_mean(text, known | set(self.r.groups))}",
                                 expected="one of " + ", ".join(sorted(known | set(self.r.groups))))
        if not ID_RE.match(text):
            raise self.r.doc.err(node, f"{what}: {text!r} is not a unit type", expected="a lowercase type like 'armor'")
        return frozenset({text})

    def markers(self, key: str) -> frozenset[str]:
        """Marker ids of the game (``rules.markers``), with "did you mean"."""
        out: set[str] = set()
        known = tuple(self.r.markers)
        for i, n in enumerate(self._nodes(key)):
            text = self.r.doc.scalar(n, f"{self.what(key)}[{i}]")
            if text not in self.r.markers:
                raise self.r.doc.err(n, f"{self.what(key)}[{i}]: {text!r} is not a marker of the game"
                                     f"{did_you_mean(text, known)}",
                                     expected="one of " + (", ".join(known) or "none (rules.markers)"))
            out.add(text)
        return frozenset(out)

    def factor(self, key: str) -> float | None:
        """A factor (``0.5``, ``1/2``, ``2``), None if the key is missing."""
        if key not in self.m:
            return None
        text = self.r.doc.scalar(self.m[key], self.what(key))
        got = _number(text)
        if got is None or not 0 <= got <= 100:
            raise self.err(key, f"{text!r} is not a factor", expected="a number such as 0.5 or 1/2 (0 to 100)")
        return got

    def units(self, key: str) -> UnitFilter:
        """``{sides, types, formations}`` (each optional): the units a rule is about."""
        if key not in self.m:
            return ANY_UNIT
        s = self.sub(key, frozenset({"sides", "types", "formations"}))
        sides, types = s.sides("sides"), s.types("types")
        forms = s.names("formations") if "formations" in s else None
        words = [*(sorted(sides) if sides else []), *(forms or []), *(sorted(types) if types else [])]
        return UnitFilter(sides, types, forms, " ".join(words) + " units" if words else "units")

    def hexside_kinds(self, key: str, *, directed: bool = False, node: yaml.Node | None = None
                      ) -> tuple[HexsideKind, ...]:
        """Hexside kinds the map declares (``hexside-kinds`` of map.yaml); ``directed``: only those
        with an up side; ``node``: the list (default: ``key``'s value in this section)."""
        kinds = self.r.map.hexside_kinds
        options = tuple(k for k, t in kinds.items() if t.directed or not directed)
        out = []
        nodes = self._nodes(key) if node is None else (
            [node] if isinstance(node, yaml.ScalarNode) else self.r.doc.seq(node, self.what(key)))
        for i, n in enumerate(nodes):
            text = self.r.doc.scalar(n, f"{self.what(key)}[{i}]")
            if text not in kinds and not self.r.strict and ID_RE.match(text):
                self.r.missing(n, "hexside kind", text, list(options))  # another map: no hexsides of it
            elif text not in options:
                what = "a directed hexside kind" if directed and text in kinds else "a hexside kind of the map"
                raise self.r.doc.err(n, f"{self.what(key)}[{i}]: {text!r} is not {what}{did_you_mean(text, options)}",
                                     expected="one of " + (", ".join(options) or "none (map.yaml hexside-kinds)"))
            out.append(HexsideKind(text))
        return tuple(out)

    def path_kinds(self, key: str) -> tuple[PathKind, ...]:
        """Path kinds of the map (``path-kinds:`` of map.yaml), with "did you mean"; on another map
        (not strict) a kind it lacks is no path."""
        out = []
        for i, n in enumerate(self._nodes(key)):
            out.append(self.r.path_kind(n, f"{self.what(key)}[{i}]"))
        return tuple(out)

    def _nodes(self, key: str) -> list[yaml.Node]:
        if key not in self.m:
            return []
        node = self.m[key]
        return [node] if isinstance(node, yaml.ScalarNode) else self.r.doc.seq(node, self.what(key))

    def crossing(self, key: str, except_key: str = "except-along") -> frozenset[Hexside]:
        """Hexsides of the ``key`` kinds, without those a path of the ``except_key`` kinds crosses."""
        kinds = self.hexside_kinds(key)
        if not kinds:
            return frozenset()
        m = self.r.map
        sides = frozenset().union(*(m.feature_sides(k) for k in kinds))
        along = self.path_kinds(except_key)
        return sides - m.path_sides(*along) if along else sides

    def hexset(self, key: str) -> HexSet:
        """A hex set: ``{hexes, zones, places, boxes, box-kinds, edges, terrain}`` (a union; ``edges``
        are the passable hexes of those compass map edges, as a zone's ``edges`` in map.yaml;
        ``box-kinds``: the hexes of the map's boxes of those hexside kinds, ``[fortified]``)."""
        if key not in self.m:
            return HexSet(frozenset())
        return self.hexset_of(self.m[key], self.what(key))

    def hexset_of(self, node: yaml.Node, what: str) -> HexSet:
        doc, m = self.r.doc, self.r.map
        spec = doc.mapping(node, what, HEXSET_KEYS)
        out: set[Hex] = set()
        words: list[str] = []
        for key, sub in spec.items():
            w = f"{what}.{key}"
            if key == "box-kinds":
                for kind in self.hexside_kinds(key, node=sub):
                    out |= m.box_kind_hexes(kind)
                    words.append(f"{kind} hexes")
                continue
            nodes = [sub] if isinstance(sub, yaml.ScalarNode) else doc.seq(sub, w)
            if len(nodes) > MAX_LIST:
                raise doc.err(sub, f"{w}: {len(nodes)} entries", expected=f"at most {MAX_LIST}")
            for n in nodes:
                name = doc.scalar(n, w)
                out |= self._resolve(key, n, w, name)
                words.append(name)
        return HexSet(frozenset(out), ", ".join(words))

    def _resolve(self, key: str, node: yaml.Node, what: str, name: str) -> frozenset[Hex]:
        r, m = self.r, self.r.map
        if key == "hexes":
            try:
                h = m.grid.parse(name)
            except HexNameError as exc:
                if not r.strict:  # another map, numbered otherwise
                    r.missing(node, "hex", name, [])
                    return frozenset()
                raise r.doc.err(node, f"{what}: {exc.problem}", expected=exc.expected) from None
            if h not in m.grid:
                if not r.strict:
                    r.missing(node, "hex", name, [])
                    return frozenset()
                raise r.doc.err(node, f"{what}: {name!r} is off the map", expected="a hex of the map")
            return frozenset({h})
        if key == "edges":
            if name not in EDGES:
                raise r.doc.err(node, f"{what}: {name!r} is not a map edge", expected="N, E, S or W")
            return r.edge(name)
        if key == "terrain":  # a terrain type, or a kind of the map's places or boxes (as the chart reads it)
            got = terrain_hexes(m, name)
            if name not in m.terrain_types and not got:
                r.missing(node, "terrain", name, sorted({*m.terrain_types, *(p.kind for p in m.places if p.kind)}))
                return frozenset()
            return got
        try:
            if key == "zones":
                return m.zone(name).hexes
            if key == "places":
                return frozenset(m.place(name).hexes)
            return m.box(name).hexes
        except KeyError:
            have = ([z.name for z in m.zones] if key == "zones" else m.place_names() if key == "places"
                    else [b.name for b in m.boxes])
            r.missing(node, key[:-1] if key != "boxes" else "box", name, have)
            return frozenset()


# =================================================================================================
# Reading the generic rules
# =================================================================================================
def rules_node(game: Game) -> tuple[yaml.Node | None, str | Path]:
    """The ``rules:`` mapping node of a game and the file it is in (as the registry read it, with
    positions; composed again only for a game made without one)."""
    file = game.source_file
    if file is not None and game.rules_node is not None:
        return game.rules_node, file
    if file is not None and Path(file).is_file():
        root = compose(Path(file), "game.yaml", GameDataError)
        if isinstance(root, yaml.MappingNode):
            for k, v in root.value:
                if getattr(k, "value", None) == "rules":
                    return v, file
        return None, file
    if not game.rules:
        return None, "<game.yaml>"
    text = yaml.safe_dump({"rules": dict(game.rules)}, sort_keys=False)
    composed = yaml.compose(text, Loader=yaml.SafeLoader)
    assert isinstance(composed, yaml.MappingNode)
    node: yaml.Node = composed.value[0][1]
    return node, "<game.yaml>"


def read_rules(game: Game, game_map: GameMap, *, strict: bool, plugin_keys: frozenset[str] = frozenset(),
               turns: TurnRecord | None = None) -> tuple[GenericRules, Section]:
    """The generic rules of ``game`` on ``game_map`` and the whole ``rules:`` section (for the
    plugin's own keys, ``plugin_keys``; any other key is an error); ``turns``: the rules' turn record."""
    node, file = rules_node(game)
    r = RulesReader(game, game_map, strict=strict, file=file, turns=turns)
    allowed = GENERIC_KEYS | plugin_keys | {"plugin"}
    root = Section(r, node, "rules", frozenset(allowed))
    return _generic(r, root, plugin_keys), root


def _generic(r: RulesReader, root: Section, plugin_keys: frozenset[str] = frozenset()) -> GenericRules:
    """The generic keys of the section (a key a plugin declares as its own is the plugin's to read)."""
    def sub(key: str, allowed: frozenset[str] | None = None) -> Section:
        return Section(r, None, f"rules.{key}") if key in plugin_keys else root.sub(key, allowed)

    if "unit-types" in root:
        types = root.names("unit-types")
        for i, t in enumerate(types):
            if not ID_RE.match(t):
                raise root.err("unit-types", f"[{i}] {t!r} is not a unit type", expected="lowercase words joined by '-'")
        r.unit_types = frozenset(types)
    elif r.game.unit_types:  # the types game.yaml declares
        r.unit_types = frozenset(r.game.unit_type_ids())
    groups = root.sub("type-groups")
    for name in groups:
        if not ID_RE.match(name):
            raise groups.err(name, f"{name!r} is not a group name", expected="lowercase words joined by '-'")
        got = groups.types(name)
        assert got is not None
        r.groups[name] = got
    if r.unit_types is not None:
        clash = set(r.groups) & r.unit_types
        if clash:
            raise groups.err(sorted(clash)[0], "a group may not be named like a unit type")
    words = root.sub("formation-words")
    names = FormationNames({re.sub(r"[^a-z0-9]", "", k.lower()): re.sub(r"[^a-z0-9]", "", words.text(k).lower())
                            for k in words})
    boxes = _boxes(root.sub("boxes", frozenset({"rule", "allowed", "reinforcements", "eliminated", "exited",
                                                 "turn-boxes"})))
    stacking, enemy_rule = _stacking(root.sub("stacking", STACKING_KEYS))
    chart = read_chart(root.sub("terrain-effects", CHART_KEYS))
    r.chart = chart
    prohibited = tuple(_prohibition(s) for s in root.each("prohibited", frozenset({"rule", "units", "enter", "cross",
                                                                                    "except-along", "what"})))
    markers = _markers(root, r)
    r.markers = markers
    zoc = _zoc(root)
    supply = _supply(root.sub("supply", frozenset({"rule", "markers", "off-map", "trace", "sides", "isolated-after"})),
                     r, zoc)
    reinforcements = _reinforcements(root.sub("reinforcements", REINFORCEMENT_KEYS))
    control = _control(sub("control", frozenset({"rule", "by", "start"})))
    victory = _victory(sub("victory", VICTORY_KEYS), control, boxes.exited)
    if supply is not None and supply.markers:
        for role in SUPPLY_ROLES:
            if not any(m.supply == role for m in markers.values()):
                raise root.sub("supply").err("markers", f"the marker flow needs a marker with 'supply: {role}'",
                                             expected=f"rules.markers: {{ID: {{name: ..., supply: {role}}}}}")
    words = sub("piece-words", frozenset({"unit", "not-unit"}))
    piece_words = PieceWords(tuple(words.names("unit")),
                             tuple(words.names("not-unit")) + tuple(m.name for m in markers.values()))
    return GenericRules(
        unit_types=r.unit_types,
        groups=dict(r.groups),
        names=names,
        boxes=boxes,
        stacking=stacking,
        enemy_rule=enemy_rule,
        prohibited=prohibited,
        zoc=zoc,
        supply=supply,
        reinforcements=reinforcements,
        markers=markers,
        control=control,
        victory=victory,
        piece_words=piece_words,
        chart=chart,
    )


def _lower(names: tuple[str, ...]) -> frozenset[str]:
    return frozenset(n.strip().lower() for n in names)


def _boxes(s: Section) -> BoxRules:
    d = BoxRules()
    if not s:
        return d
    return BoxRules(
        rule=s.rule("rule", d.rule),
        allowed=_lower(s.names("allowed")),
        reinforcements=_lower(s.names("reinforcements")) if "reinforcements" in s else d.reinforcements,
        eliminated=_lower(s.names("eliminated")) if "eliminated" in s else d.eliminated,
        exited=_lower(s.names("exited")),
        turn_boxes=s.boolean("turn-boxes", False),
    )


STACKING_KEYS: Final = frozenset({"rule", "limit", "types", "alone", "note", "exempt", "types-rule", "alone-rule",
                                  "enemy-rule", "points", "terrain", "when"})


def _per_side(s: Section, key: str, lo: int) -> dict[str, int]:
    """``N`` (every side) or ``{side: N}``."""
    if isinstance(s.m[key], yaml.ScalarNode):
        n = s.integer(key, lo=lo, hi=100_000)
        return {side: n for side in s.r.sides}
    per = s.sub(key)
    return {side: per.integer(side, lo=lo, hi=100_000) for side in per.side_keys()}


def _stacking(s: Section) -> tuple[StackingRules | None, str]:
    if not s:
        return None, "stacking"
    rule = s.rule("rule", "stacking")
    limit: dict[str, int] | None = None
    if "limit" in s:
        limit = _per_side(s, "limit", 1)
    points: dict[str, int] | None = None
    default_points = 1
    if "points" in s:
        if limit is None:
            raise s.err("points", "counts points against no limit", expected="a 'limit' (in points) beside it")
        pts = s.sub("points")
        points = {}
        for name in pts:
            if name == "other":
                default_points = pts.integer(name, lo=0, hi=1000)
                continue
            for t in pts.r_type(pts.key_node(name) or pts.m[name], pts.what(name)):
                points[t] = pts.integer(name, lo=0, hi=1000)
    terrain: list[TerrainLimit] = []
    if "terrain" in s:
        if limit is None:
            raise s.err("terrain", "raises no limit", expected="a 'limit' beside it")
        ts = s.sub("terrain")
        m = s.r.map
        for name in ts:
            have = sorted({*m.terrain_types, *(p.kind for p in m.places if p.kind), *(b.kind for b in m.boxes)})
            if name not in have:
                raise s.r.doc.err(ts.key_node(name) or ts.m[name],
                                  f"{ts.what(name)}: {name!r} is not a terrain of the map{did_you_mean(name, have)}",
                                  expected="one of " + ", ".join(have))
            terrain.append(TerrainLimit(name, terrain_hexes(m, name), _per_side(ts, name, 0)))
    types: list[TypeLimit] = []
    tl = s.sub("types")
    types_rule = s.rule("types-rule", rule)
    for name in tl:
        got = tl.r_type(tl.key_node(name) or tl.m[name], tl.what(name))
        if isinstance(tl.m[name], yaml.ScalarNode):
            n = tl.integer(name, lo=0, hi=1000)
            per_side = {side: n for side in s.r.sides}
        else:
            per = tl.sub(name)
            per_side = {side: per.integer(side, lo=0, hi=1000) for side in per.side_keys()}
        types.append(TypeLimit(got, name, per_side, types_rule))
    alone = s.units("alone") if "alone" in s else None
    exempt = s.units("exempt") if "exempt" in s else None
    if "exempt" in s and limit is None:
        raise s.err("exempt", "exempts units from no limit", expected="a 'limit' beside it")
    if "alone-rule" in s and alone is None:
        raise s.err("alone-rule", "names the rule of no 'alone' units", expected="an 'alone' beside it")
    note = s.text("note", "")
    if note and not note_placeholders_ok(note):
        raise s.err("note", f"{note!r} has a placeholder other than {{excess}}",
                    expected="text with at most the placeholder {excess} ({{ and }} for braces)")
    if limit is None and not types and alone is None:
        raise s.err(None, "states no limit", expected="limit, types or alone")
    return (StackingRules(rule, limit, tuple(types), alone, note, exempt, s.rule("alone-rule", rule), points,
                          default_points, tuple(terrain), s.choice("when", STACKING_WHEN, "end-of-movement")),
            s.rule("enemy-rule", rule))


def note_placeholders_ok(note: str) -> bool:
    """Does a stacking ``note`` hold no placeholder but a plain ``{excess}`` (no index, attribute,
    conversion or format spec: the note is data from a game folder, never a format program)?"""
    try:
        return all(field in (None, "excess") and not spec and conv is None
                   for _text, field, spec, conv in string.Formatter().parse(note))
    except ValueError:
        return False


def _prohibition(s: Section) -> Prohibition:
    s.require("rule")
    if "enter" not in s and "cross" not in s:
        raise s.err(None, "names nothing prohibited", expected="enter (hexes) or cross (hexside kinds)")
    if "except-along" in s and "cross" not in s:
        raise s.err("except-along", "only applies to 'cross'")
    enter = s.hexset("enter")
    return Prohibition(
        rule=s.rule(),
        units=s.units("units"),
        enter=enter,
        cross=s.crossing("cross"),
        what=s.text("what", enter.text or "prohibited terrain"),
    )


def _zoc(root: Section) -> ZocRules:
    if "zoc" not in root:
        return ZocRules()
    node = root.m["zoc"]
    if isinstance(node, yaml.ScalarNode):
        return ZocRules(exert=root.boolean("zoc", True))
    s = root.sub("zoc", ZOC_KEYS | MOVED_ZOC_KEYS.keys())
    for old, where in MOVED_ZOC_KEYS.items():
        if old in s:
            raise s.err(old, "has moved", expected=where)
    negated = s.names("negated-by-friendly")
    for i, purpose in enumerate(negated):
        if purpose not in ZOC_NEGATION:
            raise s.err("negated-by-friendly", f"[{i}] {purpose!r} is not what a zone is negated for"
                        f"{did_you_mean(purpose, ZOC_NEGATION)}", expected=", ".join(ZOC_NEGATION))
    name = s.text("name", "").strip()
    if "name" in s and (not name or "\n" in name or len(name) > 60):
        raise s.err("name", f"{name!r} is not a name for the zone", expected="one line of 1 to 60 characters")
    uphill: dict[Hex, set[Hex]] = {}
    m = s.r.map
    for kind in s.hexside_kinds("uphill", directed=True):
        for side in m.feature_sides(kind):
            f = m.feature(side, kind)
            if f is not None and f.up is not None:
                uphill.setdefault(side.other(f.up), set()).add(f.up)
    return ZocRules(
        exert=s.boolean("exert", True),
        units=s.units("units"),
        sides=s.crossing("hexsides"),
        uphill={k: frozenset(v) for k, v in uphill.items()},
        into=s.hexset("into").hexes,
        exempt=s.units("exempt") if "exempt" in s else None,
        name=name,
        rule=s.rule("rule", "zoc"),
        negated_for=frozenset(negated),
    )


ZOC_KEYS: Final = frozenset({"exert", "units", "hexsides", "except-along", "uphill", "into", "exempt",
                             "name", "rule", "negated-by-friendly"})
#: keys that said a fact another key states too, and where it is stated now (exit 2 naming it)
MOVED_ZOC_KEYS: Final = {
    "unless-markers": "rules.markers: {MARKER: {zoc: false}} (what a marker does is stated with the marker)"}
MOVED_TRACE_KEYS: Final = {
    "friendly-negates-zoc": "rules.zoc.negated-by-friendly: [supply] (what a friendly unit negates the zone for)"}
#: what a friendly unit in an enemy-zone hex may negate the zone for (``zoc.negated-by-friendly``)
ZOC_NEGATION: Final = ("supply", "movement")


TRACE_KEYS: Final = frozenset({"blocked-by", "hexes", "hexsides", "except-along",
                               "max-length", "max-mp", "class", "network-blocked-by"})


def _blocks(s: Section, key: str, what: str) -> tuple[str, ...] | None:
    blocks = s.names(key) if key in s else None
    for i, b in enumerate(blocks or ()):
        if b not in TRACE_BLOCKS:
            raise s.err(key, f"[{i}] {b!r} is not a {what} block{did_you_mean(b, TRACE_BLOCKS)}",
                        expected=", ".join(TRACE_BLOCKS) + " (or an empty list: nothing)")
    return blocks


def _trace(s: Section, base: Trace) -> Trace:
    for old, where in MOVED_TRACE_KEYS.items():
        if old in s:
            raise s.err(old, "has moved", expected=where)
    blocks = _blocks(s, "blocked-by", "trace")
    net = _blocks(s, "network-blocked-by", "network")
    if "except-along" in s and "hexsides" not in s:
        raise s.err("except-along", "only applies to 'hexsides'")
    if "max-mp" in s and "max-length" in s:
        raise s.err("max-mp", "a trace is counted in hexes or in movement points, not both",
                    expected="max-length or max-mp")
    classes = s.r.chart.class_names if s.r.chart is not None else ()
    if "class" in s and "max-mp" not in s and base.max_mp is None:
        raise s.err("class", "names the class of no trace in movement points", expected="max-mp: N beside it")
    if "max-mp" in s and "class" not in s and len(classes) != 1 and base.mp_class is None:
        raise s.err("max-mp", "a trace in movement points names its unit class",
                    expected="class: CLASS beside it (one of " + (", ".join(classes) or "none: the game has no "
                                                                  "terrain effects chart") + ")")
    mp_class = base.mp_class
    if "class" in s:
        mp_class = s.r.mp_class(s.m["class"], s.what("class"))
    elif "max-mp" in s and mp_class is None:
        mp_class = classes[0]  # a chart of one class (or none named): the trace moves as it
    return Trace(
        enemy_units=("enemy-units" in blocks) if blocks is not None else base.enemy_units,
        enemy_zoc=("enemy-zoc" in blocks) if blocks is not None else base.enemy_zoc,
        impassable=("impassable" in blocks) if blocks is not None else base.impassable,
        friendly_negates_zoc=base.friendly_negates_zoc,
        hexes=s.hexset("hexes").hexes if "hexes" in s else base.hexes,
        sides=s.crossing("hexsides") if "hexsides" in s else base.sides,
        max_length=(s.opt_integer("max-length", lo=0, hi=1_000_000) if "max-length" in s
                    else None if "max-mp" in s else base.max_length),
        max_mp=s.factor("max-mp") if "max-mp" in s else None if "max-length" in s else base.max_mp,
        mp_class=mp_class if "max-length" not in s else None,
        network_blocks=frozenset(net) if net is not None else base.network_blocks,
    )


def _supply(s: Section, r: RulesReader, zoc: ZocRules) -> SupplyRules | None:
    if not s:
        return None
    s.require("sides")
    rule = s.rule("rule", "supply")
    base = _trace(s.sub("trace", TRACE_KEYS | MOVED_TRACE_KEYS.keys()), Trace(friendly_negates_zoc="supply" in zoc.negated_for))
    per = s.sub("sides")
    sides: dict[str, SideSupply] = {}
    for side in per.side_keys():
        ss = per.sub(side, TRACE_KEYS | MOVED_TRACE_KEYS.keys() | {"rule", "sources", "network", "goal", "automatic-through",
                                        "automatic-rule", "direct", "source-units"})
        ss.require("sources")
        network = ss.path_kinds("network")
        sides[side] = SideSupply(
            side=side,
            rule=ss.rule("rule", rule),
            sources=ss.hexset("sources"),
            trace=_trace(ss, base),
            network=r.map.path_sides(*network) if network else None,
            network_hexes=r.map.path_hexes(*network) if network else frozenset(),
            direct=ss.boolean("direct", False),
            source_units=ss.units("source-units") if "source-units" in ss else None,
            goal=ss.text("goal", "a supply source"),
            automatic_through=ss.opt_turn("automatic-through"),
            automatic_rule=ss.rule("automatic-rule", ss.rule("rule", rule)),
        )
    return SupplyRules(rule, sides, markers=s.boolean("markers", False),
                       off_map=s.choice("off-map", ("in", "reinforcements", "none"), "reinforcements"),
                       isolated_after=_isolated_after(s))


def _isolated_after(s: Section) -> int:
    """``isolated-after: N``: the supply phase out of supply in which a unit is Isolated (the markers
    show two states, so 1 or 2)."""
    if "isolated-after" not in s:
        return 2
    if not s.boolean("markers", False):
        raise s.err("isolated-after", "counts supply phases of no marker flow", expected="markers: true beside it")
    return s.integer("isolated-after", lo=1, hi=2)


def _reinforcements(s: Section) -> ReinforcementRules | None:
    if not s:
        return None
    s.require("schedule")
    rule = s.rule("rule", "reinforcements")
    schedule: list[Arrival] = []
    for e in s.each("schedule", frozenset({"turn", "units", "values", "formations", "side", "enter", "what", "rule"})):
        e.require("turn")
        units = e.names("units")
        formations = e.names("formations")
        values = e.text("values", "") or None
        if not (units or values or formations):
            raise e.err(None, "names no unit", expected="units: [ids], formations: [names] and/or values: '5-4-15'")
        if values is not None and not re.fullmatch(r"\d+(?:-\d+){1,5}", values):
            raise e.err("values", f"{values!r} is not a printed-values code", expected="numbers joined by '-', e.g. 5-4-15")
        enter = e.hexset("enter") if "enter" in e else HexSet(frozenset(), "")
        names = [*formations, *units]
        schedule.append(Arrival(
            turn=e.turn("turn"),
            enter=enter,
            units=units,
            values=values,
            side=e.side("side") if "side" in e else None,
            what=e.text("what", " ".join(x for x in (values, f"({', '.join(names)})" if values and names
                                                         else ", ".join(names)) if x)),
            formations=formations,
            rule=e.rule("rule") if "rule" in e else None,
        ))
    together = s.text("stack-on-arrival", "") or None
    blocked = s.names("entry-blocked-by") if "entry-blocked-by" in s else ("enemy-units",)
    for i, b in enumerate(blocked):
        if b not in ENTRY_BLOCKS:
            raise s.err("entry-blocked-by", f"[{i}] {b!r} is not what blocks an entry hex{did_you_mean(b, ENTRY_BLOCKS)}",
                        expected=", ".join(ENTRY_BLOCKS))
    return ReinforcementRules(rule, s.rule("entry-rule", rule), tuple(schedule), together,
                              s.boolean("at-entry", False), frozenset(blocked),
                              s.choice("when-blocked", WHEN_BLOCKED, "wait"))


REINFORCEMENT_KEYS: Final = frozenset({"rule", "entry-rule", "schedule", "at-entry", "stack-on-arrival",
                                       "entry-blocked-by", "when-blocked"})
ENTRY_BLOCKS: Final = ("enemy-units", "enemy-zoc")
WHEN_BLOCKED: Final = ("wait", "delay", "shift")



def terrain_hexes(m: GameMap, name: str) -> frozenset[Hex]:
    """The hexes of a terrain in the chart's sense: of that terrain type, or in a place or box of that
    kind (Marrenburg, a city on a hill)."""
    out = set(m.hexes_of_terrain(name)) if name in m.terrain_types else set()
    for p in m.places:
        if p.kind == name:
            out.update(p.hexes)
    for b in m.boxes:
        if b.kind == name:
            out.update(b.hexes)
    return frozenset(out)


def _number(text: str) -> float | None:
    """``"0.5"``, ``"1/2"``, ``"2"`` as a number (None: not one)."""
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*(?:/\s*(\d+)\s*)?", text)
    if not m:
        return None
    den = int(m.group(2)) if m.group(2) else 1
    return float(m.group(1)) / den if den else None


# --- markers (item 5) --------------------------------------------------------------------------------
MARKER_KEYS: Final = frozenset({"name", "rule", "movement", "round", "move", "zoc", "attack", "defense", "supply",
                                "excludes", "key", "badge", "color"})


def marker_id(name: str) -> str:
    """The id a status layer's name gives a marker (``Out of Supply`` -> ``out-of-supply``)."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def _markers(root: Section, r: RulesReader) -> dict[str, Marker]:
    """``rules.markers``: the game's markers and their effects; without it, the status layers of the
    game's module (``module.yaml``) and the builder's ``Used`` layer, with no effect."""
    if "markers" not in root:
        out = {marker_id(n): Marker(marker_id(n), n) for n in status_names(r.game) if marker_id(n)}
        out.setdefault(USED, Marker(USED, "Used"))
        return out
    s = root.sub("markers")
    out = {}
    for mid in s:
        if not ID_RE.match(mid):
            raise s.err(mid, f"{mid!r} is not a marker id", expected="lowercase words joined by '-'")
        m = s.sub(mid, MARKER_KEYS)
        name = m.text("name", mid.replace("-", " ").title())
        if not name.strip() or "\n" in name or len(name) > 60:
            raise m.err("name", f"{name!r} is not a marker name", expected="one line of 1 to 60 characters")
        out[mid] = Marker(
            id=mid, name=name.strip(), rule=m.rule("rule", "markers"),
            movement=m.factor("movement"), round=m.choice("round", ROUNDING, "down"),
            move=m.boolean("move", True), zoc=m.boolean("zoc", True),
            attack=m.factor("attack"), defense=m.factor("defense"),
            supply=m.choice("supply", SUPPLY_ROLES, "") or None if "supply" in m else None,
            key=m.text("key") if "key" in m else None,
            badge=m.text("badge") if "badge" in m else None,
            color=m.text("color") if "color" in m else None,
        )
    out.setdefault(USED, Marker(USED, "Used"))
    names = [m.name.lower() for m in out.values()]
    for mid, mk in out.items():
        if names.count(mk.name.lower()) > 1:
            raise s.err(mid if mid in s else None, f"marker name {mk.name!r} is used twice",
                        expected="a distinct name per marker (the module's status layer)")
    for role in SUPPLY_ROLES:
        having = [mk.id for mk in out.values() if mk.supply == role]
        if len(having) > 1:
            raise s.err(having[1], f"a second marker with 'supply: {role}'", expected="one marker per supply role")
    r.markers = out
    for mid in s:  # excludes name other markers: read once all are known
        m = s.sub(mid, MARKER_KEYS)
        if "excludes" in m:
            got = m.markers("excludes")
            out[mid] = dataclasses.replace(out[mid], excludes=got)
    return out


# --- control and victory (item 7) --------------------------------------------------------------------
VICTORY_KEYS: Final = frozenset({"rule", "end", "hexes", "eliminated", "exited", "sudden-death", "levels", "draw",
                                 "levels-rule", "nationalities"})
UNIT_AWARD_KEYS: Final = frozenset({"rule", "units", "vp", "per-step", "boxes", "vp-by-nationality"})


def _control(s: Section) -> ControlRules | None:
    if not s:
        return None
    start = s.sub("start")
    return ControlRules(
        rule=s.rule("rule", "control"),
        by=s.choice("by", ("occupation", "last-entered"), "occupation"),
        start={side: start.hexset(side).hexes for side in start.side_keys()},
    )


def _holds(s: Section, control: ControlRules | None) -> str:
    holds = s.choice("holds", HOLDS, "occupied")
    if holds == "controlled" and control is None:
        raise s.err("holds", "'controlled' needs the game's control rule", expected="rules.control: {by: ...}")
    return holds


def _victory(s: Section, control: ControlRules | None, exited: frozenset[str] = frozenset()) -> VictoryRules | None:
    if not s:
        return None
    rule = s.rule("rule", "victory")
    hexes: list[HexAward] = []
    for e in s.each("hexes", frozenset({"rule", "hexes", "score", "sides", "at", "units", "scenario"})):
        e.require("hexes", "score")
        group = e.opt_integer("units", lo=1, hi=10_000)
        tiers = [_hex_score(t, control, group) for t in e.each("score", frozenset({"holds", "in-supply", "vp"}))]
        at = None
        if "at" in e and e.text("at") != "end":
            at = e.turn("at")
        hexes.append(HexAward(e.rule("rule", rule), e.hexset("hexes"), tuple(tiers), e.sides("sides"), at, group,
                              _scenario(e)))
    nationalities = _nationalities(s.sub("nationalities"))
    units: list[UnitAward] = []
    for kind in ("eliminated", "exited"):
        for e in s.each(kind, UNIT_AWARD_KEYS):
            units.append(_unit_award(e, kind, rule, nationalities, exited))
    deaths = []
    for e in s.each("sudden-death", frozenset({"rule", "side", "hexes", "holds", "in-supply"})):
        e.require("side", "hexes")
        deaths.append(SuddenDeath(e.rule("rule", rule), e.side("side"), e.hexset("hexes"), _holds(e, control),
                                  e.boolean("in-supply", False)))
    levels: tuple[VictoryLevel, ...] = ()
    side_levels: dict[str, tuple[VictoryLevel, ...]] = {}
    if "levels" in s and isinstance(s.m["levels"], yaml.MappingNode):  # a table per side
        per_side = s.sub("levels")
        side_levels = {side: _levels(per_side, side) for side in per_side.side_keys()}
    else:
        levels = _levels(s, "levels")
    return VictoryRules(rule, s.opt_turn("end"), tuple(hexes), tuple(units), tuple(deaths), levels,
                        s.text("draw", "draw"), s.rule("levels-rule", rule), side_levels, nationalities)


def _scenario(e: Section) -> str | None:
    """``scenario: ID``: a scenario of the game's scenarios.yaml."""
    if "scenario" not in e:
        return None
    got = e.text("scenario")
    ids = [sc.id for sc in e.r.game.scenarios()]
    if got not in ids:
        raise e.err("scenario", f"{got!r} is not a scenario of the game{did_you_mean(got, ids)}",
                    expected="an id of scenarios.yaml: " + (", ".join(ids) or "(the game has none)"))
    return got


def _hex_score(t: Section, control: ControlRules | None, group: int | None) -> HexScore:
    """One tier of a hex award: ``holds``, ``in-supply`` (true, false or ``marked``), ``vp``."""
    t.require("vp")
    marked = "in-supply" in t and t.text("in-supply") == "marked"
    if "in-supply" in t and not marked and t.text("in-supply").lower() not in ("true", "false", "yes", "no", "on", "off"):
        raise t.err("in-supply", f"{t.text('in-supply')!r} is not a supply condition"
                    f"{did_you_mean(t.text('in-supply'), ['true', 'false', 'marked'])}",
                    expected="true (as traced), marked (as the unit's markers say) or false")
    holds = _holds(t, control)
    if group is not None and holds != "occupied":
        raise t.err("holds", "an award of 'units: N' counts the units that occupy its hexes", expected="occupied")
    in_supply = marked or t.boolean("in-supply", False)
    return HexScore(holds, in_supply, t.integer("vp", lo=-1000, hi=1000), marked)


def _levels(s: Section, key: str) -> tuple[VictoryLevel, ...]:
    """``[{name, margin}]``: the levels of victory, best first once sorted."""
    levels = []
    for e in s.each(key, frozenset({"name", "margin"})):
        e.require("name", "margin")
        levels.append(VictoryLevel(e.text("name"), e.integer("margin", lo=1, hi=1_000_000)))
    levels.sort(key=lambda lv: -lv.margin)
    return tuple(levels)


def _nationalities(s: Section) -> tuple[Nationality, ...]:
    out = []
    for key in s:
        if not ID_RE.match(key):
            raise s.err(key, f"{key!r} is not a nationality key", expected="lowercase words joined by '-' (de, it, uk)")
        e = s.sub(key, frozenset({"formations", "ids"}))
        out.append(Nationality(key, tuple(f.lower() for f in e.names("formations")), e.names("ids")))
    return tuple(out)


def _unit_award(e: Section, kind: str, rule: str, nationalities: tuple[Nationality, ...],
                exited: frozenset[str] = frozenset()) -> UnitAward:
    """One ``eliminated`` or ``exited`` award: ``vp`` (a number, or ``printed``) or ``vp-by-nationality``;
    an ``exited`` award's boxes default to ``exited``, the boxes ``rules.boxes`` names (stated once)."""
    boxes = _lower(e.names("boxes"))
    if kind == "exited":
        boxes = boxes or exited
        if not boxes:
            raise e.err(None, "names no box units exit to",
                        expected="rules.boxes.exited: [BOX], or boxes: [BOX] here")
    elif "boxes" in e:
        raise e.err("boxes", "only applies to 'exited'")
    printed, vp, by = False, 0, None
    if "vp-by-nationality" in e:
        if "vp" in e:
            raise e.err("vp", "'vp' and 'vp-by-nationality' exclude each other", expected="one of them")
        if not nationalities:
            raise e.err("vp-by-nationality", "needs the nationalities of the units",
                        expected="victory.nationalities: {KEY: {formations: [...], ids: [...]}}")
        table = e.sub("vp-by-nationality")
        known = [n.key for n in nationalities]
        for key in table:
            if key not in known:
                raise table.err(key, f"{key!r} is not a nationality of victory.nationalities{did_you_mean(key, known)}",
                                expected="one of " + ", ".join(known))
        by = {key: table.integer(key, lo=-1000, hi=1000) for key in table}
    else:
        e.require("vp")
        if e.text("vp") == "printed":
            printed = True
        elif not re.fullmatch(r"-?\d+", e.text("vp")):
            raise e.err("vp", f"{e.text('vp')!r} is not VP{did_you_mean(e.text('vp'), ['printed'])}",
                        expected="a whole number, or 'printed' (the unit's printed combat factors)")
        else:
            vp = e.integer("vp", lo=-1000, hi=1000)
    return UnitAward(e.rule("rule", rule), kind, e.units("units"), vp, e.boolean("per-step", False), boxes, printed, by)
