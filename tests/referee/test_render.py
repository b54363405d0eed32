"""Reports as text, JSON, PNG and HTML (the HTML checked in headless Chromium)."""

from __future__ import annotations

import io
import json
import shutil
import subprocess

import pytest
from PIL import Image

from gazala_tools.referee.engine import Referee
from gazala_tools.render.board import board_size
from gazala_tools.render.report import SEVERITY_COLOURS, render_html, render_json, render_png, render_text
from tests.rules.rg.refhelp import pos
from tests.support.fixtures import rg_rules

EAST = ["1405", "1406", "1407", "1408", "1409", "1410", "1411", "1412"]


@pytest.fixture(scope="module")
def checked(rg_map):
    units = [(f"ax{h}", "axis", "infantry", h) for h in EAST]
    units += [("b1", "allied", "armor", "1520"), ("b2", "allied", "armor", "1520"), ("b3", "allied", "armor", "1520")]
    units += [("cut", "axis", "armor", "2010", "", ["out-of-supply"])]
    units += [(f"r{i}", "allied", "infantry", h) for i, h in enumerate(["2009", "2011", "1909", "2109", "1910", "2110"])]
    p = pos(rg_map, units, turn="May 29", breaches=[{"hexside": "0817/0916", "state": "breached", "through": True}])
    return p, Referee(rg_rules(rg_map)).check(p)


def colour_count(img: Image.Image, rgb: tuple[int, int, int], tol: int = 30) -> int:
    return sum(1 for px in img.get_flattened_data() if all(abs(a - b) <= tol for a, b in zip(px[:3], rgb, strict=True)))


def test_json_has_the_issue_keys(checked):
    _, r = checked
    data = json.loads(render_json(r))
    assert {"findings", "supply", "loc", "vp"} <= set(data)
    assert set(data["findings"][0]) == {"rule", "severity", "units", "hexes", "message"}
    assert data["supply"]["cut"] == "isolated"
    assert data["loc"]["required"] == 1 and data["loc"]["traced"] == 1 and data["loc"]["paths"][0]["via"] == "0916"


def test_text_names_rules_and_statuses(checked):
    _, r = checked
    text = render_text(r)
    assert "ILLEGAL (1 error(s))" in text and "10.0" in text and "isolated cut" in text and "via 0916" in text


def test_png_draws_units_marks_loc_and_findings(checked, rg_map):
    p, r = checked
    img = Image.open(io.BytesIO(render_png(r, rg_map, p, dpi=40))).convert("RGB")
    assert img.size == board_size(rg_map, dpi=40)  # the rendered board's size: it follows the grid
    assert colour_count(img, SEVERITY_COLOURS[r.errors()[0].severity]) > 50  # the over-stacked hex
    assert colour_count(img, (0, 150, 60), tol=10) > 100  # the LOC path
    assert colour_count(img, (220, 20, 20), tol=10) > 20  # the isolated mark (and the error outline)


@pytest.mark.browser
def test_html_report_in_headless_chromium(checked, rg_map, tmp_path):
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser is None:
        pytest.fail("chromium not installed (scripts/apt-packages.txt lists it; run scripts/setup)")
    p, r = checked
    page = tmp_path / "report.html"
    page.write_text(render_html(r, rg_map, p, dpi=40), encoding="utf-8")
    shot = tmp_path / "shot.png"
    base = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", f"--user-data-dir={tmp_path / 'prof'}"]
    subprocess.run([*base, f"--screenshot={shot}", "--window-size=1000,1600", page.as_uri()],
                   check=True, capture_output=True, timeout=120)  # the findings first, then the board
    img = Image.open(shot).convert("RGB")
    assert img.size == (1000, 1600)
    assert colour_count(img, (220, 20, 20), tol=12) > 50  # finding outline / isolated mark rendered by SVG
    assert colour_count(img, (0, 150, 60), tol=12) > 50  # LOC polyline
    dom = subprocess.run([*base, "--dump-dom", page.as_uri()], check=True, capture_output=True, timeout=120,
                         text=True).stdout
    assert 'id="verdict">ILLEGAL' in dom and dom.count('class="unit"') == 18 and "<td>10.0</td>" in dom


def test_units_are_drawn_in_their_sides_colours_from_game_yaml(tmp_path):
    """River War's red and blue units (game.yaml: #c03030, #3050c0) are drawn red and blue, not the
    grey of a side the renderer does not know (issue 22)."""
    from pathlib import Path

    from gazala_tools.referee.api import check_file
    from gazala_tools.render.report import overlay

    game = Path(__file__).resolve().parents[1] / "games" / "river-war"
    p = tmp_path / "rw.yaml"
    p.write_text('game: river-war\nunits:\n  - {id: red-inf-1, hex: "C-4"}\n  - {id: blue-inf-1, hex: "F-6"}\n')
    got = check_file(p, game=game)
    ov = overlay(got.report, got.game_map, got.position, dpi=20)
    assert sorted(c.colour for c in ov.counters) == [(0x30, 0x50, 0xC0), (0xC0, 0x30, 0x30)]


def test_a_png_report_of_units_named_with_layout_breakers_still_draws(rg_map):
    # Pillow's layout fails on a paragraph break inside a line (tests/reliability/test_drawn_text.py);
    # a unit's id comes from a save, any save: its label is drawn as one line
    units = [(f"u{c}{i}", "axis", "infantry", "1405") for i, c in enumerate(["\r", "\x1d", "\x85", "\u2029"])]
    p = pos(rg_map, units, turn="May 27 AM")
    png = render_png(Referee(rg_rules(rg_map)).check(p), rg_map, p, dpi=20)
    assert Image.open(io.BytesIO(png)).size[0] > 100
