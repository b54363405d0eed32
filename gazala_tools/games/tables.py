"""A game's rules tables as data: ``tables.yaml`` of a game folder (``docs/games.md``, "tables.yaml").

Each :class:`Table` is text cells, row by row, as a rulebook prints them (a CRT, a terrain effects
chart, a reinforcement schedule), with the rule it comes from. The module builder draws each as a
chart page; nothing here knows what a table means. Pure Python.

>>> from gazala_tools.games import find_game
>>> tables = load_tables(find_game("path/to/my-game"))        # doctest: +SKIP
>>> [(t.name, len(t.rows)) for t in tables]               # doctest: +SKIP
[('CRT', 6), ('Terrain effects', 9)]
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Final

import yaml

from gazala_tools.errors import GameDataError
from gazala_tools.filecache import FileCache
from gazala_tools.yamlnodes import Doc, compose

if TYPE_CHECKING:  # pragma: no cover
    from gazala_tools.games.model import Game

__all__ = [
    "MAX_COLUMNS",
    "MAX_ROWS",
    "MAX_TABLES",
    "TABLE_KEYS",
    "TOP_KEYS",
    "Table",
    "load_tables",
    "read_entries",
    "read_tables",
    "slug",
]

TOP_KEYS: Final = frozenset({"tables"})
TABLE_KEYS: Final = frozenset({"name", "title", "source", "header", "rows", "notes"})
MAX_TABLES: Final = 200
MAX_ROWS: Final = 2000
MAX_COLUMNS: Final = 100


def slug(name: str) -> str:
    """``name`` as a file-name part: lower case, runs of other characters as one hyphen."""
    return re.sub(r"-+", "-", "".join(ch if ch.isalnum() else "-" for ch in name.lower())).strip("-")


@dataclass(frozen=True)
class Table:
    """A table of text cells: ``header`` rows (column titles), body ``rows``, ``notes`` below."""

    name: str  #: the chart's tab name, unique in the game
    title: str
    source: str  #: rulebook and section
    header: tuple[tuple[str, ...], ...]
    rows: tuple[tuple[str, ...], ...]
    notes: tuple[str, ...] = ()

    @property
    def image(self) -> str:
        """The chart page's image name in a module."""
        return f"chart-{slug(self.name)}.png"

    def cell(self, row: int, column: int) -> str:
        """Body cell ``row``, ``column`` (0-based; a short row reads as empty cells)."""
        r = self.rows[row]
        return r[column] if column < len(r) else ""


def _cells(doc: Doc, node: yaml.Node, what: str) -> tuple[tuple[str, ...], ...]:
    rows = doc.seq(node, what)
    if len(rows) > MAX_ROWS:
        raise doc.err(node, f"{what}: {len(rows)} rows", expected=f"at most {MAX_ROWS}")
    out: list[tuple[str, ...]] = []
    for i, r in enumerate(rows):
        cells = doc.strings(r, f"{what}[{i}]")
        if len(cells) > MAX_COLUMNS:
            raise doc.err(r, f"{what}[{i}]: {len(cells)} cells", expected=f"at most {MAX_COLUMNS}")
        out.append(cells)
    return tuple(out)


def read_entries(file: Path, key: str, limit: int) -> tuple[Doc, list[yaml.Node]]:
    """The entries of a data file that is one list under ``key`` (``tables:``, ``scenarios:``)."""
    doc = Doc(file, GameDataError)
    root = compose(file, file.name, GameDataError)
    m = doc.mapping(root, file.name, frozenset({key}))
    doc.require(m, root, file.name, key)
    entries = doc.seq(m[key], key)
    if len(entries) > limit:
        raise doc.err(m[key], f"{key}: {len(entries)} entries", expected=f"at most {limit}")
    return doc, entries


def read_tables(file: Path) -> tuple[Table, ...]:
    """Parse and check one ``tables.yaml`` (names unique, every row a list of text cells)."""
    doc, entries = read_entries(file, "tables", MAX_TABLES)
    out: list[Table] = []
    seen: set[str] = set()
    for i, node in enumerate(entries):
        what = f"tables[{i}]"
        t = doc.mapping(node, what, TABLE_KEYS)
        doc.require(t, node, what, "name", "rows")
        name = doc.scalar(t["name"], f"{what}.name").strip()
        if not name or slug(name) in seen:
            raise doc.err(t["name"], f"{what}.name: {name!r} is empty or names another table too",
                          expected="a unique table name")
        seen.add(slug(name))
        rows = _cells(doc, t["rows"], f"{what}.rows")
        if not rows:
            raise doc.err(t["rows"], f"{what}.rows: no rows", expected="at least one row of cells")
        out.append(Table(
            name=name,
            title=doc.string(t, "title", what, name),
            source=doc.string(t, "source", what, ""),
            header=_cells(doc, t["header"], f"{what}.header") if "header" in t else (),
            rows=rows,
            notes=doc.strings(t["notes"], f"{what}.notes") if "notes" in t else (),
        ))
    return tuple(out)


_CACHE: FileCache[tuple[Table, ...]] = FileCache()


def load_tables(game: Game) -> tuple[Table, ...]:
    """The tables of ``game`` (none without a ``tables.yaml``), cached per file and modification."""
    file = game.tables_file
    try:
        return _CACHE.get(file, None, lambda: read_tables(file))
    except OSError:
        return ()
