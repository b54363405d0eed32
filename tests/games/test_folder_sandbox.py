"""Issue 21 item 2: a game folder is a sandbox for reads (docs/games.md, "A game folder is a sandbox").

Every path a folder's data names -- its own data files, art files and each member of an art folder,
``map.yaml`` ``extends:``, help pages and board images of ``module.yaml``, the plugin -- resolves,
after following symlinks, inside the folder, or the command stops with one line naming the file and
the path (exit 2). Nothing of a file outside the folder is read, so no message can quote it.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from gazala_tools.cli import main
from gazala_tools.counters.loader import load_game_manifest
from gazala_tools.errors import GazalaError
from gazala_tools.games import find_game
from gazala_tools.games.scenarios import load_scenarios
from gazala_tools.games.tables import load_tables
from gazala_tools.inputs import inside_folder
from gazala_tools.mapdata.loader import load_game_map

RIVER_WAR = Path(__file__).resolve().parent / "river-war"
SECRET = "root:x:0:0:SECRET-FIRST-LINE:/root:/bin/bash\n"
PNG = (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x02\x00\x00\x00\x90wS\xde"
       b"\x00\x00\x00\x0cIDATx\x9cc\xf8\xcf\xc0\x00\x00\x03\x01\x01\x00\xc9\xfe\x92\xef\x00\x00\x00\x00IEND\xaeB`\x82")


@pytest.fixture
def game(tmp_path: Path) -> Path:
    """A copy of River War in ``tmp/game``, and a secret file and image outside it in ``tmp/outside``."""
    g = tmp_path / "game"
    shutil.copytree(RIVER_WAR, g)
    out = tmp_path / "outside"
    out.mkdir()
    (out / "secret.yaml").write_text(SECRET, encoding="utf-8")
    (out / "photo.png").write_bytes(PNG)
    return g


def refused(argv: list[str], capsys: pytest.CaptureFixture[str], *words: str) -> str:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "SECRET" not in err and "leaves the game folder" in err, err
    for w in words:
        assert w in err, err
    return err


# --- the folder's own data files -------------------------------------------------------------------
@pytest.mark.parametrize("name", ["map.yaml", "counters.yaml", "tables.yaml", "scenarios.yaml", "game.yaml",
                                  "module.yaml", "movement.yaml"])
def test_a_data_file_symlinked_out_of_the_folder_is_refused_unread(game: Path, name: str) -> None:
    target = game / name
    if target.exists():
        target.unlink()
    target.symlink_to(game.parent / "outside" / "secret.yaml")
    with pytest.raises(GazalaError) as info:
        g = find_game(game)
        {"map.yaml": lambda: load_game_map(g), "counters.yaml": lambda: load_game_manifest(g), "tables.yaml": lambda: load_tables(g),
         "scenarios.yaml": lambda: load_scenarios(g), "movement.yaml": lambda: g.data_file("movement.yaml"),
         "game.yaml": lambda: load_game_map(g), "module.yaml": lambda: load_game_map(g)}[name]()
    text = str(info.value)
    assert f"'{name}' leaves the game folder" in text and "SECRET" not in text and name in text


def test_map_check_of_a_symlinked_map_names_the_file_and_never_echoes_its_first_line(
        game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (game / "map.yaml").unlink()
    (game / "map.yaml").symlink_to("/etc/passwd" if Path("/etc/passwd").is_file() else game.parent / "outside/secret.yaml")
    err = refused(["map", "check", str(game)], capsys, "map.yaml")
    assert "root:" not in err


def test_counters_list_of_a_symlinked_manifest_is_refused(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (game / "counters.yaml").unlink()
    (game / "counters.yaml").symlink_to(game.parent / "outside/secret.yaml")
    refused(["counters", "list", str(game)], capsys, "counters.yaml")


def test_a_symlink_inside_the_folder_and_a_symlinked_folder_are_read(game: Path, tmp_path: Path) -> None:
    (game / "maps").mkdir()
    (game / "map.yaml").rename(game / "maps/river.yaml")
    (game / "map.yaml").symlink_to("maps/river.yaml")
    (tmp_path / "link").symlink_to(game)
    assert load_game_map(find_game(tmp_path / "link")).grid.columns[1] > 0


# --- extends ---------------------------------------------------------------------------------------
def _extends(game: Path, base: str) -> None:
    text = (game / "map.yaml").read_text(encoding="utf-8")
    (game / "map.yaml").write_text(f"extends: {base}\n{text}", encoding="utf-8")


@pytest.mark.parametrize("base", ["ABSOLUTE", "../outside/secret.yaml", "sub/../../outside/secret.yaml", "link.yaml"])
def test_3_1_extends_outside_the_folder_is_refused_with_file_line_column(game: Path, base: str) -> None:
    (game / "link.yaml").symlink_to(game.parent / "outside/secret.yaml")
    (game / "sub").mkdir()
    base = str(game.parent / "outside/secret.yaml") if base == "ABSOLUTE" else base
    _extends(game, base)
    with pytest.raises(GazalaError) as info:
        load_game_map(find_game(game))
    text = str(info.value)
    assert "map.yaml:1:10: extends" in text and "leaves the game folder" in text and "SECRET" not in text


def test_extends_a_map_of_the_folder_still_works(game: Path) -> None:
    (game / "base").mkdir()
    shutil.copy(game / "map.yaml", game / "base/map.yaml")
    (game / "map.yaml").write_text("extends: base/map.yaml\n", encoding="utf-8")
    assert load_game_map(find_game(game)).grid.columns == load_game_map(find_game(RIVER_WAR)).grid.columns


def test_a_builtin_map_extends_a_builtin_game_by_id() -> None:
    spi = find_game("cauldron-spi")
    assert load_game_map(spi).grid.columns == load_game_map(find_game("cauldron-dg")).grid.columns


def test_an_extends_loop_through_symlinks_is_refused(game: Path) -> None:
    (game / "a.yaml").symlink_to("b.yaml")
    (game / "b.yaml").symlink_to("a.yaml")
    _extends(game, "a.yaml")
    with pytest.raises(GazalaError, match="symlink loop"):
        load_game_map(find_game(game))


# --- art -------------------------------------------------------------------------------------------
def _art_folder(game: Path) -> Path:
    art = game / "art"
    art.mkdir()
    text = (game / "counters.yaml").read_text(encoding="utf-8")
    (game / "counters.yaml").write_text(text.replace("total: 19\n", "total: 19\nart: {folder: art}\n"), encoding="utf-8")
    return art


def test_an_art_folder_member_symlinked_out_of_the_folder_is_refused(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    art = _art_folder(game)
    (art / "red-inf-1-front.png").symlink_to(game.parent / "outside/photo.png")
    refused(["counters", "list", str(game)], capsys, "counters.yaml", "art/red-inf-1-front.png")


def test_an_art_folder_member_inside_the_folder_is_used(game: Path) -> None:
    art = _art_folder(game)
    (art / "red-inf-1-front.png").write_bytes(PNG)
    (art / "red-inf-1-back.png").symlink_to("red-inf-1-front.png")
    c = next(c for c in load_game_manifest(find_game(game)).counters if c.unit_id == "red-inf-1")
    assert c.front_art and Path(c.front_art).parent == art.resolve()


def test_an_art_folder_that_is_a_symlink_out_is_refused(game: Path) -> None:
    _art_folder(game).rmdir()
    (game / "art").symlink_to(game.parent / "outside")
    with pytest.raises(GazalaError, match="'art' leaves the game folder"):
        load_game_manifest(find_game(game))


@pytest.mark.parametrize("kind", ["loop", "outside", "nul", "long"])
def test_named_art_that_loops_leaves_or_is_no_file_name_is_a_clean_error(game: Path, kind: str,
                                                                         capsys: pytest.CaptureFixture[str]) -> None:
    (game / "loop.png").symlink_to("loop.png")
    (game / "out.png").symlink_to(game.parent / "outside/photo.png")
    front = {"loop": "loop.png", "outside": "out.png", "nul": '"a\\0.png"', "long": "x" * 300 + ".png"}[kind]
    text = (game / "counters.yaml").read_text(encoding="utf-8")
    text = text.replace('values: [3, 4, 4], provenance: original}',
                        f'values: [3, 4, 4], provenance: original, art: {{front: {front}}}}}', 1)
    (game / "counters.yaml").write_text(text, encoding="utf-8")
    assert main(["counters", "list", str(game)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "counters.yaml" in err and "art.front" in err
    assert {"loop": "symlink loop", "outside": "leaves the game folder", "nul": "NUL byte",
            "long": "cannot be read"}[kind] in err


# --- module.yaml: help pages and board images -------------------------------------------------------
@pytest.mark.parametrize("section", ["help", "board"])
def test_a_help_page_or_board_image_symlinked_out_is_refused(game: Path, section: str) -> None:
    from gazala_tools.vassal.module.games import game_and_config

    (game / "doc.html").symlink_to(game.parent / "outside/secret.yaml")
    (game / "board.png").symlink_to(game.parent / "outside/photo.png")
    text = (game / "module.yaml").read_text(encoding="utf-8")
    if section == "help":
        text += "help:\n  - {title: Notes, file: doc.html}\n"
    else:
        text = text.replace("board: {art: render, dpi: 100}", "board: {art: board.png, dpi: 100}")
    (game / "module.yaml").write_text(text, encoding="utf-8")
    with pytest.raises(GazalaError) as info:
        game_and_config(game)
    assert "leaves the game folder" in str(info.value) and "module.yaml" in str(info.value)


# --- the one helper --------------------------------------------------------------------------------
def test_inside_folder_follows_every_symlink(tmp_path: Path) -> None:
    (tmp_path / "f").mkdir()
    (tmp_path / "f/in.txt").write_text("x")
    (tmp_path / "f/ok").symlink_to("in.txt")
    (tmp_path / "f/hop").symlink_to(tmp_path / "f/../f/ok")
    (tmp_path / "f/out").symlink_to(os.path.relpath(tmp_path, tmp_path / "f"))
    f = tmp_path / "f"
    assert inside_folder(f / "hop", f) == (f / "in.txt").resolve()
    assert inside_folder(f / "missing.png", f) == (f / "missing.png").resolve()  # the caller says what missing means
    for bad in ("out", "out/f/in.txt/../../x", "/etc"):
        with pytest.raises(GazalaError, match="leaves the game folder"):
            inside_folder(f / bad, f, name=bad)
