"""Referee for DG, SPI and BG: full checks of real-map positions (warm) and of a synthetic
100,000-hex map with 5,000 units per game.

Budgets (as RG's, issue 7): <= 20 ms warm for a real-map position (file read excluded); <= 1 s for
the synthetic map (one multi-source search per side and purpose, not one per unit). Baselines
measured in the same run: the per-unit way (one single-source search for each of 50 units of the
synthetic map, scaled to all 5,000) for SPI supply and the BG motorized range.
"""

from __future__ import annotations

import random
import time
from functools import partial
from pathlib import Path

from benchmarks.bench_referee import synthetic_map_text
from benchmarks.common import Result, best_of, size
from gazala_tools.counters.loader import load_game_manifest
from gazala_tools.games import find_game
from gazala_tools.hexes import Hex
from gazala_tools.mapdata import load_map_text
from gazala_tools.mapdata.model import GameMap
from gazala_tools.referee.api import position_from_data
from gazala_tools.referee.engine import Context, Referee, RulesPlugin
from gazala_tools.referee.generic import obstructed
from gazala_tools.referee.position import Position, Unit, read_yaml
from gazala_tools.referee.search import BlockCost, multi_source_search
from gazala_tools.rules import rules_for
from gazala_tools.rules.bg import BatalhaDeGazala

AXIS = "axis"

ROOT = Path(__file__).resolve().parent.parent
#: the synthetic map's size; a smoke run keeps the columns (the places' columns) and 25 rows
COLUMNS, ROWS = 400, 250


def rows() -> int:
    return size(ROWS, 25)


def unit_count() -> int:
    return size(5000, 400)


def cell(c: int, r: int) -> str:
    return f"{c:03d}.{r:03d}"


def label(c: int, r: int) -> str:
    """The label of the place at column ``c`` and row ``r`` of the full-size map (its row scaled to a smoke run's map)."""
    return cell(c, max(1, r * rows() // ROWS))


def synthetic_map(seed: int = 3) -> GameMap:
    """400 x 250 desert (100,000 hexes) with 20 west-east roads, 300 minefield hexes, and the places
    and zones the DG, SPI and BG rules data name (Tobruk, supply symbols, objectives...)."""
    roads = [f'  - {{name: r{k}, kind: road, source: bench, hexes: [{", ".join(chr(34) + cell(c, r) + chr(34) for c in range(1, COLUMNS // 2))}]}}'
             for k, r in enumerate(range(6, rows(), 12))]
    places = "\n".join(f'  - {{name: "{n}", source: bench, hexes: ["{label(c, r)}"]}}' for n, c, r in (
        ("Tobruk", 350, 20), ("Bir Hacheim", 200, 230), ("El Adem", 360, 120), ("Knightsbridge", 260, 120),
        ("Belhamed", 400, 125), ("Tobruk airfield", 351, 20), ("British supply 1201", 399, 125)))
    entries = ", ".join(f'"{cell(1, r)}"' for r in (6, 18))
    more = f"""path-kinds: {{road: {{}}, track: {{}}}}
paths:
{chr(10).join(roads)}
places:
{places}
zones:
  - {{name: axis-road-entries, source: bench, hexes: [{entries}]}}
  - {{name: axis-supply-entries, source: bench, edges: [W]}}
  - {{name: allied-supply, source: bench, edges: [E]}}
  - {{name: red-base, source: bench, edges: [W]}}
  - {{name: allied-supply-symbols, source: bench, hexes: ["{label(399, 125)}", "{label(300, 100)}"]}}
  - {{name: axis-supply-symbols, source: bench, hexes: ["{label(1, 125)}", "{label(200, 250)}"]}}
"""
    return load_map_text(synthetic_map_text(COLUMNS, rows(), seed, more), "synthetic.yaml")


def synthetic_position(game_map: GameMap, game: str, n: int | None = None, seed: int = 5) -> Position:
    """5,000 units on distinct hexes, Axis in the west half and Allied in the east half."""
    n = unit_count() if n is None else n
    rng = random.Random(seed)
    west = [h for h in game_map.hexes() if game_map.grid.numbers(h)[0] <= COLUMNS // 2]
    east = [h for h in game_map.hexes() if game_map.grid.numbers(h)[0] > COLUMNS // 2]
    units = [Unit(id=f"a{i}", side="axis", type=("armor" if i % 3 else "motorized-infantry"), hex=h)
             for i, h in enumerate(rng.sample(west, n // 2))]
    units += [Unit(id=f"b{i}", side="allied", type=("infantry" if i % 2 else "armor"), hex=h)
              for i, h in enumerate(rng.sample(east, n - n // 2))]
    units += [Unit(id=f"x{i}", side=s, type="infantry", box="eliminated") for i, s in enumerate(("axis", "allied") * 5)]
    return Position(game=game, units=tuple(units), turn="12", extra={"reduced": [f"b{i}" for i in range(0, 200, 2)]})


def dg_worst_position(game_map: GameMap, n: int | None = None, seed: int = 9) -> Position:
    """DG worst case: the German holds Tobruk and almost no British unit cuts the map, so the
    18.0 path search crosses all 100,000 hexes (and every minefield hexside)."""
    n = unit_count() if n is None else n
    rng = random.Random(seed)
    tobruk = game_map.hex(label(350, 20))
    hexes = [h for h in game_map.hexes() if h != tobruk]
    picks = rng.sample(hexes, n - 1)
    units = [Unit(id="tobruk", side="axis", type="armor", hex=tobruk)]
    units += [Unit(id=f"u{i}", side="allied" if i < 10 else "axis", type="infantry", hex=h) for i, h in enumerate(picks)]
    return Position(game="cauldron-dg", units=tuple(units), turn="26")


def real_positions() -> dict[str, tuple[RulesPlugin, Position]]:
    """The DG 19.0 set-up on DG, the same units on SPI (game-turn 8), 54 BG units on BG."""
    dg_rules = rules_for(find_game("cauldron-dg"))
    dg = position_from_data(dg_rules, read_yaml(ROOT / "tests/rules/dg/setup_19_0.yaml"))
    spi_rules = rules_for(find_game("cauldron-spi"))
    spi = Position(game="cauldron-spi", units=dg.units, turn="8")
    bg_rules = rules_for(find_game("batalha"))
    bg_map = bg_rules.map
    rng = random.Random(11)
    land = [h for h in bg_map.hexes() if bg_map.passable(h)]
    cols = {h: bg_map.grid.numbers(h)[0] for h in land}
    axis_hexes = rng.sample([h for h in land if cols[h] < 10], 20)
    allied_hexes = rng.sample([h for h in land if cols[h] >= 12], 34)
    manifest = list(load_game_manifest(find_game("batalha")).units)
    bg_units: list[Unit] = []
    for c, h in zip([c for c in manifest if c.side == "axis"], axis_hexes, strict=False):
        bg_units.append(Unit(id=c.id, side="axis", type=c.type, formation=c.formation, hex=h))
    for c, h in zip([c for c in manifest if c.side == "allied"], allied_hexes, strict=False):
        bg_units.append(Unit(id=c.id, side="allied", type=c.type, formation=c.formation, hex=h))
    bg = Position(game="batalha", units=tuple(bg_units), turn="6",
                  extra={"reduced": [u.id for u in bg_units if u.side == "allied"][:6]})
    return {"cauldron-dg": (dg_rules, dg), "cauldron-spi": (spi_rules, spi), "batalha": (bg_rules, bg)}


def per_unit_baseline(rules: RulesPlugin, pos: Position, cost_of: str) -> float:
    """Seconds for one single-source search per unit (50 measured, scaled to every unit)."""
    ctx = Context(rules, pos)
    if cost_of == "spi":
        assert rules.data.supply is not None
        blocked: set[Hex] = set(obstructed(rules, ctx, rules.data.supply.sides[AXIS]))
    else:
        assert isinstance(rules, BatalhaDeGazala)
        blocked = rules.zones_against(ctx, AXIS, armor=False) | ctx.hexes_of.get("allied", set()) | rules.minefields
    cost = BlockCost(rules.topology, hexes=blocked)

    sample = [u for u in pos.units if u.side == AXIS and u.hex is not None][: size(50, 5)]
    t = time.perf_counter()
    for u in sample:
        assert u.hex is not None
        multi_source_search(rules.topology, [u.hex], cost)
    return (time.perf_counter() - t) / len(sample) * sum(1 for u in pos.units if u.side == AXIS)


def run() -> list[Result]:
    out: list[Result] = []
    for game, (rules, pos) in real_positions().items():
        referee = Referee(rules)
        report = referee.check(pos)  # warm
        ms = best_of(partial(referee.check, pos), repeat=20) * 1000
        out.append(Result(f"{game}: {len(pos.units)}-unit position on the game's map, full check (warm)", ms, "ms",
                          budget="<= 20 ms", ok=ms <= 20, note=f"{len(report.findings)} findings"))
    t = time.perf_counter()
    big = synthetic_map()
    prep = time.perf_counter() - t
    for game, baseline in (("cauldron-dg", None), ("cauldron-spi", "spi"), ("batalha", "bg")):
        t = time.perf_counter()
        rules = rules_for(find_game(game), big)
        rules_s = time.perf_counter() - t
        pos = dg_worst_position(big) if game == "cauldron-dg" else synthetic_position(big, game)
        referee = Referee(rules)
        report = referee.check(pos)
        s = best_of(partial(referee.check, pos), repeat=3)
        note = f"{len(report.findings)} findings; map load {prep:.2f} s, rules prep {rules_s:.2f} s (not timed)"
        if game == "cauldron-dg":
            v = report.vp["victory"]
            note += "; German path " + ("found" if v["paths"]["axis"]["found"] else "none")  # type: ignore[index]
        if baseline is None:
            out.append(Result(f"{game}: synthetic 100,000 hexes, 5,000 units (German path search over the whole "
                              "map), full check", s, "s", budget="<= 1 s", ok=s <= 1.0, note=note))
            continue
        per_unit = per_unit_baseline(rules, pos, baseline)
        what = "supply" if baseline == "spi" else "motorized-range"
        out.append(Result(f"{game}: synthetic 100,000 hexes, 5,000 units, full check", s, "s", budget="<= 1 s",
                          ok=s <= 1.0, baseline=f"one {what} search per Axis unit (50 measured, scaled)",
                          baseline_value=per_unit, ratio=per_unit / s, note=note))
    out.append(generic_data_rules(big))
    return out


def generic_data_rules(big: GameMap) -> Result:
    """A game without a plugin (the test game River War: stacking, ZOC, supply of at most 6 hexes
    through enemy ZOC unless friendly-occupied, as data) on the synthetic map."""
    game = find_game(ROOT / "tests/games/river-war")
    t = time.perf_counter()
    rules = rules_for(game, big)
    rules_s = time.perf_counter() - t
    base = synthetic_position(big, game.id)
    sides = {"axis": "red", "allied": "blue"}
    pos = Position(game=game.id, units=tuple(Unit(id=u.id, side=sides[u.side], type="infantry", hex=u.hex, box=u.box)
                                             for u in base.units), turn="3")
    referee = Referee(rules)
    report = referee.check(pos)
    s = best_of(partial(referee.check, pos), repeat=3)
    return Result("data-only game (generic rules of river-war): synthetic 100,000 hexes, 5,000 units, full check", s,
                  "s", budget="<= 1 s", ok=s <= 1.0,
                  note=f"{len(report.findings)} findings; rules prep {rules_s:.2f} s (not timed)")


if __name__ == "__main__":  # pragma: no cover
    for r in run():
        print(r)
