"""The names of the counter manifest format (``counters.yaml``, ``docs/counters.md``): the keys each
mapping allows, the values some keys take, the bounds, the error type and counter sizes."""

from __future__ import annotations

import math
import re
from fractions import Fraction
from pathlib import Path
from typing import Final

from gazala_tools.errors import GazalaError

__all__ = [
    "ART_KEYS",
    "ART_SUFFIXES",
    "FACE_ART_KEYS",
    "FACE_KEYS",
    "INK_KEYS",
    "MAX_COUNTERS",
    "NATIONALITY_KEYS",
    "TOKEN_KEYS",
    "TOP_KEYS",
    "UNIT_BACKS",
    "UNIT_KEYS",
    "VASSAL_KEYS",
    "ManifestError",
    "parse_size",
]

UNIT_BACKS: Final = ("used", "reduced-half-up", "depleted", "blank", "same")
TOP_KEYS: Final = frozenset(
    {
        "game", "title", "provenance", "sources", "notes", "counter_size", "value_style", "unit_back",
        "artillery_roles", "value_inks", "art", "total", "nationalities", "units", "chits", "markers",
    }
)  # fmt: skip
UNIT_KEYS: Final = frozenset(
    {
        "id", "nationality", "formation", "designation", "type", "size", "steps", "values", "back",
        "provenance", "restricted", "one_sided", "roles", "art",
    }
)  # fmt: skip
TOKEN_KEYS: Final = frozenset(
    {"id", "side", "nationality", "type", "count", "front", "back", "provenance", "art", "vassal"}
)
NATIONALITY_KEYS: Final = frozenset({"name", "side", "color", "text_color", "box_color"})
#: ``vassal:`` of a marker or chit: what an imported module's piece keeps for its rebuild (docs/module.md)
VASSAL_KEYS: Final = frozenset({"slot"})
FACE_KEYS: Final = frozenset({"title", "subtitle", "icon", "color", "text_color"})
INK_KEYS: Final = frozenset({"role", "types", "ink"})
ART_KEYS: Final = frozenset({"folder", "required"})
FACE_ART_KEYS: Final = frozenset({"front", "back"})
#: image files a counter's art may be (what VASSAL and the PDF sheet both take)
ART_SUFFIXES: Final = (".png", ".jpg", ".jpeg", ".gif", ".svg")
#: most counters one manifest makes, steps and counts included (``game import`` reads modules of up to
#: 20,000 piece definitions; a ``count: 1000000000`` is refused before anything is built)
MAX_COUNTERS: Final = 50_000


class ManifestError(GazalaError):
    """A counter manifest that does not follow the format."""


def parse_size(text: str | float | int, *, file: str | Path = "", place: str = "") -> float:
    """A counter size in millimetres from ``"5/8 in"``, ``"0.5in"``, ``"12.7 mm"`` or a number of mm."""
    if isinstance(text, int | float) and not isinstance(text, bool):
        if not math.isfinite(text):
            raise ManifestError(f"size {text!r} is not a length", file=file or None, place=place or None,
                                expected="a finite number of mm")
        if text <= 0:
            raise ManifestError(f"size {text!r} is not positive", file=file or None, place=place or None)
        return float(text)
    m = re.fullmatch(r"\s*([0-9]+(?:\.[0-9]+)?(?:/[0-9]+)?)\s*(in|mm)\s*", str(text))
    try:
        number = float(Fraction(m.group(1))) if m else math.nan
    except (ZeroDivisionError, OverflowError, ValueError):  # "1/0 in", a 400-digit number
        number = math.nan
    if m is None or not math.isfinite(number):
        raise ManifestError(
            f"size {text!r} is not a length", file=file or None, place=place or None,
            expected="e.g. '5/8 in', '0.5 in' or '12.7 mm'",
        )  # fmt: skip
    if number <= 0:
        raise ManifestError(f"size {text!r} is not positive", file=file or None, place=place or None)
    return number * 25.4 if m.group(2) == "in" else number
