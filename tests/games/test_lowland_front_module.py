"""Lowland Front (``lowland-front/``, issue 32) as a folder the tools take like any game: ``map check``
on its pointy-topped grid named column.row, the module build, and the real VASSAL 3.7.26 engine (a
sideways grid): the module loads cleanly, every hex centre is named as the game names it, and the
set-up opens with every unit where scenarios.yaml puts it (RULES.md 1.1, scenarios.yaml)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from .conftest import assert_loads_cleanly, engine_hex_names, placed_by_map, referee_json, run

FOLDER = Path(__file__).resolve().parent / "lowland-front"
SCENARIO = "The Lisse (Turn 1 - Turn 6)"
MOVES: list[dict[str, Any]] = []

#: scenarios.yaml's set-up
SETUP = {
    "lg-1-div": "03.05", "lg-hq": "03.05", "lg-2-bde": "10.05", "lg-3-bde": "11.09", "lg-4-pz": "08.06",
    "lg-5-mot": "07.08", "lg-6-rec": "09.02", "lg-7-art": "09.05", "em-1-div": "19.06", "em-hq": "21.11",
    "em-2-div": "14.06", "em-3-bde": "14.10", "em-4-pz": "16.07", "em-5-mot": "15.04", "em-6-rec": "14.02",
    "em-7-art": "17.05",
}
BOXED = {u: "Reinforcements" for u in ("lg-8-bde", "lg-9-rec", "lg-10-pz", "em-8-div")}


def test_1_1_map_check_passes_on_pointy_hexes_named_column_dot_row(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "map", "check", str(FOLDER), "--json")
    assert code == 0 and json.loads(out)["ok"]
    code, out, _ = run(capsys, "map", "info", str(FOLDER), "--json")
    info = json.loads(out)
    assert (info["first_hex"], info["last_hex"], info["hexes"]) == ("01.01", "24.12", 288)


def test_1_1_rows_run_west_to_east_and_every_other_row_is_shifted_half_a_hex_east() -> None:
    from gazala_tools.games import find_game
    from gazala_tools.mapdata.loader import load_game_map

    m = load_game_map(find_game(str(FOLDER)))
    geo = m.geometry()

    def xy(label: str) -> tuple[int, int]:
        return geo.hex_center(m.hex(label))

    assert xy("01.01")[1] == xy("24.01")[1] and xy("01.01")[0] < xy("24.01")[0]  # a row runs west to east
    assert xy("01.01")[1] < xy("01.02")[1]  # rows from 01 at the north edge
    assert xy("01.01")[0] - xy("01.02")[0] == 35  # odd rows half a hex (70 px) east of even rows
    assert sorted(m.label(n) for n in m.hex("12.06").neighbours()) == ["11.05", "11.06", "11.07", "12.05", "12.07",
                                                                       "13.06"]


@pytest.mark.vassal
def test_engine_loads_the_module_with_no_error_dialog_or_dropped_attribute(vassal_engine: Any, vmod: Path) -> None:
    loaded = vassal_engine.module(vmod)
    assert_loads_cleanly(loaded)
    assert all(p["valid"] for p in loaded["prototypes"])


@pytest.mark.vassal
def test_engine_names_every_hex_centre_by_the_games_numbering(vassal_engine: Any, vmod: Path) -> None:
    names, labels = engine_hex_names(vassal_engine, vmod, FOLDER)
    assert names == labels and len(names) == 288 and {"01.01", "12.07", "24.12"} <= set(names)


@pytest.mark.vassal
def test_engine_opens_the_set_up_with_every_unit_on_its_hex(opened: dict[str, Any], vmod: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    from gazala_tools.vassal.gamelayout import MAIN_MAP

    placed = placed_by_map(opened)
    assert placed[MAIN_MAP] == SETUP and placed["Holding Boxes"] == BOXED
    code, report = referee_json(capsys, opened["saved"], vmod, FOLDER)  # a legal set-up by every rule of RULES.md
    problems = [f for f in report["findings"] if f["severity"] != "info"]
    assert report["game"] == "lowland-front" and code == 0 and problems == [], problems
    # 10.2: the position's score is told (info): the cities each side holds at the set-up
    scores = sorted(f["message"] for f in report["findings"] if f["severity"] == "info")
    assert scores == ["The Empire scores 3 VP: Ostfurt (19.06) occupied in supply",
                      "The League scores 1 VP: Marrenburg (11.06) controlled",
                      "The League scores 3 VP: Westhaven (03.05) occupied in supply"], scores
