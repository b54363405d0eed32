"""Hostile names for the report tests and the ``html-report`` fuzz target (issue 21 item 1).

A payload is markup that, if a report printed it unescaped, would add an element or an attribute
the page does not have: every payload's elements carry ``data-pwned`` and an ``on...`` handler that
sets ``document.title`` to ``PWNED``. :func:`injected` parses a page and lists what came from a
payload; a safe page gives ``[]`` (and, in a browser, keeps its title).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

PWNED = "PWNED"
#: each breaks out of a different context: element text, a double- or single-quoted attribute, the
#: title, a style, a script, the SVG; the last ones are characters no document may hold
PAYLOADS: tuple[str, ...] = (
    "<img src=x onerror=document.title='PWNED' data-pwned=1>",
    '"><svg onload="document.title=\'PWNED\'" data-pwned=2>',
    "'><pwned data-pwned=3 onclick=x>b</pwned>",
    "</title></style><script data-pwned=4>document.title='PWNED'</script>",
    "</svg></script><img src=x data-pwned=5 onerror=\"document.title='PWNED'\">",
    "<!--<iframe data-pwned=6 onload=x>-->]]>\u2028\u2029\x00\x01\x7f",
)
#: elements a report page has of its own
PAGE_SCRIPTS_MAX = 1


def payload(rng: random.Random | None = None) -> str:
    """One payload (random with ``rng``), or all of them joined."""
    if rng is None:
        return "".join(PAYLOADS)
    k = rng.randint(1, len(PAYLOADS))
    return "".join(rng.sample(PAYLOADS, k))


class _Elements(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []
        self.scripts = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = [name for name, _ in attrs]
        if tag == "script":
            self.scripts += 1
        if tag in ("pwned", "iframe", "img") or "data-pwned" in names or any(n.startswith("on") for n in names):
            self.found.append(f"<{tag} {' '.join(names)}>")

    def handle_comment(self, data: str) -> None:
        self.found.append(f"<!--{data[:40]}-->")


def injected(page: str) -> list[str]:
    """The elements, attributes and comments of ``page`` that came from a payload, and a script
    beyond the page's own one (``[]`` for a safe page)."""
    p = _Elements()
    p.feed(page)
    p.close()
    return p.found + ([f"{p.scripts} <script> elements"] if p.scripts > PAGE_SCRIPTS_MAX else [])


def hostile_log(src: Path, name: str) -> bytes:
    """The engine-written ``src`` log (``tests/fixtures/logs/rg-illegal.vlog``) with its first move
    going to a map called ``name``: the move's to-box, the next move's from-box and a finding's
    "off the map in ..." all print that name."""
    from gazala_tools.vsav import sequence
    from gazala_tools.vsav.commands import AddPiece, MovePiece, parse, to_text, walk
    from gazala_tools.vsav.container import read_container
    from gazala_tools.vsav.writer import build_zip, encode_savefile

    c = read_container(src)
    tree = parse(c.text)
    unit, moved, stacked = "allied-201gd-2-sg", False, False
    for node in walk(tree):
        if isinstance(node, MovePiece) and not moved and node.move.id == unit and node.move.new_map == "Main Map":
            node.move.tokens[1] = name
            moved = True
        elif isinstance(node, AddPiece) and moved and not stacked and node.type == "stack":
            fields = sequence.decode(node.state, ";")
            if fields[0] == "Main Map" and unit in fields:
                node.state = sequence.encode([name, *fields[1:]], ";")
                stacked = True
    if not stacked:
        raise ValueError(f"{src}: not the log hostile_log expects")
    return build_zip([("savedGame", encode_savefile(to_text(tree, preserve=False), key=c.key)), *c.entries])


def hostile_game(src: Path, dst: Path, name: str) -> Path:
    """A copy of the River War folder (``tests/games/river-war``) at ``dst`` whose free texts end in
    ``name``: the game's name, its sides' names, its turn labels, its rules' texts (``what``,
    ``note``, ``goal``), its places and its formations; returns ``dst``."""
    import shutil

    import yaml

    shutil.copytree(src, dst)

    def edit(file: str, change: Callable[[Any], None]) -> None:
        data = yaml.safe_load((dst / file).read_text(encoding="utf-8"))
        change(data)
        (dst / file).write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")

    def game(g: Any) -> None:
        g["name"] = f"River {name}"
        for side in g["sides"]:
            side["name"] += name
        g["turns"]["label"] = "Turn {n}" + name
        rules = g["rules"]
        rules["stacking"]["note"] += name
        for p in rules["prohibited"]:
            p["what"] += name
        for side in rules["supply"]["sides"].values():
            side["goal"] += name
        for r in rules["reinforcements"]["schedule"]:
            r["turn"] = f"Turn {r['turn']}{name}"
            r["enter"]["places"] = [p + name for p in r["enter"]["places"]]

    def game_map(m: Any) -> None:
        m["title"] += name
        for p in m["places"]:
            p["name"] += name

    edit("game.yaml", game)
    edit("map.yaml", game_map)
    return dst


def hostile_position(game: Path, dst: Path, name: str) -> Path:
    """A position YAML of :func:`hostile_game`'s folder: a hostile unit id and box, three red units
    in one hex (an S1 finding naming them), a blue unit alone (supply findings)."""
    import yaml

    data = {"turn": "Turn 1" + name, "units": [
        {"id": "red-inf-1" + name, "side": "red", "type": "infantry", "hex": "C-3", "formation": "1st Rifles"},
        {"id": "red-inf-2", "side": "red", "type": "infantry", "hex": "C-3"},
        {"id": "red-inf-3", "side": "red", "type": "infantry", "hex": "C-3"},
        {"id": "blue-inf-1", "side": "blue", "type": "infantry", "hex": "C-1"},
        {"id": "blue-inf-2", "side": "blue", "type": "infantry", "box": "Box" + name},
    ]}
    dst.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")
    return dst


def hostile_save(name: str, *, pieces: int = 6) -> bytes:
    """A ``.vsav`` (``tools.saves``) whose pieces are named ``unit-0000N<name>`` and stand
    on a map called ``name``: read with :data:`MAPPING_YAML`, they are units whose ids, and the box
    they stand in, carry ``name``; the pieces no pattern matches are reported by name."""
    from gazala_tools.vsav.traits import join_chain
    from tools import saves as sample

    plain = sample.unit

    def unit(i: int) -> tuple[str, str, str]:
        base, _, state = plain(i)
        types = [t.replace("{img}", base) for t in sample.UNIT_TRAITS] + [f"piece;;;{base}.png;{base}{name}"]
        return base + name, join_chain(types), state

    sample.unit = unit  # test support: the sample's names, made hostile
    try:
        return sample.sample_file(sample.sample_commands(pieces, map_id=name))
    finally:
        sample.unit = plain


#: a ``--mapping`` for :func:`hostile_save`: pieces 0-2 are axis infantry named by their piece name,
#: the others unit-like pieces that match nothing
MAPPING_YAML = "units:\n  - {match: '^(?P<id>unit-0000[0-2].*)', side: axis, type: infantry}\n"
