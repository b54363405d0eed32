"""Cauldron (Decision Games) 12.0 / 15.0 support fire: a side's markers this turn, less for its supply
symbol hexes the enemy occupies and, for the UK, the airfield."""

from __future__ import annotations

from collections.abc import Mapping

from gazala_tools.referee.context import Context
from gazala_tools.referee.engine import RulesPlugin
from gazala_tools.referee.findings import Finding, Severity
from gazala_tools.referee.ruledata import HexSet, RulesSection

__all__ = ["SupportFire", "support_fire"]


def support_fire(base: int, symbols_lost: int, airfield_lost: bool) -> int:
    """12.0 / 15.0: a side's support-fire markers this turn.

    One supply symbol hex enemy-occupied: lose half the allotment, rounded down; two: lose it all.
    15.0 (UK only; pass ``airfield_lost=False`` for the German): one more marker lost.
    Interpretation: both losses come off the printed allotment, never below zero.
    """
    if symbols_lost >= 2:
        return 0
    lost = base // 2 if symbols_lost == 1 else 0
    return max(0, base - lost - (1 if airfield_lost else 0))


class SupportFire(RulesPlugin):
    """12.0 and 15.0."""

    players: dict[str, str]  #: side -> the player's name in messages (``players``)

    def read_support_fire(self, data: RulesSection) -> None:
        sf = data.sub("support-fire", frozenset({"rule", "markers", "symbols", "airfield"}))
        sf.require("markers", "symbols")
        self.fire_rule = sf.rule("rule", "support-fire")
        mk = sf.sub("markers")
        self.fire = {s: mk.integer(s, lo=0, hi=1000) for s in mk.side_keys()}
        sy = sf.sub("symbols")
        self.symbols: dict[str, HexSet] = {s: sy.hexset(s) for s in sy.side_keys()}
        af = sf.sub("airfield", frozenset({"rule", "side", "hexes"}))
        self.airfield_rule = af.rule("rule", self.fire_rule) if af else ""
        self.airfield_side = af.side("side") if "side" in af else None
        self.airfield: HexSet = af.hexset("hexes")

    def symbols_lost(self, ctx: Context, side: str) -> list[tuple[str, list[str]]]:
        """12.0: ``side``'s supply symbol hexes occupied by enemy units, with those units."""
        out = []
        for h in sorted(self.symbols.get(side, HexSet(frozenset())).hexes, key=ctx.label):
            enemies = [u.id for u in ctx.by_hex.get(h, []) if u.side != side]
            if enemies:
                out.append((ctx.label(h), enemies))
        return out

    def support_fire_now(self, ctx: Context) -> tuple[dict[str, int], list[Finding]]:
        """12.0 / 15.0: each side's support-fire markers this turn, with a warning per loss."""
        findings: list[Finding] = []
        fire: dict[str, int] = {}
        for side in self.sides:
            if side not in self.fire:
                continue
            lost = self.symbols_lost(ctx, side)
            airfield: list[str] = []
            if side == self.airfield_side:
                airfield = [u.id for h in sorted(self.airfield.hexes) for u in ctx.by_hex.get(h, []) if u.side != side]
            base = self.fire[side]
            fire[side] = support_fire(base, len(lost), bool(airfield))
            who = self.players[side]
            for label, units in lost:
                findings.append(Finding(self.fire_rule, Severity.WARNING,
                                        f"{who} supply symbol {label} is occupied by {', '.join(units)}: "
                                        f"{who} support fire {fire[side]} of {base}"
                                        + (" (two symbols lost: none)" if len(lost) >= 2 else " (half lost, rounded down)"),
                                        units=tuple(units), hexes=(label,)))
            if airfield:
                where = "/".join(ctx.labels(self.airfield.hexes))
                findings.append(Finding(self.airfield_rule, Severity.WARNING,
                                        f"{self.airfield.text} {where} is occupied by {', '.join(airfield)}: the {who} "
                                        f"player loses one support fire marker ({fire[side]} of {base})",
                                        units=tuple(airfield), hexes=ctx.labels(self.airfield.hexes)))
        return fire, findings

    def support_fire_sentences(self, vp: Mapping[str, object]) -> list[str]:
        out: list[str] = []
        fire = vp.get("support_fire")
        if isinstance(fire, Mapping):
            out.append(f"Support fire this turn ({self.fire_rule}): "
                       + ", ".join(f"{self.players.get(s, s)} {n}" for s, n in fire.items()) + " markers.")
        return out
