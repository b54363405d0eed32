"""One error hierarchy for the whole toolkit.

Every error that bad input can cause is a :class:`GazalaError`. It carries the file, the place in
it and what was expected, and ``str()`` gives one line that names all three, which the CLI prints
before exiting with status 2.
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

__all__ = [
    "MAX_MESSAGE",
    "GameDataError",
    "GazalaError",
    "HexNameError",
    "MapDataError",
    "UnsupportedFormatError",
    "VassalFormatError",
]

#: longest error line (a message quoting input is cut here)
MAX_MESSAGE: Final = 1000


class GazalaError(ValueError):
    """Bad input: a file, a place in it, what was found and what was expected."""

    def __init__(
        self,
        problem: str,
        *,
        file: str | Path | None = None,
        place: str | None = None,
        expected: str | None = None,
    ) -> None:
        self.problem = problem
        self.file = str(file) if file is not None else None
        self.place = place
        self.expected = expected
        super().__init__(self.message())

    def message(self) -> str:
        parts = []
        where = self.file or ""
        if self.place:
            where = f"{where}:{self.place}" if where else self.place
        if where:
            parts.append(f"{where}: ")
        parts.append(self.problem)
        if self.expected:
            parts.append(f" (expected {self.expected})")
        text = "".join(parts).replace("\n", " ")
        # one line, never a wall of input echoed back
        return text if len(text) <= MAX_MESSAGE else text[: MAX_MESSAGE - 3] + "..."


class HexNameError(GazalaError):
    """A hex label that does not name a hex of the grid or map."""


class MapDataError(GazalaError):
    """Map-data YAML that does not follow the format."""


class VassalFormatError(GazalaError):
    """A VASSAL module, buildFile or save that cannot be read safely."""


class UnsupportedFormatError(VassalFormatError):
    """A file in a format we recognise but cannot read."""


class GameDataError(GazalaError):
    """A game folder (``game.yaml``, scenarios, tables, module config) that does not follow the format."""
