"""Positions from VASSAL saves of our modules: pieces -> units, status markers, breaches.

Every piece of our modules carries a ``Marker`` trait with ``UnitId``, ``Kind`` (unit / marker /
breach / chit), ``Side``, ``Formation``, ``Type`` and ``Steps`` (``gazala_tools.vassal.module.pieces``),
and its state in layers: ``Step_Level`` (1 = full strength), ``Out of Supply_Active``,
``Isolated_Active``, ``Disrupted_Active``, ``Used_Active``; breach markers ``Breach_Level`` (1 under
construction, 2 breached) and a six-way rotation.

Where a piece is: its VASSAL location name when the save was read with ``--module`` (a hex label),
otherwise the hex under its map coordinates on the map's grid (``GameMap.geometry()``, board
offset by the map's edge buffers). Units off the grid of the main map stand on the Turn Record
Track (box ``turn-record``, 8.3); units on another map stand in a box named after that map.

Interpretations: rotation index ``k`` of a breach marker points at the hexside in direction
``Direction(k)`` (N, NE, SE, S, SW, NW: VASSAL turns fixed-angle rotations clockwise); a breached
marker standing *in* a minefield box marks both sides of the box (14.1), one standing beside the
box marks the hexside it points at. The turn is the Turn Tracker's (``--turn`` overrides it).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, Protocol

from gazala_tools.errors import GazalaError, HexNameError
from gazala_tools.hexes import Direction, Hex
from gazala_tools.referee.engine import RulesPlugin
from gazala_tools.referee.position import (
    DISRUPTED,
    ISOLATED,
    OUT_OF_SUPPLY,
    USED,
    Breach,
    BreachState,
    Position,
    Unit,
)

log = logging.getLogger(__name__)

LAYER_MARKERS = {"Out of Supply": OUT_OF_SUPPLY, "Isolated": ISOLATED, "Disrupted": DISRUPTED, "Used": USED}


class PieceLike(Protocol):
    """What the adapter reads from a save's piece (``gazala_tools.vassal.saves.Piece``)."""

    id: str
    map: str | None
    x: int
    y: int
    location: str | None

    @property
    def properties(self) -> dict[str, str]: ...


def _piece_hex(p: Any, rules: RulesPlugin) -> Hex | None:
    """The map hex of a piece: its VASSAL location name if it is a label of the grid, else the hex
    under its map coordinates (board offset by the map's edge buffers); None off the grid."""
    game_map = rules.map
    grid = game_map.grid
    if p.location:
        try:
            return grid.hex(p.location)
        except HexNameError:
            pass
    h = game_map.geometry().hex_at(p.x - game_map.pixels.edge_width, p.y - game_map.pixels.edge_height)
    return h if h in grid else None


#: Our modules' board map; its margins hold the Turn Record Track (8.3: exited units wait there).
MAIN_MAP = "Main Map"


def _box_of(map_name: str | None) -> str:
    """The off-map box of a piece that is on a map but off its hex grid."""
    return "turn-record" if map_name == MAIN_MAP else str(map_name)


def _rotation(piece: Any) -> int:
    for t in getattr(getattr(piece, "definition", None), "traits", ()):
        if getattr(t, "id", "") == "rotate;":
            try:
                return int(str(t.state).split(";")[0] or 0) % 6
            except ValueError:
                return 0
    return 0


def position_from_pieces(
    pieces: Iterable[PieceLike],
    *,
    rules: RulesPlugin,
    manifest: Mapping[str, Mapping[str, Any]] | None = None,
    turn: str | None = None,
    source: str = "<save>",
) -> Position:
    units: list[Unit] = []
    breaches: list[Breach] = []
    boxes = set(rules.active_minefield_hexes_at(turn)) if hasattr(rules, "active_minefield_hexes_at") else set()
    for p in pieces:
        props = p.properties
        kind = props.get("Kind", "").lower()
        if kind not in ("unit", "breach") or p.map is None:
            continue
        where = _piece_hex(p, rules)
        uid = props.get("UnitId") or p.id
        if kind == "breach":
            if where is None:
                continue  # breach markers waiting off the board
            state = BreachState.BREACHED if props.get("Breach_Level", "1") == "2" else BreachState.UNDER_CONSTRUCTION
            side = where.side(Direction(_rotation(p)))
            breaches.append(Breach(hexside=side, state=state, through=state is BreachState.BREACHED and where in boxes,
                                   at=where))
            continue
        spec = manifest.get(uid) if manifest is not None else None
        full = int(props.get("Steps") or (spec or {}).get("steps") or 1)
        level = int(props.get("Step_Level") or 1)
        markers = frozenset(m for layer, m in LAYER_MARKERS.items() if props.get(f"{layer}_Active") == "true")
        units.append(Unit(
            id=uid,
            side=(props.get("Side") or (spec or {}).get("side") or "").lower(),
            type=(props.get("Type") or (spec or {}).get("type") or "").lower(),
            formation=props.get("Formation") or (spec or {}).get("formation") or "",
            hex=where,
            box=None if where is not None else _box_of(p.map),
            steps=max(1, full - (level - 1)),
            markers=markers,
            restricted=bool((spec or {}).get("restricted")),
            full_steps=full,
        ))
    return Position(game=rules.game, units=tuple(units), turn=turn, breaches=tuple(breaches), source=source)


class PieceMapping:
    """A ``--mapping`` file: how pieces of *another* module of the game become our units and markers.

    YAML::

        units:                                   # first match wins; regex on the piece name
          - {match: "^5/1 \\(21", id: axis-21pz-5-1}          # a manifest unit id
          - {match: "^(?P<id>[^ ]+) Ital", side: axis, type: infantry}   # inline; (?P<id>) names it
        markers:                                 # marker pieces: mark every unit of their stack
          - {match: "Out of Supply", marker: out-of-supply}
          - {match: "^Isol", marker: isolated}
        properties:                              # or a property of the unit piece itself
          - {property: "OOS_Active", value: "true", marker: out-of-supply}
    """

    def __init__(self, data: Mapping[str, Any], file: str) -> None:
        import re

        def rx(entry: Mapping[str, Any], place: str) -> re.Pattern[str]:
            try:
                return re.compile(str(entry["match"]))
            except (KeyError, re.error) as exc:
                raise GazalaError(f"bad match ({exc})", file=file, place=place, expected="match: <regex>") from None

        self.units = [(rx(e, f"units[{i}]"), dict(e)) for i, e in enumerate(data.get("units") or [])]
        self.markers = [(rx(e, f"markers[{i}]"), str(e.get("marker"))) for i, e in enumerate(data.get("markers") or [])]
        self.properties = [(str(e.get("property")), str(e.get("value", "true")), str(e.get("marker")))
                           for e in data.get("properties") or []]
        for m in [m for _r, m in self.markers] + [m for _p, _v, m in self.properties]:
            if m not in (OUT_OF_SUPPLY, ISOLATED, DISRUPTED, USED):
                raise GazalaError(f"unknown marker {m!r}", file=file, expected="out-of-supply/isolated/disrupted/used")
        if not self.units:
            raise GazalaError("mapping has no 'units'", file=file, expected="units: [{match: ..., id: ...}]")

    @classmethod
    def read(cls, path: str | Path) -> PieceMapping:
        from gazala_tools.referee.position import read_yaml

        return cls(read_yaml(path), str(path))

    def unit(self, name: str) -> dict[str, Any] | None:
        for r, e in self.units:
            m = r.search(name)
            if m:
                out = {k: v for k, v in e.items() if k != "match"}
                if "id" not in out and "id" in r.groupindex:
                    out["id"] = m.group("id")
                return out
        return None

    def marker(self, name: str) -> str | None:
        return next((mk for r, mk in self.markers if r.search(name)), None)


def position_from_mapped_pieces(
    pieces: Iterable[Any],
    *,
    rules: RulesPlugin,
    mapping: PieceMapping,
    manifest: Mapping[str, Mapping[str, Any]] | None = None,
    turn: str | None = None,
    source: str = "<save>",
) -> Position:
    """Units of another module's save, named by ``mapping``; marker pieces mark their stack's units."""
    found: list[tuple[Any, dict[str, Any], Hex | None]] = []
    stack_marks: dict[str, set[str]] = {}
    for p in pieces:
        if p.map is None:
            continue
        name = p.name
        mk = mapping.marker(name)
        if mk is not None:
            stack_marks.setdefault(p.stack or f"piece:{p.id}", set()).add(mk)
            continue
        spec = mapping.unit(name)
        if spec is None:
            continue
        where = _piece_hex(p, rules)
        found.append((p, spec, where))
    units: list[Unit] = []
    for p, spec, where in found:
        uid = str(spec.get("id") or p.id)
        ms = (manifest or {}).get(uid) or {}
        props = p.properties
        markers = set(stack_marks.get(p.stack or f"piece:{p.id}", set()))
        markers |= {mk for prop, val, mk in mapping.properties if props.get(prop) == val}
        units.append(Unit(
            id=str(ms.get("unit_id") or uid),
            side=str(spec.get("side") or ms.get("side") or "").lower(),
            type=str(spec.get("type") or ms.get("type") or "").lower(),
            formation=str(spec.get("formation") or ms.get("formation") or ""),
            hex=where,
            box=None if where is not None else _box_of(p.map),
            steps=int(spec.get("steps") or ms.get("step") or ms.get("steps") or 1),
            markers=frozenset(markers),
            restricted=bool(ms.get("restricted")),
            full_steps=int(ms.get("steps") or 0),
        ))
        if not units[-1].side or not units[-1].type:
            raise GazalaError(f"piece {p.name!r} maps to {uid!r} without side/type", file=source,
                              expected="a manifest unit id or side: and type: in the mapping")
    return Position(game=rules.game, units=tuple(units), turn=turn, source=source)


def turn_from_tree(tree: Any, turns: tuple[str, ...]) -> str | None:
    """The turn label a save's Turn Tracker shows (its last ``TURN`` command), or None.

    VASSAL ``TurnTracker.getState()`` is ``currentLevel|level0|level1...`` and a ``ListTurnLevel``
    state is ``current;currentSubLevel;first;active flags``: ``current`` indexes the module's turn
    list, which for our modules is the game's turn record (``RulesPlugin.turns``).
    """
    from gazala_tools.vassal.saves import sequence
    from gazala_tools.vassal.saves.commands import Turn, walk

    state = None
    for node in walk(tree):
        if isinstance(node, Turn):
            state = node.state
    if state is None:
        return None
    parts = sequence.decode(state, "|")
    if len(parts) < 2:
        return None
    level = sequence.decode(parts[1], ";")
    try:
        current = int(level[0])
    except (ValueError, IndexError):
        return None
    # A CounterTurnLevel state is current;currentSubLevel;loop;loopLimit: current is the number.
    if len(level) > 2 and level[2] in ("true", "false"):
        return str(current) if not turns or str(current) in turns else None
    if not turns:
        return None
    # A ListTurnLevel state is current;currentSubLevel;first;active flags. Our modules put a
    # pre-game "Set-up" entry before the turn record; the flags (one per list entry) say whether
    # this save's list has it. Set-up reads as turn one.
    flags = sequence.decode(level[3], ",") if len(level) > 3 and level[3] else []
    if len(flags) == len(turns) + 1:
        current = max(current - 1, 0)
    return turns[current] if 0 <= current < len(turns) else None


def position_from_save(
    path: Path,
    *,
    rules: RulesPlugin,
    manifest: Mapping[str, Mapping[str, Any]] | None,
    module: str | Path | None = None,
    mapping: str | Path | None = None,
    turn: str | None = None,
) -> Position:
    """Read a .vsav/.vlog of our module, or of another module of the game with a ``mapping`` file."""
    from gazala_tools.vassal.saves import read_save

    save = read_save(path, module=module)
    if turn is None:
        turn = turn_from_tree(save.tree, rules.turns)
    if mapping is not None:
        return position_from_mapped_pieces(save.position.pieces.values(), rules=rules, mapping=PieceMapping.read(mapping),
                                           manifest=manifest, turn=turn, source=str(path))
    return position_from_pieces(save.position.pieces.values(), rules=rules, manifest=manifest, turn=turn,
                                source=str(path))


def _layer_state(state: str, active: bool) -> str:
    """A layer's state with its activity set (VASSAL stores inactive layers as a negative level)."""
    try:
        level = abs(int(state)) or 1
    except ValueError:
        level = 1
    return str(level if active else -level)


def fix_save(path: Path, out: Path, *, markers: Iterable[Any]) -> int:
    """Write a copy of the save at ``out`` with the supply markers changed as ``markers`` require
    (``MarkerChange`` values): one ChangePiece command per unit just before ``end_save``.
    Returns the number of pieces changed."""
    from gazala_tools.vassal.saves import read_save
    from gazala_tools.vassal.saves.commands import ChangePiece
    from gazala_tools.vassal.saves.traits import join_chain
    from gazala_tools.vassal.saves.writer import SaveEditor, write_copy

    save = read_save(path)
    by_unit = {p.properties.get("UnitId"): p for p in save.position.pieces.values()
               if p.properties.get("Kind") == "unit" and p.map is not None}
    layer_of = {v: k for k, v in LAYER_MARKERS.items()}
    editor = SaveEditor(save.tree, file=str(path))
    changes: list[ChangePiece] = []
    for mc in markers:
        piece = by_unit.get(mc.unit)
        if piece is None:
            raise GazalaError(f"unit {mc.unit!r} is not on a map of the save", file=path)
        want = {layer_of[m]: True for m in (mc.add,) if m} | {layer_of[m]: False for m in (mc.remove,) if m}
        old = list(piece.states)
        new = list(old)
        for i, tr in enumerate(piece.definition.traits):
            f = tr.fields() if tr.id == "emb2;" else []
            name = f[18] if len(f) > 18 else ""
            if name in want:
                new[i] = _layer_state(old[i], want[name])
        if new != old:
            changes.append(ChangePiece(piece.id, join_chain(new), join_chain(old)))
    editor.insert(changes)
    write_copy(out, save.container, save.tree, inputs=[path])
    return len(changes)
