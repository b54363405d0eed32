"""Issue 31 item 3: one output rule for every command (docs/reliability.md "Inputs are never written").

Every command's inputs are files and folders (a module folder and its images/, a game folder written by us
or not, an imported folder, a folder named on the command line); no output, file or folder, is written
into any of them, symlinks resolved. Each case is the red team's (issue 31 "Reads and writes where none may
happen"), run as a user runs it, in its own process: exit 2, one line, the input unchanged, within 30 s and
1 GiB (``wait4``). On the code before this issue each wrote into its input, or left a temporary folder
behind for good.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from gazala_tools.fileio import TMP_FOLDER_MARK
from tools.cliproc import ROOT, Ended, digest, gazala

RIVER_WAR = ROOT / "tests" / "games" / "river-war"


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory, corpus_dir: Path) -> Path:
    """A folder holding ``mod`` (the Ragnarok module folder), ``imp`` (its import) and ``rw`` (River War)."""
    d = tmp_path_factory.mktemp("outputs")
    shutil.copytree(corpus_dir / "hex-n-counters-template" / "ragnarok", d / "mod")
    shutil.copytree(RIVER_WAR, d / "rw")
    assert gazala("game", "import", "mod", "imp", cwd=d).clean(0)
    return d


# --- outputs into a game folder (imported, or written by hand) --------------------------------------------
INTO_GAME_FOLDERS = [
    ("module", "build", "imp", "-o", "imp/game.yaml"),
    ("module", "build", "imp", "-o", "imp/map.yaml"),
    ("module", "build", "imp", "-o", "imp/scenarios.yaml"),
    ("module", "build", "imp", "-o", "imp/import-report.yaml"),
    ("module", "build", "imp", "-o", "imp/art/new.vmod"),  # a new file in the folder: refused too
    ("module", "build", "imp", "-o", "imp/vmod/images/new.vmod"),  # packed by the next build
    ("counters", "sheet", "imp", "-o", "imp/tables.yaml"),
    ("counters", "sheet", "rw", "-o", "rw/tables.yaml"),
    ("counters", "contact", "rw", "-o", "rw/new.png"),
    ("counters", "images", "imp", "-o", "imp/faces"),  # an output folder inside the input
    ("map", "render", "rw", "-o", "rw/scenarios.yaml"),
    ("map", "geojson", "imp", "-o", "imp/map.geojson"),
    ("game", "scenario", "imp", "at-start", "-o", "imp/vmod/new.vsav"),
    ("game", "scenario", "rw", "the-ford", "-o", "rw/start.vsav"),
    ("referee", "watch", "mod", "--game", "imp", "--once", "--settle", "0", "--out-dir", "imp/reports"),
]


@pytest.mark.parametrize("argv", INTO_GAME_FOLDERS, ids=[" ".join(a) for a in INTO_GAME_FOLDERS])
def test_no_output_inside_a_game_folder_it_reads(work: Path, argv: tuple[str, ...]) -> None:
    before = {f: digest(work / f) for f in ("imp", "rw")}
    ended = gazala(*argv, cwd=work)
    assert ended.clean(), ended
    assert "input" in ended.err[0]
    assert {f: digest(work / f) for f in ("imp", "rw")} == before


def test_a_relative_output_named_from_inside_the_game_folder(work: Path) -> None:
    """``cd GAME; gazala map render . -o scenarios.yaml``: the output resolves into the folder read."""
    before = digest(work / "rw")
    ended = gazala("map", "render", ".", "-o", "scenarios.yaml", cwd=work / "rw")
    assert ended.clean(), ended
    assert digest(work / "rw") == before


def test_an_output_through_a_symlink_into_the_input(work: Path, tmp_path: Path) -> None:
    (tmp_path / "link").symlink_to(work / "imp" / "vmod")
    before = digest(work / "imp")
    ended = gazala("module", "build", work / "imp", "-o", tmp_path / "link" / "new.vmod", cwd=tmp_path)
    assert ended.clean(), ended
    assert digest(work / "imp") == before


def test_an_output_beside_the_input_is_written(work: Path, tmp_path: Path) -> None:
    """The rule refuses what lies inside an input, nothing else: the same commands write beside it."""
    out = tmp_path / "beside"
    ended = gazala("module", "build", work / "imp", "-o", out / "ragnarok.vmod", cwd=work)
    assert ended.clean(0), ended
    assert (out / "ragnarok.vmod").stat().st_size > 1_000_000


# --- game import DIR inside its module ---------------------------------------------------------------------
@pytest.mark.parametrize("target", ["mod/new", "mod/images/new", "mod/images"])
def test_game_import_never_into_its_module_folder(work: Path, target: str) -> None:
    before = digest(work / "mod")
    ended = gazala("game", "import", "mod", target, cwd=work)
    assert ended.clean(), ended
    assert digest(work / "mod") == before


def test_game_import_of_a_bare_buildfile_never_beside_it(work: Path) -> None:
    """A buildFile named alone reads the images/ beside it: its folder is the module folder."""
    before = digest(work / "mod")
    ended = gazala("game", "import", "mod/buildFile.xml", "mod/new", cwd=work)
    assert ended.clean(), ended
    assert digest(work / "mod") == before


def test_game_import_into_a_symlink_of_the_module(work: Path, tmp_path: Path) -> None:
    (tmp_path / "alias").symlink_to(work / "mod")
    before = digest(work / "mod")
    ended = gazala("game", "import", work / "mod", tmp_path / "alias" / "new", cwd=tmp_path)
    assert ended.clean(), ended
    assert digest(work / "mod") == before


# --- temporary folders ---------------------------------------------------------------------------------
def _dead_pid() -> int:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def test_a_stale_temporary_folder_is_removed_by_the_next_import(work: Path, tmp_path: Path) -> None:
    """``kill -9`` during an import leaves ``.DIR.gazala-tmp-PID-...`` (the red team's 300 MB ``.game.XXXX``);
    the next import into DIR removes it, and leaves alone one whose process still runs."""
    stale = tmp_path / f".game{TMP_FOLDER_MARK}{_dead_pid()}-x1y2"
    live = tmp_path / f".game{TMP_FOLDER_MARK}{os.getpid()}-a1b2"
    for d in (stale, live):
        (d / "vmod").mkdir(parents=True)
        (d / "vmod" / "big.png").write_bytes(b"\0" * 1000)
    ended = gazala("game", "import", work / "mod", tmp_path / "game", cwd=tmp_path)
    assert ended.clean(0), ended
    assert not stale.exists() and live.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([live.name, "game"])


def test_an_import_killed_by_sigkill_leaves_what_the_next_run_removes(work: Path, tmp_path: Path) -> None:
    """The real thing: an import killed while it assembles the folder."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "gazala_tools", "game", "import", str(work / "mod"),
                             str(tmp_path / "game")], cwd=tmp_path, env=env, stderr=subprocess.DEVNULL)
    left: list[Path] = []
    while proc.poll() is None and not left:
        left = [p for p in tmp_path.iterdir() if TMP_FOLDER_MARK in p.name and (p / "game.yaml").exists()]
    if not left:  # the import ended before it could be caught assembling: nothing of it may be left either
        proc.wait()
        pytest.skip("the import finished before it could be killed")
    proc.kill()
    proc.wait()
    assert left[0].exists()
    ended = gazala("game", "import", work / "mod", tmp_path / "game", cwd=tmp_path)
    assert ended.clean(0), ended
    assert [p.name for p in tmp_path.iterdir()] == ["game"]


# --- names the file system refuses ---------------------------------------------------------------------
@pytest.mark.parametrize("verb", ["import", "new"])
def test_a_folder_name_of_300_characters(work: Path, verb: str) -> None:
    """ENAMETOOLONG: one line naming the folder, exit 2 (was exit 3)."""
    name = "d" * 300
    argv = ["game", "import", "mod", name] if verb == "import" else \
        ["game", "new", name, "--image", "mod/images/map.jpg"]
    ended = gazala(*argv, cwd=work)
    assert ended.clean(), ended
    assert "File name too long" in ended.err[0]


# --- a .vmod never holds a name that leaves it -----------------------------------------------------------
@pytest.mark.parametrize("name", ["../../evil.xml", "/etc/passwd", "images\\\\..\\\\..\\\\evil.xml", "C:evil.xml"])
def test_a_hand_edited_buildfile_name_is_refused_with_its_place(work: Path, tmp_path: Path, name: str) -> None:
    folder = tmp_path / "edited"
    shutil.copytree(work / "imp", folder)
    cfg = folder / "module.yaml"
    lines = cfg.read_text(encoding="utf-8").splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if line.startswith("  buildfile: "))
    lines[at] = f'  buildfile: "{name}"\n'
    cfg.write_text("".join(lines), encoding="utf-8")
    ended = gazala("module", "build", folder, "-o", tmp_path / "out.vmod", cwd=tmp_path)
    assert ended.clean(), ended
    assert f"module.yaml:{at + 1}:14: vassal: buildfile" in ended.err[0]
    assert not (tmp_path / "out.vmod").exists()


def _build_with_file(work: Path, tmp_path: Path, name: str) -> Ended:
    """``module build`` of the imported folder with a file ``vmod/images/NAME`` added."""
    folder = tmp_path / "edited"
    shutil.copytree(work / "imp", folder)
    (folder / "vmod" / "images" / name).write_bytes(b"x")
    return gazala("module", "build", folder, "-o", tmp_path / "out.vmod", cwd=tmp_path)


def test_a_module_file_whose_name_would_leave_the_vmod(work: Path, tmp_path: Path) -> None:
    """A file under vmod/ named ``a\\..\\..\\x.png`` is one name on Linux and a way out on Windows."""
    ended = _build_with_file(work, tmp_path, "a\\..\\..\\x.png")
    assert ended.clean(), ended
    assert "would leave the module" in ended.err[0]


@pytest.mark.parametrize("name", ["a\u00a0b.png", "carte\u200dé.png", "\u05d0\u200f1.png"],
                         ids=["no-break space", "zero-width joiner", "right-to-left mark"])
def test_a_module_file_named_with_unicode_spaces_or_marks_is_packed(work: Path, tmp_path: Path, name: str) -> None:
    """Only names that leave the archive (or hold a control character) are refused: a no-break space, a joiner
    or a bidi mark is text of a real module's file name, which its import keeps and its build must pack."""
    import zipfile

    ended = _build_with_file(work, tmp_path, name)
    assert ended.clean(0), ended
    with zipfile.ZipFile(tmp_path / "out.vmod") as z:
        assert f"images/{name}" in z.namelist()


def test_a_module_file_named_with_a_control_character_is_refused(work: Path, tmp_path: Path) -> None:
    ended = _build_with_file(work, tmp_path, "a\tb.png")
    assert ended.clean(), ended
    assert not (tmp_path / "out.vmod").exists()
