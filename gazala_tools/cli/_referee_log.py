"""``gazala referee log GAME.vlog``: every move of a VASSAL log against the movement rules."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from gazala_tools.cli._common import read_layouts
from gazala_tools.errors import GazalaError
from gazala_tools.fileio import atomic_write_bytes, refuse_overwrite

LOG_FORMATS = ("text", "json", "html")


def add_verb(verbs: argparse._SubParsersAction[argparse.ArgumentParser],
             common: object) -> None:
    lg = verbs.add_parser(
        "log",
        help="check every move of a VASSAL log (.vlog): movement rules step by step, position checks at phase ends",
        description="Replay a .vlog one VASSAL Step at a time; report each move's movement-rule findings (step, "
        "unit, from/to hex, rule section) and the position findings at each phase end. Exit status: 0 legal, 1 a "
        "rule is broken, 2 bad input.",
    )
    lg.add_argument("input", help="a .vlog log")
    assert callable(common)
    common(lg)
    lg.add_argument("-o", "--output", help="write the report here (default stdout)")
    lg.add_argument("--no-position", action="store_true", help="movement findings only (no position checks)")
    lg.add_argument("--paths", choices=("legal", "direct"), default="legal",
                    help="legal (default): a drag is the shortest legal path, a detour from the direct route is "
                    "warned; direct: every drag is the direct route (groups who move hex by hex), its broken rules "
                    "are errors")
    lg.set_defaults(func=run)


def render(rep: object, replay: object, fmt: str, dpi: float | None) -> bytes:
    from gazala_tools.referee.logcheck import LogReport, render_json, render_text

    assert isinstance(rep, LogReport)
    if fmt == "json":
        return render_json(rep).encode("utf-8")
    if fmt == "html":
        from gazala_tools.render.logreport import render_log_html

        return render_log_html(rep, replay, dpi=dpi).encode("utf-8")
    return render_text(rep).encode("utf-8")


def run(args: argparse.Namespace) -> int:
    from gazala_tools.referee.logcheck import check_log

    fmt = "json" if args.json else args.format
    if fmt not in LOG_FORMATS:
        raise GazalaError(f"format {fmt!r} is not available for a log", file=args.input,
                          expected="--format text, json or html")
    if args.output:
        refuse_overwrite(args.output, [args.input])
    rep, replay = check_log(args.input, game=args.game, module=args.module, read_layouts=read_layouts, mapping=args.mapping, turn=args.turn,
                            position_checks=not args.no_position, paths=args.paths)
    data = render(rep, replay, fmt, args.dpi)
    if args.output:
        atomic_write_bytes(args.output, data)
    else:
        sys.stdout.write(data.decode("utf-8"))
    return 0 if rep.legal else 1


def log_reports(path: Path, args: argparse.Namespace, fmt: str) -> tuple[bytes, str, str]:
    """``referee watch`` for one ``.vlog``: the log report (every move) in ``--format`` for
    ``--out-dir`` (PNG: the text report), its file extension, and the text (or JSON) to print."""
    from gazala_tools.referee.logcheck import check_log

    rep, replay = check_log(path, game=args.game, module=args.module, read_layouts=read_layouts, mapping=args.mapping, turn=args.turn)
    out_fmt = fmt if fmt in LOG_FORMATS else "text"
    ext = {"text": "txt"}.get(out_fmt, out_fmt)
    shown = render(rep, replay, "json" if fmt == "json" else "text", args.dpi).decode("utf-8")
    return render(rep, replay, out_fmt, args.dpi), ext, shown
