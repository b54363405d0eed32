"""The sequence of play as data: the phases of a game turn in order, and which rules are judged at the
end of each (``sequence:`` of movement.yaml; ``docs/games.md``, "Rules mechanics").

A log (``gazala referee log``) is judged phase by phase: the Turn Tracker's "+" starts a new turn at
its first phase; a move by a unit of a side starts that side's next movement phase (every phase
passed on the way ends, and is judged); a move by a side whose movement phase is over this turn is
out of sequence. At the end of a phase the position checks run and only the findings of the rules that
phase judges are kept (a rule no phase names is judged at the end of every phase, as without a
sequence).

Pure Python.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import yaml

from gazala_tools.yamlnodes import did_you_mean

if TYPE_CHECKING:  # pragma: no cover
    from gazala_tools.referee.bound import BoundData
    from gazala_tools.referee.ruledata import RulesSection

PHASE_KEYS = frozenset({"name", "rule", "side", "movement", "judge"})


@dataclass(frozen=True, slots=True)
class PlayPhase:
    """One phase of the sequence of play."""

    index: int
    name: str
    rule: str
    side: str | None = None  #: the side that acts (None: both)
    movement: bool = False  #: a movement phase of ``side``: its units' moves are judged as movement
    judge: frozenset[str] = frozenset()  #: rule ids judged on the position at the end of the phase

    @property
    def title(self) -> str:
        return f"{self.name} ({self.rule})" if self.rule else self.name


@dataclass(frozen=True)
class Sequence:
    """The phases of a game turn, in order."""

    rule: str
    phases: tuple[PlayPhase, ...]

    @property
    def judged(self) -> frozenset[str]:
        """Every rule some phase names (the others are judged at every phase end)."""
        return frozenset().union(*(p.judge for p in self.phases))

    def judges(self, phase: PlayPhase | None, rule: str) -> bool:
        """Is a finding of ``rule`` reported at the end of ``phase`` (None: an unknown phase)?"""
        if rule not in self.judged:
            return True
        return phase is not None and rule in phase.judge

    def movement_phase(self, side: str, after: int) -> PlayPhase | None:
        """``side``'s first movement phase at or after index ``after`` this turn (None: none left)."""
        for p in self.phases[max(after, 0):]:
            if p.movement and p.side == side:
                return p
        return None

    def movement_phases(self, side: str) -> tuple[PlayPhase, ...]:
        return tuple(p for p in self.phases if p.movement and p.side == side)


def read_sequence(s: RulesSection, rules: BoundData, root: yaml.Node | None = None) -> Sequence:
    """``sequence: {rule, phases: [{name, rule, side, movement, judge: [rule ids]}]}``: every side a side
    of the game, every judged rule id a short name; each side with moves has a movement phase."""
    rule = s.rule("rule", "sequence")
    phases: list[PlayPhase] = []
    if "phases" not in s:
        raise s.err(None, "missing 'phases'", expected="phases: [{name, side, movement, judge}]")
    names: set[str] = set()
    for i, p in enumerate(s.each("phases", PHASE_KEYS)):
        name = p.text("name")
        if name in names:
            raise p.err("name", f"a second phase named {name!r}", expected="one name per phase")
        names.add(name)
        side = p.side("side") if "side" in p else None
        movement = p.boolean("movement", False)
        if movement and side is None:
            raise p.err("movement", "a movement phase of no side", expected="side: a side of the game")
        judge = frozenset(_rule_id(p, n, i) for n in p.names("judge"))
        phases.append(PlayPhase(i, name, p.rule("rule", rule), side, movement, judge))
    if not phases:
        raise s.err("phases", "names no phase", expected="at least one phase")
    if rules.game.plugin is None:  # a game of data only: every judged rule is one its data gives
        known = rule_ids(rules, root)
        for p in s.each("phases", PHASE_KEYS):
            for n in p.r.doc.seq(p.m["judge"], p.what("judge")) if "judge" in p and not isinstance(
                    p.m["judge"], yaml.ScalarNode) else ([p.m["judge"]] if "judge" in p else []):
                text = p.r.doc.scalar(n, p.what("judge")).strip()
                if text not in known:
                    raise p.r.doc.err(n, f"{p.what('judge')}: {text!r} is not a rule of the game's data"
                                      f"{did_you_mean(text, known)}",
                                      expected="one of " + ", ".join(sorted(known, key=rule_key)))
    return Sequence(rule, tuple(phases))


def phase_named(seq: Sequence, s: RulesSection, key: str) -> PlayPhase:
    """The phase a key of a section names (``judged-in: Supply phase``), with "did you mean"."""
    node = s.m[key]
    text = s.r.doc.scalar(node, s.what(key))
    for p in seq.phases:
        if p.name == text:
            return p
    names = [p.name for p in seq.phases]
    raise s.r.doc.err(node, f"{s.what(key)}: {text!r} is not a phase of the sequence of play{did_you_mean(text, names)}",
                      expected="one of " + ", ".join(names))


#: keys whose values are rule ids in a game's data (besides ``rule`` and ``*-rule``)
RULE_KEYS = frozenset({"rule", "enemy-hexes", "impassable", "minimum-move"})


def rule_ids(rules: BoundData, movement: yaml.Node | None) -> frozenset[str]:
    """Every rule id the game's data gives (its ``rules:`` section and its movement data)."""
    from gazala_tools.referee.ruledata import rules_node

    out: set[str] = set()
    node, _file = rules_node(rules.game)
    roots = [n for n in (node, movement) if n is not None]
    stack: list[yaml.Node] = list(roots)
    while stack:
        n = stack.pop()
        if isinstance(n, yaml.MappingNode):
            for k, v in n.value:
                key = getattr(k, "value", "")
                if isinstance(v, yaml.ScalarNode) and (key in RULE_KEYS or str(key).endswith("-rule")):
                    out.add(str(v.value).strip())
                else:
                    stack.append(v)
        elif isinstance(n, yaml.SequenceNode):
            stack.extend(n.value)
    out.add("terrain-effects")  # the chart's default rule id
    return frozenset(out)


def rule_key(rule: str) -> tuple[tuple[int, str], ...]:
    return tuple((int(p), "") if p.isdigit() else (10**9, p) for p in rule.split("."))


def _rule_id(p: RulesSection, text: str, i: int) -> str:
    from gazala_tools.referee.ruledata import RULE_RE

    t = text.strip()
    if not t or not RULE_RE.match(t):
        raise p.err("judge", f"{text!r} is not a rule id", expected="rule sections like '4.3'")
    return t


__all__ = [
    "PHASE_KEYS",
    "RULE_KEYS",
    "PlayPhase",
    "Sequence",
    "phase_named",
    "read_sequence",
    "rule_ids",
    "rule_key",
]
