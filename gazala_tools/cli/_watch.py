"""``referee watch``: when a file in the watched folder is whole enough to judge.

A file is judged once per version (its modification time and size). A version is judged only when
it has been *stable*: unchanged for ``settle`` seconds, by the watch's own clock since it first saw
that version, or by the file's modification time (a file already there when the watch starts). A zip
(a ``.vsav``/``.vlog`` starting ``PK``) must also have its central directory complete: a zip cut
short is "not yet" and waits, and is judged (and so reported as corrupt) only after it has stayed
unchanged for :data:`ZIP_PATIENCE` settle periods. A file that changes after it was judged is a new
version: judged again, and the report says it replaces the earlier one.
"""

from __future__ import annotations

import os
import stat
import struct
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

#: a zip without its central directory waits this many settle periods before it is judged anyway
ZIP_PATIENCE = 5
_EOCD = b"PK\x05\x06"
_EOCD_SIZE = 22
_MAX_COMMENT = 0xFFFF


def zip_complete(path: Path) -> bool:
    """Whether a file that starts like a zip ends with a whole end-of-central-directory record whose
    central directory lies inside the file (reads at most the last 64 KiB); a file that is no zip
    is complete."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))  # never blocks on a FIFO swapped in
        with os.fdopen(fd, "rb") as fh:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode) or fh.read(2) != b"PK":
                return True
            size = st.st_size
            tail_len = min(size, _EOCD_SIZE + _MAX_COMMENT)
            fh.seek(size - tail_len)
            tail = fh.read(tail_len)
    except OSError:
        return True  # not ours to judge here: the reader reports it
    at = tail.rfind(_EOCD)
    while at >= 0:
        if at + _EOCD_SIZE <= len(tail):
            cd_size, cd_offset, comment = struct.unpack("<IIH", tail[at + 12:at + _EOCD_SIZE])
            eocd = size - tail_len + at
            if at + _EOCD_SIZE + comment == len(tail) and (
                    cd_offset == 0xFFFFFFFF or cd_offset + cd_size <= eocd):  # Zip64: the reader checks it
                return True
        at = tail.rfind(_EOCD, 0, at)
    return False


@dataclass
class _Seen:
    version: tuple[int, int]  #: (mtime_ns, size)
    since: float  #: when the watch first saw this version (its clock)
    judged: tuple[int, int] | None = None  #: the version judged last
    judged_at: float | None = None  #: when (wall clock)


class Settle:
    """Which files of a scan are ready to be judged (:meth:`ready`)."""

    def __init__(self, settle: float, *, clock: Callable[[], float] = time.monotonic,
                 wall: Callable[[], float] = time.time) -> None:
        self.settle = settle
        self.clock = clock
        self.wall = wall
        self.files: dict[Path, _Seen] = {}

    def ready(self, path: Path, st: os.stat_result) -> tuple[bool, float | None]:
        """(judge it now, when an earlier version was judged (wall clock) or None)."""
        version = (st.st_mtime_ns, st.st_size)
        now = self.clock()
        seen = self.files.get(path)
        if seen is None:
            seen = self.files[path] = _Seen(version, now)
        elif seen.version != version:
            seen.version, seen.since = version, now
        if seen.judged == version:
            return False, None
        stable = max(now - seen.since, self.wall() - st.st_mtime_ns / 1e9)
        if stable < self.settle:
            return False, None
        if stable < self.settle * ZIP_PATIENCE and not zip_complete(path):
            return False, None
        earlier = seen.judged_at if seen.judged is not None else None
        seen.judged, seen.judged_at = version, self.wall()
        return True, earlier

    def pending(self) -> bool:
        """Whether a file seen is waiting to be judged."""
        return any(s.judged != s.version for s in self.files.values())

    def forget(self, keep: set[Path]) -> None:
        """Forget files no longer there (a file that comes back is new)."""
        for p in [p for p in self.files if p not in keep]:
            del self.files[p]
