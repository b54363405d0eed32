"""The maps of an imported game folder as VASSAL lays them out (issue 35 item 3), for the referee.

The folder keeps the module's components in ``module.yaml`` and its files under ``vmod/``: the maps
(their boards, grids, zones and board pickers) are put back together as the rebuild does
(:func:`.kept.assemble`) and read by the same reader as a module's (:func:`layouts_from_xml`), so a
save's pieces are placed on the boards its SetBoards chooses exactly as for the original module.
"""

from __future__ import annotations

from pathlib import Path

from gazala_tools.hexgrid import MapLayout
from gazala_tools.inputs import inside_folder
from gazala_tools.vassal.buildfile import MAP_CLASSES, ModuleSource, layouts_from_xml
from gazala_tools.vassal.importer.kept import assemble
from gazala_tools.vassal.importer.rebuild import is_imported, kept_module


class _AnySlot(dict[str, str]):
    """Every counter's slot: an empty piece (only the maps are read)."""

    def __contains__(self, key: object) -> bool:
        return True

    def __missing__(self, key: str) -> str:
        return "+/null/piece;;;;/\tnull;0;0;;0"


def folder_layouts(folder: str | Path) -> list[MapLayout]:
    """The map layouts of an imported game folder (the module's own, read from ``module.yaml``)."""
    folder = Path(folder)
    kept = kept_module(folder)
    root = kept.get("root") or {}
    maps = [str(c) for c in kept["components"] if str(c).lstrip().startswith(tuple(f"<{m}" for m in MAP_CLASSES))]
    xml = assemble(str(root.get("tag", "VASSAL.build.GameModule")), root.get("attributes") or {}, maps, _AnySlot(),
                   file=str(folder / "module.yaml"))
    name = str(kept.get("files") or "vmod")  # in the folder, as the rebuild reads it (the sandbox: docs/games.md)
    files = inside_folder(folder / name, folder, name=name, what="module files folder", file=folder / "module.yaml")
    src = ModuleSource(folder / "module.yaml", str(kept.get("buildfile") or "buildFile.xml"), xml, _dir=files)
    return layouts_from_xml(src)


__all__ = ["folder_layouts", "is_imported"]
