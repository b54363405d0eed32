"""Synthetic hex boards with known grid and terrain, for tests and benchmarks of the digitizer.

A board is a :class:`~gazala_tools.render.board.BoardScene` drawn with random terrain on any
VASSAL grid, so the truth (grid parameters, terrain per hex) is known exactly.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image

from gazala_tools.grid import raw_to_hex
from gazala_tools.hexes import Hex, Hexside
from gazala_tools.hexgrid import HexGridGeometry
from gazala_tools.numbering import SCHEMES, Numbering
from gazala_tools.render.board import BoardScene, Path, SideFeature, draw_scene, grid_bounds, terrain_colour

DEFAULT_KINDS: tuple[str, ...] = ("clear", "rough", "town", "sea", "ridge")


@dataclass(frozen=True)
class SyntheticBoard:
    image: Image.Image
    geometry: HexGridGeometry
    terrain: dict[Hex, str]
    labels: dict[Hex, str]
    scene: BoardScene


def synthetic_board(
    *,
    columns: int = 20,
    rows: int = 15,
    dx: float = 55.0,
    dy: float = 64.0,
    x0: int = 40,
    y0: int = 40,
    sideways: bool = False,
    kinds: Sequence[str] = DEFAULT_KINDS,
    weights: Sequence[float] | None = None,
    numbering: Numbering | None = None,
    seed: int = 0,
    margin: int = 20,
    features: bool = True,
) -> SyntheticBoard:
    """Draw ``columns`` x ``rows`` raw hexes with random terrain (clumped, like real maps)."""
    rng = random.Random(seed)
    numbering = numbering or SCHEMES["vassal-default"]
    geo = HexGridGeometry(dx=dx, dy=dy, x0=x0, y0=y0, sideways=sideways, numbering=numbering)
    hexes = tuple(raw_to_hex(c, r, geo.orientation) for c in range(columns) for r in range(rows))
    w = weights or [4.0] + [1.0] * (len(kinds) - 1)
    terrain: dict[Hex, str] = {}
    for h in hexes:
        # clumps: copy a neighbour's terrain half the time
        prev = [terrain[n] for n in h.neighbours() if n in terrain]
        terrain[h] = rng.choice(prev) if prev and rng.random() < 0.5 else rng.choices(list(kinds), w)[0]
    labels = {h: numbering.name(*_raw(geo, h), sideways=sideways) for h in hexes}
    sides: dict[Hexside, tuple[SideFeature, ...]] = {}
    paths: tuple[Path, ...] = ()
    if features:
        pool = list(hexes)
        for _ in range(max(1, len(hexes) // 40)):
            h = rng.choice(pool)
            n = h.neighbours()[rng.randrange(6)]
            if n in terrain:
                kind = rng.choice(("minefield", "escarpment"))
                sides[h.side(h.direction_to(n))] = (SideFeature(kind, up=h),)  # type: ignore[arg-type]
        a, b = rng.choice(pool), rng.choice(pool)
        paths = (Path("road", tuple(a.line_to(b))),)
    _x_min, _y_min, x_max, y_max = grid_bounds(geo, hexes)
    size = (math.ceil(x_max) + margin, math.ceil(y_max) + margin)
    scene = BoardScene(
        geometry=geo, size=size, hexes=hexes, labels=labels, terrain=terrain, sides=sides, paths=paths
    )
    return SyntheticBoard(draw_scene(scene), geo, terrain, labels, scene)


def _raw(geo: HexGridGeometry, h: Hex) -> tuple[int, int]:
    from gazala_tools.grid import hex_to_raw

    return hex_to_raw(h, geo.orientation)


def legend_for(kinds: Sequence[str]) -> dict[str, tuple[int, int, int]]:
    """The colour legend matching :func:`synthetic_board`'s fills."""
    return {k: terrain_colour(k) for k in kinds}


# --- degradations, as a scanner or a phone would do them --------------------------------------
def jpeg(img: Image.Image, quality: int = 60) -> Image.Image:
    import io

    buf = io.BytesIO()
    img.convert("RGB").save(buf, "JPEG", quality=quality)
    buf.seek(0)
    out = Image.open(buf)
    out.load()
    return out.convert("RGB")


def blur(img: Image.Image, radius: float = 1.5) -> Image.Image:
    from PIL import ImageFilter

    return img.filter(ImageFilter.GaussianBlur(radius))


def rotate(img: Image.Image, degrees: float) -> Image.Image:
    """Rotate about the image centre (counter-clockwise for positive degrees, as Pillow does)."""
    return img.rotate(degrees, resample=Image.Resampling.BICUBIC, expand=False, fillcolor=(255, 255, 255))


def scale(img: Image.Image, factor: float) -> Image.Image:
    w, h = img.size
    return img.resize((round(w * factor), round(h * factor)), Image.Resampling.LANCZOS)


def uneven_lighting(img: Image.Image, strength: float = 0.4) -> Image.Image:
    """Darken towards one corner: brightness falls linearly to (1 - strength)."""
    import numpy as np

    a = np.asarray(img.convert("RGB"), dtype=np.float32)
    h, w = a.shape[:2]
    ys, xs = np.mgrid[0:h, 0:w]
    f = 1.0 - strength * (xs / max(1, w - 1) + ys / max(1, h - 1)) / 2
    return Image.fromarray(np.clip(a * f[..., None], 0, 255).astype(np.uint8))
