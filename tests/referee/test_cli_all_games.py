"""DG, SPI and BG through the real CLI (``gazala referee check``): the games' extra position keys,
two positions (``--before``), the drawn paths and the steps of two-step units."""

from __future__ import annotations

import io
import json
import re

import pytest
from PIL import Image

from gazala_tools.cli import main
from gazala_tools.render.report import PATH_COLOURS
from tests.rules.dg.dghelp import chromium


def write(path, text):
    path.write_text(text, encoding="utf-8")
    return path


def check_json(capsys, *args):
    code = main(["referee", "check", *map(str, args), "--json"])
    return code, json.loads(capsys.readouterr().out)


def rules_of(report, rule):
    return [f for f in report["findings"] if f["rule"] == rule]


# --- extra keys -------------------------------------------------------------------------------------
def test_dg_18_0_losses_key_downgrades_through_the_cli(tmp_path, capsys):
    """DG ``losses``: the British lost 4, the German 1: the loss ratio turns the British win into a draw."""
    p = write(tmp_path / "dg.yaml", 'game: cauldron-dg\nturn: "26"\nlosses: {axis: 1, allied: 4}\n'
              'units:\n  - {id: axis-21pz-5-1, hex: "2020"}\n  - {id: allied-1sa-1, hex: "0608"}\n')
    code, r = check_json(capsys, p)
    victory = r["vp"]["victory"]
    assert code == 0 and victory["losses"] == {"axis": 1, "allied": 4}
    assert (victory["result_before_downgrade"], victory["result"]) == ("british", "draw")


def test_spi_extra_keys_through_the_cli(tmp_path, capsys):
    """SPI ``exited`` / ``arrived`` / ``tobruk`` / ``values`` / ``attacked`` all reach the rules."""
    p = write(tmp_path / "spi.yaml", 'game: cauldron-spi\nturn: "9"\ntobruk: axis\n'
              'exited: {x1: 8}\narrived: {x1: 7}\nvalues: {x1: 6}\nattacked: [a1]\n'
              'units:\n  - {id: x1, side: allied, type: armor, box: exited}\n'
              '  - {id: a1, side: allied, type: infantry, hex: "1515"}\n'
              '  - {id: g1, side: axis, type: armor, hex: "2020"}\n')
    code, r = check_json(capsys, p)
    assert code == 1  # x1 exited at turn 8, before arrival + 2 (18.32)
    assert rules_of(r, "18.32") or rules_of(r, "18.31") or rules_of(r, "18.33")
    assert r["vp"]["tobruk"] == "axis"


def test_bg_cleared_and_reduced_keys_through_the_cli(tmp_path, capsys):
    """BG ``reduced`` (a synonym of ``steps: 1``) and ``cleared`` hexes are accepted and used."""
    base = 'game: batalha\nturn: "5"\nunits:\n  - {id: r1, side: allied, type: infantry, hex: "M09"}\n'
    code, by_key = check_json(capsys, write(tmp_path / "key.yaml", base + "reduced: [r1]\ncleared: [K05]\n"))
    assert code == 0 and rules_of(by_key, "7.0")[0]["units"] == ["r1"]
    code, by_steps = check_json(capsys, write(tmp_path / "steps.yaml", base.replace("M09\"", 'M09", steps: 1, '
                                                                                      "full_steps: 2")))
    assert code == 0 and rules_of(by_steps, "7.0") == rules_of(by_key, "7.0")


@pytest.mark.parametrize(("game", "key"), [("cauldron-dg", "reduced"), ("gazala-rg", "losses"), ("batalha", "tobruk")])
def test_a_key_the_game_does_not_declare_is_refused_naming_file_key_and_expectation(game, key, tmp_path, capsys):
    p = write(tmp_path / "pos.yaml", f"game: {game}\n{key}: []\nunits: []\n")
    assert main(["referee", "check", str(p)]) == 2
    err = capsys.readouterr().err
    assert f"pos.yaml:2:1: unknown key {key!r}" in err and "game, turn, units" in err
    # RG's own state keys are RG's: no other game offers them (issue 22)
    assert ("game, turn, units, breaches, activations" in err) == (game == "gazala-rg")


def test_extras_are_checked_against_the_units(tmp_path, capsys):
    p = write(tmp_path / "spi.yaml", "game: cauldron-spi\nattacked: [nobody]\nunits: []\n")
    assert main(["referee", "check", str(p)]) == 2
    assert re.search(r"spi\.yaml:\d+:\d+: attacked\[0\]: unknown unit id 'nobody'", capsys.readouterr().err)


def test_position_verb_keeps_the_extras(tmp_path, capsys):
    p = write(tmp_path / "bg.yaml", 'game: batalha\ncleared: [K05]\nreduced: [r1]\n'
              'units:\n  - {id: r1, side: allied, type: infantry, hex: "M09"}\n')
    again = tmp_path / "again.yaml"
    assert main(["referee", "position", str(p), "-o", str(again)]) == 0
    text = again.read_text()
    assert "cleared:\n- K05" in text and "reduced:\n- r1" in text
    (code_a, a), (code_b, b) = check_json(capsys, again), check_json(capsys, p)
    a.pop("source"), b.pop("source")
    assert (code_a, a) == (code_b, b) and a["paths"] and a["paths"][0]["kind"] == "recovery"


# --- two positions ------------------------------------------------------------------------------------
SPI_START = ('game: cauldron-spi\nturn: "1"\nunits:\n  - {id: g, side: axis, type: armor, hex: "1010"}\n'
             '  - {id: near, side: allied, type: infantry, hex: "1013"}\n'
             '  - {id: far, side: allied, type: infantry, hex: "2020"}\n')


def test_spi_17_0_command_control_with_two_positions(tmp_path, capsys):
    """SPI 17.0 on game-turn 1: only Allied units within 3 hexes of an Axis unit (or attacked) may move."""
    before = write(tmp_path / "before.yaml", SPI_START)
    after = write(tmp_path / "after.yaml", SPI_START.replace('"1013"', '"1113"').replace('"2020"', '"2120"'))
    code, r = check_json(capsys, after, "--before", before)
    errors = [f for f in rules_of(r, "17.0") if f["severity"] == "error"]
    assert code == 1 and [f["units"] for f in errors] == [["far"]]
    attacked = write(tmp_path / "attacked.yaml", after.read_text() + "attacked: [far]\n")
    code, r = check_json(capsys, attacked, "--before", before)
    assert code == 0 and not [f for f in rules_of(r, "17.0") if f["severity"] == "error"]


def test_before_must_be_the_same_game(tmp_path, capsys):
    before = write(tmp_path / "before.yaml", "game: cauldron-dg\nunits: []\n")
    after = write(tmp_path / "after.yaml", SPI_START)
    assert main(["referee", "check", str(after), "--before", str(before)]) == 2
    assert "before.yaml" in capsys.readouterr().err


# --- paths drawn ---------------------------------------------------------------------------------------
def test_dg_18_0_victory_path_is_a_report_path_and_drawn(tmp_path, capsys):
    """The British path 0608 -> 1201 (nothing in its way) is a report path of kind ``victory``, drawn."""
    p = write(tmp_path / "dg.yaml", 'game: cauldron-dg\nturn: "5"\nunits:\n  - {id: allied-1sa-1, hex: "0608"}\n')
    code, r = check_json(capsys, p)
    paths = [x for x in r["paths"] if x["kind"] == "victory"]
    assert code == 0 and len(paths) == 1 and paths[0]["side"] == "allied"
    assert (paths[0]["hexes"][0], paths[0]["hexes"][-1]) == ("0608", "1201")
    png = tmp_path / "dg.png"
    assert main(["referee", "check", str(p), "--format", "png", "-o", str(png), "--dpi", "30"]) == 0
    img = Image.open(io.BytesIO(png.read_bytes())).convert("RGB")
    want = PATH_COLOURS["victory"]
    assert sum(1 for px in img.get_flattened_data() if all(abs(a - b) <= 10 for a, b in zip(px, want, strict=True))) > 100


@pytest.mark.browser
@pytest.mark.parametrize(("game", "position", "kind"), [
    ("cauldron-dg", 'units:\n  - {id: allied-1sa-1, hex: "0608"}\n', "victory"),
    ("batalha", 'units:\n  - {id: r1, side: allied, type: infantry, hex: "M09", steps: 1, full_steps: 2}\n', "recovery"),
])
def test_html_draws_the_plugin_paths_in_headless_chromium(game, position, kind, tmp_path):
    """DG 18.0 victory paths and BG 7.0 recovery lines are SVG polylines in the HTML report."""
    p = write(tmp_path / "pos.yaml", f'game: {game}\nturn: "5"\n{position}')
    page = tmp_path / "report.html"
    assert main(["referee", "check", str(p), "--format", "html", "-o", str(page), "--dpi", "30"]) == 0
    shot = tmp_path / "shot.png"
    dom = chromium(page, tmp_path / "prof", shot)
    assert dom.count(f'class="path {kind}"') == 1 and f"<li class=\"{kind}\">" in dom
    img = Image.open(shot).convert("RGB")
    want = PATH_COLOURS[kind]
    assert sum(1 for px in img.get_flattened_data() if all(abs(a - b) <= 12 for a, b in zip(px, want, strict=True))) > 50


# --- steps ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("unit", "ok"), [
    ('{id: axis-21pz-5-1, hex: "2020", steps: 2}', True),  # a depleted-back counter: 2 steps at full strength
    ('{id: axis-21pz-5-1, hex: "2020", steps: 3}', False),
    ('{id: axis-21pz-5-1, hex: "2020", full_steps: 3}', False),  # disagrees with the manifest
    ('{id: axis-cr-15-sch-1, hex: "2020", steps: 2}', False),  # one-sided: one step
])
def test_dg_steps_follow_the_counter_back(unit, ok, tmp_path, capsys):
    p = write(tmp_path / "dg.yaml", f"game: cauldron-dg\nunits:\n  - {unit}\n")
    assert main(["referee", "check", str(p)]) == (0 if ok else 2)
    assert ok or re.search(r"dg\.yaml:3:\d+: units\[0\]\.(full_)?steps", capsys.readouterr().err)
