"""Classification results as map-data YAML sections (``terrain``, ``hexsides``), see docs/mapdata.md."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from gazala_tools.digitize.classify import HexResult, Legend, SideResult
from gazala_tools.hexes import Hex
from gazala_tools.mapdata.gridfile import GridSpec
from gazala_tools.mapdata.writer import compress

__all__ = ["hexside_kinds_data", "hexsides_data", "map_document", "terrain_data"]


def terrain_data(
    spec: GridSpec, results: Sequence[HexResult], legend: Legend, *, source: str
) -> tuple[dict[str, Any], list[str]]:
    """The ``terrain`` section (default = the legend's default or the most common terrain) and
    comment lines listing the uncertain hexes."""
    label = spec.grid.label
    counts = Counter(r.terrain for r in results)
    default = legend.default or (counts.most_common(1)[0][0] if counts else legend.names()[0])
    groups: dict[str, set[Hex]] = {}
    for r in results:
        if r.terrain != default:
            groups.setdefault(r.terrain, set()).add(r.hex)
    data = {
        "default": default,
        "types": {name: {"description": f"legend colour {_hex(legend.terrain[name][0])}"} for name in legend.names()},
        "hexes": [
            {"terrain": t, "source": source, "hexes": compress(spec.grid, frozenset(hs))} for t, hs in sorted(groups.items())
        ],
    }
    unsure = [r for r in results if r.uncertain]
    comments = [f"{source}: {len(results)} hexes, {len(unsure)} uncertain"]
    for r in unsure:
        comments.append(f"uncertain {label(r.hex)}: {r.terrain}? (votes {r.share:.0%}, colour distance {r.distance:.0f})")
    return data, comments


def hexsides_data(spec: GridSpec, sides: Sequence[SideResult], *, source: str) -> list[dict[str, Any]]:
    """``hexsides`` entries, one per kind; a directed kind's sides (an escarpment's) as ``LOW>HIGH``."""
    g = spec.grid
    by_kind: dict[str, list[SideResult]] = {}
    for s in sides:
        by_kind.setdefault(s.kind, []).append(s)
    out: list[dict[str, Any]] = []
    for kind, items in sorted(by_kind.items()):
        entry: dict[str, Any] = {"name": f"digitized {kind}", "kind": kind, "source": source}
        if items[0].owner:  # the legend's owner of this kind (a side id)
            entry["owner"] = items[0].owner
        texts = []
        for s in sorted(items, key=lambda s: s.side):
            if s.up is not None:  # a directed kind (the legend's): LOW>HIGH
                texts.append(f"{g.label(s.side.other(s.up))}>{g.label(s.up)}")
            else:
                texts.append(g.hexside_label(s.side))
        entry["sides"] = texts
        out.append(entry)
    return out


def hexside_kinds_data(sides: Sequence[SideResult]) -> dict[str, dict[str, bool]]:
    """The ``hexside-kinds`` a map must declare for the classified hexsides: ``directed`` where
    sides have an up side, ``owned`` where the legend gives an owner."""
    out: dict[str, dict[str, bool]] = {}
    for s in sides:
        k = out.setdefault(s.kind, {})
        if s.up is not None:
            k["directed"] = True
        if s.owner:
            k["owned"] = True
    return dict(sorted(out.items()))


def map_document(spec: GridSpec, sections: dict[str, Any], *, title: str) -> dict[str, Any]:
    """A complete map YAML document (loadable by ``load_map``) from a grid and classified sections."""
    return {
        "game": "digitized",
        "title": title,
        "provenance": "digitized",
        "grid": spec.to_data(),
        **sections,
    }


def _hex(c: tuple[int, int, int]) -> str:
    return "#{:02x}{:02x}{:02x}".format(*c)
