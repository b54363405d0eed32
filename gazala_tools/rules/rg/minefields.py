"""Gazala: The Cauldron (RG) 14.0 minefields: which minefield hexsides and box hexes are in force on
a turn, which a *breached* marker opens (14.1), and what they block for supply and the LOC (5.0,
14.2); a save's breach markers read into the position state."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from gazala_tools.errors import GameDataError
from gazala_tools.hexes import Direction, Hex, Hexside
from gazala_tools.referee.context import Context
from gazala_tools.referee.engine import RulesPlugin
from gazala_tools.referee.position import Position
from gazala_tools.referee.ruledata import RulesSection
from gazala_tools.referee.search import BlockCost
from gazala_tools.rules import MINEFIELD
from gazala_tools.rules.rg.state import BREACHES, Breach, BreachState, breaches_of

__all__ = ["Minefields", "RGRules", "opposite_side"]

if TYPE_CHECKING:  # pragma: no cover
    from gazala_tools.vsav import PieceView


class RGRules(RulesPlugin):
    """What every part of the RG plugin shares."""

    def side_name(self, side: str) -> str:
        return self.game.side(side).name


class Minefields(RGRules):
    """14.0 minefields in force, 14.1 breached hexsides, 5.0/14.0 supply blocks."""

    def read_minefields(self, data: RulesSection) -> None:
        m = self.map
        mf = data.sub("minefields", frozenset({"rule", "owner", "first-breach", "breaches-per-turn", "breach-counters",
                                               "breach-types"}))
        mf.require("owner", "first-breach")
        self.mf_rule = mf.rule("rule", "minefields")
        self.mf_owner = mf.side("owner")
        self.first_breach = mf.turn("first-breach")
        self.breaches_per_turn = mf.integer("breaches-per-turn", 2, lo=0)
        self.breach_counters = mf.integer("breach-counters", 1000, lo=0)
        self.breach_types = mf.types("breach-types") or frozenset({"infantry"})
        # 14.0: this owner's minefield hexsides with the turn they take effect (None: from the start)
        self.minefields: dict[Hexside, int | None] = {}
        for s in m.feature_sides(MINEFIELD):
            f = m.active_feature(s, MINEFIELD)
            if f is not None and f.owner == self.mf_owner:
                self.minefields[s] = self._active_index(f.active_from)
        self.minefield_boxes: list[tuple[frozenset[Hex], int | None]] = [
            (b.hexes, self._active_index(b.active_from))
            for b in m.boxes
            if b.kind == MINEFIELD and b.owner == self.mf_owner
        ]

    def _active_index(self, active_from: str | None) -> int | None:
        if active_from is None:
            return None
        idx = self.turn_index(active_from)
        if idx is None:
            raise GameDataError(f"minefield active_from {active_from!r} is not a turn of {self.game.id}",
                                file=self.map.source_dir, expected="a label of the game's turn record")
        return idx

    def minefield_active(self, ctx: Context, start: int | None) -> bool:
        """14.0: a minefield built during the battle has no effect before its turn.

        Interpretation: with no turn given, dated minefields are taken as not yet built.
        """
        if start is None:
            return True
        return ctx.turn_index is not None and ctx.turn_index >= start

    def active_minefield_sides(self, ctx: Context) -> frozenset[Hexside]:
        """Minefield hexsides in force on the position's turn (14.0), computed once per turn."""
        memo: dict[int | None, frozenset[Hexside]] | None = self.__dict__.get("_active_sides")
        if memo is None:
            memo = self.__dict__["_active_sides"] = {}
        got = memo.get(ctx.turn_index)
        if got is None:
            got = memo[ctx.turn_index] = frozenset(
                s for s, start in self.minefields.items() if self.minefield_active(ctx, start))
        return got

    def active_minefield_hexes(self, ctx: Context) -> set[Hex]:
        return self.active_minefield_hexes_at(ctx.position.turn)

    def active_minefield_hexes_at(self, turn: str | None) -> set[Hex]:
        """Minefield box hexes in force on ``turn`` (dated ones only once reached; 14.0)."""
        idx = self.turn_index(turn)
        return {h for hexes, start in self.minefield_boxes
                if start is None or (idx is not None and idx >= start) for h in hexes}

    def minefield_hex_of(self, ctx: Context, side: Hexside, at: Hex | None = None) -> Hex | None:
        """The minefield hex (box) a breached hexside leads into (14.1)."""
        boxes = self.active_minefield_hexes(ctx)
        a, b = side.hexes
        cands = [h for h in (a, b) if h in boxes]
        if len(cands) != 1:
            # no box data, or a side between two boxes: the hex whose opposite side is minefield too
            mf = self.active_minefield_sides(ctx)
            cands = [h for h in (a, b) if opposite_side(h, side) in mf] or cands
        if len(cands) > 1 and at is not None and at in cands:
            cands = [h for h in cands if h != at] or cands
        return cands[0] if len(cands) == 1 else None

    def breached_sides(self, ctx: Context) -> set[Hexside]:
        """Hexsides a *breached* marker opens: its hexside, and with ``through`` the opposite one."""
        out: set[Hexside] = set()
        for br in breaches_of(ctx.position):
            if br.state is not BreachState.BREACHED:
                continue
            out.add(br.hexside)
            if br.through:
                m = self.minefield_hex_of(ctx, br.hexside, br.at)
                if m is not None:
                    out.add(opposite_side(m, br.hexside))
        return out

    def breached_hexes(self, ctx: Context) -> set[Hex]:
        """Minefield hexes a *breached* marker leads into (5.0 "minefield hexes ... unless they have
        been breached"): the box hex behind each breached minefield hexside."""
        mf = self.active_minefield_sides(ctx)
        out: set[Hex] = set()
        for br in breaches_of(ctx.position):
            if br.state is BreachState.BREACHED and br.hexside in mf:
                m = self.minefield_hex_of(ctx, br.hexside, br.at)
                if m is not None:
                    out.add(m)
        return out

    def supply_blocks(self, ctx: Context, side: str) -> tuple[frozenset[Hex], frozenset[Hexside]]:
        """5.0, 14.0, 14.2: the owner's enemies may not enter its un-breached minefield hexes (boxes
        and belts, 5.0) nor cross its un-breached minefield hexsides (14.0)."""
        if side == self.mf_owner:
            return frozenset(), frozenset()
        return (frozenset(self.active_minefield_hexes(ctx) - self.breached_hexes(ctx)),
                frozenset(self.active_minefield_sides(ctx) - self.breached_sides(ctx)))

    def trace_cost(self, ctx: Context, side: str) -> BlockCost:
        """5.0 / 14.2 trace cost for ``side``: the data's supply trace (1 per hex; no entering
        enemy-occupied hexes or impassable terrain, no escarpment off a road) and the minefields."""
        ss = self.data.supply.sides[side] if self.data.supply is not None else None
        mine_hexes, mines = self.supply_blocks(ctx, side)
        return BlockCost(
            self.topology,
            hexes=self.impassable | ctx.enemy_hexes(side) | mine_hexes,
            sides=(ss.trace.sides if ss is not None else frozenset()) | mines,
        )

    def state_from_pieces(self, pieces: Sequence[tuple[PieceView, Hex]], turn: str | None) -> dict[str, object]:
        """A save's breach markers (14.1): the ``Breach`` layer's level 2 is breached, 1 under
        construction; the marker's facing names the hexside; one in a minefield box marks through it."""
        boxes = self.active_minefield_hexes_at(turn)
        out: list[Breach] = []
        for p, where in pieces:
            state = BreachState.BREACHED if p.layer_level("Breach") == 2 else BreachState.UNDER_CONSTRUCTION
            side = where.side(Direction((p.rotation or 0) % 6))
            out.append(Breach(hexside=side, state=state, through=state is BreachState.BREACHED and where in boxes,
                              at=where))
        return {BREACHES: tuple(out)} if out else {}

    def marker_states_at(self, position: Position, h: Hex) -> frozenset[str]:
        return frozenset(b.state.value for b in breaches_of(position) if b.at == h)


def opposite_side(h: Hex, side: Hexside) -> Hexside:
    """The hexside of ``h`` opposite ``side`` (14.1: the far side of a minefield box)."""
    return h.side(side.direction_from(h).opposite())
