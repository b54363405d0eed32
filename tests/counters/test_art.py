"""Counters with the user's own art: a front and a back image per counter, named in counters.yaml or
found by the folder naming convention; `counters sheet`, `counters contact` and `module build` use
them alike, without our face renderer. Images are checked before they are decoded."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PIL import Image

from gazala_tools.cli import main
from gazala_tools.counters import ManifestError, load_manifest, parse_manifest
from gazala_tools.errors import GazalaError
from gazala_tools.render import counters as rc
from gazala_tools.render.sheets import PAGE_SIZES_MM, write_sheet

GAME = """\
id: art-test
name: Art Test
provenance: original
sides:
  - {id: north, name: North}
  - {id: south, name: South}
"""

MANIFEST = """\
counter_size: 5/8 in
art: {folder: art}
nationalities:
  n: {name: Northland, side: north, color: "#dddddd"}
  s: {name: Southland, side: south, color: "#bbbbbb"}
units:
  - {id: north-a, nationality: n, designation: A, type: infantry, values: [1, 2, 3]}
  - {id: north-b, nationality: n, designation: B, type: armor, steps: 2, values: [[4, 4, 6], [2, 2, 6]]}
  - {id: south-c, nationality: s, designation: C, type: infantry, values: [1, 1, 4],
     art: {front: pictures/c-up.jpg, back: pictures/c-down.png}}
markers:
  - {id: smoke, count: 3, front: {title: SMOKE}}
"""

#: every face of the game and the flat colour of its art
COLOURS = {
    "north-a-front": (200, 30, 30), "north-a-back": (30, 200, 30),
    "north-b-s2-front": (30, 30, 200), "north-b-s2-back": (200, 200, 30),
    "north-b-s1-front": (200, 30, 200), "north-b-s1-back": (30, 200, 200),
    "smoke-front": (120, 60, 10),
}


def _image(path: Path, colour: tuple[int, int, int], size: tuple[int, int] = (120, 120)) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.new("RGB", size, colour).save(path)


@pytest.fixture()
def game(tmp_path: Path) -> Path:
    folder = tmp_path / "art-test"
    folder.mkdir()
    (folder / "game.yaml").write_text(GAME, encoding="utf-8")
    (folder / "counters.yaml").write_text(MANIFEST, encoding="utf-8")
    for name, colour in COLOURS.items():
        _image(folder / "art" / f"{name}.png", colour)
    _image(folder / "pictures" / "c-up.jpg", (250, 250, 250))
    _image(folder / "pictures" / "c-down.png", (10, 10, 10))
    return folder


def test_art_is_found_by_the_convention_and_named_in_the_manifest(game: Path) -> None:
    m = load_manifest(game)
    assert m["north-a"].front_art == str((game / "art" / "north-a-front.png").resolve())
    assert m["north-b-s1"].back_art.endswith("north-b-s1-back.png")
    assert m["south-c"].front_art.endswith("pictures/c-up.jpg") and m["south-c"].back_art.endswith("c-down.png")
    # three smoke markers share the unit-id image; a back like the front uses the front image
    assert {m[f"smoke-{i}"].front_art for i in (1, 2, 3)} == {str((game / "art" / "smoke-front.png").resolve())}
    assert m["smoke-1"].back_art == m["smoke-1"].front_art


def _drawing_forbidden(monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(*_a: Any, **_k: Any) -> None:
        raise AssertionError("the face renderer was used")

    monkeypatch.setattr(rc, "render_face", boom)


def test_duplex_sheet_prints_the_art_front_over_its_own_back(game: Path, tmp_path: Path, pdf: Any,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """Each counter's art front on the fronts page; after a long-edge flip, its art back beneath it."""
    _drawing_forbidden(monkeypatch)
    m = load_manifest(game)
    counters = [c for c in m.counters if c.id != "south-c"]
    out = tmp_path / "sheet.pdf"
    write_sheet(counters, out, dpi=100)
    dpi = 100
    front, back = pdf.rasterize_rgb(out, 1, dpi), pdf.rasterize_rgb(out, 2, dpi)
    xs, ys = pdf.crop_marks_of(out, 1, 600)
    cells = [((a + b) / 2, (c + d) / 2) for c, d in zip(ys[0::2], ys[1::2], strict=False)
             for a, b in zip(xs[0::2], xs[1::2], strict=False)]
    k = dpi / 25.4
    w_mm = PAGE_SIZES_MM["a4"][0]
    got = []
    for c, (x, y) in zip(counters, cells, strict=False):
        f = tuple(int(v) for v in front[round(y * k), round(x * k)])
        b = tuple(int(v) for v in back[round(y * k), round((w_mm - x) * k)])
        got.append((c.id, f, b))
    expected = [(c.id, COLOURS[Path(c.front_art).stem], COLOURS[Path(c.back_art).stem]) for c in counters]
    assert all(np.allclose(g[1], e[1], atol=6) and np.allclose(g[2], e[2], atol=6) for g, e in zip(got, expected, strict=True)), got


def test_art_face_has_the_size_and_bleed_of_a_drawn_face(game: Path) -> None:
    c = load_manifest(game)["north-a"]
    drawn = rc.render_face(c, dpi=200, bleed_mm=1.0)
    art = rc.counter_face(c, dpi=200, bleed_mm=1.0)
    assert art.size == drawn.size
    b = round(1.0 / 25.4 * 200)
    assert art.getpixel((0, 0)) == art.getpixel((b, b)) == COLOURS["north-a-front"]  # bleed repeats the edge


def test_contact_sheet_and_cli_use_the_art(game: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    _drawing_forbidden(monkeypatch)
    m = load_manifest(game)
    sheet = rc.contact_sheet(m.counters, dpi=50, columns=4)
    colours = {sheet.getpixel((x, y)) for x in range(0, sheet.width, 5) for y in range(0, sheet.height, 5)}
    assert set(COLOURS.values()) <= colours
    assert main(["counters", "contact", str(game), "-o", str(tmp_path / "c.png"), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["faces"] == 2 * len(m)
    assert main(["counters", "sheet", str(game), "-o", str(tmp_path / "s.pdf"), "--no-progress"]) == 0


def test_module_uses_the_art(game: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    from gazala_tools.vassal.module.games import module_spec

    _drawing_forbidden(monkeypatch)
    (game / "map.yaml").write_text("""\
title: Art Test
provenance: original
grid: {orientation: flat, columns: [1, 3], rows: [1, 3], north: top,
       pixels: {dx: 52, dy: 60, x0: 40, y0: 50, board_width: 220, board_height: 240, dpi: 100}}
terrain: {default: clear, types: {clear: {}}}
""", encoding="utf-8")
    spec = module_spec(game, dpi=40)  # the board is drawn, the counters are the art
    for name, art in (("north-b-s1-front", "north-b-s1-front"), ("north-a-back", "north-a-back"), ("smoke-1-front", "smoke-front")):
        face = Image.open(io.BytesIO(spec.images[f"images/{name}.png"])).convert("RGB")
        assert face.getpixel((face.width // 2, face.height // 2)) == COLOURS[art], name


# --- bad art: clear errors before anything is decoded ---------------------------------------------------
@pytest.mark.parametrize(
    ("change", "words"),
    [
        (("art: {folder: art}", "art: {folder: pictures/none}"), r":2:15: art.folder: 'pictures/none' is not a folder"),
        (("art: {folder: art}", "art: {folder: ../..}"), r":2:15: art.folder: .*leaves the game folder"),
        (("c-up.jpg", "c-up.bmp"), r":10:19: units\[2\].art.front: 'pictures/c-up.bmp' not found"),
        (("back: pictures/c-down.png", "back: ../../c.png"),
         r":10:44: units\[2\].art.back: image '../../c.png' leaves the game folder"),
        (("art: {folder: art}", "art: {required: true}"), r":2:6: art: 'required' without 'folder'"),
        (("front: pictures/c-up.jpg, ", ""), r":10:11: units\[2\].art: no front image"),
    ],
)
def test_bad_art_in_the_manifest_names_the_place_and_key(game: Path, change: tuple[str, str], words: str) -> None:
    text = MANIFEST.replace(*change)
    assert text != MANIFEST
    (game / "counters.yaml").write_text(text, encoding="utf-8")
    with pytest.raises(ManifestError, match=words):
        load_manifest(game)


def test_a_counter_with_a_front_but_no_back_image_is_refused(game: Path) -> None:
    (game / "art" / "north-a-back.png").unlink()
    with pytest.raises(ManifestError, match=r":7:5: units\[0\]: counter 'north-a' has front art but no back art"):
        load_manifest(game)


def test_required_art_names_the_counter_without_it(game: Path) -> None:
    (game / "counters.yaml").write_text(MANIFEST.replace("art: {folder: art}", "art: {folder: art, required: true}")
                                        .replace("  - {id: smoke", "  - {id: fog, count: 1, front: {title: FOG}}\n  - {id: smoke"),
                                        encoding="utf-8")
    with pytest.raises(ManifestError, match="no art for counter 'fog'"):
        load_manifest(game)


@pytest.mark.parametrize(
    ("size", "data", "words"),
    [
        ((120, 60), None, "120 x 60 pixels, not square"),
        ((6000, 6000), None, "6000 x 6000 pixels"),
        (None, b"GIF89a not really", "cannot be read"),
        (None, b"plain text", "cannot be read"),
    ],
)
def test_art_files_are_checked_before_decoding(game: Path, size: tuple[int, int] | None, data: bytes | None,
                                               words: str, monkeypatch: pytest.MonkeyPatch) -> None:
    path = game / "art" / "north-a-front.png"
    if size is not None:
        Image.new("RGB", size, (1, 2, 3)).save(path)
    else:
        path.write_bytes(data or b"")
    from PIL import ImageFile

    decoded: list[str] = []
    real_load = ImageFile.ImageFile.load

    def spy(self: ImageFile.ImageFile) -> Any:
        decoded.append(str(getattr(self, "filename", "")))
        return real_load(self)

    monkeypatch.setattr(ImageFile.ImageFile, "load", spy)
    c = load_manifest(game)["north-a"]
    with pytest.raises(GazalaError, match=words):
        rc.counter_face(c, dpi=100)
    if size is not None:  # refused from its header: the pixels were never decoded
        assert not any(d.endswith("north-a-front.png") for d in decoded)


def test_art_larger_than_the_byte_cap_is_refused_unread(game: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rc, "MAX_ART_BYTES", 100)
    with pytest.raises(GazalaError, match="bytes"):
        rc.load_art(game / "art" / "north-a-front.png")


def test_stand_alone_manifest_art_is_relative_to_its_file(tmp_path: Path) -> None:
    _image(tmp_path / "faces" / "x-front.png", (9, 9, 9))
    text = "game: solo\ncounter_size: 1/2 in\nart: {folder: faces}\nmarkers:\n  - {id: x, front: {title: X}}\n"
    (tmp_path / "counters.yaml").write_text(text, encoding="utf-8")
    m = load_manifest(tmp_path / "counters.yaml")
    assert m["x"].front_art.endswith("faces/x-front.png")
    with pytest.raises(ManifestError, match=r":5:19: markers\[0\].side: 'Left' is not a side id"):
        parse_manifest(text.replace("{id: x,", "{id: x, side: Left,"), file=tmp_path / "counters.yaml")


def test_a_sheet_may_not_overwrite_an_art_file(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = game / "art" / "north-a-front.png"
    before = target.read_bytes()
    assert main(["counters", "contact", str(game), "-o", str(target)]) == 2
    assert main(["counters", "sheet", str(game), "-o", str(target), "--no-progress"]) == 2
    assert "overwrite an input" in capsys.readouterr().err and target.read_bytes() == before
