"""``gazala game new``: from a scan to a game folder to a module (issue 15, "From a scan").

A synthetic printed scan with a known VASSAL grid shows the folder is right (grid, names, files that
load, a module that builds byte for byte the same twice) and that bad requests write nothing. The real
printed Ragnarok board (``../shared/corpus``, a sideways grid with descending rows) goes through the
real VASSAL 3.7.26 engine: the names at 50 points and the snap of pieces dropped at hex centres are
those of the Ragnarok module's own grid.
"""

from __future__ import annotations

import hashlib
import random
import zipfile
from pathlib import Path
from typing import Any

import pytest
import yaml

from gazala_tools.cli import main
from gazala_tools.counters.loader import load_game_manifest
from gazala_tools.games import find_game
from gazala_tools.games.scenarios import load_scenarios
from gazala_tools.mapdata.loader import load_game_map

RAGNAROK = Path("hex-n-counters-template") / "ragnarok"
#: the Ragnarok module's own HexGridNumbering, as --numbering attributes
RAGNAROK_NUMBERING = "first=H,hLeading=1,vLeading=1,hOff=0,vOff=0,vDescend=true,stagger=true"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def tree_digest(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}  # fmt: skip


@pytest.fixture(scope="module")
def scan(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Any]:
    """A harsh printed scan (flat hexes, VASSAL's default numbering) and the module grid that fits it."""
    from gazala_tools.hexgrid import HexGridGeometry
    from gazala_tools.numbering import Numbering
    from tools.scans.harsh import harsh_scan

    s = harsh_scan(113, sideways=False, hex_px=66.1, rotation=0.0, integer_origin=True)
    path = tmp_path_factory.mktemp("scan") / "my map.png"
    s.image.save(path)
    ox, oy = s.origin
    truth = HexGridGeometry(dx=s.dx, dy=s.dy, x0=int(ox), y0=int(oy), sideways=False, numbering=Numbering())
    return path, (s, truth)


def _ref(s: Any, truth: Any, c: int, r: int) -> str:
    """--ref for raw hex (c, r) of the true grid: its printed name at its printed centre."""
    x, y = truth.raw_center(c, r)
    bx0, by0, bx1, by1 = s.map_box
    assert bx0 < x < bx1 and by0 < y < by1
    return f"{truth.numbering.name(c, r, sideways=False)}={x},{y}"


def test_game_new_writes_a_game_folder_on_the_scans_own_grid(
    scan: tuple[Path, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    image, (s, truth) = scan
    before = image.read_bytes()
    folder = tmp_path / "My Game"
    code, out, _ = run(capsys, "game", "new", str(folder), "--image", str(image), "--ref", _ref(s, truth, 4, 3),
                       "--sides", "Reds,Blues", "--turns", "6")  # fmt: skip
    assert code == 0, out
    assert "gazala module build" in out
    assert image.read_bytes() == before
    assert sorted(p.name for p in folder.iterdir()) == [
        "board.png", "counters.yaml", "game.yaml", "map.yaml", "module.yaml", "overlay.png", "scenarios.yaml",
    ]  # fmt: skip
    assert (folder / "board.png").read_bytes() == before
    game = find_game(folder)
    assert game.id == "my-game" and [sd.name for sd in game.sides] == ["Reds", "Blues"] and len(game.turns) == 6
    px = yaml.safe_load((folder / "map.yaml").read_text())["grid"]["pixels"]
    assert (px["board_width"], px["board_height"]) == s.image.size
    assert abs(px["dx"] - truth.dx) / truth.dx < 0.005 and abs(px["dy"] - truth.dy) / truth.dy < 0.005
    # every hex of the map has the name the printed map gives the hex at that point
    game_map = load_game_map(game)
    geo = game_map.geometry()
    hexes = game_map.hexes()
    assert len(hexes) > 50
    for h in random.Random(1).sample(hexes, 50):
        x, y = geo.hex_center(h)
        c, r = truth.raw_at(x, y)
        assert game_map.label(h) == truth.numbering.name(c, r, sideways=False)
        tx, ty = truth.raw_center(c, r)
        assert abs(x - tx) <= 2 and abs(y - ty) <= 2
    # the counters and the example set-up load and place every unit on a hex of the map
    from gazala_tools.games.scenarios import resolve_setup

    units = [(u.unit_id, u.formation) for u in load_game_manifest(game).units]
    assert len(units) == 6
    setup = resolve_setup(load_scenarios(game)[0], game_map, units)
    assert len(dict(setup.hexes)) == 6 and len(set(dict(setup.hexes).values())) == 6


def test_game_new_folder_builds_a_module_whose_board_is_the_scan(
    scan: tuple[Path, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    image, (s, truth) = scan
    folder = tmp_path / "g"
    assert run(capsys, "game", "new", str(folder), "--image", str(image), "--ref", _ref(s, truth, 2, 2))[0] == 0
    a, b = tmp_path / "a.vmod", tmp_path / "b.vmod"
    assert run(capsys, "module", "build", str(folder), "-o", str(a))[0] == 0
    assert run(capsys, "module", "build", str(folder), "-o", str(b))[0] == 0
    assert a.read_bytes() == b.read_bytes()
    with zipfile.ZipFile(a) as zf:
        assert zf.read("images/board.png") == image.read_bytes()
        build = zf.read("buildFile.xml").decode()
    spec = yaml.safe_load((folder / "map.yaml").read_text())["grid"]["pixels"]
    assert f'x0="{spec["x0"]}"' in build and f'y0="{spec["y0"]}"' in build


@pytest.mark.parametrize(
    ("extra", "expected"),
    [
        (["--numbering", "nonsense"], "--numbering"),
        (["--sides", "OnlyOne"], "--sides"),
        (["--turns", "0"], "--turns"),
        (["--ref", "0101"], "--ref"),
    ],
)
def test_game_new_refuses_bad_requests_with_one_line_and_writes_nothing(
    scan: tuple[Path, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str], expected: str
) -> None:
    image, _ = scan
    folder = tmp_path / "g"
    code, _out, err = run(capsys, "game", "new", str(folder), "--image", str(image), *extra)
    assert code == 2 and expected in err and len(err.strip().splitlines()) == 1
    assert not folder.exists() and sorted(p.name for p in tmp_path.iterdir()) == []


def test_game_new_never_writes_into_an_existing_folder_or_over_its_input(
    scan: tuple[Path, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    image, _ = scan
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "notes.txt").write_text("keep me")
    before = tree_digest(tmp_path)
    code, _, err = run(capsys, "game", "new", str(folder), "--image", str(image))
    assert code == 2 and "not empty" in err
    code, _, err = run(capsys, "game", "new", str(image.parent), "--image", str(image))
    assert code == 2
    assert tree_digest(tmp_path) == before


def test_game_new_refuses_an_image_vassal_cannot_show(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tif = tmp_path / "scan.tif"
    from PIL import Image

    Image.new("RGB", (100, 100), "white").save(tif)
    code, _, err = run(capsys, "game", "new", str(tmp_path / "g"), "--image", str(tif))
    assert code == 2 and "scan.tif" in err and ".png" in err


# --- Ragnarok: a real printed map, through the real engine ------------------------------------------------
def _ragnarok_truth(corpus_dir: Path) -> Any:
    from gazala_tools.vassal.buildfile import find_layout, read_layouts

    build = corpus_dir / RAGNAROK / "buildFile.xml"
    return find_layout(read_layouts(build), None, build)


@pytest.fixture(scope="module")
def ragnarok_game(corpus_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """``game new`` on the Ragnarok board with two reference hexes in neighbouring columns, named by
    the module's own grid (its numbering descends, so two references settle the labels' stagger),
    then ``module build``."""
    truth = _ragnarok_truth(corpus_dir)
    refs = [truth.locate(1200, 900), truth.locate(1259, 998)]  # a hex mid-board and its neighbour
    assert refs[0].name[:2] != refs[1].name[:2]  # two columns (sideways: along the screen's y)
    folder = tmp_path_factory.mktemp("ragnarok") / "ragnarok"
    image = corpus_dir / RAGNAROK / "images" / "map.jpg"
    argv = ["game", "new", str(folder), "--image", str(image), "--numbering", RAGNAROK_NUMBERING]
    for ref in refs:
        argv += ["--ref", f"{ref.name}={ref.snapped[0]},{ref.snapped[1]}"]
    assert main(argv) == 0
    vmod = folder.parent / "ragnarok.vmod"
    assert main(["module", "build", str(folder), "-o", str(vmod)]) == 0
    return folder, vmod


def _points(corpus_dir: Path) -> list[tuple[int, int]]:
    """50 points spread over the printed hex area (the module's "map" zone), each within a quarter of a
    hex of a hex centre of the Ragnarok module."""
    truth = _ragnarok_truth(corpus_dir)
    rnd = random.Random(50)
    out = []
    for _ in range(50):
        cx, cy = truth.locate(rnd.randint(120, 2950), rnd.randint(120, 1650)).snapped
        out.append((cx + rnd.randint(-20, 20), cy + rnd.randint(-20, 20)))
    return out


@pytest.mark.slow
def test_ragnarok_game_names_hexes_as_the_modules_own_grid(ragnarok_game: tuple[Path, Path], corpus_dir: Path) -> None:
    from gazala_tools.vassal.gamelayout import layout_for_game

    truth = _ragnarok_truth(corpus_dir)
    ours = layout_for_game(str(ragnarok_game[0]))
    for x, y in _points(corpus_dir):
        mine, theirs = ours.locate(x, y), truth.locate(x, y)
        assert mine.name == theirs.name, (x, y)
        assert max(abs(a - b) for a, b in zip(mine.snapped, theirs.snapped, strict=True)) <= 2, (x, y)


@pytest.mark.slow
def test_a_reference_that_contradicts_the_first_is_refused(corpus_dir: Path, tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    truth = _ragnarok_truth(corpus_dir)
    a, b = truth.locate(1200, 900), truth.locate(1259, 998)
    image = corpus_dir / RAGNAROK / "images" / "map.jpg"
    code, _, err = run(capsys, "game", "new", str(tmp_path / "g"), "--image", str(image), "--numbering",
                       RAGNAROK_NUMBERING, "--ref", f"{a.name}={a.snapped[0]},{a.snapped[1]}",
                       "--ref", f"{a.name}={b.snapped[0]},{b.snapped[1]}")  # fmt: skip
    assert code == 2 and f"names that hex {b.name}" in err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.vassal
def test_ragnarok_module_in_the_engine_names_and_snaps_as_the_original(
    vassal_engine: Any, ragnarok_game: tuple[Path, Path], corpus_dir: Path, tmp_path: Path
) -> None:
    """In VASSAL 3.7.26: the location names at 50 points equal those of the Ragnarok module (its own
    buildFile, with the same board image), and a piece dropped at each of our hex centres snaps within
    2 px of where the original module snaps it."""
    from gazala_tools.vassal.gamelayout import MAIN_MAP

    folder, vmod = ragnarok_game
    loaded = vassal_engine.module(vmod)
    assert loaded["dialogs"] == [] and loaded["roundtrip"]["dropped_attributes"] == []
    original = tmp_path / "ragnarok-original.vmod"  # the Ragnarok module itself, with its board
    src = corpus_dir / RAGNAROK
    with zipfile.ZipFile(original, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("buildFile.xml", (src / "buildFile.xml").read_bytes())
        zf.writestr("moduledata", (src / "moduledata").read_bytes())
        zf.writestr("images/map.jpg", (src / "images" / "map.jpg").read_bytes())
    points = _points(corpus_dir)
    ours = vassal_engine.locate(vmod, [(MAIN_MAP, x, y) for x, y in points])
    theirs = vassal_engine.locate(original, [("Main Map", x, y) for x, y in points])
    assert [p.location for p in ours] == [p.location for p in theirs]
    game_map = load_game_map(find_game(folder))
    geo = game_map.geometry()
    truth = _ragnarok_truth(corpus_dir)
    inside = [c for c in map(geo.hex_center, game_map.hexes()) if 60 < c[0] < 3020 and 60 < c[1] < 1700]
    centres = random.Random(2).sample(inside, 50)
    assert all(truth.locate(round(x), round(y)).name != "offboard" for x, y in centres)
    ours = vassal_engine.locate(vmod, [(MAIN_MAP, round(x), round(y)) for x, y in centres])
    theirs = vassal_engine.locate(original, [("Main Map", round(x), round(y)) for x, y in centres])
    for a, b in zip(ours, theirs, strict=True):
        assert a.location == b.location
        assert max(abs(p - q) for p, q in zip(a.snap, b.snap, strict=True)) <= 2, (a, b)


def test_game_new_with_a_legend_puts_the_classified_terrain_into_the_map(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 15 item 4: the optional classify output (terrain per hex) goes into the map data."""
    from tools.scans.synthetic import DEFAULT_KINDS, legend_for, synthetic_board

    b = synthetic_board(columns=24, rows=18, dx=48.5, dy=56.0, x0=37, y0=45, seed=1)
    scan = tmp_path / "board.png"
    b.image.save(scan)
    legend = tmp_path / "legend.yaml"
    legend.write_text(yaml.safe_dump({"terrain": {k: "#{:02x}{:02x}{:02x}".format(*c)
                                                  for k, c in legend_for(DEFAULT_KINDS).items()}, "default": "clear"}))  # fmt: skip
    x, y = b.geometry.raw_center(0, 0)
    folder = tmp_path / "g"
    code, out, _ = run(capsys, "game", "new", str(folder), "--image", str(scan), "--ref", f"0101={x},{y}",
                       "--legend", str(legend))  # fmt: skip
    assert code == 0, out
    game_map = load_game_map(find_game(folder))
    known = [h for h in b.terrain if h in game_map.grid]
    assert len(known) > 0.9 * len(b.terrain)
    right = sum(game_map.terrain(h) == b.terrain[h] for h in known)
    assert right >= 0.98 * len(known)
    assert {game_map.terrain(h) for h in known} == set(b.terrain.values())


# --- counters fit the hexes (issue 23 item 3) -------------------------------------------------------------
def _face_px(spec: Any) -> int:
    import io

    from PIL import Image

    from gazala_tools.vassal.module.spec import UNIT

    unit = next(p for p in spec.pieces if p.kind == UNIT)
    data = next(v for k, v in spec.images.items() if k.endswith("/" + unit.faces[0]))
    return int(Image.open(io.BytesIO(data)).width)


def test_game_new_sizes_counters_to_the_hexes_and_names_the_tested_engine(
    scan: tuple[Path, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``module.yaml``: ``counters: size_px`` at 0.8 of the hex height across flats, with a comment
    saying so, and the VASSAL the module is tested with (3.7.26); the module's counters have that size."""
    from gazala_tools.vassal.module.games import module_spec

    image, (s, truth) = scan
    folder = tmp_path / "g"
    assert run(capsys, "game", "new", str(folder), "--image", str(image), "--ref", _ref(s, truth, 2, 2))[0] == 0
    text = (folder / "module.yaml").read_text()
    doc = yaml.safe_load(text)
    assert doc["vassal_version"] == "3.7.26"
    size = doc["counters"]["size_px"]
    assert abs(size - 0.8 * truth.dy) <= 1.5
    lines = text.splitlines()
    note = lines[next(i for i, line in enumerate(lines) if line.startswith("counters:")) - 1]
    assert note.startswith("# size_px: the counters' side in board pixels: about 0.8 of the hex height")
    assert _face_px(module_spec(folder)) == size


def test_module_build_dpi_on_a_scan_board_sizes_counters_of_a_printed_size(
    scan: tuple[Path, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--dpi`` on a scan board (``module build --help``): how many scan pixels make an inch, which sizes
    counters from their printed ``counter_size`` (1/2 in); with ``counters: size_px`` it changes nothing."""
    from gazala_tools.vassal.module.games import module_spec

    image, (s, truth) = scan
    folder = tmp_path / "g"
    assert run(capsys, "game", "new", str(folder), "--image", str(image), "--ref", _ref(s, truth, 2, 2))[0] == 0
    with_size = _face_px(module_spec(folder))
    assert _face_px(module_spec(folder, dpi=200)) == with_size
    doc = yaml.safe_load((folder / "module.yaml").read_text())
    del doc["counters"]["size_px"]
    (folder / "module.yaml").write_text(yaml.safe_dump(doc))
    assert _face_px(module_spec(folder, dpi=200)) == 100  # 1/2 in at 200 px per inch
    assert _face_px(module_spec(folder, dpi=100)) == 50
    assert "--dpi" in run(capsys, "module", "build", "--help")[1]


# --- names without a reference (issue 23 item 2) ---------------------------------------------------------
@pytest.mark.slow
@pytest.mark.parametrize("sideways", [False, True])
def test_game_new_without_a_reference_names_the_top_left_whole_hex_0101(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], sideways: bool
) -> None:
    """No --ref: the top-left hex lying whole on the scan is ``0101`` (VASSAL's default numbering's
    first hex), no hex name is negative, the summary names the four corner hexes and overlay.png (the
    grid and its labels on the scan) is in the folder."""
    from PIL import Image

    from tools.scans.harsh import harsh_scan

    s = harsh_scan(7, sideways=sideways, hex_px=60.0, rotation=0.0, integer_origin=True, max_side=1400)
    image = tmp_path / "scan.png"
    s.image.save(image)
    folder = tmp_path / "g"
    code, out, err = run(capsys, "game", "new", str(folder), "--image", str(image))
    assert code == 0, err
    game_map = load_game_map(find_game(folder))
    geo = game_map.geometry()
    w, h = s.image.size
    labels = {hx: game_map.label(hx) for hx in game_map.hexes()}
    assert not [lb for lb in labels.values() if "-" in lb]
    whole = [hx for hx in labels if all(0 <= x <= w - 1 and 0 <= y <= h - 1 for x, y in geo.hex_corners(hx))]
    first = next(hx for hx, lb in labels.items() if lb == "0101")
    assert first in whole
    # top-left: no whole hex lies before it along the columns, nor above it in its column
    u = 1 if sideways else 0
    cu = geo.hex_center(first)[u]
    assert all(geo.hex_center(hx)[u] >= cu - 1 for hx in whole)
    assert all(geo.hex_center(hx)[1 - u] >= geo.hex_center(first)[1 - u] - 1
               for hx in whole if abs(geo.hex_center(hx)[u] - cu) < 2)
    corners = next(line for line in out.splitlines() if line.startswith("corner hexes: "))
    assert corners.startswith("corner hexes: top-left 0") and all(
        k in corners for k in ("top-right", "bottom-left", "bottom-right"))
    with Image.open(folder / "overlay.png") as ov:
        assert ov.size == s.image.size
    assert "overlay.png" in out
