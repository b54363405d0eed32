"""``gazala game new``: from a scan of a printed map to a game folder (docs/games.md, "From a scan").

The folder holds everything a module build needs, as data the owner then edits:

* ``game.yaml``: id, name, two sides, a turn record, and the numbering the grid was fitted with;
* ``map.yaml``: the fitted VASSAL grid (``grid.pixels``) over the whole scan, one default terrain
  (or the terrain ``classify`` found, given a legend);
* ``board.<ext>``: the scan itself, byte for byte, as the module's board art;
* ``counters.yaml`` and ``scenarios.yaml``: three example units a side, set up on hexes of the map,
  so the first build already shows pieces on the board;
* ``module.yaml``: the module build configuration (board art = the scan).

Nothing is written unless all of it is: the folder is assembled beside its destination and renamed
into place; an existing non-empty folder is refused.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from gazala_tools.digitize.image import image_format
from gazala_tools.errors import GazalaError
from gazala_tools.fileio import write_new_folder
from gazala_tools.games.writing import SIDE_COLORS, slug
from gazala_tools.games.writing import dump_yaml as _dump
from gazala_tools.games.writing import numbering_data as _numbering_data
from gazala_tools.hexes import Hex
from gazala_tools.hexgrid import HexGridGeometry
from gazala_tools.inputs import BOARD_IMAGE_FORMATS, MAX_BOARD_BYTES
from gazala_tools.mapdata.gridfile import GridSpec
from gazala_tools.numbering import Numbering

__all__ = [
    "BOARD_SUFFIXES",
    "COUNTER_COLORS",
    "COUNTER_NOTE",
    "COUNTER_SHARE",
    "ID_RE",
    "OVERLAY",
    "TESTED_VASSAL",
    "UNITS_PER_SIDE",
    "NewGame",
    "ScanFit",
    "board_image",
    "board_name_for",
    "corner_labels",
    "counter_px",
    "fit_scan",
    "folder_files",
    "top_left_whole",
    "write_folder",
    "write_overlay",
]

ID_RE: Final = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
#: the board image suffixes VASSAL shows (and the module builder copies as they are)
BOARD_SUFFIXES: Final = (".png", ".jpg", ".jpeg", ".gif")
UNITS_PER_SIDE: Final = 3
COUNTER_COLORS: Final = (("#e8a0a0", "#f6dede"), ("#a0b4e8", "#dee5f6"))


@dataclass(frozen=True)
class NewGame:
    """What ``game new`` is asked to make."""

    folder: Path
    game_id: str
    name: str
    sides: tuple[str, str] = ("First Side", "Second Side")
    turns: int = 10
    provenance: str = "digitized"
    terrain: dict[str, Any] | None = None  #: a classify ``terrain`` section, else one default terrain
    notes: tuple[str, ...] = field(default=())  #: lines for map.yaml's header (how the grid was found)


@dataclass(frozen=True)
class ScanFit:
    """The fitted grid, notes on how it was found, and the board size it needs (the scan's own size,
    or a few pixels more when a descending numbering needs VASSAL's maxRows/maxColumns one larger)."""

    spec: GridSpec
    notes: list[str]
    board: tuple[int, int]


def fit_scan(image: Any, *, refs: Sequence[str], numbering: str, grid_file: str | None) -> ScanFit:
    """The VASSAL grid of the scan.

    ``grid_file``: a grid YAML made before (its numbering wins). Else the lattice is detected and the
    first reference names its hexes (``number_lattice``); every further reference must then name the
    hex under its point, or the command stops naming it. A descending numbering (``vDescend`` or
    ``hDescend``) names hexes from VASSAL's maxRows/maxColumns, which VASSAL takes from the board's
    size: one reference cannot tell which of two board heights (or widths) the printed labels follow,
    two references in neighbouring columns can, and the board is then extended by less than a hex
    if it must be. Without a confident lattice two or more references are fitted by least squares.
    With no reference the names start at the detected top-left hex.
    """
    from gazala_tools.digitize.calibrate import calibrate, parse_ref
    from gazala_tools.digitize.image import image_dpi
    from gazala_tools.digitize.lattice import detect_grid
    from gazala_tools.mapdata.gridfile import numbering_from, spec_for

    size = image.size
    dpi = image_dpi(image)
    if grid_file:
        return _from_grid_file(grid_file, size)
    num, num_name = numbering_from(numbering, place="--numbering", allow_path=True)
    parsed = [parse_ref(r, size) for r in refs]
    fit = detect_grid(image)
    notes = [f"lattice detected: dx={fit.dx:.3f} dy={fit.dy:.3f}, confidence {fit.confidence:.2f}, "
             f"rms {fit.rms_px:.2f} px over {fit.hexes_measured} hexes"]  # fmt: skip
    notes += list(fit.notes)
    board = size
    confident = fit.confidence >= 0.3
    if parsed and confident:
        geo, used, board = _named_by_refs(fit, num, parsed, size, notes)
    elif len(parsed) >= 2:
        hint = (fit.dx / fit.dy, fit.sideways) if confident else None
        cal = calibrate(parsed, num, board=size, shape_hint=hint)
        geo, used = cal.geometry, cal.numbering
        notes.append(f"fitted to {len(parsed)} reference hexes: rms {cal.rms:.2f} px"
                     + ("; ambiguous: add a reference far from the others" if cal.ambiguous else ""))  # fmt: skip
    elif not confident:
        raise GazalaError(
            f"the hex grid could not be found with confidence (confidence {fit.confidence:.2f})",
            file=getattr(image, "filename", "") or "", expected="two or more --ref LABEL=X,Y, or --grid GRID.yaml",
        )  # fmt: skip
    else:
        geo, used = _named_from_top_left(fit, num, size, notes)
    return ScanFit(spec_for(geo, used, num_name if used == num else "custom", board, dpi=dpi), notes, board)


def _from_grid_file(grid_file: str, size: tuple[int, int]) -> ScanFit:
    """The grid of a grid YAML made for a scan of ``size``."""
    from gazala_tools.mapdata.gridfile import read_grid_file

    spec = read_grid_file(grid_file)
    if spec.board != size:
        raise GazalaError(
            f"the grid is for a {spec.board[0]}x{spec.board[1]} board, the scan is {size[0]}x{size[1]}",
            file=grid_file, place="grid.pixels", expected="board_width/board_height equal to the scan's size",
        )  # fmt: skip
    return ScanFit(spec, [f"grid from {Path(grid_file).name}"], size)


def _named_by_refs(fit: Any, num: Numbering, parsed: Sequence[Any], size: tuple[int, int],
                   notes: list[str]) -> tuple[HexGridGeometry, Numbering, tuple[int, int]]:
    """The detected lattice named by the first reference and checked on the others (on the first board
    size where all of them agree: :func:`_boards`): grid, numbering and board; what was done added to
    ``notes``."""
    from gazala_tools.digitize.lattice import number_lattice

    first = parsed[0]
    wrong: list[tuple[str, str]] = []
    board = size
    for board in _boards(size, fit.dx, fit.dy, num):
        geo, used = number_lattice(fit, num, first.label, first.x, first.y, board=board)
        wrong = [(f"{r.label} at ({r.x:g}, {r.y:g})", _name(geo, r.x, r.y, board)) for r in parsed[1:]]
        wrong = [(ref, got) for ref, got in wrong if got != ref.split(" ")[0]]
        if not wrong:
            break
    if wrong:
        ref, got = wrong[0]
        raise GazalaError(
            f"reference {ref}: the grid fitted to {first.label} names that hex {got}",
            place="--ref", expected="references whose labels are the printed names of the hexes under their points",
        )  # fmt: skip
    notes.append(f"hex names fixed by {first.label} at ({first.x:g}, {first.y:g})"
                 + (f", checked on {len(parsed) - 1} more reference(s)" if len(parsed) > 1 else ""))  # fmt: skip
    if (num.v_descend or num.h_descend) and len(parsed) == 1:
        notes.append("descending numbering: the stagger of the labels was taken from the scan's size; "
                     "give a second --ref in the next column to check it")  # fmt: skip
    if board != size:
        notes.append(f"board extended from {size[0]}x{size[1]} to {board[0]}x{board[1]} px so that VASSAL's "
                     "descending numbering gives the printed labels")  # fmt: skip
    return geo, used, board


def _named_from_top_left(fit: Any, num: Numbering, size: tuple[int, int],
                         notes: list[str]) -> tuple[HexGridGeometry, Numbering]:
    """With no reference: the detected lattice with the numbering's first hex at its top-left whole hex."""
    u, v = top_left_whole(fit, size)
    geo, used = HexGridGeometry(dx=fit.dx, dy=fit.dy, x0=round(u), y0=round(v), sideways=fit.sideways, numbering=num), num
    first_label = num.name(0, 0, sideways=fit.sideways, max_rows=geo.max_rows(size[1]), max_columns=geo.max_columns(size[0]))
    notes.append(f"no --ref: the top-left whole hex of the scan is {first_label}, the numbering's first hex; give "
                 "--ref LABEL=X,Y for the printed names (`gazala help games`, \"A map without printed numbers\")")
    return geo, used


def top_left_whole(fit: Any, size: tuple[int, int]) -> tuple[float, float]:
    """The centre (VASSAL's u, v: x, y, or y, x when sideways) of the top-left hex of the fitted lattice
    that lies whole on the scan: the first (along u) column holding a whole hex, and its first whole
    hex (along v). VASSAL's raw hex (0, 0) goes there, so it gets the numbering's first label (``0101``
    for VASSAL's default) and no hex of the grid (centres at least 0.3 hex inside the scan) is more than
    one column or row before it: no name is negative."""
    dx, dy = fit.dx, fit.dy
    width, height = (size[1], size[0]) if fit.sideways else size
    half_u, half_v = dx * 2 / 3, dy / 2  # a hexagon's half extents along u (corner to corner) and v (flats)
    c0 = math.ceil((half_u - fit.x0) / dx)
    c1 = math.floor((width - 1 - half_u - fit.x0) / dx)
    for c in range(c0, c1 + 1):
        shift = dy / 2 if c % 2 else 0.0
        r = math.ceil((half_v - fit.y0 - shift) / dy)
        v = fit.y0 + r * dy + shift
        if v + half_v <= height - 1:
            return fit.x0 + c * dx, v
    raise GazalaError("no whole hex lies on the scan", expected="a scan that shows at least one whole hex")


def _boards(size: tuple[int, int], dx: float, dy: float, numbering: Numbering) -> list[tuple[int, int]]:
    """Board sizes to try, the scan's own first. VASSAL's maxRows = floor(H/dx + 0.5) and maxColumns
    = floor(W/dy + 0.5) (docs: vassal-format 5.4); a descending numbering's labels follow their
    parity, so the other parity (one more) is tried on a board extended by less than a hex."""
    w, h = size

    def grow(n: int, step: float) -> int:
        m = math.floor(n / step + 0.5)
        while math.floor(n / step + 0.5) == m:
            n += 1
        return n

    heights = [h, grow(h, dx)] if numbering.v_descend else [h]
    widths = [w, grow(w, dy)] if numbering.h_descend else [w]
    return sorted(((ww, hh) for ww in widths for hh in heights), key=lambda b: (b[0] - w) + (b[1] - h))


def _name(geo: Any, x: float, y: float, board: tuple[int, int]) -> str:
    """The name of the hex under (x, y) on ``board``."""
    c, r = geo.raw_at(x, y)
    assert geo.numbering is not None
    return str(geo.numbering.name(c, r, sideways=geo.sideways, max_rows=geo.max_rows(board[1]),
                                  max_columns=geo.max_columns(board[0])))  # fmt: skip


def board_image(image: Any, board: tuple[int, int], suffix: str) -> bytes:
    """The scan on a board of ``board`` size (the scan at the top left, the rest in the colour of the
    scan's bottom-right corner), encoded as ``suffix`` (JPEG at quality 95)."""
    import io

    from PIL import Image

    rgb = image if image.mode == "RGB" else image.convert("RGB")
    canvas = Image.new("RGB", board, rgb.getpixel((rgb.width - 1, rgb.height - 1)))
    canvas.paste(rgb, (0, 0))
    buf = io.BytesIO()
    fmt = {".png": "PNG", ".gif": "GIF"}.get(suffix, "JPEG")
    canvas.save(buf, fmt, **({"quality": 95} if fmt == "JPEG" else {}))
    return buf.getvalue()


def _starter_hexes(spec: GridSpec, count: int) -> tuple[list[Hex], list[Hex]]:
    """``count`` hexes for each side: side one in the west third, side two in the east third, along
    the middle row band, never the same hex twice."""
    geo = spec.geometry
    hexes = list(spec.grid.hexes())
    if len(hexes) < 2 * count:
        raise GazalaError(
            f"the fitted grid has only {len(hexes)} hexes", expected=f"at least {2 * count} hexes on the scan"
        )
    centres = {h: geo.hex_center(h) for h in hexes}
    xs = sorted(x for x, _ in centres.values())
    ys = sorted(y for _, y in centres.values())
    mid_y = ys[len(ys) // 2]
    west, east = xs[len(xs) // 6], xs[5 * len(xs) // 6]

    def nearest(x: float, taken: set[Hex]) -> list[Hex]:
        ranked = sorted(
            (h for h in hexes if h not in taken), key=lambda h: (abs(centres[h][0] - x) + abs(centres[h][1] - mid_y), h)
        )
        return ranked[:count]

    a = nearest(west, set())
    b = nearest(east, set(a))
    return a, b


#: the VASSAL engine the toolkit's modules are tested with (the shared harness's engine)
TESTED_VASSAL: Final = "3.7.26"
#: the counter side as a share of the hex's height across flats: a counter fits inside its hex
COUNTER_SHARE: Final = 0.8
COUNTER_NOTE: Final = ("the counters' side in board pixels: about 0.8 of the hex height (%.0f px) so a counter fits its "
                       "hex; change it to resize every counter")


def counter_px(spec: GridSpec) -> int:
    """The side of a counter on the scan, in board pixels: :data:`COUNTER_SHARE` of the hex height across
    flats (VASSAL's ``dy``, whichever way the hexes point)."""
    return max(16, round(COUNTER_SHARE * spec.geometry.dy))


def folder_files(spec: GridSpec, new: NewGame, board_name: str) -> dict[str, str]:
    """The text files of the new game folder, by name (the board image is copied separately)."""
    side_ids = _side_ids(new)
    dump = _dump
    game_doc = _game_doc(spec, new, side_ids)
    map_doc = _map_doc(spec, new)
    counters_doc, scenarios_doc = _examples(spec, new, side_ids)
    module_doc = _module_doc(spec, board_name)
    head = "# Written by `gazala game new` (`gazala help games`, \"From a scan\"). Edit freely.\n"
    map_head = head + "".join(f"# {n}\n" for n in new.notes)
    return {
        "game.yaml": head + "# sides, turns and numbering of your game; add a rules: section for the referee\n" + dump(game_doc),
        "map.yaml": map_head + "# add terrain, hexsides (rivers, escarpments), roads, places and zones\n" + dump(map_doc),
        "counters.yaml": head + "# example units: replace with your counter mix (`gazala help counters`)\n" + dump(counters_doc),
        "scenarios.yaml": head + "# where each unit starts (`gazala help games`, scenarios.yaml)\n" + dump(scenarios_doc),
        "module.yaml": head + "# how the VASSAL module is built (`gazala help module`, \"The build configuration\")\n"
        + _commented(dump(module_doc), {"vassal_version:": "vassal_version: the VASSAL the module is tested with",
                                        "counters:": "size_px: " + COUNTER_NOTE % spec.geometry.dy}),
    }


def _side_ids(new: NewGame) -> list[str]:
    """The two sides' ids: their names' slugs, ``side-1`` and ``side-2`` when those are empty or alike."""
    side_ids = [slug(s) if slug(s) not in ("", "neutral") else f"side-{i + 1}" for i, s in enumerate(new.sides)]
    if side_ids[0] == side_ids[1]:
        side_ids = ["side-1", "side-2"]
    return side_ids


def _game_doc(spec: GridSpec, new: NewGame, side_ids: list[str]) -> dict[str, Any]:
    """game.yaml: id, name, the sides, a turn record and the grid's numbering."""
    return {
        "id": new.game_id,
        "name": new.name,
        "provenance": new.provenance,
        "sides": [{"id": i, "name": n, "color": c} for i, n, c in zip(side_ids, new.sides, SIDE_COLORS, strict=True)],
        "turns": {"count": new.turns, "label": "Turn {n}"},
        "numbering": _numbering_data(spec.grid.numbering),
    }


def _map_doc(spec: GridSpec, new: NewGame) -> dict[str, Any]:
    """map.yaml: the fitted grid over the scan and the terrain (one default, or what classify found)."""
    g = spec.grid
    grid: dict[str, Any] = {
        "orientation": g.orientation.value,
        "columns": list(g.columns),
        "rows": list(g.rows),
        "north": g.north,
    }
    if g.max_rows:
        grid["max_rows"] = g.max_rows
    if g.max_columns:
        grid["max_columns"] = g.max_columns
    grid["pixels"] = spec.to_data()["pixels"]
    terrain = new.terrain or {"default": "clear", "types": {"clear": {"description": "every hex until you classify or edit"}}}
    return {"title": new.name, "provenance": new.provenance, "grid": grid, "terrain": terrain}


def _examples(spec: GridSpec, new: NewGame, side_ids: list[str]) -> tuple[dict[str, Any], dict[str, Any]]:
    """counters.yaml and scenarios.yaml: :data:`UNITS_PER_SIDE` example units a side, set up on hexes of
    the map (:func:`_starter_hexes`)."""
    g = spec.grid
    a, b = _starter_hexes(spec, UNITS_PER_SIDE)
    nats = {f"n{i + 1}": {"name": n, "side": sid, "color": col, "box_color": box}
            for i, (n, sid, (col, box)) in enumerate(zip(new.sides, side_ids, COUNTER_COLORS, strict=True))}  # fmt: skip
    units: list[dict[str, Any]] = []
    setup: list[dict[str, Any]] = []
    for i, (sid, hexes) in enumerate(zip(side_ids, (a, b), strict=True)):
        for k, hx in enumerate(hexes, start=1):
            uid = f"{sid}-unit-{k}"
            units.append({"id": uid, "nationality": f"n{i + 1}", "formation": "Example", "designation": f"{k}",
                          "type": "infantry", "size": "II", "values": [4, 4, 4], "provenance": "example"})  # fmt: skip
            setup.append({"unit": uid, "hex": g.label(hx), "source": "example set-up (game new)"})
    counters_doc = {
        "provenance": "example",
        "sources": ["written by gazala game new: replace with the game's counter mix"],
        "counter_size": "1/2 in",
        "value_style": "attack-defence-move",
        "total": len(units),
        "nationalities": nats,
        "units": units,
    }
    scenarios_doc = {
        "scenarios": [
            {
                "id": "example",
                "name": "Example set-up",
                "source": "game new",
                "start": "Turn 1",
                "end": f"Turn {new.turns}",
                "setup": setup,
            }
        ]
    }
    return counters_doc, scenarios_doc


def _module_doc(spec: GridSpec, board_name: str) -> dict[str, Any]:
    """module.yaml: the board art (the scan) and the counters' size."""
    size_px = counter_px(spec)
    return {
        "version": "0.1",
        "vassal_version": TESTED_VASSAL,
        "board": {"art": board_name, "dpi": spec.dpi},
        "counters": {"art": "render", "size_px": size_px},
        "palette": {"panels": "formation", "columns": 6},
    }


OVERLAY: Final = "overlay.png"


def write_overlay(scan: Any, spec: GridSpec, path: Path) -> None:
    """The fitted grid and its labels drawn on ``scan`` (RGB, drawn on in place: no second full-size
    image), as a PNG at ``path``, so the fit can be checked by eye before going on."""
    from gazala_tools.digitize.overlay import draw_overlay

    hexes = list(spec.grid.hexes())
    draw_overlay(scan, spec.geometry, hexes, {h: spec.grid.label(h) for h in hexes}, in_place=True)
    with path.open("wb") as fh:
        scan.save(fh, "PNG")  # Pillow deflates into the file as it goes


def corner_labels(spec: GridSpec) -> dict[str, str]:
    """The labels of the grid's hexes nearest the scan's four corners (top-left, top-right, bottom-left,
    bottom-right), for the summary."""
    w, h = spec.board
    centres = {hx: spec.geometry.hex_center(hx) for hx in spec.grid.hexes()}
    out: dict[str, str] = {}
    for name, (x, y) in (("top-left", (0, 0)), ("top-right", (w, 0)), ("bottom-left", (0, h)), ("bottom-right", (w, h))):
        best = min(centres, key=lambda hx: ((centres[hx][0] - x) ** 2 + (centres[hx][1] - y) ** 2, hx))
        out[name] = spec.grid.label(best)
    return out


def _commented(text: str, notes: dict[str, str]) -> str:
    """``text`` with a comment line above the first line starting with each key of ``notes``."""
    lines = text.splitlines(keepends=True)
    for key, note in notes.items():
        i = next(i for i, line in enumerate(lines) if line.startswith(key))
        lines.insert(i, f"# {note}\n")
    return "".join(lines)


def board_name_for(image: Path) -> str:
    """The board's file name in the new folder, by the scan's real format (its bytes, not its name):
    what ``module build`` refuses (TIFF, BMP or WEBP data, whatever the name; a file too large) is
    refused here, before anything is decoded or written."""
    suffix = image.suffix.lower()
    if suffix not in BOARD_SUFFIXES:
        raise GazalaError(
            f"VASSAL cannot show a {suffix or 'suffix-less'} board image", file=image,
            expected=f"a {', '.join(BOARD_SUFFIXES)} scan (convert it first)",
        )  # fmt: skip
    fmt = image_format(image)
    if fmt not in BOARD_IMAGE_FORMATS:
        raise GazalaError(f"the scan is {fmt or 'unknown'} data under a {suffix} name: VASSAL cannot show it as a board",
                          file=image, expected="PNG, JPEG or GIF data (convert it first)")
    size = image.stat().st_size
    if size > MAX_BOARD_BYTES:
        raise GazalaError(f"the scan is {size:,} bytes, more than a module's board may be", file=image,
                          expected=f"at most {MAX_BOARD_BYTES:,} bytes (a JPEG, or a lower resolution)")
    return "board." + BOARD_IMAGE_FORMATS[fmt]


def write_folder(
    folder: Path, files: dict[str, str], board: Path | bytes, board_name: str, inputs: Sequence[Path],
    more: Callable[[Path], None] | None = None,
) -> None:
    """Create ``folder`` with ``files`` and the board (a copy of the scan, or its bytes), all or nothing;
    ``more`` writes further files into the folder being assembled (the overlay)."""
    write_new_folder(folder, {**files, board_name: board}, inputs, more=more)
