"""Board rendering: the RG board at 150 dpi (budget <= 2 s), against a terrain-fills-only baseline."""

from __future__ import annotations

from dataclasses import replace

from benchmarks.common import Result, best_of, size


def run() -> list[Result]:
    from gazala_tools.games import find_game
    from gazala_tools.mapdata import load_map
    from gazala_tools.render.board import draw_scene, render_board, scene_from_map

    m = load_map("gazala-rg")
    dpi = size(150, 20)
    full = best_of(lambda: render_board(m, dpi=dpi, turn_track=find_game("gazala-rg").turns), repeat=3)
    scene = scene_from_map(m, dpi=dpi)
    bare = replace(scene, sides={}, paths=(), places=(), boxes=())
    base = best_of(lambda: draw_scene(bare, show_numbers=False, show_places=False), repeat=3)
    img = render_board(m, dpi=dpi)
    return [
        Result(
            name=f"render RG board at {dpi} dpi (all layers, turn track)",
            value=full,
            unit="s",
            budget="<= 2 s",
            ok=full <= 2.0,
            baseline="terrain fills and hex edges only",
            baseline_value=base,
            ratio=full / base if base else None,
            note=f"{img.width}x{img.height} px, {len(m.hexes())} hexes",
        )
    ]
