"""Issue 35 item 1: ``game import`` decides for every piece whether it is a unit or a marker, and for each
unit its side, type, printed factors and movement allowance, from the evidence the module offers; every
fact carries its evidence in import-report.yaml, every piece not classified is listed with the reason,
and ``game import --update`` keeps the user's corrections (docs/module.md, "Referee your existing module")."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from gazala_tools.cli import main
from gazala_tools.vassal.importer.units import load_words, parse_factors, tokens
from gazala_tools.vsav import sequence
from gazala_tools.vsav.traits import make_piece

RULES = Path(__file__).resolve().parents[2] / "games" / "ragnarok" / "rules.yaml"


def _load(path: Path) -> Any:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def imported(ragnarok_imported: Path) -> Path:
    return ragnarok_imported


# --- Ragnarok: heroes, units and markers ---------------------------------------------------------------------
def test_ragnarok_heroes_units_and_markers_by_side_and_class(imported: Path) -> None:
    """2.3-2.5 of the game: each side has six heroes (their Endurance Level markers beside them), Aesir
    warriors, berserks and Valkyries, Jotun Fire and Frost Giants, and the Melee / Incapacitated markers; the
    module template's two leftover pieces (INF-XX-2-3-5, MEC-XX-8-8-12) name no side of the roster."""
    units = _load(imported / "import-report.yaml")["units"]
    assert units["counts"]["by side and class"] == {
        "aesir": {"berserk": 1, "hero": 6, "marker": 7, "valkyrie": 1, "warrior": 1},
        "jotun": {"fire": 1, "frost": 1, "hero": 6, "marker": 7},
        "no side": {"infantry": 1, "marker": 1, "mechanized": 1},
    }
    assert (units["counts"]["units"], units["counts"]["markers"], units["counts"]["not classified"]) == (19, 15, 0)


def test_every_inferred_fact_carries_its_evidence(imported: Path) -> None:
    inferred = _load(imported / "import-report.yaml")["units"]["inferred"]
    for cid, entry in inferred.items():
        facts = {k for k in ("kind", "side", "type", "factors", "move") if k in entry}
        assert facts <= set(entry["evidence"]), cid
    odin = inferred["hero-odin-195"]["evidence"]
    assert odin["side"] == ["property Side = 'Aesir', a side of the module's player roster"]
    assert odin["type"] == ["name has 'hero', a word of unit type 'hero'"]
    # an Endurance Level marker: no word says it, the set-up puts it on the main map's Endurance track
    assert "only off the main grid's hexes" in inferred["en-odin-189"]["evidence"]["kind"][0]
    inf = inferred["inf-xx-2-3-5-123-456-143"]
    assert (inf["factors"], inf["move"]) == ("2-3-5", 5)
    assert inf["evidence"]["factors"] == ["name has '2-3-5'"]


def test_units_yaml_is_the_result_one_line_a_piece(imported: Path) -> None:
    doc = _load(imported / "units.yaml")
    assert doc["main-grid"] == {"map": "Main Map", "board": "Map", "zone": "map"}
    assert doc["pieces"]["hero-loki-227"] == {"name": "hero-loki", "gpid": "227", "kind": "unit", "side": "jotun",
                                              "type": "hero"}
    assert doc["pieces"]["mkr-inc-230"]["kind"] == "marker"
    assert len(doc["pieces"]) == 34


# --- factors: names, images, properties; nonsense refused ----------------------------------------------------
WORDS = load_words()


@pytest.mark.parametrize(("text", "want"), [
    ("3-2 Rifle Bn", (3, 2)), ("4-4-6", (4, 4, 6)), ("INF-XX-2-3-5_123", (2, 3, 5)), ("tank_10-8-12.png", (10, 8, 12)),
    ("Odin", None), ("1/5 Pz", None),
])
def test_factors_read_from_a_name_or_an_image_name(text: str, want: tuple[int, ...] | None) -> None:
    got, _raw, bad = parse_factors(text, WORDS)
    assert (got, bad) == (want, None)


@pytest.mark.parametrize(("text", "why"), [
    ("Turn 1942-06-02", "above 99"), ("Code 1-2-3-4-5-6", "6 numbers"), ("Blank 0-0", "all zeros"),
])
def test_nonsense_factors_are_refused_with_the_reason(text: str, why: str) -> None:
    got, _raw, bad = parse_factors(text, WORDS)
    assert got is None and bad is not None and why in bad


def test_tokens_split_camel_case_and_separators() -> None:
    assert tokens("GameTurn") == ["game", "turn"]
    assert tokens("INF-XX-2-3-5_123_456") == ["inf", "xx", "2", "3", "5", "123", "456"]
    assert tokens("hero-odin-r.png") == ["hero", "odin", "r"]


def _slot(name: str, gpid: str, image: str = "", props: dict[str, str] | None = None, protos: tuple[str, ...] = ()) -> str:
    types = [f"prototype;{p}" for p in protos] + [f"mark;{k}" for k in (props or {})] + [f"piece;;;{image};{name}"]
    states = ["" for _ in protos] + list((props or {}).values()) + [f"null;0;0;{gpid};0"]
    piece = make_piece(types, states)
    text = sequence.encode(["+", "null", piece.type_string(), piece.state_string()], "/")
    e = {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"}
    esc = re.sub(r'[&<>"]', lambda m: e[m.group()], text)
    return (f'<VASSAL.build.widget.PieceSlot entryName="{esc_attr(name)}" gpid="{gpid}" height="64" width="64">'
            f"{esc}</VASSAL.build.widget.PieceSlot>")


def esc_attr(s: str) -> str:
    return s.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")


def synthetic_module(folder: Path, panels: dict[str, list[str]], protos: dict[str, str] | None = None) -> Path:
    """A module folder (buildFile.xml only): a roster Red / Blue, the palette ``panels`` of slots."""
    folder.mkdir(parents=True, exist_ok=True)
    proto_xml = "".join(
        f'<VASSAL.build.module.PrototypeDefinition description="" name="{n}">'
        f"{sequence.encode(['+', 'null', t, ''], '/')}</VASSAL.build.module.PrototypeDefinition>"
        for n, t in (protos or {}).items())
    body = "".join(f'<VASSAL.build.widget.PanelWidget entryName="{n}" fixed="false" nColumns="5" scale="1.0" '
                   f'vert="false">{"".join(slots)}</VASSAL.build.widget.PanelWidget>' for n, slots in panels.items())
    (folder / "buildFile.xml").write_text(
        '<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n'
        '<VASSAL.build.GameModule ModuleOther1="" ModuleOther2="" VassalVersion="3.7.9" description="" '
        'name="Synth" nextPieceSlotId="100" version="1.0">'
        '<VASSAL.build.module.PlayerRoster buttonText="" buttonToolTip=""><entry>Red</entry><entry>Blue</entry>'
        "</VASSAL.build.module.PlayerRoster>"
        f'<VASSAL.build.module.PrototypesContainer>{proto_xml}</VASSAL.build.module.PrototypesContainer>'
        '<VASSAL.build.module.PieceWindow allowHidingPieces="false" buttonText="Pieces" name="Pieces" '
        f'scale="1.0" text="Pieces">{body}</VASSAL.build.module.PieceWindow></VASSAL.build.GameModule>\n',
        encoding="utf-8")
    return folder


def test_a_module_of_every_kind_of_evidence(tmp_path: Path) -> None:
    """A side from a marker value or a palette folder; a type from a name word or a prototype; factors from
    the name, an image name or Attack/Defense/Movement properties; a piece of nonsense factors and no other
    evidence stays a counter with the reason; a piece with no evidence at all is listed as not classified."""
    module = synthetic_module(tmp_path / "m", {
        "Red": [_slot("1st Rifles 4-4-6", "1"), _slot("Cav Bde", "2", image="cav_3-2.png"),
                _slot("Guns", "3", props={"Attack": "6", "Defense": "2", "Movement": "3"}),
                _slot("Order 1942-06-02", "4"), _slot("Odd thing", "5")],
        "Pieces of both": [_slot("Blue Tank", "6", props={"Side": "Blue"}, protos=("Armour",)),
                           _slot("Blue VP", "7", props={"Side": "Blue"})],
    }, protos={"Armour": "piece;;;;/\tnull;0;0;;0"})
    out = tmp_path / "dir"
    assert main(["game", "import", str(module), str(out)]) == 0
    pieces = _load(out / "units.yaml")["pieces"]
    by_name = {e["name"]: e for e in pieces.values()}
    assert by_name["1st Rifles 4-4-6"] == {"name": "1st Rifles 4-4-6", "gpid": "1", "kind": "unit", "side": "red",
                                           "type": "infantry", "factors": "4-4-6", "move": 6}
    assert by_name["Cav Bde"]["type"] == "cavalry" and by_name["Cav Bde"]["factors"] == "3-2"
    assert by_name["Cav Bde"]["move"] == 2  # two factors: attack-move (the word table's factor-roles)
    guns = by_name["Guns"]
    assert (guns["type"], guns["factors"], guns["move"]) == ("artillery", "6-2-3", 3)
    assert by_name["Blue Tank"]["side"] == "blue" and by_name["Blue Tank"]["type"] == "armor"
    assert by_name["Blue VP"]["kind"] == "marker" and by_name["Blue VP"]["side"] == "blue"
    report = _load(out / "import-report.yaml")["units"]
    refused = {v["name"]: v["reason"] for v in report["not classified"].values()}
    assert by_name["Order 1942-06-02"]["kind"] == "counter"
    assert "1942-06-02" in refused["Order 1942-06-02"] and "above 99" in refused["Order 1942-06-02"]
    assert by_name["Odd thing"]["kind"] == "counter" and "no unit or marker word" in refused["Odd thing"]
    assert report["inferred"]["guns-3"]["evidence"]["factors"] == ["properties Attack = 6, Defense = 2, Movement = 3"]
    assert "palette folder 'Red'" in report["inferred"]["guns-3"]["evidence"]["side"][0]


def test_the_word_table_is_data_a_user_extends(tmp_path: Path) -> None:
    module = synthetic_module(tmp_path / "m", {"Red": [_slot("Samurai", "1"), _slot("Ashigaru", "2")]})
    assert main(["game", "import", str(module), str(tmp_path / "a")]) == 0
    assert {e["kind"] for e in _load(tmp_path / "a" / "units.yaml")["pieces"].values()} == {"counter"}
    words = tmp_path / "words.json"
    words.write_text(json.dumps({"unit-types": {"infantry": ["samurai", "ashigaru"]}}), encoding="utf-8")
    assert main(["game", "import", str(module), str(tmp_path / "b"), "--words", str(words)]) == 0
    got = _load(tmp_path / "b" / "units.yaml")["pieces"]
    assert {(e["kind"], e.get("type")) for e in got.values()} == {("unit", "infantry")}
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"unit-tpyes": {}}), encoding="utf-8")
    assert main(["game", "import", str(module), str(tmp_path / "c"), "--words", str(bad)]) == 2


@pytest.mark.parametrize("table", [{"factor-roles": {"a": ["attack", "move"]}}, {"factor-roles": {"2": "attack"}},
                                   {"factor-roles": {"3": ["attack", "move"]}}, {"max-factor": "x"},
                                   {"max-factor": 0}, {"max-factor": True}],
                         ids=["roles key", "roles not a list", "roles of another length", "max-factor text",
                              "max-factor 0", "max-factor bool"])
def test_a_bad_word_table_is_one_line_naming_the_key(tmp_path: Path, table: dict[str, Any],
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """``--words``: factor-roles maps a count of factors (2 to 4) to that many role names; max-factor is a
    whole number >= 1. Anything else is bad input naming the key (was exit 3: ValueError)."""
    module = synthetic_module(tmp_path / "m", {"Red": [_slot("Samurai", "1")]})
    words = tmp_path / "words.json"
    words.write_text(json.dumps(table), encoding="utf-8")
    capsys.readouterr()
    assert main(["game", "import", str(module), str(tmp_path / "a"), "--words", str(words)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and f"words.json:{next(iter(table))}" in err
    assert not (tmp_path / "a").exists()


# --- corrections and --update --------------------------------------------------------------------------------
def test_update_keeps_every_edit_and_says_what_changed(ragnarok: Path, tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "rg"
    assert main(["game", "import", str(ragnarok), str(out)]) == 0
    units = (out / "units.yaml").read_text(encoding="utf-8")
    units = units.replace("en-odin-189: {name: en-odin, gpid: '189', kind: marker, side: aesir}",
                          "en-odin-189: {name: en-odin, gpid: '189', kind: counter}")
    units = units.replace("unit-fire-231: {name: unit-fire, gpid: '231', kind: unit, side: jotun, type: fire}",
                          "unit-fire-231: {name: unit-fire, gpid: '231', kind: unit, side: jotun, type: fire-giant, "
                          "factors: 6-3-3, move: 3}")
    (out / "units.yaml").write_text(units, encoding="utf-8")
    game = re.sub(r"^rules:\n(?:  .*\n)+", "", (out / "game.yaml").read_text(encoding="utf-8"), flags=re.M)
    game += "rules:" + RULES.read_text(encoding="utf-8").split("\nrules:", 1)[1]
    (out / "game.yaml").write_text(game, encoding="utf-8")
    (out / "notes.txt").write_text("my notes\n", encoding="utf-8")
    capsys.readouterr()
    assert main(["game", "import", str(ragnarok), str(out), "--update"]) == 0
    said = capsys.readouterr().out
    assert "kept your edits: game.yaml, units.yaml: 2 line(s) you changed" in said and "notes.txt" in said
    assert (out / "game.yaml").read_text(encoding="utf-8") == game
    assert (out / "notes.txt").read_text(encoding="utf-8") == "my notes\n"
    text = (out / "units.yaml").read_text(encoding="utf-8")
    assert text.count("main-grid:") == 1 and text.startswith("# Written by `gazala game import`")
    pieces = _load(out / "units.yaml")["pieces"]
    assert pieces["en-odin-189"] == {"name": "en-odin", "gpid": "189", "kind": "counter"}
    assert pieces["unit-fire-231"]["type"] == "fire-giant" and pieces["unit-fire-231"]["factors"] == "6-3-3"
    assert pieces["hero-odin-195"]["kind"] == "unit"  # the lines not edited: the new inference
    assert main(["module", "build", str(out), "-o", str(tmp_path / "again.vmod")]) == 0
    # a second update: the kept lines stay, nothing else changes
    assert main(["game", "import", str(ragnarok), str(out), "--update"]) == 0
    assert _load(out / "units.yaml")["pieces"]["en-odin-189"]["kind"] == "counter"


def test_update_keeps_an_edited_main_grid(ragnarok: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """units.yaml's ``main-grid`` (where map.yaml's hexes are in the module) is the user's to correct too: an
    update keeps it as they wrote it, and says so; one they did not touch follows the module."""
    out = tmp_path / "rg"
    assert main(["game", "import", str(ragnarok), str(out)]) == 0
    units = (out / "units.yaml").read_text(encoding="utf-8")
    mine = "main-grid: {map: Main Map, board: Map}\n"
    units = units.replace("main-grid: {map: Main Map, board: Map, zone: map}\n", mine)
    assert mine in units
    (out / "units.yaml").write_text(units, encoding="utf-8")
    capsys.readouterr()
    for _ in range(2):  # the second update keeps it too
        assert main(["game", "import", str(ragnarok), str(out), "--update"]) == 0
        assert "units.yaml: 0 line(s) you changed, main-grid" in capsys.readouterr().out
        assert _load(out / "units.yaml")["main-grid"] == {"map": "Main Map", "board": "Map"}
    other = tmp_path / "rg2"
    assert main(["game", "import", str(ragnarok), str(other)]) == 0
    units = (other / "units.yaml").read_text(encoding="utf-8")
    (other / "units.yaml").write_text(units.replace("kind: unit, side: aesir, type: hero}", "kind: marker}", 1),
                                      encoding="utf-8")
    assert main(["game", "import", str(ragnarok), str(other), "--update"]) == 0
    assert _load(other / "units.yaml")["main-grid"] == {"map": "Main Map", "board": "Map", "zone": "map"}


def test_a_correction_naming_a_piece_the_module_lacks_is_bad_input(ragnarok: Path, tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "rg"
    assert main(["game", "import", str(ragnarok), str(out)]) == 0
    units = (out / "units.yaml").read_text(encoding="utf-8")
    (out / "units.yaml").write_text(units + "  hero-odim-195: {name: hero-odin, kind: unit, side: aesir}\n",
                                    encoding="utf-8")
    before = sorted(p.relative_to(out) for p in out.rglob("*"))
    capsys.readouterr()
    assert main(["game", "import", str(ragnarok), str(out), "--update"]) == 2
    err = capsys.readouterr().err
    assert "hero-odim-195" in err and "did you mean 'hero-odin-195'?" in err and len(err.strip().splitlines()) == 1
    assert sorted(p.relative_to(out) for p in out.rglob("*")) == before  # nothing changed


def test_update_refuses_a_folder_not_imported(ragnarok: Path, tmp_path: Path) -> None:
    (tmp_path / "x").mkdir()
    (tmp_path / "x" / "game.yaml").write_text("id: x\n", encoding="utf-8")
    assert main(["game", "import", str(ragnarok), str(tmp_path / "x"), "--update"]) == 2


def test_the_import_writes_each_file_once(ragnarok: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The 10,000-piece budget (benchmarks/bench_units.py): each data file is serialised once; the reading back
    reads the counters.yaml written (its art paths aside), the report is written once with what it records
    (was: the report twice, the manifest a third time for the reading back: a third of the import's time)."""
    from gazala_tools.vassal.importer import folder as importer

    dumped: list[str] = []
    real = importer.dump

    def counted(doc: Any, *args: Any, **kwargs: Any) -> str:
        dumped.append(next(iter(doc)))
        return str(real(doc, *args, **kwargs))

    monkeypatch.setattr(importer, "dump", counted)
    assert main(["game", "import", str(ragnarok), str(tmp_path / "rg")]) == 0
    assert sorted(dumped) == sorted(["main-grid", "provenance", "version", "module"])  # units, counters, module, report
    report = _load(tmp_path / "rg" / "import-report.yaml")
    for name, digest in report["written"].items():
        assert hashlib.sha256((tmp_path / "rg" / name).read_bytes()).hexdigest() == digest, name


def test_update_removes_what_a_killed_update_left(ragnarok: Path, tmp_path: Path) -> None:
    """Issue 31 item 3 for --update too: the new folder is assembled in a temporary folder named as every
    one (``.DIR.gazala-tmp-PID-...``), so the next run removes one a ``kill -9`` left behind (its process gone);
    no temporary folder is left beside DIR after an update."""
    import subprocess
    import sys

    from gazala_tools.fileio import TMP_FOLDER_MARK

    out = tmp_path / "rg"
    assert main(["game", "import", str(ragnarok), str(out)]) == 0
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    stale = tmp_path / f".rg{TMP_FOLDER_MARK}{gone.pid}-x1y2"
    (stale / "new" / "vmod").mkdir(parents=True)
    (stale / "new" / "vmod" / "big.png").write_bytes(b"\0" * 1000)
    assert main(["game", "import", str(ragnarok), str(out), "--update"]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rg"]


def test_a_killed_update_between_its_renames_is_undone_by_the_next(ragnarok: Path, tmp_path: Path) -> None:
    """Killed after the old folder was moved aside and before the new one took its place (a system without
    an atomic exchange of two folders): the next run puts the user's folder back, never removes it."""
    import subprocess
    import sys

    from gazala_tools.fileio import TMP_FOLDER_MARK
    from gazala_tools.vassal.importer.update import aside_prefix

    out = tmp_path / "rg"
    assert main(["game", "import", str(ragnarok), str(out)]) == 0
    (out / "notes.txt").write_text("mine\n", encoding="utf-8")
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    aside = tmp_path / f"{aside_prefix('rg')}{gone.pid}"
    out.rename(aside)
    assert TMP_FOLDER_MARK not in aside.name  # never one of the temporary folders a later run removes
    assert main(["game", "import", str(ragnarok), str(out), "--update"]) == 0
    assert (out / "notes.txt").read_text(encoding="utf-8") == "mine\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rg"]


def test_update_says_which_symbolic_links_it_does_not_keep(ragnarok: Path, tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    """A file the user linked into the folder is not followed (its target may lie anywhere) and not kept:
    the update says so instead of dropping it silently."""
    out = tmp_path / "rg"
    assert main(["game", "import", str(ragnarok), str(out)]) == 0
    (tmp_path / "rules.py").write_text("# mine\n", encoding="utf-8")
    (out / "rules.py").symlink_to(tmp_path / "rules.py")
    capsys.readouterr()
    assert main(["game", "import", str(ragnarok), str(out), "--update"]) == 0
    assert "not kept (symbolic links): rules.py" in capsys.readouterr().out
    assert _load(out / "import-report.yaml")["update"]["not kept (symbolic links)"] == ["rules.py"]


def test_update_from_another_module_is_one_line_naming_both(ragnarok: Path, jzhex: Path, tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    """--update reads a new version of the folder's module; another module (its saves name another module: the
    referee would refuse them) is refused naming both, the folder left as it was (was: replaced silently)."""
    from tools.cliproc import digest

    out = tmp_path / "rg"
    assert main(["game", "import", str(ragnarok), str(out)]) == 0
    before = digest(out)
    capsys.readouterr()
    assert main(["game", "import", str(jzhex), str(out), "--update"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "'Ragnarok (SPI) 1981'" in err and "Hex'n'Counters template" in err
    assert digest(out) == before


@pytest.mark.parametrize("exchange", [True, False], ids=["renameat2 exchange", "two renames"])
def test_the_swap_puts_the_new_folder_in_place(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, exchange: bool) -> None:
    import ctypes

    from gazala_tools.vassal.importer.update import _swap

    if not exchange:  # a C library without renameat2: the two renames through the aside folder
        monkeypatch.setattr(ctypes, "CDLL", lambda *a, **k: object())
    folder, staged, aside = tmp_path / "game", tmp_path / "tmp" / "new", tmp_path / ".game.gazala-aside-1"
    for d, text in ((folder, "old"), (staged, "new")):
        d.mkdir(parents=True)
        (d / "game.yaml").write_text(text, encoding="utf-8")
    _swap(staged, folder, aside)
    assert (folder / "game.yaml").read_text(encoding="utf-8") == "new"
    assert not aside.exists()
