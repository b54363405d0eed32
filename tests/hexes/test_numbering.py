"""VASSAL HexGridNumbering, exactly (vassal-format.md section 5.4/5.5), and the game schemes."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gazala_tools.errors import HexNameError
from gazala_tools.numbering import SCHEMES, Numbering, parse_part, part_name

numberings = st.builds(
    Numbering,
    first=st.sampled_from("HV"),
    sep=st.sampled_from(["", "-", ".", " "]),
    h_type=st.sampled_from("NA"),
    v_type=st.sampled_from("NA"),
    h_leading=st.integers(0, 3),
    v_leading=st.integers(0, 3),
    h_off=st.integers(-3, 3),
    v_off=st.integers(-3, 3),
    h_descend=st.booleans(),
    v_descend=st.booleans(),
    stagger=st.booleans(),
)


@pytest.mark.parametrize(
    ("value", "type_", "leading", "text"),
    [(6, "N", 1, "06"), (12, "N", 1, "12"), (0, "N", 1, "00"), (-6, "N", 1, "-06"), (7, "N", 0, "7"),
     (7, "N", 2, "007"), (0, "A", 1, "A"), (25, "A", 1, "Z"), (26, "A", 1, "AA"), (27, "A", 1, "BB"),
     (51, "A", 1, "ZZ"), (52, "A", 1, "AAA"), (-1, "A", 1, "-B")],
)
def test_5_4_part_names(value: int, type_: str, leading: int, text: str) -> None:
    assert part_name(value, type_, leading) == text
    assert parse_part(text, type_) == value


def test_5_4_stagger_true_names_up_right_0201_and_down_right_0202() -> None:
    n = Numbering()
    assert n.name(0, 0) == "0101"
    assert n.name(1, -1) == "0201"
    assert n.name(1, 0) == "0202"


def test_5_4_stagger_false() -> None:
    n = Numbering(stagger=False)
    assert n.name(1, 0) == "0201"
    assert n.name(1, -1) == "0200"


def test_5_6_vdescend_uses_max_rows() -> None:
    n = Numbering(v_descend=True)
    assert n.name(0, 0, max_rows=9) == "0110"
    assert n.name(1, 0, max_rows=9) == "0209"


def test_5_6_alphabetic_with_separator() -> None:
    n = Numbering(h_type="A", sep="-", h_off=0)
    assert [n.name(c, 0) for c in (0, 2)] == ["A-01", "C-01"]
    assert n.name(1, 0) == "B-02"


@given(numberings, st.integers(-60, 60), st.integers(-60, 60), st.booleans(), st.integers(0, 80), st.integers(0, 80))
def test_name_parse_round_trip(n: Numbering, c: int, r: int, sideways: bool, mr: int, mc: int) -> None:
    kw = {"sideways": sideways, "max_rows": mr, "max_columns": mc}
    name = n.name(c, r, **kw)
    # an ambiguous pair (same-letter alphabetic parts with no separator) may not parse back
    if n.sep == "" and n.h_type == n.v_type == "A":
        return
    if n.sep == "" and "N" in (n.h_type, n.v_type) and n.h_type == n.v_type:
        # numeric runs split greedily: only unambiguous when the parts have fixed width
        col_no, row_no = n.column_row(c, r, **kw)
        width_ok = all(0 <= v + off < 10 ** (lead + 1)
                       for v, off, lead in ((col_no, n.h_off, n.h_leading), (row_no, n.v_off, n.v_leading)))
        if not width_ok:
            return
    assert n.parse(name, **kw) == (c, r)


@given(numberings, st.integers(-60, 60), st.integers(-60, 60), st.booleans(), st.integers(0, 80), st.integers(0, 80))
def test_raw_index_inverts_column_row(n: Numbering, c: int, r: int, sideways: bool, mr: int, mc: int) -> None:
    kw = {"sideways": sideways, "max_rows": mr, "max_columns": mc}
    assert n.raw_index(*n.column_row(c, r, **kw), **kw) == (c, r)


def test_5_5_greedy_numeric_split() -> None:
    n = Numbering(h_leading=2)  # 3-digit columns, sep ""
    assert n.parse_numbers("10012") == (100 - 1, 12 - 1)


def test_location_format_with_zone_text() -> None:
    n = Numbering(location_format="Hex $gridLocation$ ($column$/$row$)")
    assert n.name(0, 0) == "Hex 0101 (01/01)"
    assert n.parse("Hex 0101 (01/01)") == (0, 0)


def test_bad_names_raise_hex_name_error() -> None:
    with pytest.raises(HexNameError, match="'01x4'"):
        Numbering().parse("01x4")


def test_5_4_a_letter_column_past_the_digit_cap_still_parses() -> None:
    # VASSAL writes column 520 as 21 "A"s (a letter more every 26 columns): a name of a 4,200 px
    # board of 8 px cells that the digit cap once refused (found by test_squaregrid's round trip)
    n = Numbering(h_type="A", sep="/", h_off=0, v_off=0, h_leading=0, v_leading=0)
    name = part_name(520, "A", 0)
    assert len(name) == 21 and n.parse_numbers(f"{name}/0") == (520, 0)
    with pytest.raises(HexNameError):
        n.parse_numbers("1" * 25 + "/0")
    with pytest.raises(HexNameError):
        Numbering().parse_numbers("0" * 30 + "1")


@given(numberings)
def test_vassal_attrs_round_trip(n: Numbering) -> None:
    assert Numbering.from_vassal_attrs(n.vassal_attrs()) == n


def test_vassal_attr_defaults_and_bad_integer() -> None:
    assert Numbering.from_vassal_attrs({}) == Numbering()
    with pytest.raises(ValueError, match="hOff"):
        Numbering.from_vassal_attrs({"hOff": "x"})


def test_the_only_named_scheme_is_vassals_default_games_state_theirs_in_game_yaml() -> None:
    assert {"vassal-default": Numbering()} == SCHEMES
