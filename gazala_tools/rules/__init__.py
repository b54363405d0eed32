"""Rules plugins, found through the game data: ``rules_for(game)`` -> the game's bound rules.

A game's ``game.yaml`` may name a plugin (``rules: {plugin: ...}``): a Python module path
(``gazala_tools.rules.rg``) or a ``.py`` file inside the game folder (``rules.py``), loaded by
path. The plugin module defines one :class:`~gazala_tools.referee.engine.RulesPlugin` subclass
(or names it ``RULES = MyRules``) that reads its own keys of the ``rules:`` section and overrides
the hooks data cannot say. A game without a plugin is refereed by the generic rules of its data
(:class:`RulesPlugin` itself). Nothing here knows any game: adding one adds a folder.

A plugin is code: it runs when a game folder that names it is refereed (``--game DIR``). A
position YAML's ``game:`` may only name a built-in game, so an input file never picks the code
that judges it.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import inspect
import logging
import sys
from types import ModuleType
from typing import TYPE_CHECKING

from gazala_tools.errors import GameDataError, GazalaError

if TYPE_CHECKING:  # pragma: no cover
    from gazala_tools.games.model import Game
    from gazala_tools.mapdata.model import GameMap
    from gazala_tools.referee.engine import RulesPlugin

log = logging.getLogger(__name__)

_CLASSES: dict[int, tuple[Game, type[RulesPlugin]]] = {}


def _place(game: Game) -> str | None:
    """file:line of ``rules.plugin`` in the game's game.yaml (for messages)."""
    from gazala_tools.referee.ruledata import rules_node
    from gazala_tools.yamlnodes import place_of

    try:
        node, _file = rules_node(game)
    except GazalaError:
        return None
    for k, v in getattr(node, "value", ()):
        if getattr(k, "value", None) == "plugin":
            return place_of(v)
    return None


def _fail(game: Game, problem: str, expected: str) -> GameDataError:
    return GameDataError(f"rules.plugin {game.plugin!r}: {problem}", file=game.source_file, place=_place(game),
                         expected=expected)


def _module(game: Game) -> ModuleType:
    ref = game.plugin
    assert ref is not None
    if ref.endswith(".py"):
        path = game.file(ref)
        if not path.is_file():
            raise _fail(game, "no such file in the game folder", "a .py file of the game folder")
        digest = hashlib.sha1(str(path).encode()).hexdigest()[:12]
        name = f"gazala_game_plugin_{digest}"
        spec = importlib.util.spec_from_file_location(name, path)
        if spec is None or spec.loader is None:  # pragma: no cover - a .py file always has a loader
            raise _fail(game, "cannot be loaded", "a Python file")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        try:
            spec.loader.exec_module(module)
        except GazalaError:
            raise
        except Exception as exc:
            sys.modules.pop(name, None)
            raise _fail(game, f"failed to load ({type(exc).__name__}: {exc})", "a plugin module that imports") from None
        return module
    try:
        return importlib.import_module(ref)
    except ImportError as exc:
        raise _fail(game, f"cannot be imported ({exc})", "an importable module path") from None


def plugin_class(game: Game) -> type[RulesPlugin]:
    """The rules class of ``game``: its plugin's, or the generic data rules."""
    from gazala_tools.referee.engine import RulesPlugin

    if game.plugin is None:
        return RulesPlugin
    got = _CLASSES.get(id(game))
    if got is not None and got[0] is game:
        return got[1]
    module = _module(game)
    cls = getattr(module, "RULES", None)
    if cls is None:
        found = [c for _n, c in inspect.getmembers(module, inspect.isclass)
                 if issubclass(c, RulesPlugin) and c is not RulesPlugin and c.__module__ == module.__name__]
        if len(found) != 1:
            raise _fail(game, f"defines {len(found)} RulesPlugin subclasses",
                        "exactly one, or RULES = <the class>")
        cls = found[0]
    if not (inspect.isclass(cls) and issubclass(cls, RulesPlugin)):
        raise _fail(game, "RULES is not a RulesPlugin subclass", "RULES = <a RulesPlugin subclass>")
    _CLASSES[id(game)] = (game, cls)
    return cls


def rules_for(game: Game, game_map: GameMap | None = None, *, strict: bool | None = None) -> RulesPlugin:
    """The game's rules bound to ``game_map`` (default: the game's own map)."""
    return plugin_class(game)(game, game_map, strict=strict)
