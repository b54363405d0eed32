"""What the referee reads about a unit beyond the position: its counter's printed values.

A game's counter manifest, read once by its rules (:attr:`RulesPlugin.manifest_units
<gazala_tools.referee.engine.RulesPlugin.manifest_units>`), gives every unit's printed numbers; a unit
not in the manifest (an inline unit of a position YAML) may carry a ``4-5-15`` code in its type or id.
Game-agnostic. Pure Python.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:  # pragma: no cover
    from gazala_tools.referee.bound import BoundData
    from gazala_tools.referee.position import Unit

__all__ = ["nationality", "printed_values", "values_code"]

_STRENGTH: Final = re.compile(r"\d+-\d+-\d+")


def printed_values(unit: Unit, rules: BoundData) -> tuple[str, tuple[int, ...]] | None:
    """The unit's printed values, from the game's counter manifest, else from a ``4-5-15`` code in
    its type or at the end of its id: (``"adm"`` attack-defence-move | ``"art"`` barrage-FPF-defence-move,
    numbers). A code is the last three numbers, four for an artillery type."""
    c = rules.manifest_units.get(unit.id)
    if c is not None:
        roles = {v.role: v.number or 0 for v in c.front.values}
        if "barrage" in roles:
            return "art", (roles.get("barrage", 0), roles.get("fpf", 0), roles.get("defence", 0), roles.get("move", 0))
        return "adm", (roles.get("attack", 0), roles.get("defence", 0), roles.get("move", 0))
    art = unit.type.startswith("art")
    for text in (unit.type, unit.id):
        if _STRENGTH.search(text):
            nums = [int(x) for x in re.findall(r"\d+", text)]
            k = 4 if art and len(nums) >= 4 else 3
            return ("art" if k == 4 else "adm"), tuple(nums[-k:])
    return None


def values_code(unit: Unit, rules: BoundData) -> str | None:
    """``"5-4-15"``: the unit's printed values joined by '-' (None if unknown)."""
    got = printed_values(unit, rules)
    return "-".join(str(n) for n in got[1]) if got is not None else None


def nationality(unit: Unit, rules: BoundData) -> str | None:
    """The unit's nationality key in the counter manifest (``"de"``), or None."""
    c = rules.manifest_units.get(unit.id)
    return str(c.nationality) if c is not None else None
