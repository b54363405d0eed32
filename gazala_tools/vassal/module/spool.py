"""Images of a module kept on disk until they are zipped: a large game's faces (tens of
thousands of PNGs) take a few bytes of memory each, not their size."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator, MutableMapping

__all__ = ["SpooledImages"]


class SpooledImages(MutableMapping[str, bytes]):
    """A mapping of names to bytes whose values live in an anonymous temporary file (removed with
    the mapping). Setting a name again appends the new bytes; reading seeks and reads."""

    def __init__(self) -> None:
        self._file = tempfile.TemporaryFile(prefix="gazala-images-")  # noqa: SIM115 - lives as long as the mapping
        self._end = 0
        self._at: dict[str, tuple[int, int]] = {}  #: name -> (offset, length)

    def __setitem__(self, name: str, data: bytes) -> None:
        self._file.seek(self._end)
        self._file.write(data)
        self._at[name] = (self._end, len(data))
        self._end += len(data)

    def __getitem__(self, name: str) -> bytes:
        at, n = self._at[name]
        self._file.seek(at)
        return self._file.read(n)

    def __delitem__(self, name: str) -> None:
        del self._at[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._at)

    def __len__(self) -> int:
        return len(self._at)

    def __contains__(self, name: object) -> bool:
        return name in self._at

    def close(self) -> None:
        self._file.close()
