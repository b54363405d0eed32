"""``rules.supply``: supply sources, how a side traces supply to them, and the marker flow."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from gazala_tools.hexes import Hex, Hexside
from gazala_tools.referee.ruledata.filters import HexSet, UnitFilter
from gazala_tools.referee.ruledata.section import RulesReader, RulesSection
from gazala_tools.referee.ruledata.zoc import ZocRules
from gazala_tools.yamlnodes import did_you_mean

__all__ = [
    "MOVED_SUPPLY_KEYS",
    "MOVED_TRACE_KEYS",
    "NETWORK_BLOCKS",
    "TRACE_BLOCKS",
    "TRACE_KEYS",
    "SideSupply",
    "SupplyRules",
    "Trace",
    "read_supply",
]

TRACE_BLOCKS: Final = ("enemy-units", "enemy-zoc", "impassable")
#: what may block a supply network (``network-blocked-by``): as the trace, or nothing
NETWORK_BLOCKS: Final = TRACE_BLOCKS


@dataclass(frozen=True, slots=True)
class Trace:
    """How a side's supply path runs (``docs/games.md``)."""

    enemy_units: bool = True
    enemy_zoc: bool = False
    impassable: bool = True
    friendly_negates_zoc: bool = False
    hexes: frozenset[Hex] = frozenset()  #: hexes the path may not enter
    sides: frozenset[Hexside] = frozenset()  #: hexsides it may not cross
    max_length: int | None = None  #: hexes from the unit to the source (or network), at most
    #: at most this many movement points of ``mp_class`` (the terrain effects chart) instead of hexes
    max_mp: float | None = None
    mp_class: str | None = None
    #: what blocks the network (the part along paths): ``enemy-units``, ``enemy-zoc``, ``impassable``;
    #: None: what blocks the trace
    network_blocks: frozenset[str] | None = None

    def network_blocked_by(self, what: str) -> bool:
        if self.network_blocks is not None:
            return what in self.network_blocks
        return {"enemy-units": self.enemy_units, "enemy-zoc": self.enemy_zoc, "impassable": self.impassable}[what]


@dataclass(frozen=True, slots=True)
class SideSupply:
    side: str
    rule: str
    sources: HexSet
    trace: Trace
    network: frozenset[Hexside] | None = None  #: sources extend along these path hexsides ...
    network_hexes: frozenset[Hex] = frozenset()  #: ... from the sources on these path hexes
    #: with a network: the trace may also end at any source itself (not only at the network)
    direct: bool = False
    #: the side's own units that are sources too (an HQ, a supply truck), where they stand
    source_units: UnitFilter | None = None
    goal: str = "a supply source"
    automatic_through: int | None = None  #: turn index: supplied automatically up to it
    automatic_rule: str = ""


@dataclass(frozen=True, slots=True)
class SupplyRules:
    rule: str
    sides: Mapping[str, SideSupply]
    #: Out of Supply -> Isolated marker flow (RG 5.0 family): on when ``rules.markers`` give the supply roles
    markers: bool = False
    #: the marker flow: isolated in the Nth consecutive supply phase out of supply (2: RG 5.0; 1: at once)
    isolated_after: int = 2
    off_map: str = "reinforcements"  #: which off-map units are in supply: in | reinforcements | none


MOVED_TRACE_KEYS: Final = {
    "friendly-negates-zoc": "rules.zoc.negated-by-friendly: [supply] (what a friendly unit negates the zone for)"}


TRACE_KEYS: Final = frozenset({"blocked-by", "hexes", "hexsides", "except-along",
                               "max-length", "max-mp", "class", "network-blocked-by"})


def _blocks(s: RulesSection, key: str, what: str) -> tuple[str, ...] | None:
    blocks = s.names(key) if key in s else None
    for i, b in enumerate(blocks or ()):
        if b not in TRACE_BLOCKS:
            raise s.err(key, f"[{i}] {b!r} is not a {what} block{did_you_mean(b, TRACE_BLOCKS)}",
                        expected=", ".join(TRACE_BLOCKS) + " (or an empty list: nothing)")
    return blocks


def _trace(s: RulesSection, base: Trace) -> Trace:
    for old, where in MOVED_TRACE_KEYS.items():
        if old in s:
            raise s.err(old, "has moved", expected=where)
    blocks = _blocks(s, "blocked-by", "trace")
    net = _blocks(s, "network-blocked-by", "network")
    if "except-along" in s and "hexsides" not in s:
        raise s.err("except-along", "only applies to 'hexsides'")
    if "max-mp" in s and "max-length" in s:
        raise s.err("max-mp", "a trace is counted in hexes or in movement points, not both",
                    expected="max-length or max-mp")
    classes = s.r.chart.class_names if s.r.chart is not None else ()
    if "class" in s and "max-mp" not in s and base.max_mp is None:
        raise s.err("class", "names the class of no trace in movement points", expected="max-mp: N beside it")
    if "max-mp" in s and "class" not in s and len(classes) != 1 and base.mp_class is None:
        raise s.err("max-mp", "a trace in movement points names its unit class",
                    expected="class: CLASS beside it (one of " + (", ".join(classes) or "none: the game has no "
                                                                  "terrain effects chart") + ")")
    mp_class = base.mp_class
    if "class" in s:
        mp_class = s.r.mp_class(s.m["class"], s.what("class"))
    elif "max-mp" in s and mp_class is None:
        mp_class = classes[0]  # a chart of one class (or none named): the trace moves as it
    return Trace(
        enemy_units=("enemy-units" in blocks) if blocks is not None else base.enemy_units,
        enemy_zoc=("enemy-zoc" in blocks) if blocks is not None else base.enemy_zoc,
        impassable=("impassable" in blocks) if blocks is not None else base.impassable,
        friendly_negates_zoc=base.friendly_negates_zoc,
        hexes=s.hexset("hexes").hexes if "hexes" in s else base.hexes,
        sides=s.crossing("hexsides") if "hexsides" in s else base.sides,
        max_length=(s.opt_integer("max-length", lo=0, hi=1_000_000) if "max-length" in s
                    else None if "max-mp" in s else base.max_length),
        max_mp=s.factor("max-mp") if "max-mp" in s else None if "max-length" in s else base.max_mp,
        mp_class=mp_class if "max-length" not in s else None,
        network_blocks=frozenset(net) if net is not None else base.network_blocks,
    )


#: keys of ``rules.supply`` that said a fact another key states too, and where it is stated now (exit 2)
MOVED_SUPPLY_KEYS: Final = {
    "markers": "rules.markers: {MARKER: {supply: out}} and {MARKER: {supply: isolated}} (a game whose markers "
               "have supply roles has the supply phase's marker flow: the fact is stated with the markers)"}


def read_supply(s: RulesSection, r: RulesReader, zoc: ZocRules) -> SupplyRules | None:
    """``rules.supply``; the Out of Supply -> Isolated marker flow is on when ``rules.markers`` give
    the supply roles (read first: ``r.markers``), and then needs both."""
    if not s:
        return None
    for old, where in MOVED_SUPPLY_KEYS.items():
        if old in s:
            raise s.err(old, "has moved", expected=where)
    s.require("sides")
    roles = {m.supply for m in r.markers.values() if m.supply is not None}  # both or none: read_markers
    rule = s.rule("rule", "supply")
    base = _trace(s.sub("trace", TRACE_KEYS | MOVED_TRACE_KEYS.keys()), Trace(friendly_negates_zoc="supply" in zoc.negated_for))
    per = s.sub("sides")
    sides: dict[str, SideSupply] = {}
    for side in per.side_keys():
        ss = per.sub(side, TRACE_KEYS | MOVED_TRACE_KEYS.keys() | {"rule", "sources", "network", "goal", "automatic-through",
                                        "automatic-rule", "direct", "source-units"})
        ss.require("sources")
        network = ss.path_kinds("network")
        sides[side] = SideSupply(
            side=side,
            rule=ss.rule("rule", rule),
            sources=ss.hexset("sources"),
            trace=_trace(ss, base),
            network=r.map.path_sides(*network) if network else None,
            network_hexes=r.map.path_hexes(*network) if network else frozenset(),
            direct=ss.boolean("direct", False),
            source_units=ss.units("source-units") if "source-units" in ss else None,
            goal=ss.text("goal", "a supply source"),
            automatic_through=ss.opt_turn("automatic-through"),
            automatic_rule=ss.rule("automatic-rule", ss.rule("rule", rule)),
        )
    return SupplyRules(rule, sides, markers=bool(roles),
                       off_map=s.choice("off-map", ("in", "reinforcements", "none"), "reinforcements"),
                       isolated_after=_isolated_after(s, bool(roles)))


def _isolated_after(s: RulesSection, flow: bool) -> int:
    """``isolated-after: N``: the supply phase out of supply in which a unit is Isolated (the markers
    show two states, so 1 or 2)."""
    if "isolated-after" not in s:
        return 2
    if not flow:
        raise s.err("isolated-after", "counts supply phases of no marker flow",
                    expected="markers with 'supply: out' and 'supply: isolated' in rules.markers")
    return s.integer("isolated-after", lo=1, hi=2)
