"""Rules as data (issue 32): a 100,000-hex, 5,000-unit position of a data-only game with a Terrain Effects
Chart, stacking points with per-terrain limits, markers with effects, a ZOC with exempt units and
supply traced in movement points of a named class (then along a road network), fully checked.

Budget (issue 32): <= 1 s for the full check. Baseline measured in the same run: one movement-point
supply search per unit (50 units measured, scaled to all 5,000), the way a referee without the
one-search-per-side trace would judge it.
"""

from __future__ import annotations

import random
import tempfile
import time
from pathlib import Path

from benchmarks.common import Result, best_of, size
from gazala_tools.games import find_game
from gazala_tools.mapdata.loader import load_game_map
from gazala_tools.referee.engine import Context, Referee
from gazala_tools.referee.generic import MP_SCALE, obstructed
from gazala_tools.referee.position import Position, Unit
from gazala_tools.referee.search import multi_source_search
from gazala_tools.rules import rules_for

GAME = """id: bench-rules
name: "Rules as data (benchmark)"
provenance: benchmark
sides: [{id: red, name: Red}, {id: blue, name: Blue}]
turns: {count: 10, label: "Turn {n}"}
numbering: {hLeading: "2", vLeading: "2", sep: "."}
unit-types: {division: {symbol: infantry}, brigade: {symbol: infantry}, battalion: {symbol: recon}, hq: {}, tank: {symbol: armor}}
rules:
  type-groups: {foot: [division, brigade, battalion, hq], motor: [tank]}
  terrain-effects:
    rule: "T"
    classes: {foot: {types: [foot]}, motor: {types: [motor]}}
    terrain: {clear: 1, woods: {foot: 2, motor: 3}, city: 1}
    hexsides: {stream: {foot: "+1", motor: "+2"}}
    paths: {road: {cost: {foot: 1, motor: 1/2}, bridges: [stream]}}
  stacking:
    rule: "S"
    limit: 6
    terrain: {city: 9}
    points: {division: 3, brigade: 2, battalion: 1, tank: 2, hq: 0}
  markers:
    out-of-supply: {name: Out of Supply, movement: 1/2, zoc: false, supply: out, excludes: [isolated]}
    isolated: {name: Isolated, movement: 1/2, zoc: false, attack: 1/2, supply: isolated}
  zoc: {rule: "Z", exempt: {types: [hq]}, hexsides: [stream], negated-by-friendly: [supply]}
  supply:
    rule: "P"
    trace: {max-mp: 4, class: foot, blocked-by: [enemy-units, enemy-zoc], network-blocked-by: [enemy-units]}
    sides:
      red: {sources: {edges: [W]}, network: [road], direct: true}
      blue: {sources: {edges: [E]}, network: [road], direct: true}
"""


def map_text(columns: int, rows: int, seed: int = 3) -> str:
    """A ``columns`` x ``rows`` map: 10% woods, 1% cities, a road along every 25th row, streams."""
    rng = random.Random(seed)
    labels = [f"{c:03d}.{r:03d}" for c in range(1, columns + 1) for r in range(1, rows + 1)]
    picked = rng.sample(labels, len(labels) // 10 + len(labels) // 100)
    woods, cities = picked[: len(labels) // 10], picked[len(labels) // 10:]
    roads = "\n".join(f'  - {{name: road {r}, kind: road, source: bench, hexes: [{", ".join(f"{c:03d}.{r:03d}" for c in range(1, columns + 1))}]}}'
                      for r in range(max(1, rows // 50), rows + 1, max(1, rows // 10)))
    streams = []
    for k in range(columns // 40 or 1):
        c = rng.randrange(2, columns)
        streams.append(f'  - {{name: s{k}, kind: stream, source: bench, sides: [{", ".join(f"{c:03d}.{r:03d}/{c + 1:03d}.{r:03d}" for r in range(1, rows + 1, 2))}]}}')
    return f"""provenance: benchmark
grid:
  orientation: flat
  columns: [1, {columns}]
  rows: [1, {rows}]
  pixels: {{dx: 62.35, dy: 72.0, x0: 60, y0: 90, board_width: 25000, board_height: 18100}}
path-kinds: {{road: {{}}}}
hexside-kinds: {{stream: {{}}}}
terrain:
  default: clear
  types: {{clear: {{}}, woods: {{}}, city: {{}}}}
  hexes:
    - {{terrain: woods, source: bench, hexes: [{", ".join(f'"{x}"' for x in woods)}]}}
    - {{terrain: city, source: bench, hexes: [{", ".join(f'"{x}"' for x in cities)}]}}
hexsides:
{chr(10).join(streams)}
paths:
{roads}
"""


def position(hexes: list, n: int, seed: int = 5) -> Position:
    rng = random.Random(seed)
    types = ("division", "brigade", "battalion", "tank", "hq")
    picks = rng.sample(hexes, n * 2 // 5)  # 2 or 3 units a hex: stacking points count
    units = []
    for i in range(n):
        h = picks[i % len(picks)]
        side = "red" if h.q < hexes[len(hexes) // 2].q else "blue"
        markers = frozenset({"out-of-supply"}) if i % 23 == 0 else frozenset()
        units.append(Unit(id=f"u{i}", side=side, type=types[i % len(types)], hex=h, markers=markers))
    return Position(game="bench-rules", units=tuple(units))


def run() -> list[Result]:
    columns, rows = size((400, 250), (40, 25))
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "bench-rules"
        folder.mkdir()
        (folder / "game.yaml").write_text(GAME, encoding="utf-8")
        (folder / "map.yaml").write_text(map_text(columns, rows), encoding="utf-8")
        t = time.perf_counter()
        game = find_game(folder)
        game_map = load_game_map(game)
        rules = rules_for(game)
        prep_s = time.perf_counter() - t
        pos = position(list(game_map.hexes()), size(5000, 100))
        referee = Referee(rules)
        report = referee.check(pos)
        check_s = best_of(lambda: referee.check(pos), repeat=3)
        cpu = time.process_time()
        referee.check(pos)
        cpu_s = time.process_time() - cpu  # the check's own CPU time (a loaded machine inflates the wall time)

        # baseline: one movement-point search per unit (50 units, scaled to all)
        ctx = Context(rules, pos)
        ss = rules.data.supply.sides["red"] if rules.data.supply is not None else None
        assert ss is not None and rules.data.chart is not None
        blocked = set(obstructed(rules, ctx, ss))
        step = rules.data.chart.costs(game_map, "foot", "red").search_cost(MP_SCALE)

        def cost(a, b, /):  # type: ignore[no-untyped-def]
            return None if b in blocked else step(a, b)

        sample = [u for u in pos.units if u.side == "red"][: size(50, 5)]
        t = time.perf_counter()
        for u in sample:
            assert u.hex is not None
            multi_source_search(rules.topology, [u.hex], cost, max_cost=4 * MP_SCALE)
        per_unit_s = (time.perf_counter() - t) / len(sample) * len(pos.units)
    out = sum(1 for s in report.supply.values() if s.value != "in")
    over = sum(1 for f in report.findings if f.rule == "S")
    return [Result(f"data-only game, {columns * rows:,} hexes, {len(pos.units):,} units: chart, stacking points, "
                   "MP supply, full check", check_s, "s", budget="<= 1 s", ok=check_s <= 1.0,
                   baseline="one MP supply search per unit (50 measured, scaled)", baseline_value=per_unit_s,
                   ratio=per_unit_s / check_s,
                   note=f"CPU {cpu_s:.2f} s; {out} units not in supply, {over} over-stacked hexes; game + map + "
                        f"rules prep {prep_s:.2f} s (not timed)")]
