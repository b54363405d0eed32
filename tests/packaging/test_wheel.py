"""The built wheel, installed into a clean virtual environment, does the whole job from any folder.

Builds the wheel from this checkout, installs it (with its dependencies, from pip's cache or the
index) into a new venv, then from an empty temporary directory runs the main job for every
built-in game: map check/info/GeoJSON/board, counter images and duplex sheet, the VASSAL module,
and the referee on the module's own set-ups. Nothing may come from the source tree: the venv's
``gazala`` must find the game data inside the installed package.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from gazala_tools.games import builtin_ids

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow


def _run(argv: list[str], cwd: Path, env: dict[str, str], timeout: float = 600) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout, check=False)
    assert proc.returncode == 0, f"{' '.join(argv)} failed ({proc.returncode}):\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
    return proc


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    work = tmp_path_factory.mktemp("wheel")
    # the venv's commands byte-compile what they import once, into the venv (pip compiles nothing: every
    # module of every dependency was 7 s of CPU, the commands import a fraction of them)
    drop = ("PYTHONPATH", "GAZALA_MAPDATA", "GAZALA_MODULES", "PYTHONDONTWRITEBYTECODE")
    env = {k: v for k, v in os.environ.items() if k not in drop}
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    dist = work / "dist"
    _run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", str(ROOT), "-w", str(dist)], work, env)
    wheels = sorted(dist.glob("gazala_tools-*.whl"))
    assert len(wheels) == 1
    names = zipfile.ZipFile(wheels[0]).namelist()
    for game in builtin_ids():  # the game data is package data ...
        assert f"gazala_tools/data/mapdata/{game}/game.yaml" in names
    assert not [n for n in names if n.endswith(".java") or n.startswith("tools/") or "vassal_oracle" in n
                or n.endswith(("/synthetic.py", "/harsh.py"))]  # ... test support is not
    venv = work / "venv"
    # a venv without a pip of its own, which this pip installs into (`--python`): a venv's own pip was
    # 3 s of CPU to install, and the same pip installs the same wheel and its dependencies
    _run([sys.executable, "-m", "venv", "--without-pip", str(venv)], work, env)
    python = str(venv / "bin" / "python")
    _run([sys.executable, "-m", "pip", "--python", python, "install", "-q", "--no-compile", str(wheels[0])], work, env, timeout=900)
    return venv, env


def test_the_installed_package_reads_its_own_data(installed: tuple[Path, dict[str, str]], tmp_path: Path) -> None:
    venv, env = installed
    code = "import gazala_tools.games as g; print(g.mapdata_root())"
    where = _run([str(venv / "bin" / "python"), "-c", code], tmp_path, env).stdout.strip()
    assert where.startswith(str(venv)) and "site-packages" in where
    info = json.loads(_run([str(venv / "bin" / "gazala"), "map", "info", "--json"], tmp_path, env).stdout)
    assert info["game"] == builtin_ids()[0] and info["hexes"] > 0


def test_the_docs_travel_with_the_package(installed: tuple[Path, dict[str, str]], tmp_path: Path) -> None:
    """``gazala help referee`` from a folder with no checkout prints the referee docs the wheel carries
    (issue 23 item 4), and ``--help`` texts cite ``gazala help``, never a docs/ file."""
    venv, env = installed
    gazala = str(venv / "bin" / "gazala")
    text = _run([gazala, "help", "referee"], tmp_path, env).stdout
    assert text == (ROOT / "docs" / "referee.md").read_text(encoding="utf-8")
    assert "referee" in _run([gazala, "help"], tmp_path, env).stdout
    assert "docs/" not in _run([gazala, "referee", "check", "--help"], tmp_path, env).stdout


@pytest.mark.parametrize("game", builtin_ids())
def test_main_job_from_a_clean_venv_in_another_folder(installed: tuple[Path, dict[str, str]], tmp_path: Path, game: str) -> None:
    venv, env = installed
    out = tmp_path / "out"
    _run([str(venv / "bin" / "python"), "-m", "gazala_tools.mainjob", game, str(out)], tmp_path, env)
    assert (out / f"{game}.vmod").stat().st_size > 10_000
    assert (out / "counter-sheet.pdf").read_bytes().startswith(b"%PDF")
    assert (out / "board.png").read_bytes().startswith(b"\x89PNG")
    reports = sorted(out.glob("referee-*.html"))
    assert reports, "the main job referees the module's own set-ups"
    gazala = str(venv / "bin" / "gazala")
    sheet = tmp_path / "sheet.pdf"
    _run([gazala, "counters", "sheet", game, "-o", str(sheet)], tmp_path, env)
    assert sheet.read_bytes().startswith(b"%PDF")
    save = sorted((out / "setups").glob("*.vsav"))[0]
    report = json.loads(_run([gazala, "referee", "check", str(save), "--module", str(out / f"{game}.vmod"), "--json"],
                             tmp_path, env).stdout)
    assert report["game"] == game
