"""The typed view of a save: layers, rotation, properties and the turn, decoded once by the reader."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gazala_tools.vsav import read_save
from gazala_tools.vsav.commands import ChangePiece, Group, Turn
from gazala_tools.vsav.view import TurnView, layer_change, turn_of
from tools.saves import sample_commands, sample_file


@pytest.fixture(scope="module")
def save():  # type: ignore[no-untyped-def]
    return read_save(sample_file(sample_commands(6, style="3.7")), name="sample.vsav")


def test_pieces_carry_layers_rotation_and_properties(save) -> None:  # type: ignore[no-untyped-def]
    view = save.view()
    assert view is save.view()  # decoded once
    assert len(view.pieces) == len(save.position.on_map())
    p = view.pieces[0]
    flip = p.layers["Flip"]
    assert (flip.level, flip.active) == (1, False)  # sample state "-1": level 1, hidden
    assert p.properties["Flip_Level"] == "1" and p.properties["Flip_Active"] == "false"  # as VASSAL's properties
    assert p.rotation == 0 and p.facings == 6
    assert p.properties["Class"] == "Infantry" and p.name == save.position.pieces[p.id].name


def test_layer_change_shows_a_layer_and_the_view_reads_it_back(save) -> None:  # type: ignore[no-untyped-def]
    from gazala_tools.vsav.pieces import execute

    pid = save.view().pieces[0].id
    change = layer_change(save.position.pieces[pid], {"Flip": True})
    assert isinstance(change, ChangePiece) and change.id == pid
    assert layer_change(save.position.pieces[pid], {"Flip": False}) is None  # already hidden: nothing to change
    pos = execute(Group([*save.tree.items[:-1], change, save.tree.items[-1]]))
    from gazala_tools.vsav.view import piece_view

    assert piece_view(pos.pieces[pid]).layer_active("Flip")


@pytest.mark.parametrize(("state", "view"), [
    ("0|3;0;false;-1", TurnView("TurnTracker0", "counter", 3)),
    ("0|2;0;0;true,true,true,true", TurnView("TurnTracker0", "list", 2, 4)),
    ("0|1;0;0;", TurnView("TurnTracker0", "list", 1, 0)),
    ("0", None),
    ("0|x;0", None),
])
def test_the_turn_trackers_state(state: str, view: TurnView | None) -> None:
    assert turn_of(Group([Turn(f"TURNTurnTracker0\t{state}")])) == view


@given(st.integers(0, 40), st.lists(st.text(alphabet="abcMJ 0123456789", min_size=1, max_size=8), max_size=20, unique=True))
def test_a_list_level_names_the_turn_with_or_without_a_pre_game_entry(current: int, turns: list[str]) -> None:
    plain = TurnView("T", "list", current, len(turns)).label(turns)
    assert plain == (turns[current] if current < len(turns) else None)
    with_set_up = TurnView("T", "list", current, len(turns) + 1).label(turns)
    assert with_set_up == (turns[max(current - 1, 0)] if turns and max(current - 1, 0) < len(turns) else None)
