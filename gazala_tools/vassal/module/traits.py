"""Trait type/state encoders for the VASSAL traits a module uses (vassal-format.md §3).

Each function returns a :class:`TraitSpec` (its own type string and its own state string, exactly as
VASSAL 3.6/3.7 writes them). :func:`piece_text` nests a chain of traits (outermost first, BasicPiece
last) into the ``+/null/FULLTYPE/FULLSTATE`` body of a PieceSlot or PrototypeDefinition (§3.1, §3.2),
with ``SequenceEncoder`` escaping at every level (§1.1).

Keys are plain keystrokes (``code,modifiers``, §1.2), never named keys: VASSAL re-encodes a named
key with a run-time allocated code, so a module written with named keys would not round-trip.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from gazala_tools.errors import GazalaError
from gazala_tools.vsav import sequence
from gazala_tools.vsav.sequence import TAB

__all__ = [
    "ALT",
    "CTRL",
    "SHIFT",
    "TraitSpec",
    "basic_piece",
    "chain",
    "delete",
    "does_not_stack",
    "key",
    "label",
    "layer",
    "marker",
    "mask",
    "piece_text",
    "prototype",
    "report",
    "return_to_deck",
    "rotate",
    "se",
]

#: KeyStroke modifier bits as Java's ``KeyStroke.getModifiers()`` reports them (§1.2).
CTRL = 130
SHIFT = 65
ALT = 520


def key(char: str | int, modifiers: int = CTRL) -> str:
    """A plain keystroke ``code,modifiers``: ``key("F")`` is Ctrl+F = ``70,130``."""
    code = char if isinstance(char, int) else ord(char.upper())
    return f"{code},{modifiers}"


def _bool(value: bool) -> str:
    return "true" if value else "false"


def _check_token(value: str, what: str) -> str:
    # §1.1 pitfall: a token ending in a backslash escapes the delimiter after it.
    if value.endswith("\\"):
        # a name from a game's data (a side, a box, a map): a clean error, not a bug (a GazalaError is a ValueError)
        raise GazalaError(f"{what} {value!r} ends with a backslash (VASSAL would misread the next field)",
                          expected="names that do not end in '\\' (VASSAL's piece-definition escaping)")
    return value


def se(tokens: Sequence[str], delim: str = ";") -> str:
    """``SequenceEncoder(delim)`` of ``tokens`` (each checked for the trailing-backslash pitfall)."""
    if "\\" in "".join(tokens):  # only then can a token end in one
        tokens = [_check_token(t, "token") for t in tokens]
    return sequence.encode(tokens if isinstance(tokens, list) else list(tokens), delim)


@dataclass(frozen=True, slots=True)
class TraitSpec:
    """One decorator or the BasicPiece: its own type and its own state."""

    type: str
    state: str = ""

    @property
    def id(self) -> str:
        i = self.type.find(";")
        return self.type if i < 0 else self.type[: i + 1]


# --- the innermost piece -------------------------------------------------------------------------


def basic_piece(name: str, image: str = "", *, gpid: str = "", properties: Mapping[str, str] | None = None) -> TraitSpec:
    """``piece;`` (§3.3): type ``cloneKey;deleteKey;image;name``; state ``null;0;0;gpid;n;k;v...``."""
    props = dict(properties or {})
    state = ["null", "0", "0", gpid, str(len(props))]
    for k, v in props.items():
        state += [k, v]
    return TraitSpec("piece;" + se(["", "", image, name]), se(state))


# --- traits (outermost first in a chain) -----------------------------------------------------------


def marker(properties: Mapping[str, str]) -> TraitSpec:
    """``mark;`` (Marker): keys and values both ``,``-separated (§3.4.2)."""
    keys = list(properties)
    for k in keys:
        if not k:
            raise ValueError("a Marker property needs a name")
    return TraitSpec("mark;" + se(keys, ","), se([properties[k] for k in keys], ","))


def layer(
    name: str,
    images: Sequence[str],
    level_names: Sequence[str] | None = None,
    *,
    increase: tuple[str, str] | None = None,
    decrease: tuple[str, str] | None = None,
    activate: tuple[str, str] | None = None,
    loop: bool = False,
    always_active: bool = True,
    reset: tuple[str, str, int] | None = None,
    description: str = "",
    level: int | None = None,
    follow_property: str = "",
    first_level_value: int = 1,
) -> TraitSpec:
    """``emb2;`` Embellishment ("Layer", §3.4.1), 33 type fields, version 1.

    ``increase``/``decrease``/``activate`` are ``(menu text, keystroke)``; ``reset`` is
    ``(menu text, keystroke, level)``. ``level`` is the state: default 1 when always active, else
    -1 (inactive, remembering level 1). ``follow_property``: levels follow that property's value.
    """
    names = _level_names(name, images, level_names)
    menu, keystrokes = _layer_commands(increase, decrease, activate, reset)
    fields = [
        *menu,  # 1-12 the commands' menu texts, reset key and level
        "false",  # 13 drawUnderneathWhenSelected
        "0",  # 14 xOff
        "0",  # 15 yOff
        se(list(images), ","),  # 16 imageNames
        se(names, ","),  # 17 levelNames
        _bool(loop),  # 18 loopLevels
        name,  # 19 name
        "",  # 20 rndKey
        "",  # 21 rndText
        _bool(bool(follow_property)),  # 22 followProperty
        follow_property,  # 23 propertyName
        str(first_level_value),  # 24 firstLevelValue
        "1",  # 25 version (0 would select the legacy class)
        _bool(always_active),  # 26 alwaysActive
        *keystrokes,  # 27-29 activate, increase and decrease keystrokes
        description,  # 30 description
        "1.0",  # 31 scale
        "",  # 32 onlyPropertyName
        "true",  # 33 onlyPropertyState
    ]
    state = level if level is not None else (1 if always_active else -1)
    return TraitSpec("emb2;" + se(fields), str(state))


def _level_names(name: str, images: Sequence[str], level_names: Sequence[str] | None) -> list[str]:
    """A layer's level names (empty ones if none are given), one an image, at least one."""
    names = list(level_names) if level_names is not None else [""] * len(images)
    if len(names) != len(images):
        raise ValueError(f"layer {name!r}: {len(images)} images but {len(names)} level names")
    if not images:
        raise ValueError(f"layer {name!r} needs at least one level")
    return names


def _layer_commands(
    increase: tuple[str, str] | None,
    decrease: tuple[str, str] | None,
    activate: tuple[str, str] | None,
    reset: tuple[str, str, int] | None,
) -> tuple[list[str], list[str]]:
    """A layer's type fields 1-12 (menu texts, reset key and level) and 27-29 (keystrokes)."""
    up_text, up_key = increase or ("", "")
    down_text, down_key = decrease or ("", "")
    act_text, act_key = activate or ("", "")
    reset_text, reset_key, reset_level = reset or ("", "", 1)
    menu = [
        act_text,  # 1 activateCommand
        "130",  # 2 activateModifiers
        "",  # 3 activateKey (legacy char)
        up_text,  # 4 upCommand
        "130",  # 5 upModifiers
        "",  # 6 upKey
        down_text,  # 7 downCommand
        "130",  # 8 downModifiers
        "",  # 9 downKey
        reset_text,  # 10 resetCommand
        reset_key,  # 11 resetKey
        str(reset_level),  # 12 resetLevel
    ]
    return menu, [act_key, up_key, down_key]


def label(
    *,
    text: str = "",
    menu: str = "Change label",
    key_stroke: str = "",
    font_size: int = 10,
    fg: str = "0,0,0",
    bg: str = "",
    vertical: str = "t",
    horizontal: str = "c",
    name_format: str = "$pieceName$ ($label$)",
    property_name: str = "TextLabel",
    description: str = "",
) -> TraitSpec:
    """``label;`` (Text Label, §3.4.3), 18 type fields; the state is the label text."""
    fields = [
        key_stroke, menu, str(font_size), bg, fg, vertical, "0", horizontal, "0", "b", "c",
        name_format, "Dialog", "0", "0", property_name, description, "false",
    ]
    return TraitSpec("label;" + se(fields), text)


def rotate(
    facings: int,
    *,
    cw: tuple[str, str] = ("Rotate CW", key("]")),
    ccw: tuple[str, str] = ("Rotate CCW", key("[")),
    name: str = "",
    description: str = "",
    facing: int = 0,
) -> TraitSpec:
    """``rotate;`` FreeRotator ("Can Rotate", §3.4.4) with ``facings`` > 1 fixed facings.

    State: the facing index ``i`` (angle -i*360/N degrees, i.e. i steps clockwise).
    """
    if facings < 2:
        raise ValueError("use a fixed number of facings (>= 2)")
    fields = [str(facings), cw[1], ccw[1], cw[0], ccw[0], "", "", name, description, "", "", "", "true"]
    return TraitSpec("rotate;" + se(fields), str(facing))


def delete(command: str = "Delete", key_stroke: str = key("D"), description: str = "") -> TraitSpec:
    """``delete;`` (§3.4.5)."""
    return TraitSpec("delete;" + se([command, key_stroke, description]))


def report(keys: Sequence[str], report_format: str, description: str = "") -> TraitSpec:
    """``report;`` Report Action (§3.4.7): reports ``report_format`` when one of ``keys`` is used."""
    return TraitSpec("report;" + se([se(list(keys), ","), report_format, "", "", description, "false"]), "-1")


def prototype(name: str) -> TraitSpec:
    """``prototype;NAME`` (§3.4.8): the name is written raw, so it must not contain ``;``."""
    if ";" in name or TAB in name or "/" in name:
        raise ValueError(f"prototype name {name!r} must not contain ; / or TAB")
    return TraitSpec("prototype;" + name)


def does_not_stack(*, select: str = "", move: str = "N", stack: str = "R", description: str = "") -> TraitSpec:
    """``immob;`` Does Not Stack (§3.4.9): plain concatenation, not SE-escaped."""
    return TraitSpec(f"immob;{select};{move};{stack};{description}")


def mask(
    image: str,
    *,
    command: str = "Mask",
    key_stroke: str = key("M"),
    mask_name: str = "?",
    peek: str = "Peek",
    description: str = "",
) -> TraitSpec:
    """``obs;`` Obscurable ("Mask", §3.4.11): hidden behind ``image`` from other players; unmasked."""
    fields = [key_stroke, image, command, "I", mask_name, "player:", peek, description, "true", "", ""]
    return TraitSpec("obs;" + se(fields), "null;")


def return_to_deck(command: str, key_stroke: str, deck: str, description: str = "") -> TraitSpec:
    """``return;`` ReturnToDeck (§3.4.15) to a fixed deck (version 2)."""
    return TraitSpec("return;" + se([command, key_stroke, deck, "Select destination", description, "2", "false", ""]))


# --- nesting ---------------------------------------------------------------------------------------


def chain(traits: Sequence[TraitSpec]) -> tuple[str, str]:
    """(FULLTYPE, FULLSTATE) of ``traits`` (outermost first, BasicPiece last), §3.2."""
    if not traits or traits[-1].id != "piece;":
        raise ValueError("a trait chain must end with the BasicPiece (piece;)")
    full_type, full_state = traits[-1].type, traits[-1].state
    for t in reversed(traits[:-1]):
        full_type = sequence.encode([t.type, full_type], TAB)
        full_state = sequence.encode([t.state, full_state], TAB)
    return full_type, full_state


def piece_text(traits: Sequence[TraitSpec]) -> str:
    """``+/null/FULLTYPE/FULLSTATE``: the body of a PieceSlot or PrototypeDefinition (§3.1)."""
    full_type, full_state = chain(traits)
    return "+/" + sequence.encode(["null", full_type, full_state], "/")
