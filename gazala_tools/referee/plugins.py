"""Rules plugins, found through the game data: ``rules_for(game)`` -> the game's bound rules.

The loader lives in the referee (the plugins of ``gazala_tools.rules`` build on the referee, never the
other way: issue 22 item 3); ``gazala_tools.rules`` re-exports it. A plugin module is found by its
path at run time, so the referee imports no plugin.

A game's ``game.yaml`` may name a plugin (``rules: {plugin: ...}``): a Python module path
(``gazala_tools.rules.rg``) or a ``.py`` file inside the game folder (``rules.py``), loaded by
path. The plugin module defines one :class:`~gazala_tools.referee.engine.RulesPlugin` subclass
(or names it ``RULES = MyRules``) that reads its own keys of the ``rules:`` section and overrides
the hooks data cannot say. A game without a plugin is refereed by the generic rules of its data
(:class:`RulesPlugin` itself). Nothing here knows any game: adding one adds a folder.

A plugin is code, and opt-in (docs/games.md, "Plugins are code"): a plugin file of a game folder
that is not a built-in game runs only with ``--allow-plugin`` (:func:`plugins_allowed`); it runs
from its source (read, compiled, executed into a fresh module: never a cached ``.pyc``, and no
``__pycache__`` written into the folder), and the report says it ran (:func:`plugin_note`). A
module path may only name a module of ``gazala_tools.rules``. A position YAML's ``game:`` may only
name a built-in game, so an input file never picks the code that judges it.
"""

from __future__ import annotations

import contextlib
import contextvars
import hashlib
import importlib
import inspect
import logging
import sys
from collections.abc import Iterator
from types import ModuleType
from typing import TYPE_CHECKING, Final

from gazala_tools.errors import GameDataError, GazalaError
from gazala_tools.filecache import ObjectCache
from gazala_tools.inputs import read_file

if TYPE_CHECKING:  # pragma: no cover
    from gazala_tools.games.model import Game
    from gazala_tools.mapdata.model import GameMap
    from gazala_tools.referee.engine import RulesPlugin

__all__ = [
    "MAX_PLUGIN_BYTES",
    "PACKAGE_PREFIX",
    "log",
    "plugin_class",
    "plugin_note",
    "plugins_allowed",
    "rules_for",
]

log = logging.getLogger(__name__)

_CLASSES: ObjectCache[type[RulesPlugin]] = ObjectCache(maxsize=16)


def _place(game: Game) -> str | None:
    """file:line of ``rules.plugin`` in the game's game.yaml (for messages)."""
    # imported here, not above: ``gazala`` starts without the referee's data readers and yaml
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
    from gazala_tools.yamlnodes import error_at  # as in _place: no yaml at start-up

    return error_at(GameDataError, game.source_file, _place(game), f"rules.plugin {game.plugin!r}: {problem}", expected)


#: a plugin that is a module path names a module of our package, nothing else (``this``, ``os`` refused)
PACKAGE_PREFIX: Final = "gazala_tools.rules."
#: largest plugin source file read
MAX_PLUGIN_BYTES: Final = 4 * 1024 * 1024

_ALLOWED: contextvars.ContextVar[bool] = contextvars.ContextVar("gazala_allow_plugin", default=False)
#: what each game's folder plugin was, when it ran (game -> sentence): the reports say so
_RAN: ObjectCache[str] = ObjectCache(maxsize=16)


@contextlib.contextmanager
def plugins_allowed(allow: bool = True) -> Iterator[None]:
    """Within this block, a game folder's own plugin file may run (``--allow-plugin``; docs/games.md)."""
    token = _ALLOWED.set(allow)
    try:
        yield
    finally:
        _ALLOWED.reset(token)


def plugin_note(game: Game) -> str | None:
    """The sentence a report prints when ``game``'s plugin file (code of its folder) ran, else None."""
    return _RAN.get(game)


def _source_module(game: Game, ref: str) -> ModuleType:
    """Run the plugin file ``ref`` of the game folder from its source (never a cached ``.pyc``, no
    ``__pycache__`` written): read, compiled and executed into a fresh module."""
    try:
        path = game.file(ref, what="rules.plugin")
    except GazalaError as exc:
        raise _fail(game, exc.problem.removeprefix(f"rules.plugin {ref!r} "), "a .py file inside the game folder") from None
    if not path.is_file():
        raise _fail(game, "no such file in the game folder", "a .py file of the game folder")
    data = read_file(path, what="rules plugin", cap=MAX_PLUGIN_BYTES, error=GameDataError)
    digest = hashlib.sha256(data).hexdigest()
    name = f"gazala_game_plugin_{hashlib.sha1(str(path).encode()).hexdigest()[:12]}"
    module = ModuleType(name)
    module.__file__ = str(path)
    sys.modules[name] = module
    try:
        code = compile(data, str(path), "exec", dont_inherit=True)
        exec(code, module.__dict__)  # the user allowed this file's code to run (--allow-plugin)
    except GazalaError:
        sys.modules.pop(name, None)
        raise
    except Exception as exc:
        sys.modules.pop(name, None)
        text = " ".join(str(exc).split())[:200]
        raise _fail(game, f"failed to load ({type(exc).__name__}: {text})", "a plugin module that imports") from None
    _RAN.put(f"rules plugin {path.name} of the game folder ran (sha256 {digest[:16]}; "
             "allowed by --allow-plugin)" if not game.builtin else
             f"rules plugin {path.name} of the built-in game ran (sha256 {digest[:16]})", game)
    return module


def _module(game: Game) -> ModuleType:
    ref = game.plugin
    assert ref is not None
    if ref.endswith(".py"):
        return _source_module(game, ref)
    if not ref.startswith(PACKAGE_PREFIX) or not ref[len(PACKAGE_PREFIX):].isidentifier():
        raise _fail(game, "is not a module of gazala_tools.rules",
                    "a .py file of the game folder or gazala_tools.rules.<name>")
    try:
        return importlib.import_module(ref)
    except ImportError as exc:
        raise _fail(game, f"cannot be imported ({exc})", "an importable module path") from None


def plugin_class(game: Game) -> type[RulesPlugin]:
    """The rules class of ``game``: its plugin's, or the generic data rules."""
    from gazala_tools.referee.engine import RulesPlugin  # same package; ``gazala`` starts without the engine

    if game.plugin is None:
        return RulesPlugin
    if game.plugin.endswith(".py") and not game.builtin and not _ALLOWED.get():
        raise _fail(game, f"is code from the game folder {game.folder}: it runs only when you allow it",
                    "--allow-plugin on the command, once you have read the plugin file")
    got = _CLASSES.get(game)
    if got is not None:
        return got
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
    return _CLASSES.put(cls, game)


def rules_for(game: Game, game_map: GameMap | None = None, *, strict: bool | None = None) -> RulesPlugin:
    """The game's rules bound to ``game_map`` (default: the game's own map)."""
    return plugin_class(game)(game, game_map, strict=strict)
