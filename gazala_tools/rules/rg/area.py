"""Gazala: The Cauldron (RG) 8.2: two units of the 69th Brigade stay in the 0104-0801-north-edge area."""

from __future__ import annotations

from collections.abc import Iterable

from gazala_tools.referee.context import Context
from gazala_tools.referee.engine import RulesPlugin
from gazala_tools.referee.findings import Finding, Severity
from gazala_tools.referee.ruledata import HexSet, RulesSection

__all__ = ["RestrictedArea"]


class RestrictedArea(RulesPlugin):
    """8.2 restricted area."""

    def read_area(self, data: RulesSection) -> None:
        ra = data.sub("restricted-area", frozenset({"rule", "formation", "units", "area", "what"}))
        ra.require("rule", "formation", "units", "area")
        self.area_rule = ra.rule()
        self.area_formation = ra.text("formation")
        self.area_units = ra.integer("units", lo=1)
        self.area: HexSet = ra.hexset("area")
        self.area_what = ra.text("what", self.area.text)

    def restricted_units(self) -> frozenset[str]:
        """Ids of the units printed with a bracketed movement allowance (8.2: the manifest's ``restricted``)."""
        got: frozenset[str] | None = getattr(self, "_restricted", None)
        if got is None:
            got = frozenset(getattr(c, "unit_id", "") or c.id for c in self.manifest_units.values()
                            if getattr(c, "restricted", False))
            self._restricted = got
        return got

    def check_8_2_restricted_area(self, ctx: Context) -> Iterable[Finding]:
        """8.2: two units of the 69th Brigade stay in the 0104-0801-north-edge area.

        The two are the units printed with a bracketed movement allowance (``restricted`` in the
        manifest); with no such flag, any two. Interpretation: eliminated or off-map units cannot be
        there, so the requirement is min(2, those units on the map).
        """
        if not self.area:
            return
        units = [u for u in ctx.units() if self.names.same(u.formation, self.area_formation)]
        restricted = self.restricted_units()
        if any(u.id in restricted for u in units):
            units = [u for u in units if u.id in restricted]
        if not units:
            return
        on_map = [u for u in units if u.hex is not None]
        inside = [u for u in on_map if u.hex in self.area]
        need = min(self.area_units, len(on_map))
        if len(inside) < need:
            outside = [u for u in on_map if u.hex not in self.area]
            yield Finding(self.area_rule, Severity.ERROR,
                          f"only {len(inside)} of the {self.area_formation} units are in {self.area_what}; "
                          f"{need} must stay there",
                          units=tuple(u.id for u in outside), hexes=ctx.labels(u.hex for u in outside if u.hex))
