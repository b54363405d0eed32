"""Batalha de Gazala (Portuguese rules): the rule hooks data cannot say.

Section numbers are the rulebook's (``../shared/seeds/001_...txt``); quotations are translated in
``docs/referee-dg-spi-bg.md``. Interpretations are marked ``Interpretation:``.

The facts are data (``mapdata/batalha/game.yaml``, ``rules:``): the generic rules (4.1.1 stacking,
4.1.2 enemy units, 4.0 boxes and the sea inlets armor may not enter) and this plugin's keys:
``engagement`` (4.1.2 armor ignores infantry zones), ``motorized-range`` (4.1), ``recovery``
(7.0), ``objectives`` (11.2); the points for units destroyed (11.2.1, 11.2.2 by nationality) are the
generic ``victory`` keys, which the plugin words; the map gives the places, the road entries, the
minefield hexes and the sea.

Reduced units (7.0) are those below full strength (``Unit.reduced``: steps 1 of 2, the reduced
back of the counter, from a save's Step layer or ``steps: 1`` in a position YAML).
Position extras: ``reduced: [unit ids]`` (a synonym: units on their reduced side, e.g. inline units
whose full strength is not known); ``cleared: [hexes]`` (minefield hexes with a cleared-minefield
marker, 9.3).

The plugin is a package of rule-sized modules: :mod:`.engagement` (4.1.2), :mod:`.motorized` (4.1, 9.3),
:mod:`.recovery` (7.0) and :mod:`.objectives` (11.2); :class:`BatalhaDeGazala` joins them and reports the
points.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

from gazala_tools.referee.context import Check, Context
from gazala_tools.referee.findings import Finding, Severity
from gazala_tools.referee.generic import box_in
from gazala_tools.referee.ruledata import RulesSection
from gazala_tools.referee.victory import award_vp
from gazala_tools.rules.bg.motorized import MotorizedRange
from gazala_tools.rules.bg.recovery import Recovery

__all__ = ["BatalhaDeGazala"]


class BatalhaDeGazala(MotorizedRange, Recovery):
    """Batalha de Gazala."""

    data_keys: ClassVar[frozenset[str]] = frozenset(
        {"engagement", "motorized-range", "recovery", "objectives"})
    extra_keys: ClassVar[frozenset[str]] = frozenset({"reduced", "cleared", "held"})
    extra_hex_keys: ClassVar[frozenset[str]] = frozenset({"cleared"})

    def read_data(self, data: RulesSection) -> None:
        self.read_engagement(data)
        self.read_range(data)
        self.read_recovery(data)
        self.read_objectives(data)

    def checks(self) -> Sequence[Check]:
        return (*super().checks(), self.check_4_1_2_engaged, self.check_4_1_motorized_range, self.check_7_0_recovery)

    def vp(self, ctx: Context) -> tuple[dict[str, object], list[Finding]]:
        findings: list[Finding] = []
        points = dict.fromkeys(self.sides, 0)
        held: dict[str, str] = {}
        possession = self.possession(ctx)
        for name, hexes, value in self.objectives:
            if not hexes:
                findings.append(Finding(self.objectives_rule, Severity.WARNING, f"the map has no place {name!r}: not scored"))
                continue
            side = possession[name]
            held[name] = side
            points[side] += value
        v = self.victory_rules
        for award in (a for a in v.units if a.kind == "eliminated"):
            unknown: list[str] = []
            for u in ctx.units():
                if not (box_in(u, self.data.boxes.eliminated) and award.units.matches(u, self.names)):
                    continue
                got = award_vp(award, u, self, v.nationalities)
                if got is None:
                    unknown.append(u.id)
                    continue
                for enemy in self.enemies(u.side):
                    points[enemy] += got
            if unknown:
                findings.append(Finding(award.rule, Severity.WARNING,
                                        f"nationality unknown for eliminated {', '.join(unknown)}: not scored "
                                        "(use a manifest unit, or a formation of a known nationality)",
                                        units=tuple(unknown)))
        a, b = self.sides[0], self.sides[1]
        ahead = a if points[a] > points[b] else b if points[b] > points[a] else None
        names = {s: self.game.side(s).name for s in self.sides}
        findings.append(Finding(self.objectives_rule, Severity.INFO,
                                f"points {names[a]} {points[a]}, {names[b]} {points[b]}: "
                                + (f"{names[ahead]} ahead" if ahead else "level")
                                + " (objectives: " + ", ".join(f"{n} {names.get(s, s)}" for n, s in held.items()) + ")"))
        return {**points, "objectives": held, "ahead": ahead,
                "motorized_out_of_range": [u.id for u in self.out_of_range(ctx)]}, findings

    def vp_sentences(self, vp: Mapping[str, object]) -> list[str]:
        name = {s: self.game.side(s).name for s in self.sides}
        ahead = vp.get("ahead")
        out = [f"Points ({self.objectives_rule}): " + ", ".join(f"{name[s]} {vp.get(s, 0)}" for s in self.sides)
               + (f": {name[str(ahead)]} ahead." if ahead in name else ": level.")]
        held = vp.get("objectives")
        if isinstance(held, Mapping):
            out.append(f"Objectives held ({self.objectives_rule}): "
                       + ", ".join(f"{o} {name.get(str(s), s)}" for o, s in held.items()) + ".")
        far = vp.get("motorized_out_of_range")
        out.append(f"Motorized units out of range ({self.range_rule}): "
                   + (", ".join(map(str, far)) if isinstance(far, list) and far else "none") + ".")
        return out
