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
from gazala_tools.vassal.saves import read_save
from gazala_tools.vassal.saves.sample import sample_commands, sample_file
from tools.fuzz.samples import buildfile, png_chunk, png_declaring, zip_bytes

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
    assert code == 2 and "v_leading" in err


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
