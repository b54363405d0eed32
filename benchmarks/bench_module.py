"""RG module build time: cold (render the board and all 168 counter faces, assemble, zip, write) and
the assembly alone, against pywargame assembling the same board and counter faces in the same run.

Budget: cold build of gazala-rg <= 3 s. The pywargame baseline (Python 3.12 venv at
.cache/pywargame-venv, if present) gets the already-rendered images, so it is compared with our
assembly-only time; pywargame draws no counters.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.common import Result

ROOT = Path(__file__).resolve().parents[1]
PYWARGAME_PY = ROOT / ".cache" / "pywargame-venv" / "bin" / "python"
GAME = "gazala-rg"


def _cold_build(out: Path) -> float:
    """A fresh interpreter, wall clock: start-up, imports and fonts count (what `gazala module build` costs)."""
    code = f"from gazala_tools.vassal.module import build_game_module; build_game_module({GAME!r}, {str(out)!r})"
    t = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    return time.perf_counter() - t


def run() -> list[Result]:
    from gazala_tools.counters import load_manifest
    from gazala_tools.vassal.module import build_game_module, build_vmod
    from gazala_tools.vassal.module.games import module_spec

    results: list[Result] = []
    n_counters = len(load_manifest(GAME))
    with tempfile.TemporaryDirectory(prefix="bench-module-") as tmp:
        tmpdir = Path(tmp)
        cold = min(_cold_build(tmpdir / f"cold{i}.vmod") for i in range(3))
        warm = min(build_game_module(GAME, tmpdir / "warm.vmod").timings["total"] for _ in range(3))
        spec = module_spec(GAME)
        assemble = float("inf")
        for _ in range(5):
            t = time.perf_counter()
            data, _built = build_vmod(spec)
            (tmpdir / "assembled.vmod").write_bytes(data)
            assemble = min(assemble, time.perf_counter() - t)

        baseline: float | None = None
        note = "pywargame venv not found (.cache/pywargame-venv)"
        if PYWARGAME_PY.is_file():
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
                baseline = min(times)
                note = f"pywargame builds {len(spec.pieces)} slots from the same {len(spec.images)} images"
            except (subprocess.SubprocessError, ValueError, KeyError) as exc:
                note = f"pywargame baseline failed: {str(exc)[-300:]}"

    results.append(Result(f"{GAME} module build, cold process (board + {n_counters} counters rendered)", cold, "s",
                          budget="<= 3 s", ok=cold <= 3.0))
    results.append(Result(f"{GAME} module build, warm (in process)", warm, "s"))
    results.append(Result(f"{GAME} module assembly only (buildFile, set-up saves, zip; images given)", assemble, "s",
                          baseline="pywargame (same images, palette and grid)" if baseline is not None else "",
                          baseline_value=baseline, ratio=(baseline / assemble) if baseline else None,
                          note=note + ("; ratio = pywargame / ours" if baseline else "")))
    return results
