"""The grid, its lines, adjacency and Mountain-split parts."""

from __future__ import annotations

from games.rules.kingdoms.board import (
    LINES,
    LINES_THROUGH,
    NEIGHBOURS,
    SPACES,
    index,
    parts,
    piece_of,
    space,
)


def test_board_has_five_rows_of_six_spaces():
    assert SPACES == 30
    assert [line.kind for line in LINES] == ["row"] * 5 + ["column"] * 6
    assert all(len(line.cells) == 6 for line in LINES[:5])
    assert all(len(line.cells) == 5 for line in LINES[5:])


def test_rows_are_scored_top_to_bottom_then_columns_left_to_right():
    assert [(line.kind, line.index) for line in LINES] == [
        *(("row", r) for r in range(5)),
        *(("column", c) for c in range(6)),
    ]
    assert LINES[0].cells == (0, 1, 2, 3, 4, 5)
    assert LINES[5].cells == (0, 6, 12, 18, 24)


def test_every_space_lies_in_one_row_and_one_column():
    for i in range(SPACES):
        row, column = LINES_THROUGH[i]
        assert i in LINES[row].cells and LINES[row].kind == "row"
        assert i in LINES[column].cells and LINES[column].kind == "column"


def test_adjacency_is_orthogonal_and_stops_at_the_edge():
    assert sorted(NEIGHBOURS[index(0, 0)]) == [index(0, 1), index(1, 0)]
    assert sorted(NEIGHBOURS[index(2, 3)]) == sorted(
        [index(1, 3), index(3, 3), index(2, 2), index(2, 4)]
    )
    assert len(NEIGHBOURS[index(4, 5)]) == 2
    assert all(i in NEIGHBOURS[j] for i in range(SPACES) for j in NEIGHBOURS[i])


def test_space_and_index_are_inverse():
    assert all(index(*space(i)) == i for i in range(SPACES))
    assert space(13) == [2, 1]


def test_two_mountains_split_a_line_into_three_parts_one_possibly_empty():
    pieces = [None] * SPACES
    pieces[index(0, 2)] = piece_of("mountain")
    pieces[index(0, 3)] = piece_of("mountain")
    assert parts(LINES[0].cells, pieces) == [[0, 1], [], [4, 5]]


def test_line_without_mountain_is_one_part():
    assert parts(LINES[6].cells, [None] * SPACES) == [list(LINES[6].cells)]


def test_piece_of_reads_tile_ids_kind_codes_and_castles():
    assert piece_of("+3a") == piece_of("+3")
    assert piece_of("mountain_b").kind == "mountain"
    assert piece_of("castle:3:4").seat == 3
    assert piece_of("") is None and piece_of(None) is None
