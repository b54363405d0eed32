"""Writing a game folder's YAML: what ``game new`` (digitize) and ``game import`` (vassal) both write,
below both of them (issue 22 item 3: the importer no longer imports the digitizer)."""

from __future__ import annotations

import re
from typing import Any, Final

import yaml

from gazala_tools.numbering import Numbering

__all__ = [
    "MAX_NAME",
    "MAX_SLUG",
    "SIDE_COLORS",
    "dump_yaml",
    "numbering_data",
    "short_name",
    "slug",
    "unique_ids",
]

#: the colours of a new game's two sides (game.yaml ``sides``), first and second
SIDE_COLORS: Final = ("#c03030", "#3050c0")


#: longest id a writer makes from a name (a side, a game)
MAX_SLUG: Final = 40
#: longest name a writer copies from its source into game.yaml (a side's, the game's): longer ones are cut
MAX_NAME: Final = 200


def slug(text: str) -> str:
    """A game id from a folder or game name: lower case, digits and single hyphens."""
    s = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    return s or "my-game"


def short_name(text: str, limit: int = MAX_NAME) -> str:
    """A name as a game file holds it: one line of printable characters (controls become spaces), at most
    ``limit`` characters (a longer one is cut, ending in ``...``)."""
    line = " ".join("".join(c if c.isprintable() else " " for c in text).split())
    return line if len(line) <= limit else line[: limit - 3].rstrip() + "..."


def unique_ids(names: list[str], *, fallback: str = "side") -> dict[str, str]:
    """An id for each distinct name (:func:`slug`, at most :data:`MAX_SLUG` characters), distinct even when
    names differ only in case or punctuation (``Axis`` and ``AXIS``: ``axis``, ``axis-2``)."""
    out: dict[str, str] = {}
    used: set[str] = set()
    for name in names:
        if name in out:
            continue
        base = slug(name)[:MAX_SLUG].strip("-") if re.search("[A-Za-z0-9]", name) else fallback
        pid, n = base, 2
        while pid in used:
            pid = f"{base}-{n}"
            n += 1
        used.add(pid)
        out[name] = pid
    return out


def numbering_data(numbering: Numbering) -> dict[str, Any]:
    """The attributes that differ from VASSAL's defaults, typed as game.yaml writes them."""
    base = Numbering().vassal_attrs()
    out: dict[str, Any] = {}
    for k, v in numbering.vassal_attrs().items():
        if base[k] == v:
            continue
        out[k] = v == "true" if v in ("true", "false") else int(v) if k in ("hLeading", "vLeading", "hOff", "vOff") else v
    return out


def dump_yaml(data: Any) -> str:
    """A game file's YAML as our writers lay it out (keys in order, short lists inline)."""
    return yaml.safe_dump(data, sort_keys=False, default_flow_style=None, width=110, allow_unicode=True)
