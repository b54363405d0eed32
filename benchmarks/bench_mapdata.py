"""Map data: cold load + validation of the RG map, and the referee's hot lookups per second.

Baseline measured in the same run: a plain dict lookup of the same keys (the floor for O(1)).
"""

from __future__ import annotations

import time

from benchmarks.common import Result, best_of, size
from gazala_tools.games import find_game
from gazala_tools.hexes import Hexside
from gazala_tools.mapdata.loader import load_game_map, load_map_file
from gazala_tools.mapdata.model import HexsideKind

#: two of RG's own hexside kinds (its map.yaml declares them)
MINEFIELD = HexsideKind("minefield")
ESCARPMENT = HexsideKind("escarpment")


def run() -> list[Result]:
    game = find_game("gazala-rg")

    def load() -> object:  # uncached, with the game's id, numbering and sides (as load_game_map reads it)
        return load_map_file(game.map_file, game=game.id, numbering=game.numbering, sides=game.side_ids)

    load_s = best_of(load, repeat=3)
    m = load_game_map(game)
    hexes = list(m.hexes())
    sides = [Hexside.between(a, b) for a in hexes for b in a.neighbours() if b in m.grid]
    n = len(sides)
    reps = size(20, 1)
    t = time.perf_counter()
    for _ in range(reps):
        for s in sides:
            m.feature(s, MINEFIELD)
            m.has(s, ESCARPMENT)
    feat_rate = 2 * n * reps / (time.perf_counter() - t)
    t = time.perf_counter()
    for _ in range(reps):
        for h in hexes:
            m.terrain(h)
            m.zones_at(h)
    hex_rate = 2 * len(hexes) * reps / (time.perf_counter() - t)
    plain = {s: () for s in sides}
    t = time.perf_counter()
    for _ in range(reps):
        for s in sides:
            plain.get(s)
            plain.get(s)
    base_rate = 2 * n * reps / (time.perf_counter() - t)
    return [
        Result("RG map load + validate (cold parse)", load_s, "s", budget="<= 1 s", ok=load_s <= 1.0),
        Result(
            "hexside feature lookups",
            feat_rate,
            "/s",
            baseline="plain dict.get",
            baseline_value=base_rate,
            ratio=feat_rate / base_rate,
        ),
        Result(
            "terrain + zone lookups per hex",
            hex_rate,
            "/s",
            baseline="plain dict.get",
            baseline_value=base_rate,
            ratio=hex_rate / base_rate,
        ),
    ]
