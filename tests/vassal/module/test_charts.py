"""Every cell of every chart page is the rules text's (../shared/seeds, README.md says which is which).

The tables are game data (``mapdata/<game>/tables.yaml``). They are parsed from the rules texts where
their layout allows it (DG CRT and reinforcements, BG CRT, terrain and bombardment tables, SPI levels
of victory) and compared cell by cell; where the rules give them in prose, checked sentence by sentence.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from gazala_tools.games import find_game
from gazala_tools.games.tables import Table, load_tables
from gazala_tools.vassal.module.charts import render_table
from tests.vassal.conftest import GAMES

RG, BG, DG, SPI = "000_0907a829c7518a88.txt", "001_8e2c3d1165a6b9a0.txt", "002_0cc14fa2691c9c54.txt", "003_259abf2981e42e8a.txt"


@pytest.fixture(scope="module")
def seed(shared_dir: Path) -> Callable[[str], str]:
    def read(name: str) -> str:
        return (shared_dir / "seeds" / name).read_text(encoding="utf-8")

    return read


def _between(text: str, start: str, end: str) -> str:
    i = text.index(start) + len(start)
    return text[i:text.index(end, i)]


def _flat(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def game_tables(game: str) -> tuple[Table, ...]:
    return load_tables(find_game(game))


def table(game: str, name: str) -> Table:
    (t,) = [t for t in game_tables(game) if t.name == name]
    return t


def column(t: Table, j: int) -> tuple[str, ...]:
    return tuple(r[j] for r in t.rows)


# --- DG ---------------------------------------------------------------------------------------
def test_dg_crt_differentials_and_results_are_the_rules_table(seed: Callable[[str], str]) -> None:
    block = _between(seed(DG), "## CAULDRON COMBAT RESULTS TABLE", "**De**")
    lines = [[c.strip() for c in line.split("\t") if c.strip()] for line in block.splitlines() if "\t" in line]
    crt = table("cauldron-dg", "CRT")
    ours = {row[0]: tuple(c for c in row[1:] if c) for row in crt.header[1:-1]}  # terrain rows: differentials
    terrain = {row[0]: tuple(row[1:]) for row in lines if row[0] in ours}
    assert terrain == ours and len(ours) == 4
    results = [tuple(row[1:]) for row in lines if row[0] in {"1", "2", "3", "4", "5", "6"}]
    assert results == [r[1:] for r in crt.rows] and [r[0] for r in crt.rows] == ["1", "2", "3", "4", "5", "6"]
    assert all(len(r) == 12 for r in results)


def test_dg_11_1_reinforcements_are_the_rules_list(seed: Callable[[str], str]) -> None:
    block = _between(seed(DG), "### 11.1 QUANTITY OF REINFORCEMENTS", "### 11.2")
    words = {"SIX": "6", "EIGHT": "8"}
    turn, got = "", []
    for line in block.splitlines():
        m = re.match(r"GAME TURN (\w+)", line)
        if m:
            turn = words.get(m.group(1), m.group(1))
        elif re.match(r"\d-\d-\d+\t\d+", line):
            unit, hex_ = line.split("\t")[:2]
            got.append((turn, unit.strip(), hex_.strip()))
    assert tuple(got) == table("cauldron-dg", "Reinforcements").rows


def test_dg_18_0_victory_hexes_are_the_rules(seed: Callable[[str], str]) -> None:
    text = _flat(_between(seed(DG), "### 18.0 VICTORY CONDITIONS", "### 19.0"))
    (victory,) = [t for t in game_tables("cauldron-dg") if t.name == "Victory"]
    for hex_ in re.findall(r"\b\d{4}\b", " ".join(c for row in victory.rows for c in row)):
        assert hex_ in text
    assert "twice as many" in text


# --- BG ---------------------------------------------------------------------------------------
def _bg_crt_rows(tokens: list[str], dice: tuple[str, ...]) -> dict[str, list[str]]:
    """The CRT's cells: each dice row is D-result/A-result pairs (one cell each) and one EMP."""
    rows: dict[str, list[str]] = {}
    current: list[str] = []
    for tok in tokens:
        if tok in dice:
            current = rows.setdefault(tok, [])
        elif tok.startswith("A") and current and current[-1].startswith("D") and "/" not in current[-1]:
            current[-1] += "/" + tok
        else:
            current.append(tok)
    return rows


def test_bg_5_1_crt_is_the_rules_table(seed: Callable[[str], str]) -> None:
    text = seed(BG)
    header, _, cells = text[text.index("DADOS") + len("DADOS"):].partition("\n")
    crt = table("batalha", "CRT")
    assert tuple(header.split()) == crt.header[0][1:] and crt.header[0][0] == "2d6"
    dice = column(crt, 0)
    rows = _bg_crt_rows(cells.split(), dice)
    assert tuple(rows) == dice == ("2-12", "3-11", "4-10", "5-9", "6-8", "7")
    assert tuple(tuple(r) for r in rows.values()) == tuple(r[1:] for r in crt.rows)
    # every result code is one the rules define (5.1.7)
    defined = set(re.findall(r"^([A-Z]{2,3}) - ", _between(text, "5.1.7", "5.2 -"), re.M))
    assert {part for row in crt.rows for cell in row[1:] for part in cell.split("/")} <= defined


def test_bg_terrain_table_is_the_rules_table(seed: Callable[[str], str]) -> None:
    block = _between(seed(BG), "TABELA DE EFEITOS DO TERRENO NA MOVIMENTAÇÃO E NO COMBATE:", "* - Proibido")
    got = []
    for line in block.splitlines():
        m = re.match(r"(\D+?)\s+(PROIBIDO|---|\+?[\d,]+\*?)\s+(PROIBIDO|---|\+?[\d,]+\*?)\s+(.+?)\s*$", line.strip())
        if m and m.group(1) not in ("TERRENO",):
            got.append((m.group(1).strip(), m.group(2), m.group(3), m.group(4)))
    ours = [(name.split(" (")[0], mv, mtz, combat) for name, mv, mtz, combat in table("batalha", "Terrain").rows]
    norm = {"prohibited": "PROIBIDO", "2 columns": "2 Colunas", "+1 column": "+1 Coluna", "-1 column": "-1 Coluna"}
    assert [(n, norm.get(a, a), norm.get(b, b), norm.get(c, c)) for n, a, b, c in ours] == got


def test_bg_bombardment_and_vulnerability_tables_are_the_rules(seed: Callable[[str], str]) -> None:
    text = seed(BG)
    block = _between(text, "TABELA DE BOMBARDEIO:", "DI - Defesa Intacta")
    lines = [line.split() for line in block.splitlines() if line.strip()]
    # the last column is "41-" and a symbol-font glyph (infinity) in the private-use area: 41 and up
    bombard = table("batalha", "Bombardment")
    columns = bombard.header[0][1:]
    assert "".join(lines[0]) == "1–1011-2021-3031-4041-\uf0a5"
    ranges = re.findall(r"(\d+)\s*[–-]\s*(\d+|\uf0a5)", " ".join(lines[0]))
    assert len(ranges) == 5
    assert columns == tuple(f"{a}-{b}" if b.isdigit() else f"{a}+" for a, b in ranges)
    body = {row[0]: tuple(row[1:]) for row in lines[1:]}
    assert tuple(body) == column(bombard, 0)
    assert tuple(body.values()) == tuple(r[1:] for r in bombard.rows)
    vul = _flat(_between(text, "TABELA DE VULNERABILIDADE", "DADOS"))
    m = re.search(r"Enge- nharia\. (\d) (\d) Blindados e Artilharia Mecanizada (\d) (\d) Artilharia (\d) (\d)", vul)
    notes = [n for n in bombard.notes if "air attack" in n]
    assert m and [re.findall(r"air attack (\d), artillery (\d)", n)[0] for n in notes] == [
        (m.group(1), m.group(2)), (m.group(3), m.group(4)), (m.group(5), m.group(6))]


def test_bg_6_0_air_power_and_11_2_objectives_are_the_rules(seed: Callable[[str], str]) -> None:
    text = _flat(seed(BG))
    rows = table("batalha", "Air power and objectives").rows
    m = re.search(r"Eixo conta com (\d+) pontos por toda a partida e os aliados, (\d+)", text)
    air = [(side, pts) for item, side, pts in rows if item.startswith("Air power")]
    assert m and [("Axis", m.group(1)), ("Allied", m.group(2))] == air
    objectives = re.findall(r"• ([A-Z][\w ]+?) – (\d+) pontos", text)
    assert objectives == [(item.removeprefix("Objective: "), pts) for item, _s, pts in rows if item.startswith("Objective: ")]
    per_unit = re.findall(r"• (\d+) pontos? por cada unidade (aliada|alemã|italiana) destruída", text)
    assert per_unit == [("5", "aliada"), ("5", "alemã"), ("1", "italiana")]
    ours = [(pts, item) for item, _side, pts in rows if "destroyed" in item]
    assert [pts for pts, _i in ours] == ["5", "5", "1"]
    assert ["Allied" in ours[0][1], "German" in ours[1][1], "Italian" in ours[2][1]] == [True, True, True]


# --- SPI --------------------------------------------------------------------------------------
def test_spi_18_4_levels_of_victory_are_the_rules_schedule(seed: Callable[[str], str]) -> None:
    block = _between(seed(SPI), "Net Victory Point Total Level of Victory", "Start of page")
    got = [re.match(r"(.+? VP) (.+)", line.strip()) for line in block.splitlines() if line.strip()]
    assert tuple((m.group(1), m.group(2)) for m in got if m) == table("cauldron-spi", "Victory levels").rows


def test_spi_supply_command_and_vp_summary_numbers_are_the_rules(seed: Callable[[str], str]) -> None:
    text = _flat(seed(SPI))
    assert "Supply Path of 10 or fewer hexes" in text and "West edge of the map" in text  # 16.1
    assert "Supply Path of unlimited length" in text and "east edge of the map" in text  # 16.2
    assert "through the end of Game-Turn Three. All Allied units are automatically supplied through the end of Game-Turn Seven" in text
    assert "within three hexes of an Axis unit" in text  # 17.0
    assert "a 4-5-15 armor battalion is worth nine Victory Points" in text  # 18.11
    assert "the Axis Player receives 100 Victory Points" in text and "the Allied Player receives 100 Victory Points" in text
    rows = table("cauldron-spi", "Supply, command, VP").rows
    summary = {case: what for case, _rule, what in rows}
    assert "10 or fewer" in summary["16.1"] and "Game-Turn 3" in summary["16.3"] and "Game-Turn 7" in summary["16.3"]
    assert "within 3 hexes" in summary["17.0"] and "9 VP" in summary["18.1"] and "100 VP" in summary["18.2"]
    assert "Tobruk (hex 0608)" in text and ("18.2", "Tobruk (0608)") in [(c, r) for c, r, _w in rows]


# --- RG ---------------------------------------------------------------------------------------
def test_rg_16_0_17_0_victory_points_are_the_rules(seed: Callable[[str], str]) -> None:
    text = _flat(seed(RG))
    sixteen = _between(text, "16.0 Victory Conditions During", "17.0 Scenarios")
    assert sixteen.count("collects one victory point if") == 2
    assert "at least four Axis units that are not Out of Supply or Isolated" in sixteen and "hex 2803" in sixteen
    assert "during the game is 19" in sixteen
    assert "one victory point for each enemy step eliminated and the Allied player receives two victory points" in sixteen
    assert "The Axis player starts with 2VP" in text
    assert "one victory point for each Allied-occupied fortified hex" in text
    assert "two victory points per hex for occupying 1504, 1605, 2705 and 3 victory points per hex for occupying 1118, 1218, 1219, 1318" in text
    assert [vp for _r, _w, vp in table("gazala-rg", "Victory points").rows] == ["1", "1", "19", "1", "2", "2", "1", "2", "3"]


def test_rg_chart_says_the_crt_is_on_the_player_chart_and_gives_no_crt() -> None:
    (table,) = game_tables("gazala-rg")
    assert "Combat Results Table" in " ".join(table.notes) and "do not have" in " ".join(table.notes)
    assert all("CRT" not in t.name for t in game_tables("gazala-rg"))


# --- pages ------------------------------------------------------------------------------------
@pytest.mark.parametrize("game", GAMES)
def test_every_table_is_a_chart_page_of_the_module(game_module: Callable[[str], tuple[Path, Any]], game: str) -> None:
    spec = game_module(game)[1].spec
    tables = game_tables(game)
    assert tables
    pages = {c.name: c.image for c in spec.charts}
    for t in tables:
        assert pages[t.name] == t.image
        img = Image.open(io.BytesIO(spec.images["images/" + t.image]))
        assert img.format == "PNG" and img.width > 300 and img.height > 100
    assert len(pages) == len(spec.charts)  # chart names are unique


def test_render_table_draws_every_row() -> None:
    small = Table("t", "Title", "src", (("a", "b"),), (("1", "2"), ("3", "4")))
    big = Table("t", "Title", "src", (("a", "b"),), (("1", "2"),) * 12)
    assert render_table(big).height > render_table(small).height
