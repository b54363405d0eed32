"""Victory mechanics of the hobby as data (``rules.victory``, ``docs/games.md`` "Rules mechanics"): what a
unit is worth to the side that eliminates it or exits it, and the level of victory from the tally.

Each function reads only the data (:class:`~gazala_tools.referee.ruledata.VictoryRules`) and the unit, so the
generic report (:func:`gazala_tools.referee.generic.victory`) and a plugin that words its own report use the
same rule. Game-agnostic. Pure Python.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from gazala_tools.referee.ruledata import NationalityMatch, UnitAward, VictoryLevel, VictoryRules
from gazala_tools.referee.units import nationality as manifest_nationality
from gazala_tools.referee.units import printed_values

if TYPE_CHECKING:  # pragma: no cover
    from gazala_tools.referee.bound import BoundData
    from gazala_tools.referee.position import Unit

__all__ = ["award_vp", "leader_level", "nationality_of", "printed_vp"]


def printed_vp(unit: Unit, rules: BoundData) -> int | None:
    """``vp: printed``: the unit's printed combat factors, every printed number but the last (its
    movement allowance): attack + defence on a ``5-4-15`` counter, barrage + FPF + defence on an
    artillery ``4-2-3-8`` one. None when the unit's printed values are unknown (no manifest unit and no
    code in its type or id)."""
    got = printed_values(unit, rules)
    return sum(got[1][:-1]) if got is not None else None


def nationality_of(unit: Unit, rules: BoundData, nationalities: tuple[NationalityMatch, ...]) -> str | None:
    """The unit's nationality: the counter manifest's, else the first of ``victory.nationalities`` whose
    formations start its formation or whose ids start its id (None: not known)."""
    got = manifest_nationality(unit, rules)
    if got is not None:
        return got
    formation = unit.formation.lower()
    for n in nationalities:
        if any(formation.startswith(f) for f in n.formations) or unit.id.startswith(n.ids):
            return n.key
    return None


def award_vp(award: UnitAward, unit: Unit, rules: BoundData, nationalities: tuple[NationalityMatch, ...] = ()) -> int | None:
    """The VP ``unit`` is worth under an ``eliminated`` or ``exited`` award (None: its printed values or
    its nationality are unknown, so it cannot be scored). ``per-step`` multiplies by its steps."""
    if award.by_nationality is not None:
        key = nationality_of(unit, rules, nationalities)
        if key is None or key not in award.by_nationality:
            return None
        vp = award.by_nationality[key]
    elif award.printed:
        got = printed_vp(unit, rules)
        if got is None:
            return None
        vp = got
    else:
        vp = award.vp
    return vp * (max(unit.full_steps, unit.steps, 1) if award.per_step else 1)


def leader_level(v: VictoryRules, tally: Mapping[str, int]) -> tuple[str | None, int, str | None]:
    """(the side ahead or None on a tie, by how many VP, its level or None for the draw).

    With one table (``levels: [...]``) the best level whose margin the lead reaches, else the lowest;
    with a table per side (``levels: {side: [...]}``) the leader's own table, and below its smallest
    margin a draw (SPI 18.4: "Axis Marginal" from 5 VP net, a draw below)."""
    ranked = sorted(tally.items(), key=lambda kv: -kv[1])
    if len(ranked) < 2 or ranked[0][1] == ranked[1][1]:
        return None, 0, None
    side, margin = ranked[0][0], ranked[0][1] - ranked[1][1]
    if v.side_levels:
        table: tuple[VictoryLevel, ...] = v.side_levels.get(side, ())
        return side, margin, next((lv.name for lv in table if margin >= lv.margin), None)
    level = next((lv.name for lv in v.levels if margin >= lv.margin), v.levels[-1].name if v.levels else "victory")
    return side, margin, level
