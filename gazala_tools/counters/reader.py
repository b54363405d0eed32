"""The reader of a composed ``counters.yaml``: :class:`ManifestReader` reads its top keys (the game, sizes,
value style, inks, art, nationalities), its entries through :class:`~.entries.EntryReader` and checks the
whole (one id per counter, ``total``); every error is raised through :mod:`gazala_tools.yamlnodes` at
``file:line:col`` with the key path (``counters.yaml:12:7: units[3].type: 'tank' is not a unit type ...``)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import yaml

from gazala_tools.counters.art import CounterArt
from gazala_tools.counters.entries import EntryReader, Settings
from gazala_tools.counters.model import INKS, VALUE_ROLES, VALUE_STYLES, Counter, Manifest, Nationality
from gazala_tools.counters.schema import (
    INK_KEYS,
    MAX_COUNTERS,
    NATIONALITY_KEYS,
    TOKEN_KEYS,
    TOP_KEYS,
    UNIT_BACKS,
    UNIT_KEYS,
    ManifestError,
    parse_size,
)
from gazala_tools.counters.section import ROOT, ManifestSection, number_of
from gazala_tools.games import Game
from gazala_tools.yamlnodes import Doc

__all__ = ["ManifestReader"]

#: the default counter size
_SIZE = "0.5 in"


class ManifestReader:
    """One manifest: ``ManifestReader(file, game).manifest(node)``. ``game``: the game folder it belongs
    to (None: a stand-alone file naming its ``game``); ``art=False`` leaves each entry's ``art`` out."""

    def __init__(self, file: str | Path, game: Game | None = None, *, art: bool = True) -> None:
        self.file = file
        self.doc = Doc(file, ManifestError)
        self.game = game
        #: art paths are relative to the game folder (or the stand-alone file's folder)
        self.s = Settings(game, CounterArt(game.folder if game is not None else Path(file).parent), read_art=art)
        self.first: dict[str, str] = {}  #: each counter id -> the entry that made it (its key path)

    def manifest(self, node: yaml.Node) -> Manifest:
        top = ManifestSection(self.doc, node, ROOT, TOP_KEYS)
        game, title = self.names(top)
        self.settings(top)
        size = self.size(top)
        self.value_inks(top)
        self.s.art.convention(top)
        self.s.nats = self.nationalities(top.sub("nationalities"))
        entries = EntryReader(self.s)
        counters: list[Counter] = []
        for u in top.each("units", UNIT_KEYS, most=MAX_COUNTERS):
            counters += self.once(u, entries.unit(u))
        for key, kind in (("chits", "chit"), ("markers", "marker")):
            for t in top.each(key, TOKEN_KEYS, most=MAX_COUNTERS):
                counters += self.once(t, entries.token(t, kind))
        self.total(top, counters)
        return Manifest(
            game=game,
            title=title,
            counter_size_mm=size,
            value_style=self.s.style,
            counters=tuple(self.finish(c, size=size, game=game) for c in counters),
            nationalities=self.s.nats,
            provenance=top.text("provenance", "reconstructed"),
            sources=top.names("sources") if top.given("sources") else (),
            source_file=str(self.file),
        )

    def names(self, top: ManifestSection) -> tuple[str, str]:
        """The game's id and name: the file's ``game`` and ``title``, or game.yaml's in a game folder."""
        if self.game is None:
            game = top.text("game")
            return game, top.text("title", game)
        for key in ("game", "title"):
            if key in top:
                raise top.err(key, f"a game folder's manifest takes its {key} from game.yaml",
                              expected=f"the {key} in game.yaml only")
        return self.game.id, self.game.name

    def settings(self, top: ManifestSection) -> None:
        """How values are printed: ``value_style``, ``unit_back`` and ``artillery_roles``."""
        self.s.style = top.one_of("value_style", VALUE_STYLES, VALUE_STYLES[-1])
        self.s.unit_back = top.one_of("unit_back", UNIT_BACKS, "used")
        if "artillery_roles" in top:
            self.s.artillery_roles = top.choices("artillery_roles", VALUE_ROLES, kind="a value role")
            if not self.s.artillery_roles:
                raise top.err("artillery_roles", "no roles", expected=f"a list of {', '.join(VALUE_ROLES)}")

    def size(self, top: ManifestSection) -> float:
        """``counter_size``: ``5/8 in``, ``16 mm`` or a number of mm."""
        if "counter_size" not in top:
            return parse_size(_SIZE)
        number = number_of(top.m["counter_size"])
        try:
            return parse_size(number if number is not None else top.text("counter_size"))
        except ManifestError as exc:
            raise top.err("counter_size", exc.problem, exc.expected) from None

    def value_inks(self, top: ManifestSection) -> None:
        """``value_inks``: the ink of a printed value by role and unit type, first match wins."""
        for e in top.each("value_inks", INK_KEYS):
            ink = e.one_of("ink", INKS, kind="an ink")
            role = e.one_of("role", VALUE_ROLES, kind="a value role") if "role" in e else None
            types = e.choices("types", self.s.unit_types, kind="a unit type of the game") if e.given("types") else None
            self.s.inks.append((role, frozenset(types) if types is not None else None, ink))

    def nationalities(self, nats: ManifestSection) -> dict[str, Nationality]:
        """``nationalities``: key -> ``{name, side, color, text_color, box_color}``."""
        out: dict[str, Nationality] = {}
        for key in nats:
            n = nats.sub(key, NATIONALITY_KEYS)
            side = n.side(self.s.sides)
            out[key] = Nationality(
                key=key,
                name=n.text("name"),
                side=side,
                color=n.color("color") or "#cccccc",
                text_color=n.color("text_color", "#000000") or "#000000",
                box_color=n.color("box_color", "#ffffff") or "#ffffff",
            )
        return out

    def once(self, entry: ManifestSection, counters: list[Counter]) -> list[Counter]:
        """``counters`` of ``entry``, each id not made before."""
        for c in counters:
            if c.id in self.first:
                raise entry.err(None, f"duplicate counter id {c.id!r} (also {self.first[c.id]})",
                                expected="every id once")
            self.first[c.id] = entry.path
        return counters

    def total(self, top: ManifestSection, counters: list[Counter]) -> None:
        """``total``, when given, is the number of counters the manifest makes."""
        if not top.given("total"):
            return
        total = top.whole("total", 0, lo=0, hi=None)
        if total != len(counters):
            by = ", ".join(f"{k} {sum(1 for c in counters if c.kind == k)}" for k in ("unit", "chit", "marker"))
            raise top.err("total", f"the manifest has {len(counters)} counters ({by})", expected=f"total: {total}")

    def finish(self, c: Counter, *, size: float, game: str) -> Counter:
        """The counter with what it needs to render on its own: colours, value style, size, game."""
        n = self.s.nats.get(c.nationality)
        color, text_color, box_color = (
            ("#ffffff", "#000000", "#ffffff") if n is None else (n.color, n.text_color, n.box_color)
        )
        return replace(c, value_style=self.s.style, size_mm=size, game=game, color=color, text_color=text_color,
                       box_color=box_color)
