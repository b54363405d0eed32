"""The referee: a game's rules applied to a position, every finding at once.

:class:`RulesPlugin` is a game's rules bound to one map: the **generic rules of its data** (the
``rules:`` section of ``game.yaml``, :mod:`.ruledata`: stacking, off-map boxes, prohibited hexes,
zones of control, supply, reinforcements), and, for a game with a rules plugin
(``rules.plugin``), a subclass that reads its own keys of that section and overrides the named
hooks data cannot say. The core here knows no game: it builds the :class:`Context` (units by hex,
ZOC per side, the map's adjacency), runs the supply, VP and report-section hooks and the checks,
and collects a :class:`~gazala_tools.referee.report.Report`.

A plugin owns its position state (RG: breach markers, activations): it declares how it is read
from a position YAML (:meth:`RulesPlugin.state_readers`), from a save's pieces
(:attr:`RulesPlugin.state_piece_kinds`, :meth:`RulesPlugin.state_from_pieces`), written back
(:meth:`RulesPlugin.state_writers`) and carried from ``--before`` (:meth:`RulesPlugin.carry_forward`);
the state stays in ``Position.extra``, which the core never interprets, and its report part is a
:class:`~gazala_tools.referee.report.ReportSection` (:meth:`RulesPlugin.sections`).

The generic rules themselves live in :mod:`.generic`; a plugin calls them through ``super()`` or
directly (``generic.check_stacking(...)``).

The engine stands on top of the rules modules, and none of them imports it, not even for an
annotation (issue 34 item 3; ``tests/packaging/test_import_graph.py``): :mod:`.generic`,
:mod:`.movement` and the data readers (:mod:`.ruledata.movement`, :mod:`.sequence`,
:mod:`.statuses`, :mod:`.units`, :mod:`.victory`) type against the protocols below them,
:class:`~gazala_tools.referee.bound.BoundData` (the rules' data) and
:class:`~gazala_tools.referee.context.BoundRules` (with the hooks a position is judged with), which
:class:`RulesPlugin` satisfies structurally (mypy checks it here). :class:`Context` and :data:`Check`
live in :mod:`.context` and are re-exported here for plugins and callers.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from gazala_tools.counters.loader import load_game_manifest
from gazala_tools.hexes import Hex, Hexside
from gazala_tools.mapdata.loader import load_game_map
from gazala_tools.referee import generic
from gazala_tools.referee.context import BoundRules, Check, Context
from gazala_tools.referee.findings import Finding, Severity, rule_key
from gazala_tools.referee.generic import SupplyOutcome
from gazala_tools.referee.position import Position, StateReader, StateWriter, Unit
from gazala_tools.referee.report import Report, ReportSection
from gazala_tools.referee.ruledata import GenericRules, RulesSection, read_rules
from gazala_tools.referee.ruledata.movement import MovementRules, read_movement
from gazala_tools.referee.search import Topology
from gazala_tools.referee.turns import TurnRecord, normalise_turn

if TYPE_CHECKING:  # pragma: no cover
    from gazala_tools.counters.model import Counter, Manifest
    from gazala_tools.games.model import Game
    from gazala_tools.mapdata.model import GameMap
    from gazala_tools.vsav import PieceView

log = logging.getLogger(__name__)

__all__ = [
    "Check",
    "Context",
    "Referee",
    "RulesPlugin",
    "SupplyOutcome",
    "log",
    "normalise_turn",
]


def _is_own_map(game: Game, game_map: GameMap) -> bool:
    try:
        return load_game_map(game) is game_map
    except Exception:
        return False


class RulesPlugin:
    """A game's rules on one map: the generic rules of its data, and the hooks a plugin overrides.

    ``RulesPlugin(game)`` is the referee of a game without a plugin (``rules_for`` picks the
    plugin class when ``game.yaml`` names one). ``game_map`` defaults to the game's own map;
    ``strict`` (default: the map is the game's own) makes every zone/place/box/terrain name of the
    data an error when the map lacks it (see :mod:`.ruledata`).

    A plugin sets ``data_keys`` (its own keys of the ``rules:`` section) and reads them in
    :meth:`read_data`; ``extra_keys`` / ``extra_hex_keys`` are its own position-YAML keys.
    """

    #: the plugin's own keys of the ``rules:`` section (read in :meth:`read_data`)
    data_keys: ClassVar[frozenset[str]] = frozenset()
    #: the game's own top-level position-YAML keys, kept in ``Position.extra`` (unit-id lists,
    #: mappings of unit ids / sides to scalars, or scalars) ...
    extra_keys: ClassVar[frozenset[str]] = frozenset()
    #: ... and those of them that are lists of hex labels (kept as a frozenset of hexes)
    extra_hex_keys: ClassVar[frozenset[str]] = frozenset()
    #: keys of the game's movement data that earlier versions of the plugin's game read, and where what
    #: they said is now (``immobile[].OLD``: exit 2 naming the new key)
    moved_keys: ClassVar[Mapping[str, str]] = {}

    def __init__(self, game: Game, game_map: GameMap | None = None, *, strict: bool | None = None) -> None:
        if game_map is None:
            game_map = load_game_map(game)
            strict = True if strict is None else strict
        elif strict is None:
            strict = _is_own_map(game, game_map)
        self.game = game
        self.map = game_map
        self.strict = strict
        self.topology = Topology(game_map.hexes(), game_map.grid.steps())
        self.turns = TurnRecord(game.turns)  #: the one turn record (the rules and movement readers share it)
        self.sides: tuple[str, ...] = tuple(game.side_ids)
        self.impassable = frozenset(h for h in game_map.hexes() if not game_map.passable(h))
        self.data: GenericRules
        self.data, section = read_rules(game, game_map, strict=strict, plugin_keys=self.data_keys, turns=self.turns)
        self.names = self.data.names
        self.read_data(section)
        self._mentioned_types = frozenset(section.r.mentioned_types)  # the generic rules' and the plugin's

    def read_data(self, data: RulesSection) -> None:
        """Read the plugin's own keys (:attr:`data_keys`) of the ``rules:`` section."""

    # What the rules read beyond game.yaml, once per rules object (issue 34: loaded once, passed down;
    # no module-level cache refetches them by game).
    @functools.cached_property
    def manifest(self) -> Manifest | None:
        """The game's counter manifest (``counters.yaml``), read once for these rules; None: the game has
        none. A manifest with an error is that error (file, line, column)."""
        if not self.game.counters_file.is_file():
            log.info("no counter manifest for %s", self.game.id)
            return None
        return load_game_manifest(self.game)

    @functools.cached_property
    def manifest_units(self) -> Mapping[str, Counter]:
        """The manifest's unit counters by counter id and by unit id (empty without a manifest)."""
        out: dict[str, Counter] = {}
        for c in self.manifest.units if self.manifest is not None else ():
            out.setdefault(c.unit_id or c.id, c)
            out.setdefault(c.id, c)
        return out

    @functools.cached_property
    def movement(self) -> MovementRules:
        """The game's movement data (``movement.yaml``, the chart and the sequence of play), read once."""
        return read_movement(self)

    def unit_types(self) -> frozenset[str]:
        """The game's unit types, for inline units: the data's ``unit-types``, the counter manifest's
        and every type its rules data names (empty: the game names none, so none is checked)."""
        manifest = {c.type for c in self.manifest_units.values() if c.type}
        return frozenset(self.data.unit_types or ()) | manifest | self._mentioned_types

    def formations(self) -> frozenset[str]:
        """The game's formations (its counter manifest's), for inline units; empty: not checked."""
        return frozenset(c.formation for c in self.manifest_units.values() if getattr(c, "formation", ""))

    def vp_sentences(self, vp: Mapping[str, object]) -> list[str]:
        """The report's VP as sentences, one per item (the text and HTML reports print them; empty:
        the renderer's generic sentences)."""
        return generic.vp_sentences(self, vp)

    def validate(self, position: Position) -> None:
        """Refuse a position whose own keys contradict each other (raise ``GazalaError``: bad input)."""

    def turn_rules(self) -> tuple[str, ...]:
        """The rules that cannot be checked without the position's turn (the report header lists
        them when the input gives none; ``--strict`` refuses such an input). Plugins add theirs."""
        out: list[str] = []
        r = self.data.reinforcements
        if r is not None:
            rules = sorted({a.rule or r.rule for a in r.schedule}, key=rule_key)
            out.append(f"{'/'.join(rules)} reinforcement schedule")
        if self.data.supply is not None:
            auto = sorted({ss.automatic_rule for ss in self.data.supply.sides.values() if ss.automatic_through is not None})
            if auto:
                out.append(f"{'/'.join(auto)} automatic supply")
        return tuple(out)

    def move_rules(self) -> tuple[tuple[str, str], ...]:
        """The rules only a move shows, as ``(rule, what)``: a report on positions lists them as not
        checked (``referee log`` checks them). The data's (:func:`generic.move_rules`); a plugin adds
        the rules of its ``check_move``."""
        return generic.move_rules(self)

    def before_rules(self) -> tuple[tuple[str, str], ...]:
        """The rules judged between two positions, as ``(rule, what)``: a report on one position
        without ``--before`` lists them as not checked. The data's (:func:`generic.before_rules`); a
        plugin adds the rules of its :meth:`compare`."""
        return generic.before_rules(self)

    def extra_names(self) -> Mapping[str, Collection[str]]:
        """Extra keys that map *names* of the game's data to a side (BG ``held: {Tobruk: axis}``),
        with the names each accepts (the position reader refuses any other name or a non-side value)."""
        return {}

    # --- turns and sides -------------------------------------------------------------------------
    def turn_index(self, label: object) -> int | None:
        """Index of a turn label (or game-turn number) in the turn record; None if unknown."""
        return self.turns.index(label)

    def turn_name(self, index: int) -> str:
        """How a message names a turn: its label, or ``game-turn N`` without a turn record."""
        return self.turns.label(index) if self.turns else f"game-turn {self.turns.number(index)}"

    def enemies(self, side: str) -> tuple[str, ...]:
        return tuple(s for s in self.sides if s != side)

    def enemy(self, side: str) -> str:
        """The other side of a two-sided game (the first other side otherwise)."""
        return self.enemies(side)[0]

    # --- hooks (the generic rules of the data; a plugin overrides what data cannot say) ------------
    def exerts_zoc(self, ctx: Context, unit: Unit) -> bool:
        return generic.exerts_zoc(self, unit)

    def zoc_projects(self, a: Hex, b: Hex) -> bool:
        return generic.zoc_projects(self, a, b)

    def zoc_reach(self) -> dict[Hex, tuple[Hex, ...]]:
        """Hex -> the neighbours a ZOC reaches from it (:meth:`zoc_projects`), for every map hex.
        Computed once per rules: :meth:`zoc_projects` depends on the map and the data only, never on
        a position, and a log would otherwise ask it again for every unit of every step."""
        got: dict[Hex, tuple[Hex, ...]] | None = self.__dict__.get("_zoc_reach")
        if got is None:
            got = self.__dict__["_zoc_reach"] = {
                h: tuple(n for n in ns if self.zoc_projects(h, n)) for h, ns in self.topology.neighbours.items()}
        return got

    def zoc_everywhere(self) -> bool:
        """Does every ZOC extend into all six neighbours (no :meth:`zoc_projects` call needed)?"""
        z = self.data.zoc
        return type(self).zoc_projects is RulesPlugin.zoc_projects and not (z.into or z.uphill or z.sides)

    def checks(self) -> Sequence[Check]:
        """The position checks: the generic ones the data calls for (plugins add theirs)."""
        return generic.checks(self)

    def supply_blocks(self, ctx: Context, side: str) -> tuple[frozenset[Hex], frozenset[Hexside]]:
        """Hexes and hexsides a ``side`` supply path may not use *in this position*, beyond the
        data's static ones (RG: un-breached minefields)."""
        return frozenset(), frozenset()

    def supply(self, ctx: Context) -> SupplyOutcome | None:
        return generic.supply(self, ctx)


    def sections(self, ctx: Context) -> tuple[dict[str, ReportSection], list[Finding]]:
        """The plugin's own report sections by JSON key (RG ``loc``), and their findings."""
        return {}, []

    # --- the plugin's own position state -----------------------------------------------------------
    #: ``Kind`` properties of save pieces that are the plugin's state, not units (RG ``breach``)
    state_piece_kinds: ClassVar[frozenset[str]] = frozenset()

    def state_readers(self) -> Mapping[str, StateReader]:
        """The plugin's own top-level keys of a position YAML, each with its reader, in the order
        errors and ``referee position`` list them; read values go to ``Position.extra``. The data's:
        ``control: {HEX: side}`` (who last entered a hex) when its control is ``by: last-entered``."""
        return generic.control_readers(self)

    def state_writers(self) -> Mapping[str, StateWriter]:
        """How ``referee position`` writes the plugin's state keys back (a writer's None: leave out)."""
        return generic.control_writers(self)

    def state_from_pieces(self, pieces: Sequence[tuple[PieceView, Hex]], turn: str | None) -> dict[str, object]:
        """The plugin's state from a save's pieces of :attr:`state_piece_kinds` on the map (each
        with its hex), for ``Position.extra``."""
        return {}

    def carry_forward(self, before: Position, position: Position) -> Position:
        """``--before``: ``position`` with the state it inherits from the earlier position (default:
        none; a plugin whose state lasts across positions copies what the later input lacks)."""
        return position

    def with_activations(self, position: Position, activations: Mapping[str, int]) -> Position:
        """``position`` with the activations a log's chits counted this turn (``referee log``), for a
        plugin whose rules judge them (default: none does, the position as it is)."""
        return position

    def marker_states_at(self, position: Position, h: Hex) -> frozenset[str]:
        """States of the plugin's markers standing in hex ``h`` (RG: a breach marker's
        ``under-construction``), for the data's ``immobile`` rules of a log's moves."""
        return frozenset()

    def vp(self, ctx: Context) -> tuple[dict[str, object], list[Finding]]:
        """Victory points: the data's ``victory`` section (a plugin computes its own)."""
        return generic.victory(self, ctx)

    def compare(self, before: Context, after: Context) -> Iterable[Finding]:
        """Rules about what happened between two positions (``check(position, before=...)``)."""
        return ()

    def check_move(self, before: Unit, after: Unit, path: list[Hex] | None, context: Any) -> Iterable[Finding]:
        """Movement rules data cannot say, for one move of a log (``gazala referee log``): the unit
        ``before`` and ``after`` it, the path the referee took (None: none), and the
        :class:`~gazala_tools.referee.movement.MoveContext` (position before the move, the phase so far)."""
        return ()


#: the plugin base is the bound rules every module below the engine types against: mypy checks here that
#: :class:`RulesPlugin` satisfies :class:`~gazala_tools.referee.context.BoundRules` (and so ``BoundData``)
_BOUND_RULES: type[BoundRules] = RulesPlugin


class Referee:
    """Checks positions of one game on one map: ``Referee(rules).check(position) -> Report``."""

    def __init__(self, rules: RulesPlugin) -> None:
        self.rules = rules

    def check(self, position: Position, before: Position | None = None) -> Report:
        """Every finding of ``position``; with ``before`` (an earlier position of the same game) also
        the plugin's two-position rules (:meth:`RulesPlugin.compare`)."""
        if before is not None:
            position = self.rules.carry_forward(before, position)
        self.rules.validate(position)
        ctx = Context(self.rules, position)
        earlier = Context(self.rules, before) if before is not None else None
        ctx.before = earlier
        report = Report(game=position.game, turn=position.turn, source=position.source,
                        side_colours={s.id: s.color for s in self.rules.game.sides if s.color})
        self._unchecked(report, ctx, before)
        findings = self._input_warnings(report, ctx)
        findings.extend(self._supply(report, ctx))
        report.sections, section_findings = self.rules.sections(ctx)
        findings.extend(section_findings)
        report.vp, vp_findings = self.rules.vp(ctx)
        report.vp_text = self.rules.vp_sentences(report.vp) if report.vp else []
        findings.extend(vp_findings)
        for check in self.rules.checks():
            findings.extend(check(ctx))
        if earlier is not None:
            findings.extend(generic.check_returns(self.rules, earlier, ctx))
            findings.extend(self.rules.compare(earlier, ctx))
        report.paths = list(ctx.paths)
        report.findings = sorted(findings, key=Finding.sort_key)
        report.zoc_hexes = {s: frozenset(ctx.zoc(s)) for s in self.rules.sides}
        report.label = self.rules.map.label
        return report

    def _unchecked(self, report: Report, ctx: Context, before: Position | None) -> None:
        """The rules the position cannot show: those of the turn when it has none, those that need an
        earlier position when none is given, and those only a move shows."""
        if ctx.turn_index is None:
            report.unchecked = list(self.rules.turn_rules())
        for (rule, what), why in [*((r, generic.NEEDS_BEFORE) for r in (self.rules.before_rules() if before is None
                                                                         else ())),
                                  *((r, generic.MOVES_UNSEEN) for r in sorted(
                                      self.rules.move_rules(), key=lambda rw: (rule_key(rw[0]), rw[0])))]:
            report.unchecked.append(f"{rule} {what}")
            report.unchecked_why[f"{rule} {what}"] = why

    def _input_warnings(self, report: Report, ctx: Context) -> list[Finding]:
        """What the input leaves unjudged: pieces matching no ``--mapping`` pattern, an unknown turn."""
        position = ctx.position
        findings: list[Finding] = []
        if position.unmatched is not None:
            report.unmatched = list(position.unmatched)
            if position.unmatched:
                findings.append(Finding("mapping", Severity.WARNING,
                                        f"{len(position.unmatched)} piece(s) that look like units matched no --mapping "
                                        f"pattern and are not judged: {', '.join(position.unmatched)}"))
        if position.turn is not None and ctx.turn_index is None and self.rules.turns:
            findings.append(
                Finding("turn", Severity.WARNING,
                        f"unknown turn {position.turn!r}: date-dependent rules are skipped",
                        data={"known": list(self.rules.turns.labels)})
            )
        return findings

    def _supply(self, report: Report, ctx: Context) -> list[Finding]:
        """The plugin's supply trace: each unit's status and markers in the report (the later checks
        read the statuses from ``ctx``), and its findings."""
        supply = self.rules.supply(ctx)
        if self.rules.data.supply is not None or supply is not None:
            report.supply_rule = self.rules.data.supply.rule if self.rules.data.supply is not None else "supply"
        if supply is None:
            return []
        # sorted by unit id: the same report whatever order the input lists units in
        ctx.supply_status = supply.status
        report.supply = dict(sorted(supply.status.items()))
        report.markers = sorted(supply.markers, key=lambda m: m.unit)
        return list(supply.findings)
