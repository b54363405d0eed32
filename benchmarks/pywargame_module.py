"""Baseline for bench_module: the same module skeleton built with pywargame (run in its own venv).

Usage (by benchmarks/bench_module.py): ``python pywargame_module.py INPUT.json OUT.vmod`` where
INPUT.json holds the board image and, per counter, its name, id and face images (already-rendered
PNG files: pywargame does not draw counters). Prints one JSON line: ``{"seconds": ...}``.
"""

import json
import sys
import time
from pathlib import Path


def main() -> int:
    spec = json.loads(Path(sys.argv[1]).read_text())
    out = sys.argv[2]
    t0 = time.perf_counter()
    from pywargame.vassal.buildfile import BuildFile
    from pywargame.vassal.moduledata import ModuleData
    from pywargame.vassal.traits.basic import BasicTrait
    from pywargame.vassal.traits.delete import DeleteTrait
    from pywargame.vassal.traits.layer import LayerTrait
    from pywargame.vassal.traits.mark import MarkTrait
    from pywargame.vassal.traits.prototype import PrototypeTrait
    from pywargame.vassal.vmod import VMod

    build = BuildFile()
    game = build.addGame(name=spec["name"], version="1.0", VassalVersion="3.5.0", description="pywargame baseline")
    game.addBasicCommandEncoder()
    game.addDocumentation()
    game.addPlayerRoster()
    game.addGlobalOptions()
    game.addChatter()
    game.addKeyNamer()
    protos = game.addPrototypes()
    protos.addPrototype(name="Unit", description="", traits=[DeleteTrait(), BasicTrait()])
    m = game.addMap(mapName="Main Map")
    picker = m.addBoardPicker()
    board = picker.addBoard(name="Board", image="board.png")
    zoned = board  # one hex grid directly on the board
    grid = zoned.addHexGrid(dx=spec["dx"], dy=spec["dy"], x0=spec["x0"], y0=spec["y0"], visible=False)
    grid.addNumbering(hOff=1, vOff=1, stagger=True, first="H", sep="", hLeading=1, vLeading=1)
    m.addStackMetrics()
    m.addPieceMover()
    window = game.addPieceWindow(name="Counters")
    tabs = window.addTabs(entryName="Counters")
    panel = tabs.addList(entryName="Units").addPanel(entryName="All", nColumns=6)
    for c in spec["counters"]:
        traits = [PrototypeTrait(name="Unit")]
        if len(c["faces"]) > 1:
            traits.append(LayerTrait(images=c["faces"], newNames=[""] * len(c["faces"]), name="Step"))
        traits += [MarkTrait(name="UnitId", value=c["id"]), BasicTrait(name=c["name"], filename=c["faces"][0])]
        panel.addPieceSlot(entryName=c["name"], traits=traits)
    mdata = ModuleData()
    data = mdata.addData()
    data.addVersion(version="1.0")
    data.addVASSALVersion(version="3.5.0")
    data.addName(name=spec["name"])
    data.addDescription(description="pywargame baseline")
    images = Path(spec["images"])
    with VMod(out, "w") as vmod:
        vmod.addFile("buildFile.xml", build.encode())
        vmod.addFile("moduledata", mdata.encode())
        for p in sorted(images.iterdir()):
            vmod.addFile("images/" + p.name, p.read_bytes())
    print(json.dumps({"seconds": time.perf_counter() - t0, "bytes": Path(out).stat().st_size}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
