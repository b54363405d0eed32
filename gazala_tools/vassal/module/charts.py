"""Game tables as chart pages (the Charts window): the tables the rules texts give, as data.

Each :class:`Table` is transcribed from a rulebook in ``../shared/seeds`` (README.md there says which
is which) and names the section it comes from; ``tests/module/test_charts.py`` parses the rules texts
and checks every number here against them. :func:`render_table` draws a table as a PNG page (Pillow,
DejaVu fonts). Nothing is invented: RG's combat and terrain tables are on the player chart, which we
do not have, and its chart page says so.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw, ImageFont

from gazala_tools.vassal.module.spec import slug


@dataclass(frozen=True)
class Table:
    """A table of text cells: ``header`` rows (column titles), body ``rows``, ``notes`` below."""

    name: str  #: the chart's tab name
    title: str
    source: str  #: rulebook and section
    header: tuple[tuple[str, ...], ...]
    rows: tuple[tuple[str, ...], ...]
    notes: tuple[str, ...] = ()

    @property
    def image(self) -> str:
        return f"chart-{slug(self.name)}.png"


# --- DG (002): the Cauldron Combat Results Table (combat differential by terrain, 1d6) ----------
DG_CRT_DIFFERENTIALS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Mines", ("-1", "0", "+1", "+2, +3", "+4, +5", "+6, +7", "+8, +9", "+10")),
    ("Broken, Escarpment, Town", ("-3", "-2", "-1", "0", "+1", "+2, +3", "+4, +5", "+6, +7", "+8, +9", "+10")),
    ("Ditch", ("-4", "-3", "-2", "-1", "0", "+1", "+2, +3", "+4, +5", "+6, +7", "+8, +9", "+10")),
    ("Desert", ("-5", "-4", "-3", "-2", "-1", "0", "+1", "+2, +3", "+4, +5", "+6, +7", "+8, +9", "+10")),
)
DG_CRT_RESULTS: tuple[tuple[str, ...], ...] = (
    ("(A)", "A3", "A2", "•", "Ex", "Ex", "D2", "D2", "D2", "D3", "De", "De"),
    ("(A)", "(A)", "A3", "A2", "•", "Ex", "Ex", "Ex", "D2", "D2", "D3", "De"),
    ("(A)", "(A)", "(A)", "A3", "A2", "•", "Ex", "Ex", "Ex", "D2", "D2", "D3"),
    ("(A)", "(A)", "(A)", "(A)", "A3", "A2", "•", "Ex", "Ex", "Ex", "D2", "D2"),
    ("Ae", "(A)", "(A)", "(A)", "(A)", "A3", "A2", "•", "Ex", "Ex", "Ex", "D2"),
    ("Ae", "Ae", "(A)", "(A)", "(A)", "(A)", "(A)", "A1", "•", "Ex", "Ex", "Ex"),
)
DG_CRT_KEY = (
    "De = defending unit eliminated. D3 / D2 = defender retreats three / two hexes (or depletes one unit, 7.8).",
    "Ex = one attacking and one defending unit flipped to the depleted side (eliminated if already depleted).",
    "A1 / A2 / A3 = attacker retreats one / two / three hexes (or depletes one unit, 7.8).",
    "(A) = one attacking unit depleted (eliminated if already depleted). Ae = all attacking units eliminated.",
    "• = no effect. Combat differential = attacking strength minus defending strength; find the defender's",
    "terrain row, then the column of the differential (terrain rows start at the left-hand column).",
)

#: DG 11.1: British reinforcements (game turn, unit type, hex)
DG_REINFORCEMENTS: tuple[tuple[str, str, str], ...] = (
    ("6", "5-4-15", "1201"), ("6", "3-4-9", "1201"), ("8", "1-2-9", "608"),
    ("11", "5-4-15", "1201"), ("11", "3-4-9", "1201"), ("14", "3-4-9", "1201"),
)


def _dg_tables() -> tuple[Table, ...]:
    width = len(DG_CRT_RESULTS[0])
    header = tuple((terrain, *diffs, *("",) * (width - len(diffs))) for terrain, diffs in DG_CRT_DIFFERENTIALS)
    rows = tuple((str(i + 1), *r) for i, r in enumerate(DG_CRT_RESULTS))
    return (
        Table("CRT", "Cauldron Combat Results Table", "DG exclusive rules v4.1, Combat Results Table",
              (("Terrain type", *(f"col {i + 1}" for i in range(width))), *header, ("Die roll", *("",) * width)), rows,
              DG_CRT_KEY),
        Table("Reinforcements", "British reinforcements (11.1)", "DG exclusive rules v4.1, 11.1-11.4",
              (("Game turn", "Unit type", "Hex"),), DG_REINFORCEMENTS,
              ("The German player receives no reinforcements (11.0).",
               "They arrive at the end of the movement phase in the hexes listed (11.2, 11.3); an arrival hex",
               "occupied by an enemy unit delays the reinforcement until it is free (11.4).")),
        Table("Victory", "Victory conditions (18.0)", "DG exclusive rules v4.1, 18.0",
              (("Side", "Wins if"),),
              (("German", "occupies Tobruk (0608) and shows a path free of enemy units and ZOC to 0734 or 2924"),
               ("British", "at the end of the last turn shows such a path from Tobruk (0608) to 1201"),
               ("Neither", "draw"),
               ("Losses", "a side that lost twice as many units or more: win -> draw, draw -> defeat")),
              ("The path may cross a minefield hexside only if Axis units occupy both hexes (18.0 note).",)),
    )


# --- BG (001): Batalha de Gazala, the tables of the last page ----------------------------------
BG_ODDS = ("1-4", "1-3", "1-2", "1-1", "2-1", "3-1", "4-1", "5-1", "6-1", "7-1", "8-1", "9-1")
BG_DICE = ("2-12", "3-11", "4-10", "5-9", "6-8", "7")
#: Tabela de Efeitos de Combate: each row is the row above shifted one column to the right
BG_CRT: tuple[tuple[str, ...], ...] = (
    ("DVB/ARB", "DVB/ARI", "DRI/AVB", "DRB/AVB", "DRI/AVI", "DRB/AVI", "EMP", "DE/AVB", "DE/AVB", "DE/AVI", "DE/AVI", "DE/AVI"),
    ("DVI/ARI", "DVB/ARB", "DVB/ARI", "DRI/AVB", "DRB/AVB", "DRI/AVI", "DRB/AVI", "EMP", "DE/AVB", "DE/AVB", "DE/AVI", "DE/AVI"),
    ("DVI/ARB", "DVI/ARI", "DVB/ARB", "DVB/ARI", "DRI/AVB", "DRB/AVB", "DRI/AVI", "DRB/AVI", "EMP", "DE/AVB", "DE/AVB", "DE/AVI"),
    ("DVB/AE", "DVI/ARB", "DVI/ARI", "DVB/ARB", "DVB/ARI", "DRI/AVB", "DRB/AVB", "DRI/AVI", "DRB/AVI", "EMP", "DE/AVB", "DE/AVB"),
    ("DVI/AE", "DVB/AE", "DVI/ARB", "DVI/ARI", "DVB/ARB", "DVB/ARI", "DRI/AVB", "DRB/AVB", "DRI/AVI", "DRB/AVI", "EMP", "DE/AVB"),
    ("DVI/AE", "DVI/AE", "DVB/AE", "DVI/ARB", "DVI/ARI", "DVB/ARB", "DVB/ARI", "DRI/AVB", "DRB/AVB", "DRI/AVI", "DRB/AVI", "EMP"),
)
BG_CRT_KEY = (
    "Odds = attack / defence, fractions dropped (5.1.1); terrain shifts columns left (5.1.2); encircled",
    "defender +1 right (5.1.3); whole division +1 (5.1.4); armour vs infantry in open/minefield +1 right (5.1.5).",
    "DE defender eliminated (one unit, the rest retreat); DRB / DRI defender retreats with loss / intact;",
    "DVB / DVI defence wins with loss / intact; AVI / AVB attack wins intact / with loss; ARI / ARB attacker",
    "retreats intact / with loss; AE attack eliminated (retreat, one unit eliminated); EMP tie (5.1.7).",
)
#: Tabela de Efeitos do Terreno na Movimentação e no Combate: terrain, MP non-motorised, MP motorised, combat
BG_TERRAIN: tuple[tuple[str, str, str, str], ...] = (
    ("Aberto (open)", "1", "1", "---"),
    ("Cidade (town)", "1", "1", "2 columns"),
    ("Crista (ridge)", "2", "3", "2 columns"),
    ("Mar (sea)", "prohibited", "prohibited", "---"),
    ("Braço de Mar (inlet)", "2", "2*", "2 columns"),
    ("Estrada (road)", "1", "0,5", "---"),
    ("Trilha (track)", "1", "1", "---"),
    ("Fortificação** (fortification)", "---", "---", "+1 column"),
    ("Campo Minado*** (minefield)", "+1", "+1", "-1 column"),
)
BG_BOMBARD_COLUMNS = ("1-10", "11-20", "21-30", "31-40", "41+")
BG_BOMBARD_DICE = ("2-12", "3-11", "4-10", "5-9", "6-8", "7")
BG_BOMBARD: tuple[tuple[str, ...], ...] = (
    ("DB", "DB", "DB", "DB", "DB"),
    ("DI", "DB", "DB", "DB", "DB"),
    ("DI", "DI", "DB", "DB", "DB"),
    ("DI", "DI", "DI", "DB", "DB"),
    ("DI", "DI", "DI", "DI", "DB"),
    ("DI", "DI", "DI", "DI", "DI"),
)
#: Tabela de Vulnerabilidade: unit type, index vs air attack, index vs artillery
BG_VULNERABILITY: tuple[tuple[str, str, str], ...] = (
    ("Infantry, motorised infantry, engineers", "1", "2"),
    ("Armour and mechanised artillery", "2", "1"),
    ("Artillery", "2", "2"),
)
BG_AIR_POWER = (("Axis", "35"), ("Allied", "10"))  #: 6.0: air-power points for the whole game
#: 11.2: objectives held at the end, and points per destroyed enemy unit
BG_OBJECTIVES = (("Tobruk", "50"), ("Bir Hacheim", "30"), ("El Adem", "20"), ("Knightsbridge", "10"))
BG_UNIT_POINTS = (("Axis", "each Allied unit destroyed", "5"), ("Allied", "each German unit destroyed", "5"),
                  ("Allied", "each Italian unit destroyed", "1"))


def _bg_tables() -> tuple[Table, ...]:
    return (
        Table("CRT", "Tabela de Efeitos de Combate (2d6)", "BG rules 5.1, last page",
              (("2d6", *BG_ODDS),), tuple((d, *r) for d, r in zip(BG_DICE, BG_CRT, strict=True)), BG_CRT_KEY),
        Table("Terrain", "Tabela de Efeitos do Terreno na Movimentação e no Combate", "BG rules 4.0, 5.1.2, last page",
              (("Terrain", "Move: non-motorised", "Move: motorised", "Combat"),), BG_TERRAIN,
              ("* prohibited to armour. ** see 10.0. *** see 9.0. Combat: columns to the left for the defender;",
               "the defender uses the terrain giving most columns (5.1.2).")),
        Table("Bombardment", "Tabela de Bombardeio and Tabela de Vulnerabilidade", "BG rules 6.2, 8.0, last page",
              (("2d6", *BG_BOMBARD_COLUMNS),), tuple((d, *r) for d, r in zip(BG_BOMBARD_DICE, BG_BOMBARD, strict=True)),
              ("DI defence intact; DB defence suffers a loss (one unit, the defender's choice).",
               "Value = air power (6.2) or artillery attack (8.0) x sum of the targets' vulnerability indexes:",
               *(f"  {t}: air attack {a}, artillery {b}" for t, a, b in BG_VULNERABILITY),
               "Terrain effects apply (artillery: except the river/inlet).")),
        Table("Air power and objectives", "Air power (6.0) and objectives (11.2)", "BG rules 6.0, 6.1, 11.2",
              (("Item", "Side", "Points"),),
              (*(("Air power for the whole game", side, pts) for side, pts in BG_AIR_POWER),
               *((f"Objective: {place}", "holder", pts) for place, pts in BG_OBJECTIVES),
               *((what, side, pts) for side, what, pts in BG_UNIT_POINTS)),
              ("The air-power marker shows the points left; spend them attacking or defending (6.1).",
               "At the end each side counts the objectives it holds; most points wins (11.2).")),
    )


# --- SPI (003): supply, command control, victory ----------------------------------------------
SPI_VICTORY_LEVELS: tuple[tuple[str, str], ...] = (
    ("36 or more Axis VP", "Axis Decisive"),
    ("21 to 35 Axis VP", "Axis Substantive"),
    ("5 to 20 Axis VP", "Axis Marginal"),
    ("0 to 4 Axis VP", "Draw"),
    ("0 to 9 Allied VP", "Draw"),
    ("10 to 25 Allied VP", "Allied Marginal"),
    ("26 to 40 Allied VP", "Allied Substantive"),
    ("41 or more Allied VP", "Allied Decisive"),
)
SPI_SUMMARY: tuple[tuple[str, str, str], ...] = (
    ("16.1", "Axis supply", "path of 10 or fewer hexes to a trail/road hex, then trail/road to the west edge"),
    ("16.2", "Allied supply", "path of unlimited length to the east edge"),
    ("16.3", "Automatic supply", "Axis through Game-Turn 3, Allied through Game-Turn 7"),
    ("17.0", "Allied command control", "Game-Turn 1: only Allied units within 3 hexes of an Axis unit, or attacked, move"),
    ("18.1", "Unit VP value", "attack + defence (artillery: barrage + FPF + defence); e.g. 4-5-15 = 9 VP"),
    ("18.2", "Tobruk (0608)", "100 VP to the Axis if held with a supply path west, else 100 VP to the Allies"),
    ("18.3", "Exited Allied units", "full VP value off the east edge (reinforcements after one full turn)"),
)


def _spi_tables() -> tuple[Table, ...]:
    return (
        Table("Victory levels", "Levels of Victory (18.4)", "SPI exclusive rules 18.4",
              (("Net Victory Point total", "Level of victory"),), SPI_VICTORY_LEVELS,
              ("Net total = the larger VP total minus the smaller.",)),
        Table("Supply, command, VP", "Supply, command control and victory points", "SPI exclusive rules 16.0-18.3",
              (("Case", "Rule", "Summary"),), SPI_SUMMARY),
    )


# --- RG (000): what the rules text gives --------------------------------------------------------
RG_VP: tuple[tuple[str, str, str], ...] = (
    ("16.0", "Axis, each VP phase: 4+ Axis units, not Out of Supply or Isolated, in north-edge hexes", "1"),
    ("16.0", "Axis, each VP phase: an Axis unit occupies hex 2803", "1"),
    ("16.0", "Axis VP collected during the game, at most", "19"),
    ("16.0", "End: Axis, per enemy step eliminated (replaced steps do not count)", "1"),
    ("16.0", "End: Allied, per enemy step eliminated (replaced steps do not count)", "2"),
    ("17.0", "Scenario One: Axis starts with", "2"),
    ("17.0", "Scenario One, end: Allied, per Allied-occupied fortified hex", "1"),
    ("17.0", "Campaign Game, end: Allied, per hex occupied of 1504, 1605, 2705", "2"),
    ("17.0", "Campaign Game, end: Allied, per hex occupied of 1118, 1218, 1219, 1318", "3"),
)


def _rg_tables() -> tuple[Table, ...]:
    return (
        Table("Victory points", "Victory points (16.0, 17.0)", "RG 2nd edition rules 16.0, 17.0",
              (("Rule", "Victory points", "VP"),), RG_VP,
              ("Most VP wins; equal VP is a tie (16.0).",
               "The Combat Results Table, Terrain Effects Chart, Action Chits per Turn and the Turn Record Track",
               "are printed on the player chart and map, which we do not have: they are not reproduced here.")),
    )


GAME_TABLES = {"gazala-rg": _rg_tables, "cauldron-dg": _dg_tables, "cauldron-spi": _spi_tables, "batalha": _bg_tables}


def game_tables(game: str) -> tuple[Table, ...]:
    """The rules tables of ``game`` (empty for an unknown game)."""
    make = GAME_TABLES.get(game)
    return make() if make else ()


# --- rendering --------------------------------------------------------------------------------
_FONTS: dict[tuple[bool, int], ImageFont.FreeTypeFont | ImageFont.ImageFont] = {}


def _font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    key = (bold, size)
    if key not in _FONTS:
        try:
            _FONTS[key] = ImageFont.truetype("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf", size)
        except OSError:
            _FONTS[key] = ImageFont.load_default()
    return _FONTS[key]


def render_table(table: Table, *, size: int = 14) -> Image.Image:
    """The table as a white page: title, grid of cells (header rows shaded), notes and source."""
    pad, cell_pad, line = 16, 6, size + 8
    body, bold, title_font = _font(size), _font(size, True), _font(size + 6, True)
    probe = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    rows: Sequence[tuple[str, ...]] = (*table.header, *table.rows)
    ncols = max(len(r) for r in rows)
    widths = [0] * ncols
    for i, r in enumerate(rows):
        for j, cell in enumerate(r):
            f = bold if (i < len(table.header) or j == 0) else body
            widths[j] = max(widths[j], int(probe.textlength(cell, font=f)) + 2 * cell_pad)
    grid_w = sum(widths)
    notes = (*table.notes, f"Source: {table.source}")
    text_w = max([int(probe.textlength(n, font=body)) for n in notes] + [int(probe.textlength(table.title, font=title_font))])
    width = 2 * pad + max(grid_w, text_w)
    height = pad + line + 12 + line * len(rows) + 12 + line * len(notes) + pad
    img = Image.new("RGB", (width, height), (255, 255, 255))
    draw = ImageDraw.Draw(img)
    draw.text((pad, pad), table.title, font=title_font, fill=(0, 0, 0))
    y = pad + line + 12
    for i, r in enumerate(rows):
        x = pad
        if i < len(table.header):
            draw.rectangle((pad, y, pad + grid_w, y + line), fill=(225, 225, 215))
        for j in range(ncols):
            cell = r[j] if j < len(r) else ""
            f = bold if (i < len(table.header) or j == 0) else body
            draw.rectangle((x, y, x + widths[j], y + line), outline=(90, 90, 90))
            draw.text((x + cell_pad, y + 3), cell, font=f, fill=(0, 0, 0))
            x += widths[j]
        y += line
    y += 12
    for n in notes:
        draw.text((pad, y), n, font=body, fill=(40, 40, 40))
        y += line
    return img
