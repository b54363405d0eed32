"""Palette pieces and prototypes: the trait chains of units, markers, breach markers and chits.

Every piece carries a ``Marker`` (``mark;``) with our stable id and its game data, so a reader of any
save of the module (the referee) names each piece without guessing from images or names:
``UnitId``, ``Kind``, ``Side``, ``Formation``, ``Type``, ``Steps`` (+ the piece's own properties).
State a player changes lives in layers whose VASSAL properties are ``<layer>_Level`` /
``<layer>_Active``: ``Step`` (1 = full strength), ``Used``, ``Disrupted``, ``Out of Supply``,
``Isolated``; breach markers add ``Breach`` (1 under construction, 2 breached) and a facing.
"""

from __future__ import annotations

from dataclasses import dataclass

from gazala_tools.vassal.module import traits as t
from gazala_tools.vassal.module.spec import BREACH, CHIT, MARKER, UNIT, PieceSpec

#: keys (plain keystrokes, see :mod:`.traits`)
KEY_DELETE = t.key("D")
KEY_STEP_LOSS = t.key("L")
KEY_STEP_RECOVER = t.key("R")
KEY_USED = t.key("U")
KEY_DISRUPTED = t.key("D", t.CTRL + t.SHIFT)
KEY_OUT_OF_SUPPLY = t.key("O")
KEY_ISOLATED = t.key("I")
KEY_FLIP = t.key("F")
KEY_BREACH = t.key("B")

#: status layers of every unit (prototype "Unit"): (layer name, menu text, key, image)
STATUS_LAYERS: tuple[tuple[str, str, str, str], ...] = (
    ("Disrupted", "Disrupted", KEY_DISRUPTED, "status-disrupted.png"),
    ("Out of Supply", "Out of Supply", KEY_OUT_OF_SUPPLY, "status-oos.png"),
    ("Isolated", "Isolated", KEY_ISOLATED, "status-isolated.png"),
)

REPORT_FORMAT = "$location$: $newPieceName$ $menuCommand$ *"

PROTO_UNIT, PROTO_MARKER, PROTO_CHIT = "Unit", "Marker", "Chit"


@dataclass(frozen=True)
class Prototype:
    name: str
    description: str
    text: str  #: +/null/TYPE/STATE


def prototypes() -> list[Prototype]:
    """The module's prototype definitions (innermost piece: the empty BasicPiece ``piece;;;;``)."""
    empty = t.basic_piece("")
    status = [
        t.layer(
            name,
            [image],
            [f"+ ({name.lower()})"],
            activate=(menu, keystroke),
            always_active=False,
            description=f"{name} marker",
        )
        for name, menu, keystroke, image in STATUS_LAYERS
    ]
    unit_keys = [KEY_STEP_LOSS, KEY_STEP_RECOVER, KEY_USED, *(k for _n, _m, k, _i in STATUS_LAYERS)]
    unit = [
        t.report(unit_keys, REPORT_FORMAT, "report unit changes"),
        t.delete("Delete", KEY_DELETE),
        *status,
        empty,
    ]
    mark = [t.report([KEY_FLIP, KEY_BREACH], REPORT_FORMAT, "report marker changes"), t.delete("Delete", KEY_DELETE), empty]
    chit = [t.delete("Delete", KEY_DELETE), empty]
    return [
        Prototype(PROTO_UNIT, "combat unit: delete, report, Disrupted / Out of Supply / Isolated", t.piece_text(unit)),
        Prototype(PROTO_MARKER, "game marker: delete, report", t.piece_text(mark)),
        Prototype(PROTO_CHIT, "action or tactical chit", t.piece_text(chit)),
    ]


def status_images() -> list[tuple[str, str, tuple[int, int, int]]]:
    """(image name, short text, colour) of the status overlays the Unit prototype draws."""
    colours = {"Disrupted": (200, 30, 30), "Out of Supply": (230, 160, 0), "Isolated": (120, 0, 160)}
    short = {"Disrupted": "DIS", "Out of Supply": "OOS", "Isolated": "ISO"}
    return [(image, short[name], colours[name]) for name, _m, _k, image in STATUS_LAYERS]


def marker_properties(p: PieceSpec) -> dict[str, str]:
    props = {
        "UnitId": p.id,
        "Kind": p.kind,
        "Side": p.side,
        "Formation": p.formation,
        "Type": p.type,
        "Steps": str(p.steps),
    }
    for k, v in p.properties.items():
        props.setdefault(k, v)
    return props


def _step_names(n: int) -> list[str]:
    return [""] + [f"+ ({k} step{'s' if k > 1 else ''} lost)" for k in range(1, n)]


def piece_traits(p: PieceSpec, gpid: int) -> list[t.Trait]:
    """The trait chain (outermost first) of palette piece ``p``."""
    if not p.faces:
        raise ValueError(f"piece {p.id!r} has no face image")
    inner: list[t.Trait] = [t.marker(marker_properties(p))]
    image = p.faces[0]
    outer: list[t.Trait] = []
    if p.kind == UNIT:
        outer.append(t.prototype(PROTO_UNIT))
        if p.used:
            if len(p.used) != len(p.faces):
                raise ValueError(f"piece {p.id!r}: {len(p.faces)} step faces but {len(p.used)} used faces")
            # the used side of the current step: same keys as the Step layer (no menu entries), so
            # its level follows the step while "Used / unused" shows or hides it
            outer.append(
                t.layer("Used", list(p.used), ["+ (used)"] * len(p.used), activate=("Used / unused", KEY_USED),
                        increase=("", KEY_STEP_LOSS), decrease=("", KEY_STEP_RECOVER), always_active=False,
                        description="used side")
            )
        if len(p.faces) > 1:
            outer.append(
                t.layer("Step", list(p.faces), _step_names(len(p.faces)),
                        increase=("Lose step", KEY_STEP_LOSS), decrease=("Recover step", KEY_STEP_RECOVER),
                        description="step losses")
            )
            image = ""
    elif p.kind == BREACH:
        outer.append(t.prototype(PROTO_MARKER))
        outer.append(t.rotate(6, name="Facing", description="points at one of six hexsides"))
        names = ["+ (under construction)", "+ (breached)"] + [""] * (len(p.faces) - 2)
        if len(p.faces) > 1:
            outer.append(t.layer("Breach", list(p.faces), names[: len(p.faces)], increase=("Breached / under construction", KEY_BREACH),
                                 loop=True, description="breach state"))
            image = ""
    elif p.kind in (MARKER, CHIT):
        outer.append(t.prototype(PROTO_MARKER if p.kind == MARKER else PROTO_CHIT))
        if p.mask:
            outer.append(t.mask(p.mask, description="hidden while in the cup"))
        if len(p.faces) > 1:
            outer.append(t.layer("Face", list(p.faces), [""] * len(p.faces), increase=("Flip", KEY_FLIP), loop=True,
                                 description="two-sided"))
            image = ""
    else:
        raise ValueError(f"piece {p.id!r}: unknown kind {p.kind!r}")
    return [*outer, *inner, t.basic_piece(p.name, image, gpid=str(gpid))]


def piece_slot_text(p: PieceSpec, gpid: int) -> str:
    return t.piece_text(piece_traits(p, gpid))
