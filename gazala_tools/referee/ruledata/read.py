"""The whole ``rules:`` section: :func:`read_rules` reads the generic keys (each section by its module)
and hands back the section for a plugin's own keys."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Final

import yaml

from gazala_tools.errors import GameDataError
from gazala_tools.mapdata.model import GameMap
from gazala_tools.referee.ruledata.boxes import BoxRules, read_boxes
from gazala_tools.referee.ruledata.chart import CHART_KEYS, read_chart
from gazala_tools.referee.ruledata.control import ControlRules, read_control
from gazala_tools.referee.ruledata.filters import FormationNames
from gazala_tools.referee.ruledata.markers import Marker, read_markers
from gazala_tools.referee.ruledata.prohibited import Prohibition, read_prohibition
from gazala_tools.referee.ruledata.reinforcements import (
    REINFORCEMENT_KEYS,
    ReinforcementRules,
    read_reinforcements,
)
from gazala_tools.referee.ruledata.section import RulesReader, RulesSection
from gazala_tools.referee.ruledata.stacking import STACKING_KEYS, StackingRules, read_stacking
from gazala_tools.referee.ruledata.supply import SupplyRules, read_supply
from gazala_tools.referee.ruledata.victory import VICTORY_KEYS, VictoryRules, read_victory
from gazala_tools.referee.ruledata.zoc import ZocRules, read_zoc
from gazala_tools.referee.terrain import Chart
from gazala_tools.yamlnodes import ID_RE, compose

__all__ = ["GENERIC_KEYS", "GenericRules", "PieceWords", "read_rules", "rules_node"]

if TYPE_CHECKING:  # pragma: no cover
    from gazala_tools.games.model import Game
    from gazala_tools.referee.turns import TurnRecord


#: generic keys of the ``rules:`` section (a plugin adds its own ``data_keys``)
GENERIC_KEYS: Final = frozenset({
    "unit-types", "type-groups", "formation-words", "boxes", "stacking", "prohibited", "zoc", "supply",
    "reinforcements", "markers", "control", "victory", "piece-words", "terrain-effects",
})


@dataclass(frozen=True, slots=True)
class PieceWords:
    """How a piece of another module (``--mapping``) looks like a unit: its name carries a designation
    (a number, ``5/1``, ``(21``) or one of ``unit`` words, and none of the ``not_unit`` words (the
    game's marker names are among those)."""

    unit: tuple[str, ...] = ()
    not_unit: tuple[str, ...] = ()


@dataclass(frozen=True)
class GenericRules:
    """The generic rules of a game, as data (every field has a no-rule default)."""

    unit_types: frozenset[str] | None = None
    groups: Mapping[str, frozenset[str]] = field(default_factory=dict)
    names: FormationNames = field(default_factory=FormationNames)
    boxes: BoxRules = field(default_factory=BoxRules)
    stacking: StackingRules | None = None
    enemy_rule: str = "stacking"
    prohibited: tuple[Prohibition, ...] = ()
    zoc: ZocRules = field(default_factory=ZocRules)
    supply: SupplyRules | None = None
    reinforcements: ReinforcementRules | None = None
    chart: Chart | None = None  #: the Terrain Effects Chart (``terrain-effects``: :mod:`.terrain`)
    #: the game's markers by id (``rules.markers``; without it the module's status layers and ``used``)
    markers: Mapping[str, Marker] = field(default_factory=dict)
    control: ControlRules | None = None
    victory: VictoryRules | None = None
    #: words of piece names (``--mapping``): a unit's designation, a marker's name
    piece_words: PieceWords = field(default_factory=lambda: PieceWords())

    def marker_names(self) -> tuple[str, ...]:
        return tuple(self.markers)

    def supply_marker(self, role: str) -> str | None:
        """The marker id of a supply role (``out``, ``isolated``), or None."""
        return next((m.id for m in self.markers.values() if m.supply == role), None)


def rules_node(game: Game) -> tuple[yaml.Node | None, str | Path]:
    """The ``rules:`` mapping node of a game and the file it is in (as the registry read it, with
    positions; composed again only for a game made without one)."""
    file = game.source_file
    if file is not None and game.rules_node is not None:
        return game.rules_node, file
    if file is not None and Path(file).is_file():
        root = compose(Path(file), "game.yaml", GameDataError)
        if isinstance(root, yaml.MappingNode):
            for k, v in root.value:
                if getattr(k, "value", None) == "rules":
                    return v, file
        return None, file
    if not game.rules:
        return None, "<game.yaml>"
    text = yaml.safe_dump({"rules": dict(game.rules)}, sort_keys=False)
    composed = yaml.compose(text, Loader=yaml.SafeLoader)
    assert isinstance(composed, yaml.MappingNode)
    node: yaml.Node = composed.value[0][1]
    return node, "<game.yaml>"


def read_rules(game: Game, game_map: GameMap, *, strict: bool, plugin_keys: frozenset[str] = frozenset(),
               turns: TurnRecord | None = None) -> tuple[GenericRules, RulesSection]:
    """The generic rules of ``game`` on ``game_map`` and the whole ``rules:`` section (for the
    plugin's own keys, ``plugin_keys``; any other key is an error); ``turns``: the rules' turn record."""
    node, file = rules_node(game)
    r = RulesReader(game, game_map, strict=strict, file=file, turns=turns)
    allowed = GENERIC_KEYS | plugin_keys | {"plugin"}
    root = RulesSection(r, node, "rules", frozenset(allowed))
    return _generic(r, root, plugin_keys), root


def _generic(r: RulesReader, root: RulesSection, plugin_keys: frozenset[str] = frozenset()) -> GenericRules:
    """The generic keys of the section (a key a plugin declares as its own is the plugin's to read)."""
    def sub(key: str, allowed: frozenset[str] | None = None) -> RulesSection:
        return RulesSection(r, None, f"rules.{key}") if key in plugin_keys else root.sub(key, allowed)

    _unit_types(r, root)
    names = _formation_names(root.sub("formation-words"))
    boxes = read_boxes(root.sub("boxes", frozenset({"rule", "allowed", "reinforcements", "eliminated", "exited",
                                                 "turn-boxes"})))
    stacking, enemy_rule = read_stacking(root.sub("stacking", STACKING_KEYS))
    chart = read_chart(root.sub("terrain-effects", CHART_KEYS))
    r.chart = chart
    prohibited = tuple(read_prohibition(s) for s in root.each("prohibited", frozenset({"rule", "units", "enter", "cross",
                                                                                    "except-along", "what"})))
    markers = read_markers(root, r)
    r.markers = markers
    zoc = read_zoc(root)
    supply = read_supply(root.sub("supply", frozenset({"rule", "markers", "off-map", "trace", "sides", "isolated-after"})),
                     r, zoc)
    reinforcements = read_reinforcements(root.sub("reinforcements", REINFORCEMENT_KEYS))
    control = read_control(sub("control", frozenset({"rule", "by", "start"})))
    victory = read_victory(sub("victory", VICTORY_KEYS), control, boxes.exited)
    words = sub("piece-words", frozenset({"unit", "not-unit"}))
    piece_words = PieceWords(tuple(words.names("unit")),
                             tuple(words.names("not-unit")) + tuple(m.name for m in markers.values()))
    return GenericRules(
        unit_types=r.unit_types,
        groups=dict(r.groups),
        names=names,
        boxes=boxes,
        stacking=stacking,
        enemy_rule=enemy_rule,
        prohibited=prohibited,
        zoc=zoc,
        supply=supply,
        reinforcements=reinforcements,
        markers=markers,
        control=control,
        victory=victory,
        piece_words=piece_words,
        chart=chart,
    )


def _unit_types(r: RulesReader, root: RulesSection) -> None:
    """``unit-types`` (else the types game.yaml declares) and ``type-groups``, kept in the reader: the
    other keys name them."""
    if "unit-types" in root:
        types = root.names("unit-types")
        for i, t in enumerate(types):
            if not ID_RE.match(t):
                raise root.err("unit-types", f"[{i}] {t!r} is not a unit type", expected="lowercase words joined by '-'")
        r.unit_types = frozenset(types)
    elif r.game.unit_types:  # the types game.yaml declares
        r.unit_types = frozenset(r.game.unit_type_ids())
    groups = root.sub("type-groups")
    for name in groups:
        if not ID_RE.match(name):
            raise groups.err(name, f"{name!r} is not a group name", expected="lowercase words joined by '-'")
        got = groups.types(name)
        assert got is not None
        r.groups[name] = got
    if r.unit_types is not None:
        clash = set(r.groups) & r.unit_types
        if clash:
            raise groups.err(sorted(clash)[0], "a group may not be named like a unit type")


def _formation_names(words: RulesSection) -> FormationNames:
    """``formation-words``: words of formation names that are the same word (or none)."""
    return FormationNames({re.sub(r"[^a-z0-9]", "", k.lower()): re.sub(r"[^a-z0-9]", "", words.text(k).lower())
                           for k in words})

