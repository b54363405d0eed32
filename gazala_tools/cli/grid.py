"""``gazala grid``: VASSAL location names and hex centres, exactly as the engine computes them."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from gazala_tools.cli import _common
from gazala_tools.errors import GazalaError, VassalFormatError
from gazala_tools.hexgrid import MapLayout

__all__ = ["BOARDS_HELP", "HELP", "NOUN", "load_layout", "read_points", "register", "with_boards"]

NOUN = "grid"
HELP = "Pixel <-> hex for a VASSAL map: location names and hex centres, VASSAL-exact."


BOARDS_HELP = ("the boards laid out, as a game's SetBoards command: BOARD[:COLUMN:ROW],... (default: those of a "
               "new game: the BoardPicker's default set-up or its one board; a map of several boards with no "
               "default set-up has none until the player chooses, so every point is offboard)")


def register(parser: argparse.ArgumentParser) -> None:
    verbs = parser.add_subparsers(dest="verb", metavar="VERB", required=True)

    loc = verbs.add_parser(
        "locate",
        help="the location name VASSAL shows for map point(s), and where a piece dropped there snaps",
        description="Print `name snapped_x snapped_y` for map point X Y (map coordinates, as in saves), "
        "or one such line per point of --points FILE (one `x y` per line; `-` reads stdin).",
    )
    loc.add_argument("source", help="a .vmod, a buildFile.xml/buildFile, " + _common.game_help())
    loc.add_argument("x", nargs="?", type=int)
    loc.add_argument("y", nargs="?", type=int)
    loc.add_argument("--map", dest="map_name", help="the map's name (default: the first map with a grid)")
    loc.add_argument("--points", help="file of `x y` lines, or - for stdin")
    loc.add_argument("--boards", help=BOARDS_HELP)
    loc.add_argument(
        "--engine",
        default="3.7",
        choices=("3.6", "3.7"),
        help="snap like VASSAL 3.7+ (hexagon-exact, default) or <= 3.6 (rectangular cells); names are the same",
    )
    loc.add_argument("--json", action="store_true", help="JSON output")
    loc.set_defaults(func=_locate)

    cen = verbs.add_parser("center", help="the pixel centre (map coordinates) of a named hex")
    cen.add_argument("source", help="a .vmod, a buildFile.xml/buildFile, " + _common.game_help())
    cen.add_argument("name", help="a location name, e.g. 0104")
    cen.add_argument("--map", dest="map_name")
    cen.add_argument("--boards", help=BOARDS_HELP)
    cen.add_argument("--json", action="store_true")
    cen.set_defaults(func=_center)


def load_layout(source: str, map_name: str | None, boards: str | None = None) -> MapLayout:
    """The map layout for a module/buildFile path, or a game (built-in id or game folder); ``boards``
    (``--boards``) lays out those boards instead of a new game's."""
    path = Path(source)
    if (path.exists() and not path.is_dir()) or (path.is_dir() and not (path / "game.yaml").is_file()):
        from gazala_tools.vassal.buildfile import find_layout, read_layouts

        layout = find_layout(read_layouts(path), map_name, path)
        return with_boards(layout, boards, source) if boards is not None else layout
    if boards is not None:
        raise GazalaError("--boards is for a module's map, not a game of ours (its map has one board)",
                          file=source, expected="a .vmod or buildFile with --boards")
    from gazala_tools.vassal.gamelayout import layout_for_game

    return layout_for_game(source)


def with_boards(layout: MapLayout, spec: str, source: str) -> MapLayout:
    """``layout`` with the boards of ``--boards BOARD[:COLUMN:ROW],...`` laid out (a SetBoards command)."""
    from gazala_tools.hexgrid import layout_with_boards

    placements: list[tuple[str, int, int]] = []
    for item in (x.strip() for x in spec.split(",")):
        name, *where = item.split(":")
        try:
            col, row = (int(where[0]), int(where[1])) if len(where) == 2 else (0, 0) if not where else (-1, -1)
        except ValueError:
            col, row = -1, -1
        if not name or col < 0 or row < 0:
            raise GazalaError(f"--boards item {item!r} is not BOARD or BOARD:COLUMN:ROW", file=source,
                              expected="board names of the map, each with an optional :column:row (0 or more)")
        placements.append((name, col, row))
    try:
        return layout_with_boards(layout, placements)
    except VassalFormatError as exc:
        names = ", ".join(repr(b.name) for b in layout.all_boards)
        raise GazalaError(f"--boards: {exc.problem}", file=source, expected=f"boards of the map: {names}") from None


def _no_boards_note(layout: MapLayout) -> None:
    if layout.choose_boards and not layout.boards:
        sys.stderr.write(f"note: map {layout.name!r} has several boards and no default set-up: VASSAL asks the player "
                         "to choose them (Choose Boards) and lays out none until then, so every point is offboard; "
                         "--boards lays some out\n")


def read_points(spec: str) -> list[tuple[int, int]]:
    if spec == "-":
        text = sys.stdin.read()
        name = "<stdin>"
    else:
        from gazala_tools.inputs import read_text

        text = read_text(spec, what="points file", cap=64 * 1024 * 1024)
        name = spec
    points: list[tuple[int, int]] = []
    for lineno, line in enumerate(text.splitlines(), 1):
        stripped = line.split("#", 1)[0].strip()
        if not stripped:
            continue
        parts = stripped.replace(",", " ").split()
        try:
            if len(parts) != 2:
                raise ValueError
            if max(len(parts[0]), len(parts[1])) > 12:  # map coordinates; no 4,300-digit int()
                raise ValueError
            points.append((int(parts[0]), int(parts[1])))
        except ValueError:
            raise GazalaError(
                f"bad point {line.strip()!r}", file=name, place=f"line {lineno}", expected="two integers `x y`"
            ) from None
    return points


def _locate(args: argparse.Namespace) -> int:
    if args.points is not None:
        if args.x is not None:
            raise GazalaError("give either X Y or --points, not both")
        points = read_points(args.points)
    else:
        if args.x is None or args.y is None:
            raise GazalaError("locate needs X Y or --points FILE")
        points = [(args.x, args.y)]
    layout = load_layout(args.source, args.map_name, args.boards)
    _no_boards_note(layout)
    results = []
    for x, y in points:
        loc = layout.locate(x, y, version=args.engine)
        results.append({"x": x, "y": y, "name": loc.name, "board": loc.board, "snapped": list(loc.snapped)})
    if args.json:
        out: object = results if args.points is not None else results[0]
        print(json.dumps(out))
    else:
        sys.stdout.write("".join(f"{r['name']} {r['snapped'][0]} {r['snapped'][1]}\n" for r in results))  # type: ignore[index]
    return 0


def _center(args: argparse.Namespace) -> int:
    path = Path(args.source)
    if path.exists() and not (path.is_dir() and (path / "game.yaml").is_file()):  # a module or buildFile
        from gazala_tools.vassal.buildfile import find_layout, read_layouts

        layouts = read_layouts(path)
        candidates = [find_layout(layouts, args.map_name, path)] if args.map_name or args.boards else layouts
        if args.boards is not None:
            candidates = [with_boards(candidates[0], args.boards, args.source)]
        for layout in candidates:
            _no_boards_note(layout)
    else:  # one of our games: the map data knows which hexes exist
        from gazala_tools.mapdata import load_map
        from gazala_tools.vassal.gamelayout import layout_for_game

        try:
            load_map(args.source).hex(args.name)
        except GazalaError as exc:
            raise GazalaError(exc.problem, file=exc.file or args.source, expected=exc.expected) from None
        if args.boards is not None:
            raise GazalaError("--boards is for a module's map, not a game of ours (its map has one board)",
                              file=args.source, expected="a .vmod or buildFile with --boards")
        candidates = [layout_for_game(args.source)]
    problems: list[str] = []
    for layout in candidates:
        try:
            x, y = layout.center_of(args.name)
        except ValueError as exc:
            problems.append(str(exc))
            continue
        if args.json:
            print(json.dumps({"name": args.name, "map": layout.name, "x": x, "y": y}))
        else:
            print(f"{x} {y}")
        return 0
    raise GazalaError(
        "; ".join(problems) or f"no map has a hex named {args.name!r}",
        file=args.source,
        expected="a location name of one of the module's hex grids",
    )
