"""Digitizer: classify a 10,000-hex synthetic scan (budget <= 5 s); detect-grid on the RG board."""

from __future__ import annotations

import time

from benchmarks.common import Result, best_of


def run() -> list[Result]:
    import numpy as np

    from gazala_tools.digitize.classify import Legend, classify_hexes
    from gazala_tools.digitize.image import to_rgb_array
    from gazala_tools.digitize.lattice import detect_grid
    from tools.scans.synthetic import DEFAULT_KINDS, legend_for, synthetic_board

    board = synthetic_board(columns=100, rows=100, dx=30.0, dy=35.0, x0=25, y0=25, features=False)
    rgb = to_rgb_array(board.image)
    legend = Legend({k: (c,) for k, c in legend_for(DEFAULT_KINDS).items()})
    hexes = list(board.terrain)
    t = best_of(lambda: classify_hexes(rgb, board.geometry, hexes, legend), repeat=3)
    res = classify_hexes(rgb, board.geometry, hexes, legend)
    right = sum(r.terrain == board.terrain[r.hex] for r in res) / len(res)
    # baseline: the plain per-hex median colour of the same samples (no votes), numpy only
    centres = np.array([board.geometry.hex_center(h) for h in hexes])

    def median_baseline() -> None:
        for x, y in centres:
            np.median(rgb[y - 5 : y + 6, x - 5 : x + 6].reshape(-1, 3), axis=0)

    base = best_of(median_baseline, repeat=3)
    out = [
        Result(
            name="classify 10,000-hex synthetic scan",
            value=t,
            unit="s",
            budget="<= 5 s",
            ok=t <= 5.0,
            baseline="per-hex median colour in a Python loop",
            baseline_value=base,
            ratio=t / base if base else None,
            note=f"{board.image.width}x{board.image.height} px, {right:.1%} right",
        )
    ]
    try:
        from gazala_tools.mapdata import load_map
        from gazala_tools.render.board import render_board

        img = render_board(load_map("gazala-rg"))
        t0 = time.perf_counter()
        fit = detect_grid(img)
        dt = time.perf_counter() - t0
        out.append(
            Result(
                name="detect-grid on the RG board (100 dpi)",
                value=dt,
                unit="s",
                note=f"dx={fit.dx:.3f} dy={fit.dy:.3f} confidence={fit.confidence:.2f}",
            )
        )
    except Exception as exc:
        out.append(Result(name="detect-grid on the RG board", value=float("nan"), unit="s", note=f"skipped: {exc}"))
    return out
