"""Issue 35 item 3: ``referee check SAVE --game DIR`` and ``referee log LOG --game DIR`` on the saves and logs of
an imported module (Ragnarok, CC0, read in place): the original module's and the rebuilt one's, the boards the
save chooses laid out as the engine lays them out. With the short rules file written from the game's rules
(``tests/games/ragnarok/rules.yaml``), the findings are computed here independently from the piece positions
the engine reports (its location names: Ragnarok's grid is numbered as map.yaml is)."""

from __future__ import annotations

import json
import re
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import pytest
import yaml

from gazala_tools.cli import main
from tests.vassal.importer.refcheck import check_json, rows_of

RULES = Path(__file__).resolve().parents[2] / "games" / "ragnarok" / "rules.yaml"
MAIN = "Main Map"
#: a Jotun hero into an Aesir stack (0505), Heimdall off his set-up hex, a Frost Giant beside them
MOVES = [
    {"piece": "hero-odin", "map": MAIN, "to": "0505"},
    {"piece": "hero-thor", "map": MAIN, "to": "0505"},
    {"piece": "hero-loki", "map": MAIN, "to": "0505"},
    {"piece": "unit-frost", "map": MAIN, "to": "0606"},
    {"piece": "hero-heimdall", "map": MAIN, "to": "0102"},
]


def with_rules(folder: Path) -> Path:
    """The user's step after the import: the game's rules in game.yaml (replacing the import's boxes)."""
    game = re.sub(r"^rules:\n(?:  .*\n)+", "", (folder / "game.yaml").read_text(encoding="utf-8"), flags=re.M)
    (folder / "game.yaml").write_text(game + "rules:" + RULES.read_text(encoding="utf-8").split("\nrules:", 1)[1],
                                      encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def folder(ragnarok: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("ref") / "ragnarok"
    assert main(["game", "import", str(ragnarok), str(out)]) == 0
    return with_rules(out)


def _sides(folder: Path) -> dict[str, tuple[str, str, str]]:
    """Piece name -> (counter id, kind, side), from units.yaml."""
    pieces = yaml.safe_load((folder / "units.yaml").read_text(encoding="utf-8"))["pieces"]
    return {e["name"]: (cid, e["kind"], e.get("side", "")) for cid, e in pieces.items()}


def expected(folder: Path, pieces: list[dict[str, Any]]) -> tuple[dict[str, str], set[str]]:
    """From the engine's pieces (name, map, location): the positions table's line of each occupied hex of the
    main grid, and the hexes where units of both sides stand (the enemy-sharing rule)."""
    table = _sides(folder)
    named: Counter[str] = Counter(table[p["name"]][0] for p in pieces if p["name"] in table)
    by_hex: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for p in pieces:
        cid, kind, side = table.get(p["name"], ("", "", ""))
        loc = p.get("location") or ""
        if kind != "unit" or p["map"] != MAIN or not (len(loc) == 4 and loc.isdigit()):
            continue
        uid = cid if named[cid] == 1 else f"{cid}#{p['id']}"
        by_hex[loc].append((side, uid))
    rows = {}
    for lab, us in by_hex.items():
        counts = ", ".join(f"{s} {n}" for s, n in sorted(Counter(s for s, _u in us).items()))
        rows[lab] = f"{lab}: {counts} ({', '.join(sorted(u for _s, u in us))})"
    return rows, {lab for lab, us in by_hex.items() if len({s for s, _u in us}) > 1}


def heimdall_moved(pieces: list[dict[str, Any]]) -> list[tuple[str, tuple[str, ...]]]:
    """4.0, on turn 1 (the save's tracker): Heimdall stands on hex 0101, or the rule is broken where he is."""
    at = next(p["location"] for p in pieces if p["name"] == "hero-heimdall")
    return [] if at == "0101" else [("4.0", (at,))]


def test_the_modules_own_set_up_save(folder: Path, ragnarok: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """4.0: "The Aesir player places the Heimdall counter on hex 0101": the set-up save is legal; every other
    unit waits in the deployment map's box."""
    rep = check_json(ragnarok / "ragnarok-start.vsav", folder, capsys, 0)
    assert rows_of(rep) == {"0101": "0101: aesir 1 (hero-heimdall-194)"}
    boxes = [f["message"] for f in rep["findings"] if f["rule"] == "positions" and f["message"].startswith("in ")]
    assert boxes == ["in deployment: aesir 48, jotun 36 unit(s)"]
    assert [f for f in rep["findings"] if f["severity"] == "error"] == []


def test_a_save_of_another_module_is_one_line_naming_both(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = Path(__file__).resolve().parents[2] / "fixtures" / "logs" / "rg-illegal.vlog"
    capsys.readouterr()
    assert main(["referee", "log", str(log), "--game", str(folder)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "'Ragnarok (SPI) 1981'" in err and "Gazala" in err


def test_a_save_of_a_module_whose_name_the_folder_writes_tidied(ragnarok: Path, tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    """game.yaml holds the module's name as one tidy line (spaces run together, control characters out, at
    most 200 characters); the module's own saves carry it as the module wrote it: still the same module."""
    import shutil
    import zipfile

    name = "Ragnarok  (SPI)\t1981"  # two spaces and a tab, as a module may write it
    module = tmp_path / "module"
    shutil.copytree(ragnarok, module)
    build = module / "buildFile.xml"
    build.chmod(0o644)
    build.write_text(build.read_text(encoding="utf-8").replace('name="Ragnarok (SPI) 1981"', 'name="Ragnarok  (SPI)&#9;1981"', 1),
                     encoding="utf-8")
    save = tmp_path / "start.vsav"
    with zipfile.ZipFile(ragnarok / "ragnarok-start.vsav") as src, zipfile.ZipFile(save, "w") as out:
        for info in src.infolist():
            data = src.read(info.filename)
            if info.filename == "moduledata":
                data = data.replace(b"<name>Ragnarok (SPI) 1981</name>", f"<name>{name}</name>".encode())
            out.writestr(info.filename, data)
    folder = tmp_path / "folder"
    assert main(["game", "import", str(module), str(folder)]) == 0
    assert yaml.safe_load((folder / "game.yaml").read_text(encoding="utf-8"))["name"] == "Ragnarok (SPI) 1981"
    rep = check_json(save, folder, capsys, 0)
    assert rows_of(rep) == {"0101": "0101: aesir 1 (hero-heimdall-194)"}


def test_a_save_of_the_module_after_the_user_renamed_the_game(folder: Path, ragnarok: Path, tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    """game.yaml is the user's (docs/module.md, step 2): a game renamed there is still the module's folder; its
    saves are matched by the module's name the import recorded (import-report.yaml ``module``)."""
    import shutil

    copy = tmp_path / "copy"
    shutil.copytree(folder, copy)
    text = (copy / "game.yaml").read_text(encoding="utf-8")
    (copy / "game.yaml").write_text(text.replace("name: Ragnarok (SPI) 1981", "name: Our Ragnarok", 1),
                                    encoding="utf-8")
    rep = check_json(ragnarok / "ragnarok-start.vsav", copy, capsys, 0)
    assert rows_of(rep) == {"0101": "0101: aesir 1 (hero-heimdall-194)"}


def test_a_misspelt_side_in_units_yaml_is_bad_input(folder: Path, ragnarok: Path, tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    import shutil

    copy = tmp_path / "copy"
    shutil.copytree(folder, copy)
    text = (copy / "units.yaml").read_text(encoding="utf-8")
    (copy / "units.yaml").write_text(text.replace("kind: unit, side: aesir, type: hero}", "kind: unit, side: asir, "
                                                                                           "type: hero}", 1),
                                     encoding="utf-8")
    capsys.readouterr()
    assert main(["referee", "check", str(ragnarok / "ragnarok-start.vsav"), "--game", str(copy)]) == 2
    err = capsys.readouterr().err
    assert "units.yaml" in err and "did you mean 'aesir'?" in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize(("old", "new", "place"), [
    ("main-grid: {map: Main Map, board: Map, zone: map}", "main-grid: [Main Map, Map]", "main-grid"),
    ("main-grid: {map: Main Map, board: Map, zone: map}", "main-grid: {map: [Main Map]}", "main-grid.map"),
    ("kind: unit, side: aesir, type: hero}", "kind: unit, side: aesir, type: [hero]}", ".type"),
    ("kind: unit, side: aesir, type: hero}", "kind: unit, side: aesir, type: hero, factors: {a: 1}}", ".factors"),
    ("kind: unit, side: aesir, type: hero}", "kind: unit, side: aesir, type: hero, factors: 2-x}", ".factors"),
], ids=["main-grid a list", "main-grid map a list", "type a list", "factors a mapping", "factors not numbers"])
def test_a_bad_value_in_units_yaml_is_one_line_naming_its_place(folder: Path, ragnarok: Path, tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str], old: str,
                                                                new: str, place: str) -> None:
    """The user's corrections are read as strictly as the rest of a game folder (main-grid a list was exit 3:
    AttributeError; a type or factors of another shape was taken as its Python text)."""
    import shutil

    copy = tmp_path / "copy"
    shutil.copytree(folder, copy)
    text = (copy / "units.yaml").read_text(encoding="utf-8")
    assert old in text
    (copy / "units.yaml").write_text(text.replace(old, new, 1), encoding="utf-8")
    capsys.readouterr()
    assert main(["referee", "check", str(ragnarok / "ragnarok-start.vsav"), "--game", str(copy)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and re.search(r"units\.yaml:\S*" + re.escape(place), err), err


def test_units_yaml_is_read_beside_a_counters_yaml_the_user_reformatted(folder: Path, ragnarok: Path, tmp_path: Path,
                                                                         capsys: pytest.CaptureFixture[str]) -> None:
    """counters.yaml is the user's too: written again by an editor with its lists indented (or an entry in flow
    style), its counters are still the module's pieces (was: every line of units.yaml "not a piece")."""
    import shutil

    copy = tmp_path / "copy"
    shutil.copytree(folder, copy)
    doc = yaml.safe_load((copy / "counters.yaml").read_text(encoding="utf-8"))
    text = yaml.safe_dump(doc, sort_keys=False, indent=4, width=200)
    text = re.sub(r"^(\s*)- id: (\S+)$", r"\1-   id: \2", text, count=3, flags=re.M)
    assert "\n- id:" not in text
    (copy / "counters.yaml").write_text(text, encoding="utf-8")
    rep = check_json(ragnarok / "ragnarok-start.vsav", copy, capsys, 0)
    assert rows_of(rep) == {"0101": "0101: aesir 1 (hero-heimdall-194)"}


def test_the_module_files_the_referee_reads_stay_in_the_folder(folder: Path, ragnarok: Path, tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    """The game folder is a sandbox (docs/games.md) for the referee too: a hand-edited module.yaml whose
    ``files:`` leaves the folder is refused naming it, as ``module build`` refuses it (was: the boards' images
    read from wherever it pointed)."""
    import shutil

    copy = tmp_path / "copy"
    shutil.copytree(folder, copy)
    outside = tmp_path / "outside"
    shutil.copytree(copy / "vmod", outside)
    cfg = copy / "module.yaml"
    text = cfg.read_text(encoding="utf-8")
    assert "  files: vmod\n" in text
    cfg.write_text(text.replace("  files: vmod\n", f"  files: {outside}\n", 1), encoding="utf-8")
    capsys.readouterr()
    assert main(["referee", "check", str(ragnarok / "ragnarok-start.vsav"), "--game", str(copy)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "module files folder" in err and str(outside) in err


def test_a_line_naming_a_piece_the_module_lacks_is_bad_input(folder: Path, ragnarok: Path, tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    import shutil

    copy = tmp_path / "copy"
    shutil.copytree(folder, copy)
    with (copy / "units.yaml").open("a", encoding="utf-8") as fh:
        fh.write("  hero-thro-196: {name: hero-thor, kind: unit, side: aesir, type: hero}\n")
    capsys.readouterr()
    assert main(["referee", "check", str(ragnarok / "ragnarok-start.vsav"), "--game", str(copy)]) == 2
    err = capsys.readouterr().err
    assert "hero-thro-196" in err and "did you mean 'hero-thor-196'?" in err and len(err.strip().splitlines()) == 1


# --- the engine: saves and a log written after moves ---------------------------------------------------------
@pytest.mark.vassal
def test_the_set_up_as_the_engine_opens_it(folder: Path, ragnarok_vmod: Path, vassal_harness: Any, tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    result = vassal_harness.run("setup", ragnarok_vmod, "At Start", tmp_path / "o", _moves(tmp_path, []))
    rows, shared = expected(folder, result["pieces"])
    rep = check_json(Path(result["saved"]), folder, capsys, 0)
    assert rows_of(rep) == rows and shared == set()


@pytest.mark.vassal
def test_a_save_after_moves(folder: Path, ragnarok_vmod: Path, vassal_harness: Any, tmp_path: Path,
                            capsys: pytest.CaptureFixture[str]) -> None:
    result = vassal_harness.run("setup", ragnarok_vmod, "At Start", tmp_path / "m", _moves(tmp_path, MOVES))
    rows, shared = expected(folder, result["pieces_after"])
    assert shared == {"0505"} and sorted(rows) == ["0102", "0505", "0606"]  # the engine put the pieces where the moves say
    rep = check_json(Path(result["saved"]), folder, capsys, 1)
    assert rows_of(rep) == rows
    errors = [(f["rule"], tuple(f["hexes"])) for f in rep["findings"] if f["severity"] == "error"]
    assert sorted(errors) == sorted([("stacking", (lab,)) for lab in shared] + heimdall_moved(result["pieces_after"]))


@pytest.mark.vassal
@pytest.mark.parametrize("rebuilt", [False, True], ids=["original", "rebuilt"])
def test_a_log_of_moves(rebuilt: bool, folder: Path, ragnarok_vmod: Path, vassal_harness: Any, tmp_path: Path,
                        capsys: pytest.CaptureFixture[str]) -> None:
    """The log the engine writes, of the original module and of the module rebuilt from the folder: every
    move read (unit, from, to) as the engine reports it, and the position at the end judged."""
    vmod = ragnarok_vmod
    if rebuilt:
        vmod = tmp_path / "rebuilt.vmod"
        assert main(["module", "build", str(folder), "-o", str(vmod)]) == 0
    log = tmp_path / "moves.vlog"
    written = vassal_harness.log_moves(vmod, "At Start", log, MOVES)
    _rows, shared = expected(folder, written["pieces_after"])
    table = _sides(folder)
    capsys.readouterr()
    assert main(["referee", "log", str(log), "--game", str(folder), "--json"]) == 1
    rep = json.loads(capsys.readouterr().out)
    engine_moves = [(table[m["name"]][0], m["to"]) for m in written["moves"]]
    assert [(m["unit"].split("#")[0], m["to"]) for m in rep["moves"]] == engine_moves
    assert [m["from"] for m in rep["moves"]] == ["deployment"] * 4 + ["0101"]
    ends = [f for f in rep["findings"] if f["kind"] == "position" and f["severity"] == "error"]
    assert sorted((f["rule"], tuple(f["hexes"])) for f in ends) == sorted(
        [("stacking", (lab,)) for lab in shared] + heimdall_moved(written["pieces_after"]))


def _moves(tmp_path: Path, moves: list[dict[str, Any]]) -> Path:
    tmp_path.mkdir(parents=True, exist_ok=True)
    f = tmp_path / "moves.json"
    f.write_text(json.dumps({"moves": moves}), encoding="utf-8")
    return f


@pytest.mark.parametrize("root", ["x", {"tag": "VASSAL.build.GameModule", "attributes": "y"}, ["a"]],
                         ids=["root text", "attributes text", "root a list"])
@pytest.mark.parametrize("verb", ["referee", "build"])
def test_a_hand_edited_module_root_is_one_line(folder: Path, ragnarok: Path, tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str], root: Any, verb: str) -> None:
    """module.yaml's ``vassal: root`` of another shape is bad input naming it, for the referee (which lays out
    the module's maps from it) and ``module build`` (was exit 3: AttributeError)."""
    import shutil

    copy = tmp_path / "copy"
    shutil.copytree(folder, copy)
    doc = yaml.safe_load((copy / "module.yaml").read_text(encoding="utf-8"))
    doc["vassal"]["root"] = root
    (copy / "module.yaml").write_text(yaml.safe_dump(doc), encoding="utf-8")
    capsys.readouterr()
    argv = (["referee", "check", str(ragnarok / "ragnarok-start.vsav"), "--game", str(copy)] if verb == "referee"
            else ["module", "build", str(copy), "-o", str(tmp_path / "out.vmod")])
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "module.yaml" in err and "vassal.root" in err
