"""The buildFile and the .vmod follow the spec's generator checklist (vassal-format.md §2, §7)."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

from lxml import etree

from gazala_tools.vassal.buildfile import read_layouts
from gazala_tools.vassal.module import build_vmod
from gazala_tools.vassal.module.build import build_buildfile
from gazala_tools.vassal.module.gpids import assign_gpids
from gazala_tools.vassal.module.spec import ModuleSpec
from gazala_tools.vsav import read_save
from tools.saves import module_pieces


def zip_member(path: Path, name: str) -> bytes:
    with zipfile.ZipFile(path) as zf:
        return zf.read(name)

INT_ATTRS = {"gpid", "nextPieceSlotId", "x0", "y0", "edgeWidth", "edgeHeight", "nDice", "nSides", "plus", "addToTotal",
             "x", "y", "width", "height", "start", "incr", "loopLimit", "length", "zoomStart", "slotWidth", "slotHeight",
             "exSepX", "exSepY", "unexSepX", "unexSepY", "hOff", "vOff", "hLeading", "vLeading", "fontSize", "divider",
             "nColumns", "thickness", "delay", "minDisplayPieces", "hDrawOff", "vDrawOff", "rotateText"}


def _root(spec: ModuleSpec) -> etree._Element:
    return etree.fromstring(build_buildfile(spec).xml)


def test_7_1_basic_command_encoder_is_the_first_child(small_spec: ModuleSpec) -> None:
    root = _root(small_spec)
    assert root.tag == "VASSAL.build.GameModule"
    assert root[0].tag == "VASSAL.build.module.BasicCommandEncoder"
    tags = [c.tag for c in root]
    assert tags.index("VASSAL.build.module.BasicCommandEncoder") < tags.index("VASSAL.build.module.PrototypesContainer")


def test_2_2_root_element_within_the_first_ten_lines(small_spec: ModuleSpec) -> None:
    head = build_buildfile(small_spec).xml.decode().splitlines()[:10]
    assert any("VASSAL.build.GameModule" in line for line in head)
    assert head[0] == '<?xml version="1.0" encoding="UTF-8" standalone="no"?>'


def test_7_3_integer_attributes_are_plain_integers(small_spec: ModuleSpec) -> None:
    for el in _root(small_spec).iter():
        for k, v in el.attrib.items():
            if k in INT_ATTRS:
                assert v.lstrip("-").isdigit(), (el.tag, k, v)


def test_7_4_piece_definitions_are_text_not_cdata(small_spec: ModuleSpec) -> None:
    xml = build_buildfile(small_spec).xml
    assert b"CDATA" not in xml
    assert b"\t" in xml  # TABs of the trait chains are literal


def test_1_3_attributes_are_written_in_alphabetical_order(small_spec: ModuleSpec) -> None:
    for el in _root(small_spec).iter():
        assert list(el.attrib) == sorted(el.attrib)


def test_7_9_gpids_unique_and_next_piece_slot_id_above_them(small_spec: ModuleSpec) -> None:
    root = _root(small_spec)
    gpids = [int(s.get("gpid")) for s in root.iter("VASSAL.build.widget.PieceSlot")]
    assert len(gpids) == len(set(gpids)) == len(small_spec.pieces)
    assert int(root.get("nextPieceSlotId")) > max(gpids)
    assert set(gpids) == set(assign_gpids(p.id for p in small_spec.pieces).values())


def test_build_is_deterministic(small_spec: ModuleSpec) -> None:
    assert build_buildfile(small_spec).xml == build_buildfile(small_spec).xml


def test_2_3_moduledata_names_the_module_and_a_3_5_or_later_vassal(small_vmod: Path, small_spec: ModuleSpec) -> None:
    meta = etree.fromstring(zip_member(small_vmod, "moduledata"))
    assert meta.findtext("name") == small_spec.name == etree.fromstring(zip_member(small_vmod, "buildFile.xml")).get("name")
    major, minor = (int(x) for x in meta.findtext("VassalVersion").split(".")[:2])
    assert (major, minor) >= (3, 5)


def test_2_1_every_referenced_image_is_in_the_archive(small_vmod: Path) -> None:
    with zipfile.ZipFile(small_vmod) as zf:
        names = set(zf.namelist())
    for piece in module_pieces(small_vmod):
        for token in piece.type.replace("\\", "").replace("\t", ";").split(";"):
            for part in token.split(","):
                if part.endswith(".png"):
                    assert f"images/{part}" in names, part
    assert "images/board.png" in names and "help/module.html" in names


def test_every_palette_piece_carries_our_id_and_data(small_vmod: Path, small_spec: ModuleSpec) -> None:
    from gazala_tools.vsav.traits import decode_piece

    pieces = {p.name: p for p in module_pieces(small_vmod)}
    assert set(pieces) == {p.name for p in small_spec.pieces}
    for spec_piece in small_spec.pieces:
        props = decode_piece(pieces[spec_piece.name].type, pieces[spec_piece.name].state).properties()
        assert props["UnitId"] == spec_piece.id
        assert props["Side"] == spec_piece.side
        assert props["Steps"] == str(spec_piece.steps)
        if spec_piece.kind == "unit":
            assert props["Disrupted_Active"] == "false"  # prototype Unit expanded
            assert props["Used_Active"] == "false"


def test_11_0_step_layer_names_the_reduced_unit(small_vmod: Path) -> None:
    from gazala_tools.vsav.traits import decode_piece, join_chain

    armor = next(p for p in module_pieces(small_vmod) if p.name == "5/1 (21 PZ)")
    d = decode_piece(armor.type, armor.state)
    states = [t.state for t in d.traits]
    i = next(k for k, t in enumerate(d.traits) if t.id == "emb2;" and t.fields()[18] == "Step")
    states[i] = "2"
    reduced = decode_piece(armor.type, join_chain(states))
    assert reduced.name() == "5/1 (21 PZ) (1 step lost)"
    assert reduced.properties()["Step_Level"] == "2"


def test_grid_of_the_module_is_the_spec_grid(small_vmod: Path, small_spec: ModuleSpec) -> None:
    (layout, *_) = read_layouts(small_vmod)
    board = layout.boards[0][0]
    assert (board.width, board.height) == (small_spec.board.width, small_spec.board.height)
    assert layout.locate(*board.grid.center_of_name("0302", board.width, board.height)).name == "0302"


def test_setup_save_places_each_unit_in_its_hex(small_vmod: Path, small_spec: ModuleSpec) -> None:
    scenario = small_spec.scenarios[0]
    save = read_save(zip_member(small_vmod, scenario.file), layouts=read_layouts(small_vmod))
    where = {p.properties.get("UnitId"): p for p in save.position.pieces.values() if p.map}
    for pid, label in scenario.placements:
        assert where[pid].location == label
        assert where[pid].id == pid
    assert where["allied-1ff-marine"].properties["Used_Active"] == "true"
    assert where["axis-21pz-5-1"].properties["Used_Active"] == "false"
    assert save.container.module_name == small_spec.name


def test_two_builds_of_the_same_spec_are_the_same_bytes(small_spec: ModuleSpec) -> None:
    a, _ = build_vmod(small_spec)
    b, _ = build_vmod(small_spec)
    assert a == b
    with zipfile.ZipFile(io.BytesIO(a)) as za:
        names = za.namelist()
        assert names[:2] == ["buildFile.xml", "moduledata"] and names[2:] == sorted(names[2:])
        assert {i.date_time for i in za.infolist()} == {(2026, 1, 1, 0, 0, 0)}
        save = zipfile.ZipFile(io.BytesIO(za.read(small_spec.scenarios[0].file)))
        assert {i.date_time for i in save.infolist()} == {(2026, 1, 1, 0, 0, 0)}


def test_set_up_pieces_are_the_palette_pieces_as_the_engine_parses_them(small_vmod: Path, small_spec: ModuleSpec) -> None:
    """The set-ups are made from the pieces in memory; a parse of the written buildFile gives the same pieces."""
    from gazala_tools.vassal.module.setups import slot_pieces

    built = build_buildfile(small_spec)
    ours = slot_pieces(small_spec, built)
    parsed = {p.gpid: p for p in module_pieces(small_vmod)}
    assert len(ours) == len(parsed) == len(small_spec.pieces)
    for pid, piece in ours.items():
        assert parsed[piece.gpid] == piece, pid


def test_the_main_map_opens_showing_the_whole_board() -> None:
    """Issue 16: a player opens the module and sees the set-up, not the top-left corner of a large map
    (DG's 1700 x 2200 board opened at 100% with most units off screen). The main map opens at the
    largest zoom level whose view of the whole board fits 1600 x 900, never below 50%."""
    from gazala_tools.vassal.module import build_game_module
    from gazala_tools.vassal.module.build import opening_zoom

    assert opening_zoom(700, 640) == 1.0 and opening_zoom(1500, 1100) == 0.75
    assert opening_zoom(1700, 2200) == 0.5 and opening_zoom(9000, 9000) == 0.5
    root = etree.fromstring(build_game_module("cauldron-dg").built.xml)
    main = next(m for m in root.iter("VASSAL.build.module.Map") if m.get("mapName") == "Main Map")
    zoomer = main.find("VASSAL.build.module.map.Zoomer")
    assert zoomer is not None
    levels = sorted((float(z) for z in zoomer.get("zoomLevels", "").split(",")), reverse=True)
    assert levels[int(zoomer.get("zoomStart", "0")) - 1] == 0.5  # zoomStart counts from the most zoomed-in
