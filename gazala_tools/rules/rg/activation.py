"""Gazala: The Cauldron (RG) 7.0 activation: how often a formation is activated a turn, the first
turns' limits, and in a log which units an action chit (and Extra Move chits, 13.2) activates."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any, Final

from gazala_tools.hexes import Hex
from gazala_tools.referee.context import Context
from gazala_tools.referee.engine import RulesPlugin
from gazala_tools.referee.findings import Finding, Severity
from gazala_tools.referee.position import Position, Unit
from gazala_tools.referee.ruledata import RulesSection
from gazala_tools.rules.rg.state import ACTIVATIONS, activations_of

__all__ = [
    "DOUBLE_MOVE",
    "EXTRA_MOVE",
    "Activations",
]

DOUBLE_MOVE: Final = "Double Move"  #: 7.0: the Allied chit that activates any two units
EXTRA_MOVE: Final = "extra move"  #: 13.2: the tactical chit that activates one more unit


class Activations(RulesPlugin):
    """7.0 activation limits."""

    def read_activations(self, data: RulesSection) -> None:
        act = data.sub("activations", frozenset({"rule", "max", "first-turns", "once-first-turns", "not-first-turns"}))
        self.act_rule = act.rule("rule", "activations")
        self.act_max = act.integer("max", 2, lo=1)
        self.first_turns = frozenset(act.turns("first-turns"))
        self.once_first = act.names("once-first-turns")
        self.none_first = act.names("not-first-turns")

    def with_activations(self, position: Position, activations: Mapping[str, int]) -> Position:
        return replace(position, extra={**position.extra, ACTIVATIONS: dict(activations)})

    def check_7_0_activations(self, ctx: Context) -> Iterable[Finding]:
        acts = activations_of(ctx.position)
        if not acts:
            return
        rule = self.act_rule
        first = ctx.turn_index is not None and ctx.turn_index in self.first_turns
        for formation, n in sorted(acts.items()):
            if n > self.act_max:
                yield Finding(rule, Severity.ERROR,
                              f"{formation} activated {n} times: no formation more than {_times(self.act_max)} a turn")
            if first and self.names.any_of(formation, self.once_first) and n > 1:
                yield Finding(rule, Severity.ERROR, f"{formation} activated {n} times on {ctx.position.turn}: only once")
            if first and self.names.any_of(formation, self.none_first) and n > 0:
                yield Finding(rule, Severity.ERROR, f"{formation} may not be activated on {ctx.position.turn}")

    def check_move(self, before: Unit, after: Unit, path: list[Hex] | None, context: Any) -> Iterable[Finding]:
        """7.0 in a log, for each move. Formations barred on the turn (``not-first-turns``) never move,
        whether or not the log shows the chits. When it shows the action chit that began the phase,
        the moving unit belongs to the formation(s) it names, or is accounted for: the chit used to
        activate one unit of any other formation instead (7.0, 15.0 for a reinforcement), an Extra
        Move chit drawn this turn (13.2, one more unit each), or the Double Move chit (any two units).

        Interpretations: a unit of the other side moving during an action is a retreat or an advance
        after combat, not judged here; Extra Move chits are used before the chit's "instead"."""
        rule = self.act_rule
        formation = before.formation or ""
        turn = context.ctx.turn_index
        if turn is not None and turn in self.first_turns and formation and self.names.any_of(formation, self.none_first):
            yield Finding(rule, Severity.ERROR,
                          f"{before.id} of {formation} moves on {self.turn_name(turn)}: no unit of {formation} may be "
                          f"activated then", units=(before.id,), hexes=_at(self, before))
            return
        chit = context.activation
        if chit is None or (chit.side and chit.side != before.side):
            return
        st = context.phase_state.setdefault(rule, {"units": set(), "own": False, "instead": None})
        if before.id in st["units"]:
            return  # already activated in this action
        named = self._named_formations(chit.formation, formation, st)
        if named is None and len(st["units"]) < 2:  # Double Move: any two units
            st["units"].add(before.id)
            return
        if named:
            if st["instead"] is None:
                st["own"] = True
                st["units"].add(before.id)
                return
            yield Finding(rule, Severity.ERROR,
                          f"{before.id} of {formation} moves, but the {chit.formation} chit of this action activated "
                          f"{st['instead']} of another formation instead of its own units",
                          units=(before.id,), hexes=_at(self, before))
            return
        if self._activated_otherwise(before, context, st, named):
            return
        yield Finding(rule, Severity.ERROR,
                      f"{before.id} ({formation or 'no formation'}) moves in the {chit.formation} action but was not "
                      "activated: not of the formation the chit names, and no Extra Move chit (13.2) nor the action "
                      "chit itself (7.0, 15.0) is left to activate it",
                      units=(before.id,), hexes=_at(self, before))

    def _named_formations(self, chit: str, formation: str, st: dict[str, Any]) -> tuple[str, ...] | None:
        """The formations of the action chit's face the unit's formation is on (7.0): the first unit
        to move chooses a two-sided chit's face, kept in ``st``; ``()`` when no face names the unit's
        formation, None for the Double Move chit (any two units)."""
        faces = self._chit_faces(chit)
        if faces is None:
            return None
        choice = st.get("face")
        for k, fs in enumerate(faces):
            if (choice is None or choice == k) and formation and any(self.names.same(formation, f) for f in fs):
                st["face"] = k
                return fs
        return ()

    def _activated_otherwise(self, before: Unit, context: Any, st: dict[str, Any],
                             named: tuple[str, ...] | None) -> bool:
        """A unit the chit does not name is activated by an Extra Move chit its side drew this turn
        and has not used (13.2), else by the action chit itself "instead" of its own formation's
        units (7.0, 15.0), when none of those moved yet (not the Double Move chit's)."""
        used = context.turn_state.setdefault(self.act_rule, {})
        extras = sum(1 for c in context.drawn if c.side == before.side and _is_extra_move(c.name))
        if used.get(before.side, 0) < extras:
            used[before.side] = used.get(before.side, 0) + 1
            st["units"].add(before.id)
            return True
        if named is not None and not st["own"] and st["instead"] is None:
            st["instead"] = before.id
            st["units"].add(before.id)
            return True
        return False

    def _chit_faces(self, name: str) -> list[tuple[str, ...]] | None:
        """The formations an action chit may activate (7.0), per face: a two-sided chit ("15 PZ / 21 PZ")
        activates the formation of either face, the player's choice; a face naming two formations
        ("Pavia Brescia") activates both. None for the Double Move chit (any two units)."""
        if self.names.same(name, DOUBLE_MOVE):
            return None
        known = self.formations()
        out: list[tuple[str, ...]] = []
        for face in (f.strip() for f in name.split("/")):
            if any(self.names.same(face, f) for f in known):
                out.append((face,))
                continue
            parts = tuple(f for f in known if self.names.key(f) and self.names.key(f) in self.names.key(face))
            out.append(parts or (face,))
        return out

def _is_extra_move(chit_name: str) -> bool:
    return chit_name.lower().startswith(EXTRA_MOVE)


def _at(rules: RulesPlugin, unit: Unit) -> tuple[str, ...]:
    return (rules.map.label(unit.hex),) if unit.hex is not None else ()


def _times(n: int) -> str:
    return {1: "once", 2: "twice"}.get(n, f"{n} times")
