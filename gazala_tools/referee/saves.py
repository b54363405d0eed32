"""Positions from VASSAL saves: the save reader's typed view (:class:`~gazala_tools.vsav.SaveView`)
turned into units, status markers, the rules plugin's own state pieces and the turn.

Every piece of our modules carries a ``Marker`` trait with ``UnitId``, ``Kind`` (unit / marker /
breach / chit), ``SideId`` (the side's id of game.yaml; ``Side`` is its name), ``Formation``, ``Type``
and ``Steps`` (``gazala_tools.vassal.module.pieces``),
and its state in layers: ``Step`` (level 1 = full strength), ``Out of Supply``, ``Isolated``,
``Disrupted``, ``Used``. Pieces of a ``Kind`` the rules plugin declares
(``RulesPlugin.state_piece_kinds``: RG's breach markers) are its state: the plugin reads them with
their hexes (``RulesPlugin.state_from_pieces``). The save reader decodes layers and rotations
(``PieceView.layers``, ``PieceView.rotation``); this module never reads a trait string.

Where a piece is: its VASSAL location name when the save was read with ``--module`` (a hex label),
otherwise the hex under its map coordinates on the map's grid (``GameMap.geometry()``, board
offset by the map's edge buffers). Units off the grid of the main map stand on the Turn Record
Track (box ``turn-record``, 8.3); units on another map of our module (holding boxes) stand in the
box the module names there (their location, with ``--module``), else in a box named after that map.
The turn is the Turn Tracker's (``--turn`` overrides it).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gazala_tools.errors import GazalaError, HexNameError
from gazala_tools.hexes import Hex
from gazala_tools.referee.engine import RulesPlugin
from gazala_tools.referee.position import Position, Unit
from gazala_tools.referee.ruledata import PieceWords
from gazala_tools.yamlnodes import did_you_mean

if TYPE_CHECKING:  # pragma: no cover
    from gazala_tools.vsav import PieceView, Save, TurnView
    from gazala_tools.vsav.commands import Node

__all__ = [
    "MAIN_MAP",
    "BoxAt",
    "PieceMapping",
    "fix_save",
    "layer_markers",
    "log",
    "looks_like_unit",
    "position_from_mapped_pieces",
    "position_from_pieces",
    "position_from_save",
    "turn_from_tree",
    "turn_label",
]

log = logging.getLogger(__name__)



def layer_markers(rules: RulesPlugin) -> dict[str, str]:
    """The status layers of the game's module -> the marker each shows: the game's ``rules.markers``
    (a marker's layer is its ``name``), one list for the module builder and the referee."""
    return {m.name: m.id for m in rules.data.markers.values()}

#: Our modules' board map; its margins hold the Turn Record Track (8.3: exited units wait there).
MAIN_MAP = "Main Map"


def _piece_hex(p: PieceView, rules: RulesPlugin) -> Hex | None:
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


#: which box of a map (its name) a point lies in, None: none (the game folder's holding boxes)
BoxAt = Callable[[str, int, int], str | None]


def _box_of(p: PieceView, box_at: BoxAt | None = None) -> str:
    """The off-map box of a piece that is on a map but off its hex grid: on another map, the box
    (zone) it stands in when the module named it (``--module``) or the game folder's boxes do
    (``box_at``), else that map."""
    if p.map == MAIN_MAP:
        return "turn-record"
    named = p.location or (box_at(p.map, p.x, p.y) if box_at is not None and p.map is not None else None)
    return named or str(p.map)


def _steps(value: object, p: PieceView, source: str) -> int:
    """A unit's full steps (its ``Steps`` property): a small positive integer, else bad input."""
    text = str(value).strip()
    if not (text.isascii() and text.isdigit() and len(text) <= 3 and int(text) >= 1):
        shown = text if len(text) <= 20 else text[:17] + "..."
        raise GazalaError(f"piece {p.id} ({p.name[:40]!r}): Steps {shown!r} is not a number of steps", file=source,
                          expected="Steps: a whole number 1..999")
    return int(text)


def position_from_pieces(
    pieces: Iterable[PieceView],
    *,
    rules: RulesPlugin,
    manifest: Mapping[str, Mapping[str, Any]] | None = None,
    turn: str | None = None,
    source: str = "<save>",
    box_at: BoxAt | None = None,
) -> Position:
    """Units and the plugin's state pieces of our module's pieces (their ``Marker`` properties and
    layers); ``box_at``: the game folder's holding boxes, for a save read without its module."""
    units: list[Unit] = []
    state_pieces: list[tuple[PieceView, Hex]] = []
    layers = layer_markers(rules)
    for p in pieces:
        props = p.properties
        kind = props.get("Kind", "").lower()
        if (kind != "unit" and kind not in rules.state_piece_kinds) or p.map is None:
            continue
        where = _piece_hex(p, rules) if p.map == MAIN_MAP else None  # our modules' other maps hold boxes, no hexes
        uid = props.get("UnitId") or p.id
        if kind != "unit":
            if where is not None:  # state markers waiting off the board are no state
                state_pieces.append((p, where))
            continue
        spec = manifest.get(uid) if manifest is not None else None
        full = _steps(props.get("Steps") or (spec or {}).get("steps") or 1, p, source)
        level = p.layer_level("Step")
        markers = frozenset(m for layer, m in layers.items() if p.layer_active(layer))
        units.append(Unit(
            id=uid,
            side=(props.get("SideId") or props.get("Side") or (spec or {}).get("side") or "").lower(),
            type=(props.get("Type") or (spec or {}).get("type") or "").lower(),
            formation=props.get("Formation") or (spec or {}).get("formation") or "",
            hex=where,
            box=None if where is not None else _box_of(p, box_at),
            steps=max(1, full - (level - 1)),
            markers=markers,
            full_steps=full,
        ))
    extra = rules.state_from_pieces(state_pieces, turn) if state_pieces else {}
    return Position(game=rules.game.id, units=tuple(units), turn=turn, source=source, extra=extra)


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

    def __init__(self, data: Mapping[str, Any], file: str, markers: Iterable[str] | None = None) -> None:
        def rx(entry: Mapping[str, Any], place: str) -> re.Pattern[str]:
            try:
                return re.compile(str(entry["match"]))
            except (KeyError, re.error) as exc:
                raise GazalaError(f"bad match ({exc})", file=file, place=place, expected="match: <regex>") from None

        def entries(key: str) -> list[Mapping[str, Any]]:
            got = data.get(key) or []
            if not isinstance(got, list) or not all(isinstance(e, Mapping) for e in got):
                raise GazalaError(f"{key} must be a list of mappings", file=file, place=key,
                                  expected=f"{key}: [{{match: ..., ...}}]")
            return got

        entries("units"), entries("markers"), entries("properties")
        self.units = [(rx(e, f"units[{i}]"), dict(e)) for i, e in enumerate(data.get("units") or [])]
        self.markers = [(rx(e, f"markers[{i}]"), str(e.get("marker"))) for i, e in enumerate(data.get("markers") or [])]
        self.properties = [(str(e.get("property")), str(e.get("value", "true")), str(e.get("marker")))
                           for e in data.get("properties") or []]
        known = tuple(markers) if markers is not None else None
        for m in [m for _r, m in self.markers] + [m for _p, _v, m in self.properties]:
            if known is not None and m not in known:
                raise GazalaError(f"unknown marker {m!r}{did_you_mean(m, known)}", file=file,
                                  expected="/".join(known) + " (the game's rules.markers)")
        if not self.units:
            raise GazalaError("mapping has no 'units'", file=file, expected="units: [{match: ..., id: ...}]")

    @classmethod
    def read(cls, path: str | Path, markers: Iterable[str] | None = None) -> PieceMapping:
        from gazala_tools.referee.position import read_yaml

        return cls(read_yaml(path), str(path), markers)

    def unit(self, name: str, base: str = "") -> dict[str, Any] | None:
        """The first entry matching the piece's base name (the BasicPiece's) or the name VASSAL
        displays (with layer suffixes such as " OOS"): either may be written in a pattern."""
        for r, e in self.units:
            m = (r.search(base) if base else None) or r.search(name)
            if m:
                out = {k: v for k, v in e.items() if k != "match"}
                if "id" not in out and "id" in r.groupindex:
                    out["id"] = m.group("id")
                return out
        return None

    def marker(self, name: str, base: str = "") -> str | None:
        return next((mk for r, mk in self.markers if (base and r.search(base)) or r.search(name)), None)


def position_from_mapped_pieces(
    pieces: Iterable[PieceView],
    *,
    rules: RulesPlugin,
    mapping: PieceMapping,
    manifest: Mapping[str, Mapping[str, Any]] | None = None,
    turn: str | None = None,
    source: str = "<save>",
) -> Position:
    """Units of another module's save, named by ``mapping``; marker pieces mark their stack's units."""
    found: list[tuple[PieceView, dict[str, Any], Hex | None]] = []
    stack_marks: dict[str, set[str]] = {}
    unmatched: list[str] = []
    for p in pieces:
        if p.map is None:
            continue
        name = p.name
        mk = mapping.marker(name, p.base_name)
        if mk is not None:
            stack_marks.setdefault(p.stack or f"piece:{p.id}", set()).add(mk)
            continue
        spec = mapping.unit(name, p.base_name)
        if spec is None:
            if looks_like_unit(p, rules.data.piece_words):
                unmatched.append(p.base_name or name)
            continue
        found.append((p, spec, _piece_hex(p, rules)))
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
            box=None if where is not None else _box_of(p),
            steps=_steps(spec.get("steps") or ms.get("step") or ms.get("steps") or 1, p, source),
            markers=frozenset(markers),
            full_steps=int(ms.get("steps") or 0),
        ))
        if not units[-1].side or not units[-1].type:
            raise GazalaError(f"piece {p.name!r} maps to {uid!r} without side/type", file=source,
                              expected="a manifest unit id or side: and type: in the mapping")
    return Position(game=rules.game.id, units=tuple(units), turn=turn, source=source, unmatched=tuple(sorted(unmatched)))


#: a designation in a piece name: a number (``21st``), ``5/1``, ``(21``
_DESIGNATION = re.compile(r"\b\d+(?:st|nd|rd|th)?\b|\d+/\d+|\(\d+", re.IGNORECASE)
#: words of any module's non-unit pieces
_PIECE_WORDS = ("chit", "marker", "turn", "deck", "card")


def _words(words: Iterable[str]) -> re.Pattern[str] | None:
    got = [re.escape(w) for w in words if w]
    return re.compile(r"\b(?:" + "|".join(got) + r")\b", re.IGNORECASE) if got else None


def looks_like_unit(p: PieceView, words: PieceWords | None = None) -> bool:
    """Does a piece no ``--mapping`` pattern matched look like a combat unit (so the report says so)?

    Interpretation: a piece on a map whose name carries a unit designation (a number, ``5/1``, or
    one of the game's ``piece-words: unit`` words) and no word of a non-unit piece (chit, marker,
    turn, deck, card, the game's marker names and its ``piece-words: not-unit`` words)."""
    name = p.base_name or p.name
    words = words or PieceWords()
    unit = _words(words.unit)
    if not (_DESIGNATION.search(name) or (unit is not None and unit.search(name))):
        return False
    not_unit = _words((*_PIECE_WORDS, *words.not_unit))
    return not_unit is None or not not_unit.search(name)


def turn_label(turn: TurnView | None, rules: RulesPlugin) -> str | None:
    """The turn a save's tracker shows, as the game's turn record names it (a game-turn number
    for a numbered record), or None if the record does not know it."""
    if turn is None:
        return None
    record = rules.turns
    if turn.kind == "counter":
        idx = record.index_of_number(turn.current)
        return str(turn.current) if idx is not None else None
    label = turn.label(record.labels)
    if label is not None and record.numbered:
        idx = record.index(label)
        return str(record.number(idx)) if idx is not None else label
    return label


def turn_from_tree(tree: Node, turns: tuple[str, ...]) -> str | None:
    """The turn label a save's Turn Tracker shows (its last ``TURN`` command), or None.

    Kept for callers that hold a command tree; the referee reads ``save.view().turn``.
    """
    from gazala_tools.vsav.view import turn_of

    got = turn_of(tree)
    return got.label(turns) if got is not None else None


def position_from_save(
    save: Save,
    *,
    rules: RulesPlugin,
    manifest: Mapping[str, Mapping[str, Any]] | None,
    mapping: str | Path | None = None,
    turn: str | None = None,
    box_at: BoxAt | None = None,
) -> Position:
    """The position of a save already read (``read_save``): our module's pieces, or another
    module's through a ``mapping`` file; ``box_at``: see :func:`position_from_pieces`."""
    view = save.view()
    if turn is None:
        turn = turn_label(view.turn, rules)
    if mapping is not None:
        return position_from_mapped_pieces(view.pieces, rules=rules, mapping=PieceMapping.read(mapping, rules.data.marker_names()),
                                           manifest=manifest, turn=turn, source=view.file)
    return position_from_pieces(view.pieces, rules=rules, manifest=manifest, turn=turn, source=view.file,
                                box_at=box_at)


def fix_save(save: Save, out: Path, *, markers: Iterable[Any], rules: RulesPlugin,
             inputs: Iterable[str | Path] = ()) -> int:
    """Write a copy of the save at ``out`` with the supply markers changed as ``markers`` require
    (``MarkerChange`` values): one ChangePiece command per unit just before ``end_save``.
    Returns the number of pieces changed."""
    from gazala_tools.vsav.commands import ChangePiece
    from gazala_tools.vsav.view import layer_change
    from gazala_tools.vsav.writer import SaveEditor, write_copy

    by_unit = {p.properties.get("UnitId"): p.id for p in save.view().pieces if p.properties.get("Kind") == "unit"}
    layer_of = {v: k for k, v in layer_markers(rules).items()}
    editor = SaveEditor(save.tree, file=save.file)
    changes: list[ChangePiece] = []
    for mc in markers:
        pid = by_unit.get(mc.unit)
        if pid is None:
            raise GazalaError(f"unit {mc.unit!r} is not on a map of the save", file=save.file)
        want = {layer_of[m]: True for m in (mc.add,) if m} | {layer_of[m]: False for m in (mc.remove,) if m}
        change = layer_change(save.position.pieces[pid], want)
        if change is not None:
            changes.append(change)
    editor.insert(changes)
    write_copy(out, save.container, save.tree, inputs=[save.file, *inputs])
    return len(changes)
