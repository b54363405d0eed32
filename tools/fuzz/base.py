"""What every fuzz target is made of: a :class:`Target`, the :class:`Bug` a reader that breaks its
contract raises, and :func:`cli`, the ``gazala`` command in-process. The target modules (``targets``,
``art``, ``folders``, ``reports``, ``modules``) import these from here, so none imports another's."""

from __future__ import annotations

import contextlib
import io
import random
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path


class Bug(Exception):
    """A reader broke its contract: an exception other than GazalaError, or exit status 3."""


@dataclass(frozen=True)
class Target:
    name: str
    suffix: str
    seeds: Callable[[], list[bytes]]
    mutate: Callable[[random.Random, bytes], bytes]
    run: Callable[[Path, Path], None]


def cli(*argv: str | Path) -> int:
    """The ``gazala`` command in-process; exit 3 (an unexpected exception) is a :class:`Bug`."""
    from gazala_tools.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main([str(a) for a in argv])
    if code not in (0, 1, 2) or "Traceback" in err.getvalue():
        raise Bug(f"exit {code}: {err.getvalue().strip()[-400:]}")
    if code == 2:
        from gazala_tools.errors import GazalaError

        raise GazalaError(err.getvalue().strip()[-400:])
    return code
