"""Referee reports as text, JSON, HTML and PNG: pure functions of a report (and map, position).

The picture is the game's own board (:mod:`gazala_tools.render.boardart`: the module's scan, reduced,
or the board drawn from the map data) with an overlay computed once as plain shapes (:func:`overlay`):
units as their own counter faces scaled to the hex (stacks fanned, each outlined in its side's
colour from game.yaml), Out of Supply ("O") and Isolated ("I") marks, the report's paths (LOCs,
victory paths, recovery lines: ``Report.paths``) as lines through hex centres coloured by kind, and
every finding's hexes outlined in its severity's colour (filled in its units' side colour).
:func:`render_png` paints the overlay on the whole board with Pillow; :func:`render_html` writes one
self-contained page (images as ``data:`` URIs: the page's policy allows no other image): the
findings first, each linked to its hexes on the board (``#hex-LABEL``, a marked outline), beside the
board on a wide screen; the board is the part that matters, the whole board one click away.
"""

from __future__ import annotations

import base64
import io
import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from PIL import Image, ImageDraw

from gazala_tools.escape import drawable, head, text
from gazala_tools.hexes import Hex
from gazala_tools.referee.findings import Severity
from gazala_tools.referee.position import Position, Unit
from gazala_tools.referee.report import Report, SupplyStatus
from gazala_tools.render.board import (
    board_geometry,
    board_size,
    font,
    hex_polygon,
    hex_size,
)
from gazala_tools.render.boardart import COUNTER_OF_HEX, ReportArt, report_art

if TYPE_CHECKING:  # pragma: no cover
    from gazala_tools.games.model import Game
    from gazala_tools.grid import GameGrid
    from gazala_tools.hexgrid import HexGridGeometry
    from gazala_tools.mapdata.model import GameMap

__all__ = [
    "BOARD_STYLE",
    "FOCUS_MARGIN",
    "FOCUS_MIN",
    "FOCUS_WHOLE",
    "JPEG_QUALITY",
    "LOC_COLOUR",
    "MAX_EMBED_PIXELS",
    "MAX_WHOLE_PIXELS",
    "PAGE_STYLE",
    "PATH_COLOUR",
    "PATH_COLOURS",
    "PNG_LEVEL",
    "RGB",
    "SEVERITY_COLOURS",
    "SIDE_COLOUR",
    "SUPPLY_COLOURS",
    "DrawnCounter",
    "HexPoints",
    "Line",
    "Outline",
    "Overlay",
    "data_uri",
    "hex_id",
    "overlay",
    "paint",
    "render_html",
    "render_json",
    "render_png",
    "render_text",
    "short_label",
    "svg_overlay",
    "vp_sentences",
]

RGB = tuple[int, int, int]
SEVERITY_COLOURS: dict[Severity, RGB] = {
    Severity.ERROR: (220, 20, 20),
    Severity.WARNING: (240, 140, 0),
    Severity.INFO: (30, 90, 220),
}
SIDE_COLOUR: RGB = (90, 90, 90)  #: a unit of a side without a colour in game.yaml
SUPPLY_COLOURS: dict[SupplyStatus, RGB] = {SupplyStatus.OUT: (250, 210, 0), SupplyStatus.ISOLATED: (220, 20, 20)}
LOC_COLOUR: RGB = (0, 150, 60)
#: colours of the report's paths by kind (:class:`~gazala_tools.referee.report.ReportPath`)
PATH_COLOURS: dict[str, RGB] = {"loc": LOC_COLOUR, "victory": (150, 40, 190), "recovery": (0, 150, 170)}
PATH_COLOUR: RGB = (60, 60, 60)  #: any other kind


# --- text and JSON ------------------------------------------------------------------------------
def render_json(report: Report) -> str:
    return json.dumps(report.to_dict(), indent=2, sort_keys=False) + "\n"


def render_text(report: Report) -> str:
    scenario = f"  {report.scenario}" if report.scenario else ""
    lines = [f"{report.game}{scenario}  turn {report.turn or '?'}  {report.source}".rstrip()]
    for why, rules in report.unchecked_by_reason().items():
        lines.append(f"not checked ({why}): " + "; ".join(rules))
    if report.unmatched is not None:
        lines.append(f"--mapping: {len(report.unmatched)} unit-like piece(s) matched no pattern"
                     + (f": {', '.join(report.unmatched)}" if report.unmatched else ""))
    errors = len(report.errors())
    lines.append("position: legal" if errors == 0 else f"position: ILLEGAL ({errors} error(s))")
    for f in report.findings:
        where = f" [{' '.join(f.hexes)}]" if f.hexes else ""
        lines.append(f"  {f.severity.value:7} {f.rule:5} {f.message}{where}")
    if report.supply_rule is not None:  # a game without a supply rule prints no supply line
        counts = {s: sum(1 for v in report.supply.values() if v is s) for s in SupplyStatus}
        lines.append("supply: " + ", ".join(f"{counts[s]} {s.value}" for s in SupplyStatus))
        for uid, st in report.supply.items():
            if st is not SupplyStatus.IN:
                lines.append(f"  {st.value:8} {uid}")
    for section in report.sections.values():  # the rules plugin's own parts (RG: the LOC)
        lines.extend(section.text_lines())
    listed = report.section_path_kinds()
    for path in report.paths:
        if path.kind not in listed:
            lines.append(f"{path.kind}: {path.label}: {' '.join(path.hexes)}")
    if report.vp:
        lines.append("VP:")
        lines.extend(f"  {sentence}" for sentence in report.vp_text or vp_sentences(report.vp))
    return "\n".join(lines) + "\n"


def vp_sentences(vp: Mapping[str, object], prefix: str = "") -> list[str]:
    """One sentence per VP item of a report (``Report.vp``, any game): nested items are named by
    their path (``victory, paths, axis: found yes, hexes 0608 0607 ...``)."""
    out: list[str] = []
    for key, value in vp.items():
        name = f"{prefix}{str(key).replace('_', ' ')}"
        if isinstance(value, Mapping) and any(isinstance(v, Mapping) for v in value.values()):
            out.extend(vp_sentences(value, f"{name}, "))
        elif isinstance(value, Mapping):
            out.append(f"{name}: " + (", ".join(f"{str(k).replace('_', ' ')} {_vp_value(v)}" for k, v in value.items())
                                      or "none") + ".")
        else:
            out.append(f"{name}: {_vp_value(value)}.")
    return out


def _vp_value(value: object) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list | tuple):
        return " ".join(map(str, value)) if value else "none"
    return str(value)


# --- overlay -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Outline:
    points: tuple[tuple[float, float], ...]
    colour: RGB
    title: str
    hex: str = ""  #: the hex's label (its anchor on the page: ``#hex-LABEL``)
    finding: int = 0  #: the finding's index in the report (its row: ``#finding-N``)
    fill: RGB | None = None  #: the side colour of the finding's units (None: the severity colour)


@dataclass(frozen=True)
class DrawnCounter:
    centre: tuple[float, float]
    size: float
    colour: RGB  #: the side's colour (game.yaml), the counter's outline
    label: str
    mark: RGB | None
    mark_letter: str
    title: str
    unit: str = ""  #: the unit's id (its face: ``ReportArt.faces``)
    flagged: bool = False  #: named by a finding: highlighted in its side's colour


@dataclass(frozen=True)
class Line:
    points: tuple[tuple[float, float], ...]
    colour: RGB
    title: str
    kind: str = "loc"


@dataclass(frozen=True)
class Overlay:
    width: int
    height: int
    outlines: tuple[Outline, ...]
    counters: tuple[DrawnCounter, ...]
    lines: tuple[Line, ...]
    #: the part of the board that matters (units, findings, paths, with a margin): x0, y0, x1, y1
    focus: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)


#: the margin of the board's shown part around what matters, in hexes
FOCUS_MARGIN = 1.5
#: the shown part of the board is at least this many hexes wide and high (some context around one unit)
FOCUS_MIN = 8
#: a part of the board larger than this fraction of it: the whole board is shown
FOCUS_WHOLE = 0.6


class HexPoints:
    """The hexes of labels, their outlines and centres at one geometry: each worked out once per report
    (a log's moves and findings name the same hexes hundreds of times)."""

    def __init__(self, game_map: GameMap, geo: HexGridGeometry) -> None:
        self.grid, self.geo = game_map.grid, geo
        self._hexes: dict[str, Hex | None] = {}
        self._polygons: dict[Hex, tuple[tuple[float, float], ...]] = {}

    def hex(self, label: str) -> Hex | None:
        """The hex of ``label``; None for a label of no hex of the grid."""
        if label not in self._hexes:
            try:
                self._hexes[label] = self.grid.parse(label)
            except ValueError:
                self._hexes[label] = None
        return self._hexes[label]

    def polygon(self, h: Hex) -> tuple[tuple[float, float], ...]:
        if h not in self._polygons:
            self._polygons[h] = tuple(hex_polygon(self.geo, h))
        return self._polygons[h]

    def centre(self, h: Hex) -> tuple[float, float]:
        """As :func:`~gazala_tools.render.board.exact_center`: the mean of the corners."""
        corners = self.polygon(h)
        return (sum(p[0] for p in corners) / 6.0, sum(p[1] for p in corners) / 6.0)

    def centre_of(self, label: str) -> tuple[float, float]:
        h = self.hex(label)
        if h is None:
            raise ValueError(f"no hex {label!r}")
        return self.centre(h)


def overlay(report: Report, game_map: GameMap, position: Position, *, dpi: float,
            counter_px: float | None = None, extra_hexes: Sequence[str] = (), points: HexPoints | None = None,
            board_px: tuple[int, int] | None = None) -> Overlay:
    """The report's marks at ``dpi`` on a board image of ``board_px`` pixels (default: the board drawn from
    the map at ``dpi``): finding outlines, counters (fanned in stacks), paths.
    ``counter_px``: the counters' side (default: :data:`~gazala_tools.render.boardart.COUNTER_OF_HEX`
    of the hex); ``extra_hexes``: more hexes the shown part of the board must hold (a log's moves);
    ``points``: the hexes' points at ``dpi``, shared with the caller."""
    geo = board_geometry(game_map, dpi=dpi) if points is None else points.geo
    at = points or HexPoints(game_map, geo)
    size = hex_size(geo)
    grid = game_map.grid
    colours = {side: _hex_rgb(c) for side, c in report.side_colours.items()}
    focus: list[Hex] = []
    outlines, flagged = _finding_outlines(report, position, at, grid, colours, focus)
    side = float(counter_px) if counter_px else max(8.0, round(size * COUNTER_OF_HEX))
    counters = _drawn_counters(report, position, at, grid, colours, side, flagged, focus)
    lines = _path_lines(report, at, grid, size, focus)
    focus.extend(h for h in map(at.hex, set(extra_hexes)) if h is not None)
    img_w, img_h = board_px or board_size(game_map, dpi=dpi)  # the drawn board's size: it follows the grid
    return Overlay(img_w, img_h, tuple(outlines), tuple(counters), tuple(lines),
                   _focus(at, set(focus), size, img_w, img_h))


def _finding_outlines(report: Report, position: Position, at: HexPoints, grid: GameGrid, colours: Mapping[str, RGB],
                      focus: list[Hex]) -> tuple[list[Outline], set[str]]:
    """Each finding's hexes outlined in its severity's colour (filled in its units' side colour when they
    are of one side), and the units the findings name; the hexes added to ``focus``."""
    sides = {u.id: u.side for u in position.units}
    outlines: list[Outline] = []
    flagged: set[str] = set()
    for i, f in enumerate(report.findings):
        flagged.update(f.units)
        unit_sides = {sides[u] for u in f.units if u in sides}
        fill = colours.get(next(iter(unit_sides))) if len(unit_sides) == 1 else None
        for label in f.hexes:
            h = at.hex(label)
            if h is None:
                continue
            focus.append(h)
            outlines.append(Outline(at.polygon(h), SEVERITY_COLOURS[f.severity], f"{f.rule}: {f.message}",
                                    grid.label(h), i, fill))
    return outlines, flagged


def _drawn_counters(report: Report, position: Position, at: HexPoints, grid: GameGrid, colours: Mapping[str, RGB],
                    side: float, flagged: set[str], focus: list[Hex]) -> list[DrawnCounter]:
    """The units on the board as counters of ``side`` pixels, each stack fanned; their hexes added to
    ``focus``."""
    stacks: dict[Hex, list[Unit]] = {}
    for u in position.units:
        if u.hex is not None:
            stacks.setdefault(u.hex, []).append(u)
    counters: list[DrawnCounter] = []
    for h, stack in stacks.items():
        focus.append(h)
        cx, cy = at.centre(h)
        n = len(stack)
        step = 0.0 if n < 2 else min(side * 0.22, side * 0.6 / (n - 1))  # fanned: a strip of each shows
        for k, unit in enumerate(stack):
            off = (k - (n - 1) / 2) * step
            st = report.supply.get(unit.id, SupplyStatus.IN)
            counters.append(DrawnCounter(
                centre=(cx + off, cy - off),
                size=side,
                colour=colours.get(unit.side, SIDE_COLOUR),
                label=short_label(unit.id),
                mark=SUPPLY_COLOURS.get(st),
                mark_letter={SupplyStatus.OUT: "O", SupplyStatus.ISOLATED: "I"}.get(st, ""),
                title=f"{unit.id} ({unit.side} {unit.type}, {unit.formation}) {grid.label(h)} supply {st.value}",
                unit=unit.id,
                flagged=unit.id in flagged,
            ))
    return counters


def _path_lines(report: Report, at: HexPoints, grid: GameGrid, size: float, focus: list[Hex]) -> list[Line]:
    """The report's paths (LOCs, victory paths, recovery lines): one polyline through hex centres each;
    their hexes added to ``focus``."""
    lines: list[Line] = []
    for p in report.paths:
        hexes = [grid.parse(lab) for lab in p.hexes]
        focus.extend(hexes)
        pts = tuple(at.centre(h) for h in hexes)
        if len(pts) == 1:  # a path of one hex: a short stroke so that it shows
            pts = (pts[0], (pts[0][0] + size * 0.3, pts[0][1]))
        lines.append(Line(pts, PATH_COLOURS.get(p.kind, PATH_COLOUR), p.label, p.kind))
    return lines


def _focus(at: HexPoints, hexes: set[Hex], size: float, w: int, h: int) -> tuple[float, float, float, float]:
    """The part of the board that holds ``hexes`` (and a margin); the whole board when that part is
    most of it, or when there is nothing to show."""
    whole = (0.0, 0.0, float(w), float(h))
    if not hexes:
        return whole
    corners = [p for hx in hexes for p in at.polygon(hx)]
    x0, y0 = min(p[0] for p in corners), min(p[1] for p in corners)
    x1, y1 = max(p[0] for p in corners), max(p[1] for p in corners)
    m = size * FOCUS_MARGIN
    grow_x, grow_y = (max(0.0, (FOCUS_MIN * size - (b - a)) / 2) for a, b in ((x0, x1), (y0, y1)))
    x0, x1, y0, y1 = x0 - grow_x, x1 + grow_x, y0 - grow_y, y1 + grow_y  # at least FOCUS_MIN hexes each way
    box = (max(0.0, x0 - m), max(0.0, y0 - m), min(float(w), x1 + m), min(float(h), y1 + m))
    if box[2] <= box[0] or box[3] <= box[1] or (box[2] - box[0]) * (box[3] - box[1]) > FOCUS_WHOLE * w * h:
        return whole
    return (float(math.floor(box[0])), float(math.floor(box[1])), float(math.ceil(box[2])), float(math.ceil(box[3])))


def _hex_rgb(colour: str) -> RGB:
    """``#rrggbb`` (game.yaml's side colours) as RGB; anything else is the default grey."""
    c = colour.lstrip("#")
    try:
        return (int(c[0:2], 16), int(c[2:4], 16), int(c[4:6], 16)) if len(c) == 6 else SIDE_COLOUR
    except ValueError:
        return SIDE_COLOUR


def short_label(unit_id: str) -> str:
    """The last two parts of a unit id (``axis-21pz-5-1`` -> ``5-1``), at most 6 characters."""
    parts = unit_id.split("-")
    return "-".join(parts[-2:])[:6] if len(parts) > 2 else unit_id[:6]


# --- PNG ---------------------------------------------------------------------------------------
def paint(img: Image.Image, ov: Overlay, faces: Mapping[str, Image.Image] | None = None) -> Image.Image:
    """Paint an overlay on a copy of ``img`` (units with a face in ``faces`` drawn with it)."""
    out = img.copy()
    d = ImageDraw.Draw(out)
    for line in ov.lines:
        d.line([tuple(map(round, p)) for p in line.points], fill=line.colour, width=5, joint="curve")
    for c in ov.counters:
        x, y, s = c.centre[0], c.centre[1], c.size
        box = (round(x - s / 2), round(y - s / 2), round(x - s / 2) + round(s) - 1, round(y - s / 2) + round(s) - 1)
        face = (faces or {}).get(c.unit)
        if c.flagged:
            d.rectangle([box[0] - 3, box[1] - 3, box[2] + 3, box[3] + 3], outline=c.colour, width=3)
        if face is not None:
            out.paste(face.resize((box[2] - box[0] + 1, box[3] - box[1] + 1)) if face.width != round(s) else face,
                      box[:2])
            d.rectangle(box, outline=c.colour, width=max(1, round(s / 16)))
        else:
            d.rectangle(box, fill=c.colour, outline=(0, 0, 0))
            d.text((x, y), drawable(c.label), fill=(255, 255, 255), font=font(max(int(s / 3.2), 6)), anchor="mm")
        if c.mark is not None:
            r = s * 0.28
            mx, my = x + s / 2, y - s / 2
            d.ellipse([mx - r, my - r, mx + r, my + r], fill=c.mark, outline=(0, 0, 0))
            d.text((mx, my), c.mark_letter, fill=(0, 0, 0), font=font(max(int(r * 1.4), 6), True), anchor="mm")
    for o in ov.outlines:  # over the units: a stack fills most of its hex
        d.polygon([tuple(map(round, p)) for p in o.points], outline=o.colour, width=4)
    return out


def render_png(report: Report, game_map: GameMap, position: Position, *, dpi: float | None = 50,
               game: Game | None = None) -> bytes:
    """The whole board (the game's own art: ``game``'s scan or drawn board) at ``dpi`` with the
    units' faces, supply marks, paths and finding hexes, as PNG bytes."""
    art = report_art(game, game_map, position.units, dpi=dpi)
    img = paint(art.board, overlay(report, game_map, position, dpi=art.dpi, counter_px=art.counter_px, board_px=art.board.size), art.faces)
    buf = io.BytesIO()
    img.save(buf, format="PNG")
    return buf.getvalue()


# --- HTML --------------------------------------------------------------------------------------
#: the report pages' board style (shared by the log report): the board never wider than the page
BOARD_STYLE = """
svg.board { display: block; max-width: 100%; height: auto; }
svg.board g.finding:target polygon { stroke-width: 8; }
svg.board g.finding circle.marker { display: none; }
svg.board g.finding:target circle.marker { display: inline; }
svg.board g.finding:hover polygon { stroke-width: 7; }
details#whole-board summary { cursor: pointer; color: #1e5adc; }
"""
#: the page's one inline style (allowed by its hash: ``escape.head``)
PAGE_STYLE = BOARD_STYLE + """
body { font-family: DejaVu Sans, sans-serif; margin: 12px; }
table { border-collapse: collapse; margin-bottom: 1em; max-width: 100%; }
td, th { border: 1px solid #999; padding: 2px 6px; font-size: 13px; }
td:last-child { overflow-wrap: anywhere; } #findings { width: 100%; }
tr.error td { background: #fbd5d5; } tr.warning td { background: #fde8c8; } tr.info td { background: #dde8fb; }
tr.finding:target td { outline: 2px solid #1e5adc; }
#layout { display: grid; grid-template-columns: minmax(0, 1fr); grid-template-areas: "findings" "board" "more"; gap: 0 16px; }
#findings-part { grid-area: findings; min-width: 0; } #board-part { grid-area: board; min-width: 0; }
#more { grid-area: more; min-width: 0; }
@media (min-width: 1500px) {
  #layout { grid-template-columns: minmax(24em, 36em) minmax(0, 1fr); grid-template-rows: auto 1fr;
            grid-template-areas: "findings board" "more board"; align-items: start; }
}
"""
#: largest embedded board part (pixels; larger parts are embedded scaled down, drawn at their size)
MAX_EMBED_PIXELS = 6_000_000
#: largest embedded whole board (pixels)
MAX_WHOLE_PIXELS = 1_500_000
JPEG_QUALITY = 82
#: zlib level of embedded PNGs (drawn art: 3 is about twice as fast as the default 6, a few % larger)
PNG_LEVEL = 3


def _rgb(c: RGB) -> str:
    return f"rgb({c[0]},{c[1]},{c[2]})"


def _pts(points: Sequence[tuple[float, float]]) -> str:
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in points)


def data_uri(img: Image.Image, *, photo: bool, max_pixels: int) -> str:
    """``img`` as a ``data:`` URI of at most ``max_pixels`` pixels: JPEG for a scan, PNG for drawn art."""
    if img.width * img.height > max_pixels:
        f = math.sqrt(max_pixels / (img.width * img.height))
        img = img.resize((max(1, int(img.width * f)), max(1, int(img.height * f))), Image.Resampling.BOX)
    buf = io.BytesIO()
    if photo:
        img.save(buf, format="JPEG", quality=JPEG_QUALITY)
    else:
        img.save(buf, format="PNG", compress_level=PNG_LEVEL)
    mime = "image/jpeg" if photo else "image/png"
    return f"data:{mime};base64,{base64.b64encode(buf.getvalue()).decode('ascii')}"


def hex_id(label: str) -> str:
    """The page anchor of a hex of the board (``#hex-0405``)."""
    return "hex-" + "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in label)


def svg_overlay(ov: Overlay, art: ReportArt | None = None, extra: str = "") -> str:
    """The board part of the page: the shown part of the board (``ov.focus``) as an SVG in the
    overlay's coordinates, with the finding hexes (anchors ``#hex-LABEL``, each a link to its
    finding's row), the paths, the units (their faces) and ``extra`` (more SVG: a log's moves)."""
    e = text
    x0, y0, x1, y1 = ov.focus if ov.focus[2] > ov.focus[0] else (0.0, 0.0, float(ov.width), float(ov.height))
    w, h = x1 - x0, y1 - y0
    dpi = f' data-dpi="{art.dpi:.6g}"' if art is not None else ""  # the board's resolution (pixels an inch)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" id="board" class="board" width="{w:.0f}" height="{h:.0f}" '
             f'viewBox="{x0:.0f} {y0:.0f} {w:.0f} {h:.0f}"{dpi}>']
    if art is not None:
        part = art.board.crop((round(x0), round(y0), round(x1), round(y1)))
        parts.append(f'<image class="board-art" href="{data_uri(part, photo=art.photo, max_pixels=MAX_EMBED_PIXELS)}" '
                     f'x="{x0:.0f}" y="{y0:.0f}" width="{w:.0f}" height="{h:.0f}" preserveAspectRatio="none"/>')
    faces, defs = _svg_faces(ov, art)
    if defs:
        parts.append(defs)
    by_hex: dict[str, list[Outline]] = {}
    for o in ov.outlines:
        by_hex.setdefault(o.hex, []).append(o)
    for outs in by_hex.values():  # a finding's hex tinted under the units (its units' side colour)
        o = outs[0]
        parts.append(f'<polygon class="finding-fill" points="{_pts(o.points)}" fill="{_rgb(o.fill or o.colour)}" '
                     'fill-opacity="0.22" stroke="none"/>')
    for line in ov.lines:  # over the tints, under the units (as in the PNG)
        parts.append(f'<polyline class="path {e(line.kind)}" points="{_pts(line.points)}" fill="none" stroke="{_rgb(line.colour)}" '
                     f'stroke-width="5" stroke-linejoin="round"><title>{e(line.title)}</title></polyline>')
    for c in ov.counters:
        parts.extend(_svg_counter(c, faces))
    for label, outs in by_hex.items():  # over the units: one anchor per hex, a link to its (first) finding's row
        parts.append(_svg_finding(label, outs))
    parts.append(extra)
    parts.append("</svg>")
    whole = ""
    if art is not None and (w, h) != (ov.width, ov.height):  # a part shown: the whole board one click away
        whole = _whole_board(ov, art, (x0, y0, w, h))
    return "".join(parts) + whole


def _svg_faces(ov: Overlay, art: ReportArt | None) -> tuple[dict[str, str], str]:
    """The id of each unit's face, and the ``<defs>`` defining each face's image once ("": none)."""
    faces: dict[str, str] = {}
    defs = []
    if art is not None:
        for c in ov.counters:
            face = art.faces.get(c.unit)
            if face is not None and c.unit not in faces:
                faces[c.unit] = f"face-{len(faces)}"
                defs.append(f'<image id="{faces[c.unit]}" width="{c.size:.1f}" height="{c.size:.1f}" '
                            f'href="{data_uri(face, photo=False, max_pixels=face.width * face.height)}"/>')
    return faces, ("<defs>" + "".join(defs) + "</defs>" if defs else "")


def _svg_counter(c: DrawnCounter, faces: Mapping[str, str]) -> list[str]:
    """A unit's counter: its face (or a square with its label), its side's outline, its supply mark."""
    e = text
    x, y, s = c.centre[0], c.centre[1], c.size
    parts = [f'<g class="unit" data-unit="{e(c.unit)}"><title>{e(c.title)}</title>']
    if c.flagged:
        parts.append(f'<rect class="flag" x="{x - s / 2 - 3:.1f}" y="{y - s / 2 - 3:.1f}" width="{s + 6:.1f}" '
                     f'height="{s + 6:.1f}" fill="none" stroke="{_rgb(c.colour)}" stroke-width="3"/>')
    if c.unit in faces:
        parts.append(f'<use href="#{faces[c.unit]}" x="{x - s / 2:.1f}" y="{y - s / 2:.1f}"/>'
                     f'<rect x="{x - s / 2:.1f}" y="{y - s / 2:.1f}" width="{s:.1f}" height="{s:.1f}" fill="none" '
                     f'stroke="{_rgb(c.colour)}" stroke-width="{max(1.0, s / 16):.1f}"/>')
    else:
        parts.append(f'<rect x="{x - s / 2:.1f}" y="{y - s / 2:.1f}" width="{s:.1f}" height="{s:.1f}" '
                     f'fill="{_rgb(c.colour)}" stroke="black"/>'
                     f'<text x="{x:.1f}" y="{y:.1f}" font-size="{s / 3.2:.1f}" fill="white" text-anchor="middle" '
                     f'dominant-baseline="middle" font-family="DejaVu Sans, sans-serif">{e(c.label)}</text>')
    if c.mark is not None:
        r = s * 0.28
        parts.append(f'<circle class="supply-{e(c.mark_letter)}" cx="{x + s / 2:.1f}" cy="{y - s / 2:.1f}" '
                     f'r="{r:.1f}" fill="{_rgb(c.mark)}" stroke="black"/>'
                     f'<text x="{x + s / 2:.1f}" y="{y - s / 2:.1f}" font-size="{r * 1.4:.1f}" font-weight="bold" '
                     f'text-anchor="middle" dominant-baseline="middle">{e(c.mark_letter)}</text>')
    parts.append("</g>")
    return parts


def _svg_finding(label: str, outs: Sequence[Outline]) -> str:
    """A finding hex's anchor (``#hex-LABEL``): its outline, a link to its (first) finding's row, with
    every finding's title, and the marker shown when it is the page's target."""
    e = text
    o = outs[0]
    cx = sum(p[0] for p in o.points) / len(o.points)
    cy = sum(p[1] for p in o.points) / len(o.points)
    r = max(math.dist(o.points[0], (cx, cy)), 4.0)
    titles = "\n".join(x.title for x in outs)
    return (f'<g class="finding" id="{e(hex_id(label))}"><a href="#finding-{o.finding}">'
            f'<polygon class="finding" points="{_pts(o.points)}" fill="none" stroke="{_rgb(o.colour)}" '
            f'stroke-width="4"><title>{e(titles)}</title></polygon><circle class="marker" cx="{cx:.1f}" '
            f'cy="{cy:.1f}" r="{r * 1.35:.1f}" fill="none" stroke="{_rgb(o.colour)}" stroke-width="5" '
            'stroke-dasharray="8 5"/></a></g>')


def _whole_board(ov: Overlay, art: ReportArt, shown: tuple[float, float, float, float]) -> str:
    """The whole board, folded away, with the part shown (``x0, y0, w, h``) outlined."""
    x0, y0, w, h = shown
    uri = data_uri(art.board, photo=art.photo, max_pixels=MAX_WHOLE_PIXELS)
    return (f'<details id="whole-board"><summary>the whole board ({ov.width} x {ov.height} px; the part above '
            f'is outlined)</summary><svg xmlns="http://www.w3.org/2000/svg" class="board" width="{ov.width}" '
            f'height="{ov.height}" viewBox="0 0 {ov.width} {ov.height}"><image href="{uri}" x="0" y="0" '
            f'width="{ov.width}" height="{ov.height}" preserveAspectRatio="none"/><rect x="{x0:.0f}" y="{y0:.0f}" '
            f'width="{w:.0f}" height="{h:.0f}" fill="none" stroke="rgb(30,90,220)" stroke-width="6"/></svg>'
            "</details>")


def render_html(report: Report, game_map: GameMap, position: Position, *, dpi: float | None = 50,
                game: Game | None = None) -> str:
    """One self-contained HTML page: the verdict and findings first (each linked to its hexes on the
    board), the board (``game``'s own art, the part that matters; the whole board one click away),
    then the rules' sections, supply and VP; sections with nothing to say are left out."""
    e = text
    art = report_art(game, game_map, position.units, dpi=dpi)
    svg = svg_overlay(overlay(report, game_map, position, dpi=art.dpi, counter_px=art.counter_px, board_px=art.board.size), art)
    findings = _findings_html(report, game_map.grid)
    supply = "".join(f"<tr><td>{e(u)}</td><td>{e(s.value)}</td></tr>" for u, s in report.supply.items())
    vp_items = "".join(f"<li>{e(x)}</li>" for x in report.vp_text or vp_sentences(report.vp))
    supply_table = ("" if report.supply_rule is None or not supply else
                    f'<h2>Supply ({e(report.supply_rule)})</h2><table id="supply"><tr><th>unit</th><th>status</th></tr>'
                    f"{supply}</table>")
    loc = _sections_html(report)
    vp = f'<h2>VP</h2><ul id="vp">{vp_items}</ul>' if vp_items else ""
    verdict = "legal" if report.legal else f"ILLEGAL ({len(report.errors())} error(s))"
    scenario = f" &mdash; <span id=\"scenario\">{e(report.scenario)}</span>" if report.scenario else ""
    return head(" ".join(filter(None, ("Referee:", report.game, report.scenario, report.turn))), style=PAGE_STYLE) + f"""<body>
<h1>{e(report.game)}{scenario} &mdash; turn {e(report.turn or '?')}: <span id="verdict">{verdict}</span></h1>
<p id="source">checked: {e(report.source or 'a position given in memory')}</p>
<div id="layout">
<div id="findings-part"><h2>Findings</h2>
{findings}</div>
<div id="board-part">{svg}</div>
<div id="more">{loc}
{supply_table}
{vp}</div>
</div>
</body></html>
"""


def _findings_html(report: Report, grid: GameGrid) -> str:
    """The findings table (each row ``#finding-N``, its hexes linked to the board's ``#hex-LABEL``), or
    a line saying there are none."""
    e = text

    def hex_link(label: str) -> str:
        try:
            anchor = hex_id(grid.label(grid.parse(label)))
        except ValueError:
            return e(label)
        return f'<a href="#{e(anchor)}">{e(label)}</a>'

    rows = "".join(
        f'<tr class="{f.severity.value} finding" id="finding-{i}"><td>{e(f.severity.value)}</td><td>{e(f.rule)}</td>'
        f"<td>{' '.join(hex_link(h) for h in f.hexes)}</td><td>{e(', '.join(f.units))}</td><td>{e(f.message)}</td></tr>"
        for i, f in enumerate(report.findings)
    )
    return ('<table id="findings"><tr><th>severity</th><th>rule</th><th>hexes</th><th>units</th><th>message</th></tr>'
            f"{rows}</table>" if rows else '<p id="findings">No findings.</p>')


def _sections_html(report: Report) -> str:
    """The rules plugin's own parts (RG: the LOC), the other paths and what was not checked."""
    e = text
    loc = ""
    for key, section in report.sections.items():  # the rules plugin's own parts (RG: the LOC)
        sentence, items = section.html_parts()
        loc += (f"<h2>{e(section.title)}</h2><p id='{e(key)}'>{e(sentence)}</p>"
                + ("<ul>" + "".join(f"<li>{e(item)}</li>" for item in items) + "</ul>" if items else ""))
    listed = report.section_path_kinds()
    other = [p for p in report.paths if p.kind not in listed]
    if other:
        loc += ("<h2>Paths</h2><ul id='paths'>"
                + "".join(f"<li class='{e(p.kind)}'>{e(p.label)}: {e(' '.join(p.hexes))}</li>" for p in other)
                + "</ul>")
    if report.unchecked:
        loc += ("<h2>Not checked</h2><ul id='unchecked'>"
                + "".join(f"<li>{e(u)}</li>" for u in report.unchecked_reasons()) + "</ul>")
    return loc
