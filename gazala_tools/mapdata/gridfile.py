"""The grid section of a map YAML (``grid:`` with ``pixels:``), as the digitizer writes and reads it.

Same keys as ``mapdata/<game>/map.yaml`` (see docs/mapdata.md): ``orientation``, ``numbering`` (a
scheme name or VASSAL ``HexGridNumbering`` attributes), ``columns``/``rows`` (label numbers,
inclusive), ``north`` and ``pixels`` (``dx dy x0 y0 board_width board_height dpi``). A file may hold
the section under a top-level ``grid:`` key (a whole map YAML) or be the section itself.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from gazala_tools.errors import GazalaError
from gazala_tools.grid import GameGrid, raw_to_hex
from gazala_tools.hexes import Hex, Orientation
from gazala_tools.hexgrid import HexGridGeometry
from gazala_tools.mapdata.loader import MAX_PIXEL
from gazala_tools.numbering import Numbering
from gazala_tools.yamlnodes import load_plain

__all__ = [
    "DEFAULT_NUMBERING",
    "GridSpec",
    "hexes_on_image",
    "numbering_from",
    "raw_hex",
    "read_grid_file",
    "spec_for",
    "write_yaml",
]


@dataclass(frozen=True)
class GridSpec:
    """A game grid (which hexes, their labels) on a pixel grid (where they are on the image)."""

    grid: GameGrid
    geometry: HexGridGeometry
    numbering_name: str
    board: tuple[int, int]
    dpi: int = 100

    def to_data(self) -> dict[str, Any]:
        g, geo = self.grid, self.geometry
        numbering: Any = g.numbering.vassal_attrs()
        if self.numbering_name != "custom":
            try:
                if numbering_from(self.numbering_name)[0] == g.numbering:
                    numbering = self.numbering_name
            except GazalaError:
                pass
        data: dict[str, Any] = {
            "orientation": g.orientation.value,
            "numbering": numbering,
            "columns": list(g.columns),
            "rows": list(g.rows),
            "north": g.north,
            "pixels": {
                "dx": round(geo.dx, 4),
                "dy": round(geo.dy, 4),
                "x0": geo.x0,
                "y0": geo.y0,
                "board_width": self.board[0],
                "board_height": self.board[1],
                "dpi": self.dpi,
            },
        }
        return data

    def vassal(self) -> dict[str, dict[str, str]]:
        """The attributes of VASSAL's ``HexGrid`` and ``HexGridNumbering`` elements."""
        return {"HexGrid": self.geometry.vassal_attrs(), "HexGridNumbering": self.grid.numbering.vassal_attrs()}


def spec_for(
    geometry: HexGridGeometry, numbering: Numbering, numbering_name: str, board: tuple[int, int], *, dpi: int = 100
) -> GridSpec:
    """The grid of every hex whose centre lies on the image at least 0.3 hex inside the edges.

    Columns span every such label column; rows are the most common first and last rows of the
    columns (edit the file if the printed map has ragged edges).
    """
    w, h = board
    margin = 0.3 * min(geometry.dx, geometry.dy)
    sideways = geometry.sideways
    kw = {"sideways": sideways, "max_rows": geometry.max_rows(h), "max_columns": geometry.max_columns(w)}
    # raw index range covering the image
    cu = int((h if sideways else w) / geometry.dx) + 3
    cv = int((w if sideways else h) / geometry.dy) + 3
    u0 = geometry.x0 / geometry.dx  # VASSAL: x0 is along u (the screen's y when sideways)
    v0 = geometry.y0 / geometry.dy
    cols: dict[int, list[int]] = {}
    for c in range(-int(u0) - 2, cu - int(u0) + 2):
        for r in range(-int(v0) - 2, cv - int(v0) + 2):
            x, y = geometry.raw_center(c, r)
            if margin <= x <= w - 1 - margin and margin <= y <= h - 1 - margin:
                column, row = numbering.column_row(c, r, **kw)  # type: ignore[arg-type]
                cols.setdefault(column + numbering.h_off, []).append(row + numbering.v_off)
    if not cols:
        raise GazalaError("no hex centre lies on the image", expected="a grid that covers the image")
    firsts = Counter(min(v) for v in cols.values())
    lasts = Counter(max(v) for v in cols.values())
    rows = (firsts.most_common(1)[0][0], lasts.most_common(1)[0][0])
    grid = GameGrid(
        geometry.orientation,
        numbering,
        columns=(min(cols), max(cols)),
        rows=rows,
        max_rows=int(kw["max_rows"]) if (numbering.v_descend or numbering.h_descend) else 0,
        max_columns=int(kw["max_columns"]) if (numbering.v_descend or numbering.h_descend) else 0,
    )
    geo = HexGridGeometry(
        dx=geometry.dx, dy=geometry.dy, x0=geometry.x0, y0=geometry.y0, sideways=sideways, numbering=numbering
    )
    return GridSpec(grid, geo, numbering_name, board, dpi)


DEFAULT_NUMBERING = "vassal-default"


def numbering_from(
    value: Any, *, file: str | Path = "", place: str = "grid.numbering", allow_path: bool = False
) -> tuple[Numbering, str]:
    """A numbering and its name, as a map YAML's ``grid.numbering`` gives it.

    ``vassal-default``; a built-in game id (that game's numbering, from its ``game.yaml``);
    ``allow_path``: a game folder (a name of a file to open, so never from inside a data file);
    VASSAL ``HexGridNumbering`` attributes, as a mapping or as text ``"hType=A hOff=0"`` (spaces
    or commas between). The name is ``"custom"`` for attributes and folders of no built-in game.
    """
    from gazala_tools.games.registry import find_game, is_builtin

    if isinstance(value, str) and "=" in value:
        pairs = [p for p in value.replace(",", " ").split() if p]
        try:
            value = dict(p.split("=", 1) for p in pairs)
        except ValueError:
            raise GazalaError(f"bad numbering attributes {value!r}", file=file, place=place,
                              expected="KEY=VALUE pairs, e.g. 'hType=A hOff=0'") from None
    if isinstance(value, str):
        if value == DEFAULT_NUMBERING:
            return Numbering(), value
        try:
            game = find_game(value, allow_path=allow_path)
        except GazalaError as exc:
            raise GazalaError(f"unknown numbering {value!r} ({exc.problem})", file=file, place=place,
                              expected=f"{DEFAULT_NUMBERING!r}, a built-in game id"
                              + (", a game folder" if allow_path else "") + " or HexGridNumbering attributes") from None
        return game.numbering, value if is_builtin(value) else "custom"
    if isinstance(value, dict):
        known = set(Numbering().vassal_attrs())
        unknown = sorted(str(k) for k in value if str(k) not in known)
        if unknown:
            raise GazalaError(f"unknown HexGridNumbering attribute {unknown[0]!r}", file=file, place=place,
                              expected=", ".join(sorted(known)))
        try:
            return Numbering.from_vassal_attrs({str(k): str(v) for k, v in value.items()}), "custom"
        except ValueError as exc:
            raise GazalaError(str(exc), file=file, place=place) from None
    raise GazalaError(f"bad numbering {value!r}", file=file, place=place,
                      expected="a game id or HexGridNumbering attributes")


def read_grid_file(path: str | Path) -> GridSpec:
    """Read a grid YAML (or a map YAML / map directory) into a :class:`GridSpec`."""
    p = Path(path)
    if p.is_dir():
        p = p / "map.yaml"
    data = load_plain(p, "grid file", GazalaError)  # capped: regular file, size, UTF-8, nesting
    if isinstance(data, dict) and "grid" in data:
        data = data["grid"]
    if not isinstance(data, dict):
        raise GazalaError("no grid section", file=p, expected="a mapping with orientation, numbering, ... pixels")

    def need(m: dict[str, Any], key: str, where: str) -> Any:
        if key not in m:
            raise GazalaError(f"missing {key!r}", file=p, place=where)
        return m[key]

    orientation = need(data, "orientation", "grid")
    if orientation not in ("flat", "pointy"):
        raise GazalaError(f"bad orientation {orientation!r}", file=p, place="grid.orientation", expected="flat or pointy")
    numbering, name = numbering_from(need(data, "numbering", "grid"), file=p)
    pix = need(data, "pixels", "grid")
    if not isinstance(pix, dict):
        raise GazalaError("pixels must be a mapping", file=p, place="grid.pixels")
    try:
        cols = tuple(int(v) for v in need(data, "columns", "grid"))
        rows = tuple(int(v) for v in need(data, "rows", "grid"))
        dx, dy = float(need(pix, "dx", "grid.pixels")), float(need(pix, "dy", "grid.pixels"))
        if not all(math.isfinite(v) and 0 < v < 1e6 for v in (dx, dy)):
            raise ValueError(f"dx {dx}, dy {dy}: hex sizes must be positive finite numbers of pixels")
        x0, y0 = int(need(pix, "x0", "grid.pixels")), int(need(pix, "y0", "grid.pixels"))
        board = (int(pix.get("board_width", 0)), int(pix.get("board_height", 0)))
        dpi = int(pix.get("dpi", 100))
        if max(abs(x0), abs(y0), *board) > MAX_PIXEL or not 1 <= dpi <= 1200:
            raise ValueError(f"x0 {x0}, y0 {y0}, board {board}, dpi {dpi}: pixel values within +-{MAX_PIXEL:,}, "
                             "dpi 1..1200")
        grid = GameGrid(
            Orientation(orientation),
            numbering,
            columns=(cols[0], cols[1]),
            rows=(rows[0], rows[1]),
            north=str(data.get("north", "top")),
            max_rows=int(data.get("max_rows", 0)),
            max_columns=int(data.get("max_columns", 0)),
        )
        geo = HexGridGeometry(dx=dx, dy=dy, x0=x0, y0=y0, sideways=orientation == "pointy", numbering=numbering)
    except (TypeError, ValueError, IndexError, OverflowError, AttributeError) as exc:
        raise GazalaError(f"bad grid ({' '.join(str(exc).split())[:200]})", file=p, place="grid") from None
    return GridSpec(grid, geo, name, board, dpi)


def write_yaml(data: Any) -> str:
    return yaml.safe_dump(data, sort_keys=False, default_flow_style=None, width=110)


def hexes_on_image(spec: GridSpec, size: tuple[int, int]) -> list[Hex]:
    """Map hexes whose centre lies on an image of ``size``."""
    w, h = size
    out = []
    for hx in spec.grid.hexes():
        x, y = spec.geometry.hex_center(hx)
        if 0 <= x < w and 0 <= y < h:
            out.append(hx)
    return out


def raw_hex(geometry: HexGridGeometry, c: int, r: int) -> Hex:
    return raw_to_hex(c, r, geometry.orientation)
