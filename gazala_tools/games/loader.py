"""Read a game folder's ``game.yaml`` into a :class:`~.model.Game` (format: ``schema.json``, ``docs/games.md``).

Every error names the file, line and column and the bad value (:mod:`gazala_tools.yamlnodes`).
Pure Python.
"""

from __future__ import annotations

import contextlib
import os
import re
from pathlib import Path
from typing import Any, Final

import yaml

from gazala_tools.errors import GameDataError
from gazala_tools.games.model import SYMBOLS, Game, Side, UnitType
from gazala_tools.numbering import Numbering
from gazala_tools.yamlnodes import COLOR_RE, Doc, compose, plain

__all__ = [
    "MAX_GAME_YAML_BYTES",
    "MAX_PLUGIN_NAME",
    "MAX_SIDES",
    "MAX_TURNS",
    "NUMBERING_KEYS",
    "PLUGIN_RE",
    "SIDE_KEYS",
    "TOP_KEYS",
    "TURN_KEYS",
    "UNIT_TYPE_KEYS",
    "read_game_file",
]

TOP_KEYS: Final = frozenset(
    {"id", "name", "publisher", "description", "provenance", "sources", "sides", "turns", "numbering", "unit-types",
     "rules"}
)
SIDE_KEYS: Final = frozenset({"id", "name", "color", "adjective"})
UNIT_TYPE_KEYS: Final = frozenset({"name", "symbol"})
TURN_KEYS: Final = frozenset({"count", "first", "label"})
#: VASSAL's HexGridNumbering attribute names (numbering.py maps them to Numbering fields)
NUMBERING_KEYS: Final = frozenset(Numbering().vassal_attrs())
#: a plugin reference: a module of the package's rules, or a ``.py`` file inside the game folder
PLUGIN_RE: Final = re.compile(r"^(?:gazala_tools\.rules\.[A-Za-z_][A-Za-z0-9_]*|[A-Za-z0-9_./-]{1,250}\.py)$")
MAX_TURNS: Final = 1000
#: largest game.yaml (the built-in games' are 2 to 6 KB; the other files of a folder hold the bulk)
MAX_GAME_YAML_BYTES: Final = 1024 * 1024
#: most sides a game may have (real games: 2 to 8; every list is checked in linear time besides)
MAX_SIDES: Final = 100
#: longest plugin reference (a file name or module name beyond the file system's 255 bytes is an error)
MAX_PLUGIN_NAME: Final = 200


def read_game_file(file: Path, *, module_config: Path | None = None, builtin: bool = False) -> Game:
    """Parse and validate one ``game.yaml``; the folder is the file's directory."""
    doc = Doc(file, GameDataError)
    size = 0
    with contextlib.suppress(OSError, ValueError):  # a missing file, a bad name: compose says so
        size = os.stat(file).st_size
    if size > MAX_GAME_YAML_BYTES:  # refused before composing (pure-Python YAML: about 4 s a MB)
        raise GameDataError(f"game.yaml is {size:,} bytes", file=file,
                            expected=f"at most {MAX_GAME_YAML_BYTES:,} bytes (a game.yaml is a few KB)")
    root = compose(file, "game.yaml", GameDataError)
    m = doc.mapping(root, "game.yaml", TOP_KEYS)
    doc.require(m, root, "game.yaml", "id", "name", "sides", "provenance")
    game_id = doc.ident(m["id"], "id")
    sides = _sides(doc, m["sides"])
    turns = _turns(doc, m["turns"]) if "turns" in m else ()
    numbering = _numbering(doc, m["numbering"]) if "numbering" in m else Numbering()
    rules: dict[str, Any] = {}
    plugin: str | None = None
    if "rules" in m:
        rm = doc.mapping(m["rules"], "rules")
        if "plugin" in rm:
            plugin = doc.scalar(rm["plugin"], "rules.plugin")
            if len(plugin) > MAX_PLUGIN_NAME or not PLUGIN_RE.match(plugin) or ".." in plugin.split("/"):
                raise doc.err(rm["plugin"], f"rules.plugin: {plugin!r} is not a plugin reference",
                              expected="a module of gazala_tools.rules (gazala_tools.rules.rg) or a .py file of the game folder, "
                                       f"at most {MAX_PLUGIN_NAME} characters")
        data = plain(m["rules"])
        assert isinstance(data, dict)
        data.pop("plugin", None)
        rules = data
    return Game(
        id=game_id,
        name=doc.string(m, "name", "game.yaml"),
        folder=file.parent,
        sides=sides,
        turns=turns,
        numbering=numbering,
        provenance=doc.string(m, "provenance", "game.yaml"),
        publisher=doc.string(m, "publisher", "game.yaml", ""),
        description=doc.string(m, "description", "game.yaml", ""),
        sources=doc.strings(m["sources"], "sources") if "sources" in m else (),
        plugin=plugin,
        rules=rules,
        module_config=module_config,
        builtin=builtin,
        source_file=file,
        rules_node=m.get("rules"),
        unit_types=_unit_types(doc, m["unit-types"]) if "unit-types" in m else (),
    )


def _unit_types(doc: Doc, node: yaml.Node) -> tuple[UnitType, ...]:
    """``unit-types: [infantry, cavalry]`` or ``{cavalry: {name: Cavalry, symbol: recon}}``."""
    out: list[UnitType] = []
    seen: set[str] = set()  # every check of a list is linear in its length (issue 31)
    items: list[tuple[yaml.Node, yaml.Node | None]]
    if isinstance(node, yaml.SequenceNode):
        items = [(n, None) for n in node.value]
    elif isinstance(node, yaml.MappingNode):
        doc.mapping(node, "unit-types")  # duplicate keys, caps
        items = [(k, v) for k, v in node.value]
    else:
        raise doc.err(node, "unit-types is not a list or mapping", expected="[infantry, cavalry] or {cavalry: {symbol: recon}}")
    for i, (k, v) in enumerate(items):
        tid = doc.ident(k, f"unit-types[{i}]")
        name, symbol = "", ""
        if v is not None and not (isinstance(v, yaml.ScalarNode) and v.value in ("", "~", "null")):
            tm = doc.mapping(v, f"unit-types.{tid}", UNIT_TYPE_KEYS)
            name = doc.opt(tm, "name", f"unit-types.{tid}") or ""
            if "symbol" in tm:
                symbol = doc.choice(tm["symbol"], f"unit-types.{tid}.symbol", SYMBOLS)
        if tid in seen:
            raise doc.err(k, f"unit-types: {tid!r} listed twice")
        seen.add(tid)
        out.append(UnitType(tid, name, symbol))
    for t, (k, _v) in zip(out, items, strict=True):
        if (t.symbol or t.id) not in SYMBOLS:
            raise doc.err(k, f"unit-types: {t.id!r} has no counter symbol",
                          expected="{" + t.id + ": {symbol: S}} with S one of " + ", ".join(SYMBOLS))
    return tuple(out)


def _sides(doc: Doc, node: yaml.Node) -> tuple[Side, ...]:
    out: list[Side] = []
    seen: set[str] = set()
    items = doc.seq(node, "sides")
    if len(items) > MAX_SIDES:
        raise doc.err(node, f"sides: {len(items):,} sides", expected=f"at most {MAX_SIDES}")
    for i, n in enumerate(items):
        what = f"sides[{i}]"
        sm = doc.mapping(n, what, SIDE_KEYS)
        doc.require(sm, n, what, "id", "name")
        color = doc.opt(sm, "color", what) or ""
        if color and not COLOR_RE.match(color):
            raise doc.err(sm["color"], f"{what}.color: {color!r} is not a colour", expected="#rrggbb")
        side = Side(doc.ident(sm["id"], f"{what}.id"), doc.scalar(sm["name"], f"{what}.name"), color,
                    doc.opt(sm, "adjective", what) or "")
        if side.id in seen:
            raise doc.err(sm["id"], f"{what}.id: side {side.id!r} listed twice")
        seen.add(side.id)
        out.append(side)
    if len(out) < 2:
        raise doc.err(node, f"sides: {len(out)} side(s)", expected="at least two sides")
    return tuple(out)


def _turns(doc: Doc, node: yaml.Node) -> tuple[str, ...]:
    if isinstance(node, yaml.SequenceNode):
        labels = doc.strings(node, "turns")
        if len(labels) > MAX_TURNS:
            raise doc.err(node, f"turns: {len(labels)} turns", expected=f"at most {MAX_TURNS}")
    else:
        tm = doc.mapping(node, "turns", TURN_KEYS)
        doc.require(tm, node, "turns", "count")
        count = doc.integer(tm["count"], "turns.count", lo=1, hi=MAX_TURNS)
        first = doc.integer(tm["first"], "turns.first", lo=-1000, hi=1000) if "first" in tm else 1
        label = doc.string(tm, "label", "turns", "{n}")
        if label.count("{n}") != 1 or "{" in label.replace("{n}", "") or "}" in label.replace("{n}", ""):
            raise doc.err(tm["label"], f"turns.label: {label!r}", expected="a text with '{n}' once, e.g. 'Turn {n}'")
        labels = tuple(label.replace("{n}", str(first + i)) for i in range(count))
    seen: set[str] = set()
    for t in labels:
        key = " ".join(t.split()).casefold()
        if not key or key in seen:
            raise doc.err(node, f"turns: {t!r} is empty or listed twice", expected="distinct turn labels")
        seen.add(key)
    return labels


def _numbering(doc: Doc, node: yaml.Node) -> Numbering:
    nm = doc.mapping(node, "numbering", NUMBERING_KEYS)
    attrs = {k: doc.scalar(v, f"numbering.{k}") for k, v in nm.items()}
    for k in ("hLeading", "vLeading", "hOff", "vOff"):
        if k in attrs:
            doc.integer(nm[k], f"numbering.{k}", lo=-100_000, hi=100_000 if k.endswith("Off") else 8)
    try:
        return Numbering.from_vassal_attrs(attrs)
    except ValueError as exc:
        raise doc.err(node, f"numbering: {exc}") from None
