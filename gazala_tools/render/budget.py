"""The art budget of one command (issue 31 item 2): what drawing art may cost in all, counted as it grows.

Each image has its own caps (the counter-art pixel cap per layer and per face, :mod:`.svg`'s caps per SVG);
a command that draws many (a counter sheet, a contact sheet, ``game import``'s layered faces, lint's checks)
also has a total: pixels decoded or painted, and SVG elements drawn. Work is charged **before** the
expensive call; an image that would pass the total is refused (:class:`ArtBudgetSpent`), and the command
draws a placeholder for it, or reports it, and goes on.

``with command_budget():`` opens a command's budget (nested calls share the outer one); outside it each
call has a budget of its own (per-image caps only apply).
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Hashable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from gazala_tools.errors import GazalaError
from gazala_tools.filecache import BoundedDict

__all__ = [
    "MAX_COMMAND_PIXELS",
    "MAX_COMMAND_SVG_DRAWN",
    "ArtBudget",
    "ArtBudgetSpent",
    "command_budget",
    "current_budget",
]

#: pixels a command may decode, compose or paint in all (PNG decoding and alpha compositing cost 20 to 50 ns a
#: pixel on the shared 2-core machine: 4 to 10 s)
MAX_COMMAND_PIXELS: Final = 200_000_000
#: SVG elements a command may draw in all (cairosvg draws about 8,000 a second)
MAX_COMMAND_SVG_DRAWN: Final = 150_000


class ArtBudgetSpent(GazalaError):
    """The command's art budget would be passed by this image: it is not drawn."""


@dataclass
class ArtBudget:
    """What a command has spent on art so far, and its caps."""

    max_pixels: int = MAX_COMMAND_PIXELS
    max_drawn: int = MAX_COMMAND_SVG_DRAWN
    pixels: int = 0
    drawn: int = 0
    #: work done once per command and reused (an SVG prepared, by its bytes and sandbox): gone with the command
    memo: BoundedDict[Hashable, object] = field(default_factory=lambda: BoundedDict(256))

    def charge(self, *, pixels: int = 0, drawn: int = 0, file: str | Path | None = None, what: str = "image") -> None:
        """Spend ``pixels`` and ``drawn`` elements, or refuse (nothing spent) when either total would pass."""
        if self.pixels + pixels > self.max_pixels:
            raise ArtBudgetSpent(f"{what} not drawn: the command's art budget of {self.max_pixels:,} pixels is spent "
                                 f"({self.pixels:,} drawn, {pixels:,} more asked)", file=file,
                                 expected="fewer or smaller images in one command")
        if self.drawn + drawn > self.max_drawn:
            raise ArtBudgetSpent(f"{what} not drawn: the command's budget of {self.max_drawn:,} SVG elements is spent "
                                 f"({self.drawn:,} drawn, {drawn:,} more asked)", file=file,
                                 expected="simpler or fewer SVG images in one command")
        self.pixels += pixels
        self.drawn += drawn


_CURRENT: contextvars.ContextVar[ArtBudget | None] = contextvars.ContextVar("gazala_art_budget", default=None)


def current_budget() -> ArtBudget:
    """The open command's budget, or a fresh one (a call outside any command)."""
    return _CURRENT.get() or ArtBudget()


@contextlib.contextmanager
def command_budget(budget: ArtBudget | None = None) -> Iterator[ArtBudget]:
    """The budget of a command's art (a nested call keeps the outer one)."""
    outer = _CURRENT.get()
    if outer is not None and budget is None:
        yield outer
        return
    token = _CURRENT.set(budget or ArtBudget())
    try:
        yield _CURRENT.get() or ArtBudget()
    finally:
        _CURRENT.reset(token)
