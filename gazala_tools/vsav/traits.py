"""Piece type/state strings decoded into the trait (Decorator) chain, outermost first.

``FULLTYPE = SE(TAB)[outerType, FULLTYPE(inner)]`` recursively, BasicPiece innermost; ``FULLSTATE``
is built the same way from each trait's own state. The trait id is the type prefix up to and
including the first ``;`` (``emb2;``), or the whole type when it has none (``stack``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from gazala_tools.errors import VassalFormatError
from gazala_tools.vsav import sequence
from gazala_tools.vsav.sequence import TAB

__all__ = [
    "MAX_TRAITS",
    "BasicState",
    "PieceDef",
    "Trait",
    "decode_piece",
    "join_chain",
    "make_piece",
    "split_chain",
    "split_piece",
    "trait_id",
]

#: deepest trait chain accepted
MAX_TRAITS = 500




def split_chain(full: str) -> list[str]:
    """``SE(TAB)`` nesting unrolled: [outer, ..., innermost].

    Fast path: in a well-formed chain without quotes the separator between level k and k+1 is a TAB
    preceded by exactly k-1 backslashes (escaping is applied once per level), so one scan finds every
    token. Anything else (quotes, content TABs, a token ending in a backslash) takes the exact
    level-by-level decode that VASSAL performs.
    """
    if "'" not in full:
        parts = full.split("\t")
        if len(parts) > MAX_TRAITS:
            raise ValueError(f"more than {MAX_TRAITS} traits")
        out: list[str] = []
        for level, part in enumerate(parts[:-1]):
            # the TAB after this part must be preceded by exactly `level` backslashes
            if level == 0:
                if part.endswith("\\"):
                    break
                out.append(part)
                continue
            cut = len(part) - level
            if part[cut:] != "\\" * level or part[cut - 1 : cut] == "\\":
                break
            out.append(part[:cut])
        else:
            out.append(parts[-1])
            return out
    return _split_chain_exact(full)


def _split_chain_exact(full: str) -> list[str]:
    out: list[str] = []
    rest: str | None = full
    while rest is not None:
        if TAB not in rest:
            out.append(sequence.decode(rest, TAB)[0] if rest[:1] == "'" else rest)
            break
        tokens = sequence.decode(rest, TAB)
        out.append(tokens[0])
        if len(tokens) == 1:
            break
        # SE(TAB)[outer, inner]: a third token only appears in hand-made strings; VASSAL ignores it
        rest = tokens[1]
        if len(out) > MAX_TRAITS:
            raise ValueError(f"more than {MAX_TRAITS} traits")
    return out


def join_chain(parts: list[str]) -> str:
    """Inverse of :func:`split_chain`."""
    acc = parts[-1]
    for outer in reversed(parts[:-1]):
        acc = sequence.encode([outer, acc], TAB)
    return acc


def trait_id(type_: str) -> str:
    i = type_.find(";")
    return type_ if i < 0 else type_[: i + 1]


@dataclass(slots=True)
class Trait:
    """One decorator (or the BasicPiece): its id, its own type string and its own state string."""

    id: str
    type: str
    state: str

    def fields(self) -> list[str]:
        """The type's fields after the id (``;``-separated; ``mark;`` uses ``,``)."""
        body = self.type[len(self.id) :]
        if self.id == "mark;":
            return sequence.decode(body, ",")
        return sequence.decode(body, ";")


def _int_or(text: str, default: int) -> int:
    try:
        return sequence.java_int(text)
    except ValueError:
        return default


@dataclass(slots=True)
class BasicState:
    """BasicPiece state: ``map;x;y;gpid;propCount;k1;v1;...`` (3.2 form ``map;x;y;gpid`` accepted)."""

    map: str | None
    x: int
    y: int
    gpid: str
    properties: dict[str, str] = field(default_factory=dict)

    @classmethod
    def parse(cls, state: str) -> BasicState:
        if "\\" not in state and "'" not in state:
            # fast path: no escapes, no quotes (the usual case)
            f = state.split(";")
            n = len(f)
            if n >= 4 and (n == 4 or n % 2 == 1):
                try:
                    x, y = _int_or(f[1], 0), _int_or(f[2], 0)
                    count = _int_or(f[4], 0) if n > 4 else 0
                except IndexError:  # pragma: no cover - guarded by n
                    count = -1
                if count == (n - 5) // 2 or n == 4:
                    fast = dict(zip(f[5::2], f[6::2], strict=False)) if n > 5 else {}
                    return cls(None if f[0] in ("null", "") else f[0], x, y, f[3], fast)
        d = sequence.Decoder(state, ";")
        map_id = d.next_token("null")
        x = d.next_int(0)
        y = d.next_int(0)
        gpid = d.next_token("")
        count = d.next_int(0)
        props: dict[str, str] = {}
        for _ in range(max(0, min(count, 100_000))):
            if not d.has_more():
                break
            key = d.next_token()
            props[key] = d.next_token("")
        return cls(None if map_id in ("null", "") else map_id, x, y, gpid, props)

    def encode(self) -> str:
        tokens = ["null" if self.map is None else self.map, str(self.x), str(self.y), self.gpid]
        tokens.append(str(len(self.properties)))
        for k, v in self.properties.items():
            tokens += [k, v]
        return sequence.encode(tokens, ";")


@dataclass(slots=True)
class PieceDef:
    """A decoded piece: its traits outermost first; ``traits[-1]`` is the BasicPiece."""

    traits: list[Trait]
    _props: dict[str, str] | None = field(default=None, repr=False, compare=False)

    @property
    def basic(self) -> Trait:
        return self.traits[-1]

    def type_string(self) -> str:
        return join_chain([t.type for t in self.traits])

    def state_string(self) -> str:
        return join_chain([t.state for t in self.traits])

    def common_name(self) -> str:
        f = self.basic.fields()
        return f[3] if len(f) > 3 else ""

    def name(self) -> str:
        """The piece name as VASSAL builds it: BasicPiece name, changed by layers and labels."""
        name = self.common_name()
        props: dict[str, str] | None = None
        for t in reversed(self.traits[:-1]):
            if t.id == "emb2;":
                name = _layer_name(t, name)
            elif t.id == "label;":
                if props is None:
                    props = {"BasicName": self.common_name(), **self.properties()}
                name = _label_name(t, name, props)
        return name

    def properties(self) -> dict[str, str]:
        """Marker, dynamic-property, label, layer-level and BasicPiece persistent properties.

        Outer traits win over inner ones for the same name, as in VASSAL. Computed once per state
        (the trait chain is rebuilt when a piece's state changes); treat the result as read-only.
        """
        if self._props is not None:
            return self._props
        props: dict[str, str] = {}
        for t in reversed(self.traits):  # innermost first, so outer ones overwrite
            if t.id == "piece;":
                props.update(BasicState.parse(t.state).properties)
            elif t.id == "mark;":
                keys = t.fields()
                values = sequence.decode(t.state, ",")
                for i, k in enumerate(keys):
                    props[k] = values[i] if i < len(values) else ""
            elif t.id == "PROP;":
                f = t.fields()
                props[f[0] if f and f[0] else "name"] = t.state
            elif t.id == "label;":
                f = t.fields()
                props[f[15] if len(f) > 15 and f[15] else "TextLabel"] = t.state.strip()
            elif t.id == "emb2;":
                f = t.fields()
                layer = f[18] if len(f) > 18 else ""
                if layer:
                    try:
                        value = sequence.java_int(t.state)
                    except ValueError:
                        continue
                    props[f"{layer}_Level"] = str(abs(value))
                    props[f"{layer}_Active"] = "true" if value > 0 else "false"
        self._props = props
        return props


def _layer_name(t: Trait, inner: str) -> str:
    f = t.fields()
    try:
        value = sequence.java_int(t.state)
    except ValueError:
        return inner
    names = sequence.decode(f[16], ",") if len(f) > 16 and f[16] else []
    if value <= 0 or value > len(names) or not names[value - 1]:
        return inner
    level = sequence.decode(names[value - 1], "+")
    if len(level) > 1:
        return inner + level[1] if not level[0] else level[0] + inner
    return level[0]


_PROPERTY_REF = re.compile(r"\$([^$]*)\$")


def _label_name(t: Trait, inner: str, props: dict[str, str]) -> str:
    f = t.fields()
    label = t.state.strip()
    always = len(f) > 17 and f[17] == "true"
    if not label and not always:
        return inner
    fmt = f[11] if len(f) > 11 else "$pieceName$ ($label$)"
    if "$" in label:
        # Labeler.getLabel evaluates the label text as a FormattedString too
        label = _PROPERTY_REF.sub(lambda m: props.get(m.group(1), ""), label)
    values = {**props, "pieceName": inner, "label": label}
    # FormattedString: $name$ is the property's value, an unknown property gives ""
    return _PROPERTY_REF.sub(lambda m: values.get(m.group(1), ""), fmt)


def split_piece(type_: str, state: str, *, file: str = "<piece>", place: str = "") -> tuple[list[str], list[str]]:
    """Trait types and states, outermost first, BasicPiece last; short state chains padded with ""."""
    try:
        types = split_chain(type_)
        states = split_chain(state)
    except ValueError as exc:
        raise VassalFormatError(str(exc), file=file, place=place, expected="a shorter trait chain") from None
    if not types[-1].startswith("piece;") and types[-1] != "piece":
        raise VassalFormatError(
            f"innermost trait is {types[-1][:40]!r}", file=file, place=place, expected="a BasicPiece ('piece;...') innermost"
        )
    if len(states) < len(types):
        states = states + [""] * (len(types) - len(states))
    return types, states


def make_piece(types: list[str], states: list[str]) -> PieceDef:
    return PieceDef([Trait(t[: t.find(";") + 1] or t, t, s) for t, s in zip(types, states, strict=False)])


def decode_piece(type_: str, state: str, *, file: str = "<piece>", place: str = "") -> PieceDef:
    """The trait chain of a piece; a state chain shorter than the type gets empty states."""
    return make_piece(*split_piece(type_, state, file=file, place=place))
