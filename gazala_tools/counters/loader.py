"""Read a counter manifest (``mapdata/<game>/counters.yaml``) into a :class:`~.model.Manifest`.

The format is documented in ``docs/counters.md``. In short: ``units`` list each combat unit once
with its values per step (full strength first); ``chits`` and ``markers`` list each kind once with
a ``count``. The reader expands them into physical counters with stable ids:

* a unit with ``steps: 3`` and id ``axis-21pz-5-1`` gives ``axis-21pz-5-1-s3``, ``-s2``, ``-s1``;
* a marker with ``count: 8`` and id ``disrupted`` gives ``disrupted-1`` ... ``disrupted-8``.

Ids never depend on a counter's position in the file, so adding a unit renumbers nothing.
The whole file is read and checked before anything is built; every error names the file, the line
and the bad value.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import Any, Final

import yaml

from gazala_tools.counters.model import (
    INKS,
    SIDES,
    SIZES,
    UNIT_TYPES,
    VALUE_ROLES,
    Counter,
    Face,
    Manifest,
    Nationality,
    Value,
)
from gazala_tools.errors import GazalaError
from gazala_tools.mapdata.model import GAMES

COUNTERS_FILE: Final = "counters.yaml"
ID_RE: Final = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
COLOR_RE: Final = re.compile(r"^#[0-9a-fA-F]{6}$")
VALUE_STYLES: Final = ("rg", "adm")
UNIT_BACKS: Final = ("used", "reduced-half-up", "depleted", "blank", "same")
TOP_KEYS: Final = frozenset(
    {
        "game", "title", "provenance", "sources", "notes", "counter_size", "value_style", "unit_back",
        "artillery_roles", "total", "nationalities", "units", "chits", "markers",
    }
)  # fmt: skip
UNIT_KEYS: Final = frozenset(
    {
        "id", "nationality", "formation", "designation", "type", "size", "steps", "values", "back",
        "provenance", "restricted", "one_sided", "roles",
    }
)  # fmt: skip
TOKEN_KEYS: Final = frozenset({"id", "side", "nationality", "type", "count", "front", "back", "provenance"})
FACE_KEYS: Final = frozenset({"title", "subtitle", "icon", "color", "text_color"})
#: RG 2.2.3/11.0: a hard value in red may attack armor; black = defence only. Soft in white = defence only.
HARD_RED_TYPES: Final = frozenset({"armor", "anti-tank", "recon", "armored-recon"})
SOFT_WHITE_TYPES: Final = frozenset({"anti-tank"})
LINE: Final = "__line__"


class ManifestError(GazalaError):
    """A counter manifest that does not follow the format."""


#: libyaml's C loader when PyYAML was built with it (several times faster), else the Python one
_SafeBase: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _LineLoader(_SafeBase):  # type: ignore[valid-type,misc]
    """A safe loader that records the line of every mapping under ``__line__``."""


def _construct_mapping(loader: _LineLoader, node: yaml.MappingNode) -> dict[str, Any]:
    mapping: dict[str, Any] = {str(k): v for k, v in loader.construct_mapping(node, deep=True).items()}
    mapping[LINE] = node.start_mark.line + 1
    return mapping


_LineLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


def counters_root() -> Path:
    """Where the built-in manifests live: beside the maps (``$GAZALA_MAPDATA`` or ``mapdata/``)."""
    from gazala_tools.mapdata.loader import mapdata_root

    return mapdata_root()


def manifest_file(game_or_path: str | Path) -> Path:
    """The manifest YAML for a game id, a game directory or a YAML file."""
    p = Path(game_or_path)
    if p.suffix in (".yaml", ".yml") and p.is_file():
        return p
    if p.is_dir():
        return p / COUNTERS_FILE
    if str(game_or_path) in GAMES:
        return counters_root() / str(game_or_path) / COUNTERS_FILE
    raise ManifestError(
        f"unknown game or manifest {str(game_or_path)!r}",
        expected=f"one of {', '.join(GAMES)} or a counters.yaml path",
    )


_CACHE: dict[tuple[Path, float], Manifest] = {}


def load_manifest(game_or_path: str | Path) -> Manifest:
    """The counter manifest of a built-in game id (``gazala-rg``...) or of a YAML file.

    Cached per file and modification time, like ``mapdata.load_map``: the referee, its game
    detection, the rules plugins and the module builder all ask for the same manifests.
    """
    path = manifest_file(game_or_path)
    try:
        key = (path.resolve(), path.stat().st_mtime)
        text = None if key in _CACHE else path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ManifestError(f"cannot read manifest ({exc.strerror})", file=path) from None
    if text is not None:
        _CACHE[key] = parse_manifest(text, file=path)
    return _CACHE[key]


def parse_manifest(text: str, *, file: str | Path = "<string>") -> Manifest:
    try:
        doc = yaml.load(text, Loader=_LineLoader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        place = f"{mark.line + 1}:{mark.column + 1}" if mark is not None else None
        raise ManifestError(
            f"not valid YAML: {getattr(exc, 'problem', exc)}", file=file, place=place
        ) from None
    return _Reader(file).manifest(doc)


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
    """BG 7.0: combat values halved, rounded up."""
    return math.ceil(x / 2)


def _half_down(x: int) -> int:
    """DG depleted side (reconstructed): halved, rounded down, at least 1."""
    return max(1, x // 2)


class _Reader:
    def __init__(self, file: str | Path) -> None:
        self.file = file

    def fail(
        self, problem: str, node: Any = None, expected: str | None = None, key: str = ""
    ) -> ManifestError:
        place = None
        if isinstance(node, dict) and LINE in node:
            place = f"line {node[LINE]}"
        if key:
            place = f"{place} {key}" if place else key
        return ManifestError(problem, file=self.file, place=place, expected=expected)

    def check_keys(self, node: Any, allowed: frozenset[str], what: str) -> dict[str, Any]:
        if not isinstance(node, dict):
            raise self.fail(f"{what} is {type(node).__name__}, not a mapping", expected="a mapping")
        unknown = sorted(k for k in node if k != LINE and k not in allowed)
        if unknown:
            raise self.fail(
                f"unknown key {unknown[0]!r} in {what}", node, expected=", ".join(sorted(allowed))
            )
        return node

    def text(self, node: dict[str, Any], key: str, default: str | None = None) -> str:
        v = node.get(key, default)
        if v is None:
            raise self.fail(f"missing {key!r}", node)
        if isinstance(v, bool) or not isinstance(v, str | int | float):
            raise self.fail(f"{key} {v!r} is not text", node)
        return str(v)

    def ident(self, node: dict[str, Any]) -> str:
        i = self.text(node, "id")
        if not ID_RE.match(i):
            raise self.fail(f"id {i!r} is not a stable id", node, "lowercase words and digits joined by '-'")
        return i

    def manifest(self, doc: Any) -> Manifest:
        doc = self.check_keys(doc, TOP_KEYS, "the manifest")
        game = self.text(doc, "game")
        style = self.text(doc, "value_style", "rg")
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
            title=self.text(doc, "title", game),
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
            side = self.text(n, "side")
            if side not in SIDES:
                raise self.fail(f"side {side!r} is unknown", n, ", ".join(SIDES))
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
        if self.style == "rg":
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

    def make_values(
        self, roles: Sequence[str], numbers: Sequence[int | None], utype: str, restricted: bool
    ) -> tuple[Value, ...]:
        vals = []
        for role, num in zip(roles, numbers, strict=True):
            ink = None
            if self.style == "rg":
                if role == "hard":
                    ink = "red" if utype in HARD_RED_TYPES else "black"
                elif role == "soft":
                    ink = "white" if utype in SOFT_WHITE_TYPES else "black"
                else:
                    ink = "black"
            vals.append(Value(role, num, ink if ink in INKS else None, bracket=restricted and role == "move"))
        return tuple(vals)

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
        if utype not in UNIT_TYPES:
            raise self.fail(f"type {utype!r} is unknown", u, ", ".join(UNIT_TYPES))
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
            out.append(
                Counter(
                    id=uid if steps == 1 else f"{uid}-s{step}",
                    kind="unit",
                    side=self.nats[nat].side,
                    nationality=nat,
                    front=front,
                    back=back,
                    formation=self.text(u, "formation", ""),
                    designation=self.text(u, "designation"),
                    type=utype,
                    size=size,
                    steps=steps,
                    step=step,
                    unit_id=uid,
                    provenance=self.text(u, "provenance", ""),
                    restricted=restricted,
                )
            )
        return out

    # --- chits and markers -------------------------------------------------------------------
    def face(self, node: Any, owner: dict[str, Any], state: str) -> Face:
        if node is None:
            return Face(state=state)
        if isinstance(node, str):
            return Face(title=node, state=state)
        node = self.check_keys(node, FACE_KEYS, "a face")
        return Face(
            title=self.text(node, "title", ""),
            subtitle=self.text(node, "subtitle", ""),
            icon=self.text(node, "icon", ""),
            state=state,
            color=self.color(node, "color"),
            text_color=self.color(node, "text_color"),
        )

    def token(self, t: Any, kind: str) -> list[Counter]:
        t = self.check_keys(t, TOKEN_KEYS, f"a {kind}")
        tid = self.ident(t)
        side = self.text(t, "side", "neutral")
        if side not in SIDES:
            raise self.fail(f"side {side!r} is unknown", t, ", ".join(SIDES))
        nat = self.text(t, "nationality", "")
        if nat and nat not in self.nats:
            raise self.fail(f"nationality {nat!r} is not declared", t, ", ".join(self.nats))
        count = t.get("count", 1)
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            raise self.fail(f"count {count!r} is not a positive whole number", t)
        front = self.face(t.get("front"), t, kind)
        back = self.face(t.get("back"), t, kind) if "back" in t else front
        ids = [tid] if count == 1 else [f"{tid}-{i}" for i in range(1, count + 1)]
        return [
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
