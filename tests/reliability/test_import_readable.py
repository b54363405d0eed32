"""Issue 31 item 7 and the "Smaller" list: ``game import`` writes only what the toolkit's own readers take
(``game show``, ``map check``, ``counters list``), or refuses the module with the reason; the imported
folder and its rebuild end cleanly on what a hand edit can put in them.

Each module is the Ragnarok module folder with one change the red team made. Before this issue each imported
(exit 0) and the folder was then refused by every reader (exit 2), or the rebuild or lint ended in exit 3 /
a message naming no file.
"""

from __future__ import annotations

import re
import shutil
import struct
import zlib
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml

from gazala_tools.vsav.container import read_container
from gazala_tools.vsav.writer import build_zip, encode_savefile
from tools.cliproc import gazala

READERS = [("game", "show"), ("map", "check"), ("counters", "list")]


@pytest.fixture(scope="module")
def module_folder(corpus_dir: Path) -> Path:
    return corpus_dir / "hex-n-counters-template" / "ragnarok"


def _variant(src: Path, dst: Path, edit: Callable[[str, Path], str]) -> Path:
    shutil.copytree(src, dst)
    xml = (dst / "buildFile.xml").read_text(encoding="utf-8")
    (dst / "buildFile.xml").write_text(edit(xml, dst), encoding="utf-8")
    return dst


def _roster(*names: str) -> Callable[[str, Path], str]:
    def edit(xml: str, _d: Path) -> str:
        old = "<entry>Aesir</entry>\n        <entry>Jotun</entry>"
        assert old in xml
        return xml.replace(old, "".join(f"<entry>{n}</entry>" for n in names))
    return edit


def _read_back(folder: Path, cwd: Path) -> None:
    """Every reader takes the folder: game show and counters list exit 0, map check finds no failure."""
    for verb in READERS:
        ended = gazala(*verb, folder, cwd=cwd)
        assert ended.clean(0), (verb, ended)


@pytest.mark.parametrize(("names", "ids"), [
    (("Axis", "AXIS"), ["axis", "axis-2"]),  # one slug for two sides: game.yaml refused "side 'axis' listed twice"
    (("Aesir", "Aesir", "Jotun"), ["aesir", "jotun"]),  # a side listed twice is one side
    (("A" * 5000, "Jotun"), ["a" * 40, "jotun"]),  # a 5,000-character id was over the 4,000-character cap
])
def test_roster_sides_import_as_sides_the_readers_take(module_folder: Path, tmp_path: Path, names: tuple[str, ...],
                                                      ids: list[str]) -> None:
    mod = _variant(module_folder, tmp_path / "mod", _roster(*names))
    ended = gazala("game", "import", mod, tmp_path / "imp", cwd=tmp_path)
    assert ended.clean(0), ended
    sides = yaml.safe_load((tmp_path / "imp" / "game.yaml").read_text(encoding="utf-8"))["sides"]
    assert [s["id"] for s in sides] == ids
    assert all(len(s["name"]) <= 200 for s in sides)
    _read_back(tmp_path / "imp", tmp_path)


def test_a_numbering_game_yaml_cannot_hold_refuses_the_import(module_folder: Path, tmp_path: Path) -> None:
    """``hLeading=32``: VASSAL takes it, game.yaml's numbering does not (0..8): the import says so and writes
    nothing."""
    mod = _variant(module_folder, tmp_path / "mod", lambda xml, _d: xml.replace('hLeading="1"', 'hLeading="32"', 1))
    ended = gazala("game", "import", mod, tmp_path / "imp", cwd=tmp_path)
    assert ended.clean(), ended
    assert "cannot be imported" in ended.err[0] and "numbering.hLeading: 32" in ended.err[0]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mod"]


def test_slots_past_the_counters_yaml_cap_refuse_the_import(module_folder: Path, tmp_path: Path) -> None:
    """2,500 slots of 3.3 KB: a counters.yaml of 9 MB, over the 8 MiB a game folder's data file may be."""
    def many(xml: str, _d: Path) -> str:
        slot = re.search(r"<VASSAL.build.widget.PieceSlot[^>]*>[^<]*</VASSAL.build.widget.PieceSlot>", xml)
        assert slot is not None
        body = slot.group(0).split(">", 1)[1].rsplit("<", 1)[0]
        padded = slot.group(0).replace(body, body + "\\\t" + "x" * 3000)
        copies = (re.sub(r'gpid="[^"]*"', f'gpid="{90000 + i}"', padded) for i in range(2500))
        return xml.replace(slot.group(0), slot.group(0) + "".join(copies), 1)

    mod = _variant(module_folder, tmp_path / "mod", many)
    ended = gazala("game", "import", mod, tmp_path / "imp", cwd=tmp_path)
    assert ended.clean(), ended
    assert "counters.yaml would be" in ended.err[0]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mod"]


def _png_declaring(w: int, h: int) -> bytes:
    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(b"\0" * 1000)) + chunk(b"IEND", b""))


def test_a_face_over_the_counter_art_cap_is_drawn(module_folder: Path, tmp_path: Path) -> None:
    """A face whose PNG header says 100,000 x 100,000: the counter is drawn, not given art no reader opens."""
    def bomb(xml: str, d: Path) -> str:
        (d / "images" / "hero-odin.png").write_bytes(_png_declaring(100_000, 100_000))
        return xml

    mod = _variant(module_folder, tmp_path / "mod", bomb)
    ended = gazala("game", "import", mod, tmp_path / "imp", cwd=tmp_path)
    assert ended.clean(0), ended
    markers = yaml.safe_load((tmp_path / "imp" / "counters.yaml").read_text(encoding="utf-8"))["markers"]
    odin = next(m for m in markers if m["id"].startswith("hero-odin-"))
    assert "art" not in odin
    _read_back(tmp_path / "imp", tmp_path)
    assert gazala("counters", "contact", tmp_path / "imp", "-o", tmp_path / "c.png", cwd=tmp_path).clean(0)


def test_art_named_without_an_image_suffix_is_art_the_readers_take(corpus_dir: Path, tmp_path: Path) -> None:
    """The jzhex template names its piece images ``counter-white`` (no suffix): counters.yaml named them as
    they were, and ``counters list`` refused the folder. Now a copy under the format's suffix."""
    vmod = corpus_dir / "hex-n-counters-template" / "jzhex-n-counters-template-v12-379.vmod"
    ended = gazala("game", "import", vmod, tmp_path / "imp", cwd=tmp_path)
    assert ended.clean(0), ended
    markers = yaml.safe_load((tmp_path / "imp" / "counters.yaml").read_text(encoding="utf-8"))["markers"]
    arts = [f for m in markers for f in m.get("art", {}).values()]
    assert arts and all(Path(a).suffix in (".png", ".gif", ".jpg", ".jpeg", ".svg") for a in arts)
    _read_back(tmp_path / "imp", tmp_path)


# --- imported labels: map check and docs/module.md agree ------------------------------------------------
@pytest.fixture(scope="module")
def imported(module_folder: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("imported") / "imp"
    assert gazala("game", "import", module_folder, out, cwd=out.parent).clean(0)
    return out


def test_imported_ragnarok_passes_map_check(imported: Path) -> None:
    """docs/module.md: each hex keeps the module's label. The zone's grid counts its rows from the zone (18),
    map.yaml's from the board (25): map.yaml stated 18 and `map check` found 459 hexes VASSAL (counting from
    the board) names otherwise; now the board's count with the offset moved 7, and every label the same."""
    ended = gazala("map", "check", imported, cwd=imported.parent)
    assert ended.clean(0), ended
    grid = yaml.safe_load((imported / "map.yaml").read_text(encoding="utf-8"))["grid"]
    numbering = yaml.safe_load((imported / "game.yaml").read_text(encoding="utf-8"))["numbering"]
    assert grid["max_rows"] == 25 and numbering["hOff"] == -7


def test_each_imported_hex_is_named_as_the_module_names_it(imported: Path, module_folder: Path) -> None:
    """Every hex centre of the imported map: ``grid locate`` of the folder and of the module agree (the
    folder said 0801 where the module says 0101)."""
    from gazala_tools.mapdata.loader import load_map
    from gazala_tools.vassal.buildfile import read_layouts
    from gazala_tools.vassal.gamelayout import layout_for_game

    game_map = load_map(imported)
    module = next(lay for lay in read_layouts(module_folder) if lay.name == "Main Map")
    ours = layout_for_game(imported)
    geo = game_map.geometry()
    for h in game_map.hexes():
        x, y = (round(v) for v in geo.hex_center(h))
        theirs, mine = module.locate(x, y), ours.locate(x, y)
        assert theirs is not None and mine is not None
        assert theirs.name == mine.name == game_map.label(h)


# --- what a hand edit can put in an imported folder, and a save a module cannot open ------------------------
def test_a_control_character_in_an_edited_slot_names_the_counter(imported: Path, tmp_path: Path) -> None:
    folder = tmp_path / "edited"
    shutil.copytree(imported, folder)
    counters = folder / "counters.yaml"
    text = counters.read_text(encoding="utf-8")
    assert "prototype;Unit-Side1" in text
    counters.write_text(text.replace("prototype;Unit-Side1", "prototype;Unit\\x01Side1", 1), encoding="utf-8")
    ended = gazala("module", "build", folder, "-o", tmp_path / "out.vmod", cwd=tmp_path)
    assert ended.clean(), ended
    assert re.search(r"counters.yaml:markers\[\d+\]: counter 'inf-[^']+': its vassal: slot holds '\\x01'", ended.err[0])
    assert not (tmp_path / "out.vmod").exists()


def test_lint_of_a_setup_save_naming_a_board_the_module_lacks(module_folder: Path, tmp_path: Path) -> None:
    """One finding naming the set-up and the board (was exit 2: "board 'NoSuchBoard' is not a board of map
    'Main Map'", no file named)."""
    mod = tmp_path / "mod"
    shutil.copytree(module_folder, mod)
    save = mod / "ragnarok-start.vsav"
    c = read_container(save)
    assert "BoardPicker\tMap\t0\t0" in c.text
    text = c.text.replace("BoardPicker\tMap\t0\t0", "BoardPicker\tNoSuchBoard\t0\t0")
    entries = list(c.entries)
    assert c.save_info is not None
    entries.insert(c.save_index, (c.save_info, encode_savefile(text, encoding=c.encoding, key=c.key)))
    save.write_bytes(build_zip(entries))
    ended = gazala("module", "lint", mod, cwd=tmp_path, stdout=str(tmp_path / "lint.txt"))
    assert ended.clean(1) and ended.err == [], ended
    findings = (tmp_path / "lint.txt").read_text(encoding="utf-8").splitlines()
    board = [f for f in findings if "NoSuchBoard" in f]
    assert len(board) == 1 and board[0].startswith("error: [save] VASSAL.build.module.PredefinedSetup[name=At Start]")
