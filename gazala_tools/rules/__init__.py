"""The rules plugins of the built-in games (``gazala_tools.rules.<name>``), each a
:class:`~gazala_tools.referee.engine.RulesPlugin` subclass named by its game's ``rules: {plugin: ...}``.

The plugin loader is :mod:`gazala_tools.referee.plugins` (imports run one way: rules -> referee);
its names are re-exported here for callers that speak of "the rules of a game".
"""

from typing import Final

from gazala_tools.mapdata.model import HexsideKind
from gazala_tools.referee.plugins import (
    MAX_PLUGIN_BYTES,
    PACKAGE_PREFIX,
    plugin_class,
    plugin_note,
    plugins_allowed,
    rules_for,
)

#: the hexside kinds the Gazala maps declare (map.yaml ``hexside-kinds``) that their plugins name
MINEFIELD: Final = HexsideKind("minefield")

__all__ = ["MAX_PLUGIN_BYTES", "MINEFIELD", "PACKAGE_PREFIX", "plugin_class", "plugin_note", "plugins_allowed", "rules_for"]
