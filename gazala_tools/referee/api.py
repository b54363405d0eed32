"""One-call entry points: load an input (position YAML or save), check it, keep what renderers need."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gazala_tools.errors import GazalaError
from gazala_tools.referee.detect import game_of_save
from gazala_tools.referee.engine import Referee, RulesPlugin
from gazala_tools.referee.position import Position, parse_position, read_yaml, unit_specs
from gazala_tools.referee.report import Report

if TYPE_CHECKING:  # pragma: no cover
    from gazala_tools.mapdata.model import GameMap

log = logging.getLogger(__name__)

YAML_SUFFIXES = (".yaml", ".yml")
SAVE_SUFFIXES = (".vsav", ".vlog")


@dataclass
class Checked:
    """A checked input: the position, the map and rules it was judged with, and the report."""

    position: Position
    game_map: GameMap
    rules: RulesPlugin
    report: Report


_RULES: dict[tuple[str, int], RulesPlugin] = {}


def rules_for_game(game: str) -> RulesPlugin:
    """The game's rules on its built-in map, built once per process (``watch`` re-uses them)."""
    from gazala_tools.mapdata import load_map
    from gazala_tools.rules import plugin_class

    game_map = load_map(game)
    key = (game, id(game_map))
    got = _RULES.get(key)
    if got is None:
        got = plugin_class(game)(game_map)
        _RULES[key] = got
    return got


def manifest_specs(game: str) -> dict[str, dict[str, Any]] | None:
    """Unit specs from the game's counter manifest, or None when the game has none."""
    try:
        from gazala_tools.counters import load_manifest

        return unit_specs(load_manifest(game))
    except (GazalaError, FileNotFoundError, KeyError) as exc:
        log.info("no counter manifest for %s (%s): inline units only", game, exc)
        return None


def position_from_data(
    rules: RulesPlugin,
    data: Mapping[str, Any],
    *,
    manifest: Mapping[str, object] | None = None,
    file: str | Path | None = None,
) -> Position:
    """A position-YAML mapping read for ``rules``' game: the common keys and the keys the plugin
    declares (``extra_keys`` / ``extra_hex_keys``, kept in ``Position.extra``); any other key is refused."""
    return parse_position(data, labels=rules.map.grid, manifest=manifest, file=file, extra_keys=rules.extra_keys,
                          extra_hex_keys=rules.extra_hex_keys, sides=rules.sides)


def load_position(
    path: str | Path,
    *,
    game: str | None = None,
    turn: str | None = None,
    module: str | Path | None = None,
    mapping: str | Path | None = None,
) -> tuple[Position, RulesPlugin]:
    """Read a position YAML or a VASSAL save; ``game``/``turn`` override what the input says."""
    p = Path(path)
    suffix = p.suffix.lower()
    if suffix in SAVE_SUFFIXES:
        from gazala_tools.referee.saves import position_from_save

        g = game or game_of_save(p, module)
        rules = rules_for_game(g)
        pos = position_from_save(p, rules=rules, manifest=manifest_specs(g), module=module, mapping=mapping,
                                 turn=turn)
    elif suffix in YAML_SUFFIXES:
        data = read_yaml(p)
        g = game or str(data.get("game") or "")
        if not g:
            raise GazalaError("no game given", file=p, expected="'game:' in the YAML or --game")
        data = {**data, "game": g}
        rules = rules_for_game(g)
        pos = position_from_data(rules, data, manifest=manifest_specs(g), file=p)
    else:
        raise GazalaError("unknown input type", file=p, expected="a position .yaml/.yml or a .vsav/.vlog save")
    if turn is not None:
        from dataclasses import replace

        pos = replace(pos, turn=turn)
    return pos, rules


def check_file(path: str | Path, *, before: str | Path | None = None, **kw: Any) -> Checked:
    """Load and check one input; ``before``: an earlier save / position YAML of the same game, read
    with the same options, for the rules about what happened in between (``RulesPlugin.compare``)."""
    position, rules = load_position(path, **kw)
    earlier: Position | None = None
    if before is not None:
        bkw = dict(kw)
        if bkw.get("game") is None and Path(before).suffix.lower() in SAVE_SUFFIXES:
            bkw["game"] = rules.game  # a save does not name its game: the input's
        earlier, before_rules = load_position(before, **bkw)
        if earlier.game != position.game:
            raise GazalaError(f"--before is a position of {earlier.game!r}", file=before,
                              expected=f"a position of {position.game!r}, like the input")
        rules = before_rules  # the same cached rules object
    report = Referee(rules).check(position, before=earlier)
    return Checked(position, rules.map, rules, report)
