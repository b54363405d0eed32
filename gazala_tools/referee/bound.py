"""The bound rules as the readers of a game's data see them: a :class:`typing.Protocol`, below the engine.

A game's rules bound to one map are a :class:`~gazala_tools.referee.engine.RulesPlugin` (or a
plugin's subclass of it). The modules the engine builds on read them, never the other way round:
they type against :class:`BoundData`, the attributes and lookups of the rules that need neither the
movement data nor a position (the game, its map, the ``rules:`` data, turns, sides, the counter
manifest), so none of them imports the engine, not even for an annotation. Those that judge a
position also read its hooks: :class:`~gazala_tools.referee.context.BoundRules` adds them, beside the
:class:`~gazala_tools.referee.context.Context` they take.

The layers, lowest first: ``bound`` (this protocol) < the data readers (:mod:`.ruledata.movement`,
:mod:`.sequence`, :mod:`.units`, :mod:`.victory`, :mod:`.statuses`) < ``context`` (``BoundRules``,
``Context``, ``Check``) < :mod:`.movement` < :mod:`.generic` < :mod:`.engine`. ``RulesPlugin``
satisfies both protocols structurally (mypy checks it where the engine is defined).

Pure Python.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:  # pragma: no cover
    from gazala_tools.counters.model import Counter, Manifest
    from gazala_tools.games.model import Game
    from gazala_tools.hexes import Hex
    from gazala_tools.mapdata.model import GameMap
    from gazala_tools.referee.ruledata.filters import FormationNames
    from gazala_tools.referee.ruledata.read import GenericRules
    from gazala_tools.referee.search import Topology
    from gazala_tools.referee.turns import TurnRecord

__all__ = ["BoundData"]


class BoundData(Protocol):
    """What the data readers read of a game's rules bound to one map (all read-only)."""

    @property
    def game(self) -> Game: ...
    @property
    def map(self) -> GameMap: ...
    @property
    def strict(self) -> bool:
        """Is every name of the data an error when the map lacks it (the game's own map)?"""
    @property
    def data(self) -> GenericRules:
        """The ``rules:`` section of ``game.yaml``, read (:mod:`.ruledata`)."""
    @property
    def names(self) -> FormationNames: ...
    @property
    def turns(self) -> TurnRecord: ...
    @property
    def moved_keys(self) -> Mapping[str, str]:
        """Keys of the movement data that have moved, and where to (``immobile[].OLD``)."""
    @property
    def topology(self) -> Topology: ...
    @property
    def sides(self) -> tuple[str, ...]: ...
    @property
    def impassable(self) -> frozenset[Hex]: ...
    @property
    def manifest(self) -> Manifest | None:
        """The game's counter manifest (None: the game has none)."""
    @property
    def manifest_units(self) -> Mapping[str, Counter]: ...

    def turn_index(self, label: object) -> int | None: ...
    def turn_name(self, index: int) -> str: ...
    def enemies(self, side: str) -> tuple[str, ...]: ...
    def enemy(self, side: str) -> str: ...
