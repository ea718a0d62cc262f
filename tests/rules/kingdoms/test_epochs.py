"""End of an epoch, its scoring, what happens between epochs, and the end of the game."""

from __future__ import annotations

import pytest

from games.rules.kingdoms.castles import RANK_ONE_CASTLES
from games.rules.kingdoms.epochs import next_start_player
from games.rules.kingdoms.scoring import score_position
from games.rules.kingdoms.tiles import tile_set
from tests.rules.kingdoms.helpers import (
    R,
    act,
    new_game,
    play_random_game,
    position_rows,
    put,
    types,
)

RULEBOOK_BOARD = [
    ["castle:0:2", "+5", "-2", "castle:1:1", "mountain", "+3"],
    ["+2", "castle:1:3", "dragon", "+6", "castle:0:1", "-4"],
    ["gold_mine", "+1", "castle:0:1", "wizard", "castle:1:2", "+4"],
    ["-1", "castle:0:3", "+6", "mountain", "-5", "castle:1:1"],
    ["castle:1:1", "-6", "+2", "castle:0:4", "+3", "castle:0:1"],
]


def engine_cells(rows: list[list[str]]) -> dict[tuple[int, int], str]:
    """Kind codes to tile ids (+6 -> +6a, the next +6 -> +6b); castles unchanged."""
    used: set[str] = set()
    cells = {}
    for r, row in enumerate(rows):
        for c, code in enumerate(row):
            if not code:
                continue
            if not code.startswith("castle:"):
                code = next(t for t in tile_set(True) if t not in used and t.startswith(code[:2]))
                used.add(code)
            cells[(r, c)] = code
    return cells


def one_space_left(epoch: int = 1, seed: int = 0):
    """The rulebook board with [4, 5] still empty, seat 0 to act; hands complete the sets."""
    state, _ = new_game(2, seed=seed)
    cells = engine_cells(RULEBOOK_BOARD)
    del cells[(4, 5)]
    put(state, cells)
    state.epoch = epoch
    state.epoch_gains = [[0, 0] for _ in range(epoch)]
    state.turn = state.start_player = 0
    state.castles = [[2, 2, 1, 0], [1, 2, 1, 1]]
    return state


LAST_CASTLE = {"type": "place_castle", "rank": 1, "space": [4, 5]}


def test_epoch_ends_when_no_space_is_empty():
    state = one_space_left()
    after, events = act(state, 0, LAST_CASTLE)
    assert types(events) == ["castle_placed", "epoch_scored", "castles_returned", "epoch_started"]
    assert after.epoch == 2 and after.grid == [None] * 30


def test_epoch_scored_reports_every_line_per_player_and_matches_score_position():
    state = one_space_left()
    _, events = act(state, 0, LAST_CASTLE)
    scored = events[1].public
    sheet = score_position(position_rows(RULEBOOK_BOARD))["players"]
    assert [line["line"] for line in scored["lines"]] == ["row"] * 5 + ["column"] * 6
    for seat in (0, 1):
        assert [line["gains"][seat] for line in scored["lines"]] == (
            sheet[str(seat)]["rows"] + sheet[str(seat)]["columns"]
        )
    assert scored["gains"] == [33, 20]
    assert scored["gold"] == [83, 70]


def test_gold_is_credited_at_the_epochs_end():
    state = one_space_left()
    after, _ = act(state, 0, LAST_CASTLE)
    assert after.gold == [83, 70]
    assert after.epoch_gains == [[33, 20], [0, 0]]


def test_rank_one_castles_return_placed_higher_ranks_leave_unplaced_stay():
    state = one_space_left()
    after, events = act(state, 0, LAST_CASTLE)
    returned = events[2].public
    assert returned["returned"] == [3, 3]
    assert returned["removed"] == [[2, 3, 4], [2, 3]]
    # Seat 0 kept 2 x rank 2 and 1 x rank 3 unplaced; seat 1 also its rank 4.
    assert after.castles == [[4, 2, 1, 0], [4, 2, 1, 1]]


def test_all_tiles_are_reshuffled_with_new_secret_starting_tiles():
    state = one_space_left()
    after, events = act(state, 0, LAST_CASTLE)
    started = events[3]
    assert sorted(after.supply + after.starting) == sorted(tile_set(True))
    assert started.private[-1]["supply"] == after.supply
    assert [started.private[s]["starting_tile"] for s in (0, 1)] == after.starting
    assert "supply" not in started.public


def test_the_new_shuffle_comes_from_the_decision_rng():
    state = one_space_left()
    supplies = {tuple(act(state, 0, LAST_CASTLE, seed=s)[0].supply) for s in range(5)}
    assert len(supplies) == 5


def test_player_with_most_gold_starts_the_next_epoch():
    state = one_space_left()
    state.start_player = 1
    after, events = act(state, 0, LAST_CASTLE)
    assert events[3].public["start_player"] == 0 == after.turn
    assert events[3].public["start_reason"] == "most_gold"


def test_tie_for_most_gold_goes_to_first_tied_player_clockwise_from_previous_start_player():
    assert next_start_player([90, 40, 90, 90], previous=1) == (2, "tie_clockwise")
    assert next_start_player([90, 40, 90, 10], previous=3) == (0, "tie_clockwise")
    assert next_start_player([90, 40, 90, 10], previous=1) == (2, "tie_clockwise")


def test_tied_previous_start_player_starts_again():
    assert next_start_player([70, 70, 10], previous=1) == (1, "tie_clockwise")


def test_tie_rule_in_the_engine():
    state = one_space_left()
    state.gold = [50 - 33 + 20, 50]  # after scoring: 70 and 70
    state.start_player = 1
    after, events = act(state, 0, LAST_CASTLE)
    assert after.gold == [70, 70]
    assert events[3].public["start_player"] == 1


def test_game_ends_after_the_third_epoch():
    state = one_space_left(epoch=3)
    after, events = act(state, 0, LAST_CASTLE)
    assert types(events) == ["castle_placed", "epoch_scored", "game_finished"]
    assert after.finished and R.to_act(after) == set()
    outcome = R.outcome(after)
    assert outcome.scores == {0: 83, 1: 70}
    assert outcome.ranking == [[0], [1]]
    assert outcome.breakdown[0] == {
        "start": 50,
        "epoch_1": 0,
        "epoch_2": 0,
        "epoch_3": 33,
        "gold": 83,
    }
    assert events[2].public == {"epoch": 3, "scores": [83, 70], "ranking": [[0], [1]]}


def test_second_epoch_does_not_end_the_game():
    state = one_space_left(epoch=2)
    after, _ = act(state, 0, LAST_CASTLE)
    assert not after.finished and after.epoch == 3


def test_tied_players_share_the_victory():
    state = one_space_left(epoch=3)
    state.gold = [50, 63]
    after, _ = act(state, 0, LAST_CASTLE)
    assert R.outcome(after).ranking == [[0, 1]]
    assert R.outcome(after).winners == [0, 1]


def test_gold_may_go_negative():
    state = one_space_left(epoch=3)
    state.gold = [-40, 0]
    after, _ = act(state, 0, LAST_CASTLE)
    assert after.gold == [-7, 20]
    assert R.outcome(after).ranking == [[1], [0]]


def test_epoch_ends_when_nobody_can_act_and_empty_spaces_count_zero():
    state, _ = new_game(2, seed=3)
    state.supply, state.starting = [], [None, None]
    state.castles = [[1, 0, 0, 0], [0, 0, 0, 0]]
    put(state, {(0, 0): "+5a", (0, 1): "castle:1:2"})
    state.turn = 0
    after, events = act(state, 0, {"type": "place_castle", "rank": 1, "space": [0, 2]})
    assert types(events)[:2] == ["castle_placed", "epoch_scored"]
    assert events[1].public["gains"] == [5, 10]
    assert after.epoch == 2


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("wizard", [True, False])
def test_standard_epoch_always_has_pieces_for_all_thirty_spaces(players, wizard):
    # Leanest epoch: every rank 2-4 castle already spent, only rank-1 castles remain.
    assert RANK_ONE_CASTLES[players] * players + len(tile_set(wizard)) >= 30


def test_standard_epochs_fill_the_board_in_play():
    for seed in range(5):
        _, events = play_random_game(seed, 2 + seed % 3, {"wizard": seed % 2 == 0})
        placed = 0
        for event in events:
            if event.type in ("castle_placed", "tile_placed", "starting_tile_placed"):
                placed += 1
            if event.type == "epoch_scored":
                assert placed == 30
                placed = 0
