"""Scans of the kinds the digitizer once failed on (issue 12, item 2), with a known lattice.

* ``faint``: plain hexes drawn with faint 1 px lines in a colour close to the paper's;
* ``clusters``: the same faint grid, plus strong, thick, coloured outlines around scattered
  clusters of hexes (towns, forests) that are far stronger than the grid and sparse;
* ``notched``: a small image inside a thick engraved border whose inner edge has hex-shaped
  notches (a periodicity of about a hex along the frame);
* ``small``: a small image (under 700 px a side) with small hexes.

The lattice is drawn analytically as in :mod:`tools.scans.harsh` and returned as a
:class:`tools.scans.harsh.HarshScan` (the truth), both orientations, rotation up to 0.3 degree.
"""

from __future__ import annotations

import math

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from tools.scans.harsh import HarshScan, _hex_edge_distance, _smooth_noise, jpeg, scan_of, screen_lattice

KINDS = ("faint", "clusters", "notched", "small")
#: kinds drawn only when asked for (their seeds are evaluated on their own: ``evaluate(..., kinds=)``)
EXTRA_KINDS = ("hand", "pitch")


def faint_scan(seed: int, kind: str | None = None) -> HarshScan:
    """One scan of ``kind`` (drawn from ``seed`` when None)."""
    rng = np.random.default_rng(10_000 + seed)
    kind = kind or KINDS[int(rng.integers(0, len(KINDS)))]
    if kind not in KINDS + EXTRA_KINDS:
        raise ValueError(f"unknown kind {kind!r} (expected one of {', '.join(KINDS + EXTRA_KINDS)})")
    sideways = bool(rng.random() < 0.5)
    small = kind in ("small", "notched")
    size = float(rng.uniform(24.0, 42.0) if small else rng.uniform(40.0, 90.0))
    dy, dx = size, size * math.sqrt(3) / 2 * rng.uniform(0.98, 1.03)
    rotation = float(rng.uniform(-0.3, 0.3))
    if kind == "pitch":
        rotation = 0.0  # a digital image
    w = int(rng.uniform(480, 680)) if small else int(rng.uniform(1100, 1600))
    h = int(w * rng.uniform(0.7, 0.95))
    frame = int(rng.uniform(14, 24)) if kind == "notched" else 0
    bx0, by0, bx1, by1 = frame + 2, frame + 2, w - frame - 2, h - frame - 2

    ys, xs = np.mgrid[0:h, 0:w].astype(np.float64)
    th = math.radians(rotation)
    ct, st = math.cos(th), math.sin(th)
    cxm, cym = w / 2.0, h / 2.0
    px = ct * (xs - cxm) + st * (ys - cym) + cxm
    py = -st * (xs - cxm) + ct * (ys - cym) + cym
    ou = float(rng.uniform(0, dx)) + (by0 if sideways else bx0)
    ov = float(rng.uniform(0, dy)) + (bx0 if sideways else by0)
    lu, lv = (py - ou, px - ov) if sideways else (px - ou, py - ov)
    if kind == "hand":
        # drawn by hand: each line wanders 1-2.5 px (rms) off the true lattice, over a hex or so
        wander = float(rng.uniform(1.0, 2.5))
        lu = lu + wander * _smooth_noise(rng, (h, w), sigma=size * 0.4)
        lv = lv + wander * _smooth_noise(rng, (h, w), sigma=size * 0.4)
    dist = _hex_edge_distance(lu, lv, dx, dy)
    del px, py

    paper = np.array([238, 230, 206], dtype=np.float64) + rng.uniform(-12, 12, 3)
    img = np.empty((h, w, 3), dtype=np.float64)
    img[:] = paper
    # gentle terrain tint: large smooth patches, a little darker or greener
    tint = _smooth_noise(rng, (h, w), sigma=size * 2.5)
    img += (tint[..., None] * np.array([-6.0, 4.0, -8.0]))[...]
    inmap = (xs >= bx0) & (xs < bx1) & (ys >= by0) & (ys < by1)
    if kind == "pitch":
        paper = _pitch(img, rng, xs, ys, size)
    # the faint grid: 1 px, a colour 18-40 levels from the paper (darker or just hue-shifted)
    delta = rng.uniform(18, 40)
    line_col = paper - delta * np.array([1.0, rng.uniform(0.6, 1.2), rng.uniform(0.4, 1.3)])
    alpha = np.clip(1.0 - np.abs(dist), 0.0, 1.0) * rng.uniform(0.7, 1.0)
    if kind == "hand":
        # ink: dark, 1.2-3 px wide, its width and darkness varying along the lines
        line_col = paper * rng.uniform(0.25, 0.55)
        width = rng.uniform(1.2, 3.0) * (1 + 0.25 * _smooth_noise(rng, (h, w), sigma=size * 0.7))
        alpha = np.clip(width / 2 + 0.5 - np.abs(dist), 0.0, 1.0) * np.clip(0.85 + 0.15 * _smooth_noise(rng, (h, w), sigma=size), 0.4, 1.0)
    if kind == "pitch":
        # the game's grid over the pitch: thin, half transparent, light or dark
        line_col = np.array([250.0, 250.0, 250.0]) if rng.random() < 0.5 else paper * 0.55
        alpha = np.clip(rng.uniform(1.0, 2.0) / 2 + 0.5 - np.abs(dist), 0.0, 1.0) * rng.uniform(0.25, 0.5)
    alpha[~inmap] = 0.0
    img = img * (1 - alpha[..., None]) + line_col * alpha[..., None]

    out = Image.fromarray(np.clip(img, 0, 255).astype(np.uint8))
    draw = ImageDraw.Draw(out)
    u_vec, v_vec, o_scr = screen_lattice(th, sideways, dx, dy, (ou, ov), (cxm, cym))

    def centre(c: int, r: int) -> np.ndarray:
        res: np.ndarray = o_scr + c * u_vec + (r + (c % 2) / 2.0) * v_vec
        return res

    def hexagon(c: int, r: int) -> list[tuple[float, float]]:
        p = centre(c, r)
        uh, vh = u_vec / dx, v_vec / dy
        pts = [(2 * dx / 3, 0.0), (dx / 3, dy / 2), (-dx / 3, dy / 2), (-2 * dx / 3, 0.0), (-dx / 3, -dy / 2), (dx / 3, -dy / 2)]
        return [(float(q[0]), float(q[1])) for q in (p + a * uh + b * vh for a, b in pts)]

    m = np.stack([u_vec, v_vec], axis=1)
    corners = np.array([[bx0, by0], [bx1, by0], [bx0, by1], [bx1, by1]], dtype=np.float64) - o_scr
    cr = np.linalg.solve(m, corners.T).T
    cols = range(math.floor(cr[:, 0].min()) - 1, math.ceil(cr[:, 0].max()) + 2)
    rows = range(math.floor(cr[:, 1].min()) - 2, math.ceil(cr[:, 1].max()) + 2)
    on_map = [(c, r) for c in cols for r in rows
              if bx0 + dx < centre(c, r)[0] < bx1 - dx and by0 + dy < centre(c, r)[1] < by1 - dy]
    if kind == "clusters":
        # strong outlines around a few clusters of 2-7 hexes, coloured fills, far apart
        for _ in range(int(rng.integers(3, 7))):
            c, r = on_map[int(rng.integers(0, len(on_map)))]
            colour = tuple(int(v) for v in rng.choice([[40, 90, 40], [150, 40, 30], [40, 40, 120], [90, 70, 40]]))
            fill = tuple(int(v) for v in (np.array(colour) * 0.4 + paper * 0.6))
            cluster = {(c, r)}
            for _ in range(int(rng.integers(1, 6))):
                a, b = list(cluster)[int(rng.integers(0, len(cluster)))]
                cluster.add((a + int(rng.integers(-1, 2)), b + int(rng.integers(-1, 2))))
            for a, b in cluster:
                draw.polygon(hexagon(a, b), fill=fill, outline=colour, width=int(rng.integers(3, 6)))
    # hex numbers (small, grey) on most maps, sized to the hex as printed maps size them (at least
    # 8 px: on small hexes a label is up to 0.8 of the hex wide, but never runs into the next one)
    if rng.random() < 0.7 and kind != "pitch":
        font = ImageFont.load_default(size=max(8, int(size * 0.2)))
        for c, r in on_map:
            p = centre(c, r) - v_vec * 0.33
            draw.text((float(p[0]), float(p[1])), f"{c + 1:02d}{r + 1:02d}", fill=(110, 110, 100), font=font,
                      anchor="mm")
    if kind == "notched":
        _notched_frame(draw, rng, (w, h), frame, size)

    if kind == "pitch":  # digital: no paper grain nor scanner noise, a good JPEG
        return scan_of(jpeg(out, int(rng.integers(85, 96))), dx, dy, sideways, rotation, o_scr, u_vec, v_vec,
                       (bx0, by0, bx1, by1))
    arr = np.asarray(out, dtype=np.float64)
    arr = arr * (1 + 0.03 * _smooth_noise(rng, (h, w), sigma=1.0)[..., None]) + rng.normal(0, 3, arr.shape)
    out = Image.fromarray(np.clip(arr, 0, 255).astype(np.uint8))
    return scan_of(jpeg(out, int(rng.integers(60, 90))), dx, dy, sideways, rotation, o_scr, u_vec, v_vec,
                   (bx0, by0, bx1, by1))


def _pitch(img: np.ndarray, rng: np.random.Generator, xs: np.ndarray, ys: np.ndarray, hex_px: float) -> np.ndarray:
    """Paint ``img`` as a sports-game pitch: grass in mown stripes (a strong one-way periodicity of
    1-3 hexes), white markings 3-6 px wide (touchlines, halfway line, centre circle, boxes).
    Returns the grass colour."""
    h, w = xs.shape
    grass = np.array([70.0, 140.0, 60.0]) + rng.uniform(-15, 15, 3)
    period = hex_px * rng.uniform(1.0, 3.0)
    along = xs if rng.random() < 0.5 else ys
    stripes = np.where(np.mod(along, 2 * period) < period, 1.0, -1.0) * rng.uniform(8, 16)
    img[:] = grass + stripes[..., None]
    mark = Image.new("L", (w, h), 0)
    draw = ImageDraw.Draw(mark)
    lw = int(rng.integers(3, 7))
    x0, y0, x1, y1 = w * 0.05, h * 0.06, w * 0.95, h * 0.94
    draw.rectangle([x0, y0, x1, y1], outline=255, width=lw)
    draw.line([(w / 2, y0), (w / 2, y1)], fill=255, width=lw)
    rad = h * 0.13
    draw.ellipse([w / 2 - rad, h / 2 - rad, w / 2 + rad, h / 2 + rad], outline=255, width=lw)
    for side in (x0, x1):
        depth, half = (x1 - x0) * 0.16, (y1 - y0) * 0.3
        inner = side + depth if side == x0 else side - depth
        draw.rectangle([min(side, inner), h / 2 - half, max(side, inner), h / 2 + half], outline=255, width=lw)
    a = np.asarray(mark, dtype=np.float64)[..., None] / 255.0
    img[:] = img * (1 - a) + 245.0 * a
    return grass


def _notched_frame(draw: ImageDraw.ImageDraw, rng: np.random.Generator, size: tuple[int, int], frame: int, hex_px: float) -> None:
    """A thick dark frame with an engraved double line and hex-shaped notches along its inner edge."""
    w, h = size
    dark = (int(rng.integers(20, 60)),) * 3
    for k in range(frame):
        draw.rectangle([k, k, w - 1 - k, h - 1 - k], outline=dark if k < frame - 4 or k == frame - 2 else (200, 190, 170))
    step = hex_px * rng.uniform(0.9, 1.1)  # about a hex: the frame's own periodicity
    depth = frame * 0.6
    t = frame
    x = t + step / 2
    while x < w - t - step / 2:
        for y0, sgn in ((t, 1), (h - 1 - t, -1)):
            pts = [(x - step / 4, y0), (x - step / 8, y0 + sgn * depth), (x + step / 8, y0 + sgn * depth), (x + step / 4, y0)]
            draw.polygon(pts, fill=dark)
        x += step
    y = t + step / 2
    while y < h - t - step / 2:
        for x0, sgn in ((t, 1), (w - 1 - t, -1)):
            pts = [(x0, y - step / 4), (x0 + sgn * depth, y - step / 8), (x0 + sgn * depth, y + step / 8), (x0, y + step / 4)]
            draw.polygon(pts, fill=dark)
        y += step


def evaluate(seeds: range, kinds: tuple[str, ...] = KINDS) -> list[dict[str, object]]:
    """detect-grid on each seed and kind against the truth (acceptance: sideways right, dx and dy
    within 0.5%, the reported centre within 2 px of a true centre): one row per scan."""
    from gazala_tools.digitize.lattice import detect_grid
    from gazala_tools.errors import GazalaError

    rows: list[dict[str, object]] = []
    for seed in seeds:
        for kind in kinds:
            scan = faint_scan(seed, kind)
            row: dict[str, object] = {"seed": seed, "kind": kind, "size": scan.image.size, "hex_px": round(scan.dy, 1)}
            try:
                fit = detect_grid(scan.image)
            except GazalaError as exc:
                rows.append(row | {"right": False, "confidence": 0.0, "error": exc.problem})
                continue
            edx, edy = abs(fit.dx / scan.dx - 1) * 100, abs(fit.dy / scan.dy - 1) * 100
            eo = scan.nearest_centre_error(fit.cx, fit.cy)
            right = fit.sideways == scan.sideways and edx <= 0.5 and edy <= 0.5 and eo <= 2.0
            rows.append(row | {"right": right, "confidence": fit.confidence, "dx_pct": round(edx, 2),
                               "dy_pct": round(edy, 2), "centre_px": round(eo, 2)})
    return rows


if __name__ == "__main__":
    from tools.scans import run_evaluation

    run_evaluation(evaluate, (100, 110))
