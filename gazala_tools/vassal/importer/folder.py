"""``gazala game import``: a game folder from a module (docs/module.md, "Importing a module").

Writes game.yaml (name, the roster's sides, the main grid's numbering), map.yaml (the main board's hex
grid), counters.yaml (every piece slot as a marker with its own front and back art, its name and side, and
its definition kept as written), module.yaml (board art; the module's maps, decks, dice, turn trackers,
charts, help pages and set-ups as data and its components as written: :mod:`.kept`), vmod/ (the module's
other files, streamed byte for byte) and import-report.yaml (counts: imported, kept verbatim, not
understood). All or nothing: assembled beside the folder and renamed. :mod:`.rebuild` gives the module back.
"""

from __future__ import annotations

import io
import posixpath
import re
import warnings
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PIL import Image

from gazala_tools.errors import GazalaError
from gazala_tools.escape import NOT_DRAWN
from gazala_tools.fileio import write_new_folder
from gazala_tools.games.writing import SIDE_COLORS, slug
from gazala_tools.games.writing import dump_yaml as _dump
from gazala_tools.games.writing import numbering_data as _numbering_data
from gazala_tools.hexgrid import Board, HexGridGeometry, ZonedGrid
from gazala_tools.inputs import MAX_MEMBERS, safe_member_name
from gazala_tools.mapdata.gridfile import spec_for
from gazala_tools.mapdata.loader import load_map_text
from gazala_tools.render.svg import open_any_image
from gazala_tools.vassal.buildfile import ModuleSource, open_source, parse_xml
from gazala_tools.vassal.importer.kept import FILES, components, dump, module_data, newline, short
from gazala_tools.vassal.importer.reader import ImportedModule, ImportedPiece, Placement, read_module
from gazala_tools.vassal.importer.scenarios import scenarios_doc

__all__ = [
    "COPY_THREADS",
    "DPI",
    "MAX_IMAGE_BYTES",
    "MAX_MODULE_BYTES",
    "SQUARE",
    "MainGrid",
    "import_folder",
    "main_grid",
]

#: largest image copied into the folder
MAX_IMAGE_BYTES = 256 * 1024 * 1024
#: bytes read from a zipped module in all (the buildFile, the board and every piece image copied)
MAX_MODULE_BYTES = 4 * 1024 * 1024 * 1024
#: module files copied at once (the copies wait on the disk)
COPY_THREADS = 8
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


def main_grid(mod: ImportedModule) -> MainGrid | None:
    """The first board (in map order) with a numbered hex grid, directly or in a zone; None when no board
    has one (then the folder has no map.yaml: the maps are data in module.yaml only)."""
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
    return None


def _map_doc(mod: ImportedModule, main: MainGrid | None) -> dict[str, Any] | None:
    """map.yaml: the main grid (every hex whose centre is on the board, one terrain), or None."""
    if main is None or main.geometry.numbering is None:
        return None
    spec = spec_for(main.geometry, main.geometry.numbering, "custom", main.size, dpi=DPI)
    grid = spec.to_data()
    grid["pixels"]["board_width"], grid["pixels"]["board_height"] = main.board.width, main.board.height
    del grid["numbering"]
    if spec.grid.max_rows:  # a descending numbering counts from the grid's last row (docs/mapdata.md)
        grid["max_rows"] = spec.grid.max_rows
    if spec.grid.max_columns:
        grid["max_columns"] = spec.grid.max_columns
    return {"title": mod.name, "provenance": "imported", "grid": grid,
            "terrain": {"default": "clear", "types": {"clear": {"description": "not in the module"}}}}


def _face(src: ModuleSource, layers: tuple[str, ...], present: set[str],
          sizes: dict[str, tuple[int, int] | None]) -> tuple[bytes | str, str, tuple[int, int]] | None:
    """One image of a face: the single layer's member name (copied, never decoded), or the layers drawn
    centred on one another (a new PNG's bytes). ``sizes``: the image sizes read so far (from headers)."""
    layers = tuple(x for x in layers if x in present)
    if not layers:
        return None
    if len(layers) == 1:
        if layers[0] not in sizes:  # a piece's faces share their images: each header is read once
            sizes[layers[0]] = src.image_size(layers[0])
        size = sizes[layers[0]]
        if size is None:
            return None
        return f"images/{layers[0]}", Path(layers[0]).suffix.lower() or ".png", size
    with warnings.catch_warnings():  # a palette image with transparency bytes: converted, as asked
        warnings.simplefilter("ignore", UserWarning)
        images = [open_any_image(src.read_member(f"images/{x}", MAX_IMAGE_BYTES), file=x, what="piece image")
                  .convert("RGBA") for x in layers]
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


def _members(src: ModuleSource) -> list[str]:
    """The module's files other than its buildFile, sorted; within the input caps."""
    names = sorted(m for m in src.member_names(limit=MAX_MEMBERS + 1) if m != src.buildfile_name)
    if len(names) > MAX_MEMBERS:
        raise GazalaError(f"the module holds more than {MAX_MEMBERS:,} files", file=src.path,
                          expected=f"at most {MAX_MEMBERS:,}")
    return [m for m in names if not m.endswith("/")]


def import_folder(source: str | Path, folder: str | Path) -> dict[str, Any]:
    """Write the game folder of a module; returns the import report (also written as import-report.yaml)."""
    src = open_source(source, budget=MAX_MODULE_BYTES)
    mod = read_module(src)
    main = main_grid(mod)
    members = _members(src)
    present = {m[len("images/"):] for m in members if m.startswith("images/")}
    title = mod.name or Path(source).stem
    sides = mod.sides[:] if len(mod.sides) >= 2 else [*mod.sides, *("Side 1", "Side 2")][:2]
    side_ids = {name: slug(name) for name in sides}
    game_doc: dict[str, Any] = {
        "id": slug(title), "name": title, "provenance": "imported",
        "sources": [f"imported from the VASSAL module {title!r} (version {mod.version})"],
        "sides": [{"id": side_ids[s], "name": s, "color": SIDE_COLORS[i % 2]} for i, s in enumerate(sides)],
    }
    map_doc = _map_doc(mod, main)
    if main is not None and main.geometry.numbering is not None:
        game_doc["numbering"] = _numbering_data(main.geometry.numbering)
    binary: dict[str, bytes] = {}
    markers: list[dict[str, Any]] = []
    drawn: list[str] = []
    used: set[str] = set()
    sizes: list[int] = []
    slot_counter: dict[int, str] = {}
    header_sizes: dict[str, tuple[int, int] | None] = {}
    for p in mod.pieces:
        pid = _piece_id(p, used)
        slot_counter[p.slot] = pid
        entry: dict[str, Any] = {"id": pid, "type": "piece", "front": {"title": _title(p.name) or pid},
                                 "provenance": f"gpid {p.gpid}: {p.element}"[:300]}
        if p.side is not None:
            entry["side"] = side_ids[p.side]
        art: dict[str, str] = {}
        made: list[str] = []
        for face, layers in (("front", p.front), ("back", p.back)):
            got = _face(src, layers, present, header_sizes)
            if got is None or not _square(got[2]):
                break
            image, suffix, size = got
            if isinstance(image, str):  # the module's own image, copied with the module's files
                art[face] = f"{FILES}/{image}"
            else:
                name = f"art/{pid}-{face}{suffix}"
                binary[name] = image
                art[face] = name
                made.append(name)
            sizes.append(size[0])
        if "front" in art and ("back" in art or p.back == p.front):
            entry["art"] = {"front": art["front"], **({"back": art["back"]} if "back" in art else {})}
        else:
            for name in made:
                binary.pop(name, None)
            drawn.append(pid)
        entry["vassal"] = {"slot": p.text}
        markers.append(entry)
    size_in = (sorted(sizes)[len(sizes) // 2] / DPI) if sizes else 0.5
    counters_doc = {"provenance": "imported", "sources": [f"the piece slots of the VASSAL module {title!r}"],
                    "counter_size": f"{size_in:g} in", "total": len(markers), "markers": markers}
    root = parse_xml(src.xml, src.path)
    data = module_data(root, mod.layouts, slot_counter)
    by_gpid: dict[str, str] = {}
    for p in mod.pieces:
        by_gpid.setdefault(p.gpid, slot_counter[p.slot])
    setups = _setups(mod, data.get("set-ups", []), by_gpid)
    if setups:
        data["set-ups"] = setups
    written = scenarios_doc(setups, mod.placements, by_gpid, _on_hex(main, map_doc), main.map if main else None)
    kept_only = data.pop("kept verbatim only")
    numbers = re.match(r"\d+(?:\.\d+)*", mod.version.strip())
    module_doc: dict[str, Any] = {"version": numbers.group(0) if numbers else "1.0", "vassal_version": "3.6.0",
                                  "counters": {"art": "render"}}
    if main is not None and main.board.image and main.board.image in present:
        module_doc["board"] = {"art": f"{FILES}/images/{main.board.image}", "dpi": DPI}
    module_doc["vassal"] = {
        "buildfile": src.buildfile_name, "files": FILES, **({"newline": "crlf"} if newline(src.xml) != "\n" else {}),
        "root": {"tag": str(root.tag), "attributes": {str(k): str(v) for k, v in root.attrib.items()}},
        **data,
        "components": components(root, slot_counter),
    }
    imported = {"maps": len(data.get("maps", [])),
                "boards": sum(len(m["boards"]) for m in data.get("maps", [])),
                "zones": sum(len(b.get("grid", {}).get("zones", [])) for m in data.get("maps", []) for b in m["boards"]),
                "regions": sum(len(b.get("grid", {}).get("regions", [])) for m in data.get("maps", [])
                               for b in m["boards"]),
                "counters": len(markers), "counters with own art": len(markers) - len(drawn),
                "counters drawn": len(drawn), "placements": len(mod.placements),
                "scenarios": len(written.report),
                **{f"scenario pieces {k}": sum(r[k] for r in written.report)
                   for k in ("on hexes", "in boxes", "not placed")},
                **{k: len(data.get(k, [])) for k in ("set-ups", "dice", "turn trackers")},
                "charts": sum(1 for el in root.iter() if short(el.tag) == "Chart"),
                "help pages": sum(1 for el in root.iter() if short(el.tag) in ("HelpFile", "AboutScreen")),
                "decks": sum(len(m.get("decks", [])) for m in data.get("maps", []))}
    kept = {"components": len(module_doc["vassal"]["components"]), "components kept verbatim only": len(kept_only),
            "traits": sum(len(p.verbatim) for p in mod.pieces), "module files": len(members)}
    report = {
        "module": title,
        "counts": {"imported": imported, "kept verbatim": kept, "not understood": len(mod.not_understood)},
        "main grid": {"map": main.map, "board": main.board.name} if main is not None else None,
        "kept verbatim only": sorted(set(kept_only)),
        "boards not in map.yaml": [f"{m['name']} / {b['name']}: {b.get('grid', {}).get('kind', 'no grid')}"
                                   f" (module.yaml vassal.maps, kept verbatim for the rebuild)"
                                   for m in data.get("maps", []) for b in m["boards"]
                                   if main is None or (m["name"], b["name"]) != (main.map, main.board.name)],
        "placements": [{"setup": pl.setup, "gpid": pl.gpid, "name": pl.name, "map": pl.map, "board": pl.board,
                        "location": pl.location, "x": pl.x, "y": pl.y} for pl in mod.placements],
        "scenarios": written.report,
        "set-ups not written as scenarios": written.left_out,
        "traits kept verbatim": _trait_counts(mod),
        "not understood": mod.not_understood,
    }
    head = "# Written by `gazala game import` (`gazala help module`, \"Importing a module\").\n"
    files = {"game.yaml": head + _dump(game_doc), **({"map.yaml": head + _dump(map_doc)} if map_doc else {}),
             "counters.yaml": head + dump(counters_doc), "module.yaml": head + dump(module_doc),
             **({"scenarios.yaml": head + _dump(written.doc)} if written.doc else {}),
             "import-report.yaml": head + _dump(report)}
    copies = [(m, f"{FILES}/{m}") for m in members]
    write_new_folder(Path(folder), {**files, **binary}, [src.path], more=_copier(src, copies))
    return report


def _trait_counts(mod: ImportedModule) -> dict[str, int]:
    """How many of the pieces' traits this toolkit does not model, by trait (each is kept, as written, in
    its counter's ``vassal: slot``)."""
    counts: dict[str, int] = {}
    for p in mod.pieces:
        for t in p.verbatim:
            key = t.split(";", 1)[0].split("\t", 1)[0] + ";"
            counts[key] = counts.get(key, 0) + 1
    return dict(sorted(counts.items()))


def _setups(mod: ImportedModule, declared: list[dict[str, Any]], by_gpid: dict[str, str]) -> list[dict[str, Any]]:
    """Each predefined set-up with the pieces its save places (counter, map, board, location, point)."""
    out = []
    for s in declared:
        pieces = [{"counter": by_gpid.get(pl.gpid, ""), "name": pl.name, "map": pl.map, "board": pl.board,
                   "location": pl.location, "x": pl.x, "y": pl.y}
                  for pl in mod.placements if pl.file and pl.file == s.get("file") and pl.setup == s.get("name")]
        out.append({**s, **({"pieces": pieces} if pieces else {})})
    return out


def _on_hex(main: MainGrid | None, map_doc: dict[str, Any] | None) -> Callable[[Placement], bool]:
    """Whether a piece stands on a hex of map.yaml: on the main grid's board, at a location that is one of
    its hexes' labels."""
    if main is None or map_doc is None:
        return lambda pl: False
    assert main.geometry.numbering is not None  # map_doc is None without it
    alone = {"game": "imported", **map_doc,  # the map on its own: the numbering game.yaml gives the folder's
             "grid": {**map_doc["grid"], "numbering": _numbering_data(main.geometry.numbering)}}
    game_map = load_map_text(_dump(alone), "map.yaml")
    known: dict[str, bool] = {}

    def on_hex(pl: Placement) -> bool:
        label = pl.location
        if pl.map != main.map or pl.board != main.board.name or not label:
            return False
        if label not in known:
            try:
                known[label] = game_map.grid.contains(game_map.hex(label))
            except (GazalaError, KeyError, ValueError):
                known[label] = False
        return known[label]

    return on_hex


def _copier(src: ModuleSource, copies: list[tuple[str, str]]) -> Callable[[Path], None]:
    """What copies the module members ``copies`` (member, name in the folder) into the folder being
    assembled, each streamed (never held whole), within :data:`MAX_IMAGE_BYTES` each and
    :data:`MAX_MODULE_BYTES` in all; no name may lead out of the folder."""

    def more(tmp: Path) -> None:
        made: set[Path] = set()
        jobs: list[tuple[str, Path]] = []
        for member, name in copies:
            # the folder being assembled is new (no symlink in it): a name that stays inside stays inside
            if not safe_member_name(name) or posixpath.normpath(name) in (".", "") or "\\" in name:
                raise GazalaError(f"file name {name!r} would leave the game folder", file=src.path)
            path = tmp / name
            if path.parent not in made:
                path.parent.mkdir(parents=True, exist_ok=True)
                made.add(path.parent)
            jobs.append((member, path))

        def copy(job: tuple[str, Path]) -> int:
            member, path = job
            with open(path, "xb") as fh:
                return src.copy_member(member, fh.write, MAX_IMAGE_BYTES)

        # creating a file waits on the disk, not the CPU: several at once (4x faster for 10,000 images)
        total = 0
        with ThreadPoolExecutor(COPY_THREADS) as pool:
            try:
                for n in pool.map(copy, jobs):
                    total += n
                    if total > MAX_MODULE_BYTES:
                        raise GazalaError("the module's files pass the import's size budget", file=src.path,
                                          expected=f"at most {MAX_MODULE_BYTES:,} bytes in all")
            except BaseException:
                pool.shutdown(cancel_futures=True)
                raise

    return more


def _title(name: str) -> str:
    """A counter's title from a piece's name: one line of printable characters, at most 60, not ending in a
    backslash (what counters.yaml accepts; the name itself stays in the kept definition)."""
    text = NOT_DRAWN.sub(" ", name)[:60].rstrip("\\ ")
    return text


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
