"""A :class:`~.spec.ModuleSpec` for each of our games, from map data, counter manifest and rules.

* Board: ``render_board(load_map(game))`` and the map's HexGrid/HexGridNumbering.
* Pieces: one palette piece per **unit** (the manifest has one counter per step; the module shows
  the steps as levels of a "Step" layer and the used sides as a "Used" layer), one per marker kind,
  and one card per physical chit (chits go into the cups).
* Set-ups: RG scenarios from rule 17.0 (each unit in its own hex within the rule's radius, in a
  fixed order: centre first, then by distance and label); DG from the 19.0 hexes the manifest
  records per unit; BG from the places 11.1 names (the map data's place hexes).
* Charts: the rules' tables (:mod:`.charts`) and an order of battle per side.
* VP track: a map of its own with a x1 and a x10 marker per side (:class:`TrackInfo`).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from gazala_tools.errors import GazalaError
from gazala_tools.hexes import Hex
from gazala_tools.vassal.module import faces
from gazala_tools.vassal.module.charts import game_tables, render_table
from gazala_tools.vassal.module.pieces import status_images
from gazala_tools.vassal.module.spec import (
    BREACH,
    CHIT,
    MARKER,
    UNIT,
    BoardSpec,
    ChartSpec,
    DeckSpec,
    DiceSpec,
    ModuleSpec,
    PieceSpec,
    ScenarioSpec,
    TrackSpec,
)

log = logging.getLogger(__name__)

MODULE_VERSION = "1.0"
#: what issue 6 asks for: every VASSAL from 3.6.0 on loads the module without a prompt. The test
#: oracle is a 3.6.0 *pre-release* (3.6.0-SNAPSHOT ranks below 3.6.0), so it alone shows a
#: "Version Mismatch" notice, which the engine tests recognise and allow (and nothing else).
VASSAL_VERSION = "3.6.0"


#: marker types drawn blind from a cup like chits (SPI's random-number counters replace a die)
CUP_MARKERS = ("random-number",)

SIDE_NAMES = {"axis": "Axis", "allied": "Allied", "neutral": "Neutral"}


@dataclass(frozen=True)
class SetupRule:
    """Units of ``formation`` (or only ``units``) go one per hex within ``radius`` of ``centre``,
    or into ``hexes`` (``per_hex`` units each), as a rule says."""

    formation: str
    source: str
    centre: str = ""
    radius: int = 0
    hexes: tuple[str, ...] = ()
    per_hex: int = 1
    units: tuple[str, ...] = ()  #: designations; empty = the whole formation
    used: bool = False


#: RG 17.0 Scenario One (the Campaign Game sets up the same way).
RG_SETUP: tuple[SetupRule, ...] = (
    SetupRule("3 Ind", "RG 17.0: all units within 1 hex of 1520", "1520", 1),
    SetupRule("7 Motor", "RG 17.0: 2 RB, 9 KRR within 2 hexes of 2720, used side up", "2720", 2, units=("2 RB", "9 KRR"), used=True),
    SetupRule("9 Ind", "RG 17.0: 3/12 FR in 2705", hexes=("2705",), units=("3/12 FR",)),
    SetupRule("1 FF", "RG 17.0: all units in hexes 1218, 1219, 1318, 1118", hexes=("1218", "1219", "1318", "1118")),
    SetupRule("201 Gd", "RG 17.0: all units 1504, 1605, two units per hex", hexes=("1504", "1605"), per_hex=2),
    SetupRule("150 Inf", "RG 17.0: all units within 2 hexes of 0810", "0810", 2),
    SetupRule("22 Arm", "RG 17.0: all units within 1 hex of 1310", "1310", 1),
    SetupRule("4 Arm", "RG 17.0: all units within 3 hexes of 2615", "2615", 3),
    SetupRule("2 Arm", "RG 17.0: all units within 1 hex of 1901", "1901", 1),
    SetupRule("1 ATB", "RG 17.0: all units within 1 hex of 0806", "0806", 1),
    SetupRule("69 Inf", "RG 17.0: all units within 3 hexes of 0201", "0201", 3),
    SetupRule("Trieste", "RG 17.0: all units within 3 hexes of 0517", "0517", 3),
    SetupRule("Ariete", "RG 17.0: all units within one hex of 1321", "1321", 1),
    SetupRule("Pavia", "RG 17.0: all units within 2 hexes of 0110", "0110", 2),
)


#: RG rules summary (16.0, 15.1, 17.0 in our words; the tables are on the player chart we lack).
RG_RULES_SUMMARY = """<html><head><title>Rules summary</title></head><body>
<h1>Gazala: The Cauldron - rules summary</h1>
<p>A summary of the scenario, reinforcement and victory rules (sections 15.1, 16.0, 17.0 of the 2nd
edition rules). The combat and terrain tables are printed on the player chart, which is not included.</p>
<h2>Turns</h2><p>May 27 AM, May 27 PM, May 28, May 29, May 30, May 31, June 1-2, June 3-4 ... June 13-14
(May 30 and May 31 are inferred: the Turn Record Track is not in the rules text). The d10 reads 0-9.</p>
<h2>Scenarios (17.0)</h2>
<ul><li><b>Scenario One</b>: May 27 AM to June 1-2. The Axis starts with 2 VP. At the end the Allies
score 1 VP per Allied-occupied fortified hex.</li>
<li><b>Campaign Game</b>: May 27 AM to June 13-14. At the end the Allies score 2 VP per hex for 1504,
1605, 2705 and 3 VP per hex for 1118, 1218, 1219, 1318.</li></ul>
<p>Allies set up first, one unit per hex, unused side up: 3 Ind within 1 hex of 1520; 7 Motor (2 RB,
9 KRR) within 2 hexes of 2720, used side up; 9 Ind 3/12 FR in 2705; 1 FF in 1118, 1218, 1219, 1318;
201 Gd two units per hex in 1504 and 1605; 150 Inf within 2 hexes of 0810; 22 Arm within 1 hex of 1310;
4 Arm within 3 hexes of 2615; 2 Arm within 1 hex of 1901; 1 ATB within 1 hex of 0806; 69 Inf within 3
hexes of 0201. Axis (may stack, unused side up): Trieste within 3 hexes of 0517; Ariete within 1 hex of
1321; Pavia within 2 hexes of 0110. The predefined set-ups place every unit in a legal hex; adjust
within the limits before play.</p>
<h2>Reinforcements (15.1)</h2>
<ul><li>May 27 AM: 21 PZ in 1321, 1422, 1521, 1622, 1721; 15 PZ in 1622, 1721, 1822, 1921, 2022;
90 Lt in 1721, 1822, 1921, 2022, 2121.</li>
<li>May 27 PM: 7 Motor (2 KRR). May 29: 29 Ind, 3 tank replacements. June 1-2: 151 Inf (9 Dur Lt),
2 tank replacements. June 3-4: 10 Ind, 9 Ind (3/9 Jat, 2 WY), Indep (Cumber.). June 5-6: 32 ATB.
June 7-8: Brescia in 0108, 0109, 0110. June 9-10: 1 tank replacement.</li>
<li>Allied reinforcements enter in north or east map-edge hexes.</li></ul>
<h2>Victory (16.0)</h2>
<p>Each VP phase the Axis scores 1 VP if at least four Axis units that are not Out of Supply or
Isolated are in north-edge hexes, and 1 VP if an Axis unit occupies 2803 (at most 19 VP in the game).
At the end the Axis scores 1 VP and the Allies 2 VP per enemy step eliminated (replaced steps do not
count). Most VP wins; equal VP is a tie.</p>
</body></html>
"""


#: BG 11.1.1 / 11.1.2: the units the rules set up at named places (unit id, place, rule line).
#: The other units start on positions printed on the board, which we do not have; the artillery of
#: XIII, XXX Corps and 8th Army and both engineer regiments set up freely (Livre), so not here.
BG_SETUP: tuple[tuple[str, str, str], ...] = (
    ("allied-1atb", "Sidi Muftah", "11.1.1: 1ª Bgda de Tanques – Sidi Muftah"),
    ("allied-50-150", "Got el Ualeb", "11.1.1: 150ª Bgda – Got El Ualeb"),
    ("allied-1arm-22", "Bir el Harmat", "11.1.1: 22ª Bgda Blda – Bir El Harmat"),
    ("allied-7arm-7mot", "Retma", "11.1.1: 7ª Bgda Mtz – Retma"),
    ("allied-201g", "Knightsbridge", "11.1.1: 201ª Bgda de Guardas – Knightsbridge"),
    ("allied-1fl", "Bir Hacheim", "11.1.1: 1ª Bgda Franceses Livres – Bir Hacheim"),
    ("axis-9b", "Sidi Breghisc", "11.1.2: 9º Regimento Bersaglieri – Sidi Breghisc"),
)


def place_setup(game_map: Any, pieces: Sequence[PieceSpec], rules: Iterable[tuple[str, str, str]]) -> tuple[tuple[str, str], ...]:
    """Each unit in the (main) hex of the place its rule names."""
    ids = {p.id for p in pieces if p.kind == UNIT}
    out: list[tuple[str, str]] = []
    for uid, place, source in rules:
        if uid not in ids:
            raise GazalaError(f"set-up names unit {uid!r}, which has no palette piece", place=source,
                              expected="a unit id of the counter manifest")
        try:
            hex_ = game_map.place(place).hex
        except KeyError:
            raise GazalaError(f"set-up names place {place!r}, which the map lacks", place=source,
                              expected="a place of the map data") from None
        out.append((uid, game_map.label(hex_)))
    return tuple(out)


@dataclass(frozen=True)
class TrackInfo:
    """A game's VP (or losses) track: boxes ``prefix 0`` .. ``prefix boxes-1``, one marker per side and
    scale (x1, x10); the value a side holds is the sum of box x ``TrackScale`` (+ ``TrackFlipBonus``
    when a two-sided marker is flipped)."""

    map_name: str
    title: str
    prefix: str
    marker: str  #: marker name after the side ("VP", "units lost")
    marker_type: str  #: its ``MarkerType`` (the manifest's VP markers are type ``vp``)
    source: str
    boxes: int = 20


TRACKS: dict[str, TrackInfo] = {
    "gazala-rg": TrackInfo("VP Track", "Victory point track (16.0: Axis VP for 2803 and the north edge; 17.0 scenario VP)",
                           "VP", "VP", "vp", "RG 16.0, 17.0"),
    "cauldron-spi": TrackInfo("VP Track", "Victory point track (18.0; levels of victory 18.4)", "VP", "VP", "vp", "SPI 18.0"),
    "batalha": TrackInfo("VP Track", "Pontos de vitória (11.2: objectives, destroyed units)", "VP", "VP", "vp", "BG 11.2"),
    "cauldron-dg": TrackInfo("Losses Track", "Units eliminated (18.0: twice as many lost downgrades the result)",
                             "Lost", "units lost", "units-lost", "DG 18.0"),
}
TRACK_COLOURS = {"Axis": (163, 169, 173), "Allied": (210, 180, 140)}
_FLIP_BONUS = re.compile(r"\+\s*(\d+)")


def track_pieces(info: TrackInfo, pieces: list[PieceSpec], images: dict[str, bytes], size: int) -> TrackSpec:
    """The track and its markers: each side's x1 marker (the manifest's, if it has one) and x10 marker."""
    track = TrackSpec(info.map_name, info.title, tuple(f"{info.prefix} {i}" for i in range(info.boxes)),
                      tuple(str(i) for i in range(info.boxes)), image=f"{info.map_name.lower().replace(' ', '-')}.png")
    images["images/" + track.image] = faces.png_bytes(faces.track_board(
        track.title, [(track.rect(i), n) for i, n in enumerate(track.numbers)], track.width, track.height))
    index = {p.id: i for i, p in enumerate(pieces)}
    for side, colour in TRACK_COLOURS.items():
        for scale in (1, 10):
            pid = f"{side.lower()}-{info.marker_type}" + ("" if scale == 1 else f"-x{scale}")
            props = {"MarkerType": info.marker_type, "Track": info.map_name, "TrackScale": str(scale)}
            if pid in index:  # the manifest's marker: keep its faces, say how to read it
                p = pieces[index[pid]]
                pieces[index[pid]] = replace(p, group="Track", properties={**p.properties, **props})
                continue
            name = f"{pid}.png"
            label = info.marker.upper() if scale == 1 else f"{info.marker.upper()} x{scale}"
            images["images/" + name] = faces.png_bytes(faces.track_marker(label, side.upper(), colour, size))
            title = f"{side} {info.marker}" + ("" if scale == 1 else f" x{scale}")
            pieces.append(PieceSpec(pid, title, MARKER, side, "", info.marker_type, (name,), group="Track",
                                    properties=props))
    return track


def start_vp(game: str, scenario: str, piece_id: str) -> int:
    """The box a track marker starts in: RG 17.0, Scenario One: "The Axis player starts with 2VP"."""
    return 2 if game == "gazala-rg" and scenario.startswith("Scenario One") and piece_id == "axis-vp" else 0


@dataclass(frozen=True)
class GameInfo:
    dice: tuple[DiceSpec, ...]
    turns: tuple[str, ...] = ()
    scenarios: tuple[tuple[str, str], ...] = ()  #: (name, set-up kind)
    rules_html: str = ""


def _rg_turns() -> tuple[str, ...]:
    try:
        from gazala_tools.rules.rg import TURNS
    except ImportError:  # pragma: no cover - rules are part of the package
        return ()
    return tuple(TURNS)


GAME_INFO: dict[str, GameInfo] = {
    "gazala-rg": GameInfo(
        (DiceSpec("d10", 1, 10, -1, tooltip="Roll a d10 (0-9, 0 is zero)"),),
        _rg_turns(),
        (("Scenario One (May 27 AM - June 1-2)", "rg"), ("Campaign Game (May 27 AM - June 13-14)", "rg")),
        RG_RULES_SUMMARY,
    ),
    "cauldron-dg": GameInfo((DiceSpec("1d6", 1, 6),), (), (("Scenario (19.0 set-up)", "manifest"),)),
    "cauldron-spi": GameInfo((DiceSpec("1d6", 1, 6),), (), (("Scenario (19.0 set-up)", "manifest"),)),
    "batalha": GameInfo(
        (DiceSpec("2d6", 2, 6, report_total=True, tooltip="Roll 2d6"),),
        tuple(f"Turn {i}" for i in range(1, 15)),
        (("Set-up (11.1: units at named places)", "bg"),),
    ),
}


def _image_name(counter_id: str, side: str) -> str:
    return f"{counter_id}-{side}.png"


def _unit_name(c: Any) -> str:
    return f"{c.designation} ({c.formation})" if c.formation else c.designation or c.id


def _generic_back(c: Any) -> bool:
    """A chit whose back only names its side ("Axis", "Allied") is a back, not a second face."""
    return c.back.title.strip().lower() in (c.side, SIDE_NAMES.get(c.side, "").lower(), "")


def _pieces(manifest: Any, images: dict[str, bytes], *, dpi: float, size: int) -> tuple[list[PieceSpec], list[DeckSpec]]:
    pieces: list[PieceSpec] = []
    decks: dict[tuple[str, str], list[str]] = {}

    def image(c: Any, side: str) -> str:
        name = _image_name(c.id, side)
        if "images/" + name not in images:
            images["images/" + name] = faces.png_bytes(faces.face_image(manifest, c, side, dpi=dpi, size=size))
        return name

    units: dict[str, list[Any]] = {}
    for c in manifest.counters:
        if c.kind == "unit":
            units.setdefault(c.unit_id or c.id, []).append(c)
    seen_markers: set[str] = set()
    for c in manifest.counters:
        side = SIDE_NAMES.get(c.side, c.side.title())
        if c.kind == "unit":
            uid = c.unit_id or c.id
            if uid not in units:
                continue
            steps = sorted(units.pop(uid), key=lambda x: -x.step)  # full strength first
            fronts = tuple(image(s, "front") for s in steps)
            backs: tuple[str, ...] = ()
            if all(s.back.state == "used" for s in steps):  # RG: the back is the used side of that step
                backs = tuple(image(s, "back") for s in steps)
            elif len(steps) == 1 and c.reduced_back:  # DG, BG: the back is the reduced step
                fronts = (image(c, "front"), image(c, "back"))
            pieces.append(PieceSpec(uid, _unit_name(c), UNIT, side, c.formation, c.type, fronts, backs,
                                    properties={"Size": c.size, "Designation": c.designation,
                                                "Nationality": c.nationality}))
        elif c.kind == "chit" or c.type in CUP_MARKERS:
            two_sided = not _generic_back(c)
            faces_ = (image(c, "front"), image(c, "back")) if two_sided else (image(c, "front"),)
            mask_name = f"mask-{c.side}-{c.type}.png"
            if "images/" + mask_name not in images:
                images["images/" + mask_name] = faces.png_bytes(
                    faces.mask(f"{side} {c.type}".upper(), c.back.color or c.front.color, size))
            pieces.append(PieceSpec(c.id, f"{c.front.title} ({side} {c.type})" if not two_sided else
                                    f"{c.front.title} / {c.back.title} ({side} {c.type})",
                                    CHIT, side, "", c.type, faces_, mask=mask_name, group=f"{side} {c.type}",
                                    properties={"ChitType": c.type}))
            decks.setdefault((side, c.type), []).append(c.id)
        else:
            key = c.unit_id or c.id
            if key in seen_markers:
                continue
            seen_markers.add(key)
            kind = BREACH if c.type == "breach" else MARKER
            has_back = c.back.state != "blank" and (c.back.title or c.back.values) and c.back != c.front
            faces_ = (image(c, "front"), image(c, "back")) if has_back else (image(c, "front"),)
            title = c.front.title.title() if c.front.title else c.type
            props = {"MarkerType": c.type}
            bonus = _FLIP_BONUS.search(c.back.title or "") if len(faces_) > 1 else None
            if bonus:  # a track marker whose back adds to its box ("VP +10")
                props["TrackFlipBonus"] = bonus.group(1)
            pieces.append(PieceSpec(key, title + (f" ({side})" if c.side in ("axis", "allied") else ""), kind, side,
                                    "", c.type, faces_, properties=props))
    deck_specs = [
        DeckSpec(f"{side} {kind} chits" if side != "Neutral" else f"{kind.capitalize()} chits", tuple(ids))
        for (side, kind), ids in decks.items()
    ]
    return pieces, deck_specs


def _charts(pieces: Sequence[PieceSpec], images: dict[str, bytes], size: int) -> list[ChartSpec]:
    """An order-of-battle chart per side: each formation's units at full strength."""
    charts: list[ChartSpec] = []
    for side in dict.fromkeys(p.side for p in pieces if p.kind == UNIT):
        rows: dict[str, list[bytes]] = {}
        for p in pieces:
            if p.kind == UNIT and p.side == side:
                rows.setdefault(p.formation or "Units", []).append(images["images/" + p.faces[0]])
        name = f"oob-{side.lower()}.png"
        images["images/" + name] = faces.png_bytes(faces.order_of_battle(f"{side} order of battle", list(rows.items()), size))
        charts.append(ChartSpec(f"{side} order of battle", name))
    return charts


def _table_charts(game: str, images: dict[str, bytes]) -> list[ChartSpec]:
    """A chart page per rules table of the game (charts.py), drawn as a PNG."""
    out: list[ChartSpec] = []
    for table in game_tables(game):
        images["images/" + table.image] = faces.png_bytes(render_table(table))
        out.append(ChartSpec(table.name, table.image))
    return out


def _status_images(images: dict[str, bytes], size: int) -> None:
    for name, text, colour in status_images():
        images["images/" + name] = faces.png_bytes(faces.badge(text, colour, size))


def _formation_units(pieces: Sequence[PieceSpec], rule: SetupRule) -> list[PieceSpec]:
    out = [p for p in pieces if p.kind == UNIT and p.formation == rule.formation]
    if rule.units:
        out = [p for p in out if p.properties.get("Designation") in rule.units]
        missing = set(rule.units) - {p.properties.get("Designation") for p in out}
        if missing:
            raise GazalaError(f"set-up names units the manifest lacks: {sorted(missing)}", place=rule.source,
                              expected="every named unit in the counter manifest")
    return out


def rule_setup(game_map: Any, pieces: Sequence[PieceSpec], rules: Iterable[SetupRule]) -> tuple[tuple[str, str], ...]:
    """Each unit of each rule in a hex of its own (or ``per_hex`` a hex) within the rule's area."""
    taken: set[Hex] = set()
    out: list[tuple[str, str]] = []
    for rule in rules:
        units = _formation_units(pieces, rule)
        if rule.hexes:
            slots = [h for h in rule.hexes for _ in range(rule.per_hex)]
            if len(units) > len(slots):
                raise GazalaError(f"{rule.formation}: {len(units)} units for {len(slots)} places", place=rule.source)
            out += [(u.id, label) for u, label in zip(units, slots, strict=False)]
            taken.update(game_map.hex(label) for label in slots)
            continue
        centre = game_map.hex(rule.centre)
        cands = sorted(
            (h for h in centre.within(rule.radius) if game_map.grid.contains(h) and h not in taken),
            key=lambda h: (centre.distance(h), game_map.label(h)),
        )
        if len(cands) < len(units):
            raise GazalaError(f"{rule.formation}: not enough free hexes within {rule.radius} of {rule.centre}", place=rule.source)
        for u, h in zip(units, cands, strict=False):
            out.append((u.id, game_map.label(h)))
            taken.add(h)
    return tuple(out)


_SETUP_HEX = re.compile(r"set-up [^;,]*? in (\d{4})\b")


def manifest_setup(manifest: Any, pieces: Sequence[PieceSpec], game_map: Any) -> tuple[tuple[str, str], ...]:
    """Set-up hexes recorded in the manifest's per-unit provenance ("19.0 set-up 4-5-15 in 2723")."""
    ids = {p.id for p in pieces if p.kind == UNIT}
    out: list[tuple[str, str]] = []
    for c in manifest.units:
        uid = c.unit_id or c.id
        m = _SETUP_HEX.search(c.provenance or "")
        if uid in ids and m and c.step == c.steps:
            label = m.group(1)
            try:
                game_map.hex(label)
            except GazalaError:
                log.warning("%s: set-up hex %s is not on the map; left off the set-up", uid, label)
                continue
            out.append((uid, label))
    return tuple(out)


def help_page(spec_name: str, game: str, sides: Sequence[str], pieces: Sequence[PieceSpec], scenarios: Sequence[ScenarioSpec],
              game_map: Any, provenance: str, track: TrackSpec | None = None, charts: Sequence[ChartSpec] = ()) -> str:
    from html import escape

    track_html = "" if track is None else (
        f"<h2>{escape(track.map_name)}</h2><p>{escape(track.title)}. The {escape(track.map_name)} window (toolbar button) has "
        f"boxes {escape(track.boxes[0])} to {escape(track.boxes[-1])}; each side has a x1 and a x10 marker. A side's total "
        "is the sum of box number x <code>TrackScale</code> of its markers, plus <code>TrackFlipBonus</code> for a "
        "flipped marker. The set-ups start the x1 markers on the track.</p>")
    charts_html = "" if not charts else (
        "<h2>Charts</h2><ul>" + "".join(f"<li>{escape(c.name)}</li>" for c in charts) + "</ul>")

    units = [p for p in pieces if p.kind == UNIT]
    rows = "".join(
        f"<tr><td>{escape(s.name)}</td><td>{len(s.placements)}</td><td>{escape(s.source)}</td></tr>" for s in scenarios
    )
    return f"""<html><head><title>{escape(spec_name)}</title></head><body>
<h1>{escape(spec_name)}</h1>
<p>Built by gazala-tools from reconstructed data ({escape(provenance)}): map {escape(game_map.title)},
{len(game_map.grid)} hexes; {len(units)} units, {len(pieces) - len(units)} markers and chits.</p>
<h2>Sides</h2><p>{escape(", ".join(sides))}</p>
<h2>Unit commands</h2>
<ul><li>Ctrl+L lose a step, Ctrl+R recover a step (multi-step units)</li>
<li>Ctrl+U used / unused side</li>
<li>Ctrl+Shift+D Disrupted, Ctrl+O Out of Supply, Ctrl+I Isolated</li>
<li>Ctrl+D delete</li></ul>
<h2>Markers and chits</h2>
<ul><li>Breach markers: Ctrl+] / Ctrl+[ turn to point at a hexside, Ctrl+B breached / under construction</li>
<li>Two-sided markers and chits: Ctrl+F flip</li>
<li>Chit cups: the "Chit Cups" window holds one shuffled cup per side and chit type</li></ul>
<h2>Set-ups (File, New game)</h2><table border="1"><tr><th>set-up</th><th>units</th><th>source</th></tr>{rows}</table>
{track_html}{charts_html}
<h2>For programs</h2><p>Every piece carries the Marker properties UnitId (our stable id), Kind, Side, Formation,
Type and Steps (track markers also Track, TrackScale, TrackFlipBonus); layers Step, Used, Disrupted, Out of Supply, Isolated report their state as
&lt;layer&gt;_Level and &lt;layer&gt;_Active.</p>
</body></html>
"""


def module_spec(game: str, *, dpi: float | None = None) -> ModuleSpec:
    """Everything the module of ``game`` holds (board image rendered, counter faces rendered)."""
    from gazala_tools.counters import load_manifest
    from gazala_tools.mapdata import load_map
    from gazala_tools.render.board import board_geometry, render_board

    info = GAME_INFO.get(game)
    if info is None:
        raise GazalaError(f"unknown game {game!r}", expected=", ".join(GAME_INFO))
    game_map = load_map(game)
    manifest = load_manifest(game)
    board_img = render_board(game_map, dpi=dpi)
    geometry = board_geometry(game_map, dpi=dpi)
    images: dict[str, bytes] = {"images/board.png": faces.png_bytes(board_img)}
    board_dpi = float(dpi or game_map.pixels.dpi or 100)
    size = max(24, round(manifest.counter_size_mm / 25.4 * board_dpi))
    pieces, decks = _pieces(manifest, images, dpi=board_dpi, size=size)
    track = track_pieces(TRACKS[game], pieces, images, size) if game in TRACKS else None
    _status_images(images, size)
    board = BoardSpec(
        "board.png",
        board_img.size[0],
        board_img.size[1],
        geometry.vassal_attrs(),
        game_map.grid.numbering.vassal_attrs(),
        game_map.pixels.edge_width,
        game_map.pixels.edge_height,
    )
    scenarios: list[ScenarioSpec] = []
    for name, kind in info.scenarios:
        if kind == "rg":
            placements = rule_setup(game_map, pieces, RG_SETUP)
            scenarios.append(ScenarioSpec(name, placements, "May 27 AM", "RG 17.0",
                                          used=tuple(p.id for r in RG_SETUP if r.used for p in _formation_units(pieces, r))))
        elif kind == "bg":
            scenarios.append(ScenarioSpec(name, place_setup(game_map, pieces, BG_SETUP), "Turn 1", "BG 11.1.1, 11.1.2"))
        elif kind == "manifest":
            scenarios.append(ScenarioSpec(name, manifest_setup(manifest, pieces, game_map), "", "set-up hexes of the counter manifest"))
    sides = tuple(dict.fromkeys(p.side for p in pieces if p.kind == UNIT and p.side))
    name = manifest.title or game_map.title
    charts = _table_charts(game, images) + _charts(pieces, images, size)
    images["images/about.png"] = faces.png_bytes(faces.about(
        name, [f"{sum(p.kind == UNIT for p in pieces)} units, {len(game_map.grid)} hexes; map and counters reconstructed",
               "built by gazala-tools"], images["images/board.png"]))
    if track is not None:  # each side's x1 marker on the track at start (RG Scenario One: Axis 2 VP, 17.0)
        ones = [p.id for p in pieces if p.properties.get("Track") and p.properties.get("TrackScale") == "1"]
        scenarios = [replace(s, track=tuple((pid, start_vp(game, s.name, pid)) for pid in ones)) for s in scenarios]
    spec_scenarios = tuple(scenarios)
    return ModuleSpec(
        game=game,
        name=name,
        version=MODULE_VERSION,
        description=f"{name}: board, {sum(p.kind == UNIT for p in pieces)} units, markers, chits, set-ups (gazala-tools)",
        sides=sides,
        board=board,
        pieces=tuple(pieces),
        turns=info.turns,
        dice=info.dice,
        decks=tuple(decks),
        scenarios=spec_scenarios,
        charts=tuple(charts),
        track=track,
        rules_html=info.rules_html,
        about_image="about.png",
        help_html=help_page(name, game, sides, pieces, spec_scenarios, game_map, manifest.provenance, track, charts),
        images=images,
        vassal_version=VASSAL_VERSION,
    )
