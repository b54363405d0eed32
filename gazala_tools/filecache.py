"""Values read from a data file, reused while the file is unchanged.

A game's map, counters, scenarios and tables are read once per file version: the key is the
file's resolved path, its modification time and the context the value was read in (the game whose
id, numbering and sides it was checked against). An edited file is read again.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from pathlib import Path
from typing import Generic, TypeVar

T = TypeVar("T")


class FileCache(Generic[T]):
    """One kind of value, by (file, modification time, context)."""

    def __init__(self) -> None:
        self._items: dict[tuple[Path, int, Hashable], T] = {}

    def get(self, path: Path, context: Hashable, load: Callable[[], T]) -> T:
        """The value of ``path`` read in ``context``, loaded by ``load()`` if the file is new or has
        changed. Raises ``OSError`` when the file cannot be looked at (each caller says what that means)."""
        key = (path.resolve(), path.stat().st_mtime_ns, context)
        got = self._items.get(key)
        if got is None:
            got = self._items[key] = load()
        return got
