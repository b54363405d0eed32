"""Which of a module's pieces are units (issue 35 item 1): side, type, printed factors, movement allowance.

``game import`` reads every piece slot for the evidence a module offers: the piece's own name (split
into tokens: ``hero-odin``, ``INF-XX-2-3-5``, ``GameTurn``), its image names, the names of the
prototypes it uses, the palette folders it sits in, its marker and property values, and where the
module's set-ups put it (on a hex of the main grid, or only in the boxes of a track). The words are
data (:data:`WORDS_FILE`, package data the user extends with ``--words``), never code: unit types,
marker words, unit sizes, property names for factors. Sides are the module's own: a value of a
marker or property that is a side of the player roster, or a palette folder or prototype named after
one.

Every fact carries its evidence (a list of sentences, written to ``import-report.yaml``); a piece that
no evidence classifies is a counter, listed with the reason. The result is ``units.yaml`` of the
folder (:func:`units_doc`), which the user corrects; ``referee`` reads it (``gazala_tools.referee.imported``).
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from lxml import etree

from gazala_tools.errors import GazalaError
from gazala_tools.vassal.importer.reader import (
    ImportedModule,
    ImportedPiece,
    SetupPlacement,
    expand_prototypes,
)
from gazala_tools.vassal.lint import PIECE_SLOT, PROTOTYPE
from gazala_tools.vsav import sequence
from gazala_tools.vsav.traits import PieceDef, decode_piece
from gazala_tools.yamlnodes import load_plain

__all__ = [
    "MARKER",
    "UNIT",
    "UNITS_HEAD",
    "WORDS_FILE",
    "WORD_KEYS",
    "Inferred",
    "Words",
    "infer_piece",
    "infer_units",
    "load_words",
    "parse_factors",
    "report_section",
    "tokens",
    "units_doc",
]

#: the package's word table (general wargame vocabulary)
WORDS_FILE = "unit_words.json"
UNIT = "unit"
MARKER = "marker"
#: a factors pattern: two to four numbers joined by dashes, not inside a longer run of digits/dashes
_FACTORS = re.compile(r"(?<!\d)(?<!\d-)(\d+(?:-\d+){1,5})(?!-?\d)")
_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])")
_TOKEN_SPLIT = re.compile(r"[^a-z0-9]+")
WORD_KEYS = ("unit-words", "marker-words", "unit-types", "unit-sizes", "factor-properties", "factor-roles",
             "max-factor")


@dataclass(frozen=True)
class Words:
    """The word table: what tokens say a piece is a unit, a marker, of a type, and its factors' names."""

    unit_words: frozenset[str]
    marker_words: frozenset[str]
    types: dict[str, str]  #: token -> unit type
    sizes: frozenset[str]
    factor_props: dict[str, str]  #: property name (lower case) -> role
    roles: dict[int, tuple[str, ...]]
    max_factor: int

    @classmethod
    def from_data(cls, data: Mapping[str, Any], extra: Mapping[str, Any] | None = None) -> Words:
        def words(key: str) -> frozenset[str]:
            got = [*data.get(key, []), *((extra or {}).get(key) or [])]
            return frozenset(str(w).lower() for w in got)

        types: dict[str, str] = {}
        for source in (data, extra or {}):
            for t, ws in (source.get("unit-types") or {}).items():
                for w in [t, *ws]:
                    types[str(w).lower()] = str(t)
        props: dict[str, str] = {}
        for source in (data, extra or {}):
            for role, ws in (source.get("factor-properties") or {}).items():
                for w in ws:
                    props[str(w).lower()] = str(role)
        roles = {int(k): tuple(str(r) for r in v) for k, v in data.get("factor-roles", {}).items()}
        roles.update({int(k): tuple(str(r) for r in v) for k, v in ((extra or {}).get("factor-roles") or {}).items()})
        return cls(words("unit-words"), words("marker-words"), types, words("unit-sizes"), props, roles,
                   int((extra or {}).get("max-factor") or data.get("max-factor", 99)))


def load_words(extra: str | Path | None = None) -> Words:
    """The package's word table, with ``extra`` (a JSON or YAML file of the same keys) added to it."""
    base = json.loads(resources.files("gazala_tools.vassal.importer").joinpath(WORDS_FILE).read_text("utf-8"))
    more: dict[str, Any] | None = None
    if extra is not None:
        got = load_plain(Path(extra), "word table", GazalaError)  # JSON is YAML
        if not isinstance(got, dict):
            raise GazalaError("the word table is not a mapping", file=extra, expected="{unit-types: {...}, ...}")
        unknown = sorted(set(got) - set(WORD_KEYS) - {"about"})
        if unknown:
            raise GazalaError(f"unknown key {unknown[0]!r}", file=extra, expected="keys " + ", ".join(WORD_KEYS))
        for key in ("unit-words", "marker-words", "unit-sizes"):
            if key in got and not (isinstance(got[key], list) and all(isinstance(w, str) for w in got[key])):
                raise GazalaError(f"{key} is not a list of words", file=extra, place=key, expected="[word, ...]")
        for key in ("unit-types", "factor-properties"):
            if key in got and not (isinstance(got[key], dict) and all(
                    isinstance(v, list) and all(isinstance(w, str) for w in v) for v in got[key].values())):
                raise GazalaError(f"{key} is not a mapping of word lists", file=extra, place=key,
                                  expected="{name: [word, ...]}")
        _check_numbers(got, extra)
        more = got
    return Words.from_data(base, more)


def _check_numbers(got: Mapping[str, Any], file: str | Path) -> None:
    """A user's ``factor-roles`` (a count of factors, 2 to 4, -> that many role names) and ``max-factor`` (a
    whole number >= 1), refused with the key otherwise."""
    roles = got.get("factor-roles")
    if roles is not None:
        ok = isinstance(roles, dict) and all(
            str(k).strip().isdigit() and 2 <= int(str(k)) <= 4 and isinstance(v, list) and len(v) == int(str(k))
            and all(isinstance(r, str) for r in v) for k, v in roles.items())
        if not ok:
            raise GazalaError("factor-roles is not a mapping of a count of factors to that many role names",
                              file=file, place="factor-roles", expected='{"3": ["attack", "defense", "move"]} (2 to 4)')
    top = got.get("max-factor")
    if top is not None and (isinstance(top, bool) or not isinstance(top, int) or top < 1):
        raise GazalaError(f"max-factor {top!r} is not a whole number >= 1", file=file, place="max-factor",
                          expected="the largest printed factor, e.g. 99")


@functools.lru_cache(maxsize=4096)
def tokens(text: str) -> list[str]:
    """The lower-case word tokens of a name: split at every non-alphanumeric character and at each
    lower-to-upper case change (``GameTurn`` -> game, turn; ``INF-XX-2-3-5_123`` -> inf, xx, 2, 3, 5, 123)."""
    stem = re.sub(r"\.(png|gif|jpe?g|svg)$", "", text, flags=re.IGNORECASE)
    return [t for t in _TOKEN_SPLIT.split(_CAMEL.sub(" ", stem).lower()) if t]


@dataclass
class Inferred:
    """What the import decided for one piece slot, with the evidence of each fact."""

    counter: str  #: the counter id in counters.yaml
    name: str
    gpid: str
    kind: str | None = None  #: unit / marker; None: not classified (a counter)
    side: str | None = None  #: the side's id (game.yaml)
    type: str | None = None
    factors: tuple[int, ...] | None = None
    move: int | None = None
    evidence: dict[str, list[str]] = field(default_factory=dict)  #: fact -> why
    reason: str | None = None  #: why it is not classified, or why its factors were refused

    def why(self, fact: str, text: str) -> None:
        self.evidence.setdefault(fact, []).append(text)

    def entry(self) -> dict[str, Any]:
        """Its line of ``units.yaml``."""
        out: dict[str, Any] = {"name": self.name, "gpid": self.gpid, "kind": self.kind or "counter"}
        if self.side:
            out["side"] = self.side
        if self.type:
            out["type"] = self.type
        if self.factors:
            out["factors"] = "-".join(str(n) for n in self.factors)
        if self.move is not None:
            out["move"] = self.move
        return out


@dataclass(frozen=True)
class _Context:
    prototypes: dict[str, PieceDef]
    sides: dict[str, str]  #: roster side (lower case) -> side id
    main_map: str | None
    on_hex: Callable[[SetupPlacement], bool]
    placements: dict[str, list[SetupPlacement]]  #: gpid -> set-up placements


def _palettes(root: etree._Element) -> dict[int, list[str]]:
    """Each piece slot's palette folders (PanelWidget/ListWidget/TabWidget/BoxWidget names), outermost first,
    by the slot's index among the buildFile's PieceSlot elements."""
    out: dict[int, list[str]] = {}
    for index, el in enumerate(root.iter(PIECE_SLOT)):
        names: list[str] = []
        node = el.getparent()
        while node is not None and node.getparent() is not None:
            tag = str(node.tag)
            if tag.startswith("VASSAL.build.widget.") and node.get("entryName"):
                names.append(node.get("entryName", ""))
            node = node.getparent()
        out[index] = list(reversed(names))
    return out


def _decoded(piece: ImportedPiece, prototypes: dict[str, PieceDef]) -> tuple[list[str], dict[str, str]]:
    """The prototypes a piece uses (nested ones after the one that names them) and its properties with its
    prototypes resolved (decoded once)."""
    try:
        pdef = decode_piece(piece.type, piece.state)
        return _protos_of(pdef, prototypes, 0), expand_prototypes(pdef, prototypes).properties()
    except GazalaError:
        return [], {}


def _protos_of(pdef: PieceDef, prototypes: Mapping[str, PieceDef], depth: int) -> list[str]:
    out: list[str] = []
    if depth > 20:
        return out
    for t in pdef.traits[:-1]:
        if t.id == "prototype;":
            name = t.type[len("prototype;"):].split(";", 1)[0]
            out.append(name)
            if name in prototypes:
                out.extend(_protos_of(prototypes[name], prototypes, depth + 1))
    return out


def parse_factors(text: str, words: Words) -> tuple[tuple[int, ...] | None, str | None, str | None]:
    """Printed factors in a name: ``(factors, the text they were read from, why refused)``; ``(None, None,
    None)`` when the name has no dash-joined numbers."""
    for m in _FACTORS.finditer(text):
        raw = m.group(1)
        nums = [int(x) for x in raw.split("-")]
        if len(nums) > 4:
            return None, raw, f"{raw!r} has {len(nums)} numbers (factors are 2 to 4)"
        if any(len(x) > 2 for x in raw.split("-")) or max(nums) > words.max_factor:
            return None, raw, f"{raw!r} has a number above {words.max_factor} (not printed factors: a date or a code?)"
        if not any(nums):
            return None, raw, f"{raw!r} is all zeros"
        return tuple(nums), raw, None
    return None, None, None


def _factor_text(value: str, words: Words) -> tuple[int, ...] | None:
    got, _raw, bad = parse_factors(value, words)
    return got if bad is None and got is not None and re.fullmatch(r"\s*\d+(?:-\d+)+\s*", value) else None


def infer_piece(piece: ImportedPiece, counter: str, ctx: _Context, palettes: list[str], words: Words) -> Inferred:
    """The facts of one piece slot (see the module docstring)."""
    got = Inferred(counter, piece.name, piece.gpid)
    name_tokens = tokens(piece.name)
    protos, props = _decoded(piece, ctx.prototypes)
    images = [x for x in dict.fromkeys([*piece.front, *piece.back]) if x]
    _infer_side(got, props, palettes, protos, ctx)
    unit_why, marker_why = _word_evidence(got, name_tokens, images, protos, palettes, words)
    refused = _infer_factors(got, piece.name, images, props, words)
    if not _decide(got, unit_why, marker_why, ctx):
        parts = []
        if refused:
            parts.append(f"its factors were refused ({refused})")
        if unit_why and marker_why:
            parts.append(f"the evidence disagrees ({unit_why[0]}; {marker_why[0]})")
        if not parts:
            parts.append("no unit or marker word in its name, images, prototypes or palette, no factors, "
                         "and no set-up places it on a hex")
        got.reason = "; ".join(parts)
        return got
    if refused and got.factors is None:
        got.reason = f"factors refused: {refused}"
        got.why("factors", f"refused: {refused}")
    if got.kind == MARKER:
        got.type = got.factors = got.move = None
        for fact in ("type", "factors", "move"):
            got.evidence.pop(fact, None)
    elif got.type is None:
        own_unit = [w for w in unit_why if w.startswith(("name", "image"))]
        rest = [t for t in name_tokens if not t.isdigit() and t not in words.unit_words and t not in words.sizes
                and t not in ctx.sides and t not in words.marker_words]
        if len(rest) == 1 or (rest and own_unit):
            got.type = rest[0]
            got.why("type", f"the name's word {rest[0]!r} beside "
                            + (own_unit[0].split(" has ", 1)[1] if own_unit else "its factors"))
    return got


def _infer_side(got: Inferred, props: Mapping[str, str], palettes: list[str], protos: list[str], ctx: _Context) -> None:
    """The side: a property value that is a roster side, then a palette folder or prototype named after one."""
    for key, value in sorted(props.items()):
        sid = ctx.sides.get(value.strip().lower())
        if sid is not None:
            got.side = sid
            got.why("side", f"property {key} = {value!r}, a side of the module's player roster")
            return
    for where, names in (("palette folder", palettes), ("prototype", protos)):
        for n in names:
            for t in [n.lower(), *tokens(n)]:
                sid = ctx.sides.get(t)
                if sid is not None and got.side is None:
                    got.side = sid
                    got.why("side", f"{where} {n!r} is named after the roster side {t!r}")


def _word_evidence(got: Inferred, name_tokens: list[str], images: list[str], protos: list[str],
                   palettes: list[str], words: Words) -> tuple[list[str], list[str]]:
    """What the words of the name, images, prototypes and palette folders say (the unit type on the way):
    the sentences saying unit, and those saying marker."""
    unit_why: list[str] = []
    marker_why: list[str] = []
    sources: list[tuple[str, list[str]]] = [("name", name_tokens)]
    sources += [(f"image {x!r}", tokens(x)) for x in images]
    sources += [(f"prototype {p!r}", tokens(p)) for p in protos]
    sources += [(f"palette folder {p!r}", tokens(p)) for p in palettes]
    own = {"name", *(f"image {x!r}" for x in images)}
    for where, toks in sources:
        for t in toks:
            if t in words.types and got.type is None and (where in own or not marker_why):
                got.type = words.types[t]
                got.why("type", f"{where} has {t!r}, a word of unit type {words.types[t]!r}")
                unit_why.append(f"{where} has the unit type word {t!r}")
            elif t in words.unit_words:
                unit_why.append(f"{where} has the unit word {t!r}")
            elif t in words.marker_words:
                marker_why.append(f"{where} has the marker word {t!r}")
    return unit_why, marker_why


def _infer_factors(got: Inferred, name: str, images: list[str], props: Mapping[str, str], words: Words) -> str | None:
    """Printed factors and the movement allowance: the name, its images, then property values, then properties
    by name. Returns why factors found in a name were refused, if they were."""
    refused: str | None = None
    for where, text in [("name", name), *((f"image {x!r}", x) for x in images)]:
        factors, raw, bad = parse_factors(text, words)
        if bad is not None:
            refused = refused or f"{where} {text!r}: {bad}"
            continue
        if factors is not None:
            got.factors = factors
            got.why("factors", f"{where} has {raw!r}")
            break
    if got.factors is None:
        for key, value in sorted(props.items()):
            f = _factor_text(value, words)
            if f is not None and len(f) <= 4:
                got.factors = f
                got.why("factors", f"property {key} = {value!r}")
                break
    by_role: dict[str, tuple[str, int]] = {}
    for key, value in sorted(props.items()):
        role = words.factor_props.get(key.lower())
        if role is not None and value.strip().isdigit() and int(value) <= words.max_factor:
            by_role.setdefault(role, (key, int(value)))
    if got.factors is not None:
        roles = words.roles.get(len(got.factors), ())
        if "move" in roles:
            got.move = got.factors[roles.index("move")]
            got.why("move", f"factor {roles.index('move') + 1} of {len(got.factors)} "
                            f"({'-'.join(roles)}: the word table's factor-roles)")
    elif by_role:
        order = [r for r in ("attack", "defense", "move") if r in by_role]
        got.factors = tuple(by_role[r][1] for r in order)
        got.why("factors", "properties " + ", ".join(f"{by_role[r][0]} = {by_role[r][1]}" for r in order))
    if got.move is None and "move" in by_role:
        got.move = by_role["move"][1]
        got.why("move", f"property {by_role['move'][0]} = {by_role['move'][1]}")
    return refused


def _decide(got: Inferred, unit_why: list[str], marker_why: list[str], ctx: _Context) -> bool:
    """Unit or marker, strongest evidence first (the piece's own name and images, factors, other words, where
    the set-ups put it); False when nothing decides."""
    own_marker = [w for w in marker_why if w.startswith(("name", "image"))]
    own_unit = [w for w in unit_why if w.startswith(("name", "image"))]
    placed = ctx.placements.get(got.gpid, [])
    on_hex = [pl for pl in placed if ctx.on_hex(pl)]
    on_track = [pl for pl in placed if pl.map == ctx.main_map and not ctx.on_hex(pl)]
    if own_marker and not own_unit:
        got.kind, why = MARKER, own_marker[0]
    elif own_unit or got.factors is not None:
        got.kind, why = UNIT, own_unit[0] if own_unit else "it has printed factors"
    elif marker_why and not unit_why:
        got.kind, why = MARKER, marker_why[0]
    elif unit_why and not marker_why:
        got.kind, why = UNIT, unit_why[0]
    elif on_track and not on_hex:
        box = on_track[0].location or on_track[0].map
        got.kind, why = MARKER, f"the set-ups place it only off the main grid's hexes on its map ({box!r}: a track or box)"
    elif on_hex and got.side is not None:
        got.kind, why = UNIT, f"a set-up places it on hex {on_hex[0].location} and it has a side"
    else:
        return False
    got.why("kind", why)
    return True


def infer_units(mod: ImportedModule, root: etree._Element, counter_of_slot: Mapping[int, str],
                side_ids: Mapping[str, str], *, main_map: str | None, on_hex: Callable[[SetupPlacement], bool],
                words: Words) -> list[Inferred]:
    """The facts of every piece slot of ``mod`` (in slot order)."""
    prototypes: dict[str, PieceDef] = {}
    for el in root.iter(PROTOTYPE):
        text = (el.text or "").strip()
        try:
            toks = sequence.decode(text, "/")
            if len(toks) >= 3:
                prototypes[el.get("name", "")] = decode_piece(toks[2], toks[3] if len(toks) > 3 else "")
        except (GazalaError, ValueError):
            continue
    by_gpid: dict[str, list[SetupPlacement]] = {}
    for pl in mod.placements:
        by_gpid.setdefault(pl.gpid, []).append(pl)
    ctx = _Context(prototypes, {name.lower(): sid for name, sid in side_ids.items()}, main_map, on_hex, by_gpid)
    palettes = _palettes(root)
    return [infer_piece(p, counter_of_slot[p.slot], ctx, palettes.get(p.slot, []), words) for p in mod.pieces]


def report_section(facts: Iterable[Inferred], head: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """``import-report.yaml``'s ``units`` section: counts by side and class, every fact with its evidence,
    and every piece not classified with the reason; ``head``: units.yaml's other keys as written (``main-grid``,
    ``sides``: ``--update`` keeps the ones the user changed)."""
    facts = list(facts)
    counts: dict[str, dict[str, int]] = {}
    for f in facts:
        side = f.side or "no side"
        what = (f.type or "no type") if f.kind == UNIT else (f.kind or "not classified")
        counts.setdefault(side, {}).setdefault(what, 0)
        counts[side][what] += 1
    return {
        "counts": {"units": sum(f.kind == UNIT for f in facts), "markers": sum(f.kind == MARKER for f in facts),
                   "not classified": sum(f.kind is None for f in facts),
                   "by side and class": {s: dict(sorted(c.items())) for s, c in sorted(counts.items())}},
        "inferred": {f.counter: {**f.entry(), "evidence": {k: v for k, v in f.evidence.items()}}
                     for f in facts if f.kind is not None},
        "not classified": {f.counter: {"name": f.name, "reason": f.reason} for f in facts if f.kind is None},
        "factors refused": {f.counter: f.reason for f in facts if f.kind is not None and f.reason},
        **({"head": dict(head)} if head is not None else {}),
    }


def units_doc(facts: Iterable[Inferred], sides: Iterable[str], main: Mapping[str, str | None] | None) -> dict[str, Any]:
    """``units.yaml``: where the main grid is (map, board, zone), the sides, and one line per counter
    (gpid, kind unit / marker / counter, side, type, factors, move)."""
    return {**({"main-grid": {k: v for k, v in main.items() if v is not None}} if main else {}),
            "sides": list(sides), "pieces": {f.counter: f.entry() for f in facts}}


UNITS_HEAD = ("# Which pieces are units (`gazala help module`, \"Referee your existing module\"). Written by\n"
              "# `gazala game import` from the evidence in import-report.yaml (units:). Correct any line: kind\n"
              "# (unit, marker, counter), side (an id of game.yaml), type, factors (\"4-4-6\"), move.\n"
              "# `game import --update` keeps every line you changed.\n")


