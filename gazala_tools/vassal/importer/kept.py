"""The module's component tree as an imported folder keeps it (issue 25 items 1 and 2).

``module.yaml``'s ``vassal:`` section holds the module as data where this toolkit can say it (maps with
their boards, grids, zones and regions; decks, dice, turn trackers, charts, help pages, set-ups) and, for
the rebuild, every top-level component of the buildFile as it was written (``components``): each piece
slot's definition is taken out of it and kept on its counter in ``counters.yaml`` (``vassal: {slot:
TEXT}``), the slot element naming its counter by the attribute :data:`COUNTER_ATTR`. The module's other
files (images, set-up saves, help pages, ``moduledata``) are copied byte for byte under :data:`FILES`.

:func:`assemble` puts the buildFile back together from these; :mod:`.rebuild` writes the module.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import yaml
from lxml import etree

from gazala_tools.errors import VassalFormatError
from gazala_tools.hexgrid import MapLayout
from gazala_tools.vassal.buildfile import MAP_CLASSES, parse_xml
from gazala_tools.vassal.lint import DRAW_PILE, PIECE_SLOT, PREDEFINED_SETUP, SETUP_STACK

__all__ = [
    "COUNTER_ATTR",
    "DESCRIBED",
    "FILES",
    "MAX_DESCRIBE_DEPTH",
    "XML_DECLARATION",
    "KeptDumper",
    "assemble",
    "components",
    "default_boards",
    "describe",
    "dump",
    "grid_data",
    "map_data",
    "module_data",
    "newline",
    "short",
]

#: the attribute a kept piece slot names its counter by (removed again by the rebuild)
COUNTER_ATTR = "gazala.counter"
#: the folder (in the game folder) holding the module's files other than the buildFile
FILES = "vmod"
#: top-level components this toolkit reads as data (the rest are kept verbatim only), by short class name
DESCRIBED: Mapping[str, str] = {
    "Map": "maps", "PrivateMap": "maps", "PlayerHand": "maps", "PieceWindow": "palettes",
    "DiceButton": "dice", "SpecialDiceButton": "dice", "TurnTracker": "turn trackers", "ChartWindow": "charts",
    "Documentation": "help", "PlayerRoster": "sides", "PredefinedSetup": "set-ups",
}
#: the declaration VASSAL writes (the JDK's transformer: double quotes, ``standalone="no"``)
XML_DECLARATION = b'<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n'
#: deepest element nesting described as data (deeper: kept verbatim only)
MAX_DESCRIBE_DEPTH = 12


def short(tag: object) -> str:
    return str(tag).rsplit(".", 1)[-1]


def components(root: etree._Element, slot_counter: Mapping[int, str]) -> list[str]:
    """Every top-level element of ``root`` as written, the definition of each slot that became a counter
    (``slot_counter``: slot index in document order -> counter id) replaced by the counter's id.
    Changes ``root``."""
    for i, el in enumerate(root.iter(PIECE_SLOT)):
        cid = slot_counter.get(i)
        if cid is not None:
            el.text = None
            el.set(COUNTER_ATTR, cid)
    return [etree.tostring(c, encoding="unicode", with_tail=False) for c in root if isinstance(c.tag, str)]


def newline(xml: bytes) -> str:
    """The line ending a buildFile is written with (VASSAL on Windows writes CRLF), given back by
    :func:`assemble` (the parser reads every CRLF as LF)."""
    return "\r\n" if xml.count(b"\r\n") and xml.count(b"\r\n") == xml.count(b"\n") else "\n"


def assemble(tag: str, attributes: Mapping[str, str], kept: Iterable[str], slots: Mapping[str, str],
             *, file: str, eol: str = "\n") -> bytes:
    """The buildFile: a root ``tag`` with ``attributes`` holding the ``kept`` components, each slot that
    names a counter given back the counter's definition (``slots``: counter id -> slot text)."""
    wrapper = "<c>" + "".join(kept) + "</c>"
    holder = parse_xml(wrapper.encode("utf-8"), file)
    try:
        root = etree.Element(tag)
        for k, v in attributes.items():
            root.set(str(k), str(v))
    except (ValueError, TypeError) as exc:
        raise VassalFormatError(f"the kept module root is not an XML element ({exc})", file=file,
                                place="vassal.root", expected="an element name and attributes") from None
    children = [c for c in holder if isinstance(c.tag, str)]
    root.text = "\n    " if children else None
    for i, child in enumerate(children):
        child.tail = "\n    " if i < len(children) - 1 else "\n"
        root.append(child)
    for el in root.iter(PIECE_SLOT):
        cid = el.get(COUNTER_ATTR)
        if cid is None:
            continue
        if cid not in slots:
            raise VassalFormatError(f"piece slot names counter {cid!r}, which counters.yaml does not keep",
                                    file=file, expected="a counter with vassal: {slot: ...}")
        del el.attrib[COUNTER_ATTR]
        el.text = slots[cid]
    data = XML_DECLARATION + etree.tostring(root, encoding="UTF-8") + b"\n"
    return data.replace(b"\n", b"\r\n") if eol == "\r\n" else data


# --- the data description --------------------------------------------------------------------------------
def describe(el: etree._Element, depth: int = 0) -> dict[str, Any]:
    """An element as data: its class (short name), its attributes, its children (piece slots by counter)."""
    out: dict[str, Any] = {"class": short(el.tag), **{str(k): str(v) for k, v in el.attrib.items()}}
    if el.tag == PIECE_SLOT:
        return out
    text = (el.text or "").strip()
    if text:
        out["text"] = text
    if depth < MAX_DESCRIBE_DEPTH:
        kids = [describe(c, depth + 1) for c in el if isinstance(c.tag, str)]
        if kids:
            out["children"] = kids
    return out


def grid_data(el: etree._Element) -> dict[str, Any]:
    """A board's grid as far as data says it: its kind and attributes, its numbering, its zones (each with
    its path and own grid) and regions, and a zoned grid's background grid."""
    out: dict[str, Any] = {"kind": short(el.tag), "attributes": {str(k): str(v) for k, v in el.attrib.items()}}
    for c in el:
        kind = short(c.tag)
        if kind.endswith("Numbering"):
            out["numbering"] = {"kind": kind, **{str(k): str(v) for k, v in c.attrib.items()}}
        elif kind == "Zone":
            zone: dict[str, Any] = {"name": c.get("name", ""), "location_format": c.get("locationFormat", ""),
                                    "path": [[int(n) for n in p.split(",")] for p in c.get("path", "").split(";")
                                             if p.count(",") == 1 and all(x.strip().lstrip("-").isdigit()
                                                                          for x in p.split(","))]}
            sub = [g for g in c if isinstance(g.tag, str) and short(g.tag).endswith("Grid")]
            if sub:
                zone["grid"] = grid_data(sub[0])
            out.setdefault("zones", []).append(zone)
        elif kind == "Region":
            out.setdefault("regions", []).append({"name": c.get("name", ""), "x": c.get("originx", ""),
                                                  "y": c.get("originy", "")})
        elif kind.endswith("Grid"):
            out["background"] = grid_data(c)
    return out


def map_data(el: etree._Element, layout: MapLayout | None,
             counter_of: Mapping[etree._Element, str]) -> dict[str, Any]:
    """A map: its boards (image, size, place in the map's board layout, grid), decks and at-start stacks."""
    placed = {b.name: (col, row) for b, col, row in layout.boards} if layout is not None else {}
    default = default_boards(el)
    if default:  # the BoardPicker's default layout (SetBoards syntax) places the boards
        placed = {name: (col, row) for name, col, row in default}
    out: dict[str, Any] = {"name": el.get("mapName", ""), "class": short(el.tag), "boards": []}
    for board in el.iter("VASSAL.build.module.map.boardPicker.Board"):
        b: dict[str, Any] = {"name": board.get("name", "")}
        for key in ("image", "width", "height", "reversible"):
            if board.get(key) is not None:
                b[key] = board.get(key)
        if b["name"] in placed:
            b["position"] = list(placed[b["name"]])
        grids = [g for g in board if isinstance(g.tag, str)]
        if grids:
            b["grid"] = grid_data(grids[0])
        out["boards"].append(b)
    for st in el.iter(SETUP_STACK, DRAW_PILE):
        what = "decks" if st.tag == DRAW_PILE else "at-start stacks"
        entry: dict[str, Any] = {k: st.get(k) for k in ("name", "owningBoard", "location", "x", "y")
                                 if st.get(k) is not None}
        entry["counters"] = [counter_of.get(s, "") for s in st.iter(PIECE_SLOT)]
        out.setdefault(what, []).append(entry)
    return out


def default_boards(map_el: etree._Element) -> list[tuple[str, int, int]]:
    """A map's default board layout: its BoardPicker's ``<setup>`` (``MAPBoardPicker\tBOARD\tCOL\tROW...``,
    vassal-format.md 2.5 and 4.5), as (board, col, row); a reversed board's name ends in ``|rev``."""
    for picker in map_el:
        if short(picker.tag) != "BoardPicker":
            continue
        for setup in picker:
            if setup.tag == "setup" and setup.text:
                tokens = setup.text.split("\t")[1:]
                out: list[tuple[str, int, int]] = []
                for i in range(0, len(tokens) - 2, 3):
                    try:
                        out.append((tokens[i].removesuffix("|rev"), int(tokens[i + 1]), int(tokens[i + 2])))
                    except ValueError:
                        return []
                return out
    return []


def module_data(root: etree._Element, layouts: list[MapLayout], slot_counter: Mapping[int, str]) -> dict[str, Any]:
    """What :data:`DESCRIBED` names, as data, by section; with the component classes kept verbatim only."""
    # keyed by the elements themselves (lxml gives the same proxy for an element while one is held)
    counter_of: dict[etree._Element, str] = {el: slot_counter.get(i, "") for i, el in enumerate(root.iter(PIECE_SLOT))}
    by_name = {lay.name: lay for lay in layouts}
    out: dict[str, Any] = {}
    verbatim: list[str] = []
    for el in root:
        if not isinstance(el.tag, str):
            continue
        kind = short(el.tag)
        section = DESCRIBED.get(kind)
        if el.tag in MAP_CLASSES:
            out.setdefault("maps", []).append(map_data(el, by_name.get(el.get("mapName", "")), counter_of))
        elif section == "palettes":
            out.setdefault("palettes", []).append(
                {"name": el.get("name", ""), "counters": [counter_of.get(s, "") for s in el.iter(PIECE_SLOT)]})
        elif section == "set-ups":  # a menu's set-ups follow it, each naming the menu it is in
            for sub in el.iter(PREDEFINED_SETUP):
                menu = sub.getparent()
                out.setdefault("set-ups", []).append(
                    {k: sub.get(k) for k in ("name", "file", "useFile", "isMenu") if sub.get(k) is not None}
                    | ({"menu": menu.get("name", "")} if sub is not el and menu is not None else {}))
        elif section is not None and section != "sides":
            out.setdefault(section, []).append(describe(el))
        elif section is None:
            verbatim.append(kind)
    out["kept verbatim only"] = verbatim
    return out


# --- YAML ------------------------------------------------------------------------------------------------
_Dumper: Any = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


class KeptDumper(_Dumper):  # type: ignore[misc]
    """Block style for multi-line strings (kept XML reads and diffs line by line); never an alias (the
    rebuild refuses them)."""

    def ignore_aliases(self, data: Any) -> bool:
        return True


def _str(dumper: Any, value: str) -> Any:
    if "\n" in value:
        return dumper.represent_scalar("tag:yaml.org,2002:str", value, style="|")
    return dumper.represent_scalar("tag:yaml.org,2002:str", value)


KeptDumper.add_representer(str, _str)


def dump(data: Any) -> str:
    return str(yaml.dump(data, Dumper=KeptDumper, sort_keys=False, default_flow_style=None, width=110,
                         allow_unicode=True))
