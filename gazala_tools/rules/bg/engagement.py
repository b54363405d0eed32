"""Batalha de Gazala 4.1.2: engagement zones, which armor ignores for infantry units."""

from __future__ import annotations

from collections.abc import Iterable

from gazala_tools.hexes import Hex
from gazala_tools.referee.context import Context
from gazala_tools.referee.engine import RulesPlugin
from gazala_tools.referee.findings import Finding, Severity
from gazala_tools.referee.position import Unit
from gazala_tools.referee.ruledata import RulesSection

__all__ = ["Engagement"]


class Engagement(RulesPlugin):
    """4.1.2 engagement zones."""

    def read_engagement(self, data: RulesSection) -> None:
        en = data.sub("engagement", frozenset({"rule", "armor", "ignores"}))
        self.engaged_rule = en.rule("rule", "engagement")
        self.armor_types = en.types("armor") or frozenset()
        self.ignored_types = en.types("ignores") or frozenset()

    def is_armor(self, unit: Unit) -> bool:
        return unit.type in self.armor_types

    def zones_against(self, ctx: Context, mover_side: str, *, armor: bool) -> set[Hex]:
        """Hexes in the engagement zone of ``mover_side``'s enemies, as a mover sees them.

        4.1.2 note: armor ignores the engagement zones of infantry units entirely.
        """
        enemies = self.enemies(mover_side)
        zoc: dict[Hex, list[str]] = ctx.zoc(enemies[0]) if len(enemies) == 1 else {}
        for enemy in enemies if len(enemies) > 1 else ():
            for h, ids in ctx.zoc(enemy).items():
                zoc.setdefault(h, []).extend(ids)
        if not armor:
            return set(zoc)
        ignored = {u.id for u in ctx.units() if u.side != mover_side and u.type in self.ignored_types}
        return {h for h, ids in zoc.items() if any(uid not in ignored for uid in ids)}

    def check_4_1_2_engaged(self, ctx: Context) -> Iterable[Finding]:
        """5.0 / 4.1.2: units adjacent to enemy units are engaged (combat, disengage or dominant terrain)."""
        engaged = [u for u in ctx.on_map() if u.hex in ctx.enemy_zoc(u.side)]
        if engaged:
            yield Finding(self.engaged_rule, Severity.INFO,
                          f"{len(engaged)} unit(s) engaged (in an enemy engagement zone): "
                          + ", ".join(u.id for u in engaged),
                          units=tuple(u.id for u in engaged), hexes=ctx.labels(u.hex for u in engaged if u.hex))
