"""`gazala map info/check/geojson`: output, exit codes, errors."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from gazala_tools.cli import main
from gazala_tools.games import find_game


@pytest.mark.parametrize("game", ["gazala-rg", "cauldron-dg", "cauldron-spi", "batalha"])
def test_map_check_passes_for_every_game(game: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["map", "check", game]) == 0
    assert "checks passed" in capsys.readouterr().out


def test_map_info_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["map", "info", "gazala-rg", "--json"]) == 0
    info = json.loads(capsys.readouterr().out)
    assert info["game"] == "gazala-rg" and info["columns"] == 29 and info["rows"] == 22
    assert info["hexes"] == 638 and info["numbering"] == "VASSAL default" and info["hexsides"] > info["hexes"]


def test_map_check_exits_non_zero_on_a_failing_map(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from . import rulerefs  # registers the RG rule references with `map check`

    assert rulerefs.run_checks
    shutil.copytree(find_game("gazala-rg").folder, tmp_path, dirs_exist_ok=True)
    src = (tmp_path / "map.yaml").read_text()
    bad = src.replace('"1314", "1315", "1316", "1317"', '"1315", "1316", "1317"')
    assert bad != src
    (tmp_path / "map.yaml").write_text(bad)
    assert main(["map", "check", str(tmp_path), "--json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert not out["ok"] and any(c["rule"] == "RG 14.1" and not c["ok"] for c in out["checks"])


def test_map_check_bad_yaml_is_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "map.yaml").write_text("game: x\ngrid: [\n")
    assert main(["map", "check", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "map.yaml:" in err and err.count("\n") == 1


def test_map_geojson_writes_a_file(tmp_path: Path) -> None:
    out = tmp_path / "rg.geojson"
    assert main(["map", "geojson", "gazala-rg", "-o", str(out)]) == 0
    doc = json.loads(out.read_text())
    assert doc["type"] == "FeatureCollection" and doc["properties"]["game"] == "gazala-rg"


def test_map_geojson_refuses_to_overwrite_the_map(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    shutil.copytree(find_game("batalha").folder, tmp_path, dirs_exist_ok=True)
    src = find_game("batalha").map_file
    copy = tmp_path / "map.yaml"
    assert main(["map", "geojson", str(tmp_path), "-o", str(copy)]) == 2
    assert copy.read_bytes() == src.read_bytes()
    assert "overwrite" in capsys.readouterr().err
