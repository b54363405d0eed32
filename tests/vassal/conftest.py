"""Fixtures for the module export: a small synthetic module and the real game modules (built once)."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path

import pytest
from PIL import Image

from gazala_tools.games import builtin_ids
from gazala_tools.vassal.module.pieces import KEY_FLIP
from gazala_tools.vassal.module.spec import (
    CHIT,
    MARKER,
    UNIT,
    BoardSpec,
    DeckSpec,
    DiceSpec,
    FacingSpec,
    ModuleSpec,
    PieceSpec,
    ScenarioSpec,
    StatusSpec,
    TrackSpec,
)
from gazala_tools.vassal.module.traits import CTRL, SHIFT, key

GAMES = builtin_ids()


def _png(colour: str, size: int = 40) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (size, size), colour).save(buf, "PNG")
    return buf.getvalue()


@pytest.fixture(scope="session")
def small_spec() -> ModuleSpec:
    """Two units (one with three steps and used sides), markers, a breach marker, chits in cups,
    a three-turn track, a three-box VP track and one set-up, on a small RG-numbered board."""
    board = BoardSpec(
        "board.png", 400, 300,
        {"dx": "62.35", "dy": "72.0", "x0": "60", "y0": "90", "sideways": "false", "snapTo": "true",
         "edgesLegal": "false", "cornersLegal": "false"},
        {"first": "H", "sep": "", "hType": "N", "vType": "N", "hLeading": "1", "vLeading": "1", "hOff": "1",
         "vOff": "1", "hDescend": "false", "vDescend": "false", "stagger": "true", "locationFormat": "$gridLocation$"},
    )
    pieces = (
        PieceSpec("axis-21pz-5-1", "5/1 (21 PZ)", UNIT, "Axis", "21 PZ", "armor", ("a3.png", "a2.png", "a1.png"),
                  ("u3.png", "u2.png", "u1.png"), properties={"Designation": "5/1"}),
        PieceSpec("allied-1ff-marine", "Marine, 1 FF", UNIT, "Allied", "1 FF", "infantry", ("b1.png",), ("u1.png",)),
        PieceSpec("disrupted", "Disrupted", MARKER, "Neutral", "", "disrupted", ("m.png",)),
        PieceSpec("out-of-supply", "Out Of", MARKER, "Neutral", "", "supply", ("m.png", "m2.png")),
        PieceSpec("breach", "Breach", MARKER, "Axis", "", "breach", ("m.png", "m2.png"),
                  facing=FacingSpec("Breach", ("under construction", "breached"), "Breached / under construction", key("B"))),
        PieceSpec("axis-action-15pz-21pz-1", "15 PZ / 21 PZ", CHIT, "Axis", "", "action", ("c1.png", "c2.png"), mask="mask.png"),
        PieceSpec("allied-tac-combat-1", "Combat", CHIT, "Allied", "", "tactical", ("c1.png",), mask="mask.png"),
    )
    images = {f"images/{n}": _png(c) for n, c in [
        ("a3.png", "#a3a9ad"), ("a2.png", "#939a9d"), ("a1.png", "#838a8d"), ("u3.png", "#555"), ("u2.png", "#444"),
        ("u1.png", "#333"), ("b1.png", "#7fa5d8"), ("m.png", "#ffd84d"), ("m2.png", "#e8743b"), ("c1.png", "#ccc"),
        ("c2.png", "#bbb"), ("mask.png", "#888"), ("status-disrupted.png", "red"), ("status-oos.png", "yellow"),
        ("status-isolated.png", "purple")]}
    images["images/board.png"] = _board_png(400, 300)
    track = TrackSpec("VP Track", "VP", ("VP 0", "VP 1", "VP 2"), ("0", "1", "2"), columns=3)
    images["images/" + track.image] = _board_png(track.width, track.height)
    return ModuleSpec(
        game="test",
        name="Gazala Test Module",
        version="0.1",
        description="synthetic module for the tests",
        sides=("Axis", "Allied"),
        board=board,
        pieces=pieces,
        turns=("May 27 AM", "May 27 PM", "June 1-2"),
        dice=(DiceSpec("d10", 1, 10, -1),),
        decks=(DeckSpec("Axis action chits", ("axis-action-15pz-21pz-1",)), DeckSpec("Allied tactical chits", ("allied-tac-combat-1",))),
        scenarios=(ScenarioSpec("Test set-up", (("axis-21pz-5-1", "0101"), ("allied-1ff-marine", "0302")), "May 27 AM", "test",
                                used=("allied-1ff-marine",)),),
        help_html="<html><body><h1>Test</h1></body></html>",
        images=images,
        track=track,
        status=STATUS,
        vassal_version="3.6.0",
    )


#: the status layers of the small module (a build configuration's prototypes.status)
STATUS = (
    StatusSpec("Disrupted", key("D", CTRL + SHIFT), "status-disrupted.png"),
    StatusSpec("Out of Supply", key("O"), "status-oos.png"),
    StatusSpec("Isolated", key("I"), "status-isolated.png"),
)
assert KEY_FLIP not in {s.key for s in STATUS}


def _board_png(w: int, h: int) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (w, h), "#f6efe0").save(buf, "PNG")
    return buf.getvalue()


@pytest.fixture(scope="session")
def small_vmod(small_spec: ModuleSpec, tmp_path_factory: pytest.TempPathFactory) -> Path:
    from gazala_tools.vassal.module import build_vmod
    from gazala_tools.vassal.module.package import write_vmod

    out = tmp_path_factory.mktemp("small") / "small.vmod"
    write_vmod(out, build_vmod(small_spec)[0])
    return out


@pytest.fixture(scope="session")
def game_module(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], tuple[Path, object]]:
    """``game_module(game) -> (path, BuildResult)``, each game built once per session."""
    from gazala_tools.vassal.module import build_game_module

    cache: dict[str, tuple[Path, object]] = {}
    root = tmp_path_factory.mktemp("games")

    def get(game: str) -> tuple[Path, object]:
        if game not in cache:
            out = root / f"{game}.vmod"
            cache[game] = (out, build_game_module(game, out))
        return cache[game]

    return get


# --- the modules of the shared corpus (CC0; read in place, never copied into the repository) ------------
@pytest.fixture(scope="session")
def ragnarok(corpus_dir: Path) -> Path:
    """The Ragnarok module, unzipped (a module folder)."""
    return corpus_dir / "hex-n-counters-template" / "ragnarok"


@pytest.fixture(scope="session")
def ragnarok_imported(ragnarok: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``game import`` of the Ragnarok module, once a session; tests read it (a test that edits the
    folder copies it first)."""
    from gazala_tools.cli import main

    out = tmp_path_factory.mktemp("ragnarok-imported") / "ragnarok"
    assert main(["game", "import", str(ragnarok), str(out)]) == 0
    return out


@pytest.fixture(scope="session")
def jzhex(corpus_dir: Path) -> Path:
    """The jzhex "Hex'n'Counters" template module (.vmod)."""
    return corpus_dir / "hex-n-counters-template" / "jzhex-n-counters-template-v12-379.vmod"


@pytest.fixture(scope="session")
def ragnarok_vmod(ragnarok: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Ragnarok zipped as a .vmod (in a temporary folder)."""
    import zipfile

    out = tmp_path_factory.mktemp("ragnarok") / "ragnarok.vmod"
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for p in sorted(ragnarok.rglob("*")):
            if p.is_file():
                z.write(p, p.relative_to(ragnarok).as_posix())
    return out
