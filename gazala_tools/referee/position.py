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
                                            # out-of-supply | isolated | disrupted | used
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

from gazala_tools.errors import GazalaError, HexNameError
from gazala_tools.hexes import Hex, Hexside

#: Marker names the referee understands (position YAML spellings).
OUT_OF_SUPPLY = "out-of-supply"
ISOLATED = "isolated"
DISRUPTED = "disrupted"
USED = "used"
MARKERS = (OUT_OF_SUPPLY, ISOLATED, DISRUPTED, USED)
#: Counter back-face states that are the unit's reduced step (the unit has two steps).


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

    def check(self, uid: str, type_: str, formation: str, file: str | Path | None, place: str) -> None:
        base = re.sub(r"\s*\d+(?:-\d+)+\s*$", "", type_)  # "armor 4-5-15": printed values in the type (units.py)
        if self.types and base and base not in self.types:
            raise GazalaError(f"unit {uid!r}: unknown type {type_!r}{_did_you_mean(type_, self.types)}", file=file,
                              place=place, expected="one of " + ", ".join(sorted(self.types)))
        if formation and self.formations:
            same = self.same or (lambda a, b: a.strip().lower() == b.strip().lower())
            if not any(same(formation, f) for f in self.formations):
                raise GazalaError(f"unit {uid!r}: unknown formation {formation!r}"
                                  f"{_did_you_mean(formation, self.formations)}", file=file, place=place,
                                  expected="one of " + ", ".join(sorted(self.formations)))


class Labels(Protocol):
    """What the loader needs from a grid: label -> hex for any canonical label."""

    def parse(self, label: str) -> Hex: ...

    def hexside(self, label: str) -> Hexside: ...


def read_yaml(path: str | Path) -> dict[str, Any]:
    """Read a position YAML (or ``--mapping``) file into a mapping (no interpretation yet), through
    the capped data reader (size, UTF-8, nesting: :mod:`gazala_tools.yamlnodes`)."""
    from gazala_tools.yamlnodes import compose_text, plain, read_text

    p = Path(path)
    data = plain(compose_text(read_text(p, "position", GazalaError), p, "position", GazalaError), file=p)
    if not isinstance(data, dict):
        raise GazalaError("position YAML must be a mapping", file=p, expected="keys game, turn, units")
    return data


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


_UNIT_KEYS = {"id", "side", "type", "formation", "hex", "box", "steps", "full_steps", "markers"}
_CORE_KEYS = ("game", "turn", "units")


class StateReader(Protocol):
    """How a rules plugin reads one of its own top-level keys of a position YAML into its typed state
    (``place``: the key, for errors)."""

    def __call__(self, value: object, labels: Labels, file: str | Path | None, place: str) -> object: ...


def parse_position(
    data: Mapping[str, Any],
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
) -> Position:
    """Build a :class:`Position` from position-YAML data, every label parsed against ``labels``.

    ``extra_keys``: the game's own top-level keys (its rules plugin declares them), kept in
    :attr:`Position.extra` once checked: those in ``extra_hex_keys`` are lists of hex labels (kept
    as a frozenset of hexes), the others lists of unit ids or mappings of unit ids / ``sides`` to
    scalars, or scalars. ``state_readers``: the plugin's own state keys, each read by its reader
    (absent keys are not read: the plugin's default). Any other key is refused.
    """
    readers = dict(state_readers or {})
    known = (*_CORE_KEYS, *readers, *sorted(set(extra_keys) - set(_CORE_KEYS) - set(readers)))
    unknown = set(data) - set(known)
    if unknown:
        raise GazalaError(
            f"unknown key(s) {', '.join(sorted(map(str, unknown)))}",
            file=file,
            place=", ".join(sorted(map(str, unknown))),
            expected=f"{', '.join(known)} (game {data.get('game')!s})",
        )
    game = data.get("game")
    if not isinstance(game, str):
        raise GazalaError("missing 'game'", file=file, expected="a built-in game id, or --game")
    turn = data.get("turn")
    if turn is not None and not isinstance(turn, str):
        turn = str(turn)
    raw_units = data.get("units")
    if not isinstance(raw_units, list):
        raise GazalaError("missing 'units' list", file=file, expected="units: [{id: ..., hex: ...}, ...]")
    units: list[Unit] = []
    seen: set[str] = set()
    for i, ru in enumerate(raw_units):
        place = f"units[{i}]"
        if not isinstance(ru, Mapping):
            raise GazalaError("unit must be a mapping", file=file, place=place, expected="{id: ..., hex: ...}")
        units.append(_parse_unit(ru, labels, manifest, file, place))
        if vocabulary is not None and (manifest is None or ru.get("id") not in manifest):
            vocabulary.check(units[-1].id, units[-1].type, units[-1].formation, file, place)
        if units[-1].id in seen:
            raise GazalaError(f"duplicate unit id {units[-1].id!r}", file=file, place=place, expected="unique ids")
        seen.add(units[-1].id)
    extra: dict[str, Any] = {}
    for key, reader in readers.items():  # the plugin's state (a reader's None: nothing to keep)
        got = reader(data[key], labels, file, key) if key in data else None
        if got is not None:
            extra[key] = got
    for key in sorted(set(data) & set(extra_keys) - set(_CORE_KEYS) - set(readers)):
        if key in extra_hex_keys:
            extra[key] = _hex_list(key, data[key], labels, file)
        elif extra_names and key in extra_names:
            extra[key] = _named_sides(key, data[key], extra_names[key], sides, file)
        else:
            _check_extra(key, data[key], seen, sides, file)
            extra[key] = data[key]
    return Position(
        game=game,
        units=tuple(units),
        turn=turn,
        source=str(file) if file is not None else "",
        extra=extra,
    )


def _hex_list(key: str, value: object, labels: Labels, file: str | Path | None) -> frozenset[Hex]:
    """An extra key's list of hex labels."""
    if not isinstance(value, list):
        raise GazalaError(f"{key}: not a list", file=file, place=key, expected='a list of hex labels like ["0608"]')
    out: set[Hex] = set()
    for i, label in enumerate(value):
        try:
            h = labels.parse(str(label))
        except HexNameError as exc:
            raise GazalaError(f"{key}: {exc.problem}", file=file, place=f"{key}[{i}]", expected=exc.expected) from None
        if isinstance(labels, Container) and h not in labels:
            raise GazalaError(f"{key}: {label!r} is off the map", file=file, place=f"{key}[{i}]",
                              expected="a hex of the map")
        out.add(h)
    return frozenset(out)


def _named_sides(key: str, value: object, names: Collection[str], sides: Collection[str],
                 file: str | Path | None) -> dict[str, str]:
    """An extra key mapping names of the game's data to a side: ``held: {Tobruk: axis}``."""
    if not isinstance(value, Mapping):
        raise GazalaError(f"{key}: not a mapping", file=file, place=key,
                          expected=f"{{NAME: SIDE}} with NAME one of {', '.join(names)}")
    by_lower = {n.lower(): n for n in names}
    out: dict[str, str] = {}
    for k, v in value.items():
        name = by_lower.get(str(k).strip().lower())
        if name is None:
            raise GazalaError(f"{key}: unknown name {k!r}{_did_you_mean(str(k), names)}", file=file,
                              place=f"{key}.{k}", expected=", ".join(names))
        if str(v) not in sides:
            raise GazalaError(f"{key}.{k}: {v!r} is not a side", file=file, place=f"{key}.{k}",
                              expected=" or ".join(sides))
        out[name] = str(v)
    return out


def _did_you_mean(word: str, choices: Iterable[str]) -> str:
    """``" (did you mean 'Pavia'?)"`` for a close choice, else ``""``."""
    import difflib

    by_lower = {c.lower(): c for c in choices}
    got = difflib.get_close_matches(word.lower(), list(by_lower), n=1, cutoff=0.6)
    return f" (did you mean {by_lower[got[0]]!r}?)" if got else ""


def _check_extra(key: str, value: object, ids: Collection[str], sides: Collection[str], file: str | Path | None) -> None:
    """An extra key's value: unit ids, a mapping of unit ids / side names to scalars, or a scalar."""
    if isinstance(value, list):
        unknown = [v for v in value if v not in ids]
        if unknown:
            raise GazalaError(f"{key}: unknown unit id(s) {', '.join(map(str, unknown))}", file=file, place=key,
                              expected="ids of units in 'units'")
    elif isinstance(value, Mapping):
        unknown = [k for k in value if k not in ids and k not in sides]
        if unknown:
            raise GazalaError(f"{key}: unknown key(s) {', '.join(map(str, unknown))}", file=file, place=key,
                              expected=f"unit ids or {'/'.join(sides) or 'side names'}")
        bad = [k for k, v in value.items() if not isinstance(v, str | int)]
        if bad:
            raise GazalaError(f"{key}: bad value for {', '.join(map(str, bad))}", file=file, place=key,
                              expected="a number or a name")
    elif not isinstance(value, str | int):
        raise GazalaError(f"{key}: bad value {value!r}", file=file, place=key, expected="a list, mapping or scalar")


def _parse_unit(
    ru: Mapping[str, Any], labels: Labels, manifest: Mapping[str, object] | None, file: str | Path | None, place: str
) -> Unit:
    extra = set(ru) - _UNIT_KEYS
    if extra:
        raise GazalaError(
            f"unknown unit key(s) {', '.join(sorted(map(str, extra)))}",
            file=file,
            place=place,
            expected=", ".join(sorted(_UNIT_KEYS)),
        )
    uid = ru.get("id")
    if not isinstance(uid, str) or not uid:
        raise GazalaError("unit without an id", file=file, place=place, expected="id: <unit id>")
    spec = manifest.get(uid) if manifest is not None else None
    if spec is not None and _spec_get(spec, "unit_id"):
        uid = str(_spec_get(spec, "unit_id"))  # a step counter id names its unit
    fields: dict[str, Any] = {}
    for key in ("side", "type", "formation"):
        mine, theirs = ru.get(key), _spec_get(spec, key) if spec is not None else None
        if mine is not None and theirs is not None and str(mine) != str(theirs):
            raise GazalaError(
                f"unit {uid!r}: {key} {mine!r} disagrees with the manifest",
                file=file,
                place=place,
                expected=f"{theirs!r} or nothing",
            )
        fields[key] = mine if mine is not None else theirs
    if fields["side"] is None or fields["type"] is None:
        raise GazalaError(
            f"unit {uid!r} is not in the manifest and has no side/type",
            file=file,
            place=place,
            expected="a manifest unit id, or inline side: and type:",
        )
    hx: Hex | None = None
    if ru.get("hex") is not None:
        try:
            hx = labels.parse(str(ru["hex"]))
        except HexNameError as exc:
            raise GazalaError(f"unit {uid!r}: {exc.problem}", file=file, place=place, expected=exc.expected) from None
    box = ru.get("box")
    if (hx is None) == (box is None):
        raise GazalaError(f"unit {uid!r} needs exactly one of hex/box", file=file, place=place, expected='hex: "0104" or box: NAME')
    markers = ru.get("markers") or []
    if not isinstance(markers, list) or any(m not in MARKERS for m in markers):
        raise GazalaError(f"unit {uid!r}: bad markers {markers!r}", file=file, place=place, expected=" / ".join(MARKERS))
    full = _spec_get(spec, "steps") if spec is not None else None
    given_full = ru.get("full_steps")
    if given_full is not None:
        if not isinstance(given_full, int) or given_full < 1 or (isinstance(full, int) and given_full != full):
            raise GazalaError(f"unit {uid!r}: bad full_steps {given_full!r}", file=file, place=place,
                              expected=f"{full} (the manifest's)" if isinstance(full, int) else "an integer >= 1")
        full = given_full
    steps = ru.get("steps")
    if steps is None:
        steps = _spec_get(spec, "step") if spec is not None else None
    steps = steps if steps is not None else full if full is not None else 1
    if not isinstance(steps, int) or steps < 1 or (isinstance(full, int) and steps > full):
        raise GazalaError(f"unit {uid!r}: bad steps {steps!r}", file=file, place=place,
                          expected=f"an integer from 1 to {full if isinstance(full, int) else 'the unit steps'}")
    return Unit(
        id=uid,
        side=str(fields["side"]).lower(),
        type=str(fields["type"]).lower(),
        formation=str(fields["formation"] or ""),
        hex=hx,
        box=str(box) if box is not None else None,
        steps=steps,
        markers=frozenset(markers),
        full_steps=full if isinstance(full, int) else 0,
    )


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
