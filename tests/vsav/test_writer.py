"""Writer: new saves from placements, modified copies that keep every untouched byte."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gazala_tools.errors import GazalaError
from gazala_tools.vsav import read_save
from gazala_tools.vsav.commands import to_text
from gazala_tools.vsav.container import read_container
from gazala_tools.vsav.traits import join_chain
from gazala_tools.vsav.writer import PiecePlacement, SaveEditor, new_save_tree, stacks_allowed, write_copy
from tools.saves import module_pieces, sample_commands, sample_file, write_new_save

T = "mark;Side\tpiece;;;a.png;Marker"
S = "Allies\tnull;0;0;7;0"


def test_new_save_reads_back_as_placed(tmp_path: Path) -> None:
    placements = [
        PiecePlacement(T, S, "Main Map", 100, 200, id="a1"),
        PiecePlacement(T, S, "Main Map", 100, 200, id="a2"),
        PiecePlacement(T, S, "Main Map", 300, 200),
        PiecePlacement(
            join_chain(["immob;;N;R;", "mark;Side", "piece;;;a.png;Marker"]),
            join_chain(["", "Allies", "null;0;0;7;0"]),
            "Main Map", 300, 200, id="nostack",
        ),
    ]
    tree = new_save_tree(placements, boards={"Main Map": [("Map", 0, 0)]}, players=[("u1", "me", "Allies")], first_id=500)
    out = tmp_path / "new.vsav"
    data = write_new_save(out, tree, module_name="Sample", vassal_version="3.6.0")
    assert out.read_bytes() == data
    save = read_save(out)
    assert save.container.moduledata["name"] == "Sample" and save.container.encoding == "vcsk"
    assert save.text() == to_text(tree)  # decode of our output equals what was written
    got = {p.id: (p.map, p.x, p.y, p.stack) for p in save.position.pieces.values()}
    assert got == {
        "a1": ("Main Map", 100, 200, "501"),
        "a2": ("Main Map", 100, 200, "501"),
        "500": ("Main Map", 300, 200, "502"),
        "nostack": ("Main Map", 300, 200, None),
    }
    assert save.position.pieces["a1"].properties == {"UniqueID": "a1", "Side": "Allies"}
    kinds = save.kinds()
    assert kinds["begin_save"] == kinds["end_save"] == 1 and kinds["set_boards"] == kinds["player"] == 1


def test_4_5_stacked_pieces_come_before_their_stack() -> None:
    tree = new_save_tree([PiecePlacement(T, S, "m", 1, 1, id="p"), PiecePlacement(T, S, "m", 1, 1, id="q")], first_id=1)
    text = to_text(tree)
    assert text.index("+/p/") < text.index("+/q/") < text.index("/stack/")


def test_bad_ids_are_refused() -> None:
    for bad in ("null", "a/b", "a;b", ""):
        with pytest.raises(GazalaError):
            new_save_tree([PiecePlacement(T, S, "m", 1, 1, id=bad)])
    with pytest.raises(GazalaError, match="duplicate"):
        new_save_tree([PiecePlacement(T, S, "m", 1, 1, id="x"), PiecePlacement(T, S, "m", 2, 2, id="x")])


def test_3_4_immobilized_stacking_char() -> None:
    assert stacks_allowed(T)
    assert not stacks_allowed("immob;g;N;R;\t" + T)
    assert not stacks_allowed("immob;g;N\t" + T)  # missing stack char = never stack (3.2 rule)
    assert stacks_allowed("immob;g;N;L;\t" + T)


def _modified(src: Path, out: Path) -> tuple[str, str]:
    save = read_save(src)
    editor = SaveEditor(save.tree, file=str(src))
    new_ids = editor.add([PiecePlacement(T, S, "Main Map", 640, 480), PiecePlacement(T, S, "Main Map", 640, 480)], first_id=42)
    assert new_ids == ["42", "43"]
    write_copy(out, save.container, editor.tree)
    return save.container.text, read_container(out).text


def test_modified_copy_of_the_corpus_keeps_every_untouched_byte(ragnarok_save: Path, tmp_path: Path) -> None:
    out = tmp_path / "marked.vsav"
    before, after = _modified(ragnarok_save, out)
    added = "\x1b+/42/" + after.split("\x1b+/42/", 1)[1].rsplit("\x1bend_save", 1)[0]
    assert after == before.replace("\x1bend_save", added + "\x1bend_save")
    a, b = zipfile.ZipFile(ragnarok_save), zipfile.ZipFile(out)
    assert [i.filename for i in a.infolist()] == [i.filename for i in b.infolist()]
    for name in ("savedata", "moduledata"):
        assert a.read(name) == b.read(name)
    assert a.read("savedGame")[:7] == b.read("savedGame")[:7]  # same obfuscation key
    pos = read_save(out).position
    assert len(pos.pieces) == 99 + 2
    assert (pos.pieces["42"].x, pos.pieces["42"].stack) == (640, "44")


@pytest.mark.parametrize("encoding", ["plain", "xz", "vobs"])
def test_modified_copy_keeps_the_container_form(encoding: str, tmp_path: Path) -> None:
    src = tmp_path / "in.vlog"
    src.write_bytes(sample_file(sample_commands(10, log_steps=6), encoding=encoding))
    _before, _after = _modified(src, tmp_path / "out.vlog")
    assert read_container(tmp_path / "out.vlog").encoding == encoding


def test_remove_pieces_in_a_copy(ragnarok_save: Path, tmp_path: Path) -> None:
    save = read_save(ragnarok_save)
    editor = SaveEditor(save.tree)
    editor.remove(["1711658022991"])
    write_copy(tmp_path / "r.vsav", save.container, editor.tree)
    assert "1711658022991" not in read_save(tmp_path / "r.vsav").position.pieces


def test_never_written_over_the_input_and_atomic(ragnarok_save: Path, tmp_path: Path) -> None:
    src = tmp_path / "in.vsav"
    src.write_bytes(ragnarok_save.read_bytes())
    save = read_save(src)
    with pytest.raises(GazalaError, match="overwrite"):
        write_copy(src, save.container, save.tree)
    assert src.read_bytes() == ragnarok_save.read_bytes()
    write_copy(tmp_path / "out.vsav", save.container, save.tree)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.vsav", "out.vsav"]
    # untouched tree: the savedGame entry is byte-identical
    assert zipfile.ZipFile(tmp_path / "out.vsav").read("savedGame") == zipfile.ZipFile(src).read("savedGame")


def test_3_5_module_pieces_have_prototypes_expanded(template_vmod: Path) -> None:
    slots = module_pieces(template_vmod)
    assert len(slots) == 10
    for s in slots:
        assert "prototype;" not in s.type
    inf = next(s for s in slots if s.gpid == "143")
    assert inf.name == "INF-XX-2-3-5_123_456"
    assert inf.state.endswith("null;0;0;143;0")


def test_insert_change_piece_in_a_copy_flips_a_layer(ragnarok_save: Path, tmp_path: Path) -> None:
    from gazala_tools.vsav.commands import ChangePiece

    save = read_save(ragnarok_save)
    odin = save.position.pieces["1711658022991"]
    assert odin.properties["Flip_Active"] == "false"
    states = list(odin.states)
    states[0] = "1"  # the outermost trait is the Flip layer
    editor = SaveEditor(save.tree)
    editor.insert([ChangePiece(odin.id, join_chain(states), join_chain(odin.states))])
    write_copy(tmp_path / "flip.vsav", save.container, editor.tree)
    after = read_save(tmp_path / "flip.vsav").position.pieces[odin.id]
    assert after.properties["Flip_Active"] == "true"
    assert (after.map, after.x, after.y, after.stack) == (odin.map, odin.x, odin.y, odin.stack)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(["Main Map", "Other map", "m;x"]), st.integers(-50, 5000), st.integers(-50, 5000)),
        min_size=1,
        max_size=12,
    ),
    st.sampled_from(["vcsk", "plain", "xz", "vobs"]),
)
def test_written_placements_read_back_exactly(spots: list[tuple[str, int, int]], encoding: str) -> None:
    import tempfile

    placements = [PiecePlacement(T, S, m, x, y) for m, x, y in spots + spots[:2]]  # some share a point
    tree = new_save_tree(placements, first_id=1000)
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "p.vsav"
        write_new_save(out, tree, module_name="M", encoding=encoding)
        pos = read_save(out).position
    got = sorted((p.map, p.x, p.y) for p in pos.pieces.values())
    assert got == sorted((p.map, p.x, p.y) for p in placements)
    for p in pos.pieces.values():
        assert p.stack is not None and p.properties["UniqueID"] == p.id
