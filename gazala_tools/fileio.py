"""Safe file output: every output is written atomically and never over an input."""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO, Any

from gazala_tools.errors import GazalaError


def refuse_overwrite(output: str | Path, inputs: Iterable[str | Path]) -> None:
    """Raise if ``output`` is the same file as any of ``inputs``."""
    out = Path(output)
    for src in inputs:
        s = Path(src)
        try:
            same = out.exists() and s.exists() and os.path.samefile(out, s)
        except OSError:
            same = False
        if same or out.resolve() == s.resolve():
            raise GazalaError("output would overwrite an input", file=output, expected="a different output path")


@contextlib.contextmanager
def atomic_open(path: str | Path, mode: str = "wb") -> Iterator[IO[Any]]:
    """Open a temporary file beside ``path``; on success it replaces ``path`` in one rename."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        # mkstemp makes the file 0600; give it the mode a plain open() would (0666 less the umask)
        umask = os.umask(0)
        os.umask(umask)
        os.fchmod(fd, 0o666 & ~umask)
        with os.fdopen(fd, mode) as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


def atomic_write_bytes(path: str | Path, data: bytes) -> None:
    with atomic_open(path, "wb") as fh:
        fh.write(data)


def atomic_write_text(path: str | Path, text: str) -> None:
    atomic_write_bytes(path, text.encode("utf-8"))
