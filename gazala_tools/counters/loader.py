"""Read a counter manifest (``mapdata/<game>/counters.yaml``) into a :class:`~.model.Manifest`.

The format is documented in ``docs/counters.md``. In short: ``units`` list each combat unit once
with its values per step (full strength first); ``chits`` and ``markers`` list each kind once with
a ``count``. The reader expands them into physical counters with stable ids:

* a unit with ``steps: 3`` and id ``axis-21pz-5-1`` gives ``axis-21pz-5-1-s3``, ``-s2``, ``-s1``;
* a marker with ``count: 8`` and id ``disrupted`` gives ``disrupted-1`` ... ``disrupted-8``.

Ids never depend on a counter's position in the file, so adding a unit renumbers nothing.
The whole file is read and checked before anything is built; every error names the file, the line
and the bad value.

Nothing here knows a game's rules: the colour code of printed values is the manifest's
``value_inks``, the sides are the game's (``game.yaml``), and a counter's own art is an image file
named in the manifest or found by the ``art.folder`` naming convention (``<id>-front.png``).
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import Any, Final

import yaml

from gazala_tools.counters.model import (
    INKS,
    NEUTRAL,
    SIZES,
    UNIT_TYPES,
    VALUE_ROLES,
    VALUE_STYLES,
    Counter,
    Face,
    Manifest,
    Nationality,
    Value,
)
from gazala_tools.errors import GazalaError
from gazala_tools.escape import NOT_DRAWN
from gazala_tools.filecache import FileCache
from gazala_tools.fileio import note_input
from gazala_tools.games import Game, find_game
from gazala_tools.games.model import COUNTERS_FILE, GAME_FILE
from gazala_tools.inputs import inside_folder, sniff_image_file
from gazala_tools.yamlnodes import MAX_ALIASES, MAX_DEPTH, did_you_mean, error_at, read_text

__all__ = [
    "ART_KEYS",
    "ART_SUFFIXES",
    "COLOR_RE",
    "FACE_ART_KEYS",
    "FACE_KEYS",
    "ID_RE",
    "INK_KEYS",
    "LINE",
    "TOKEN_KEYS",
    "TOP_KEYS",
    "UNIT_BACKS",
    "UNIT_KEYS",
    "VASSAL_KEYS",
    "ManifestError",
    "load_game_manifest",
    "load_manifest",
    "manifest_file",
    "parse_manifest",
    "parse_size",
]

ID_RE: Final = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
COLOR_RE: Final = re.compile(r"^#[0-9a-fA-F]{6}$")
UNIT_BACKS: Final = ("used", "reduced-half-up", "depleted", "blank", "same")
TOP_KEYS: Final = frozenset(
    {
        "game", "title", "provenance", "sources", "notes", "counter_size", "value_style", "unit_back",
        "artillery_roles", "value_inks", "art", "total", "nationalities", "units", "chits", "markers",
    }
)  # fmt: skip
UNIT_KEYS: Final = frozenset(
    {
        "id", "nationality", "formation", "designation", "type", "size", "steps", "values", "back",
        "provenance", "restricted", "one_sided", "roles", "art",
    }
)  # fmt: skip
TOKEN_KEYS: Final = frozenset(
    {"id", "side", "nationality", "type", "count", "front", "back", "provenance", "art", "vassal"}
)
#: ``vassal:`` of a marker or chit: what an imported module's piece keeps for its rebuild (docs/module.md)
VASSAL_KEYS: Final = frozenset({"slot"})
FACE_KEYS: Final = frozenset({"title", "subtitle", "icon", "color", "text_color"})
INK_KEYS: Final = frozenset({"role", "types", "ink"})
ART_KEYS: Final = frozenset({"folder", "required"})
FACE_ART_KEYS: Final = frozenset({"front", "back"})
#: image files a counter's art may be (what VASSAL and the PDF sheet both take)
ART_SUFFIXES: Final = (".png", ".jpg", ".jpeg", ".gif", ".svg")
LINE: Final = "__line__"
_CHAR_NAMES: Final = {"\t": "a tab", "\n": "a line break", "\r": "a carriage return", "\x00": "a NUL",
                      "\x1b": "an ESC", "\u2029": "a paragraph separator"}


class ManifestError(GazalaError):
    """A counter manifest that does not follow the format."""


#: libyaml's C loader when PyYAML was built with it (several times faster), else the Python one
_SafeBase: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _LineLoader(_SafeBase):  # type: ignore[valid-type,misc]
    """A safe loader that records the line of every mapping under ``__line__``; implicit tags of
    plain scalars are resolved once per text (a manifest repeats its keys and values thousands of times)."""

    def resolve(self, kind: type[yaml.Node], value: Any, implicit: tuple[bool, bool]) -> str:
        if kind is not yaml.ScalarNode:
            return str(super().resolve(kind, value, implicit))
        memo: dict[tuple[str, tuple[bool, bool]], str] = self.__dict__.setdefault("_tags", {})
        key = (value, implicit)
        tag = memo.get(key)
        if tag is None:
            tag = memo[key] = str(super().resolve(kind, value, implicit))
        return tag


def _construct_mapping(loader: _LineLoader, node: yaml.MappingNode) -> dict[str, Any]:
    mapping: dict[str, Any] = {str(k): v for k, v in loader.construct_mapping(node, deep=True).items()}
    mapping[LINE] = node.start_mark.line + 1
    return mapping


_LineLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)

_STR, _SEQ, _MAP = "tag:yaml.org,2002:str", "tag:yaml.org,2002:seq", "tag:yaml.org,2002:map"
#: plain scalars other than strings, made by the safe loader's own functions
_SCALARS: Final = {tag: yaml.SafeLoader.yaml_constructors[tag] for tag in (
    "tag:yaml.org,2002:int", "tag:yaml.org,2002:float", "tag:yaml.org,2002:bool", "tag:yaml.org,2002:null")}


class _Objects:
    """Python objects of the composed nodes, as ``yaml.load(text, Loader=_LineLoader)`` gives them, made
    without the loader's per-node bookkeeping (three times as fast on a 5,000-counter manifest).
    Plain strings, numbers, lists and mappings with plain keys are made here; anything else (merge
    keys, timestamps, sets, keys that are lists ...) by the loader itself."""

    def __init__(self, loader: _LineLoader) -> None:
        self.loader = loader
        self.made: dict[int, Any] = {}  #: node id -> list or mapping (aliases share one object)
        self.open: set[int] = set()  #: the lists and mappings being made
        #: where each odd text (a control character, a trailing backslash) first stands, for its error
        self.odd: dict[str, yaml.Mark] = {}
        self.aliases = 0

    def __call__(self, node: yaml.Node) -> Any:
        tag, cls = node.tag, type(node)
        if cls is yaml.ScalarNode:
            if tag == _STR:
                value = node.value
                if not value.isprintable() or value.endswith("\\"):
                    self.odd.setdefault(value, node.start_mark)
                return value
            make = _SCALARS.get(tag)
            if make is not None:
                return make(self.loader, node)
        elif id(node) in self.made:
            self.aliases += 1  # a list or mapping used again: an alias (the readers walk it each time)
            if self.aliases > MAX_ALIASES:
                raise yaml.constructor.ConstructorError(None, None, f"more than {MAX_ALIASES:,} aliases",
                                                        node.start_mark)
            if id(node) in self.open:  # a list or mapping inside itself (``&a [*a]``), as the loader says
                raise yaml.constructor.ConstructorError(None, None, "found unconstructable recursive node",
                                                        node.start_mark)
            return self.made[id(node)]
        elif cls is yaml.SequenceNode and tag == _SEQ:
            items: list[Any] = []
            self.made[id(node)] = items
            self.open.add(id(node))
            items.extend(self(child) for child in node.value)
            self.open.discard(id(node))
            return items
        elif cls is yaml.MappingNode and tag == _MAP and all(
                type(k) is yaml.ScalarNode and k.tag != "tag:yaml.org,2002:merge" for k, _v in node.value):
            mapping: dict[str, Any] = {}
            self.made[id(node)] = mapping
            self.open.add(id(node))
            for k, v in node.value:
                mapping[str(self(k))] = self(v)
            mapping[LINE] = node.start_mark.line + 1
            self.open.discard(id(node))
            return mapping
        made = self.loader.construct_object(node, deep=True)
        self.made[id(node)] = made
        return made


def _load(text: str) -> Any:
    """``yaml.load(text, Loader=_LineLoader)``, faster."""
    return _load_marked(text)[0]


def _load_marked(text: str) -> tuple[Any, dict[str, yaml.Mark]]:
    """:func:`_load`, and where each odd text stands (:attr:`_Objects.odd`)."""
    loader = _LineLoader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None, {}
        objects = _Objects(loader)
        return objects(node), objects.odd
    finally:
        loader.dispose()


def manifest_file(game_or_path: str | Path) -> Path:
    """The manifest YAML of a game (id or folder) or a YAML file."""
    p = Path(game_or_path)
    if p.suffix in (".yaml", ".yml") and p.is_file():
        return p
    return find_game(game_or_path).counters_file


#: manifests by file version and game (a game's manifest takes its id and name from game.yaml)
_CACHE: FileCache[Manifest] = FileCache()


def _cached(path: Path, game: Game | None) -> Manifest:
    def load() -> Manifest:
        return parse_manifest(read_text(path, "counter manifest", ManifestError), file=path, game=game)

    note_input(path)
    try:
        return _CACHE.get(path, game, load)
    except OSError as exc:
        raise ManifestError(f"cannot read manifest ({exc.strerror})", file=path) from None


def load_game_manifest(game: Game) -> Manifest:
    """A game's ``counters.yaml`` (cached per file and modification time)."""
    return _cached(game.counters_file, game)


def load_manifest(game_or_path: str | Path | Game) -> Manifest:
    """The counter manifest of a game (built-in id, folder or :class:`Game`) or of a YAML file.

    Cached per file and modification time, like ``mapdata.load_map``: the referee, its game
    detection, the rules plugins and the module builder all ask for the same manifests.
    """
    if isinstance(game_or_path, Game):
        return load_game_manifest(game_or_path)
    p = Path(game_or_path)
    if p.suffix in (".yaml", ".yml") and p.is_file():
        if (p.parent / GAME_FILE).is_file() and p.name == COUNTERS_FILE:
            return load_game_manifest(find_game(p.parent))
        return _cached(p, None)
    return load_game_manifest(find_game(game_or_path))


def parse_manifest(text: str, *, file: str | Path = "<string>", game: Game | None = None, art: bool = True) -> Manifest:
    """Parse a manifest. ``game``: the game folder it belongs to (its id and name come from game.yaml,
    so the file must not state them); without it the file is stand-alone and names its ``game``.
    ``art=False``: each counter's ``art`` is left out (``game import`` reads back the manifest it writes
    while the art it names is still being copied)."""
    try:
        doc, odd = _load_marked(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        place = f"{mark.line + 1}:{mark.column + 1}" if mark is not None else None
        raise ManifestError(
            f"not valid YAML: {getattr(exc, 'problem', exc)}", file=file, place=place
        ) from None
    except RecursionError:
        raise ManifestError("YAML nested too deeply", file=file, expected=f"at most {MAX_DEPTH} levels") from None
    except (ValueError, OverflowError) as exc:  # e.g. an integer of more than 4,300 digits
        raise ManifestError(f"not valid YAML: {' '.join(str(exc).split())[:120]}", file=file) from None
    if not art and isinstance(doc, dict):
        for section in ("units", "chits", "markers"):
            for entry in doc.get(section) or []:
                if isinstance(entry, dict):
                    entry.pop("art", None)
    return _Reader(file, game, odd).manifest(doc)


def parse_size(text: str | float | int, *, file: str | Path = "", place: str = "") -> float:
    """A counter size in millimetres from ``"5/8 in"``, ``"0.5in"``, ``"12.7 mm"`` or a number of mm."""
    if isinstance(text, int | float) and not isinstance(text, bool):
        if text <= 0:
            raise ManifestError(f"size {text!r} is not positive", file=file or None, place=place or None)
        return float(text)
    m = re.fullmatch(r"\s*([0-9]+(?:\.[0-9]+)?(?:/[0-9]+)?)\s*(in|mm)\s*", str(text))
    if not m:
        raise ManifestError(
            f"size {text!r} is not a length", file=file or None, place=place or None,
            expected="e.g. '5/8 in', '0.5 in' or '12.7 mm'",
        )  # fmt: skip
    number = float(Fraction(m.group(1)))
    if number <= 0:
        raise ManifestError(f"size {text!r} is not positive", file=file or None, place=place or None)
    return number * 25.4 if m.group(2) == "in" else number


def _half_up(x: int) -> int:
    """``unit_back: reduced-half-up`` (e.g. BG 7.0): combat values halved, rounded up."""
    return math.ceil(x / 2)


def _half_down(x: int) -> int:
    """``unit_back: depleted``: halved, rounded down, at least 1."""
    return max(1, x // 2)


class _Reader:
    def __init__(self, file: str | Path, game: Game | None = None, odd: dict[str, yaml.Mark] | None = None) -> None:
        self.file = file
        self.odd = odd or {}
        self.game = game
        #: where art paths are relative to: the game folder (or the stand-alone file's folder)
        self.folder = game.folder if game is not None else Path(file).parent
        self.sides: tuple[str, ...] | None = (*game.side_ids, NEUTRAL) if game is not None else None
        #: the game's unit types (game.yaml ``unit-types``; a game declaring none, or a stand-alone file: the symbols)
        self.unit_types: tuple[str, ...] = game.unit_type_ids() if game is not None else UNIT_TYPES
        self.inks: list[tuple[str | None, frozenset[str] | None, str]] = []
        self.art_folder: dict[str, Path] = {}
        self.art_required = False

    def fail(
        self, problem: str, node: Any = None, expected: str | None = None, key: str = ""
    ) -> ManifestError:
        place = None
        if isinstance(node, dict) and LINE in node:
            place = f"line {node[LINE]}"
        if key:
            place = f"{place} {key}" if place else key
        return error_at(ManifestError, self.file, place, problem, expected)

    def check_keys(self, node: Any, allowed: frozenset[str], what: str) -> dict[str, Any]:
        if not isinstance(node, dict):
            raise self.fail(f"{what} is {type(node).__name__}, not a mapping", expected="a mapping")
        unknown = sorted(k for k in node if k != LINE and k not in allowed)
        if unknown:
            raise self.fail(
                f"unknown key {unknown[0]!r} in {what}{did_you_mean(unknown[0], allowed)}", node,
                expected=", ".join(sorted(allowed))
            )
        return node

    def text(self, node: dict[str, Any], key: str, default: str | None = None) -> str:
        v = node.get(key, default)
        if v is None:
            raise self.fail(f"missing {key!r}", node)
        if isinstance(v, bool) or not isinstance(v, str | int | float):
            raise self.fail(f"{key} {v!r} is not text", node)
        return str(v)

    def label(self, node: dict[str, Any], key: str, default: str | None = None) -> str:
        """A text drawn on a counter and written into its VASSAL piece (designation, formation, a
        face's title): one line of printable characters that does not end in a backslash."""
        return self.check_label(self.text(node, key, default), key, node)

    def check_label(self, value: str, key: str, node: Any) -> str:
        bad = NOT_DRAWN.search(value)  # a counter's drawn text: one line Pillow, XML and VASSAL take
        if bad is None and not value.endswith("\\"):
            return value
        mark = self.odd.get(value)
        place = f"{mark.line + 1}:{mark.column + 1}" if mark is not None else (
            f"line {node[LINE]}" if isinstance(node, dict) and LINE in node else None)
        if bad is not None:
            char = bad.group()
            name = _CHAR_NAMES.get(char, "a control character")
            raise ManifestError(f"{key} {value!r} contains {name} (U+{ord(char):04X})", file=self.file, place=place,
                                expected="one line of printable characters")
        raise ManifestError(f"{key} {value!r} ends with a backslash", file=self.file, place=place,
                            expected="text that does not end in '\\' (VASSAL's piece format cannot hold it)")

    def ident(self, node: dict[str, Any]) -> str:
        i = self.text(node, "id")
        if not ID_RE.match(i):
            raise self.fail(f"id {i!r} is not a stable id", node, "lowercase words and digits joined by '-'")
        return i

    def side(self, node: dict[str, Any], default: str | None = None) -> str:
        side = self.text(node, "side", default)
        if self.sides is not None and side not in self.sides:
            raise self.fail(f"side {side!r} is not a side of the game", node, ", ".join(self.sides))
        if not ID_RE.match(side):
            raise self.fail(f"side {side!r} is not a side id", node, "lowercase words and digits joined by '-'")
        return side

    def manifest(self, doc: Any) -> Manifest:
        doc = self.check_keys(doc, TOP_KEYS, "the manifest")
        if self.game is None:
            game, title = self.text(doc, "game"), self.text(doc, "title", doc.get("game"))
        else:
            for key in ("game", "title"):
                if key in doc:
                    raise self.fail(f"{key!r} in the manifest of a game folder", doc, f"the {key} in game.yaml only")
            game, title = self.game.id, self.game.name
        style = self.text(doc, "value_style", VALUE_STYLES[-1])
        if style not in VALUE_STYLES:
            raise self.fail(f"value_style {style!r} is unknown", doc, ", ".join(VALUE_STYLES))
        self.style = style
        self.unit_back = self.text(doc, "unit_back", "used")
        if self.unit_back not in UNIT_BACKS:
            raise self.fail(f"unit_back {self.unit_back!r} is unknown", doc, ", ".join(UNIT_BACKS))
        art = doc.get("artillery_roles", ["attack", "defence", "move"])
        self.artillery_roles = tuple(str(r) for r in art) if isinstance(art, list) else ()
        if not self.artillery_roles or any(r not in VALUE_ROLES for r in self.artillery_roles):
            raise self.fail(f"artillery_roles {art!r}", doc, f"a list of {', '.join(VALUE_ROLES)}")
        size = parse_size(doc.get("counter_size", "0.5 in"), file=self.file, place=f"line {doc[LINE]}")
        self.value_inks(doc, doc.get("value_inks"))
        self.art_convention(doc, doc.get("art"))
        nats = self.nationalities(doc.get("nationalities") or {})
        self.nats = nats
        counters: list[Counter] = []
        for u in doc.get("units") or []:
            counters.extend(self.unit(u))
        for kind in ("chits", "markers"):
            for t in doc.get(kind) or []:
                counters.extend(self.token(t, "chit" if kind == "chits" else "marker"))
        counters = [self.finish(c, style=style, size=size, game=game) for c in counters]
        seen: dict[str, Counter] = {}
        for c in counters:
            if c.id in seen:
                raise self.fail(f"duplicate counter id {c.id!r}", doc, "every id once")
            seen[c.id] = c
        total = doc.get("total")
        if total is not None and total != len(counters):
            by = ", ".join(
                f"{k} {sum(1 for c in counters if c.kind == k)}" for k in ("unit", "chit", "marker")
            )
            raise self.fail(f"manifest has {len(counters)} counters ({by})", doc, f"total: {total}")
        sources = doc.get("sources") or []
        return Manifest(
            game=game,
            title=title,
            counter_size_mm=size,
            value_style=style,
            counters=tuple(counters),
            nationalities=nats,
            provenance=self.text(doc, "provenance", "reconstructed"),
            sources=tuple(str(s) for s in sources),
            source_file=str(self.file),
        )

    def finish(self, c: Counter, *, style: str, size: float, game: str) -> Counter:
        """The counter with what it needs to render on its own: colours, value style, size, game."""
        n = self.nats.get(c.nationality)
        color, text_color, box_color = (
            ("#ffffff", "#000000", "#ffffff") if n is None else (n.color, n.text_color, n.box_color)
        )
        return replace(
            c,
            value_style=style,
            size_mm=size,
            game=game,
            color=color,
            text_color=text_color,
            box_color=box_color,
        )

    def color(self, node: dict[str, Any], key: str, default: str | None = None) -> str | None:
        v = node.get(key, default)
        if v is None:
            return None
        if not isinstance(v, str) or not COLOR_RE.match(v):
            raise self.fail(f"{key} {v!r} is not a colour", node, "'#rrggbb'")
        return v

    def nationalities(self, node: Any) -> dict[str, Nationality]:
        if not isinstance(node, dict):
            raise self.fail("nationalities is not a mapping", expected="key: {name, side, color}")
        out: dict[str, Nationality] = {}
        for key, n in node.items():
            if key == LINE:
                continue
            n = self.check_keys(
                n, frozenset({"name", "side", "color", "text_color", "box_color"}), f"nationality {key}"
            )
            side = self.side(n)
            out[str(key)] = Nationality(
                key=str(key),
                name=self.text(n, "name"),
                side=side,
                color=self.color(n, "color") or "#cccccc",
                text_color=self.color(n, "text_color", "#000000") or "#000000",
                box_color=self.color(n, "box_color", "#ffffff") or "#ffffff",
            )
        return out

    # --- units -------------------------------------------------------------------------------
    def roles(self, u: dict[str, Any], utype: str, n: int) -> tuple[str, ...]:
        if "roles" in u:
            roles = tuple(str(r) for r in u["roles"]) if isinstance(u["roles"], list) else ()
            bad = [r for r in roles if r not in VALUE_ROLES] or ([] if roles else [u["roles"]])
            if bad:
                raise self.fail(f"value role {bad[0]!r} is unknown", u, ", ".join(VALUE_ROLES))
            return roles
        if self.style == "hard-soft-move":
            return ("hard", "soft", "move")
        if utype == "artillery" and n == len(self.artillery_roles):
            return self.artillery_roles
        return ("attack", "defence", "move")

    def numbers(self, u: dict[str, Any], raw: Any, key: str) -> list[int | None]:
        if not isinstance(raw, list) or not raw:
            raise self.fail(f"{key} {raw!r} is not a list of numbers", u, "e.g. [12, 12, 24]")
        out: list[int | None] = []
        for x in raw:
            if x is not None and (isinstance(x, bool) or not isinstance(x, int) or x < 0):
                raise self.fail(f"{key} value {x!r} is not a whole number >= 0", u)
            out.append(x)
        return out

    def value_inks(self, doc: dict[str, Any], node: Any) -> None:
        """``value_inks``: the ink of a printed value by role and unit type, first match wins."""
        if node is None:
            return
        if not isinstance(node, list):
            raise self.fail("value_inks is not a list", doc, "a list of {role, types, ink}")
        for entry in node:
            e = self.check_keys(entry, INK_KEYS, "a value_inks entry")
            ink = self.text(e, "ink")
            if ink not in INKS:
                raise self.fail(f"ink {ink!r} is unknown", e, ", ".join(INKS))
            role = self.text(e, "role") if "role" in e else None
            if role is not None and role not in VALUE_ROLES:
                raise self.fail(f"value role {role!r} is unknown", e, ", ".join(VALUE_ROLES))
            types = e.get("types")
            if types is not None and (not isinstance(types, list) or any(t not in self.unit_types for t in types)):
                raise self.fail(f"types {types!r}", e, f"a list of {', '.join(self.unit_types)}")
            self.inks.append((role, frozenset(types) if types is not None else None, ink))

    def ink(self, role: str, utype: str) -> str | None:
        for r, types, ink in self.inks:
            if (r is None or r == role) and (types is None or utype in types):
                return ink
        return None

    def make_values(
        self, roles: Sequence[str], numbers: Sequence[int | None], utype: str, restricted: bool
    ) -> tuple[Value, ...]:
        return tuple(Value(role, num, self.ink(role, utype), bracket=restricted and role == "move")
                     for role, num in zip(roles, numbers, strict=True))

    # --- the counters' own art ---------------------------------------------------------------
    def art_convention(self, doc: dict[str, Any], node: Any) -> None:
        """``art: {folder, required}``: every image file of the folder, by name, for the convention."""
        if node is None:
            return
        a = self.check_keys(node, ART_KEYS, "art")
        required = a.get("required", False)
        if not isinstance(required, bool):
            raise self.fail(f"art.required {required!r} is not true or false", a)
        self.art_required = required
        if "folder" not in a:
            if required:
                raise self.fail("art.required without art.folder", a, "art: {folder: DIR, required: true}")
            return
        folder = self.art_path(a, "folder", a["folder"], is_dir=True)
        with os.scandir(folder) as it:
            images = sorted(e.name for e in it if e.name.lower().endswith(ART_SUFFIXES))
        self.art_folder = {}
        for name in images:  # each member resolves inside the game folder too (a symlink may not lead out)
            p = self.inside(a, f"art folder member {a['folder']}/{name}", folder / name, f"{a['folder']}/{name}")
            if p.is_file():
                self.art_folder[name] = p

    def inside(self, node: dict[str, Any], what: str, path: Path, name: str) -> Path:
        """``path`` resolved inside the game folder (:func:`gazala_tools.inputs.inside_folder`), or refused."""
        try:
            return inside_folder(path, self.folder, name=name, what=what, error=ManifestError)
        except ManifestError as exc:
            raise self.fail(exc.problem, node, exc.expected) from None

    def art_path(self, node: dict[str, Any], key: str, value: Any, *, is_dir: bool = False) -> Path:
        """A file (or folder) named by the manifest: inside the game folder, existing, an image."""
        if not isinstance(value, str) or not value.strip():
            raise self.fail(f"{key} {value!r} is not a path", node, "a path relative to the game folder")
        p = self.inside(node, key, self.folder / value, value)
        if is_dir:
            if not p.is_dir():
                raise self.fail(f"{key} {value!r} is not a folder", node, "a folder of counter images")
        elif not p.is_file():
            raise self.fail(f"{key} {value!r} not found", node, f"an image file ({', '.join(ART_SUFFIXES)})")
        elif p.suffix.lower() not in ART_SUFFIXES and sniff_image_file(p, what=key, error=ManifestError) is None:
            # an image is known by its bytes (issue 33 item 3): a module's `images/Captured by Red` is a PNG
            raise self.fail(f"{key} {value!r} is not an image file", node, ", ".join(ART_SUFFIXES))
        return p

    def found(self, *stems: str) -> Path | None:
        """The convention's image for the first of ``stems`` that has one (``<stem>.png`` ...)."""
        for stem in stems:
            for suffix in ART_SUFFIXES:
                hit = self.art_folder.get(stem + suffix)
                if hit is not None:
                    return hit
        return None

    def given_art(self, owner: dict[str, Any], node: Any, what: str) -> tuple[Path | None, Path | None]:
        if node is None:
            return None, None
        a = self.check_keys(node, FACE_ART_KEYS, what)
        if "front" not in a:
            raise self.fail(f"{what} has no front image", owner, "art: {front: FILE, back: FILE}")
        front = self.art_path(a, "art.front", a["front"])
        back = self.art_path(a, "art.back", a["back"]) if "back" in a else None
        return front, back

    def with_art(self, c: Counter, given: tuple[Path | None, Path | None], owner: dict[str, Any]) -> Counter:
        """``c`` with its art: the images the entry names, else the convention's (``<id>-front.png``,
        then ``<unit id>-front.png``). A back may be left out only when it shows what the front shows."""
        front, back = given
        if front is None and self.art_folder:
            front = self.found(f"{c.id}-front", f"{c.unit_id}-front")
            back = self.found(f"{c.id}-back", f"{c.unit_id}-back")
        if front is None:
            if self.art_required:
                raise self.fail(f"no art for counter {c.id!r}", owner,
                                f"{c.id}-front.png (or {c.unit_id}-front.png) in the art folder, or art: {{front, back}}")
            return c
        if back is None:
            if c.back != c.front:
                raise self.fail(f"counter {c.id!r} has front art but no back art", owner,
                                f"{c.id}-back.png in the art folder or art.back (its back differs from its front)")
            back = front
        return replace(c, front_art=str(front), back_art=str(back))


    def back_face(self, u: dict[str, Any], front: Face, roles: Sequence[str], utype: str) -> Face:
        restricted = bool(u.get("restricted", False))
        if "back" in u:
            nums = self.numbers(u, u["back"], "back")
            if len(nums) != len(roles):
                raise self.fail(f"back has {len(nums)} values", u, f"{len(roles)} ({', '.join(roles)})")
            return Face(values=self.make_values(roles, nums, utype, restricted), state="used")
        policy = "same" if u.get("one_sided") else self.unit_back
        if policy == "same":
            return front
        if policy == "blank":
            return Face(state="blank")
        if policy == "used":  # RG 2.2.3/8.0: the used side; combat values stay, the movement is spent
            return Face(
                values=tuple(
                    Value(v.role, None, v.ink, v.bracket) if v.role == "move" else v for v in front.values
                ),
                state="used",
            )
        halve = _half_up if policy == "reduced-half-up" else _half_down
        vals = tuple(
            Value(v.role, halve(v.number), v.ink, v.bracket)
            if v.role in ("attack", "defence", "hard", "soft", "barrage", "fpf") and v.number is not None
            else v
            for v in front.values
        )
        return Face(values=vals, state="reduced" if policy == "reduced-half-up" else "depleted")

    def unit(self, u: Any) -> list[Counter]:
        u = self.check_keys(u, UNIT_KEYS, "a unit")
        uid = self.ident(u)
        nat = self.text(u, "nationality")
        if nat not in self.nats:
            raise self.fail(f"nationality {nat!r} is not declared", u, ", ".join(self.nats))
        utype = self.text(u, "type")
        if utype not in self.unit_types:
            declared = "game.yaml unit-types: " if self.game is not None and self.game.unit_types else ""
            raise self.fail(f"type {utype!r} is not a unit type of the game{did_you_mean(utype, self.unit_types)}", u,
                            declared + ", ".join(self.unit_types))
        size = self.text(u, "size", "II")
        if size not in SIZES:
            raise self.fail(f"size {size!r} is unknown", u, ", ".join(SIZES))
        steps = u.get("steps", 1)
        if isinstance(steps, bool) or not isinstance(steps, int) or steps < 1:
            raise self.fail(f"steps {steps!r} is not a positive whole number", u)
        raw = u.get("values")
        if steps == 1 and isinstance(raw, list) and raw and not isinstance(raw[0], list):
            raw = [raw]
        if not isinstance(raw, list) or len(raw) != steps:
            raise self.fail(
                f"values {raw!r} do not give one list per step", u, f"{steps} list(s), full strength first"
            )
        restricted = bool(u.get("restricted", False))
        art = u.get("art")
        if art is not None and steps > 1 and (not isinstance(art, list) or len(art) != steps):
            raise self.fail(f"art of a {steps}-step unit", u, f"a list of {steps} {{front, back}}, full strength first")
        if isinstance(art, list) and steps == 1:
            raise self.fail("art is a list", u, "art: {front: FILE, back: FILE}")
        out = []
        for i, step_raw in enumerate(raw):
            nums = self.numbers(u, step_raw, "values")
            roles = self.roles(u, utype, len(nums))
            if len(nums) != len(roles):
                raise self.fail(
                    f"values {nums} do not match the roles", u, f"{len(roles)} ({', '.join(roles)})"
                )
            step = steps - i
            front = Face(values=self.make_values(roles, nums, utype, restricted), state="full")
            back = self.back_face(u, front, roles, utype)
            counter = Counter(
                    id=uid if steps == 1 else f"{uid}-s{step}",
                    kind="unit",
                    side=self.nats[nat].side,
                    nationality=nat,
                    front=front,
                    back=back,
                    formation=self.label(u, "formation", ""),
                    designation=self.label(u, "designation"),
                    type=utype,
                    symbol=self.game.symbol_of(utype) if self.game is not None else utype,
                    size=size,
                    steps=steps,
                    step=step,
                    unit_id=uid,
                    provenance=self.text(u, "provenance", ""),
                    restricted=restricted,
                )
            step_art = art[i] if isinstance(art, list) else art
            out.append(self.with_art(counter, self.given_art(u, step_art, "art"), u))
        return out

    # --- chits and markers -------------------------------------------------------------------
    def face(self, node: Any, owner: dict[str, Any], state: str) -> Face:
        if node is None:
            return Face(state=state)
        if isinstance(node, str):
            return Face(title=self.check_label(node, "title", owner), state=state)
        node = self.check_keys(node, FACE_KEYS, "a face")
        return Face(
            title=self.label(node, "title", ""),
            subtitle=self.label(node, "subtitle", ""),
            icon=self.label(node, "icon", ""),
            state=state,
            color=self.color(node, "color"),
            text_color=self.color(node, "text_color"),
        )

    def token(self, t: Any, kind: str) -> list[Counter]:
        t = self.check_keys(t, TOKEN_KEYS, f"a {kind}")
        tid = self.ident(t)
        side = self.side(t, NEUTRAL)
        nat = self.text(t, "nationality", "")
        if nat and nat not in self.nats:
            raise self.fail(f"nationality {nat!r} is not declared", t, ", ".join(self.nats))
        count = t.get("count", 1)
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            raise self.fail(f"count {count!r} is not a positive whole number", t)
        front = self.face(t.get("front"), t, kind)
        back = self.face(t.get("back"), t, kind) if "back" in t else front
        ids = [tid] if count == 1 else [f"{tid}-{i}" for i in range(1, count + 1)]
        given = self.given_art(t, t.get("art"), "art")
        if "vassal" in t:  # kept for the rebuild of an imported module; no command here reads it
            v = self.check_keys(t["vassal"], VASSAL_KEYS, f"a {kind}'s vassal")
            self.text(v, "slot")
        counters = [
            Counter(
                id=i,
                kind="chit" if kind == "chit" else "marker",
                side=side,
                nationality=nat,
                front=front,
                back=back,
                type=self.text(t, "type", kind),
                unit_id=tid,
                provenance=self.text(t, "provenance", ""),
            )
            for i in ids
        ]
        return [self.with_art(c, given, t) for c in counters]
