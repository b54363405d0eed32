"""Harsh synthetic "scans" of printed hex maps, with a known lattice, for testing detect-grid.

Unlike :mod:`tools.scans.synthetic` (our own clean renders), these imitate published
maps as scanned: thin (1-2 px), low-contrast grid lines in grey, dark or white; textured terrain
(dense forest/rough art painted over the grid lines, towns, rivers and roads crossing hexes); large
uniform sea areas without a grid; a margin with a title, ruled tables and a turn track; hex numbers
and centre dots; paper texture, uneven lighting and JPEG noise; a slight rotation (<= 1 degree),
non-integer hex sizes and dx/dy ratios a few percent off a regular hexagon. Both orientations.

The grid lines are drawn analytically (distance to the nearest hex edge, anti-aliased), so the
truth is exact: ``centre(c, r) = origin + c*U + (r + (c odd)/2)*V`` on screen, with
``|U| = dx``, ``|V| = dy``.
"""

from __future__ import annotations

import io
import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray
from PIL import Image, ImageDraw, ImageFont
from scipy import ndimage

F = NDArray[np.float64]


@dataclass(frozen=True)
class HarshScan:
    image: Image.Image
    dx: float
    dy: float
    sideways: bool
    rotation: float  #: degrees, clockwise on screen
    origin: tuple[float, float]  #: screen centre of raw hex (0, 0) (continuous lattice)
    u: tuple[float, float]  #: screen vector to the next column
    v: tuple[float, float]  #: screen vector to the next row
    map_box: tuple[int, int, int, int]  #: (x0, y0, x1, y1) of the gridded map area

    def centre(self, c: float, r: float) -> tuple[float, float]:
        rr = r + (int(c) % 2) / 2.0
        return (
            self.origin[0] + c * self.u[0] + rr * self.v[0],
            self.origin[1] + c * self.u[1] + rr * self.v[1],
        )

    def nearest_centre_error(self, x: float, y: float) -> float:
        """Distance from (x, y) to the nearest true hex centre."""
        m = np.array([self.u, self.v], dtype=np.float64).T
        cr = np.linalg.solve(m, np.array([x - self.origin[0], y - self.origin[1]]))
        best = math.inf
        for c in range(math.floor(cr[0]) - 1, math.floor(cr[0]) + 3):
            for r in range(math.floor(cr[1]) - 2, math.floor(cr[1]) + 3):
                px, py = self.centre(c, r)
                best = min(best, math.hypot(px - x, py - y))
        return best


def _smooth_noise(rng: np.random.Generator, shape: tuple[int, int], sigma: float) -> F:
    """Zero-mean, unit-variance smooth random field (computed at low resolution, then zoomed)."""
    f = max(1, int(sigma / 4))
    small = rng.normal(size=(shape[0] // f + 2, shape[1] // f + 2))
    small = ndimage.gaussian_filter(small, sigma / f, mode="wrap")
    big = ndimage.zoom(small, f, order=1)[: shape[0], : shape[1]] if f > 1 else small[: shape[0], : shape[1]]
    out: F = (big - big.mean()) / (big.std() + 1e-9)
    return out


def _hex_edge_distance(
    uu: F, vv: F, dx: float, dy: float
) -> F:
    """Distance (px) from each lattice-frame point (u, v) to the nearest edge of VASSAL's hexagons
    centred at (c*dx, r*dy + (c odd)*dy/2)."""
    # edge normals/offsets of the hexagon with corners (+-2dx/3, 0), (+-dx/3, +-dy/2)
    n_s = np.array([dy / 2, dx / 3])
    n_s = n_s / np.hypot(*n_s)
    off_s = n_s[0] * 2 * dx / 3
    best = np.full(uu.shape, -np.inf)
    c0 = np.round(uu / dx)
    for dc in (-1.0, 0.0, 1.0):
        c = c0 + dc
        odd = np.mod(c, 2.0)
        cv = vv - odd * dy / 2
        r = np.round(cv / dy)
        qu = np.abs(uu - c * dx)
        qv = np.abs(cv - r * dy)
        slack = np.minimum(dy / 2 - qv, off_s - (n_s[0] * qu + n_s[1] * qv))
        best = np.maximum(best, slack)
    return best


def harsh_scan(
    seed: int,
    *,
    hex_px: float | None = None,
    sideways: bool | None = None,
    rotation: float | None = None,
    jpeg_quality: int | None = None,
    max_side: int = 2200,
    integer_origin: bool = False,
) -> HarshScan:
    """One harsh scan; every unspecified property is drawn from ``seed``.

    ``integer_origin``: raw hex (0, 0) at whole pixels (with ``rotation=0.0`` the grid is then
    exactly a VASSAL grid: ``x0``/``y0`` ints, as a module's).
    """
    rng = np.random.default_rng(seed)
    if sideways is None:
        sideways = bool(rng.random() < 0.5)
    size = float(hex_px if hex_px is not None else rng.uniform(40.0, 150.0))  # dy: across flats
    ratio = math.sqrt(3) / 2 * rng.uniform(0.97, 1.04)  # not exactly regular
    dy = size
    dx = size * ratio
    if rotation is None:
        rotation = float(rng.uniform(-1.0, 1.0))
    # image: at least ~12 hexes across, at most max_side
    side = min(max_side, max(1200, int(15 * size)))
    w = int(side * rng.uniform(0.85, 1.0))
    h = int(side * rng.uniform(0.7, 0.9))
    # map area and margin (on one side: a title, tables, a turn track)
    margin_side = int(rng.integers(0, 4))  # 0 right, 1 bottom, 2 left, 3 top
    mw = int((w if margin_side in (0, 2) else h) * rng.uniform(0.14, 0.22))
    box = [10, 10, w - 10, h - 10]
    if margin_side == 0:
        box[2] = w - mw
    elif margin_side == 1:
        box[3] = h - mw
    elif margin_side == 2:
        box[0] = mw
    else:
        box[1] = mw
    bx0, by0, bx1, by1 = box

    ys, xs = np.mgrid[0:h, 0:w].astype(np.float64)
    # screen -> unrotated -> lattice frame (u along columns)
    th = math.radians(rotation)  # clockwise on screen (y down)
    cxm, cym = w / 2.0, h / 2.0
    ct, st = math.cos(th), math.sin(th)
    # screen = R (p - c) + c with R = [[c, -s], [s, c]] (clockwise for y down); invert:
    px = ct * (xs - cxm) + st * (ys - cym) + cxm
    py = -st * (xs - cxm) + ct * (ys - cym) + cym
    ou = float(rng.uniform(0, dx)) + (by0 if sideways else bx0)
    ov = float(rng.uniform(0, dy)) + (bx0 if sideways else by0)
    if integer_origin:
        ou, ov = float(round(ou)), float(round(ov))
    lu, lv = (py - ou, px - ov) if sideways else (px - ou, py - ov)
    dist = _hex_edge_distance(lu, lv, dx, dy)
    del px, py, lu, lv

    # --- terrain ---------------------------------------------------------------------------------
    paper = np.array([236, 228, 204], dtype=np.float64) + rng.uniform(-10, 10, 3)
    img = np.empty((h, w, 3), dtype=np.float64)
    img[:] = paper
    field = _smooth_noise(rng, (h, w), sigma=size * rng.uniform(1.5, 3.0))
    field2 = _smooth_noise(rng, (h, w), sigma=size * rng.uniform(1.0, 2.0))
    inmap = (xs >= bx0) & (xs < bx1) & (ys >= by0) & (ys < by1)
    # sea: the lowest ~25% of a smooth field, biased to one edge so it is one large area
    edge_bias = (xs / w) if rng.random() < 0.5 else (ys / h)
    if rng.random() < 0.5:
        edge_bias = 1 - edge_bias
    sea_field = field - 2.5 * edge_bias
    sea = inmap & (sea_field < np.quantile(sea_field[inmap], rng.uniform(0.2, 0.3)))
    forest = inmap & ~sea & (field2 > np.quantile(field2, 0.82))
    rough = inmap & ~sea & ~forest & (field2 < np.quantile(field2, 0.12))
    desert = inmap & ~sea & ~forest & ~rough & (field > 0.6)
    base_cols = {
        "clear": np.array([222, 214, 170]) + rng.uniform(-15, 15, 3),
        "desert": np.array([214, 180, 120]) + rng.uniform(-15, 15, 3),
        "forest": np.array([96, 140, 72]) + rng.uniform(-20, 20, 3),
        "rough": np.array([170, 130, 90]) + rng.uniform(-15, 15, 3),
        "sea": np.array([120, 170, 210]) + rng.uniform(-15, 15, 3),
    }
    img[inmap] = base_cols["clear"]
    img[desert] = base_cols["desert"]
    img[rough] = base_cols["rough"]
    img[forest] = base_cols["forest"]
    img[sea] = base_cols["sea"]

    # --- grid lines: 1-2 px, low contrast, grey / dark / white; none at sea on half the maps ----
    lw = float(rng.uniform(0.8, 2.0))
    alpha = np.clip(lw / 2 + 0.5 - np.abs(dist), 0.0, 1.0) * rng.uniform(0.35, 0.75)
    alpha[~inmap] = 0.0
    grid_at_sea = rng.random() < 0.5
    if not grid_at_sea:
        alpha[sea] = 0.0
    else:
        alpha[sea] *= 0.5
    mode = rng.choice(["grey", "dark", "white-on-dark"])
    line = np.array([70.0, 70.0, 70.0]) if mode != "grey" else np.array([120.0, 120.0, 110.0])
    line_img = np.broadcast_to(line, img.shape).copy()
    if mode == "white-on-dark":
        line_img[forest | rough] = (250.0, 250.0, 245.0)
    img = img * (1 - alpha[..., None]) + line_img * alpha[..., None]

    # --- dense art painted over the lines: tree blobs in forest, stipple in rough -------------
    blob = _smooth_noise(rng, (h, w), sigma=float(rng.uniform(1.2, 3.0)))
    trees = forest & (blob > 0.5)
    img[trees] = img[trees] * 0.25 + np.array([30, 70, 30]) * 0.75
    stip = _smooth_noise(rng, (h, w), sigma=1.0)
    dots = rough & (stip > 1.3)
    img[dots] = np.array([90, 60, 40])
    # sea waves texture (faint)
    img[sea] += 6 * _smooth_noise(rng, (h, w), sigma=3.0)[sea][:, None]
    del xs, ys, dist, alpha, line_img, blob, stip

    out = Image.fromarray(np.clip(img, 0, 255).astype(np.uint8))
    draw = ImageDraw.Draw(out)

    u_vec, v_vec, o_scr = screen_lattice(th, sideways, dx, dy, (ou, ov), (cxm, cym))

    def centre(c: int, r: int) -> F:
        res: F = o_scr + c * u_vec + (r + (c % 2) / 2.0) * v_vec
        return res

    # rivers and roads: smooth random polylines across the map
    def curve(width: int, colour: tuple[int, int, int]) -> None:
        n = 40
        t = np.linspace(0, 1, n)
        a = np.array([rng.uniform(bx0, bx1), by0]) if rng.random() < 0.5 else np.array([bx0, rng.uniform(by0, by1)])
        b = np.array([rng.uniform(bx0, bx1), by1]) if a[1] == by0 else np.array([bx1, rng.uniform(by0, by1)])
        wig = np.cumsum(rng.normal(0, size * 0.25, (n, 2)), axis=0)
        wig -= np.outer(t, wig[-1])
        pts = a + np.outer(t, b - a) + wig
        draw.line([(float(p[0]), float(p[1])) for p in pts], fill=colour, width=width, joint="curve")

    for _ in range(int(rng.integers(1, 4))):
        curve(int(rng.integers(3, 7)), (60, 110, 200))
    for _ in range(int(rng.integers(1, 4))):
        curve(int(rng.integers(2, 4)), (150, 40, 30) if rng.random() < 0.5 else (40, 40, 40))

    # hex numbers, centre dots, towns
    font = ImageFont.load_default(size=max(8, int(size * 0.16)))
    numbers = rng.random() < 0.8
    dots_on = rng.random() < 0.5
    m = np.stack([u_vec, v_vec], axis=1)
    corners = np.array([[bx0, by0], [bx1, by0], [bx0, by1], [bx1, by1]], dtype=np.float64) - o_scr
    cr = np.linalg.solve(m, corners.T).T
    sea_img = sea
    for c in range(math.floor(cr[:, 0].min()) - 1, math.ceil(cr[:, 0].max()) + 2):
        for r in range(math.floor(cr[:, 1].min()) - 2, math.ceil(cr[:, 1].max()) + 2):
            p = centre(c, r)
            if not (bx0 + 5 < p[0] < bx1 - 5 and by0 + 5 < p[1] < by1 - 5):
                continue
            if sea_img[int(p[1]), int(p[0])] and not grid_at_sea:
                continue
            if numbers:
                top = p - v_vec * 0.36 if not sideways else p - np.array([0, size * 0.36])
                draw.text((float(top[0]), float(top[1])), f"{c + 1:02d}{r + 1:02d}", fill=(40, 40, 40),
                          font=font, anchor="mm")
            if dots_on:
                rd = max(1.0, size * 0.03)
                draw.ellipse([p[0] - rd, p[1] - rd, p[0] + rd, p[1] + rd], fill=(50, 50, 50))
            if rng.random() < 0.04:  # a town: a cluster of blocks
                for _ in range(int(rng.integers(3, 9))):
                    q = p + rng.normal(0, size * 0.15, 2)
                    s = rng.uniform(2, size * 0.08)
                    draw.rectangle([q[0] - s, q[1] - s, q[0] + s, q[1] + s], fill=(70, 60, 60))
                draw.text((float(p[0]), float(p[1] + size * 0.3)), "Bir Town", fill=(0, 0, 0), font=font,
                          anchor="mm")

    # margin: title, a ruled table, a turn track
    _margin(draw, rng, margin_side, (w, h), mw, size)

    # paper texture, lighting, sensor noise, JPEG
    a = np.asarray(out, dtype=np.float64)
    a = a * (1 + 0.04 * _smooth_noise(rng, (h, w), sigma=1.0)[..., None])
    yy, xx = np.mgrid[0:h, 0:w]
    light = 1.0 - rng.uniform(0.0, 0.3) * ((xx / w) if rng.random() < 0.5 else (yy / h))
    a = a * light[..., None] + rng.normal(0, 4, a.shape)
    out = Image.fromarray(np.clip(a, 0, 255).astype(np.uint8))
    quality = int(jpeg_quality if jpeg_quality is not None else rng.integers(50, 85))
    return scan_of(jpeg(out, quality), dx, dy, sideways, rotation, o_scr, u_vec, v_vec, (bx0, by0, bx1, by1))


def screen_lattice(
    th: float, sideways: bool, dx: float, dy: float, origin_uv: tuple[float, float], pivot: tuple[float, float]
) -> tuple[F, F, F]:
    """Screen steps U, V and the screen point of raw (0, 0) of a lattice whose unrotated origin is
    ``origin_uv`` (grid axes), turned by ``th`` radians (clockwise on screen) about ``pivot``."""
    ct, st = math.cos(th), math.sin(th)
    u_vec = np.array([ct, st]) * dx if not sideways else np.array([-st, ct]) * dx
    v_vec = np.array([-st, ct]) * dy if not sideways else np.array([ct, st]) * dy
    ou, ov = origin_uv
    o_unrot = np.array([ov, ou]) if sideways else np.array([ou, ov])
    cxm, cym = pivot
    o_scr = np.array([ct * (o_unrot[0] - cxm) - st * (o_unrot[1] - cym) + cxm,
                      st * (o_unrot[0] - cxm) + ct * (o_unrot[1] - cym) + cym])
    return u_vec, v_vec, o_scr


def jpeg(img: Image.Image, quality: int) -> Image.Image:
    """``img`` after a JPEG round trip at ``quality``."""
    buf = io.BytesIO()
    img.save(buf, "JPEG", quality=quality)
    buf.seek(0)
    return Image.open(buf).convert("RGB")


def scan_of(
    image: Image.Image, dx: float, dy: float, sideways: bool, rotation: float,
    o_scr: F, u_vec: F, v_vec: F, box: tuple[int, int, int, int],
) -> HarshScan:
    """The truth of a drawn scan: raw hex (0, 0) at screen ``o_scr``, steps ``u_vec``/``v_vec``."""
    return HarshScan(image, dx, dy, sideways, rotation, (float(o_scr[0]), float(o_scr[1])),
                     (float(u_vec[0]), float(u_vec[1])), (float(v_vec[0]), float(v_vec[1])), box)


def _margin(
    draw: ImageDraw.ImageDraw, rng: np.random.Generator, where: int, size: tuple[int, int], mw: int, hex_px: float
) -> None:
    w, h = size
    if where == 0:
        x0, y0, x1, y1 = w - mw + 15, 15, w - 15, h - 15
    elif where == 1:
        x0, y0, x1, y1 = 15, h - mw + 15, w - 15, h - 15
    elif where == 2:
        x0, y0, x1, y1 = 15, 15, mw - 15, h - 15
    else:
        x0, y0, x1, y1 = 15, 15, w - 15, mw - 15
    big = ImageFont.load_default(size=max(14, int(min(x1 - x0, y1 - y0) * 0.12)))
    small = ImageFont.load_default(size=12)
    draw.text((x0, y0), "BATTLE OF GAZALA", fill=(20, 20, 20), font=big)
    ty = y0 + int(min(x1 - x0, y1 - y0) * 0.2)
    # a ruled table: rows and columns with text (a non-hex periodicity)
    row_h = int(rng.uniform(14, 30))
    col_w = int(rng.uniform(40, 90))
    ncols = max(2, (x1 - x0) // col_w)
    nrows = max(2, (y1 - ty) // row_h // 2)
    for i in range(nrows + 1):
        draw.line([(x0, ty + i * row_h), (x0 + ncols * col_w, ty + i * row_h)], fill=(30, 30, 30), width=1)
    for j in range(ncols + 1):
        draw.line([(x0 + j * col_w, ty), (x0 + j * col_w, ty + nrows * row_h)], fill=(30, 30, 30), width=1)
    for i in range(nrows):
        for j in range(ncols):
            draw.text((x0 + j * col_w + 3, ty + i * row_h + 2), f"{i + 1}-{j + 2}", fill=(20, 20, 20), font=small)
    # a turn track: a row of boxes about a hex in size
    tt = ty + nrows * row_h + 20
    box = int(hex_px * rng.uniform(0.6, 1.0))
    k = 0
    for yy in range(tt, y1 - box, box + 6):
        for xx in range(x0, x1 - box, box + 4):
            draw.rectangle([xx, yy, xx + box, yy + box], outline=(20, 20, 20), width=2)
            draw.text((xx + 4, yy + 4), str(k + 1), fill=(20, 20, 20), font=small)
            k += 1
