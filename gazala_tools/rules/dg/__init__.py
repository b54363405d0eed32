"""Cauldron: Battle for Gazala (Decision Games, exclusive rules v4.1): the rule hooks data cannot say.

Section numbers are the exclusive rules' (``../shared/seeds/002_...txt``, sections 10.0-20.0; the
series' standard rules 1.0-9.0 are not in our text). Interpretations of ambiguous wording are
marked ``Interpretation:`` and listed in ``docs/referee-dg-spi-bg.md``.

Sides are ``axis`` (the German player, German and Italian units) and ``allied`` (the British / UK
player). The facts are data (``mapdata/cauldron-dg/game.yaml``, ``rules:``): the generic rules
(boxes, no stacking, the 11.1 schedule with its 11.4 arrival hexes) and this plugin's keys
(``players``, ``support-fire`` 12.0/15.0, ``victory`` 18.0, ``feint`` 17.0), whose hexes are the

The plugin is a package of rule-sized modules: :mod:`.support_fire` (12.0, 15.0), :mod:`.victory`
(18.0) and :mod:`.feint` (17.0); :class:`CauldronDG` joins them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from gazala_tools.referee.context import Context
from gazala_tools.referee.findings import Finding
from gazala_tools.referee.ruledata import RulesSection
from gazala_tools.rules.dg.feint import Feint
from gazala_tools.rules.dg.support_fire import SupportFire, support_fire
from gazala_tools.rules.dg.victory import PathVictory, downgrade, victory_level

__all__ = ["CauldronDG", "downgrade", "support_fire", "victory_level"]


class CauldronDG(SupportFire, PathVictory, Feint):
    """Cauldron: Battle for Gazala (Decision Games)."""

    data_keys: ClassVar[frozenset[str]] = frozenset({"players", "support-fire", "victory", "feint"})
    extra_keys: ClassVar[frozenset[str]] = frozenset({"losses", "arriving"})

    def read_data(self, data: RulesSection) -> None:
        pl = data.sub("players")
        self.players = {s: pl.text(s) for s in pl.side_keys()}
        for s in self.sides:
            self.players.setdefault(s, self.game.side(s).name)
        self.read_support_fire(data)
        self.read_victory(data)
        self.read_feint(data)

    def before_rules(self) -> tuple[tuple[str, str], ...]:
        return (*super().before_rules(), *(((self.feint_rule, "Rommel's feint (who moved on the first turn)"),)
                                           if self.feint_rule else ()))

    def turn_rules(self) -> tuple[str, ...]:
        r = self.data.reinforcements
        return (*super().turn_rules(), *((f"{r.entry_rule} reinforcement hexes",) if r is not None else ()),
                *((f"{self.feint_rule} Rommel's feint",) if self.feint_rule else ()),
                f"{self.victory_rule} result at the end of the game")

    def vp(self, ctx: Context) -> tuple[dict[str, object], list[Finding]]:
        """12.0 / 15.0 support fire this turn and the 18.0 result."""
        fire, findings = self.support_fire_now(ctx)
        victory, vfind = self.victory(ctx)
        findings.extend(vfind)
        return {"support_fire": fire, "victory": victory}, findings

    def vp_sentences(self, vp: Mapping[str, object]) -> list[str]:
        return [*self.support_fire_sentences(vp), *self.victory_sentences(vp)]
