"""What the fuzzer feeds: one :class:`Target` per reader (saves, modules, every YAML kind, images).

A target has seed inputs, a mutator and a ``run(path, work)`` that reads the input the way a command
does. The contract every reader must keep: ``run`` returns, or raises
:class:`~gazala_tools.errors.GazalaError` (a clean error, exit 2). Anything else is a bug: another
exception, or exit status 3 from the command line.
"""

from __future__ import annotations

import contextlib
import importlib
import io
import random
import shutil
from collections.abc import Callable
from functools import cache
from pathlib import Path

from gazala_tools.games.scenarios import load_scenarios
from gazala_tools.games.tables import load_tables
from tools.fuzz import mutate, reports
from tools.fuzz.base import Bug, Target, cli

ROOT = Path(__file__).resolve().parents[2]
RIVER_WAR = ROOT / "tests" / "games" / "river-war"
SHARED = Path("/work/shared")
RAGNAROK = SHARED / "corpus" / "hex-n-counters-template" / "ragnarok"


# --- seeds ------------------------------------------------------------------------------------------
@cache
def _save_seeds() -> tuple[bytes, ...]:
    from tools.saves import FORMS, sample_commands, sample_file

    text = sample_commands(6, style="3.7", log_steps=4)
    seeds = [sample_file(text, zipped=z, encoding=e) for z, e in FORMS]
    if (RAGNAROK / "ragnarok-start.vsav").is_file():
        seeds.append((RAGNAROK / "ragnarok-start.vsav").read_bytes())
    return tuple(seeds)


def _mutate_save(rng: random.Random, seed: bytes) -> bytes:
    from gazala_tools.vsav.container import read_container
    from tools.saves import sample_file

    op = rng.randrange(3)
    if op == 0 and seed[:2] == b"PK":
        return mutate.mutate_zip(rng, seed, text_members=("savedata", "moduledata"))
    if op == 1:  # mutate the command text, then encode it as VASSAL would
        text = read_container(seed).text
        mutated = mutate.mutate_text(rng, text)
        return sample_file(mutated, zipped=rng.random() < 0.7, encoding=rng.choice(("vcsk", "plain", "xz", "vobs")))
    return mutate.mutate_bytes(rng, seed)


def _small_module(buildfile: bytes, images: dict[str, bytes]) -> bytes:
    return mutate.rezip([("buildFile.xml", buildfile), *((f"images/{k}", v) for k, v in images.items()),
                         ("moduledata", b"<?xml version='1.0'?><data><name>Fuzz</name><version>1</version></data>")])


@cache
def _module_seeds() -> tuple[bytes, ...]:
    from tools.fuzz.samples import buildfile

    seeds = [_small_module(buildfile(image="b.png").encode(), {"b.png": mutate.png(40, 30)}),
             _small_module(buildfile('hType="A" vLeading="2" first="V" stagger="true"').encode(), {})]
    if (RAGNAROK / "buildFile.xml").is_file():
        seeds.append(_small_module((RAGNAROK / "buildFile.xml").read_bytes(), {}))
    return tuple(seeds)


def _mutate_module(rng: random.Random, seed: bytes) -> bytes:
    return mutate.mutate_zip(rng, seed, text_members=("buildFile.xml", "moduledata"))


def _text_seeds(*files: Path | str) -> Callable[[], list[bytes]]:
    def seeds() -> list[bytes]:
        return [f.read_bytes() if isinstance(f, Path) else f.encode() for f in files]

    return seeds


def _mutate_yaml(rng: random.Random, seed: bytes) -> bytes:
    if rng.random() < 0.15:
        return mutate.mutate_bytes(rng, seed, rounds=rng.randint(1, 3))
    # half the inputs get one edit only, so that more of them get past the first check into deeper code
    text = mutate.mutate_text(rng, seed.decode("utf-8"), rounds=1 if rng.random() < 0.5 else None)
    return text.encode("utf-8", "surrogatepass")


@cache
def _image_seeds() -> tuple[bytes, ...]:
    from PIL import Image

    seeds = [mutate.png(24, 24), mutate.png(8, 8, mode=6)]
    for fmt in ("JPEG", "GIF"):
        buf = io.BytesIO()
        Image.new("RGB", (24, 24), (200, 180, 120)).save(buf, fmt)
        seeds.append(buf.getvalue())
    return tuple(seeds)


def _mutate_image(rng: random.Random, seed: bytes) -> bytes:
    if rng.random() < 0.2:  # a tiny PNG whose header declares a huge size, or whose text chunk is a bomb
        import zlib

        from tools.fuzz.samples import png_chunk, png_declaring

        w, h = rng.choice(((16000, 15000), (1, 10**9), (0, 5), (2**31 - 1, 2**31 - 1), (65535, 65535), (4, 4)))
        extra = b""
        if rng.random() < 0.5:
            extra = png_chunk(b"zTXt", b"Comment\0\0" + zlib.compress(b"A" * (16 << 20), 9))
        return png_declaring(w, h, extra=extra)
    return mutate.mutate_bytes(rng, seed)


# --- runs -------------------------------------------------------------------------------------------
GRID_YAML = ("orientation: flat\nnumbering: vassal-default\ncolumns: [1, 4]\nrows: [1, 4]\n"
             "pixels: {dx: 40, dy: 46, x0: 10, y0: 10}\n")
LEGEND_YAML = "terrain: {clear: '#ffffff', rough: [200, 180, 120]}\ndefault: clear\nhexsides: {river: '#0000ff'}\n"
#: a legal River War position (no RG ``breaches``: River War's plugin-less rules refuse that key, and
#: a seed refused at its first key never reaches the units)
POSITION_YAML = ("turn: '1'\nunits:\n  - {id: r1, side: red, type: infantry, hex: D-4}\n"
                 "  - {id: b1, side: blue, type: armor, hex: D-7, markers: [out-of-supply]}\n")
MAPPING_YAML = ("units:\n  - {match: '^(?P<id>[A-Z].*)', side: axis, type: infantry}\n"
                "markers:\n  - {match: 'Supply', marker: out-of-supply}\n"
                "properties:\n  - {property: OOS, value: 'true', marker: isolated}\n")


def _work_files(work: Path) -> dict[str, Path]:
    """Well-formed companions every input is read with (written once per work folder)."""
    from PIL import Image

    files = {"grid": work / "grid.yaml", "legend": work / "legend.yaml", "scan": work / "scan.png"}
    if not files["scan"].exists():
        files["grid"].write_text(GRID_YAML)
        files["legend"].write_text(LEGEND_YAML)
        Image.new("RGB", (200, 200), (255, 255, 255)).save(files["scan"])
    return files


def _game_with(work: Path, file: str, path: Path) -> Path:
    """A fresh copy of River War with ``file`` replaced by the input (fresh: readers cache per file)."""
    game = work / f"game-{path.stem}"
    shutil.copytree(RIVER_WAR, game)
    shutil.copyfile(path, game / file)
    return game


def _run_save(path: Path, work: Path) -> None:
    cli("vsav", "dump", path, "--json")


def _run_save_module(path: Path, work: Path) -> None:
    cli("vsav", "dump", path, "--module", RAGNAROK / "buildFile.xml", "--json")
    cli("vsav", "diff", RAGNAROK / "ragnarok-start.vsav", path, "--module", RAGNAROK / "buildFile.xml")


def _run_save_referee(path: Path, work: Path) -> None:
    cli("referee", "check", path, "--game", "gazala-rg")


def _run_module(path: Path, work: Path) -> None:
    cli("grid", "locate", path, "120", "90")
    from gazala_tools.referee.detect import game_of_module_file

    game_of_module_file(path)


def _game_file_run(file: str, *commands: tuple[str, ...]) -> Callable[[Path, Path], None]:
    def run(path: Path, work: Path) -> None:
        from gazala_tools.errors import GazalaError

        game = _game_with(work, file, path)
        try:
            position = work / "position.yaml"
            if not position.exists():
                position.write_text(POSITION_YAML)
            for argv in commands:
                cli(*({"{game}": game, "{position}": position}.get(a, a) for a in argv))
            from gazala_tools.games import find_game

            try:
                g = find_game(game)
                load_scenarios(g)
                load_tables(g)
                from gazala_tools.vassal.module.games import game_and_config

                game_and_config(g)
            except GazalaError:
                raise
            except Exception as exc:  # the library contract: GazalaError only
                raise Bug(f"{type(exc).__name__}: {exc}") from exc
        finally:
            shutil.rmtree(game, ignore_errors=True)

    return run


def _run_position(path: Path, work: Path) -> None:
    cli("referee", "check", path, "--game", RIVER_WAR)


def _run_mapping(path: Path, work: Path) -> None:
    save = RAGNAROK / "ragnarok-start.vsav"
    cli("referee", "check", save, "--game", "gazala-rg", "--mapping", path)


def _run_grid(path: Path, work: Path) -> None:
    f = _work_files(work)
    cli("digitize", "overlay", f["scan"], "--grid", path, "-o", work / "overlay.png")


def _run_legend(path: Path, work: Path) -> None:
    f = _work_files(work)
    cli("digitize", "classify", f["scan"], "--grid", f["grid"], "--legend", path)


def _run_image(path: Path, work: Path) -> None:
    f = _work_files(work)
    cli("digitize", "overlay", path, "--grid", f["grid"], "-o", work / "overlay.png")
    from gazala_tools.errors import GazalaError

    try:
        from gazala_tools.inputs import open_image
    except ImportError:  # a tree before the input boundary (comparing runs)
        return
    with contextlib.suppress(GazalaError):
        open_image(path).close()


#: the referee on a small position of the game (reads game.yaml's rules, the map and the counters)
REFEREE = ("referee", "check", "{position}", "--game", "{game}")


def _run_art(path: Path, work: Path) -> None:
    from gazala_tools.render.counters import load_art

    load_art(path)


RW_POSITION = 'game: river-war\nturn: "2"\nunits:\n' + "".join(
    f'  - {{id: u{i}, side: red, type: infantry, hex: "C-3"}}\n' for i in range(3))


def _run_folder(path: Path, work: Path) -> None:
    """A hostile game folder (:mod:`tools.fuzz.folders`) read by every command that reads a folder;
    every file opened meanwhile must lie inside the folder (or the package, Python, the position)."""
    from gazala_tools.errors import GazalaError
    from gazala_tools.games import find_game
    from gazala_tools.vassal.module.games import game_and_config
    from tools.fuzz import folders

    recipe = path.read_bytes().decode("utf-8", "replace")
    game, out, position = work / f"folder-{path.stem}", work / f"outside-{path.stem}", work / "rw-position.yaml"
    if not position.exists():
        position.write_text(RW_POSITION)
    clean: list[str] = []
    try:
        planted = folders.build(recipe, game, out, RIVER_WAR)
        before = folders.listing(game)
        folders.watch_reads(game, position)
        try:
            for argv in (("map", "check", game), ("counters", "list", game), ("game", "show", game),
                         ("referee", "check", position, "--game", game),
                         ("referee", "check", position, "--game", game, "--allow-plugin")):
                try:
                    cli(*argv)
                except GazalaError as exc:
                    clean.append(str(exc))
            try:
                g = find_game(game)
                load_tables(g)
                load_scenarios(g)
                game_and_config(g)
            except GazalaError as exc:
                clean.append(str(exc))
            except Exception as exc:  # the library contract: GazalaError only
                raise Bug(f"{type(exc).__name__}: {exc}") from exc
        finally:
            outside = folders.stop_watching()
        if folders.forged_ran():
            raise Bug("a forged __pycache__ pyc ran")
        folders.judge(game, before, outside, clean, secret="FUZZ-SECRET", what="game folder",
                      note=f" (planted: {[p.name for p in planted]})")
    finally:
        shutil.rmtree(game, ignore_errors=True)
        shutil.rmtree(out, ignore_errors=True)
    if clean:
        raise GazalaError(clean[0])


def _folder_seeds() -> list[bytes]:
    from tools.fuzz import folders

    return [s.encode() for s in folders.SEEDS]


def _mutate_folder(rng: random.Random, seed: bytes) -> bytes:
    from tools.fuzz import folders

    return folders.mutate_recipe(rng, seed)


def _game_target(name: str, file: str, *commands: tuple[str, ...]) -> Target:
    return Target(name, ".yaml", _text_seeds(RIVER_WAR / file), _mutate_yaml, _game_file_run(file, *commands))


TARGETS: dict[str, Target] = {t.name: t for t in (
    Target("save", ".vsav", lambda: list(_save_seeds()), _mutate_save, _run_save),
    Target("save-module", ".vsav", lambda: list(_save_seeds()), _mutate_save, _run_save_module),
    Target("save-referee", ".vsav", lambda: list(_save_seeds()), _mutate_save, _run_save_referee),
    Target("module", ".vmod", lambda: list(_module_seeds()), _mutate_module, _run_module),
    _game_target("game-yaml", "game.yaml", ("game", "show", "{game}"), REFEREE),
    _game_target("map-yaml", "map.yaml", ("map", "check", "{game}"), REFEREE),
    _game_target("counters-yaml", "counters.yaml", ("counters", "list", "{game}"), REFEREE),
    _game_target("scenarios-yaml", "scenarios.yaml"),
    _game_target("tables-yaml", "tables.yaml"),
    _game_target("module-yaml", "module.yaml"),
    Target("position-yaml", ".yaml", _text_seeds(POSITION_YAML), _mutate_yaml, _run_position),
    Target("mapping-yaml", ".yaml", _text_seeds(MAPPING_YAML), _mutate_yaml, _run_mapping),
    Target("grid-yaml", ".yaml", _text_seeds(GRID_YAML), _mutate_yaml, _run_grid),
    Target("legend-yaml", ".yaml", _text_seeds(LEGEND_YAML), _mutate_yaml, _run_legend),
    Target("image", ".png", lambda: list(_image_seeds()), _mutate_image, _run_image),
    Target("counter-art", ".png", lambda: list(_image_seeds()), _mutate_image, _run_art),
    Target("game-folder", ".recipe", _folder_seeds, _mutate_folder, _run_folder),
    Target(reports.NAME, ".txt", reports.seeds, reports.mutate_name, reports.run),  # hostile names in HTML reports
    *__import__("tools.fuzz.art", fromlist=["targets"]).targets(),  # issue 31: svg-amplification, layers
)}

#: modules holding more targets (imported last: they use this module's ``Target``, ``Bug`` and ``cli``),
#: each ending with ``register(TARGETS)``. Issue 31's crafted modules; add a family of targets here.
EXTRA: tuple[str, ...] = ("tools.fuzz.modules",)


def register(targets: tuple[Target, ...]) -> None:
    """Add a family of targets to :data:`TARGETS` (called by each module of :data:`EXTRA`)."""
    TARGETS.update({t.name: t for t in targets})


for _extra in EXTRA:
    importlib.import_module(_extra)
