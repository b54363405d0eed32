"""Command stream (§4.3-4.8): decode -> encode gives the same text; each command kind is typed."""

from __future__ import annotations

from pathlib import Path

import pytest

from gazala_tools.errors import VassalFormatError
from gazala_tools.vsav import commands
from gazala_tools.vsav.commands import (
    AddPiece,
    ChangePiece,
    GlobalProperty,
    Log,
    MovePiece,
    Player,
    SetBoards,
    Verbatim,
    parse,
    to_text,
    walk,
)
from gazala_tools.vsav.container import read_container


def test_4_3_corpus_round_trip_is_byte_identical(ragnarok_save: Path) -> None:
    text = read_container(ragnarok_save).text
    tree = parse(text)
    assert to_text(tree, preserve=False) == text
    assert to_text(tree) == text
    assert commands.count_kinds(tree) == {
        "begin_save": 1, "empty": 2, "add": 154, "player": 2, "set_boards": 3, "notes": 4, "turn": 1, "end_save": 1,
    }


def test_generated_saves_and_logs_round_trip(generated_texts: dict[str, str]) -> None:
    for name, text in generated_texts.items():
        assert to_text(parse(text), preserve=False) == text, name


def test_4_4_command_catalogue() -> None:
    text = "\x1b".join(
        [
            "begin_save",
            "",
            "+/17/piece;;;a.png;A/Main Map;10;20;5;0",
            "M/17/Main Map/30/40/null/Main Map/10/20/null/u1",
            "D/17/Main Map;30;40;5;0/Main Map;10;20;5;0",
            "-/17",
            "Main MapBoardPicker\tBoard/rev\t0\t0\tOther\t1\t0",
            "PLAYER\tu1\tme\tAllies",
            "GlobalProperty\t;VP;3;Module",
            "SETUP_STACK\t",
            "TURNTurnTracker0\t0|3;0;false;-1",
            "CHAT<me> hi",
            "SOMETHING_NEW\tkept",
            "end_save",
        ]
    )
    tree = parse(text)
    cmds = list(walk(tree))
    add = cmds[2]
    assert isinstance(add, AddPiece) and (add.id, add.type, add.state) == ("17", "piece;;;a.png;A", "Main Map;10;20;5;0")
    move = cmds[3]
    assert isinstance(move, MovePiece)
    assert (move.move.new_map, move.move.new_x, move.move.new_y, move.move.new_under) == ("Main Map", 30, 40, None)
    assert isinstance(cmds[4], ChangePiece) and cmds[4].old_state == "Main Map;10;20;5;0"
    boards = cmds[6]
    assert isinstance(boards, SetBoards) and boards.map_id == "Main Map"
    assert boards.boards == [("Board/rev", 0, 0), ("Other", 1, 0)]
    assert isinstance(cmds[7], Player) and cmds[7].tokens == ["u1", "me", "Allies"]
    assert isinstance(cmds[8], GlobalProperty) and cmds[8].tokens == ["VP", "3", "Module"]
    assert [c.kind for c in cmds[9:]] == ["setup_stack", "turn", "chat", "unknown", "end_save"]
    assert isinstance(cmds[12], Verbatim) and cmds[12].encode() == "SOMETHING_NEW\tkept"
    assert to_text(tree, preserve=False) == text


def test_4_8_logged_command_with_subcommands_is_one_token_of_log_commands() -> None:
    # a move that also changed a state: one top-level token, its parts each wrapped in LOG
    step = "LOG\tM/1/m/1/1/null/m/0/0/null/u\\\x1bLOG\tD/1/m;1;1;0;0"
    text = "begin_save\x1bend_save\x1b" + step
    tree = parse(text)
    assert [c.kind for c in walk(tree)] == ["begin_save", "end_save", "log", "move", "log", "change"]
    assert [c.kind for c in walk(tree, into_logs=False)] == ["begin_save", "end_save", "log", "log"]
    logs = [c for c in walk(tree) if isinstance(c, Log)]
    assert to_text(logs[0].logged, preserve=False) == "M/1/m/1/1/null/m/0/0/null/u"
    assert to_text(tree, preserve=False) == text


def test_4_8_an_esc_inside_a_log_token_splits_it_as_gamemodule_decode_does() -> None:
    text = "begin_save\x1bend_save\x1bLOG\tCHAT<a> x\\\x1bCHAT<a> y"
    tree = parse(text)
    assert [c.kind for c in walk(tree)] == ["begin_save", "end_save", "log", "chat", "chat"]
    assert to_text(tree, preserve=False) == text


def test_malformed_move_names_the_command_index() -> None:
    with pytest.raises(VassalFormatError, match=r"command 2.*not an integer"):
        parse("begin_save\x1b\x1bM/1/m/x/1/null/m/0/0/null", file="f.vsav")


def test_add_piece_with_too_few_fields() -> None:
    with pytest.raises(VassalFormatError, match="AddPiece"):
        parse("+/1/piece;;;;")


def test_nesting_is_capped() -> None:
    text = "a"
    for _ in range(commands.MAX_DEPTH + 5):
        text = "'" + text + "'"
    with pytest.raises(VassalFormatError, match="nested"):
        parse(text)


SAVE_SUFFIXES = (".vsav", ".vlog", ".sav", ".log")


def corpus_saves(corpus: Path) -> list[tuple[str, bytes]]:
    """Every save or log in the corpus: files, and predefined setups stored inside modules."""
    import zipfile

    found: list[tuple[str, bytes]] = []
    for path in sorted(corpus.rglob("*")):
        if path.suffix.lower() in SAVE_SUFFIXES:
            found.append((str(path), path.read_bytes()))
        elif path.suffix.lower() == ".vmod":
            with zipfile.ZipFile(path) as zf:
                for name in zf.namelist():
                    if name.lower().endswith(SAVE_SUFFIXES):
                        found.append((f"{path}!{name}", zf.read(name)))
    return found


def test_4_3_every_corpus_save_round_trips(corpus_dir: Path) -> None:
    saves = corpus_saves(corpus_dir)
    assert saves, "the corpus holds at least one save"
    for name, data in saves:
        text = read_container(data, name=name).text
        assert to_text(parse(text, file=name), preserve=False) == text, name
