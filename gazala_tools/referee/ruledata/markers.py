"""``rules.markers``: the game's markers (statuses) and what each does to the unit carrying it (each a
:class:`~gazala_tools.referee.ruledata.marker.Marker`)."""

from __future__ import annotations

import dataclasses
import re
from typing import Final

from gazala_tools.games.moduleyaml import status_names
from gazala_tools.referee.ruledata.marker import ROUNDING, SUPPLY_ROLES, USED, Marker
from gazala_tools.referee.ruledata.section import RulesReader, RulesSection
from gazala_tools.yamlnodes import ID_RE

__all__ = [
    "MARKER_KEYS",
    "ROUNDING",
    "SUPPLY_ROLES",
    "USED",
    "Marker",
    "marker_id",
    "read_markers",
]

MARKER_KEYS: Final = frozenset({"name", "rule", "movement", "round", "move", "zoc", "attack", "defense", "supply",
                                "excludes", "key", "badge", "color"})


def marker_id(name: str) -> str:
    """The id a status layer's name gives a marker (``Out of Supply`` -> ``out-of-supply``)."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def read_markers(root: RulesSection, r: RulesReader) -> dict[str, Marker]:
    """``rules.markers``: the game's markers and their effects; without it, the status layers of the
    game's module (``module.yaml``) and the builder's ``Used`` layer, with no effect."""
    if "markers" not in root:
        out = {marker_id(n): Marker(marker_id(n), n) for n in status_names(r.game) if marker_id(n)}
        out.setdefault(USED, Marker(USED, "Used"))
        return out
    s = root.sub("markers")
    out = {}
    for mid in s:
        if not ID_RE.match(mid):
            raise s.err(mid, f"{mid!r} is not a marker id", expected="lowercase words joined by '-'")
        m = s.sub(mid, MARKER_KEYS)
        name = m.text("name", mid.replace("-", " ").title())
        if not name.strip() or "\n" in name or len(name) > 60:
            raise m.err("name", f"{name!r} is not a marker name", expected="one line of 1 to 60 characters")
        out[mid] = Marker(
            id=mid, name=name.strip(), rule=m.rule("rule", "markers"),
            movement=m.factor("movement"), round=m.choice("round", ROUNDING, "down"),
            move=m.boolean("move", True), zoc=m.boolean("zoc", True),
            attack=m.factor("attack"), defense=m.factor("defense"),
            supply=m.choice("supply", SUPPLY_ROLES, "") or None if "supply" in m else None,
            key=m.text("key") if "key" in m else None,
            badge=m.text("badge") if "badge" in m else None,
            color=m.text("color") if "color" in m else None,
        )
    out.setdefault(USED, Marker(USED, "Used"))
    names = [m.name.lower() for m in out.values()]
    for mid, mk in out.items():
        if names.count(mk.name.lower()) > 1:
            raise s.err(mid if mid in s else None, f"marker name {mk.name!r} is used twice",
                        expected="a distinct name per marker (the module's status layer)")
    for role in SUPPLY_ROLES:
        having = [mk.id for mk in out.values() if mk.supply == role]
        if len(having) > 1:
            raise s.err(having[1], f"a second marker with 'supply: {role}'", expected="one marker per supply role")
    roles = {mk.supply: mk.id for mk in out.values() if mk.supply is not None}
    for role in SUPPLY_ROLES:  # the supply roles are the supply phase's marker flow (rules.supply): both or none
        if roles and role not in roles:
            have = next(iter(roles.values()))
            raise s.sub(have).err("supply", f"the supply phase's marker flow needs a marker with 'supply: {role}' too",
                                  expected=f"rules.markers: {{ID: {{name: ..., supply: {role}}}}} (or no supply role)")
    r.markers = out
    for mid in s:  # excludes name other markers: read once all are known
        m = s.sub(mid, MARKER_KEYS)
        if "excludes" in m:
            got = m.markers("excludes")
            out[mid] = dataclasses.replace(out[mid], excludes=got)
    return out
