"""Fuzz targets for module art (issue 31 items 2 and 9, issue 33 item 1): ``svg-amplification`` and ``layers``.

``svg-amplification`` feeds SVG documents (``<use>`` trees, patterns, masks, markers, entities, nesting,
references to sibling files and to files outside the module, embedded images), mutated by text and by
number, as one piece's image of a small module: ``game import`` (the piece's back is a layered face, so the
SVG is drawn), then ``counters contact`` of the folder, then the SVG drawn directly at counter size. The
module lies in a folder of its own beside a planted secret: a file opened outside the module, the folder
and the output (audit hook, :func:`tools.fuzz.folders.watch_reads`) is a **read outside**.

``layers`` feeds recipes of pieces made of layers chosen from hostile images (1-bit PNG bombs, flat PNGs
near and over the counter-art cap, SVGs declaring huge sizes, truncated and mislabelled files), read the
same way. Every run must end with a result or a clean error, one bad image never aborting the import.
"""

from __future__ import annotations

import contextlib
import random
import re
import shutil
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from tools import artmodules as am
from tools.fuzz import mutate

if TYPE_CHECKING:
    from tools.fuzz.base import Target

SECRET = "FUZZ-SECRET"
HEAD = am.SVG_HEAD + ' width="75" height="75"'


@cache
def _svg_seeds() -> tuple[bytes, ...]:
    return (
        am.svg_face(),
        am.svg_uses(3, 8),
        am.svg_pattern(40),
        am.svg_laughs(4),
        am.svg_nested(40),
        (b'<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY ns "http://www.w3.org/2000/svg"><!ENTITY c "#0a0">]>'
         b'<svg xmlns="&ns;" width="75" height="75"><rect width="75" height="75" fill="&c;"/></svg>'),
        f'{HEAD}><use xlink:href="symbols.svg#s" width="75" height="75"/></svg>'.encode(),
        f'{HEAD}><image xlink:href="pic.png" width="75" height="75"/></svg>'.encode(),
        f'{HEAD}><image xlink:href="../secret.png" width="75" height="75"/></svg>'.encode(),
        f'{HEAD}><rect width="75" height="75" fill="url(symbols.svg#g)"/></svg>'.encode(),
        f'{HEAD}><style>@import url(style.css);</style><rect class="r" width="75" height="75"/></svg>'.encode(),
        (f'{HEAD}><defs><mask id="m"><rect width="75" height="75" fill="#fff"/></mask>'
         '<marker id="k"><circle r="3"/></marker></defs>'
         '<g opacity="0.5" mask="url(#m)"><path d="M0 0 L75 75 L0 75 Z" marker-mid="url(#k)"/></g></svg>').encode(),
        f'{HEAD}><image href="data:image/png;base64,{__import__("base64").b64encode(am.png_bytes(8, (9, 9, 9))).decode()}"'
        ' width="75" height="75"/></svg>'.encode(),
    )


_NUM = re.compile(rb"\d+")


def _mutate_svg(rng: random.Random, seed: bytes) -> bytes:
    op = rng.random()
    if op < 0.35:  # numbers scaled up: tile sizes, fan-outs, declared sizes
        def bigger(m: re.Match[bytes]) -> bytes:
            return str(int(m.group(0)) * rng.choice((1, 10, 100, 1000, 10**6))).encode() if rng.random() < 0.3 \
                else m.group(0)

        return _NUM.sub(bigger, seed)
    if op < 0.55:  # an element repeated (more <use>, more layers of groups)
        parts = re.split(rb"(<[a-z][^>]*/>)", seed)
        i = rng.randrange(len(parts))
        if parts[i].startswith(b"<"):
            parts[i] = parts[i] * rng.choice((2, 10, 100, 1000))
        return b"".join(parts)
    if op < 0.75:
        return mutate.mutate_text(rng, seed.decode("utf-8", "replace")).encode("utf-8", "surrogatepass")
    return mutate.mutate_bytes(rng, seed)


def _siblings() -> dict[str, bytes]:
    return {"symbols.svg": (f'{HEAD}><defs><symbol id="s" viewBox="0 0 75 75"><rect width="75" height="75" '
                            'fill="#00c"/></symbol><linearGradient id="g"><stop offset="0" stop-color="#f00"/>'
                            '</linearGradient></defs></svg>').encode(),
            "pic.png": am.png_bytes(75, (0, 120, 0)), "style.css": b".r { fill: #c0c; }",
            am.FLIP: am.png_bytes(75, (0, 0, 200))}


def _read_module(images: dict[str, bytes], pieces: list[am.Piece], work: Path, tag: str) -> None:
    """``game import`` and ``counters contact`` of the module, every file opened watched."""
    from gazala_tools.errors import GazalaError
    from tools.fuzz import folders
    from tools.fuzz.base import Bug, cli

    box = work / f"art-{tag}"
    shutil.rmtree(box, ignore_errors=True)
    (box / "in").mkdir(parents=True)
    (box / "secret.png").write_bytes(am.png_bytes(9, (1, 2, 3)))
    (box / "secret.svg").write_text(f"{HEAD}><text>{SECRET}</text></svg>")
    vmod = am.art_module(box / "in" / "m.vmod", pieces, images)
    game = box / "game"
    import cairosvg  # noqa: F401  (cairocffi finds its library with gcc and a temporary file when first imported)
    folders.watch_reads(box / "in", game, work)
    try:
        clean: list[str] = []
        for argv in (("game", "import", vmod, game), ("counters", "contact", game, "-o", box / "c.png")):
            try:
                cli(*argv)
            except GazalaError as exc:
                clean.append(str(exc))
        if any(SECRET in c for c in clean):
            raise folders.ReadOutside("an error message quotes the secret outside the module")
        if clean and "import" in clean[0]:
            raise Bug(f"one image stopped the import: {clean[0][:300]}")
    finally:
        outside = folders.stop_watching()
        shutil.rmtree(box, ignore_errors=True)
    if outside:
        raise folders.ReadOutside(f"read outside the module: {sorted(set(outside))[:3]}")
    if clean:
        raise GazalaError(clean[0])


def run_svg(path: Path, work: Path) -> None:
    """One SVG as a piece's image (front drawn by the sheet, back composed at import)."""
    data = path.read_bytes()
    _read_module({"piece.svg": data, **_siblings()}, [am.Piece("p", "piece.svg", flip=am.FLIP)], work,
                 path.stem)
    from gazala_tools.errors import GazalaError
    from gazala_tools.render.art import member_resolver
    from gazala_tools.render.svg import rasterise

    sibs = _siblings()
    with contextlib.suppress(GazalaError):
        rasterise(data, file=path, scale=1.0, max_pixels=25_000_000, resolve=member_resolver(sibs.get), name="piece.svg")


# --- layers ----------------------------------------------------------------------------------------------
#: images a recipe's layers are chosen from (built when first asked: a few are a megabyte)
@cache
def _palette() -> dict[str, bytes]:
    return {"small.png": am.png_bytes(75, (200, 0, 0)), "flat1500.png": am.png_flat(1500),
            "flat7000.png": am.png_flat(7000), "bit9400.png": am.png_1bit(9400), "decl9400.svg": am.svg_declaring(9400, 9400),
            "face.svg": am.svg_face(), "truncated.png": am.png_bytes(75, (5, 5, 5))[:60],
            "text.png": b"not an image", "noext": am.png_bytes(75, (0, 90, 90)), "uses.svg": am.svg_uses(4, 10),
            "pattern.svg": am.svg_pattern(20000)}


def _recipe_seeds() -> list[bytes]:
    return [b"small.png | face.svg noext\n", b"flat1500.png | " + b"flat1500.png " * 100 + b"\n",
            b"".join(b"flat7000.png |\n" for _ in range(5)), b"bit9400.png | decl9400.svg\n",
            b"truncated.png | text.png\nnoext | uses.svg pattern.svg\n"]


def _mutate_recipe(rng: random.Random, seed: bytes) -> bytes:
    names = sorted(_palette())
    lines = seed.decode("utf-8", "replace").splitlines() or [""]
    for _ in range(rng.randint(1, 3)):
        op = rng.random()
        i = rng.randrange(len(lines))
        if op < 0.3:
            lines.append(f"{rng.choice(names)} | " + " ".join(rng.choice(names) for _ in range(rng.randint(0, 6))))
        elif op < 0.5:
            lines[i] = lines[i] + (" " + rng.choice(names)) * rng.choice((1, 10, 60))
        elif op < 0.6 and len(lines) > 1:
            lines.pop(i)
        else:
            lines = lines * rng.choice((2, 5, 20))
    return "\n".join(lines[:200]).encode()


def run_layers(path: Path, work: Path) -> None:
    pieces = []
    palette = _palette()
    for n, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines()[:200]):
        base, _, rest = line.partition("|")
        names = [x for x in rest.split() if x in palette][:120]
        image = base.strip() if base.strip() in palette else "small.png"
        pieces.append(am.Piece(f"p{n}", image, layers=tuple(names), flip=am.FLIP))
    used = {p.image for p in pieces} | {x for p in pieces for x in p.layers}
    images = {k: v for k, v in palette.items() if k in used}
    _read_module({**images, am.FLIP: am.png_bytes(75, (0, 0, 200))}, pieces or [am.Piece("p", "small.png")],
                 work, path.stem)


def targets() -> list[Target]:
    """The two targets (registered in :data:`tools.fuzz.targets.TARGETS`)."""
    from tools.fuzz.base import Target

    return [Target("svg-amplification", ".svg", lambda: list(_svg_seeds()), _mutate_svg, run_svg),
            Target("layers", ".recipe", _recipe_seeds, _mutate_recipe, run_layers)]
