"""Issues 25 and 33: a module whose piece art is SVG (VASSAL draws it with Batik) imports, lints, rebuilds
and prints: the SVG is kept byte for byte, a layered face with an SVG layer is composed, counter sheets
draw it. SVG as VASSAL draws it (issue 33 item 1): internal entities, a sibling SVG's symbol; nothing outside
the module read. One bad image never aborts (item 2); images by their bytes (item 3)."""

from __future__ import annotations

import json
import shutil
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml
from PIL import Image

from gazala_tools.cli import main
from gazala_tools.render.counters import PLACEHOLDER_MARK

RED = (b'<svg xmlns="http://www.w3.org/2000/svg" width="75" height="75" viewBox="0 0 75 75">'
       b'<rect width="75" height="75" fill="#c00"/><circle cx="37" cy="37" r="20" fill="#fff"/></svg>')
#: as an illustration program exports it: the namespaces and a style as internal entities, an external DTD named
ILLUSTRATOR = (b'<?xml version="1.0" encoding="utf-8"?>\n<!-- Generator: Adobe Illustrator 16.0.0 -->\n'
               b'<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd" [\n'
               b'\t<!ENTITY ns_svg "http://www.w3.org/2000/svg">\n\t<!ENTITY ns_xlink "http://www.w3.org/1999/xlink">\n'
               b'\t<!ENTITY st0 "fill:#00C000;">\n]>\n'
               b'<svg version="1.1" xmlns="&ns_svg;" xmlns:xlink="&ns_xlink;" width="75px" height="75px" '
               b'viewBox="0 0 75 75"><rect width="75" height="75" style="&st0;"/></svg>')
#: a symbol sheet, and a face that uses one of its symbols
SYMBOLS = (b'<svg xmlns="http://www.w3.org/2000/svg" width="75" height="75"><defs>'
           b'<symbol id="star" viewBox="0 0 75 75"><rect width="75" height="75" fill="#0000d0"/></symbol></defs></svg>')
USES_SIBLING = (b'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="75" '
                b'height="75"><use xlink:href="symbols.svg#star" width="75" height="75"/></svg>')


def _variant(ragnarok: Path, root: Path, fenir: bytes, name: str = "en-fenir.svg",
             extra: dict[str, bytes] | None = None) -> Path:
    """Ragnarok with en-fenir's image replaced by ``fenir`` under ``name`` (the buildFile names it)."""
    mod = root / "mod"
    shutil.copytree(ragnarok, mod)
    (mod / "images" / "en-fenir.png").unlink()
    (mod / "images" / name).write_bytes(fenir)
    for k, v in (extra or {}).items():
        (mod / "images" / k).write_bytes(v)
    build = mod / "buildFile.xml"
    build.write_text(build.read_text(encoding="utf-8").replace("en-fenir.png", name), encoding="utf-8")
    return mod


@pytest.fixture(scope="module")
def svg_module(ragnarok: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Ragnarok with en-fenir's image an SVG (the buildFile names en-fenir.svg)."""
    return _variant(ragnarok, tmp_path_factory.mktemp("svgmod"), RED)


@pytest.fixture(scope="module")
def imported(svg_module: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("svgimp") / "game"
    assert main(["game", "import", str(svg_module), str(out)]) == 0
    return out


def _fenir_art(game: Path) -> dict[str, str]:
    counters = yaml.safe_load((game / "counters.yaml").read_text(encoding="utf-8"))
    every = [c for v in counters.values() if isinstance(v, list) for c in v if isinstance(c, dict)]
    return next(c["art"] for c in every if str(c.get("id", "")).startswith("en-fenir-"))


def _colours(png: Path) -> set[tuple[int, int, int]]:
    with Image.open(png) as im:
        return {px for _, px in im.convert("RGB").getcolors(1 << 20) or []}


def _back_over(game: Path, ragnarok: Path) -> tuple[int, int, int] | None:
    """The flat colour the imported back shows under the flip layer (None when it is not one colour)."""
    with Image.open(game / _fenir_art(game)["back"]) as back, \
            Image.open(ragnarok / "images" / "en-fenir-r.png") as flip:
        got = back.convert("RGB")
        top = flip.convert("RGBA")
    for colour in ((0, 192, 0), (0, 0, 208)):
        under = Image.new("RGBA", top.size, (*colour, 255))
        under.alpha_composite(top)
        if max(abs(a - b) for p, q in zip(got.get_flattened_data(), under.convert("RGB").get_flattened_data(),
                                           strict=True) for a, b in zip(p, q, strict=True)) <= 2:
            return colour
    return None


def _report(game: Path) -> dict[str, object]:
    return yaml.safe_load((game / "import-report.yaml").read_text(encoding="utf-8"))  # type: ignore[no-any-return]


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
    assert (204, 0, 0) in _colours(png)
    assert main(["counters", "sheet", str(imported), "-o", str(tmp_path / "s.pdf"), "--no-progress"]) == 0


# --- issue 33 item 1: SVG as VASSAL draws it ------------------------------------------------------------
def test_an_svg_declaring_internal_entities_imports_and_prints(ragnarok: Path, tmp_path: Path) -> None:
    """What Illustrator exports (entities for its namespaces and styles, an external DTD named and never
    read) imports with its layered back drawn, and prints in its own colour."""
    game = tmp_path / "game"
    assert main(["game", "import", str(_variant(ragnarok, tmp_path, ILLUSTRATOR)), str(game)]) == 0
    assert _report(game)["images not drawn"] == []
    assert _back_over(game, ragnarok) == (0, 192, 0)  # the entity's style, under the flip layer
    assert main(["counters", "contact", str(game), "-o", str(tmp_path / "c.png")]) == 0
    assert (0, 192, 0) in _colours(tmp_path / "c.png")


def test_an_svg_using_a_symbol_of_a_sibling_svg_imports_and_prints(ragnarok: Path, tmp_path: Path) -> None:
    """``<use xlink:href="symbols.svg#star"/>``: the module's symbol sheet, read inside the module at import
    (the layered back) and inside the game folder when printed (the front)."""
    mod = _variant(ragnarok, tmp_path, USES_SIBLING, extra={"symbols.svg": SYMBOLS})
    game = tmp_path / "game"
    assert main(["game", "import", str(mod), str(game)]) == 0
    assert _report(game)["images not drawn"] == []
    assert _back_over(game, ragnarok) == (0, 0, 208)
    assert main(["counters", "contact", str(game), "-o", str(tmp_path / "c.png")]) == 0
    assert (0, 0, 208) in _colours(tmp_path / "c.png")


@pytest.fixture
def opened() -> Iterator[list[str]]:
    """Every file opened meanwhile (an audit hook on ``open``; hooks cannot be removed, so it is switched)."""
    seen: list[str] = []
    on = [True]

    def hook(event: str, args: tuple[object, ...]) -> None:
        if on[0] and event == "open" and args and isinstance(args[0], (str, bytes, Path)):
            seen.append(str(args[0]))

    sys.addaudithook(hook)
    try:
        yield seen
    finally:
        on[0] = False


@pytest.mark.parametrize("ref", ["../../secret/flag.png", "{secret}/flag.png", "file://{secret}/flag.png",
                                 "../../secret/symbols.svg#star"])
def test_an_svg_referring_outside_the_module_is_refused_and_nothing_is_read(
        ragnarok: Path, tmp_path: Path, ref: str, opened: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    secret = tmp_path / "secret"
    secret.mkdir()
    Image.new("RGB", (75, 75), (1, 2, 3)).save(secret / "flag.png")
    (secret / "symbols.svg").write_bytes(SYMBOLS)
    tag = "use" if "#" in ref else "image"
    hostile = ('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="75" '
               f'height="75"><{tag} xlink:href="{ref.format(secret=secret)}" width="75" height="75"/></svg>').encode()
    root = tmp_path / "in"
    root.mkdir()
    mod = _variant(ragnarok, root, hostile)
    game = tmp_path / "game"
    opened.clear()  # the test wrote the secret files: only what the commands open counts
    assert main(["game", "import", str(mod), str(game)]) == 0  # the import goes on
    not_drawn = _report(game)["images not drawn"]
    assert isinstance(not_drawn, list) and [d["image"] for d in not_drawn] == ["images/en-fenir.svg"]
    assert "outside the module" in not_drawn[0]["reason"] or "leaves the module" in not_drawn[0]["reason"]
    assert main(["counters", "contact", str(game), "-o", str(tmp_path / "c.png")]) == 0
    assert "en-fenir.svg" in capsys.readouterr().err
    assert not [p for p in opened if str(secret) in p]


# --- issue 33 items 2 and 3: one bad image never aborts; images by their bytes ------------------------------
def test_an_extensionless_png_is_a_png(ragnarok: Path, tmp_path: Path) -> None:
    """VASSAL writes and modules name images without an extension (``images/Captured by Red``)."""
    buf = tmp_path / "x.png"
    Image.new("RGB", (75, 75), (0, 160, 160)).save(buf)
    mod = _variant(ragnarok, tmp_path, buf.read_bytes(), name="Captured by Red")
    game = tmp_path / "game"
    assert main(["game", "import", str(mod), str(game)]) == 0
    front = _fenir_art(game)["front"]  # the import names it by its format (a copy), as counters.yaml's convention does
    assert front.endswith(".png") and (game / front).read_bytes() == buf.read_bytes()
    assert main(["counters", "contact", str(game), "-o", str(tmp_path / "c.png")]) == 0
    assert (0, 160, 160) in _colours(tmp_path / "c.png")
    assert main(["counters", "sheet", str(game), "-o", str(tmp_path / "s.pdf"), "--no-progress"]) == 0
    manifest = game / "counters.yaml"  # named as the module names it: the readers take it by its bytes too
    manifest.write_text(manifest.read_text(encoding="utf-8").replace(front, "vmod/images/Captured by Red"),
                        encoding="utf-8")
    assert _fenir_art(game)["front"] == "vmod/images/Captured by Red"
    assert main(["counters", "contact", str(game), "-o", str(tmp_path / "c2.png")]) == 0
    assert (0, 160, 160) in _colours(tmp_path / "c2.png")


@pytest.mark.parametrize("bad", [b"\x89PNG\r\n\x1a\n" + b"\0" * 40, b"not an image at all",
                                 b'<svg xmlns="http://www.w3.org/2000/svg" width="75" height="75"><g>'])
def test_an_image_that_cannot_be_drawn_is_kept_reported_and_printed_as_a_placeholder(
        ragnarok: Path, tmp_path: Path, bad: bytes, capsys: pytest.CaptureFixture[str]) -> None:
    mod = _variant(ragnarok, tmp_path, bad, name="en-fenir.png")
    game = tmp_path / "game"
    assert main(["game", "import", str(mod), str(game)]) == 0
    assert "1 images not drawn" in capsys.readouterr().out
    assert (game / "vmod" / "images" / "en-fenir.png").read_bytes() == bad  # kept byte for byte
    [entry] = _report(game)["images not drawn"]  # type: ignore[misc]
    assert entry["image"] == "images/en-fenir.png" and entry["reason"] and entry["counters"]
    assert main(["counters", "contact", str(game), "-o", str(tmp_path / "c.png")]) == 0
    assert PLACEHOLDER_MARK in _colours(tmp_path / "c.png")
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "en-fenir.png" in err[0] and "placeholder" in err[0]
    assert main(["counters", "images", str(game), "-o", str(tmp_path / "faces"), "--json", "--no-progress"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert [d["image"] for d in summary["images_not_drawn"]] == [str(game / "vmod" / "images" / "en-fenir.png")]
    assert main(["module", "build", str(game), "-o", str(tmp_path / "r.vmod")]) == 0  # the rebuild goes on


def test_a_hostile_svg_in_a_sheet_is_one_warning_line_and_a_placeholder(imported: Path, tmp_path: Path,
                                                                         capsys: pytest.CaptureFixture[str]) -> None:
    game = tmp_path / "g"
    shutil.copytree(imported, game)
    (game / "vmod" / "images" / "en-fenir.svg").write_bytes(
        b'<?xml version="1.0"?><!DOCTYPE s [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
        b'<svg xmlns="http://www.w3.org/2000/svg" width="75" height="75"><text>&x;</text></svg>')
    assert main(["counters", "contact", str(game), "-o", str(tmp_path / "c.png")]) == 0
    err = capsys.readouterr().err.strip()
    assert "en-fenir.svg" in err and "external entity" in err and len(err.splitlines()) == 1
    assert PLACEHOLDER_MARK in _colours(tmp_path / "c.png")


def test_an_extensionless_board_image_is_read_by_its_bytes(ragnarok: Path, tmp_path: Path) -> None:
    """The module's board image without an extension: the imported folder's board art is taken for the JPEG
    it is by the referee's report (module.yaml's board.art was refused for its name)."""
    mod = tmp_path / "mod"
    shutil.copytree(ragnarok, mod)
    (mod / "images" / "map.jpg").rename(mod / "images" / "the map")
    build = mod / "buildFile.xml"
    build.write_text(build.read_text(encoding="utf-8").replace('image="map.jpg"', 'image="the map"'), encoding="utf-8")
    game = tmp_path / "game"
    assert main(["game", "import", str(mod), str(game)]) == 0
    report = tmp_path / "r.html"
    assert main(["referee", "check", str(game / "vmod" / "ragnarok-start.vsav"), "--game", str(game),
                 "--format", "html", "-o", str(report)]) in (0, 1)
    assert "data:image/jpeg;base64," in report.read_text(encoding="utf-8")
