"""Rules plugins, one per game: ``rules_for("gazala-rg")`` -> a bound :class:`RulesPlugin`.

A plugin is a module in this package that defines a :class:`~gazala_tools.referee.engine.RulesPlugin`
subclass and decorates it with :func:`register`. Modules are discovered automatically, so adding a
game adds one module here and touches neither this file nor the referee core.
"""

from __future__ import annotations

import importlib
import logging
import pkgutil
from typing import TYPE_CHECKING, TypeVar

from gazala_tools.errors import GazalaError

if TYPE_CHECKING:  # pragma: no cover
    from gazala_tools.mapdata.model import GameMap
    from gazala_tools.referee.engine import RulesPlugin

log = logging.getLogger(__name__)

_REGISTRY: dict[str, type[RulesPlugin]] = {}
_T = TypeVar("_T", bound="type[RulesPlugin]")


def register(cls: _T) -> _T:
    """Class decorator: make a plugin available under its ``game`` id."""
    if not cls.game:
        raise ValueError(f"{cls.__name__} has no game id")
    _REGISTRY[cls.game] = cls
    return cls


_discovered: list[bool] = []


def _discover() -> None:
    if _discovered:
        return
    _discovered.append(True)
    for info in pkgutil.iter_modules(__path__):
        if info.name.startswith("_"):
            continue
        try:
            importlib.import_module(f"{__name__}.{info.name}")
        except Exception:  # one broken plugin must not take the other games down
            log.exception("rules plugin %s failed to load", info.name)


def games() -> list[str]:
    """Game ids with a rules plugin."""
    _discover()
    return sorted(_REGISTRY)


def plugin_class(game: str) -> type[RulesPlugin]:
    _discover()
    try:
        return _REGISTRY[game]
    except KeyError:
        raise GazalaError(f"no referee rules for game {game!r}", expected=f"one of {', '.join(sorted(_REGISTRY))}") from None


def rules_for(game: str, game_map: GameMap | None = None) -> RulesPlugin:
    """The game's rules bound to ``game_map`` (default: the game's built-in map)."""
    cls = plugin_class(game)
    if game_map is None:
        from gazala_tools.mapdata import load_map

        game_map = load_map(game)
    return cls(game_map)
