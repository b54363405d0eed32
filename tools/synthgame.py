"""A synthetic game folder made only of data (test and benchmark support, not part of the package).

:func:`write_game` writes ``game.yaml``, ``map.yaml``, ``counters.yaml``, ``scenarios.yaml``,
``tables.yaml``, ``module.yaml``, a help page and, optionally, a board image (a stand-in for a
scan: a PNG of exactly the size ``map.yaml``'s ``grid.pixels`` gives, with the hexes outlined) and
counter art (a PNG per face, found by the ``art.folder`` naming convention).

The game has its own numbering (column letters, two-digit rows: ``C07``), two sides (``red``,
``blue``), formations of ten units placed by ``within`` rules, one unit by a place, one by a hex, one
in a holding box, and a VP track the scenario starts at 3 for red. Everything is deterministic:
the same arguments give the same bytes.
"""

from __future__ import annotations

import io
import math
from dataclasses import dataclass
from pathlib import Path

#: unit types the face renderer draws, cycled through the units
TYPES = ("armor", "infantry", "motorized-infantry", "anti-tank", "recon", "artillery", "engineer")
PER_FORMATION = 10


@dataclass(frozen=True)
class SynthGame:
    folder: Path
    units: int
    counters: int  #: physical counters (step counters, chits, markers)
    columns: int
    rows: int
    on_map: int  #: units the scenario sets up on the map


def _label(col: int, row: int) -> str:
    """Column letters as VASSAL names them (A..Z, AA, BB ..) and a two-digit row: ``C07``."""
    from gazala_tools.numbering import part_name

    return f"{part_name(col, 'A', 0)}{row:02d}"


def _png(img: object) -> bytes:
    buf = io.BytesIO()
    img.save(buf, "PNG", compress_level=1)  # type: ignore[attr-defined]
    return buf.getvalue()


def write_game(folder: Path, *, units: int = 24, columns: int = 12, rows: int = 8, board_image: bool = True,
               art: bool = False, chits: int = 4, markers: int = 6, dy: float = 60.0) -> SynthGame:
    """Write the game folder; ``units`` combat units (every fifth has two steps)."""
    from PIL import Image, ImageDraw

    folder.mkdir(parents=True, exist_ok=True)
    dx = round(dy * math.sqrt(3) / 2, 2)
    x0, y0 = round(dx), round(dy)
    width = int(x0 + (columns - 1) * dx + dx + 20)
    height = int(y0 + rows * dy + 20)
    (folder / "game.yaml").write_text("""\
# A synthetic game (tools/synthgame.py): two sides, a numbering of its own, rules as data.
id: synthetic-war
name: "Synthetic War"
provenance: original
sides:
  - {id: red, name: Red Army, color: "#c03030"}
  - {id: blue, name: Blue, color: "#3050c0"}
turns: {count: 6, label: "Turn {n}"}
numbering: {hType: A, hOff: 0, vLeading: 1, vOff: 1}
""", encoding="utf-8")
    hill = _label(columns // 2, rows // 2)
    (folder / "map.yaml").write_text(f"""\
title: Synthetic War
provenance: original
grid:
  orientation: flat
  columns: [0, {columns - 1}]
  rows: [1, {rows}]
  north: top
  pixels: {{dx: {dx}, dy: {dy}, x0: {x0}, y0: {y0}, board_width: {width}, board_height: {height}, dpi: 100}}
terrain:
  default: clear
  types: {{clear: {{description: open ground}}}}
places:
  - {{name: Hill, kind: town, source: synthetic, hexes: ["{hill}"]}}
""", encoding="utf-8")
    if board_image:
        img = Image.new("RGB", (width, height), (236, 228, 206))
        draw = ImageDraw.Draw(img)
        r = dy / math.sqrt(3)
        for c in range(columns):
            for row in range(rows):
                cx = x0 + c * dx
                cy = y0 + row * dy + (dy / 2 if c % 2 else 0)
                pts = [(cx + r * math.cos(math.pi / 3 * k), cy + r * math.sin(math.pi / 3 * k)) for k in range(6)]
                draw.polygon(pts, outline=(90, 80, 60))
        (folder / "board.png").write_bytes(_png(img))

    # --- counters: units in formations of ten, chits, markers, the VP markers ---------------------------
    lines = ["# Synthetic counters (tools/synthgame.py)", "counter_size: 1/2 in", "value_style: attack-defence-move",
             "unit_back: depleted", "nationalities:",
             '  r: {name: Redland, side: red, color: "#e0a0a0"}',
             '  b: {name: Blueland, side: blue, color: "#a0b0e0"}']
    if art:
        lines.append("art: {folder: art}")
    lines.append("units:")
    formations: list[tuple[str, str, list[str]]] = []
    steps: dict[str, int] = {}
    for i in range(units):
        f = i // PER_FORMATION
        side, nat = ("red", "r") if f % 2 == 0 else ("blue", "b")
        if f == len(formations):
            formations.append((f"{side.title()} {f // 2 + 1}", side, []))
        name, _side, members = formations[f]
        uid = f"{side}-{i}"
        members.append(uid)
        steps[uid] = 2 if i % 5 == 0 else 1
        values = f"[[{4 + i % 5}, {3 + i % 4}, {6 + i % 7}], [2, 2, {6 + i % 7}]], steps: 2" if steps[uid] == 2 else \
            f"[{1 + i % 6}, {2 + i % 5}, {4 + i % 9}]"
        lines.append(f'  - {{id: {uid}, nationality: {nat}, formation: "{name}", designation: "{i}/{f}", '
                     f"type: {TYPES[i % len(TYPES)]}, size: II, values: {values}, provenance: synthetic}}")
    lines.append("chits:")
    for side in ("red", "blue"):
        lines.append(f'  - {{id: {side}-action, side: {side}, type: action, count: {chits}, '
                     f'front: {{title: "{side.upper()} GO"}}, back: {{title: "{side.title()}"}}}}')
    lines.append("markers:")
    lines.append(f"  - {{id: disrupted, type: disrupted, count: {markers}, front: {{title: DISRUPTED, icon: burst}}}}")
    lines.append("  - {id: breach, type: breach, count: 2, front: {title: BREACH, icon: arrow}, back: {title: BREACHED}}")
    for side in ("red", "blue"):
        lines.append(f'  - {{id: {side}-vp, side: {side}, type: vp, front: {{title: VP}}, back: {{title: "VP +10"}}}}')
    (folder / "counters.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")

    # --- scenario: formations within 2 hexes of centres 5 apart; a place, a hex, a box ------------------
    centres = [(c, r) for c in range(2, columns - 2, 5) for r in range(3, rows - 1, 5)]
    setup = []
    placed = 0
    for (name, _side, members), (c, r) in zip(formations, centres, strict=False):
        setup.append(f'      - {{formation: "{name}", within: {{hex: "{_label(c, r)}", distance: 2}}, '
                     f'source: "synthetic: all units within 2 hexes of {_label(c, r)}"}}')
        placed += len(members)
    rest = [uid for _n, _s, members in formations[len(centres):] for uid in members]
    extra = []
    if len(rest) >= 3:
        extra = [f'      - {{unit: {rest[0]}, place: Hill, source: "synthetic: at the Hill"}}',
                 f'      - {{unit: {rest[1]}, hex: "{_label(0, 1)}", source: "synthetic: in the corner"}}',
                 f'      - {{unit: {rest[2]}, box: Reinforcements, used: false, source: "synthetic: arrives later"}}']
        placed += 2
    (folder / "scenarios.yaml").write_text("\n".join([
        "scenarios:",
        "  - id: battle",
        '    name: "The Battle"',
        '    source: "synthetic 1.0"',
        '    start: "Turn 2"',
        '    end: "Turn 6"',
        "    tracks:",
        '      - {track: vp, side: red, value: 3, source: "synthetic: Red starts with 3 VP"}',
        "    setup:",
        *setup,
        *extra,
    ]) + "\n", encoding="utf-8")
    (folder / "tables.yaml").write_text("""\
tables:
  - name: CRT
    title: Combat results
    source: "synthetic 5.0"
    header: [["Die", "1-1", "2-1", "3-1"]]
    rows:
      - ["1", "AE", "EX", "DR"]
      - ["2", "AR", "DR", "DE"]
    notes: ["AE attacker eliminated; EX exchange; DR defender retreats; DE defender eliminated."]
""", encoding="utf-8")
    (folder / "help").mkdir(exist_ok=True)
    (folder / "help" / "notes.html").write_text(
        "<html><body><h1>Synthetic War</h1><p>Designer's notes.</p></body></html>\n", encoding="utf-8")
    board = "board.png" if board_image else "render"
    (folder / "module.yaml").write_text(f"""\
version: "2.1"
vassal_version: "3.6.0"
board: {{art: {board}}}
counters: {{art: render}}
palette: {{panels: type, columns: 8}}
prototypes:
  status:
    - {{name: Shaken, key: Ctrl+Shift+S, badge: SHK, color: "#b03020"}}
  facing:
    - {{type: breach, layer: Breach, states: [under construction, breached], key: Ctrl+B}}
dice:
  - {{name: 2d6, dice: 2, sides: 6, total: true}}
track: {{id: vp, map: VP Track, box: VP, boxes: 20, marker: VP, marker_type: vp}}
boxes: {{map: Holding Boxes, names: [Reinforcements, Eliminated]}}
charts: {{tables: [CRT], order_of_battle: true}}
help:
  - {{title: Designer's notes, file: help/notes.html}}
""", encoding="utf-8")
    n_counters = sum(steps.values()) + 2 * chits + markers + 2 + 2
    if art:
        write_art(folder, steps)
    return SynthGame(folder, units, n_counters, columns, rows, placed)


def write_art(folder: Path, n_steps: dict[str, int], size: int = 96) -> None:
    """Front and back PNGs for every unit by the naming convention (``art/<counter id>-front.png``)."""
    from PIL import Image, ImageDraw

    art = folder / "art"
    art.mkdir(exist_ok=True)
    for uid, steps in n_steps.items():
        ids = [uid] if steps == 1 else [f"{uid}-s{s}" for s in range(steps, 0, -1)]
        for k, cid in enumerate(ids):
            for side, shade in (("front", 0), ("back", 60)):
                h = sum(map(ord, cid)) * 37 % 200
                img = Image.new("RGB", (size, size), (40 + h // 2, 90 + shade, 160 - k * 20))
                ImageDraw.Draw(img).text((8, size // 2 - 6), f"{cid} {side[0]}", fill=(255, 255, 255))
                (art / f"{cid}-{side}.png").write_bytes(_png(img))
