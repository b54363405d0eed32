"""VASSAL module export: a complete ``.vmod`` of any game folder (docs/module.md).

>>> from gazala_tools.vassal.module import build_game_module
>>> result = build_game_module("path/to/my-game", "my-game.vmod")            # doctest: +SKIP
>>> result = build_game_module("path/to/my-game/module.yaml", "my-game.vmod")  # doctest: +SKIP

Layers: :mod:`.spec` (plain data) <- :mod:`.games` (a game folder and its build configuration,
:mod:`.config`) ; :mod:`.traits` (trait strings) -> :mod:`.pieces` (palette pieces, prototypes) ->
:mod:`.build` (buildFile.xml) ; :mod:`.setups` (predefined set-ups, made by the save writer) ;
:mod:`.package` (the zip). Everything is built in memory, and the bytes are reproducible.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from gazala_tools.counters.loader import load_game_manifest
from gazala_tools.games import Game
from gazala_tools.vassal.module.build import HELP_FILE, Built, build_buildfile
from gazala_tools.vassal.module.config import ModuleConfig
from gazala_tools.vassal.module.package import moduledata, vmod_entries, write_vmod, zip_bytes
from gazala_tools.vassal.module.spec import ModuleSpec
from gazala_tools.yamlnodes import few_collections

__all__ = ["BuildResult", "ModuleSpec", "build_game_module", "build_vmod"]


@dataclass
class BuildResult:
    """What was built: the module (its bytes, or the file they were written to) and numbers for the
    CLI's ``--json`` summary."""

    built: Built
    spec: ModuleSpec
    timings: dict[str, float] = field(default_factory=dict)
    size: int = 0  #: bytes of the module
    path: Path | None = None  #: the file written (its bytes are read from there when asked for)
    in_memory: bytes | None = None  #: the bytes of a module built without a file

    @property
    def data(self) -> bytes:
        """The module's bytes (read back from :attr:`path` when it was written to a file)."""
        if self.in_memory is not None:
            return self.in_memory
        assert self.path is not None
        return self.path.read_bytes()

    def kinds(self) -> dict[str, int]:
        """Palette pieces by kind (unit, marker, chit)."""
        kinds: dict[str, int] = {}
        for p in self.spec.pieces:
            kinds[p.kind] = kinds.get(p.kind, 0) + 1
        return kinds

    def summary(self) -> dict[str, object]:
        return {
            "game": self.spec.game,
            "name": self.spec.name,
            "version": self.spec.version,
            "bytes": self.size,
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
    return _package(spec, built, setup_saves(spec, built)), built


def _package(spec: ModuleSpec, built: Built, saves: dict[str, bytes]) -> bytes:
    """The zip of a module whose buildFile and set-up saves are made."""
    return zip_bytes(_entries(spec, built, saves))


def _entries(spec: ModuleSpec, built: Built, saves: dict[str, bytes]) -> Iterator[tuple[str, bytes]]:
    """The files of a module whose buildFile and set-up saves are made, in their order in the zip."""
    own: dict[str, bytes] = {}
    if spec.help_html:
        own[HELP_FILE] = spec.help_html.encode("utf-8")
    for page in spec.help_pages:
        own[page.name] = page.data
    own.update(saves)
    meta = moduledata(spec.name, spec.version, spec.vassal_version, spec.description)
    # the images are read one at a time as they are zipped (a large game's are on disk: .spool)
    return vmod_entries(built.xml, meta, spec.images, own)


def build_game_module(game: str | Path | Game, out: str | Path | None = None, *, dpi: float | None = None) -> BuildResult:
    """Build the module of ``game`` (a built-in id, a game folder, or a build configuration YAML);
    write it atomically to ``out`` when given (never over one of the game's files)."""
    from gazala_tools.vassal.module.games import game_and_config, start_module_spec
    from gazala_tools.vassal.module.setups import setup_saves

    t0 = time.perf_counter()
    with few_collections():
        g, cfg = game_and_config(game)
        if out is not None:  # before the work: an output that would replace an input is refused at once
            _refuse_inputs(out, g, cfg)
        pending = start_module_spec(g, dpi=dpi, config=cfg)
        try:  # the buildFile and the set-ups need no image: made while a large game's faces are drawn
            built = build_buildfile(pending.spec)
            saves = setup_saves(pending.spec, built)
            spec = pending.finish()
        finally:
            pending.close()
        t1 = time.perf_counter()
        data: bytes | None = None
        if out is None:
            data = _package(spec, built, saves)
            n_bytes = len(data)
        else:  # zipped straight into the file, one entry at a time
            art = {c.art(side) for c in load_game_manifest(g) for side in ("front", "back") if c.art(side)}
            n_bytes = write_vmod(out, _entries(spec, built, saves), inputs=[*_inputs(g, cfg), *sorted(art)])
    t2 = time.perf_counter()
    timings = {"render": t1 - t0, "assemble and write": t2 - t1, "total": t2 - t0}
    return BuildResult(built, spec, timings, n_bytes, None if out is None else Path(out), data)


def _inputs(game: Game, cfg: ModuleConfig) -> list[Path]:
    files = [p for p in (game.source_file, game.map_file, game.counters_file, game.scenarios_file, game.tables_file,
                         game.module_config) if p is not None]
    if cfg.file:
        files.append(Path(cfg.file))
    if cfg.board_art is not None:
        files.append(cfg.board_art)
    files += [h.file for h in cfg.help]
    return files


def _refuse_inputs(out: str | Path, game: Game, cfg: ModuleConfig) -> None:
    """Refuse an output path that is one of the build's inputs (the game folder's files)."""
    from gazala_tools.fileio import refuse_overwrite

    refuse_overwrite(out, _inputs(game, cfg))
