"""Outputs are atomic, keep the usual file mode, and never overwrite an input."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from gazala_tools.errors import GazalaError
from gazala_tools.fileio import atomic_open, atomic_write_text, refuse_overwrite, write_new_folder


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


def test_an_output_may_not_be_any_input_read_by_the_command(tmp_path: Path) -> None:
    from gazala_tools.fileio import command_scope, note_input

    src = tmp_path / "grid.yaml"
    src.write_text("x")
    link = tmp_path / "alias.yaml"
    link.symlink_to(src)
    with command_scope():
        note_input(src)
        for target in (src, link, tmp_path / "." / "grid.yaml"):
            with pytest.raises(GazalaError, match="overwrite an input"):
                atomic_write_text(target, "y")
        atomic_write_text(tmp_path / "out.yaml", "ok")
    assert src.read_text() == "x"
    atomic_write_text(tmp_path / "out.yaml", "outside a command, nothing was read")


def test_a_directory_is_not_an_output(tmp_path: Path) -> None:
    with pytest.raises(GazalaError, match="is a directory"):
        atomic_write_text(tmp_path, "x")


def test_an_unwritable_place_is_a_clean_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(GazalaError, match="cannot"):
        atomic_write_text(blocker / "sub" / "out.txt", "y")


def test_without_proc_the_finished_file_is_copied_into_place(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import gazala_tools.fileio as fio

    def no_proc(fd: int, target: Path) -> None:
        raise FileNotFoundError(2, "no /proc")

    monkeypatch.setattr(fio, "_link_tmpfile", no_proc)
    atomic_write_text(tmp_path / "out.txt", "hello " * 100_000)
    assert (tmp_path / "out.txt").read_text() == "hello " * 100_000
    assert [q.name for q in tmp_path.iterdir()] == ["out.txt"]


def test_a_killed_writer_leaves_the_old_file_and_no_temporary(tmp_path: Path) -> None:
    import signal
    import subprocess
    import sys
    import time

    out = tmp_path / "out.bin"
    out.write_bytes(b"old")
    code = (
        "import sys, time\n"
        "from gazala_tools.fileio import atomic_open\n"
        "with atomic_open(sys.argv[1]) as fh:\n"
        "    fh.write(b'x' * 1_000_000); fh.flush(); print('writing', flush=True); time.sleep(60)\n"
    )
    proc = subprocess.Popen([sys.executable, "-c", code, str(out)], stdout=subprocess.PIPE)
    assert proc.stdout is not None and proc.stdout.readline().strip() == b"writing"
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=10)
    time.sleep(0.05)
    assert out.read_bytes() == b"old"
    assert [q.name for q in tmp_path.iterdir()] == ["out.bin"]


def test_a_new_folder_is_written_whole_or_not_at_all(tmp_path: Path) -> None:
    """``write_new_folder`` (``game new``, ``game import``): text, bytes and copied files land together,
    subfolders included; a write that fails half-way leaves no folder and no temporary beside it."""
    scan = tmp_path / "scan.png"
    scan.write_bytes(b"png")
    write_new_folder(tmp_path / "game", {"game.yaml": "id: g\n", "art/a.png": b"\x89", "board.png": scan}, [scan])
    assert sorted(str(p.relative_to(tmp_path / "game")) for p in (tmp_path / "game").rglob("*")) == \
        ["art", "art/a.png", "board.png", "game.yaml"]
    assert (tmp_path / "game" / "board.png").read_bytes() == b"png"

    def fail(folder: Path) -> None:
        raise OSError(28, "No space left on device")

    with pytest.raises(GazalaError, match="cannot write the game folder"):
        write_new_folder(tmp_path / "other", {"game.yaml": "id: o\n"}, more=fail)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game", "scan.png"]


@pytest.mark.parametrize("case", ["not empty", "is the input", "holds the input", "no parent", "leaves"])
def test_a_new_folder_refuses_what_it_would_harm(tmp_path: Path, case: str) -> None:
    """Refused with one clean error, nothing written: a folder that is not empty, one that is or holds an
    input of the command, a missing parent, a file name that leaves the folder."""
    src = tmp_path / "in" / "module.vmod"
    src.parent.mkdir()
    src.write_bytes(b"zip")
    target, files = tmp_path / "new", {"game.yaml": "id: g\n"}
    if case == "not empty":
        target.mkdir()
        (target / "keep.txt").write_text("mine")
    elif case == "is the input":
        target = src
    elif case == "holds the input":
        target = src.parent
    elif case == "no parent":
        target = tmp_path / "missing" / "new"
    else:
        files = {"../escaped.yaml": "id: g\n"}
    before = sorted(str(p) for p in tmp_path.rglob("*"))
    with pytest.raises(GazalaError):
        write_new_folder(target, files, [src])
    assert sorted(str(p) for p in tmp_path.rglob("*")) == before


# --- issue 31 item 3: one output rule, folders included ---------------------------------------------------
def test_an_input_folder_holds_no_output_at_any_depth(tmp_path: Path) -> None:
    from gazala_tools.fileio import command_scope, note_input_folder, output_dir

    game = tmp_path / "game"
    (game / "art").mkdir(parents=True)
    with command_scope():
        note_input_folder(game)
        for target in (game / "new.pdf", game / "art" / "deep" / "x.png"):
            with pytest.raises(GazalaError, match="inside an input folder"), atomic_open(target):
                pass
        with pytest.raises(GazalaError, match="inside an input folder"):
            output_dir(game / "faces")
        atomic_write_text(tmp_path / "beside.txt", "fine")  # beside the folder: written
    assert sorted(p.name for p in game.rglob("*")) == ["art"]


def test_an_input_folder_is_known_by_its_inode_too(tmp_path: Path) -> None:
    """The folder renamed (or reached by a bind mount) while the command runs: the same folder still."""
    from gazala_tools.fileio import command_scope, note_input_folder

    with command_scope():
        note_input_folder(tmp_path / "a")
        (tmp_path / "a").mkdir()
        note_input_folder(tmp_path / "a")
        os.rename(tmp_path / "a", tmp_path / "b")
        with pytest.raises(GazalaError, match="input folder"):
            atomic_write_text(tmp_path / "b" / "x.txt", "no")
    assert list((tmp_path / "b").iterdir()) == []


def test_a_bare_buildfile_declares_its_module_folder(tmp_path: Path) -> None:
    from gazala_tools.fileio import command_scope, declare_inputs

    (tmp_path / "mod" / "images").mkdir(parents=True)
    (tmp_path / "mod" / "buildFile.xml").write_text("<x/>")
    with command_scope():
        declare_inputs(tmp_path / "mod" / "buildFile.xml", "x" * 300, "no\0such")  # names no file: skipped
        with pytest.raises(GazalaError, match="input folder"):
            write_new_folder(tmp_path / "mod" / "images" / "game", {"game.yaml": "x"})
        write_new_folder(tmp_path / "game", {"game.yaml": "x"})
    assert (tmp_path / "game" / "game.yaml").read_text() == "x"


def test_only_the_temporary_folder_of_a_dead_process_is_removed(tmp_path: Path) -> None:
    from gazala_tools.fileio import TMP_FOLDER_MARK, remove_stale_folders

    names = [f".game{TMP_FOLDER_MARK}999999999-a", f".game{TMP_FOLDER_MARK}{os.getpid()}-b",
             f".game{TMP_FOLDER_MARK}x-c", f".other{TMP_FOLDER_MARK}999999999-d"]
    for n in names:
        (tmp_path / n).mkdir()
    (tmp_path / f".game{TMP_FOLDER_MARK}999999998-file").write_text("a file, not a folder: left")
    assert remove_stale_folders(tmp_path / "game") == [tmp_path / names[0]]
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([*names[1:], f".game{TMP_FOLDER_MARK}999999998-file"])
