"""Reading scans safely, and the `gazala digitize` verbs end to end."""

from __future__ import annotations

import json
import zlib
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml
from PIL import Image

from gazala_tools.cli import main
from gazala_tools.digitize.image import MAX_PIXELS, open_image, tiles
from gazala_tools.errors import GazalaError
from gazala_tools.numbering import Numbering
from tools.scans.synthetic import DEFAULT_KINDS, SyntheticBoard, legend_for


def test_pixel_cap_is_checked_before_decoding(tmp_path: Path) -> None:
    p = tmp_path / "big.png"
    Image.new("RGB", (300, 200)).save(p)
    assert open_image(p).size == (300, 200)
    with pytest.raises(GazalaError, match=r"300x200.*above the 0 Mpx cap") as err:
        open_image(p, max_pixels=50_000)
    assert "big.png" in str(err.value) and "--max-pixels" in str(err.value)
    assert MAX_PIXELS >= 250_000_000


def test_grey_open_reads_luma_without_a_colour_copy(tmp_path: Path) -> None:
    """detect-grid and calibrate open scans grey: a JPEG decodes to its luma (close to Pillow's
    RGB-to-L of the decoded colours), a PNG is converted, a grey scan is kept as it is."""
    import numpy as np

    rng = np.random.default_rng(1)
    rgb = Image.fromarray(rng.integers(0, 256, (60, 80, 3), dtype=np.uint8)).resize((320, 240))
    rgb.info["dpi"] = (300, 300)
    for name, fmt in (("scan.jpg", "JPEG"), ("scan.png", "PNG")):
        rgb.save(tmp_path / name, fmt, dpi=(300, 300))
        grey = open_image(tmp_path / name, grey=True)
        assert grey.mode == "L" and grey.size == (320, 240) and round(grey.info["dpi"][0]) == 300
        colour = np.asarray(open_image(tmp_path / name).convert("L"), dtype=int)
        assert np.abs(np.asarray(grey, dtype=int) - colour).mean() < 2.0
    rgb.convert("L").save(tmp_path / "grey.png")
    assert open_image(tmp_path / "grey.png", grey=True).mode == "L"
    assert open_image(tmp_path / "grey.png").mode == "RGB"


def test_unreadable_images_are_gazala_errors(tmp_path: Path) -> None:
    bad = tmp_path / "scan.png"
    bad.write_bytes(b"not a png")
    with pytest.raises(GazalaError, match="cannot read image"):
        open_image(bad)
    with pytest.raises(GazalaError, match="no such image"):
        open_image(tmp_path / "missing.png")


def test_tiles_cover_the_image_once() -> None:
    import numpy as np

    cover = np.zeros((1000, 700), dtype=np.int64)
    for ys, xs in tiles(1000, 700, tile=256):
        assert ys.stop - ys.start <= 256 and xs.stop - xs.start <= 256
        cover[ys, xs] += 1
    assert (cover == 1).all()


@pytest.fixture()
def scan(tmp_path: Path, flat_board: SyntheticBoard) -> Path:
    p = tmp_path / "scan.png"
    flat_board.image.save(p)
    return p


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_detect_grid_json_and_one_ref(scan: Path, flat_board: SyntheticBoard, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    g = flat_board.geometry
    code, out, _ = run(capsys, "digitize", "detect-grid", str(scan), "--json")
    assert code == 0
    data = json.loads(out)
    assert {"dx", "dy", "x0", "y0", "sideways", "confidence"} <= set(data)
    assert data["dx"] == pytest.approx(g.dx, abs=0.5) and data["sideways"] is False
    x, y = g.raw_center(2, 3)
    label = g.numbering.name(2, 3)  # type: ignore[union-attr]
    grid = tmp_path / "grid.yaml"
    code, out, _ = run(capsys, "digitize", "detect-grid", str(scan), "--ref", f"{label}={x},{y}", "--json", "-o", str(grid))
    data = json.loads(out)
    assert (data["x0"], data["y0"]) == (g.x0, g.y0)
    assert data["vassal"]["HexGrid"]["x0"] == str(data["x0"])
    assert yaml.safe_load(grid.read_text())["grid"]["pixels"]["x0"] == data["x0"]


def test_cli_calibrate_writes_grid_yaml(scan: Path, flat_board: SyntheticBoard, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    g = flat_board.geometry
    refs = []
    for c, r in ((0, 0), (23, 16), (11, 17)):
        x, y = g.raw_center(c, r)
        refs += ["--ref", f"{g.numbering.name(c, r)}={x},{y}"]  # type: ignore[union-attr]
    out_file = tmp_path / "grid.yaml"
    code, out, _ = run(capsys, "digitize", "calibrate", str(scan), *refs, "--numbering", "vassal-default", "-o", str(out_file), "--json")
    assert code == 0
    data = json.loads(out)
    assert (data["x0"], data["y0"]) == (g.x0, g.y0) and data["dx"] == pytest.approx(g.dx, abs=0.05)
    assert len(data["residuals"]) == 3 and data["rms_px"] < 1.0
    assert "HexGridNumbering" in data["vassal"]
    assert yaml.safe_load(out_file.read_text())["grid"]["orientation"] == "flat"


def test_cli_classify_and_overlay(scan: Path, flat_board: SyntheticBoard, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    g = flat_board.geometry
    x, y = g.raw_center(0, 0)
    grid = tmp_path / "grid.yaml"
    assert main(["digitize", "detect-grid", str(scan), "--ref", f"0101={x},{y}", "-o", str(grid)]) == 0
    legend = tmp_path / "legend.yaml"
    legend.write_text(
        yaml.safe_dump(
            {
                "terrain": {k: "#{:02x}{:02x}{:02x}".format(*c) for k, c in legend_for(DEFAULT_KINDS).items()},
                "default": "clear",
                "hexsides": {"minefield": "#cc1818", "escarpment": "#6e461e"},
            }
        )
    )
    terrain = tmp_path / "terrain.yaml"
    mapdir = tmp_path / "digitized"
    capsys.readouterr()
    code, out, _ = run(
        capsys, "digitize", "classify", str(scan), "--grid", str(grid), "--legend", str(legend), "--hexsides",
        "-o", str(terrain), "--map-out", str(mapdir), "--json",
    )
    assert code == 0
    data = json.loads(out)
    assert data["terrain"]["0101"] == flat_board.terrain[g.hex_at(x, y)]
    doc = yaml.safe_load(terrain.read_text())
    assert doc["terrain"]["default"] == "clear" and doc["hexsides"]
    from gazala_tools.mapdata import load_map

    m = load_map(mapdir)  # the written map loads with the map-data reader
    right = sum(m.terrain(h) == flat_board.terrain[h] for h in flat_board.terrain if h in m.grid)
    assert right >= 0.98 * len(flat_board.terrain)
    check = tmp_path / "check.png"
    assert main(["digitize", "overlay", str(scan), "--map", str(mapdir), "-o", str(check)]) == 0
    with Image.open(check) as im:
        assert im.size == flat_board.image.size


def test_cli_errors_exit_2(scan: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "digitize", "detect-grid", str(scan), "--max-pixels", "1000")
    assert code == 2 and "cap" in err
    code, _, err = run(capsys, "digitize", "calibrate", str(scan), "--ref", "0101=1,2")
    assert code == 2 and "two references" in err
    code, _, err = run(capsys, "digitize", "overlay", str(scan), "-o", str(scan), "--grid", str(tmp_path / "none.yaml"))
    assert code == 2


def test_numbering_is_a_game_id_a_game_folder_or_vassal_attributes() -> None:
    from gazala_tools.games.registry import find_game, mapdata_root
    from gazala_tools.mapdata.gridfile import numbering_from

    bg = find_game("batalha").numbering
    assert bg.h_type == "A"
    assert numbering_from("batalha", allow_path=True) == (bg, "batalha")
    assert numbering_from(str(mapdata_root() / "batalha"), allow_path=True)[0] == bg
    assert numbering_from("hType=A, hOff=0 vLeading=1") == (bg, "custom")
    assert numbering_from({"hType": "A", "hOff": 0, "vLeading": 1}) == (bg, "custom")
    assert numbering_from("vassal-default") == (Numbering(), "vassal-default")
    with pytest.raises(GazalaError, match="unknown numbering"):
        numbering_from(str(mapdata_root() / "batalha"))  # a folder only where a path may be given
    with pytest.raises(GazalaError, match="hTyp"):
        numbering_from("hTyp=A")


def test_cli_detect_grid_one_ref_under_a_games_numbering(scan: Path, flat_board: SyntheticBoard, capsys: pytest.CaptureFixture[str]) -> None:
    g = flat_board.geometry
    bg = Numbering(h_type="A", h_off=0, v_leading=1, v_off=1)  # Batalha's game.yaml
    x, y = g.raw_center(5, 4)
    code, out, _ = run(capsys, "digitize", "detect-grid", str(scan), "--ref", f"{bg.name(5, 4)}={x},{y}", "--numbering", "batalha", "--json")
    assert code == 0
    data = json.loads(out)
    assert (data["x0"], data["y0"]) == (g.x0, g.y0)
    assert Numbering.from_vassal_attrs(data["vassal"]["HexGridNumbering"]) == bg


# --- bounded memory on large scans: strips, streamed PNG, in-place overlay ------------------------
def _noise(mode: str, size: tuple[int, int] = (173, 301)) -> Image.Image:
    import numpy as np

    rng = np.random.default_rng(3)
    shape = (size[1], size[0], 3) if mode == "RGB" else (size[1], size[0])
    return Image.fromarray(rng.integers(0, 256, shape, dtype=np.uint8), mode)


@pytest.mark.parametrize("mode", ["RGB", "L"])
def test_affine_strips_are_the_whole_transforms_rows(mode: str) -> None:
    """deskew resamples a large scan a strip at a time: the strips (any height, made by one or two
    threads) are the rows of the whole image's transform, pixel for pixel."""
    import math

    import numpy as np

    from gazala_tools.digitize.image import affine_strips

    img = _noise(mode)
    th, sh = math.radians(0.5), math.tan(math.radians(0.3))
    data = (math.cos(th), -math.sin(th) + sh, 3.7, math.sin(th), math.cos(th), -2.3)
    fill = (255, 255, 255) if mode == "RGB" else 255
    whole = np.asarray(img.transform(img.size, Image.Transform.AFFINE, data, resample=Image.Resampling.BICUBIC, fillcolor=fill))
    for rows, workers in ((17, 1), (64, 2), (301, 2), (1000, 1)):
        strips = list(affine_strips(img, img.size, data, fill=fill, rows=rows, workers=workers))
        assert [s.height for s in strips[:-1]] == [rows] * (len(strips) - 1)
        assert np.array_equal(np.concatenate([np.asarray(s) for s in strips]), whole)


def image_strips(img: Image.Image, rows: int = 256) -> Iterator[Image.Image]:
    """``img`` as horizontal strips of ``rows`` (copies, one at a time), as deskew makes them."""
    for top in range(0, img.height, rows):
        yield img.crop((0, top, img.width, min(img.height, top + rows)))


@pytest.mark.parametrize("mode", ["RGB", "L"])
def test_png_written_from_strips_decodes_to_the_image(mode: str, tmp_path: Path) -> None:
    import numpy as np

    from gazala_tools.digitize.image import save_png_strips

    img = _noise(mode)
    out = tmp_path / "out.png"
    save_png_strips(out, img.size, mode, image_strips(img, rows=50), dpi=300)
    with Image.open(out) as back:
        assert back.mode == mode and np.array_equal(np.asarray(back), np.asarray(img))
        assert round(back.info["dpi"][0]) == 300
    assert [p.name for p in tmp_path.iterdir()] == ["out.png"]
    # the strips, deflated apart, join into one zlib stream whose checksum holds (zlib checks it)
    data, idat, at = out.read_bytes(), b"", 8
    while at < len(data):
        n, tag = int.from_bytes(data[at : at + 4], "big"), data[at + 4 : at + 8]
        idat += data[at + 8 : at + 8 + n] if tag == b"IDAT" else b""
        at += 12 + n
    assert len(zlib.decompress(idat)) == img.height * (1 + img.width * len(mode))
    one = tmp_path / "one.png"  # one thread or two: the same file
    save_png_strips(one, img.size, mode, image_strips(img, rows=50), dpi=300, workers=1)
    assert one.read_bytes() == data


def test_png_from_strips_is_atomic(tmp_path: Path) -> None:
    """A failure while the strips are made or written leaves the old file as it was and no
    temporary file beside it; the file is replaced only when complete."""
    from gazala_tools.digitize.image import save_png_strips

    img = _noise("RGB")
    out = tmp_path / "out.png"
    out.write_bytes(b"the old file")

    def broken() -> Iterator[Image.Image]:
        yield img.crop((0, 0, img.width, 100))
        raise RuntimeError("the scan could not be read further")

    with pytest.raises(RuntimeError, match="further"):
        save_png_strips(out, img.size, "RGB", broken())
    with pytest.raises(ValueError, match="100 rows"):  # too few rows: not a whole image
        save_png_strips(out, img.size, "RGB", image_strips(img.crop((0, 0, img.width, 100))))
    with pytest.raises(ValueError, match="L strip"):
        save_png_strips(out, img.size, "RGB", image_strips(img.convert("L")))
    assert out.read_bytes() == b"the old file" and [p.name for p in tmp_path.iterdir()] == ["out.png"]
    save_png_strips(out, img.size, "RGB", image_strips(img))
    with Image.open(out) as back:
        assert back.size == img.size


def test_overlay_fades_in_place_as_a_whole_blend_would() -> None:
    import numpy as np

    from gazala_tools.digitize.overlay import FADE, fade

    img = _noise("RGB")
    whole = np.asarray(Image.blend(img, Image.new("RGB", img.size, (255, 255, 255)), FADE))
    fade(img, rows=40)  # 301 rows: the last strip is shorter
    assert np.array_equal(np.asarray(img), whole)


def test_cli_overlay_equals_the_overlay_drawn_in_memory(scan: Path, flat_board: SyntheticBoard, tmp_path: Path) -> None:
    """overlay draws on the scan it opened and streams the PNG to the file: the same pixels as
    draw_overlay, which leaves its input unchanged."""
    import numpy as np

    from gazala_tools.digitize.overlay import draw_overlay
    from gazala_tools.mapdata.gridfile import spec_for, write_yaml

    g = flat_board.geometry
    spec = spec_for(g, g.numbering, "vassal-default", flat_board.image.size)
    grid = tmp_path / "grid.yaml"
    grid.write_text(write_yaml({"grid": spec.to_data()}))
    out = tmp_path / "check.png"
    assert main(["digitize", "overlay", str(scan), "--grid", str(grid), "-o", str(out)]) == 0
    img = open_image(scan)
    before = np.asarray(img).copy()
    hexes = list(spec.grid.hexes())
    drawn = draw_overlay(img, spec.geometry, hexes, {h: spec.grid.label(h) for h in hexes})
    assert np.array_equal(np.asarray(img), before)
    with Image.open(out) as back:
        assert np.array_equal(np.asarray(back), np.asarray(drawn))
