"""Referee reports as text, JSON, HTML and PNG: pure functions of a report (and map, position).

The picture is the board (:func:`gazala_tools.render.board.render_board`) with an overlay computed
once as plain shapes (:func:`overlay`): units as small counters at their hex centres, Out of Supply
(yellow ring, "O") and Isolated (red ring, "I") marks, the report's paths (LOCs, victory paths,
recovery lines: ``Report.paths``) as lines through hex centres coloured by kind, and every
finding's hexes outlined in its severity's colour. :func:`render_png` paints the overlay with
Pillow; :func:`render_html` writes one self-contained page whose SVG draws the same overlay over
the board image (hover a hex outline for its finding), followed by the findings and supply tables.
"""

from __future__ import annotations

import base64
import io
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from PIL import Image, ImageDraw

from gazala_tools.hexes import Hex
from gazala_tools.referee.findings import Severity
from gazala_tools.referee.position import Position
from gazala_tools.referee.report import Report, SupplyStatus
from gazala_tools.render.board import board_geometry, exact_center, font, hex_polygon, hex_size, render_board
from gazala_tools.render.escape import head, text

if TYPE_CHECKING:  # pragma: no cover
    from gazala_tools.mapdata.model import GameMap

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
    if report.unchecked:
        lines.append("not checked (no turn given): " + "; ".join(report.unchecked))
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


@dataclass(frozen=True)
class Counter:
    centre: tuple[float, float]
    size: float
    colour: RGB
    label: str
    mark: RGB | None
    mark_letter: str
    title: str


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
    counters: tuple[Counter, ...]
    lines: tuple[Line, ...]


def overlay(report: Report, game_map: GameMap, position: Position, *, dpi: float) -> Overlay:
    geo = board_geometry(game_map, dpi=dpi)
    size = hex_size(geo)
    grid = game_map.grid
    outlines: list[Outline] = []
    for f in report.findings:
        for label in f.hexes:
            try:
                h = grid.parse(label)
            except ValueError:
                continue
            outlines.append(Outline(tuple(hex_polygon(geo, h)), SEVERITY_COLOURS[f.severity], f"{f.rule}: {f.message}"))
    stacks: dict[Hex, int] = {}
    counters: list[Counter] = []
    colours = {side: _hex_rgb(c) for side, c in report.side_colours.items()}
    side = size * 0.42
    for u in position.units:
        if u.hex is None:
            continue
        k = stacks.get(u.hex, 0)
        stacks[u.hex] = k + 1
        cx, cy = exact_center(geo, u.hex)
        st = report.supply.get(u.id, SupplyStatus.IN)
        counters.append(Counter(
            centre=(cx + k * side * 0.3, cy + k * side * 0.3),
            size=side,
            colour=colours.get(u.side, SIDE_COLOUR),
            label=short_label(u.id),
            mark=SUPPLY_COLOURS.get(st),
            mark_letter={SupplyStatus.OUT: "O", SupplyStatus.ISOLATED: "I"}.get(st, ""),
            title=f"{u.id} ({u.side} {u.type}, {u.formation}) {grid.label(u.hex)} supply {st.value}",
        ))
    lines: list[Line] = []
    for p in report.paths:  # LOCs, victory paths, recovery lines: one polyline through hex centres each
        pts = tuple(exact_center(geo, grid.parse(lab)) for lab in p.hexes)
        if len(pts) == 1:  # a path of one hex: a short stroke so that it shows
            pts = (pts[0], (pts[0][0] + size * 0.3, pts[0][1]))
        lines.append(Line(pts, PATH_COLOURS.get(p.kind, PATH_COLOUR), p.label, p.kind))
    img_w = round(game_map.pixels.board_width * dpi / (game_map.pixels.dpi or 100))
    img_h = round(game_map.pixels.board_height * dpi / (game_map.pixels.dpi or 100))
    return Overlay(img_w, img_h, tuple(outlines), tuple(counters), tuple(lines))


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
def board_image(game_map: GameMap, *, dpi: float) -> Image.Image:
    return render_board(game_map, dpi=dpi, show_places=False).convert("RGB")


def paint(img: Image.Image, ov: Overlay) -> Image.Image:
    """Paint an overlay on a copy of ``img``."""
    out = img.copy()
    d = ImageDraw.Draw(out)
    for o in ov.outlines:
        d.polygon([tuple(map(round, p)) for p in o.points], outline=o.colour, width=4)
    for line in ov.lines:  # over the outlines: a path's hexes are often a finding's too
        d.line([tuple(map(round, p)) for p in line.points], fill=line.colour, width=5, joint="curve")
    for c in ov.counters:
        x, y, s = c.centre[0], c.centre[1], c.size
        d.rectangle([x - s / 2, y - s / 2, x + s / 2, y + s / 2], fill=c.colour, outline=(0, 0, 0))
        d.text((x, y), c.label, fill=(255, 255, 255), font=font(max(int(s / 3.2), 6)), anchor="mm")
        if c.mark is not None:
            r = s * 0.28
            mx, my = x + s / 2, y - s / 2
            d.ellipse([mx - r, my - r, mx + r, my + r], fill=c.mark, outline=(0, 0, 0))
            d.text((mx, my), c.mark_letter, fill=(0, 0, 0), font=font(max(int(r * 1.4), 6), True), anchor="mm")
    return out


def render_png(report: Report, game_map: GameMap, position: Position, *, dpi: float = 50) -> bytes:
    """The board at ``dpi`` with units, supply marks, LOC paths and finding hexes, as PNG bytes."""
    img = paint(board_image(game_map, dpi=dpi), overlay(report, game_map, position, dpi=dpi))
    buf = io.BytesIO()
    img.save(buf, format="PNG")
    return buf.getvalue()


# --- HTML --------------------------------------------------------------------------------------
#: the page's one inline style (allowed by its hash: ``render.escape.head``)
PAGE_STYLE = """
body { font-family: DejaVu Sans, sans-serif; margin: 12px; }
table { border-collapse: collapse; margin-bottom: 1em; }
td, th { border: 1px solid #999; padding: 2px 6px; font-size: 13px; }
tr.error td { background: #fbd5d5; } tr.warning td { background: #fde8c8; } tr.info td { background: #dde8fb; }
#board polygon.finding:hover { fill-opacity: 0.4; }
"""


def _rgb(c: RGB) -> str:
    return f"rgb({c[0]},{c[1]},{c[2]})"


def _pts(points: Sequence[tuple[float, float]]) -> str:
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in points)


def svg_overlay(ov: Overlay, background_png: bytes | None = None) -> str:
    e = text
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" id="board" width="{ov.width}" height="{ov.height}" '
             f'viewBox="0 0 {ov.width} {ov.height}">']
    if background_png is not None:
        data = base64.b64encode(background_png).decode("ascii")
        parts.append(f'<image href="data:image/png;base64,{data}" x="0" y="0" width="{ov.width}" height="{ov.height}"/>')
    for o in ov.outlines:
        parts.append(f'<polygon class="finding" points="{_pts(o.points)}" fill="{_rgb(o.colour)}" fill-opacity="0.12" '
                     f'stroke="{_rgb(o.colour)}" stroke-width="4"><title>{e(o.title)}</title></polygon>')
    for line in ov.lines:  # over the outlines, as in the PNG
        parts.append(f'<polyline class="path {e(line.kind)}" points="{_pts(line.points)}" fill="none" stroke="{_rgb(line.colour)}" '
                     f'stroke-width="5" stroke-linejoin="round"><title>{e(line.title)}</title></polyline>')
    for c in ov.counters:
        x, y, s = c.centre[0], c.centre[1], c.size
        parts.append(f'<g class="unit"><title>{e(c.title)}</title>'
                     f'<rect x="{x - s / 2:.1f}" y="{y - s / 2:.1f}" width="{s:.1f}" height="{s:.1f}" '
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
    parts.append("</svg>")
    return "".join(parts)


def render_html(report: Report, game_map: GameMap, position: Position, *, dpi: float = 50) -> str:
    """One self-contained HTML page: the board with the overlay (SVG), findings, supply, LOC and VP."""
    e = text
    board = io.BytesIO()
    board_image(game_map, dpi=dpi).save(board, format="PNG")
    svg = svg_overlay(overlay(report, game_map, position, dpi=dpi), board.getvalue())
    rows = "".join(
        f'<tr class="{f.severity.value}"><td>{e(f.severity.value)}</td><td>{e(f.rule)}</td>'
        f"<td>{e(' '.join(f.hexes))}</td><td>{e(', '.join(f.units))}</td><td>{e(f.message)}</td></tr>"
        for f in report.findings
    )
    supply = "".join(f"<tr><td>{e(u)}</td><td>{e(s.value)}</td></tr>" for u, s in report.supply.items())
    vp_items = "".join(f"<li>{e(x)}</li>" for x in report.vp_text or vp_sentences(report.vp))
    supply_table = ("" if report.supply_rule is None else
                    f'<h2>Supply ({e(report.supply_rule)})</h2><table id="supply"><tr><th>unit</th><th>status</th></tr>'
                    f"{supply}</table>")
    loc = ""
    for key, section in report.sections.items():  # the rules plugin's own parts (RG: the LOC)
        sentence, items = section.html_parts()
        loc += (f"<h2>{e(section.title)}</h2><p id='{e(key)}'>{e(sentence)}</p><ul>"
                + "".join(f"<li>{e(item)}</li>" for item in items) + "</ul>")
    listed = report.section_path_kinds()
    other = [p for p in report.paths if p.kind not in listed]
    if other:
        loc += ("<h2>Paths</h2><ul id='paths'>"
                + "".join(f"<li class='{e(p.kind)}'>{e(p.label)}: {e(' '.join(p.hexes))}</li>" for p in other)
                + "</ul>")
    verdict = "legal" if report.legal else f"ILLEGAL ({len(report.errors())} error(s))"
    scenario = f" &mdash; <span id=\"scenario\">{e(report.scenario)}</span>" if report.scenario else ""
    return head(" ".join(filter(None, ("Referee:", report.game, report.scenario, report.turn))), style=PAGE_STYLE) + f"""<body>
<h1>{e(report.game)}{scenario} &mdash; turn {e(report.turn or '?')}: <span id="verdict">{verdict}</span></h1>
<p id="source">checked: {e(report.source or 'a position given in memory')}</p>
{svg}
<h2>Findings</h2>
<table id="findings"><tr><th>severity</th><th>rule</th><th>hexes</th><th>units</th><th>message</th></tr>{rows}</table>
{loc}
{supply_table}
<h2>VP</h2><ul id="vp">{vp_items}</ul>
</body></html>
"""
