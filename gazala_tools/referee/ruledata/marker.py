"""A marker (status) of a game's ``rules.markers``, as a value: what it does to the unit carrying it.
Read by :func:`gazala_tools.referee.ruledata.markers.read_markers`; the rules reader and the referee
take it from here (no reader below it)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

__all__ = ["ROUNDING", "SUPPLY_ROLES", "USED", "Marker"]

#: the marker every unit of a module may show whatever the game (the module builder's ``Used`` layer,
#: a counter's used side up): the one marker the core names
USED: Final = "used"


@dataclass(frozen=True, slots=True)
class Marker:
    """A marker (status) of the game's ``rules.markers``, and what it does to the unit carrying it.

    ``name`` is how the game prints it and the module's status layer (a save's ``<name>_Active``).
    Effects: ``movement`` multiplies the movement allowance (rounded ``round``: down, up, nearest);
    ``move: false`` the unit may not move; ``zoc: false`` it exerts no zone of control; ``attack`` /
    ``defense`` factors are reported, not resolved (combat is not refereed); ``supply``: the marker
    the supply phase puts on a unit out of supply (``out``) or isolated (``isolated``); ``excludes``:
    markers a unit may not carry together with this one (cited as ``rule``)."""

    id: str
    name: str
    rule: str = "markers"
    movement: float | None = None
    round: str = "down"
    move: bool = True
    zoc: bool = True
    attack: float | None = None
    defense: float | None = None
    supply: str | None = None
    excludes: frozenset[str] = frozenset()
    key: str | None = None  #: the module's keystroke for the status layer (``Ctrl+O``)
    badge: str | None = None
    color: str | None = None

    def effects(self) -> list[str]:
        """What the marker does, in words (reports, docs)."""
        out: list[str] = []
        if self.movement is not None:
            out.append(f"movement allowance x{_num(self.movement)} (rounded {self.round})")
        if not self.move:
            out.append("may not move")
        if not self.zoc:
            out.append("no zone of control")
        if self.attack is not None:
            out.append(f"attack x{_num(self.attack)}")
        if self.defense is not None:
            out.append(f"defense x{_num(self.defense)}")
        return out


def _num(x: float) -> str:
    return str(int(x)) if x == int(x) else f"{x:g}"


#: ``round:`` of a marker's movement factor
ROUNDING: Final = ("down", "up", "nearest")
#: ``supply:`` roles of a marker in the supply phase's marker flow
SUPPLY_ROLES: Final = ("out", "isolated")
