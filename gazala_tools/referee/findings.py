"""Typed findings: what the referee says about a position, one value per problem.

A :class:`Finding` cites a rule section of the game's rulebook (``"10.0"``, ``"14.2"``), has a
:class:`Severity`, names the units and hexes concerned and carries a one-line message. The referee
returns *every* finding of a position at once (python-chess ``Board.status()`` style); renderers
turn them into text, JSON, HTML or PNG.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

__all__ = ["Finding", "Severity", "rule_key"]


class Severity(enum.Enum):
    """How bad a finding is. Values are the JSON spellings."""

    ERROR = "error"  #: the position breaks a rule (illegal as it stands)
    WARNING = "warning"  #: a rule consequence a player must apply (lost action, marker to change)
    INFO = "info"  #: a status the rules define (VP scored, breach outcome, LOC traced)

    @property
    def rank(self) -> int:
        return {"error": 0, "warning": 1, "info": 2}[self.value]


@dataclass(frozen=True, slots=True)
class Finding:
    """One referee finding. ``hexes`` are game labels ("1621"), ``units`` unit ids."""

    rule: str
    severity: Severity
    message: str
    units: tuple[str, ...] = ()
    hexes: tuple[str, ...] = ()
    data: dict[str, object] = field(default_factory=dict, compare=False, hash=False)

    def to_dict(self) -> dict[str, object]:
        return {
            "rule": self.rule,
            "severity": self.severity.value,
            "units": list(self.units),
            "hexes": list(self.hexes),
            "message": self.message,
        }

    def sort_key(self) -> tuple[int, tuple[int, ...], str, tuple[str, ...], tuple[str, ...]]:
        return (self.severity.rank, rule_key(self.rule), self.message, self.hexes, self.units)


def rule_key(rule: str) -> tuple[int, ...]:
    """Sort key for a rule section: ``"9.0"`` before ``"10.0"``; non-numeric sections last."""
    out: list[int] = []
    for part in rule.split("."):
        out.append(int(part) if part.isdigit() else 10_000)
    return tuple(out)
