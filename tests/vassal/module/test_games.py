"""Each game's module data follows its rules: set-ups (RG 17.0, DG 19.0, BG 11.1), dice, turns, steps, cups.

The set-ups are game data (``scenarios.yaml``): the tests read the rules texts and compare them with
the data, then check that the module places every unit where the data says.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from gazala_tools.games import find_game
from gazala_tools.games.scenarios import Placement, load_scenarios
from gazala_tools.mapdata import load_map
from gazala_tools.vassal.module.spec import ModuleSpec, PieceSpec

RG_TEXT, BG_TEXT, DG_TEXT = "000_0907a829c7518a88.txt", "001_8e2c3d1165a6b9a0.txt", "002_0cc14fa2691c9c54.txt"

GameModule = Callable[[str], tuple[Path, Any]]


@pytest.fixture(scope="module")
def rg(game_module: GameModule) -> ModuleSpec:
    spec: ModuleSpec = game_module("gazala-rg")[1].spec
    return spec


def _units(spec: ModuleSpec) -> dict[str, PieceSpec]:
    return {p.id: p for p in spec.pieces if p.kind == "unit"}


def test_2_0_rg_module_shows_all_168_counters(rg: ModuleSpec) -> None:
    from gazala_tools.counters import load_manifest

    manifest = load_manifest("gazala-rg")
    faces = {n for p in rg.pieces for n in (*p.faces, *p.used)}
    for c in manifest.units:  # every step counter, both faces
        assert {f"{c.id}-front.png", f"{c.id}-back.png"} <= faces, c.id
    for c in manifest.chits:
        assert f"{c.id}-front.png" in faces, c.id
    assert {m.unit_id for m in manifest.markers} <= {p.id for p in rg.pieces}
    steps = sum(p.steps for p in rg.pieces if p.kind == "unit")
    assert steps == len(manifest.units)
    chits = sum(len(d.pieces) for d in rg.decks)
    assert chits == len(manifest.chits)


def test_11_0_armor_steps_german_3_allied_and_italian_2(rg: ModuleSpec) -> None:
    units = _units(rg)
    assert units["axis-21pz-5-1"].steps == 3
    assert units["axis-ariete-132-8"].steps == 2
    assert all(len(u.used) == u.steps for u in units.values())


def _rg_setup() -> tuple[Placement, ...]:
    return load_scenarios(find_game("gazala-rg"))[0].setup


def test_17_0_scenarios_are_the_rules_text(shared_dir: Path) -> None:
    """Every set-up rule, turn and start value of scenarios.yaml is what 17.0 prints."""
    text = " ".join((shared_dir / "seeds" / RG_TEXT).read_text(encoding="utf-8").split())
    block = text[text.index("17.0 Scenarios Scenario One"):text.index("18.0 Players Notes")]
    numbers = {"one": 1}
    within = {(f.strip(), int(numbers.get(n, n)), h) for f, n, h in
              re.findall(r"((?:\d+ )?[A-Z][A-Za-z]*)\s?-\s?all units within (\d|one) hexe?s? of (\d{4})", block)}
    ours = {(p.formation, p.distance, p.centre) for p in _rg_setup() if p.centre and not p.units}
    assert ours == within and len(within) == 10
    motor = re.search(r"7 Motor \((\d+ RB), (\d+ KRR)\) within (\d) hexes of (\d{4}) used side up", block)
    (seven,) = [p for p in _rg_setup() if p.formation == "7 Motor"]
    assert motor and (seven.distance, seven.centre, seven.used) == (int(motor.group(3)), motor.group(4), True)
    assert {p.formation: p.hexes for p in _rg_setup() if p.hexes} == {
        "9 Ind": tuple(re.findall(r"9 Ind-3/12 FR in (\d{4})", block)),
        "1 FF": tuple(re.search(r"1 FF -all units in hexes ([\d,]+)", block).group(1).split(",")),  # type: ignore[union-attr]
        "201 Gd": tuple(re.findall(r"\d{4}", re.search(r"201 Gd-all units ([\d, ]+) two units per hex", block).group(1))),  # type: ignore[union-attr]
    }
    assert [p.per_hex for p in _rg_setup() if p.formation == "201 Gd"] == [2]
    one, campaign = load_scenarios(find_game("gazala-rg"))
    turns = re.findall(r"First Turn: (.+?) Last Turn: (\w+ [\d-]+) ", block)
    assert [(one.start, one.end), (campaign.start, campaign.end)] == turns
    assert "The Axis player starts with 2VP" in block and [(t.side, t.value) for t in one.tracks] == [("axis", 2)]
    assert "Set Up: same as Scenario One" in block and campaign.setup == one.setup and not campaign.tracks


def test_17_0_scenario_one_sets_up_each_formation_within_its_radius(rg: ModuleSpec) -> None:
    game_map = load_map("gazala-rg")
    units = _units(rg)
    scenario = rg.scenarios[0]
    placed = dict(scenario.placements)
    for rule in _rg_setup():
        members = [u for u in units.values() if u.formation == rule.formation and (not rule.units or u.id in rule.units)]
        assert members and all(u.id in placed for u in members), rule.formation
        for u in members:
            h = game_map.hex(placed[u.id])
            if rule.hexes:
                assert placed[u.id] in rule.hexes
            else:
                assert h.distance(game_map.hex(rule.centre)) <= rule.distance, (u.id, placed[u.id])


def test_17_0_allies_one_unit_per_hex_except_201_guards_two(rg: ModuleSpec) -> None:
    units = _units(rg)
    per_hex = Counter(label for pid, label in rg.scenarios[0].placements if units[pid].side == "Allied")
    assert per_hex["1504"] == per_hex["1605"] == 2
    assert all(n == 1 for label, n in per_hex.items() if label not in ("1504", "1605"))


def test_17_0_7_motor_starts_used_side_up(rg: ModuleSpec) -> None:
    used = set(rg.scenarios[0].used)
    assert used == {"allied-7mot-2-rb", "allied-7mot-9-krr"}


def test_15_1_reinforcements_are_not_on_the_map_at_start(rg: ModuleSpec) -> None:
    units = _units(rg)
    placed = {pid for pid, _ in rg.scenarios[0].placements}
    for formation in ("21 PZ", "15 PZ", "90 Lt", "Brescia", "29 Ind", "10 Ind", "32 ATB", "151 Inf"):
        assert not any(units[p].formation == formation for p in placed), formation
    assert "allied-7mot-2-krr" not in placed


def test_17_0_campaign_sets_up_as_scenario_one(rg: ModuleSpec) -> None:
    one, campaign = rg.scenarios
    assert one.placements == campaign.placements and one.used == campaign.used


def test_rg_d10_reads_0_to_9_and_turns_run_may_27_am_to_june_13_14(rg: ModuleSpec) -> None:
    (d10,) = rg.dice
    assert (d10.n_dice, d10.n_sides, d10.plus) == (1, 10, -1)  # 1-10 minus 1 on each die
    assert rg.turns[0] == "May 27 AM" and rg.turns[-1] == "June 13-14" and len(rg.turns) == 13


def test_rg_chit_cups_per_side_and_kind(rg: ModuleSpec) -> None:
    names = {d.name: len(d.pieces) for d in rg.decks}
    assert set(names) == {"Axis action chits", "Allied action chits", "Axis tactical chits", "Allied tactical chits"}
    chits = {p.id: p for p in rg.pieces if p.kind == "chit"}
    assert len(chits["axis-action-15pz-21pz-1"].faces) == 2  # 7.0: two-sided 15/21 PZ chit
    assert len(chits["allied-tac-combat-1"].faces) == 1 and chits["allied-tac-combat-1"].mask


def test_14_1_breach_marker_faces_a_hexside_and_has_both_states(rg: ModuleSpec) -> None:
    (breach,) = [p for p in rg.pieces if p.facing is not None]
    assert len(breach.faces) == 2 and breach.type == "breach"
    assert breach.facing is not None and breach.facing.states == ("under construction", "breached")


def test_19_0_dg_setup_is_the_rules_list_unit_for_unit(game_module: GameModule, shared_dir: Path) -> None:
    """(nation, values, hex) of every unit the module sets up is a line of 19.0's lists, and back."""
    from gazala_tools.counters import load_manifest

    text = (shared_dir / "seeds" / DG_TEXT).read_text(encoding="utf-8")
    start = text.index("### 19.0 SCENARIOS")
    rules: Counter[tuple[str, str, str]] = Counter()
    nation = ""
    for line in text[start:text.index("## 20.0 GAME NOTES", start)].splitlines():
        h = re.match(r"#### (GERMANY|ITALY|UNITED KINGDOM)", line)
        nation = {"GERMANY": "de", "ITALY": "it", "UNITED KINGDOM": "uk"}[h.group(1)] if h else nation
        v = re.match(r"(\d+-\d+-\d+)\t(\d+)", line)
        if v:
            rules[(nation, v.group(1), v.group(2).zfill(4))] += 1
    spec: ModuleSpec = game_module("cauldron-dg")[1].spec
    manifest = {c.unit_id: c for c in load_manifest("cauldron-dg").units}
    ours = Counter((manifest[uid].nationality, "-".join(v.text() for v in manifest[uid].front.values), label)
                   for uid, label in spec.scenarios[0].placements)
    assert ours == rules and sum(rules.values()) == 72
    assert dict(spec.scenarios[0].placements)["axis-15pz-8-1"] == "2723"


def test_bg_rolls_2d6_with_a_total(game_module: GameModule) -> None:
    spec: ModuleSpec = game_module("batalha")[1].spec
    (dice,) = spec.dice
    assert (dice.n_dice, dice.n_sides, dice.report_total) == (2, 6, True)
    assert len(spec.turns) == 14


def test_spi_random_number_counters_are_drawn_from_a_cup(game_module: GameModule) -> None:
    spec: ModuleSpec = game_module("cauldron-spi")[1].spec
    assert {d.name: len(d.pieces) for d in spec.decks} == {"Random-number chits": 20}


def test_rg_help_menu_has_the_module_help_and_the_rules_summary(game_module: GameModule) -> None:
    import zipfile

    path, result = game_module("gazala-rg")
    with zipfile.ZipFile(path) as zf:
        rules = zf.read("help/rules.html").decode()
        names = set(zf.namelist())
    assert "help/module.html" in names and "images/about.png" in names
    assert "2803" in rules and "June 13-14" in rules  # 16.0 VP hex, last turn
    assert {c.name for c in result.spec.charts} == {"Victory points", "Axis order of battle", "Allied order of battle"}


@pytest.mark.parametrize(("game", "unit"), [("cauldron-dg", "axis-cr-hecker-1"), ("batalha", "allied-201g")])
def test_flip_side_losses_are_the_second_step(game_module: GameModule, game: str, unit: str) -> None:
    """DG's depleted and BG's reduced backs (BG 7.0) are a Step layer's second level; no used side."""
    spec: ModuleSpec = game_module(game)[1].spec
    piece = _units(spec)[unit]
    assert piece.faces == (f"{unit}-front.png", f"{unit}-back.png") and piece.used == ()


def test_dg_one_sided_units_have_one_face(game_module: GameModule) -> None:
    spec: ModuleSpec = game_module("cauldron-dg")[1].spec
    assert _units(spec)["axis-cr-15-sch-1"].steps == 1


@pytest.mark.parametrize("game", ["gazala-rg", "cauldron-dg", "cauldron-spi", "batalha"])
def test_module_grid_is_the_one_gazala_grid_uses_for_the_game(game_module: GameModule, game: str) -> None:
    """`gazala grid locate GAME` (layout_for_game) answers what the module's board answers."""
    from gazala_tools.vassal.buildfile import read_layouts
    from gazala_tools.vassal.gamelayout import MAIN_BOARD, MAIN_MAP, layout_for_game

    (layout, *_) = read_layouts(game_module(game)[0])
    board = layout.boards[0][0]
    expected = layout_for_game(game).boards[0][0]
    assert (layout.name, board.name) == (MAIN_MAP, MAIN_BOARD)
    assert (board.width, board.height, board.grid) == (expected.width, expected.height, expected.grid)


# --- VP tracks ----------------------------------------------------------------------------------
@pytest.mark.parametrize("game", ["gazala-rg", "cauldron-spi", "batalha", "cauldron-dg"])
def test_vp_track_has_a_box_per_value_and_a_x1_and_x10_marker_per_side(game_module: GameModule, game: str) -> None:
    spec: ModuleSpec = game_module(game)[1].spec
    track = spec.track
    assert track is not None
    prefix = "Lost" if game == "cauldron-dg" else "VP"
    assert track.boxes == tuple(f"{prefix} {i}" for i in range(20))
    assert "images/" + track.image in spec.images
    markers = [p for p in spec.pieces if p.properties.get("Track") == track.map_name]
    scales = sorted((p.side, p.properties["TrackScale"]) for p in markers)
    assert scales == [("Allied", "1"), ("Allied", "10"), ("Axis", "1"), ("Axis", "10")]
    assert all(p.kind == "marker" and p.properties["MarkerType"] == p.type for p in markers)


def test_16_0_rg_axis_vp_marker_is_the_manifest_one_and_its_back_adds_ten(rg: ModuleSpec) -> None:
    vp = rg.piece("axis-vp")
    assert len(vp.faces) == 2 and vp.faces[0] == "axis-vp-front.png"
    assert vp.properties["Track"] == "VP Track" and vp.properties["TrackScale"] == "1"
    assert vp.properties["TrackFlipBonus"] == "10"


def test_18_0_spi_vp_markers_back_adds_a_hundred(game_module: GameModule) -> None:
    spec: ModuleSpec = game_module("cauldron-spi")[1].spec
    assert [spec.piece(f"{s}-vp").properties["TrackFlipBonus"] for s in ("axis", "allied")] == ["100", "100"]


# --- BG set-up (11.1) ---------------------------------------------------------------------------
def _bg_setup() -> list[tuple[str, str, str]]:
    """(unit id, place, rule) of the BG set-up in scenarios.yaml."""
    (scenario,) = load_scenarios(find_game("batalha"))
    return [(p.units[0], p.place, p.source) for p in scenario.setup]


def test_11_1_bg_setup_is_every_unit_the_rules_place_by_name(game_module: GameModule, shared_dir: Path) -> None:
    text = (shared_dir / "seeds" / BG_TEXT).read_text(encoding="utf-8")
    block = text[text.index("11.1.1 – Colocação Inicial Aliada"):text.index("11.1.3 – Reforços Aliados")]
    named = [(unit.strip(), place.strip()) for unit, place in re.findall(r"^- (.+?) – ([^;\n]+);", block, re.M)
             if not place.startswith("Livre")]
    assert [place.lower() for _u, place in named] == [place.lower() for _id, place, _src in _bg_setup()]
    spec: ModuleSpec = game_module("batalha")[1].spec
    units = _units(spec)
    for (rule_unit, _place), (uid, _p, _src) in zip(named, _bg_setup(), strict=True):
        # the rule's number (1ª, 150ª, 22ª, 7ª, 201ª, 1ª, 9º) is the number the counter is designated by
        assert re.findall(r"^\d+", units[uid].properties["Designation"]) == re.findall(r"^\d+", rule_unit), uid
    (scenario,) = spec.scenarios
    game_map = load_map("batalha")
    assert [(uid, label) for uid, label in scenario.placements] == [
        (uid, game_map.label(game_map.place(place).hex)) for uid, place, _src in _bg_setup()]
