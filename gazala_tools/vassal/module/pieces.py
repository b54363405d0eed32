"""Palette pieces and prototypes: the trait chains of units, markers, facing markers and chits.

Every piece carries a ``Marker`` (``mark;``) with our stable id and its game data, so a reader of any
save of the module (the referee) names each piece without guessing from images or names:
``UnitId``, ``Kind``, ``Side``, ``SideId``, ``Formation``, ``Type``, ``Steps`` (+ the piece's own
properties). State a player changes lives in layers whose VASSAL properties are ``<layer>_Level`` /
``<layer>_Active``: ``Step`` (1 = full strength), ``Used``, the status layers of the build
configuration (``Disrupted``, ``Out of Supply`` ...); a facing marker adds its state layer
(``Breach``: 1 under construction, 2 breached) and a facing. Which status layers and facing markers
a module has is data (:mod:`.config`); the keys below are the module's own commands.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from gazala_tools.vassal.module import traits as t
from gazala_tools.vassal.module.spec import CHIT, MARKER, UNIT, PieceSpec, StatusSpec

__all__ = [
    "KEY_DELETE",
    "KEY_FLIP",
    "KEY_STEP_LOSS",
    "KEY_STEP_RECOVER",
    "KEY_USED",
    "REPORT_FORMAT",
    "Prototype",
    "expanded_traits",
    "marker_properties",
    "piece_slot_text",
    "piece_traits",
    "prototypes",
]

#: keys of the module's own commands (plain keystrokes, see :mod:`.traits`); config.RESERVED_KEYS
#: names them so that a build configuration cannot take one for a status layer
KEY_DELETE = t.key("D")
KEY_STEP_LOSS = t.key("L")
KEY_STEP_RECOVER = t.key("R")
KEY_USED = t.key("U")
KEY_FLIP = t.key("F")

REPORT_FORMAT = "$location$: $newPieceName$ $menuCommand$ *"

PROTO_UNIT, PROTO_MARKER, PROTO_CHIT = "Unit", "Marker", "Chit"


@dataclass(frozen=True)
class Prototype:
    name: str
    description: str
    text: str  #: +/null/TYPE/STATE
    traits: tuple[t.TraitSpec, ...] = ()  #: the chain, outermost first (BasicPiece last)


def prototypes(status: Sequence[StatusSpec] = (), marker_keys: Sequence[str] = ()) -> list[Prototype]:
    """The module's prototype definitions (innermost piece: the empty BasicPiece ``piece;;;;``).

    ``status``: the status layers every unit has; ``marker_keys``: keys of the facing markers'
    state layers (reported like a flip)."""
    empty = t.basic_piece("")
    layers = [
        t.layer(s.name, [s.image], [f"+ ({s.name.lower()})"], activate=(s.name, s.key), always_active=False,
                description=f"{s.name} marker")
        for s in status
    ]
    unit_keys = [KEY_STEP_LOSS, KEY_STEP_RECOVER, KEY_USED, *(s.key for s in status)]
    unit = (t.report(unit_keys, REPORT_FORMAT, "report unit changes"), t.delete("Delete", KEY_DELETE), *layers, empty)
    mark = (t.report([KEY_FLIP, *marker_keys], REPORT_FORMAT, "report marker changes"), t.delete("Delete", KEY_DELETE), empty)
    chit = (t.delete("Delete", KEY_DELETE), empty)
    names = " / ".join(s.name for s in status)
    return [
        Prototype(PROTO_UNIT, "combat unit: delete, report" + (f", {names}" if names else ""), t.piece_text(unit), unit),
        Prototype(PROTO_MARKER, "game marker: delete, report", t.piece_text(mark), mark),
        Prototype(PROTO_CHIT, "action or tactical chit", t.piece_text(chit), chit),
    ]


def marker_properties(p: PieceSpec) -> dict[str, str]:
    props = {
        "UnitId": p.id,
        "Kind": p.type if p.facing is not None else p.kind,
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


def piece_traits(p: PieceSpec, gpid: int) -> list[t.TraitSpec]:
    """The trait chain (outermost first) of palette piece ``p``."""
    if not p.faces:
        raise ValueError(f"piece {p.id!r} has no face image")
    inner: list[t.TraitSpec] = [t.marker(marker_properties(p))]
    image = p.faces[0]
    outer: list[t.TraitSpec] = []
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
    elif p.facing is not None:
        f = p.facing
        outer.append(t.prototype(PROTO_MARKER))
        outer.append(t.rotate(6, name="Facing", description="points at one of six hexsides"))
        if len(p.faces) > 1:
            names = [f"+ ({state})" for state in f.states] + [""] * max(0, len(p.faces) - len(f.states))
            outer.append(t.layer(f.layer, list(p.faces), names[: len(p.faces)], increase=(f.menu, f.key),
                                 loop=True, description=f"{f.layer.lower()} state"))
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


def expanded_traits(p: PieceSpec, gpid: int, protos: Sequence[Prototype]) -> list[t.TraitSpec]:
    """``p``'s trait chain with each ``prototype;`` trait replaced by that prototype's traits (its
    BasicPiece dropped), as VASSAL's ``PieceCloner`` expands a palette piece placed on a map."""
    by_name = {pr.name: pr.traits for pr in protos}
    out: list[t.TraitSpec] = []
    for trait in piece_traits(p, gpid):
        name = trait.type[len("prototype;"):].split(";", 1)[0] if trait.id == "prototype;" else None
        if name is not None and name in by_name:
            out.extend(by_name[name][:-1])
        else:
            out.append(trait)
    return out
