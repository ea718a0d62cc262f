"""The table options: Wizard, Down to the Last Castle, No Luck, Score as You Go."""

from __future__ import annotations

import random

import pytest

from games.rules.base import IllegalCommand
from games.rules.kingdoms.board import index
from games.rules.kingdoms.tiles import tile_set
from tests.rules.kingdoms.helpers import R, act, new_game, play_random_game, put, types


def refused(state, seat, command) -> str:
    with pytest.raises(IllegalCommand) as info:
        R.decide(state, seat, command, random.Random(0))
    return info.value.code


# ---- Wizard ---------------------------------------------------------------------------


def test_without_wizard_the_supply_holds_the_22_tiles_of_2002():
    state, _ = new_game(2, wizard=False)
    assert sorted(state.supply + state.starting) == sorted(tile_set(False))
    assert "wizard" not in state.supply + state.starting


# ---- Down to the Last Castle ----------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_last_castle_every_player_has_all_ten_castles(players):
    state, _ = new_game(players, last_castle=True)
    assert state.castles == [[4, 3, 2, 1]] * players


def _almost_full(state, empty: list[tuple[int, int]]):
    """Fill the board with tiles and seat-1 rank-1 castles except the given spaces."""
    tiles = iter(t for t in tile_set(True) if t not in ("dragon", "gold_mine", "wizard"))
    cells = {}
    for r in range(5):
        for c in range(6):
            if (r, c) in empty:
                continue
            cells[(r, c)] = next(tiles, None) or "castle:1:1"
    put(state, cells)
    return state


def test_last_castle_every_placed_castle_leaves_the_game_rank_one_too():
    state, _ = new_game(2, last_castle=True)
    _almost_full(state, [(4, 5)])
    state.turn = 0
    state.castles = [[4, 3, 2, 1], [0, 3, 2, 1]]
    after, events = act(state, 0, {"type": "place_castle", "rank": 1, "space": [4, 5]})
    assert types(events)[-2:] == ["castles_returned", "epoch_started"]
    assert events[-2].public["returned"] == [0, 0]
    assert after.castles == [[3, 3, 2, 1], [0, 3, 2, 1]]


def test_last_castle_has_no_epoch_limit():
    state, _ = new_game(2, last_castle=True)
    _almost_full(state, [(4, 5)])
    state.epoch, state.epoch_gains = 3, [[0, 0]] * 3
    state.turn = 0
    state.castles = [[4, 3, 2, 1], [1, 3, 2, 1]]
    after, events = act(state, 0, {"type": "place_castle", "rank": 1, "space": [4, 5]})
    assert "game_finished" not in types(events)
    assert after.epoch == 4 and R.view(after, 0)["epochs"] is None


def test_last_castle_placing_your_last_castle_makes_this_the_final_epoch():
    state, _ = new_game(2, last_castle=True)
    _almost_full(state, [(4, 4), (4, 5)])
    state.turn = 0
    state.castles = [[1, 0, 0, 0], [2, 0, 0, 0]]
    after, events = act(state, 0, {"type": "place_castle", "rank": 1, "space": [4, 4]})
    assert types(events) == ["castle_placed"]
    assert after.final_epoch and R.view(after, 1)["final_epoch"]
    done, events = act(after, 1, {"type": "place_castle", "rank": 1, "space": [4, 5]})
    assert types(events) == ["castle_placed", "epoch_scored", "game_finished"]
    assert R.outcome(done) is not None


def test_last_castle_final_epoch_runs_until_nobody_can_act_empty_spaces_count_zero():
    state, _ = new_game(2, last_castle=True)
    state.supply, state.starting = [], [None, None]
    state.castles = [[1, 0, 0, 0], [1, 0, 0, 0]]
    put(state, {(0, 0): "+6a"})
    state.turn = 0
    after, events = act(state, 0, {"type": "place_castle", "rank": 1, "space": [0, 1]})
    assert types(events) == ["castle_placed"]  # seat 1 can still act
    done, events = act(after, 1, {"type": "place_castle", "rank": 1, "space": [1, 1]})
    assert types(events) == ["castle_placed", "epoch_scored", "game_finished"]
    assert events[1].public["gains"] == [6, 0]
    assert done.grid.count(None) == 27


def test_last_castle_games_end():
    for seed in range(4):
        state, events = play_random_game(seed, 2 + seed % 3, {"last_castle": True})
        assert R.outcome(state) is not None
        # The final epoch is the one in which some hand emptied.
        assert any(not any(hand) for hand in state.castles)


# ---- No Luck --------------------------------------------------------------------------


def test_no_luck_all_tiles_face_up_and_no_starting_tiles():
    state, events = new_game(3, no_luck=True)
    assert sorted(events[1].public["face_up_supply"]) == sorted(tile_set(True))
    assert events[1].private == {}
    assert state.starting == [None] * 3
    view = R.view(state, None)
    assert sorted(view["supply"]["face_up"]) == sorted(tile_set(True))
    assert all(not s["held"] for s in view["starting_tiles"])


def test_no_luck_the_player_chooses_which_tile_to_place():
    state, _ = new_game(2, no_luck=True)
    seat = state.turn
    after, events = act(state, seat, {"type": "place_tile", "tile": "gold_mine", "space": [2, 3]})
    assert types(events) == ["tile_placed"]
    assert events[0].public["source"] == "face_up_supply"
    assert after.grid[index(2, 3)] == "gold_mine" and "gold_mine" not in after.supply
    assert after.turn == 1 - seat


def test_no_luck_refuses_drawing_starting_tiles_and_absent_tiles():
    state, _ = new_game(2, no_luck=True)
    seat = state.turn
    assert refused(state, seat, {"type": "draw_tile"}) == "choose_a_tile"
    assert refused(state, seat, {"type": "place_starting_tile", "space": [0, 0]}) == (
        "no_starting_tile"
    )
    assert refused(state, seat, {"type": "place_tile", "space": [0, 0]}) == "missing_field"
    state.supply.remove("+1a")
    assert refused(state, seat, {"type": "place_tile", "tile": "+1a", "space": [0, 0]}) == (
        "tile_not_available"
    )
    assert refused(state, seat, {"type": "place_tile", "tile": 3, "space": [0, 0]}) == (
        "tile_not_available"
    )


def test_no_luck_legal_commands_offer_every_face_up_tile_on_every_space():
    state, _ = new_game(2, no_luck=True)
    commands = R.legal_commands(state, state.turn)
    assert len(commands) == 4 * 30 + 23 * 30
    assert {"type": "place_tile", "tile": "+3b", "space": [4, 5]} in commands


# ---- Score as You Go ------------------------------------------------------------------


def test_score_as_you_go_scores_a_line_the_moment_it_fills():
    state, _ = new_game(2, score_as_you_go=True)
    put(state, {(0, 0): "castle:0:2", (0, 1): "+5a", (0, 2): "-2", (0, 3): "+1a", (0, 4): "+1b"})
    state.turn = 1
    after, events = act(state, 1, {"type": "place_castle", "rank": 1, "space": [0, 5]})
    assert types(events) == ["castle_placed", "line_scored"]
    assert events[1].public == {
        "epoch": 1,
        "line": "row",
        "index": 0,
        "gains": [10, 5],
        "gold": [60, 55],
    }
    assert after.gold == [60, 55]
    assert R.view(after, 0)["lines"][0]["gains"] == [10, 5]


def test_score_as_you_go_row_before_column_when_one_placement_fills_both():
    state, _ = new_game(2, score_as_you_go=True)
    row = {(0, c): t for c, t in enumerate(["+1a", "+2a", "+3a", "+4a", "+5a"])}
    column = {(r, 5): t for r, t in zip(range(1, 5), ["+1b", "+2b", "+3b", "+4b"], strict=True)}
    put(state, {**row, **column})
    state.turn = 0
    _, events = act(state, 0, {"type": "place_castle", "rank": 4, "space": [0, 5]})
    assert [(e.public["line"], e.public["index"]) for e in events[1:]] == [
        ("row", 0),
        ("column", 5),
    ]
    assert [e.public["gains"][0] for e in events[1:]] == [4 * 15, 4 * 10]


def test_score_as_you_go_does_not_rescore_lines_at_epochs_end():
    for seed in range(3):
        state, events = play_random_game(seed, 2, {"score_as_you_go": True})
        line_events = [e for e in events if e.type == "line_scored"]
        epoch_events = [e for e in events if e.type == "epoch_scored"]
        assert len(line_events) == 11 * 3
        assert all(e.public["lines"] == [] for e in epoch_events)
        assert sum(sum(e.public["gains"]) for e in line_events) == sum(state.gold) - 100


def test_score_as_you_go_wizard_placed_later_does_not_rescore_a_scored_line():
    state, _ = new_game(2, score_as_you_go=True)
    row = {(0, c): t for c, t in enumerate(["castle:0:1", "+2a", "+3a", "+4a", "+5a", "+6a"])}
    put(state, row)
    state.line_gains[0] = [20, 0]  # row 0 was scored when it filled
    state.turn = 0
    state.drawn = "wizard"
    after, events = act(state, 0, {"type": "place_tile", "space": [1, 0]})
    assert types(events) == ["tile_placed"]
    assert after.line_gains[0] == [20, 0] and after.gold == [50, 50]


def test_last_castle_with_score_as_you_go_scores_unfilled_lines_at_the_end():
    state, _ = new_game(2, last_castle=True, score_as_you_go=True)
    state.supply, state.starting = [], [None, None]
    state.castles = [[1, 0, 0, 0], [0, 0, 0, 0]]
    put(state, {(2, 2): "+4a"})
    state.turn = 0
    _, events = act(state, 0, {"type": "place_castle", "rank": 1, "space": [2, 3]})
    assert types(events) == ["castle_placed", "epoch_scored", "game_finished"]
    assert len(events[1].public["lines"]) == 11 and events[1].public["gains"] == [4, 0]


def test_variants_combine():
    for options in (
        {"no_luck": True, "score_as_you_go": True},
        {"last_castle": True, "no_luck": True, "wizard": False},
    ):
        state, _ = play_random_game(1, 3, options)
        assert R.outcome(state) is not None
