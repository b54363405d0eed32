"""Outputs are atomic, keep the usual file mode, and never overwrite an input."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from gazala_tools.errors import GazalaError
from gazala_tools.fileio import atomic_open, atomic_write_text, refuse_overwrite


def test_atomic_write_uses_the_umask_mode(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        p = tmp_path / "out.txt"
        atomic_write_text(p, "hello")
    finally:
        os.umask(old)
    assert p.read_text() == "hello"
    assert stat.S_IMODE(p.stat().st_mode) == 0o644


def test_failed_write_leaves_the_old_file_and_no_temporary(tmp_path: Path) -> None:
    p = tmp_path / "out.txt"
    p.write_text("old")
    with pytest.raises(RuntimeError), atomic_open(p, "w") as fh:
        fh.write("half")
        raise RuntimeError("boom")
    assert p.read_text() == "old"
    assert [q.name for q in tmp_path.iterdir()] == ["out.txt"]


def test_refuse_overwrite_of_an_input(tmp_path: Path) -> None:
    src = tmp_path / "in.vsav"
    src.write_bytes(b"x")
    with pytest.raises(GazalaError, match="overwrite an input"):
        refuse_overwrite(src, [src])
    refuse_overwrite(tmp_path / "other.vsav", [src])
