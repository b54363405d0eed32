"""Writing a game folder's YAML: what ``game new`` (digitize) and ``game import`` (vassal) both write,
below both of them (issue 22 item 3: the importer no longer imports the digitizer)."""

from __future__ import annotations

import re
from typing import Any, Final

import yaml

from gazala_tools.numbering import Numbering

__all__ = ["SIDE_COLORS", "dump_yaml", "numbering_data", "slug"]

#: the colours of a new game's two sides (game.yaml ``sides``), first and second
SIDE_COLORS: Final = ("#c03030", "#3050c0")


def slug(text: str) -> str:
    """A game id from a folder or game name: lower case, digits and single hyphens."""
    s = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    return s or "my-game"


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
