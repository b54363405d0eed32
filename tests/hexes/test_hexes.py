"""Hex values: axial/cube/offset conversions, neighbours, rings, lines, canonical hexsides."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gazala_tools.hexes import Direction, Hex, Hexside, Orientation, Parity, hexes_in_offset_rect

coord = st.integers(min_value=-10_000, max_value=10_000)
hexes = st.builds(Hex, coord, coord)
small = st.builds(Hex, st.integers(-30, 30), st.integers(-30, 30))
orientations = st.sampled_from(list(Orientation))
parities = st.sampled_from(list(Parity))
directions = st.sampled_from(list(Direction))


@given(hexes)
def test_cube_round_trip(h: Hex) -> None:
    q, r, s = h.to_cube()
    assert q + r + s == 0
    assert Hex.from_cube(q, r, s) == h


def test_cube_must_sum_to_zero() -> None:
    with pytest.raises(ValueError, match="sum to 0"):
        Hex.from_cube(1, 1, 1)


@given(hexes, orientations, parities)
def test_offset_round_trip(h: Hex, o: Orientation, p: Parity) -> None:
    col, row = h.to_offset(o, p)
    assert Hex.from_offset(col, row, o, p) == h


@given(coord, coord, orientations, parities)
def test_offset_to_hex_round_trip(col: int, row: int, o: Orientation, p: Parity) -> None:
    assert Hex.from_offset(col, row, o, p).to_offset(o, p) == (col, row)


def test_odd_flat_columns_sit_lower() -> None:
    # FLAT/ODD: column 1 is shifted half a hex down, so offset (1, 0) is SE of (0, 0)
    assert Hex.from_offset(0, 0).neighbour(Direction.SE) == Hex.from_offset(1, 0)
    assert Hex.from_offset(0, 0).neighbour(Direction.NE) == Hex.from_offset(1, -1)
    # FLAT/EVEN: column 1 is shifted up instead
    e = Parity.EVEN
    assert Hex.from_offset(0, 0, parity=e).neighbour(Direction.NE) == Hex.from_offset(1, 0, parity=e)


def test_pointy_odd_rows_sit_right() -> None:
    o = Orientation.POINTY
    origin = Hex.from_offset(0, 0, o)
    assert origin.neighbour(Direction.S) == Hex.from_offset(0, 1, o)  # axial (0,+1) = screen SE
    assert origin.neighbour(Direction.SE) == Hex.from_offset(1, 0, o)  # axial (+1,0) = screen E
    assert Direction.SE.compass(o) == "E" and Direction.S.compass(o) == "SE"


@given(hexes, directions)
def test_neighbour_is_at_distance_one_and_back(h: Hex, d: Direction) -> None:
    n = h.neighbour(d)
    assert h.distance(n) == 1
    assert n.neighbour(d.opposite()) == h
    assert h.direction_to(n) is d


@given(directions, st.integers(-12, 12))
def test_direction_rotation(d: Direction, k: int) -> None:
    assert d.rotate(k).rotate(-k) is d
    assert d.rotate(3) is d.opposite()
    assert d.opposite().opposite() is d
    assert Direction.from_compass(d.compass()) is d


@given(hexes, hexes, hexes)
def test_distance_is_a_metric(a: Hex, b: Hex, c: Hex) -> None:
    assert a.distance(b) == b.distance(a) >= 0
    assert (a.distance(b) == 0) == (a == b)
    assert a.distance(c) <= a.distance(b) + b.distance(c)


@given(small, st.integers(0, 8))
def test_ring_and_within(h: Hex, n: int) -> None:
    ring = h.ring(n)
    assert len(ring) == (6 * n if n else 1)
    assert len(set(ring)) == len(ring)
    assert all(h.distance(x) == n for x in ring)
    disk = h.within(n)
    assert len(disk) == 1 + 3 * n * (n + 1)
    assert set(disk) == {x for k in range(n + 1) for x in h.ring(k)}


@given(small, small, st.sampled_from([1, -1]))
def test_line_is_contiguous_and_shortest(a: Hex, b: Hex, nudge: int) -> None:
    line = a.line_to(b, nudge=nudge)
    assert line[0] == a and line[-1] == b
    assert len(line) == a.distance(b) + 1
    assert all(x.distance(y) == 1 for x, y in itertools.pairwise(line))


def test_line_along_a_hexside_has_two_flanking_answers() -> None:
    a, b = Hex(0, 0), Hex(2, -1)  # the true line runs along the hexsides between the two middles
    up = a.line_to(b, nudge=1)
    down = a.line_to(b, nudge=-1)
    assert up != down
    assert {up[1], down[1]} == {Hex(1, 0), Hex(1, -1)}


@given(hexes, directions)
def test_hexside_has_one_canonical_form(h: Hex, d: Direction) -> None:
    s = Hexside.of(h, d)
    assert s == Hexside.of(h.neighbour(d), d.opposite())
    assert hash(s) == hash(Hexside.of(h.neighbour(d), d.opposite()))
    assert s == Hexside.between(h, h.neighbour(d))
    a, b = s.hexes
    assert {a, b} == {h, h.neighbour(d)}
    assert s.other(a) == b and s.direction_from(h) is d


def test_hexside_between_non_neighbours_fails() -> None:
    with pytest.raises(ValueError, match="not adjacent"):
        Hexside.between(Hex(0, 0), Hex(2, 0))


def test_hexside_rejects_non_canonical_direction() -> None:
    with pytest.raises(ValueError, match=r"canonical|N, NE or SE"):
        Hexside(0, 0, Direction.S)


@given(small, directions)
def test_neighbours_share_exactly_the_two_corners_of_their_side(h: Hex, d: Direction) -> None:
    n = h.neighbour(d)
    shared = set(h.corners()) & set(n.corners())
    assert shared == set(Hexside.of(h, d).endpoints())
    assert len(shared) == 2


def test_repr_pastes_back() -> None:
    h = Hex(3, -1)
    assert eval(repr(h)) == h
    s = Hexside.of(h, Direction.SW)
    assert eval(repr(s)) == s


def test_hex_is_immutable_and_integer() -> None:
    h = Hex(1, 2)
    with pytest.raises(AttributeError):
        h.q = 5  # type: ignore[misc]
    with pytest.raises(TypeError):
        Hex(1.5, 2)  # type: ignore[arg-type]


def test_offset_rect_is_complete() -> None:
    got = list(hexes_in_offset_rect(range(3), range(4)))
    assert len(set(got)) == 12
    assert {h.to_offset() for h in got} == {(c, r) for c in range(3) for r in range(4)}
