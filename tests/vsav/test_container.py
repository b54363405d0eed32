"""Container layer (§4.1, §4.2): every form is read, every damaged form gives a typed error."""

from __future__ import annotations

import io
import lzma
import zipfile
from pathlib import Path

import pytest

from gazala_tools.errors import UnsupportedFormatError, VassalFormatError
from gazala_tools.vsav import container
from gazala_tools.vsav.container import decode_savefile, read_container
from gazala_tools.vsav.writer import build_zip, encode_savefile
from tools.saves import FORMS
from tools.saves import sample_file as save_bytes


def test_4_2_obfuscation_example_key_2a() -> None:
    assert encode_savefile("begin_save", key=0x2A) == b"!VCSK2a484f4d434475594b5c4f"
    assert decode_savefile(b"!VCSK2a484f4d434475594b5c4f", file="x") == ("begin_save", "vcsk", 0x2A)
    # upper-case hex digits are accepted on reading
    assert decode_savefile(b"!VCSK2A484F4D434475594B5C4F", file="x")[0] == "begin_save"


def test_4_1_corpus_save_is_a_3_7_9_obfuscated_zip(ragnarok_save: Path) -> None:
    c = read_container(ragnarok_save)
    assert c.format == "zip/vcsk"
    assert c.vassal_version == "3.7.9"
    assert c.module_name == "Ragnarok (SPI) 1981"
    assert c.text.startswith("begin_save\x1b") and c.text.endswith("\x1bend_save")
    assert len(c.text) == 121644
    assert [i.filename for i, _ in c.entries] == ["savedata", "moduledata"]


@pytest.mark.parametrize(("zipped", "encoding"), FORMS)
def test_every_container_form_reads_back(zipped: bool, encoding: str) -> None:
    text = "begin_save\x1b\x1b+/1/piece;;;a.png;Ünit/Main Map;1;2;3;0\x1bend_save"
    c = read_container(save_bytes(text, zipped=zipped, encoding=encoding), name="gen")
    assert c.text == text
    assert c.encoding == encoding and c.zipped is zipped


def test_plain_text_save_without_zip() -> None:
    assert read_container(b"begin_save\x1bend_save").format == "bare/plain"


def _err(data: bytes) -> VassalFormatError:
    with pytest.raises(VassalFormatError) as info:
        read_container(data, name="bad.vsav")
    return info.value


def test_odd_hex_digit_names_the_byte() -> None:
    e = _err(b"!VCSK2a484f4")
    assert "bad.vsav" in str(e) and "byte 11" in str(e) and "pairs of hex digits" in str(e)


def test_non_hex_byte_names_its_offset() -> None:
    e = _err(b"!VCSK2a48zz")
    assert "byte 9" in str(e)


def test_voxz_is_unsupported() -> None:
    with pytest.raises(UnsupportedFormatError, match="VOXZ"):
        read_container(b"!VOXZ\x00\x01", name="x")


def test_binary_header_is_unsupported() -> None:
    with pytest.raises(UnsupportedFormatError):
        read_container(b"\x00\x01\x02binary", name="x")


def test_not_utf8_is_refused_with_offset() -> None:
    e = _err(encode_savefile("ok", key=1)[:-2] + b"ff")
    assert "UTF-8" in str(e)


def test_zip_without_saved_game() -> None:
    assert "savedGame" in str(_err(build_zip([("other", b"x")])))


def test_zip_member_outside_archive_is_refused() -> None:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("savedGame", b"begin_save")
        zf.writestr("../evil", b"x")
    assert "outside the archive" in str(_err(buf.getvalue()))


def test_zip_bomb_is_refused_by_the_ratio_cap() -> None:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("savedGame", b"begin_save" + b" " * (20 * 1024 * 1024))
    assert "zip bomb" in str(_err(buf.getvalue()))


def test_huge_entry_is_refused_by_the_size_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(container, "MAX_COMMAND_BYTES", 1000)
    data = save_bytes("begin_save\x1b" + "x" * 5000 + "\x1bend_save", encoding="plain")
    assert "at most" in str(_err(data))


def test_xz_bomb_is_refused() -> None:
    bomb = lzma.compress(b"a" * (8 * 1024 * 1024), format=lzma.FORMAT_XZ)
    assert "size cap" in str(_err(bomb))


def test_truncated_xz_and_truncated_zip() -> None:
    xz = encode_savefile("begin_save\x1bend_save", encoding="xz")
    assert "XZ" in str(_err(xz[:-8]))
    z = save_bytes("begin_save\x1bend_save")
    _err(z[: len(z) // 2])


def test_missing_file_is_a_typed_error(tmp_path: Path) -> None:
    with pytest.raises(VassalFormatError, match="cannot read"):
        read_container(tmp_path / "nope.vsav")
