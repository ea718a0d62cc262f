"""Scoring of a board: the spec's rulings and checks, and the position-file format."""

from __future__ import annotations

import pytest

from games.rules.kingdoms.board import index
from games.rules.kingdoms.scoring import parse_position, score_board, score_position
from tests.rules.kingdoms.helpers import position, position_rows


def totals(pos: dict) -> dict[str, int]:
    return {seat: sheet["total"] for seat, sheet in score_position(pos)["players"].items()}


def rows(pos: dict, seat: int) -> list[int]:
    return score_position(pos)["players"][str(seat)]["rows"]


def columns(pos: dict, seat: int) -> list[int]:
    return score_position(pos)["players"][str(seat)]["columns"]


# ---- the four checks of the spec -----------------------------------------------------


def test_two_mountains_give_three_parts():
    # Row 0: [rank-2 castle] M [+5, rank-1 castle of seat 1] M [-3]
    pos = position(
        {
            (0, 0): "castle:0:2",
            (0, 1): "mountain",
            (0, 2): "+5",
            (0, 3): "castle:1:1",
            (0, 4): "mountain",
            (0, 5): "-3",
        }
    )
    # Part 1 holds no tile: seat 0 gains 0 (undivided it would gain 2 x (5 - 3) = 4).
    assert rows(pos, 0)[0] == 0
    # Part 2: +5 for seat 1's rank-1 castle; the -3 behind the second Mountain is apart.
    assert rows(pos, 1)[0] == 5


def test_two_mountains_split_the_line_into_three_independently_scored_parts():
    pos = position(
        {
            (1, 0): "castle:0:1",
            (1, 1): "+6",
            (1, 2): "mountain",
            (1, 3): "castle:0:3",
            (1, 4): "mountain",
            (1, 5): "castle:0:2",
        }
    )
    # +6 for rank 1; the rank-3 and the rank-2 castles sit in tile-less parts.
    assert rows(pos, 0)[1] == 6


def test_rank_four_castle_beside_wizard_counts_five():
    pos = position({(0, 0): "castle:0:4", (0, 1): "wizard", (0, 2): "+3", (1, 0): "+2"})
    assert rows(pos, 0)[0] == 15  # 5 x 3 in its row
    assert columns(pos, 0)[0] == 10  # the Wizard sits in its row, yet lifts it in its column


def test_dragon_and_gold_mine_in_one_part_double_hazards():
    pos = position(
        {
            (0, 0): "castle:0:1",
            (0, 1): "+4",
            (0, 2): "-3",
            (0, 3): "dragon",
            (0, 4): "gold_mine",
        }
    )
    # Resources count 0, hazards double: (0 - 3) x 2 = -6 for a rank-1 castle.
    assert rows(pos, 0)[0] == -6
    assert totals(pos)["0"] == -6


def test_dragon_in_column_leaves_row_untouched():
    pos = position(
        {
            (0, 0): "castle:0:1",
            (0, 1): "+4",
            (1, 1): "dragon",
            (2, 1): "castle:1:2",
        }
    )
    assert rows(pos, 0)[0] == 4  # the +4's row has no Dragon
    assert columns(pos, 1)[1] == 0  # its column does: the +4 counts 0 there


# ---- the other rulings ----------------------------------------------------------------


def test_castle_gains_base_times_rank_in_row_and_column():
    pos = position({(2, 2): "castle:0:3", (2, 0): "+5", (2, 5): "-2", (4, 2): "+1"})
    assert rows(pos, 0)[2] == 9
    assert columns(pos, 0)[2] == 3
    assert totals(pos) == {"0": 12}


def test_every_players_ranks_in_a_part_add_up():
    pos = position({(0, 0): "castle:0:1", (0, 1): "castle:0:2", (0, 2): "+4"})
    assert rows(pos, 0)[0] == 12


def test_each_player_scores_its_own_ranks():
    pos = position({(0, 0): "castle:0:2", (0, 1): "castle:1:3", (0, 2): "+4", (0, 3): "-1"})
    assert rows(pos, 0)[0] == 6
    assert rows(pos, 1)[0] == 9


def test_negative_base_makes_the_player_pay():
    pos = position({(3, 3): "castle:1:2", (3, 4): "-5", (3, 0): "+1"})
    assert rows(pos, 1)[3] == -8


def test_gold_mine_doubles_the_whole_base():
    pos = position({(0, 0): "castle:0:1", (0, 1): "+4", (0, 2): "-1", (0, 3): "gold_mine"})
    assert rows(pos, 0)[0] == 6


def test_dragon_cancels_resources_but_not_hazards():
    pos = position({(0, 0): "castle:0:2", (0, 1): "+6", (0, 2): "-2", (0, 3): "dragon"})
    assert rows(pos, 0)[0] == -4


def test_mountain_confines_dragon_and_gold_mine_to_their_part():
    pos = position(
        {
            (0, 0): "castle:0:1",
            (0, 1): "+4",
            (0, 2): "mountain",
            (0, 3): "dragon",
            (0, 4): "gold_mine",
            (0, 5): "castle:1:1",
        }
    )
    assert rows(pos, 0)[0] == 4
    assert rows(pos, 1)[0] == 0


def test_wizard_adds_one_per_adjacent_castle_orthogonally_only():
    pos = position(
        {
            (2, 2): "wizard",
            (1, 2): "castle:0:1",  # above: +1
            (2, 1): "castle:1:1",  # left: +1
            (1, 1): "castle:1:2",  # diagonal: no bonus
            (1, 0): "+3",
            (0, 2): "+2",
        }
    )
    assert rows(pos, 0)[1] == 2 * 3  # rank 1 + Wizard = 2, row 1 holds +3
    assert columns(pos, 0)[2] == 2 * 2  # and again in its column (+2)
    assert rows(pos, 1)[1] == 2 * 3  # diagonal castle stays rank 2


def test_wizard_bonus_reaches_across_a_mountain_free_neighbour_only_when_adjacent():
    pos = position({(0, 0): "castle:0:1", (0, 2): "wizard", (0, 1): "+3"})
    assert rows(pos, 0)[0] == 3  # the Wizard is two spaces away: no bonus


def test_empty_spaces_count_zero():
    pos = position({(4, 5): "castle:0:1"})
    assert score_position(pos) == {
        "players": {"0": {"rows": [0] * 5, "columns": [0] * 6, "total": 0}}
    }


def test_line_without_castles_pays_nobody():
    pos = position({(0, 0): "-6", (0, 1): "-5", (1, 0): "castle:0:1"})
    assert rows(pos, 0) == [0, 0, 0, 0, 0]
    assert columns(pos, 0)[0] == -6


def test_every_piece_scores_twice_per_epoch():
    pos = position({(1, 1): "castle:0:1", (1, 2): "+5", (2, 1): "+5"})
    assert totals(pos) == {"0": 10}


def test_rulebook_style_full_board():
    # A complete 2-player epoch, worked by hand line by line (see the comments).
    pos = position_rows(
        [
            ["castle:0:2", "+5", "-2", "castle:1:1", "mountain", "+3"],
            ["+2", "castle:1:3", "dragon", "+6", "castle:0:1", "-4"],
            ["gold_mine", "+1", "castle:0:1", "wizard", "castle:1:2", "+4"],
            ["-1", "castle:0:3", "+6", "mountain", "-5", "castle:1:1"],
            ["castle:1:1", "-6", "+2", "castle:0:4", "+3", "castle:0:1"],
        ]
    )
    sheet = score_position(pos)["players"]
    # Row 0: part [c2,+5,-2,c1] base 3; [+3] has no castle.
    # Row 1: Dragon -> base -4.  Row 2: Gold Mine, (1+4)x2 = 10, Wizard lifts both
    # castles (rank 1 -> 2, rank 2 -> 3).  Row 3: [-1,c3,+6] = 5 | [-5,c1] = -5.
    # Row 4: base -1.
    assert sheet["0"]["rows"] == [6, -4, 20, 15, -5]
    assert sheet["1"]["rows"] == [3, -12, 30, -5, -1]
    # Col 0: Gold Mine (2-1)x2 = 2.  Col 1: base 0.  Col 2: Dragon, -2, Wizard-lifted
    # castle counts 2.  Col 3: [c1,+6,W] = 6 | [c4] = 0.  Col 4: [] | [c1,c2+1,-5,+3] = -2.
    # Col 5: base 3.
    assert sheet["0"]["columns"] == [4, 0, -4, 0, -2, 3]
    assert sheet["1"]["columns"] == [2, 0, 0, 6, -6, 3]
    assert sheet["0"]["total"] == 33
    assert sheet["1"]["total"] == 20


# ---- the position-file format ---------------------------------------------------------


def test_score_position_lists_every_seat_with_a_castle_and_only_those():
    pos = position({(0, 0): "castle:2:1", (0, 1): "castle:0:1", (0, 2): "+1"})
    result = score_position(pos)
    assert set(result["players"]) == {"0", "2"}
    for sheet in result["players"].values():
        assert set(sheet) == {"rows", "columns", "total"}
        assert len(sheet["rows"]) == 5 and len(sheet["columns"]) == 6
        assert sheet["total"] == sum(sheet["rows"]) + sum(sheet["columns"])


@pytest.mark.parametrize(
    "bad",
    [
        {},
        {"grid": []},
        {"grid": [[""] * 6] * 4},
        {"grid": [[""] * 5] * 5},
        {"grid": [[""] * 6] * 4 + [[""] * 5 + [3]]},
        position({(0, 0): "+7"}),
        position({(0, 0): "castle:4:1"}),
        position({(0, 0): "castle:0:5"}),
        position({(0, 0): "castle:x"}),
        position({(0, 0): "+3a"}),  # an engine tile id, not a kind code
        position({(0, 0): "+3", (0, 1): "+3", (0, 2): "+3"}),
        position({(0, 0): "dragon", (1, 1): "dragon"}),
        position({(0, c): "mountain" for c in range(3)}),
        position({(r, c): "castle:0:4" for r in range(2) for c in range(1)}),
        "not a position",
    ],
)
def test_score_position_refuses_malformed_or_impossible_positions(bad):
    with pytest.raises(ValueError):
        score_position(bad)


def test_parse_position_reads_kind_codes_into_pieces():
    pieces = parse_position(position({(1, 2): "-4", (3, 5): "castle:1:3"}))
    assert pieces[index(1, 2)].kind == "hazard" and pieces[index(1, 2)].value == -4
    castle = pieces[index(3, 5)]
    assert (castle.kind, castle.seat, castle.value) == ("castle", 1, 3)
    assert sum(p is None for p in pieces) == 28


def test_score_board_and_score_position_agree():
    pos = position({(0, 0): "castle:0:2", (0, 1): "+6", (1, 0): "-1", (4, 0): "gold_mine"})
    assert score_board(parse_position(pos)) == {
        int(s): v for s, v in score_position(pos)["players"].items()
    }
