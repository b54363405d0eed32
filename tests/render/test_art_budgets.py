"""Issue 31 item 2 and issue 33's bad input: art budgets, counted as they grow and refused before the
expensive call. Each case of the red team's report is rebuilt small and run as its own ``gazala`` process,
measured with ``wait4`` (``benchmarks.common.run_measured``): it ends with exit 2 and one line, or with a
clean result (the image reported and drawn as a placeholder), within 30 s and 1 GiB."""

from __future__ import annotations

import os
import re
import shutil
import sys
import tempfile
from pathlib import Path

import pytest
import yaml

from benchmarks.common import Measured, run_measured
from tools.artmodules import (
    FLIP,
    Piece,
    art_module,
    png_1bit,
    png_bytes,
    png_flat,
    svg_declaring,
    svg_face,
    svg_laughs,
    svg_nested,
    svg_pattern,
    svg_uses,
)

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
RIVER_WAR = ROOT / "tests" / "games" / "river-war"
LIMIT_S, LIMIT_MB = 30.0, 1024.0


def _gazala(*argv: str | Path) -> tuple[Measured, str, str]:
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        m = run_measured([sys.executable, "-c", "from gazala_tools.cli import run; run()", *map(str, argv)], cwd=ROOT,
                         env=dict(os.environ, PYTHONPATH=str(ROOT)), stdout=out, stderr=err)
        out.seek(0)
        err.seek(0)
        return m, out.read().decode(errors="replace"), err.read().decode(errors="replace")


def _bounded(m: Measured, err: str) -> None:
    assert m.code in (0, 2), err[-600:]
    assert "Traceback" not in err and "please report" not in err
    if m.code == 2:
        assert len(err.strip().splitlines()) == 1, err
    assert m.wall < LIMIT_S and m.peak_mb < LIMIT_MB, (m.wall, m.peak_mb)


def _import(tmp: Path, pieces: list[Piece], images: dict[str, bytes]) -> Path:
    """``game import`` of a module of ``pieces``: bounded, exit 0 (one bad image never aborts)."""
    vmod = art_module(tmp / "m.vmod", pieces, {**images, FLIP: png_bytes(75, (0, 0, 200))})
    game = tmp / "game"
    m, _out, err = _gazala("game", "import", vmod, game)
    _bounded(m, err)
    assert m.code == 0, err
    return game


def _not_drawn(game: Path) -> dict[str, str]:
    report = yaml.safe_load((game / "import-report.yaml").read_text(encoding="utf-8"))
    return {e["image"]: e["reason"] for e in report["images not drawn"]}


def _sheets(game: Path, tmp: Path) -> list[str]:
    """``counters contact`` and ``counters sheet`` of the folder: bounded, exit 0; their warning lines."""
    warnings = []
    for argv in (("counters", "contact", game, "-o", tmp / "c.png"),
                 ("counters", "sheet", game, "-o", tmp / "s.pdf", "--no-progress")):
        m, _out, err = _gazala(*argv)
        _bounded(m, err)
        assert m.code == 0, err
        warnings.append(err)
    return warnings


# --- SVG <use>, patterns, entities, nesting ---------------------------------------------------------------
@pytest.mark.parametrize(("svg", "words"), [
    (svg_uses(4, 10), "draws more than 20,000 elements"),  # one group drawn 10,000 times (about 1 KB)
    (svg_pattern(20000), "pattern tile"),  # 300 bytes, a 20000 x 20000 tile
    (svg_laughs(10), "entity bomb"),  # the billion laughs
    (svg_nested(1_000_000), "nests elements more than 100 deep"),  # 1e6 nested groups
])
def test_an_amplifying_svg_is_refused_before_cairo_in_import_and_sheets(tmp_path: Path, svg: bytes, words: str) -> None:
    game = _import(tmp_path, [Piece("bomb", "bomb.svg", flip=FLIP), Piece("ok", "ok.svg", flip=FLIP)],
                   {"bomb.svg": svg, "ok.svg": svg_face()})
    assert list(_not_drawn(game)) == ["images/bomb.svg"] and words in _not_drawn(game)["images/bomb.svg"]
    for err in _sheets(game, tmp_path):
        assert re.search(r"bomb\.svg: drawn as a placeholder for bomb-1: .*" + re.escape(words), err), err


def test_a_use_cycle_between_two_sibling_svgs_is_refused(tmp_path: Path) -> None:
    head = '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="75" height="75">'
    a = f'{head}<g id="a"><use xlink:href="b.svg#b"/></g></svg>'.encode()
    b = f'{head}<g id="b"><use xlink:href="a.svg#a"/></g></svg>'.encode()
    game = _import(tmp_path, [Piece("a", "a.svg", flip=FLIP)], {"a.svg": a, "b.svg": b})
    assert "a cycle" in _not_drawn(game)["images/a.svg"]
    _sheets(game, tmp_path)


def test_a_module_build_of_amplifying_svg_art_is_one_line_exit_2(tmp_path: Path) -> None:
    game = tmp_path / "rw"
    shutil.copytree(RIVER_WAR, game)
    (game / "art").mkdir()
    (game / "art" / "red-inf-1-front.svg").write_bytes(svg_uses(4, 10))
    (game / "art" / "red-inf-1-back.svg").write_bytes(svg_face())
    manifest = game / "counters.yaml"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace("total: 19", "total: 19\nart: {folder: art}"),
                        encoding="utf-8")
    m, _out, err = _gazala("module", "build", game, "-o", tmp_path / "rw.vmod")
    _bounded(m, err)
    assert m.code == 2 and "red-inf-1-front.svg" in err and "20,000 elements" in err


def test_four_hundred_small_svg_pieces_print_within_the_limits(tmp_path: Path) -> None:
    """400 pieces of 150-byte SVG each (past 45 s before: each drawn at 1,200 px, the cache of 64 thrashed)."""
    images = {f"p{i}.svg": svg_face(f"#{(i * 2654435761) % 0xFFFFFF:06x}") for i in range(400)}
    game = _import(tmp_path, [Piece(f"p{i}", f"p{i}.svg") for i in range(400)], images)
    assert _not_drawn(game) == {}
    assert not any("placeholder" in err for err in _sheets(game, tmp_path))


# --- layers and faces: the counter-art cap per layer and per face, a total per command ------------------------
@pytest.mark.parametrize(("layer", "words"), [
    (png_1bit(9400), "9400 x 9400"),  # a 1-bit PNG of about 11 KB: 88 Mpx
    (svg_declaring(9400, 9400), "9400 x 9400"),  # 130 bytes
])
def test_a_layer_over_the_counter_art_cap_is_refused_from_its_header(tmp_path: Path, layer: bytes, words: str) -> None:
    game = _import(tmp_path, [Piece("big", "base.png", layers=("huge",), flip=FLIP)],
                   {"base.png": png_bytes(75, (9, 9, 9)), "huge": layer})
    assert words in _not_drawn(game)["images/huge"]


def test_a_hundred_layers_of_one_large_png_are_decoded_once_and_charged_each(tmp_path: Path) -> None:
    game = _import(tmp_path, [Piece("stack", "big.png", layers=("big.png",) * 100)], {"big.png": png_flat(3000)})
    reasons = _not_drawn(game)
    assert reasons == {} or "budget" in reasons["images/big.png"]


def test_twenty_nine_images_of_7000_pixels_square_are_each_refused(tmp_path: Path) -> None:
    images = {f"s{i}.png": png_flat(7000, (i, 50, 50)) for i in range(29)}
    game = _import(tmp_path, [Piece(f"s{i}", f"s{i}.png", flip=FLIP) for i in range(29)], images)
    assert len(_not_drawn(game)) == 29 and all("7000 x 7000" in r for r in _not_drawn(game).values())


def test_seventy_large_counter_arts_print_within_the_command_budget(tmp_path: Path) -> None:
    """70 counter-art PNGs of 5000 x 5000 (a few KB each, under the 25 Mpx cap): 2.9 GB before (a cache
    of 64 decoded faces); now one original decoded at a time, the faces kept small, and past the
    command's 200 Mpx the rest are placeholders."""
    images = {f"a{i}.png": png_flat(5000, (i, 90, 90)) for i in range(70)}
    game = _import(tmp_path, [Piece(f"a{i}", f"a{i}.png") for i in range(70)], images)
    assert _not_drawn(game) == {}  # each is a sound image: only the budget of a command stops it
    manifest = game / "counters.yaml"  # counters of 3/4 in (the import sizes them by their images: 50 in)
    manifest.write_text(re.sub(r"counter_size: .*", "counter_size: 0.75 in", manifest.read_text(encoding="utf-8")),
                        encoding="utf-8")
    contact, sheet = _sheets(game, tmp_path)
    assert all("art budget" in err and "placeholder" in err for err in (contact, sheet))
