"""A mapping of ``counters.yaml``: :class:`ManifestSection`, the getters of
:class:`gazala_tools.yamlnodes.Section` and those the counter manifest needs (text as YAML types it, a
counter's drawn text, colours, ids, sides, whole numbers), every error at ``file:line:col`` and key path:
``counters.yaml:12:7: units[3].values[0][1]: -6 is not a whole number >= 0``."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final, Self

import yaml

from gazala_tools.counters.schema import ManifestError
from gazala_tools.escape import NOT_DRAWN
from gazala_tools.yamlnodes import COLOR_RE, ID_RE, MAX_LIST, Section, did_you_mean, show

__all__ = ["ROOT", "ManifestSection", "is_null"]

#: the path of the manifest's top mapping; its keys' paths are bare (``units[3].type``)
ROOT: Final = "the manifest"

_NULL, _BOOL = "tag:yaml.org,2002:null", "tag:yaml.org,2002:bool"
_INT, _FLOAT = "tag:yaml.org,2002:int", "tag:yaml.org,2002:float"
_CHAR_NAMES: Final = {"\t": "a tab", "\n": "a line break", "\r": "a carriage return", "\x00": "a NUL",
                      "\x1b": "an ESC", "\u2029": "a paragraph separator"}
#: YAML's own numbers (``0x1F``, ``1_000``, ``.5``), as its safe loader makes them
_NUMBERS: Final = yaml.constructor.SafeConstructor()


def is_null(node: yaml.Node | None) -> bool:
    """A value left empty (``key:``, ``~``, ``null``)."""
    return isinstance(node, yaml.ScalarNode) and node.tag == _NULL


def number_of(node: yaml.Node) -> int | float | None:
    """A plain YAML integer or float as a number (None: any other value; a bool is not a number)."""
    if not isinstance(node, yaml.ScalarNode) or len(str(node.value)) > 40:
        return None
    if node.tag == _INT:
        text = str(node.value)
        if text.isascii() and text.isdigit() and (text[0] != "0" or text == "0"):  # 12: most of them, at once
            return int(text)
        return int(_NUMBERS.construct_yaml_int(node))
    if node.tag == _FLOAT:
        return float(_NUMBERS.construct_yaml_float(node))
    return None


class ManifestSection(Section):
    """A mapping of the manifest, read key by key (``Section(doc, node, ROOT, TOP_KEYS)`` at the top)."""

    def what(self, key: str) -> str:
        return key if self.path == ROOT else f"{self.path}.{key}"

    def err(self, key: str | None, problem: str, expected: str | None = None) -> ManifestError:
        e = super().err(key, problem, expected)
        assert isinstance(e, ManifestError)
        return e

    def given(self, key: str) -> bool:
        """``key`` is there with a value (``key:`` left empty is as if it were not)."""
        return key in self.m and not is_null(self.m[key])

    def sub(self, key: str, allowed: frozenset[str] | None = None) -> Self:
        """A nested mapping (empty if the key is missing or left empty)."""
        node = self.m.get(key)
        return self.child(None if is_null(node) else node, self.what(key), allowed)

    def each(self, key: str, allowed: frozenset[str] | None = None, *, most: int = MAX_LIST) -> Iterator[Self]:
        """Each mapping of a list; an empty ``key:`` is no list."""
        return super().each(key, allowed, most=most) if self.given(key) else iter(())

    # --- text --------------------------------------------------------------------------------------
    def text(self, key: str, default: str | None = None) -> str:
        """A value as written (``5/1``, ``12``); true/false or an empty value is not text."""
        if key not in self.m:
            if default is None:
                raise self.err(None, f"missing {key!r}")
            return default
        return self.node_text(self.m[key], self.what(key))

    def node_text(self, node: yaml.Node, what: str) -> str:
        if is_null(node):
            raise self.doc.err(node, f"{what}: no value", expected="text")
        if isinstance(node, yaml.ScalarNode) and node.tag == _BOOL:
            raise self.doc.err(node, f"{what}: {show(node)} is true or false, not text", expected="text in quotes")
        return self.doc.scalar(node, what)

    def free_text(self, key: str) -> str:
        """Text of any length (an imported piece's ``vassal.slot``: VASSAL's own, kept as it is)."""
        node = self.m.get(key)
        if node is None:
            raise self.err(None, f"missing {key!r}")
        if not isinstance(node, yaml.ScalarNode) or is_null(node):
            raise self.err(key, f"{show(node)} is not text")
        return str(node.value)

    def label(self, key: str, default: str | None = None) -> str:
        """Text drawn on a counter and written into its VASSAL piece (designation, formation, a face's
        title): one line of printable characters that does not end in a backslash."""
        if key not in self.m:
            return self.text(key, default)
        return self.drawn(self.m[key], self.what(key))

    def drawn(self, node: yaml.Node, what: str) -> str:
        value = self.node_text(node, what)
        bad = NOT_DRAWN.search(value)  # a counter's drawn text: one line Pillow, XML and VASSAL take
        if bad is not None:
            char = bad.group()
            name = _CHAR_NAMES.get(char, "a control character")
            raise self.doc.err(node, f"{what}: {value!r} contains {name} (U+{ord(char):04X})",
                               expected="one line of printable characters")
        if value.endswith("\\"):
            raise self.doc.err(node, f"{what}: {value!r} ends with a backslash",
                               expected="text that does not end in '\\' (VASSAL's piece format cannot hold it)")
        return value

    def color(self, key: str, default: str | None = None) -> str | None:
        """A colour ``'#rrggbb'`` (quoted: a bare ``#`` starts a comment, which leaves the key empty)."""
        if not self.given(key):
            return default
        v = self.node_text(self.m[key], self.what(key))
        if not COLOR_RE.match(v):
            raise self.err(key, f"{v!r} is not a colour", expected="'#rrggbb'")
        return v

    def ident(self, key: str = "id") -> str:
        i = self.text(key)
        if not ID_RE.match(i):
            raise self.err(key, f"{i!r} is not a stable id", expected="lowercase words and digits joined by '-'")
        return i

    def side(self, sides: tuple[str, ...] | None, default: str | None = None) -> str:
        """``side``: a side of the game (``sides``; None: any side id, a stand-alone manifest)."""
        side = self.text("side", default)
        if sides is not None and side not in sides:
            raise self.err("side", f"{side!r} is not a side of the game{did_you_mean(side, sides)}",
                           expected=", ".join(sides))
        if not ID_RE.match(side):
            raise self.err("side", f"{side!r} is not a side id", expected="lowercase words and digits joined by '-'")
        return side

    def one_of(self, key: str, options: tuple[str, ...], default: str | None = None, *, kind: str = "",
               expected: str = "") -> str:
        """``key``'s text, one of ``options`` ("did you mean"); ``kind`` names them (``a value role``)."""
        if key not in self.m:
            return self.text(key, default)
        return self.choice_node(self.m[key], self.what(key), options, kind, expected)

    def choices(self, key: str, options: tuple[str, ...], *, kind: str) -> tuple[str, ...]:
        """A list of ``key``'s values, each one of ``options`` (``artillery_roles: [barrage, fpf, defence, move]``)."""
        what = self.what(key)
        return tuple(self.choice_node(n, f"{what}[{i}]", options, kind)
                     for i, n in enumerate(self.doc.seq(self.m[key], what)))

    def choice_node(self, node: yaml.Node, what: str, options: tuple[str, ...], kind: str = "",
                    expected: str = "") -> str:
        v = self.node_text(node, what)
        if v not in options:
            raise self.doc.err(node, f"{what}: {v!r} {f'is not {kind}' if kind else 'is unknown'}"
                               f"{did_you_mean(v, options)}", expected=expected or ", ".join(options))
        return v

    # --- numbers -----------------------------------------------------------------------------------
    def whole(self, key: str, default: int, *, lo: int, hi: int | None) -> int:
        """A whole number ``lo..hi`` as YAML writes one (``3``, not ``"3"`` or ``3.0``)."""
        if not self.given(key):
            return default
        return self.whole_node(self.m[key], self.what(key), lo=lo, hi=hi)

    def whole_node(self, node: yaml.Node, what: str, *, lo: int, hi: int | None = None) -> int:
        value = number_of(node)
        if not isinstance(value, int):
            raise self.doc.err(node, f"{what}: {show(node)} is not a whole number",
                               expected=f"a whole number >= {lo}")
        if hi is None and value < lo:
            raise self.doc.err(node, f"{what}: {value} is not a whole number >= {lo}")
        if value < lo or (hi is not None and value > hi):
            raise self.doc.err(node, f"{what}: {value} is out of range", expected=f"{lo}..{hi}")
        return value

    def numbers(self, node: yaml.Node, what: str) -> list[int | None]:
        """A face's printed values: whole numbers >= 0, ``~`` for a dash (``[12, 12, 24]``)."""
        items = self.doc.seq(node, what)
        if not items:
            raise self.doc.err(node, f"{what}: no values", expected="a list of numbers, e.g. [12, 12, 24]")
        return [None if is_null(n) else self.whole_node(n, f"{what}[{i}]", lo=0) for i, n in enumerate(items)]
