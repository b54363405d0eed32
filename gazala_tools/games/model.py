"""What a game *is*: the facts of its ``game.yaml`` as immutable values, and where its files are.

A :class:`Game` is one game folder (``docs/games.md``): ``game.yaml`` (id, name, sides, turn
record, numbering, rules data, rules plugin), ``map.yaml``, ``counters.yaml``, ``scenarios.yaml``,
``tables.yaml`` and, for a module, a build configuration. Everything that asks "which games exist,
what is their numbering, their sides, their turns, their tables" asks a :class:`Game`, found
through :func:`gazala_tools.games.find_game`. Loading the other files is lazy and cached.

Pure Python.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from gazala_tools.errors import GameDataError
from gazala_tools.inputs import inside_folder
from gazala_tools.numbering import Numbering

__all__ = [
    "COUNTERS_FILE",
    "GAME_FILE",
    "MAP_FILE",
    "MODULE_FILE",
    "SCENARIOS_FILE",
    "SYMBOLS",
    "TABLES_FILE",
    "Game",
    "Side",
    "UnitType",
]

GAME_FILE: Final = "game.yaml"
MAP_FILE: Final = "map.yaml"
COUNTERS_FILE: Final = "counters.yaml"
SCENARIOS_FILE: Final = "scenarios.yaml"
TABLES_FILE: Final = "tables.yaml"
#: a game folder's own module build configuration (built-in games keep theirs in ``modules/<id>.yaml``)
MODULE_FILE: Final = "module.yaml"


@dataclass(frozen=True, slots=True)
class Side:
    """A side of the game as ``game.yaml`` declares it: ``Side("red", "Red Army", "#c03030", "Red")``.

    ``name`` is how the side is shown ("Red Army"); ``adjective`` how findings name its units ("3 Red
    units"; game.yaml's ``adjective``, else the id); ``color`` its ``#rrggbb`` (track markers, reports).
    """

    id: str
    name: str
    color: str = ""  #: ``#rrggbb``, used for track markers and reports ("" = none given)
    adjective: str = ""  #: "German" in "3 German units" ("" = the id)

    def __post_init__(self) -> None:
        if not self.adjective:
            object.__setattr__(self, "adjective", self.id)

    @property
    def colour(self) -> str:
        """The side's colour (``#rrggbb``, "" when game.yaml gives none)."""
        return self.color

    @property
    def rgb(self) -> tuple[int, int, int] | None:
        """The side's colour as (red, green, blue), or None when game.yaml gives none."""
        if len(self.color) != 7:
            return None
        return int(self.color[1:3], 16), int(self.color[3:5], 16), int(self.color[5:7], 16)


#: the land-unit symbols the counter renderer draws (NATO/APP-6 style): what a unit type is drawn as
SYMBOLS: Final = (
    "armor", "infantry", "motorized-infantry", "mechanized-infantry", "anti-tank", "recon", "armored-recon",
    "artillery", "engineer", "hq",
)


@dataclass(frozen=True, slots=True)
class UnitType:
    """A unit type the game declares (game.yaml ``unit-types``): ``UnitType("cavalry", "Cavalry", "recon")``.

    ``symbol`` is one of :data:`SYMBOLS`, what its counters show (default: the type itself).
    """

    id: str
    name: str = ""
    symbol: str = ""


@dataclass(frozen=True, eq=False)
class Game:
    """One game folder, read. ``folder`` holds the data files; ``module_config`` the build config.

    Compared and hashed by identity: the registry reads each folder once (per modification).
    """

    id: str
    name: str  #: the module name, and what saves of its module record
    folder: Path
    sides: tuple[Side, ...]
    turns: tuple[str, ...]  #: the turn record, in order (may be empty)
    numbering: Numbering
    provenance: str
    publisher: str = ""
    description: str = ""
    sources: tuple[str, ...] = ()
    plugin: str | None = None  #: rules plugin: a module path (``gazala_tools.rules.rg``) or a file of the folder
    rules: Mapping[str, Any] = field(default_factory=dict)  #: the ``rules`` section (docs/games.md)
    module_config: Path | None = None
    builtin: bool = False
    source_file: Path | None = None
    #: the unit types game.yaml declares (``unit-types``; none: the counter symbols' names)
    unit_types: tuple[UnitType, ...] = ()
    #: the ``rules:`` section as read from game.yaml (YAML nodes, with their lines and columns), so the
    #: rules reader (``gazala_tools.referee.ruledata``) never reads the file again
    rules_node: Any = field(default=None, repr=False)

    # --- files -----------------------------------------------------------------------------------
    # A game folder is a sandbox for reads (docs/games.md): every file of it, and every path its data
    # names, resolves (symlinks followed) inside the folder, or it is refused (exit 2), before a byte
    # of it is read. Built-in games are checked the same way (their folder is the sandbox; a map that
    # ``extends`` another built-in game names it by id, not by path).
    def data_file(self, name: str) -> Path:
        """``folder/name`` (``map.yaml``, ``movement.yaml``...), refused if it resolves outside the folder."""
        path = self.folder / name
        inside_folder(path, self.folder, name=name, what="data file", file=path, error=GameDataError)
        return path

    @property
    def map_file(self) -> Path:
        return self.data_file(MAP_FILE)

    @property
    def counters_file(self) -> Path:
        return self.data_file(COUNTERS_FILE)

    @property
    def scenarios_file(self) -> Path:
        return self.data_file(SCENARIOS_FILE)

    @property
    def tables_file(self) -> Path:
        return self.data_file(TABLES_FILE)

    def file(self, relative: str, what: str = "path") -> Path:
        """A file of the folder named by the data (``help/rules.html``), resolved; never outside the folder."""
        return inside_folder(self.folder / relative, self.folder, name=relative, what=what, file=self.source_file,
                             error=GameDataError)

    # --- sides and turns -------------------------------------------------------------------------
    @property
    def side_ids(self) -> tuple[str, ...]:
        return tuple(s.id for s in self.sides)

    def unit_type_ids(self) -> tuple[str, ...]:
        """The game's unit types: those game.yaml declares, else the names of the counter symbols."""
        return tuple(t.id for t in self.unit_types) if self.unit_types else SYMBOLS

    def symbol_of(self, unit_type: str) -> str:
        """The counter symbol a unit type is drawn with."""
        for t in self.unit_types:
            if t.id == unit_type:
                return t.symbol or t.id
        return unit_type

    def side_colours(self) -> dict[str, tuple[int, int, int]]:
        """Each side's colour as RGB (sides game.yaml gives no colour are left out): for reports."""
        return {s.id: rgb for s in self.sides if (rgb := s.rgb) is not None}

    def side(self, side_id: str) -> Side:
        for s in self.sides:
            if s.id == side_id:
                return s
        raise KeyError(side_id)

    # --- the other files are read by their loaders, a layer above: ``load_game_map(game)``,
    # ``load_game_manifest(game)``, ``load_scenarios(game)`` (games.scenarios), ``load_tables(game)`` (games.tables)
    def __str__(self) -> str:
        return self.id
