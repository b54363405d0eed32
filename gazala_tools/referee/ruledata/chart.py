"""``rules.terrain-effects``: the Terrain Effects Chart read into a :class:`~gazala_tools.referee.terrain.Chart`
(the chart's model and its costs are :mod:`gazala_tools.referee.terrain`). Every name is the game's:
classes by units of its types, terrain of its map, hexside and path kinds of its map."""

from __future__ import annotations

import re
from typing import Final

import yaml

from gazala_tools.referee.ruledata.section import RulesSection
from gazala_tools.referee.terrain import ANY_CLASS, NUMBER, PLUS, Chart, ChartCell, MoveClass, Row, parse_cell
from gazala_tools.yamlnodes import did_you_mean

__all__ = ["CHART_KEYS", "OWNERS", "ROW_KEYS", "read_chart"]

CHART_KEYS: Final = frozenset({"rule", "classes", "default", "terrain", "hexsides", "paths"})
ROW_KEYS: Final = frozenset({"cost", "units", "owner", "rule", "what"})
OWNERS: Final = ("own", "enemy")


def read_chart(s: RulesSection) -> Chart | None:
    """``rules.terrain-effects`` (None when the game has none). Every name is the game's: classes
    by units of its types, terrain of its map, hexside and path kinds of its map."""
    if not s:
        return None
    rule = s.rule("rule", "terrain-effects")
    classes: list[MoveClass] = []
    cl = s.sub("classes")
    for name in cl:
        if not re.fullmatch(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*", name):
            raise cl.err(name, f"{name!r} is not a class name", expected="lowercase words joined by '-'")
        classes.append(MoveClass(name, cl.units(name)))
    if "classes" in s and not classes:
        raise s.err("classes", "names no class", expected="at least one class: {foot: {types: [...]}}")
    if not classes:
        classes.append(MoveClass(ANY_CLASS, s.units("\0")))  # a missing key: every unit
    names = tuple(c.name for c in classes)
    default = _cell(s, s.m["default"], s.what("default")) if "default" in s else ChartCell(NUMBER, 1.0, "1")
    if default.kind == PLUS:
        raise s.err("default", f"{default} is not a cost of a hex", expected="a number, all or P")
    m = s.r.map
    box_kinds = {b.kind for b in m.boxes}
    place_kinds = {p.kind for p in m.places}
    have = sorted(m.terrain_types) + sorted((box_kinds | place_kinds) - set(m.terrain_types))
    terrain: list[Row] = []
    t = s.sub("terrain")
    for name in t:
        if name not in have:
            if s.r.strict:
                raise t.err(name, f"{name!r} is not a terrain of the map{did_you_mean(name, have)}",
                            expected="one of " + ", ".join(have) + " (map.yaml terrain.types, or a kind of its "
                            "boxes or places)")
            s.r.missing(t.key_node(name) or t.m[name], "terrain", name, have)
        terrain.extend(_rows(t, name, names, rule, owner_ok=name in box_kinds))
    hexsides: list[Row] = []
    h = s.sub("hexsides")
    for name in h:
        h.hexside_kinds(name, node=h.key_node(name))  # the map's kind, with "did you mean"
        hexsides.extend(_rows(h, name, names, rule, owner_ok=True, first_ok=True))
    paths: list[Row] = []
    p = s.sub("paths")
    for name in p:
        s.r.path_kind(p.key_node(name) or p.m[name], p.what(name), name)
        paths.extend(_rows(p, name, names, rule, bridges_ok=True))
    for row in paths:
        for c in row.cells.values():
            if c.kind == PLUS:
                raise p.err(row.name, f"{c} is not a cost along a path", expected="a number, all or P")
    return Chart(rule, tuple(classes), tuple(terrain), tuple(hexsides), tuple(paths), default)


def _cell(s: RulesSection, node: yaml.Node, what: str) -> ChartCell:
    text = s.r.doc.scalar(node, what)
    got = parse_cell(text)
    if got is None:
        raise s.r.doc.err(node, f"{what}: {text!r} is not a chart cell",
                          expected="a number (halves allowed: 1/2), +N, all or P")
    return got


def _cells(s: RulesSection, node: yaml.Node, what: str, classes: tuple[str, ...]) -> dict[str, ChartCell]:
    """A cost for every class: one cell for all, or ``{class: cell}`` naming each class."""
    if isinstance(node, yaml.ScalarNode):
        c = _cell(s, node, what)
        return dict.fromkeys(classes, c)
    m = s.r.doc.mapping(node, what)
    out: dict[str, ChartCell] = {}
    for k, v in m.items():
        if k not in classes:
            key = next((kn for kn, _vn in node.value if getattr(kn, "value", None) == k), v)
            raise s.r.doc.err(key, f"{what}: {k!r} is not a movement class of the chart{did_you_mean(k, classes)}",
                              expected="one of " + ", ".join(classes) + " (terrain-effects.classes)")
        out[k] = _cell(s, v, f"{what}.{k}")
    missing = [c for c in classes if c not in out]
    if missing:
        raise s.r.doc.err(node, f"{what}: no cost for class {missing[0]!r}", expected="a cost for each of "
                          + ", ".join(classes))
    return out


def _rows(s: RulesSection, name: str, classes: tuple[str, ...], rule: str, *, owner_ok: bool = False,
          first_ok: bool = False, bridges_ok: bool = False) -> list[Row]:
    """The rows of one chart key: a cost, ``{class: cost}``, ``{cost, units, owner, rule, what, ...}``
    or a list of those."""
    node = s.m[name]
    what = s.what(name)
    items = s.r.doc.seq(node, what) if isinstance(node, yaml.SequenceNode) else [node]
    out = []
    allowed = ROW_KEYS | ({"first-step", "unless"} if first_ok else set()) | ({"bridges"} if bridges_ok else set())
    for i, n in enumerate(items):
        w = f"{what}[{i}]" if isinstance(node, yaml.SequenceNode) else what
        if isinstance(n, yaml.MappingNode) and any(getattr(k, "value", None) == "cost" for k, _v in n.value):
            row = type(s)(s.r, n, w, frozenset(allowed))
            if "owner" in row and not owner_ok:
                raise row.err("owner", "only hexsides and boxes have owners")
            bridges: frozenset[str] = frozenset()
            if "bridges" in row:
                bridges = frozenset(row.hexside_kinds("bridges"))
            out.append(Row(
                name=name,
                cells=_cells(s, row.m["cost"], row.what("cost"), classes),
                rule=row.rule("rule", rule),
                what=row.text("what", _default_what(name)),
                units=row.units("units") if "units" in row else None,
                owner=row.choice("owner", OWNERS, "") or None if "owner" in row else None,
                first_step=row.boolean("first-step", False),
                unless=frozenset(row.hexside_kinds("unless")) if "unless" in row else frozenset(),
                bridges=bridges,
            ))
        else:
            out.append(Row(name, _cells(s, n, w, classes), rule, _default_what(name)))
    return out


def _default_what(name: str) -> str:
    return name.replace("-", " ")
