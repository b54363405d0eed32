"""The four built-in games' referee outputs, text and JSON, pinned (issue 22): the positions below,
each game's set-up saves (our module build) and the engine-written logs of ``tests/fixtures/logs``.

A refactoring of the core (the rules plugins' own state, side colours, imports) must leave every
output byte-identical; a change of a message on purpose regenerates the files with
``GOLDEN_UPDATE=1 pytest tests/referee/test_golden.py`` and the diff shows what changed.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from gazala_tools.cli import main

HERE = Path(__file__).resolve().parent
INPUTS = HERE / "golden" / "inputs"
EXPECTED = HERE / "golden" / "expected"
LOGS = HERE.parent / "fixtures" / "logs"
GAMES = ("gazala-rg", "cauldron-dg", "cauldron-spi", "batalha")
UPDATE = os.environ.get("GOLDEN_UPDATE") == "1"


def run(capsys, *args: str) -> tuple[int, str]:
    code = main([str(a) for a in args])
    return code, capsys.readouterr().out


def compare(name: str, code: int, out: str) -> None:
    got = f"exit {code}\n{out}"
    path = EXPECTED / name
    if UPDATE:
        EXPECTED.mkdir(exist_ok=True)
        path.write_text(got, encoding="utf-8")
    assert path.is_file(), f"no golden output {path.name}: run with GOLDEN_UPDATE=1"
    assert got == path.read_text(encoding="utf-8"), name


@pytest.fixture()
def here(tmp_path, monkeypatch):
    """The inputs copied into a temporary folder that is the working folder (sources print as file names)."""
    for f in INPUTS.iterdir():
        shutil.copy(f, tmp_path / f.name)
    monkeypatch.chdir(tmp_path)
    return tmp_path


POSITIONS = sorted(p.name for p in INPUTS.glob("*.yaml") if p.name != "rg-before.yaml")


@pytest.mark.parametrize("name", POSITIONS)
@pytest.mark.parametrize("fmt", ["text", "json"])
def test_position_check_output_is_unchanged(name, fmt, here, capsys):
    compare(f"check-{name}.{fmt}", *run(capsys, "referee", "check", name, "--format", fmt))


@pytest.mark.parametrize("name", [*POSITIONS, "rg-before.yaml"])
def test_position_verb_output_is_unchanged(name, here, capsys):
    """``referee position``: what a position carries (breaches, activations, the plugins' keys)."""
    compare(f"position-{name}", *run(capsys, "referee", "position", name))


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_before_output_is_unchanged(fmt, here, capsys):
    """``--before``: what carries over from the earlier position (RG breaches, activations)."""
    compare(f"before-rg-may29.{fmt}", *run(capsys, "referee", "check", "rg-may29.yaml", "--before", "rg-before.yaml",
                                           "--format", fmt))


@pytest.fixture(scope="module")
def setup_saves(tmp_path_factory):
    """Each built-in game's set-up saves and buildFile, written by our module build (coarse board)."""
    from gazala_tools.vassal.module.build import build_buildfile
    from gazala_tools.vassal.module.games import module_spec
    from gazala_tools.vassal.module.setups import setup_saves as saves_of

    folder = tmp_path_factory.mktemp("saves")
    out: list[str] = []
    for game in GAMES:
        spec = module_spec(game, dpi=10)
        built = build_buildfile(spec)
        (folder / f"{game}.xml").write_bytes(built.xml)
        for path, data in saves_of(spec, built).items():
            name = f"{game}-{Path(path).name}"
            (folder / name).write_bytes(data)
            out.append((game, name))
    return folder, out


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_setup_save_outputs_are_unchanged(fmt, setup_saves, capsys, monkeypatch):
    folder, names = setup_saves
    monkeypatch.chdir(folder)
    assert len(names) == 5
    for game, name in names:
        module = f"{game}.xml"
        compare(f"save-{name}.{fmt}", *run(capsys, "referee", "check", name, "--module", module, "--format", fmt))
        if fmt == "text":
            compare(f"save-position-{name}.yaml", *run(capsys, "referee", "position", name, "--module", module))


@pytest.mark.parametrize("log", sorted(p.name for p in LOGS.glob("*.vlog")))
@pytest.mark.parametrize("fmt", ["text", "json"])
def test_log_outputs_are_unchanged(log, fmt, capsys, monkeypatch):
    monkeypatch.chdir(LOGS)
    compare(f"log-{log}.{fmt}", *run(capsys, "referee", "log", log, "--format", fmt))
