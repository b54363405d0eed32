"""Referee: full check of a 150-unit RG position (warm) and of a synthetic 100,000-hex map with 5,000 units.

Budgets (issue 7): <= 20 ms warm for the RG position (file read excluded); <= 1 s for the synthetic
map (one multi-source search per side, not one per unit). Baseline measured in the same run: the
per-unit way, one single-source supply search for each of 50 units of the synthetic map, scaled to
all 5,000.
"""

from __future__ import annotations

import random
import time

from benchmarks.common import Result, best_of, size
from gazala_tools.games import find_game
from gazala_tools.mapdata import load_map_text
from gazala_tools.mapdata.loader import load_game_map
from gazala_tools.mapdata.model import GameMap
from gazala_tools.referee.engine import Context, Referee
from gazala_tools.referee.position import Position, Unit
from gazala_tools.referee.search import multi_source_search
from gazala_tools.rules import rules_for
from gazala_tools.rules.rg import BREACHES, Breach, BreachState, LocReport

AXIS = "axis"
#: the zones RG's rules data names for supply (5.0) and 16.0 VP, on the synthetic map
RG_ZONES = """zones:
  - {name: axis-supply, source: bench, edges: [W]}
  - {name: allied-supply, source: bench, edges: [N, E]}
  - {name: north-edge, source: bench, edges: [N]}
"""


def rg_position(game_map: GameMap, n: int = 150, seed: int = 7) -> Position:
    """150 units: Axis east of the Gazala line, Allied everywhere else legal, two LOC breaches."""
    rng = random.Random(seed)
    prohibited = game_map.zone("allied-prohibited").hexes
    free = [h for h in game_map.hexes() if h not in prohibited]
    rng.shuffle(free)
    units = []
    for i in range(n):
        side = AXIS if i < 60 else "allied"
        units.append(Unit(id=f"u{i}", side=side, type="armor" if i % 3 == 0 else "infantry",
                          formation="21 PZ" if side == AXIS else "22 Arm", hex=free[i],
                          markers=frozenset({"out-of-supply"}) if i % 17 == 0 else frozenset()))
    g = game_map.grid
    breaches = (Breach(g.hexside("0817/0916"), BreachState.BREACHED, through=True),
                Breach(g.hexside("0512/0612"), BreachState.BREACHED, through=True))
    return Position(game="gazala-rg", units=tuple(units), turn="June 1-2", extra={BREACHES: breaches})


def synthetic_map_text(columns: int = 400, rows: int = 250, seed: int = 3, more: str = "") -> str:
    """Map YAML of a ``columns`` x ``rows`` clear map with 300 random minefield boxes; ``more``: further
    sections (paths, places, zones)."""
    rng = random.Random(seed)
    boxes = []
    for k in range(300):
        c, r = rng.randrange(2, columns), rng.randrange(2, rows)
        boxes.append(f'  - {{name: m{k}, kind: minefield, owner: allied, source: bench, hexes: ["{c:03d}.{r:03d}"]}}')
    return grid_yaml(columns, rows) + """hexside-kinds:
  minefield: {owned: true}
terrain:
  default: clear
  types: {clear: {}}
boxes:
""" + "\n".join(boxes) + "\n" + more


def grid_yaml(columns: int, rows: int) -> str:
    """The head of a synthetic map's YAML: a ``columns`` x ``rows`` flat grid numbered ``CCC.RRR``."""
    return f"""game: synthetic
provenance: benchmark
grid:
  orientation: flat
  numbering: {{hLeading: "2", vLeading: "2", sep: "."}}
  columns: [1, {columns}]
  rows: [1, {rows}]
  pixels: {{dx: 62.35, dy: 72.0, x0: 60, y0: 90, board_width: 25000, board_height: 18100}}
"""


def synthetic_map(columns: int = 400, rows: int = 250, seed: int = 3) -> GameMap:
    return load_map_text(synthetic_map_text(columns, rows, seed, RG_ZONES), "synthetic.yaml")


def synthetic_position(game_map: GameMap, n: int = 5000, seed: int = 5) -> Position:
    rng = random.Random(seed)
    hexes = list(game_map.hexes())
    picks = rng.sample(hexes, n)
    units = tuple(
        Unit(id=f"s{i}", side=AXIS if i % 2 else "allied", type="infantry", hex=h) for i, h in enumerate(picks)
    )
    return Position(game="gazala-rg", units=units)


def run() -> list[Result]:
    game = find_game("gazala-rg")
    rg = load_game_map(game)
    rules = rules_for(game)
    referee = Referee(rules)
    pos = rg_position(rg)
    referee.check(pos)  # warm
    rg_ms = best_of(lambda: referee.check(pos), repeat=20) * 1000
    report = referee.check(pos)
    loc = report.sections["loc"]  # RG's own section (14.2)
    assert isinstance(loc, LocReport)

    t = time.perf_counter()
    big = synthetic_map(*size((400, 250), (40, 25)))
    big_rules = rules_for(game, big)
    prep_s = time.perf_counter() - t
    big_ref = Referee(big_rules)
    big_pos = synthetic_position(big, n=size(5000, 100))
    big_s = best_of(lambda: big_ref.check(big_pos), repeat=3)

    # baseline: one search per unit (50 units, scaled to 5,000)
    ctx = Context(big_rules, big_pos)
    cost = big_rules.trace_cost(ctx, AXIS)  # type: ignore[attr-defined]
    sample = [u for u in big_pos.units if u.side == AXIS][: size(50, 5)]
    t = time.perf_counter()
    for u in sample:
        assert u.hex is not None
        multi_source_search(big_rules.topology, [u.hex], cost)
    per_unit_s = (time.perf_counter() - t) / len(sample) * len(big_pos.units)
    return [
        Result("RG 150-unit position, full check (warm)", rg_ms, "ms", budget="<= 20 ms", ok=rg_ms <= 20,
               note=f"{len(report.findings)} findings, LOC {loc.traced}/{loc.required}"),
        Result("synthetic 100,000 hexes, 5,000 units, full check", big_s, "s", budget="<= 1 s", ok=big_s <= 1.0,
               baseline="one supply search per unit (50 measured, scaled to 5,000)", baseline_value=per_unit_s,
               ratio=per_unit_s / big_s, note=f"map load + rules prep {prep_s:.2f} s (not timed)"),
    ]
