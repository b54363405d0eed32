"""Executing saves and logs to the final position (§3.3, §4.5-4.8)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gazala_tools.vsav import read_save
from gazala_tools.vsav.commands import parse
from gazala_tools.vsav.pieces import execute
from tools.saves import sample_commands

ESC = "\x1b"
T = "piece;;;a.png;A"


def position(*cmds: str):  # type: ignore[no-untyped-def]
    return execute(parse(ESC.join(["begin_save", *cmds, "end_save"])))


def test_corpus_save_final_position(ragnarok_save: Path) -> None:
    pos = read_save(ragnarok_save).position
    assert len(pos.pieces) == 99 and len(pos.stacks) == 55
    odin = pos.pieces["1711658022991"]
    assert (odin.name, odin.map, odin.x, odin.y, odin.stack) == ("en-odin", "Main Map", 3196, 190, "1711662791696")
    assert odin.properties["Side"] == "Aesir" and odin.properties["UniqueID"] == odin.id
    assert [t.id for t in odin.definition.traits][:3] == ["emb2;", "AreaOfEffect;", "footprint;"]
    assert pos.boards == {"Main Map": [("Map", 0, 0)], "deployment": [("deployment", 0, 0)], "DeadPile": [("DeadPile", 0, 0)]}
    assert pos.players == [["me", "me", "<observer>"]]
    assert pos.turns == {"TurnTracker0": "0|1;0;false;-1"}
    assert not pos.warnings


def test_4_4_players_global_properties_and_turns_are_kept() -> None:
    pos = position("PLAYER\tu1\tme\tAllies", "GlobalProperty\t;VP;3;Module", "GlobalProperty\t;Weather;Rain;", "TURNT0\t2|1")
    assert pos.players == [["u1", "me", "Allies"]]
    assert pos.global_properties == {"Module/VP": "3", "Weather": "Rain"}
    assert pos.turns == {"T0": "2|1"}


def test_text_that_is_no_save_is_refused() -> None:
    from gazala_tools.errors import VassalFormatError

    with pytest.raises(VassalFormatError, match="no VASSAL game commands"):
        read_save(b"<?xml version='1.0'?><x/>", name="buildFile.xml")


def test_4_6_stacked_piece_is_where_its_stack_is_even_with_3_6_null_map() -> None:
    pos = position("+/1/" + T + "/m;5;5;1;0", "+/2/" + T + "/null;0;0;1;0", "+/9/stack/m;100;200;1;2;@@1")
    assert [(p.map, p.x, p.y, p.stack) for p in pos.pieces.values()] == [("m", 100, 200, "9")] * 2
    assert pos.stacks["9"].children == ["1", "2"] and pos.stacks["9"].layer == "1"


def test_3_3_old_basic_state_without_property_count() -> None:
    pos = position("+/1/" + T + "/m;7;8;1")
    p = pos.pieces["1"]
    assert (p.map, p.x, p.y, p.properties) == ("m", 7, 8, {})


def test_4_6_stack_with_null_map_reads_no_coordinates() -> None:
    pos = position("+/1/" + T + "/m;5;5;1;0", "+/9/stack/null;7;8;1")
    assert pos.stacks["9"].children == ["1"]
    assert pos.pieces["1"].map is None


def test_4_6_deck_holds_its_cards() -> None:
    pos = position("+/1/" + T + "/null;0;0;1;0", "+/2/" + T + "/null;0;0;1;0", "+/d/deck;x/m;10;20;true;1,2")
    assert pos.stacks["d"].kind == "deck" and pos.stacks["d"].children == ["1", "2"]
    assert {(p.map, p.x, p.y) for p in pos.pieces.values()} == {("m", 10, 20)}


def test_move_out_of_a_stack_onto_another_piece_then_remove() -> None:
    pos = position(
        "+/1/" + T + "/m;0;0;1;0",
        "+/2/" + T + "/m;0;0;1;0",
        "+/s/stack/m;10;10;1;2;@@1",
        "+/3/" + T + "/m;0;0;1;0",
        "+/t/stack/m;50;50;3;@@1",
        "M/2/m/50/50/3/m/10/10/s/u",
        "M/1/m/70/70/null/m/10/10/s/u",
        "-/3",
    )
    assert pos.pieces["2"].stack == "t" and (pos.pieces["2"].x, pos.pieces["2"].y) == (50, 50)
    assert pos.stacks["t"].children == ["2"]
    assert "s" not in pos.stacks  # emptied stacks leave the map
    assert (pos.pieces["1"].x, pos.pieces["1"].y, pos.pieces["1"].stack) == (70, 70, None)
    assert "3" not in pos.pieces


def test_change_piece_sets_trait_states_and_can_leave_the_map() -> None:
    t = "mark;Side\t" + T
    pos = position("+/1/" + t + "/Axis\tm;1;1;1;0", "D/1/Allies\tnull;0;0;1;0")
    p = pos.pieces["1"]
    assert p.properties["Side"] == "Allies" and p.map is None


def test_move_a_whole_stack_and_off_the_map() -> None:
    pos = position("+/1/" + T + "/m;0;0;1;0", "+/s/stack/m;10;10;1;@@1", "M/s/other/5/6/null/m/10/10/null/u")
    assert (pos.pieces["1"].map, pos.pieces["1"].x, pos.pieces["1"].y) == ("other", 5, 6)
    pos = position("+/1/" + T + "/m;0;0;1;0", "M/1/null/0/0/null/m/0/0/null/u")
    assert pos.pieces["1"].map is None


def test_unknown_ids_are_warnings_not_errors() -> None:
    pos = position("M/zz/m/1/1/null/m/0/0/null/u", "D/zz/x", "-/zz")
    assert len(pos.warnings) == 3


def test_4_8_vlog_replays_log_steps_unless_asked_not_to() -> None:
    text = sample_commands(12, log_steps=4)
    tree = parse(text)
    before, after = execute(tree, replay_log=False), execute(tree)
    moved = [pid for pid, p in after.pieces.items() if (p.x, p.y) != (before.pieces[pid].x, before.pieces[pid].y)]
    assert len(moved) == 1
    p = after.pieces[moved[0]]
    assert p.stack is None and p.x == before.pieces[moved[0]].x + 75


@pytest.mark.parametrize("style", ["3.7", "3.6", "3.2"])
def test_every_style_gives_the_same_position(style: str) -> None:
    ref = execute(parse(sample_commands(30, style="3.7")))
    pos = execute(parse(sample_commands(30, style=style)))
    assert [(p.id, p.map, p.x, p.y, p.stack, p.name) for p in pos.pieces.values()] == [
        (p.id, p.map, p.x, p.y, p.stack, p.name) for p in ref.pieces.values()
    ]


def test_4_7_location_names_with_the_module(template_vmod: Path, tmp_path: Path) -> None:
    pytest.importorskip("gazala_tools.vassal.buildfile")
    from gazala_tools.vassal.buildfile import read_layouts
    from tools.saves import sample_file

    layout = next(lay for lay in read_layouts(template_vmod) if lay.name == "Main Map")
    x, y = layout.center_of("0203")
    f = tmp_path / "g.vsav"
    f.write_bytes(sample_file(ESC.join(["begin_save", f"+/1/{T}/Main Map;{x};{y};1;0", "+/2/" + T + "/DeadPile;5;5;1;0", "end_save"])))
    save = read_save(f, layouts=read_layouts(template_vmod))
    assert save.position.pieces["1"].location == "0203"
    assert save.position.pieces["1"].board == "Map"
    assert save.position.pieces["2"].location == "offboard"


IDS = ["1", "2", "3", "4", "s", "t"]
MAPS = ["m", "n", "null"]


@st.composite
def command_lines(draw: st.DrawFn) -> str:
    kind = draw(st.sampled_from(["add", "stack", "move", "change", "remove"]))
    pid = draw(st.sampled_from(IDS))
    m = draw(st.sampled_from(MAPS))
    x, y = draw(st.integers(0, 3)), draw(st.integers(0, 3))
    if kind == "add":
        return f"+/{pid}/{T}/{m};{x};{y};1;0"
    if kind == "stack":
        kids = draw(st.lists(st.sampled_from(IDS), max_size=4))
        return f"+/{pid}/stack/" + ";".join([m, str(x), str(y), *kids, "@@1"])
    if kind == "move":
        under = draw(st.sampled_from([*IDS, "null"]))
        return f"M/{pid}/{m}/{x}/{y}/{under}/m/0/0/null/u"
    if kind == "change":
        return f"D/{pid}/{m};{x};{y};1;0"
    return f"-/{pid}"


@pytest.mark.slow
@settings(max_examples=1500, deadline=None)
@given(st.lists(command_lines(), max_size=25))
def test_execution_keeps_stacks_consistent(lines: list[str]) -> None:
    pos = position(*lines)
    seen: set[str] = set()
    for sid, stack in pos.stacks.items():
        for cid in stack.children:
            assert cid not in seen, f"{cid} in two stacks"
            seen.add(cid)
            child = pos.pieces[cid]
            assert child.stack == sid
            assert (child.map, child.x, child.y) == (stack.map, stack.x, stack.y)
    for piece in pos.pieces.values():
        if piece.stack is not None:
            assert piece.id in pos.stacks[piece.stack].children


def test_4_7_chits_in_a_deck_are_located_by_the_deck_name_as_vassal_does() -> None:
    """``Map.locationName`` names a point inside a Deck's bounds by the deck (vassal-format.md §4.7)."""
    from gazala_tools.hexgrid import MapLayout
    from gazala_tools.vsav import locate_pieces

    deck = "deck;true;0,0,0;100;60;;;;;;;;;Axis tactical chits;"
    pos = position("+/1/" + T + "/null;0;0;1;0", "+/2/" + T + "/m;500;500;1;0", f"+/d/{deck}/m;40;30;true;1")
    locate_pieces(pos, [MapLayout("m")])
    assert pos.pieces["1"].location == "Axis tactical chits"
    assert pos.pieces["2"].location == "offboard"
