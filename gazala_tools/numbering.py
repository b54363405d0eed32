"""Hex numbering schemes as data, with VASSAL's HexGridNumbering semantics exactly.

A :class:`Numbering` holds exactly the attributes of VASSAL's ``HexGridNumbering`` element and
names **raw** VASSAL grid indices ``(raw_col, raw_row)``: raw column ``c`` runs along the grid's
``u`` axis (screen x, or screen y when ``sideways``), odd raw columns sit half a hex toward +v.
Pixels are not involved here (see :mod:`gazala_tools.hexgrid`), except that *descending*
numbering needs VASSAL's ``maxRows``/``maxColumns``, which the caller passes in.

Every game's scheme is such a value (its folder's ``game.yaml``), so a game's labels and the
names VASSAL shows for the same hexes are the same by construction.

>>> vassal = SCHEMES["vassal-default"]       # VASSAL's own default: two digits column, two row
>>> vassal.name(3, 4, sideways=False), vassal.parse("0406")
('0406', (3, 4))
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields, replace
from typing import Final

from gazala_tools.errors import HexNameError
from gazala_tools.filecache import BoundedDict

__all__ = [
    "ALPHABET",
    "GRID_MAX_PIXEL",
    "GRID_MIN_CELL",
    "MAX_LABEL",
    "MAX_LEADING",
    "MAX_OFFSET",
    "MAX_PART_DIGITS",
    "MODULE_MAX_OFFSET",
    "SCHEMES",
    "Numbering",
    "java_odd",
    "java_round",
    "java_trunc",
    "module_int",
    "module_real",
    "parse_part",
    "part_name",
    "scheme",
]

ALPHABET: Final = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
#: largest hLeading / vLeading (VASSAL pads a number to leading + 1 digits)
MAX_LEADING: Final = 32
#: largest hOff / vOff magnitude (a Java int)
MAX_OFFSET: Final = 2**31 - 1
#: the numbers a module's grid may give, checked when the module is read (issue 31: ``dx=inf``, ``1e308``,
#: ``x0=99999999999``, ``hOff=2147483647`` ended in internal errors, ``dx=1e-5`` never ended): offsets
#: as far as a map's pixels reach (``mapdata`` ``MAX_PIXEL``), cells from 2 pixels to that size, numbering
#: offsets as far as a game.yaml takes them
GRID_MAX_PIXEL: Final = 1_000_000
GRID_MIN_CELL: Final = 2.0
MODULE_MAX_OFFSET: Final = 100_000


def module_real(element: str, key: str, raw: str, *, lo: float = GRID_MIN_CELL, hi: float = GRID_MAX_PIXEL) -> float:
    """A size from a module's XML (``HexGrid dx``): a finite number within ``lo..hi``, else ``ValueError``
    naming the element and the attribute."""
    try:
        if len(raw) > 40 or "_" in raw:  # Double.valueOf takes no 1_0; no number needs 40 characters
            raise ValueError(raw)
        value = float(raw)
    except ValueError:
        raise ValueError(f"{element} {key}={_shown(raw)} is not a number") from None
    if not (math.isfinite(value) and lo <= value <= hi):
        raise ValueError(f"{element} {key}={_shown(raw)} is out of range (expected {lo:,g}..{hi:,g})")
    return value


def module_int(element: str, key: str, raw: str, *, lo: int = -GRID_MAX_PIXEL, hi: int = GRID_MAX_PIXEL,
               why: str = "") -> int:
    """An integer from a module's XML (``HexGrid x0``) within ``lo..hi``, else ``ValueError`` naming the
    element and the attribute (``why``: what VASSAL does with one that is not an integer)."""
    text = raw.strip()
    if not re.fullmatch(r"[+-]?[0-9]{1,11}", text):
        raise ValueError(f"{element} {key}={_shown(raw)} is not an integer{why}")
    value = int(text)
    if not lo <= value <= hi:
        raise ValueError(f"{element} {key}={_shown(raw)} is out of range (expected {lo:,}..{hi:,})")
    return value


def _shown(raw: str) -> str:
    return repr(raw if len(raw) <= 40 else raw[:37] + "...")
#: most digits of a numeric part of a hex label
MAX_PART_DIGITS: Final = 18
#: longest location name parsed
MAX_LABEL: Final = 200
_ALPHA_MATCH: Final = "-?(?:" + "|".join(f"{c}+" for c in ALPHABET) + ")"


def java_round(x: float) -> int:
    """Java ``Math.round``: floor(x + 0.5) (halves go up, also for negatives)."""
    return math.floor(x + 0.5)


def java_trunc(x: float) -> int:
    """Java ``(int)`` cast: truncation toward zero."""
    return int(x)


def java_odd(n: int) -> bool:
    """Java ``n % 2 != 0`` (true for negative odd numbers too)."""
    return n % 2 != 0


def part_name(value: int, type_: str, leading: int) -> str:
    """VASSAL ``RegularGridNumbering.getName(value, type, leading)``."""
    out = "-" if value < 0 else ""
    value = abs(value)
    if type_ == "A":
        while True:
            out += ALPHABET[value % 26]
            value -= 26
            if value < 0:
                return out
    while leading > 0 and value < 10**leading:
        out += "0"
        leading -= 1
    return out + str(value)


def parse_part(text: str, type_: str) -> int:
    """VASSAL ``RegularGridNumbering.parseName``."""
    if type_ == "A":
        negative = text.startswith("-")
        body = text[1:] if negative else text
        value = 26 * (len(body) - 1) + ALPHABET.index(body[-1])
        return -value if negative else value
    if len(text) > MAX_PART_DIGITS:  # no hex of a map has such a number (and int() would refuse it)
        raise ValueError(f"{text[:20]}... has more than {MAX_PART_DIGITS} digits")
    return int(text)


def _part_pattern(type_: str, leading: int) -> str:
    return _ALPHA_MATCH if type_ == "A" else f"-?[0-9]{{{leading + 1},}}"


@dataclass(frozen=True, slots=True)
class Numbering:
    """VASSAL ``HexGridNumbering`` attributes (names in snake_case; defaults are VASSAL's)."""

    first: str = "H"
    sep: str = ""
    h_type: str = "N"
    v_type: str = "N"
    h_leading: int = 1
    v_leading: int = 1
    h_off: int = 1
    v_off: int = 1
    h_descend: bool = False
    v_descend: bool = False
    stagger: bool = True
    location_format: str = "$gridLocation$"

    def __post_init__(self) -> None:
        if self.first not in ("H", "V"):
            raise ValueError(f"numbering 'first' must be H or V, got {self.first!r}")
        for name in ("h_type", "v_type"):
            if getattr(self, name) not in ("N", "A"):
                raise ValueError(f"numbering {name!r} must be N or A, got {getattr(self, name)!r}")
        for name in ("h_leading", "v_leading", "h_off", "v_off"):
            if type(getattr(self, name)) is not int:
                raise ValueError(f"numbering {name!r} must be an integer, got {getattr(self, name)!r}")
        for name in ("h_leading", "v_leading"):  # VASSAL pads with a loop over 10**leading: keep it small
            if not 0 <= getattr(self, name) <= MAX_LEADING:
                raise ValueError(f"numbering {name!r} must be 0..{MAX_LEADING}, got {getattr(self, name)!r}")
        for name in ("h_off", "v_off"):
            if not -MAX_OFFSET <= getattr(self, name) <= MAX_OFFSET:
                raise ValueError(f"numbering {name!r} must be within +-{MAX_OFFSET}, got {getattr(self, name)!r}")

    # --- raw index -> (column, row) numbers ---------------------------------------------------
    def column_row(
        self, raw_col: int, raw_row: int, *, sideways: bool = False, max_rows: int = 0, max_columns: int = 0
    ) -> tuple[int, int]:
        """The column and row numbers (before ``h_off``/``v_off``) VASSAL gives a raw index.

        Mirrors ``HexGridNumbering.getColumn``/``getRow``: descending first, then stagger.
        """
        column = raw_col
        if self.v_descend and sideways:
            column = max_rows - raw_col
        if self.h_descend and not sideways:
            column = max_columns - raw_col
        row = raw_row
        if self.v_descend and not sideways:
            row = max_rows - raw_row
        if self.h_descend and sideways:
            row = max_columns - raw_row
        if self.stagger and java_odd(raw_col):
            row += -1 if self._row_descending(sideways) else 1
        return column, row

    def _row_descending(self, sideways: bool) -> bool:
        return self.h_descend if sideways else self.v_descend

    def raw_index(
        self, column: int, row: int, *, sideways: bool = False, max_rows: int = 0, max_columns: int = 0
    ) -> tuple[int, int]:
        """The exact inverse of :meth:`column_row`: ``raw_index(*column_row(c, r)) == (c, r)``."""
        raw_col = column
        if self.v_descend and sideways:
            raw_col = max_rows - column
        if self.h_descend and not sideways:
            raw_col = max_columns - column
        if self.stagger and java_odd(raw_col):
            row -= -1 if self._row_descending(sideways) else 1
        raw_row = row
        if self.v_descend and not sideways:
            raw_row = max_rows - row
        if self.h_descend and sideways:
            raw_row = max_columns - row
        return raw_col, raw_row

    def vassal_center_index(
        self, column: int, row: int, *, sideways: bool = False, max_rows: int = 0, max_columns: int = 0
    ) -> tuple[int, int]:
        """The raw index VASSAL's ``HexGridNumbering.getCenterPoint(col, row)`` uses.

        VASSAL applies the stagger by the parity of the *numbered* column before undoing
        descending order; with descending columns and an odd maximum this differs from the true
        inverse :meth:`raw_index`. Use this to reproduce SetupStack/SendToLocation placement.
        """
        col, r = column, row
        if self.stagger and java_odd(col):
            r += 1 if self._row_descending(sideways) else -1
        if sideways:
            if self.v_descend:
                col = max_rows - col
            if self.h_descend:
                r = max_columns - r
        else:
            if self.h_descend:
                col = max_columns - col
            if self.v_descend:
                r = max_rows - r
        return col, r

    # --- names ---------------------------------------------------------------------------------
    def grid_location(self, column: int, row: int) -> str:
        """``getName(row, column)``: the ``$gridLocation$`` text for column/row numbers."""
        row_name = part_name(row + self.v_off, self.v_type, self.v_leading)
        col_name = part_name(column + self.h_off, self.h_type, self.h_leading)
        return col_name + self.sep + row_name if self.first == "H" else row_name + self.sep + col_name

    def format_name(self, column: int, row: int) -> str:
        """The full location name (``locationFormat`` with its three variables)."""
        text = self.location_format
        text = text.replace("$gridLocation$", self.grid_location(column, row))
        text = text.replace("$row$", part_name(row + self.v_off, self.v_type, self.v_leading))
        return text.replace("$column$", part_name(column + self.h_off, self.h_type, self.h_leading))

    def name(
        self, raw_col: int, raw_row: int, *, sideways: bool = False, max_rows: int = 0, max_columns: int = 0
    ) -> str:
        """The location name VASSAL gives the hex with raw index ``(raw_col, raw_row)``."""
        column, row = self.column_row(
            raw_col, raw_row, sideways=sideways, max_rows=max_rows, max_columns=max_columns
        )
        return self.format_name(column, row)

    def parse_numbers(self, name: str) -> tuple[int, int]:
        """``(column, row)`` numbers (offsets removed) from a name, VASSAL's regex rules.

        Raises :class:`HexNameError` when the name does not match the format.
        """
        pattern, col_group, row_group = self._regex()
        m = pattern.fullmatch(name) if len(name) <= MAX_LABEL else None
        # a number part of more digits than any map's (a letter part grows by a letter every 26
        # columns, VASSAL's "AA" = 26: bounded by MAX_LABEL alone)
        if m is None or any(len(m.group(g)) > MAX_PART_DIGITS + 1
                            for g, kind in ((col_group, self.h_type), (row_group, self.v_type)) if kind != "A"):
            if len(name) > 40:
                name = name[:37] + "..."
            raise HexNameError(
                f"{name!r} is not a location name of this numbering",
                expected=f"a name like {self.format_name(0, 0)!r}",
            )
        col = parse_part(m.group(col_group), self.h_type) - self.h_off
        row = parse_part(m.group(row_group), self.v_type) - self.v_off
        return col, row

    def parse(
        self, name: str, *, sideways: bool = False, max_rows: int = 0, max_columns: int = 0
    ) -> tuple[int, int]:
        """The raw index named by ``name`` (inverse of :meth:`name`)."""
        column, row = self.parse_numbers(name)
        return self.raw_index(column, row, sideways=sideways, max_rows=max_rows, max_columns=max_columns)

    def _regex(self) -> tuple[re.Pattern[str], int, int]:
        return _compiled_regex(self)

    # --- VASSAL attributes ---------------------------------------------------------------------
    def vassal_attrs(self) -> dict[str, str]:
        """The XML attributes of a ``HexGridNumbering`` element (drawing attributes excluded)."""
        out: dict[str, str] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            key = _ATTR_NAMES[f.name]
            out[key] = ("true" if value else "false") if isinstance(value, bool) else str(value)
        return out

    @classmethod
    def from_vassal_attrs(cls, attrs: Mapping[str, str], element: str = "HexGridNumbering") -> Numbering:
        """Read the attributes as VASSAL does (missing ones take VASSAL's defaults); a number out of range is
        a ``ValueError`` naming ``element`` and the attribute."""
        kw: dict[str, object] = {}
        for f in fields(cls):
            key = _ATTR_NAMES[f.name]
            if key not in attrs:
                continue
            raw = attrs[key]
            default = getattr(cls(), f.name)
            if isinstance(default, bool):
                kw[f.name] = raw.strip().lower() == "true"
            elif isinstance(default, int):  # a Java int; the range a game.yaml takes (never 4,300 digits)
                lo, hi = (0, MAX_LEADING) if key.endswith("Leading") else (-MODULE_MAX_OFFSET, MODULE_MAX_OFFSET)
                kw[f.name] = module_int(element, key, raw, lo=lo, hi=hi)
            elif f.name in ("first", "h_type", "v_type"):
                kw[f.name] = raw[:1] if raw else default
            else:
                kw[f.name] = raw
        return cls(**kw)  # type: ignore[arg-type]

    def describe(self) -> str:
        """The attributes that differ from VASSAL's defaults (``"hType=A hOff=0"``), or ``"VASSAL default"``."""
        base = Numbering().vassal_attrs()
        diff = [f"{k}={v}" for k, v in self.vassal_attrs().items() if base[k] != v]
        return " ".join(diff) or "VASSAL default"

    def as_dict(self) -> dict[str, object]:
        return asdict(self)

    def with_(self, **changes: object) -> Numbering:
        return replace(self, **changes)  # type: ignore[arg-type]


_ATTR_NAMES: Final = {
    "first": "first",
    "sep": "sep",
    "h_type": "hType",
    "v_type": "vType",
    "h_leading": "hLeading",
    "v_leading": "vLeading",
    "h_off": "hOff",
    "v_off": "vOff",
    "h_descend": "hDescend",
    "v_descend": "vDescend",
    "stagger": "stagger",
    "location_format": "locationFormat",
}

_REGEX_CACHE: BoundedDict[Numbering, tuple[re.Pattern[str], int, int]] = BoundedDict(maxsize=64)


def _compiled_regex(n: Numbering) -> tuple[re.Pattern[str], int, int]:
    cached = _REGEX_CACHE.get(n)
    if cached is not None:
        return cached
    tokens = n.location_format.split("$")
    regex: list[str] = []
    col_group = row_group = groups = 0
    is_property = True
    for i, token in enumerate(tokens):
        is_property = not is_property
        last = i == len(tokens) - 1
        if not token:
            continue
        if not is_property or last:
            regex.append(re.escape(token))
        elif token == "gridLocation":
            h = "(" + _part_pattern(n.h_type, n.h_leading) + ")"
            v = "(" + _part_pattern(n.v_type, n.v_leading) + ")"
            if n.first == "H":
                regex.append(h + re.escape(n.sep) + v)
                col_group, row_group = groups + 1, groups + 2
            else:
                regex.append(v + re.escape(n.sep) + h)
                row_group, col_group = groups + 1, groups + 2
            groups += 2
        elif token == "row":
            regex.append("(" + _part_pattern(n.v_type, n.v_leading) + ")")
            groups += 1
            row_group = groups
        elif token == "column":
            regex.append("(" + _part_pattern(n.h_type, n.h_leading) + ")")
            groups += 1
            col_group = groups
    if not col_group or not row_group:
        raise ValueError(f"locationFormat {n.location_format!r} names no column and row")
    result = (re.compile("".join(regex)), col_group, row_group)
    return _REGEX_CACHE.put(n, result)


#: Named schemes: only VASSAL's default. A game's numbering is in its folder's ``game.yaml``
#: (``gazala_tools.games.registry.find_game(id).numbering``), never named here.
SCHEMES: Final[dict[str, Numbering]] = {
    # VASSAL's defaults: 4-digit CCRR; column 01 is raw column 0; under stagger the even raw
    # columns (odd label columns) sit half a hex lower than their neighbours of the same number.
    "vassal-default": Numbering(),
}


def scheme(name: str) -> Numbering:
    try:
        return SCHEMES[name]
    except KeyError:
        raise ValueError(f"unknown numbering scheme {name!r} (expected one of {', '.join(SCHEMES)})") from None
