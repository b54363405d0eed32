"""``rules.victory``: victory points for hexes held and units eliminated or exited, sudden death,
levels of victory."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Final

import yaml

from gazala_tools.games.scenarios import load_scenarios
from gazala_tools.referee.ruledata.boxes import lower_names
from gazala_tools.referee.ruledata.control import ControlRules
from gazala_tools.referee.ruledata.filters import HexSet, UnitFilter
from gazala_tools.referee.ruledata.section import RulesSection
from gazala_tools.yamlnodes import ID_RE, did_you_mean

__all__ = [
    "HOLDS",
    "UNIT_AWARD_KEYS",
    "VICTORY_KEYS",
    "HexAward",
    "HexScore",
    "NationalityMatch",
    "SuddenDeath",
    "UnitAward",
    "VictoryLevel",
    "VictoryRules",
    "read_victory",
]

#: how a hex is held for victory points: a unit of the side in it, or control (``rules.control``)
HOLDS: Final = ("occupied", "controlled")


@dataclass(frozen=True, slots=True)
class HexScore:
    """One tier of a hex award: a side scores ``vp`` for each hex it ``holds`` (``occupied`` or
    ``controlled``; ``in_supply``: by a unit in supply)."""

    holds: str
    in_supply: bool
    vp: int
    #: ``in-supply: marked``: in supply as the unit is marked (no marker of the ``out`` or ``isolated``
    #: supply role), not as the position traces it (RG 16.0: supply is adjusted in the Supply Phase only)
    marked: bool = False


@dataclass(frozen=True, slots=True)
class HexAward:
    """Victory points for hexes held: each hex scores the first tier its side meets (10.2: 3 VP for
    an objective occupied in supply, else 1 VP if controlled). ``at``: a turn index (scored from the
    end of that turn on), None: at the end of the game."""

    rule: str
    hexes: HexSet
    tiers: tuple[HexScore, ...]
    sides: frozenset[str] | None = None
    at: int | None = None
    #: ``units: N``: the award scores once per side, when at least N of its units stand on these hexes
    #: together (each meeting the tier), not per hex (RG 16.0: four units on north-edge hexes, 1 VP)
    units: int | None = None
    #: ``scenario: ID`` (of scenarios.yaml): the award counts at the end of that scenario only, tallied
    #: apart per scenario (a position does not say which scenario it is of; RG 17.0)
    scenario: str | None = None


@dataclass(frozen=True, slots=True)
class UnitAward:
    """Victory points per unit: ``eliminated`` (enemy units in an eliminated box score for their
    enemies) or ``exited`` (own units in the ``boxes`` they exit to score for their side)."""

    rule: str
    kind: str  #: eliminated | exited
    units: UnitFilter
    vp: int
    per_step: bool = False
    boxes: frozenset[str] = frozenset()
    #: ``vp: printed``: the unit's printed combat factors (every printed number but its movement allowance)
    printed: bool = False
    #: ``vp-by-nationality``: the VP of a unit by its nationality (``victory.nationalities``); a unit of
    #: another nationality, or of none known, scores nothing (reported)
    by_nationality: Mapping[str, int] | None = None


@dataclass(frozen=True, slots=True)
class SuddenDeath:
    """``side`` wins at once when it holds every hex of ``hexes`` (``holds``, ``in_supply``) at the end
    of any turn."""

    rule: str
    side: str
    hexes: HexSet
    holds: str = "occupied"
    in_supply: bool = False


@dataclass(frozen=True, slots=True)
class VictoryLevel:
    name: str
    margin: int  #: at least this many VP more than the other side


@dataclass(frozen=True, slots=True)
class NationalityMatch:
    """``victory.nationalities``: a nationality key (as the counter manifest's ``nationality``) and how a
    unit the manifest lacks is known to have it: its formation or the start of its id."""

    key: str
    formations: tuple[str, ...] = ()  #: lower case; a unit's formation starting with one of these
    ids: tuple[str, ...] = ()  #: the starts of unit ids


@dataclass(frozen=True, slots=True)
class VictoryRules:
    rule: str
    end: int | None  #: the turn the game ends (its last turn by default)
    hexes: tuple[HexAward, ...] = ()
    units: tuple[UnitAward, ...] = ()
    sudden_death: tuple[SuddenDeath, ...] = ()
    levels: tuple[VictoryLevel, ...] = ()
    draw: str = "draw"
    levels_rule: str = ""
    #: ``levels: {side: [...]}``: each side's own table, used when that side leads (names said whole)
    side_levels: Mapping[str, tuple[VictoryLevel, ...]] = field(default_factory=dict)
    nationalities: tuple[NationalityMatch, ...] = ()


VICTORY_KEYS: Final = frozenset({"rule", "end", "hexes", "eliminated", "exited", "sudden-death", "levels", "draw",
                                 "levels-rule", "nationalities"})
UNIT_AWARD_KEYS: Final = frozenset({"rule", "units", "vp", "per-step", "boxes", "vp-by-nationality"})


def _holds(s: RulesSection, control: ControlRules | None) -> str:
    holds = s.choice("holds", HOLDS, "occupied")
    if holds == "controlled" and control is None:
        raise s.err("holds", "'controlled' needs the game's control rule", expected="rules.control: {by: ...}")
    return holds


def read_victory(s: RulesSection, control: ControlRules | None, exited: frozenset[str] = frozenset()) -> VictoryRules | None:
    if not s:
        return None
    rule = s.rule("rule", "victory")
    hexes: list[HexAward] = []
    for e in s.each("hexes", frozenset({"rule", "hexes", "score", "sides", "at", "units", "scenario"})):
        e.require("hexes", "score")
        group = e.opt_integer("units", lo=1, hi=10_000)
        tiers = [_hex_score(t, control, group) for t in e.each("score", frozenset({"holds", "in-supply", "vp"}))]
        at = None
        if "at" in e and e.text("at") != "end":
            at = e.turn("at")
        hexes.append(HexAward(e.rule("rule", rule), e.hexset("hexes"), tuple(tiers), e.sides("sides"), at, group,
                              _scenario(e)))
    nationalities = _nationalities(s.sub("nationalities"))
    units: list[UnitAward] = []
    for kind in ("eliminated", "exited"):
        for e in s.each(kind, UNIT_AWARD_KEYS):
            units.append(_unit_award(e, kind, rule, nationalities, exited))
    deaths = []
    for e in s.each("sudden-death", frozenset({"rule", "side", "hexes", "holds", "in-supply"})):
        e.require("side", "hexes")
        deaths.append(SuddenDeath(e.rule("rule", rule), e.side("side"), e.hexset("hexes"), _holds(e, control),
                                  e.boolean("in-supply", False)))
    levels: tuple[VictoryLevel, ...] = ()
    side_levels: dict[str, tuple[VictoryLevel, ...]] = {}
    if "levels" in s and isinstance(s.m["levels"], yaml.MappingNode):  # a table per side
        per_side = s.sub("levels")
        side_levels = {side: _levels(per_side, side) for side in per_side.side_keys()}
    else:
        levels = _levels(s, "levels")
    return VictoryRules(rule, s.opt_turn("end"), tuple(hexes), tuple(units), tuple(deaths), levels,
                        s.text("draw", "draw"), s.rule("levels-rule", rule), side_levels, nationalities)


def _scenario(e: RulesSection) -> str | None:
    """``scenario: ID``: a scenario of the game's scenarios.yaml."""
    if "scenario" not in e:
        return None
    got = e.text("scenario")
    ids = [sc.id for sc in load_scenarios(e.r.game)]
    if got not in ids:
        raise e.err("scenario", f"{got!r} is not a scenario of the game{did_you_mean(got, ids)}",
                    expected="an id of scenarios.yaml: " + (", ".join(ids) or "(the game has none)"))
    return got


def _hex_score(t: RulesSection, control: ControlRules | None, group: int | None) -> HexScore:
    """One tier of a hex award: ``holds``, ``in-supply`` (true, false or ``marked``), ``vp``."""
    t.require("vp")
    marked = "in-supply" in t and t.text("in-supply") == "marked"
    if "in-supply" in t and not marked and t.text("in-supply").lower() not in ("true", "false", "yes", "no", "on", "off"):
        raise t.err("in-supply", f"{t.text('in-supply')!r} is not a supply condition"
                    f"{did_you_mean(t.text('in-supply'), ['true', 'false', 'marked'])}",
                    expected="true (as traced), marked (as the unit's markers say) or false")
    holds = _holds(t, control)
    if group is not None and holds != "occupied":
        raise t.err("holds", "an award of 'units: N' counts the units that occupy its hexes", expected="occupied")
    in_supply = marked or t.boolean("in-supply", False)
    return HexScore(holds, in_supply, t.integer("vp", lo=-1000, hi=1000), marked)


def _levels(s: RulesSection, key: str) -> tuple[VictoryLevel, ...]:
    """``[{name, margin}]``: the levels of victory, best first once sorted."""
    levels = []
    for e in s.each(key, frozenset({"name", "margin"})):
        e.require("name", "margin")
        levels.append(VictoryLevel(e.text("name"), e.integer("margin", lo=1, hi=1_000_000)))
    levels.sort(key=lambda lv: -lv.margin)
    return tuple(levels)


def _nationalities(s: RulesSection) -> tuple[NationalityMatch, ...]:
    out = []
    for key in s:
        if not ID_RE.match(key):
            raise s.err(key, f"{key!r} is not a nationality key", expected="lowercase words joined by '-' (de, it, uk)")
        e = s.sub(key, frozenset({"formations", "ids"}))
        out.append(NationalityMatch(key, tuple(f.lower() for f in e.names("formations")), e.names("ids")))
    return tuple(out)


def _unit_award(e: RulesSection, kind: str, rule: str, nationalities: tuple[NationalityMatch, ...],
                exited: frozenset[str] = frozenset()) -> UnitAward:
    """One ``eliminated`` or ``exited`` award: ``vp`` (a number, or ``printed``) or ``vp-by-nationality``;
    an ``exited`` award's boxes default to ``exited``, the boxes ``rules.boxes`` names (stated once)."""
    boxes = lower_names(e.names("boxes"))
    if kind == "exited":
        boxes = boxes or exited
        if not boxes:
            raise e.err(None, "names no box units exit to",
                        expected="rules.boxes.exited: [BOX], or boxes: [BOX] here")
    elif "boxes" in e:
        raise e.err("boxes", "only applies to 'exited'")
    printed, vp, by = False, 0, None
    if "vp-by-nationality" in e:
        if "vp" in e:
            raise e.err("vp", "'vp' and 'vp-by-nationality' exclude each other", expected="one of them")
        if not nationalities:
            raise e.err("vp-by-nationality", "needs the nationalities of the units",
                        expected="victory.nationalities: {KEY: {formations: [...], ids: [...]}}")
        table = e.sub("vp-by-nationality")
        known = [n.key for n in nationalities]
        for key in table:
            if key not in known:
                raise table.err(key, f"{key!r} is not a nationality of victory.nationalities{did_you_mean(key, known)}",
                                expected="one of " + ", ".join(known))
        by = {key: table.integer(key, lo=-1000, hi=1000) for key in table}
    else:
        e.require("vp")
        if e.text("vp") == "printed":
            printed = True
        elif not re.fullmatch(r"-?\d+", e.text("vp")):
            raise e.err("vp", f"{e.text('vp')!r} is not VP{did_you_mean(e.text('vp'), ['printed'])}",
                        expected="a whole number, or 'printed' (the unit's printed combat factors)")
        else:
            vp = e.integer("vp", lo=-1000, hi=1000)
    return UnitAward(e.rule("rule", rule), kind, e.units("units"), vp, e.boolean("per-step", False), boxes, printed, by)
