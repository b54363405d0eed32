"""Process-wide caches, every one bounded (issue 22 item 3: a long ``referee watch`` must not grow).

``FileCache``: values read from a data file, reused while the file is unchanged. A game's map,
counters, scenarios and tables are read once per file version: the key is the file's resolved path,
its modification time and the context the value was read in (the game whose id, numbering and sides
it was checked against). An edited file is read again; the oldest versions are dropped.

``BoundedDict``: a least-recently-used mapping of hashable keys, at most ``maxsize`` entries.
``SizedDict``: the same, bounded by the bytes its values weigh (decoded images).

``ObjectCache``: values computed from live objects (a ``Game``, a rules plugin, a map), found by
the objects' identity (``is``), never by ``id()`` (the ``id()`` of a dead object is reused by the
next one). Plain values in a key (a side's name, a flag: ``str``, ``int``, ``float``, ``bool``,
``bytes``, ``None``) are compared by equality: two equal strings are often distinct objects (a side
read from a log is), and comparing them by identity missed the cache at every call (issue 24's
log benchmark recomputed the minefield hexsides for every move). It holds at most ``maxsize``
entries, so it keeps at most that many objects alive.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable
from pathlib import Path
from typing import Generic, TypeVar

__all__ = [
    "BoundedDict",
    "FileCache",
    "K",
    "ObjectCache",
    "SizedDict",
    "T",
]

K = TypeVar("K", bound=Hashable)
T = TypeVar("T")


class BoundedDict(Generic[K, T]):
    """At most ``maxsize`` values by key; the least recently used is dropped first."""

    def __init__(self, maxsize: int) -> None:
        if maxsize < 1:
            raise ValueError("maxsize must be at least 1")
        self.maxsize = maxsize
        self._items: OrderedDict[K, T] = OrderedDict()

    def __len__(self) -> int:
        return len(self._items)

    def get(self, key: K) -> T | None:
        got = self._items.get(key)
        if got is not None:
            self._items.move_to_end(key)
        return got

    def put(self, key: K, value: T) -> T:
        self._items[key] = value
        self._items.move_to_end(key)
        while len(self._items) > self.maxsize:
            self._items.popitem(last=False)
        return value

    def clear(self) -> None:
        self._items.clear()


class SizedDict(Generic[K, T]):
    """At most ``max_bytes`` of values by key, each weighed by ``weigh(value)``; the least recently used
    is dropped first (issue 31: a cache of decoded images is bounded in bytes, not entries). A value
    heavier than the whole cache is not kept."""

    def __init__(self, max_bytes: int, weigh: Callable[[T], int]) -> None:
        self.max_bytes = max_bytes
        self.weigh = weigh
        self.bytes = 0
        self._items: OrderedDict[K, tuple[T, int]] = OrderedDict()

    def __len__(self) -> int:
        return len(self._items)

    def get(self, key: K) -> T | None:
        got = self._items.get(key)
        if got is None:
            return None
        self._items.move_to_end(key)
        return got[0]

    def put(self, key: K, value: T) -> T:
        old = self._items.pop(key, None)
        if old is not None:
            self.bytes -= old[1]
        size = self.weigh(value)
        if size > self.max_bytes:
            return value
        self._items[key] = (value, size)
        self.bytes += size
        while self.bytes > self.max_bytes:
            _k, (_v, n) = self._items.popitem(last=False)
            self.bytes -= n
        return value

    def snapshot(self) -> dict[K, T]:
        """The values held now, as a plain dict (for readers on other threads: the cache itself is not
        safe to share)."""
        return {k: v for k, (v, _n) in self._items.items()}

    def clear(self) -> None:
        self._items.clear()
        self.bytes = 0


_PLAIN = (str, int, float, bool, bytes, type(None))


def _same(key: tuple[object, ...], objects: tuple[object, ...]) -> bool:
    """The same key: live objects by identity, plain values by equality (and type)."""
    if len(key) != len(objects):
        return False
    for a, b in zip(key, objects, strict=True):
        if a is b:
            continue
        if type(a) is not type(b) or not isinstance(a, _PLAIN) or a != b:
            return False
    return True


class ObjectCache(Generic[T]):
    """At most ``maxsize`` values, each for a tuple of live objects compared by identity."""

    def __init__(self, maxsize: int) -> None:
        if maxsize < 1:
            raise ValueError("maxsize must be at least 1")
        self.maxsize = maxsize
        self._items: list[tuple[tuple[object, ...], T]] = []

    def __len__(self) -> int:
        return len(self._items)

    def get(self, *objects: object) -> T | None:
        for i, (key, value) in enumerate(self._items):
            if _same(key, objects):
                if i:
                    self._items.insert(0, self._items.pop(i))
                return value
        return None

    def put(self, value: T, *objects: object) -> T:
        self._items = [(k, v) for k, v in self._items if not _same(k, objects)]
        self._items.insert(0, (objects, value))
        del self._items[self.maxsize:]
        return value

    def clear(self) -> None:
        self._items.clear()


class FileCache(Generic[T]):
    """One kind of value, by (file, modification time, context); at most ``maxsize`` file versions."""

    def __init__(self, maxsize: int = 32) -> None:
        self._items: BoundedDict[tuple[Path, int, Hashable], T] = BoundedDict(maxsize)

    def __len__(self) -> int:
        return len(self._items)

    def get(self, path: Path, context: Hashable, load: Callable[[], T]) -> T:
        """The value of ``path`` read in ``context``, loaded by ``load()`` if the file is new or has
        changed. Raises ``OSError`` when the file cannot be looked at (each caller says what that means)."""
        key = (path.resolve(), path.stat().st_mtime_ns, context)
        got = self._items.get(key)
        if got is None:
            got = self._items.put(key, load())
        return got
