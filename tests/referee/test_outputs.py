"""DG, SPI and BG on their built-in maps: the DG 19.0 set-up, the CLI (position YAML -> JSON),
PNG and the HTML report checked in headless Chromium, one position per game."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from PIL import Image

from gazala_tools.cli import main
from gazala_tools.referee.api import check_file
from gazala_tools.render.board import board_size
from gazala_tools.render.report import render_html, render_png
from tests.rules.dg.dghelp import chromium

SETUP = Path(__file__).resolve().parents[1] / "rules" / "dg" / "setup_19_0.yaml"
POSITIONS = {
    "cauldron-dg": """\
game: cauldron-dg
turn: "12"
units:
  - {id: g-tobruk, side: axis, type: "4-5-15", hex: "0608"}
  - {id: g-airfield, side: axis, type: "1-2-12", hex: "0709"}
  - {id: g-1410, side: axis, type: "3-2-20", hex: "1410"}
  - {id: uk-a, side: allied, type: "4-4-9", hex: "1515"}
  - {id: uk-b, side: allied, type: "4-4-9", hex: "1515"}
""",
    "cauldron-spi": """\
game: cauldron-spi
turn: "9"
units:
  - {id: axis-15pz-8-1, hex: "0608"}
  - {id: axis-21pz-5-1, hex: "1515"}
  - {id: a-cut, side: axis, type: motorized-infantry, hex: "2010"}
  - {id: uk-x, side: allied, type: infantry, hex: "2009"}
  - {id: uk-y, side: allied, type: infantry, hex: "2011"}
  - {id: uk-z, side: allied, type: infantry, hex: "2109"}
  - {id: uk-dead, side: allied, type: "armor 5-4-15", box: eliminated}
  - {id: uk-share, side: allied, type: infantry, hex: "1515"}
""",
    "batalha": """\
game: batalha
turn: "5"
units:
  - {id: axis-15pz-8-pz, hex: "W05"}
  - {id: ax-inf, side: axis, type: infantry, formation: Pavia, hex: "M08"}
  - {id: uk-1, side: allied, type: infantry, hex: "M09"}
  - {id: uk-2, side: allied, type: infantry, hex: "P12"}
  - {id: uk-3, side: allied, type: infantry, hex: "P12"}
  - {id: uk-4, side: allied, type: infantry, hex: "P12"}
  - {id: uk-5, side: allied, type: infantry, hex: "P12"}
""",
}
#: (rules a finding must cite, units drawn) per game; every position above breaks one rule
EXPECT = {
    "cauldron-dg": ({"12.0", "15.0", "18.0", "stacking"}, 5),
    "cauldron-spi": ({"16.1", "18.21", "18.4", "18.12", "stacking"}, 7),
    "batalha": ({"4.1", "4.1.1", "4.1.2", "11.2"}, 7),
}


def test_19_0_setup_is_a_legal_position_on_the_dg_map():
    checked = check_file(SETUP)
    r = checked.report
    assert len(checked.position.units) == 72
    assert r.legal, [f.message for f in r.errors()]
    assert r.vp["support_fire"] == {"axis": 11, "allied": 6}
    v = r.vp["victory"]
    assert not v["paths"]["axis"]["found"] and v["paths"]["allied"]["found"]


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("games")
    out = {}
    for game, text in POSITIONS.items():
        out[game] = d / f"{game}.yaml"
        out[game].write_text(text)
    return out


@pytest.mark.parametrize("game", sorted(POSITIONS))
def test_cli_json(game, files, capsys):
    assert main(["referee", "check", str(files[game]), "--json"]) == 1  # each position breaks a rule
    data = json.loads(capsys.readouterr().out)
    assert data["game"] == game
    assert EXPECT[game][0] <= {x["rule"] for x in data["findings"]}


def test_cli_json_values(files, capsys):
    main(["referee", "check", str(files["cauldron-dg"]), "--json"])
    assert json.loads(capsys.readouterr().out)["vp"]["support_fire"] == {"axis": 11, "allied": 2}
    main(["referee", "check", str(files["cauldron-spi"]), "--json"])
    spi = json.loads(capsys.readouterr().out)
    assert spi["supply"]["a-cut"] == "out" and spi["vp"]["axis"] == 9 + 100 and spi["vp"]["tobruk"] == "axis"
    main(["referee", "check", str(files["batalha"]), "--json"])
    bg = json.loads(capsys.readouterr().out)
    assert bg["vp"]["motorized_out_of_range"] == ["axis-15pz-8-pz"]


@pytest.mark.parametrize("game", sorted(POSITIONS))
def test_png(game, files):
    c = check_file(files[game])
    img = Image.open(io.BytesIO(render_png(c.report, c.game_map, c.position, dpi=30))).convert("RGB")
    assert img.size == board_size(c.game_map, dpi=30)  # the rendered board's size: it follows the grid


@pytest.mark.browser
@pytest.mark.parametrize("game", sorted(POSITIONS))
def test_html_report_in_headless_chromium(game, files, tmp_path):
    c = check_file(files[game])
    page = tmp_path / "report.html"
    page.write_text(render_html(c.report, c.game_map, c.position, dpi=30), encoding="utf-8")
    shot = tmp_path / "shot.png"
    dom = chromium(page, tmp_path / "prof", shot)
    assert Image.open(shot).size == (900, 900)
    rules, drawn = EXPECT[game]
    assert 'id="verdict">ILLEGAL' in dom and dom.count('class="unit"') == drawn
    assert all(f"<td>{rule}</td>" in dom for rule in rules)
