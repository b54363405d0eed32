"""Square cells (issue 35 item 2; docs/mapdata.md, "Square grids"): cell <-> label <-> pixel round trips for
any VASSAL SquareGrid and SquareGridNumbering, the 4 or 8 neighbours the game's moves give, and the key of the
side between two cells the referee compares (one per pair of neighbours)."""

from __future__ import annotations

import itertools

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from gazala_tools.hexes import Orientation
from gazala_tools.squaregrid import (
    Cell,
    SquareGameGrid,
    SquareGridGeometry,
    SquareGridNumbering,
    toolkit_numbering,
)

geometries = st.builds(
    SquareGridGeometry,
    dx=st.floats(4, 300, allow_nan=False), dy=st.floats(4, 300, allow_nan=False),
    x0=st.integers(-500, 500), y0=st.integers(-500, 500))
numberings = st.builds(
    SquareGridNumbering,
    # names that read back: a separator (VASSAL's "0110" without one and without leading zeros is ambiguous,
    # as is "-1-2"), offsets that keep the numbers of the cells on the board from going below 0 (assumed below)
    first=st.sampled_from("HV"), sep=st.sampled_from(["-", ".", "/"]), h_type=st.sampled_from("NA"),
    v_type=st.sampled_from("NA"), h_leading=st.integers(0, 3), v_leading=st.integers(0, 3),
    h_off=st.integers(0, 20), v_off=st.integers(0, 20), h_descend=st.booleans(), v_descend=st.booleans())
boards = st.tuples(st.integers(50, 1500), st.integers(50, 1500))


def _grid(geo: SquareGridGeometry, num: SquareGridNumbering, board: tuple[int, int],
          moves: str = "orthogonal") -> SquareGameGrid | None:
    """The map the import writes for ``geo`` on ``board``: the cells whose centre is on it (label numbers)."""
    cols, rows = geo.board_cells(board)
    if not cols or not rows or len(cols) * len(rows) > 2_000:
        return None
    kw = {"max_rows": geo.max_rows(board[1]), "max_columns": geo.max_columns(board[0])}
    nums = [num.column_row(c, r, **kw) for c in (cols[0], cols[-1]) for r in (rows[0], rows[-1])]
    return SquareGameGrid(Orientation.FLAT, num, (min(c for c, _ in nums) + num.h_off, max(c for c, _ in nums) + num.h_off),
                          (min(r for _, r in nums) + num.v_off, max(r for _, r in nums) + num.v_off),
                          max_rows=kw["max_rows"] if num.v_descend else 0,
                          max_columns=kw["max_columns"] if num.h_descend else 0, moves=moves)


@settings(max_examples=80, deadline=None)
@given(geometries, numberings, boards, st.data())
def test_cell_label_pixel_round_trip(geo: SquareGridGeometry, num: SquareGridNumbering, board: tuple[int, int],
                                     data: st.DataObject) -> None:
    """Every cell of the map: its centre -> the cell VASSAL's naming puts it in -> its label -> the cell; a point
    anywhere inside it (a pixel away from its edges) is in it; the label is the name VASSAL gives the centre."""
    grid = _grid(geo, num, board)
    assume(grid is not None and grid.columns[0] >= 0 and grid.rows[0] >= 0)
    assert grid is not None
    named = SquareGridGeometry(geo.dx, geo.dy, geo.x0, geo.y0, numbering=num)
    cells = grid.hexes()
    assert len(set(cells)) == len(cells) == len({grid.label(h) for h in cells})
    for h in data.draw(st.lists(st.sampled_from(cells), min_size=1, max_size=20)):
        cell = grid.cell(h)
        x, y = geo.centre(cell)
        assert 0 <= x < board[0] and 0 <= y < board[1]
        assert geo.cell_at(x, y) == cell and grid.key(cell) == h
        assert grid.hex(grid.label(h)) == h
        assert named.name_at(x, y, *board) == grid.label(h)
        fx, fy = data.draw(st.floats(-0.49, 0.49)), data.draw(st.floats(-0.49, 0.49))
        px, py = x + fx * (geo.dx - 2), y + fy * (geo.dy - 2)
        if py >= geo.y0 - geo.dy / 2:  # above row 0's top VASSAL truncates: that half row is still row 0
            assert geo.cell_at(px, py) == cell


@settings(max_examples=60, deadline=None)
@given(geometries, boards)
def test_our_0101_is_the_top_left_whole_cell(geo: SquareGridGeometry, board: tuple[int, int]) -> None:
    num = toolkit_numbering(geo, board)
    grid = _grid(geo, num, board)
    if grid is None:
        return
    c, r = grid.raw(grid.parse("0101"))
    assert geo.x0 + c * geo.dx - geo.dx / 2 >= 0 and geo.y0 + r * geo.dy - geo.dy / 2 >= 0
    assert c == 0 or geo.x0 + (c - 1) * geo.dx - geo.dx / 2 < 0
    assert r == 0 or geo.y0 + (r - 1) * geo.dy - geo.dy / 2 < 0


def test_orthogonal_moves_cross_sides_diagonal_ones_corners_too() -> None:
    """4 neighbours across the sides, 8 with the corners; the steps between cells are Manhattan or Chebyshev."""
    c = Cell(3, 4)
    assert c.neighbours() == (Cell(3, 3), Cell(4, 4), Cell(3, 5), Cell(2, 4))
    assert set(c.neighbours("diagonal")) == {Cell(x, y) for x in (2, 3, 4) for y in (3, 4, 5)} - {c}
    assert c.distance(Cell(5, 1)) == 5 and c.distance(Cell(5, 1), "diagonal") == 3


def test_each_pair_of_neighbours_has_one_side_key() -> None:
    """The side between two cells is the same key from either cell, and no two pairs share one (the referee's
    tables of sides are keyed by it); a non-neighbour has none."""
    from gazala_tools.numbering import Numbering

    grid = SquareGameGrid(Orientation.FLAT, Numbering(stagger=False), (1, 9), (1, 7), moves="diagonal")
    seen: dict[object, frozenset[object]] = {}
    for a in grid.hexes():
        for b in (n for n in grid.neighbours(a) if n in grid):
            side = grid.side(a, b)
            assert side == grid.side(b, a)
            assert seen.setdefault(side, frozenset((a, b))) == frozenset((a, b))
    assert len(seen) == 8 * 7 + 9 * 6 + 2 * 8 * 6  # E-W pairs, N-S pairs, both diagonals
    a, far = grid.hexes()[0], grid.hexes()[-1]
    try:
        grid.side(a, far)
    except ValueError as exc:
        assert "not neighbours" in str(exc)
    else:
        raise AssertionError("a side between cells that are not neighbours")


def test_edges_and_neighbours_of_the_corner_cells() -> None:
    from gazala_tools.numbering import Numbering

    grid = SquareGameGrid(Orientation.FLAT, Numbering(stagger=False), (1, 5), (1, 4))
    assert grid.edges(grid.hex("0101")) == {"N", "W"} and grid.edges(grid.hex("0504")) == {"S", "E"}
    assert [grid.label(h) for h in grid.neighbours(grid.hex("0202"))] == ["0201", "0302", "0203", "0102"]
    assert grid.hexsides() == [] and grid.kind == "square"
    assert list(itertools.islice((grid.label(h) for h in grid.hexes()), 3)) == ["0101", "0102", "0103"]
