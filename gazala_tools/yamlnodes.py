"""Read data YAML as nodes, so every error names the file, line, column and the bad value.

Every data format of a game folder (``game.yaml``, ``map.yaml``, ``scenarios.yaml``, ``tables.yaml``,
module configs) is read through :func:`compose` and :class:`Doc`: the text is composed into
``yaml`` nodes (never constructed into Python objects first), so a reader can say
``game.yaml:12:5: sides[1].id: 'Red Army' is not an id (expected lowercase words and digits joined by '-')``.
Size and nesting are capped before anything else is built. A merge key (``<<: *defaults``, YAML 1.1)
is applied to the nodes once they passed the caps (:func:`compose_text`): every reader sees the merged
mapping, its merged entries at the place where they are written (:func:`merged_via`). Pure Python (PyYAML only).

The one way to read a section: :class:`Section` (a mapping with its key path, typed getters with
defaults, "did you mean" for an unknown key or a bad choice); the rules reader
(:class:`gazala_tools.referee.ruledata.RulesSection`) extends it with the game's names. The one way to
raise an error at a YAML place: :meth:`Doc.err` (at a node) or :meth:`Doc.err_at` (at a place kept
from an earlier read, ``"12:5"``).
"""

from __future__ import annotations

import contextlib
import copy
import difflib
import gc
import math
import re
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Final, NamedTuple, Self, TypeVar

import yaml

from gazala_tools.errors import GazalaError
from gazala_tools.fileio import note_input

__all__ = [
    "COLOR_RE",
    "GC_THRESHOLD",
    "ID_RE",
    "MAX_ALIASES",
    "MAX_BYTES",
    "MAX_DEPTH",
    "MAX_EXPANDED",
    "MAX_LIST",
    "MAX_PLAIN_VALUES",
    "MAX_SCALAR",
    "MERGE_TAG",
    "CappedLoader",
    "Doc",
    "E",
    "Section",
    "T",
    "compose",
    "compose_text",
    "did_you_mean",
    "error_at",
    "expanded_size",
    "few_collections",
    "load_plain",
    "merged_via",
    "place_of",
    "place_of_mark",
    "plain",
    "read_text",
    "show",
]

#: largest data file we read (a 1,000-hex map is about 40 KB)
MAX_BYTES: Final = 8 * 1024 * 1024
#: deepest nesting of lists and mappings a data file may have
MAX_DEPTH: Final = 64
#: longest scalar (a label, a number, a line of text)
MAX_SCALAR: Final = 4000
#: most aliases (``*name``) a data file may use (the built-in games use one)
MAX_ALIASES: Final = 10_000
#: most values a data file may stand for with its aliases expanded (each use of an alias counts its
#: whole value again: a reader walks it each time)
MAX_EXPANDED: Final = 2_000_000
#: an id of a data file: lower-case words of letters and digits joined by hyphens
ID_RE: Final = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
#: a colour of a data file: ``#RRGGBB``
COLOR_RE: Final = re.compile(r"^#[0-9a-fA-F]{6}$")
#: the tag YAML gives a plain ``<<`` key: a merge key (YAML 1.1, https://yaml.org/type/merge.html)
MERGE_TAG: Final = "tag:yaml.org,2002:merge"

E = TypeVar("E", bound=GazalaError)
T = TypeVar("T")


def show(node: yaml.Node) -> str:
    """How a bad value is quoted in a message."""
    if isinstance(node, yaml.ScalarNode):
        text = str(node.value)
        return repr(text if len(text) <= 60 else text[:57] + "...")
    return "a list" if isinstance(node, yaml.SequenceNode) else "a mapping"


def place_of(node: yaml.Node | None) -> str | None:
    """``line:column`` of a node (None for a node built from Python data: it has no place)."""
    if node is None or node.start_mark is None:
        return None
    m = node.start_mark
    return f"{m.line + 1}:{m.column + 1}"


class _Shape(NamedTuple):
    deep: yaml.Node | None  #: a node nested past :data:`MAX_DEPTH`, or inside itself (a recursive alias ``&x [*x]``)
    nodes: int  #: distinct nodes
    aliases: int  #: second references to a node (each use of an alias)
    over: yaml.Node | None  #: the value of the alias past :data:`MAX_ALIASES` (None: within the cap)
    merges: int = 0  #: merge keys ``<<``


def _shape(node: yaml.Node) -> _Shape:
    """One walk of the composed nodes: depth, recursion, size and aliases (visiting each node once)."""
    todo: list[tuple[yaml.Node, int, bool]] = [(node, 1, False)]
    state: dict[int, bool] = {}  # id -> True while its children are being visited, False once done
    aliases, over, merges = 0, None, 0
    while todo:
        n, d, leaving = todo.pop()
        if leaving:
            state[id(n)] = False
            continue
        if d > MAX_DEPTH:
            return _Shape(n, len(state), aliases, over)
        visiting = state.get(id(n))
        if visiting:  # reached again from inside itself
            return _Shape(n, len(state), aliases, over)
        if visiting is not None:  # YAML aliases share nodes; visit each once
            aliases += 1
            if aliases == MAX_ALIASES + 1:
                over = n
            continue
        state[id(n)] = True
        todo.append((n, d, True))
        if isinstance(n, yaml.SequenceNode):
            todo.extend((c, d + 1, False) for c in n.value)
        elif isinstance(n, yaml.MappingNode):
            for k, v in n.value:
                merges += k.tag == MERGE_TAG
                todo.append((k, d + 1, False))
                todo.append((v, d + 1, False))
    return _Shape(None, len(state), aliases, over, merges)


def read_text(file: Path, what: str, error: type[E]) -> str:
    """The UTF-8 text of a regular file of at most :data:`MAX_BYTES` (recorded as an input; a FIFO
    or a device is refused before it is opened for reading, :mod:`gazala_tools.inputs`)."""
    from gazala_tools.inputs import read_file

    if not file.exists():
        note_input(file)
        raise error(f"{what} not found", file=file)
    data = read_file(file, what=what, cap=MAX_BYTES, error=error)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise error(f"{what} is not UTF-8 text (byte {exc.start})", file=file) from None


class _TooDeep(yaml.YAMLError):
    pass


class _TooManyAliases(yaml.YAMLError):
    pass


class CappedLoader(yaml.SafeLoader):
    """The safe loader with nesting capped while composing (a 5,000-deep document stops at level
    :data:`MAX_DEPTH` instead of recursing into a RecursionError)."""

    _depth = 0
    _aliases = 0

    def compose_node(self, parent: yaml.Node | None, index: int) -> yaml.Node | None:
        self._depth += 1
        try:
            if self._depth > MAX_DEPTH:
                raise _TooDeep(f"nested deeper than {MAX_DEPTH} levels")
            if self.check_event(yaml.AliasEvent):
                self._aliases += 1
                if self._aliases > MAX_ALIASES:
                    raise _TooManyAliases(self.peek_event().start_mark)  # type: ignore[no-untyped-call]
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1


#: libyaml's composer when PyYAML was built with it (about ten times as fast as the Python one)
_CBase: type[yaml.SafeLoader] | None = getattr(yaml, "CSafeLoader", None)


class _FastLoader(_CBase or yaml.SafeLoader):  # type: ignore[misc]
    """libyaml's safe composer, implicit tags of plain scalars resolved once per text (a data file
    repeats its keys and values thousands of times). libyaml refuses nesting past 1,000 levels itself;
    the caps of :func:`compose_text` are checked on what it composed (:func:`_shape`)."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self._tags: dict[tuple[str | None, tuple[bool, bool]], str] = {}

    def resolve(self, kind: type[yaml.Node], value: str | None, implicit: tuple[bool, bool]) -> str:
        if kind is not yaml.ScalarNode:
            return str(super().resolve(kind, value, implicit))
        key = (value, implicit)
        tag = self._tags.get(key)
        if tag is None:
            tag = self._tags[key] = str(super().resolve(kind, value, implicit))
        return tag


def _compose(text: str, libyaml: bool) -> yaml.Node | None:
    if not libyaml or _CBase is None:
        return yaml.compose(text, Loader=CappedLoader)
    loader = _FastLoader(text)
    try:
        return loader.get_single_node()  # type: ignore[no-any-return]
    finally:
        loader.dispose()


def compose_text(text: str, file: str | Path, what: str, error: type[E], *, libyaml: bool = False) -> yaml.Node:
    """One YAML document as nodes (safe: no tags beyond YAML's own, no Python objects). ``libyaml``:
    composed by libyaml where PyYAML has it (a file that may hold megabytes, ``counters.yaml`` of an
    imported module), with the same caps checked on the nodes it composed."""
    try:
        node = _compose(text, libyaml)
    except _TooDeep:
        raise error("YAML nested too deeply", file=file, expected=f"at most {MAX_DEPTH} levels") from None
    except _TooManyAliases as exc:
        raise error(f"YAML uses more than {MAX_ALIASES:,} aliases", file=file, place=place_of_mark(exc.args[0]),
                    expected=f"at most {MAX_ALIASES:,} aliases (*name)") from None
    except yaml.MarkedYAMLError as exc:
        if exc.problem == "exceeded maximum nesting depth":  # libyaml's own cap (1,000 levels)
            raise error("YAML nested too deeply", file=file, place=place_of_mark(exc.problem_mark),
                        expected=f"at most {MAX_DEPTH} levels") from None
        raise error(f"malformed YAML: {exc.problem}", file=file, place=place_of_mark(exc.problem_mark)) from None
    except yaml.YAMLError as exc:
        raise error(f"malformed YAML: {exc}", file=file) from None
    except RecursionError:
        raise error("YAML nested too deeply", file=file, expected=f"at most {MAX_DEPTH} levels") from None
    if node is None:
        raise error(f"empty {what}", file=file, expected="a mapping")
    shape = _shape(node)
    if shape.deep is not None:
        raise error("YAML nested too deeply", file=file, place=place_of(shape.deep),
                    expected=f"at most {MAX_DEPTH} levels")
    if shape.over is not None:  # libyaml's aliases are counted here (the Python composer's while composing)
        raise error(f"YAML uses more than {MAX_ALIASES:,} aliases", file=file, place=place_of(shape.over),
                    expected=f"at most {MAX_ALIASES:,} aliases (*name)")
    expanded = expanded_size(node) if shape.aliases else shape.nodes
    if expanded > MAX_EXPANDED:
        raise error(f"YAML stands for {expanded:,} values with its aliases expanded", file=file,
                    expected=f"at most {MAX_EXPANDED:,} (fewer aliases of large values)")
    if shape.merges:
        _Merges(node, file, error).apply()
    return node


def expanded_size(node: yaml.Node) -> int:
    """How many values ``node`` stands for, each alias counted as its whole value again (linear in the
    distinct nodes; call it on a tree :func:`_shape` accepted: no node inside itself)."""
    sizes: dict[int, int] = {}

    def size(n: yaml.Node) -> int:
        known = sizes.get(id(n))
        if known is not None:
            return known
        total = 1
        if isinstance(n, yaml.SequenceNode):
            total += sum(size(c) for c in n.value)
        elif isinstance(n, yaml.MappingNode):
            total += sum(size(k) + size(v) for k, v in n.value)
        sizes[id(n)] = total = min(total, MAX_EXPANDED + 1)
        return total

    return size(node)


class _MergedPairs(list[tuple[yaml.Node, yaml.Node]]):
    """The entries of a mapping whose merge key was applied: ``[start:end]`` came through ``via`` (the
    ``<<`` key), each the very entry of the mapping it was merged from (its place is where it is written)."""

    def __init__(self, pairs: list[tuple[yaml.Node, yaml.Node]], via: yaml.Node, start: int, end: int) -> None:
        super().__init__(pairs)
        self.via, self.start, self.end = via, start, end


def merged_via(node: yaml.MappingNode, index: int) -> yaml.Node | None:
    """The merge key ``<<`` through which entry ``index`` of a composed mapping came (None: it is
    written in the mapping itself)."""
    pairs = node.value
    if isinstance(pairs, _MergedPairs) and pairs.start <= index < pairs.end:
        return pairs.via
    return None


class _Merges:
    """The merge keys of one composed document applied in place (YAML 1.1): ``<<: *a`` or ``<<: [*a, *b]``
    puts the keys of the merged mappings where the ``<<`` is, but those written in the mapping itself
    (they win) or in an earlier mapping of the list. Each mapping is merged once, after the mappings
    inside it (a merged mapping is complete when it is merged). The entries looked at count against
    :data:`MAX_EXPANDED` (merges nested in merges, ``<<: {<<: {<<: *big}}``, look at ``big`` once each)."""

    def __init__(self, root: yaml.Node, file: str | Path, error: type[GazalaError]) -> None:
        self.root, self.file, self.error = root, file, error
        self.budget = MAX_EXPANDED

    def apply(self) -> None:
        for m in self._inside_out():
            if any(k.tag == MERGE_TAG and isinstance(k, yaml.ScalarNode) for k, _v in m.value):
                self._merge(m)

    def _inside_out(self) -> list[yaml.MappingNode]:
        """Every mapping once, each after those inside it (:func:`_shape` refused a node inside itself)."""
        out: list[yaml.MappingNode] = []
        seen: set[int] = set()
        todo: list[tuple[yaml.Node, bool]] = [(self.root, False)]
        while todo:
            n, leaving = todo.pop()
            if leaving:
                assert isinstance(n, yaml.MappingNode)
                out.append(n)
            elif id(n) not in seen:
                seen.add(id(n))
                if isinstance(n, yaml.MappingNode):
                    todo.append((n, True))
                    todo.extend((c, False) for kv in n.value for c in kv)
                elif isinstance(n, yaml.SequenceNode):
                    todo.extend((c, False) for c in n.value)
        return out

    def _merge(self, m: yaml.MappingNode) -> None:
        taken = {str(k.value) for k, _v in m.value if isinstance(k, yaml.ScalarNode) and k.tag != MERGE_TAG}
        out: list[tuple[yaml.Node, yaml.Node]] = []
        via: yaml.Node | None = None
        start = end = 0
        for pair in m.value:
            k, v = pair
            if not (k.tag == MERGE_TAG and isinstance(k, yaml.ScalarNode)):
                out.append(pair)
                continue
            if via is not None:
                raise self._err(k, f"{self._path(m)}: duplicate key '<<'",
                                "one merge key; <<: [*a, *b] merges several mappings")
            via, start = k, len(out)
            for source in self._sources(m, k, v):
                out += self._taken(source, k, taken)
            end = len(out)
        assert via is not None
        m.value = _MergedPairs(out, via, start, end)

    def _sources(self, m: yaml.MappingNode, key: yaml.Node, value: yaml.Node) -> list[yaml.MappingNode]:
        """The mappings a ``<<`` merges, the first one winning."""
        if isinstance(value, yaml.MappingNode):
            return [value]
        if not isinstance(value, yaml.SequenceNode):
            raise self._err(key, f"{self._path(m, '<<')}: {show(value)} cannot be merged",
                            "a mapping or a list of mappings: <<: *name or <<: [*a, *b]")
        for i, s in enumerate(value.value):
            if not isinstance(s, yaml.MappingNode):
                raise self._err(key, f"{self._path(m, '<<')}[{i}]: {show(s)} cannot be merged",
                                "a mapping: *name of one")
        return list(value.value)

    def _taken(self, source: yaml.MappingNode, via: yaml.Node, taken: set[str]) -> list[tuple[yaml.Node, yaml.Node]]:
        """The entries of ``source`` a mapping takes (none of the keys in ``taken``, which grows); each
        entry looked at counts as two values (its key and its value) against :data:`MAX_EXPANDED`."""
        self.budget -= 2 * len(source.value)
        if self.budget < 0:
            raise self._err(via, f"YAML stands for more than {MAX_EXPANDED:,} values with its merge keys (<<) "
                                 "applied", f"at most {MAX_EXPANDED:,} (fewer merges of large mappings)")
        out: list[tuple[yaml.Node, yaml.Node]] = []
        written: set[str] = set()
        for pair in source.value:
            k = pair[0]
            if not isinstance(k, yaml.ScalarNode):
                out.append(pair)  # no name to compare: the reader refuses it where it is written
                continue
            name = str(k.value)
            if name in written:
                raise self._err(k, f"{self._path(source)}: duplicate key {show(k)}, merged by '<<' at "
                                   f"{place_of(via)}")
            written.add(name)
            if name not in taken:
                taken.add(name)
                out.append(pair)
        return out

    def _err(self, node: yaml.Node, problem: str, expected: str | None = None) -> GazalaError:
        return error_at(self.error, self.file, place_of(node), problem, expected)

    def _path(self, target: yaml.Node, key: str | None = None) -> str:
        """The key path of the mapping ``target`` (by the first way to it in the file), or of its ``key``
        (``units[1].<<``); the top mapping's is ``key`` alone, or "the top mapping"."""
        todo: list[tuple[yaml.Node, str]] = [(self.root, "")]
        seen: set[int] = set()
        while todo:
            n, path = todo.pop()
            if n is target:
                return ".".join(p for p in (path, key) if p) or "the top mapping"
            if id(n) in seen:
                continue
            seen.add(id(n))
            if isinstance(n, yaml.SequenceNode):
                todo.extend((c, f"{path}[{i}]") for i, c in reversed(list(enumerate(n.value))))
            elif isinstance(n, yaml.MappingNode):
                todo.extend((v, f"{path}.{k.value}" if path else str(k.value)) for k, v in reversed(n.value)
                            if isinstance(k, yaml.ScalarNode))
        return key or "a mapping"


def place_of_mark(mark: yaml.Mark | None) -> str | None:
    return f"{mark.line + 1}:{mark.column + 1}" if mark is not None else None


def compose(file: Path, what: str, error: type[E], *, libyaml: bool = False) -> yaml.Node:
    """Read and compose a data file (size-capped, UTF-8, nesting-capped; ``libyaml``: :func:`compose_text`)."""
    return compose_text(read_text(file, what, error), file, what, error, libyaml=libyaml)


def error_at(error: type[E], file: str | Path | None, place: str | None, problem: str,
             expected: str | None = None) -> E:
    """An ``error`` at a place of a data file (``"12:5"``: :func:`place_of` a node read earlier; None:
    the file only): the one way every reader raises an error at a YAML place (:meth:`Doc.err`)."""
    return error(problem, file=file, place=place, expected=expected)


class Doc:
    """Typed access to the nodes of one file; every failure is an ``error`` naming file:line:col."""

    def __init__(self, file: str | Path, error: type[GazalaError] = GazalaError) -> None:
        self.file = file
        self.error = error

    def err(self, node: yaml.Node | None, problem: str, expected: str | None = None) -> GazalaError:
        """The error at ``node`` (its ``line:column``)."""
        return self.err_at(place_of(node), problem, expected)

    def err_at(self, place: str | None, problem: str, expected: str | None = None) -> GazalaError:
        """The error at a place kept from an earlier read (``"12:5"``, or None: the file only)."""
        return error_at(self.error, self.file, place, problem, expected)

    def mapping(self, node: yaml.Node, what: str, allowed: frozenset[str] | None = None) -> dict[str, yaml.Node]:
        if not isinstance(node, yaml.MappingNode):
            raise self.err(node, f"{what} must be a mapping, got {show(node)}")
        out: dict[str, yaml.Node] = {}
        for i, (k, v) in enumerate(node.value):
            if not isinstance(k, yaml.ScalarNode):
                raise self.err(k, f"{what}: keys must be plain names")
            if allowed is not None and k.value not in allowed:
                via = merged_via(node, i)
                merged = f", merged by '<<' at {place_of(via)}" if via is not None else ""
                raise self.err(k, f"{what}: unknown key {show(k)}{merged}{did_you_mean(str(k.value), allowed)}",
                               expected=", ".join(sorted(allowed)))
            if k.value in out:
                raise self.err(k, f"{what}: duplicate key {show(k)}")
            out[k.value] = v
        return out

    def require(self, m: dict[str, yaml.Node], node: yaml.Node, what: str, *keys: str) -> None:
        for k in keys:
            if k not in m:
                raise self.err(node, f"{what}: missing {k!r}", expected=", ".join(keys))

    def seq(self, node: yaml.Node, what: str) -> list[yaml.Node]:
        if not isinstance(node, yaml.SequenceNode):
            raise self.err(node, f"{what} must be a list, got {show(node)}")
        return list(node.value)

    def scalar(self, node: yaml.Node, what: str) -> str:
        if not isinstance(node, yaml.ScalarNode):
            raise self.err(node, f"{what} must be a single value, got {show(node)}")
        text = str(node.value)
        if len(text) > MAX_SCALAR:
            raise self.err(node, f"{what} is {len(text)} characters long", expected=f"at most {MAX_SCALAR}")
        return text

    def string(self, m: dict[str, yaml.Node], key: str, what: str, default: str | None = None) -> str:
        if key not in m:
            if default is None:
                raise self.error(f"{what}: missing {key!r}", file=self.file)
            return default
        return self.scalar(m[key], f"{what}.{key}")

    def opt(self, m: dict[str, yaml.Node], key: str, what: str) -> str | None:
        return self.scalar(m[key], f"{what}.{key}") if key in m else None

    def ident(self, node: yaml.Node, what: str) -> str:
        text = self.scalar(node, what)
        if not ID_RE.match(text):
            raise self.err(node, f"{what}: {text!r} is not an id", expected="lowercase words and digits joined by '-'")
        return text

    def integer(self, node: yaml.Node, what: str, *, lo: int | None = None, hi: int | None = None) -> int:
        text = self.scalar(node, what)
        if len(text.strip()) > 18:  # also keeps int() away from 4,300-digit strings
            raise self.err(node, f"{what} must be an integer, got {show(node)}", expected="at most 18 digits")
        try:
            value = int(text)
        except ValueError:
            raise self.err(node, f"{what} must be an integer, got {text!r}") from None
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            rng = f"{'' if lo is None else lo}..{'' if hi is None else hi}"
            raise self.err(node, f"{what}: {value} is out of range", expected=rng)
        return value

    def number(self, node: yaml.Node, what: str) -> float:
        text = self.scalar(node, what)
        try:
            value = float(text) if len(text) <= 40 else math.nan
        except ValueError:
            raise self.err(node, f"{what} must be a number, got {text!r}") from None
        if not math.isfinite(value):
            raise self.err(node, f"{what} must be a finite number, got {text!r}")
        return value

    def boolean(self, node: yaml.Node, what: str) -> bool:
        text = self.scalar(node, what).lower()
        if text in ("true", "yes", "on"):
            return True
        if text in ("false", "no", "off"):
            return False
        raise self.err(node, f"{what} must be true or false, got {text!r}")

    def choice(self, node: yaml.Node, what: str, options: tuple[str, ...]) -> str:
        text = self.scalar(node, what)
        if text not in options:
            raise self.err(node, f"{what}: {text!r} is not allowed{did_you_mean(text, options)}",
                           expected="one of " + ", ".join(options))
        return text

    def strings(self, node: yaml.Node, what: str) -> tuple[str, ...]:
        return tuple(self.scalar(n, f"{what}[{i}]") for i, n in enumerate(self.seq(node, what)))

    def each(self, node: yaml.Node, what: str, read: Callable[[yaml.Node, str], T]) -> Iterator[T]:
        for i, n in enumerate(self.seq(node, what)):
            yield read(n, f"{what}[{i}]")


#: most entries of one list a :class:`Section` reads
MAX_LIST: Final = 10_000


class Section:
    """A mapping of a data file, read key by key, every error at its place and key path.

    ``Section(doc, node, "rules.supply", allowed_keys)``; a missing section is empty (``node=None``).
    Getters take the key and a default; a key given with a bad value is an error
    (``game.yaml:41:7: rules.supply.sides.blue.rule: ...``). :meth:`sub` and :meth:`each` give the
    nested sections (of the same class: a subclass adds its own getters and keeps what it holds).
    """

    def __init__(self, doc: Doc, node: yaml.Node | None, path: str, allowed: frozenset[str] | None = None) -> None:
        self.doc = doc
        self._read(node, path, allowed)

    def _read(self, node: yaml.Node | None, path: str, allowed: frozenset[str] | None) -> None:
        self.node = node
        self.path = path
        self.m: dict[str, yaml.Node] = self.doc.mapping(node, path, allowed) if node is not None else {}

    def child(self, node: yaml.Node | None, path: str, allowed: frozenset[str] | None = None) -> Self:
        """A section of the same kind (and the same reader) at ``node``."""
        out = copy.copy(self)
        out._read(node, path, allowed)
        return out

    # --- structure -------------------------------------------------------------------------------
    def __contains__(self, key: str) -> bool:
        return key in self.m

    def __bool__(self) -> bool:
        return self.node is not None

    def __iter__(self) -> Iterator[str]:
        """The keys of this mapping, in the file's order."""
        return iter(list(self.m))

    def what(self, key: str) -> str:
        return f"{self.path}.{key}"

    def err(self, key: str | None, problem: str, expected: str | None = None) -> GazalaError:
        """The error at ``key``'s value (None: at this section), its message led by the key path."""
        node = self.m.get(key, self.node) if key is not None else self.node
        where = self.what(key) if key is not None else self.path
        return self.doc.err(node, f"{where}: {problem}", expected)

    def sub(self, key: str, allowed: frozenset[str] | None = None) -> Self:
        """A nested mapping (empty if the key is missing)."""
        return self.child(self.m.get(key), self.what(key), allowed)

    def require(self, *keys: str) -> None:
        for k in keys:
            if k not in self.m:
                raise self.err(None, f"missing {k!r}", expected=", ".join(keys))

    def each(self, key: str, allowed: frozenset[str] | None = None, *, most: int = MAX_LIST) -> Iterator[Self]:
        """Each mapping of a list (at most ``most`` entries, :data:`MAX_LIST` unless a format says)."""
        if key not in self.m:
            return
        items = self.doc.seq(self.m[key], self.what(key))
        if len(items) > most:
            raise self.err(key, f"{len(items)} entries", expected=f"at most {most}")
        for i, n in enumerate(items):
            yield self.child(n, f"{self.what(key)}[{i}]", allowed)

    def mapping(self, key: str, value: Callable[[Self, str], T]) -> dict[str, T]:
        """A mapping name -> value; ``value(section, name)`` reads one entry of this mapping."""
        if key not in self.m:
            return {}
        sub = self.sub(key)
        return {k: value(sub, k) for k in sub}

    def key_node(self, key: str) -> yaml.Node | None:
        """The node of a key itself (its place in the file)."""
        if isinstance(self.node, yaml.MappingNode):
            for k, _v in self.node.value:
                if isinstance(k, yaml.ScalarNode) and k.value == key:
                    return k
        return None

    def nodes(self, key: str) -> list[yaml.Node]:
        """The value of ``key`` as a list of nodes (a single value is a list of one; missing: none)."""
        if key not in self.m:
            return []
        node = self.m[key]
        return [node] if isinstance(node, yaml.ScalarNode) else self.doc.seq(node, self.what(key))

    # --- scalars ---------------------------------------------------------------------------------
    def text(self, key: str, default: str | None = None) -> str:
        if key not in self.m:
            if default is None:
                raise self.err(None, f"missing {key!r}")
            return default
        return self.doc.scalar(self.m[key], self.what(key))

    def integer(self, key: str, default: int | None = None, *, lo: int | None = 0, hi: int | None = 1_000_000) -> int:
        if key not in self.m:
            if default is None:
                raise self.err(None, f"missing {key!r}", expected="an integer")
            return default
        return self.doc.integer(self.m[key], self.what(key), lo=lo, hi=hi)

    def opt_integer(self, key: str, *, lo: int | None = 0, hi: int | None = 1_000_000) -> int | None:
        return self.integer(key, lo=lo, hi=hi) if key in self.m else None

    def boolean(self, key: str, default: bool) -> bool:
        return self.doc.boolean(self.m[key], self.what(key)) if key in self.m else default

    def choice(self, key: str, options: tuple[str, ...], default: str) -> str:
        return self.doc.choice(self.m[key], self.what(key), options) if key in self.m else default

    def names(self, key: str) -> tuple[str, ...]:
        """A list of names (a single name is a list of one)."""
        if key not in self.m:
            return ()
        node = self.m[key]
        if isinstance(node, yaml.ScalarNode):
            return (self.doc.scalar(node, self.what(key)),)
        items = self.doc.strings(node, self.what(key))
        if len(items) > MAX_LIST:
            raise self.err(key, f"{len(items)} entries", expected=f"at most {MAX_LIST}")
        return items


#: the cyclic garbage collector's first threshold while a large file is read (Python's default is 700)
GC_THRESHOLD: Final = 100_000


@contextlib.contextmanager
def few_collections() -> Iterator[None]:
    """Collect cyclic garbage seldom while a large file is read and what it makes is built: a
    5,000-counter manifest is 85,000 nodes and as many objects that live until the end, and the
    default thresholds walk them over and over (half the time of reading it; a module build of such
    a game makes millions). Reference counting still frees everything else at once."""
    before = gc.get_threshold()
    gc.set_threshold(before[0] and max(GC_THRESHOLD, before[0]), *before[1:])  # 0: collection stays off
    try:
        yield
    finally:
        gc.set_threshold(*before)


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """``" (did you mean 'cliff'?)"`` for a close choice (:mod:`difflib`, case-insensitive), else ``""``."""
    by_lower = {c.lower(): c for c in choices}
    got = difflib.get_close_matches(word.lower(), list(by_lower), n=1, cutoff=0.6)
    return f" (did you mean {by_lower[got[0]]!r}?)" if got else ""


_SCALARS: Final = {
    "tag:yaml.org,2002:int": int,
    "tag:yaml.org,2002:float": float,
    "tag:yaml.org,2002:bool": bool,
    "tag:yaml.org,2002:null": type(None),
}


#: most values :func:`plain` builds from one document (aliases count each time they are used)
MAX_PLAIN_VALUES: Final = 2_000_000


def plain(node: yaml.Node, *, file: str | Path | None = None) -> object:
    """A node as plain Python data, for free-form sections: lists, dicts with string keys, and
    scalars as YAML resolves them (int, float, bool, None), any other scalar (a ``!!timestamp``,
    ``.inf``, a 5,000-digit integer) as its text. Aliases are expanded within a budget of
    :data:`MAX_PLAIN_VALUES` values (a "billion laughs" document is an error, not a memory blow-up)."""
    budget = [MAX_PLAIN_VALUES]
    return _plain(node, budget, file)


def _plain(node: yaml.Node, budget: list[int], file: str | Path | None) -> object:
    budget[0] -= 1
    if budget[0] < 0:
        raise GazalaError("YAML expands to too many values (aliases)", file=file, place=place_of(node),
                          expected=f"at most {MAX_PLAIN_VALUES:,} values")
    if isinstance(node, yaml.SequenceNode):
        return [_plain(n, budget, file) for n in node.value]
    if isinstance(node, yaml.MappingNode):
        return {str(k.value): _plain(v, budget, file) for k, v in node.value}
    if node.tag in _SCALARS:
        text = str(node.value)
        if len(text) > 40:  # no int() of a 4,300-digit number
            return text
        loader = yaml.SafeLoader("")
        try:
            value = loader.construct_object(node)
        except (yaml.YAMLError, ValueError, OverflowError):
            return text
        finally:
            loader.dispose()
        if isinstance(value, float) and not math.isfinite(value):
            return text
        return value
    return str(node.value)


def load_plain(file: Path, what: str, error: type[E]) -> object:
    """A free-form YAML file as plain data (:func:`plain`), read through the same caps as every data
    file: a regular file, at most :data:`MAX_BYTES`, UTF-8, nesting within :data:`MAX_DEPTH`."""
    return plain(compose(file, what, error), file=file)
