"""``gazala game import`` (issue 25 item 1, partial; docs/module.md "Importing a module"): a module becomes a
game folder our commands read: its grid names every hex as the module does, every piece slot is a counter
with the module's own art, and the counter sheet prints it."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from gazala_tools.cli import main
from gazala_tools.counters.loader import load_manifest
from gazala_tools.mapdata.loader import load_map


@pytest.fixture(scope="module")
def imported_ragnarok(ragnarok: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("imp") / "ragnarok"
    assert main(["game", "import", str(ragnarok), str(out)]) == 0
    return out


def test_batalha_grid_names_every_hex_as_our_game_does(game_module: Callable[[str], tuple[Path, Any]],
                                                       tmp_path: Path) -> None:
    """The imported map has every hex label of the game the module was built from; the only extra hexes
    lie below its last row (the half hexes of the bottom edge, and the title block and legend under the
    map): the module's grid covers its whole board image, and nothing in a module tells the map from them."""
    out = tmp_path / "bat"
    assert main(["game", "import", str(game_module("batalha")[0]), str(out)]) == 0
    ours, imported = load_map("batalha"), load_map(out)
    want, got = {ours.label(h) for h in ours.hexes()}, {imported.label(h) for h in imported.hexes()}
    assert want <= got
    last = max(int(label[1:]) for label in want)
    assert got - want and all(int(label[1:]) > last for label in got - want)


def test_every_piece_slot_is_a_counter_with_the_modules_art(imported_ragnarok: Path) -> None:
    manifest = load_manifest(imported_ragnarok)
    assert len(manifest.counters) == 34
    report = yaml.safe_load((imported_ragnarok / "import-report.yaml").read_text())
    # three slots of the hidden palette name images the module lacks: drawn, not given art
    imported = report["counts"]["imported"]
    assert imported["counters with own art"] == 31 and imported["counters drawn"] == 3
    assert imported["placements"] == 99 and report["counts"]["not understood"] == 0 and report["not understood"] == []



def test_faces_are_the_basic_image_and_the_flip_layer(imported_ragnarok: Path, ragnarok: Path) -> None:
    """hero-odin: its front is its BasicPiece image, the module's own file (copied byte for byte with the
    module's files); its back is its inactive "Flip" layer (hero-odin-r.png) drawn over it, a new image of
    the same size."""
    markers = yaml.safe_load((imported_ragnarok / "counters.yaml").read_text(encoding="utf-8"))["markers"]
    art = next(m["art"] for m in markers if m["id"].startswith("hero-odin-"))
    assert art["front"] == "vmod/images/hero-odin.png"
    odin, back = imported_ragnarok / art["front"], imported_ragnarok / art["back"]
    assert odin.read_bytes() == (ragnarok / "images" / "hero-odin.png").read_bytes()
    from PIL import Image

    with Image.open(back) as b, Image.open(ragnarok / "images" / "hero-odin-r.png") as r:
        assert b.size == r.size
        bp, rp = b.convert("RGBA").get_flattened_data(), r.convert("RGBA").get_flattened_data()
        opaque = [i for i, px in enumerate(rp) if px[3] == 255]
        assert len(opaque) > len(rp) // 2  # where the flip layer is opaque, the back is the flip layer
        assert all(bp[i] == rp[i] for i in opaque)
    assert back.read_bytes() != odin.read_bytes()


def test_counter_sheet_of_an_imported_module(imported_ragnarok: Path, tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 25 item 4: the sheet at a size the user gives, and the contact sheet of both faces."""
    pdf = tmp_path / "r.pdf"
    assert main(["counters", "sheet", str(imported_ragnarok), "-o", str(pdf), "--size", "16mm", "--no-progress",
                 "--json"]) == 0
    assert pdf.read_bytes()[:5] == b"%PDF-"
    assert json.loads(capsys.readouterr().out)["counters"] == 34
    png = tmp_path / "c.png"
    assert main(["counters", "contact", str(imported_ragnarok), "-o", str(png)]) == 0
    assert "68 faces" in capsys.readouterr().out


def test_import_refuses_a_folder_that_is_not_empty(ragnarok: Path, tmp_path: Path) -> None:
    (tmp_path / "x").write_text("mine")
    assert main(["game", "import", str(ragnarok), str(tmp_path)]) == 2
    assert [p.name for p in tmp_path.iterdir()] == ["x"]


def test_a_module_without_a_hex_grid_imports_without_a_map(corpus_dir: Path, tmp_path: Path) -> None:
    """The engine's test module has a map with no board: no map.yaml and no numbering (our map model holds
    a hex grid); its map is data in module.yaml, and the report says there is no main grid."""
    out = tmp_path / "t"
    assert main(["game", "import", str(corpus_dir / "vassal-test-fixture" / "test-predefined-setups.vmod"),
                 str(out)]) == 0
    assert not (out / "map.yaml").exists() and "numbering" not in (out / "game.yaml").read_text(encoding="utf-8")
    report = yaml.safe_load((out / "import-report.yaml").read_text(encoding="utf-8"))
    assert report["main grid"] is None and report["counts"]["imported"]["maps"] == 1
    assert main(["game", "show", str(out)]) == 0


@pytest.mark.parametrize("which", ["ragnarok", "jzhex"])
def test_imported_labels_are_the_modules_hex_names(which: str, ragnarok: Path, jzhex: Path, tmp_path: Path) -> None:
    """The centre of every hex of the imported map (from map.yaml's pixels) is named by the module's own
    grid with that hex's label (MapLayout.locate, which gives the engine's names: tests/oracle/
    test_conformance.py): Ragnarok's zoned, sideways, descending grid too."""
    from gazala_tools.vassal.buildfile import read_layouts

    src = {"ragnarok": ragnarok, "jzhex": jzhex}[which]
    out = tmp_path / which
    assert main(["game", "import", str(src), str(out)]) == 0
    report = yaml.safe_load((out / "import-report.yaml").read_text())
    layout = next(lay for lay in read_layouts(src) if lay.name == report["main grid"]["map"])
    imported = load_map(out)
    geometry = imported.geometry()
    assert len(imported.hexes()) > 60
    wrong = [(imported.label(h), layout.locate(*map(int, geometry.hex_center(h))).name) for h in imported.hexes()]
    assert [(ours, theirs) for ours, theirs in wrong if ours != theirs] == []


def test_import_reads_a_zipped_module_within_its_own_budget(jzhex: Path, tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    """Images are copied under the import's budget (MAX_MODULE_BYTES, 4 GB), not the 80 MB that reading a
    buildFile and image headers needs; a module past it stops with exit 2 and nothing written."""
    from gazala_tools.vassal.importer import folder

    vmod = jzhex
    monkeypatch.setattr(folder, "MAX_MODULE_BYTES", 40_000)
    assert main(["game", "import", str(vmod), str(tmp_path / "j")]) == 2
    assert "budget" in capsys.readouterr().err and not (tmp_path / "j").exists()
