"""Issue 25: a module whose piece art is SVG (VASSAL draws it with Batik) imports, lints, rebuilds
and prints: the SVG is kept byte for byte, a layered face with an SVG layer is composed, counter sheets
draw it, and a hostile SVG is one error line with exit 2."""

from __future__ import annotations

import shutil
import zipfile
from pathlib import Path

import pytest
import yaml
from PIL import Image

from gazala_tools.cli import main

RED = (b'<svg xmlns="http://www.w3.org/2000/svg" width="75" height="75" viewBox="0 0 75 75">'
       b'<rect width="75" height="75" fill="#c00"/><circle cx="37" cy="37" r="20" fill="#fff"/></svg>')


@pytest.fixture(scope="module")
def svg_module(ragnarok: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Ragnarok with en-fenir's image an SVG (the buildFile names en-fenir.svg)."""
    mod = tmp_path_factory.mktemp("svgmod") / "mod"
    shutil.copytree(ragnarok, mod)
    (mod / "images" / "en-fenir.png").unlink()
    (mod / "images" / "en-fenir.svg").write_bytes(RED)
    build = mod / "buildFile.xml"
    build.write_text(build.read_text(encoding="utf-8").replace("en-fenir.png", "en-fenir.svg"), encoding="utf-8")
    return mod


@pytest.fixture(scope="module")
def imported(svg_module: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("svgimp") / "game"
    assert main(["game", "import", str(svg_module), str(out)]) == 0
    return out


def _fenir_art(game: Path) -> dict[str, str]:
    counters = yaml.safe_load((game / "counters.yaml").read_text(encoding="utf-8"))
    every = [c for v in counters.values() if isinstance(v, list) for c in v if isinstance(c, dict)]
    return next(c["art"] for c in every if str(c.get("id", "")).startswith("en-fenir-"))


def test_the_svg_face_is_kept_and_the_flip_layer_is_drawn_over_it(imported: Path, svg_module: Path) -> None:
    art = _fenir_art(imported)
    assert art["front"] == "vmod/images/en-fenir.svg"
    assert (imported / art["front"]).read_bytes() == RED
    with Image.open(imported / art["back"]) as back, Image.open(svg_module / "images" / "en-fenir-r.png") as flip:
        assert back.size == flip.size == (75, 75)
        bp, fp = back.convert("RGBA").get_flattened_data(), flip.convert("RGBA").get_flattened_data()
        clear = [i for i, px in enumerate(fp) if px[3] < 255]
        assert clear  # where the flip layer is translucent, the opaque SVG beneath it shows
        assert all(bp[i][3] == 255 for i in clear)


def test_lint_accepts_an_svg_that_exists_and_the_rebuild_keeps_it(svg_module: Path, imported: Path,
                                                                 tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    main(["module", "lint", str(svg_module)])
    assert "en-fenir.svg" not in capsys.readouterr().out
    out = tmp_path / "r.vmod"
    assert main(["module", "build", str(imported), "-o", str(out)]) == 0
    with zipfile.ZipFile(out) as z:
        assert z.read("images/en-fenir.svg") == RED


def test_counter_sheets_print_the_svg_art_sharp(imported: Path, tmp_path: Path) -> None:
    png = tmp_path / "c.png"
    assert main(["counters", "contact", str(imported), "-o", str(png)]) == 0
    with Image.open(png) as im:
        assert (204, 0, 0) in {px for _, px in im.convert("RGB").getcolors(1 << 20) or []}
    assert main(["counters", "sheet", str(imported), "-o", str(tmp_path / "s.pdf"), "--no-progress"]) == 0


def test_a_hostile_svg_is_one_error_line_and_exit_2(imported: Path, tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    game = tmp_path / "g"
    shutil.copytree(imported, game)
    (game / "vmod" / "images" / "en-fenir.svg").write_bytes(
        b'<?xml version="1.0"?><!DOCTYPE s [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
        b'<svg xmlns="http://www.w3.org/2000/svg" width="75" height="75"><text>&x;</text></svg>')
    assert main(["counters", "contact", str(game), "-o", str(tmp_path / "c.png")]) == 2
    err = capsys.readouterr().err.strip()
    assert "en-fenir.svg" in err and len(err.splitlines()) == 1
