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
from gazala_tools.hexes import Hex, Hexside
from gazala_tools.mapdata.model import GameMap, HexsideKind, PathKind
from gazala_tools.referee.turns import TurnRecord
from gazala_tools.yamlnodes import ID_RE, Doc, compose, did_you_mean

if TYPE_CHECKING:  # pragma: no cover
    from gazala_tools.games.model import Game
    from gazala_tools.referee.position import Unit

__all__ = [
    "ANY_UNIT",
    "EDGES",
    "GENERIC_KEYS",
    "HEXSET_KEYS",
    "MARKER_NAMES",
    "MAX_LIST",
    "RULE_RE",
    "TRACE_BLOCKS",
    "TRACE_KEYS",
    "Arrival",
    "BoxRules",
    "FormationNames",
    "GenericRules",
    "HexSet",
    "Prohibition",
    "ReinforcementRules",
    "RulesReader",
    "Section",
    "SideSupply",
    "StackingRules",
    "SupplyRules",
    "Trace",
    "TypeLimit",
    "UnitFilter",
    "ZocRules",
    "map_edges",
    "note_placeholders_ok",
    "read_rules",
    "rules_node",
]

log = logging.getLogger(__name__)

T = TypeVar("T")

#: generic keys of the ``rules:`` section (a plugin adds its own ``data_keys``)
GENERIC_KEYS: Final = frozenset({
    "unit-types", "type-groups", "formation-words", "boxes", "stacking", "prohibited", "zoc", "supply",
    "reinforcements",
})
HEXSET_KEYS: Final = frozenset({"hexes", "zones", "places", "boxes", "box-kinds", "edges", "terrain"})
EDGES: Final = ("N", "E", "S", "W")
MARKER_NAMES: Final = ("out-of-supply", "isolated", "disrupted", "used")
TRACE_BLOCKS: Final = ("enemy-units", "enemy-zoc", "impassable")
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
class StackingRules:
    rule: str
    limit: Mapping[str, int] | None  #: units of a side in one hex, per side (None: no general limit)
    types: tuple[TypeLimit, ...] = ()
    alone: UnitFilter | None = None  #: units no other unit may stack with
    note: str = ""  #: appended to a finding; ``{excess}`` is the number of units too many
    exempt: UnitFilter | None = None  #: units the ``limit`` does not count (HQs, leaders)
    alone_rule: str = ""  #: the rule the ``alone`` finding cites ("" = ``rule``)


@dataclass(frozen=True, slots=True)
class Prohibition:
    """Units of ``units`` may not stand in ``enter`` hexes nor cross ``cross`` hexsides."""

    rule: str
    units: UnitFilter
    enter: HexSet
    cross: frozenset[Hexside]
    what: str


@dataclass(frozen=True, slots=True)
class ZocRules:
    exert: bool = True
    units: UnitFilter = ANY_UNIT  #: the units that exert a ZOC
    unless_markers: frozenset[str] = frozenset()
    sides: frozenset[Hexside] = frozenset()  #: a ZOC does not extend across these hexsides
    uphill: Mapping[Hex, frozenset[Hex]] = field(default_factory=dict)  #: low hex -> high hexes it does not reach
    into: frozenset[Hex] = frozenset()  #: hexes no ZOC extends into


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


@dataclass(frozen=True, slots=True)
class SideSupply:
    side: str
    rule: str
    sources: HexSet
    trace: Trace
    network: frozenset[Hexside] | None = None  #: sources extend along these path hexsides ...
    network_hexes: frozenset[Hex] = frozenset()  #: ... from the sources on these path hexes
    goal: str = "a supply source"
    automatic_through: int | None = None  #: turn index: supplied automatically up to it
    automatic_rule: str = ""


@dataclass(frozen=True, slots=True)
class SupplyRules:
    rule: str
    sides: Mapping[str, SideSupply]
    markers: bool = False  #: Out of Supply -> Isolated marker flow (RG 5.0 family)
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


# =================================================================================================
# The reader
# =================================================================================================
class RulesReader:
    """What every :class:`Section` needs: the file, the map, the turns, the sides, strictness."""

    def __init__(self, game: Game, game_map: GameMap, *, strict: bool, file: str | Path) -> None:
        self.game = game
        self.map = game_map
        self.strict = strict
        self.doc = Doc(file, GameDataError)
        self.turns = TurnRecord(game.turns)
        self.sides = tuple(game.side_ids)
        self.unit_types: frozenset[str] | None = None
        self.groups: dict[str, frozenset[str]] = {}
        self.notes: list[str] = []
        self.mentioned_types: set[str] = set()  #: every unit type the rules data names (inline-unit checks)

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
            raise self.doc.err(node, f"{what} {name!r} is not on the map of {self.game.id}",
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
        if key == "terrain":
            if name not in m.terrain_types:
                r.missing(node, "terrain", name, sorted(m.terrain_types))
                return frozenset()
            return frozenset(m.hexes_of_terrain(name))
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


def read_rules(game: Game, game_map: GameMap, *, strict: bool,
               plugin_keys: frozenset[str] = frozenset()) -> tuple[GenericRules, Section]:
    """The generic rules of ``game`` on ``game_map`` and the whole ``rules:`` section (for the
    plugin's own keys, ``plugin_keys``; any other key is an error)."""
    node, file = rules_node(game)
    r = RulesReader(game, game_map, strict=strict, file=file)
    allowed = GENERIC_KEYS | plugin_keys | {"plugin"}
    root = Section(r, node, "rules", frozenset(allowed))
    return _generic(r, root), root


def _generic(r: RulesReader, root: Section) -> GenericRules:
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
    stacking, enemy_rule = _stacking(root.sub("stacking", frozenset({"rule", "limit", "types", "alone", "note",
                                                                      "exempt", "types-rule", "alone-rule",
                                                                       "enemy-rule"})))
    prohibited = tuple(_prohibition(s) for s in root.each("prohibited", frozenset({"rule", "units", "enter", "cross",
                                                                                    "except-along", "what"})))
    zoc = _zoc(root)
    supply = _supply(root.sub("supply", frozenset({"rule", "markers", "off-map", "trace", "sides"})), r)
    reinforcements = _reinforcements(root.sub("reinforcements", frozenset({"rule", "entry-rule", "schedule", "at-entry",
                                                                         "stack-on-arrival"})))
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


def _stacking(s: Section) -> tuple[StackingRules | None, str]:
    if not s:
        return None, "stacking"
    rule = s.rule("rule", "stacking")
    limit: dict[str, int] | None = None
    if "limit" in s:
        node = s.m["limit"]
        if isinstance(node, yaml.ScalarNode):
            n = s.integer("limit", lo=1, hi=1000)
            limit = {side: n for side in s.r.sides}
        else:
            per = s.sub("limit")
            limit = {side: per.integer(side, lo=1, hi=1000) for side in per.side_keys()}
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
    return (StackingRules(rule, limit, tuple(types), alone, note, exempt, s.rule("alone-rule", rule)),
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
    s = root.sub("zoc", frozenset({"exert", "units", "unless-markers", "hexsides", "except-along", "uphill", "into"}))
    unless = s.names("unless-markers")
    for i, mk in enumerate(unless):
        if mk not in MARKER_NAMES:
            raise s.err("unless-markers", f"[{i}] {mk!r} is not a marker", expected=", ".join(MARKER_NAMES))
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
        unless_markers=frozenset(unless),
        sides=s.crossing("hexsides"),
        uphill={k: frozenset(v) for k, v in uphill.items()},
        into=s.hexset("into").hexes,
    )


TRACE_KEYS: Final = frozenset({"blocked-by", "friendly-negates-zoc", "hexes", "hexsides", "except-along",
                               "max-length"})


def _trace(s: Section, base: Trace) -> Trace:
    blocks = s.names("blocked-by") if "blocked-by" in s else None
    if blocks is not None:
        for i, b in enumerate(blocks):
            if b not in TRACE_BLOCKS:
                raise s.err("blocked-by", f"[{i}] {b!r} is not a trace block", expected=", ".join(TRACE_BLOCKS))
    if "except-along" in s and "hexsides" not in s:
        raise s.err("except-along", "only applies to 'hexsides'")
    return Trace(
        enemy_units=("enemy-units" in blocks) if blocks is not None else base.enemy_units,
        enemy_zoc=("enemy-zoc" in blocks) if blocks is not None else base.enemy_zoc,
        impassable=("impassable" in blocks) if blocks is not None else base.impassable,
        friendly_negates_zoc=s.boolean("friendly-negates-zoc", base.friendly_negates_zoc),
        hexes=s.hexset("hexes").hexes if "hexes" in s else base.hexes,
        sides=s.crossing("hexsides") if "hexsides" in s else base.sides,
        max_length=s.opt_integer("max-length", lo=0, hi=1_000_000) if "max-length" in s else base.max_length,
    )


def _supply(s: Section, r: RulesReader) -> SupplyRules | None:
    if not s:
        return None
    s.require("sides")
    rule = s.rule("rule", "supply")
    base = _trace(s.sub("trace", TRACE_KEYS), Trace())
    per = s.sub("sides")
    sides: dict[str, SideSupply] = {}
    for side in per.side_keys():
        ss = per.sub(side, TRACE_KEYS | {"rule", "sources", "network", "goal", "automatic-through",
                                        "automatic-rule"})
        ss.require("sources")
        network = ss.path_kinds("network")
        sides[side] = SideSupply(
            side=side,
            rule=ss.rule("rule", rule),
            sources=ss.hexset("sources"),
            trace=_trace(ss, base),
            network=r.map.path_sides(*network) if network else None,
            network_hexes=r.map.path_hexes(*network) if network else frozenset(),
            goal=ss.text("goal", "a supply source"),
            automatic_through=ss.opt_turn("automatic-through"),
            automatic_rule=ss.rule("automatic-rule", ss.rule("rule", rule)),
        )
    return SupplyRules(rule, sides, markers=s.boolean("markers", False),
                       off_map=s.choice("off-map", ("in", "reinforcements", "none"), "reinforcements"))


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
    return ReinforcementRules(rule, s.rule("entry-rule", rule), tuple(schedule), together,
                              s.boolean("at-entry", False))

