"""A save read without ``--module`` names the units in the game folder's own holding boxes by their
box (issue 22 item 4): the folder's ``module.yaml`` says the boxes (``boxes: {map, names}``) and the
module built from it lays them out, so the referee finds each unit's box as VASSAL's zones would,
instead of "off the map in 'Holding Boxes'"."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from gazala_tools.cli import main
from gazala_tools.vassal.module.build import build_buildfile
from gazala_tools.vassal.module.games import module_spec
from gazala_tools.vassal.module.setups import setup_saves

HIGHLAND = Path(__file__).resolve().parents[1] / "games" / "highland"
#: Highland's set-up: the Crown's second dragoons wait as reinforcements, the clans' guns are eliminated
HIGHLAND_BOXED = {"crown-dragoons-2": "Reinforcements", "clan-guns": "Eliminated"}


def built(game: str | Path, folder: Path, dpi: float | None = None) -> tuple[Path, list[Path]]:
    spec = module_spec(game, dpi=dpi)
    b = build_buildfile(spec)
    (folder / "buildFile.xml").write_bytes(b.xml)
    saves = []
    for name, data in setup_saves(spec, b).items():
        saves.append(folder / Path(name).name)
        saves[-1].write_bytes(data)
    return folder / "buildFile.xml", saves


def boxes(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> dict[str, str]:
    assert main(["referee", "position", *map(str, argv)]) == 0
    units = yaml.safe_load(capsys.readouterr().out)["units"]
    return {u["id"]: u["box"] for u in units if "box" in u}


@pytest.fixture(scope="module")
def highland(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    module, [save] = built(HIGHLAND, tmp_path_factory.mktemp("highland"))
    return module, save


def test_highland_units_in_its_holding_boxes_are_named_by_their_box_without_module(highland, capsys):
    module, save = highland
    assert boxes(capsys, save, "--game", HIGHLAND) == HIGHLAND_BOXED
    assert boxes(capsys, save, "--game", HIGHLAND, "--module", module) == HIGHLAND_BOXED


def test_highland_set_up_save_is_legal_without_module(highland, capsys):
    _module, save = highland
    assert main(["referee", "check", str(save), "--game", str(HIGHLAND)]) == 0
    assert "Holding Boxes" not in capsys.readouterr().out


def test_a_game_without_holding_boxes_keeps_its_turn_record_box(tmp_path, capsys):
    """RG's module has no holding-boxes map: its waiting units stand on the Turn Record Track, the
    ``turn-record`` box its rules data allows (8.3)."""
    from gazala_tools.games import find_game
    from gazala_tools.games.moduleyaml import holding_box_at

    assert holding_box_at(find_game("gazala-rg")) is None
    _module, saves = built("gazala-rg", tmp_path, dpi=10)
    for save in saves:
        assert set(boxes(capsys, save).values()) == {"turn-record"}
