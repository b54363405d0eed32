"""Issue 23 item 1, "Reports on the real board", in headless Chromium at a 1,280 px viewport.

A position report and a log report of RG show the board our renderer draws, with each unit as its
own counter face; those of a game made by ``gazala game new`` from a synthetic scan show the scan
itself (its pixels at known hex centres are the report's) and a unit whose ``counters.yaml`` names
its own art shows that art at its hex. No page scrolls sideways; the findings come before the board
and each links to its hex, whose outline is then marked; a stack shows each of its counters.

The probe: a copy of the page without its Content-Security-Policy and with a script that writes what
the test measures (the board's box on the screen, its view box, ``document.scrollWidth``, the target
of the address's anchor) into the title, read back with ``--dump-dom``; the screenshot is taken of
the report itself at the same window size.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from html import unescape
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
import yaml
from PIL import Image

from gazala_tools.cli import main as gazala
from gazala_tools.counters.loader import load_game_manifest
from gazala_tools.games import find_game
from gazala_tools.mapdata.loader import load_game_map
from gazala_tools.render.board import board_geometry, exact_center, render_board
from gazala_tools.render.counters import counter_face

LOGS = Path(__file__).resolve().parents[1] / "fixtures" / "logs"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run"]
VIEWPORT = 1280
#: the user's art of one unit: magenta left, cyan right (no scan holds either)
MAGENTA, CYAN = (255, 0, 255), (0, 255, 255)
PROBE = """<script>
window.addEventListener('load', function () {
  var b = document.getElementById('board'), r = b.getBoundingClientRect(), v = b.viewBox.baseVal;
  var t = document.querySelector(':target'), face = b.querySelector('defs image');
  var marker = t ? t.querySelector('circle.marker') : null;
  var units = Array.prototype.map.call(b.querySelectorAll('g.unit'), function (g) {
    var u = g.querySelector('use');
    return [g.dataset.unit, u ? +u.getAttribute('x') : null, u ? +u.getAttribute('y') : null,
            !!g.querySelector('circle, rect.flag')];
  });
  var first = document.getElementById('findings') || document.getElementById('summary');
  var outlined = Array.prototype.map.call(b.querySelectorAll('g.finding'), function (g) { return g.id; });
  var lines = Array.prototype.map.call(b.querySelectorAll('polyline'), function (l) {
    return Array.prototype.map.call(l.points, function (q) { return [q.x, q.y]; });
  });
  document.title = JSON.stringify({left: r.left + scrollX, top: r.top + scrollY, width: r.width, height: r.height,
    vx: v.x, vy: v.y, vw: v.width, vh: v.height, dpi: +b.dataset.dpi, scrollWidth: document.documentElement.scrollWidth,
    target: t ? t.id : null, marker: marker ? getComputedStyle(marker).display : null,
    face: face ? +face.getAttribute('width') : null, units: units, outlined: outlined, lines: lines,
    findingsAbove: first ? first.getBoundingClientRect().top < r.top : null});
});
</script>"""


def browser() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        pytest.fail("chromium not installed (scripts/apt-packages.txt lists it; run scripts/setup)")
    return found


def probe(page: Path, work: Path, anchor: str = "", height: int = 2400) -> dict[str, Any]:
    """What the page lays out at a 1,280 px wide window (the probe's measures, see the module)."""
    probed = work / f"probe-{page.name}"
    html = re.sub(r'<meta http-equiv="Content-Security-Policy"[^>]*>', "", page.read_text(encoding="utf-8"), count=1)
    probed.write_text(html.replace("</body>", PROBE + "</body>", 1), encoding="utf-8")
    dom = subprocess.run([browser(), *FLAGS, f"--user-data-dir={work / 'probe-profile'}", f"--window-size={VIEWPORT},{height}",
                          "--dump-dom", probed.as_uri() + anchor], check=True, capture_output=True, timeout=120,
                         text=True).stdout
    m = re.search(r"<title>(.*?)</title>", dom, re.S)
    assert m is not None
    return dict(json.loads(unescape(m.group(1))))


def screenshot(page: Path, work: Path, height: int = 2400) -> Image.Image:
    shot = work / f"{page.stem}.png"
    subprocess.run([browser(), *FLAGS, f"--user-data-dir={work / 'shot-profile'}", f"--window-size={VIEWPORT},{height}",
                    f"--screenshot={shot}", page.as_uri()], check=True, capture_output=True, timeout=120)
    return Image.open(shot).convert("RGB")


def on_screen(p: dict[str, Any], xy: tuple[float, float]) -> tuple[float, float]:
    """A point of the board (pixels at the report's dpi) on the screenshot."""
    sx, sy = p["width"] / p["vw"], p["height"] / p["vh"]
    return p["left"] + (xy[0] - p["vx"]) * sx, p["top"] + (xy[1] - p["vy"]) * sy


def patch_mean(img: Image.Image, xy: tuple[float, float], r: int) -> tuple[float, ...]:
    x, y = round(xy[0]), round(xy[1])
    box = img.crop((x - r, y - r, x + r + 1, y + r + 1))
    n = box.width * box.height
    return tuple(sum(px[c] for px in box.get_flattened_data()) / n for c in range(3))


def face_difference(shot: Image.Image, centre: tuple[float, float], face: Image.Image) -> float:
    """Mean absolute difference of the inner 60 % of ``face`` and the screenshot around ``centre``."""
    s = face.width
    m = round(s * 0.2)
    inner = face.crop((m, m, s - m, s - m))
    x0, y0 = round(centre[0] - s / 2) + m, round(centre[1] - s / 2) + m
    got = shot.crop((x0, y0, x0 + inner.width, y0 + inner.height))
    diffs = [abs(a - b) for pa, pb in zip(inner.get_flattened_data(), got.get_flattened_data(), strict=True) for a, b in zip(pa, pb, strict=True)]
    return sum(diffs) / len(diffs)


def best_face_difference(shot: Image.Image, centre: tuple[float, float], face: Image.Image) -> float:
    """:func:`face_difference` at the best of the nearby offsets (a pixel of rounding either way)."""
    return min(face_difference(shot, (centre[0] + dx, centre[1] + dy), face) for dx in (-1, 0, 1) for dy in (-1, 0, 1))


def assert_no_sideways_scroll(p: dict[str, Any]) -> None:
    assert p["scrollWidth"] <= VIEWPORT
    assert p["left"] + p["width"] <= VIEWPORT


def assert_board_is(shot: Image.Image, p: dict[str, Any], board: Image.Image, hexes: list[tuple[float, float]],
                    tol: float = 24) -> None:
    """The report's board shows ``board`` (the same image at the report's dpi) at these hex centres."""
    inside = [xy for xy in hexes if p["vx"] + 8 < xy[0] < p["vx"] + p["vw"] - 8 and p["vy"] + 8 < xy[1] < p["vy"] + p["vh"] - 8]
    assert len(inside) >= 10
    scale = p["width"] / p["vw"]
    r = max(2, round(3 * scale))
    same = [all(abs(a - b) <= tol for a, b in zip(patch_mean(shot, on_screen(p, xy), r),
                                                   patch_mean(board, xy, max(2, round(r / scale))), strict=True))
            for xy in inside]
    assert sum(same) >= 0.9 * len(inside), f"{sum(same)} of {len(inside)} hex centres show the board"


def _to_segment(q: tuple[float, float], a: list[float], b: list[float]) -> float:
    (ax, ay), (bx, by) = a, b
    dx, dy = bx - ax, by - ay
    t = 0.0 if dx == dy == 0 else max(0.0, min(1.0, ((q[0] - ax) * dx + (q[1] - ay) * dy) / (dx * dx + dy * dy)))
    return float(((q[0] - ax - t * dx) ** 2 + (q[1] - ay - t * dy) ** 2) ** 0.5)


def free_hexes(game_map: Any, geo: Any, p: dict[str, Any], taken: set[str]) -> list[tuple[float, float]]:
    """The centres of the hexes the report draws nothing on: no unit on them or next to them, no
    finding outline, no path or move line within half a hex."""
    from gazala_tools.render.board import hex_size

    grid = game_map.grid
    near = {n for label in taken for h in [grid.parse(label)] for n in (h, *h.neighbours())}
    outlined = set(p["outlined"])
    half = hex_size(geo) / 2
    out = []
    for h in game_map.hexes():
        if h in near or f"hex-{grid.label(h)}" in outlined:
            continue
        c = exact_center(geo, h)
        if any(_to_segment(c, a, b) < half for line in p["lines"] for a, b in pairwise(line)):
            continue
        out.append(c)
    return out


# --- a game made from a scan ------------------------------------------------------------------------
@pytest.fixture(scope="module")
def scan_game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``game new`` on a synthetic printed scan (no --ref: 0101 is the top-left hex); one unit with
    its own art; a stacking limit of 1 so that a stack is a finding."""
    from tools.scans.harsh import harsh_scan

    work = tmp_path_factory.mktemp("scan-game")
    s = harsh_scan(113, sideways=False, hex_px=66.1, rotation=0.0, integer_origin=True)
    s.image.save(work / "scan.png")
    folder = work / "scan game"
    assert gazala(["game", "new", str(folder), "--image", str(work / "scan.png"), "--sides", "Reds,Blues"]) == 0
    (folder / "art").mkdir()
    art = Image.new("RGB", (64, 64), MAGENTA)
    art.paste(CYAN, (32, 0, 64, 64))
    art.save(folder / "art" / "r1.png")
    Image.new("RGB", (64, 64), "white").save(folder / "art" / "r1-back.png")
    counters = yaml.safe_load((folder / "counters.yaml").read_text(encoding="utf-8"))
    counters["units"][0]["art"] = {"front": "art/r1.png", "back": "art/r1-back.png"}
    assert counters["units"][0]["id"] == "reds-unit-1"
    (folder / "counters.yaml").write_text(yaml.safe_dump(counters, sort_keys=False), encoding="utf-8")
    with (folder / "game.yaml").open("a", encoding="utf-8") as fh:
        fh.write('rules:\n  stacking: {rule: "S1", limit: 1}\n')
    return folder


#: reds-unit-1 (its own art) alone; two Reds stacked (an S1 finding); the Blues apart
SCAN_UNITS = {"reds-unit-1": "0405", "reds-unit-2": "0607", "reds-unit-3": "0607", "blues-unit-1": "0906",
              "blues-unit-2": "1005", "blues-unit-3": "1006"}


def scan_position(folder: Path, work: Path) -> Path:
    pos = work / "position.yaml"
    units = "".join(f'  - {{id: {u}, hex: "{h}"}}\n' for u, h in SCAN_UNITS.items())
    pos.write_text(f"game: {find_game(folder).id}\nturn: Turn 1\nunits:\n{units}", encoding="utf-8")
    return pos


def scan_board_checks(page: Path, folder: Path, work: Path, units: dict[str, str]) -> dict[str, Any]:
    """The report's board is the scan, and reds-unit-1's own art stands at its hex."""
    game = find_game(folder)
    game_map = load_game_map(game)
    p = probe(page, work)
    assert_no_sideways_scroll(p)
    shot = screenshot(page, work)
    geo = board_geometry(game_map, dpi=p["dpi"])
    scan = Image.open(folder / "board.png").convert("RGB")
    native = game_map.pixels.dpi or 100
    scan = scan.resize((round(scan.width * p["dpi"] / native), round(scan.height * p["dpi"] / native)),
                       Image.Resampling.LANCZOS)
    assert_board_is(shot, p, scan, free_hexes(game_map, geo, p, set(units.values())))
    # the unit's own art at its hex: magenta left of cyan, where the hex centre is
    cx, cy = on_screen(p, exact_center(geo, game_map.grid.parse(units["reds-unit-1"])))
    half = p["face"] * p["width"] / p["vw"] * 0.4
    box = shot.crop((round(cx - half), round(cy - half), round(cx + half), round(cy + half)))
    def near(px: tuple[int, ...], c: tuple[int, int, int]) -> bool:
        return all(abs(a - b) <= 40 for a, b in zip(px, c, strict=True))
    xs_m = [i % box.width for i, px in enumerate(box.get_flattened_data()) if near(px, MAGENTA)]
    xs_c = [i % box.width for i, px in enumerate(box.get_flattened_data()) if near(px, CYAN)]
    assert len(xs_m) > 0.3 * box.width * box.height and len(xs_c) > 0.3 * box.width * box.height
    assert sum(xs_m) / len(xs_m) < box.width / 2 < sum(xs_c) / len(xs_c)
    return p


@pytest.mark.browser
def test_a_scan_games_position_report_shows_the_scan_and_the_units_own_art(scan_game: Path, tmp_path: Path) -> None:
    page = tmp_path / "position.html"
    code = gazala(["referee", "check", str(scan_position(scan_game, tmp_path)), "--game", str(scan_game),
                   "--format", "html", "-o", str(page)])
    assert code == 1  # the stack of two Reds breaks S1
    p = scan_board_checks(page, scan_game, tmp_path, SCAN_UNITS)
    assert p["findingsAbove"] is True
    # the stack: each of its two counters drawn, apart
    stacked = [(x, y) for u, x, y, _mark in p["units"] if u in ("reds-unit-2", "reds-unit-3")]
    assert len(stacked) == 2 and stacked[0] != stacked[1]
    # the finding links to its hex; followed, the hex is the target and its marker shows
    html = page.read_text(encoding="utf-8")
    assert 'href="#hex-0607"' in html and 'id="hex-0607"' in html
    followed = probe(page, tmp_path, "#hex-0607")
    assert followed["target"] == "hex-0607" and followed["marker"] == "inline"
    assert "<h2>VP</h2>" not in html  # a game without VP has no VP heading


@pytest.mark.browser
@pytest.mark.vassal
def test_a_scan_games_log_report_shows_the_scan_and_the_units_own_art(scan_game: Path, tmp_path: Path,
                                                                      vassal_harness: Any) -> None:
    """The engine plays two moves from the game's set-up; the log report's board is the scan, with
    reds-unit-1's own art at the hex it moved to."""
    vmod, vlog = tmp_path / "scan.vmod", tmp_path / "moves.vlog"
    assert gazala(["module", "build", str(scan_game), "-o", str(vmod)]) == 0
    moves = [{"piece": "reds-unit-1", "to": "0506"}, {"piece": "blues-unit-1", "to": "1307"}]
    written = vassal_harness.log_moves(vmod, "#0", vlog, moves)
    assert written["logged_commands"] == len(moves)
    page = tmp_path / "log.html"
    assert gazala(["referee", "log", str(vlog), "--game", str(scan_game), "--module", str(vmod), "--format", "html",
                   "-o", str(page)]) in (0, 1)
    setup = {u: h for u, h in zip(("reds-unit-1", "reds-unit-2", "reds-unit-3", "blues-unit-1", "blues-unit-2",
                                   "blues-unit-3"), ("0407", "0408", "0307", "1607", "1608", "1707"), strict=True)}
    setup.update({m["piece"]: m["to"] for m in moves})
    scan_board_checks(page, scan_game, tmp_path, setup)


# --- RG: counter faces on the board we draw ---------------------------------------------------------
def rg_faces_checks(page: Path, work: Path, units: dict[str, str]) -> dict[str, Any]:
    """The report's board is the RG board we render, and each lone unit shows its own counter face."""
    game = find_game("gazala-rg")
    game_map = load_game_map(game)
    p = probe(page, work)
    assert_no_sideways_scroll(p)
    shot = screenshot(page, work)
    geo = board_geometry(game_map, dpi=p["dpi"])
    board = render_board(game_map, dpi=p["dpi"], counter_px=p["face"], show_places=False).convert("RGB")
    assert_board_is(shot, p, board, free_hexes(game_map, geo, p, set(units.values())))
    by_hex: dict[str, list[str]] = {}
    for u, h in units.items():
        by_hex.setdefault(h, []).append(u)
    marked = {u for u, _x, _y, mark in p["units"] if mark}  # a supply mark or a finding's highlight on it
    lone = [us[0] for h, us in by_hex.items()
            if len(us) == 1 and us[0] not in marked and f"hex-{h}" not in p["outlined"]]
    assert len(lone) >= 3
    counters = {c.unit_id or c.id: c for c in load_game_manifest(game).units if c.counter_step == c.unit_steps}
    px = round(p["face"] * p["width"] / p["vw"])
    faces = {u: counter_face(counters[u], "front", dpi=p["face"] * 25.4 / counters[u].size_mm).convert("RGB")
             .resize((px, px)) for u in lone}
    for u in lone[:6]:  # its own face at its hex: closer than any face that looks different from it
        centre = on_screen(p, exact_center(geo, game_map.grid.parse(units[u])))
        right = best_face_difference(shot, centre, faces[u])
        unlike = [v for v in lone if face_difference(faces[v], (px / 2, px / 2), faces[u]) > 15]
        assert right < 16 and unlike, u
        assert all(right < best_face_difference(shot, centre, faces[v]) for v in unlike), u
    return p


def rg_position(work: Path) -> tuple[Path, dict[str, str]]:
    """Eight RG units spread over the board, two Allied units and a third stacked in 1520 (10.0)."""
    game = find_game("gazala-rg")
    full = [c for c in load_game_manifest(game).units if c.counter_step == c.unit_steps]
    axis = [c.unit_id or c.id for c in full if c.side == "axis"][:4]
    allied = [c.unit_id or c.id for c in full if c.side == "allied"][:7]
    units = dict(zip(axis, ["1405", "1408", "1705", "1210"], strict=True))
    units.update(zip(allied, ["1520", "1520", "1520", "2009", "2011", "1812", "2214"], strict=True))
    pos = work / "rg.yaml"
    pos.write_text("game: gazala-rg\nturn: May 27 AM\nunits:\n"
                   + "".join(f'  - {{id: {u}, hex: "{h}"}}\n' for u, h in units.items()), encoding="utf-8")
    return pos, units


@pytest.mark.browser
def test_an_rg_position_report_shows_counter_faces_on_the_rendered_board(tmp_path: Path) -> None:
    pos, units = rg_position(tmp_path)
    page = tmp_path / "rg.html"
    assert gazala(["referee", "check", str(pos), "--format", "html", "-o", str(page)]) == 1
    p = rg_faces_checks(page, tmp_path, units)
    assert p["findingsAbove"] is True
    stack = sorted((x, y) for u, x, y, _mark in p["units"] if units[u] == "1520")
    assert len(stack) == 3 and len(set(stack)) == 3  # fanned: three counters, three places
    followed = probe(page, tmp_path, "#hex-1520")
    assert followed["target"] == "hex-1520" and followed["marker"] == "inline"


@pytest.mark.browser
def test_an_rg_log_report_shows_counter_faces_on_the_rendered_board(tmp_path: Path) -> None:
    from gazala_tools.referee.logcheck import check_log

    log = LOGS / "rg-illegal.vlog"
    page = tmp_path / "log.html"
    assert gazala(["referee", "log", str(log), "--format", "html", "-o", str(page)]) == 1
    rep, replay = check_log(log)
    final = rep.final if rep.final is not None else replay.position()
    grid = replay.rules.map.grid
    units = {u.id: grid.label(u.hex) for u in final.units if u.hex is not None}
    rg_faces_checks(page, tmp_path, units)
