"""``gazala module lint``: the problems a VASSAL module has, found without the engine (docs/module.md).

Read-only and safe: the module is read through :mod:`gazala_tools.inputs` (capped zip members, XML
without DTDs), images by their headers only. Each :class:`LintFinding` names the element by its path in
the buildFile (``VASSAL.build.module.Map[name=Main Map]/.../PieceSlot[entryName=X]``) and says what to do.

Lint agrees with VASSAL 3.7.26 (issue 33): an **error** is what the engine itself complains about (on
load, when a new game starts or a set-up opens, when it draws what the palette or a new game shows); a
**warning** is what it passes over without a word but players meet, saying what VASSAL does.

Checks: images named but missing (outside the engine's own ``images/``, ``engine_images.json``),
missing or duplicate gpids, piece definitions that do not parse or name unknown traits, prototypes named
but missing, at-start stacks (in a map's sub-folders too) placed as ``SetupStack`` places them and
set-up saves whose pieces stand off every board or on a map the module lacks (a chart window's map
widget is a map), grids that do not fit their board image, hex numberings that give two hexes one
name, set-up saves that are missing or cannot be read, a buildFile entry VASSAL would not find, an
extension given as a module, and the module's own Java classes (said once).
"""

from __future__ import annotations

import json
import math
import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import asdict, dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from lxml import etree

from gazala_tools.errors import GazalaError, VassalFormatError
from gazala_tools.hexgrid import HexGridGeometry, MapLayout, layout_with_boards, polygon_contains
from gazala_tools.inputs import sniff_image
from gazala_tools.numbering import Numbering
from gazala_tools.render.art import image_problem
from gazala_tools.render.svg import MAX_SVG_BYTES
from gazala_tools.squaregrid import SquareGridGeometry
from gazala_tools.vassal.buildfile import (
    ALL_MAP_CLASSES,
    HEXGRID,
    HEXNUM,
    PKG,
    SQNUM,
    SQUAREGRID,
    ZONE,
    ZONEDGRID,
    ModuleSource,
    layouts_from_xml,
    open_source,
)
from gazala_tools.vsav import Save, map_identifiers, read_save, sequence
from gazala_tools.vsav.traits import Trait, decode_piece

__all__ = [
    "BOARD",
    "DRAW_PILE",
    "FILENAME_IMAGE",
    "FOLDERS",
    "GAME_PIECE_IMAGE",
    "GRIDS",
    "IMAGE_ATTRS",
    "IMAGE_HEAD_BYTES",
    "KNOWN_TRAITS",
    "MAX_LINT_BYTES",
    "MAX_NAMED_HEXES",
    "MAX_SETUP_BYTES",
    "MAX_SETUP_TOTAL",
    "MODULE_EXTENSION",
    "PIECE_IMAGE_USES",
    "PIECE_SLOT",
    "PIECE_WINDOW",
    "PREDEFINED_SETUP",
    "PROTOTYPE",
    "REGION",
    "REGIONGRID",
    "SETUP_STACK",
    "CustomClasses",
    "LintFinding",
    "LintResult",
    "custom_classes",
    "element_path",
    "engine_classes",
    "engine_images",
    "extension_of",
    "iter_lines",
    "lint_module",
]

#: bytes read from a set-up save inside a module
MAX_SETUP_BYTES = 64 * 1024 * 1024
#: set-up save bytes lint reads in all (a save of 70,000 commands takes seconds to replay): the saves past
#: it are counted in one warning, not read
MAX_SETUP_TOTAL = 12 * 1024 * 1024
#: bytes read from a zipped module in all (the buildFile, image headers and the set-up saves)
MAX_LINT_BYTES = 1024 * 1024 * 1024
#: a gpid VASSAL's GpIdChecker reads: a decimal Java int (issue 31: '²' and 5,000 digits were internal errors)
_JAVA_GPID = re.compile(r"[0-9]{1,10}")
#: hexes named per board when looking for duplicate names (beyond this the board is sampled no further)
MAX_NAMED_HEXES = 250_000

PIECE_SLOT = "VASSAL.build.widget.PieceSlot"
MODULE_EXTENSION = "VASSAL.build.module.ModuleExtension"
PROTOTYPE = "VASSAL.build.module.PrototypeDefinition"
PIECE_WINDOW = "VASSAL.build.module.PieceWindow"
SETUP_STACK = "VASSAL.build.module.map.SetupStack"
DRAW_PILE = "VASSAL.build.module.map.DrawPile"
PREDEFINED_SETUP = "VASSAL.build.module.PredefinedSetup"
GAME_PIECE_IMAGE = "VASSAL.build.module.gamepieceimage.GamePieceImage"
BOARD = f"{PKG}.Board"
REGIONGRID = f"{PKG}.board.RegionGrid"
REGION = f"{PKG}.board.Region"
GRIDS = (HEXGRID, SQUAREGRID, REGIONGRID, ZONEDGRID)
FOLDERS = ("VASSAL.build.module.folder.MapSubFolder",)

#: trait ids the 3.7 engine knows (vassal-format.md 3.2); any other is replaced by an empty Marker
KNOWN_TRAITS = frozenset(
    ["piece;", "stack", "deck;", "emb2;", "emb;", "mark;", "label;", "rotate;", "delete;", "clone;", "report;", "prototype;", "immob;", "hide;", "obs;", "propertysheet;", "PROP;", "restrict;", "return;", "sendto;", "macro;", "globalkey;", "footprint;", "table;", "pivot;", "nonRect;", "nonRect2;", "locmsg;", "placemark;", "replace;", "markmoved;", "submenu;", "menuSeparator;", "translate;", "AreaOfEffect;", "calcProp;", "setprop;", "setpieceprop;", "hideCmd;", "playSound;", "button;", "globalhotkey;", "deselect;", "mat;", "matPiece;", "basicName;", "border;", "attach;", "locCommand;", "cmt;"]
)
#: bytes of a raster image read to check it can be drawn (its header; ``render.art.image_problem``)
IMAGE_HEAD_BYTES = 262144
#: the uses of an image by a piece (its BasicPiece image, a layer, a mask) that lint checks can be drawn
PIECE_IMAGE_USES = frozenset({"piece", "layer", "mask", "mask display"})
#: attributes that name an image in ``images/`` (any element), and the elements whose ``fileName`` is one
IMAGE_ATTRS = frozenset({"image", "icon", "buttonIcon", "iconName", "markUnmovedIcon", "inIconName",
                         "pickIconName", "outIconName", "reportIcon", "nextIcon", "prevIcon"})
FILENAME_IMAGE = ("VASSAL.build.module.documentation.AboutScreen", "VASSAL.build.widget.Chart")


@dataclass(frozen=True)
class LintFinding:
    """One problem: ``level`` is ``error`` (the engine fails or players meet a broken piece) or
    ``warning``; ``element`` is the path in the buildFile (or the save entry)."""

    level: str
    check: str
    element: str
    problem: str
    fix: str

    def line(self) -> str:
        return f"{self.level}: [{self.check}] {self.element}: {self.problem} -> {self.fix}"


@dataclass
class LintResult:
    file: str
    findings: list[LintFinding] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)

    @property
    def errors(self) -> int:
        return sum(1 for f in self.findings if f.level == "error")

    @property
    def warnings(self) -> int:
        return sum(1 for f in self.findings if f.level == "warning")

    def as_dict(self) -> dict[str, Any]:
        return {"file": self.file, "errors": self.errors, "warnings": self.warnings, "counts": self.counts,
                "findings": [asdict(f) for f in self.findings]}


@cache
def engine_classes() -> frozenset[str]:
    """The classes of VASSAL 3.7.26's own jar (top-level, under ``VASSAL.``): an element naming another is
    the module's own Java."""
    data = json.loads(resources.files("gazala_tools.vassal").joinpath("engine_classes.json").read_text("utf-8"))
    return frozenset(data["classes"])


@dataclass(frozen=True)
class CustomClasses:
    """The classes a buildFile names that VASSAL 3.7.26 does not have: ``present`` are in the module as
    ``.class`` files (VASSAL loads them from it), ``absent`` are not (VASSAL drops those components with a
    "failed to load class" error); ``elements`` counts the elements that name them."""

    present: tuple[str, ...]
    absent: tuple[str, ...]
    elements: int
    class_files: int

    def __bool__(self) -> bool:
        return bool(self.present or self.absent)

    def note(self) -> str:
        """One sentence for lint and import: a rebuild needs the module's own classes."""
        names = [*self.present, *self.absent]
        shown = ", ".join(names[:5]) + (f" and {len(names) - 5} more" if len(names) > 5 else "")
        return (f"the buildFile names {len(names)} class(es) that are not VASSAL 3.7.26's ({shown}; "
                f"{self.elements} element(s)): the module's own Java ({self.class_files} .class file(s) in it). "
                "Those components are kept verbatim and not checked inside; a rebuild needs the module's own classes")


def custom_classes(root: etree._Element, members: Iterable[str]) -> CustomClasses:
    """The module's own classes its buildFile names (an element tag with a dot that is no class of the
    engine's jar: ``entry``, ``option``, ``setup`` children are not classes)."""
    known = engine_classes()
    named: dict[str, int] = defaultdict(int)
    for el in root.iter():
        tag = el.tag
        if isinstance(tag, str) and "." in tag and tag not in known and el is not root:
            named[tag] += 1
    files = {m[:-len(".class")].replace("/", ".") for m in members if m.endswith(".class")}
    present = tuple(sorted(c for c in named if c in files))
    absent = tuple(sorted(c for c in named if c not in files))
    return CustomClasses(present, absent, sum(named.values()), len(files))


def extension_of(root: etree._Element, members: Iterable[str]) -> str | None:
    """What a VASSAL extension given as a module is ("a VASSAL extension (version 0.99a) of module 'VASL'
    6.7.3"), or None for a module. ``GameModule.build`` says "Not a VASSAL module" of an archive holding
    ``extensiondata``; an extension's buildFile is a ``ModuleExtension``."""
    if root.tag != MODULE_EXTENSION and "extensiondata" not in members:
        return None
    own = root.get("version") or ""
    of = ("any module" if root.get("anyModule") == "true" else
          f"module {root.get('module') or '?'!r}" + (f" {root.get('moduleVersion')}" if root.get("moduleVersion") else ""))
    return f"a VASSAL extension{f' (version {own})' if own else ''} of {of}"


@cache
def engine_images() -> frozenset[str]:
    """The image names VASSAL 3.7.26 finds in its own jar (``images/`` entries)."""
    data = json.loads(resources.files("gazala_tools.vassal").joinpath("engine_images.json").read_text("utf-8"))
    return frozenset(data["images"])


def _short(tag: str) -> str:
    return tag.rsplit(".", 1)[-1]


def element_path(el: etree._Element) -> str:
    """The element's path from the module root: each step its class name and its name attribute."""
    steps: list[str] = []
    node: etree._Element | None = el
    while node is not None and node.getparent() is not None:
        tag = str(node.tag)
        name = next((node.get(k) for k in ("mapName", "name", "entryName", "title") if node.get(k)), None)
        if name is None and tag == PIECE_SLOT:
            name = node.get("gpid")
        steps.append(f"{tag}[{_name_key(node)}={name}]" if name is not None else tag)
        node = node.getparent()
    return "/".join(reversed(steps)) or str(el.tag)


def _name_key(el: etree._Element) -> str:
    return next((k for k in ("mapName", "name", "entryName", "title", "gpid") if el.get(k)), "name")


class _Linter:
    def __init__(self, src: ModuleSource) -> None:
        self.src = src
        self.file = str(src.path)
        self.findings: list[LintFinding] = []
        self.members = src.member_names()
        self.images = {m[len("images/"):] for m in self.members if m.startswith("images/")}
        self.images_folded = {n.casefold(): n for n in sorted(self.images)}
        self.counts: dict[str, int] = defaultdict(int)
        #: each image of images/ a piece shows -> (what shows it, where the first user is, how many use it)
        self.piece_images: dict[str, tuple[str, str | Callable[[], str], int]] = {}

    def add(self, level: str, check: str, element: str | Callable[[], str], problem: str, fix: str) -> None:
        """A finding; ``element`` may be a function giving the path (computed only when there is one)."""
        self.findings.append(LintFinding(level, check, element if isinstance(element, str) else element(), problem, fix))

    # --- the checks ------------------------------------------------------------------------------
    def run(self) -> LintResult:
        root = self.src.root()  # parsed once: layouts_from_xml below reads the same tree
        self._build_entry(root)
        self.custom = custom_classes(root, self.members)
        self.unknown_traits: dict[str, int] = defaultdict(int)
        self._classes()
        self.generated = {el.get("name", "") for el in root.iter(GAME_PIECE_IMAGE)}
        self.prototypes = {el.get("name", "") for el in root.iter(PROTOTYPE)}
        self._element_images(root)
        self._pieces(root)
        self._gpids(root)
        try:
            layouts = layouts_from_xml(self.src, ALL_MAP_CLASSES)
        except VassalFormatError as exc:
            self.add("error", "grid", exc.place or "buildFile", exc.problem, "fix the grid's attributes in the editor")
            layouts = []
        self._boards(root)
        self._setup_stacks(root, layouts)
        self._setup_saves(root, layouts)
        self._undrawable_images()
        if self.custom and self.unknown_traits:
            ids = ", ".join(repr(t) for t in sorted(self.unknown_traits)[:8])
            self.add("warning", "classes", _short(str(root.tag)),
                     f"{sum(self.unknown_traits.values())} trait(s) of ids VASSAL 3.7.26 does not define ({ids}): "
                     "the module's own classes define them (without those classes VASSAL replaces each by an "
                     "empty Marker)", "keep the module's own classes with it")
        return LintResult(self.file, sorted(self.findings, key=lambda f: (f.level != "error", f.check, f.element)),
                          dict(sorted(self.counts.items())))

    def _image(self, name: str, where: str | Callable[[], str], what: str, level: str = "error", why: str = "") -> None:
        """A named image the module must hold. An error where the engine draws it when a game starts or the
        palette shows (it reports "Image not found"); ``level`` warning with ``why`` where it is drawn only
        later, or never (a hidden palette, a layer level the piece is not at, a prototype's layer)."""
        if not name.strip() or "$" in name:  # blank (ScaledImagePainter: no image), or computed when the game runs
            return
        self.counts["image references"] += 1
        bare = name[len("/images/"):] if name.startswith("/images/") else name
        if name in self.images or name in self.generated or bare in engine_images():
            if name in self.images and what in PIECE_IMAGE_USES:  # checked once it is known who shows it
                first = self.piece_images.get(name)
                self.piece_images[name] = (what, where, 1) if first is None else (first[0], first[1], first[2] + 1)
            return
        if level == "warning" and not why:
            why = "in a hidden palette: the engine loads it quietly, a piece placed from it shows no image"
        other = self.images_folded.get(name.casefold())
        self.add(level, "image", where, f"{what} image {name!r} is not in the module's images/"
                 + (f" ({why})" if why else "") + (f"; it has {other!r}: names in a module are case-sensitive"
                                                   if other else ""),
                 f"rename the image or the reference to {other!r}" if other else
                 f"add images/{name} to the module, or pick an image the module has")

    def _read_image(self, name: str) -> bytes | None:
        """A module member an image (or an SVG's reference) reads, None when there is none."""
        if not self.src.has_member(name):
            return None
        return self.src.read_member(name, MAX_SVG_BYTES)

    def _undrawable_images(self) -> None:
        """Every image a piece shows that cannot be drawn (issue 33 item 2): its bytes are no PNG, GIF, JPEG or
        SVG, or it is too large, truncated or an SVG that reads outside the module (``render.art.image_problem``,
        nothing decoded). A warning with the piece that shows it: VASSAL loads the module and draws no image
        there (its error log names the file); ``game import`` keeps it and sheets draw a placeholder."""
        for name, (what, where, users) in self.piece_images.items():
            member = f"images/{name}"
            got = self.src.member_head(member, IMAGE_HEAD_BYTES)
            if got is not None and sniff_image(got[0]) in ("PNG", "GIF", "JPEG"):  # its header and size suffice
                head = got[0]

                def header(_name: str, head: bytes = head) -> bytes:
                    return head

                reason = image_problem(member, header, draw=False, file_size=got[1])
            else:
                reason = image_problem(member, self._read_image, draw=False)
            self.counts["piece images checked"] += 1
            if reason is None:
                continue
            others = f" (named {users} times by the module's pieces)" if users > 1 else ""
            self.add("warning", "image", where,
                     f"{what} image {name!r} cannot be drawn: {reason}{others}; VASSAL shows no image there",
                     f"save images/{name} again as PNG, JPEG, GIF or a self-contained SVG")

    def _element_images(self, root: etree._Element) -> None:
        for el in root.iter():
            if not isinstance(el.tag, str):
                continue
            for key, value in el.attrib.items():
                key = str(key)
                if key in IMAGE_ATTRS or (key == "fileName" and el.tag in FILENAME_IMAGE):
                    self._image(str(value), element_path(el), f"{key}")
            if el.tag == "option" and str(el.get("name", "")).endswith("Icon") and el.text:
                self._image(el.text.strip(), element_path(el), f"option {el.get('name')}")

    def _pieces(self, root: etree._Element) -> None:
        for el in root.iter(PIECE_SLOT, PROTOTYPE):
            where = _lazy_path(el)
            self.counts["piece slots" if el.tag == PIECE_SLOT else "prototypes"] += 1
            text = (el.text or "").strip()
            try:
                tokens = sequence.decode(text, "/")
                if len(tokens) < 3 or tokens[0] != "+":
                    raise VassalFormatError(f"definition starts {text[:30]!r}", expected="'+/null/TYPE/STATE'")
                piece = decode_piece(tokens[2], tokens[3] if len(tokens) > 3 else "", file=self.file)
            except (GazalaError, ValueError, IndexError) as exc:
                problem = exc.problem if isinstance(exc, GazalaError) else str(exc)
                self.add("error", "piece", where, f"the piece definition does not parse: {problem}",
                         "open the piece in the editor and save it again, or rebuild the slot")
                continue
            hidden = any(a.tag == PIECE_WINDOW and a.get("hidden") == "true" for a in el.iterancestors())
            for trait in piece.traits:
                self._trait(trait, where, "warning" if hidden else "error", prototype=el.tag == PROTOTYPE)

    def _build_entry(self, root: etree._Element) -> None:
        """``GameModule.build``: an archive with ``extensiondata`` (or an extension's buildFile) is an
        extension, which VASSAL opens only with its module ("Not a VASSAL module"). VASSAL reads ``buildFile``
        when ``moduledata``'s VassalVersion (major.minor, Maven's reading: a version it cannot read is 0.0)
        is below 3.5, else ``buildFile.xml``; a module without that entry does not load ("Could not find
        buildFile in module file")."""
        ext = extension_of(root, self.members)
        if ext is not None:
            self.add("error", "module", "extensiondata" if "extensiondata" in self.members else _short(str(root.tag)),
                     f"this is {ext}, not a module: VASSAL says \"Not a VASSAL module\" and opens it only with its "
                     "module, whose prototypes, images and maps it may use", "load it with its module, or lint the module")
            return
        if self.src.buildfile_name not in self.members or "moduledata" not in self.members:
            return  # a bare buildFile, or no moduledata (VASSAL then reads the entry there is)
        try:
            meta = etree.fromstring(self.src.read_member("moduledata", 1 << 20),
                                    etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False))
        except (etree.XMLSyntaxError, GazalaError, ValueError):
            return
        found = meta.find("VassalVersion")
        version = (found.text or "").strip() if found is not None else ""
        if not version:
            return  # VASSAL takes its own version: buildFile.xml
        m = re.fullmatch(r"(\d+)(?:\.(\d+))?(?:\.\d+)?(?:-.*)?", version)
        major, minor = (int(m.group(1)), int(m.group(2) or 0)) if m else (0, 0)
        wanted = "buildFile" if (major, minor) < (3, 5) else "buildFile.xml"
        if wanted not in self.members:
            self.add("error", "module", "moduledata",
                     f"moduledata says VassalVersion {version!r} (read as {major}.{minor}), so VASSAL reads {wanted}, "
                     f"which the module lacks (it has {self.src.buildfile_name}): VASSAL says \"Could not find "
                     "buildFile in module file\" and does not load it",
                     f"set moduledata's VassalVersion to the VASSAL version that saved {self.src.buildfile_name}")

    def _classes(self) -> None:
        """The module's own Java, said once; a class neither VASSAL nor the module has is an error
        (``Builder.create``: "failed to load class", the element and its subtree are dropped)."""
        if not self.custom:
            return
        self.counts["custom classes"] = len(self.custom.present) + len(self.custom.absent)
        self.add("warning", "classes", "buildFile", self.custom.note(),
                 "rebuild and play the module with its own classes (they are kept with its files)")
        for name in self.custom.absent:
            self.add("error", "classes", name,
                     f"class {name!r} is neither VASSAL 3.7.26's nor in the module (no {name.replace('.', '/')}.class): "
                     "VASSAL reports it cannot load the class and drops the component with everything in it",
                     "add the module's compiled classes to it, or remove the component")

    def _trait(self, t: Trait, where: str | Callable[[], str], image_level: str, prototype: bool = False) -> None:
        """One trait of a piece slot, set-up piece or prototype (``prototype``: its images are drawn only on
        the pieces that use it, when they show them)."""
        if t.id not in KNOWN_TRAITS and self.custom:
            self.unknown_traits[t.id[:40]] += 1  # the module's own classes define it: said once
            return
        if t.id not in KNOWN_TRAITS:
            self.add("warning", "piece", where, f"unknown trait {t.id[:40]!r} (the engine replaces it by an empty Marker)",
                     "remove the trait, or load the module with the extension that defines it")
            return
        try:
            f = t.fields()
        except ValueError:
            return
        later = "shown only on the pieces that use this prototype: VASSAL reports \"Image not found\" when one shows it"
        if t.id == "piece;" and len(f) > 2:
            self._image(f[2], where, "piece", "warning" if prototype else image_level, later if prototype else "")
        elif t.id in ("emb2;", "emb;") and len(f) > 15:
            try:
                value = sequence.java_int(t.state) if t.state.strip() else 1
            except ValueError:
                value = 1
            for level, name in enumerate(sequence.decode(f[15], ","), 1):
                if prototype:
                    self._image(name, where, "layer", "warning", later)
                elif level == value or image_level == "warning":
                    self._image(name, where, "layer", image_level)
                else:
                    self._image(name, where, "layer", "warning",
                                f"layer level {level}, which the piece does not start at: VASSAL reports "
                                "\"Image not found\" when the piece reaches it")
        elif t.id == "obs;" and len(f) > 1:
            masked = "shown while the piece is masked: VASSAL reports \"Image not found\" then"
            self._image(f[1], where, "mask", "warning", masked if image_level == "error" else "")
            if len(f) > 3 and f[3].startswith("G"):
                self._image(f[3][1:], where, "mask display", "warning", masked if image_level == "error" else "")
        elif t.id == "prototype;":
            name = f[0] if f else ""
            self.counts["prototype references"] += 1
            if name and "$" not in name and name not in self.prototypes:
                self.add("warning", "prototype", where,
                         f"prototype {name!r} is not defined (VASSAL leaves its traits out without a word)",
                         f"define a prototype named {name!r}, or change the trait to one of the module's prototypes")

    def _gpids(self, root: etree._Element) -> None:
        """What the 3.7.26 player does with gpids (``PieceSlot.build``, ``GameModule.init``): a slot keeps the
        gpid it is given, an empty one too; only the editor renumbers missing and duplicate gpids
        (``GpIdChecker``, when it opens the module). So these are warnings: the game plays, and only
        *Refresh Counters* (which finds a piece's slot by its gpid) cannot tell the slots apart. A root
        ``nextPieceSlotId`` that is not an integer stops the load (``IllegalBuildException``): an error."""
        nxt_raw = (root.get("nextPieceSlotId") or "").strip()
        try:
            nxt = int(nxt_raw) if nxt_raw else 0
        except ValueError:
            self.add("error", "gpid", _short(str(root.tag)),
                     f"nextPieceSlotId={nxt_raw!r} is not an integer (VASSAL stops loading the module)",
                     "set nextPieceSlotId to a number above every gpid")
            nxt = 0
        seen: dict[str, list[etree._Element]] = defaultdict(list)
        missing: list[etree._Element] = []
        for el in root.iter(PIECE_SLOT):
            gpid = (el.get("gpid") or "").strip()
            if not gpid:
                missing.append(el)
                continue
            seen[gpid].append(el)
        for place in missing:
            self.add("warning", "gpid", element_path(place),
                     "the piece slot has no gpid (VASSAL plays it with an empty gpid; Refresh Counters cannot find "
                     "its pieces' slot, and the editor gives it the next free gpid when it opens the module)",
                     "open the module in the editor and save it, or give the slot a unique gpid")
        for gpid, slots in seen.items():
            for w in slots[1:]:
                self.add("warning", "gpid", element_path(w),
                         f"gpid {gpid!r} is also the gpid of {element_path(slots[0])} (VASSAL plays both; Refresh Counters "
                         "takes one slot for the other's pieces, and the editor renumbers one when it opens the module)",
                         "give each piece slot its own gpid")
        numeric = [int(g) for g in seen if _JAVA_GPID.fullmatch(g)]  # never int() of '²' or 5,000 digits
        for gpid, slots in seen.items():
            if not _JAVA_GPID.fullmatch(gpid.rsplit(":", 1)[-1]):
                shown = gpid if len(gpid) <= 20 else gpid[:17] + "..."
                self.add("warning", "gpid", element_path(slots[0]),
                         f"gpid {shown!r} is not a number (VASSAL plays the slot; the editor renumbers it when it "
                         "opens the module, and Refresh Counters cannot find its pieces' slot until then)",
                         "open the module in the editor and save it, or give the slot a numeric gpid")
        if numeric and nxt and max(numeric) >= nxt:
            self.add("warning", "gpid", _short(str(root.tag)),
                     f"nextPieceSlotId={nxt} is not above the largest gpid {max(numeric)}",
                     f"set nextPieceSlotId to {max(numeric) + 1}")

    def _boards(self, root: etree._Element) -> None:
        # BoardPicker.validate, which VASSAL runs on load (a WARN line): a map without a board, two boards of
        # one name in a map
        for map_el in root.iter(*ALL_MAP_CLASSES):
            names = [str(b.get("name", "")) for b in _map_boards(map_el)]
            label = map_el.get("mapName", "")
            own_picker = any(isinstance(c.tag, str) and c.tag.endswith("BoardPicker") and c.tag not in engine_classes()
                             for c in map_el)  # the module's own board picker makes its boards itself
            if not names and not own_picker:
                self.add("error", "board", element_path(map_el),
                         f"the map has no board (VASSAL warns on load: \"Must define at least one board in [{label}]\")",
                         "add a board to the map's board picker, or remove the map")
            for name in sorted({n for n in names if names.count(n) > 1}):
                self.add("error", "board", element_path(map_el),
                         f"two boards are named {name!r} (VASSAL warns on load: \"More than one board named "
                         f"'{name}'\"; a save's board layout names boards, so one of them is never laid out)",
                         "give each board of the map its own name")
        for el in root.iter(BOARD):
            self.counts["boards"] += 1
            image = el.get("image") or ""
            if not image:
                continue
            size = self.src.image_size(image) if image in self.images else None
            where = element_path(el)
            if size is None:
                if image in self.images:
                    self.add("warning", "board", where, f"board image {image!r} has no PNG, GIF or JPEG header",
                             "save the board image as PNG or JPEG")
                continue
            for grid_el in el:
                if isinstance(grid_el.tag, str) and grid_el.tag in (HEXGRID, SQUAREGRID, ZONEDGRID):
                    self._grid_fit(grid_el, size)

    def _grid_fit(self, el: etree._Element, size: tuple[int, int]) -> None:
        w, h = size
        where = element_path(el)
        if el.tag in (HEXGRID, SQUAREGRID):
            try:
                x0, y0 = int(el.get("x0", "0")), int(el.get("y0", "0"))
                dx, dy = float(el.get("dx", "1")), float(el.get("dy", "1"))
            except ValueError:
                return  # reported by the grid reader
            sideways = el.get("sideways", "false") == "true"
            ox, oy = (y0, x0) if sideways else (x0, y0)
            sx, sy = (dy, dx) if sideways else (dx, dy)
            if not (-sx <= ox <= w and -sy <= oy <= h):
                self.add("warning", "grid", where, f"the grid origin ({ox}, {oy}) lies outside its {w}x{h} board image "
                         "(VASSAL numbers the hexes from there without a word)",
                         "set the grid's x0/y0 inside the board image")
            if sx > w or sy > h:
                self.add("warning", "grid", where, f"one grid cell ({sx:g}x{sy:g}) is larger than its {w}x{h} board "
                         "image (VASSAL plays it without a word: the board holds less than one cell)",
                         "set the grid's dx/dy to the size of a cell on the image")
        for zone in el.iter(ZONE):
            pts = [p.split(",") for p in (zone.get("path") or "").split(";") if p]
            try:
                xs, ys = [int(p[0]) for p in pts], [int(p[1]) for p in pts]
            except (ValueError, IndexError):
                continue  # reported by the grid reader
            if xs and (min(xs) < 0 or min(ys) < 0 or max(xs) > w or max(ys) > h):
                self.add("warning", "grid", element_path(zone),
                         f"the zone reaches ({min(xs)},{min(ys)})-({max(xs)},{max(ys)}), outside its {w}x{h} board image",
                         "move the zone's points inside the board image")

    def _setup_stacks(self, root: etree._Element, layouts: list[MapLayout]) -> None:
        """Each at-start stack and deck of each map (a map's sub-folders hold them too; a chart window's map
        widget is a map), placed as ``SetupStack.setup`` places it when a new game starts."""
        maps = [el for el in root.iter(*ALL_MAP_CLASSES)]
        for map_el, lay in zip(maps, layouts, strict=False):
            boards = {str(b.get("name", "")): b for b in _map_boards(map_el)}
            for st in _own_stacks(map_el):
                self.counts["at-start stacks" if st.tag == SETUP_STACK else "decks"] += 1
                self._setup_stack(st, lay, boards)
        self._hex_names(layouts)

    def _setup_stack(self, st: etree._Element, lay: MapLayout, board_els: dict[str, etree._Element]) -> None:
        where = element_path(st)
        boards = {b.name: b for b in lay.all_boards}
        owning = st.get("owningBoard") or ""
        if owning and owning not in boards:
            # SetupStack.isOwningBoardActive: a stack whose board is not on the map is never placed (no message)
            self.add("warning", "setup", where, f"owning board {owning!r} is not a board of map {lay.name!r}: "
                     "VASSAL never places this stack", "pick one of the map's boards: " + ", ".join(repr(b) for b in boards))
            return
        # getConfigureBoard: the owning board, else the board a new game lays out, else the picker's first
        board = boards.get(owning) if owning else (lay.boards[0][0] if lay.boards else
                                                  (lay.all_boards[0] if lay.all_boards else None))
        try:
            x, y = int(st.get("x", "0") or 0), int(st.get("y", "0") or 0)
        except ValueError:
            self.add("error", "setup", where, "x/y are not integers (VASSAL drops the stack)", "set the stack's x and y")
            return
        grid_el = _grid_el(board_els.get(board.name)) if board is not None else None
        loc = st.get("location") or ""
        if st.get("useGridLocation", "false") == "true" and st.tag == SETUP_STACK and grid_el is not None and loc:
            try:
                x, y = _grid_location(grid_el, loc, board.width or 0, board.height or 0)  # type: ignore[union-attr]
            except _BadCoords:
                self.add("error", "setup", where,
                         f"grid location {loc!r} is not a location of board {board.name!r}'s grid "  # type: ignore[union-attr]
                         "(VASSAL reports a set-up position error when a game starts and puts the stack at its x/y)",
                         "name a location of the board's grid")
                return
        if board is not None and board.width is not None and board.height is not None \
                and not (0 <= x < board.width and 0 <= y < board.height):
            self.add("warning", "setup", where, f"({x}, {y}) is off board {board.name!r} ({board.width}x{board.height})",
                     "move the stack onto the board")

    def _hex_names(self, layouts: list[MapLayout]) -> None:
        done: set[int] = set()
        for lay in layouts:
            for board in lay.all_boards:
                grid = board.grid
                if id(board) in done or not isinstance(grid, HexGridGeometry) or grid.numbering is None:
                    continue
                done.add(id(board))
                if board.width is None or board.height is None:
                    continue
                dup = _duplicate_hex_name(grid, board.width, board.height)
                if dup is not None:
                    name, a, b = dup
                    self.add("warning", "numbering", f"map {lay.name!r} board {board.name!r}",
                             f"hexes at {a} and {b} are both named {name!r}",
                             "widen the numbering (hHexDigits/vHexDigits, a separator) so every hex has its own name")

    def _save_piece_images(self, traits: list[Trait], where: str, since: int, checked: set[tuple[str, str]]) -> None:
        """The images of a piece of a set-up save (players see these when the set-up opens): each missing
        image is reported once per save (findings from ``since`` on are this save's; ``checked``: the traits
        of this save already looked at, which would only repeat their findings)."""
        before = len(self.findings)
        for t in traits:
            if t.id in ("piece;", "emb2;", "emb;", "obs;") and (t.type, t.state) not in checked:
                checked.add((t.type, t.state))
                self._trait(t, where, "error")
        seen = {f.problem for f in self.findings[since:before]}
        fresh = []
        for f in self.findings[before:]:
            if f.problem not in seen:
                seen.add(f.problem)
                fresh.append(f)
        del self.findings[before:]
        self.findings.extend(fresh)

    def _setup_saves(self, root: etree._Element, layouts: list[MapLayout]) -> None:
        read_bytes, unread = 0, 0
        for el in root.iter(PREDEFINED_SETUP):
            if el.get("useFile", "true") != "true" or el.get("isMenu", "false") == "true":
                continue
            where = element_path(el)
            name = el.get("file") or ""
            if not name:  # a set-up without a file starts an empty game
                continue
            self.counts["set-up saves"] += 1
            if not self.src.has_member(name):
                self.add("error", "save", where, f"set-up file {name!r} is not in the module",
                         "add the save to the module, or point the set-up at a save it holds")
                continue
            if read_bytes >= MAX_SETUP_TOTAL:
                unread += 1
                continue
            try:
                data = self.src.read_member(name, MAX_SETUP_BYTES)
                read_bytes += len(data)
                save = read_save(data, name=f"{self.file}!{name}")
            except GazalaError as exc:
                self.add("error", "save", where, f"the set-up save cannot be read: {exc.problem}",
                         "save the set-up again from a game of this module")
                continue
            by_id = map_identifiers(layouts)
            placed_maps = self._setup_maps(save, by_id, where)
            self._setup_pieces(save, by_id, placed_maps, where)
        if unread:
            self.add("warning", "save", "buildFile",
                     f"{unread} set-up save(s) not read: lint reads {MAX_SETUP_TOTAL // 2**20} MB of set-up saves "
                     f"(it read {read_bytes:,} bytes)", "lint a copy of the module holding the other set-ups")

    def _setup_maps(self, save: Save, by_id: dict[str, MapLayout], where: str) -> dict[str, MapLayout | None]:
        """The module's maps the save names, with the boards the save places on them (None: the
        save's boards are not the map's, reported)."""
        placed_maps: dict[str, MapLayout | None] = {}
        for map_id, boards in save.position.boards.items():
            lay = by_id.get(map_id)
            if lay is None:
                continue
            try:
                placed_maps[map_id] = layout_with_boards(lay, boards) if boards else lay
            except VassalFormatError as exc:
                placed_maps[map_id] = None
                self.add("error", "save", where, f"map {map_id!r}: {exc.problem}",
                         "save the set-up again from a game of this module")
        return placed_maps

    def _setup_pieces(
        self, save: Save, by_id: dict[str, MapLayout], placed_maps: dict[str, MapLayout | None], where: str
    ) -> None:
        """The set-up's pieces: their images, and those off every board or on a map the module lacks."""
        reported = len(self.findings)
        checked: set[tuple[str, str]] = set()
        lost: dict[str, list[str]] = defaultdict(list)
        for piece in save.position.pieces.values():
            self._save_piece_images(piece.definition.traits, f"{where} piece {piece.name!r}", reported, checked)
            if piece.map is None:
                continue
            self.counts["set-up pieces"] += 1
            lay = by_id.get(piece.map)
            if lay is None:
                lost[piece.map].append(piece.name)
                continue
            placed = placed_maps.get(piece.map, lay)
            if placed is None:  # a board the module lacks: one finding above, not one per piece
                continue
            if placed.boards and placed.board_at(piece.x, piece.y) is None:
                self.add("warning", "save", f"{where} piece {piece.id}",
                         f"piece {piece.name!r} at ({piece.x}, {piece.y}) on map {piece.map!r} is off every board",
                         "move the piece onto a board and save the set-up again")
        for map_id, names in lost.items():  # one finding a map: VASSAL's "No such map", the pieces on no map
            shown = ", ".join(repr(n) for n in names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")
            self.add("error", "save", where,
                     f"{len(names)} piece(s) ({shown}) stand on map {map_id!r}, which the module has not "
                     "(VASSAL says \"No such map\" and leaves them on no map)",
                     "move the pieces to one of the module's maps and save the set-up again")


def _lazy_path(el: etree._Element) -> Callable[[], str]:
    """The element's path, computed when a finding needs it (a module of 10,000 slots has few findings)."""
    return cache(lambda: element_path(el))


def _map_boards(map_el: etree._Element) -> Iterator[etree._Element]:
    for picker in map_el:
        if picker.tag == "VASSAL.build.module.map.BoardPicker":
            yield from (b for b in picker if b.tag == BOARD)


def _own_stacks(map_el: etree._Element) -> Iterator[etree._Element]:
    """The at-start stacks and decks of a map, in its sub-folders too (``getNonFolderAncestor``), not those of
    a map nested in it."""
    for child in map_el:
        if not isinstance(child.tag, str) or child.tag in ALL_MAP_CLASSES:
            continue
        if child.tag in (SETUP_STACK, DRAW_PILE):
            yield child
        else:
            yield from _own_stacks(child)


def _grid_el(board_el: etree._Element | None) -> etree._Element | None:
    if board_el is None:
        return None
    return next((g for g in board_el if g.tag in GRIDS), None)


class _BadCoords(Exception):
    """``MapGrid.getLocation`` found no such location (VASSAL's ``BadCoords``)."""


def _attrs(el: etree._Element) -> dict[str, str]:
    return {str(k): str(v) for k, v in el.attrib.items()}


def _grid_location(el: etree._Element, name: str, w: int, h: int) -> tuple[int, int]:
    """``MapGrid.getLocation(name)`` of the grid element ``el`` on a ``w`` x ``h`` board, as VASSAL 3.7.26
    computes it for an at-start stack (``SetupStack.updatePosition``): a hex or square grid's numbering;
    a region grid's region of that name; a zoned grid's zones in order (a zone's ``locationFormat`` with
    ``$name$`` and ``$gridLocation$``, the point inside the zone), then its background grid, then a region
    of a zone's region grid (``ZonedGrid.getRegionLocation``)."""
    try:
        if el.tag == REGIONGRID:
            for region in el.iter(REGION):
                if region.get("name", "") == name:
                    return int(region.get("originx", "0")), int(region.get("originy", "0"))
            raise _BadCoords
        if el.tag == HEXGRID:
            num = next((n for n in el if n.tag == HEXNUM), None)
            if num is None:
                raise _BadCoords
            hexes = HexGridGeometry.from_vassal_attrs(_attrs(el), Numbering.from_vassal_attrs(_attrs(num)))
            return hexes.center_of_name(name, w, h)
        if el.tag == SQUAREGRID:
            sq_num = next((n for n in el if n.tag == SQNUM), None)
            if sq_num is None:
                raise _BadCoords
            return SquareGridGeometry.from_attrs(_attrs(el), _attrs(sq_num)).center_of_name(name, w, h)
    except (ValueError, KeyError, GazalaError):
        raise _BadCoords from None
    if el.tag != ZONEDGRID:
        raise _BadCoords
    background = next((g for g in el if g.tag in (HEXGRID, SQUAREGRID, REGIONGRID)), None)
    zones = [z for z in el if z.tag == ZONE]
    for zone in zones:
        try:
            return _zone_location(zone, name, background, w, h)
        except _BadCoords:
            continue
    if background is not None:
        try:
            return _grid_location(background, name, w, h)
        except _BadCoords:
            pass
    for zone in zones:  # getRegionLocation
        own = next((g for g in zone if g.tag == REGIONGRID), None)
        if own is not None:
            try:
                p = _grid_location(own, name, w, h)
            except _BadCoords:
                continue
            if _zone_contains(zone, p):
                return p
    raise _BadCoords


def _zone_points(zone: etree._Element) -> list[tuple[int, int]]:
    pts: list[tuple[int, int]] = []
    for pair in (zone.get("path") or "").split(";"):
        if pair:
            try:
                a, b = pair.split(",")
                pts.append((int(a), int(b)))
            except ValueError:
                raise _BadCoords from None
    return pts


def _zone_contains(zone: etree._Element, p: tuple[int, int]) -> bool:
    pts = _zone_points(zone)
    return polygon_contains([q[0] for q in pts], [q[1] for q in pts], p[0], p[1])


def _zone_location(zone: etree._Element, name: str, background: etree._Element | None, w: int, h: int) -> tuple[int, int]:
    """``Zone.getLocation``: the location format as a pattern (``$name$`` the zone's name, ``$gridLocation$``
    any text, named by the zone's grid), the point inside the zone; a format naming no grid location gives
    the mean of the zone's corners (its first corner when the mean lies outside)."""
    fmt = zone.get("locationFormat", "$name$")
    use_parent = (zone.get("useParentGrid", "false") or "").lower() == "true"
    grid = background if use_parent else next((g for g in zone if g.tag in (HEXGRID, SQUAREGRID, REGIONGRID)), None)
    tokens = sequence.decode(fmt, "$")
    pattern, groups, is_property = "", 0, True
    for i, token in enumerate(tokens):
        is_property = not is_property
        if not token:
            continue
        if not is_property or i == len(tokens) - 1:
            pattern += re.escape(token)
        elif token == "name":
            pattern += re.escape(zone.get("name", ""))
        elif token == "gridLocation" and grid is not None:
            pattern += "(.*)"
            groups += 1
    if not pattern:
        raise _BadCoords
    m = re.fullmatch(pattern, name, re.DOTALL)
    if m is None:
        raise _BadCoords
    if groups:
        pts = _zone_points(zone)
        zw, zh = (w, h) if use_parent or not pts else (max(p[0] for p in pts) - min(p[0] for p in pts),
                                                        max(p[1] for p in pts) - min(p[1] for p in pts))
        p = _grid_location(grid, m.group(groups), zw, zh)  # type: ignore[arg-type]
        if not _zone_contains(zone, p):
            raise _BadCoords
        return p
    pts = _zone_points(zone)
    if not pts:
        return 0, 0
    mx, my = int(sum(p[0] for p in pts) / len(pts)), int(sum(p[1] for p in pts) / len(pts))
    return (mx, my) if _zone_contains(zone, (mx, my)) else pts[0]


def _duplicate_hex_name(grid: HexGridGeometry, w: int, h: int) -> tuple[str, tuple[int, int], tuple[int, int]] | None:
    """Two hex centres on a ``w`` x ``h`` board that the numbering gives one name, if any."""
    seen: dict[str, tuple[int, int]] = {}
    u_span, v_span = (h, w) if grid.sideways else (w, h)
    cols = math.ceil((u_span - grid.x0) / grid.dx) + 1
    rows = math.ceil((v_span - grid.y0) / grid.dy) + 1
    if cols * rows > MAX_NAMED_HEXES:
        return None
    for c in range(-1, cols):
        for r in range(-1, rows):
            x, y = grid.raw_center(c, r)
            if not (0 <= x < w and 0 <= y < h):
                continue
            name = grid.name_at(x, y, w, h)
            if not name:
                continue
            if name in seen and seen[name] != (x, y):
                return name, seen[name], (x, y)
            seen[name] = (x, y)
    return None


def lint_module(source: str | Path) -> LintResult:
    """Lint a ``.vmod``, an unzipped module folder or a buildFile."""
    return _Linter(open_source(source, budget=MAX_LINT_BYTES)).run()


def iter_lines(result: LintResult) -> Iterator[str]:
    for f in result.findings:
        yield f.line()
