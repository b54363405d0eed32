"""SVG images as VASSAL draws them (with Batik), and no more: their declared size and a raster of them,
with cairosvg (issue 33 item 1, issue 31 item 2; docs/reliability.md "SVG art").

An SVG is untrusted input, read in three steps before cairo allocates anything:

1. **Parsed** by expat with strict limits: internal entity declarations (``<!ENTITY ns_svg
   "http://www.w3.org/2000/svg">``, as illustration programs export) are expanded within a count
   (:data:`MAX_ENTITIES`), a nesting (:data:`MAX_ENTITY_DEPTH`) and an expanded size (each entity
   :data:`MAX_ENTITY_BYTES`, the document :data:`MAX_EXPANDED_BYTES`, counted as the text comes out);
   external entities, parameter entities and external DTDs are never read (a billion-laughs or XXE
   document is one error line). Elements are counted and their nesting capped as they are parsed.
2. **Resolved inside its sandbox**: a reference to another file (``<use xlink:href="symbols.svg#s"/>``,
   ``<image href="flag.png">``, ``fill="url(defs.svg#g)"``, CSS ``@import``) is looked up relative to
   the SVG's own name through ``resolve`` (a module's members, or a game folder through
   :func:`gazala_tools.inputs.inside_folder`): the referenced element is copied into the document, an
   image is checked (format from its bytes, pixels from its header) and served to cairo from memory.
   An absolute path, a URL, a name that leaves the sandbox, a missing file or a cycle of files is
   refused: nothing outside is ever opened.
3. **Costed**: the elements cairo will draw once every ``<use>``, pattern, mask, clip path and marker
   is expanded (:data:`MAX_SVG_DRAWN`), the pixels of every surface it paints (the canvas, each group
   pushed for an opacity, filter or mask, each pattern tile, each embedded image:
   :data:`MAX_SVG_PAINT`) and those alive at once (:data:`MAX_LIVE_PIXELS`), checked against these
   caps and charged to the command's budget (:mod:`.budget`) **before** cairosvg is called. While
   cairo draws, the elements are counted again as they are drawn: a document that draws more than
   was counted stops.

Every failure is ``error`` (one line naming the file)."""

from __future__ import annotations

import base64
import contextlib
import contextvars
import copy
import hashlib
import io
import math
import posixpath
import re
import sys
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final
from urllib.parse import unquote, unquote_to_bytes, urlsplit
from xml.etree import ElementTree as ET
from xml.parsers import expat

from gazala_tools.errors import GazalaError
from gazala_tools.inputs import (
    MAX_IMAGE_PIXELS,
    check_pixels,
    check_plausible,
    image_header_size,
    open_image,
    sniff_image,
    svg_declared_size,
)
from gazala_tools.render.budget import current_budget

if TYPE_CHECKING:
    from PIL import Image

__all__ = [
    "EMPTY_SVG",
    "MAX_ARC_RADIUS",
    "MAX_CSS_IMPORTS",
    "MAX_DRAW_DEPTH",
    "MAX_ENTITIES",
    "MAX_ENTITY_BYTES",
    "MAX_ENTITY_DEPTH",
    "MAX_EXPANDED_BYTES",
    "MAX_LIVE_PIXELS",
    "MAX_SVG_BYTES",
    "MAX_SVG_DEPTH",
    "MAX_SVG_DRAWN",
    "MAX_SVG_ELEMENTS",
    "MAX_SVG_FILES",
    "MAX_SVG_PAINT",
    "RESOURCE_BASE",
    "SVG_NS",
    "XLINK_NS",
    "XML_NS",
    "DrawCost",
    "Prepared",
    "Resolver",
    "check_cost",
    "open_any_image",
    "prepare",
    "rasterise",
]

#: most bytes of one SVG file (a counter's art is a few KB; a board's a few MB)
MAX_SVG_BYTES: Final = 32 * 1024 * 1024
#: deepest element nesting parsed (illustration programs nest groups about 10 deep)
MAX_SVG_DEPTH: Final = 100
#: deepest nesting cairo walks, counting each ``<use>``, pattern, mask and marker it follows
MAX_DRAW_DEPTH: Final = 128
#: most elements parsed: the SVG and every file it pulls in
MAX_SVG_ELEMENTS: Final = 50_000
#: most elements drawn once references are expanded (cairosvg draws about 8,000 a second)
MAX_SVG_DRAWN: Final = 20_000
#: most pixels painted in all: the canvas, every pushed group, pattern tile and embedded image
MAX_SVG_PAINT: Final = 256_000_000
#: most pixels alive at once: the canvas, the nested groups and a pattern tile (4 bytes each)
MAX_LIVE_PIXELS: Final = 64_000_000
#: the largest radius of an arc on the device (a circle of radius 1e308 never ends in cairo; 1e18: 1.2 s)
MAX_ARC_RADIUS: Final = 1_000_000
#: most other files one SVG may pull in
MAX_SVG_FILES: Final = 32
#: entity declarations: count, nesting, expanded bytes of one entity, bytes added to the document in all
MAX_ENTITIES: Final = 256
MAX_ENTITY_DEPTH: Final = 8
MAX_ENTITY_BYTES: Final = 64 * 1024
MAX_EXPANDED_BYTES: Final = 4 * 1024 * 1024
#: nesting of CSS ``@import`` followed
MAX_CSS_IMPORTS: Final = 4

SVG_NS: Final = "http://www.w3.org/2000/svg"
XLINK_NS: Final = "http://www.w3.org/1999/xlink"
XML_NS: Final = "http://www.w3.org/XML/1998/namespace"
_HREFS: Final = (f"{{{XLINK_NS}}}href", "href")
#: where resources resolved in the sandbox are served to cairosvg from (never a real address)
RESOURCE_BASE: Final = "http://resource.gazala.invalid/"
#: an empty document, served for anything cairosvg asks that was not resolved (nothing is drawn)
EMPTY_SVG: Final = b'<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>'

#: elements whose href names a whole image file
_IMAGE_TAGS: Final = frozenset({"image", "feImage"})
#: elements whose href names an element cairo follows (copied in when it is in another file)
_FRAGMENT_TAGS: Final = frozenset({"use", "tref", "pattern", "linearGradient", "radialGradient", "filter",
                                   "textPath", "mpath", "altGlyph", "glyphRef", "mask", "clipPath", "marker"})
#: elements not drawn where they stand (drawn where referenced)
_NOT_DRAWN: Final = frozenset({"defs", "symbol", "pattern", "mask", "clipPath", "marker", "linearGradient",
                               "radialGradient", "filter", "style", "title", "desc", "metadata", "script", "font",
                               "font-face", "glyph", "missing-glyph", "cursor", "view", "color-profile"})
_MARKED: Final = frozenset({"path", "line", "polyline", "polygon"})
_URL = re.compile(r"url\(\s*(['\"]?)([^'\")]*)\1\s*\)")
_IMPORT = re.compile(r"@import\s+(?:url\(\s*(['\"]?)([^'\")]*)\1\s*\)|(['\"])([^'\"]*)\3)[^;]*;?", re.I)
_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_ENTITY_REF = re.compile(rb"&([A-Za-z_:][-A-Za-z0-9._:]*);")

#: ``resolve(name)``: the bytes of the file ``name`` (a path relative to the sandbox's root, ``/``-separated,
#: never leaving it), None when there is none; refusing (``GazalaError``) what the sandbox refuses
Resolver = Callable[[str], "bytes | None"]


class _Refused(Exception):
    """A limit or rule broken while parsing (expat handlers cannot raise GazalaError through the parser)."""


def _local(tag: object) -> str:
    text = str(tag)
    return text.rsplit("}", 1)[-1]


# --- 1. parsing ------------------------------------------------------------------------------------
def _entity_handler(decls: dict[str, str]) -> Callable[..., None]:
    def entity(name: str, is_parameter: int, value: str | None, base: object, system_id: str | None,
               public_id: str | None, notation: str | None) -> None:
        if is_parameter:
            raise _Refused(f"declares the parameter entity %{name}; (refused: no DTD is processed)")
        if value is None or notation:
            raise _Refused(f"declares the external entity &{name}; (refused: nothing outside the image is read)")
        if len(decls) >= MAX_ENTITIES:
            raise _Refused(f"declares more than {MAX_ENTITIES} entities")
        decls.setdefault(name, value)

    return entity


def _refuse_unparsed(*_a: object) -> None:
    raise _Refused("declares an unparsed external entity (refused: nothing outside the image is read)")


def _declarations(data: bytes) -> dict[str, str]:
    """The internal general entities the prolog declares (the parse stops at the root element)."""
    decls: dict[str, str] = {}

    class _Stop(Exception):
        pass

    def root(*_a: object) -> None:
        raise _Stop

    p = expat.ParserCreate()
    p.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    p.EntityDeclHandler = _entity_handler(decls)
    p.UnparsedEntityDeclHandler = _refuse_unparsed
    p.StartElementHandler = root
    with contextlib.suppress(_Stop, expat.ExpatError, ValueError, LookupError, UnicodeError):
        p.Parse(data, True)
    return decls


def _check_expansion(data: bytes, decls: dict[str, str]) -> None:
    """Refuse entities that nest too deep, refer to themselves or expand beyond the caps, before expat
    expands any (a billion-laughs document declares ten entities of ten references each)."""
    if data[:2] in (b"\xff\xfe", b"\xfe\xff") or data[:1] == b"\x00" or data[1:2] == b"\x00":
        raise _Refused("declares entities in a UTF-16 or UTF-32 document (entities are read in UTF-8 documents only)")
    sizes: dict[str, int] = {}

    def size(name: str, stack: tuple[str, ...]) -> int:
        if name in sizes:
            return sizes[name]
        if name in stack:
            raise _Refused(f"entity &{name}; refers to itself")
        if len(stack) >= MAX_ENTITY_DEPTH:
            raise _Refused(f"entities nest more than {MAX_ENTITY_DEPTH} deep")
        raw = decls[name].encode("utf-8", "surrogatepass")
        n = len(raw)
        for m in _ENTITY_REF.finditer(raw):
            ref = m.group(1).decode()
            if ref in decls:
                n += size(ref, (*stack, name)) - len(m.group(0))
            if n > MAX_ENTITY_BYTES:
                raise _Refused(f"entity &{name}; expands to more than {MAX_ENTITY_BYTES:,} bytes (an entity bomb)")
        sizes[name] = n
        return n

    total = 0
    for name in decls:
        size(name, ())
    for m in _ENTITY_REF.finditer(data):
        total += sizes.get(m.group(1).decode(), 0)
        if total > MAX_EXPANDED_BYTES:
            raise _Refused(f"its entities expand to more than {MAX_EXPANDED_BYTES:,} bytes (an entity bomb)")


@dataclass
class _Count:
    """Elements parsed so far (the SVG and the files it pulls in share one count)."""

    elements: int = 0


def _parse(data: bytes, count: _Count) -> ET.Element:
    """The document as an ElementTree (tags ``{namespace}local``), entities expanded within the caps."""
    decls = _declarations(data)
    if decls:
        _check_expansion(data, decls)
    builder = ET.TreeBuilder()
    depth = 0
    text_budget = len(data) + MAX_EXPANDED_BYTES  # what the parser may hand out, entities expanded

    def name_of(raw: str) -> str:
        return "{" + raw if "}" in raw else raw

    def start(tag: str, attrs: dict[str, str]) -> None:
        nonlocal depth, text_budget
        depth += 1
        count.elements += 1
        if depth > MAX_SVG_DEPTH:
            raise _Refused(f"nests elements more than {MAX_SVG_DEPTH} deep")
        if count.elements > MAX_SVG_ELEMENTS:
            raise _Refused(f"has more than {MAX_SVG_ELEMENTS:,} elements (with the files it uses)")
        for v in attrs.values():
            text_budget -= len(v)
        if text_budget < 0:
            raise _Refused(f"its entities expand to more than {MAX_EXPANDED_BYTES:,} bytes (an entity bomb)")
        builder.start(name_of(tag), {name_of(k): v for k, v in attrs.items()})

    def end(tag: str) -> None:
        nonlocal depth
        depth -= 1
        builder.end(name_of(tag))

    def chars(text: str) -> None:
        nonlocal text_budget
        text_budget -= len(text)
        if text_budget < 0:
            raise _Refused(f"its entities expand to more than {MAX_EXPANDED_BYTES:,} bytes (an entity bomb)")
        builder.data(text)

    root = _run_expat(data, builder, start, end, chars)
    if _local(root.tag) != "svg" or str(root.tag) not in ("svg", f"{{{SVG_NS}}}svg"):
        raise _Refused(f"has the root element <{_local(root.tag)}>, not <svg>")
    return root


def _run_expat(data: bytes, builder: ET.TreeBuilder, start: Callable[[str, dict[str, str]], None],
               end: Callable[[str], None], chars: Callable[[str], None]) -> ET.Element:
    """``data`` parsed by expat into ``builder`` through the handlers (no parameter or external
    entities, no unparsed entity declarations): the tree's root."""

    def external(*_a: object) -> int:
        raise _Refused("refers to an external entity (refused: nothing outside the image is read)")

    p = expat.ParserCreate(None, "}")
    p.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    p.EntityDeclHandler = _entity_handler({})
    p.UnparsedEntityDeclHandler = _refuse_unparsed
    p.ExternalEntityRefHandler = external
    p.StartElementHandler = start
    p.EndElementHandler = end
    p.CharacterDataHandler = chars
    p.buffer_text = True
    try:
        p.Parse(data, True)
        return builder.close()
    except _Refused:
        raise
    except (expat.ExpatError, AssertionError, ValueError, LookupError, UnicodeError, RecursionError) as exc:
        raise _Refused(f"is not well-formed XML ({' '.join(str(exc).split())[:100]})") from None


# --- 2. references inside the sandbox --------------------------------------------------------------
@dataclass
class _Doc:
    name: str
    root: ET.Element
    ids: dict[str, ET.Element] = field(default_factory=dict)
    defs: ET.Element | None = None

    def index(self) -> None:
        self.ids = {}
        for el in self.root.iter():
            i = el.get("id")
            if i and i not in self.ids:
                self.ids[i] = el

    def new_defs(self) -> ET.Element:
        """The ``<defs>`` that holds what is copied in, first in the document (cairosvg finds a ``<use>``'s
        target by walking the document from its start: at the end, each of a thousand uses walked it all)."""
        if self.defs is None:
            self.defs = ET.Element(f"{{{SVG_NS}}}defs")
            self.root.insert(0, self.defs)
        return self.defs


@dataclass(frozen=True)
class DrawCost:
    """What drawing a document costs at its declared size: elements drawn, pixels painted (``area``: of
    surfaces that scale with the drawing; ``fixed``: decoded images), groups nested at once, the largest
    pattern tile (pixels at the declared size) and the depth cairo walks."""

    drawn: int = 0
    area: float = 0.0
    fixed: int = 0
    groups: int = 0
    tile: float = 0.0
    height: int = 0
    paint: float = 0.0  #: what the shapes cover, each its bounding box (in the user units of where it stands)
    arc: float = 0.0  #: the largest radius of an arc or round stroke, scaled by the transforms above it

    def __add__(self, o: DrawCost) -> DrawCost:
        return DrawCost(self.drawn + o.drawn, self.area + o.area, self.fixed + o.fixed, max(self.groups, o.groups),
                     max(self.tile, o.tile), max(self.height, o.height), self.paint + o.paint, max(self.arc, o.arc))

    def times(self, k: int) -> DrawCost:
        return DrawCost(self.drawn * k, self.area * k, self.fixed * k, self.groups, self.tile, self.height, self.paint * k,
                    self.arc)


@dataclass(frozen=True)
class _Resource:
    data: bytes
    pixels: int  #: pixels a raster decodes to
    cost: DrawCost | None  #: an SVG's own cost


@dataclass(frozen=True)
class Prepared:
    """An SVG ready for cairosvg: a self-contained document (no DTD, every outside reference resolved) and
    the resources it draws from memory, its declared size and its cost at that size."""

    data: bytes
    size: tuple[int, int]
    cost: DrawCost
    resources: dict[str, bytes]


class _Preparer:
    def __init__(self, *, file: str | Path, resolve: Resolver | None, max_pixels: int) -> None:
        self.file = file
        self.resolve = resolve
        self.max_pixels = max_pixels
        self.count = _Count()
        self.docs: dict[str, _Doc] = {}
        self.active: list[str] = []  #: files being prepared (a file referring back to one is a cycle)
        self.files = 0
        self.resources: dict[str, _Resource] = {}
        self.by_content: dict[tuple[str, str], str] = {}
        self.copied: dict[tuple[str, str, str], str] = {}  #: (into, from, id) -> the copy's id
        self.prefixes: dict[tuple[str, str], str] = {}
        self.pending: list[tuple[_Doc, _Doc, str]] = []  #: elements a copy refers to, still to copy
        self.copying = False

    # the files
    def doc(self, name: str, data: bytes) -> _Doc:
        if name in self.active:
            chain = " -> ".join(posixpath.basename(n) for n in (*self.active[self.active.index(name):], name))
            raise _Refused(f"refers to SVG files that refer back to one another ({chain}): a cycle")
        got = self.docs.get(name)
        if got is not None:
            return got
        self.active.append(name)
        try:
            doc = _Doc(name, _parse(data, self.count))
            doc.index()
            self.resolve_refs(doc)
            doc.index()
        finally:
            self.active.pop()
        self.docs[name] = doc
        return doc

    def read(self, name: str) -> bytes:
        if self.resolve is None:
            raise _Refused(f"refers to the file {name!r}, and is read on its own (no module or folder around it)")
        self.files += 1
        if self.files > MAX_SVG_FILES:
            raise _Refused(f"refers to more than {MAX_SVG_FILES} other files")
        data = self.resolve(name)
        if data is None:
            raise _Refused(f"refers to {name!r}, which is not there")
        if len(data) > MAX_SVG_BYTES:
            raise _Refused(f"refers to {name!r} of {len(data):,} bytes (at most {MAX_SVG_BYTES:,})")
        return data

    @staticmethod
    def locate(base: str, ref: str) -> tuple[str, str]:
        """``ref`` (an href or a ``url()``) as (file name inside the sandbox, fragment); refused when it
        names anything outside."""
        try:
            split = urlsplit(ref.strip())
        except ValueError:  # "http://[::1": an invalid IPv6 address
            raise _Refused(f"refers to {ref[:60]!r}, which is not a file name") from None
        path = unquote(split.path)
        if split.scheme or split.netloc or path.startswith(("/", "\\")) or "\\" in path or "\x00" in path:
            shown = ref if len(ref) <= 60 else ref[:57] + "..."
            raise _Refused(f"refers to {shown!r}, outside the module (refused: nothing outside is read)")
        if not path:
            return base, split.fragment
        name = posixpath.normpath(posixpath.join(posixpath.dirname(base), path))
        if name == ".." or name.startswith("../"):
            shown = ref if len(ref) <= 60 else ref[:57] + "..."
            raise _Refused(f"refers to {shown!r}, which leaves the module (refused: nothing outside is read)")
        return name, split.fragment

    # the references of one file
    def resolve_refs(self, doc: _Doc) -> None:
        for el in list(doc.root.iter()):
            tag = _local(el.tag)
            el.attrib.pop(f"{{{XML_NS}}}base", None)
            for key in _HREFS:
                value = el.get(key)
                if value is None or value.startswith("#") or not value.strip():
                    continue
                if tag in _IMAGE_TAGS:
                    el.set(key, self.image(doc, value))
                elif tag in _FRAGMENT_TAGS:
                    if value.strip().startswith("data:"):
                        del el.attrib[key]
                        continue
                    name, frag = self.locate(doc.name, value)
                    el.set(key, "#" + self.fragment(doc, name, frag))
            for key, value in list(el.attrib.items()):
                if "url(" in value and key not in _HREFS:
                    el.set(key, self.urls(doc, value))
            if tag == "style" and el.text:
                el.text = self.urls(doc, self.css_imports(doc.name, el.text, 0))

    def urls(self, doc: _Doc, text: str) -> str:
        def one(m: re.Match[str]) -> str:
            ref = m.group(2).strip()
            if not ref or ref.startswith("#") or ref.startswith("data:") or "#" not in ref:
                return m.group(0)  # cairo follows a url() by its fragment only: one without is never read
            name, frag = self.locate(doc.name, ref)
            return f"url(#{self.fragment(doc, name, frag)})"

        return _URL.sub(one, text)

    def css_imports(self, base: str, text: str, depth: int) -> str:
        def one(m: re.Match[str]) -> str:
            ref = (m.group(2) if m.group(2) is not None else m.group(4) or "").strip()
            if depth >= MAX_CSS_IMPORTS:
                raise _Refused(f"nests CSS @import more than {MAX_CSS_IMPORTS} deep")
            name, _frag = self.locate(base, ref)
            try:
                css = self.read(name).decode("utf-8")
            except UnicodeDecodeError:
                raise _Refused(f"imports the style sheet {name!r}, which is not UTF-8 text") from None
            return self.css_imports(name, css, depth + 1)

        return _IMPORT.sub(one, text)

    def image(self, doc: _Doc, value: str) -> str:
        """An image element's href: the image (a data URL, or a file inside the sandbox) checked and served
        from memory; the href becomes its resource address."""
        ref = value.strip()
        if ref.startswith("data:"):
            head, _, payload = ref.partition(",")
            try:
                data = base64.b64decode(payload) if head.endswith(";base64") else unquote_to_bytes(payload)
            except ValueError:
                raise _Refused("embeds an image that is not valid base64") from None
            name = f"data:{len(self.resources)}"
        else:
            name, _frag = self.locate(doc.name, ref)
            key = ("file", name)
            if key in self.by_content:
                return self.by_content[key]
            data = self.read(name)
        kind = sniff_image(data)
        url = f"{RESOURCE_BASE}{len(self.resources)}"
        if kind == "SVG":
            sub = self.doc(name, data)
            res = _Resource(_serialise(sub.root), 0, self.cost_of(sub))
        elif kind in ("PNG", "GIF", "JPEG"):
            size = image_header_size(data[:262144])
            if size is None:
                raise _Refused(f"embeds an image {name!r} whose header gives no size")
            w, h = size
            if w < 1 or h < 1 or w * h > self.max_pixels:
                raise _Refused(f"embeds an image {name!r} of {w} x {h} pixels (at most {self.max_pixels:,})")
            try:
                check_plausible(kind, size, len(data), file=name)
            except GazalaError as exc:
                raise _Refused(f"embeds an image {name!r} that {exc.problem.split(': ', 1)[-1]}") from None
            res = _Resource(data, w * h, None)
        else:
            raise _Refused(f"embeds {name!r}, which is not a PNG, GIF, JPEG or SVG image")
        self.resources[url] = res
        if not ref.startswith("data:"):
            self.by_content[("file", name)] = url
        return url

    def fragment(self, into: _Doc, name: str, frag: str) -> str:
        """The id in ``into`` of element ``frag`` of file ``name`` (copied in, with what it refers to, once)."""
        if name == into.name:
            return frag
        if name in self.active:
            self.doc(name, b"")  # refused: a cycle of files
        src = self.docs.get(name)
        if src is None:
            data = self.read(name)
            if sniff_image(data) != "SVG":
                raise _Refused(f"uses {name!r}, which is not an SVG document")
            src = self.doc(name, data)
        return self.copy_into(into, src, frag)

    def copy_into(self, into: _Doc, src: _Doc, frag: str) -> str:
        key = (into.name, src.name, frag)
        got = self.copied.get(key)
        if got is not None:
            return got
        element = src.ids.get(frag) if frag else src.root
        if element is None:
            raise _Refused(f"uses #{frag} of {src.name!r}, which has no such element")
        prefix = self.prefixes.setdefault((into.name, src.name), f"gz{len(self.prefixes) + 1}-")
        new_id = prefix + (frag or "root")
        self.copied[key] = new_id
        clone = copy.deepcopy(element)
        n = sum(1 for _ in clone.iter())
        self.count.elements += n
        if self.count.elements > MAX_SVG_ELEMENTS:
            raise _Refused(f"has more than {MAX_SVG_ELEMENTS:,} elements (with the files it uses)")
        inside = {e.get("id") for e in clone.iter() if e.get("id")}
        for e in clone.iter():
            i = e.get("id")
            if i:
                self.copied.setdefault((into.name, src.name, i), prefix + i)
                e.set("id", prefix + i)
        clone.set("id", new_id)
        wanted: set[str] = set()
        for e in clone.iter():
            for key2, value in list(e.attrib.items()):
                if key2 in _HREFS and value.startswith("#"):
                    wanted.add(value[1:])
                    e.set(key2, "#" + prefix + value[1:])
                elif "url(#" in value:
                    wanted.update(m.group(2)[1:] for m in _URL.finditer(value) if m.group(2).startswith("#"))
                    e.set(key2, _URL.sub(lambda m: f"url(#{prefix}{m.group(2)[1:]})"
                                         if m.group(2).startswith("#") else m.group(0), value))
        into.new_defs().append(clone)
        self.pending.extend((into, src, w) for w in sorted(wanted - inside) if w in src.ids)
        if not self.copying:  # what the copy refers to is copied in turn, in a loop (a chain of 10,000 is no stack)
            self.copying = True
            try:
                while self.pending:
                    self.copy_into(*self.pending.pop())
            finally:
                self.copying = False
        return new_id

    # --- 3. the cost -------------------------------------------------------------------------------
    def cost_of(self, doc: _Doc) -> DrawCost:
        return _Coster(doc, self.resources).cost()


class _Coster:
    """What cairo will draw and paint for a document (:class:`DrawCost`), every reference expanded."""

    def __init__(self, doc: _Doc, resources: dict[str, _Resource]) -> None:
        self.doc = doc
        self.resources = resources
        self.memo: dict[ET.Element, DrawCost] = {}
        self.active: set[ET.Element] = set()
        size = svg_declared_size({k: str(doc.root.get(k, "")) for k in ("width", "height", "viewBox")}) or (1, 1)
        self.w, self.h = max(size[0], 1), max(size[1], 1)
        self.canvas = float(self.w * self.h)
        box = [float(x) for x in _NUMBER.findall(doc.root.get("viewBox", ""))]
        self.k = (self.w / box[2]) if len(box) == 4 and box[2] > 0 else 1.0  # pixels per user unit
        if not 1e-9 <= self.k <= 1e9:
            raise _Refused(f"has a viewBox that scales it {self.k:.3g} times (at most 1e9)")
        self.user = (self.w / self.k, self.h / self.k)

    def cost(self) -> DrawCost:
        c = self.visit(self.doc.root, 0)
        return DrawCost(c.drawn, c.area, c.fixed, c.groups, c.tile, c.height, c.paint * self.k * self.k, c.arc * self.k)

    def visit(self, el: ET.Element, depth: int) -> DrawCost:
        if depth > MAX_DRAW_DEPTH:  # before recursing: a chain of 10,000 <use> is refused, not a RecursionError
            raise _Refused(f"nests more than {MAX_DRAW_DEPTH} levels deep, counting <use> and patterns")
        got = self.memo.get(el)
        if got is None:
            if el in self.active:
                raise _Refused(f"has a reference cycle through <{_local(el.tag)} id={el.get('id')!r}> (<use> cycle)")
            self.active.add(el)
            try:
                got = self.memo[el] = self._visit(el, depth)
            finally:
                self.active.discard(el)
        if depth + got.height > MAX_DRAW_DEPTH:
            raise _Refused(f"nests more than {MAX_DRAW_DEPTH} levels deep, counting <use> and patterns")
        if got.drawn > MAX_SVG_DRAWN:
            raise _Refused(f"draws more than {MAX_SVG_DRAWN:,} elements once <use>, patterns and markers are "
                           "expanded")
        return got

    def children(self, el: ET.Element, depth: int) -> DrawCost:
        total = DrawCost()
        for child in el:
            if isinstance(child.tag, str):
                total = total + self.visit(child, depth + 1)
        return DrawCost(total.drawn, total.area, total.fixed, total.groups, total.tile, total.height + 1, total.paint,
                    total.arc)

    def target(self, ref: str | None) -> ET.Element | None:
        if not ref or not ref.startswith("#"):
            return None
        return self.doc.ids.get(ref[1:])

    def _visit(self, el: ET.Element, depth: int) -> DrawCost:
        tag = _local(el.tag)
        if tag in _NOT_DRAWN:
            return DrawCost(drawn=1, height=1)
        c = DrawCost(drawn=1) + self.children(el, depth)
        props = dict(el.attrib)
        for decl in str(el.get("style", "")).split(";"):
            k, _, v = decl.partition(":")
            if v:
                props[k.strip().lower()] = v.strip()
        groups = 0
        if tag == "use":
            t = self.target(next((el.get(k) for k in _HREFS if el.get(k)), None))
            if t is not None:
                c = c + (self.children(t, depth) if _local(t.tag) == "symbol" else self.visit(t, depth + 1))
        if tag in _IMAGE_TAGS:
            res = self.resources.get(next((str(el.get(k)) for k in _HREFS if el.get(k)), ""))
            if res is not None:
                c = c + DrawCost(fixed=res.pixels) + (DrawCost(res.cost.drawn, self.canvas, res.cost.fixed, res.cost.groups)
                                                      if res.cost is not None else DrawCost())
        for prop in ("fill", "stroke"):
            t = self.target(_url_of(props.get(prop)))
            if t is not None and _local(t.tag) == "pattern":
                tile = self.tile(t, el)
                c = c + self.children(self.template(t), depth) + DrawCost(area=tile, tile=tile)
        for prop in ("mask", "filter"):
            t = self.target(_url_of(props.get(prop)))
            if t is not None:
                groups = 1
                c = c + DrawCost(area=self.canvas) + (self.children(t, depth) if prop == "mask" else DrawCost())
        t = self.target(_url_of(props.get("clip-path")))
        if t is not None:
            c = c + self.children(t, depth)
        if tag in _MARKED:
            for prop in ("marker", "marker-start", "marker-mid", "marker-end"):
                t = self.target(_url_of(props.get(prop)))
                if t is not None:
                    c = c + self.children(t, depth).times(self.vertices(el))
        with contextlib.suppress(ValueError):
            if float(props.get("opacity", "1")) < 1 and len(el):
                groups = 1
                c = c + DrawCost(area=self.canvas)
        paint = (c.paint + self.covered(el, tag, props)) * _scale(el.get("transform"))
        arc = max(c.arc, self.radius(el, tag, props)) * _linear(el.get("transform")) * self.viewport(el, tag)
        return DrawCost(c.drawn, c.area, c.fixed, c.groups + groups, c.tile, c.height, paint, arc)

    def radius(self, el: ET.Element, tag: str, props: dict[str, str]) -> float:
        """The largest radius cairo turns into arc segments for this element (their number grows with the
        radius on the device: a circle of radius 1e308 never ends): its own arcs, half its stroke."""
        uw = self.user[0]
        stroked = "stroke-width" in props or props.get("stroke", "none") != "none"
        radii = [(_length(props.get("stroke-width"), uw) or 1.0) / 2 if stroked else 0.0]
        if tag in ("circle", "ellipse", "rect"):
            radii += [_length(el.get(a), uw) or 0.0 for a in ("r", "rx", "ry")]
        elif tag == "path" and any(ch in str(el.get("d", "")) for ch in "Aa"):
            _path_points(str(el.get("d") or ""), radii=radii)
        return max(abs(r) for r in radii)

    def viewport(self, el: ET.Element, tag: str) -> float:
        """How much a nested ``<svg>`` or a ``<symbol>`` with a viewBox enlarges what it holds."""
        if tag not in ("svg", "symbol") or el is self.doc.root:
            return 1.0
        box = [float(x) for x in _NUMBER.findall(el.get("viewBox", ""))]
        if len(box) != 4 or box[2] <= 0 or box[3] <= 0:
            return 1.0
        w = _length(el.get("width"), self.user[0]) or self.user[0]
        h = _length(el.get("height"), self.user[1]) or self.user[1]
        got = max(abs(w) / box[2], abs(h) / box[3])
        return got if math.isfinite(got) else 1e300

    def covered(self, el: ET.Element, tag: str, props: dict[str, str]) -> float:
        """The user-unit area a shape paints (its bounding box with its stroke; at most four canvases)."""
        uw, uh = self.user
        sw = (_length(props.get("stroke-width"), uw) or 1.0) if props.get("stroke", "none") != "none" else 0.0
        nums: list[float] = []
        if tag in ("rect", "image", "foreignObject"):
            w, h = _length(el.get("width"), uw) or 0.0, _length(el.get("height"), uh) or 0.0
        elif tag in ("circle", "ellipse"):
            rx = _length(el.get("r") or el.get("rx"), uw) or 0.0
            ry = _length(el.get("r") or el.get("ry"), uh) or 0.0
            w, h = 2 * rx, 2 * ry
        elif tag == "line":
            nums = [_length(el.get(a), uw) or 0.0 for a in ("x1", "y1", "x2", "y2")]
        elif tag == "path":
            nums = _path_points(str(el.get("d") or ""))
        elif tag in ("polyline", "polygon"):
            nums = [float(x) for x in _NUMBER.findall(str(el.get("points") or ""))[:20_000]]
        elif tag in ("text", "tspan", "textPath"):
            size = _length(props.get("font-size"), 16.0) or 16.0
            w, h = size * len(el.text or ""), size
        else:
            return 0.0
        if nums:  # a path's numbers taken as points: its control points bound it
            xs, ys = nums[0::2], nums[1::2] or [0.0]
            w, h = max(xs) - min(xs), max(ys) - min(ys)
        elif tag in ("line", "path", "polyline", "polygon"):
            w = h = 0.0
        area = (abs(w) + sw) * (abs(h) + sw)
        return min(area, 4 * uw * uh) if math.isfinite(area) else 4 * uw * uh

    def template(self, pattern: ET.Element) -> ET.Element:
        """A pattern with no content of its own draws the content of the pattern its href names."""
        seen = {pattern}
        while not len(pattern):
            t = self.target(next((pattern.get(k) for k in _HREFS if pattern.get(k)), None))
            if t is None or t in seen:
                break
            seen.add(t)
            pattern = t
        return pattern

    def tile(self, pattern: ET.Element, user: ET.Element) -> float:
        """Pixels of a pattern's tile at the declared size (cairo draws the tile into a surface of its own)."""
        on_box = pattern.get("patternUnits") != "userSpaceOnUse"
        ref = (_length(user.get("width"), self.user[0]) or self.user[0],
               _length(user.get("height"), self.user[1]) or self.user[1])
        dims = []
        for key, whole in (("width", ref[0]), ("height", ref[1])):
            v = _length(pattern.get(key), 1.0 if on_box else whole) or 0.0
            dims.append(v * whole if on_box else v)
        return abs(dims[0] * dims[1]) * self.k * self.k * _scale(pattern.get("patternTransform"))

    @staticmethod
    def vertices(el: ET.Element) -> int:
        if _local(el.tag) == "line":
            return 2
        text = str(el.get("d") or el.get("points") or "")
        return max(2, len(_NUMBER.findall(text)) // 2 + 1)


_PATH_TOKEN = re.compile(r"([MmLlHhVvCcSsQqTtAaZz])|([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)")
_PATH_ARGS: Final = {"m": 2, "l": 2, "h": 1, "v": 1, "c": 6, "s": 4, "q": 4, "t": 2, "a": 7, "z": 0}


def _path_points(d: str, limit: int = 20_000, radii: list[float] | None = None) -> list[float]:
    """The points a path's data passes through or pulls towards (absolute: relative commands followed from
    the current point), as x, y, x, y ...: what bounds the path (arcs by their end points; their radii are
    added to ``radii``)."""
    out: list[float] = []
    x = y = 0.0
    cmd = "m"
    args: list[float] = []
    for m in _PATH_TOKEN.finditer(d):
        if m.group(1):  # a command (Z closes the subpath: its points are already counted)
            cmd, args = m.group(1), []
            continue
        args.append(float(m.group(2)))
        low = cmd.lower()
        if len(args) < _PATH_ARGS.get(low, 2) or low == "z":
            continue
        rel = cmd.islower()
        if low == "h":
            x = args[0] + (x if rel else 0.0)
        elif low == "v":
            y = args[0] + (y if rel else 0.0)
        elif low == "a":
            x, y = args[5] + (x if rel else 0.0), args[6] + (y if rel else 0.0)
            if radii is not None:
                radii += args[0:2]
        else:
            pts = list(zip(args[0::2], args[1::2], strict=True))
            for px, py in pts:
                out += [px + (x if rel else 0.0), py + (y if rel else 0.0)]
            x, y = out[-2], out[-1]
        out += [x, y]
        args = []
        if len(out) >= limit:
            break
    return out


def _url_of(value: str | None) -> str | None:
    m = _URL.search(value or "")
    return m.group(2).strip() if m else None


def _length(value: str | None, whole: float) -> float | None:
    """A length or percentage (of ``whole``), in user units; None when it is not one."""
    if not value:
        return None
    m = _NUMBER.match(value.strip())
    if not m:
        return None
    v = float(m.group(0))
    if not math.isfinite(v):
        return 1e12
    return v * whole / 100 if value.strip().endswith("%") else v


def _scale(transform: str | None) -> float:
    """How much a transform list multiplies areas (scale and matrix terms; 1 for others)."""
    area = 1.0
    for kind, args in re.findall(r"(scale|matrix)\s*\(([^)]*)\)", transform or ""):
        nums = [float(x) for x in _NUMBER.findall(args)]
        if kind == "scale" and nums:
            area *= abs(nums[0] * (nums[1] if len(nums) > 1 else nums[0]))
        elif kind == "matrix" and len(nums) >= 4:
            area *= abs(nums[0] * nums[3] - nums[1] * nums[2])
    return area if math.isfinite(area) else 1e24


def _linear(transform: str | None) -> float:
    """How much a transform list may stretch a length at most (an upper bound: each term's Frobenius norm)."""
    k = 1.0
    for kind, args in re.findall(r"(scale|matrix|skewX|skewY)\s*\(([^)]*)\)", transform or ""):
        nums = [float(x) for x in _NUMBER.findall(args)]
        if kind == "scale" and nums:
            k *= max(abs(nums[0]), abs(nums[1]) if len(nums) > 1 else abs(nums[0]))
        elif kind == "matrix" and len(nums) >= 4:
            k *= math.sqrt(sum(v * v for v in nums[:4]))
        elif kind in ("skewX", "skewY") and nums:
            k *= 1.0 + abs(math.tan(math.radians(nums[0])))
    return k if math.isfinite(k) else 1e300


def _serialise(root: ET.Element) -> bytes:
    return ET.tostring(root)


def prepare(data: bytes, *, file: str | Path, name: str | None = None, resolve: Resolver | None = None,
            max_pixels: int = MAX_IMAGE_PIXELS, what: str = "image",
            error: type[GazalaError] = GazalaError) -> Prepared:
    """The SVG ``data`` parsed, resolved and costed (steps 1-3 of the module docstring); ``name`` is its
    path inside the sandbox ``resolve`` reads (default: its file name)."""
    if len(data) > MAX_SVG_BYTES:
        raise error(f"SVG {what} is {len(data):,} bytes", file=file, expected=f"at most {MAX_SVG_BYTES:,} bytes")
    key = (hashlib.sha256(data).digest(), name or Path(str(file)).name, resolve, max_pixels)
    memo = current_budget().memo  # within a command: game import checks an image, then draws it into a face
    got = memo.get(key)
    if isinstance(got, Prepared):
        return got
    prep = _Preparer(file=file, resolve=resolve, max_pixels=max_pixels)
    try:
        doc = prep.doc(name or Path(str(file)).name, data)
        size = svg_declared_size({k: str(doc.root.get(k, "")) for k in ("width", "height", "viewBox")})
        if size is None:
            raise error(f"SVG {what} declares no size", file=file,
                        expected="width and height (or a viewBox) on its <svg> element")
        cost = prep.cost_of(doc)
    except _Refused as exc:
        raise error(f"SVG {what} {exc.args[0]}", file=file, expected="an SVG image VASSAL can draw") from None
    except GazalaError as exc:  # the sandbox refused a name
        raise error(f"SVG {what}: {exc.problem}", file=file, expected=exc.expected) from None
    resources = {url: r.data for url, r in prep.resources.items()}
    got = memo.put(key, Prepared(_serialise(doc.root), size, cost, resources))
    assert isinstance(got, Prepared)
    return got


def check_cost(prep: Prepared, out_size: tuple[int, int], *, file: str | Path, what: str = "image",
               max_pixels: int = MAX_IMAGE_PIXELS, error: type[GazalaError] = GazalaError) -> int:
    """The pixels drawing ``prep`` at ``out_size`` paints, refused (``error``) past the raster's pixel cap, a
    pattern tile over ``max_pixels``, :data:`MAX_LIVE_PIXELS` alive at once or :data:`MAX_SVG_PAINT` in all."""
    w, h = check_pixels(prep.size, file=file, what=f"SVG {what}", max_pixels=max_pixels, error=error)
    ow, oh = check_pixels(out_size, file=file, what=f"SVG {what}", max_pixels=max_pixels, error=error)
    s2 = (ow * oh) / (w * h)
    cost = prep.cost
    painted_f = ow * oh + (cost.area + cost.paint) * s2 + cost.fixed
    live = ow * oh * (1 + cost.groups) + cost.tile * s2
    if not (math.isfinite(painted_f) and math.isfinite(live) and math.isfinite(cost.arc)):
        raise error(f"SVG {what} has sizes too large to count", file=file, expected="an SVG image VASSAL can draw")
    painted = int(painted_f)
    if cost.tile * s2 > max_pixels:
        raise error(f"SVG {what} has a pattern tile of {cost.tile * s2:,.0f} pixels", file=file,
                    expected=f"pattern tiles of at most {max_pixels:,} pixels")
    if live > MAX_LIVE_PIXELS:
        raise error(f"SVG {what} needs {live:,.0f} pixels at once (the canvas, {cost.groups} nested groups and "
                    "a pattern tile)", file=file, expected=f"at most {MAX_LIVE_PIXELS:,}")
    if cost.arc * math.sqrt(s2) > MAX_ARC_RADIUS:
        raise error(f"SVG {what} has an arc or round stroke of radius {cost.arc * math.sqrt(s2):,.3g} pixels",
                    file=file, expected=f"at most {MAX_ARC_RADIUS:,} (cairo cuts an arc into segments by its size)")
    if painted > MAX_SVG_PAINT:
        raise error(f"SVG {what} paints {painted:,} pixels (its shapes, groups, pattern tiles and images)", file=file,
                    expected=f"at most {MAX_SVG_PAINT:,}")
    return painted


# --- drawing -----------------------------------------------------------------------------------------
class _Overdrawn(Exception):
    pass


@dataclass
class _Tally:
    limit: int
    drawn: int = 0


_TALLY: contextvars.ContextVar[_Tally | None] = contextvars.ContextVar("gazala_svg_tally", default=None)
_PATCHED = threading.Event()  #: set once cairosvg's Surface.draw counts what it draws
_PATCH_LOCK = threading.Lock()


def _count_draws() -> None:
    """Count every element cairosvg draws (in this thread's drawing only): the dynamic half of the budget."""
    if _PATCHED.is_set():
        return
    from cairosvg.surface import Surface

    with _PATCH_LOCK:  # once, whichever thread draws first
        if _PATCHED.is_set():
            return
        _patch(Surface)


def _patch(surface: Any) -> None:
    """``surface.draw`` (cairosvg's ``Surface``) wrapped to count each element drawn in a tallied drawing."""
    original = surface.draw

    def draw(self: Any, node: Any) -> Any:
        tally = _TALLY.get()
        if tally is not None:
            tally.drawn += 1
            if tally.drawn > tally.limit:
                raise _Overdrawn
        return original(self, node)

    surface.draw = draw
    _PATCHED.set()


@contextlib.contextmanager
def _tallied(limit: int) -> Iterator[None]:
    token = _TALLY.set(_Tally(limit))
    try:
        yield
    finally:
        _TALLY.reset(token)


def rasterise(data: bytes, *, file: str | Path, what: str = "image", scale: float = 1.0,
              max_pixels: int = MAX_IMAGE_PIXELS, error: type[GazalaError] = GazalaError,
              resolve: Resolver | None = None, name: str | None = None,
              out_size: tuple[int, int] | None = None) -> Image.Image:
    """The SVG drawn at ``scale`` times its declared size (or at ``out_size``), as an RGBA Pillow image.
    Refused (``error``) when it breaks a rule or cap of the module docstring, when the raster would pass
    ``max_pixels``, when the command's art budget is spent, or when cairo cannot draw it."""
    prep = prepare(data, file=file, name=name, resolve=resolve, max_pixels=max_pixels, what=what, error=error)
    w, h = check_pixels(prep.size, file=file, what=f"SVG {what}", max_pixels=max_pixels, error=error)
    if out_size is None:
        out_size = (max(1, round(w * scale)), max(1, round(h * scale)))
    ow, oh = out_size
    painted = check_cost(prep, out_size, file=file, what=what, max_pixels=max_pixels, error=error)
    current_budget().charge(pixels=painted, drawn=prep.cost.drawn, file=file, what=f"SVG {what}")
    img = _draw(prep, ow, oh, file=file, what=what, error=error)
    return img.copy() if img.size == (ow, oh) else img.resize((ow, oh))


def _draw(prep: Prepared, ow: int, oh: int, *, file: str | Path, what: str, error: type[GazalaError]) -> Image.Image:
    """cairosvg's drawing of ``prep`` at ``ow`` x ``oh`` (counted: no more elements than costed),
    as a Pillow image (its size cairo's)."""
    from PIL import Image

    resources = prep.resources

    def fetch(url: str, resource_type: str = "") -> bytes:
        got = resources.get(url.split("#", 1)[0])
        if got is not None:
            return got
        return EMPTY_SVG if "svg" in resource_type else b""

    try:
        from cairosvg.parser import Tree
        from cairosvg.surface import PNGSurface

        _count_draws()
        with _tallied(2 * prep.cost.drawn + 1000):
            # an address of its own (never fetched): cairosvg then finds a <use>'s target once, not at every use
            tree = Tree(bytestring=prep.data, url=f"{RESOURCE_BASE}document.svg", url_fetcher=fetch, unsafe=False)
            surface = PNGSurface(tree, None, 96, output_width=ow, output_height=oh)
        target = surface.cairo
        target.flush()
        if sys.byteorder == "little":  # cairo's ARGB32 words are B, G, R, A bytes, premultiplied
            img = Image.frombuffer("RGBA", (target.get_width(), target.get_height()), bytes(target.get_data()),
                                   "raw", "BGRa", target.get_stride(), 1)
        else:
            png = io.BytesIO()
            target.write_to_png(png)
            png.seek(0)
            img = Image.open(png)
            img.load()
    except _Overdrawn:
        raise error(f"SVG {what} draws more elements than it was counted for", file=file,
                    expected="an SVG image VASSAL can draw") from None
    except GazalaError:
        raise
    except Exception as exc:  # cairosvg raises parser, cairo and value errors of many kinds
        raise error(f"SVG {what} cannot be drawn ({type(exc).__name__}: {' '.join(str(exc).split())[:120]})",
                    file=file, expected="an SVG image VASSAL can draw") from None
    return img


def open_any_image(data: bytes, *, file: str | Path, what: str = "image", max_pixels: int = MAX_IMAGE_PIXELS,
                   error: type[GazalaError] = GazalaError, resolve: Resolver | None = None,
                   name: str | None = None) -> Image.Image:
    """:func:`gazala_tools.inputs.open_image` of ``data``, an SVG drawn at its declared size as well (its
    references to other files read through ``resolve``); the format is decided by the bytes."""
    if sniff_image(data) == "SVG":
        return rasterise(data, file=file, what=what, max_pixels=max_pixels, error=error, resolve=resolve, name=name)
    size = image_header_size(data[:262144])
    if size is not None:  # refused from its header before the command's budget is charged
        w, h = check_pixels(size, file=file, what=what, max_pixels=max_pixels, error=error)
        current_budget().charge(pixels=w * h, file=file, what=what)
    return open_image(data, file=file, what=what, max_pixels=max_pixels, error=error)
