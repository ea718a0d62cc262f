"""A turn: the three actions, passing, and the refusals."""

from __future__ import annotations

import random

import pytest

from games.rules.base import IllegalCommand
from games.rules.kingdoms.board import index
from tests.rules.kingdoms.helpers import R, act, new_game, put, types


def refused(state, seat, command) -> str:
    with pytest.raises(IllegalCommand) as info:
        R.decide(state, seat, command, random.Random(0))
    return info.value.code


def test_place_castle_puts_it_on_the_space_and_spends_it():
    state, _ = new_game(2, seed=1)
    seat = state.turn
    after, events = act(state, seat, {"type": "place_castle", "rank": 3, "space": [1, 4]})
    assert types(events) == ["castle_placed"]
    assert events[0].public == {"seat": seat, "rank": 3, "space": [1, 4]}
    assert after.grid[index(1, 4)] == f"castle:{seat}:3"
    assert after.castles[seat] == [4, 3, 1, 1]
    assert after.turn == 1 - seat


def test_castle_of_a_rank_you_no_longer_hold_is_refused():
    state, _ = new_game(2, seed=1)
    seat = state.turn
    state.castles[seat][3] = 0
    assert refused(state, seat, {"type": "place_castle", "rank": 4, "space": [0, 0]}) == (
        "no_castle_of_rank"
    )


def test_draw_shows_the_top_tile_and_the_same_turn_places_it():
    state, _ = new_game(2, seed=1)
    seat, top = state.turn, state.supply[0]
    drawn, events = act(state, seat, {"type": "draw_tile"})
    assert types(events) == ["tile_drawn"]
    assert events[0].public == {"seat": seat, "tile": top}  # public: it goes face up at once
    assert drawn.turn == seat and drawn.drawn == top
    assert R.view(drawn, 1 - seat)["drawn_tile"] == {"seat": seat, "tile": top}
    placed, events = act(drawn, seat, {"type": "place_tile", "space": [2, 2]})
    assert types(events) == ["tile_placed"]
    assert placed.grid[index(2, 2)] == top and placed.drawn is None
    assert placed.turn == 1 - seat
    assert len(placed.supply) == len(state.supply) - 1


def test_drawn_tile_cannot_be_kept_only_placed():
    state, _ = new_game(2, seed=1)
    seat = state.turn
    drawn, _ = act(state, seat, {"type": "draw_tile"})
    for command in (
        {"type": "place_castle", "rank": 1, "space": [0, 0]},
        {"type": "draw_tile"},
        {"type": "place_starting_tile", "space": [0, 0]},
        {"type": "pass"},
    ):
        assert refused(drawn, seat, command) == "must_place_drawn_tile"
    assert {c["type"] for c in R.legal_commands(drawn, seat)} == {"place_tile"}
    assert len(R.legal_commands(drawn, seat)) == 30


def test_place_tile_without_a_drawn_tile_is_refused():
    state, _ = new_game(2, seed=1)
    assert refused(state, state.turn, {"type": "place_tile", "space": [0, 0]}) == "no_drawn_tile"


def test_draw_from_an_empty_supply_is_refused():
    state, _ = new_game(2, seed=1)
    state.supply = []
    assert refused(state, state.turn, {"type": "draw_tile"}) == "supply_empty"
    assert {"type": "draw_tile"} not in R.legal_commands(state, state.turn)


def test_starting_tile_is_placed_face_up_once_per_epoch():
    state, _ = new_game(2, seed=1)
    seat = state.turn
    tile = state.starting[seat]
    after, events = act(state, seat, {"type": "place_starting_tile", "space": [4, 5]})
    assert types(events) == ["starting_tile_placed"]
    assert events[0].public == {"seat": seat, "tile": tile, "space": [4, 5]}
    assert after.grid[index(4, 5)] == tile and after.starting[seat] is None
    after.turn = seat
    assert refused(after, seat, {"type": "place_starting_tile", "space": [0, 0]}) == (
        "no_starting_tile"
    )


def test_placed_pieces_never_move_occupied_space_refused():
    state, _ = new_game(2, seed=1)
    seat = state.turn
    after, _ = act(state, seat, {"type": "place_castle", "rank": 1, "space": [0, 0]})
    other = after.turn
    assert refused(after, other, {"type": "place_castle", "rank": 1, "space": [0, 0]}) == (
        "space_occupied"
    )
    assert all(c.get("space") != [0, 0] for c in R.legal_commands(after, other))


def test_play_passes_clockwise():
    state, _ = new_game(4, seed=2)
    seats = []
    for _ in range(6):
        seats.append(state.turn)
        state, _ = act(
            state, state.turn, {"type": "place_castle", "rank": 1, "space": _free(state)}
        )
    start = seats[0]
    assert seats == [(start + k) % 4 for k in range(6)]


def _free(state) -> list[int]:
    i = state.grid.index(None)
    return [i // 6, i % 6]


def test_pass_is_refused_while_an_action_is_possible():
    state, _ = new_game(2, seed=1)
    assert refused(state, state.turn, {"type": "pass"}) == "cannot_pass"
    assert {"type": "pass"} not in R.legal_commands(state, state.turn)


def test_pass_is_the_only_legal_command_when_nothing_can_be_placed():
    state, _ = new_game(2, seed=1)
    seat = state.turn
    state.castles[seat] = [0, 0, 0, 0]
    state.starting[seat] = None
    state.supply = []
    assert R.legal_commands(state, seat) == [{"type": "pass"}]
    after, events = act(state, seat, {"type": "pass"})
    assert types(events) == ["turn_passed"]
    assert after.turn == 1 - seat


def test_legal_commands_list_every_action_on_every_empty_space():
    state, _ = new_game(2, seed=1)
    put(state, {(0, 0): "castle:0:1"})
    seat = state.turn
    commands = R.legal_commands(state, seat)
    # 4 ranks x 29 spaces, 1 draw, 29 starting-tile spaces.
    assert len(commands) == 4 * 29 + 1 + 29
    assert {"type": "place_castle", "rank": 2, "space": [4, 5]} in commands
    assert {"type": "draw_tile"} in commands
    assert R.legal_commands(state, 1 - seat) == []


def test_every_legal_command_is_accepted():
    state, _ = new_game(3, seed=4)
    seat = state.turn
    for command in R.legal_commands(state, seat):
        assert R.decide(state, seat, command, random.Random(0))


def test_not_your_turn():
    state, _ = new_game(2, seed=1)
    other = 1 - state.turn
    assert refused(state, other, {"type": "draw_tile"}) == "not_your_turn"
    assert refused(state, 7, {"type": "draw_tile"}) == "not_your_turn"
    assert refused(state, True, {"type": "draw_tile"}) == "not_your_turn"


def test_game_over_refuses_everything():
    state, _ = new_game(2, seed=1)
    state.finished, state.turn = True, None
    assert refused(state, 0, {"type": "draw_tile"}) == "game_over"
    assert R.legal_commands(state, 0) == [] and R.to_act(state) == set()


@pytest.mark.parametrize(
    ("command", "code"),
    [
        ("draw", "unknown_command"),
        (None, "unknown_command"),
        ({}, "unknown_command"),
        ({"type": "build"}, "unknown_command"),
        ({"type": "place_castle", "rank": 1}, "missing_field"),
        ({"type": "place_castle", "rank": 1, "space": [0, 0], "x": 1}, "unexpected_field"),
        ({"type": "draw_tile", "space": [0, 0]}, "unexpected_field"),
        ({"type": "place_castle", "rank": 1, "space": "x"}, "bad_space"),
        ({"type": "place_castle", "rank": 1, "space": [0]}, "bad_space"),
        ({"type": "place_castle", "rank": 1, "space": [0, "1"]}, "bad_space"),
        ({"type": "place_castle", "rank": 1, "space": [True, 0]}, "bad_space"),
        ({"type": "place_castle", "rank": 1, "space": None}, "bad_space"),
        ({"type": "place_castle", "rank": 1, "space": [5, 0]}, "off_board"),
        ({"type": "place_castle", "rank": 1, "space": [0, 6]}, "off_board"),
        ({"type": "place_castle", "rank": 1, "space": [-1, 0]}, "off_board"),
        ({"type": "place_castle", "rank": 0, "space": [0, 0]}, "bad_rank"),
        ({"type": "place_castle", "rank": 5, "space": [0, 0]}, "bad_rank"),
        ({"type": "place_castle", "rank": "2", "space": [0, 0]}, "bad_rank"),
        ({"type": "place_castle", "rank": True, "space": [0, 0]}, "bad_rank"),
        ({"type": "place_starting_tile", "space": {"r": 0}}, "bad_space"),
        ({"type": "place_tile", "tile": "+1a", "space": [0, 0]}, "unexpected_field"),
        ({"type": "pass", "seat": 0}, "unexpected_field"),
    ],
)
def test_malformed_commands_are_refused_with_a_stable_code(command, code):
    state, _ = new_game(2, seed=1)
    assert refused(state, state.turn, command) == code


def test_refusals_carry_a_sentence_for_the_player():
    state, _ = new_game(2, seed=1)
    with pytest.raises(IllegalCommand) as info:
        R.decide(state, state.turn, {"type": "place_castle", "rank": 1, "space": [9, 9]}, None)
    assert info.value.message.endswith(".") and "off the board" in info.value.message


def test_decide_never_mutates_the_state():
    state, _ = new_game(2, seed=1)
    before = R.dump(state)
    R.decide(state, state.turn, {"type": "draw_tile"}, random.Random(0))
    R.decide(state, state.turn, {"type": "place_castle", "rank": 4, "space": [1, 1]}, None)
    assert R.dump(state) == before
