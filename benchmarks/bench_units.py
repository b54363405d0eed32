"""An existing module gets a referee (issue 35), at scale:

* ``gazala game import`` with unit inference of a synthetic module of 10,000 piece slots (names such as
  ``1/12 Inf Bde 4-4-6``, markers, sides from a prototype's marker, each slot its own image), in a fresh
  process: wall time and peak RSS. Budget <= 30 s and <= 500 MB. Baseline: unzipping the same module
  (plain Python ``zipfile``), in the same run.
* ``gazala referee check`` of a 5,000-piece save of an imported module (a numbered hex grid; every piece
  found through units.yaml and located from its pixel point), in-process, best of 5. Budget <= 1 s.
  Baseline: reading the same save alone (``read_save`` and its typed view: the floor of any check).
* The replay page of the 700-step RG log (``referee log --format html``): its size. Budget <= 10 MB.
  Baseline: the same log's page before issue 35 is not kept; the named baseline is the log's text report.

Smoke: 300 slots, a 300-piece save, the RG log.
"""

from __future__ import annotations

import contextlib
import io
import tempfile
import time
import zipfile
from pathlib import Path

from benchmarks.bench_caps import ROOT, _gazala
from benchmarks.bench_import import made_apart, write_module
from benchmarks.common import Result, best_of, size

PKG = "VASSAL.build.module.map.boardPicker"
SLOTS = 10_000
SAVE_PIECES = 5_000
BOARD = (4_000, 3_000)
KINDS = ("Inf Bde 4-4-6", "Armd Div 6-5-8", "Cav Rgt 2-3-10", "Arty Bn 5-2-4", "HQ 0-1-6", "VP marker",
         "Out of Supply", "Turn marker")


def make_module(path: Path, slots: int, board: tuple[int, int]) -> Path:
    """A module of ``slots`` piece slots in two palettes (Red, Blue), a prototype per side marking its Side,
    one map with a board and a numbered hex grid (dx 60, dy 70)."""
    w, h = board
    panels: dict[str, list[str]] = {"Red": [], "Blue": []}
    for i in range(slots):
        side = "Red" if i % 2 == 0 else "Blue"
        name = f"{i // 8 + 1}/{i % 97} {KINDS[i % len(KINDS)]}"
        definition = (f"+/null/prototype;{side}Unit\tpiece;;;u{i}.png;{name}/"
                      f"\t\\\tnull;0;0;{i + 1};0")
        panels[side].append(f'<VASSAL.build.widget.PieceSlot entryName="{name}" gpid="{i + 1}" height="64" '
                            f'width="64">{definition}</VASSAL.build.widget.PieceSlot>')
    protos = "".join(f'<VASSAL.build.module.PrototypeDefinition name="{s}Unit">+/null/mark;Side\tpiece;;;;/{s}\t'
                     f"null;0;0;;0</VASSAL.build.module.PrototypeDefinition>" for s in ("Red", "Blue"))
    xml = (
        '<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n'
        f'<VASSAL.build.GameModule name="Bench Units" version="1.0" VassalVersion="3.7.9" nextPieceSlotId="{slots + 1}">'
        "<VASSAL.build.module.BasicCommandEncoder/>"
        "<VASSAL.build.module.PlayerRoster><entry>Red</entry><entry>Blue</entry></VASSAL.build.module.PlayerRoster>"
        f"<VASSAL.build.module.PrototypesContainer>{protos}</VASSAL.build.module.PrototypesContainer>"
        '<VASSAL.build.module.Map mapName="Main Map">'
        f'<VASSAL.build.module.map.BoardPicker><{PKG}.Board image="board.png" name="Board">'
        f'<{PKG}.board.HexGrid dx="60" dy="70" x0="0" y0="0"><{PKG}.board.mapgrid.HexGridNumbering/>'
        f"</{PKG}.board.HexGrid></{PKG}.Board></VASSAL.build.module.map.BoardPicker></VASSAL.build.module.Map>"
        '<VASSAL.build.module.PieceWindow name="Pieces">'
        + "".join(f'<VASSAL.build.widget.PanelWidget entryName="{s}">{"".join(v)}</VASSAL.build.widget.PanelWidget>'
                  for s, v in panels.items())
        + "</VASSAL.build.module.PieceWindow></VASSAL.build.GameModule>"
    )
    return write_module(path, xml, (w, h), slots)


def make_save(path: Path, module: Path, pieces: int, board: tuple[int, int]) -> Path:
    """A save of ``module`` holding ``pieces`` pieces of its first 400 slots spread over the board's hexes."""
    from gazala_tools.vassal.importer import read_module
    from gazala_tools.vsav.writer import PiecePlacement, new_save_tree
    from tools.saves import write_new_save

    mod = read_module(module)
    slots = [p for p in mod.pieces[:400]]
    w, h = board
    places = []
    for i in range(pieces):
        s = slots[i % len(slots)]
        x, y = 60 + (i * 61) % (w - 120), 70 + ((i * 61) // (w - 120) * 70) % (h - 140)
        places.append(PiecePlacement(s.type, s.state, "Main Map", x, y))
    write_new_save(path, new_save_tree(places, first_id=1_700_000_000_000), module_name="Bench Units")
    return path


def run() -> list[Result]:
    slots, pieces, board = size(SLOTS, 300), size(SAVE_PIECES, 300), size(BOARD, (1_200, 900))
    results: list[Result] = []
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        vmod = tmp / "bench.vmod"
        made_apart("bench_units", vmod, slots, board)
        t = time.perf_counter()
        with zipfile.ZipFile(vmod) as z:
            z.extractall(tmp / "unzipped")
        unzip = time.perf_counter() - t
        folder = tmp / "folder"
        code, dt, peak, line = _gazala(["game", "import", str(vmod), str(folder)])
        if code != 0:
            raise RuntimeError(f"game import failed (exit {code}): {line}")
        results.append(Result(f"game import with unit inference: {slots:,} slots", dt, "s",
                              budget="<= 30 s and <= 500 MB peak", ok=dt <= 30 and peak <= 500,
                              baseline="unzipping the module (zipfile)", baseline_value=unzip,
                              ratio=dt / unzip if unzip else None, note=f"peak {peak:,.0f} MB; {line}"))
        # --- referee check of a large save of the imported module -----------------------------------------
        from gazala_tools.cli import main
        from gazala_tools.vsav import read_save

        save = make_save(tmp / "big.vsav", vmod, pieces, board)
        read = best_of(lambda: read_save(save).view())

        def check() -> None:
            with contextlib.redirect_stdout(io.StringIO()):
                main(["referee", "check", str(save), "--game", str(folder), "--json"])

        check()  # the folder's maps, rules and units.yaml read once per process, as `watch` does
        took = best_of(check)
        results.append(Result(f"referee check: a {pieces:,}-piece save of the imported module", took, "s",
                              budget="<= 1 s", ok=took <= 1.0, baseline="reading the same save (read_save + view)",
                              baseline_value=read, ratio=took / read if read else None))
        # --- the replay page of the 700-step RG log -----------------------------------------------------------
        log = ROOT / "tests" / "fixtures" / "logs" / "rg-700-steps.vlog"
        page = tmp / "log.html"
        with contextlib.redirect_stdout(io.StringIO()):
            main(["referee", "log", str(log), "--format", "html", "-o", str(page)])
            main(["referee", "log", str(log), "-o", str(tmp / "log.txt")])
        mb = page.stat().st_size / 1e6
        txt = (tmp / "log.txt").stat().st_size / 1e6
        results.append(Result("replay page of the 700-step RG log", mb, "MB", budget="<= 10 MB", ok=mb <= 10,
                              baseline="the log's text report", baseline_value=txt, ratio=mb / txt if txt else None))
    return results
