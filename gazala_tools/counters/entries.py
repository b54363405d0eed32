"""The entries of ``counters.yaml`` made into counters: a unit (one counter per step, its values and back)
and a chit or marker (``count`` copies of its faces), read against the manifest's :class:`Settings`."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import yaml

from gazala_tools.counters.art import CounterArt, GivenArt
from gazala_tools.counters.model import (
    NEUTRAL,
    SIZES,
    UNIT_TYPES,
    VALUE_ROLES,
    Counter,
    Face,
    Nationality,
    Value,
)
from gazala_tools.counters.schema import FACE_ART_KEYS, FACE_KEYS, MAX_COUNTERS, VASSAL_KEYS
from gazala_tools.counters.section import ManifestSection
from gazala_tools.games import Game

__all__ = ["EntryReader", "Settings"]

#: the values a unit_back policy halves (movement and range stay)
_HALVED = ("attack", "defence", "hard", "soft", "barrage", "fpf")


@dataclass
class Settings:
    """What every entry is read against: the game (None: a stand-alone manifest), the manifest's value
    style, unit backs, artillery roles and inks, its nationalities and the counters' art."""

    game: Game | None
    art: CounterArt
    read_art: bool = True  #: False: an entry's ``art`` is left out (``game import`` reads back what it wrote)
    style: str = "attack-defence-move"
    unit_back: str = "used"
    artillery_roles: tuple[str, ...] = ("attack", "defence", "move")
    inks: list[tuple[str | None, frozenset[str] | None, str]] = field(default_factory=list)
    nats: dict[str, Nationality] = field(default_factory=dict)

    sides: tuple[str, ...] | None = field(init=False)  #: the game's sides and neutral (None: any side id)
    #: the game's unit types (game.yaml ``unit-types``; a game declaring none, or a stand-alone file: the symbols)
    unit_types: tuple[str, ...] = field(init=False)

    def __post_init__(self) -> None:
        self.sides = (*self.game.side_ids, NEUTRAL) if self.game is not None else None
        self.unit_types = self.game.unit_type_ids() if self.game is not None else UNIT_TYPES


def _half_up(x: int) -> int:
    """``unit_back: reduced-half-up`` (e.g. BG 7.0): combat values halved, rounded up."""
    return math.ceil(x / 2)


def _half_down(x: int) -> int:
    """``unit_back: depleted``: halved, rounded down, at least 1."""
    return max(1, x // 2)


class EntryReader:
    """Counters of the manifest's entries, at most :data:`MAX_COUNTERS` of them in all."""

    def __init__(self, s: Settings) -> None:
        self.s = s
        self.made = 0  #: counters made so far

    def room(self, entry: ManifestSection, key: str, n: int) -> None:
        """``n`` more counters, refused past :data:`MAX_COUNTERS` before any is made."""
        if self.made + n > MAX_COUNTERS:
            raise entry.err(key, f"{n:,} more counters make more than {MAX_COUNTERS:,}",
                            expected=f"at most {MAX_COUNTERS:,} counters in a manifest")
        self.made += n

    def nationality(self, entry: ManifestSection, *, required: bool) -> str:
        """A unit's nationality, or a chit's or marker's if it has one: declared in ``nationalities``."""
        if not required and not entry.text("nationality", ""):
            return ""
        return entry.one_of("nationality", tuple(self.s.nats), kind="a declared nationality")

    # --- units ---------------------------------------------------------------------------------------
    def unit(self, u: ManifestSection) -> list[Counter]:
        """A unit: one counter per step (``<id>-s3`` ... ``-s1``; one step: ``<id>``), full strength first."""
        uid = u.ident()
        nat = self.nationality(u, required=True)
        utype = self.unit_type(u)
        size = u.one_of("size", SIZES, "II")
        steps = u.whole("steps", 1, lo=1, hi=MAX_COUNTERS)
        self.room(u, "steps", steps)
        step_values = self.step_values(u, steps)
        restricted = u.boolean("restricted", False)
        arts = self.step_art(u, steps)
        given_roles = u.choices("roles", VALUE_ROLES, kind="a value role") if "roles" in u else None
        if given_roles == ():
            raise u.err("roles", "no roles", expected=", ".join(VALUE_ROLES))
        out = []
        for i, (node, what) in enumerate(step_values):
            nums = u.numbers(node, what)
            roles = given_roles or self.default_roles(utype, len(nums))
            if len(nums) != len(roles):
                raise u.doc.err(node, f"{what}: {len(nums)} values do not match the roles",
                                expected=f"{len(roles)} ({', '.join(roles)})")
            front = Face(values=self.values(roles, nums, utype, restricted), state="full")
            counter = Counter(
                id=uid if steps == 1 else f"{uid}-s{steps - i}", kind="unit", side=self.s.nats[nat].side,
                nationality=nat, front=front, back=self.back_face(u, front, roles, utype, restricted),
                formation=u.label("formation", ""), designation=u.label("designation"), type=utype,
                symbol=self.s.game.symbol_of(utype) if self.s.game is not None else utype, size=size,
                steps=steps, step=steps - i, unit_id=uid, provenance=u.text("provenance", ""), restricted=restricted,
            )  # fmt: skip
            out.append(self.s.art.on(counter, arts[i], u))
        return out

    def unit_type(self, u: ManifestSection) -> str:
        game = self.s.game
        declared = "game.yaml unit-types: " if game is not None and game.unit_types else ""
        return u.one_of("type", self.s.unit_types, kind="a unit type of the game",
                        expected=declared + ", ".join(self.s.unit_types))

    def step_values(self, u: ManifestSection, steps: int) -> list[tuple[yaml.Node, str]]:
        """Each step's list of values (its node and key path), full strength first; a one-step unit may
        give its one list (``values: [3, 4, 6]``)."""
        if "values" not in u:
            raise u.err(None, "missing 'values'", expected=f"{steps} list(s) of numbers, full strength first")
        node, what = u.m["values"], u.what("values")
        items = u.doc.seq(node, what)
        if steps == 1 and items and not isinstance(items[0], yaml.SequenceNode):
            return [(node, what)]
        if len(items) != steps:
            raise u.err("values", f"{len(items)} list(s) for {steps} step(s)",
                        expected=f"{steps} list(s), full strength first")
        return [(n, f"{what}[{i}]") for i, n in enumerate(items)]

    def step_art(self, u: ManifestSection, steps: int) -> list[GivenArt]:
        """Each step's named art: ``art: {front, back}``, a list of them for a unit of several steps."""
        if not self.s.read_art or not u.given("art"):
            return [(None, None)] * steps
        is_list = isinstance(u.m["art"], yaml.SequenceNode)
        if steps == 1:
            if is_list:
                raise u.err("art", "a list for a one-step unit", expected="art: {front: FILE, back: FILE}")
            return [self.s.art.given(u.sub("art", FACE_ART_KEYS))]
        if not is_list or len(u.m["art"].value) != steps:
            raise u.err("art", f"not one {{front, back}} per step of a {steps}-step unit",
                        expected=f"a list of {steps} {{front, back}}, full strength first")
        return [self.s.art.given(a) for a in u.each("art", FACE_ART_KEYS)]

    def default_roles(self, utype: str, n: int) -> tuple[str, ...]:
        if self.s.style == "hard-soft-move":
            return ("hard", "soft", "move")
        if utype == "artillery" and n == len(self.s.artillery_roles):
            return self.s.artillery_roles
        return ("attack", "defence", "move")

    def ink(self, role: str, utype: str) -> str | None:
        for r, types, ink in self.s.inks:
            if (r is None or r == role) and (types is None or utype in types):
                return ink
        return None

    def values(self, roles: Sequence[str], numbers: Sequence[int | None], utype: str,
               restricted: bool) -> tuple[Value, ...]:
        return tuple(Value(role, num, self.ink(role, utype), bracket=restricted and role == "move")
                     for role, num in zip(roles, numbers, strict=True))

    def back_face(self, u: ManifestSection, front: Face, roles: Sequence[str], utype: str, restricted: bool) -> Face:
        """The unit's ``back``, or its back by ``one_sided`` and the manifest's ``unit_back``."""
        if "back" in u:
            nums = u.numbers(u.m["back"], u.what("back"))
            if len(nums) != len(roles):
                raise u.err("back", f"{len(nums)} values", expected=f"{len(roles)} ({', '.join(roles)})")
            return Face(values=self.values(roles, nums, utype, restricted), state="used")
        policy = "same" if u.boolean("one_sided", False) else self.s.unit_back
        if policy == "same":
            return front
        if policy == "blank":
            return Face(state="blank")
        if policy == "used":  # RG 2.2.3/8.0: the used side; combat values stay, the movement is spent
            return Face(values=tuple(Value(v.role, None, v.ink, v.bracket) if v.role == "move" else v
                                     for v in front.values), state="used")
        halve = _half_up if policy == "reduced-half-up" else _half_down
        vals = tuple(Value(v.role, halve(v.number), v.ink, v.bracket) if v.role in _HALVED and v.number is not None
                     else v for v in front.values)
        return Face(values=vals, state="reduced" if policy == "reduced-half-up" else "depleted")

    # --- chits and markers ---------------------------------------------------------------------------
    def token(self, t: ManifestSection, kind: str) -> list[Counter]:
        """A chit or marker (``kind``): ``count`` counters ``<id>-1`` ... with the same faces."""
        tid = t.ident()
        side = t.side(self.s.sides, NEUTRAL)
        nat = self.nationality(t, required=False)
        count = t.whole("count", 1, lo=1, hi=MAX_COUNTERS)
        self.room(t, "count", count)
        front = self.face(t, "front", kind)
        back = self.face(t, "back", kind) if "back" in t else front
        given = self.s.art.given(t.sub("art", FACE_ART_KEYS)) if self.s.read_art else (None, None)
        if "vassal" in t:  # kept for the rebuild of an imported module; no command here reads it
            t.sub("vassal", VASSAL_KEYS).free_text("slot")
        what, provenance = t.text("type", kind), t.text("provenance", "")
        ids = [tid] if count == 1 else [f"{tid}-{i}" for i in range(1, count + 1)]
        return [self.s.art.on(Counter(id=i, kind="chit" if kind == "chit" else "marker", side=side, nationality=nat,
                                      front=front, back=back, type=what, unit_id=tid, provenance=provenance), given, t)
                for i in ids]

    def face(self, t: ManifestSection, key: str, state: str) -> Face:
        """A face: its title alone (``front: SMOKE``) or ``{title, subtitle, icon, color, text_color}``."""
        if not t.given(key):
            return Face(state=state)
        node = t.m[key]
        if isinstance(node, yaml.ScalarNode):
            return Face(title=t.drawn(node, t.what(key)), state=state)
        f = t.sub(key, FACE_KEYS)
        return Face(title=f.label("title", ""), subtitle=f.label("subtitle", ""), icon=f.label("icon", ""),
                    state=state, color=f.color("color"), text_color=f.color("text_color"))
