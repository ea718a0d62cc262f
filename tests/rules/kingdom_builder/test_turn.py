"""The turn: the mandatory action, the end, refusals, setup."""

from __future__ import annotations

import pytest

from games.rules.kingdom_builder.state import TURN
from tests.rules.kingdom_builder.helpers import (
    RULESET,
    build,
    builds,
    new_game,
    play,
    position,
    refused,
    settled,
    types,
)


# ---- the mandatory action --------------------------------------------------------------------
def test_mandatory_build_must_go_next_to_your_settlement_when_an_empty_hex_touches_one():
    s = position({0: [(5, 5)]})
    assert refused(s, build(10, 10)) == "must_build_adjacent"
    assert builds(s) == {(5, 4), (5, 6), (4, 5), (4, 6), (6, 5), (6, 6)}
    s, events = play(s, build(5, 6))
    assert types(events) == ["settlement_built"]


def test_mandatory_build_goes_anywhere_on_the_terrain_when_none_touches_yours():
    s = position({0: [(10, 10)]}, {(2, 2): "G", (15, 15): "G"}, fill="C")
    assert builds(s) == {(2, 2), (15, 15)}
    assert refused(s, build(10, 11)) == "wrong_terrain"


def test_split_placements_are_each_checked_on_their_own():
    s = position({}, {(2, 2): "G", (15, 15): "G", (15, 16): "G"}, fill="C")
    s, _ = play(s, build(2, 2))
    assert builds(s) == {(15, 15), (15, 16)}  # (2, 2) touches no empty grass: anywhere
    s, _ = play(s, build(15, 15))
    assert builds(s) == {(15, 16)}  # now a grass hex touches the new settlement
    s, _ = play(s, build(15, 16))
    assert settled(s, 0) == {(2, 2), (15, 15), (15, 16)}  # settlements need not form a group


def test_three_settlements_then_the_turn_passes():
    s = position({})
    for hex_ in [(0, 0), (0, 1), (0, 2)]:
        assert s.active == 0
        s, events = play(s, build(*hex_))
    assert "turn_ended" in types(events) and s.active == 1
    assert refused(s, build(9, 9), seat=0) == "not_your_turn"


def test_fewer_than_three_settlements_when_fewer_remain():
    s = position({})
    s.supply[0] = 2
    s, _ = play(s, build(0, 0))
    s, events = play(s, build(0, 1))
    assert s.supply[0] == 0
    assert "game_end_triggered" in types(events) and "turn_ended" in types(events)


def test_a_built_settlement_must_stand_on_an_empty_buildable_hex():
    s = position({0: [(5, 5)], 1: [(5, 6)]}, {(5, 4): "W"})
    assert refused(s, build(5, 6)) == "hex_occupied"
    assert refused(s, build(5, 4)) == "not_buildable"


# ---- the end of the game -------------------------------------------------------------------
def test_the_turn_goes_on_after_the_last_settlement():
    s = position({0: [(5, 5)]}, locations={(5, 6): "paddock"}, held={0: [("paddock", (5, 6))]})
    s.supply[0] = 1
    s, events = play(s, build(5, 4))
    assert "game_end_triggered" in types(events)
    assert s.active == 0 and s.phase == TURN
    commands = RULESET.legal_commands(s, 0)
    assert {"type": "end_turn"} in commands
    assert any(c["type"] == "use_tile" for c in commands)


def test_the_round_is_finished_after_someone_places_the_last_settlement():
    s = position({}, players=3)
    s.start_player, s.active, s.turns = 0, 1, [4, 4, 3]
    s.supply[1] = 1
    s, events = play(s, build(0, 0))
    assert "game_end_triggered" in types(events) and s.active == 2
    while not s.finished:
        s, events = play(s, build(*sorted(builds(s))[0]))
    assert events[-1].type == "game_finished" and s.turns == [4, 4, 4]
    assert RULESET.to_act(s) == set() and RULESET.legal_commands(s, 2) == []
    assert refused(s, build(9, 9), seat=0) == "game_over"


def test_the_game_ends_at_once_when_the_last_seat_of_the_round_triggers_it():
    s = position({}, players=2)
    s.start_player, s.active, s.turns = 0, 1, [3, 3]
    s.supply[1] = 1
    s, events = play(s, build(0, 0))
    assert types(events)[-1] == "game_finished"
    outcome = RULESET.outcome(s)
    assert set(outcome.scores) == {0, 1}
    assert set(outcome.breakdown[0]) == {"castles", *s.cards}


# ---- refusals ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("command", "code"),
    [
        ({"type": "fly"}, "unknown_command"),
        ("build", "unknown_command"),
        ({"type": "build", "hex": "x"}, "bad_hex"),
        ({"type": "build", "hex": [1]}, "bad_hex"),
        ({"type": "build", "hex": [True, 2]}, "bad_hex"),
        ({"type": "build", "hex": [20, 0]}, "off_board"),
        ({"type": "build", "hex": [0, 0], "extra": 1}, "malformed_command"),
        ({"type": "use_tile", "tile": "dragon", "to": [0, 0]}, "unknown_tile"),
        ({"type": "use_tile", "tile": "farm", "to": [0, 0]}, "tile_not_held"),
        ({"type": "use_tile", "tile": "paddock", "to": [0, 0]}, "malformed_command"),
        ({"type": "discard_tile", "location": [0, 0]}, "nothing_to_discard"),
        ({"type": "choose_terrain", "terrain": "grass"}, "wrong_variant"),
        ({"type": "end_turn", "now": True}, "malformed_command"),
    ],
)
def test_junk_commands_are_refused_with_a_stable_code(command, code):
    assert refused(position({}), command) == code


def test_commands_from_other_seats_are_refused():
    s = new_game(players=3)
    other = (s.active + 1) % 3
    assert RULESET.legal_commands(s, other) == []
    assert refused(s, {"type": "end_turn"}, seat=other) == "not_your_turn"


# ---- setup -----------------------------------------------------------------------------------
def test_each_player_starts_with_forty_settlements_and_a_random_start_player():
    starts = {new_game(players=4, seed=seed).start_player for seed in range(20)}
    assert len(starts) > 1
    s = new_game(players=4)
    assert s.supply == [40, 40, 40, 40] and s.active == s.start_player


def test_the_discard_pile_shows_only_its_top_card():
    s = position({}, card="grass")
    s.discard = ["forest", "desert"]
    terrain = RULESET.view(s, 1)["terrain"]
    assert terrain["discard_top"] == "desert" and terrain["discard_size"] == 2
    assert "forest" not in str(terrain)
