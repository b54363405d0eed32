"""The counter manifest of a game: plain, immutable data (no Pillow, no YAML).

A :class:`Manifest` holds every physical counter of a game's counter sheet as a :class:`Counter`
with a stable id and two :class:`Face` values (``front`` and ``back``). Multi-step units (RG armor)
are one counter per step (the rules replace a counter by "the reduced strength unit with the next
lower step number", 11.0); those counters share a ``unit_id`` and differ in ``step``.

Values are what is printed on a face, in the order the game prints them, each with its role
(``hard``, ``soft``, ``move``, ``attack``, ``defence``, ``barrage``, ``fpf``, ``range``) and, where
the game colour-codes numbers (the manifest's ``value_inks``), the ink colour. A counter may carry
its own art: an image file per face (``front_art``/``back_art``), printed instead of a drawn face.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Final, Literal, TypeVar

from gazala_tools.games.model import SYMBOLS

__all__ = [
    "INKS",
    "KINDS",
    "NEUTRAL",
    "REDUCED_BACKS",
    "SIZES",
    "UNIT_TYPES",
    "VALUE_ROLES",
    "VALUE_STYLES",
    "Counter",
    "CounterKind",
    "Face",
    "Manifest",
    "Nationality",
    "T",
    "Value",
]

T = TypeVar("T")

CounterKind = Literal["unit", "chit", "marker"]
KINDS: Final = ("unit", "chit", "marker")
#: the side of markers that belong to no side (besides the game's own sides)
NEUTRAL: Final = "neutral"

#: Unit types a game that declares none may use: the symbols the renderer draws (NATO/APP-6 style).
UNIT_TYPES: Final = SYMBOLS
#: Unit size marks, smallest first.
SIZES: Final = ("I", "II", "III", "X", "XX", "XXX")
#: Roles a printed value can have.
VALUE_ROLES: Final = ("hard", "soft", "move", "attack", "defence", "barrage", "fpf", "range")
#: Ink colours a value can be printed in (``value_inks``), ``None`` = the face's text colour.
INKS: Final = ("red", "black", "white")
#: How values are printed: three separate numbers in their inks (``hard soft move``), or one
#: string joined by dashes (``attack-defence-move``, ``4-5-15``).
VALUE_STYLES: Final = ("hard-soft-move", "attack-defence-move")


@dataclass(frozen=True)
class Value:
    """One printed number, e.g. the red hard value ``12`` of a panzer battalion."""

    role: str
    number: int | None  #: ``None`` prints a dash (e.g. no movement on a used side)
    ink: str | None = None
    bracket: bool = False  #: printed ``[6]`` (RG 8.2: restricted 69th Brigade units)

    def text(self) -> str:
        s = "–" if self.number is None else str(self.number)
        return f"[{s}]" if self.bracket else s


@dataclass(frozen=True)
class Face:
    """What one side of a counter shows."""

    values: tuple[Value, ...] = ()
    title: str = ""  #: chits and markers: the big word(s); units: empty
    subtitle: str = ""
    icon: str = ""  #: chits/markers: "arrow", "star", "cup", "number", ... ("" = none)
    state: str = "full"  #: "full", "used", "reduced", "depleted", "blank", "marker", "chit"
    color: str | None = None  #: background override ("#rrggbb"); default: the nationality colour
    text_color: str | None = None

    def value(self, role: str) -> Value | None:
        for v in self.values:
            if v.role == role:
                return v
        return None


@dataclass(frozen=True)
class Nationality:
    key: str
    name: str
    side: str
    color: str  #: counter background "#rrggbb"
    text_color: str = "#000000"
    box_color: str = "#ffffff"  #: fill of the unit-symbol frame


def _of_side(side: str, front: T, back: T) -> T:
    if side == "front":
        return front
    if side == "back":
        return back
    raise ValueError(f"face side {side!r} is not 'front' or 'back'")


#: back-face states that are the unit's reduced step (flip to take a loss): DG depleted, BG reduced
REDUCED_BACKS: Final = ("reduced", "depleted")


@dataclass(frozen=True)
class Counter:
    """One physical die-cut counter."""

    id: str
    kind: CounterKind
    side: str
    nationality: str  #: key into ``Manifest.nationalities`` ("" for neutral markers)
    front: Face
    back: Face
    formation: str = ""
    designation: str = ""
    type: str = ""  #: a unit type of the game for units; the chit/marker kind otherwise ("action", "disrupted"...)
    symbol: str = ""  #: units: the counter symbol its type is drawn with (one of SYMBOLS; "" = the type)
    size: str = ""
    steps: int = 1  #: steps of the unit (RG: German armor 3, other armor 2)
    step: int = 1  #: which step this counter is (== steps for the full-strength counter)
    unit_id: str = ""  #: the unit's id (== id unless the unit has several step counters)
    provenance: str = ""
    restricted: bool = False  #: printed with a bracketed movement allowance
    # Printing, resolved by the loader so that a counter renders on its own:
    color: str = "#cccccc"  #: background (the nationality colour; faces may override)
    text_color: str = "#000000"
    box_color: str = "#ffffff"  #: unit-symbol frame fill
    value_style: str = "attack-defence-move"  #: one of VALUE_STYLES
    size_mm: float = 12.7  #: nominal counter size
    game: str = ""
    front_art: str = ""  #: the counter's own image of its front (a file path), "" = drawn
    back_art: str = ""

    @property
    def has_art(self) -> bool:
        return bool(self.front_art)

    def art(self, side: str) -> str:
        """The image file of face ``side`` ("" when the face is drawn)."""
        return _of_side(side, self.front_art, self.back_art)

    @property
    def spaced_values(self) -> bool:
        """Values printed as separate numbers (``12 12 24``) rather than joined by dashes (``4-5-15``)."""
        return self.value_style == "hard-soft-move"

    @property
    def reduced_back(self) -> bool:
        """A one-step counter whose back is its reduced side (DG depleted, BG reduced)."""
        return self.steps == 1 and self.back.state in REDUCED_BACKS

    @property
    def unit_steps(self) -> int:
        """Steps of the unit as play counts them: a reduced back makes a one-counter unit of two
        steps (full 2, reduced 1), as the module's Step layer and the referee have it."""
        return 2 if self.reduced_back else self.steps

    @property
    def counter_step(self) -> int:
        """Which step this counter shows at full strength (its front), in :attr:`unit_steps` terms."""
        return 2 if self.reduced_back else self.step

    def face(self, side: str) -> Face:
        return _of_side(side, self.front, self.back)


@dataclass(frozen=True)
class Manifest:
    """All counters of one game, in sheet order."""

    game: str
    title: str
    counter_size_mm: float
    value_style: str  #: one of VALUE_STYLES
    counters: tuple[Counter, ...]
    nationalities: dict[str, Nationality] = field(default_factory=dict)
    provenance: str = "reconstructed"
    sources: tuple[str, ...] = ()
    source_file: str = ""

    def __len__(self) -> int:
        return len(self.counters)

    def __iter__(self) -> Iterator[Counter]:
        return iter(self.counters)

    def __getitem__(self, counter_id: str) -> Counter:
        return self.by_id[counter_id]

    @functools.cached_property
    def by_id(self) -> dict[str, Counter]:
        return {c.id: c for c in self.counters}

    def of_kind(self, kind: str) -> tuple[Counter, ...]:
        return tuple(c for c in self.counters if c.kind == kind)

    @property
    def units(self) -> tuple[Counter, ...]:
        return self.of_kind("unit")

    @property
    def chits(self) -> tuple[Counter, ...]:
        return self.of_kind("chit")

    @property
    def markers(self) -> tuple[Counter, ...]:
        return self.of_kind("marker")

    def marker_ids(self) -> tuple[str, ...]:
        """Ids of every counter that is not a combat unit (chits and markers)."""
        return tuple(c.id for c in self.counters if c.kind != "unit")

    def counts(self) -> dict[str, int]:
        return {k: len(self.of_kind(k)) for k in KINDS}

    def nationality(self, counter: Counter) -> Nationality | None:
        return self.nationalities.get(counter.nationality)
