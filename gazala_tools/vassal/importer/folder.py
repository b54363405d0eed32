"""``gazala game import``: a game folder from a module (docs/module.md, "Importing a module").

Writes game.yaml (name, the roster's sides, the main grid's numbering), map.yaml (the main board's hex
grid), the board image, counters.yaml (every piece slot as a marker with its own front and back art,
its name and side), module.yaml (board art) and import-report.yaml (counts, the set-up placements, the
traits kept verbatim, what was not understood). All or nothing: assembled beside the folder and renamed.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PIL import Image

from gazala_tools.errors import GazalaError
from gazala_tools.fileio import write_new_folder
from gazala_tools.games.writing import SIDE_COLORS, slug
from gazala_tools.games.writing import dump_yaml as _dump
from gazala_tools.games.writing import numbering_data as _numbering_data
from gazala_tools.hexgrid import Board, HexGridGeometry, ZonedGrid
from gazala_tools.inputs import open_image
from gazala_tools.mapdata.gridfile import spec_for
from gazala_tools.vassal.buildfile import ModuleSource, open_source
from gazala_tools.vassal.importer.reader import ImportedModule, ImportedPiece, read_module

#: largest image copied into the folder
MAX_IMAGE_BYTES = 256 * 1024 * 1024
#: bytes read from a zipped module in all (the buildFile, the board and every piece image copied)
MAX_MODULE_BYTES = 4 * 1024 * 1024 * 1024
#: the dpi the board and counter sizes are given at (module pixels are taken as 100 per inch)
DPI = 100
#: counter art must be square within this ratio (docs/counters.md "Your own art")
SQUARE = 0.03


@dataclass(frozen=True)
class MainGrid:
    map: str
    board: Board
    geometry: HexGridGeometry
    size: tuple[int, int]  #: what the numbering is sized by: the board, or the zone's bounds


def main_grid(mod: ImportedModule) -> MainGrid:
    """The first board (in map order) with a numbered hex grid, directly or in a zone."""
    for lay in mod.layouts:
        for board in lay.all_boards:
            grid = board.grid
            if board.width is None or board.height is None:
                continue
            if isinstance(grid, HexGridGeometry) and grid.numbering is not None:
                return MainGrid(lay.name, board, grid, (board.width, board.height))
            if isinstance(grid, ZonedGrid):
                for zone in grid.zones:
                    if isinstance(zone.grid, HexGridGeometry) and zone.grid.numbering is not None:
                        return MainGrid(lay.name, board, zone.grid, zone.bounds_size())
    raise GazalaError("the module has no board with a numbered hex grid", file=None,
                      expected="a module whose map has a HexGrid with HexGridNumbering")


def _face(src: ModuleSource, layers: tuple[str, ...], present: set[str]) -> tuple[bytes, str, tuple[int, int]] | None:
    """One image of a face: the single layer's bytes, or the layers drawn centred on one another."""
    layers = tuple(x for x in layers if x in present)
    if not layers:
        return None
    if len(layers) == 1:
        data = src.read_member(f"images/{layers[0]}", MAX_IMAGE_BYTES)
        size = src.image_size(layers[0])
        if size is None:
            return None
        return data, Path(layers[0]).suffix.lower() or ".png", size
    images = [open_image(src.read_member(f"images/{x}", MAX_IMAGE_BYTES), file=x, what="piece image").convert("RGBA")
              for x in layers]
    w, h = max(i.width for i in images), max(i.height for i in images)
    canvas = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    for im in images:
        canvas.alpha_composite(im, ((w - im.width) // 2, (h - im.height) // 2))
    buf = io.BytesIO()
    canvas.save(buf, "PNG")
    return buf.getvalue(), ".png", (w, h)


def _square(size: tuple[int, int]) -> bool:
    w, h = size
    return abs(w - h) <= SQUARE * max(w, h)


def import_folder(source: str | Path, folder: str | Path) -> dict[str, Any]:
    """Write the game folder of a module; returns the import report (also written as import-report.yaml)."""
    src = open_source(source, budget=MAX_MODULE_BYTES)
    mod = read_module(source)
    main = main_grid(mod)
    numbering = main.geometry.numbering
    assert numbering is not None
    present = {m[len("images/"):] for m in src.member_names() if m.startswith("images/")}
    sides = mod.sides[:] if len(mod.sides) >= 2 else [*mod.sides, *("Side 1", "Side 2")][:2]
    side_ids = {name: slug(name) for name in sides}
    game_doc: dict[str, Any] = {
        "id": slug(mod.name or Path(source).stem), "name": mod.name or Path(source).stem, "provenance": "imported",
        "sources": [f"imported from {Path(source).name} (version {mod.version})"],
        "sides": [{"id": side_ids[s], "name": s, "color": SIDE_COLORS[i % 2]} for i, s in enumerate(sides)],
        "numbering": _numbering_data(numbering),
    }
    spec = spec_for(main.geometry, numbering, "custom", main.size, dpi=DPI)
    grid = spec.to_data()
    grid["pixels"]["board_width"], grid["pixels"]["board_height"] = main.board.width, main.board.height
    del grid["numbering"]
    if spec.grid.max_rows:  # a descending numbering counts from the grid's last row (docs/mapdata.md)
        grid["max_rows"] = spec.grid.max_rows
    if spec.grid.max_columns:
        grid["max_columns"] = spec.grid.max_columns
    map_doc = {"title": mod.name, "provenance": "imported", "grid": grid,
               "terrain": {"default": "clear", "types": {"clear": {"description": "not in the module"}}}}
    binary: dict[str, bytes] = {}
    board_name = ""
    if main.board.image:
        board_name = "board" + (Path(main.board.image).suffix.lower() or ".png")
        binary[board_name] = src.read_member(f"images/{main.board.image}", MAX_IMAGE_BYTES)
    markers: list[dict[str, Any]] = []
    drawn: list[str] = []
    used: set[str] = set()
    sizes: list[int] = []
    for p in mod.pieces:
        pid = _piece_id(p, used)
        entry: dict[str, Any] = {"id": pid, "type": "piece", "front": {"title": p.name[:60] or pid},
                                 "provenance": f"gpid {p.gpid}: {p.element}"[:300]}
        if p.side is not None:
            entry["side"] = side_ids[p.side]
        art = {}
        for face, layers in (("front", p.front), ("back", p.back)):
            got = _face(src, layers, present)
            if got is None or not _square(got[2]):
                break
            data, suffix, size = got
            name = f"art/{pid}-{face}{suffix}"
            binary[name] = data
            art[face] = name
            sizes.append(size[0])
        if "front" in art and ("back" in art or p.back == p.front):
            entry["art"] = {"front": art["front"], **({"back": art["back"]} if "back" in art else {})}
        else:
            for name in art.values():
                binary.pop(name, None)
            drawn.append(pid)
        markers.append(entry)
    size_in = (sorted(sizes)[len(sizes) // 2] / DPI) if sizes else 0.5
    counters_doc = {"provenance": "imported", "sources": [f"the piece slots of {Path(source).name}"],
                    "counter_size": f"{size_in:g} in", "total": len(markers), "markers": markers}
    numbers = re.match(r"\d+(?:\.\d+)*", mod.version.strip())
    module_doc: dict[str, Any] = {"version": numbers.group(0) if numbers else "1.0", "vassal_version": "3.6.0",
                                  "counters": {"art": "render"}}
    if board_name:
        module_doc["board"] = {"art": board_name, "dpi": DPI}
    report = {
        "module": str(Path(source).name),
        "counts": {**mod.counts(), "counters with own art": len(markers) - len(drawn), "counters drawn": len(drawn)},
        "main grid": {"map": main.map, "board": main.board.name},
        "placements": [{"setup": pl.setup, "gpid": pl.gpid, "name": pl.name, "map": pl.map, "board": pl.board,
                        "location": pl.location, "x": pl.x, "y": pl.y} for pl in mod.placements],
        "kept verbatim": {p.gpid: list(p.verbatim) for p in mod.pieces if p.verbatim},
        "not understood": mod.not_understood,
        "not imported yet": ["set-ups as scenarios (scenarios.yaml places units only)", "other maps and boards",
                             "zones and regions", "decks, dice, turn tracker, charts, help pages",
                             "a rebuild that keeps the verbatim traits"],
    }
    head = "# Written by `gazala game import` (`gazala help module`, \"Importing a module\").\n"
    files = {"game.yaml": head + _dump(game_doc), "map.yaml": head + _dump(map_doc),
             "counters.yaml": head + _dump(counters_doc), "module.yaml": head + _dump(module_doc),
             "import-report.yaml": head + _dump(report)}
    write_new_folder(Path(folder), {**files, **binary}, [Path(source)])
    return report


def _piece_id(p: ImportedPiece, used: set[str]) -> str:
    base = slug(p.name)[:40].strip("-") or "piece"
    pid = f"{base}-{slug(p.gpid)}" if p.gpid else base
    n = 2
    out = pid
    while out in used:
        out = f"{pid}-{n}"
        n += 1
    used.add(out)
    return out
