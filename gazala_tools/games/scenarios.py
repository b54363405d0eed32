"""A game's scenarios as data: ``scenarios.yaml`` of a game folder (``docs/games.md``, "scenarios.yaml").

A :class:`Scenario` names its start (and end) turn, where each unit starts (the set-up: a list of
:class:`Placement` rules, each with the rule it follows) and the values tracks start at ("the Red
player starts with 2VP"). A placement puts units (by id, or a whole formation of the counter
manifest; or other counters of the manifest, by id, such as an imported module's pieces) on a hex, on
hexes (``per_hex`` units each), on the hexes within a distance of a hex (one unit per hex, nearest
first), on a named place of the map, or in a named box of the module.

:func:`resolve_setup` turns the rules into one hex (or box) per unit, deterministically: units in
manifest order; the hexes of a ``within`` rule by distance, then label, skipping hexes an earlier
rule took. It reads the map through :class:`SetupMap` (a ``mapdata.model.GameMap`` is one): ``games`` is
the layer below ``mapdata`` and imports none of it, not even for an annotation. Pure Python.

>>> from gazala_tools.games import find_game
>>> scenarios = load_scenarios(find_game("path/to/my-game"))   # doctest: +SKIP
>>> [(s.id, s.start, len(s.setup)) for s in scenarios]    # doctest: +SKIP
[('scenario-one', 'Turn 1', 14)]
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Final, Protocol

import yaml

from gazala_tools.errors import GameDataError, GazalaError
from gazala_tools.filecache import FileCache
from gazala_tools.games.tables import read_entries
from gazala_tools.yamlnodes import Doc, did_you_mean, error_at, place_of

if TYPE_CHECKING:  # pragma: no cover
    from gazala_tools.games.model import Game
    from gazala_tools.grid import GameGrid
    from gazala_tools.hexes import Hex

__all__ = [
    "MAX_DISTANCE",
    "MAX_PLACEMENTS",
    "MAX_SCENARIOS",
    "PLACEMENT_KEYS",
    "SCENARIO_KEYS",
    "TOP_KEYS",
    "TRACK_KEYS",
    "WHERE_KEYS",
    "WHO_KEYS",
    "WITHIN_KEYS",
    "NamedPlace",
    "Placement",
    "Scenario",
    "Setup",
    "SetupMap",
    "TrackStart",
    "find_scenario",
    "load_scenarios",
    "read_scenarios",
    "resolve_setup",
]

TOP_KEYS: Final = frozenset({"scenarios"})
SCENARIO_KEYS: Final = frozenset({"id", "name", "source", "description", "start", "end", "setup", "tracks"})
PLACEMENT_KEYS: Final = frozenset(
    {"unit", "units", "formation", "counter", "counters", "hex", "hexes", "per_hex", "within", "place", "box", "used", "source"}
)
WITHIN_KEYS: Final = frozenset({"hex", "distance"})
TRACK_KEYS: Final = frozenset({"track", "side", "value", "source"})
#: the keys that say who is placed: ``unit``/``units`` (with or without ``formation``) or ``counter``/``counters``
WHO_KEYS: Final = ("unit", "units", "formation", "counter", "counters")
#: the keys that say where units go; a placement has exactly one
WHERE_KEYS: Final = ("hex", "hexes", "within", "place", "box")
MAX_SCENARIOS: Final = 200
MAX_PLACEMENTS: Final = 20_000
MAX_DISTANCE: Final = 50


@dataclass(frozen=True)
class Placement:
    """Where some units start. Who: ``units`` (ids) or every unit of ``formation`` (or both: those
    units, which must be of the formation). Where: ``hexes`` (``per_hex`` units each, in order; a
    placement's one ``hex:`` is ``hexes`` with ``per_hex`` 0: all its units on that hex),
    within ``distance`` of ``centre`` (``per_hex`` a hex, nearest first), ``place`` (a place of the
    map: its main hex) or ``box`` (a box of the module, by name). ``counters``: counters of the manifest
    that are not units (markers, an imported module's pieces), by id; a counter may be placed again (each
    placement a copy of it), a unit once."""

    units: tuple[str, ...] = ()
    counters: tuple[str, ...] = ()
    formation: str = ""
    hexes: tuple[str, ...] = ()
    per_hex: int = 1  #: 0: every unit of the placement on each hex (``hex:``)
    centre: str = ""
    distance: int = 0
    place: str = ""
    box: str = ""
    used: bool = False  #: the units start used side up
    source: str = ""  #: the rule it follows
    at: str | None = None  #: line:column in scenarios.yaml, for errors


@dataclass(frozen=True)
class TrackStart:
    """A side's marker on a track (``track`` = the module's track id) starts at ``value``."""

    track: str
    side: str
    value: int
    source: str = ""
    at: str | None = None


@dataclass(frozen=True)
class Scenario:
    id: str
    name: str
    source: str = ""
    description: str = ""
    start: str = ""  #: the first turn (a label of the game's turns)
    end: str = ""  #: the last turn
    setup: tuple[Placement, ...] = ()
    tracks: tuple[TrackStart, ...] = ()
    file: str = ""  #: the scenarios.yaml it comes from


class NamedPlace(Protocol):
    """A place of a map as a set-up reads it: its main hex."""

    @property
    def hex(self) -> Hex: ...


class SetupMap(Protocol):
    """What :func:`resolve_setup` reads of a game's map (a ``mapdata.model.GameMap``): its grid, labels,
    hexes and named places."""

    @property
    def grid(self) -> GameGrid: ...
    def label(self, h: Hex) -> str: ...
    def hex(self, label: str) -> Hex: ...
    def hexes(self) -> tuple[Hex, ...]: ...
    def place(self, name: str) -> NamedPlace: ...


@dataclass(frozen=True)
class Setup:
    """A set-up resolved to one location per unit."""

    hexes: tuple[tuple[str, str], ...]  #: unit id -> hex label, in placement order
    boxes: tuple[tuple[str, str], ...] = ()  #: unit id -> box name
    used: tuple[str, ...] = ()  #: unit ids that start used side up


# --- reading -------------------------------------------------------------------------------------
def _placement(doc: Doc, node: yaml.Node, what: str) -> Placement:
    p = doc.mapping(node, what, PLACEMENT_KEYS)
    who = [k for k in WHO_KEYS if k in p]
    kinds = [k for k in who if k != "formation"]
    if not who or len(kinds) > 1 or ("formation" in p and kinds and kinds[0].startswith("counter")):
        raise doc.err(node, f"{what}: names no units" if not who else f"{what}: both {who[0]!r} and {who[1]!r}",
                      expected="unit: ID, units: [IDS], formation: NAME (with or without units), counter: ID "
                               "or counters: [IDS]")
    where = [k for k in WHERE_KEYS if k in p]
    if len(where) != 1:
        raise doc.err(node, f"{what}: {' and '.join(where) or 'no location'}",
                      expected="exactly one of " + ", ".join(WHERE_KEYS))
    units = _ids(doc, p, "unit", what)
    counters = _ids(doc, p, "counter", what)
    per_hex = doc.integer(p["per_hex"], f"{what}.per_hex", lo=1, hi=100) if "per_hex" in p else 0 if "hex" in p else 1
    if "per_hex" in p and where[0] not in ("hexes", "within"):
        raise doc.err(p["per_hex"], f"{what}.per_hex with {where[0]}", expected="per_hex only with hexes or within")
    centre, distance = "", 0
    if "within" in p:
        w = doc.mapping(p["within"], f"{what}.within", WITHIN_KEYS)
        doc.require(w, p["within"], f"{what}.within", "hex", "distance")
        centre = doc.scalar(w["hex"], f"{what}.within.hex")
        distance = doc.integer(w["distance"], f"{what}.within.distance", lo=0, hi=MAX_DISTANCE)
    hexes: tuple[str, ...] = (doc.scalar(p["hex"], f"{what}.hex"),) if "hex" in p else ()
    if "hexes" in p:
        hexes = doc.strings(p["hexes"], f"{what}.hexes")
        if not hexes:
            raise doc.err(p["hexes"], f"{what}.hexes: empty", expected="at least one hex")
    return Placement(
        units=units,
        counters=counters,
        formation=doc.string(p, "formation", what, ""),
        hexes=hexes,
        per_hex=per_hex,
        centre=centre,
        distance=distance,
        place=doc.string(p, "place", what, ""),
        box=doc.string(p, "box", what, ""),
        used=doc.boolean(p["used"], f"{what}.used") if "used" in p else False,
        source=doc.string(p, "source", what, ""),
        at=place_of(node),
    )


def _ids(doc: Doc, p: dict[str, yaml.Node], key: str, what: str) -> tuple[str, ...]:
    """``unit: ID`` or ``units: [IDS]`` (``key`` ``counter``: of counters), at least one."""
    got: tuple[str, ...] = (doc.ident(p[key], f"{what}.{key}"),) if key in p else ()
    many = f"{key}s"
    if many in p:
        got = tuple(doc.ident(n, f"{what}.{many}[{i}]") for i, n in enumerate(doc.seq(p[many], f"{what}.{many}")))
        if not got:
            raise doc.err(p[many], f"{what}.{many}: empty", expected=f"at least one {key} id")
    return got


def _track(doc: Doc, node: yaml.Node, what: str, sides: tuple[str, ...]) -> TrackStart:
    t = doc.mapping(node, what, TRACK_KEYS)
    doc.require(t, node, what, "track", "side", "value")
    side = doc.ident(t["side"], f"{what}.side")
    if sides and side not in sides:
        raise doc.err(t["side"], f"{what}.side: {side!r} is not a side of the game", expected=", ".join(sides))
    return TrackStart(doc.ident(t["track"], f"{what}.track"), side,
                      doc.integer(t["value"], f"{what}.value", lo=0, hi=100_000),
                      doc.string(t, "source", what, ""), place_of(node))


def _turn(doc: Doc, m: dict[str, yaml.Node], key: str, what: str, turns: tuple[str, ...]) -> str:
    if key not in m:
        return ""
    label = doc.scalar(m[key], f"{what}.{key}")
    if turns and label not in turns:
        shown = ", ".join(turns[:4]) + (" ..." if len(turns) > 4 else "")
        raise doc.err(m[key], f"{what}.{key}: {label!r} is not a turn of the game", expected=f"a label of game.yaml turns ({shown})")
    return label


def read_scenarios(file: Path, *, sides: tuple[str, ...] = (), turns: tuple[str, ...] = ()) -> tuple[Scenario, ...]:
    """Parse and check one ``scenarios.yaml``; ``sides`` and ``turns`` (the game's) are checked when given."""
    doc, entries = read_entries(file, "scenarios", MAX_SCENARIOS)
    out: list[Scenario] = []
    count = 0
    for i, node in enumerate(entries):
        what = f"scenarios[{i}]"
        s = doc.mapping(node, what, SCENARIO_KEYS)
        doc.require(s, node, what, "id", "name")
        sid = doc.ident(s["id"], f"{what}.id")
        if any(x.id == sid for x in out):
            raise doc.err(s["id"], f"{what}.id: scenario {sid!r} listed twice")
        setup = tuple(doc.each(s["setup"], f"{what}.setup", lambda n, w: _placement(doc, n, w))) if "setup" in s else ()
        count += len(setup)
        if count > MAX_PLACEMENTS:
            raise doc.err(node, f"{count} placements", expected=f"at most {MAX_PLACEMENTS} in all")
        tracks = tuple(doc.each(s["tracks"], f"{what}.tracks", lambda n, w: _track(doc, n, w, sides))) if "tracks" in s else ()
        out.append(Scenario(
            id=sid,
            name=doc.string(s, "name", what),
            source=doc.string(s, "source", what, ""),
            description=doc.string(s, "description", what, ""),
            start=_turn(doc, s, "start", what, turns),
            end=_turn(doc, s, "end", what, turns),
            setup=setup,
            tracks=tracks,
            file=str(file),
        ))
    return tuple(out)


_CACHE: FileCache[tuple[Scenario, ...]] = FileCache()


def load_scenarios(game: Game) -> tuple[Scenario, ...]:
    """The scenarios of ``game`` (none without a ``scenarios.yaml``), cached per file and modification."""
    file = game.scenarios_file
    try:
        return _CACHE.get(file, game, lambda: read_scenarios(file, sides=game.side_ids, turns=game.turns))
    except OSError:
        return ()


# --- resolving a set-up ----------------------------------------------------------------------------
def _fail(scenario: Scenario, p: Placement, problem: str, expected: str | None = None) -> GameDataError:
    rule = f" ({p.source})" if p.source else ""
    return error_at(GameDataError, scenario.file or None, p.at, f"scenario {scenario.id!r}: {problem}{rule}", expected)


def _who(scenario: Scenario, p: Placement, formation_of: dict[str, str], members_of: dict[str, list[str]],
         counters: Collection[str]) -> list[str]:
    for cid in p.counters:
        if cid not in counters:
            raise _fail(scenario, p, f"counter {cid!r} is not a counter of the manifest" +
                        (" (it is a unit: unit: ID)" if cid in formation_of else ""),
                        "a counter id of counters.yaml (gazala counters list GAME)")
    if p.counters:
        return list(p.counters)
    for uid in p.units:
        if uid not in formation_of:
            raise _fail(scenario, p, f"unit {uid!r} is not a unit of the counter manifest",
                        "a unit id of counters.yaml (gazala counters list GAME --kind unit)")
        if p.formation and formation_of[uid] != p.formation:
            raise _fail(scenario, p, f"unit {uid!r} is of formation {formation_of[uid]!r}, not {p.formation!r}")
    if p.units:
        return list(p.units)
    members = members_of.get(p.formation, [])
    if not members:
        known = sorted(f for f in members_of if f)
        shown = ", ".join(known[:8]) + (" ..." if len(known) > 8 else "")
        raise _fail(scenario, p, f"formation {p.formation!r} has no units", f"a formation of counters.yaml ({shown})")
    return members


def _hex(scenario: Scenario, p: Placement, game_map: SetupMap, label: str) -> Hex:
    try:
        h = game_map.hex(label)
    except (GazalaError, KeyError, ValueError):
        raise _fail(scenario, p, f"hex {label!r} is not a hex of the map", "a hex label of map.yaml") from None
    if not game_map.grid.contains(h):
        raise _fail(scenario, p, f"hex {label!r} is not on the map", "a hex label of map.yaml")
    return h


def resolve_setup(scenario: Scenario, game_map: SetupMap, units: Sequence[tuple[str, str]],
                  counters: Collection[str] = ()) -> Setup:
    """One hex (or box) per unit of ``scenario``'s set-up. ``units``: (unit id, formation) of every
    unit of the counter manifest, in manifest order; ``counters``: the ids of the manifest's other
    counters that a set-up may place (``counter:``/``counters:``). A unit placed twice is an error; a
    counter placed twice is two copies of it."""
    taken: set[Hex] = set()
    hexes: list[tuple[str, str]] = []
    boxes: list[tuple[str, str]] = []
    used: list[str] = []
    placed: set[str] = set()
    formation_of = dict(units)
    members_of: dict[str, list[str]] = {}
    for uid, f in units:
        members_of.setdefault(f, []).append(uid)
    for p in scenario.setup:
        who = _who(scenario, p, formation_of, members_of, counters)
        if not p.counters:
            twice = [u for u in who if u in placed]
            if twice:
                raise _fail(scenario, p, f"unit {twice[0]!r} is placed twice", "each unit in one placement")
            placed.update(who)
        if p.used:
            used.extend(who)
        if p.box:
            boxes.extend((u, p.box) for u in who)
            continue
        if p.place:
            try:
                h = game_map.place(p.place).hex
            except KeyError:
                raise _fail(scenario, p, f"place {p.place!r} is not a place of the map", "a place of map.yaml") from None
            hexes.extend((u, game_map.label(h)) for u in who)
            continue
        if p.hexes:
            slots = [_hex(scenario, p, game_map, label) for label in p.hexes for _ in range(p.per_hex or len(who))]
            if len(who) > len(slots):
                raise _fail(scenario, p, f"{len(who)} units for {len(slots)} places",
                            f"at most {p.per_hex} unit(s) per hex of {', '.join(p.hexes)}")
            hexes.extend((u, game_map.label(h)) for u, h in zip(who, slots, strict=False))
            taken.update(slots)
            continue
        hexes.extend(_within(scenario, p, game_map, who, taken))
    return Setup(tuple(hexes), tuple(boxes), tuple(used))


def _within(scenario: Scenario, p: Placement, game_map: SetupMap, who: list[str], taken: set[Hex]
            ) -> list[tuple[str, str]]:
    """``within: {hex, distance}``: the units in the free hexes nearest the centre (``per_hex`` a hex),
    each hex then taken."""
    centre = _hex(scenario, p, game_map, p.centre)
    steps = game_map.grid.steps()  # a square map's cells are near by its own steps (docs/mapdata.md)
    near = centre.within(p.distance) if steps is None else [
        h for h in game_map.hexes() if steps.distance(centre, h) <= p.distance]
    cands = sorted((h for h in near if game_map.grid.contains(h) and h not in taken),
                   key=lambda h: (centre.distance(h) if steps is None else steps.distance(centre, h),
                                  game_map.label(h)))
    slots = [h for h in cands for _ in range(p.per_hex)]
    if len(slots) < len(who):
        raise _fail(scenario, p, f"{len(who)} units but {len(cands)} free hexes within {p.distance} of {p.centre}",
                    "a larger distance or fewer units")
    out = []
    for u, h in zip(who, slots, strict=False):
        out.append((u, game_map.label(h)))
        taken.add(h)
    return out


def find_scenario(game: Game, name: str, *, place: str = "--scenario") -> Scenario:
    """The scenario of ``game`` whose id or name is ``name``; bad input (with "did you mean") if none."""
    scenarios = load_scenarios(game)
    for sc in scenarios:
        if name in (sc.id, sc.name):
            return sc
    ids = [sc.id for sc in scenarios]
    raise GazalaError(f"{game.id} has no scenario {name!r}{did_you_mean(name, ids)}", place=place,
                      expected="one of: " + (", ".join(ids) or "none (the game has no scenarios.yaml)"))
