"""The CLI's standard output and error (issue 31 item 6).

While a command runs, ``sys.stdout`` and ``sys.stderr`` are :class:`Stream` proxies of the real ones:

* a write or flush that fails (a reader that went away: ``EPIPE``; a full disk: ``ENOSPC``; a quota, a
  failing disk) raises :class:`StreamClosed`, a ``BaseException`` that no ``except Exception`` of a
  command can take for a bug, and the CLI ends with one line (or none for a closed pipe) instead of a
  traceback or an "Exception ignored" at exit (:func:`silence`);
* text goes through :func:`gazala_tools.escape.terminal`: no control character of an input (ESC, BEL,
  CR, C1) reaches the terminal. JSON output (``--json``, ``--format json``) is
  written exact.
"""

from __future__ import annotations

import contextlib
import errno
import os
from typing import Any, TextIO

from gazala_tools.escape import terminal


class StreamClosed(BaseException):
    """A write to stdout or stderr failed: ``stream`` (``"standard output"``) and the system's error."""

    def __init__(self, stream: Stream, exc: OSError) -> None:
        super().__init__(f"cannot write to {stream.name} ({exc.strerror or errno.errorcode.get(exc.errno or 0, exc)})")
        self.stream = stream
        self.errno = exc.errno


class Stream:
    """A text stream whose failures are :class:`StreamClosed` and whose text is made safe for a terminal
    (``strip``; carriage returns kept when ``keep_cr``: progress bars on stderr)."""

    def __init__(self, raw: TextIO, name: str, *, strip: bool = True, keep_cr: bool = False) -> None:
        self.raw = raw
        self.name = name
        self.strip = strip
        self.keep_cr = keep_cr
        self.failed = False

    def write(self, text: str) -> int:
        if self.failed:  # once failed, the rest goes nowhere (a second error line would fail too)
            return len(text)
        shown = terminal(text, keep_cr=self.keep_cr) if self.strip else text
        try:
            self.raw.write(shown)
        except OSError as exc:
            self.failed = True
            raise StreamClosed(self, exc) from None
        return len(text)

    def writelines(self, lines: Any) -> None:
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        if self.failed:
            return
        try:
            self.raw.flush()
        except OSError as exc:
            self.failed = True
            raise StreamClosed(self, exc) from None

    def __getattr__(self, name: str) -> Any:  # isatty, fileno, encoding, buffer...
        return getattr(self.raw, name)


def silence(stream: Stream) -> None:
    """After a failed write: point the stream's file descriptor at /dev/null, so that what is still
    buffered goes nowhere at exit instead of failing again ("Exception ignored ... BrokenPipeError")."""
    stream.failed = True
    with contextlib.suppress(Exception):
        fd = stream.raw.fileno()
        null = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(null, fd)
        finally:
            os.close(null)
