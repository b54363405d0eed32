"""A save names the module it was made with, so the referee picks that game's rules by itself."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from gazala_tools.cli import main
from gazala_tools.referee.detect import game_for_module_name
from tools.saves import game_of_save


@pytest.mark.parametrize("game", ["gazala-rg", "cauldron-dg", "cauldron-spi", "batalha"])
def test_module_name_names_the_game(game: str) -> None:
    from gazala_tools.counters import load_manifest

    assert game_for_module_name(load_manifest(game).title) == game
    assert game_for_module_name("Some Other Game") is None


def test_dg_setup_is_refereed_with_dg_rules_without_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    vmod = tmp_path / "dg.vmod"
    assert main(["module", "build", "cauldron-dg", "-o", str(vmod)]) == 0
    with zipfile.ZipFile(vmod) as zf:
        name = next(n for n in zf.namelist() if n.startswith("setups/") and n.endswith(".vsav"))
        save = tmp_path / "setup.vsav"
        save.write_bytes(zf.read(name))
    assert game_of_save(save) == "cauldron-dg"
    capsys.readouterr()
    code = main(["referee", "check", str(save), "--module", str(vmod)])
    out = capsys.readouterr().out
    assert out.startswith("cauldron-dg  turn 1 ")
    assert code == 0 and "8.1" not in out  # no RG rule applied to a DG position
