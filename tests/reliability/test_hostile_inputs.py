"""Issue 13: hostile and broken inputs end in a clean error (exit 2), never a traceback, a hang or a
blow-up. Each test is one cause the hostile-input run found."""

from __future__ import annotations

import os
import struct
import zipfile
import zlib
from pathlib import Path

import pytest

from gazala_tools.errors import GazalaError, VassalFormatError
from gazala_tools.inputs import ZipInput, bounded_int, parse_xml_stdlib, read_file
from gazala_tools.vassal.buildfile import parse_xml, read_layouts
from gazala_tools.vsav import read_save
from tools.fuzz.samples import buildfile, png_chunk, png_declaring, zip_bytes
from tools.saves import sample_commands, sample_file

from .conftest import Run

TEXT = sample_commands(3, style="3.7")


# --- labels and numbers ---------------------------------------------------------------------------
def test_hex_label_of_5000_digits_is_a_clean_error(run: Run) -> None:
    code, _, err = run("grid", "center", "gazala-rg", "1" * 5000)
    assert code == 2 and len(err) < 400
    code, _, err = run("grid", "center", "gazala-rg", "0x" + "1" * 5000)
    assert code == 2 and len(err) < 400


def test_huge_vleading_is_refused_before_padding(tmp_path: Path, run: Run) -> None:
    bf = tmp_path / "buildFile.xml"
    bf.write_text(buildfile('vLeading="2147483647"'))
    code, _, err = run("grid", "center", bf, "0101")
    assert code == 2 and "vLeading='2147483647' is out of range" in err  # the attribute as the module writes it


def test_numbering_integer_of_5000_digits_is_a_clean_error(tmp_path: Path, run: Run) -> None:
    bf = tmp_path / "buildFile.xml"
    bf.write_text(buildfile(f'hOff="{"9" * 5000}"'))
    code, _, err = run("grid", "center", bf, "0101")
    assert code == 2 and len(err) < 1100


def test_bounded_int_refuses_long_digit_strings_without_int() -> None:
    with pytest.raises(GazalaError, match="not an integer"):
        bounded_int("9" * 5000, what="x")
    assert bounded_int(" -12 ", what="x") == -12


# --- zip archives ---------------------------------------------------------------------------------
def _with_method(data: bytes, method: int) -> bytes:
    """A zip whose members all claim compression ``method`` (local and central headers)."""
    out = bytearray(data)
    i = 0
    while (i := out.find(b"PK\x03\x04", i)) >= 0:
        struct.pack_into("<H", out, i + 8, method)
        i += 4
    i = 0
    while (i := out.find(b"PK\x01\x02", i)) >= 0:
        struct.pack_into("<H", out, i + 10, method)
        i += 4
    return bytes(out)


def test_zip_member_with_compression_method_99_is_a_clean_error() -> None:
    data = _with_method(zip_bytes([("savedGame", TEXT.encode())]), 99)
    with pytest.raises(VassalFormatError, match="savedGame"):
        read_save(data, name="x.vsav")


def test_zip_member_with_a_bad_crc_is_a_clean_error() -> None:
    data = bytearray(zip_bytes([("savedGame", TEXT.encode())], zipfile.ZIP_STORED))
    i = data.find(b"begin_save")
    data[i] ^= 0x01  # same length, different bytes: the CRC no longer matches
    with pytest.raises(VassalFormatError, match=r"CRC|Bad"):
        read_save(bytes(data), name="x.vsav")


def test_zip_entry_lying_about_its_size_is_cut_while_streaming() -> None:
    body = b" " * (3 * 1024 * 1024)
    data = bytearray(zip_bytes([("savedGame", body)]))
    # declare 10 bytes uncompressed in both headers: the reader must count what comes out
    for sig, off in ((b"PK\x03\x04", 22), (b"PK\x01\x02", 24)):
        i = data.find(sig)
        struct.pack_into("<I", data, i + off, 10)
    with ZipInput(bytes(data), file="lie.zip") as zf, pytest.raises(GazalaError):
        zf.read("savedGame", cap=1024 * 1024)


def test_many_entries_share_one_archive_budget() -> None:
    members = [(f"m{i}", os.urandom(1 << 20)) for i in range(12)]
    with ZipInput(zip_bytes(members), file="many.zip", budget=5 << 20) as zf, \
            pytest.raises(GazalaError, match="total size budget"):
        for name in zf.names():
            zf.read(name)


# --- XML ------------------------------------------------------------------------------------------
def test_savedata_with_a_bogus_encoding_is_a_clean_error() -> None:
    data = zip_bytes([("savedGame", TEXT.encode()),
                      ("savedata", b"<?xml version='1.0' encoding='bogus'?><data><version>1</version></data>")])
    with pytest.raises(VassalFormatError, match="savedata"):
        read_save(data, name="x.vsav")


@pytest.mark.parametrize("codec", ["utf-8", "utf-16"])
def test_doctype_is_refused_after_a_long_comment_in_any_encoding(codec: str) -> None:
    doc = f'<?xml version="1.0" encoding="{codec.upper()}"?><!-- {"x" * 100_000} --><!DOCTYPE d><d/>'
    with pytest.raises(GazalaError, match="DOCTYPE"):
        parse_xml_stdlib(doc.encode(codec), file="m")
    with pytest.raises(GazalaError, match="DOCTYPE"):
        parse_xml(doc.encode(codec), file="buildFile.xml")


def test_buildfile_in_utf16_with_a_doctype_is_refused(tmp_path: Path) -> None:
    text = buildfile().replace('encoding="UTF-8"?>', 'encoding="UTF-16"?><!DOCTYPE x [<!ENTITY e "e">]>')
    bf = tmp_path / "buildFile.xml"
    bf.write_bytes(text.encode("utf-16"))
    with pytest.raises(VassalFormatError, match="DOCTYPE"):
        read_layouts(bf)


# --- files that are not regular files -------------------------------------------------------------
def test_dev_zero_is_refused_without_reading(run: Run) -> None:
    code, _, err = run("vsav", "dump", "/dev/zero")
    assert code == 2 and "device" in err


def test_fifo_is_refused_without_blocking(tmp_path: Path, run: Run) -> None:
    fifo = tmp_path / "x.vsav"
    os.mkfifo(fifo)
    code, _, err = run("vsav", "dump", fifo)
    assert code == 2 and "FIFO" in err


def test_directory_is_refused() -> None:
    with pytest.raises(GazalaError, match="directory"):
        read_file("/", what="save")


# --- images ---------------------------------------------------------------------------------------
def test_small_png_declaring_240_megapixels_is_refused_before_decoding() -> None:
    from gazala_tools.inputs import open_image

    data = png_declaring(16000, 15000)
    assert len(data) < 300
    with pytest.raises(GazalaError, match="16000 x 15000"):
        open_image(data, file="bomb.png")


def test_png_whose_ztxt_inflates_past_the_limit_is_a_clean_error() -> None:
    from gazala_tools.inputs import open_image

    ztxt = png_chunk(b"zTXt", b"Comment\0\0" + zlib.compress(b"A" * (64 * 1024 * 1024), 9))
    data = png_declaring(4, 4, extra=ztxt)
    assert len(data) < 100_000
    with pytest.raises(GazalaError, match="cannot be read"):
        open_image(data, file="ztxt.png")


def test_board_image_of_zeros_in_a_module_is_sized_from_its_header_only(tmp_path: Path) -> None:
    head = png_declaring(400, 300)
    vmod = tmp_path / "m.vmod"
    vmod.write_bytes(zip_bytes([("buildFile.xml", buildfile(image="b.png").encode()),
                                ("images/b.png", head + b"\0" * (60 * 1024 * 1024))]))
    (layout,) = read_layouts(vmod)
    assert (layout.all_boards[0].width, layout.all_boards[0].height) == (400, 300)


def test_sample_file_still_reads() -> None:
    assert read_save(sample_file(TEXT), name="ok.vsav").as_dict()["pieces"]


# --- saves: pieces and command trees --------------------------------------------------------------
def test_steps_that_are_not_a_number_are_a_clean_error() -> None:
    from gazala_tools.games import find_game
    from gazala_tools.mapdata import load_map
    from gazala_tools.referee.saves import position_from_pieces
    from gazala_tools.rules import rules_for
    from gazala_tools.vsav import PieceView

    game_map = load_map("gazala-rg")
    x, y = game_map.geometry().hex_center(game_map.hex("1520"))
    piece = PieceView(id="1", name="2 Lcr", map="Main Map", x=x, y=y,
                      properties={"Kind": "unit", "UnitId": "allied-3ind-2-lcr", "Side": "Allied",
                                  "Type": "motorized-infantry", "Formation": "3 Ind", "Steps": "abc"})
    with pytest.raises(GazalaError, match="Steps 'abc'"):
        position_from_pieces([piece], rules=rules_for(find_game("gazala-rg"), game_map), source="s.vsav")


def _chain_save(tabs: int, *, change: bool) -> bytes:
    basic = "piece;;;img.png;Unit/"
    state = "null;0;0;;"
    if change:
        text = f"begin_save\x1b+/p1/{basic}/{state}\x1bD/p1/{'x' + chr(9) * tabs + state}\x1bend_save"
    else:
        text = f"begin_save\x1b+/p1/{'mark;a' + chr(9) * tabs + basic}/{'x' + chr(9) * tabs + state}\x1bend_save"
    return text.encode()


@pytest.mark.parametrize("change", [False, True], ids=["AddPiece", "ChangePiece"])
def test_piece_state_chain_of_over_500_tabs_is_a_clean_error(change: bool) -> None:
    with pytest.raises(VassalFormatError, match="traits"):
        read_save(_chain_save(600, change=change), name="tabs.vsav").as_dict()


def test_command_chain_nested_199_deep_is_refused_before_it_holds_199_copies() -> None:
    from gazala_tools.vsav import commands, sequence

    text = "begin_save\x1b" + "x" * 200_000
    for _ in range(150):  # each level: one more SequenceEncoder round, as nested commands are written
        text = sequence.encode([text, ""], "\x1b")
    assert len(text) < 400_000
    with pytest.raises(VassalFormatError, match="nested"):
        commands.parse(text, file="deep.vsav")


# --- YAML of every kind ---------------------------------------------------------------------------
DEEP = "a: " + "[" * 5000 + "]" * 5000 + "\n"
LAUGHS = "a: &a [x,x,x,x,x,x,x,x,x,x]\n" + "".join(
    f"{c}: &{c} [{','.join([f'*{p}'] * 10)}]\n" for p, c in zip("abcdefgh", "bcdefghi", strict=True))


def _river_war(tmp_path: Path, file: str, text: str | bytes) -> Path:
    import shutil

    game = tmp_path / "rw"
    shutil.copytree(Path(__file__).parents[1] / "games" / "river-war", game)
    (game / file).write_bytes(text if isinstance(text, bytes) else text.encode())
    return game


@pytest.mark.parametrize("text", [DEEP, "a: " + "9" * 5000 + "\n", b"a: \xff\n"], ids=["deep", "bigint", "utf8"])
def test_counters_yaml_that_is_hostile_is_a_clean_error(tmp_path: Path, run: Run, text: str | bytes) -> None:
    code, _, err = run("counters", "list", _river_war(tmp_path, "counters.yaml", text))
    assert code == 2 and "counters.yaml" in err


GRID = "orientation: flat\nnumbering: vassal-default\ncolumns: [1, 3]\nrows: [1, 3]\npixels: {dx: 40, dy: 46, x0: 0, y0: 0}\n"


@pytest.mark.parametrize("text", [DEEP, LAUGHS, b"a: \xff\n", "- 1\n", GRID.replace("dx: 40", "dx: inf"),
                                  GRID.replace("[1, 3]", "[1, 9999999999]", 1),
                                  GRID.replace("vassal-default", "{vLeading: 2147483647}")],
                         ids=["deep", "laughs", "utf8", "list", "inf", "columns", "vleading"])
def test_grid_yaml_that_is_hostile_is_a_clean_error(tmp_path: Path, run: Run, text: str | bytes) -> None:
    from PIL import Image

    grid, scan = tmp_path / "grid.yaml", tmp_path / "scan.png"
    grid.write_bytes(text if isinstance(text, bytes) else text.encode())
    Image.new("RGB", (50, 50), "white").save(scan)
    code, _, err = run("digitize", "overlay", scan, "--grid", grid, "-o", tmp_path / "o.png")
    assert code == 2 and "grid.yaml" in err


@pytest.mark.parametrize("text", [DEEP, b"terrain: \xff\n", "terrain: {clear: '#ffffff'}\nhexsides: [1]\n",
                                  "terrain: {clear: '#ffffff'}\ndefault: [1]\n"],
                         ids=["deep", "utf8", "hexsides-list", "default-list"])
def test_legend_yaml_that_is_hostile_is_a_clean_error(tmp_path: Path, run: Run, text: str | bytes) -> None:
    from PIL import Image

    legend, grid, scan = tmp_path / "legend.yaml", tmp_path / "grid.yaml", tmp_path / "scan.png"
    legend.write_bytes(text if isinstance(text, bytes) else text.encode())
    grid.write_text(GRID)
    Image.new("RGB", (50, 50), "white").save(scan)
    code, _, err = run("digitize", "classify", scan, "--grid", grid, "--legend", legend)
    assert code == 2 and "legend.yaml" in err


@pytest.mark.parametrize("text", ["units: !!timestamp 2001-12-14\n", "units: {a: b}\n", "units: [1, 2]\n", LAUGHS, DEEP],
                         ids=["timestamp", "mapping", "scalars", "laughs", "deep"])
def test_mapping_yaml_of_the_wrong_shape_is_a_clean_error(tmp_path: Path, run: Run, text: str,
                                                          corpus_dir: Path) -> None:
    mapping = tmp_path / "mapping.yaml"
    mapping.write_text(text)
    save = corpus_dir / "hex-n-counters-template" / "ragnarok" / "ragnarok-start.vsav"
    code, _, err = run("referee", "check", save, "--game", "gazala-rg", "--mapping", mapping)
    assert code == 2 and "mapping.yaml" in err


def _gif_declaring(width: int, height: int) -> bytes:
    """A valid 24 x 24 GIF whose logical screen (the canvas Pillow allocates) is ``width`` x ``height``."""
    import io

    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGB", (24, 24), (200, 180, 120)).save(buf, "GIF")
    return buf.getvalue()[:6] + struct.pack("<HH", width, height) + buf.getvalue()[10:]


@pytest.mark.parametrize("fmt", ["gif", "jpeg"])
def test_small_gif_or_jpeg_declaring_200_megapixels_is_refused_before_decoding(tmp_path: Path, run: Run,
                                                                                fmt: str) -> None:
    """``scripts/fuzz 20000 --seed 2026`` found a 152-byte GIF whose screen is 6168 x 33024: decoding
    it took 3.1 GiB. A JPEG's frame header can lie the same way."""
    from gazala_tools.inputs import open_image

    if fmt == "gif":
        data = _gif_declaring(6168, 33024)
    else:
        import io

        from PIL import Image

        buf = io.BytesIO()
        Image.new("L", (16, 16), 128).save(buf, "JPEG")
        data = buf.getvalue()
        sof = data.index(b"\xff\xc0")
        data = data[: sof + 5] + struct.pack(">HH", 33024, 6168) + data[sof + 9 :]
    assert len(data) < 1000
    with pytest.raises(GazalaError, match="6168 x 33024"):
        open_image(data, file=f"bomb.{fmt}")
    scan = tmp_path / f"scan.{fmt}"
    scan.write_bytes(data)
    code, _, err = run("digitize", "detect-grid", scan)
    assert code == 2 and "6168 x 33024" in err


def test_breaches_that_are_not_a_list_are_a_clean_error(tmp_path: Path, run: Run) -> None:
    """``scripts/fuzz 20000 --seed 2026``: ``breaches: -111...`` raised TypeError."""
    pos = tmp_path / "pos.yaml"
    pos.write_text("game: gazala-rg\nunits: []\nbreaches: -111111111111111111111111111111\n")
    code, _, err = run("referee", "check", pos)
    assert code == 2 and "breaches" in err and "a list of breach markers" in err


def test_game_in_a_position_yaml_is_never_opened_as_a_path(tmp_path: Path, run: Run) -> None:
    pos = tmp_path / "pos.yaml"
    pos.write_text("game: ../../../../etc/passwd\nunits: []\n")
    code, _, err = run("referee", "check", pos)
    assert code == 2 and "root:" not in err and "built-in game id" in err


@pytest.mark.parametrize("columns", ["[1, 100000000000000000]", "[1, 9223372036854775808]", "[-99999999, 99999999]"])
def test_map_yaml_with_huge_columns_is_refused_before_building_hexes(tmp_path: Path, run: Run, columns: str) -> None:
    game = _river_war(tmp_path, "x", "")
    text = (game / "map.yaml").read_text()
    (game / "map.yaml").write_text(text.replace("columns: [1, 10]", f"columns: {columns}"))
    code, _, err = run("map", "check", game)
    assert code == 2 and "columns" in err


def test_map_yaml_extends_only_a_map_yaml(tmp_path: Path, run: Run) -> None:
    game = _river_war(tmp_path, "x", "")
    text = (game / "map.yaml").read_text()
    (game / "map.yaml").write_text("extends: /etc/passwd\n" + text)
    code, _, err = run("map", "check", game)
    assert code == 2 and "root:" not in err


# --- outputs --------------------------------------------------------------------------------------
@pytest.fixture
def workdir(tmp_path: Path, corpus_dir: Path) -> Path:
    import shutil

    from PIL import Image

    shutil.copytree(Path(__file__).parents[1] / "games" / "river-war", tmp_path / "rw")
    shutil.copy(corpus_dir / "hex-n-counters-template" / "ragnarok" / "ragnarok-start.vsav", tmp_path / "s.vsav")
    shutil.copy(corpus_dir / "hex-n-counters-template" / "jzhex-n-counters-template-v12-379.vmod", tmp_path / "m.vmod")
    (tmp_path / "g.yaml").write_text(GRID)
    (tmp_path / "gm").mkdir()
    (tmp_path / "gm" / "map.yaml").write_text("grid:\n" + "".join(f"  {line}\n" for line in GRID.splitlines()))
    (tmp_path / "l.yaml").write_text("terrain: {clear: '#ffffff'}\n")
    (tmp_path / "mapping.yaml").write_text("units: [{match: 'x', id: y}]\n")
    Image.new("RGB", (200, 200), "white").save(tmp_path / "x.png")
    return tmp_path


OVERWRITES = [
    ("referee check s.vsav --game gazala-rg --module m.vmod -o m.vmod", "m.vmod"),
    ("referee check s.vsav --game gazala-rg --mapping mapping.yaml -o mapping.yaml", "mapping.yaml"),
    ("referee position s.vsav --game gazala-rg --module m.vmod -o m.vmod", "m.vmod"),
    ("digitize classify x.png --grid g.yaml --legend l.yaml -o g.yaml", "g.yaml"),
    ("digitize classify x.png --grid g.yaml --legend l.yaml -o l.yaml", "l.yaml"),
    ("digitize classify x.png --grid gm --legend l.yaml -o t.yaml --map-out gm", "gm/map.yaml"),
    ("digitize overlay x.png --map rw -o rw/map.yaml", "rw/map.yaml"),
    ("counters sheet rw -o rw/counters.yaml", "rw/counters.yaml"),
    ("module build rw -o rw/module.yaml", "rw/module.yaml"),
    ("map geojson rw -o rw/map.yaml", "rw/map.yaml"),
]


@pytest.mark.parametrize(("command", "victim"), OVERWRITES, ids=[c.split(" -o")[0] + " " + v for c, v in OVERWRITES])
def test_an_output_that_is_any_input_is_refused(workdir: Path, run: Run, command: str, victim: str,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(workdir)
    before = (workdir / victim).read_bytes()
    code, _, err = run(*command.split())
    assert code == 2 and "overwrite an input" in err
    assert (workdir / victim).read_bytes() == before


@pytest.mark.parametrize("target", [".", "/proc/x.json", "/proc/self/x.json"])
def test_an_output_that_is_a_directory_or_unwritable_is_a_clean_error(workdir: Path, run: Run, target: str,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(workdir)
    code, _, err = run("map", "geojson", "rw", "-o", target)
    assert code == 2 and ("directory" in err or "cannot write" in err)


@pytest.mark.parametrize("command", [
    "referee check s.vsav --game gazala-rg --format png --dpi 0 -o r.png",
    "referee check s.vsav --game gazala-rg --format png --dpi nan -o r.png",
    "counters contact rw -o c.png --dpi inf",
    "counters images rw -o imgs --dpi 1e9",
    "module build rw -o x.vmod --dpi 0",
    "counters contact rw -o c.png --columns 99999999999",
])
def test_dpi_and_sizes_out_of_range_are_usage_errors(workdir: Path, run: Run, command: str,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(workdir)
    code, _, err = run(*command.split())
    assert code == 2 and "out of range" in err


def test_a_modules_moduledata_is_read_within_its_cap(tmp_path: Path) -> None:
    from gazala_tools.referee.detect import game_of_module_file

    vmod = tmp_path / "m.vmod"
    big = b"<data><name>" + b"x" * (4 * 1024 * 1024) + b"</name></data>"
    vmod.write_bytes(zip_bytes([("buildFile.xml", buildfile().encode()), ("moduledata", big)]))
    assert game_of_module_file(vmod) is None  # refused (over the cap): no game from it, no 2 GB parse


def test_points_file_that_is_a_fifo_is_refused(tmp_path: Path, run: Run) -> None:
    fifo = tmp_path / "points.txt"
    os.mkfifo(fifo)
    code, _, err = run("grid", "locate", "gazala-rg", "--points", fifo)
    assert code == 2 and "FIFO" in err


def test_grid_yaml_with_a_huge_origin_is_a_clean_error(tmp_path: Path, run: Run) -> None:
    # found by scripts/fuzz 5000 --seed 14: Pillow's draw failed with a SystemError on x0 ~ 2**67
    from PIL import Image

    grid, scan = tmp_path / "grid.yaml", tmp_path / "scan.png"
    grid.write_text(GRID.replace("x0: 0", "x0: 192233720368547758080"))
    Image.new("RGB", (50, 50), "white").save(scan)
    code, _, err = run("digitize", "overlay", scan, "--grid", grid, "-o", tmp_path / "o.png")
    assert code == 2 and "x0" in err


def test_map_yaml_pixels_out_of_range_are_refused(tmp_path: Path, run: Run) -> None:
    game = _river_war(tmp_path, "x", "")
    text = (game / "map.yaml").read_text()
    (game / "map.yaml").write_text(text.replace("x0: 50", "x0: 100000000000000000"))
    code, _, err = run("map", "check", game)
    assert code == 2 and "x0" in err


def test_a_board_render_too_large_for_memory_is_refused_before_allocation(tmp_path: Path, run: Run) -> None:
    code, _, err = run("map", "render", "gazala-rg", "--dpi", "1200", "-o", tmp_path / "b.png")
    assert code == 2 and "pixels" in err and not (tmp_path / "b.png").exists()
