"""Hostile text that reaches an image: Pillow's text layout (raqm/fribidi) fails with "raqm_layout()
failed" on a paragraph break inside a line (CR, U+001C-U+001E, U+0085, U+2029), which stopped `map
render` (exit 3) and would stop any report drawing a name from a hostile save. Every text drawn goes
through ``escape.drawable``: one line, the breaking characters as spaces (counters.yaml refuses them at
load, as it refuses every control character)."""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path

import pytest
from PIL import Image, ImageDraw

from gazala_tools.escape import NOT_DRAWN, drawable
from gazala_tools.games import find_game
from gazala_tools.mapdata.loader import load_game_map
from gazala_tools.mapdata.model import Place
from gazala_tools.render.board import font, render_board

from .conftest import Run

RIVER_WAR = Path(__file__).parents[1] / "games" / "river-war"
#: each breaks Pillow's layout of a line (checked below, so that the tests keep meaning something)
BREAKING = ["\r", "\x1c", "\x1d", "\x1e", "\x85", "\u2029"]


@pytest.mark.parametrize("char", BREAKING)
def test_these_characters_break_pillows_text_layout_and_drawable_removes_them(char: str) -> None:
    draw = ImageDraw.Draw(Image.new("RGB", (8, 8)))
    with pytest.raises(RuntimeError, match="raqm"):
        draw.textbbox((0, 0), f"Bir{char}Hakeim", font=font(20), anchor="mm")
    assert NOT_DRAWN.search(f"a{char}b") and drawable(f"Bir{char}Hakeim") == "Bir Hakeim"
    draw.textbbox((0, 0), drawable(f"Bir{char}Hakeim"), font=font(20), anchor="mm")


@pytest.mark.parametrize("written", ["\\r", "\\P", "\\x1d"])
def test_a_place_name_that_breaks_the_layout_is_drawn_as_one_line(tmp_path: Path, run: Run, written: str) -> None:
    # names stay data (the hostile-name reports show them, escaped): the board draws them as one line
    folder = tmp_path / "rw"
    shutil.copytree(RIVER_WAR, folder)
    text = (folder / "map.yaml").read_text(encoding="utf-8")
    assert "{name: Ford Town," in text
    (folder / "map.yaml").write_text(text.replace("{name: Ford Town,", f'{{name: "Ford{written}Town",', 1),
                                     encoding="utf-8")
    out = tmp_path / "board.png"
    code, _out, err = run("map", "render", folder, "-o", out)
    assert code == 0, err
    assert Image.open(out).size[0] > 100


def test_a_board_whose_place_names_hold_layout_breakers_still_draws() -> None:
    # a map built in memory (a plugin, an import) is not read by the loader: the renderer still copes
    m = load_game_map(find_game("gazala-rg"))
    hostile = tuple(dataclasses.replace(p, name=f"{p.name}{BREAKING[i % len(BREAKING)]}x")
                    for i, p in enumerate(m.places))
    assert hostile and all(isinstance(p, Place) for p in hostile)
    img = render_board(dataclasses.replace(m, places=hostile, title="RG\u2029title"), dpi=20)
    assert img.size[0] > 100

