"""An unzipped module folder is read like a game folder: a member that is a symlink out of it is
refused, never read (issue 21 item 2; found by issue 25's `module lint` on folders)."""

from __future__ import annotations

from pathlib import Path

import pytest

from gazala_tools.errors import VassalFormatError
from gazala_tools.vassal.buildfile import open_source
from tools.fuzz.samples import BUILDFILE


def _folder(tmp_path: Path) -> Path:
    mod = tmp_path / "mod"
    (mod / "images").mkdir(parents=True)
    (mod / "buildFile.xml").write_text(BUILDFILE.format(image="board.png", numbering=""), encoding="utf-8")
    return mod


def test_image_header_inside_the_folder_is_read(tmp_path: Path) -> None:
    mod = _folder(tmp_path)
    png = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x01\x00\x00\x00\x00\x80\x08\x02\x00\x00\x00"
    (mod / "images" / "board.png").write_bytes(png + b"\x00" * 64)
    assert open_source(mod).image_size("board.png") == (256, 128)


def test_image_symlinked_out_of_the_folder_is_refused(tmp_path: Path) -> None:
    mod = _folder(tmp_path)
    secret = tmp_path / "outside.png"
    secret.write_bytes(b"\x89PNG\r\n\x1a\n" + b"\x00" * 64)
    (mod / "images" / "board.png").symlink_to(secret)
    with pytest.raises(VassalFormatError, match=r"outside|inside"):
        open_source(mod).image_size("board.png")
