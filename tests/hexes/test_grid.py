"""GameGrid: labels <-> hexes for whole maps, edges, hexsides (the RG facts of games.md)."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gazala_tools.errors import HexNameError
from gazala_tools.grid import GameGrid, hex_to_raw, raw_to_hex
from gazala_tools.hexes import Hex, Orientation
from gazala_tools.numbering import Numbering

RG = GameGrid(Orientation.FLAT, Numbering(), (1, 28), (1, 22))


def labels(g: GameGrid, *names: str) -> set[Hex]:
    return {g.hex(n) for n in names}


def test_rg_odd_column_neighbours_games_md() -> None:
    # an odd-column hex (c, r) touches (c, r+-1), (c+-1, r), (c+-1, r+1)
    assert set(RG.hex("0101").neighbours()) & set(RG.hexes()) == labels(RG, "0102", "0201", "0202")
    assert set(RG.hex("1305").neighbours()) == labels(RG, "1304", "1306", "1205", "1405", "1206", "1406")


def test_rg_even_column_neighbours_games_md() -> None:
    # an even-column hex (c, r) touches (c, r+-1), (c+-1, r-1), (c+-1, r)
    assert set(RG.hex("1217").neighbours()) == labels(RG, "1216", "1218", "1116", "1316", "1117", "1317")


def test_rg_axis_entry_line_is_a_chain_games_md() -> None:
    chain = ["1321", "1422", "1521", "1622", "1721", "1822", "1921", "2022", "2121"]
    for a, b in itertools.pairwise(chain):
        assert RG.hex(a).is_adjacent(RG.hex(b)), (a, b)


def test_rg_14_1_breach_example_adjacency() -> None:
    assert RG.hex("1217").is_adjacent(RG.hex("1316"))
    assert RG.hex("1316").is_adjacent(RG.hex("1416"))


def test_label_round_trip_every_hex() -> None:
    for h in RG.hexes():
        assert RG.hex(RG.label(h)) == h
    assert len(RG) == 28 * 22


def test_unknown_and_malformed_hex_names() -> None:
    with pytest.raises(HexNameError, match="'2999' is not on the map"):
        RG.hex("2999")
    with pytest.raises(HexNameError, match="'12x7'"):
        RG.hex("12x7")
    with pytest.raises(HexNameError, match="canonical"):
        RG.hex("01104")


def test_edges_in_compass_terms() -> None:
    assert RG.edges(RG.hex("0101")) == {"N", "W"}
    assert RG.edges(RG.hex("2822")) == {"S", "E"}
    assert RG.edges(RG.hex("1410")) == frozenset()
    assert len(RG.edge_hexes("W")) == 22
    dg = GameGrid(Orientation.FLAT, Numbering(), (1, 29), (1, 34), north="left")
    assert dg.edges(dg.hex("0101")) == {"N", "E"}  # printed map: north on the left, east at the top


def test_hexside_labels_are_canonical() -> None:
    s = RG.hexside("1217/1316")
    assert s == RG.hexside("1316/1217")
    assert RG.hexside_label(s) == "1217/1316"
    with pytest.raises(HexNameError, match="not adjacent"):
        RG.hexside("1217/1417")


def test_hexsides_count_for_a_rectangle() -> None:
    g = GameGrid(Orientation.FLAT, Numbering(), (1, 3), (1, 3))
    sides = g.hexsides()
    assert len(sides) == len(set(sides))
    inner = [s for s in sides if all(h in g for h in s.hexes)]
    # a 3x3 odd-q block: 9 hexes, 6 vertical adjacencies, 10 diagonal ones
    assert len(inner) == 16


grids = st.builds(
    lambda o, n, c0, r0, w, h, mr, mc: GameGrid(o, n, (c0, c0 + w), (r0, r0 + h), max_rows=mr, max_columns=mc),
    st.sampled_from(list(Orientation)),
    st.builds(
        Numbering,
        first=st.sampled_from("HV"),
        sep=st.sampled_from(["", "-"]),
        h_type=st.sampled_from("NA"),
        h_leading=st.integers(1, 2),
        v_leading=st.integers(1, 2),
        h_off=st.integers(-1, 2),
        v_off=st.integers(-1, 2),
        h_descend=st.booleans(),
        v_descend=st.booleans(),
        stagger=st.booleans(),
    ),
    st.integers(0, 5),
    st.integers(0, 5),
    st.integers(0, 12),
    st.integers(0, 12),
    st.integers(12, 30),
    st.integers(12, 30),
)


@settings(max_examples=60, deadline=None)
@given(grids)
def test_every_grid_label_round_trips(g: GameGrid) -> None:
    seen = set()
    for h in g.hexes():
        name = g.label(h)
        assert name not in seen
        seen.add(name)
        assert g.hex(name) == h
        assert raw_to_hex(*hex_to_raw(h, g.orientation), g.orientation) == h


def test_edges_on_a_pointy_grid() -> None:
    # sideways: VASSAL's raw column counts screen rows, so column 01 is the top (north) row
    g = GameGrid(Orientation.POINTY, Numbering(), (1, 4), (1, 5))
    first, last = g.hexes()[0], g.hexes()[-1]
    assert g.edges(first) == {"N", "W"}
    assert g.edges(last) == {"S", "E"}
    assert len(g.edge_hexes("N")) == 5 and len(g.edge_hexes("W")) == 4
