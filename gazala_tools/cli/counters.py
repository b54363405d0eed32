"""``gazala counters``: list a game's counters, render face PNGs, print duplex counter sheets."""

from __future__ import annotations

import argparse
import io
import json
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from gazala_tools.cli import _common
from gazala_tools.cli._common import game_help, on_terminal
from gazala_tools.counters import Counter, Manifest, load_manifest, parse_size
from gazala_tools.errors import GazalaError

__all__ = ["HELP", "NOUN", "counter_record", "parse_offset", "register"]

NOUN = "counters"
HELP = "Counter manifests, face images and duplex counter-sheet PDFs."


def register(parser: argparse.ArgumentParser) -> None:
    verbs = parser.add_subparsers(dest="verb", metavar="VERB", required=True)
    games = game_help(", or a counters.yaml")
    _add_list(verbs, games)
    _add_images(verbs, games)
    _add_sheet(verbs, games)
    _add_contact(verbs, games)


def _add_list(verbs: argparse._SubParsersAction[argparse.ArgumentParser], games: str) -> None:
    ls = verbs.add_parser("list", help="the counters of a game: id, kind, side, values")
    ls.add_argument("game", help=games)
    ls.add_argument("--kind", choices=("unit", "chit", "marker"), help="only this kind")
    ls.add_argument("--json", action="store_true", help="JSON output")
    ls.set_defaults(func=_list)


def _add_images(verbs: argparse._SubParsersAction[argparse.ArgumentParser], games: str) -> None:
    im = verbs.add_parser(
        "images",
        help="one PNG per face: DIR/<id>-front.png and <id>-back.png, plus DIR/faces.json",
        description="Render every face of a game's counters as PNG, named by stable id.",
    )
    im.add_argument("game", help=games)
    im.add_argument("-o", "--output", required=True, help="output directory")
    im.add_argument("--dpi", type=_common.DPI, default=300, help="resolution (default 300)")
    im.add_argument("--size", help="counter size, e.g. '5/8 in' or '12.7 mm' (default: the game's)")
    im.add_argument("--bleed-mm", type=_common.number_in(0, 25), default=0.0, help="background beyond the cut line (default 0)")
    im.add_argument("--only", nargs="*", help="only these counter ids")
    im.add_argument("--no-progress", action="store_true")
    im.add_argument("--json", action="store_true", help="print a JSON summary")
    im.set_defaults(func=_images)


def _add_sheet(verbs: argparse._SubParsersAction[argparse.ArgumentParser], games: str) -> None:
    sh = verbs.add_parser(
        "sheet",
        help="a counter-sheet PDF: duplex (fronts page, mirrored backs page) or fold-over",
        description="Print a game's counters at exact physical size with crop marks. Duplex backs are "
        "mirrored for a long-edge flip; --back-offset corrects a printer's front/back registration.",
    )
    sh.add_argument("game", help=games)
    sh.add_argument("-o", "--output", required=True, help="output PDF")
    sh.add_argument("--page", choices=("a4", "letter"), default="a4")
    sh.add_argument("--layout", choices=("duplex", "fold"), default="duplex")
    sh.add_argument("--size", help="counter size, e.g. '5/8 in', '0.5 in', '16 mm' (default: the game's)")
    sh.add_argument("--dpi", type=_common.DPI, default=300, help="face image resolution (default 300)")
    sh.add_argument("--bleed-mm", type=_common.number_in(0, 25), default=1.0, help="bleed beyond each cut line (default 1)")
    sh.add_argument("--back-offset", default="0,0", metavar="DX,DY", help="shift the backs page by DX,DY mm")
    sh.add_argument("--label", help="page label (default: game, sheet, side, size)")
    sh.add_argument("--no-progress", action="store_true")
    sh.add_argument("--json", action="store_true", help="print a JSON summary")
    sh.set_defaults(func=_sheet)


def _add_contact(verbs: argparse._SubParsersAction[argparse.ArgumentParser], games: str) -> None:
    cs = verbs.add_parser("contact", help="a contact-sheet PNG of all faces (front and back side by side)")
    cs.add_argument("game", help=games)
    cs.add_argument("-o", "--output", required=True)
    cs.add_argument("--dpi", type=_common.DPI, default=100)
    cs.add_argument("--columns", type=_common.number_in(1, 1000, integer=True), default=16)
    cs.add_argument("--json", action="store_true")
    cs.set_defaults(func=_contact)


def _values(c: Counter, side: str = "front") -> str:
    f = c.face(side)
    if c.kind != "unit":
        return " / ".join(x for x in (f.title, f.subtitle) if x)
    sep = " " if c.spaced_values else "-"
    return sep.join(v.text() for v in f.values)


def counter_record(c: Counter) -> dict[str, Any]:
    return {
        "id": c.id, "kind": c.kind, "side": c.side, "nationality": c.nationality, "formation": c.formation,
        "designation": c.designation, "type": c.type, "size": c.size, "steps": c.steps, "step": c.step,
        "unit_id": c.unit_id, "front": _values(c, "front"), "back": _values(c, "back"), "provenance": c.provenance,
        **({"front_art": c.front_art, "back_art": c.back_art} if c.has_art else {}),
    }  # fmt: skip


def _list(args: argparse.Namespace) -> int:
    m = load_manifest(args.game)
    rows = [c for c in m if args.kind is None or c.kind == args.kind]
    if args.json:
        print(
            json.dumps(
                {
                    "game": m.game,
                    "counts": m.counts(),
                    "total": len(m),
                    "counters": [counter_record(c) for c in rows],
                },
                indent=2,
            )
        )
        return 0
    for c in rows:
        print(
            f"{c.id:40} {c.kind:6} {c.side:7} {c.formation:10} {c.designation:10} {_values(c):18} | {_values(c, 'back')}"
        )
    counts = ", ".join(f"{v} {k}s" for k, v in m.counts().items())
    print(f"{m.game}: {len(m)} counters ({counts})", file=sys.stderr)
    return 0


@contextmanager
def _progress(total: int, desc: str, disabled: bool) -> Iterator[Any]:
    """A tqdm bar on stderr that appears only if the work takes more than half a second, and only on a
    terminal (a log file gets no bar left half drawn)."""
    from tqdm import tqdm

    with tqdm(
        total=total, desc=desc, unit="face", delay=0.5, disable=disabled or not on_terminal(), file=sys.stderr,
        leave=False
    ) as bar:
        yield bar


def _size(args: argparse.Namespace, m: Manifest) -> float:
    return parse_size(args.size, place="--size") if args.size else m.counter_size_mm


def _selected(m: Manifest, only: list[str] | None) -> list[Counter]:
    if not only:
        return list(m.counters)
    known = {c.id: c for c in m}
    missing = [i for i in only if i not in known]
    if missing:
        raise GazalaError(
            f"no counter {missing[0]!r}", file=m.source_file, expected="ids from `gazala counters list`"
        )
    return [known[i] for i in only]


def _not_drawn(problems: Any, summary: dict[str, Any]) -> str:
    """Art that could not be drawn (issue 33 item 2): one warning line each on stderr, the list in the JSON
    summary, and the words the text summary ends with."""
    for line in problems.lines():
        print(f"warning: {line}", file=sys.stderr)
    if problems:
        summary["images_not_drawn"] = problems.records()
    return f"; {len(problems)} images drawn as placeholders" if problems else ""


def _images(args: argparse.Namespace) -> int:
    from gazala_tools.render.art import drawing_placeholders

    with drawing_placeholders() as problems:
        return _images_drawn(args, problems)


def _images_drawn(args: argparse.Namespace, problems: Any) -> int:
    from gazala_tools.fileio import atomic_write_bytes, atomic_write_text, output_dir
    from gazala_tools.render.counters import counter_face

    m = load_manifest(args.game)
    size = _size(args, m)
    counters = _selected(m, args.only)
    out = output_dir(args.output)
    t0 = time.perf_counter()
    index: dict[str, dict[str, Any]] = {}
    with _progress(2 * len(counters), f"{m.game} faces", args.no_progress) as bar:
        for c in counters:
            rec = counter_record(c)
            for side in ("front", "back"):
                img = counter_face(c, side, dpi=args.dpi, size_mm=size, bleed_mm=args.bleed_mm)
                buf = io.BytesIO()
                img.save(buf, "PNG", dpi=(args.dpi, args.dpi))
                name = f"{c.id}-{side}.png"
                atomic_write_bytes(out / name, buf.getvalue())
                rec[f"{side}_image"] = name
                bar.update(1)
            index[c.id] = rec
    atomic_write_text(
        out / "faces.json",
        json.dumps({"game": m.game, "dpi": args.dpi, "size_mm": size, "counters": index}, indent=2),
    )
    elapsed = time.perf_counter() - t0
    summary = {"game": m.game, "output": str(out), "faces": 2 * len(counters), "counters": len(counters),
               "dpi": args.dpi, "size_mm": round(size, 3), "seconds": round(elapsed, 3)}  # fmt: skip
    tail = _not_drawn(problems, summary)
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        print(f"{summary['faces']} faces of {m.game} at {args.dpi:g} dpi -> {out} ({elapsed:.2f} s{tail})")
    return 0


def parse_offset(text: str) -> tuple[float, float]:
    try:
        dx, dy = (float(p) for p in text.replace(" ", "").split(","))
    except ValueError:
        raise GazalaError(
            f"back offset {text!r}", place="--back-offset", expected="DX,DY in mm, e.g. 0.5,-0.3"
        ) from None
    return dx, dy


def _sheet(args: argparse.Namespace) -> int:
    from gazala_tools.fileio import refuse_overwrite
    from gazala_tools.render.art import drawing_placeholders
    from gazala_tools.render.sheets import write_sheet

    m = load_manifest(args.game)
    refuse_overwrite(args.output, _inputs(m))
    t0 = time.perf_counter()
    with _progress(2 * len(m), f"{m.game} sheet", args.no_progress) as bar, drawing_placeholders() as problems:
        s = write_sheet(
            m.counters, args.output, game=m.game, size_mm=_size(args, m), page=args.page, layout=args.layout,
            dpi=args.dpi, bleed_mm=args.bleed_mm, back_offset_mm=parse_offset(args.back_offset), label=args.label,
            progress=bar.update,
        )  # fmt: skip
    elapsed = time.perf_counter() - t0
    summary = {
        **s.__dict__,
        "back_offset_mm": list(s.back_offset_mm),
        "size_mm": round(s.size_mm, 3),
        "seconds": round(elapsed, 3),
    }
    tail = _not_drawn(problems, summary)
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        print(
            f"{s.counters} counters of {m.game} ({s.size_mm:.2f} mm) on {s.pages} {s.page} pages ({s.layout}) -> {s.path} ({elapsed:.2f} s{tail})"
        )
    return 0


def _inputs(m: Manifest) -> list[str]:
    """The files a sheet or contact sheet is made from: the manifest and the counters' art."""
    art = {c.art(side) for c in m for side in ("front", "back") if c.art(side)}
    return [m.source_file, *sorted(art)]


def _contact(args: argparse.Namespace) -> int:
    from gazala_tools.fileio import atomic_open, refuse_overwrite
    from gazala_tools.render.art import drawing_placeholders
    from gazala_tools.render.counters import write_contact_sheet

    m = load_manifest(args.game)
    refuse_overwrite(args.output, _inputs(m))
    # written one row of faces at a time
    with atomic_open(args.output, "wb") as fh, drawing_placeholders() as problems:
        width, height, n_bytes = write_contact_sheet(m.counters, fh, dpi=args.dpi, columns=args.columns)
    summary: dict[str, Any] = {
        "game": m.game,
        "output": args.output,
        "faces": 2 * len(m),
        "width": width,
        "height": height,
        "bytes": n_bytes,
    }
    tail = _not_drawn(problems, summary)
    print(
        json.dumps(summary, indent=2)
        if args.json
        else f"{summary['faces']} faces -> {args.output} ({width}x{height}, {n_bytes:,} bytes{tail})"
    )
    return 0
