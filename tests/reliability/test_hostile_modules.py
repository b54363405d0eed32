"""Hostile modules, saves and game folders of issue 31 (items 1, 2, 4, 5): each bounded before it is expanded.

Every case the issue lists is made small by a generator (``tools/fuzz/crafted.py``: a bzip2 member of 1 GiB
in under 1 KB, prototypes 4 x 100, 2.4 million empty elements, ``dx=inf`` ...) and run as its own
``gazala`` process, measured with ``wait4`` by a process of its own (the pytest process's RSS is not
inherited): exit 2 with one line naming the input (or the documented result), under 1 GiB and 30 s of CPU (on
a quiet machine its wall time; the wall time may be 180 s, for the shared machine), inputs unchanged. The
unit tests below pin each rule without a process.
"""

from __future__ import annotations

import struct
import zipfile
import zlib
from pathlib import Path

import pytest

from gazala_tools.errors import GameDataError, GazalaError, VassalFormatError
from gazala_tools.inputs import MAX_RATIO, XmlBudget, ZipInput, check_xml_budget, method_name
from tools.fuzz import crafted
from tools.fuzz.crafted import Member, bomb, deflated, module_zip, stored, zip_members


# --- every case of the issue, each its own process ------------------------------------------------------
@pytest.mark.parametrize("name", [pytest.param(n, marks=[pytest.mark.slow] if c.slow else [])
                                  for n, c in crafted.CASES.items()])
def test_issue_31_case_ends_cleanly_within_30_s_of_cpu_and_1_gib(name: str, tmp_path: Path) -> None:
    got = crafted.measure(name, tmp_path)
    assert got["ok"], got


# --- item 1: one rule for every compressed member ------------------------------------------------------
BODIES = {"empty": b"", "text": b"begin_save\x1b" + b"abc def " * 40_000, "random": bytes(range(256)) * 997}


@pytest.mark.parametrize("method", [zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED, zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA])
def test_1_every_method_reads_back_what_zipfile_wrote(method: int, tmp_path: Path) -> None:
    path = tmp_path / "m.zip"
    with zipfile.ZipFile(path, "w", method) as z:
        for name, body in BODIES.items():
            z.writestr(name, body)
    with ZipInput(path) as zf:
        for name, body in BODIES.items():
            assert zf.read(name) == body
            assert zf.read_head(name, 11) == body[:11]
            chunks: list[bytes] = []
            assert zf.copy(name, chunks.append) == len(body)
            assert max(map(len, chunks), default=0) <= 1 << 16  # a chunk at a time, whatever the method


@pytest.mark.parametrize("method", ["bzip2", "lzma", "deflate"])
def test_1_a_bomb_is_refused_before_its_gigabyte_is_inflated(method: str) -> None:
    """700 bytes of bzip2 that inflate to 1 GiB: refused at the ratio or size cap, having handed over at most
    the cap (zipfile's own reader inflated bzip2 and LZMA members in one call: 2.1 GiB)."""
    member = bomb("savedGame", method, 1 << 30 if method != "deflate" else 64 << 20)
    handed: list[int] = []
    with ZipInput(zip_members([member])) as zf, pytest.raises(GazalaError, match=r"zip bomb|size cap"):
        zf.copy("savedGame", lambda b: handed.append(len(b)), cap=8 << 20)
    limit = min(8 << 20, max(len(member.data), 1024) * MAX_RATIO)
    assert sum(handed) <= limit and max(handed) <= 1 << 16


def test_1_an_image_header_of_a_bomb_member_is_its_first_bytes_only() -> None:
    with ZipInput(zip_members([bomb("images/b.png", "bzip2")])) as zf:
        assert zf.read_head("images/b.png", 24) == bytes(24)
        assert zf.used == 24


@pytest.mark.parametrize(("method", "name"), [(9, "Deflate64"), (98, "PPMd"), (93, "Zstandard"), (77, "method 77")])
def test_1_a_method_we_cannot_stream_is_refused_by_its_name(method: int, name: str) -> None:
    body = deflated("savedGame", b"x" * 100)
    with ZipInput(zip_members([Member(body.name, body.data, method, body.crc, body.size)])) as zf, \
            pytest.raises(GazalaError, match=name):
        zf.read("savedGame")
    assert method_name(method) == name


def test_1_an_encrypted_member_is_refused() -> None:
    body = stored("savedGame", b"x" * 100)
    with ZipInput(zip_members([Member(body.name, body.data, 0, body.crc, body.size, flags=1)])) as zf, \
            pytest.raises(GazalaError, match="encrypted"):
        zf.read("savedGame")


@pytest.mark.parametrize("method", ["bzip2", "lzma", "deflate"])
def test_1_a_truncated_stream_is_a_clean_error(method: str) -> None:
    member = bomb("m", method, 2 << 20)
    cut = Member(member.name, member.data[: len(member.data) // 2], member.method, member.crc, member.size,
                 member.flags)
    with ZipInput(zip_members([cut])) as zf, pytest.raises(GazalaError, match="zip entry 'm'"):
        zf.read("m")


def test_1_an_lzma_header_with_bad_properties_is_a_clean_error() -> None:
    member = bomb("m", "lzma", 1 << 20)
    bad = Member("m", member.data[:2] + struct.pack("<H", 9) + member.data[4:], member.method, member.crc,
                 member.size, member.flags)
    with ZipInput(zip_members([bad])) as zf, pytest.raises(GazalaError, match="LZMA properties"):
        zf.read("m")


def test_1_a_member_whose_size_is_not_what_its_header_says_is_refused() -> None:
    body = b"begin_save" * 100
    m = deflated("savedGame", body)
    with ZipInput(zip_members([Member(m.name, m.data, m.method, m.crc, m.size + 1)])) as zf, \
            pytest.raises(GazalaError, match="header says"):
        zf.read("savedGame")


def test_1_a_set_up_save_inside_a_module_goes_through_the_same_rule(tmp_path: Path) -> None:
    """An 869-byte set-up save inside a .vmod whose savedGame inflates to 1 GiB: a finding of `module lint`
    (the set-up cannot be read), never the gigabyte."""
    from gazala_tools.vassal.lint import lint_module

    vmod = tmp_path / "s.vmod"
    inner = crafted.save_zip(bomb("savedGame", "bzip2"))
    assert len(inner) < 2000
    vmod.write_bytes(module_zip(crafted._with_setup(crafted.PLAIN_BUILDFILE), stored("s.vsav", inner)))
    result = lint_module(vmod)
    assert any(f.check == "save" and "zip bomb" in f.problem for f in result.findings)


# --- item 2: what multiplies ---------------------------------------------------------------------------
def test_2_prototypes_four_deep_each_naming_the_next_100_times_are_refused(tmp_path: Path) -> None:
    """A million traits from a 92 KB buildFile: the piece is refused after 500 (reported, the module read on)."""
    from gazala_tools.vassal.importer.reader import read_module

    xml = crafted.prototype_bomb()
    assert len(xml) < 120_000
    vmod = tmp_path / "p.vmod"
    vmod.write_bytes(module_zip(xml))
    mod = read_module(vmod)
    assert mod.pieces == []
    assert any("expand to more than 500 traits" in line for line in mod.not_understood)


def test_2_a_cycle_of_prototypes_that_adds_no_trait_costs_as_much_as_traits(tmp_path: Path) -> None:
    """P names itself twice: 2**50 expansions without a trait; each reference is counted."""
    from gazala_tools.vassal.importer.reader import read_module

    proto = (f'<{crafted.PROTO} name="P">{crafted._xml_text(crafted.piece_text(["prototype;P"] * 2))}'
             f'</{crafted.PROTO}>')
    slot = f'<{crafted.SLOT} entryName="u" gpid="1">{crafted._xml_text(crafted.piece_text(["prototype;P"]))}</{crafted.SLOT}>'
    vmod = tmp_path / "c.vmod"
    vmod.write_bytes(module_zip(crafted.with_pieces(crafted.PLAIN_BUILDFILE, proto + slot)))
    mod = read_module(vmod)
    assert mod.pieces == [] and len(mod.not_understood) == 1


def test_2_many_slots_naming_one_bomb_share_the_module_budget(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from gazala_tools.vassal.importer import reader

    monkeypatch.setattr(reader, "MAX_MODULE_TRAITS", 5_000)
    vmod = tmp_path / "p.vmod"
    vmod.write_bytes(module_zip(crafted.prototype_bomb(slots=20)))
    with pytest.raises(VassalFormatError, match="5,000 traits and prototype references in all"):
        reader.read_module(vmod)


def test_2_a_roster_of_more_sides_than_a_game_takes_is_refused_at_read(tmp_path: Path) -> None:
    from gazala_tools.vassal.importer.reader import read_module

    vmod = tmp_path / "r.vmod"
    vmod.write_bytes(module_zip(crafted.roster(101)))
    with pytest.raises(VassalFormatError, match="101 sides"):
        read_module(vmod)
    vmod.write_bytes(module_zip(crafted.roster(100)))
    assert len(read_module(vmod).sides) == 100


def test_2_a_buildfile_is_counted_before_a_tree_is_built() -> None:
    budget = XmlBudget(10, depth=4, tags={"s": 2})
    check_xml_budget(b"<r><a/><a/><s/><s/></r>", budget, file="b")
    for doc, problem in ((b"<r>" + b"<a/>" * 10 + b"</r>", "more than 10 elements"),
                         (b"<r><a><a><a><a/></a></a></a></r>", "nested deeper than 4"),
                         (b"<r><s/><s/><s/></r>", "more than 2 s elements"),
                         (b"<!DOCTYPE r [<!ENTITY x 'y'>]><r/>", "DOCTYPE")):
        with pytest.raises(GazalaError, match=problem):
            check_xml_budget(doc, budget, file="b")
    # an encoding expat lacks: held to its count of start tags
    with pytest.raises(GazalaError, match="cannot be read to its end"):
        check_xml_budget(b"<?xml version='1.0' encoding='x-unknown'?><r>" + b"<a/>" * 20 + b"</r>", budget, file="b")


def test_2_a_game_yaml_list_is_checked_in_linear_time_and_capped(tmp_path: Path) -> None:
    from gazala_tools.games.loader import MAX_SIDES, read_game_file

    def game(n: int, twice: bool = False) -> Path:
        sides = "".join(f"  - {{id: s{i}, name: Side {i}}}\n" for i in range(n)) + ("  - {id: s0, name: X}\n" if twice else "")
        f = tmp_path / "game.yaml"
        f.write_text(f"id: g\nname: G\nprovenance: original\nsides:\n{sides}")
        return f

    assert len(read_game_file(game(MAX_SIDES)).sides) == MAX_SIDES
    with pytest.raises(GameDataError, match=f"expected at most {MAX_SIDES}"):
        read_game_file(game(MAX_SIDES + 1))
    with pytest.raises(GameDataError, match="listed twice"):
        read_game_file(game(3, twice=True))
    big = tmp_path / "game.yaml"
    big.write_text("id: g\n# " + "x" * (1 << 20) + "\n")
    with pytest.raises(GameDataError, match="bytes"):
        read_game_file(big)


# --- item 4: module folders are sandboxes ------------------------------------------------------------
@pytest.mark.parametrize("named", ["folder", "file"])
def test_4_a_buildfile_symlinked_out_of_its_folder_is_refused_before_a_byte_is_read(named: str, tmp_path: Path) -> None:
    from gazala_tools.vassal.buildfile import open_source
    from tools.fuzz import folders

    mod = crafted._symlinked_folder(tmp_path)
    folders.watch_reads(mod)
    try:
        with pytest.raises(VassalFormatError, match="leaves the module folder"):
            open_source(mod if named == "folder" else mod / "buildFile.xml")
    finally:
        outside = folders.stop_watching()
    assert not [p for p in outside if p.endswith("outside.xml")]


# --- item 5: numbers from a module --------------------------------------------------------------------
@pytest.mark.parametrize(("element", "attrs", "problem"), [
    ("HexGrid", {"dx": "inf"}, "HexGrid dx='inf' is out of range"),
    ("HexGrid", {"dx": "1e-5"}, "HexGrid dx='1e-5' is out of range"),
    ("HexGrid", {"dy": "1e308"}, "HexGrid dy='1e308' is out of range"),
    ("HexGrid", {"x0": "99999999999"}, "HexGrid x0='99999999999' is out of range"),
    ("HexGrid", {"y0": "1" * 5000}, "HexGrid y0='1111.*' is not an integer"),
    ("SquareGrid", {"dx": "1e-5"}, "SquareGrid dx='1e-5' is out of range"),
    ("SquareGrid", {"x0": "99999999999"}, "SquareGrid x0='99999999999' is out of range"),
])
def test_5_a_grid_number_out_of_range_names_its_attribute(element: str, attrs: dict[str, str], problem: str) -> None:
    from gazala_tools.hexgrid import HexGridGeometry
    from gazala_tools.squaregrid import SquareGridGeometry

    with pytest.raises(ValueError, match=problem):
        if element == "HexGrid":
            HexGridGeometry.from_vassal_attrs(attrs)
        else:
            SquareGridGeometry.from_attrs(attrs)


@pytest.mark.parametrize(("attrs", "problem"), [({"hOff": "2147483647"}, "hOff='2147483647' is out of range"),
                                                ({"vOff": "-2147483648"}, "vOff='-2147483648' is out of range"),
                                                ({"hLeading": "33"}, "hLeading='33' is out of range"),
                                                ({"vLeading": "1" * 5000}, r"vLeading='1111.*' is not an integer")])
def test_5_a_numbering_offset_out_of_range_names_its_attribute(attrs: dict[str, str], problem: str) -> None:
    from gazala_tools.numbering import Numbering

    with pytest.raises(ValueError, match=f"HexGridNumbering {problem}"):
        Numbering.from_vassal_attrs(attrs)


def test_5_board_sizes_and_zone_points_are_within_a_map(tmp_path: Path) -> None:
    from gazala_tools.vassal.buildfile import read_layouts

    vmod = tmp_path / "m.vmod"
    vmod.write_bytes(module_zip(crafted.PLAIN_BUILDFILE.replace(b'width="400"', b'width="99999999999"')))
    with pytest.raises(VassalFormatError, match="Board width='99999999999' is out of range"):
        read_layouts(vmod)
    zone = (b'<VASSAL.build.module.map.boardPicker.board.ZonedGrid><VASSAL.build.module.map.boardPicker.board.'
            b'mapgrid.Zone name="z" path="0,0;10000000000000,0;0,5"/></VASSAL.build.module.map.boardPicker.board.ZonedGrid>'
            b'</VASSAL.build.module.map.boardPicker.Board>')
    vmod.write_bytes(module_zip(crafted.PLAIN_BUILDFILE.replace(b"</VASSAL.build.module.map.boardPicker.Board>", zone)))
    with pytest.raises(VassalFormatError, match="path point"):
        read_layouts(vmod)


@pytest.mark.parametrize("gpid", ["1" * 5000, "²"])
def test_5_a_gpid_that_is_no_number_is_a_lint_finding(gpid: str, tmp_path: Path) -> None:
    from gazala_tools.vassal.lint import lint_module

    text = crafted._xml_text(crafted.piece_text(["mark;Side;Red"]))
    vmod = tmp_path / "g.vmod"
    vmod.write_bytes(module_zip(crafted.with_pieces(crafted.PLAIN_BUILDFILE, f'<{crafted.SLOT} entryName="u" '
                                                    f'gpid="{gpid}">{text}</{crafted.SLOT}>')))
    found = [f for f in lint_module(vmod).findings if f.check == "gpid"]
    assert found and found[0].level == "warning" and "is not a number" in found[0].problem
    assert len(found[0].problem) < 240  # shown short, never the 5,000 digits


def test_5_an_import_refuses_a_gpid_of_5000_characters(tmp_path: Path) -> None:
    from gazala_tools.vassal.importer.reader import read_module

    text = crafted._xml_text(crafted.piece_text(["mark;Side;Red"]))
    vmod = tmp_path / "g.vmod"
    vmod.write_bytes(module_zip(crafted.with_pieces(crafted.PLAIN_BUILDFILE, f'<{crafted.SLOT} entryName="u" '
                                                    f'gpid="{"1" * 5000}">{text}</{crafted.SLOT}>')))
    with pytest.raises(VassalFormatError, match=r"gpid='1111.* of 5,000 characters"):
        read_module(vmod)


def test_crafted_zeros_are_what_they_claim() -> None:
    """The generators themselves: a bzip2 and an LZMA stream inflate to exactly the zeros they declare."""
    import bz2
    import lzma

    data, n = crafted.bzip2_zeros(100 << 20)
    dec = bz2.BZ2Decompressor()
    got, buf = 0, data
    while not dec.eof:
        out = dec.decompress(buf, 8 << 20)
        buf = b""
        assert out.count(0) == len(out)
        got += len(out)
    assert got == n and len(data) < 200
    data, n = crafted.lzma_zeros(20 << 20)
    dec2 = lzma.LZMADecompressor(lzma.FORMAT_RAW, filters=[crafted._LZMA_FILTER])
    got, buf = 0, data
    while not dec2.eof:
        out = dec2.decompress(buf, 8 << 20)
        buf = b""
        got += len(out)
    assert got == n
    assert crafted.crc32_zeros(12345) == zlib.crc32(bytes(12345))


def test_9_a_game_yaml_symlinked_to_a_name_too_long_is_a_clean_error(tmp_path: Path) -> None:
    """Found by the 20,000-input run of issue 31: `map check` of a folder whose game.yaml is a symlink to a
    300-character name ended in an internal error (ENAMETOOLONG from Path.is_file)."""
    import shutil

    from gazala_tools.cli import main

    game = tmp_path / "g"
    shutil.copytree(Path(__file__).resolve().parents[1] / "games" / "river-war", game)
    (game / "game.yaml").unlink()
    (game / "game.yaml").symlink_to("x" * 300)
    assert main(["map", "check", str(game)]) == 2
