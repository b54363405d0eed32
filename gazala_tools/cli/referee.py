"""``gazala referee``: check a position (save or position YAML) against the game's rules."""

from __future__ import annotations

import argparse
import logging
import stat
import sys
import time
from pathlib import Path
from typing import Any

from gazala_tools.cli import check_stop
from gazala_tools.cli._common import DPI, number_in, read_layouts
from gazala_tools.errors import GazalaError
from gazala_tools.fileio import atomic_write_bytes, command_scope, refuse_overwrite

NOUN = "referee"
HELP = "Referee a position: legality, supply, LOC and VP findings with the rule sections, as text/JSON/HTML/PNG."
FORMATS = ("text", "json", "html", "png")
log = logging.getLogger(__name__)


def register(parser: argparse.ArgumentParser) -> None:
    verbs = parser.add_subparsers(dest="verb", metavar="VERB", required=True)
    chk = verbs.add_parser(
        "check",
        help="check one save or position YAML",
        description="Print every finding of a position. Exit status: 0 legal, 1 the position breaks a rule, "
        "2 bad input.",
    )
    chk.add_argument("input", help="a .vsav/.vlog save or a position .yaml")
    _common(chk)
    chk.add_argument("--before", metavar="SAVE_OR_YAML",
                     help="an earlier save / position YAML of the same game (read with the same --game, --module, "
                     "--mapping, --turn): also check the rules about what moved in between (DG 17.0, SPI 17.0)")
    chk.add_argument("--scenario", metavar="ID",
                     help="the scenario the position belongs to (an id or name of `gazala game show GAME`): the "
                     "report names it and warns when the turn lies outside its turns")
    chk.add_argument("--strict", action="store_true",
                     help="an input without a turn is bad input (exit 2): its turn-dependent rules cannot be checked")
    chk.add_argument("-o", "--output", help="write the report here (PNG needs it; default stdout)")
    chk.add_argument("--fix", action="store_true", help="with -o NEW.vsav: write a copy with the supply markers fixed")
    chk.set_defaults(func=_check)

    pos = verbs.add_parser("position", help="print the position of a save (or YAML) as position YAML")
    pos.add_argument("input")
    _common(pos)
    pos.add_argument("-o", "--output", help="write the YAML here (default stdout)")
    pos.set_defaults(func=_position)

    from gazala_tools.cli._referee_log import add_verb

    add_verb(verbs, _common)

    w = verbs.add_parser("watch", help="re-check each new or changed save / position YAML in a directory")
    w.add_argument("directory")
    _common(w)
    w.add_argument("--interval", type=number_in(0.01, 86400), default=1.0, help="seconds between scans (default 1)")
    w.add_argument("--settle", type=number_in(0, 3600), default=1.0,
                   help="judge a file only once it has been unchanged this many seconds, and a zip only once it "
                   "is complete (default 1)")
    w.add_argument("--once", action="store_true", help="check what is there now (each file once it is whole) and stop")
    w.add_argument("--out-dir", help="also write each report (in --format) here as FILE.<ext> (a.vsav -> a.vsav.txt)")
    w.set_defaults(func=_watch)


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--game", help="a built-in game id or a game folder (default: the YAML's game; for a save, the game "
                   "its module name says; a game folder's module needs --game)")
    p.add_argument("--module", help="the .vmod a save belongs to (another module of the game needs --mapping)")
    p.add_argument("--mapping", help="YAML mapping piece-name patterns to unit id/side/type/markers")
    p.add_argument("--turn", help="turn label, overriding the input's")
    p.add_argument("--format", choices=FORMATS, default="text")
    p.add_argument("--json", action="store_true", help="same as --format json")
    p.add_argument("--dpi", type=DPI, default=None,
                   help="board resolution for html/png (default: a scan board's own, lowered to at most 16 Mpx for "
                   "the whole board; 50 for a board drawn from the map data)")
    p.add_argument("--allow-plugin", action="store_true",
                   help="let the rules plugin file of the --game folder run (it is code: read it first; `gazala help games`)")


def _render(checked: object, fmt: str, dpi: float | None) -> bytes:
    from gazala_tools.referee.api import Checked

    assert isinstance(checked, Checked)
    if fmt in ("text", "json"):
        from gazala_tools.render.report import render_json, render_text

        return (render_json if fmt == "json" else render_text)(checked.report).encode("utf-8")
    from gazala_tools.render.report import render_html, render_png

    if fmt == "png":
        return render_png(checked.report, checked.game_map, checked.position, dpi=dpi, game=checked.rules.game)
    return render_html(checked.report, checked.game_map, checked.position, dpi=dpi,
                       game=checked.rules.game).encode("utf-8")


def _check(args: argparse.Namespace) -> int:
    from gazala_tools.referee.api import check_file

    fmt = "json" if args.json else args.format
    if args.fix and (not args.output or not str(args.input).lower().endswith(".vsav")):
        raise GazalaError("--fix needs a .vsav input and -o NEW.vsav", file=args.input)
    if fmt == "png" and not args.output:
        raise GazalaError("PNG output needs -o FILE.png")
    if args.output:
        refuse_overwrite(args.output, [args.input, *([args.before] if args.before else [])])
    checked = check_file(args.input, before=args.before, game=args.game, turn=args.turn, module=args.module, read_layouts=read_layouts,
                         mapping=args.mapping, strict=args.strict, scenario=args.scenario)
    if args.fix:
        from gazala_tools.referee.saves import fix_save

        assert checked.save is not None  # --fix needs a .vsav input (checked above)
        n = fix_save(checked.save, Path(args.output), markers=checked.report.markers, rules=checked.rules,
                     inputs=[*([args.before] if args.before else [])])
        log.info("wrote %s with %d unit(s) re-marked", args.output, n)
        sys.stdout.write(_render(checked, fmt if fmt in ("text", "json") else "text", args.dpi).decode("utf-8"))
        return 0 if checked.report.legal else 1
    data = _render(checked, fmt, args.dpi)
    if args.output:
        atomic_write_bytes(args.output, data)
    else:
        sys.stdout.write(data.decode("utf-8"))
    return 0 if checked.report.legal else 1


def _position(args: argparse.Namespace) -> int:
    import json

    import yaml

    from gazala_tools.referee.api import load_position
    from gazala_tools.referee.position import position_to_data

    position, rules = load_position(args.input, game=args.game, turn=args.turn, module=args.module, read_layouts=read_layouts, mapping=args.mapping)
    data = position_to_data(position, labels=rules.map.grid, state_writers=rules.state_writers())
    text = json.dumps(data, indent=1) + "\n" if args.json else yaml.safe_dump(data, sort_keys=False, allow_unicode=True)
    if args.output:
        refuse_overwrite(args.output, [args.input])
        atomic_write_bytes(args.output, text.encode("utf-8"))
    else:
        sys.stdout.write(text)
    return 0


def _watch_one(p: Path, args: argparse.Namespace, fmt: str, out_dir: Path | None, check_file: Any,
               earlier: float | None = None) -> None:
    """Check one file and report it; a bad file (or a bug its input triggers) is reported on stderr
    and the watch goes on. Reports are named after the whole file name (``a.vsav.txt``, ``a.vlog.txt``).
    ``earlier``: when an earlier version of the file was judged (this report replaces that one's)."""
    replaces = "" if earlier is None else (
        f" (changed since judged at {time.strftime('%H:%M:%S', time.localtime(earlier))}: replaces that report)")
    try:
        with command_scope():  # each file is one command: its report may not overwrite what it read
            if p.suffix.lower() == ".vlog":  # a log: every move checked (gazala referee log)
                from gazala_tools.cli._referee_log import log_reports

                report, ext, out = log_reports(p, args, fmt)
            else:
                checked = check_file(p, game=args.game, turn=args.turn, module=args.module, read_layouts=read_layouts, mapping=args.mapping)
                ext = {"text": "txt"}.get(fmt, fmt)
                report = _render(checked, fmt, args.dpi) if out_dir is not None else b""
                out = _render(checked, "json" if fmt == "json" else "text", args.dpi).decode("utf-8")
            if out_dir is not None:
                atomic_write_bytes(out_dir / f"{p.name}.{ext}", report)
    except GazalaError as exc:
        check_stop()  # a stop signal whose exception a reader turned into an error: stop, not report
        print(f"gazala: error: {exc}{replaces}", file=sys.stderr)
        return
    except Exception as exc:  # a bug its input triggers: one line, and on to the next file
        check_stop()
        text = " ".join(str(exc).split())[:200]
        print(f"gazala: internal error on {p}: {type(exc).__name__}: {text} (please report this)", file=sys.stderr)
        return
    sys.stdout.write(f"== {p}{replaces}\n{out}")
    sys.stdout.flush()


def _watch(args: argparse.Namespace) -> int:
    from gazala_tools.cli._watch import Settle
    from gazala_tools.referee.api import SAVE_SUFFIXES, YAML_SUFFIXES, check_file

    fmt = "json" if args.json else args.format
    root = Path(args.directory)
    if not root.is_dir():
        raise GazalaError("not a directory", file=root, expected="a directory of saves")
    if args.game is not None:  # a bad --game (id or folder) is bad input once, not an error per file
        from gazala_tools.referee.api import rules_for_game

        rules_for_game(args.game)
    skipped: set[Path] = set()
    settle = Settle(args.settle)
    out_dir = Path(args.out_dir) if args.out_dir else None
    if out_dir is not None:  # inside an input (the --game folder): refused once, not at every file
        from gazala_tools.fileio import refuse_input

        refuse_input(out_dir, what="output folder")
    while True:
        present: set[Path] = set()
        for p in sorted(root.iterdir()):
            if p.suffix.lower() not in SAVE_SUFFIXES + YAML_SUFFIXES or p.name.startswith("."):
                continue
            try:
                st = p.stat()
            except OSError:
                continue
            present.add(p)
            if not stat.S_ISREG(st.st_mode):  # a FIFO, a device or a folder named x.vsav: never opened
                if p not in skipped:
                    skipped.add(p)
                    print(f"gazala: skipped {p}: not a regular file", file=sys.stderr)
                continue
            skipped.discard(p)
            judge, earlier = settle.ready(p, st)  # whole: stable for --settle seconds, a zip complete
            if judge:
                _watch_one(p, args, fmt, out_dir, check_file, earlier)
            check_stop()
        settle.forget(present)
        skipped &= present
        if args.once and not settle.pending():  # --once: what is there now, each file once whole
            return 0
        check_stop()
        time.sleep(min(args.interval, max(args.settle / 4, 0.01)) if args.once else args.interval)
