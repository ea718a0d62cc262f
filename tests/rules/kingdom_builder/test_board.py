"""Sections, rotation, the 20×20 grid and its geometry."""

from __future__ import annotations

import pytest

from games.rules.kingdom_builder.board import (
    BASE_SECTIONS,
    EDGE,
    JUMPS,
    NEIGHBOURS,
    SECTOR,
    STEPS,
    assemble,
    board_data,
    coords,
    section,
)
from tests.rules.kingdom_builder.helpers import h, new_game


def neighbours(r: int, c: int) -> set[tuple[int, int]]:
    return {tuple(coords(n)) for n in NEIGHBOURS[h(r, c)]}


def data_rule(r: int, c: int) -> set[tuple[int, int]]:
    """The board data's offset rule, written out as the data file states it."""
    if r % 2 == 0:
        cand = [(r, c - 1), (r, c + 1), (r - 1, c - 1), (r - 1, c), (r + 1, c - 1), (r + 1, c)]
    else:
        cand = [(r, c - 1), (r, c + 1), (r - 1, c), (r - 1, c + 1), (r + 1, c), (r + 1, c + 1)]
    return {(a, b) for a, b in cand if 0 <= a < 20 and 0 <= b < 20}


def test_neighbours_of_an_even_row_hex_lean_left():
    assert neighbours(4, 5) == {(4, 4), (4, 6), (3, 4), (3, 5), (5, 4), (5, 5)}


def test_neighbours_of_an_odd_row_hex_lean_right():
    assert neighbours(5, 5) == {(5, 4), (5, 6), (4, 5), (4, 6), (6, 5), (6, 6)}


def test_neighbours_cross_both_section_seams():
    assert neighbours(9, 9) == {(9, 8), (9, 10), (8, 9), (8, 10), (10, 9), (10, 10)}
    assert neighbours(10, 10) == {(10, 9), (10, 11), (9, 9), (9, 10), (11, 9), (11, 10)}
    assert neighbours(10, 0) == {(10, 1), (9, 0), (11, 0)}


def test_corner_hexes_have_only_their_on_board_neighbours():
    assert neighbours(0, 0) == {(0, 1), (1, 0)}
    assert neighbours(19, 19) == {(19, 18), (18, 19)}
    assert neighbours(0, 19) == {(0, 18), (1, 18), (1, 19)}


def test_every_hex_follows_the_data_offset_rule_and_adjacency_is_symmetric():
    for r in range(20):
        for c in range(20):
            assert neighbours(r, c) == data_rule(r, c)
            for n in NEIGHBOURS[h(r, c)]:
                assert h(r, c) in NEIGHBOURS[n]


def test_straight_lines_follow_the_three_hex_axes():
    def walk(r: int, c: int, d: int, n: int) -> list[tuple[int, int]]:
        out, i = [], h(r, c)
        for _ in range(n):
            i = STEPS[i][d]
            out.append(tuple(coords(i)))
        return out

    assert walk(4, 5, 0, 2) == [(4, 6), (4, 7)]  # east along the row
    assert walk(4, 5, 1, 3) == [(3, 5), (2, 6), (1, 6)]  # north-east zig-zags the columns
    assert walk(4, 5, 5, 3) == [(5, 5), (6, 6), (7, 6)]  # south-east
    assert walk(5, 5, 4, 2) == [(6, 5), (7, 4)]  # south-west from an odd row
    for i in range(400):
        for d in range(6):
            step = STEPS[i][d]
            if step >= 0:
                assert STEPS[step][(d + 3) % 6] == i  # opposite directions undo each other
                assert step in NEIGHBOURS[i]


def test_two_hex_jumps_are_two_steps_on_one_line():
    for i in range(400):
        for d in range(6):
            mid = STEPS[i][d]
            if mid >= 0 and STEPS[mid][d] >= 0:
                assert JUMPS[i][d] == STEPS[mid][d]
    assert coords(JUMPS[h(4, 5)][1]) == [2, 6]


def test_edge_hexes_are_the_outer_ring_of_the_whole_board():
    assert len(EDGE) == 76
    assert h(0, 7) in EDGE and h(13, 19) in EDGE and h(19, 0) in EDGE
    assert h(9, 10) not in EDGE  # a section's edge inside the board is not a board edge


def test_sectors_are_the_four_10x10_quadrants():
    assert (SECTOR[h(0, 0)], SECTOR[h(9, 9)]) == (0, 0)
    assert (SECTOR[h(0, 10)], SECTOR[h(10, 9)], SECTOR[h(19, 19)]) == (1, 2, 3)
    assert [sum(1 for s in SECTOR if s == q) for q in range(4)] == [100, 100, 100, 100]


def test_rotation_turns_a_section_180_degrees():
    upright, turned = section("tavern"), section("tavern", rotated=True)
    for r in range(10):
        for c in range(10):
            assert turned.rows[r][c] == upright.rows[9 - r][9 - c]
    assert (6, 2, "tavern") in upright.locations
    assert (3, 7, "tavern") in turned.locations
    assert upright.castles == ((3, 3),) and turned.castles == ((6, 6),)


def test_board_lays_sections_in_quadrants_with_rotation():
    board = assemble((("oracle", True), ("farm", False), ("barn", False), ("harbor", True)))
    oracle, harbor = section("oracle", True), section("harbor", True)
    assert board.rows()[0][:10] == oracle.rows[0]
    assert board.rows()[19][10:] == harbor.rows[9]
    assert board.locations[h(6, 2)] == "oracle"  # oracle (3,7) rotated is (6,2)
    assert board.locations[h(1, 17)] == "farm"
    assert board.locations[h(12, 6)] == "barn"  # barn (2,6) in the bottom-left
    assert h(17, 7) in board.castles  # barn castle (7,7)


def test_first_game_board_is_tavern_paddock_oasis_farm_upright():
    s = new_game()
    assert s.layout == (("tavern", False), ("paddock", False), ("oasis", False), ("farm", False))
    assert sorted(s.cards) == ["fishermen", "knights", "merchants"]


def test_every_location_hex_starts_with_two_tiles():
    s = new_game()
    assert len(s.tiles_left) == 8
    assert set(s.tiles_left.values()) == {2}


@pytest.mark.parametrize("name", BASE_SECTIONS)
def test_base_sections_hold_castles_and_locations_on_their_letters(name: str):
    laid = section(name)
    assert len(laid.rows) == 10 and all(len(row) == 10 for row in laid.rows)
    assert laid.locations and laid.castles
    for r, c, tile in laid.locations:
        assert laid.rows[r][c] == "L" and tile == name
    for r, c in laid.castles:
        assert laid.rows[r][c] == "S"


def test_board_data_is_packaged_with_its_provenance():
    data = board_data()
    assert "provenance" in data["format"]
    assert len(data["sections"]) == 16
    assert sorted(BASE_SECTIONS) == sorted(
        ["oracle", "farm", "oasis", "tower", "tavern", "barn", "harbor", "paddock"]
    )
