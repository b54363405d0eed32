"""The turn track: a pre-game entry, then the game's turn record; set-ups open on their turn."""

from __future__ import annotations

import zipfile
from pathlib import Path

from lxml import etree

from gazala_tools.referee.saves import turn_from_tree
from gazala_tools.rules.rg import TURNS
from gazala_tools.vassal.module.spec import PRE_GAME_TURN, turn_labels, turn_state
from gazala_tools.vsav import read_save
from gazala_tools.vsav.commands import Turn, walk


def test_turn_list_starts_with_the_pre_game_entry() -> None:
    assert turn_labels(("May 27 AM", "May 27 PM")) == (PRE_GAME_TURN, "May 27 AM", "May 27 PM")
    assert turn_labels(()) == ()


def test_turn_state_selects_the_turn_and_flags_every_entry() -> None:
    turns = ("May 27 AM", "May 27 PM", "May 28")
    assert turn_state(turns, "May 27 AM") == "0|1;0;0;true,true,true,true"
    assert turn_state(turns, "May 28") == "0|3;0;0;true,true,true,true"
    assert turn_state(turns, "no such turn") == "0|1;0;0;true,true,true,true"


def test_rg_module_turn_tracker_and_setups(tmp_path: Path) -> None:
    from gazala_tools.cli import main

    out = tmp_path / "rg.vmod"
    assert main(["module", "build", "gazala-rg", "-o", str(out)]) == 0
    with zipfile.ZipFile(out) as zf:
        root = etree.fromstring(zf.read("buildFile.xml"))
        level = next(e for e in root.iter() if isinstance(e.tag, str) and e.tag.endswith("turn.ListTurnLevel"))
        assert level.get("list", "").split(",") == [PRE_GAME_TURN, *TURNS]
        setups = [n for n in zf.namelist() if n.endswith(".vsav")]
        assert setups
        for name in setups:
            (tmp_path / "s.vsav").write_bytes(zf.read(name))
            save = read_save(tmp_path / "s.vsav")
            turns = [n for n in walk(save.tree) if isinstance(n, Turn)]
            assert len(turns) == 1 and turns[0].tracker == "TurnTracker0"
            assert turn_from_tree(save.tree, tuple(TURNS)) == TURNS[0], name


def test_referee_reads_turn_lists_with_and_without_the_pre_game_entry() -> None:
    from gazala_tools.vsav.commands import Group

    turns = ("May 27 AM", "May 27 PM", "May 28")
    with_pre = Group([Turn("TURNTurnTracker0\t" + turn_state(turns, "May 28"))])
    assert turn_from_tree(with_pre, turns) == "May 28"
    without = Group([Turn("TURNTurnTracker0\t0|1;0;0;true,true,true")])
    assert turn_from_tree(without, turns) == "May 27 PM"
    pre_game = Group([Turn("TURNTurnTracker0\t0|0;0;0;true,true,true,true")])
    assert turn_from_tree(pre_game, turns) == "May 27 AM"


def test_referee_reads_numbered_turn_levels() -> None:
    from gazala_tools.vsav.commands import Group

    turns = tuple(str(n) for n in range(1, 11))
    # VASSAL CounterTurnLevel state: current;currentSubLevel;loop;loopLimit (vassal-format.md 4.4)
    assert turn_from_tree(Group([Turn("TURNTurnTracker0\t0|3;0;false;-1")]), turns) == "3"
    assert turn_from_tree(Group([Turn("TURNTurnTracker0\t0|42;0;false;-1")]), turns) is None


def test_numbered_turn_state_for_games_without_labels() -> None:
    assert turn_state((), "") == "0|1;0;false;-1"
    assert turn_state((), "4") == "0|4;0;false;-1"


def test_numbered_turns_read_without_a_turn_list() -> None:
    from gazala_tools.vsav.commands import Group

    assert turn_from_tree(Group([Turn("TURNTurnTracker0\t0|5;0;false;-1")]), ()) == "5"
    assert turn_from_tree(Group([Turn("TURNTurnTracker0\t0|1;0;0;true,true")]), ()) is None
