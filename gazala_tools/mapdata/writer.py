"""Write map-data YAML: :func:`map_to_data` (the plain-data form :mod:`.loader` reads back equal) and
:func:`dump_map` (its YAML text). Hex lists are written with same-column runs (``"0106..0122"``:
:func:`compress`), escarpment sides as ``"LOW>HIGH"``. Pure Python."""

from __future__ import annotations

from typing import Any

import yaml

from gazala_tools.grid import GameGrid
from gazala_tools.hexes import Hex
from gazala_tools.mapdata.loader import GAME_NUMBERING
from gazala_tools.mapdata.model import GameMap, HexsideFeature

__all__ = ["compress", "dump_map", "map_to_data"]


def compress(grid: GameGrid, hexes: set[Hex] | frozenset[Hex]) -> list[str]:
    """Sorted labels with runs down a column written as ``"0106..0122"``."""
    by_col: dict[int, list[int]] = {}
    for h in hexes:
        c, r = grid.numbers(h)
        by_col.setdefault(c, []).append(r)
    out: list[str] = []
    label_of = {grid.numbers(h): grid.label(h) for h in hexes}
    for c in sorted(by_col):
        rows = sorted(by_col[c])
        runs: list[list[int]] = []
        for r in rows:
            if runs and r == runs[-1][-1] + 1:
                runs[-1].append(r)
            else:
                runs.append([r])
        for run in runs:
            if len(run) >= 3:
                out.append(f"{label_of[(c, run[0])]}..{label_of[(c, run[-1])]}")
            else:
                out.extend(label_of[(c, x)] for x in run)
    return out


def dump_map(m: GameMap) -> str:
    """YAML text of a map (flattened: ``extends`` is resolved)."""
    return yaml.safe_dump(map_to_data(m), sort_keys=False, allow_unicode=True, width=110)


def map_to_data(m: GameMap) -> dict[str, Any]:
    """The plain-data (YAML) form of a map: ``dump_map`` writes it, ``load_map`` reads it back equal."""
    in_game = m.numbering_name == GAME_NUMBERING
    data: dict[str, Any] = {} if in_game else {"game": m.game}
    data |= {
        "title": m.title,
        "provenance": m.provenance,
        "notes": list(m.notes),
        **_top_style_out(m),
        "grid": _grid_data(m, in_game),
        "terrain": _terrain_data(m),
    }
    data |= _kinds_data(m)
    data["boxes"] = _boxes_data(m)
    data["hexsides"] = _hexsides_data(m)
    lab = m.grid.label
    data["paths"] = [
        {"name": pth.name, "kind": pth.kind.value, "source": pth.source, "hexes": [lab(h) for h in pth.hexes]}
        for pth in m.paths
    ]
    data["places"] = _places_data(m)
    data["zones"] = _zones_data(m)
    return data


def _style_out(m: GameMap, section: str, kind: str) -> dict[str, Any]:
    """``{"style": {...}}`` of a kind as the data gave it (owners as a mapping), or nothing."""
    got = m.styles.get(section, {}).get(kind)
    if not got:
        return {}
    out: dict[str, Any] = {}
    for key, value in got.items():
        head, _, side = key.partition(".")
        if side:
            out.setdefault(head, {})[side] = value
        else:
            out[key] = int(value) if key == "layer" else float(value) if key in ("width", "size") else value
    return {"style": out}


def _top_style_out(m: GameMap) -> dict[str, Any]:
    style: dict[str, Any] = {"owner-colours": True} if m.owner_colours else {}
    markers = {k: _style_out(m, "marker", k)["style"] for k in m.styles.get("marker", {})}
    if markers:
        style["markers"] = markers
    return {"style": style} if style else {}


def _grid_data(m: GameMap, in_game: bool) -> dict[str, Any]:
    g = m.grid
    grid_data: dict[str, Any] = {
        **({"orientation": g.orientation.value} if g.kind == "hex" else
           {"kind": g.kind, "moves": getattr(g, "moves", "orthogonal")}),
        "columns": list(g.columns),
        "rows": list(g.rows),
        "north": g.north,
    }
    if not in_game:  # a stand-alone map states its numbering; a game folder's map leaves it to game.yaml
        grid_data["numbering"] = m.numbering_name if m.numbering_name != "custom" else g.numbering.vassal_attrs()
    if g.max_rows:
        grid_data["max_rows"] = g.max_rows
    if g.max_columns:
        grid_data["max_columns"] = g.max_columns
    p = m.pixels
    grid_data["pixels"] = {
        "dx": p.dx,
        "dy": p.dy,
        "x0": p.x0,
        "y0": p.y0,
        "board_width": p.board_width,
        "board_height": p.board_height,
        "edge_width": p.edge_width,
        "edge_height": p.edge_height,
        "dpi": p.dpi,
    }
    return grid_data


def _terrain_data(m: GameMap) -> dict[str, Any]:
    groups: dict[tuple[str, str], set[Hex]] = {}
    for h, t in m.terrain_overrides.items():
        groups.setdefault((t, m.terrain_sources.get(h, "geography")), set()).add(h)
    return {
        "default": m.terrain_default,
        "types": {
            t.name: ({"description": t.description} | ({"impassable": True} if t.impassable else {})
                     | _style_out(m, "terrain", t.name))
            for t in m.terrain_types.values()
        },
        "hexes": [
            {"terrain": t, "source": s, "hexes": compress(m.grid, hs)} for (t, s), hs in sorted(groups.items())
        ],
    }


def _kinds_data(m: GameMap) -> dict[str, Any]:
    """``path-kinds`` and ``hexside-kinds``, each when the map declares any."""
    data: dict[str, Any] = {}
    if m.path_kinds:
        data["path-kinds"] = {k: ({"description": t.description} if t.description else {}) | _style_out(m, "path", k)
                              for k, t in m.path_kinds.items()}
    if m.hexside_kinds:
        data["hexside-kinds"] = {
            k: ({"description": t.description} if t.description else {})
            | {flag: True for flag in ("directed", "owned", "impassable") if getattr(t, flag)}
            | _style_out(m, "hexside", k)
            for k, t in m.hexside_kinds.items()
        }
    return data


def _boxes_data(m: GameMap) -> list[dict[str, Any]]:
    boxes = []
    for b in m.boxes:
        e: dict[str, Any] = {"name": b.name, "kind": b.kind.value}
        if b.owner:
            e["owner"] = b.owner
        if b.active_from:
            e["active_from"] = b.active_from
        e["source"] = b.source
        e["hexes"] = [m.grid.label(h) for h in b.order]
        boxes.append(e)
    return boxes


def _hexsides_data(m: GameMap) -> list[dict[str, Any]]:
    g = m.grid

    def side_text(f: HexsideFeature) -> str:
        if f.up is not None:
            return f"{g.label(f.side.other(f.up))}>{g.label(f.up)}"
        return g.hexside_label(f.side)

    feats: dict[str, list[HexsideFeature]] = {}
    for f in m.explicit_features:
        feats.setdefault(f.group or f.kind.value, []).append(f)
    hexsides = []
    for name, fs in feats.items():
        f0 = fs[0]
        e: dict[str, Any] = {"name": name, "kind": f0.kind.value}
        if f0.owner:
            e["owner"] = f0.owner
        if f0.active_from:
            e["active_from"] = f0.active_from
        e["source"] = f0.source
        e["sides"] = [side_text(f) for f in fs]
        hexsides.append(e)
    return hexsides


def _places_data(m: GameMap) -> list[dict[str, Any]]:
    places = []
    for pl in m.places:
        e: dict[str, Any] = {"name": pl.name, "kind": pl.kind, "source": pl.source,
                             "hexes": [m.grid.label(h) for h in pl.hexes]}
        if pl.note:
            e["note"] = pl.note
        places.append(e)
    return places


def _zones_data(m: GameMap) -> list[dict[str, Any]]:
    zones = []
    for z in m.zones:
        e: dict[str, Any] = {"name": z.name, "kind": z.kind}
        if z.owner:
            e["owner"] = z.owner
        e["source"] = z.source
        if z.description:
            e["description"] = z.description
        if z.hexes:
            e["hexes"] = compress(m.grid, z.hexes)
        if z.sides:
            e["sides"] = sorted(m.grid.hexside_label(s) for s in z.sides)
        zones.append(e)
    return zones
