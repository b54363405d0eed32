"""One-call entry points: load an input (position YAML or save), check it, keep what renderers need."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gazala_tools.errors import GazalaError
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

        g = game or "gazala-rg"
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
        pos = parse_position(data, labels=rules.map.grid, manifest=manifest_specs(g), file=p)
    else:
        raise GazalaError("unknown input type", file=p, expected="a position .yaml/.yml or a .vsav/.vlog save")
    if turn is not None:
        from dataclasses import replace

        pos = replace(pos, turn=turn)
    return pos, rules


def check_file(path: str | Path, **kw: Any) -> Checked:
    position, rules = load_position(path, **kw)
    report = Referee(rules).check(position)
    return Checked(position, rules.map, rules, report)
