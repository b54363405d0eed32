"""``rules.stacking``: how many units (or points) a side may stack in one hex."""

from __future__ import annotations

import string
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

import yaml

from gazala_tools.hexes import Hex
from gazala_tools.referee.ruledata.filters import UnitFilter
from gazala_tools.referee.ruledata.section import RulesSection, terrain_hexes
from gazala_tools.yamlnodes import did_you_mean

__all__ = [
    "STACKING_KEYS",
    "STACKING_WHEN",
    "StackingRules",
    "TerrainLimit",
    "TypeLimit",
    "note_placeholders_ok",
    "read_stacking",
]

if TYPE_CHECKING:  # pragma: no cover
    from gazala_tools.referee.position import Unit


@dataclass(frozen=True, slots=True)
class TypeLimit:
    """At most ``limits[side]`` units of ``types`` in one side's stack (a side not named: no limit)."""

    types: frozenset[str]
    name: str
    limits: Mapping[str, int]
    rule: str  #: the rule its findings cite (``types-rule``, else the stacking rule)

    def limit(self, side: str) -> int | None:
        return self.limits.get(side)


@dataclass(frozen=True, slots=True)
class TerrainLimit:
    """A hex of one of these terrains holds ``limits[side]`` (in the stacking unit) instead."""

    terrain: str
    hexes: frozenset[Hex]
    limits: Mapping[str, int]


#: when stacking is judged: at the end of each movement phase (a log), or at every step of one
STACKING_WHEN: Final = ("end-of-movement", "always")


@dataclass(frozen=True, slots=True)
class StackingRules:
    rule: str
    limit: Mapping[str, int] | None  #: units (or points) of a side in one hex, per side (None: no general limit)
    types: tuple[TypeLimit, ...] = ()
    alone: UnitFilter | None = None  #: units no other unit may stack with
    note: str = ""  #: appended to a finding; ``{excess}`` is the number of units too many
    exempt: UnitFilter | None = None  #: units the ``limit`` does not count (HQs, leaders)
    alone_rule: str = ""  #: the rule the ``alone`` finding cites ("" = ``rule``)
    #: stacking points by unit type (``points``; None: the limit counts units); a type not named counts
    #: ``default_points``
    points: Mapping[str, int] | None = None
    default_points: int = 1
    terrain: tuple[TerrainLimit, ...] = ()  #: per-terrain limits (a city holds more)
    when: str = "end-of-movement"

    def points_of(self, unit: Unit) -> int:
        """A unit's stacking points (1 when the limit counts units)."""
        if self.points is None:
            return 1
        return self.points.get(unit.type, self.default_points)

    def limit_at(self, side: str, h: Hex | None) -> int | None:
        """The side's limit in hex ``h``: the largest limit of its terrains (``terrain``), else the
        general one."""
        got = [tl.limits[side] for tl in self.terrain if h in tl.hexes and side in tl.limits]
        if got:
            return max(got)
        return self.limit.get(side) if self.limit is not None else None


STACKING_KEYS: Final = frozenset({"rule", "limit", "types", "alone", "note", "exempt", "types-rule", "alone-rule",
                                  "enemy-rule", "points", "terrain", "when"})


def _per_side(s: RulesSection, key: str, lo: int) -> dict[str, int]:
    """``N`` (every side) or ``{side: N}``."""
    if isinstance(s.m[key], yaml.ScalarNode):
        n = s.integer(key, lo=lo, hi=100_000)
        return {side: n for side in s.r.sides}
    per = s.sub(key)
    return {side: per.integer(side, lo=lo, hi=100_000) for side in per.side_keys()}


def read_stacking(s: RulesSection) -> tuple[StackingRules | None, str]:
    if not s:
        return None, "stacking"
    rule = s.rule("rule", "stacking")
    limit: dict[str, int] | None = None
    if "limit" in s:
        limit = _per_side(s, "limit", 1)
    points, default_points = _points(s, limit)
    terrain = _terrain_limits(s, limit)
    types = _type_limits(s, rule)
    alone = s.units("alone") if "alone" in s else None
    exempt = s.units("exempt") if "exempt" in s else None
    if "exempt" in s and limit is None:
        raise s.err("exempt", "exempts units from no limit", expected="a 'limit' beside it")
    if "alone-rule" in s and alone is None:
        raise s.err("alone-rule", "names the rule of no 'alone' units", expected="an 'alone' beside it")
    note = s.text("note", "")
    if note and not note_placeholders_ok(note):
        raise s.err("note", f"{note!r} has a placeholder other than {{excess}}",
                    expected="text with at most the placeholder {excess} ({{ and }} for braces)")
    if limit is None and not types and alone is None:
        raise s.err(None, "states no limit", expected="limit, types or alone")
    return (StackingRules(rule, limit, tuple(types), alone, note, exempt, s.rule("alone-rule", rule), points,
                          default_points, tuple(terrain), s.choice("when", STACKING_WHEN, "end-of-movement")),
            s.rule("enemy-rule", rule))


def note_placeholders_ok(note: str) -> bool:
    """Does a stacking ``note`` hold no placeholder but a plain ``{excess}`` (no index, attribute,
    conversion or format spec: the note is data from a game folder, never a format program)?"""
    try:
        return all(field in (None, "excess") and not spec and conv is None
                   for _text, field, spec, conv in string.Formatter().parse(note))
    except ValueError:
        return False


def _points(s: RulesSection, limit: dict[str, int] | None) -> tuple[dict[str, int] | None, int]:
    """``points``: stacking points by unit type (``other``: every type not named), and that default."""
    if "points" not in s:
        return None, 1
    if limit is None:
        raise s.err("points", "counts points against no limit", expected="a 'limit' (in points) beside it")
    pts = s.sub("points")
    points: dict[str, int] = {}
    default_points = 1
    for name in pts:
        if name == "other":
            default_points = pts.integer(name, lo=0, hi=1000)
            continue
        for t in pts.r_type(pts.key_node(name) or pts.m[name], pts.what(name)):
            points[t] = pts.integer(name, lo=0, hi=1000)
    return points, default_points


def _terrain_limits(s: RulesSection, limit: dict[str, int] | None) -> list[TerrainLimit]:
    """``terrain``: the limit of a side in a hex of a terrain (a city holds more)."""
    if "terrain" not in s:
        return []
    if limit is None:
        raise s.err("terrain", "raises no limit", expected="a 'limit' beside it")
    ts = s.sub("terrain")
    m = s.r.map
    terrain = []
    for name in ts:
        have = sorted({*m.terrain_types, *(p.kind for p in m.places if p.kind), *(b.kind for b in m.boxes)})
        if name not in have:
            raise s.r.doc.err(ts.key_node(name) or ts.m[name],
                              f"{ts.what(name)}: {name!r} is not a terrain of the map{did_you_mean(name, have)}",
                              expected="one of " + ", ".join(have))
        terrain.append(TerrainLimit(name, terrain_hexes(m, name), _per_side(ts, name, 0)))
    return terrain


def _type_limits(s: RulesSection, rule: str) -> list[TypeLimit]:
    """``types``: at most N units of these types in a side's stack (N, or per side)."""
    types: list[TypeLimit] = []
    tl = s.sub("types")
    types_rule = s.rule("types-rule", rule)
    for name in tl:
        got = tl.r_type(tl.key_node(name) or tl.m[name], tl.what(name))
        if isinstance(tl.m[name], yaml.ScalarNode):
            n = tl.integer(name, lo=0, hi=1000)
            per_side = {side: n for side in s.r.sides}
        else:
            per = tl.sub(name)
            per_side = {side: per.integer(side, lo=0, hi=1000) for side in per.side_keys()}
        types.append(TypeLimit(got, name, per_side, types_rule))
    return types
