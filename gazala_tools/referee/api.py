"""One-call entry points: load an input (position YAML or save), check it, keep what renderers need.

Each input is read **once**: a save is decoded by ``read_save`` into a ``Save`` whose typed view
gives the game (the module name it records), the pieces and the turn; ``--fix`` writes from the
same ``Save``. A game is a built-in id, a game folder or a :class:`~gazala_tools.games.Game`
(``--game``); a position YAML's ``game:`` may only name a built-in game.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from gazala_tools.counters.loader import load_game_manifest
from gazala_tools.errors import GazalaError
from gazala_tools.filecache import ObjectCache
from gazala_tools.games import Game, default_game_id, find_game
from gazala_tools.games.moduleyaml import holding_box_at
from gazala_tools.games.scenarios import Scenario, find_scenario
from gazala_tools.hexgrid import MapLayout
from gazala_tools.mapdata.loader import load_game_map
from gazala_tools.referee.detect import game_of_module_file, game_of_view
from gazala_tools.referee.engine import Referee, RulesPlugin
from gazala_tools.referee.findings import Finding, Severity
from gazala_tools.referee.imported import (
    ImportedPieces,
    check_module_name,
    is_imported,
    piece_table,
    positions_findings,
)
from gazala_tools.referee.plugins import plugin_class, plugin_note
from gazala_tools.referee.position import (
    Position,
    Vocabulary,
    game_named,
    parse_position,
    read_node,
    unit_specs,
)
from gazala_tools.referee.report import Report
from gazala_tools.vsav import Save, read_save

if TYPE_CHECKING:  # pragma: no cover
    from gazala_tools.counters.model import Manifest
    from gazala_tools.mapdata.model import GameMap
    from gazala_tools.referee.saves import BoxAt

__all__ = [
    "SAVE_SUFFIXES",
    "YAML_SUFFIXES",
    "Checked",
    "GameContext",
    "GameRef",
    "LayoutReader",
    "Loaded",
    "check_file",
    "check_turn",
    "game_context",
    "imported_context",
    "load",
    "load_position",
    "log",
    "manifest_specs",
    "module_layouts",
    "position_from_data",
    "rules_for_game",
    "scenario_findings",
]

log = logging.getLogger(__name__)

YAML_SUFFIXES = (".yaml", ".yml")
SAVE_SUFFIXES = (".vsav", ".vlog")

GameRef = str | Path | Game
#: reads a module's map layouts (``gazala_tools.vassal.buildfile.read_layouts``): the edge that knows
#: the module format gives it to the referee, which imports no edge (issue 22 item 3)
LayoutReader = Callable[[str | Path], list[MapLayout]]


def module_layouts(module: str | Path | None, read_layouts: LayoutReader | None) -> list[MapLayout] | None:
    """The layouts of ``module`` read by the injected reader (None without a module)."""
    if module is None:
        return None
    if read_layouts is None:
        raise TypeError("a module was given without read_layouts (gazala_tools.vassal.buildfile.read_layouts)")
    return read_layouts(module)


@dataclass(frozen=True)
class GameContext:
    """What a game is, for one command (issue 34: loaded once, passed down): the game, found once; its
    map, read once; its rules, bound once (the plugin class looked up once), which hold the turn record,
    the counter manifest and its index (:attr:`RulesPlugin.manifest_units`) and the movement data
    (:attr:`RulesPlugin.movement`), each read on first use; the unit specs a position reader takes; and
    the map layouts of the module the inputs belong to (``--module``; an imported game's own folder), read
    once. Made by :func:`game_context`; every input of the command (``--before`` too) is read with it,
    and ``referee watch --game`` keeps one for the whole watch."""

    game: Game
    rules: RulesPlugin
    layouts: list[MapLayout] | None = None
    #: the module the layouts were read from (None: no module)
    module: str | Path | None = None

    @property
    def game_map(self) -> GameMap:
        return self.rules.map

    @property
    def manifest(self) -> Manifest | None:
        return self.rules.manifest

    @functools.cached_property
    def specs(self) -> dict[str, dict[str, Any]] | None:
        """Unit specs from the game's counter manifest, or None when the game has none."""
        try:
            manifest = self.rules.manifest
        except (GazalaError, OSError, KeyError) as exc:
            log.info("no counter manifest for %s (%s): inline units only", self.game.id, exc)
            return None
        return unit_specs(manifest) if manifest is not None else None

    @functools.cached_property
    def box_at(self) -> BoxAt | None:
        """Which holding box of the game folder a point lies in (read once; see ``holding_box_at``)."""
        return holding_box_at(self.game)


#: rules bound once per process for a game and map seen again: across commands only (``referee watch``, the
#: main job's check of each set-up save); within a command the :class:`GameContext` passes them down
_RULES: ObjectCache[RulesPlugin] = ObjectCache(maxsize=8)


def game_context(game: GameRef, *, layouts: list[MapLayout] | None = None,
                 module: str | Path | None = None) -> GameContext:
    """The :class:`GameContext` of ``game`` (found once: a :class:`Game` is taken as it is): its map read,
    its rules bound to it (strict: its own map; bound once per process), ``layouts`` (the module's, read
    by the caller) kept."""
    g = game if isinstance(game, Game) else find_game(game)
    cls = plugin_class(g)  # once; a folder's plugin file runs only when allowed (docs/games.md)
    game_map = load_game_map(g)
    rules = _RULES.get(g, game_map)
    if rules is None or type(rules) is not cls:
        rules = _RULES.put(cls(g, game_map, strict=True), g, game_map)
    return GameContext(g, rules, layouts, module)


def rules_for_game(game: GameRef) -> RulesPlugin:
    """The game's rules on its own map, bound once per process (a command keeps its :class:`GameContext`)."""
    return game_context(game).rules


def manifest_specs(game: GameRef) -> dict[str, dict[str, Any]] | None:
    """Unit specs from the game's counter manifest, or None when the game has none (a caller that has a
    :class:`GameContext` takes its ``specs``)."""
    g = game if isinstance(game, Game) else find_game(game)
    try:
        return unit_specs(load_game_manifest(g))
    except (GazalaError, OSError, KeyError) as exc:
        log.info("no counter manifest for %s (%s): inline units only", g.id, exc)
        return None


@dataclass
class Checked:
    """A checked input: the position, the map and rules it was judged with, the report, and the
    save it came from (None for a position YAML), for ``--fix``."""

    position: Position
    game_map: GameMap
    rules: RulesPlugin
    report: Report
    save: Save | None = None


@dataclass
class Loaded:
    position: Position
    rules: RulesPlugin
    save: Save | None = None
    context: GameContext | None = None


def position_from_data(
    rules: RulesPlugin,
    data: Mapping[str, Any] | yaml.Node,
    *,
    manifest: Mapping[str, object] | None = None,
    file: str | Path | None = None,
    game: str | None = None,
) -> Position:
    """A position YAML (its nodes, :func:`~gazala_tools.referee.position.read_node`, or the same data
    as a mapping) read for ``rules``' game: the common keys and the keys the plugin declares (its
    state, ``state_readers``, and ``extra_keys`` / ``extra_hex_keys``, kept in ``Position.extra``);
    any other key is refused. ``game``: the game id in place of the YAML's ``game:``."""
    return parse_position(data, labels=rules.map.grid, manifest=manifest, file=file, extra_keys=rules.extra_keys,
                          extra_hex_keys=rules.extra_hex_keys, sides=rules.sides, extra_names=rules.extra_names(),
                          vocabulary=Vocabulary(rules.unit_types(), rules.formations(), rules.names.same,
                                                markers=rules.data.marker_names()),
                          state_readers=rules.state_readers(), game=game)


def _yaml_game(node: yaml.Node, file: Path) -> Game:
    """The game a position YAML names: a built-in id only (never a path)."""
    name, place = game_named(node)
    if not name:
        raise GazalaError("no game given", file=file, place=place, expected="'game:' in the YAML or --game")
    try:
        return find_game(name, allow_path=False)
    except GazalaError as exc:
        raise GazalaError(f"game: {exc.problem}", file=file, place=place, expected=exc.expected) from None


def load(
    path: str | Path,
    *,
    game: GameRef | None = None,
    turn: str | None = None,
    module: str | Path | None = None,
    mapping: str | Path | None = None,
    read_layouts: LayoutReader | None = None,
    context: GameContext | None = None,
) -> Loaded:
    """Read a position YAML or a VASSAL save (once); ``game``/``turn`` override what the input says.
    ``module``: the save's module (.vmod), whose map layouts ``read_layouts`` reads (the module reader
    is an edge, ``gazala_tools.vassal.buildfile.read_layouts``, passed in by the caller). ``context``:
    the game as the command already loaded it (``--before``, ``watch --game``): used for an input of
    that game, never loaded again; the input's own game otherwise."""
    p = Path(path)
    suffix = p.suffix.lower()
    save: Save | None = None
    if suffix in SAVE_SUFFIXES:
        from gazala_tools.referee.saves import position_from_save
        given = context.game if context is not None else find_game(game) if game is not None else None
        if given is not None and mapping is None and is_imported(given):  # issue 35: the module's own saves
            return _load_imported(p, given, module, read_layouts, turn, context)
        layouts = (context.layouts if context is not None and context.module == module
                   else module_layouts(module, read_layouts))
        save = read_save(p, layouts=layouts)
        g = given or game_of_view(save.view()) or (game_of_module_file(Path(module)) if module is not None else None)
        if g is None:
            g = find_game(default_game_id())
            if mapping is None:
                _refuse_other_sides(save, g, p)
        ctx = context if context is not None and context.game is g else game_context(g, layouts=layouts, module=module)
        rules = ctx.rules
        box_at = ctx.box_at if module is None else None  # the game folder's own holding boxes name the units in them
        pos = position_from_save(save, rules=rules, manifest=ctx.specs, mapping=mapping, turn=turn, box_at=box_at)
    elif suffix in YAML_SUFFIXES:
        node = read_node(p)
        if context is not None and (game is not None or game_named(node)[0] == context.game.id):
            ctx = context  # the command's game, not found again
        else:
            ctx = game_context(find_game(game) if game is not None else _yaml_game(node, p))
        rules = ctx.rules
        pos = position_from_data(rules, node, manifest=ctx.specs, file=p, game=ctx.game.id)
    else:
        raise GazalaError("unknown input type", file=p, expected="a position .yaml/.yml or a .vsav/.vlog save")
    if turn is not None:
        pos = replace(pos, turn=turn)
    check_turn(rules, pos.turn, file=p, place="--turn" if turn is not None else "turn")
    return Loaded(pos, rules, save, ctx)


def imported_context(g: Game, module: str | Path | None, read_layouts: LayoutReader | None,
                     context: GameContext | None = None) -> GameContext:
    """The context of an imported game's saves: the boards the module lays out (the folder's maps unless
    ``module``), read once (``context``: the command's, when it is that game's)."""
    source = module if module is not None else g.folder
    if context is not None and context.game is g and context.module == source:
        return context
    layouts = module_layouts(source, read_layouts) if read_layouts else None
    return game_context(g, layouts=layouts, module=source)


def _load_imported(p: Path, g: Game, module: str | Path | None, read_layouts: LayoutReader | None,
                   turn: str | None, context: GameContext | None = None) -> Loaded:
    """A save of an imported game's module (or of the module rebuilt from it): its pieces through the
    folder's units.yaml, located on the boards the save lays out (the folder's maps unless ``module``)."""
    from gazala_tools.referee.saves import turn_label
    from gazala_tools.vsav import placed_layouts

    ctx = imported_context(g, module, read_layouts, context)
    save = read_save(p)  # no VASSAL location names needed: each piece's hex comes from its pixel point
    view = save.view()
    check_module_name(g, view.module_name, p)
    rules = ctx.rules
    placed = placed_layouts(save.position, ctx.layouts, file=str(p)) if ctx.layouts is not None else None
    pieces = ImportedPieces.for_pieces(piece_table(g), rules, placed, view.pieces)
    pos = pieces.position(view.pieces, turn=turn if turn is not None else turn_label(view.turn, rules),
                          source=view.file)
    check_turn(rules, pos.turn, file=p, place="--turn" if turn is not None else "turn")
    return Loaded(pos, rules, save, ctx)


def check_turn(rules: RulesPlugin, turn: str | None, *, file: str | Path | None = None, place: str = "turn") -> None:
    """An unknown turn label is bad input (a typo must not silently skip the dated rules): exit 2
    naming the valid labels. No turn at all is allowed (the report lists what it could not check)."""
    if turn is None or rules.turn_index(turn) is not None:
        return
    t = rules.turns
    expected = ("a game-turn number 1, 2, ..." if t.open else
                f"a turn of {rules.game.id}: " + ", ".join(t.labels if len(t) <= 20 else
                                                           (*t.labels[:3], "...", *t.labels[-2:]))
                + (f" (or the game-turn number {t.first}-{t.first + len(t) - 1})" if t.numbered else ""))
    raise GazalaError(f"unknown turn {turn!r}", file=file, place=place, expected=expected)


def _refuse_other_sides(save: Save, game: Game, file: Path) -> None:
    """A save whose module names no built-in game is judged by the default game only if its units
    are of that game's sides: the module of a game folder (River War's red and blue) needs --game."""
    view = save.view()
    sides = {p.properties.get("SideId", "") for p in view.pieces if p.properties.get("Kind") == "unit"} - {""}
    other = sorted(sides - set(game.side_ids))
    if other:
        raise GazalaError(f"the save was made with the module {view.module_name!r}, whose units are of sides "
                          f"{', '.join(other)}, not of the default game {game.id!r}", file=file,
                          expected="--game GAME_FOLDER (the game folder the module was built from)")


def load_position(path: str | Path, **kw: Any) -> tuple[Position, RulesPlugin]:
    """Read a position YAML or a VASSAL save; ``game``/``turn``/``module``/``mapping`` as :func:`load`."""
    got = load(path, **kw)
    return got.position, got.rules


def scenario_findings(rules: RulesPlugin, scenario: Scenario, turn: str | None) -> list[Finding]:
    """A warning when the position's turn lies outside the scenario's turns (its ``start``-``end``)."""
    at = rules.turn_index(turn) if turn is not None else None
    if at is None:
        return []
    first = rules.turn_index(scenario.start) if scenario.start else None
    last = rules.turn_index(scenario.end) if scenario.end else None
    if first is not None and at < first:
        where = f"before its first turn, {scenario.start}"
    elif last is not None and at > last:
        where = f"after its last turn, {scenario.end}"
    else:
        return []
    return [Finding("scenario", Severity.WARNING, f"turn {turn} is {where}: is this a position of {scenario.name}?")]


def check_file(path: str | Path, *, before: str | Path | None = None, strict: bool = False,
               scenario: str | None = None, **kw: Any) -> Checked:
    """Load and check one input; ``before``: an earlier save / position YAML of the same game, read
    with the same options, for the rules about what happened in between (``RulesPlugin.compare``).
    ``strict``: an input without a turn is bad input (its turn-dependent rules could not be checked).
    ``scenario``: the id or name of the scenario the position belongs to; the report names it and
    warns when the turn lies outside the scenario's turns."""
    got = load(path, **kw)
    position, rules = got.position, got.rules
    chosen = find_scenario(rules.game, scenario) if scenario is not None else None
    if strict and position.turn is None and rules.turn_rules():
        raise GazalaError("no turn given (--strict)", file=path, place="turn",
                          expected="turn: in the input or --turn LABEL, to check " + "; ".join(rules.turn_rules()))
    earlier: Position | None = None
    if before is not None:
        # read with the input's game as loaded (a save does not name its game: the input's), not again
        prior = load(before, **{**kw, "context": got.context})
        earlier = prior.position
        if earlier.game != position.game:
            raise GazalaError(f"--before is a position of {earlier.game!r}", file=before,
                              expected=f"a position of {position.game!r}, like the input")
        rules = prior.rules  # the same rules object
    report = Referee(rules).check(position, before=earlier)
    if chosen is not None:
        report.scenario = chosen.name
        report.findings[:0] = scenario_findings(rules, chosen, position.turn)
    note = plugin_note(rules.game)
    if note is not None:  # the report says that code of the game folder ran (docs/games.md)
        report.findings.insert(0, Finding("plugin", Severity.INFO, note))
    if is_imported(rules.game):  # each side's units per hex, rules or none (issue 35)
        report.findings.extend(positions_findings(position, rules.map.grid.label))
    return Checked(position, rules.map, rules, report, got.save)
