"""Targeted attacks of issue 13, each run as its own ``gazala`` process with its peak memory and time
measured: ``python -m tools.fuzz.attacks [--out DIR]`` (``scripts/fuzz --attacks``).

Every attack must end with exit status 0, 1 or 2 (never 3, a traceback or a signal), under 1 GiB and
under 30 s, and leave its inputs unchanged. Prints one JSON line per attack and a summary.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import zipfile
import zlib
from collections.abc import Callable
from pathlib import Path

from tools.fuzz.mutate import rezip
from tools.fuzz.samples import buildfile, png_chunk, png_declaring

ROOT = Path(__file__).resolve().parents[2]
MEMORY_LIMIT = 1 << 30
TIME_LIMIT = 30.0


def _nested_save(d: Path) -> list[str]:
    from gazala_tools.vsav import sequence

    rng = random.Random(5)
    # compressible, but under the zip ratio cap: a random letter every 600 bytes
    text = "begin_save\x1b" + "".join(rng.choice("abc") + "x" * 599 for _ in range((8 << 20) // 600))
    for _ in range(199):
        text = sequence.encode([text, ""], "\x1b")
    (d / "deep.vsav").write_bytes(rezip([("savedGame", text.encode())]))
    return ["vsav", "dump", "deep.vsav"]


def _zero_boards(d: Path) -> list[str]:
    boards = "".join(f'<VASSAL.build.module.map.boardPicker.Board name="b{i}" image="b{i}.png"/>' for i in range(20))
    xml = buildfile(image="b0.png").replace("</VASSAL.build.module.map.BoardPicker>",
                                              boards + "</VASSAL.build.module.map.BoardPicker>")
    head = png_declaring(400, 300)
    with zipfile.ZipFile(d / "zeros.vmod", "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("buildFile.xml", xml)
        for i in range(20):
            with zf.open(f"images/b{i}.png", "w") as fh:
                fh.write(head)
                for _ in range(60):
                    fh.write(bytes(1 << 20))
    return ["grid", "locate", "zeros.vmod", "100", "100"]


def _big_moduledata(d: Path) -> list[str]:
    (d / "m.vmod").write_bytes(rezip([("buildFile.xml", buildfile().encode()),
                                      ("moduledata", b"<data><name>" + b"<a>x</a>" * (1 << 17) + b"</name></data>")]))
    (d / "p.yaml").write_text("game: gazala-rg\nunits: []\n")
    return ["referee", "check", "p.yaml", "--module", "m.vmod"]


def _lying_entry(d: Path) -> list[str]:
    data = bytearray(rezip([("savedGame", b"begin_save\x1b" + b" " * (200 << 20))]))
    for sig, off in ((b"PK\x03\x04", 22), (b"PK\x01\x02", 24)):
        i = data.find(sig)
        data[i + off : i + off + 4] = (10).to_bytes(4, "little")
    (d / "lie.vsav").write_bytes(bytes(data))
    return ["vsav", "dump", "lie.vsav"]


def _twelve_entries(d: Path) -> list[str]:
    rng = random.Random(12)
    # 60 MiB each, just under the per-member cap and the ratio cap: a random byte every 512
    body = b"".join(bytes([rng.randrange(256)]) + b"\0" * 511 for _ in range((60 << 20) // 512))
    with zipfile.ZipFile(d / "twelve.vsav", "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("savedGame", b"begin_save\x1bend_save")
        for i in range(12):
            zf.writestr(f"e{i}", body)
    return ["vsav", "dump", "twelve.vsav"]


def _dev_zero(d: Path) -> list[str]:
    return ["vsav", "dump", "/dev/zero"]


def _fifo(d: Path) -> list[str]:
    os.mkfifo(d / "x.vsav")
    return ["vsav", "dump", "x.vsav"]


def _pixel_bomb(d: Path) -> list[str]:
    (d / "bomb.png").write_bytes(png_declaring(16000, 15000))
    (d / "grid.yaml").write_text("orientation: flat\nnumbering: vassal-default\ncolumns: [1, 3]\nrows: [1, 3]\n"
                                 "pixels: {dx: 40, dy: 46, x0: 0, y0: 0}\n")
    return ["digitize", "overlay", "bomb.png", "--grid", "grid.yaml", "-o", "o.png"]


def _ztxt_bomb(d: Path) -> list[str]:
    ztxt = png_chunk(b"zTXt", b"Comment\0\0" + zlib.compress(b"A" * (64 << 20), 9))
    (d / "ztxt.png").write_bytes(png_declaring(4, 4, extra=ztxt))
    (d / "grid.yaml").write_text("orientation: flat\nnumbering: vassal-default\ncolumns: [1, 3]\nrows: [1, 3]\n"
                                 "pixels: {dx: 40, dy: 46, x0: 0, y0: 0}\n")
    return ["digitize", "overlay", "ztxt.png", "--grid", "grid.yaml", "-o", "o.png"]


def _vleading(d: Path) -> list[str]:
    (d / "buildFile.xml").write_text(buildfile('vLeading="2147483647"'))
    return ["grid", "center", "buildFile.xml", "0101"]


def _huge_columns(d: Path) -> list[str]:
    shutil.copytree(ROOT / "tests" / "games" / "river-war", d / "rw")
    text = (d / "rw" / "map.yaml").read_text().replace("columns: [1, 10]", "columns: [1, 999999999999999999]")
    (d / "rw" / "map.yaml").write_text(text)
    return ["map", "check", "rw"]


def _long_label(d: Path) -> list[str]:
    return ["grid", "center", "gazala-rg", "1" * 5000]


def _deep_yaml(d: Path) -> list[str]:
    (d / "p.yaml").write_text("game: gazala-rg\nunits: " + "[" * 5000 + "]" * 5000 + "\n")
    return ["referee", "check", "p.yaml"]


def _laughs(d: Path) -> list[str]:
    text = "a: &a [x,x,x,x,x,x,x,x,x,x]\n" + "".join(
        f"{c}: &{c} [{','.join([f'*{p}'] * 10)}]\n" for p, c in zip("abcdefgh", "bcdefghi", strict=True))
    (d / "p.yaml").write_text("game: gazala-rg\nunits: []\n" + text)
    return ["referee", "check", "p.yaml"]


def _merge_laughs(d: Path) -> list[str]:
    """The billion laughs through merge keys: each level merges the one below and names it ten times."""
    text = "a: &a {" + ", ".join(f"k{i}: x" for i in range(10)) + "}\n" + "".join(
        f"{c}: &{c} {{<<: *{p}, " + ", ".join(f"{c}{i}: *{p}" for i in range(10)) + "}\n"
        for p, c in zip("abcdefgh", "bcdefghi", strict=True))
    (d / "p.yaml").write_text("game: gazala-rg\nunits: []\n" + text)
    return ["referee", "check", "p.yaml"]


def _merge_nested(d: Path) -> list[str]:
    """``<<: {<<: {... *big}}`` 60 deep: one alias of a 50,000-key mapping, merged 60 times (3 million keys)."""
    big = "big: &big {" + ", ".join(f"k{i}: 1" for i in range(50_000)) + "}\n"
    (d / "p.yaml").write_text("game: gazala-rg\nunits: []\n" + big + "x: " + "{<<: " * 60 + "*big" + "}" * 60 + "\n")
    return ["referee", "check", "p.yaml"]


ATTACKS: dict[str, Callable[[Path], list[str]]] = {
    "save chains nested 199 deep (zipped)": _nested_save,
    ".vmod with 20 boards of 60 MiB zeros": _zero_boards,
    "moduledata of 1 MiB (--module)": _big_moduledata,
    "zip entry lying about its size": _lying_entry,
    "12 zip entries just under the cap": _twelve_entries,
    "vsav dump /dev/zero": _dev_zero,
    "FIFO named x.vsav": _fifo,
    "PNG of 225 bytes declaring 240 Mpx": _pixel_bomb,
    "PNG whose zTXt inflates to 64 MiB": _ztxt_bomb,
    "HexGridNumbering vLeading=2147483647": _vleading,
    "map columns [1, 10**18]": _huge_columns,
    "hex label of 5,000 digits": _long_label,
    "YAML nested 5,000 deep": _deep_yaml,
    "YAML billion laughs": _laughs,
    "YAML billion laughs through merge keys": _merge_laughs,
    "YAML merge keys nested 60 deep on 50,000 keys": _merge_nested,
}


def _digests(d: Path) -> dict[str, str]:
    return {str(p): hashlib.sha256(p.read_bytes()).hexdigest() for p in d.rglob("*") if p.is_file()}


def run_attack(name: str) -> dict[str, object]:
    """One attack in its own process: exit status, seconds, that process's own peak memory (wait4).
    Its input is made by another process, so the measured one starts small."""
    d = Path(tempfile.mkdtemp(prefix="gazala-attack-"))
    try:
        made = subprocess.run([sys.executable, "-m", "tools.fuzz.attacks", "--make", name, str(d)], cwd=ROOT,
                              check=True, capture_output=True, text=True)
        argv = json.loads(made.stdout)
        size = sum(p.stat().st_size for p in d.rglob("*") if p.is_file())
        before = _digests(d)
        start = time.monotonic()
        with (d / ".stderr").open("w+b") as err:
            proc = subprocess.Popen([sys.executable, "-m", "gazala_tools", *argv], cwd=d,
                                    stdout=subprocess.DEVNULL, stderr=err)
            timer = threading.Timer(TIME_LIMIT * 2, proc.kill)
            timer.start()
            _, status, usage = os.wait4(proc.pid, 0)
            timer.cancel()
            err.seek(0)
            text = err.read().decode("utf-8", "replace")
        (d / ".stderr").unlink()
        seconds = time.monotonic() - start
        code = os.waitstatus_to_exitcode(status)
        after = _digests(d)
        changed = any(after.get(k) != v for k, v in before.items())
        peak = usage.ru_maxrss * 1024
        ok = (code in (0, 1, 2) and "Traceback" not in text and seconds < TIME_LIMIT and not changed
              and peak < MEMORY_LIMIT)
        return {"attack": name, "input_bytes": size, "exit": code, "seconds": round(seconds, 2),
                "peak_mib": round(peak / (1 << 20)), "changed": changed, "ok": ok,
                "message": text.strip().splitlines()[-1][:160] if text.strip() else ""}
    finally:
        shutil.rmtree(d, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="scripts/fuzz --attacks", description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", help="attacks whose name contains this text")
    ap.add_argument("--make", nargs=2, metavar=("NAME", "DIR"), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.make:
        print(json.dumps(ATTACKS[args.make[0]](Path(args.make[1]))))
        return 0
    rows = []
    for name in ATTACKS:
        if args.only and args.only not in name:
            continue
        row = run_attack(name)
        rows.append(row)
        print(json.dumps(row), flush=True)
    from tools.fuzz import crafted

    for name in crafted.CASES:  # issue 31's cases, each its own process the same way
        if args.only and args.only not in name:
            continue
        d = Path(tempfile.mkdtemp(prefix="gazala-case-"))
        try:
            work = d / "work"
            work.mkdir()
            got = crafted.measure(name, work)
        finally:
            shutil.rmtree(d, ignore_errors=True)
        row = {"attack": name, "exit": got["exit"], "seconds": got["seconds"], "cpu_s": got["cpu_s"],
               "peak_mib": got["peak_mib"],
               "changed": bool(got["changed"]), "ok": got["ok"],
               "message": str((got["stderr"] or [""])[-1])[:160]}  # type: ignore[index]
        rows.append(row)
        print(json.dumps(row), flush=True)
    bad = [r for r in rows if not r["ok"]]
    print(json.dumps({"attacks": len(rows), "failed": len(bad),
                      "largest_peak_mib": max((int(str(r["peak_mib"])) for r in rows), default=0)}))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
