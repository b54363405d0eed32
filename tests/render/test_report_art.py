"""Issue 23 item 1: the board of a referee report is the game's own, read within its caps.

A game whose module shows a given board image gets that image in its reports, read as a reduced
copy (a JPEG decoded small by libjpeg), checked against ``map.yaml``'s ``grid.pixels`` before a
pixel is decoded; the page embeds images of a bounded size; sections with nothing in them are left out.
"""

from __future__ import annotations

import base64
import io
import re
from pathlib import Path

import pytest
from PIL import Image, ImageDraw

from gazala_tools.cli import main as gazala
from gazala_tools.errors import GazalaError
from gazala_tools.mapdata.loader import load_game_map
from gazala_tools.render.boardart import reduced_board
from gazala_tools.render.report import data_uri
from tools.synthgame import write_game


def position(folder: Path) -> Path:
    pos = folder.parent / "position.yaml"
    pos.write_text('game: synthetic-war\nturn: Turn 2\nunits:\n  - {id: red-1, hex: "C04"}\n', encoding="utf-8")
    return pos


def embedded(html: str) -> list[Image.Image]:
    return [Image.open(io.BytesIO(base64.b64decode(m))) for m in re.findall(r'href="data:image/\w+;base64,([^"]+)"', html)]


def test_a_game_with_a_board_image_is_reported_on_that_image(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "game"
    write_game(folder)
    board = Image.open(folder / "board.png").convert("RGB")
    marked = board.copy()
    ImageDraw.Draw(marked).rectangle((0, 0, 40, 40), fill=(255, 0, 255))  # the corner of the user's image
    marked.save(folder / "board.png")
    page = tmp_path / "r.html"
    assert gazala(["referee", "check", str(position(folder)), "--game", str(folder), "--format", "html",
                   "-o", str(page)]) in (0, 1)
    html = page.read_text(encoding="utf-8")
    whole = max(embedded(html), key=lambda im: im.width * im.height).convert("RGB")
    assert all(abs(a - b) <= 40 for a, b in zip(whole.getpixel((5, 5)), (255, 0, 255), strict=True))
    assert "<h2>VP</h2>" not in html and 'id="summary"' not in html


def test_a_board_image_of_another_size_than_the_grid_is_bad_input(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "game"
    write_game(folder)
    Image.open(folder / "board.png").resize((300, 200)).save(folder / "board.png")
    before = (folder / "board.png").read_bytes()
    code = gazala(["referee", "check", str(position(folder)), "--game", str(folder), "--format", "html",
                   "-o", str(tmp_path / "r.html")])
    err = capsys.readouterr().err.strip()
    assert code == 2 and len(err.splitlines()) == 1 and "board.png" in err and "grid.pixels" in err
    assert not (tmp_path / "r.html").exists() and (folder / "board.png").read_bytes() == before


def test_a_board_declaring_more_pixels_than_the_cap_is_refused_before_decoding(tmp_path: Path) -> None:
    """A PNG header saying 30,000 x 20,000 (600 Mpx, above the 400 Mpx board cap) in a file of a
    few bytes: refused from the header."""
    import struct
    import zlib

    ihdr = struct.pack(">IIBBBBB", 30000, 20000, 8, 2, 0, 0, 0)
    png = b"\x89PNG\r\n\x1a\n" + struct.pack(">I", 13) + b"IHDR" + ihdr + struct.pack(">I", zlib.crc32(b"IHDR" + ihdr))
    path = tmp_path / "board.png"
    path.write_bytes(png)
    with pytest.raises(GazalaError, match="declares 30000 x 20000 pixels"):
        reduced_board(path, (30000, 20000), (300, 200))


def test_a_jpeg_board_is_read_reduced_and_looks_like_the_board(tmp_path: Path) -> None:
    """A 3200 x 2400 JPEG read at 400 x 300 (libjpeg decodes it at 1/8): the same picture as the
    whole image shrunk, quadrant by quadrant."""
    img = Image.new("RGB", (3200, 2400), (240, 230, 200))
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, 1599, 1199), fill=(200, 40, 40))
    d.rectangle((1600, 1200, 3199, 2399), fill=(40, 60, 200))
    path = tmp_path / "board.jpg"
    img.save(path, quality=90)
    small = reduced_board(path, (3200, 2400), (400, 300))
    assert small.size == (400, 300) and small.mode == "RGB"
    for xy, rgb in (((100, 75), (200, 40, 40)), ((300, 225), (40, 60, 200)), ((300, 75), (240, 230, 200))):
        assert all(abs(a - b) <= 12 for a, b in zip(small.getpixel(xy), rgb, strict=True))  # type: ignore[arg-type]


def test_embedded_images_are_bounded(tmp_path: Path) -> None:
    """A 12 Mpx picture embedded with a 1.5 Mpx bound is embedded at most 1.5 Mpx (a scan as JPEG)."""
    noise = Image.effect_noise((4000, 3000), 60).convert("RGB")
    uri = data_uri(noise, photo=True, max_pixels=1_500_000)
    assert uri.startswith("data:image/jpeg;base64,")
    got = Image.open(io.BytesIO(base64.b64decode(uri.split(",", 1)[1])))
    assert got.width * got.height <= 1_500_000 and abs(got.width / got.height - 4 / 3) < 0.01


def test_the_part_that_matters_is_shown_and_the_whole_board_is_one_click_away(tmp_path: Path) -> None:
    """Two RG units a few hexes apart: the board shown is a part around them (at least 8 hexes each way),
    and the page holds the whole board behind a toggle; units spread over the board: the whole board."""
    def page(units: dict[str, str], name: str) -> str:
        pos = tmp_path / f"{name}.yaml"
        pos.write_text("game: gazala-rg\nturn: May 27 AM\nunits:\n"
                       + "".join(f'  - {{id: {u}, hex: "{h}"}}\n' for u, h in units.items()), encoding="utf-8")
        out = tmp_path / f"{name}.html"
        assert gazala(["referee", "check", str(pos), "--format", "html", "-o", str(out)]) in (0, 1)
        return out.read_text(encoding="utf-8")

    def view(html: str) -> list[float]:
        m = re.search(r'<svg [^>]*id="board"[^>]*viewBox="([^"]+)"', html)
        assert m is not None
        return [float(v) for v in m.group(1).split()]

    from gazala_tools.games import find_game
    from gazala_tools.render.board import board_geometry, board_size, hex_size

    rg = load_game_map(find_game("gazala-rg"))
    hexes = hex_size(board_geometry(rg, dpi=50))
    width, height = board_size(rg, dpi=50)  # the drawn board (it follows the grid; title and legend below)
    near = page({"allied-22arm-2-rgh": "1310", "axis-ariete-5-ber": "1412"}, "near")
    x, y, w, h = view(near)
    assert x > 0 and y > 0 and 8 * hexes <= w < width and 8 * hexes <= h < height
    assert '<details id="whole-board">' in near and len(embedded(near)) >= 2
    spread = page({"allied-22arm-2-rgh": "0102", "axis-ariete-5-ber": "2921"}, "spread")
    assert view(spread) == [0, 0, *board_size(rg, dpi=50)] and '<details id="whole-board">' not in spread
