"""``gazala game``: the games this installation knows, and what a game folder holds."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gazala_tools.cli import _common
from gazala_tools.fileio import atomic_write_bytes
from gazala_tools.games.scenarios import load_scenarios
from gazala_tools.wording import count

if TYPE_CHECKING:  # pragma: no cover
    from gazala_tools.games.scenarios import Scenario

__all__ = ["HELP", "NOUN", "register"]

NOUN = "game"
HELP = "Games as data: list the built-in games, show what a game folder holds."


def register(parser: argparse.ArgumentParser) -> None:
    verbs = parser.add_subparsers(dest="verb", metavar="VERB", required=True)
    ls = verbs.add_parser("list", help="the built-in games (the default first)")
    ls.add_argument("--json", action="store_true", help="JSON output")
    ls.set_defaults(func=_list)

    show = verbs.add_parser("show", help="a game's id, name, sides, turns, numbering, files and rules plugin")
    show.add_argument("game", help=_common.game_help())
    show.add_argument("--json", action="store_true", help="JSON output")
    show.set_defaults(func=_show)

    sc = verbs.add_parser(
        "scenario",
        help="write a scenario's set-up as a position YAML (-o FILE.yaml) or a VASSAL save (-o FILE.vsav)",
        description="Write the set-up of one of a game's scenarios (`gazala game show GAME` lists them): a "
        "position YAML for `gazala referee check`, or the .vsav the game's module opens (the same save "
        "`gazala module build` puts in the module; build the module with `gazala module build GAME`).",
    )
    sc.add_argument("game", metavar="GAME", help=_common.game_help())
    sc.add_argument("name", metavar="NAME", help="the scenario's id or name")
    sc.add_argument("-o", "--output", required=True, help="FILE.yaml (position YAML) or FILE.vsav (VASSAL save)")
    sc.set_defaults(func=_scenario)
    _add_new(verbs)
    _add_import(verbs)


def _add_new(verbs: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    new = verbs.add_parser(
        "new",
        help="make a game folder from a scan: fitted VASSAL grid, the scan as board art, starter counters",
        description="Fit the VASSAL grid to the scan (detected, or from --ref hexes, or --grid), then write "
        "DIR: game.yaml, map.yaml (grid + terrain), the scan as board art, a starter counters.yaml, "
        "scenarios.yaml and module.yaml. Then: gazala module build DIR -o DIR.vmod.",
    )
    new.add_argument("folder", metavar="DIR", help="the new game folder (must not exist, or be empty)")
    new.add_argument("--image", required=True, help="the scan of the map (PNG, JPEG or GIF; becomes the board)")
    new.add_argument("--ref", action="append", default=[], metavar="LABEL=X,Y",
                     help="the printed label of the hex whose centre is at pixel X,Y (repeat; one fixes the names)")  # fmt: skip
    new.add_argument("--numbering", default="vassal-default",
                     help="how hexes are named: vassal-default, a game id or folder, or HexGridNumbering "
                     "attributes as KEY=VALUE,... (e.g. first=V,sep=-,vType=A)")  # fmt: skip
    new.add_argument("--grid", help="a grid YAML (digitize calibrate/detect-grid -o) instead of detecting")
    new.add_argument("--legend", help="a colour legend YAML: classify each hex's terrain into map.yaml")
    new.add_argument("--name", help="the game's name (default: the folder name)")
    new.add_argument("--id", dest="game_id", help="the game id (default: from the folder name)")
    new.add_argument("--sides", default="First Side,Second Side", help="the two sides' names, comma separated")
    new.add_argument("--turns", type=int, default=10, help="turns on the turn record (default 10)")
    new.add_argument("--no-overlay", action="store_true",
                     help="do not write overlay.png (the fitted grid and its labels drawn on the scan)")
    new.add_argument("--json", action="store_true", help="print what was written as JSON")
    new.set_defaults(func=_new)


def _add_import(verbs: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    imp = verbs.add_parser(
        "import",
        help="a game folder from a VASSAL module",
        description="Write a game folder from a VASSAL module (.vmod, an unzipped module folder, or a buildFile): "
        "game.yaml (name, the roster's sides, the numbering), map.yaml (the first board with a numbered hex grid), "
        "counters.yaml (every piece slot as a counter with its own front and back art and its definition kept), "
        "module.yaml (every map with its boards, grids, zones and regions, decks, dice, turn trackers, charts, help "
        "pages and set-ups as data, and the module's components as written), vmod/ (the module's files, byte for "
        "byte) and import-report.yaml (counts: imported, kept verbatim, not understood). `gazala module build DIR` "
        "gives the module back. Read-only on the module; the folder is written all or nothing "
        "(`gazala help module`).",
    )
    _common.add_module_source(imp)
    imp.add_argument("folder", metavar="DIR", help="the new game folder (must not exist, or be empty)")
    imp.add_argument("--json", action="store_true", help="print the import report's counts as JSON")
    imp.add_argument("--update", action="store_true",
                     help="DIR is a folder imported before: read the module again, keep every edit you made to the "
                          "folder (units.yaml lines, game.yaml rules, your own files) and say what changed")
    imp.add_argument("--words", metavar="FILE",
                     help="a word table (JSON or YAML: unit-types, unit-words, marker-words, ...) added to the "
                          "importer's own for telling units from markers (`gazala help module`)")
    imp.set_defaults(func=_import)


def _summary(game: Any) -> dict[str, Any]:
    files = {
        name: str(path) if path is not None and path.is_file() else None
        for name, path in (
            ("game", game.source_file), ("map", game.map_file), ("counters", game.counters_file),
            ("scenarios", game.scenarios_file), ("tables", game.tables_file), ("module", game.module_config),
        )
    }  # fmt: skip
    return {
        "id": game.id,
        "name": game.name,
        "builtin": game.builtin,
        "folder": str(game.folder),
        "provenance": game.provenance,
        "sides": [{"id": s.id, "name": s.name, "color": s.color} for s in game.sides],
        "turns": list(game.turns),
        "numbering": game.numbering.vassal_attrs(),
        "numbering_text": game.numbering.describe(),
        "plugin": game.plugin,
        "files": files,
        "scenarios": [{"id": sc.id, "name": sc.name, "start": sc.start, "end": sc.end} for sc in load_scenarios(game)],
    }


def _list(args: argparse.Namespace) -> int:
    from gazala_tools.games import builtin_games

    games = [_summary(g) for g in builtin_games()]
    if args.json:
        print(json.dumps(games, indent=2))
        return 0
    for i, g in enumerate(games):
        print(f"{g['id']:<14} {g['name']}{'  (default)' if i == 0 else ''}")
    return 0


def _show(args: argparse.Namespace) -> int:
    from gazala_tools.games import find_game

    g = _summary(find_game(args.game))
    if args.json:
        print(json.dumps(g, indent=2))
        return 0
    print(f"{g['id']}: {g['name']}  ({g['provenance']}{', built in' if g['builtin'] else ''})")
    print(f"  folder    {g['folder']}")
    print("  sides     " + ", ".join(f"{s['name']} ({s['id']})" for s in g["sides"]))
    turns = g["turns"]
    print(f"  turns     {len(turns)}" + (f": {turns[0]} .. {turns[-1]}" if turns else " (no turn record)"))
    print(f"  numbering {g['numbering_text']}")
    print(f"  rules     {g['plugin'] or 'rules data only (no plugin)'}")
    for name, path in g["files"].items():
        print(f"  {name:<9} {path or '-'}")
    if g["scenarios"]:
        print(f"  {count(len(g['scenarios']), 'scenario')} (gazala game scenario {g['id']} ID -o FILE.yaml|.vsav):")
        for sc in g["scenarios"]:
            print(f"    {sc['id']:<16} {sc['name']}")
    return 0


def _scenario(args: argparse.Namespace) -> int:
    from gazala_tools.errors import GazalaError
    from gazala_tools.games import find_game
    from gazala_tools.games.scenarios import find_scenario

    out = Path(args.output)
    kind = out.suffix.lower()
    if kind not in (".yaml", ".yml", ".vsav"):
        raise GazalaError(f"cannot tell what to write from {out.name!r}", place="-o",
                          expected="a FILE.yaml (position YAML) or FILE.vsav (VASSAL save)")
    game = find_game(args.game)
    chosen = find_scenario(game, args.name, place="NAME")
    from gazala_tools.vassal.importer.rebuild import is_imported

    if is_imported(args.game):  # a folder of `game import`: the module's own save of the set-up
        return _imported_scenario(args.game, chosen, out)
    from gazala_tools.vassal.module import build_game_module

    result = build_game_module(game)
    member = next((sc.file for sc in result.spec.scenarios if sc.name == chosen.name), None)
    if member is None:
        raise GazalaError(f"the module build configuration leaves scenario {chosen.id!r} out", file=game.module_config,
                          place="scenarios", expected=f"{chosen.id} among the module's scenarios")
    from gazala_tools.inputs import ZipInput

    with ZipInput(result.data, file=game.name, what="module") as zf:  # the one boundary of every zip member
        save = zf.read(member)
    if kind == ".vsav":
        atomic_write_bytes(out, save)
    else:
        atomic_write_bytes(out, _position_yaml(args.game, save, result.data).encode("utf-8"))
    placed = next(sc for sc in result.spec.scenarios if sc.file == member)
    print(f"{out}: {game.id}, {chosen.name}: {count(len(placed.placements), 'unit')} set up")
    return 0


def _imported_scenario(folder: str, chosen: Scenario, out: Path) -> int:
    """``game scenario`` of an imported folder: the set-up's save as the module holds it (byte for byte),
    or that save read back through the rebuilt module as a position YAML."""
    import tempfile

    from gazala_tools.vassal.importer.rebuild import rebuild
    from gazala_tools.vassal.importer.scenarios import setup_save

    save = setup_save(folder, chosen.id)
    if out.suffix.lower() == ".vsav":
        atomic_write_bytes(out, save)
    else:
        with tempfile.TemporaryDirectory(prefix="gazala-scenario-") as tmp:
            vmod = rebuild(folder, Path(tmp) / "module.vmod").output.read_bytes()
        atomic_write_bytes(out, _position_yaml(folder, save, vmod).encode("utf-8"))
    pieces = sum(len(p.counters) + len(p.units) for p in chosen.setup)
    print(f"{out}: {chosen.name}, the module's own set-up save: {count(pieces, 'piece')} set up")
    return 0


def _position_yaml(game_arg: str, save: bytes, vmod: bytes) -> str:
    """The position YAML of a set-up save: the save read back as ``referee check`` reads it (through the
    module it belongs to), so the YAML and the save give the same findings."""
    import tempfile

    import yaml

    from gazala_tools.referee.api import load_position
    from gazala_tools.referee.position import position_to_data

    with tempfile.TemporaryDirectory(prefix="gazala-scenario-") as tmp:
        (Path(tmp) / "setup.vsav").write_bytes(save)
        (Path(tmp) / "module.vmod").write_bytes(vmod)
        position, rules = load_position(Path(tmp) / "setup.vsav", game=game_arg, module=str(Path(tmp) / "module.vmod"),
                                         read_layouts=_common.read_layouts)
    data = position_to_data(position, labels=rules.map.grid, state_writers=rules.state_writers())
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True)


def _new(args: argparse.Namespace) -> int:
    from pathlib import Path

    from gazala_tools.digitize.image import open_image
    from gazala_tools.digitize.newgame import (
        OVERLAY,
        NewGame,
        board_image,
        board_name_for,
        fit_scan,
        folder_files,
        write_folder,
        write_overlay,
    )  # fmt: skip
    from gazala_tools.fileio import check_new_folder, note_input

    folder, image = Path(args.folder), Path(args.image)
    check_new_folder(folder)  # before the fit: not inside an input, a name the file system takes
    sides, game_id = _new_request(args, folder)
    board_name = board_name_for(image)
    note_input(image)
    grey = open_image(image, grey=True)  # the fit reads grey levels only (a 250 Mpx scan: 250 MB, not 1 GB)
    size = grey.size
    fitted = fit_scan(grey, refs=args.ref, numbering=args.numbering, grid_file=args.grid)
    del grey
    spec, notes = fitted.spec, fitted.notes
    # the colours only when they are read: the terrain, or a board larger than the scan
    img = open_image(image) if args.legend or fitted.board != size else None
    terrain = None
    if args.legend:
        terrain = _classified(img, spec, args.legend, image.name)
    new = NewGame(folder=folder, game_id=game_id, name=args.name or folder.resolve().name, sides=(sides[0], sides[1]),
                  turns=args.turns, provenance=f"digitized from {image.name}", terrain=terrain, notes=tuple(notes))  # fmt: skip
    files = folder_files(spec, new, board_name)
    inputs = [image] + [Path(p) for p in (args.grid, args.legend) if p]
    board = image if img is None or fitted.board == size else board_image(img, fitted.board, Path(board_name).suffix)
    def overlay(tmp: Path) -> None:
        write_overlay(img if img is not None else open_image(image), spec, tmp / OVERLAY)

    write_folder(folder, files, board, board_name, inputs, None if args.no_overlay else overlay)
    return _new_written(args, folder, image, game_id, sorted([*files, board_name, *([] if args.no_overlay else [OVERLAY])]),
                        spec, notes)


def _new_request(args: argparse.Namespace, folder: Path) -> tuple[tuple[str, ...], str]:
    """``game new``'s sides and game id, its sides, turns and id checked."""
    from gazala_tools.digitize.newgame import ID_RE
    from gazala_tools.errors import GazalaError
    from gazala_tools.games.writing import slug

    sides = tuple(s.strip() for s in args.sides.split(","))
    if len(sides) != 2 or not all(sides):
        raise GazalaError(f"bad --sides {args.sides!r}", place="--sides", expected="two names separated by a comma")
    if not 1 <= args.turns <= 1000:
        raise GazalaError(f"bad --turns {args.turns}", place="--turns", expected="1 to 1000")
    game_id = args.game_id or slug(folder.resolve().name)
    if not ID_RE.match(game_id):
        raise GazalaError(f"bad game id {game_id!r}", place="--id", expected="lower-case letters, digits and single hyphens")
    return sides, game_id


def _new_written(args: argparse.Namespace, folder: Path, image: Path, game_id: str, written: list[str], spec: Any,
                 notes: list[str]) -> int:
    """What ``game new`` wrote (``written``: the folder's files), as JSON or with the next steps."""
    from gazala_tools.digitize.newgame import OVERLAY, corner_labels

    g = spec.grid
    corners = corner_labels(spec)
    summary: dict[str, Any] = {
        "folder": str(folder), "id": game_id,
        "files": written,
        "grid": spec.vassal(), "hexes": sum(1 for _ in g.hexes()), "corners": corners, "notes": notes,
    }  # fmt: skip
    if args.json:
        print(json.dumps(summary, indent=2))
        return 0
    for n in notes:
        print(f"note: {n}")
    print(f"wrote {folder}/: {', '.join(summary['files'])} ({summary['hexes']} hexes, "
          f"columns {g.columns[0]}-{g.columns[1]}, rows {g.rows[0]}-{g.rows[1]})")  # fmt: skip
    print("corner hexes: " + ", ".join(f"{k} {v}" for k, v in corners.items()))
    print("next:")
    if args.no_overlay:
        print(f"  1. check the grid by eye:  gazala digitize overlay {image} --map {folder} -o overlay.png")
    else:
        print(f"  1. check the grid by eye:  open {folder / OVERLAY} (the grid and its labels on the scan)")
    print(f"  2. edit {folder}/game.yaml (sides, turns, rules), map.yaml (terrain, hexsides, places),")
    print("     counters.yaml (your counter mix) and scenarios.yaml (where units start)")
    print(f"  3. build the module:       gazala module build {folder} -o {game_id}.vmod")
    return 0


def _classified(img: Any, spec: Any, legend_file: str, image_name: str) -> dict[str, Any]:
    from gazala_tools.digitize.classify import classify_hexes, read_legend
    from gazala_tools.digitize.image import RgbRegions
    from gazala_tools.digitize.mapyaml import terrain_data

    legend = read_legend(legend_file)
    results = classify_hexes(RgbRegions(img), spec.geometry, list(spec.grid.hexes()), legend)
    terrain, _comments = terrain_data(spec, results, legend, source=f"digitized from {image_name}")
    return terrain


def _import(args: argparse.Namespace) -> int:
    from pathlib import Path

    from gazala_tools.fileio import check_new_folder
    from gazala_tools.vassal.importer.folder import import_folder

    if not args.update:
        check_new_folder(args.folder)  # before the module is read: never inside it (or its images/)
    report = import_folder(args.module, args.folder, words=args.words,
                           update=Path(args.folder) if args.update else None)
    units = report["units"]["counts"]
    if args.json:
        json.dump({"folder": args.folder, **report["counts"], "units": units,
                   **({"update": report["update"]} if "update" in report else {})}, sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        counted = ", ".join(f"{n} {k}" for k, n in report["counts"]["imported"].items())
        print(f"{args.folder}: imported from {args.module} ({counted}); {units['units']} units, {units['markers']} "
              f"markers, {units['not classified']} not classified (units.yaml); see import-report.yaml")
        for key, value in report.get("update", {}).items():
            if value:
                print(f"  {key}: {', '.join(value) if isinstance(value, list) else value}")
    return 0
