"""The turn's location tiles: taking them, using them, losing them."""

from __future__ import annotations

from games.rules.kingdom_builder.state import DISCARD_TILE, TURN
from tests.rules.kingdom_builder.helpers import (
    RULESET,
    build,
    builds,
    h,
    play,
    position,
    refused,
    types,
    use,
)


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
