"""Which hexes and which units a rule is about: :class:`HexSet`, :class:`UnitFilter` (formations
compared by :class:`FormationNames`)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from gazala_tools.hexes import Hex

__all__ = ["ANY_UNIT", "FormationNames", "HexSet", "UnitFilter"]

if TYPE_CHECKING:  # pragma: no cover
    from gazala_tools.referee.position import Unit


@dataclass(frozen=True, slots=True)
class HexSet:
    """Hexes the data names, resolved on the map, and how the data named them (for messages)."""

    hexes: frozenset[Hex]
    text: str = ""

    def __contains__(self, h: object) -> bool:
        return h in self.hexes

    def __bool__(self) -> bool:
        return bool(self.hexes)


class FormationNames:
    """Formation names compared as the rules print them: ``"69th Bde"`` is ``"69 Inf"`` when the
    game's ``formation-words`` say ``bde`` and ``inf`` are the same word (or no word)."""

    __slots__ = ("_keys", "words")

    def __init__(self, words: Mapping[str, str] | None = None) -> None:
        self.words = dict(words or {})
        self._keys: dict[str, str] = {}

    def key(self, name: str) -> str:
        got = self._keys.get(name)
        if got is None:
            s = re.sub(r"[^a-z0-9]", "", name.lower())
            m = re.fullmatch(r"(\d+)(?:st|nd|rd|th)?([a-z]*)", s)
            if m:
                word = m.group(2)
                got = m.group(1) + self.words.get(word, word)
            else:
                got = self.words.get(s, s)
            if len(self._keys) < 100_000:
                self._keys[name] = got
        return got

    def same(self, a: str, b: str) -> bool:
        return self.key(a) == self.key(b)

    def any_of(self, name: str, names: tuple[str, ...]) -> bool:
        k = self.key(name)
        return any(k == self.key(n) for n in names)


@dataclass(frozen=True, slots=True)
class UnitFilter:
    """Which units a rule is about (None: any). ``formations`` are compared by :class:`FormationNames`."""

    sides: frozenset[str] | None = None
    types: frozenset[str] | None = None
    formations: tuple[str, ...] | None = None
    text: str = "units"

    def matches(self, unit: Unit, names: FormationNames) -> bool:
        if self.sides is not None and unit.side not in self.sides:
            return False
        if self.types is not None and unit.type not in self.types:
            return False
        return self.formations is None or names.any_of(unit.formation, self.formations)


ANY_UNIT: Final = UnitFilter()
