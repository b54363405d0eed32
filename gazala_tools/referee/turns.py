"""A game's turn record as the referee reads it: labels, game-turn numbers, loose matching.

``TurnRecord(game.turns)`` answers "which turn is this?" for the labels a position, a save or the
rules data give. A turn is known by its label (``"May 29"``, ``"Turn 3"``; case, spaces,
``Jun``/``June`` and ``AM``/``a`` compared loosely) and, in a **numbered** record (every label one
number in the same words, numbers consecutive: ``Turn 1`` .. ``Turn 26``), also by its game-turn
number (``"3"``, ``"Turn 3"``, ``"GT3"``, ``"Game-Turn 3"``). A game without a turn record (SPI:
the record is in the standard rules we lack) has open-ended numbered turns ``1, 2, ...``.

Indexes are 0-based positions in the record (game-turn ``first + index``). Pure Python.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

__all__ = ["TurnRecord", "game_turn", "normalise_turn"]

_NUMBER: Final = re.compile(r"^\s*(?:(?:game[\s-]*)?turn|gt|t)?[\s#:-]*(\d{1,4})\s*$", re.IGNORECASE)
_ONE_NUMBER: Final = re.compile(r"^(\D*?)(-?\d+)(\D*)$")


def normalise_turn(label: str) -> str:
    """Compare turn labels loosely: case, spaces, 'Jun'/'June', 'AM'/'a'."""
    s = label.strip().lower().replace("june", "jun").replace(" ", "")
    s = re.sub(r"(\d)am$", r"\1a", s)
    s = re.sub(r"(\d)pm$", r"\1p", s)
    return s


def game_turn(label: object) -> int | None:
    """``"6"``, ``"Turn 6"``, ``"Game-Turn 6"``, ``"GT6"`` -> 6; anything else None."""
    if label is None or isinstance(label, bool):
        return None
    m = _NUMBER.match(str(label))
    return int(m.group(1)) if m else None


class TurnRecord:
    """The turns of a game, in order. ``index(label)`` is the referee's one way to read a turn."""

    __slots__ = ("_by_label", "first", "labels", "numbered")

    def __init__(self, labels: Sequence[str]) -> None:
        self.labels: tuple[str, ...] = tuple(labels)
        self._by_label = {normalise_turn(t): i for i, t in enumerate(self.labels)}
        self.first = 1
        #: numbered: a game-turn number names a turn (an open record is numbered from 1)
        self.numbered = not self.labels
        if self.labels:
            parts = [_ONE_NUMBER.match(t.strip()) for t in self.labels]
            if all(parts):
                words = {(p.group(1).strip().lower(), p.group(3).strip().lower()) for p in parts if p}
                nums = [int(p.group(2)) for p in parts if p]
                if len(words) == 1 and nums == list(range(nums[0], nums[0] + len(nums))):
                    self.numbered = True
                    self.first = nums[0]

    @property
    def open(self) -> bool:
        """No turn record: any game-turn number 1, 2, ... is a turn."""
        return not self.labels

    def __len__(self) -> int:
        return len(self.labels)

    def __bool__(self) -> bool:
        return bool(self.labels)

    def index(self, label: object) -> int | None:
        """0-based index of a turn label or (numbered records) game-turn number; None if unknown."""
        if label is None:
            return None
        if isinstance(label, int) and not isinstance(label, bool):
            return self.index_of_number(label)
        got = self._by_label.get(normalise_turn(str(label)))
        if got is not None:
            return got
        if self.numbered:
            n = game_turn(label)
            if n is not None:
                return self.index_of_number(n)
        return None

    def is_label(self, text: str) -> bool:
        """Is ``text`` one of the record's labels (loosely compared)?"""
        return normalise_turn(text) in self._by_label

    def index_of_number(self, n: int) -> int | None:
        if not self.numbered:
            return None
        i = n - self.first
        if i < 0 or (self.labels and i >= len(self.labels)):
            return None
        return i

    def number(self, index: int) -> int:
        """The game-turn number of an index (numbered records; else ``index + 1``)."""
        return self.first + index

    def label(self, index: int) -> str:
        """The label of an index (an open record: the game-turn number)."""
        if self.labels:
            return self.labels[index]
        return str(self.number(index))

    @property
    def last(self) -> int | None:
        """Index of the last turn (None for an open record)."""
        return len(self.labels) - 1 if self.labels else None
