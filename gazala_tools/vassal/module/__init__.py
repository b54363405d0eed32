"""VASSAL module export: a complete ``.vmod`` per game (docs/module.md).

>>> from gazala_tools.vassal.module import build_game_module
>>> result = build_game_module("gazala-rg", "modules/gazala-rg.vmod")   # doctest: +SKIP

Layers: :mod:`.spec` (plain data) <- :mod:`.games` (our map, counters, rules) ; :mod:`.traits`
(trait strings) -> :mod:`.pieces` (palette pieces, prototypes) -> :mod:`.build` (buildFile.xml) ;
:mod:`.setups` (predefined set-ups, written by the save writer) ; :mod:`.package` (the zip).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

from gazala_tools.vassal.module.build import HELP_FILE, RULES_FILE, Built, build_buildfile
from gazala_tools.vassal.module.package import moduledata, vmod_bytes, write_vmod
from gazala_tools.vassal.module.spec import ModuleSpec

__all__ = ["BuildResult", "ModuleSpec", "build_game_module", "build_vmod"]


@dataclass
class BuildResult:
    """What was built: the module bytes and numbers for the CLI's ``--json`` summary."""

    data: bytes
    built: Built
    spec: ModuleSpec
    timings: dict[str, float] = field(default_factory=dict)

    def kinds(self) -> dict[str, int]:
        """Palette pieces by kind (unit, marker, breach, chit)."""
        kinds: dict[str, int] = {}
        for p in self.spec.pieces:
            kinds[p.kind] = kinds.get(p.kind, 0) + 1
        return kinds

    def summary(self) -> dict[str, object]:
        return {
            "game": self.spec.game,
            "name": self.spec.name,
            "version": self.spec.version,
            "bytes": len(self.data),
            "piece_slots": len(self.spec.pieces),
            "pieces_by_kind": self.kinds(),
            "images": len(self.spec.images),
            "decks": [d.name for d in self.spec.decks],
            "setups": {s.name: len(s.placements) for s in self.spec.scenarios},
            "turns": len(self.spec.turns),
            "charts": [c.name for c in self.spec.charts],
            "track": None if self.spec.track is None else {"map": self.spec.track.map_name, "boxes": len(self.spec.track.boxes)},
            "next_piece_slot_id": self.built.next_piece_slot_id,
            "seconds": {k: round(v, 3) for k, v in self.timings.items()},
        }


def build_vmod(spec: ModuleSpec) -> tuple[bytes, Built]:
    """The ``.vmod`` bytes of ``spec`` (buildFile, moduledata, images, help page, set-up saves)."""
    from gazala_tools.vassal.module.setups import setup_saves

    built = build_buildfile(spec)
    files = dict(spec.images)
    if spec.help_html:
        files[HELP_FILE] = spec.help_html.encode("utf-8")
    if spec.rules_html:
        files[RULES_FILE] = spec.rules_html.encode("utf-8")
    files.update(setup_saves(spec, built))
    meta = moduledata(spec.name, spec.version, spec.vassal_version, spec.description)
    return vmod_bytes(built.xml, meta, files), built


def build_game_module(game: str, out: str | Path | None = None, *, dpi: float | None = None) -> BuildResult:
    """Build ``game``'s module; write it atomically to ``out`` when given."""
    from gazala_tools.vassal.module.games import module_spec

    t0 = time.perf_counter()
    spec = module_spec(game, dpi=dpi)
    t1 = time.perf_counter()
    data, built = build_vmod(spec)
    t2 = time.perf_counter()
    if out is not None:
        write_vmod(out, data)
    t3 = time.perf_counter()
    return BuildResult(data, built, spec, {"render": t1 - t0, "assemble": t2 - t1, "write": t3 - t2, "total": t3 - t0})
