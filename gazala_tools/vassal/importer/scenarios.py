"""An imported module's set-ups as ``scenarios.yaml`` (docs/module.md, "Importing a module").

One scenario per predefined set-up that is not a menu: a set-up with a save puts each of the save's pieces
where the save has it; a set-up without one (a new game) puts the module's at-start stacks and decks; a
module without any set-up has its at-start stacks as one scenario, ``at-start``. Each piece goes, as a
``counter:`` of counters.yaml (a copy each time its slot is placed again):

- on its hex, when it stands on the main grid's board at a location that is a hex of map.yaml;
- else in a box named after where the module has it: an at-start stack's or deck's name; for a save's
  piece the location VASSAL names (a zone's), with the map's name before it when it is not the main
  map, or the map's name alone when the location names no place ("offboard", the board);
- a piece whose slot is not one of the module's (its gpid names none) is not placed: counted in the
  import report.

The saves themselves stay in the module (``vmod/``); :func:`setup_save` gives a scenario's save back for
``gazala game scenario``. The rebuild reads none of this (``scenarios.yaml`` is not in the module).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gazala_tools.errors import GazalaError
from gazala_tools.escape import NOT_DRAWN
from gazala_tools.games.scenarios import MAX_PLACEMENTS, MAX_SCENARIOS
from gazala_tools.games.writing import slug
from gazala_tools.inputs import inside_folder, read_file
from gazala_tools.vassal.importer.reader import MAX_SETUP_BYTES, SetupPlacement

__all__ = ["AT_START", "MAX_NAME", "NO_PLACE", "Written", "scenarios_doc", "setup_save"]

#: longest scenario or box name written (a module's names are data: cut, control characters blanked)
MAX_NAME = 120
#: a scenario's id when the module has no set-up and its at-start stacks are the opening position
AT_START = "at-start"
#: locations VASSAL gives a point that no grid or zone names
NO_PLACE = frozenset({"", "offboard"})


@dataclass
class Written:
    """What :func:`scenarios_doc` wrote: the document (None: no scenario) and, per scenario, its counts."""

    doc: dict[str, Any] | None
    report: list[dict[str, Any]] = field(default_factory=list)
    left_out: list[str] = field(default_factory=list)  #: set-ups not written, each with why


def _name(text: str) -> str:
    return NOT_DRAWN.sub(" ", text)[:MAX_NAME].strip()


def _unique(base: str, used: set[str]) -> str:
    base = base[:60].strip("-") or "scenario"
    out, n = base, 2
    while out in used:
        out = f"{base}-{n}"
        n += 1
    used.add(out)
    return out


def _box(pl: SetupPlacement, main_map: str | None) -> str:
    """The box a piece that is not on a hex of map.yaml goes in (see the module docstring)."""
    if not pl.file:  # an at-start stack or deck: its own name
        return _name(pl.setup) or _name(pl.map) or "at start"
    loc = pl.location or ""
    if loc in NO_PLACE or loc in (pl.board, pl.map):
        return _name(pl.map) or "off the maps"
    return _name(loc if pl.map == main_map else f"{pl.map}: {loc}")


def _setup(pieces: Iterable[SetupPlacement], counter_of: dict[str, str], is_hex: Callable[[SetupPlacement], bool],
           main_map: str | None) -> tuple[list[dict[str, Any]], dict[str, int]]:
    """The placements of one scenario (grouped by where, in the order the module lists the pieces) and
    its counts."""
    groups: dict[tuple[str, str], list[str]] = {}
    counts = {"on hexes": 0, "in boxes": 0, "not placed": 0}
    for pl in pieces:
        counter = counter_of.get(pl.gpid)
        if not counter:
            counts["not placed"] += 1
            continue
        where = ("hex", pl.location or "") if is_hex(pl) else ("box", _box(pl, main_map))
        counts["on hexes" if where[0] == "hex" else "in boxes"] += 1
        groups.setdefault(where, []).append(counter)
    out = [{("counter" if len(ids) == 1 else "counters"): ids[0] if len(ids) == 1 else ids, key: value}
           for (key, value), ids in groups.items()]
    return out, counts


def scenarios_doc(setups: list[dict[str, Any]], placements: list[SetupPlacement], counter_of: dict[str, str],
                  is_hex: Callable[[SetupPlacement], bool], main_map: str | None) -> Written:
    """``scenarios.yaml`` of the module's set-ups (``setups``: module.yaml's ``vassal: set-ups``, each
    given its ``scenario:`` id here). ``counter_of``: gpid -> counter id; ``is_hex``: whether a piece
    stands on a hex of map.yaml (then its location is the hex's label)."""
    at_start = [pl for pl in placements if not pl.file]
    chosen: list[tuple[dict[str, Any] | None, str, str, list[SetupPlacement]]] = []
    out = Written(None)
    for s in setups:
        if s.get("isMenu") == "true":
            continue
        name = str(s.get("name", ""))
        if s.get("useFile", "true") == "false" or not s.get("file"):
            chosen.append((s, name, "the module's at-start stacks (a new game)", at_start))
            continue
        own = [pl for pl in placements if pl.file == s["file"] and pl.setup == name]
        if not own and "pieces" not in s:
            out.left_out.append(f"{_name(name)}: its save {_name(str(s['file']))} was not read (see not understood)")
            continue
        chosen.append((s, name, f"the module's predefined set-up {_name(name)!r} (its save "
                                f"{_name(str(s['file']))})", own))
    if not chosen and at_start:
        chosen.append((None, "At start", "the module's at-start stacks (it has no predefined set-up)", at_start))
    used: set[str] = set()
    scenarios: list[dict[str, Any]] = []
    total = 0
    for entry, name, source, pieces in chosen:
        setup, counts = _setup(pieces, counter_of, is_hex, main_map)
        if len(scenarios) >= MAX_SCENARIOS or total + len(setup) > MAX_PLACEMENTS:
            out.left_out.append(f"{_name(name)}: more than {MAX_SCENARIOS} scenarios or {MAX_PLACEMENTS} "
                                f"placements in all")
            continue
        total += len(setup)
        sid = _unique(AT_START if entry is None else slug(name), used)
        if entry is not None:  # named on its set-up (before the set-up's pieces, for the eye)
            pieces_data = entry.pop("pieces", None)
            entry["scenario"] = sid
            if pieces_data is not None:
                entry["pieces"] = pieces_data
        scenarios.append({"id": sid, "name": _name(name) or sid, "source": source,
                          **({"setup": setup} if setup else {})})
        out.report.append({"id": sid, **counts})
    if scenarios:
        out.doc = {"scenarios": scenarios}
    return out


def setup_save(folder: str | Path, scenario: str) -> bytes:
    """The save the module holds for ``scenario`` (an id of the folder's scenarios.yaml: the set-up of
    module.yaml's ``vassal: set-ups`` naming it), from the folder's module files. Bad input when the
    scenario has no save (a new game: VASSAL places the at-start stacks itself)."""
    from gazala_tools.vassal.importer.rebuild import kept_module

    folder = Path(folder)
    kept = kept_module(folder)
    setups = kept.get("set-ups") or []
    chosen = next((s for s in setups if isinstance(s, dict) and s.get("scenario") == scenario), None)
    if chosen is None or chosen.get("useFile") == "false" or not chosen.get("file"):
        raise GazalaError(f"scenario {scenario!r} has no save in the module"
                          + (" (a new game: VASSAL places the module's at-start stacks when it starts)"
                             if chosen is not None else ""),
                          file=folder / "module.yaml", place="vassal.set-ups",
                          expected="a scenario of a predefined set-up with a save (gazala game show GAME)")
    name = f"{kept.get('files') or 'vmod'}/{chosen['file']}"
    path = inside_folder(folder / name, folder, name=name, what="set-up save")
    return read_file(path, what="set-up save", cap=MAX_SETUP_BYTES)
