"""Movement rules of one move (``movement.check_move`` and the plugins' ``check_move`` hooks), on the
games' own maps, with positions written as data: the rules the engine-written logs cannot reach
(no set-up has a breach marker or an Axis motorized unit far east)."""

from __future__ import annotations

import itertools
import shutil
from pathlib import Path

import pytest

from gazala_tools.errors import GazalaError
from gazala_tools.hexes import Direction
from gazala_tools.referee.api import rules_for_game
from gazala_tools.referee.engine import Context, RulesPlugin
from gazala_tools.referee.findings import Finding
from gazala_tools.referee.movement import MoveContext, allowances, check_move
from gazala_tools.referee.position import Position, Unit
from gazala_tools.rules.rg import BREACHES, Breach, BreachState


def move(rules: RulesPlugin, units: list[Unit], uid: str, to: str, *,
         breaches: tuple[Breach, ...] = (), allowance: dict[str, int] | None = None) -> list[Finding]:
    position = Position(game=rules.game.id, units=tuple(units), turn=None, extra={BREACHES: breaches} if breaches else {})
    data = rules.movement
    if allowance is None:
        allowance = allowances(rules, data.points.role) if data.points else {}
    mc = MoveContext(rules, data, Context(rules, position), 1, 1, {}, allowance)
    before = next(u for u in units if u.id == uid)
    after = Unit(before.id, before.side, before.type, before.formation, rules.map.hex(to))
    path, found = check_move(before, after, mc)
    return [*found, *rules.check_move(before, after, path, mc)]


def test_14_1_the_breaching_unit_may_not_move() -> None:
    rules = rules_for_game("gazala-rg")
    h = rules.map.hex("1216")
    pavia = Unit("axis-pavia-27", "axis", "infantry", "Pavia", h)
    marker = Breach(h.side(Direction.NE), BreachState.UNDER_CONSTRUCTION, at=h)
    assert [f.rule for f in move(rules, [pavia], "axis-pavia-27", "1116", breaches=(marker,))] == ["14.1"]
    # once breached, the marker no longer holds the unit
    done = Breach(h.side(Direction.NE), BreachState.BREACHED, at=h)
    assert move(rules, [pavia], "axis-pavia-27", "1116", breaches=(done,)) == []


def test_9_0_a_unit_may_leave_an_enemy_zoc_hex_for_one_out_of_it() -> None:
    rules = rules_for_game("gazala-rg")
    units = [Unit("axis-ariete-5-ber", "axis", "motorized-infantry", "Ariete", rules.map.hex("1010")),
             Unit("allied-150inf-5-gh", "allied", "infantry", "150 Inf", rules.map.hex("1011"))]
    assert move(rules, units, "axis-ariete-5-ber", "1009") == []


def test_8_3_allied_units_exit_by_the_north_east_and_south_edges() -> None:
    rules = rules_for_game("gazala-rg")
    inf = Unit("allied-150inf-5-gh", "allied", "infantry", "150 Inf", rules.map.hex("2903"))
    position = Position(game=rules.game.id, units=(inf,))
    data = rules.movement
    mc = MoveContext(rules, data, Context(rules, position), 1, 1, {}, allowances(rules, "move"))
    off = Unit(inf.id, inf.side, inf.type, inf.formation, None, box="turn-record")
    path, found = check_move(inf, off, mc)
    assert found == [] and path is not None and path[-1] == rules.map.hex("2903")  # an east-edge hex


def test_bg_4_1_motorized_units_stay_within_20_hexes_of_the_west_road() -> None:
    rules = rules_for_game("batalha")
    far = Unit("axis-15pz-115", "axis", "motorized-infantry", "15 Pz", rules.map.hex("W12"))
    assert "4.1" in [f.rule for f in move(rules, [far], "axis-15pz-115", "W13")]
    near = Unit("axis-15pz-115", "axis", "motorized-infantry", "15 Pz", rules.map.hex("C10"))
    assert "4.1" not in [f.rule for f in move(rules, [near], "axis-15pz-115", "E10")]


def test_bg_4_0_a_road_costs_motorized_units_half_a_point() -> None:
    rules = rules_for_game("batalha")
    data = rules.movement
    assert data.points is not None and data.chart is not None
    ridge = next(r for r in data.chart.terrain if r.name == "ridge")
    mines = next(r for r in data.chart.terrain if r.name == "minefield")
    assert (str(ridge.cells["others"]), str(ridge.cells["motorized"])) == ("2", "3")
    assert str(mines.cells["others"]) == "+1" and mines.units is not None and mines.units.sides == {"axis"}
    road = [s for s in rules.map.path_sides("road")]
    a, b = road[0].hexes
    mot = Unit("axis-15pz-115", "axis", "motorized-infantry", "15 Pz", a)
    inf = Unit("allied-50-150", "allied", "infantry", "50", a)
    from gazala_tools.referee.movement import MoveChecker

    position = Position(game="batalha", units=(mot,))
    mc = MoveContext(rules, data, Context(rules, position), 1, 1, {}, {})
    assert MoveChecker(mc, mot).points(a, b) == 0.5
    assert MoveChecker(mc, inf).points(a, b) == 1.0


def test_dg_16_0_escarpment_hexsides_only_via_trail_or_road() -> None:
    rules = rules_for_game("cauldron-dg")
    inf = Unit("axis-inf", "axis", "infantry", "", rules.map.hex("0318"))
    found = move(rules, [inf], "axis-inf", "0418", allowance={"axis-inf": 6})
    assert [f.rule for f in found] == ["16.0"] and "escarpment hexside off a trail or road" in found[0].message


def test_dg_14_2_an_enemy_minefield_is_crossed_only_as_the_whole_move_from_the_start() -> None:
    rules = rules_for_game("cauldron-dg")
    # 0129 is an Allied minefield hex; from 0128, where the unit began, straight across: legal
    start = Unit("axis-inf", "axis", "infantry", "", rules.map.hex("0128"))
    assert move(rules, [start], "axis-inf", "0129", allowance={"axis-inf": 2}) == []
    # from 0127 through 0128: the crossing is not from where it began its movement
    further = Unit("axis-inf", "axis", "infantry", "", rules.map.hex("0127"))
    found = move(rules, [further], "axis-inf", "0129", allowance={"axis-inf": 2})
    assert [f.rule for f in found] == ["14.2"] and "(0128 to 0129)" in found[0].message


def _points(game: str, unit: Unit, a: str, b: str) -> float:
    from gazala_tools.referee.movement import MoveChecker

    rules = rules_for_game(game)
    data = rules.movement
    mc = MoveContext(rules, data, Context(rules, Position(game=game, units=(unit,))), 1, 1, {}, {})
    return MoveChecker(mc, unit).points(rules.map.hex(a), rules.map.hex(b))


def test_14_0_an_allied_unit_pays_12_to_cross_into_or_out_of_a_minefield_box() -> None:
    # RG 14.0: "Allied units may move across a minefield hexside at a cost of 12 movement points"
    rules = rules_for_game("gazala-rg")
    inf = Unit("allied-150inf-5-gh", "allied", "infantry", "150 Inf", rules.map.hex("0204"))
    assert _points("gazala-rg", inf, "0204", "0104") == 12  # into the box 0104
    assert _points("gazala-rg", inf, "0104", "0105") == 12  # out of it
    assert _points("gazala-rg", inf, "0104", "0205") == 1   # 0205 is no minefield hexside away (clear, 1)
    # 8.0: "Roads do not negate ... the 12 movement point cost for Allied units crossing a minefield":
    # 0106-0206 is a minefield hexside a road crosses (1/2 elsewhere along the road)
    assert _points("gazala-rg", inf, "0106", "0206") == 12 and _points("gazala-rg", inf, "0206", "0106") == 12
    found = move(rules, [inf], "allied-150inf-5-gh", "0104", allowance={"allied-150inf-5-gh": 6})
    assert [f.rule for f in found] == ["8.0"] and "needs 12 movement points" in found[0].message


def test_dg_14_1_a_friendly_minefield_hexside_costs_2_more() -> None:
    # DG 14.1: "friendly units must expend +2 movement points to cross a friendly minefield hexside"
    rules = rules_for_game("cauldron-dg")
    allied = Unit("allied-1sa-1", "allied", "infantry", "1 SA", rules.map.hex("0128"))
    # 0128-0129 is along a road (1/2) into an Allied minefield hex: +2 "even via a trail or a road"
    assert _points("cauldron-dg", allied, "0128", "0129") == 2.5
    axis = Unit("axis-inf", "axis", "infantry", "", rules.map.hex("0128"))
    assert _points("cauldron-dg", axis, "0128", "0129") == 0.5  # an enemy minefield: 14.2, no +2
    found = move(rules, [allied], "allied-1sa-1", "0129", allowance={"allied-1sa-1": 2})
    assert [f.rule for f in found] == ["movement"] and "needs 2.5 movement points" in found[0].message


def test_11_0_worked_examples_fix_the_allowances_the_data_gives() -> None:
    # 11.0: 132/8 "has not moved, it may spend 24 movement points to launch a heavy attack" (the data's
    # reconstructed 20 was wrong: fixed to 24); the 5/1 armor "has 23 movement points left since it only
    # moved one desert hex" (MA 24, a clear desert hex costs 1) and after a 16-point medium attack 7 remain
    rules = rules_for_game("gazala-rg")
    ma = allowances(rules, "move")
    assert ma["axis-ariete-132-8"] == 24 and ma["axis-21pz-5-1"] == 24
    armor = Unit("axis-21pz-5-1", "axis", "armor", "21 PZ", rules.map.hex("1622"))
    assert rules.map.terrain(rules.map.hex("1621")) == "clear"
    assert ma["axis-21pz-5-1"] - _points("gazala-rg", armor, "1622", "1621") == 23


def test_9_0_leaving_an_enemy_zoc_hex_costs_2_more() -> None:
    # RG 9.0 as movement.yaml reads it: leave-zone 2 (the worked detour 1421-1520-1521 costs 4 MP)
    rules = rules_for_game("gazala-rg")
    cav = Unit("allied-3ind-18-cav", "allied", "armored-car", "3 Ind", rules.map.hex("1421"))
    ariete = Unit("axis-ariete-5-ber", "axis", "motorized-infantry", "Ariete", rules.map.hex("1422"))
    position = Position(game="gazala-rg", units=(cav, ariete))
    from gazala_tools.referee.movement import MoveChecker

    mc = MoveContext(rules, rules.movement, Context(rules, position), 1, 1, {}, {})
    assert MoveChecker(mc, cav).points(rules.map.hex("1421"), rules.map.hex("1520")) == 3


def test_7_0_a_two_sided_axis_chit_activates_the_formation_of_one_face() -> None:
    # 7.0: "Action Chit's with 2 sides: (Axis player only) Player may choose to activate the formation
    # on either side of the chit" (and "instead ... one unit of any other formation")
    from gazala_tools.referee.log import ChitDraw

    rules = rules_for_game("gazala-rg")
    data = rules.movement
    units = [Unit("axis-21pz-5-1", "axis", "armor", "21 PZ", rules.map.hex("2020")),
             Unit("axis-21pz-5-2", "axis", "armor", "21 PZ", rules.map.hex("2120")),
             Unit("axis-15pz-8-1", "axis", "armor", "15 PZ", rules.map.hex("2220"))]
    position = Position(game="gazala-rg", units=tuple(units), turn="May 28")
    chit = ChitDraw("c", "15 PZ / 21 PZ (Axis action)", "axis", "action", "15 PZ / 21 PZ")
    phase: dict[str, object] = {}
    found = []
    for u in units:
        mc = MoveContext(rules, data, Context(rules, position), 1, 1, {}, {}, activation=chit,
                         phase_state=phase, turn_state={})
        after = Unit(u.id, u.side, u.type, u.formation, u.hex.neighbours()[0] if u.hex else None)
        found.append([f.rule for f in rules.check_move(u, after, None, mc)])
    assert found == [[], [], ["7.0"]]  # 21 PZ chosen: 15 PZ's unit was not activated


def test_a_side_read_from_a_log_finds_the_chart_compiled_once() -> None:
    # the chart's compiled costs are kept per map and (class, side, rows) by equality: a side read from
    # a log is a new string each time, and an identity key would compile them again for every move
    rules = rules_for_game("gazala-rg")
    chart = rules.data.chart
    assert chart is not None
    first = chart.costs(rules.map, "any", "allied")
    again = chart.costs(rules.map, "any", "".join(["all", "ied"]))
    assert again is first and first.sides  # RG's own minefield hexsides (14.0: 12 points) are priced
    assert chart.costs(rules.map, "any", "axis") is not first


#: BG 4.0's worked example, in our numbering (tests/mapdata/rulerefs.py places it on the map): Sidi
#: Breghisc, two hexes north to Bir Tamrad (2 x 1), north-east by the track (1), into the minefield
#: (1 x 2), the fortified ridge (3), two road hexes to Gazala (2 x 0.5), the ridge south-east (3), the
#: hex south (1), three track hexes to the ridge south-east of Commonwealth Keep (3 x 1): 16
BG_4_0 = ("B09", "B08", "B07", "C06", "D06", "E05", "F05", "F04", "G04", "G05", "H05", "I05", "J05")
BG_4_0_COSTS = (1, 1, 1, 2, 3, 0.5, 0.5, 3, 1, 1, 1, 1)


def test_bg_4_0_the_worked_example_spends_the_16_points_of_a_3_4_16_as_the_data_prices_it() -> None:
    # 4.0: "Uma unidade de infantaria motorizada alemã (3-4-16) ... totalizando ... = 16. Seus pontos
    # de movimentação estão esgotados": counters.yaml's 3-4-16 and movement.yaml's costs, step by step
    rules = rules_for_game("batalha")
    assert allowances(rules, "move")["axis-21pz-104"] == 16
    unit = Unit("axis-21pz-104", "axis", "motorized-infantry", "21 Pz", rules.map.hex(BG_4_0[0]))
    costs = tuple(_points("batalha", unit, a, b) for a, b in itertools.pairwise(BG_4_0))
    assert costs == BG_4_0_COSTS and sum(costs) == 16
    # the whole way is within its 16 points (the referee finds a path no dearer than the example's)
    assert move(rules, [unit], "axis-21pz-104", BG_4_0[-1]) == []


def test_bg_9_1_only_axis_units_pay_the_minefield_point() -> None:
    # 9.1: "Unidades do Eixo movimentando-se por hexágonos de campos minados pagam 1 ponto a mais":
    # an Allied unit entering the same open minefield hex pays the terrain only
    rules = rules_for_game("batalha")
    axis = Unit("axis-21pz-104", "axis", "motorized-infantry", "21 Pz", rules.map.hex("C06"))
    allied = Unit("allied-x", "allied", "motorized-infantry", "", rules.map.hex("C06"))
    assert rules.map.hex("D06") in rules.map.box_kind_hexes("minefield")
    assert _points("batalha", axis, "C06", "D06") == 2
    assert _points("batalha", allied, "C06", "D06") == 1


def test_bg_4_1_2_breaking_contact_costs_one_point_more() -> None:
    # 4.1.2: an engaged unit leaves the enemy's engagement zone "gastando 1 ponto de movimentação a mais
    # para 'romper contato'": open ground 1 + 1 (motorized or not); out of contact, 1
    rules = rules_for_game("batalha")
    allied = Unit("allied-x", "allied", "infantry", "", rules.map.hex("C06"))
    bersaglieri = Unit("axis-9b", "axis", "infantry", "", rules.map.hex("C07"))
    from gazala_tools.referee.movement import MoveChecker

    for enemies, cost in (((bersaglieri,), 2), ((), 1)):
        position = Position(game="batalha", units=(allied, *enemies))
        mc = MoveContext(rules, rules.movement, Context(rules, position), 1, 1, {}, {})
        assert rules.map.terrain(rules.map.hex("B06")) == "open"
        assert MoveChecker(mc, allied).points(rules.map.hex("C06"), rules.map.hex("B06")) == cost


def test_dg_14_2_note_no_move_from_ezoc_to_ezoc_across_a_minefield_hexside() -> None:
    # 14.2 NOTE: "No unit (except commando units) may move from EZOC to EZOC across a minefield hexside":
    # an Allied unit crossing its own minefield hexside 0128-0129 beside an Axis unit adjacent to both
    rules = rules_for_game("cauldron-dg")
    a, b = rules.map.hex("0128"), rules.map.hex("0129")
    beside = next(h for h in a.neighbours() if h in rules.map.grid and h.is_adjacent(b))
    allied = Unit("allied-1sa-1", "allied", "infantry", "1 SA", a)
    axis = Unit("axis-inf", "axis", "infantry", "", beside)
    found = move(rules, [allied, axis], "allied-1sa-1", "0129", allowance={"allied-1sa-1": 10})
    assert "14.2" in [f.rule for f in found] and any("across that hexside" in f.message for f in found)
    assert move(rules, [allied], "allied-1sa-1", "0129", allowance={"allied-1sa-1": 10}) == []


HIGHLAND = Path(__file__).resolve().parents[1] / "games" / "highland"
#: movement data of a game of our own words (docs/games.md, "Movement data"): the palisade of a fort
#: (an owned hexside kind of Highland's map.yaml) costs its own side 3 more to cross, the other side
#: enters the fort's hex at 2 more and crosses an enemy palisade only as its whole move
HIGHLAND_CHART = """  terrain-effects:
    rule: "H5"
    terrain:
      clear: 1
      bog: 2
      palisade: {cost: "+2", units: {sides: [clans]}}
    hexsides:
      palisade:
        - {owner: own, cost: "+3"}
        - {owner: enemy, cost: all, first-step: true, rule: "H6", what: "an enemy palisade"}
"""
HIGHLAND_MOVEMENT = """
points:
  rule: "H5"
"""


def _highland(tmp_path: Path, movement: str = HIGHLAND_MOVEMENT, chart: str = HIGHLAND_CHART) -> RulesPlugin:
    folder = tmp_path / "highland"
    shutil.copytree(HIGHLAND, folder)
    (folder / "movement.yaml").write_text(movement, encoding="utf-8")
    game = folder / "game.yaml"
    text = game.read_text(encoding="utf-8")
    own = text[text.index("  terrain-effects:"):text.index("  zoc:")]  # Highland's chart (H4's bog): replaced
    game.write_text(text.replace(own, "").replace("rules:\n", "rules:\n" + chart, 1), encoding="utf-8")
    return rules_for_game(str(folder))


def test_movement_costs_and_crossings_name_the_games_own_hexside_kind(tmp_path: Path) -> None:
    rules = _highland(tmp_path)
    data = rules.movement
    assert data.chart is not None and {r.name for r in (*data.chart.terrain, *data.chart.hexsides)} >= {"palisade"}
    crown = Unit("crown-foot", "crown", "infantry", "", rules.map.hex("0502"))
    clans = Unit("clans-foot", "clans", "infantry", "", rules.map.hex("0502"))

    def points(unit: Unit, a: str, b: str) -> float:
        from gazala_tools.referee.movement import MoveChecker

        mc = MoveContext(rules, data, Context(rules, Position(game=rules.game.id, units=(unit,))), 1, 1, {}, {})
        return MoveChecker(mc, unit).points(rules.map.hex(a), rules.map.hex(b))

    assert points(crown, "0502", "0602") == 4  # clear 1 + 3 across its own palisade
    assert points(clans, "0502", "0602") == 3  # clear 1 + 2 into the fort's hex; not its palisade
    assert points(clans, "0402", "0502") == 1
    walker = Unit("clans-foot", "clans", "infantry", "", rules.map.hex("0402"))
    found = move(rules, [walker], "clans-foot", "0602", allowance={"clans-foot": 9})
    assert [f.rule for f in found] == ["H6"] and "an enemy palisade" in found[0].message


def test_a_kind_the_map_does_not_declare_is_named_with_did_you_mean(tmp_path: Path) -> None:
    with pytest.raises(GazalaError, match=r"game.yaml:\d+:\d+: .*'palisde'.*did you mean 'palisade'"):
        _highland(tmp_path, chart=HIGHLAND_CHART.replace("    hexsides:\n      palisade:", "    hexsides:\n      palisde:"))


def test_an_impassable_hexside_kind_is_crossed_by_no_unit() -> None:
    # Highland's cliff (map.yaml hexside-kinds: cliff {impassable: true}): "no unit, supply path or ZOC crosses"
    rules = rules_for_game(str(HIGHLAND))
    cliff = next(iter(rules.map.impassable_sides))
    a, b = cliff.hexes
    foot = Unit("clan-foot-1", "clans", "infantry", "", a)
    found = move(rules, [foot], "clan-foot-1", rules.map.label(b), allowance={"clan-foot-1": 1})
    assert [f.rule for f in found] == ["movement"] and "crosses an impassable hexside" in found[0].message
