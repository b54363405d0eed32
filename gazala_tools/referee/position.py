"""The position the referee judges: units where they stand, the turn, and the rules plugin's own state.

A :class:`Position` is plain immutable data (python-chess ``BaseBoard`` style): where things are,
nothing about what is legal. It comes from a position YAML (:func:`parse_position`, schema below)
or from a VASSAL save (``gazala_tools.referee.saves``). What only one game has (RG's breach
markers and activations, DG's losses, BG's cleared hexes) is the game's rules plugin's state, kept
in :attr:`Position.extra` under the keys the plugin declares: the core never interprets it.

Position YAML schema (``docs/referee.md`` has the full description)::

    game: my-game                # required: a built-in game id (a game folder: --game DIR)
    turn: Turn 3                 # optional: a turn label of the game's turn record
    units:                       # required list; each unit is either a manifest unit ...
      - {id: red-1-inf, hex: "C-4"}
      # ... or an inline unit (side and type required, formation/steps optional)
      - {id: x1, side: red, type: armor, formation: 1st, hex: "C-5", steps: 3}
      - {id: b1, side: blue, type: infantry, hex: "D-5", markers: [out-of-supply]}
                                            # the game's markers (rules.markers)
      - {id: r1, side: blue, type: infantry, box: Turn 5}   # off the map
    # plus the top-level keys the game's rules plugin declares: its own state (``state_readers``,
    # e.g. RG ``breaches`` and ``activations``) and its plain keys (``extra_keys``, e.g. DG
    # ``losses: {axis: 2}``, SPI ``attacked: [ids]``, BG ``cleared: [hexes]``), kept in ``Position.extra``

Manifest fields override nothing: an inline ``side``/``type``/... on a manifest unit must agree
with the manifest or loading fails.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Container, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import yaml

from gazala_tools.errors import GazalaError, HexNameError
from gazala_tools.hexes import Hex, Hexside
from gazala_tools.yamlnodes import Doc, compose_text, did_you_mean, place_of, plain, read_text, show

__all__ = [
    "LabelWriter",
    "Labels",
    "Position",
    "StateReader",
    "StateWriter",
    "Unit",
    "Vocabulary",
    "game_named",
    "parse_position",
    "position_to_data",
    "read_node",
    "read_yaml",
    "unit_specs",
    "units_by_hex",
]

#: a unit's markers are the game's (``rules.markers`` of its ``game.yaml``, ``Vocabulary.markers``):
#: the core knows none by name


@dataclass(frozen=True, slots=True)
class Unit:
    """A combat unit. ``hex`` is None when the unit is off the map in ``box``."""

    id: str
    side: str
    type: str
    formation: str = ""
    hex: Hex | None = None
    box: str | None = None
    steps: int = 1
    markers: frozenset[str] = frozenset()
    full_steps: int = 0  #: the unit's steps at full strength (0: not known, e.g. an inline unit)

    @property
    def on_map(self) -> bool:
        return self.hex is not None

    @property
    def reduced(self) -> bool:
        """Below full strength (a step lost; DG depleted / BG reduced side)."""
        return self.steps < self.full_steps

    def has(self, marker: str) -> bool:
        return marker in self.markers


@dataclass(frozen=True)
class Position:
    game: str
    units: tuple[Unit, ...]
    turn: str | None = None
    source: str = ""
    #: the rules plugin's own state and keys (RG ``breaches``, DG ``losses``...): the core never reads it
    extra: Mapping[str, Any] = field(default_factory=dict)
    #: a save read through ``--mapping``: the unit-like pieces no pattern matched (None: no mapping)
    unmatched: tuple[str, ...] | None = None

    def unit(self, unit_id: str) -> Unit:
        for u in self.units:
            if u.id == unit_id:
                return u
        raise KeyError(unit_id)


@dataclass(frozen=True)
class Vocabulary:
    """The game's unit types and formations an inline unit must use (empty: not checked) and how
    formation names compare (``FormationNames.same``: ``21st Panzer`` is ``21 PZ``)."""

    types: frozenset[str] = frozenset()
    formations: frozenset[str] = frozenset()
    same: Callable[[str, str], bool] | None = None
    #: the game's marker ids (None: any marker is taken as written)
    markers: tuple[str, ...] | None = None

    def type_error(self, type_: str) -> tuple[str, str] | None:
        """``(problem, expected)`` when ``type_`` is not a unit type of the game, else None."""
        base = re.sub(r"\s*\d+(?:-\d+)+\s*$", "", type_)  # "armor 4-5-15": printed values in the type (units.py)
        if self.types and base and base not in self.types:
            return (f"unknown type {type_!r}{did_you_mean(type_, self.types)}",
                    "one of " + ", ".join(sorted(self.types)))
        return None

    def formation_error(self, formation: str) -> tuple[str, str] | None:
        """``(problem, expected)`` when ``formation`` is not a formation of the game, else None."""
        if formation and self.formations:
            same = self.same or (lambda a, b: a.strip().lower() == b.strip().lower())
            if not any(same(formation, f) for f in self.formations):
                return (f"unknown formation {formation!r}{did_you_mean(formation, self.formations)}",
                        "one of " + ", ".join(sorted(self.formations)))
        return None


class Labels(Protocol):
    """What the loader needs from a grid: label -> hex for any canonical label."""

    def parse(self, label: str) -> Hex: ...

    def hexside(self, label: str) -> Hexside: ...


def read_node(path: str | Path) -> yaml.Node:
    """Read a position YAML as YAML nodes (size, UTF-8, nesting and aliases capped:
    :mod:`gazala_tools.yamlnodes`), for :func:`parse_position` to name line and column."""
    p = Path(path)
    node = compose_text(read_text(p, "position", GazalaError), p, "position", GazalaError)
    if not isinstance(node, yaml.MappingNode):
        raise GazalaError(f"position YAML must be a mapping, got {show(node)}", file=p, place=place_of(node),
                          expected="keys game, turn, units")
    return node


def read_yaml(path: str | Path) -> dict[str, Any]:
    """Read a position YAML (or ``--mapping``) file into a mapping (no interpretation yet), through
    the capped data reader (size, UTF-8, nesting: :mod:`gazala_tools.yamlnodes`)."""
    p = Path(path)
    data = plain(read_node(p), file=p)
    assert isinstance(data, dict)
    return data


def game_named(node: yaml.Node, file: str | Path | None = None) -> tuple[str | None, str | None]:
    """The ``game:`` a position YAML's nodes name (None: none) and its line:column."""
    if isinstance(node, yaml.MappingNode):
        for k, v in node.value:
            if isinstance(k, yaml.ScalarNode) and k.value == "game":
                if isinstance(v, yaml.ScalarNode) and v.tag != _NULL and v.value:
                    return str(v.value), place_of(v)
                return None, place_of(v)
    return None, None


def _spec_get(spec: object, key: str) -> Any:
    if isinstance(spec, Mapping):
        return spec.get(key)
    return getattr(spec, key, None)


def unit_specs(manifest: object) -> dict[str, dict[str, Any]]:
    """Unit lookup for :func:`parse_position` from a counter manifest (``gazala_tools.counters``).

    Keys are unit ids (``axis-21pz-5-1``: full strength) and step-counter ids
    (``axis-21pz-5-1-s2``: that step); values give ``unit_id``, side, type, formation, ``steps``
    (the unit's full steps) and ``step`` (this counter's).

    A one-step counter whose back is its reduced side (``Counter.reduced_back``: DG depleted, BG
    reduced) is a unit of **two** steps, full strength 2 and reduced 1, as the module's Step layer
    has it, so a save and a position YAML agree (``Counter.unit_steps``, one definition for both).
    """
    out: dict[str, dict[str, Any]] = {}
    for c in getattr(manifest, "units", ()):
        uid = getattr(c, "unit_id", "") or c.id
        steps = c.unit_steps
        step = c.counter_step
        spec = {
            "unit_id": uid,
            "side": c.side,
            "type": c.type,
            "formation": getattr(c, "formation", ""),
            "steps": steps,
            "step": step,
        }
        out[c.id] = spec
        if uid not in out or spec["step"] == spec["steps"]:
            out[uid] = {**spec, "step": spec["steps"]}
    return out


_UNIT_KEYS = ("id", "hex", "box", "side", "type", "formation", "steps", "full_steps", "markers")
_CORE_KEYS = ("game", "turn", "units")
_NULL = "tag:yaml.org,2002:null"


class StateReader(Protocol):
    """How a rules plugin reads one of its own top-level keys of a position YAML into its typed state
    (``place``: the key, for errors). It is given the key's value as plain data; an error it raises
    whose place is a path under the key (``breaches[2]``) is re-raised at that value's line:column."""

    def __call__(self, value: object, labels: Labels, file: str | Path | None, place: str) -> object: ...


def _as_node(data: Mapping[str, Any] | yaml.Node) -> yaml.Node:
    """Nodes for position data given as Python data (a test's dict, a save's ``--mapping``): no line
    and column to name, so errors name the path alone."""
    if isinstance(data, yaml.Node):
        return data
    return yaml.representer.SafeRepresenter(sort_keys=False).represent_data(dict(data))


def parse_position(
    data: Mapping[str, Any] | yaml.Node,
    *,
    labels: Labels,
    manifest: Mapping[str, object] | None = None,
    file: str | Path | None = None,
    extra_keys: Collection[str] = (),
    extra_hex_keys: Collection[str] = (),
    sides: Collection[str] = (),
    extra_names: Mapping[str, Collection[str]] | None = None,
    vocabulary: Vocabulary | None = None,
    state_readers: Mapping[str, StateReader] | None = None,
    game: str | None = None,
) -> Position:
    """Build a :class:`Position` from a position YAML's nodes (:func:`read_node`) or the same data as
    Python data, every label parsed against ``labels``; every error names ``file:line:column`` (for
    nodes read from a file), the path (``units[3].hex``) and the bad value.

    ``extra_keys``: the game's own top-level keys (its rules plugin declares them), kept in
    :attr:`Position.extra` once checked: those in ``extra_hex_keys`` are lists of hex labels (kept
    as a frozenset of hexes), the others lists of unit ids or mappings of unit ids / ``sides`` to
    scalars, or scalars. ``state_readers``: the plugin's own state keys, each read by its reader
    (absent keys are not read: the plugin's default). Any other key is refused. ``game``: the game
    the position is read for (``--game``), in place of its ``game:``.
    """
    return _PositionReader(Doc(file if file is not None else "", GazalaError), labels=labels,
                           manifest=manifest, extra_keys=extra_keys, extra_hex_keys=extra_hex_keys, sides=sides,
                           extra_names=extra_names or {}, vocabulary=vocabulary,
                           state_readers=state_readers or {}).read(_as_node(data), game)


@dataclass
class _PositionReader:
    doc: Doc
    labels: Labels
    manifest: Mapping[str, object] | None
    extra_keys: Collection[str]
    extra_hex_keys: Collection[str]
    sides: Collection[str]
    extra_names: Mapping[str, Collection[str]]
    vocabulary: Vocabulary | None
    state_readers: Mapping[str, StateReader]

    @property
    def file(self) -> str | None:
        return str(self.doc.file) if self.doc.file else None

    def fields(self, node: yaml.Node, what: str, allowed: Collection[str]) -> dict[str, yaml.Node]:
        """A mapping's values by key, null values left out; an unknown key is an error naming it, its
        place and the closest allowed key."""
        if not isinstance(node, yaml.MappingNode):
            raise self.doc.err(node, f"{what} must be a mapping, got {show(node)}", expected=", ".join(allowed))
        for k, _v in node.value:
            name = k.value if isinstance(k, yaml.ScalarNode) else None
            if name not in allowed:
                shown = show(k)
                raise self.doc.err(k, f"{what}: unknown key {shown}{did_you_mean(str(name), allowed) if name else ''}",
                                   expected=", ".join(allowed))
        m = self.doc.mapping(node, what)
        return {k: v for k, v in m.items() if not _is_null(v)}

    def text(self, node: yaml.Node, what: str) -> str:
        return self.doc.scalar(node, what)

    def hex(self, node: yaml.Node, what: str) -> Hex:
        text = self.text(node, what)
        try:
            return self.labels.parse(text)
        except HexNameError as exc:
            raise self.doc.err(node, f"{what}: {exc.problem}", exc.expected) from None

    # --- the document ------------------------------------------------------------------------------
    def read(self, root: yaml.Node, game: str | None) -> Position:
        readers = self.state_readers
        known = (*_CORE_KEYS, *readers, *sorted(set(self.extra_keys) - set(_CORE_KEYS) - set(readers)))
        if not isinstance(root, yaml.MappingNode):
            raise self.doc.err(root, f"position YAML must be a mapping, got {show(root)}",
                               expected="keys " + ", ".join(known))
        for k, _v in root.value:
            name = k.value if isinstance(k, yaml.ScalarNode) else None
            if name not in known:
                raise self.doc.err(k, f"unknown key {show(k)}{did_you_mean(str(name), known) if name else ''}",
                                   expected=", ".join(known) + (f" (game {game})" if game else ""))
        top = self.fields(root, "position", known)
        if game is None:
            if "game" not in top:
                raise self.doc.err(root, "missing 'game'", expected="a built-in game id, or --game")
            game = self.text(top["game"], "game")
        turn = self.text(top["turn"], "turn") if "turn" in top else None
        if "units" not in top:
            raise self.doc.err(root, "missing 'units' list", expected="units: [{id: ..., hex: ...}, ...]")
        units: list[Unit] = []
        seen: dict[str, yaml.Node] = {}
        for i, node in enumerate(self.doc.seq(top["units"], "units")):
            what = f"units[{i}]"
            unit = self.unit(node, what)
            if unit.id in seen:
                raise self.doc.err(node, f"{what}: duplicate unit id {unit.id!r} (first at line "
                                   f"{(place_of(seen[unit.id]) or '?').split(':')[0]})", expected="unique ids")
            seen[unit.id] = node
            units.append(unit)
        extra: dict[str, Any] = {}
        for key, reader in readers.items():  # the plugin's state (a reader's None: nothing to keep)
            if key in top:
                got = self.state(key, reader, top[key])
                if got is not None:
                    extra[key] = got
        ids = set(seen)
        for key in sorted(set(top) & set(self.extra_keys) - set(_CORE_KEYS) - set(readers)):
            if key in self.extra_hex_keys:
                extra[key] = self.hex_list(key, top[key])
            elif key in self.extra_names:
                extra[key] = self.named_sides(key, top[key], self.extra_names[key])
            else:
                extra[key] = self.extra_value(key, top[key], ids)
        return Position(game=game, units=tuple(units), turn=turn, source=self.file or "", extra=extra)

    def state(self, key: str, reader: StateReader, node: yaml.Node) -> object:
        """The plugin reads its key from plain data; its error's place (a path under ``key``) is
        turned into that value's line:column."""
        try:
            return reader(plain(node, file=self.file), self.labels, self.file, key)
        except GazalaError as exc:
            path = exc.place if exc.place and exc.place.startswith(key) else key
            at = _node_at(node, path[len(key):])
            problem = exc.problem if exc.problem.startswith(path) else f"{path}: {exc.problem}"
            raise self.doc.err(at, problem, exc.expected) from None

    # --- a unit ------------------------------------------------------------------------------------
    def unit(self, node: yaml.Node, what: str) -> Unit:
        """One unit of ``units``: a manifest unit by its id, or an inline one (``side`` and ``type``
        given), on a hex or in a box, with its markers and steps."""
        m = self.fields(node, what, _UNIT_KEYS)
        uid, spec = self._unit_id(node, m, what)
        side, type_, formation = self._unit_kind(m, what, uid, spec)
        hx = self.hex(m["hex"], f"{what}.hex") if "hex" in m else None
        box = self.text(m["box"], f"{what}.box") if "box" in m else None
        if (hx is None) == (box is None):
            raise self.doc.err(m.get("box", node), f"{what}: unit {uid!r} needs exactly one of hex/box",
                               expected='hex: "0104" or box: NAME')
        markers = self._unit_markers(m, what, uid)
        steps, full = self._unit_steps(m, what, uid, spec)
        return Unit(
            id=uid,
            side=side.lower(),
            type=type_.lower(),
            formation=formation,
            hex=hx,
            box=box,
            steps=steps,
            markers=frozenset(markers),
            full_steps=full or 0,
        )

    def _unit_id(self, node: yaml.Node, m: Mapping[str, yaml.Node], what: str) -> tuple[str, object | None]:
        """The unit's id and its manifest entry (None: an inline unit); a step counter's id names its unit."""
        if "id" not in m:
            raise self.doc.err(node, f"{what}: unit without an id", expected="id: <unit id>")
        uid = self.text(m["id"], f"{what}.id")
        if not uid:
            raise self.doc.err(m["id"], f"{what}.id is empty", expected="id: <unit id>")
        spec = self.manifest.get(uid) if self.manifest is not None else None
        if spec is not None and _spec_get(spec, "unit_id"):
            uid = str(_spec_get(spec, "unit_id"))  # a step counter id names its unit
        return uid, spec

    def _unit_kind(self, m: Mapping[str, yaml.Node], what: str, uid: str,
                   spec: object | None) -> tuple[str, str, str]:
        """The unit's side, type and formation: the manifest's, or the input's (which must agree with
        the manifest's); an inline unit's type and formation among the game's words."""
        fields: dict[str, str | None] = {}
        for key in ("side", "type", "formation"):
            mine = self.text(m[key], f"{what}.{key}") if key in m else None
            theirs = _spec_get(spec, key) if spec is not None else None
            if mine is not None and theirs is not None and mine != str(theirs):
                raise self.doc.err(m[key], f"{what}.{key}: unit {uid!r}: {mine!r} disagrees with the manifest",
                                   expected=f"{str(theirs)!r} or nothing")
            fields[key] = mine if mine is not None else (str(theirs) if theirs is not None else None)
        side, type_, formation = fields["side"], fields["type"], fields["formation"] or ""
        if side is None or type_ is None:
            hint = did_you_mean(uid, self.manifest) if self.manifest else ""
            raise self.doc.err(m["id"], f"{what}.id: unit {uid!r} is not in the manifest{hint} and has no side/type",
                               expected="a manifest unit id, or inline side: and type:")
        if self.vocabulary is not None and spec is None:
            for key, bad in (("type", self.vocabulary.type_error(type_)),
                             ("formation", self.vocabulary.formation_error(formation))):
                if bad is not None:
                    raise self.doc.err(m[key], f"{what}.{key}: unit {uid!r}: {bad[0]}", expected=bad[1])
        return side, type_, formation

    def _unit_markers(self, m: Mapping[str, yaml.Node], what: str, uid: str) -> list[str]:
        """The unit's ``markers``, each one of the game's (``rules.markers``)."""
        markers: list[str] = []
        for i, mk in enumerate(self.doc.seq(m["markers"], f"{what}.markers") if "markers" in m else ()):
            text = self.text(mk, f"{what}.markers[{i}]")
            known = self.vocabulary.markers if self.vocabulary is not None else None
            if known is not None and text not in known:
                raise self.doc.err(mk, f"{what}.markers[{i}]: unit {uid!r}: unknown marker {text!r}"
                                   f"{did_you_mean(text, known)}",
                                   expected=" / ".join(known) + " (the game's rules.markers)")
            markers.append(text)
        return markers

    def _unit_steps(self, m: Mapping[str, yaml.Node], what: str, uid: str,
                    spec: object | None) -> tuple[int, int | None]:
        """The unit's steps and its full steps (None: not known): the input's, agreeing with the
        manifest's; by default the manifest counter's step, else full strength, else 1."""
        full = _spec_get(spec, "steps") if spec is not None else None
        full = full if isinstance(full, int) else None
        if "full_steps" in m:
            given = self.doc.integer(m["full_steps"], f"{what}.full_steps", lo=1)
            if full is not None and given != full:
                raise self.doc.err(m["full_steps"], f"{what}.full_steps: unit {uid!r}: {given} disagrees with "
                                   "the manifest", expected=f"{full} (the manifest's) or nothing")
            full = given
        if "steps" in m:
            steps = self.doc.integer(m["steps"], f"{what}.steps")
            if steps < 1 or (full is not None and steps > full):
                raise self.doc.err(m["steps"], f"{what}.steps: unit {uid!r}: {steps} steps is out of range",
                                   expected=f"1..{full if full is not None else 'its full steps'}")
        else:
            step = _spec_get(spec, "step") if spec is not None else None
            steps = step if isinstance(step, int) else full if full is not None else 1
        return steps, full

    # --- the plugin's plain keys -------------------------------------------------------------------
    def hex_list(self, key: str, node: yaml.Node) -> frozenset[Hex]:
        """An extra key's list of hex labels."""
        if not isinstance(node, yaml.SequenceNode):
            raise self.doc.err(node, f"{key} must be a list, got {show(node)}",
                               expected='a list of hex labels like ["0608"]')
        out: set[Hex] = set()
        for i, n in enumerate(node.value):
            h = self.hex(n, f"{key}[{i}]")
            if isinstance(self.labels, Container) and h not in self.labels:
                raise self.doc.err(n, f"{key}[{i}]: {n.value!r} is off the map", expected="a hex of the map")
            out.add(h)
        return frozenset(out)

    def named_sides(self, key: str, node: yaml.Node, names: Collection[str]) -> dict[str, str]:
        """An extra key mapping names of the game's data to a side: ``held: {Tobruk: axis}``."""
        if not isinstance(node, yaml.MappingNode):
            raise self.doc.err(node, f"{key} must be a mapping, got {show(node)}",
                               expected=f"{{NAME: SIDE}} with NAME one of {', '.join(names)}")
        by_lower = {n.lower(): n for n in names}
        out: dict[str, str] = {}
        for k, v in node.value:
            text = self.text(k, f"{key} key")
            name = by_lower.get(text.strip().lower())
            if name is None:
                raise self.doc.err(k, f"{key}: unknown name {text!r}{did_you_mean(text, names)}",
                                   expected=", ".join(names))
            side = self.text(v, f"{key}.{text}")
            if side not in self.sides:
                raise self.doc.err(v, f"{key}.{text}: {side!r} is not a side{did_you_mean(side, self.sides)}",
                                   expected=" or ".join(self.sides))
            out[name] = side
        return out

    def extra_value(self, key: str, node: yaml.Node, ids: Collection[str]) -> object:
        """An extra key's value: unit ids, a mapping of unit ids / side names to scalars, or a scalar."""
        if isinstance(node, yaml.SequenceNode):
            out: list[str] = []
            for i, n in enumerate(node.value):
                text = self.text(n, f"{key}[{i}]")
                if text not in ids:
                    raise self.doc.err(n, f"{key}[{i}]: unknown unit id {text!r}{did_you_mean(text, ids)}",
                                       expected="ids of units in 'units'")
                out.append(text)
            return out
        if isinstance(node, yaml.MappingNode):
            got: dict[str, object] = {}
            for k, v in node.value:
                text = self.text(k, f"{key} key")
                if text not in ids and text not in self.sides:
                    raise self.doc.err(k, f"{key}: unknown key {text!r}{did_you_mean(text, [*ids, *self.sides])}",
                                       expected=f"unit ids or {'/'.join(self.sides) or 'side names'}")
                value = plain(v, file=self.file)
                if not isinstance(value, str | int):
                    raise self.doc.err(v, f"{key}.{text}: bad value {show(v)}", expected="a number or a name")
                got[text] = value
            return got
        value = plain(node, file=self.file)
        if not isinstance(value, str | int):
            raise self.doc.err(node, f"{key}: bad value {show(node)}", expected="a list, mapping or scalar")
        return value


def _is_null(node: yaml.Node) -> bool:
    return isinstance(node, yaml.ScalarNode) and node.tag == _NULL


_STEP = re.compile(r"\[(\d+)\]|\.([^.\[]+)")


def _node_at(node: yaml.Node, path: str) -> yaml.Node:
    """The node a path like ``[2].hexside`` names under ``node``, as far as it goes."""
    for m in _STEP.finditer(path):
        if m.group(1) is not None and isinstance(node, yaml.SequenceNode):
            i = int(m.group(1))
            if i >= len(node.value):
                break
            node = node.value[i]
        elif m.group(2) is not None and isinstance(node, yaml.MappingNode):
            found = next((v for k, v in node.value if isinstance(k, yaml.ScalarNode) and k.value == m.group(2)), None)
            if found is None:
                break
            node = found
        else:
            break
    return node


def units_by_hex(units: Iterable[Unit]) -> dict[Hex, list[Unit]]:
    out: dict[Hex, list[Unit]] = {}
    for u in units:
        if u.hex is not None:
            out.setdefault(u.hex, []).append(u)
    return out


class LabelWriter(Protocol):
    def label(self, h: Hex) -> str: ...

    def hexside_label(self, side: Hexside) -> str: ...


#: how a rules plugin writes one of its state keys back as position-YAML data
StateWriter = Callable[[object, LabelWriter], object]


def position_to_data(position: Position, *, labels: LabelWriter,
                     state_writers: Mapping[str, StateWriter] | None = None) -> dict[str, Any]:
    """The position-YAML data of a position (every unit inline), the inverse of :func:`parse_position`
    (``state_writers``: the plugin's, for its own state keys)."""
    units: list[dict[str, Any]] = []
    for u in position.units:
        d: dict[str, Any] = {"id": u.id, "side": u.side, "type": u.type}
        if u.formation:
            d["formation"] = u.formation
        if u.hex is not None:
            d["hex"] = labels.label(u.hex)
        else:
            d["box"] = u.box
        d["steps"] = u.steps
        if u.full_steps and u.full_steps != u.steps:
            d["full_steps"] = u.full_steps
        if u.markers:
            d["markers"] = sorted(u.markers)
        units.append(d)
    data: dict[str, Any] = {"game": position.game}
    if position.turn is not None:
        data["turn"] = position.turn
    data["units"] = units
    writers = state_writers or {}
    for key, write in writers.items():  # the plugin's state first, in its order
        if key in position.extra:
            got = write(position.extra[key], labels)
            if got is not None:
                data[key] = got
    for key, value in position.extra.items():  # the game's extra keys; hex sets back to labels
        if key in writers:
            continue
        is_hexes = isinstance(value, frozenset) and all(isinstance(h, Hex) for h in value)
        data[key] = sorted(labels.label(h) for h in value) if is_hexes else value
    return data
