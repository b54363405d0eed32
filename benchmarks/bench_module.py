"""Module build time and reproducibility: RG, and a synthetic 5,000-counter game (vassal#10087 scale).

Budgets: a cold build (a fresh interpreter: start-up, imports, fonts, YAML, drawing, zip) of
gazala-rg <= 3 s; of the synthetic 5,000-counter game <= 10 s; two cold builds give the same bytes.
The synthetic game is generated here, in a temporary folder outside the package
(``tools/synthgame.py``: 4,000 units in formations of ten, a fifth of them with two steps, 180 chits,
20 markers = 5,000 counters; an 80 x 50 hex map; a set-up of 1,600 units by rule areas).

Baselines measured in the same run:

* **plain zip**: ``zipfile`` writing the same images (deflated, as a naive packer would) - the
  floor for packaging what was drawn; ratio = our assembly (buildFile, set-up saves, zip) / plain zip;
* **temp-dir set-ups**: the previous way of making the set-up saves (buildFile written to a temporary
  folder and parsed back, each save written to a file and read again); ratio = temp-dir / in memory;
* **pywargame** assembling RG's board and counter faces (when ``.cache/pywargame-venv`` exists).
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

from benchmarks.common import Result, size, smoke

ROOT = Path(__file__).resolve().parents[1]
PYWARGAME_PY = ROOT / ".cache" / "pywargame-venv" / "bin" / "python"
GAME = "gazala-rg"
#: the synthetic game: 4,000 units (+800 second steps) + 2 x 90 chits + 16 + 4 markers = 5,000 counters
SYNTH = {"units": 4000, "columns": 80, "rows": 50, "chits": 90, "markers": 16}
#: a smoke run's synthetic game: 40 units (+8 second steps) + 2 x 6 chits + 16 + 4 markers = 80 counters
SMOKE_SYNTH = {"units": 40, "columns": 12, "rows": 8, "chits": 6, "markers": 16}


CPU: list[float] = []  #: CPU seconds (user + system, all processes) of each cold build, in order


def _cold_build(game: str | Path, out: Path) -> float:
    """A fresh interpreter, wall clock: start-up, imports and fonts count (what `gazala module build` costs).
    The CPU time it took (the machine's load does not change it) is appended to :data:`CPU`."""
    code = "import sys; from gazala_tools.vassal.module import build_game_module; build_game_module(sys.argv[1], sys.argv[2])"
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    subprocess.run([sys.executable, "-c", code, str(game), str(out)], capture_output=True, text=True, check=True, cwd=ROOT)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    CPU.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return wall


def _plain_zip(images: dict[str, bytes], out: Path) -> float:
    t = time.perf_counter()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in images.items():
            zf.writestr(name, data)
    return time.perf_counter() - t


def _tempdir_setups(spec, built, tmp: Path) -> float:  # type: ignore[no-untyped-def]
    """The set-up saves as they were made before: buildFile out to a folder and parsed back, saves via files."""
    from gazala_tools.vassal.module.setups import placements
    from gazala_tools.vassal.module.spec import turn_state
    from gazala_tools.vsav.commands import Turn
    from gazala_tools.vsav.writer import SaveEditor, new_save_tree
    from tools.saves import module_pieces, write_new_save

    t = time.perf_counter()
    by_gpid = {str(g): pid for pid, g in built.gpids.items()}
    with tempfile.TemporaryDirectory(dir=tmp) as d:
        (Path(d) / "buildFile.xml").write_bytes(built.xml)
        slots = {by_gpid[s.gpid]: s for s in module_pieces(d) if s.gpid in by_gpid}
        for scenario in spec.scenarios:
            tree = new_save_tree(placements(spec, scenario, slots))
            SaveEditor(tree).insert([Turn(f"TURNTurnTracker0\t{turn_state(spec.turns, scenario.turn)}")])
            write_new_save(Path(d) / "setup.vsav", tree, module_name=spec.name)
            (Path(d) / "setup.vsav").read_bytes()
    return time.perf_counter() - t


def _assembly(spec) -> tuple[float, float, object]:  # type: ignore[no-untyped-def]
    """(whole assembly, set-up saves alone, built) in memory, best of three."""
    from gazala_tools.vassal.module import build_vmod
    from gazala_tools.vassal.module.build import build_buildfile
    from gazala_tools.vassal.module.setups import setup_saves

    best_all = best_setups = float("inf")
    built = build_buildfile(spec)
    for _ in range(size(3, 1)):
        t = time.perf_counter()
        build_vmod(spec)
        best_all = min(best_all, time.perf_counter() - t)
        t = time.perf_counter()
        setup_saves(spec, built)
        best_setups = min(best_setups, time.perf_counter() - t)
    return best_all, best_setups, built


def _pywargame(spec, tmpdir: Path) -> tuple[float | None, str]:  # type: ignore[no-untyped-def]
    if smoke():
        return None, "pywargame not run in a smoke run"
    if not PYWARGAME_PY.is_file():
        return None, "pywargame venv not found (.cache/pywargame-venv)"
    images = tmpdir / "images"
    images.mkdir()
    for name, blob in spec.images.items():
        (images / Path(name).name).write_bytes(blob)
    g = spec.board.grid_attrs
    inp = {
        "name": spec.name, "images": str(images),
        "dx": float(g["dx"]), "dy": float(g["dy"]), "x0": int(g["x0"]), "y0": int(g["y0"]),
        "counters": [{"id": p.id, "name": p.name, "faces": list(p.faces)} for p in spec.pieces],
    }
    (tmpdir / "in.json").write_text(json.dumps(inp))
    times = []
    try:
        for i in range(3):
            proc = subprocess.run(
                [str(PYWARGAME_PY), str(Path(__file__).with_name("pywargame_module.py")), str(tmpdir / "in.json"),
                 str(tmpdir / f"pwg{i}.vmod")],
                capture_output=True, text=True, timeout=300, check=True,
            )
            times.append(json.loads(proc.stdout.strip().splitlines()[-1])["seconds"])
    except (subprocess.SubprocessError, ValueError, KeyError) as exc:
        return None, f"pywargame baseline failed: {str(exc)[-300:]}"
    return min(times), f"pywargame builds {len(spec.pieces)} slots from the same {len(spec.images)} images"


def run() -> list[Result]:
    from gazala_tools.counters import load_manifest
    from gazala_tools.vassal.module import build_game_module
    from gazala_tools.vassal.module.games import module_spec
    from tools.synthgame import write_game

    results: list[Result] = []
    with tempfile.TemporaryDirectory(prefix="bench-module-") as tmp:
        tmpdir = Path(tmp)
        # --- RG ---------------------------------------------------------------------------------------
        n_counters = len(load_manifest(GAME))
        n_cold = size(3, 1)
        cold = [_cold_build(GAME, tmpdir / f"rg-cold{i}.vmod") for i in range(n_cold)]
        rg_cpu = CPU[-n_cold:]
        same = len({(tmpdir / f"rg-cold{i}.vmod").read_bytes() for i in range(n_cold)}) == 1
        warm = min(build_game_module(GAME, tmpdir / "warm.vmod").timings["total"] for _ in range(size(3, 1)))
        spec = module_spec(GAME)
        assemble, setups, built = _assembly(spec)
        baseline, note = _pywargame(spec, tmpdir)
        results.append(Result(f"{GAME} module build, cold process (board + {n_counters} counters drawn), best of 3",
                              min(cold), "s", budget="<= 3 s", ok=min(cold) <= 3.0,
                              note=f"runs {', '.join(f'{c:.2f}' for c in cold)} s wall, "
                                   f"{', '.join(f'{c:.2f}' for c in rg_cpu)} s CPU; three cold builds "
                                   + ("give the same bytes" if same else "DIFFER")))
        results.append(Result(f"{GAME} module build, warm (in process)", warm, "s"))
        results.append(Result(f"{GAME} module assembly only (buildFile, set-up saves, zip; images given)", assemble, "s",
                              baseline="pywargame (same images, palette and grid)" if baseline is not None else "",
                              baseline_value=baseline, ratio=(baseline / assemble) if baseline else None,
                              note=note + ("; ratio = pywargame / ours" if baseline else "")))

        # --- the synthetic 5,000-counter game -----------------------------------------------------------
        for board in ("image", "render"):
            game = write_game(tmpdir / f"synth-{board}", board_image=board == "image", **size(SYNTH, SMOKE_SYNTH))
            assert game.counters == size(5000, 80), game
            n_cold = size(2, 1)  # a smoke run builds once (tests/vassal/module proves reproducible bytes)
            runs = [_cold_build(game.folder, tmpdir / f"synth-{board}-{i}.vmod") for i in range(n_cold)]
            cpu = CPU[-n_cold:]
            data = [(tmpdir / f"synth-{board}-{i}.vmod").read_bytes() for i in range(n_cold)]
            runs, cpu, data = runs * (3 - n_cold), cpu * (3 - n_cold), data * (3 - n_cold)
            what = "a board image (scan) on map.yaml's grid" if board == "image" else "the board drawn from the map data"
            results.append(Result(
                f"synthetic {game.counters:,}-counter game ({game.units:,} units, {game.on_map:,} set up), {what}: "
                "cold process build, first run", runs[0], "s", budget="<= 10 s", ok=runs[0] <= 10.0,
                note=f"CPU {cpu[0]:.2f} s (user + system, all processes); second run {runs[1]:.2f} s wall, "
                     f"{cpu[1]:.2f} s CPU; {len(data[0]) / 1e6:.1f} MB; the two builds give "
                     + ("the same bytes" if data[0] == data[1] else "DIFFERENT bytes")))
            if board != "image":
                continue
            spec = module_spec(game.folder)
            assemble, setups, built = _assembly(spec)
            plain = min(_plain_zip(dict(spec.images), tmpdir / f"plain{i}.zip") for i in range(size(3, 1)))
            results.append(Result(f"synthetic game assembly in memory (buildFile of {len(spec.pieces):,} slots, "
                                  f"set-up save, zip of {len(spec.images):,} images)", assemble, "s",
                                  baseline="plain zip of the same images (zipfile, deflate)", baseline_value=plain,
                                  ratio=assemble / plain, note="ratio = ours / plain zip"))
            old = min(_tempdir_setups(spec, built, tmpdir) for _ in range(size(3, 1)))
            results.append(Result(f"synthetic game set-up save in memory ({game.on_map:,} units placed)", setups, "s",
                                  baseline="temp-dir path (buildFile written and parsed back, saves via files)",
                                  baseline_value=old, ratio=old / setups, note="ratio = temp-dir / in memory"))
    return results
