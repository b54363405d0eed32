"""Bad input in the rules keys of issue 32 (stacking points, markers, ZOC, supply in MP, reinforcements,
control, victory): ``gazala referee check`` exits 2 with one line naming ``game.yaml:LINE:COL``, the key,
the bad value and, for a misspelt name, "did you mean"; never a traceback.

Each case edits one value of Lowland Front's ``game.yaml`` (``tests/games/lowland-front/``) in a copy.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from gazala_tools.cli import main

FOLDER = Path(__file__).resolve().parents[1] / "games" / "lowland-front"

#: (the text in game.yaml, what it becomes, what the error says)
CASES = [
    ("terrain: {city: 9}", "terrain: {citty: 9}",
     "rules.stacking.terrain.citty: 'citty' is not a terrain of the map (did you mean 'city'?)"),
    ("infantry-division: 3, infantry: 2", "infantry-divison: 3, infantry: 2",
     "'infantry-divison' is not a unit type of the game (did you mean 'infantry-division'?)"),
    ("      class: foot", "      class: fot",
     "rules.supply.trace.class: 'fot' is not a unit class of the terrain effects chart (did you mean 'foot'?)"),
    ("excludes: [isolated]", "excludes: [isolatd]",
     "'isolatd' is not a marker of the game (did you mean 'isolated'?)"),
    ("supply: out, excludes", "supply: outt, excludes", "rules.markers.out-of-supply.supply"),
    ("movement: 1/2, round: down, zoc: false, supply: out", "movement: half, round: down, zoc: false, supply: out",
     "rules.markers.out-of-supply.movement: 'half' is not a factor"),
    ("negated-by-friendly: [supply]", "negated-by-friendly: [suply]",
     "'suply' is not what a zone is negated for (did you mean 'supply'?)"),
    ("network-blocked-by: [enemy-units]", "network-blocked-by: [enemy-unit]",
     "'enemy-unit' is not a network block (did you mean 'enemy-units'?)"),
    ("entry-blocked-by: [enemy-units, enemy-zoc]", "entry-blocked-by: [enemy-units, enemy-zco]",
     "'enemy-zco' is not what blocks an entry hex (did you mean 'enemy-zoc'?)"),
    ("start: {league:", "start: {leage:", "'leage' is not a side of the game (did you mean 'league'?)"),
    ("side: league, hexes: {places: [Marrenburg", "side: leage, hexes: {places: [Marrenburg",
     "'leage' is not a side of the game (did you mean 'league'?)"),
    ("holds: controlled, vp: 1", "holds: controled, vp: 1", "rules.victory.hexes[0].score[1].holds"),
    ("places: [Westhaven, Marrenburg, Ostfurt]", "places: [Westhaven, Marenburg, Ostfurt]", "Marenburg"),
    ("      max-mp: 4\n", "      max-mp: 4\n      max-length: 4\n", "counted in hexes or in movement points"),
    ("      class: foot\n", "", "a trace in movement points names its unit class"),
    ('    enemy-rule: "3.7"', '    enemy-rule: "3.7"\n    when: end-of-move', "rules.stacking.when"),
    ("  control:                        # 9.1-9.2", "  control:                        # 9.1-9.2\n    bye: occupation",
     "unknown key 'bye'"),
    ("    draw: a draw", "    draw: a draw\n    levels-rul: x", "unknown key 'levels-rul'"),
]


@pytest.mark.parametrize(("old", "new", "words"), CASES, ids=[c[2][:40] for c in CASES])
def test_bad_rules_data_is_one_line_with_its_place(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                  old: str, new: str, words: str) -> None:
    game = tmp_path / "lf"
    shutil.copytree(FOLDER, game)
    text = (game / "game.yaml").read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    (game / "game.yaml").write_text(text.replace(old, new), encoding="utf-8")
    pos = tmp_path / "pos.yaml"
    pos.write_text("game: lowland-front\nunits: []\n", encoding="utf-8")
    capsys.readouterr()
    assert main(["referee", "check", str(pos), "--game", str(game)]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    assert f"{game / 'game.yaml'}:" in err and words in err, err
    line = next(i for i, x in enumerate(text.replace(old, new).splitlines(), 1) if new.strip().splitlines()[-1].strip()
                in x) if new.strip() else None
    if line is not None and "max-length" not in new and "class: foot" not in old:
        assert f"game.yaml:{line}:" in err, (line, err)


def test_a_position_with_a_marker_the_game_lacks(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pos = tmp_path / "pos.yaml"
    pos.write_text("game: lowland-front\nunits:\n  - {id: a, side: league, type: infantry, hex: '05.05', "
                   "markers: [out-of-suply]}\n", encoding="utf-8")
    assert main(["referee", "check", str(pos), "--game", str(FOLDER)]) == 2
    err = capsys.readouterr().err
    assert f"{pos}:3:" in err and "unknown marker 'out-of-suply' (did you mean 'out-of-supply'?)" in err, err


@pytest.mark.parametrize(("old", "new", "words"), [
    ("into: {terrain: [swamp, lake]}", "into: {terrain: [swamp, lak]}",
     "terrain 'lak' is not on the map of lowland-front (did you mean 'lake'?)"),
    ("sources: {edges: [W], places: [Westhaven]}", "sources: {edges: [W], places: [Westhavn]}",
     "place 'Westhavn' is not on the map of lowland-front (did you mean 'Westhaven'?)"),
])
def test_a_misspelt_map_name_says_did_you_mean(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                               old: str, new: str, words: str) -> None:
    test_bad_rules_data_is_one_line_with_its_place(tmp_path, capsys, old, new, words)
