"""``gazala digitize``: from a scanned hex map to a VASSAL grid and map data.

Verbs: ``calibrate`` (grid from reference hexes), ``detect-grid`` (grid found automatically),
``deskew`` (straighten a rotated or sheared scan), ``classify`` (terrain per hex against a colour legend) and ``overlay`` (check by eye).
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from gazala_tools.cli import _common
from gazala_tools.errors import GazalaError
from gazala_tools.fileio import atomic_open, atomic_write_text, refuse_overwrite

__all__ = [
    "HELP",
    "NOUN",
    "log",
    "register",
]

NOUN = "digitize"
HELP = "Digitize a scanned hex map: fit the VASSAL grid, classify terrain, draw a check overlay."

log = logging.getLogger(__name__)


def register(parser: argparse.ArgumentParser) -> None:
    verbs = parser.add_subparsers(dest="verb", metavar="VERB", required=True)
    _add_calibrate(verbs)
    _add_detect(verbs)
    _add_deskew(verbs)
    _add_classify(verbs)
    _add_overlay(verbs)


def _image_args(p: argparse.ArgumentParser) -> None:
    """The scan, its pixel cap and ``--json``: every verb's."""
    from gazala_tools.inputs import MAX_SCAN_PIXELS  # digitize.image's MAX_PIXELS, without numpy at start-up

    p.add_argument("image", help="the scan (PNG, JPEG, TIFF)")
    p.add_argument(
        "--max-pixels",
        type=int,
        default=MAX_SCAN_PIXELS,
        help=f"refuse larger images (default {MAX_SCAN_PIXELS:,}: Pillow's decompression-bomb guard, documented)",
    )
    p.add_argument("--json", action="store_true", help="print the result as JSON")


def _numbering_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--numbering",
        default="vassal-default",
        metavar="GAME|DIR|ATTRS",
        help="the hex numbering the labels use: vassal-default, a built-in game id, a game folder, or "
        "VASSAL HexGridNumbering attributes ('hType=A hOff=0 vDescend=true'); never changed by the fit",
    )


def _add_calibrate(verbs: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    cal = verbs.add_parser(
        "calibrate",
        help="fit the grid to reference hexes (least squares), print residuals, write the grid YAML",
        description="Fit dx, dy, x0, y0 and the orientation to two or more reference hexes "
        "(LABEL=X,Y: the pixel centre of that hex on the scan). Writes the grid section of a map YAML and "
        "prints the VASSAL HexGrid/HexGridNumbering attributes.",
    )
    _image_args(cal)
    cal.add_argument("--ref", action="append", required=True, metavar="LABEL=X,Y", help="a reference hex (repeat)")
    _numbering_arg(cal)
    cal.add_argument("--no-detect", action="store_true", help="do not look at the image to choose between fits")
    cal.add_argument("-o", "--output", help="write the grid YAML here (default: print it)")
    cal.set_defaults(func=_calibrate)


def _add_detect(verbs: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    det = verbs.add_parser(
        "detect-grid",
        help="find the hex lattice automatically (dx, dy, x0, y0, orientation, confidence)",
        description="Find the hex grid from the periodicity of hex edges. With one --ref LABEL=X,Y and "
        "--numbering the hex names (and so x0/y0 = raw hex 0,0) are fixed too.",
    )
    _image_args(det)
    det.add_argument("--ref", metavar="LABEL=X,Y", help="one hex whose label fixes the numbering")
    _numbering_arg(det)
    det.add_argument("-o", "--output", help="write the grid YAML here")
    det.set_defaults(func=_detect)


def _add_deskew(verbs: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    dsk = verbs.add_parser(
        "deskew",
        help="straighten a rotated or sheared scan so that a VASSAL grid fits it; report the residual",
        description="Fit the affine hex lattice (rotation and shear), resample the scan onto the axis-aligned "
        "lattice of the same steps (image centre fixed), detect the grid again and report its rotation and the "
        "RMS distance of the hex centres from the best VASSAL grid, before and after.",
    )
    _image_args(dsk)
    dsk.add_argument("-o", "--output", required=True, help="the straightened image (PNG)")
    dsk.set_defaults(func=_deskew)


def _add_classify(verbs: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    cls = verbs.add_parser(
        "classify",
        help="terrain per hex from the centre region's colours against a legend; flags uncertain hexes",
        description="Sample each hex's centre region, vote by nearest legend colour, write terrain YAML "
        "in the map-data format (uncertain hexes listed in comments and --json).",
    )
    _image_args(cls)
    cls.add_argument("--grid", required=True, help="grid YAML (from calibrate/detect-grid) or a map YAML/dir")
    cls.add_argument("--legend", required=True, help="legend YAML: terrain colours (and optional hexside colours)")
    cls.add_argument("--hexsides", action="store_true", help="also detect hexside lines of the legend's colours")
    cls.add_argument("--radius", type=_common.number_in(0.01, 1), default=0.3, help="centre region radius, in hex sizes (default 0.3)")
    cls.add_argument("-o", "--output", help="write the terrain YAML here (default: print it)")
    cls.add_argument("--map-out", help="also write a complete map directory (map.yaml) for `overlay --map`")
    cls.set_defaults(func=_classify)


def _add_overlay(verbs: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    ov = verbs.add_parser("overlay", help="draw the grid, labels and terrain over the scan, to check by eye")
    _image_args(ov)
    ov.add_argument("--map", help="a map directory or map YAML (grid + terrain)")
    ov.add_argument("--grid", help="a grid YAML (instead of --map)")
    ov.add_argument("-o", "--output", required=True, help="output PNG")
    ov.set_defaults(func=_overlay)


# --- helpers -------------------------------------------------------------------------------------
def _progress(total: int, desc: str) -> Any:
    from tqdm import tqdm

    return tqdm(total=total, desc=desc, unit="hex", disable=not _common.on_terminal(), file=sys.stderr, leave=False)


def _emit(text: str, output: str | None, image: str) -> None:
    if output:
        refuse_overwrite(output, [image])
        atomic_write_text(output, text)
    else:
        sys.stdout.write(text)


def _stage_printer() -> Callable[[str], None]:
    def say(stage: str) -> None:
        log.info("detect-grid: %s", stage)

    return say


# --- verbs ---------------------------------------------------------------------------------------
def _calibrate(args: argparse.Namespace) -> int:
    from gazala_tools.digitize.calibrate import calibrate, parse_ref, ref_on_image
    from gazala_tools.digitize.image import image_dpi, open_image
    from gazala_tools.digitize.lattice import detect_grid
    from gazala_tools.mapdata.gridfile import numbering_from, spec_for, write_yaml

    numbering, name = numbering_from(args.numbering, place="--numbering", allow_path=True)
    refs = [parse_ref(r) for r in args.ref]
    img = open_image(args.image, max_pixels=args.max_pixels, grey=True)  # the detection reads grey levels only
    refs = [ref_on_image(r, img.size) for r in refs]
    hint = None
    if not args.no_detect:
        try:
            fit = detect_grid(img, progress=_stage_printer())
            if fit.confidence >= 0.3:
                hint = (fit.dx / fit.dy, fit.sideways)
        except GazalaError as exc:
            log.warning("could not detect the grid on the image (%s); choosing by hex shape", exc)
    cal = calibrate(refs, numbering, board=img.size, shape_hint=hint)
    spec = spec_for(cal.geometry, cal.numbering, name, img.size, dpi=image_dpi(img))
    if args.output:
        _emit(write_yaml({"grid": spec.to_data()}), args.output, args.image)
    if args.json:
        print(json.dumps(cal.as_dict() | {"vassal": spec.vassal(), "grid": spec.to_data()}))
    else:
        if not args.output:
            sys.stdout.write(write_yaml({"grid": spec.to_data()}))
        for lab, ex, ey in cal.residuals:
            print(f"# residual {lab}: {ex:+.2f} {ey:+.2f} px", file=sys.stderr)
        print(f"# rms {cal.rms:.2f} px" + ("; AMBIGUOUS: add a third reference far from the others" if cal.ambiguous else ""), file=sys.stderr)
        print("# VASSAL HexGrid " + " ".join(f'{k}="{v}"' for k, v in spec.vassal()["HexGrid"].items()), file=sys.stderr)
    return 0


def _detect(args: argparse.Namespace) -> int:
    from gazala_tools.digitize.calibrate import parse_ref, ref_on_image
    from gazala_tools.digitize.image import image_dpi, open_image
    from gazala_tools.digitize.lattice import detect_grid, number_lattice
    from gazala_tools.mapdata.gridfile import numbering_from, spec_for, write_yaml

    numbering, name = numbering_from(args.numbering, place="--numbering", allow_path=True)
    ref = parse_ref(args.ref) if args.ref else None
    img = open_image(args.image, max_pixels=args.max_pixels, grey=True)  # detection reads grey levels only
    if ref is not None:
        ref_on_image(ref, img.size)
    size, dpi = img.size, image_dpi(img)
    fit = detect_grid(img, progress=_stage_printer())
    out: dict[str, Any] = fit.as_dict()
    geo = fit.geometry(numbering)
    if ref is not None:
        geo, _ = number_lattice(fit, numbering, ref.label, ref.x, ref.y, board=size)
        out["x0"], out["y0"] = geo.x0, geo.y0
        out["numbering"] = numbering.vassal_attrs()
    spec = spec_for(geo, numbering, name, size, dpi=dpi)
    out["vassal"] = spec.vassal()
    if args.output:
        _emit(write_yaml({"grid": spec.to_data()}), args.output, args.image)
    if args.json:
        print(json.dumps(out))
    else:
        print(
            f"dx={fit.dx:.3f} dy={fit.dy:.3f} x0={out['x0']} y0={out['y0']} "
            f"{'sideways' if fit.sideways else 'flat'} rotation={fit.rotation:.2f}deg confidence={fit.confidence:.2f} "
            f"({fit.hexes_measured} hexes, rms {fit.rms_px:.2f} px)"
        )
        for note in fit.notes:
            print(f"note: {note}", file=sys.stderr)
    return 0


def _deskew(args: argparse.Namespace) -> int:
    from gazala_tools.digitize.deskew import deskew_file

    refuse_overwrite(args.output, [args.image])
    result = deskew_file(args.image, args.output, max_pixels=args.max_pixels, progress=_stage_printer())
    out = result.as_dict() | {"output": args.output}
    if args.json:
        print(json.dumps(out))
    else:
        print(
            f"rotation {result.rotation:.3f} deg, shear {result.shear:.3f} deg -> rotation {result.after.rotation:.3f} deg; "
            f"hex centres from the VASSAL grid: rms {result.before.grid_rms_px:.2f} px -> {result.after.grid_rms_px:.2f} px"
        )
    return 0


def _classify(args: argparse.Namespace) -> int:
    from gazala_tools.digitize.classify import classify_hexes, detect_hexsides, read_legend
    from gazala_tools.digitize.image import RgbRegions, open_image
    from gazala_tools.digitize.mapyaml import hexside_kinds_data, hexsides_data, terrain_data
    from gazala_tools.mapdata.gridfile import read_grid_file, write_yaml

    if not (0.05 <= args.radius <= 0.5):
        raise GazalaError(f"--radius {args.radius} out of range", place="--radius", expected="0.05 to 0.5")
    spec = read_grid_file(args.grid)
    legend = read_legend(args.legend)
    rgb = RgbRegions(open_image(args.image, max_pixels=args.max_pixels))  # read a region at a time, no full-size array
    hexes = list(spec.grid.hexes())
    with _progress(len(hexes), "classify") as bar:
        results = classify_hexes(rgb, spec.geometry, hexes, legend, radius=args.radius, progress=bar.update)
    side_results = []
    if args.hexsides:
        sides = [s for s in spec.grid.hexsides() if all(h in spec.grid for h in s.hexes)]
        side_results = detect_hexsides(rgb, spec.geometry, sides, legend)
    terrain, comments = terrain_data(spec, results, legend, source=f"digitized from {Path(args.image).name}")
    doc: dict[str, Any] = {"terrain": terrain}
    if side_results:
        doc["hexside-kinds"] = hexside_kinds_data(side_results)
        doc["hexsides"] = hexsides_data(spec, side_results, source=f"digitized from {Path(args.image).name}")
    text = "".join(f"# {c}\n" for c in comments) + write_yaml(doc)
    if args.output or not args.json:
        _emit(text, args.output, args.image)
    if args.map_out:
        from gazala_tools.digitize.mapyaml import map_document

        d = Path(args.map_out)
        refuse_overwrite(d / "map.yaml", [args.image])
        atomic_write_text(d / "map.yaml", write_yaml(map_document(spec, doc, title=Path(args.image).stem)))
    if args.json:
        print(json.dumps(_classified_json(spec, results, side_results)))
    return 0


def _classified_json(spec: Any, results: list[Any], side_results: list[Any]) -> dict[str, Any]:
    """``classify --json``: the hexes counted, the uncertain ones, every hex's terrain and the hexsides."""
    label = spec.grid.label
    return {
        "hexes": len(results),
        "uncertain": [
            {"hex": label(r.hex), "terrain": r.terrain, "share": round(r.share, 3), "distance": round(r.distance, 1)}
            for r in results
            if r.uncertain
        ],
        "terrain": {label(r.hex): r.terrain for r in results},
        "hexsides": [
            {"side": spec.grid.hexside_label(s.side), "kind": s.kind, "confidence": round(s.confidence, 3)}
            | ({"up": label(s.up)} if s.up is not None else {})
            for s in side_results
        ],
    }


def _overlay(args: argparse.Namespace) -> int:
    from gazala_tools.digitize.image import open_image
    from gazala_tools.digitize.overlay import draw_overlay
    from gazala_tools.mapdata.gridfile import read_grid_file

    if bool(args.map) == bool(args.grid):
        raise GazalaError("give --map MAPDIR or --grid GRID.yaml", expected="exactly one of them")
    img = open_image(args.image, max_pixels=args.max_pixels)
    refuse_overwrite(args.output, [args.image])
    terrain = None
    sides: list[tuple[tuple[float, float], tuple[float, float], str]] = []
    if args.map:
        from gazala_tools.mapdata import load_map
        from gazala_tools.render.board import side_segment

        m = load_map(args.map)
        geo = m.geometry()
        hexes = list(m.hexes())
        labels = {h: m.label(h) for h in hexes}
        terrain = {h: m.terrain(h) for h in hexes}
        for f in m.all_features():
            a, b = side_segment(geo, f.side)
            sides.append((a, b, f.kind.value))
    else:
        spec = read_grid_file(args.grid)
        geo = spec.geometry
        hexes = list(spec.grid.hexes())
        labels = {h: spec.grid.label(h) for h in hexes}
    draw_overlay(img, geo, hexes, labels, terrain, sides=sides, in_place=True)  # the scan is ours: no second full-size image
    with atomic_open(args.output) as fh:
        img.save(fh, "PNG")  # Pillow deflates into the file as it goes: no encoded copy in memory
    if args.json:
        print(json.dumps({"output": args.output, "hexes": len(hexes)}))
    return 0
