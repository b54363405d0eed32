"""A log referee report (``gazala referee log --format html``) as one self-contained HTML page.

First the findings (each linked to its step), then the list of steps (each move with its path, the
phase boundaries), each finding under the step it belongs to; beside it on a wide screen (below it on
a narrow one), the board at the end of the log, the game's own art as in the position report (the
part the units and moves cover; the whole board one click away), with every move's path drawn
through hex centres (arrow at the end; red when the move has a finding). Selecting a step (a click,
or the page's ``#step-N`` anchor) highlights its path.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gazala_tools.errors import GazalaError
from gazala_tools.escape import head, text
from gazala_tools.referee.findings import Severity
from gazala_tools.referee.report import Report
from gazala_tools.render.board import board_geometry
from gazala_tools.render.boardart import ReportArt, report_art
from gazala_tools.render.replay import REPLAY_SCRIPT, REPLAY_STYLE, replay_section
from gazala_tools.render.report import BOARD_STYLE, HexPoints, _pts, hex_id, overlay, svg_overlay

if TYPE_CHECKING:  # pragma: no cover
    from gazala_tools.counters.model import Manifest
    from gazala_tools.games import Game
    from gazala_tools.grid import GameGrid
    from gazala_tools.referee.log import LogReplay
    from gazala_tools.referee.logcheck import LogReport, StepMove

__all__ = ["MOVE_BAD", "MOVE_DIRECT", "MOVE_OK", "PAGE_SCRIPT", "PAGE_STYLE", "render_log_html"]

#: the page's inline style and script (allowed by their hashes: ``escape.head``); static, never input
PAGE_STYLE = BOARD_STYLE + """
body { font-family: DejaVu Sans, sans-serif; margin: 12px; }
#summary, #notes, #steps { overflow-wrap: anywhere; }
#main { display: grid; grid-template-columns: minmax(0, 1fr); gap: 12px; }
#steps { max-height: 60vh; overflow-y: auto; font-size: 13px; padding-left: 1.2em; margin: 0; min-width: 0; }
#board-wrap { min-width: 0; }
@media (min-width: 1500px) {
  #main { grid-template-columns: minmax(24em, 34em) minmax(0, 1fr); align-items: start; }
  #steps { max-height: 92vh; }
}
#steps li.step { margin: 4px 0; list-style: none; } #steps li.step.bad > a { color: #c00; font-weight: bold; }
#steps li.phase { list-style: none; margin: 8px 0 2px -1em; font-weight: bold; border-top: 1px solid #999; }
li.finding.error { background: #fbd5d5; } li.finding.warning { background: #fde8c8; }
#steps li.selected { outline: 2px solid #1e5adc; }
polyline.move.selected { stroke-width: 9; stroke-opacity: 1; }
"""
PAGE_SCRIPT = """
function select(n) {
  document.querySelectorAll('.selected').forEach(function (x) { x.classList.remove('selected'); });
  document.querySelectorAll('[data-step="' + n + '"]').forEach(function (x) { x.classList.add('selected'); });
}
document.querySelectorAll('#steps li.step, polyline.move').forEach(function (x) {
  x.addEventListener('click', function () { select(x.dataset.step); location.hash = 'step-' + x.dataset.step; });
});
if (location.hash.indexOf('#step-') === 0) { select(location.hash.slice(6)); }
"""
MOVE_OK = "rgb(30,90,220)"
MOVE_BAD = "rgb(220,20,20)"
MOVE_DIRECT = "rgb(230,140,0)"  #: the direct route of a detour (the route assumed is drawn dashed beside it)


def _move_lines(rep: LogReport, at: HexPoints) -> str:
    bad = {(f.step, f.unit) for f in rep.findings if f.kind == "move" and f.finding.severity is Severity.ERROR}
    parts = ['<defs><marker id="arrow" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="4" markerHeight="4" '
             'orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" fill="context-stroke"/></marker></defs>']
    for m in rep.moves:
        labels = m.path or tuple(x for x in (m.from_hex, m.to_hex) if x)
        if len(labels) < 2:
            continue
        pts = [at.centre_of(lab) for lab in labels]
        colour = MOVE_BAD if (m.step, m.unit) in bad else MOVE_OK
        title = text(f"step {m.step}: {m.unit} {' '.join(labels)}")
        if m.direct:  # a detour: the direct route as dragged, and beside it the route assumed, dashed
            dpts = [at.centre_of(lab) for lab in m.direct]
            dtitle = text(f"step {m.step}: {m.unit} direct route {' '.join(m.direct)} (breaks a rule)")
            parts.append(f'<polyline class="direct" data-step="{m.step}" points="{_pts(dpts)}" fill="none" '
                         f'stroke="{MOVE_DIRECT}" stroke-width="3" stroke-opacity="0.75"><title>{dtitle}</title>'
                         "</polyline>")
        dashed = not m.path or bool(m.direct)
        parts.append(f'<polyline class="move{" detour" if m.direct else ""}" id="path-{m.step}-{text(m.unit)}" '
                     f'data-step="{m.step}" '
                     f'points="{_pts(pts)}" fill="none" stroke="{colour}" stroke-width="4" stroke-opacity="0.75" '
                     f'stroke-dasharray="{"6 4" if dashed else ""}" marker-end="url(#arrow)"><title>{title}</title>'
                     "</polyline>")
    return "".join(parts)


def _manifest(game: Game) -> Manifest | None:
    from gazala_tools.counters.loader import load_game_manifest

    try:
        return load_game_manifest(game)
    except (GazalaError, OSError):
        return None


def _where(m: StepMove) -> str:
    return f"{text(m.from_hex or m.from_box or '?')} &rarr; {text(m.to_hex or m.to_box or '?')}"


def render_log_html(rep: LogReport, replay: object, *, dpi: float | None = 50) -> str:
    """The page: step list beside the board, findings linked to their steps, moves drawn."""
    from gazala_tools.referee.log import LogReplay

    assert isinstance(replay, LogReplay)
    e = text
    game = replay.rules.game
    svg, at, art = _board(rep, replay, dpi)
    rows = _step_rows(rep, _step_items(rep, at, replay.rules.map.grid))
    summary = "".join(
        f'<li class="{f.finding.severity.value}"><a href="#step-{f.step}">step {f.step}</a> '
        f"[{e(f.finding.rule)}] {e(f.unit or 'position')}</li>" for f in rep.findings)
    verdict = "legal" if rep.legal else f"ILLEGAL ({sum(f.finding.severity is Severity.ERROR for f in rep.findings)} error(s))"
    summary = f'<ul id="summary">{summary}</ul>' if summary else ""  # empty lists are left out
    notes = "".join(f"<li>{e(n)}</li>" for n in rep.notes)
    notes = f'<ul id="notes">{notes}</ul>' if notes else ""
    replay_part = replay_section(rep, at, size=float(art.counter_px), game=game, manifest=_manifest(game),
                                 colours={s.id: s.color for s in game.sides if s.color})  # issue 35: the replay
    return head(f"Log referee: {rep.game} {rep.source}", style=PAGE_STYLE + REPLAY_STYLE,
                script=PAGE_SCRIPT + REPLAY_SCRIPT) + f"""<body>
<h1>{e(rep.game)}: {e(rep.source)} &mdash; <span id="verdict">{verdict}</span></h1>
<p id="reading">{rep.steps} steps, {len(rep.moves)} moves, {len(rep.phases)} phase(s): {e(rep.reading)}</p>
{summary}
{notes}
<div id="main"><ul id="steps">{"".join(rows)}</ul><div id="board-wrap">{svg}{replay_part}</div></div>
<script>{PAGE_SCRIPT + REPLAY_SCRIPT}</script>
</body></html>
"""


def _board(rep: LogReport, replay: LogReplay, dpi: float | None) -> tuple[str, HexPoints, ReportArt]:
    """The board at the end of the log with the findings' hexes outlined and every move drawn (an
    SVG), each hex's points and the board's art."""
    game_map = replay.rules.map
    position = rep.final if rep.final is not None else replay.position()
    game = replay.rules.game
    pos_report = Report(game=rep.game, turn=position.turn, source=rep.source,  # the findings' hexes outlined
                        findings=[f.finding for f in rep.findings],
                        side_colours={s.id: s.color for s in game.sides if s.color})
    art = report_art(game, game_map, position.units, dpi=dpi)  # the board and faces: once per report
    moved = [lab for m in rep.moves for lab in (m.path or (m.from_hex, m.to_hex)) if lab]
    at = HexPoints(game_map, board_geometry(game_map, dpi=art.dpi))  # each hex's points once
    ov = overlay(pos_report, game_map, position, dpi=art.dpi, counter_px=art.counter_px, extra_hexes=moved, points=at,
                 board_px=art.board.size)
    return svg_overlay(ov, art, _move_lines(rep, at)), at, art


def _step_items(rep: LogReport, at: HexPoints, grid: GameGrid) -> dict[int, list[str]]:
    """Each step's moves, then its findings (with their hexes linked), as list items."""
    e = text
    by_step: dict[int, list[str]] = {}
    for m in rep.moves:
        by_step.setdefault(m.step, []).append(
            f'<li class="mv"><b>{e(m.unit)}</b> {_where(m)}'
            + (f' <span class="path">via {e(" ".join(m.path))}</span>' if len(m.path) > 2 else "")
            + (f' <span class="detour">(a detour: the direct route {e(" ".join(m.direct))} breaks a rule)</span>'
               if m.direct else "") + "</li>")
    for i, f in enumerate(rep.findings):
        fd = f.finding
        who = "" if f.unit else "position after the step: " if f.kind == "step" else "position at phase end: "
        where = " ".join(f'<a class="hex" href="#{e(hex_id(grid.label(h)))}">{e(grid.label(h))}</a>'
                         for h in map(at.hex, fd.hexes) if h is not None)
        by_step.setdefault(f.step, []).append(
            f'<li class="finding {fd.severity.value}" id="f-{f.step}-{e(fd.rule)}"><a id="finding-{i}" '
            f'href="#step-{f.step}">[{e(fd.rule)}]</a> {who}{e(fd.message)}{" " + where if where else ""}</li>')
    return by_step


def _step_rows(rep: LogReport, by_step: dict[int, list[str]]) -> list[str]:
    """The step list: a row at each phase's start and one for each step with moves or findings."""
    e = text
    starts = {p.first_step: p for p in rep.phases}
    rows: list[str] = []
    for n in range(1, rep.steps + 1):
        if n in starts:
            p = starts[n]
            rows.append(f'<li class="phase">phase {p.index}{f", turn {e(p.turn)}" if p.turn else ""}: '
                        f"{e(p.started_by)}</li>")
        items = by_step.get(n)
        if not items:
            continue
        cls = "step bad" if any('finding error' in i for i in items) else "step"
        rows.append(f'<li class="{cls}" id="step-{n}" data-step="{n}"><a href="#step-{n}">step {n}</a><ul>'
                    + "".join(items) + "</ul></li>")
    return rows
