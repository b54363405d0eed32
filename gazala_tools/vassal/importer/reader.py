"""A module's pieces and set-ups as plain data (see the package docstring)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from lxml import etree

from gazala_tools.errors import GazalaError, VassalFormatError
from gazala_tools.games.loader import MAX_SIDES
from gazala_tools.hexgrid import MapLayout
from gazala_tools.numbering import module_int
from gazala_tools.vassal.buildfile import MAP_CLASSES, ModuleSource, layouts_from_xml, open_source
from gazala_tools.vassal.lint import (
    DRAW_PILE,
    PIECE_SLOT,
    PREDEFINED_SETUP,
    PROTOTYPE,
    SETUP_STACK,
    custom_classes,
    element_path,
    extension_of,
)
from gazala_tools.vsav import locate_pieces, read_save, sequence
from gazala_tools.vsav.container import read_container
from gazala_tools.vsav.traits import MAX_TRAITS, PieceDef, Trait, decode_piece

__all__ = [
    "MAX_GPID",
    "MAX_MODULE_TRAITS",
    "MAX_PIECE_BYTES",
    "MAX_PIECE_TRAITS",
    "MAX_PROTOTYPE_DEPTH",
    "MAX_SETUP_BYTES",
    "MAX_SETUP_COMMANDS",
    "MODELLED_TRAITS",
    "ExpansionBudget",
    "ImportedModule",
    "ImportedPiece",
    "PieceTooLarge",
    "PrototypeCycle",
    "SetupPlacement",
    "expand_prototypes",
    "read_module",
]

#: bytes read from one set-up save inside a module
MAX_SETUP_BYTES = 64 * 1024 * 1024
#: commands of set-up saves the import reads in all (CCNapoleonics: 189 saves of ~77,000 commands, 14.6
#: million, read in minutes); the set-ups past it are reported, not read
MAX_SETUP_COMMANDS = 20_000_000
#: deepest prototype nesting followed (a cycle stops here)
MAX_PROTOTYPE_DEPTH = 50
#: most traits and bytes of trait text one piece may have once its prototypes are expanded (a save's
#: trait chain holds at most as many: vsav.traits.MAX_TRAITS; real pieces: 5 to 60 traits)
MAX_PIECE_TRAITS = MAX_TRAITS
MAX_PIECE_BYTES = 1024 * 1024
#: longest gpid (VASSAL writes a Java int, ``extension:number`` in an extension)
MAX_GPID = 40
#: most traits prototype expansion may produce for a whole module (5,000 pieces of 60 traits: 300,000)
MAX_MODULE_TRAITS = 2_000_000
#: trait ids this toolkit models when it imports a piece; the others are kept verbatim
MODELLED_TRAITS = frozenset({"piece;", "emb2;", "prototype;", "mark;", "label;"})


@dataclass(frozen=True)
class ImportedPiece:
    """One piece slot: ``front``/``back`` are its image layers bottom first (the BasicPiece image, then
    each layer's image at its level); ``back`` is the front with its first two-level layer switched."""

    gpid: str
    name: str
    element: str  #: the slot's path in the buildFile
    front: tuple[str, ...]
    back: tuple[str, ...]
    side: str | None
    traits: tuple[str, ...]  #: trait ids after the prototypes were resolved, outermost first
    verbatim: tuple[str, ...]  #: trait types this toolkit does not model, kept as written
    type: str  #: the slot's full type string (before prototypes were resolved)
    state: str
    slot: int = -1  #: the slot's index among the buildFile's PieceSlot elements, in document order
    text: str = ""  #: the slot's definition text exactly as written


@dataclass(frozen=True)
class SetupPlacement:
    """Where a set-up puts a piece: ``setup`` is the predefined set-up's or at-start stack's name."""

    setup: str
    gpid: str
    name: str
    map: str
    board: str | None
    location: str | None
    x: int
    y: int
    file: str = ""  #: the predefined set-up's save in the module ("" for an at-start stack or deck)


@dataclass
class ImportedModule:
    name: str
    version: str
    sides: list[str]
    layouts: list[MapLayout]
    pieces: list[ImportedPiece] = field(default_factory=list)
    placements: list[SetupPlacement] = field(default_factory=list)
    not_understood: list[str] = field(default_factory=list)  #: one line per thing that could not be read

    def counts(self) -> dict[str, int]:
        """What was imported, kept verbatim and not understood."""
        verbatim = sum(len(p.verbatim) for p in self.pieces)
        return {"maps": len(self.layouts), "boards": sum(len(lay.all_boards) for lay in self.layouts),
                "pieces": len(self.pieces), "placements": len(self.placements),
                "traits kept verbatim": verbatim, "not understood": len(self.not_understood)}


class ExpansionBudget:
    """What prototype expansion may produce, counted as it grows (issue 31: prototypes 4 levels deep, each
    naming the next 100 times, expand to a million traits from a 92 KB buildFile). One piece may hold at
    most :data:`MAX_PIECE_TRAITS` traits and :data:`MAX_PIECE_BYTES` of trait text once expanded (what a
    save may hold of one piece); the whole module at most :data:`MAX_MODULE_TRAITS` traits, the traits of
    pieces refused included, so a thousand slots naming one bomb cost no more than one."""

    def __init__(self, traits: int | None = None) -> None:
        self.left = MAX_MODULE_TRAITS if traits is None else traits

    def piece(self, file: str | None = None, place: str | None = None) -> _PieceBudget:
        return _PieceBudget(self, file, place)


class _PieceBudget:
    def __init__(self, module: ExpansionBudget, file: str | None, place: str | None) -> None:
        self.module, self.file, self.place = module, file, place
        self.traits = 0
        self.bytes = 0

    def add(self, trait: Trait | None) -> None:
        """Count one trait, or (``None``) one prototype reference followed (a cycle of references that
        adds no trait costs as much as traits)."""
        self.traits += 1
        self.bytes += len(trait.type) + len(trait.state) if trait is not None else 0
        self.module.left -= 1
        if self.module.left < 0:
            raise VassalFormatError(f"the module's prototypes expand to more than {MAX_MODULE_TRAITS:,} traits and "
                                    "prototype references in all", file=self.file, place=self.place,
                                    expected=f"at most {MAX_MODULE_TRAITS:,} traits once prototypes are expanded")
        if self.traits > MAX_PIECE_TRAITS or self.bytes > MAX_PIECE_BYTES:
            raise PieceTooLarge(f"the piece's prototypes expand to more than {MAX_PIECE_TRAITS} traits and "
                                f"prototype references or {MAX_PIECE_BYTES:,} bytes", file=self.file, place=self.place,
                                expected=f"at most {MAX_PIECE_TRAITS} traits and {MAX_PIECE_BYTES:,} bytes a piece")


class PieceTooLarge(VassalFormatError):
    """One piece expands beyond its budget (the piece is reported, the module read on)."""


class PrototypeCycle(VassalFormatError):
    """Prototypes nest deeper than :data:`MAX_PROTOTYPE_DEPTH` (the piece is reported, the module read on)."""


def expand_prototypes(piece: PieceDef, prototypes: dict[str, PieceDef], depth: int = 0,
                      budget: _PieceBudget | None = None) -> PieceDef:
    """The piece with every ``prototype;NAME`` replaced in place by that prototype's traits (its BasicPiece
    dropped) and comments (``cmt;``) dropped, as ``PieceCloner`` does (vassal-format.md 3.5). An undefined
    prototype stays as it is, as VASSAL keeps it; nesting deeper than :data:`MAX_PROTOTYPE_DEPTH` is refused,
    and so is an expansion beyond ``budget`` (by default one piece's: :class:`ExpansionBudget`), counted
    trait by trait as it grows."""
    budget = budget if budget is not None else ExpansionBudget().piece()
    out: list[Trait] = []
    _expand_into(out, piece, prototypes, depth, budget)
    return PieceDef([*out, piece.basic])


def _expand_into(out: list[Trait], piece: PieceDef, prototypes: dict[str, PieceDef], depth: int,
                 budget: _PieceBudget) -> None:
    if depth > MAX_PROTOTYPE_DEPTH:
        raise PrototypeCycle(f"prototypes nest more than {MAX_PROTOTYPE_DEPTH} deep (a cycle?)",
                             expected="acyclic prototypes")
    for t in piece.traits[:-1]:
        if t.id == "cmt;":
            continue
        proto = prototypes.get(t.type[len("prototype;"):].split(";", 1)[0]) if t.id == "prototype;" else None
        if proto is None:
            budget.add(t)
            out.append(t)
            continue
        budget.add(None)
        _expand_into(out, proto, prototypes, depth + 1, budget)


def _layers(traits: list[Trait]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Front and back image layers, bottom first: the BasicPiece image, then each Layer (innermost first)
    at its level (an inactive Layer, state < 0, shows nothing). The back flips the first Layer of one or two
    images: two images swap, one image is shown when hidden and hidden when shown (a "Flip" layer)."""
    basic = traits[-1].fields()
    front: list[str] = [basic[2]] if len(basic) > 2 and basic[2] else []
    back = list(front)
    flipped = False
    for t in reversed(traits[:-1]):
        if t.id != "emb2;":
            continue
        f = t.fields()
        images = sequence.decode(f[15], ",") if len(f) > 15 and f[15] else []
        try:
            value = sequence.java_int(t.state) if t.state else 1
        except ValueError:
            value = 1
        shown = images[value - 1] if 0 < value <= len(images) else ""
        other = shown
        if not flipped and len(images) in (1, 2):
            flipped = True
            if len(images) == 2:
                other = images[1] if value == 1 else images[0]
            else:
                other = "" if shown else images[0]
        if shown:
            front.append(shown)
        if other:
            back.append(other)
    return tuple(front), tuple(back)


def _side(props: dict[str, str], sides: list[str]) -> str | None:
    for value in props.values():
        if value in sides:
            return value
    return None


def _decode_slot(el: etree._Element, file: str) -> PieceDef:
    tokens = sequence.decode((el.text or "").strip(), "/")
    if len(tokens) < 3 or tokens[0] != "+":
        raise VassalFormatError("piece definition is not '+/null/TYPE/STATE'", file=file, place=element_path(el))
    return decode_piece(tokens[2], tokens[3] if len(tokens) > 3 else "", file=file, place=element_path(el))


def read_module(source: str | Path | ModuleSource) -> ImportedModule:
    """Everything :mod:`gazala_tools.vassal.importer` reads from a ``.vmod``, module folder or buildFile
    (or a module already opened, read within its own budget)."""
    src = source if isinstance(source, ModuleSource) else open_source(source)
    file = str(src.path)
    root = src.root()
    sides = _roster(root, file)
    mod = ImportedModule(root.get("name", ""), root.get("version", ""), [s for s in sides if s],
                         layouts_from_xml(src))
    members = src.member_names()
    extension = extension_of(root, members)
    if extension is not None:  # VASSAL opens it only with its module (issue 33): refused, saying what it extends
        raise GazalaError(f"this is {extension}, not a module: an extension adds pieces, maps and prototypes to "
                          "its module and VASSAL opens it only with that module", file=src.path,
                          expected="a VASSAL module (.vmod, or a module folder): import the module the extension "
                                   "extends")
    custom = custom_classes(root, members)
    if custom:  # the module's own Java: its components are kept verbatim (issue 33 item 5), said once
        mod.not_understood.append(f"buildFile: {custom.note()}")
    prototypes = _prototypes(root, file, mod)
    budget = ExpansionBudget()
    for index, el in enumerate(root.iter(PIECE_SLOT)):
        imported = _imported_piece(el, index, file, prototypes, budget, mod)
        if imported is not None:
            mod.pieces.append(imported)
    _stack_placements(root, mod)
    _save_placements(root, src, mod)
    return mod


def _roster(root: etree._Element, file: str) -> list[str]:
    """The sides the module's PlayerRoster lists (blank ones too), at most :data:`MAX_SIDES`."""
    sides = [str(e.text or "").strip() for e in root.iter("entry")
             if e.getparent() is not None and str(e.getparent().tag).endswith("PlayerRoster")]  # type: ignore[union-attr]
    if len(sides) > MAX_SIDES:  # a game folder takes no more (games.loader); refused before any side is used
        raise VassalFormatError(f"the module's PlayerRoster lists {len(sides):,} sides", file=file,
                                place="VASSAL.build.module.PlayerRoster", expected=f"at most {MAX_SIDES} sides")
    return sides


def _prototypes(root: etree._Element, file: str, mod: ImportedModule) -> dict[str, PieceDef]:
    """The module's prototypes by name (those that do not decode noted in ``mod``)."""
    prototypes: dict[str, PieceDef] = {}
    for el in root.iter(PROTOTYPE):
        try:
            prototypes[el.get("name", "")] = _decode_slot(el, file)
        except GazalaError as exc:
            mod.not_understood.append(f"{element_path(el)}: {exc.problem}")
    return prototypes


def _imported_piece(el: etree._Element, index: int, file: str, prototypes: dict[str, PieceDef],
                    budget: ExpansionBudget, mod: ImportedModule) -> ImportedPiece | None:
    """The piece of the ``index``-th PieceSlot, its prototypes expanded; None (noted in ``mod``)
    when it does not decode or expand."""
    try:
        piece = _decode_slot(el, file)
    except GazalaError as exc:
        mod.not_understood.append(f"{element_path(el)}: {exc.problem}")
        return None
    try:
        expanded = expand_prototypes(piece, prototypes, budget=budget.piece(file, element_path(el)))
    except (PieceTooLarge, PrototypeCycle) as exc:
        mod.not_understood.append(f"{element_path(el)}: {exc.problem}")
        return None
    traits = expanded.traits
    front, back = _layers(traits)
    gpid = el.get("gpid") or ""
    if len(gpid) > MAX_GPID or not gpid.isprintable():  # a gpid is a number (issue 31: 5,000 digits)
        raise VassalFormatError(f"gpid={gpid[:20]!r}{'...' if len(gpid) > 20 else ''} of {len(gpid):,} characters",
                                file=file, place=element_path(el),
                                expected=f"a gpid of at most {MAX_GPID} printable characters (VASSAL's are numbers)")
    return ImportedPiece(
        gpid=gpid, name=el.get("entryName") or expanded.name(), element=element_path(el), front=front,
        back=back, side=_side(expanded.properties(), mod.sides), traits=tuple(t.id for t in traits),
        verbatim=tuple(t.type for t in traits if t.id not in MODELLED_TRAITS),
        type=piece.type_string(), state=piece.state_string(), slot=index, text=el.text or "")


def _stack_placements(root: etree._Element, mod: ImportedModule) -> None:
    by_name = {lay.name: lay for lay in mod.layouts}
    for map_el in root.iter(*MAP_CLASSES):
        lay = by_name.get(map_el.get("mapName", ""))
        if lay is None:
            continue
        for st in map_el.iter(SETUP_STACK, DRAW_PILE):
            board = st.get("owningBoard") or None
            location = st.get("location") if st.get("useGridLocation") == "true" and st.tag == SETUP_STACK else None
            try:  # within the pixels a map may have (issue 31)
                x, y = (module_int(str(st.tag).rsplit(".", 1)[-1], k, st.get(k, "0")) for k in ("x", "y"))
            except ValueError as exc:
                mod.not_understood.append(f"{element_path(st)}: {exc}")
                continue
            for slot in st.iter(PIECE_SLOT):
                mod.placements.append(SetupPlacement(st.get("name", ""), slot.get("gpid") or "", slot.get("entryName", ""),
                                                lay.name, board, location, x, y))


def _save_placements(root: etree._Element, src: ModuleSource, mod: ImportedModule) -> None:
    """The pieces each predefined set-up's save puts on a map. A save named by several set-ups is read once;
    the saves are read within :data:`MAX_SETUP_COMMANDS` commands in all (a set-up past it is one line of
    ``not understood``, its save kept in the module)."""
    read: dict[str, list[tuple[str, str, str, str | None, str | None, int, int]] | str] = {}
    budget = MAX_SETUP_COMMANDS
    for el in root.iter(PREDEFINED_SETUP):
        name = el.get("file") or ""
        if el.get("useFile", "true") != "true" or el.get("isMenu") == "true" or not name:
            continue
        if name not in read:
            read[name], budget = _save_pieces(src, name, mod.layouts, budget)
        got = read[name]
        if isinstance(got, str):
            mod.not_understood.append(f"{element_path(el)}: {got}")
            continue
        for gpid, piece_name, map_id, board, location, x, y in got:
            mod.placements.append(SetupPlacement(el.get("name", ""), gpid, piece_name, map_id, board, location, x, y, name))


def _save_pieces(src: ModuleSource, name: str, layouts: list[MapLayout], budget: int,
                 ) -> tuple[list[tuple[str, str, str, str | None, str | None, int, int]] | str, int]:
    """(gpid, name, map, board, location, x, y) of each piece the set-up save ``name`` puts on a map, or why
    it was not read; and the commands left to read."""
    try:
        container = read_container(src.read_member(name, MAX_SETUP_BYTES), name=f"{src.path}!{name}")
        commands = container.text.count(sequence.ESC) + 1  # at least the save's commands, counted before they are parsed
        if commands > budget:
            return (f"its save {name} was not read: the import reads at most {MAX_SETUP_COMMANDS:,} commands of "
                    f"set-up saves in all, and this module's set-ups hold more (the save stays in the module; "
                    f"`gazala vsav dump` reads it)"), budget
        save = read_save(container)
        locate_pieces(save.position, layouts, file=name)
    except GazalaError as exc:
        return exc.problem, budget
    out = []
    for piece in save.position.pieces.values():
        if piece.map is None:
            continue
        basic = piece.states[-1].split(";") if piece.states else []  # BasicPiece state: map;x;y;gpid;...
        out.append((basic[3] if len(basic) > 3 else "", piece.name, piece.map, piece.board, piece.location,
                    piece.x, piece.y))
    return out, budget - commands

