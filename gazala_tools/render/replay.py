"""A step-through replay of a log on the game's own board (issue 35 item 4), part of the log report page.

``gazala referee log --format html`` puts the replay at the top of the page, on the report's board (the
game's own art, the part the units and moves cover): previous / next buttons, a slider, the keys
Left / Right (a step), Home / End, Space (play), and the pieces moving hex by hex along each move's path
as the step is taken, each step's findings listed beside the board and outlined on it. The pieces are the
units' own faces (a built-in or own game's counters, an imported module's own piece images).

Everything the script needs is one JSON document, the text of a hidden element (escaped as every text of the
page, :func:`~gazala_tools.escape.text`: read back with ``textContent``, never run, never markup), so the
page keeps one script, static code allowed by its hash; the script writes text with
``textContent`` only and SVG through ``createElementNS``/``setAttribute``, so no name from a log can become
markup. The page's one script is allowed by its hash (the Content-Security-Policy of every report).

Data: ``centres`` (label -> board point), ``polys`` (label -> outline) for the hexes findings name, ``units``
(id -> side colour, face id, start and end), ``steps`` (per step: the moves as [unit, path labels] and the
findings' indices), ``findings`` (step, rule, severity, text, hexes). Positions are computed in the page from
the start by applying each step's moves, so a step is drawn the same way whichever way it was reached.
``#replay-selftest`` makes the page step through every step at load and write the result into
``#replay-result`` (the browser test reads it with ``--dump-dom``); any CSP violation is written there too.
"""

from __future__ import annotations

import json
import warnings
from typing import TYPE_CHECKING, Any

from PIL import Image

from gazala_tools.errors import GazalaError
from gazala_tools.escape import text
from gazala_tools.render.report import HexPoints, _pts, data_uri

__all__ = ["REPLAY_SCRIPT", "REPLAY_STYLE", "replay_data", "replay_section"]

if TYPE_CHECKING:  # pragma: no cover
    from gazala_tools.counters.model import Manifest
    from gazala_tools.games import Game
    from gazala_tools.referee.logcheck import LogReport
    from gazala_tools.referee.position import Unit

REPLAY_STYLE = """
#replay { border: 1px solid #999; padding: 6px; margin-bottom: 12px; }
#replay-controls { display: flex; gap: 8px; align-items: center; flex-wrap: wrap; }
#replay-controls input[type=range] { flex: 1 1 20em; }
#replay-steptext { font-weight: bold; min-width: 8em; }
#replay-findings { font-size: 13px; margin: 4px 0; padding-left: 1.2em; min-height: 1.5em; overflow-wrap: anywhere; }
#replay-findings li.error { color: #c00; } #replay-findings li.warning { color: #a60; }
svg.board.replaying g.unit { display: none; }
svg.board g.rp-piece { cursor: default; }
svg.board polygon.rp-finding { fill: none; stroke-width: 5; }
"""

REPLAY_SCRIPT = r"""
(function () {
  var dataEl = document.getElementById('replay-data');
  var board = document.getElementById('board');
  if (!dataEl || !board) { return; }
  var D = JSON.parse(dataEl.textContent);
  var NS = 'http://www.w3.org/2000/svg';
  var slider = document.getElementById('replay-slider');
  var stepText = document.getElementById('replay-steptext');
  var list = document.getElementById('replay-findings');
  var result = document.getElementById('replay-result');
  var layer = document.createElementNS(NS, 'g');
  layer.setAttribute('id', 'replay-layer');
  board.appendChild(layer);
  var marks = document.createElementNS(NS, 'g');
  layer.appendChild(marks);
  var pieces = {};
  var size = D.size;
  Object.keys(D.units).forEach(function (id) {
    var u = D.units[id];
    var g = document.createElementNS(NS, 'g');
    g.setAttribute('class', 'rp-piece');
    g.setAttribute('data-unit', id);
    var t = document.createElementNS(NS, 'title');
    t.textContent = id;
    g.appendChild(t);
    if (u.face) {
      var use = document.createElementNS(NS, 'image');
      use.setAttribute('href', D.faces[u.face]);
      use.setAttribute('x', -size / 2); use.setAttribute('y', -size / 2);
      use.setAttribute('width', size); use.setAttribute('height', size);
      g.appendChild(use);
    } else {
      var lab = document.createElementNS(NS, 'text');
      lab.setAttribute('text-anchor', 'middle'); lab.setAttribute('dominant-baseline', 'middle');
      lab.setAttribute('font-size', size / 3.2); lab.setAttribute('fill', 'white');
      lab.textContent = u.label;
      var box = document.createElementNS(NS, 'rect');
      box.setAttribute('x', -size / 2); box.setAttribute('y', -size / 2);
      box.setAttribute('width', size); box.setAttribute('height', size); box.setAttribute('fill', u.colour);
      g.appendChild(box); g.appendChild(lab);
    }
    var edge = document.createElementNS(NS, 'rect');
    edge.setAttribute('x', -size / 2); edge.setAttribute('y', -size / 2);
    edge.setAttribute('width', size); edge.setAttribute('height', size);
    edge.setAttribute('fill', 'none'); edge.setAttribute('stroke', u.colour);
    edge.setAttribute('stroke-width', Math.max(1, size / 16));
    g.appendChild(edge);
    layer.appendChild(g);
    pieces[id] = g;
  });
  var cache = [];
  function positionAt(n) {  // where each unit stands after step n (0: the log's start)
    if (cache[n]) { return cache[n]; }
    var pos = n === 0 ? Object.assign({}, D.start) : Object.assign({}, positionAt(n - 1));
    if (n > 0) {
      (D.steps[n - 1].moves || []).forEach(function (m) { pos[m[0]] = m[1][m[1].length - 1]; });
    }
    cache[n] = pos;
    return pos;
  }
  function spots(pos) {  // each unit's point: stacks fanned as on the report's board
    var byHex = {}, out = {};
    Object.keys(pos).sort().forEach(function (id) {
      var at = pos[id];
      if (at !== null && D.centres[at]) { (byHex[at] = byHex[at] || []).push(id); }
    });
    Object.keys(byHex).forEach(function (lab) {
      var ids = byHex[lab], n = ids.length, c = D.centres[lab];
      var step = n < 2 ? 0 : Math.min(size * 0.22, size * 0.6 / (n - 1));
      ids.forEach(function (id, k) { var off = (k - (n - 1) / 2) * step; out[id] = [c[0] + off, c[1] - off]; });
    });
    return out;
  }
  function place(id, xy) {
    var g = pieces[id];
    if (!g) { return; }
    if (xy) {
      g.setAttribute('transform', 'translate(' + xy[0].toFixed(1) + ',' + xy[1].toFixed(1) + ')');
      g.setAttribute('visibility', 'visible');
    } else {
      g.setAttribute('visibility', 'hidden');
    }
  }
  var current = -1, anim = null, playing = null;
  function findingsOf(n) { return n > 0 ? (D.steps[n - 1].findings || []) : []; }
  function draw(n) {
    if (anim) { cancelAnimationFrame(anim); anim = null; }
    current = n;
    var at = spots(positionAt(n));
    Object.keys(pieces).forEach(function (id) { place(id, at[id] || null); });
    while (marks.firstChild) { marks.removeChild(marks.firstChild); }
    while (list.firstChild) { list.removeChild(list.firstChild); }
    findingsOf(n).forEach(function (i) {
      var f = D.findings[i];
      var li = document.createElement('li');
      li.className = f[1];
      li.textContent = '[' + f[0] + '] ' + f[2];
      list.appendChild(li);
      f[3].forEach(function (lab) {
        if (!D.polys[lab]) { return; }
        var p = document.createElementNS(NS, 'polygon');
        p.setAttribute('class', 'rp-finding ' + f[1]);
        p.setAttribute('points', D.polys[lab]);
        p.setAttribute('stroke', f[1] === 'error' ? 'rgb(220,20,20)' : f[1] === 'warning' ? 'rgb(230,140,0)' : 'rgb(30,90,220)');
        marks.appendChild(p);
      });
    });
    slider.value = String(n);
    var s = n > 0 ? D.steps[n - 1] : null;
    stepText.textContent = n === 0 ? 'start of the log' : 'step ' + n + ' of ' + D.steps.length +
      (n === D.steps.length ? ' (end of the log)' : '') +
      (s.moves.length ? ': ' + s.moves.map(function (m) { return m[0] + ' ' + m[1].join('-'); }).join('; ') : '');
    return at;
  }
  function animate(n) {  // step n taken: its moves walk their paths hex by hex, then the step is drawn
    var moves = D.steps[n - 1].moves.filter(function (m) { return m[1].length > 1 && m[1].every(function (l) { return D.centres[l]; }); });
    var before = spots(positionAt(n - 1));
    draw(n);
    if (!moves.length) { return; }
    var t0 = null, per = 180;
    var longest = Math.max.apply(null, moves.map(function (m) { return m[1].length - 1; }));
    function frame(t) {
      if (t0 === null) { t0 = t; }
      var k = (t - t0) / per;
      moves.forEach(function (m) {
        var path = m[1], i = Math.min(Math.floor(k), path.length - 2), f = Math.min(1, k - i);
        var a = i === 0 && before[m[0]] ? before[m[0]] : D.centres[path[i]], b = D.centres[path[i + 1]];
        if (k < path.length - 1) { place(m[0], [a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f]); }
      });
      if (k < longest) { anim = requestAnimationFrame(frame); } else { anim = null; draw(n); }
    }
    anim = requestAnimationFrame(frame);
  }
  function go(n) {
    n = Math.max(0, Math.min(D.steps.length, n));
    if (n === current + 1 && n > 0) { animate(n); } else { draw(n); }
  }
  function play() {
    if (playing) { clearInterval(playing); playing = null; return; }
    if (current >= D.steps.length) { draw(0); }  // at the end of the log, play starts again from its start
    playing = setInterval(function () {
      if (current >= D.steps.length) { clearInterval(playing); playing = null; return; }
      go(current + 1);
    }, 700);
  }
  document.getElementById('replay-prev').addEventListener('click', function () { go(current - 1); });
  document.getElementById('replay-next').addEventListener('click', function () { go(current + 1); });
  document.getElementById('replay-play').addEventListener('click', play);
  slider.addEventListener('input', function () { draw(parseInt(slider.value, 10)); });
  document.addEventListener('keydown', function (ev) {
    if (ev.target && ev.target.tagName === 'INPUT' && ev.target.type !== 'range') { return; }
    if (ev.key === 'ArrowRight') { go(current + 1); ev.preventDefault(); }
    else if (ev.key === 'ArrowLeft') { go(current - 1); ev.preventDefault(); }
    else if (ev.key === 'Home') { go(0); ev.preventDefault(); }
    else if (ev.key === 'End') { go(D.steps.length); ev.preventDefault(); }
    else if (ev.key === ' ') { play(); ev.preventDefault(); }
  });
  var violations = [];
  document.addEventListener('securitypolicyviolation', function (ev) {
    violations.push(ev.violatedDirective + ' ' + ev.blockedURI);
    result.textContent = 'CSP violation: ' + violations.join('; ');
  });
  board.classList.add('replaying');
  draw(D.steps.length);  // the page opens on the position the log leads to, as the report judged it
  if (location.hash === '#replay-selftest') {  // every step drawn, both ways, each unit where the data says
    var bad = [];
    for (var n = 0; n <= D.steps.length; n++) {
      var at = draw(n), pos = positionAt(n);
      Object.keys(pos).forEach(function (id) {
        var want = pos[id] !== null && D.centres[pos[id]] ? 'visible' : 'hidden';
        if (!pieces[id] || pieces[id].getAttribute('visibility') !== want) { bad.push(n + ':' + id); }
      });
      if (n > 0 && list.childNodes.length !== findingsOf(n).length) { bad.push(n + ':findings'); }
    }
    for (var m = D.steps.length; m >= 0; m--) { draw(m); }
    go(1);
    result.textContent = violations.length ? 'CSP violation: ' + violations.join('; ') :
      (bad.length ? 'FAILED at ' + bad.slice(0, 10).join(', ') : 'ok ' + (D.steps.length + 1) + ' steps drawn');
  }
}());
"""


def _faces(game: Game | None, manifest: Manifest | None, units: list[Unit], px: int) -> dict[str, Image.Image]:
    """Each unit's face (a built-in or own game's unit counter; an imported module's piece by its counter id)."""
    from gazala_tools.render.boardart import _face, unit_faces

    if manifest is None:
        return {}
    with warnings.catch_warnings():  # a palette image with transparency bytes: converted, as asked
        warnings.simplefilter("ignore", UserWarning)
        out = unit_faces(manifest, units, px)
        by_id = manifest.by_id
        for u in units:
            c = by_id.get(u.id.split("#", 1)[0]) if u.id not in out else None
            if c is not None:  # an imported module's piece: its counter's own art
                try:
                    out[u.id] = _face(c, "front", px)
                except (GazalaError, OSError, ValueError):  # a face that cannot be drawn: a square with its name
                    continue
    return out


def replay_section(rep: LogReport, at: HexPoints, *, size: float, colours: dict[str, str], game: Game | None,
                   manifest: Manifest | None) -> str:
    """The replay's controls, findings list and data block (the board is the page's ``#board``)."""
    data = replay_data(rep, at, size=size, colours=colours, game=game, manifest=manifest)
    n = rep.steps
    return (f'<section id="replay"><h2>Replay</h2><div id="replay-controls">'
            '<button type="button" id="replay-prev" title="previous step (Left)">&larr; previous</button>'
            f'<input type="range" id="replay-slider" min="0" max="{n}" step="1" value="{n}" aria-label="step">'
            '<button type="button" id="replay-next" title="next step (Right)">next &rarr;</button>'
            '<button type="button" id="replay-play" title="play / pause (Space)">play</button>'
            f'<span id="replay-steptext">{"end of the log" if n else "start of the log"}</span></div>'
            '<ul id="replay-findings"></ul><output id="replay-result"></output>'
            f'<p class="replay-help">{text("Keys: Left / Right a step, Home / End, Space plays. The board below shows the position of the chosen step.")}</p>'
            f'<div id="replay-data" hidden>{text(json.dumps(data, ensure_ascii=False, separators=(",", ":")))}</div>'
            "</section>")


def replay_data(rep: LogReport, at: HexPoints, *, size: float, colours: dict[str, str], game: Game | None,
                manifest: Manifest | None) -> dict[str, Any]:
    """The one JSON document the page's script reads (the module docstring's ``Data``)."""
    final = rep.final
    last: dict[str, tuple[str | None, str]] = {}  #: unit -> (its hex label or None, side)
    if final is not None:
        for u in final.units:
            last[u.id] = (at.grid.label(u.hex) if u.hex is not None else None, u.side)
    start: dict[str, str | None] = {uid: lab for uid, (lab, _s) in last.items()}
    seen: set[str] = set()
    steps: list[dict[str, Any]] = [{"moves": [], "findings": []} for _ in range(rep.steps)]
    labels: set[str] = {lab for lab, _s in last.values() if lab}
    sides = {uid: s for uid, (_l, s) in last.items()}
    for m in rep.moves:
        sides.setdefault(m.unit, m.side)
        if m.unit not in seen:
            seen.add(m.unit)
            start[m.unit] = m.from_hex
        path = list(m.path) if m.path else [x for x in (m.from_hex, m.to_hex) if x]
        if not m.to_hex:  # off the board (to a box): the path to the edge, then no hex
            path = [*(m.path or ([m.from_hex] if m.from_hex else [])), ""]
        if 0 < m.step <= rep.steps:
            steps[m.step - 1]["moves"].append([m.unit, path if path else [""]])
        labels.update(x for x in path if x)
    findings: list[list[Any]] = []
    polys: dict[str, str] = {}
    for i, f in enumerate(rep.findings):
        fd = f.finding
        hexes = [lab for lab in fd.hexes if at.hex(lab) is not None]
        for lab in hexes:
            polys.setdefault(lab, _pts(at.polygon(at.hex(lab))))  # type: ignore[arg-type]
        findings.append([fd.rule, fd.severity.value, (f"{f.unit}: " if f.unit else "position: ") + fd.message, hexes])
        if 0 < f.step <= rep.steps:
            steps[f.step - 1]["findings"].append(i)
    centres: dict[str, list[float]] = {}
    for lab in sorted(labels | set(polys)):
        h = at.hex(lab)
        if h is not None:
            x, y = at.centre(h)
            centres[lab] = [round(x, 1), round(y, 1)]
    ids = sorted(set(start) | set(sides))
    face_ids, face_uris = _face_data(game, manifest, ids, sides, at, centres, size)
    units = {uid: {"colour": colours.get(sides.get(uid, ""), "rgb(90,90,90)"), "face": face_ids.get(uid, ""),
                   "label": uid.split("#", 1)[0][-6:]} for uid in ids}
    return {"size": round(size, 1), "centres": centres, "polys": polys, "units": units, "faces": face_uris,
            "start": {uid: start.get(uid) for uid in ids}, "steps": steps, "findings": findings}


def _face_data(game: Game | None, manifest: Manifest | None, ids: list[str], sides: dict[str, str], at: HexPoints,
               centres: dict[str, list[float]], size: float) -> tuple[dict[str, str], dict[str, str]]:
    """Each unit's face id, and each distinct face as a data URI (copies of one counter once in the page)."""
    from dataclasses import replace

    shown = [replace(_unit_stub(uid, sides.get(uid, "")), hex=at.hex(next(iter(centres)))) for uid in ids] \
        if centres else []
    faces = _faces(game, manifest, shown, max(8, round(size)))
    face_ids: dict[str, str] = {}
    face_uris: dict[str, str] = {}
    by_pixels: dict[bytes, str] = {}
    for uid in ids:
        img = faces.get(uid)
        if img is None:
            continue
        key = img.tobytes()
        if key not in by_pixels:
            by_pixels[key] = f"f{len(by_pixels)}"
            face_uris[by_pixels[key]] = data_uri(img, photo=False, max_pixels=img.width * img.height)
        face_ids[uid] = by_pixels[key]
    return face_ids, face_uris


def _unit_stub(uid: str, side: str) -> Unit:
    from gazala_tools.referee.position import Unit

    return Unit(id=uid, side=side, type="")
