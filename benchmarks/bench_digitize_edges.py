"""The other digitize commands that read a whole scan, at the 250 Mpx cap: ``classify --hexsides``,
``deskew`` and ``overlay``, each in a fresh process whose wall time and peak RSS (``ru_maxrss``
from ``wait4``, decoding included) are measured and whose result is checked.

Scans: :func:`tools.scans.large.large_board` (16000 x 15625, hexes 120 px high, a 300 dpi scan,
PNG) and the same board rotated 0.5 degrees (:func:`tools.scans.large.rotate_scan`) for deskew.
Budget (issue 12): <= 60 s and <= 2 GB each. Baseline in the same run: each command's method
before it was bounded (the whole image in memory: classify's full-size RGB array and its int32
copy, deskew's and overlay's whole output image encoded into memory) on a 25 Mpx scan of the same
kind (5000 x 5000), and the bounded method on that scan too, whose result must equal the
baseline's. About 6 minutes (``scripts/bench digitize_edges``).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from benchmarks.bench_digitize_250 import _child
from benchmarks.common import Result, size

#: the scans: 250 Mpx exactly (the cap, MAX_PIXELS) and the baseline's 25 Mpx
BIG, SMALL = (16000, 15625), (5000, 5000)
#: a smoke run's scans
SMOKE_BIG, SMOKE_SMALL = (700, 680), (500, 500)
#: degrees the deskew scans are rotated by
ROTATION = 0.5

_GENERATE = """
import json, sys
from pathlib import Path
from gazala_tools.mapdata.gridfile import spec_for, write_yaml
from gazala_tools.numbering import SCHEMES
from tools.scans.large import large_board, rotate_scan
from tools.scans.synthetic import DEFAULT_KINDS, legend_for
tmp, rotation = Path(sys.argv[1]), float(sys.argv[2])
bw, bh, sw, sh = map(int, sys.argv[3:7])
for name, (w, h) in (("big", (bw, bh)), ("small", (sw, sh))):
    geo = large_board(w, h, png=tmp / f"{name}.png")
    rotate_scan(tmp / f"{name}.png", tmp / f"{name}_rot.png", rotation)
    spec = spec_for(geo, SCHEMES["vassal-default"], "vassal-default", (w, h), dpi=300)
    (tmp / f"{name}_grid.yaml").write_text(write_yaml({"grid": spec.to_data()}))
terrain = {k: "#%02x%02x%02x" % c for k, c in legend_for(DEFAULT_KINDS).items()}
sides = {"minefield": {"colour": "#cc1818", "owner": "allied"}, "escarpment": "#6e461e"}
(tmp / "legend.yaml").write_text(write_yaml({"terrain": terrain, "hexsides": sides}))
print(json.dumps({"dx": geo.dx, "dy": geo.dy, "x0": geo.x0, "y0": geo.y0}))
"""

#: the commands as they are now (bounded)
_CLI = """
import sys
from gazala_tools.cli import main
sys.exit(main(sys.argv[1:]))
"""

#: the methods before: the whole image in memory (the command lines' code before issue 12 item 4)
_WHOLE = """
import io, json, sys
from gazala_tools.digitize.image import open_image, to_rgb_array
from gazala_tools.fileio import atomic_write_bytes
verb, image, rest = sys.argv[1], sys.argv[2], sys.argv[3:]
img = open_image(image)
if verb == "classify":
    from gazala_tools.digitize.classify import classify_hexes, detect_hexsides, read_legend
    from gazala_tools.mapdata.gridfile import read_grid_file
    spec, legend = read_grid_file(rest[0]), read_legend(rest[1])
    rgb = to_rgb_array(img)
    res = classify_hexes(rgb, spec.geometry, list(spec.grid.hexes()), legend)
    sides = [s for s in spec.grid.hexsides() if all(h in spec.grid for h in s.hexes)]
    found = detect_hexsides(rgb, spec.geometry, sides, legend, tile=10**9)  # one region: the whole array
    print(json.dumps({"terrain": {spec.grid.label(r.hex): r.terrain for r in res},
                      "hexsides": [{"side": spec.grid.hexside_label(s.side), "kind": s.kind,
                                    "confidence": round(s.confidence, 3)} for s in found]}))
else:
    if verb == "deskew":
        from gazala_tools.digitize.deskew import deskew
        result = deskew(img)
        picture = result.image
        print(json.dumps(result.as_dict()))
    else:
        from PIL import Image
        import gazala_tools.digitize.overlay as overlay
        from gazala_tools.mapdata.gridfile import read_grid_file

        def whole_fade(img, alpha=overlay.FADE, rows=0):  # as before: a white image and a blend, both whole
            img.paste(Image.blend(img, Image.new("RGB", img.size, (255, 255, 255)), alpha))

        overlay.fade = whole_fade
        draw_overlay = overlay.draw_overlay
        spec = read_grid_file(rest[1])
        hexes = list(spec.grid.hexes())
        picture = draw_overlay(img, spec.geometry, hexes, {h: spec.grid.label(h) for h in hexes})
        print(json.dumps({"hexes": len(hexes)}))
    buf = io.BytesIO()
    picture.save(buf, "PNG")
    atomic_write_bytes(rest[0], buf.getvalue())
"""


def _last_json(text: str) -> dict[str, object]:
    return dict(json.loads(text.strip().splitlines()[-1]))


#: two PNGs decoded and compared, in a child: the parent stays small, since a child's peak RSS
#: (``ru_maxrss``) starts from the parent's when it is spawned
_SAME = """
import sys
import numpy as np
from PIL import Image
with Image.open(sys.argv[1]) as a, Image.open(sys.argv[2]) as b:
    print(a.size == b.size and bool(np.array_equal(np.asarray(a.convert("RGB")), np.asarray(b.convert("RGB")))))
"""


def _same_pixels(a: Path, b: Path) -> bool:
    return _child([_SAME, str(a), str(b)])[0].strip() == "True"


def _deskew_check(out: dict[str, object], dx: float, dy: float) -> tuple[bool, str]:
    after = abs(float(out["rotation_after_deg"]))  # type: ignore[arg-type]
    ex, ey = abs(float(out["dx"]) / dx - 1), abs(float(out["dy"]) / dy - 1)  # type: ignore[arg-type]
    rms = float(out["residual_rms_px"])  # type: ignore[arg-type]
    right = after < 0.05 and ex <= 0.005 and ey <= 0.005 and rms < 2.0
    return right, (f"rotation {out['rotation_before_deg']} -> {out['rotation_after_deg']} deg, VASSAL-grid rms "
                   f"{out['grid_rms_before_px']} -> {rms} px, dx {ex:.3%} dy {ey:.3%} off: {'right' if right else 'WRONG'}")


def run() -> list[Result]:
    import tempfile

    from gazala_tools.hexgrid import HexGridGeometry
    from gazala_tools.mapdata.gridfile import read_grid_file
    from tools.scans.large import large_terrain

    out: list[Result] = []
    big_wh, small_wh = size((BIG, SMALL), (SMOKE_BIG, SMOKE_SMALL))

    def result(verb: str, big: tuple[str, float, float], base: tuple[float, float], like: tuple[float, float],
               right: bool, check: str) -> None:
        _, dt, peak = big
        name = f"digitize {verb}, {big_wh[0] * big_wh[1] / 1e6:.1f} Mpx PNG ({big_wh[0]}x{big_wh[1]})"
        basename = f"{verb} before (the whole image in memory) on a 25 Mpx PNG"
        note = (f"25 Mpx: before {base[1]:.0f} MB / {base[0]:.1f} s, now {like[1]:.0f} MB / {like[0]:.1f} s; {check}; "
                f"load average {os.getloadavg()[1]:.1f} (5 min; 2 cores)")
        out.append(Result(name=f"{name}: peak memory", value=peak, unit="MB", budget="<= 2048 MB",
                          ok=peak <= 2048 and right, baseline=basename, baseline_value=base[1],
                          ratio=peak / base[1], note=note))
        out.append(Result(name=f"{name}: time", value=dt, unit="s", budget="<= 60 s", ok=dt <= 60 and right,
                          baseline=basename, baseline_value=base[0], ratio=dt / base[0]))

    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        text, _gen_s, _ = _child([_GENERATE, tmp_name, str(ROTATION), *map(str, big_wh + small_wh)])
        truth = _last_json(text)
        dx, dy = float(truth["dx"]), float(truth["dy"])  # type: ignore[arg-type]

        # classify --hexsides
        legend = str(tmp / "legend.yaml")
        runs = {}
        for which in ("big", "small"):
            cmd = ["digitize", "classify", str(tmp / f"{which}.png"), "--grid", str(tmp / f"{which}_grid.yaml"),
                   "--legend", legend, "--hexsides", "--json"]
            runs[which] = _child([_CLI, *cmd])
        whole = _child([_WHOLE, "classify", str(tmp / "small.png"), str(tmp / "small_grid.yaml"), legend])
        new_small, old_small = _last_json(runs["small"][0]), _last_json(whole[0])
        equal = new_small["terrain"] == old_small["terrain"] and new_small["hexsides"] == old_small["hexsides"]
        spec = read_grid_file(tmp / "big_grid.yaml")
        geo = HexGridGeometry(dx=dx, dy=dy, x0=int(truth["x0"]), y0=int(truth["y0"]))  # type: ignore[call-overload]
        terrain = {spec.grid.label(h): t for h, t in large_terrain(*big_wh, geo).items() if h in spec.grid}
        found: dict[str, str] = _last_json(runs["big"][0])["terrain"]  # type: ignore[assignment]
        share = sum(found.get(k) == t for k, t in terrain.items()) / len(terrain)
        right = equal and share >= 0.98
        sides = len(_last_json(runs["big"][0])["hexsides"])  # type: ignore[arg-type]
        check = (f"250 Mpx: {share:.2%} of {len(terrain)} hexes right, {sides} hexsides reported (the board draws "
                 f"none: its brown hex edges pass as escarpments); 25 Mpx: terrain and hexsides "
                 f"{'equal' if equal else 'DIFFERENT'} before/now")
        result("classify --hexsides", runs["big"], whole[1:], runs["small"][1:], right, check)

        # deskew
        runs = {which: _child([_CLI, "digitize", "deskew", str(tmp / f"{which}_rot.png"), "-o", str(tmp / f"{which}_straight.png"),
                              "--json"]) for which in ("big", "small")}  # fmt: skip
        whole = _child([_WHOLE, "deskew", str(tmp / "small_rot.png"), str(tmp / "small_straight_before.png")])
        right, check = _deskew_check(_last_json(runs["big"][0]), dx, dy)
        same = _same_pixels(tmp / "small_straight.png", tmp / "small_straight_before.png")
        small_right, _ = _deskew_check(_last_json(runs["small"][0]), dx, dy)
        check = f"250 Mpx: {check}; 25 Mpx: {'right' if small_right else 'WRONG'}, pixels {'equal' if same else 'DIFFERENT'} before/now"
        result("deskew", runs["big"], whole[1:], runs["small"][1:], right and small_right, check)
        for which in ("big", "small"):
            (tmp / f"{which}_straight.png").unlink()
            (tmp / f"{which}_rot.png").unlink()

        # overlay
        runs = {which: _child([_CLI, "digitize", "overlay", str(tmp / f"{which}.png"), "--grid", str(tmp / f"{which}_grid.yaml"),
                              "-o", str(tmp / f"{which}_overlay.png"), "--json"]) for which in ("big", "small")}  # fmt: skip
        whole = _child([_WHOLE, "overlay", str(tmp / "small.png"), str(tmp / "small_overlay_before.png"), str(tmp / "small_grid.yaml")])
        same = _same_pixels(tmp / "small_overlay.png", tmp / "small_overlay_before.png")
        with open(tmp / "big_overlay.png", "rb") as fh:  # the PNG header's which (Pillow would warn of a bomb)
            head = fh.read(24)
        big_size = (int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big"))
        right = same and big_size == big_wh
        check = f"250 Mpx: {big_size[0]}x{big_size[1]} written; 25 Mpx: pixels {'equal' if same else 'DIFFERENT'} before/now"
        result("overlay", runs["big"], whole[1:], runs["small"][1:], right, check)
    return out
