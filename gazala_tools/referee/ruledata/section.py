"""The reader of the ``rules:`` section: :class:`RulesReader` (the file, the map, the turns, the
sides, strictness) and :class:`RulesSection` (a mapping of the rules data with typed, validated getters
that resolve every name the data gives on the game's map and turn record)."""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Final, TypeVar

import yaml

from gazala_tools.errors import GameDataError, HexNameError
from gazala_tools.filecache import ObjectCache
from gazala_tools.hexes import Hex, Hexside
from gazala_tools.mapdata.model import GameMap, HexsideKind, PathKind
from gazala_tools.referee.ruledata.filters import ANY_UNIT, HexSet, UnitFilter
from gazala_tools.referee.turns import TurnRecord
from gazala_tools.yamlnodes import ID_RE, MAX_LIST, Doc, Section, did_you_mean

__all__ = [
    "EDGES",
    "HEXSET_KEYS",
    "RULE_RE",
    "RulesReader",
    "RulesSection",
    "T",
    "log",
    "map_edges",
    "terrain_hexes",
]

if TYPE_CHECKING:  # pragma: no cover
    from gazala_tools.games.model import Game
    from gazala_tools.referee.ruledata.marker import Marker
    from gazala_tools.referee.terrain import Chart

log = logging.getLogger(__name__)

T = TypeVar("T")


HEXSET_KEYS: Final = frozenset({"hexes", "zones", "places", "boxes", "box-kinds", "edges", "terrain"})
EDGES: Final = ("N", "E", "S", "W")


RULE_RE: Final = re.compile(r"^[^\n]{1,40}$")


class RulesReader:
    """What every :class:`RulesSection` needs: the file, the map, the turns, the sides, strictness."""

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


class RulesSection(Section):
    """A mapping of the rules data with typed, validated getters (every error: file:line:col), the
    getters of :class:`gazala_tools.yamlnodes.Section` and those that resolve the game's names: sides,
    turns, unit types, markers, hexes, hexside and path kinds.

    ``RulesSection(reader, node, "rules.supply", allowed_keys)``; a missing section is empty
    (``node=None``). Getters take the key and a default; a key given with a bad value is an error.
    """

    def __init__(self, r: RulesReader, node: yaml.Node | None, path: str,
                 allowed: frozenset[str] | None = None) -> None:
        self.r = r
        super().__init__(r.doc, node, path, allowed)

    def err(self, key: str | None, problem: str, expected: str | None = None) -> GameDataError:
        e = super().err(key, problem, expected)
        assert isinstance(e, GameDataError)
        return e

    def rule(self, key: str = "rule", default: str | None = None) -> str:
        """A rule section a finding cites (``"10.0"``, ``"stacking"``)."""
        text = self.text(key, default)
        if not RULE_RE.match(text) or not text.strip():
            raise self.err(key, f"{text!r} is not a rule section", expected="a short name like '10.0'")
        return text.strip()

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
        for i, n in enumerate(self.nodes(key)):
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
        nodes = self.nodes(key) if node is None else (
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
        for i, n in enumerate(self.nodes(key)):
            out.append(self.r.path_kind(n, f"{self.what(key)}[{i}]"))
        return tuple(out)

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
