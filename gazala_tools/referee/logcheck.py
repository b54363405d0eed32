"""``gazala referee log``: every move of a VASSAL log checked against the movement rules.

:func:`check_log` replays a ``.vlog`` (:mod:`.log`), and for each Step checks each unit's move
(:mod:`.movement`: the shortest legal path, the data rules, the plugin's ``check_move``), keeping
what a unit did during the current movement phase. Phases end where the log shows it (the Turn
Tracker moved, or an action chit of the movement data's ``phases.chits`` was drawn); a log that
shows neither is one player's movement phase. :attr:`LogReport.reading` says which applied. At the
end of each phase (and of the log) the position checks of the referee run on the position reached
(stacking, supply, prohibited hexes...), with the activations counted from the chits drawn.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gazala_tools.errors import GazalaError
from gazala_tools.referee import generic
from gazala_tools.referee.context import Context
from gazala_tools.referee.engine import Referee, RulesPlugin
from gazala_tools.referee.findings import Finding, Severity
from gazala_tools.referee.log import MAX_LOG_MOVES, ChitDraw, LogReplay, Step, UnitMove
from gazala_tools.referee.movement import (
    MoveContext,
    UnitPhase,
    allowances,
    check_move,
    side_adjective,
)
from gazala_tools.wording import count

if TYPE_CHECKING:  # pragma: no cover
    from gazala_tools.referee.sequence import PlayPhase

if TYPE_CHECKING:  # pragma: no cover
    from gazala_tools.hexes import Hex
    from gazala_tools.referee.api import LayoutReader
    from gazala_tools.referee.position import Position, Unit
    from gazala_tools.vsav import Save

__all__ = [
    "PATHS",
    "READ_CHITS",
    "READ_TRACKER",
    "READ_WHOLE",
    "LogReferee",
    "LogReport",
    "Phase",
    "StepFinding",
    "StepMove",
    "check_log",
    "log",
    "render_json",
    "render_text",
    "unit_side",
]

log = logging.getLogger(__name__)

READ_TRACKER = "the Turn Tracker"
READ_CHITS = "action chits drawn"
PATHS = ("legal", "direct")  #: how a drag is read: the shortest legal path, or the direct route
READ_WHOLE = "one log = one player's movement phase (the log shows no turn change or action chit)"


@dataclass(frozen=True)
class StepFinding:
    """A finding at one step: of a move (``kind`` "move"), of the position at a phase end
    ("position"), or of the position after the step (``step``: stacking judged at all times)."""

    step: int
    kind: str
    finding: Finding
    unit: str = ""
    piece: str = ""
    from_hex: str | None = None
    to_hex: str | None = None
    phase: int = 0

    def to_dict(self) -> dict[str, object]:
        return {"step": self.step, "kind": self.kind, "phase": self.phase, "unit": self.unit, "piece": self.piece,
                "from": self.from_hex, "to": self.to_hex, **self.finding.to_dict()}


@dataclass(frozen=True)
class StepMove:
    step: int
    unit: str
    side: str
    from_hex: str | None
    to_hex: str | None
    from_box: str | None
    to_box: str | None
    path: tuple[str, ...]
    phase: int
    #: the direct route, when the path taken is a detour from it because it breaks a rule
    direct: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {"step": self.step, "unit": self.unit, "side": self.side,
                                  "from": self.from_hex or self.from_box, "to": self.to_hex or self.to_box,
                                  "path": list(self.path), "phase": self.phase}
        if self.direct:
            out["direct"] = list(self.direct)
        return out


@dataclass(frozen=True)
class Phase:
    index: int
    first_step: int
    last_step: int
    turn: str | None
    started_by: str  #: "log start", "turn", "chit <name>"


@dataclass
class LogReport:
    """What ``gazala referee log`` reports."""

    source: str
    game: str
    steps: int
    reading: str
    #: how each drag was read (``PATHS``)
    paths: str = "the shortest legal path (a detour from the direct route is warned)"
    moves: list[StepMove] = field(default_factory=list)
    findings: list[StepFinding] = field(default_factory=list)
    phases: list[Phase] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    #: rules the log could not be checked against, and why
    unchecked: list[str] = field(default_factory=list)
    final: Position | None = None

    @property
    def legal(self) -> bool:
        return not any(f.finding.severity is Severity.ERROR for f in self.findings)

    def move_findings(self) -> list[StepFinding]:
        return [f for f in self.findings if f.kind == "move"]

    def to_dict(self) -> dict[str, Any]:
        return {
            "source": self.source, "game": self.game, "steps": self.steps, "reading": self.reading,
            "paths": self.paths,
            "legal": self.legal,
            "phases": [{"phase": p.index, "first_step": p.first_step, "last_step": p.last_step, "turn": p.turn,
                        "started_by": p.started_by} for p in self.phases],
            "moves": [m.to_dict() for m in self.moves],
            "findings": [f.to_dict() for f in self.findings],
            "notes": list(self.notes),
            "unchecked": list(self.unchecked),
        }


@dataclass
class _LogState:
    """Where the reading of a log stands: the phase it is in (its number, first step, what began it,
    the turn, the phase of the sequence of play), what units did in it and what the turn drew."""

    turn: str | None  #: the turn the phase is in
    phase: int = 1
    first: int = 1  #: the phase's first step
    started_by: str = "log start"
    play: PlayPhase | None = None  #: the phase of the sequence the log is in (None: not known yet)
    units: dict[str, UnitPhase] = field(default_factory=dict)
    #: per side, the position at the start of its movement in this phase (before its first move)
    starts: dict[str, Context] = field(default_factory=dict)
    phase_state: dict[str, Any] = field(default_factory=dict)
    activation: ChitDraw | None = None  #: the action chit that began this phase
    acts: Counter[str] = field(default_factory=Counter)  #: activations per formation this turn
    drawn: list[ChitDraw] = field(default_factory=list)  #: chits drawn this turn
    turn_state: dict[str, Any] = field(default_factory=dict)
    chits_seen: bool = False
    readings: set[str] = field(default_factory=set)  #: what marked the phases (``READ_TRACKER``, ``READ_CHITS``)
    last: int = 0  #: the last step read
    flagged: set[tuple[int, str, str]] = field(default_factory=set)  #: (phase, rule, unit): a phase rule said once per unit

    def begin(self, first: int, started_by: str) -> None:
        """A new phase from step ``first``: what units did in the last one is forgotten."""
        self.first, self.started_by = first, started_by
        self.units, self.starts, self.phase_state = {}, {}, {}


class LogReferee:
    """Checks a replayed log move by move (``check()`` -> :class:`LogReport`)."""

    def __init__(self, replay: LogReplay, *, position_checks: bool = True, moves: bool = True,
                 paths: str = "legal") -> None:
        if paths not in PATHS:
            raise ValueError(f"paths must be one of {PATHS}, not {paths!r}")
        self.paths = paths
        self.replay = replay
        self.rules: RulesPlugin = replay.rules
        self.data = self.rules.movement
        self.position_checks = position_checks
        self.check_moves = moves
        self.allowance = allowances(self.rules, self.data.points.role) if self.data.points is not None else {}
        self._standing: set[tuple[str, str]] = set()
        #: the side that last entered each hex in the log so far (``rules.control`` by last-entered)
        self._control: dict[Hex, str] = {}
        self._stack_standing: set[tuple[str, str]] = set()  #: over-stacks judged at all times, still standing
        self._said_at_move: set[tuple[str, str]] = set()  #: position rules a move already showed (a placement)
        self._zoc_cache: dict[str, tuple[tuple[object, ...], dict[Hex, list[str]]]] = {}
        self._compares = type(self.rules).compare is not RulesPlugin.compare  #: the plugin has two-position rules

    def check(self) -> LogReport:
        """Every step of the log in turn: where a phase ends (the Turn Tracker, an action chit, the
        sequence of play), the chits drawn, each move's rules; the position checks at each phase end."""
        rp = self.replay
        rep = self._new_report()
        state = _LogState(turn=rp.turn)
        for step in rp.steps():
            state.last = step.index
            self._phase_boundary(rep, state, step)
            self._draw_chits(state, step)
            if step.moves:
                self._check_step(rep, state, step)
        self._finish(rep, state)
        return rep

    def _new_report(self) -> LogReport:
        """The report before any step: how drags are read, what the game's movement data leaves out."""
        rules = self.rules
        rep = LogReport(source=self.replay.file, game=rules.game.id, steps=self.replay.step_count, reading=READ_WHOLE)
        if self.paths == "direct":
            rep.paths = "the direct route (the fewest movement points whatever it crosses): its broken rules are errors"
        if self.data.empty:
            rep.notes.append(f"{rules.game.name} has no movement data (movement.yaml): only its prohibited "
                             "hexes and enemy-held hexes are checked along each path")
        rep.notes.extend(self.data.notes)
        return rep

    def _phase_boundary(self, rep: LogReport, state: _LogState, step: Step) -> None:
        """A phase ends where the log shows it: the Turn Tracker moved (with a sequence of play, the
        turn's phases left end and the new turn begins with its first phase) or an action chit was drawn."""
        boundary = self._boundary(step)
        if boundary is None:
            return
        state.readings.add(READ_TRACKER if step.turn_changed else READ_CHITS)
        seq = self.data.sequence
        play = state.play
        if seq is not None and step.turn_changed:
            # the turn's phases left end on the position before the press (the end phase included)
            state.phase = self._end_play(rep, seq.phases[play.index:] if play is not None else None, state.phase,
                                         state.first, step, state.turn, state.started_by, dict(state.acts))
            state.play = seq.phases[0]
            boundary = f"{state.play.title}, turn {step.turn}"
        elif step.index > state.first:
            self._end_phase(rep, state.phase, state.first, step.index - 1, state.turn, state.started_by,
                            step.position_before, dict(state.acts), play=play)
            state.phase += 1
        state.begin(step.index, boundary)
        state.turn = self.replay.turn
        state.activation = None
        if step.turn_changed:
            state.acts = Counter()
            state.drawn = []
            state.turn_state = {}

    def _draw_chits(self, state: _LogState, step: Step) -> None:
        """The chits the step draws: the action chit that activates this phase's units, and (with
        ``phases.activations``) one more activation of the formation it names."""
        for chit in step.chits:
            state.drawn.append(chit)
            if chit.kind in self.data.phases.chits:
                state.activation = chit
                state.chits_seen = True
        if self.data.phases.activations:
            for chit in step.chits:
                if chit.kind in self.data.phases.chits and chit.formation:
                    state.acts[chit.formation] += 1

    def _check_step(self, rep: LogReport, state: _LogState, step: Step) -> None:
        """Each move of a step, judged on the position before the step; then stacking at all times."""
        assert step.position_before is not None
        ctx = Context(self.rules, step.position_before)
        keys = self._prime_zoc(ctx)
        if len(rep.moves) + len(step.moves) > MAX_LOG_MOVES:
            raise GazalaError(f"the log has more than {MAX_LOG_MOVES:,} moves (step {step.index})",
                              file=self.replay.file, expected=f"at most {MAX_LOG_MOVES:,} moves (split the log)")
        for mv in step.moves:
            self._check_unit_move(rep, state, step, ctx, mv)
        self._keep_zoc(ctx, keys)
        if self.position_checks and not step.undo:
            self._stacking_now(rep, step, state.phase)

    def _check_unit_move(self, rep: LogReport, state: _LogState, step: Step, ctx: Context, mv: UnitMove) -> None:
        """One unit's move: in its side's phase of the sequence, by the movement rules, placed where a
        reinforcement may enter; the move and its findings reported."""
        b, a = mv.before, mv.after
        path: list[Hex] | None = None
        direct: list[Hex] | None = None
        found = self._out_of_sequence(rep, state, step, b, a)
        if self.check_moves and not step.undo:
            path, direct = self._movement_rules(state, step, ctx, b, a, found)
        if not step.undo and b.hex is None and a.hex is not None:
            placed = generic.placed_in_blocked_entry(self.rules, ctx, b, a.hex)
            self._said_at_move.update((f.rule, f.message) for f in placed)  # not again at the phase end
            found.extend(placed)
        if not step.undo and a.hex is not None:  # who entered which hex (control: last-entered)
            generic.record_entries(self._control, b.side, path[1:] if path else [a.hex])
        label = self.rules.map.label
        rep.moves.append(StepMove(step.index, b.id, b.side, label(b.hex) if b.hex else None,
                                  label(a.hex) if a.hex else None, b.box, a.box,
                                  tuple(label(h) for h in path or ()), state.phase,
                                  tuple(label(h) for h in direct or ())))
        for f in found:
            rep.findings.append(StepFinding(step.index, "move", f, b.id, mv.piece,
                                            label(b.hex) if b.hex else b.box,
                                            label(a.hex) if a.hex else a.box, state.phase))

    def _out_of_sequence(self, rep: LogReport, state: _LogState, step: Step, b: Unit, a: Unit) -> list[Finding]:
        """With a sequence of play, a unit moves only in its side's movement phase: a move of the side
        whose movement phase comes next ends the phases before it; one with no such phase left is an error."""
        seq = self.data.sequence
        rules = self.rules
        play = state.play
        eliminated = a.hex is None and (a.box or "").strip().lower() in rules.data.boxes.eliminated
        if seq is None or eliminated or (play is not None and play.movement and play.side == b.side):
            return []
        nxt = seq.movement_phase(b.side, play.index + 1 if play is not None else 0)
        if nxt is None and play is not None:
            own = seq.movement_phases(b.side)
            return [Finding(seq.rule, Severity.ERROR,
                            f"{b.id} moves in the {play.title}: a {side_adjective(rules, b.side)} unit moves only in the "
                            + (" or the ".join(p.title for p in own) or "no phase"),
                            units=(b.id,))]
        if nxt is not None:
            # the phases before the side's movement phase end on the position before this move
            state.phase = self._end_play(rep, seq.phases[play.index:nxt.index] if play is not None else None,
                                         state.phase, state.first, step, state.turn, state.started_by, dict(state.acts))
            state.play = nxt
            state.begin(step.index, nxt.title)
        return []

    def _movement_rules(self, state: _LogState, step: Step, ctx: Context, b: Unit, a: Unit,
                        found: list[Finding]) -> tuple[list[Hex] | None, list[Hex] | None]:
        """The movement data's rules and the plugin's ``check_move`` for one move, and (``compare``)
        the plugin's two-position rules, each said once a phase per unit; the path taken and the
        direct route it is a detour from."""
        rules = self.rules
        mc = MoveContext(rules, self.data, ctx, step.index, state.phase, state.units, self.allowance, self.paths,
                         activation=state.activation, drawn=tuple(state.drawn), phase_state=state.phase_state,
                         turn_state=state.turn_state)
        path, moved = check_move(b, a, mc)
        found.extend(moved)
        direct = mc.direct
        found.extend(rules.check_move(b, a, path, mc))
        if self._compares:
            start = state.starts.setdefault(b.side, ctx)
            said = [f for f in self._phase_rules(start, a) if (state.phase, f.rule, b.id) not in state.flagged]
            state.flagged.update((state.phase, f.rule, b.id) for f in said)
            found.extend(said)
        return path, direct

    def _finish(self, rep: LogReport, state: _LogState) -> None:
        """The end of the log: how its phases were read, what it could not show, the last phase judged."""
        rep.reading = (" and ".join(sorted(state.readings)) + " mark the phases") if state.readings else READ_WHOLE
        if self.data.phases.activations and not state.chits_seen and rep.moves:
            rep.unchecked.append(f"{self.data.phases.rule}: the log shows no action chit drawn, so which units were "
                                 "activated is not checked (only formations barred on the turn are)")
        play = state.play
        self._end_phase(rep, state.phase, state.first, state.last, state.turn,
                        play.title if play is not None else state.started_by, self.replay.position(), dict(state.acts),
                        play=play)
        rep.final = self.replay.position()

    def _stacking_now(self, rep: LogReport, step: Step, phase: int) -> None:
        """Stacking judged at all times (``rules.stacking.when: always``): on the position after each
        step that moves units, each over-stack reported once while it stands."""
        s = self.rules.data.stacking
        if s is None or s.when != "always" or step.position_before is None:
            return
        moved = {mv.after.id: mv.after for mv in step.moves}
        before = step.position_before
        after = replace(before, units=tuple(moved.pop(u.id, u) for u in before.units) + tuple(moved.values()))
        standing: set[tuple[str, str]] = set()
        for f in generic.check_stacking(self.rules, Context(self.rules, after)):
            key = (f.rule, f.message)
            standing.add(key)
            if key not in self._stack_standing:
                rep.findings.append(StepFinding(step.index, "step", f, phase=phase))
        self._stack_standing = standing

    def _phase_rules(self, start: Context, after: Unit) -> Iterable[Finding]:
        """The plugin's two-position rules (``compare``: DG 17.0, SPI 17.0) for one move, judged on the
        position at the start of its phase: that position with only the moving unit where it went."""
        units = tuple(after if u.id == after.id else u for u in start.position.units)
        return self.rules.compare(start, Context(self.rules, replace(start.position, units=units)))

    def _prime_zoc(self, ctx: Context) -> dict[str, tuple[object, ...]]:
        """Give ``ctx`` the ZOC of each side whose units stand as when it was last computed (a step
        moves one unit: the other side's ZOC is not computed again)."""
        keys: dict[str, tuple[object, ...]] = {}
        for side in self.rules.sides:
            key = tuple(sorted((u.id, u.hex, u.markers) for u in ctx.position.units
                               if u.side == side and u.hex is not None))
            keys[side] = key
            got = self._zoc_cache.get(side)
            if got is not None and got[0] == key:
                ctx._zoc[side] = got[1]
        return keys

    def _keep_zoc(self, ctx: Context, keys: dict[str, tuple[object, ...]]) -> None:
        for side, key in keys.items():
            zoc = ctx._zoc.get(side)
            if zoc is not None:
                self._zoc_cache[side] = (key, zoc)

    def _boundary(self, step: Step) -> str | None:
        if step.turn_changed:
            return f"turn {step.turn}"
        for chit in step.chits:
            if chit.kind in self.data.phases.chits:
                return f"chit {chit.name}"
        return None

    def _end_play(self, rep: LogReport, ended: Sequence[PlayPhase] | None, phase: int, first: int, step: Step,
                  turn: str | None, started_by: str, acts: Mapping[str, int]) -> int:
        """End the phases of the sequence ``ended`` (None: the phase is not known, the log's first) on
        the position before ``step``, each judged; the number of the next phase."""
        last = step.index - 1
        if ended is None:
            if step.index > first:
                self._end_phase(rep, phase, first, last, turn, started_by, step.position_before, acts, play=None)
                phase += 1
            return phase
        for i, p in enumerate(ended):
            self._end_phase(rep, phase, first if i == 0 else last, last, turn, p.title, step.position_before, acts,
                            play=p)
            phase += 1
        return phase

    def _end_phase(self, rep: LogReport, phase: int, first: int, last: int, turn: str | None, started_by: str,
                   position: Position | None, acts: Mapping[str, int], *, play: PlayPhase | None = None) -> None:
        """The end of a phase: the position checks on ``position``; with a sequence of play, only the
        findings of the rules the phase ``play`` judges (and of those no phase names)."""
        rep.phases.append(Phase(phase, first, max(first, last), turn, started_by))
        if not self.position_checks or position is None:
            return
        if acts:
            position = self.rules.with_activations(position, acts)
        c = self.rules.data.control
        if c is not None and c.by == "last-entered" and self._control:  # the hexes the log saw entered
            position = replace(position, extra={**position.extra, generic.CONTROL: dict(self._control)})
        seq = self.data.sequence
        report = Referee(self.rules).check(position)
        standing: set[tuple[str, str]] = set()
        for f in report.findings:
            key = (f.rule, f.message)
            if seq is not None and not seq.judges(play, f.rule):
                if key in self._standing:
                    standing.add(key)
                continue  # not judged at this phase
            standing.add(key)
            if f.severity is Severity.INFO or key in self._standing or key in self._stack_standing \
                    or key in self._said_at_move:
                continue  # reported at an earlier phase end (or step, stacking at all times) and still standing
            rep.findings.append(StepFinding(max(first, last), "position", f, phase=phase))
        self._standing = standing


def check_log(
    path: str | Path,
    *,
    game: object | None = None,
    module: str | Path | None = None,
    mapping: str | Path | None = None,
    turn: str | None = None,
    position_checks: bool = True,
    paths: str = "legal",
    read_layouts: LayoutReader | None = None,
) -> tuple[LogReport, LogReplay]:
    """Read a ``.vlog`` and check every move of it (``gazala referee log``); ``module`` and its
    ``read_layouts`` as :func:`gazala_tools.referee.api.load`."""
    from gazala_tools.games import default_game_id, find_game
    from gazala_tools.referee.api import game_context, imported_context, module_layouts
    from gazala_tools.referee.detect import game_of_module_file, game_of_view
    from gazala_tools.referee.imported import check_module_name, is_imported, piece_table
    from gazala_tools.referee.plugins import plugin_note
    from gazala_tools.referee.saves import PieceMapping
    from gazala_tools.vsav import read_save

    p = Path(path)
    if p.suffix.lower() != ".vlog":
        raise GazalaError("not a VASSAL log", file=p, expected="a .vlog file (a save has no moves to check: "
                          "use 'gazala referee check')")
    save: Save = read_save(p, replay_log=False)
    if not save.is_log:
        raise GazalaError("the file holds no logged steps", file=p, expected="a .vlog written while logging")
    g = (find_game(game) if game is not None else game_of_view(save.view())  # type: ignore[arg-type]
         or (game_of_module_file(Path(module)) if module is not None else None))
    if g is None:
        g = find_game(default_game_id())
    table = None
    if mapping is None and is_imported(g):  # issue 35: an imported module's own log, through units.yaml
        check_module_name(g, save.view().module_name, p)
        ctx = imported_context(g, module, read_layouts)  # the folder's boards unless --module
        table = piece_table(g)
    else:  # the game, its rules and the module's boards: each loaded once (issue 34)
        layouts = module_layouts(module, read_layouts) if module is None or read_layouts is not None else None
        ctx = game_context(g, layouts=layouts, module=module)
    rules = ctx.rules
    replay = LogReplay(save, rules, manifest=ctx.specs if table is None else None,
                       mapping=PieceMapping.read(mapping) if mapping is not None else None,
                       module_layouts=ctx.layouts, turn=turn, imported=table,
                       box_at=ctx.box_at if module is None and table is None else None)  # the folder's boxes name them
    rep = LogReferee(replay, position_checks=position_checks, paths=paths).check()
    note = plugin_note(rules.game)
    if note is not None:  # the report says that code of the game folder ran (docs/games.md)
        rep.notes.insert(0, note)
    return rep, replay


def render_text(rep: LogReport) -> str:
    lines = [f"{rep.source}: {rep.game}, {count(rep.steps, 'step')}, {count(len(rep.moves), 'move')}, "
             f"{count(len(rep.phases), 'phase')}",
             f"phases: {rep.reading}", f"paths: {rep.paths}"]
    for p in rep.phases:
        lines.append(f"  phase {p.index}: steps {p.first_step}-{p.last_step}"
                     f"{f', turn {p.turn}' if p.turn else ''} ({p.started_by})")
    for n in rep.notes:
        lines.append(f"note: {n}")
    for n in rep.unchecked:
        lines.append(f"unchecked: {n}")
    if not rep.findings:
        lines.append("no findings: every move is legal")
    elif rep.legal:
        lines.append("no error: every move is legal (see the warnings)")
    for f in sorted(rep.findings, key=lambda f: (f.step, f.kind != "move", f.finding.sort_key())):
        fd = f.finding
        where = (f" {f.unit} {f.from_hex} -> {f.to_hex}" if f.kind == "move" else " position after the step"
                 if f.kind == "step" else " position at phase end")
        lines.append(f"step {f.step}:{where}: [{fd.rule}] {fd.severity.value}: {fd.message}")
    lines.append("legal" if rep.legal else "ILLEGAL")
    return "\n".join(lines) + "\n"


def render_json(rep: LogReport) -> str:
    import json

    return json.dumps(rep.to_dict(), indent=1) + "\n"


def unit_side(u: Unit) -> str:
    return u.side
