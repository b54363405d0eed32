"""One position on one map with the lookups every check needs (:class:`Context`), and the bound rules it
reads (:class:`BoundRules`, a :class:`typing.Protocol`): below the generic rules and the engine.

:class:`BoundRules` is :class:`~gazala_tools.referee.bound.BoundData` (what the data readers read)
and the hooks a position is judged with: the movement data, who exerts a zone of control and where it
reaches, what blocks a supply path in this position, the states of a plugin's markers. The generic
rules (:mod:`.generic`) and the move checks (:mod:`.movement`) take a ``BoundRules`` and a
``Context``; a game's rules bound to its map, a :class:`~gazala_tools.referee.engine.RulesPlugin`,
satisfies it structurally. A check is a :data:`Check`: a function of the context to its findings.

Pure Python.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Protocol

from gazala_tools.referee.bound import BoundData
from gazala_tools.referee.findings import Finding
from gazala_tools.referee.position import Position, Unit, units_by_hex
from gazala_tools.referee.report import ReportPath, SupplyStatus
from gazala_tools.referee.zoc import zoc_map

if TYPE_CHECKING:  # pragma: no cover
    from gazala_tools.hexes import Hex, Hexside
    from gazala_tools.referee.ruledata.movement import MovementRules

__all__ = ["BoundRules", "Check", "Context"]

#: a position check: the findings of one rule on one position
Check = Callable[["Context"], Iterable[Finding]]


class BoundRules(BoundData, Protocol):
    """The bound rules a check reads: :class:`BoundData` and the hooks a position is judged with."""

    @property
    def movement(self) -> MovementRules:
        """The game's movement data (``movement.yaml``, the chart and the sequence of play)."""

    def exerts_zoc(self, ctx: Context, unit: Unit) -> bool: ...

    def zoc_reach(self) -> dict[Hex, tuple[Hex, ...]]:
        """Hex -> the neighbours a ZOC reaches from it, for every map hex."""

    def zoc_everywhere(self) -> bool:
        """Does every ZOC extend into all six neighbours?"""

    def supply_blocks(self, ctx: Context, side: str) -> tuple[frozenset[Hex], frozenset[Hexside]]:
        """Hexes and hexsides a ``side`` supply path may not use in this position."""

    def marker_states_at(self, position: Position, h: Hex) -> frozenset[str]:
        """States of the plugin's markers standing in hex ``h``."""


class Context:
    """One position on one map, with the lookups every check needs, computed once."""

    def __init__(self, rules: BoundRules, position: Position) -> None:
        self.rules = rules
        self.map = rules.map
        self.topology = rules.topology
        self.position = position
        self.turn_index = rules.turn_index(position.turn)
        # units of a hex sorted by id: findings do not depend on the order an input lists units in
        self.by_hex: dict[Hex, list[Unit]] = {h: sorted(us, key=lambda u: u.id)
                                              for h, us in units_by_hex(position.units).items()}
        self.hexes_of: dict[str, set[Hex]] = {s: set() for s in rules.sides}
        for h, us in self.by_hex.items():
            for u in us:
                self.hexes_of.setdefault(u.side, set()).add(h)
        self._zoc: dict[str, dict[Hex, list[str]]] = {}
        self._enemy_zoc: dict[str, frozenset[Hex]] = {}
        self._enemy_hexes: dict[str, frozenset[Hex]] = {}
        #: lines the report draws (victory paths, recovery lines...): hooks add them with :meth:`add_path`
        self.paths: list[ReportPath] = []
        #: the earlier position when two are checked (``check(position, before=...)``): a rule stated
        #: at the start of a phase reads it (SPI 17.0's "may move" line)
        self.before: Context | None = None
        #: each unit's supply status once supply is judged (victory in supply reads it; None: not yet,
        #: or the game has no supply rule)
        self.supply_status: dict[str, SupplyStatus] | None = None

    def add_path(self, kind: str, label: str, hexes: Iterable[Hex], side: str = "") -> None:
        """Show ``hexes`` (in order) as a line of ``kind`` in the report and its picture."""
        self.paths.append(ReportPath(kind, label, tuple(self.map.label(h) for h in hexes), side))

    def label(self, h: Hex) -> str:
        return self.map.label(h)

    def labels(self, hexes: Iterable[Hex]) -> tuple[str, ...]:
        return tuple(sorted({self.map.label(h) for h in hexes}))

    def units(self, side: str | None = None) -> list[Unit]:
        return [u for u in self.position.units if side is None or u.side == side]

    def on_map(self, side: str | None = None) -> list[Unit]:
        return [u for u in self.position.units if u.hex is not None and (side is None or u.side == side)]

    def turn_reached(self, index: int | None) -> bool:
        """Has the position's turn reached turn ``index``? False when either is unknown."""
        return index is not None and self.turn_index is not None and self.turn_index >= index

    def zoc(self, side: str) -> dict[Hex, list[str]]:
        """Hexes in ``side``'s ZOC -> ids of the units exerting it."""
        got = self._zoc.get(side)
        if got is None:
            got = zoc_map(
                self.on_map(side),
                self.topology,
                exerts=lambda u: self.rules.exerts_zoc(self, u),
                projects=None,
                reach=None if self.rules.zoc_everywhere() else self.rules.zoc_reach(),
            )
            self._zoc[side] = got
        return got

    def enemy_zoc(self, side: str) -> frozenset[Hex]:
        """Hexes in the ZOC of any enemy of ``side`` (computed once per side)."""
        return self._of_enemies(side, self._enemy_zoc, lambda e: self.zoc(e).keys())

    def enemy_hexes(self, side: str) -> frozenset[Hex]:
        """Hexes holding a unit of any enemy of ``side`` (computed once per side)."""
        return self._of_enemies(side, self._enemy_hexes, lambda e: self.hexes_of.get(e, set()))

    def _of_enemies(self, side: str, cache: dict[str, frozenset[Hex]],
                    of: Callable[[str], Iterable[Hex]]) -> frozenset[Hex]:
        got = cache.get(side)
        if got is None:
            got = cache[side] = frozenset(h for e in self.rules.enemies(side) for h in of(e))
        return got
