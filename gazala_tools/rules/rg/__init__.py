"""Gazala: The Cauldron (Revolution Games, 2nd edition): the rule hooks data cannot say.

Section numbers are the rulebook's (``../shared/seeds/000_...txt``). Interpretations of ambiguous
wording are marked ``Interpretation:`` here and listed in ``docs/referee.md``.

Every fact comes from the game's data: the generic rules (10.0 stacking, 8.3 boxes, 8.1
prohibited zone, 9.0 ZOC, 5.0 supply) and this plugin's own keys of ``rules:`` in
``mapdata/gazala-rg/game.yaml`` (``restricted-area`` 8.2, ``activations`` 7.0, ``minefields``
14.0/14.1, ``loc`` 14.2, ``scenario-vp`` 17.0's names; 16.0 and 17.0 are the generic ``victory`` keys); the map gives the zones, the
minefield boxes with ``owner`` and ``active_from``, the fortified boxes, escarpments and roads.
What is code here: the breach outcomes of 14.1, the LOC search of 14.2 and the 7.0 limits.

The plugin owns its position state (``Position.extra``): the breach markers (14.1: a position
YAML's ``breaches``, a save's ``Breach`` pieces), the activations of the turn (7.0: ``activations``)
and, from the counter manifest, which units are restricted (8.2); its report section is the LOC of
14.2 (:class:`LocReport`, JSON ``loc``).

The plugin is a package of rule-sized modules: :mod:`.state` (the position state), :mod:`.minefields`
(14.0), :mod:`.breaches` (14.1), :mod:`.loc` (14.2), :mod:`.activation` (7.0), :mod:`.area` (8.2) and
:mod:`.victory` (16.0, 17.0); :class:`GazalaRG` joins them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from gazala_tools.referee.context import Check
from gazala_tools.referee.position import StateReader, StateWriter
from gazala_tools.referee.ruledata import RulesSection
from gazala_tools.rules.rg.activation import DOUBLE_MOVE, EXTRA_MOVE, Activations
from gazala_tools.rules.rg.area import RestrictedArea
from gazala_tools.rules.rg.breaches import Breaches
from gazala_tools.rules.rg.loc import Loc, LocPath, LocReport
from gazala_tools.rules.rg.state import (
    ACTIVATIONS,
    BREACHES,
    Breach,
    BreachState,
    activations_of,
    breaches_of,
    read_activations,
    read_breaches,
    write_activations,
    write_breaches,
)
from gazala_tools.rules.rg.victory import Victory

__all__ = [
    "ACTIVATIONS",
    "BREACHES",
    "DOUBLE_MOVE",
    "EXTRA_MOVE",
    "Breach",
    "BreachState",
    "GazalaRG",
    "LocPath",
    "LocReport",
    "activations_of",
    "breaches_of",
    "read_activations",
    "read_breaches",
    "write_activations",
    "write_breaches",
]


def __getattr__(name: str) -> Any:
    """``TURNS``: the turn record, now ``game.yaml``'s (kept for code that imported it)."""
    if name == "TURNS":
        from gazala_tools.games import find_game

        return find_game("gazala-rg").turns
    raise AttributeError(name)


class GazalaRG(Breaches, Loc, Activations, RestrictedArea, Victory):
    """Gazala: The Cauldron."""

    data_keys: ClassVar[frozenset[str]] = frozenset(
        {"restricted-area", "activations", "minefields", "loc", "scenario-vp"})
    #: 14.1's breaching unit, in an earlier movement.yaml (issue 32: the core names no RG word)
    moved_keys: ClassVar[Mapping[str, str]] = {"immobile[].breach": "immobile[].state (under-construction)"}

    def read_data(self, data: RulesSection) -> None:
        self.read_area(data)
        self.read_activations(data)
        self.read_minefields(data)
        self.read_loc(data)
        self.read_victory(data)

    def turn_rules(self) -> tuple[str, ...]:
        return (*super().turn_rules(), f"{self.mf_rule.split('.')[0]}.0 dated minefields",
                f"{self.mf_rule} breach timing", f"{self.loc_rule} LOC", f"{self.act_rule} first-turn activation limits")

    def move_rules(self) -> tuple[tuple[str, str], ...]:
        return (*super().move_rules(), (self.act_rule, "the units each action chit activates"))

    # --- the plugin's position state ------------------------------------------------------------------
    state_piece_kinds: ClassVar[frozenset[str]] = frozenset({"breach"})

    def state_readers(self) -> Mapping[str, StateReader]:
        return {BREACHES: read_breaches, ACTIVATIONS: read_activations}

    def state_writers(self) -> Mapping[str, StateWriter]:
        return {BREACHES: write_breaches, ACTIVATIONS: write_activations}

    # --- hooks -----------------------------------------------------------------------------------
    def checks(self) -> Sequence[Check]:
        return (*super().checks(), self.check_8_2_restricted_area, self.check_14_1_breaches,
                self.check_7_0_activations)
