"""Gazala: The Cauldron (RG) 16.0 victory points phase and 17.0 scenario VP, worded as the RG report says
them; the rules are the generic ``victory`` keys of game.yaml (hex awards: ``units: 4`` with
``in-supply: marked`` on the north edge, the hex 2803, and each scenario's fortified hexes)."""

from __future__ import annotations

from collections.abc import Mapping

from gazala_tools.hexes import Hex
from gazala_tools.referee.context import Context
from gazala_tools.referee.findings import Finding, Severity
from gazala_tools.referee.generic import units_on
from gazala_tools.referee.ruledata import RulesSection
from gazala_tools.rules.rg.minefields import RGRules

__all__ = ["Victory"]


class Victory(RGRules):
    """16.0 and 17.0."""

    def read_victory(self, data: RulesSection) -> None:
        # 16.0 and 17.0 are the generic victory keys: the north edge an award of 'units: 4' in supply as
        # marked, the occupied hex an award of one hex; 17.0 the awards of one scenario each
        v = self.data.victory
        turn = [a for a in v.hexes if a.scenario is None] if v is not None else []
        groups = [a for a in turn if a.units is not None]
        singles = [a for a in turn if a.units is None]
        self.sc_awards = [a for a in v.hexes if a.scenario is not None] if v is not None else []
        if (v is None or len(groups) != 1 or len(singles) != 1 or not self.sc_awards
                or any(len(a.tiers) != 1 or a.sides is None or len(a.sides) != 1
                       for a in (*groups, *singles, *self.sc_awards))):
            raise data.err("victory", "16.0 needs two hex awards of one side and one tier each, the north edge "
                           "(units: N) and the hex to occupy; 17.0 the awards of each scenario (scenario: ID)",
                           expected="victory: {hexes: [{hexes: ..., sides: [axis], units: 4, score: [...]}, "
                                    "{hexes: ..., sides: [axis], score: [...]}, {scenario: ..., ...}]}")
        self.vp_rule = v.rule
        self.north_award, self.occupy_award = groups[0], singles[0]
        assert self.north_award.sides is not None and self.north_award.units is not None
        self.vp_side = next(iter(self.north_award.sides))
        self.north_edge = self.north_award.hexes
        self.north_units = self.north_award.units
        self.north_vp = self.north_award.tiers[0].vp
        self.occupy = self.occupy_award.hexes
        self.occupy_vp = self.occupy_award.tiers[0].vp
        self.occupy_key = "/".join(sorted(self.map.label(h) for h in self.occupy.hexes))

        first = self.sc_awards[0]
        assert first.sides is not None
        self.sc_rule, self.sc_side = first.rule, next(iter(first.sides))
        self.fortified: frozenset[Hex] = frozenset().union(*(a.hexes.hexes for a in self.sc_awards))
        names = data.sub("scenario-vp", frozenset({"names"})).sub("names")
        self.scenarios = [(sc, names.text(sc, sc)) for sc in dict.fromkeys(str(a.scenario) for a in self.sc_awards)]

    def vp(self, ctx: Context) -> tuple[dict[str, object], list[Finding]]:
        """16.0 VP phase and 17.0 scenario VP for the position as it stands.

        Interpretation: "not Out of Supply or Isolated" is read from the markers the units carry
        (supply status is only adjusted in the Supply Phase, 5.0).
        """
        findings: list[Finding] = []
        side, rule = self.vp_side, self.vp_rule
        who = self.side_name(side)
        north = units_on(self, ctx, side, self.north_edge.hexes, self.north_award.tiers[0])
        north_vp = self.north_vp if len(north) >= self.north_units else 0
        held_hex = units_on(self, ctx, side, self.occupy.hexes, self.occupy_award.tiers[0])
        hex_vp = self.occupy_vp if held_hex else 0
        if north_vp:
            findings.append(Finding(rule, Severity.INFO,
                                    f"{who} scores {north_vp} VP: {len(north)} in-supply units on north-edge hexes",
                                    units=tuple(u.id for u in north), hexes=ctx.labels(u.hex for u in north if u.hex)))
        if hex_vp:
            findings.append(Finding(rule, Severity.INFO, f"{who} scores {hex_vp} VP: {held_hex[0].id} occupies "
                                    f"{self.occupy_key}",
                                    units=tuple(u.id for u in held_hex), hexes=ctx.labels(self.occupy.hexes)))
        held: dict[str, str] = {}
        for h in sorted(self.fortified, key=ctx.label):
            sides = {u.side for u in ctx.by_hex.get(h, [])}
            if sides:
                held[ctx.label(h)] = next(iter(sides)) if len(sides) == 1 else "contested"
        mine = sorted(k for k, v in held.items() if v == self.sc_side)
        mine_hexes = {self.map.hex(k) for k in mine}
        vp: dict[str, object] = {
            f"{side}_vp_phase": north_vp + hex_vp,
            "north_edge": {"units": [u.id for u in north], "scored": bool(north_vp)},
            self.occupy_key: {"units": [u.id for u in held_hex], "scored": bool(hex_vp)},
            "fortified": held,
        }
        scored: list[str] = []
        for sc, name in self.scenarios:
            got = sum(a.tiers[0].vp for a in self.sc_awards if a.scenario == sc for h in a.hexes.hexes
                      if h in mine_hexes)
            vp[f"{self.sc_side}_{sc.replace('-', '_')}"] = got
            scored.append(f"{name} {got} VP")
        if mine:
            findings.append(Finding(self.sc_rule, Severity.INFO,
                                    f"{self.side_name(self.sc_side)}-occupied fortified hexes: {', '.join(mine)} "
                                    f"({', '.join(scored)} at the end of the game)",
                                    hexes=tuple(mine)))
        return vp, findings

    def vp_sentences(self, vp: Mapping[str, object]) -> list[str]:
        who = self.side_name(self.vp_side)
        north, occ = vp.get("north_edge"), vp.get(self.occupy_key)
        out = [f"{who} VP phase ({self.vp_rule}): {vp.get(f'{self.vp_side}_vp_phase', 0)} VP this turn."]
        if isinstance(north, Mapping):
            units = list(north.get("units") or [])
            out.append(f"North map edge: {len(units)} {who} unit(s) not Out of Supply or Isolated"
                       f"{' (' + ', '.join(units) + ')' if units else ''}, {self.north_units} needed: "
                       f"{f'{self.north_vp} VP' if north.get('scored') else 'no VP'}.")
        if isinstance(occ, Mapping):
            units = list(occ.get("units") or [])
            out.append(f"Hex {self.occupy_key}: " + (f"occupied by {', '.join(units)}: {self.occupy_vp} VP." if units
                                                     else f"no {who} unit: no VP."))
        held = vp.get("fortified")
        if isinstance(held, Mapping):
            out.append(f"Fortified hexes occupied ({self.sc_rule}): "
                       + (", ".join(f"{h} {self.side_name(s) if s in self.sides else s}" for h, s in held.items())
                          or "none") + ".")
        for sc, name in self.scenarios:
            got = vp.get(f"{self.sc_side}_{sc.replace('-', '_')}")
            out.append(f"{name}: {got} {self.side_name(self.sc_side)} VP for the fortified hexes occupied "
                       "at the end of the game.")
        return out
