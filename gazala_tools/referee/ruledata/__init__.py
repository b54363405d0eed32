"""The ``rules:`` section of a game's ``game.yaml``, read into typed values (``docs/games.md``, "Rules as data").

One reader for the generic rules every game may state as data (stacking, off-map boxes, where
units may not go, zones of control, supply, reinforcements, markers, control, victory) and for the
keys a rules plugin adds (:class:`RulesSection` is what a plugin reads its own keys with). Every error
names the file, line and column and the bad value (:mod:`gazala_tools.yamlnodes`), and every name
the data gives is resolved once, here: hex labels on the game's grid, zones, places, boxes and
terrain of its map, turn labels of its turn record, sides of ``game.yaml``.

Strict and lenient maps. Against the game's own map every zone, place, box and terrain name must
exist (a typo is an error, never a silently disabled rule). Rules bound to another map (a test's
small map, a scenario map) take a missing name as "no hexes" and log it.

One module per section: :mod:`.section` (the reader and :class:`RulesSection`), :mod:`.filters` (hex sets,
unit filters), :mod:`.boxes`, :mod:`.stacking`, :mod:`.prohibited`, :mod:`.markers`, :mod:`.zoc`,
:mod:`.supply`, :mod:`.reinforcements`, :mod:`.control`, :mod:`.victory`, :mod:`.chart` (the terrain
effects chart), :mod:`.movement` (``movement.yaml``) and :mod:`.read` (the whole section). The names
below are re-exported here for the rest of the package.

Pure Python.
"""

from __future__ import annotations

from gazala_tools.referee.ruledata.boxes import BoxRules
from gazala_tools.referee.ruledata.control import ControlRules
from gazala_tools.referee.ruledata.filters import ANY_UNIT, FormationNames, HexSet, UnitFilter
from gazala_tools.referee.ruledata.markers import MARKER_KEYS, ROUNDING, SUPPLY_ROLES, USED, Marker, marker_id
from gazala_tools.referee.ruledata.prohibited import Prohibition
from gazala_tools.referee.ruledata.read import GENERIC_KEYS, GenericRules, PieceWords, read_rules, rules_node
from gazala_tools.referee.ruledata.reinforcements import (
    ENTRY_BLOCKS,
    REINFORCEMENT_KEYS,
    WHEN_BLOCKED,
    Arrival,
    ReinforcementRules,
)
from gazala_tools.referee.ruledata.section import (
    EDGES,
    HEXSET_KEYS,
    RULE_RE,
    RulesReader,
    RulesSection,
    map_edges,
    terrain_hexes,
)
from gazala_tools.referee.ruledata.stacking import (
    STACKING_KEYS,
    STACKING_WHEN,
    StackingRules,
    TerrainLimit,
    TypeLimit,
    note_placeholders_ok,
)
from gazala_tools.referee.ruledata.supply import (
    MOVED_TRACE_KEYS,
    NETWORK_BLOCKS,
    TRACE_BLOCKS,
    TRACE_KEYS,
    SideSupply,
    SupplyRules,
    Trace,
)
from gazala_tools.referee.ruledata.victory import (
    HOLDS,
    UNIT_AWARD_KEYS,
    VICTORY_KEYS,
    HexAward,
    HexScore,
    NationalityMatch,
    SuddenDeath,
    UnitAward,
    VictoryLevel,
    VictoryRules,
)
from gazala_tools.referee.ruledata.zoc import MOVED_ZOC_KEYS, ZOC_KEYS, ZOC_NEGATION, ZocRules
from gazala_tools.yamlnodes import MAX_LIST

__all__ = [
    "ANY_UNIT",
    "EDGES",
    "ENTRY_BLOCKS",
    "GENERIC_KEYS",
    "HEXSET_KEYS",
    "HOLDS",
    "MARKER_KEYS",
    "MAX_LIST",
    "MOVED_TRACE_KEYS",
    "MOVED_ZOC_KEYS",
    "NETWORK_BLOCKS",
    "REINFORCEMENT_KEYS",
    "ROUNDING",
    "RULE_RE",
    "STACKING_KEYS",
    "STACKING_WHEN",
    "SUPPLY_ROLES",
    "TRACE_BLOCKS",
    "TRACE_KEYS",
    "UNIT_AWARD_KEYS",
    "USED",
    "VICTORY_KEYS",
    "WHEN_BLOCKED",
    "ZOC_KEYS",
    "ZOC_NEGATION",
    "Arrival",
    "BoxRules",
    "ControlRules",
    "FormationNames",
    "GenericRules",
    "HexAward",
    "HexScore",
    "HexSet",
    "Marker",
    "NationalityMatch",
    "PieceWords",
    "Prohibition",
    "ReinforcementRules",
    "RulesReader",
    "RulesSection",
    "SideSupply",
    "StackingRules",
    "SuddenDeath",
    "SupplyRules",
    "TerrainLimit",
    "Trace",
    "TypeLimit",
    "UnitAward",
    "UnitFilter",
    "VictoryLevel",
    "VictoryRules",
    "ZocRules",
    "map_edges",
    "marker_id",
    "note_placeholders_ok",
    "read_rules",
    "rules_node",
    "terrain_hexes",
]
