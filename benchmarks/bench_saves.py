"""Pieces per second reading a 2,000-piece save, against pywargame 0.8's reader in the same run.

* ours: container + SequenceEncoder + command tree + execution to final positions (``read_save``),
  and the same with every piece's traits, name and properties decoded;
* baseline: pywargame 0.8 (``SaveIO.readSave`` + ``WithTraits.decodeAdd2`` for every AddPiece), run
  in its own Python 3.12 venv under ``.cache/pywargame-venv`` (created here when missing);
* floor: the hex + XOR decode of ``savedGame`` alone (no parsing at all).

Target: ours >= 10x pywargame.
"""

from __future__ import annotations

import glob
import json
import subprocess
import tempfile
import zipfile
from pathlib import Path

from benchmarks.common import Result, best_of, size, smoke
from gazala_tools.vsav import read_save
from tools.saves import sample_commands, sample_file

ROOT = Path(__file__).resolve().parent.parent
VENV = ROOT / ".cache" / "pywargame-venv"
N = size(2000, 50)

PYWARGAME_SCRIPT = r"""
import json, sys, time
from pywargame.vassal import SaveIO
from pywargame.vassal.withtraits import WithTraits
path = sys.argv[1]
def read_only():
    SaveIO.readSave(path)
def read_pieces():
    key, lines = SaveIO.readSave(path)
    n = 0
    for line in lines:
        line = line.lstrip('\\')
        if line.startswith('+/') and '/stack/' not in line:
            WithTraits.decodeAdd2(line, False)
            n += 1
    return n
out = {"pieces": read_pieces()}
for fn in (read_only, read_pieces):
    best = 1e9
    for _ in range(3):
        t = time.perf_counter(); fn(); best = min(best, time.perf_counter() - t)
    out[fn.__name__] = best
print(json.dumps(out))
"""


def _pywargame_python() -> tuple[Path | None, str]:
    py = VENV / "bin" / "python"
    if py.exists():
        return py, ""
    candidates = sorted(glob.glob(str(Path.home() / ".pyenv" / "versions" / "3.12*" / "bin" / "python3.12")))
    if not candidates:
        return None, "no Python 3.12 under ~/.pyenv/versions (pywargame 0.8 needs >= 3.12)"
    try:
        subprocess.run([candidates[-1], "-m", "venv", str(VENV)], check=True, capture_output=True, text=True)
        subprocess.run([str(py), "-m", "pip", "install", "-q", "pywargame==0.8.0"], check=True, capture_output=True, text=True, timeout=600)
    except (subprocess.CalledProcessError, subprocess.TimeoutExpired) as exc:
        err = getattr(exc, "stderr", "") or str(exc)
        return None, f"cannot install pywargame 0.8.0: {err.strip().splitlines()[-1] if err.strip() else exc}"
    return py, ""


def _pywargame(path: Path) -> tuple[dict[str, float] | None, str]:
    py, why = _pywargame_python()
    if py is None:
        return None, why
    proc = subprocess.run([str(py), "-c", PYWARGAME_SCRIPT, str(path)], capture_output=True, text=True, timeout=600)
    if proc.returncode != 0:
        return None, f"pywargame failed: {proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else proc.returncode}"
    return json.loads(proc.stdout.strip().splitlines()[-1]), ""


def _floor(path: Path) -> None:
    data = zipfile.ZipFile(path).read("savedGame")
    key = int(data[5:7], 16)
    bytes.fromhex(data[7:].decode("ascii")).translate(bytes(b ^ key for b in range(256)))


#: a set-up save shaped as CCNapoleonics' (issue 33 item 3): 76,000 stacks, most of them empty, beside 350
#: pieces; the import reads 189 of them, so one may take at most 2 s
SETUP_STACKS, SETUP_PIECES = size(76_000, 2_000), size(350, 20)
SETUP_BUDGET_S = 2.0


def setup_save(stacks: int, pieces: int) -> bytes:
    """A begin_save save of ``stacks`` stacks (two in three empty and off the maps, the others on a map) and
    ``pieces`` pieces on the main map, each in a stack of its own."""
    from gazala_tools.vsav.sequence import ESC, encode
    from gazala_tools.vsav.writer import build_zip, encode_savefile

    cmds = ["begin_save", ""]
    for i in range(stacks):
        sid = 1_459_149_100_000 + i
        cmds.append(f"+/{sid}/stack/null;0;0;@@-1" if i % 3 else f"+/{sid}/stack/HiddenDeckStorage;-100;-100;@@1")
    for i in range(pieces):
        pid, x, y = 1_600_000_000_000 + i, 100 + 10 * (i % 50), 100 + 10 * (i // 50)
        cmds.append(f"+/{pid}/piece;;;unit{i % 7}.png;Unit {i}/Main Map;{x};{y};{i + 1};0")
        cmds.append(f"+/{pid + 10**6}/stack/Main Map;{x};{y};{pid};@@1")
    return build_zip([("savedGame", encode_savefile(encode(cmds, ESC)))])


def run() -> list[Result]:
    results = _big_setup()
    with tempfile.TemporaryDirectory(prefix="gazala-bench-saves-") as tmp:
        path = Path(tmp) / "pieces-2000.vsav"
        path.write_bytes(sample_file(sample_commands(N, style="3.7")))
        save = read_save(path)
        assert len(save.position.pieces) == N
        ours = best_of(lambda: read_save(path), repeat=7)
        full = best_of(lambda: [(p.name, p.properties) for p in read_save(path).position.pieces.values()], repeat=5)
        floor = best_of(lambda: _floor(path), repeat=7)
        pwg, why = (None, "not in a smoke run") if smoke() else _pywargame(path)
    rate, full_rate, floor_rate = N / ours, N / full, N / floor
    if pwg is not None:
        base = N / pwg["read_pieces"]
        results.append(Result(
            "read 2,000-piece save to final positions", rate, "pieces/s", budget=">= 10x pywargame",
            ok=rate >= 10 * base, baseline="pywargame 0.8 readSave+decodeAdd2", baseline_value=base, ratio=rate / base,
            note=f"decode floor (hex+XOR only) {floor_rate:,.0f} pieces/s",
        ))
        results.append(Result(
            "read 2,000-piece save, every trait/name/property decoded", full_rate, "pieces/s",
            baseline="pywargame 0.8 readSave+decodeAdd2", baseline_value=base, ratio=full_rate / base,
        ))
        only = N / pwg["read_only"]
        results.append(Result(
            "read to final positions vs pywargame container+split only", rate, "pieces/s",
            baseline="pywargame 0.8 readSave (no traits)", baseline_value=only, ratio=rate / only,
        ))
    else:
        results.append(Result(
            "read 2,000-piece save to final positions", rate, "pieces/s",
            baseline="decode floor (hex+XOR only)", baseline_value=floor_rate, ratio=rate / floor_rate,
            note=f"pywargame not measured: {why}",
        ))
        results.append(Result("read 2,000-piece save, every trait/name/property decoded", full_rate, "pieces/s"))
    results.append(Result("decode floor: hex + XOR of savedGame only", floor_rate, "pieces/s"))
    return results


def _big_setup() -> list[Result]:
    data = setup_save(SETUP_STACKS, SETUP_PIECES)
    save = read_save(data)
    assert sum(1 for p in save.position.pieces.values() if p.map == "Main Map") == SETUP_PIECES
    took = best_of(lambda: read_save(data), repeat=3)
    return [Result(f"read a set-up save of {SETUP_STACKS:,} stacks and {SETUP_PIECES} pieces (CCNapoleonics' shape)",
                   took, "s", budget=f"<= {SETUP_BUDGET_S:g} s", ok=took <= SETUP_BUDGET_S)]
