"""The turn: the mandatory action, taking and losing tiles, tile timing, the end."""

from __future__ import annotations

import random

import pytest

from games.rules.base import IllegalCommand
from games.rules.kingdom_builder.state import DISCARD_TILE, TURN
from tests.rules.kingdom_builder.helpers import (
    RULESET,
    build,
    h,
    new_game,
    play,
    position,
    settled,
    types,
    use,
)


def refused(s, command, seat=None) -> str:
    with pytest.raises(IllegalCommand) as error:
        RULESET.decide(s, s.active if seat is None else seat, command, random.Random(0))
    return error.value.code


def builds(s) -> set[tuple[int, int]]:
    return {tuple(c["hex"]) for c in RULESET.legal_commands(s, s.active) if c["type"] == "build"}


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


# ---- terrain cards -------------------------------------------------------------------------
def test_the_terrain_card_is_revealed_at_the_start_of_the_turn():
    events = RULESET.setup({"board": "first_game"}, 3, random.Random(7))
    setup, started, revealed = events[0], events[1], events[2]
    seat = setup.public["start_player"]
    assert started.type == "turn_started" and started.public["seat"] == seat
    assert revealed.type == "terrain_card_revealed" and revealed.public["source"] == "hand"
    assert [revealed.public["terrain"]] == setup.private[seat]["hand"]
    assert "hand" not in setup.public


def test_the_card_is_discarded_and_a_secret_one_drawn_at_the_end_of_the_turn():
    s = position({}, card="grass")
    top = s.draw_pile[0]
    for hex_ in [(0, 0), (0, 1)]:
        s, _ = play(s, build(*hex_))
    s, events = play(s, build(0, 2))
    drawn = next(e for e in events if e.type == "terrain_card_drawn")
    assert "terrain" not in drawn.public and drawn.private == {0: {"terrain": top}}
    assert s.discard[-1] == "grass" and top in s.hands[0]


def test_the_discards_are_reshuffled_into_a_secret_pile_when_the_pile_is_empty():
    s = position({}, card="grass")
    s.discard, s.draw_pile = ["forest", "desert", "canyon"], []
    for hex_ in [(0, 0), (0, 1), (0, 2)]:
        s, events = play(s, build(*hex_))
    shuffle = next(e for e in events if e.type == "terrain_deck_reshuffled")
    assert shuffle.public == {"cards": 4}
    assert sorted(shuffle.private[-1]["draw_pile"]) == ["canyon", "desert", "forest", "grass"]
    assert list(shuffle.private) == [-1]


def test_no_empty_hex_of_the_terrain_removes_the_card_and_draws_another():
    s = position({}, {(2, 2): "G", (9, 9): "D"}, fill="C", card="grass")
    s.draw_pile = ["desert", "forest"]
    s, events = play(s, build(2, 2))
    assert types(events)[1:] == ["terrain_card_removed", "terrain_card_revealed"]
    assert s.removed == ["grass"] and s.card == "desert" and s.placed == 1
    assert builds(s) == {(9, 9)}


def test_the_card_is_replaced_at_the_start_of_a_turn_when_its_terrain_is_full():
    s = position({}, {(9, 9): "D"}, fill="C", card="canyon")
    s.hands[1], s.draw_pile = ["grass"], ["forest", "desert"]  # seat 0 draws the forest
    for hex_ in [(0, 0), (0, 1), (0, 2)]:
        s, events = play(s, build(*hex_))
    assert types(events)[-3:] == [
        "terrain_card_revealed",
        "terrain_card_removed",
        "terrain_card_revealed",
    ]
    assert s.active == 1 and s.card == "desert" and s.removed == ["grass"]


def seat_0_starts_a_turn_on(card: str, **laid):
    """Seat 1 ends its turn; seat 0's turn starts on ``card`` (grass cards to draw next)."""
    s = position(seat=1, **laid)
    s.placed, s.hands, s.draw_pile = 3, [[card], []], ["grass"] * 4
    return play(s, {"type": "end_turn"})


def tile_uses(s, tile: str) -> list:
    return [c for c in RULESET.legal_commands(s, 0) if c.get("tile") == tile]


def test_no_oracle_or_barn_on_a_replacement_card_when_the_terrain_is_gone_as_the_turn_starts():
    held = {0: [("oracle", (0, 0)), ("barn", (0, 1))]}
    s, events = seat_0_starts_a_turn_on("canyon", settlements={0: [(5, 5)]}, held=held)
    # Nothing else to do first: the card is replaced at once, for the mandatory action only.
    assert types(events)[-3:] == [
        "terrain_card_revealed",
        "terrain_card_removed",
        "terrain_card_revealed",
    ]
    assert events[-3].public["no_empty_hex"] is True
    line = RULESET.describe_event(events[-3].type, events[-3].public, {0: "Ann", 1: "Bob"})
    assert line == "Ann plays canyon: no empty hex of it is left, so no Oracle or Barn."
    assert "no_empty_hex" not in events[-1].public
    assert s.card == "grass" and s.card_gone_at_start
    assert RULESET.load(RULESET.dump(s)).card_gone_at_start  # kept in snapshots too
    assert not tile_uses(s, "oracle") and not tile_uses(s, "barn")
    assert refused(s, use("oracle", (5, 6))) == "terrain_gone_at_start"
    assert refused(s, use("barn", (5, 7), (5, 5))) == "terrain_gone_at_start"
    for hex_ in [(5, 6), (5, 7), (5, 8)]:
        s, events = play(s, build(*hex_))
    assert s.active == 1  # no Oracle or Barn after the mandatory action either


def test_the_replacement_card_is_drawn_only_when_the_mandatory_action_starts():
    held = {0: [("oracle", (0, 0)), ("farm", (0, 1))]}
    s, events = seat_0_starts_a_turn_on("canyon", settlements={0: [(5, 5)]}, held=held)
    assert s.card == "canyon" and types(events)[-1] == "terrain_card_revealed"
    offered = RULESET.legal_commands(s, 0)
    assert {"type": "draw_terrain_card"} in offered
    assert not [c for c in offered if c["type"] == "build" or c.get("tile") == "oracle"]
    farm_first, events = play(s, use("farm", (5, 6)))
    # Nothing else is open before the mandatory action: its new card comes by itself.
    assert types(events)[-2:] == ["terrain_card_removed", "terrain_card_revealed"]
    assert farm_first.card == "grass" and not tile_uses(farm_first, "oracle")
    s, events = play(s, {"type": "draw_terrain_card"})  # or the mandatory action first
    assert types(events) == ["terrain_card_removed", "terrain_card_revealed"]
    assert s.card == "grass" and s.removed == ["canyon"] and not tile_uses(s, "oracle")
    assert tile_uses(s, "farm")
    assert refused(s, {"type": "draw_terrain_card"}) == "terrain_not_exhausted"


def test_a_tile_freeing_a_hex_of_the_cards_terrain_first_keeps_the_card_but_not_the_oracle():
    # Decision: the card is replaced only when the mandatory action starts, so a Paddock
    # used first that frees a hex of its terrain keeps the card; Oracle stays barred.
    s, _ = seat_0_starts_a_turn_on(
        "canyon",
        letters={(5, 5): "C"},
        settlements={0: [(5, 5)]},
        held={0: [("oracle", (0, 0)), ("paddock", (0, 1))]},
    )
    assert s.card == "canyon" and {"type": "draw_terrain_card"} in RULESET.legal_commands(s, 0)
    s, _ = play(s, use("paddock", (5, 7), (5, 5)))
    assert builds(s) == {(5, 5)} and not tile_uses(s, "oracle")
    assert {"type": "draw_terrain_card"} not in RULESET.legal_commands(s, 0)
    s, events = play(s, build(5, 5))  # the last canyon hex: now the card is replaced
    assert types(events)[-2:] == ["terrain_card_removed", "terrain_card_revealed"]
    assert s.card == "grass" and s.placed == 1


def test_designer_rule_lets_the_remaining_settlements_go_on_any_terrain():
    s = position({}, {(2, 2): "G"}, fill="C", card="grass", designer_no_terrain=True)
    s, events = play(s, build(2, 2))
    assert types(events) == ["settlement_built"] and s.card == "grass"
    assert builds(s) == {(2, 1), (2, 3), (1, 1), (1, 2), (3, 1), (3, 2)}


# ---- taking tiles ------------------------------------------------------------------------
def test_a_settlement_takes_one_tile_from_each_newly_touched_location():
    s = position({}, locations={(5, 6): "farm", (6, 6): "tower"})
    s, events = play(s, build(5, 5))
    assert types(events) == ["settlement_built", "tile_taken", "tile_taken"]
    assert sorted(t["tile"] for t in s.held[0]) == ["farm", "tower"]
    assert s.tiles_left == {h(5, 6): 1, h(6, 6): 1}


def test_no_second_tile_from_the_same_location():
    s = position({}, locations={(5, 6): "farm"})
    s, _ = play(s, build(5, 5))
    s, events = play(s, build(4, 6))  # also next to the same farm hex
    assert types(events) == ["settlement_built"]
    assert len(s.held[0]) == 1 and s.tiles_left[h(5, 6)] == 1


def test_a_location_without_tiles_left_gives_nothing():
    s = position({}, locations={(5, 6): "farm"})
    s.tiles_left[h(5, 6)] = 0
    s, events = play(s, build(5, 5))
    assert types(events) == ["settlement_built"] and s.held[0] == []


def test_two_tiles_of_one_kind_come_only_from_two_different_hexes():
    grass = {(5, 5): "G", (15, 5): "G", (9, 9): "G"}
    s = position({}, grass, locations={(5, 6): "farm", (15, 6): "farm"}, fill="C")
    s, _ = play(s, build(5, 5))
    s, events = play(s, build(15, 5))
    assert types(events)[:2] == ["settlement_built", "tile_taken"]
    assert sorted(t["location"] for t in s.held[0]) == [h(5, 6), h(15, 6)]


def test_a_moved_settlement_takes_the_tile_of_a_location_it_comes_next_to():
    # Barn moves (5, 5) onto the only grass hex, next to a tower location.
    s = position(
        {0: [(5, 5)]},
        {(12, 12): "G"},
        locations={(12, 13): "tower"},
        held={0: [("barn", (0, 0))]},
        fill="C",
    )
    s, events = play(s, use("barn", (12, 12), (5, 5)))
    assert types(events)[:2] == ["settlement_moved", "tile_taken"]
    assert events[1].public == {"seat": 0, "tile": "tower", "location": [12, 13]}
    assert s.tiles_left[h(12, 13)] == 1 and h(12, 13) in s.taken_from[0]
    tower = next(t for t in s.held[0] if t["tile"] == "tower")
    assert tower["fresh"]  # taken this turn: usable from the next one


def test_a_paddock_jump_next_to_a_location_takes_its_tile():
    s = position({0: [(5, 3)]}, locations={(4, 6): "farm"}, held={0: [("paddock", (0, 0))]})
    s, events = play(s, use("paddock", (5, 5), (5, 3)))  # adjacency is not required
    assert types(events) == ["settlement_moved", "tile_taken"]
    assert sorted(t["tile"] for t in s.held[0]) == ["farm", "paddock"]


def test_a_tile_taken_this_turn_is_usable_from_the_next_turn_only():
    s = position({0: [(5, 5)]}, locations={(5, 7): "farm"})
    s, _ = play(s, build(5, 6))
    s, _ = play(s, build(5, 4))
    s, _ = play(s, build(5, 3))
    assert s.active == 1  # the fresh farm tile did not keep the turn open
    s.active, s.placed = 0, 0
    s.held[0][0]["fresh"] = True
    assert refused(s, use("farm", (4, 5))) == "tile_taken_this_turn"
    s.held[0][0]["fresh"] = False
    s, events = play(s, use("farm", (4, 5)))
    assert events[0].public["tile"] == "farm"


# ---- using tiles -------------------------------------------------------------------------
def test_a_tile_may_be_used_before_the_mandatory_action():
    s = position({0: [(5, 5)]}, held={0: [("farm", (0, 0))]})
    s, events = play(s, use("farm", (5, 6)))
    assert s.placed == 0 and s.held[0][0]["used"]
    assert builds(s)


def test_a_tile_may_be_used_after_the_mandatory_action():
    s = position({0: [(5, 5)]}, held={0: [("farm", (0, 0))]})
    for hex_ in [(5, 6), (5, 7), (5, 8)]:
        s, _ = play(s, build(*hex_))
    assert s.active == 0 and s.mandatory_done()
    assert {"type": "end_turn"} in RULESET.legal_commands(s, 0)
    s, events = play(s, use("farm", (5, 9)))
    assert "turn_ended" in types(events)  # nothing left to do: the turn ends by itself


def test_no_tile_in_the_middle_of_the_mandatory_action():
    s = position({0: [(5, 5)]}, held={0: [("farm", (0, 0))]})
    s, _ = play(s, build(5, 6))
    assert refused(s, use("farm", (5, 7))) == "mandatory_action_in_progress"
    assert all(c["type"] == "build" for c in RULESET.legal_commands(s, 0))


def test_each_tile_only_once_per_turn():
    s = position({0: [(5, 5)]}, held={0: [("farm", (0, 0)), ("tower", (0, 1))]})
    s, _ = play(s, use("farm", (5, 6)))
    assert refused(s, use("farm", (5, 7))) == "tile_already_used"


def test_two_tiles_of_one_kind_may_both_be_used_in_a_turn():
    s = position({0: [(5, 5)]}, held={0: [("farm", (0, 0)), ("farm", (0, 1))]})
    s, _ = play(s, use("farm", (5, 6)))
    s, _ = play(s, use("farm", (5, 7)))
    assert [t["used"] for t in s.held[0]] == [True, True]


def test_end_turn_is_refused_before_the_mandatory_action():
    s = position({0: [(5, 5)]}, held={0: [("farm", (0, 0))]})
    assert refused(s, {"type": "end_turn"}) == "mandatory_action_not_done"


# ---- losing tiles ------------------------------------------------------------------------
def test_paddock_jumping_away_loses_the_tile_at_once():
    s = position({0: [(5, 5)]}, locations={(5, 6): "paddock"}, held={0: [("paddock", (5, 6))]})
    s, events = play(s, use("paddock", (5, 3), (5, 5)))
    assert types(events) == ["settlement_moved", "tile_lost"]
    assert s.held[0] == [] and s.tiles_left[h(5, 6)] == 1  # lost tiles leave the game


def test_moving_back_never_restores_a_lost_tile():
    s = position({0: [(5, 5)]}, locations={(5, 6): "paddock"}, held={0: [("paddock", (5, 6))]})
    s, _ = play(s, use("paddock", (5, 3), (5, 5)))
    s, events = play(s, build(5, 4))
    s, events = play(s, build(5, 5))  # next to the paddock hex again
    assert "tile_taken" not in types(events) and s.held[0] == []


def test_a_tile_stays_while_another_settlement_still_touches_the_location():
    s = position(
        {0: [(5, 5), (4, 6)]}, locations={(5, 6): "paddock"}, held={0: [("paddock", (5, 6))]}
    )
    s, events = play(s, use("paddock", (5, 3), (5, 5)))
    assert types(events) == ["settlement_moved"] and len(s.held[0]) == 1


def test_losing_one_of_two_alike_tiles_lets_the_player_choose_which():
    s = position(
        {0: [(5, 5), (15, 5), (10, 9)]},
        {(15, 4): "G"},
        locations={(5, 6): "farm", (15, 6): "farm", (10, 10): "paddock"},
        held={0: [("farm", (5, 6)), ("farm", (15, 6)), ("paddock", (10, 10))]},
        fill="C",
        card="canyon",
    )
    s, _ = play(s, use("farm", (15, 4)))  # one farm tile is now used this turn
    s, events = play(s, use("paddock", (5, 3), (5, 5)))  # leaves the first farm hex
    assert types(events) == ["settlement_moved", "tile_loss_pending"]
    assert s.phase == DISCARD_TILE and RULESET.to_act(s) == {0}
    assert RULESET.legal_commands(s, 0) == [
        {"type": "discard_tile", "location": [5, 6]},
        {"type": "discard_tile", "location": [15, 6]},
    ]
    assert refused(s, build(4, 4)) == "discard_tile_first"
    # Give up the used one: the unused one stays, answering for the hex still touched.
    kept, events = play(s, {"type": "discard_tile", "location": [5, 6]})
    assert types(events)[0] == "tile_lost" and kept.phase == TURN
    assert kept.held[0][0]["tile"] == "farm" and kept.held[0][0]["location"] == h(15, 6)
    assert not kept.held[0][0]["used"]
    # Or give up the unused one: the used state stays with the remaining tile.
    other, _ = play(s, {"type": "discard_tile", "location": [15, 6]})
    farms = [t for t in other.held[0] if t["tile"] == "farm"]
    assert farms == [{"tile": "farm", "location": h(15, 6), "fresh": False, "used": True}]


def test_two_alike_tiles_in_the_same_state_are_lost_without_a_choice():
    s = position(
        {0: [(5, 5), (15, 5)]},
        locations={(5, 6): "paddock", (15, 6): "paddock"},
        held={0: [("paddock", (5, 6)), ("paddock", (15, 6))]},
    )
    s.held[0][1]["used"] = True  # both used once the first jump is made
    s, events = play(s, use("paddock", (5, 3), (5, 5)))
    assert types(events) == ["settlement_moved", "tile_lost"]


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
