"""Nomads: the nomad tiles (taking, timing, each tile's power) and the Sword rulings."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from games.rules.base import IllegalCommand
from games.rules.kingdom_builder.board import NEIGHBOURS, coords
from games.rules.kingdom_builder.nomads import DONATIONS, NOMAD_TILES
from tests.rules.kingdom_builder.helpers import (
    RULESET,
    build,
    commands_of,
    finish_turn,
    h,
    hexes_in,
    new_game,
    play,
    position,
    settled,
    types,
    use,
)

NOMADS = {"nomads": True}


def refused(s, command) -> str:
    with pytest.raises(IllegalCommand) as error:
        RULESET.decide(s, s.active, command, random.Random(0))
    return error.value.code


def use_nomad(tile: str) -> dict:
    return {"type": "use_nomad_tile", "tile": tile}


def builds(s) -> set[tuple[int, int]]:
    return hexes_in(commands_of(s, "build"), "hex")


# ---- setup and taking ------------------------------------------------------------------------
def test_the_fifteen_nomad_tiles():
    counts = Counter(NOMAD_TILES)
    assert len(NOMAD_TILES) == 15 and all(counts[d] == 1 for d in DONATIONS)
    assert {k: counts[k] for k in ("resettlement", "nomad_outpost", "sword", "treasure")} == {
        "resettlement": 2,
        "nomad_outpost": 2,
        "sword": 2,
        "treasure": 2,
    }
    assert {d.removeprefix("donation_") for d in DONATIONS} == {
        "grass",
        "canyon",
        "desert",
        "flower_field",
        "forest",
        "water",
        "mountain",
    }


def test_each_nomad_space_gets_one_random_face_up_nomad_tile():
    seen = set()
    for seed in range(8):
        s = new_game(
            seed=seed,
            board="chosen",
            sections=["quarry", "caravan", "village", "garden"],
            **NOMADS,
        )
        assert set(s.nomad_tiles) == set(s.board.nomad_spaces) and len(s.nomad_tiles) == 6
        assert all(tile in NOMAD_TILES for tile in s.nomad_tiles.values())
        seen |= set(s.nomad_tiles.values())
        view = RULESET.view(s, None)["board"]["nomad_spaces"]
        assert [tuple(space["hex"]) for space in view] == [
            tuple(coords(i)) for i in sorted(s.board.nomad_spaces)
        ]
    assert len(seen) > 3


def test_the_first_player_next_to_a_nomad_space_takes_its_tile():
    s = position({0: [(5, 5)]}, nomad_spaces={(5, 7): "sword"}, **NOMADS)
    s, events = play(s, build(5, 6))
    assert types(events) == ["settlement_built", "nomad_tile_taken"]
    assert s.nomad_held[0] == [{"tile": "sword", "space": h(5, 7), "fresh": True}]
    assert s.nomad_tiles[h(5, 7)] is None
    s, events = play(s, build(4, 6))  # next to the same space again: nothing left there
    assert types(events) == ["settlement_built"]


def test_nomad_spaces_are_not_buildable():
    s = position({0: [(5, 5)]}, nomad_spaces={(5, 6): "sword"}, **NOMADS)
    assert (5, 6) not in builds(s)
    assert refused(s, build(5, 6)) == "not_buildable"


def test_a_nomad_tile_is_for_the_next_turn_only_then_gone_used_or_not():
    s = position({0: [(5, 5)]}, nomad_spaces={(5, 7): "donation_grass"}, **NOMADS)
    s, _ = play(s, build(5, 6))
    assert refused(s, use_nomad("donation_grass")) == "nomad_tile_taken_this_turn"
    assert not commands_of(s, "use_nomad_tile")
    s = finish_turn(finish_turn(s))  # seat 0's turn, then seat 1's
    assert s.active == 0 and use_nomad("donation_grass") in RULESET.legal_commands(s, 0)
    s = finish_turn(s)  # not used
    assert s.nomad_held[0] == []
    assert s.active == 1


def test_an_unused_nomad_tile_expires_at_the_end_of_that_turn():
    s = position({0: [(5, 5)]}, nomad_held={0: [("sword", (9, 9))]}, **NOMADS)
    for hex_ in [(5, 6), (5, 7), (5, 8)]:
        s, events = play(s, build(*hex_))
        if s.active != 0:
            break
    if s.active == 0:  # the sword kept the turn open: end it by hand
        s, events = play(s, {"type": "end_turn"})
    assert "nomad_tile_expired" in types(events) and s.nomad_held[0] == []


def test_moving_away_from_a_nomad_space_keeps_the_nomad_tile():
    s = position(
        {0: [(5, 3)]},
        nomad_spaces={(5, 6): "nomad_outpost"},
        held={0: [("paddock", (0, 0)), ("paddock", (0, 1))]},
        **NOMADS,
    )
    s, events = play(s, use("paddock", (5, 5), (5, 3)))  # a move takes the tile too
    assert types(events) == ["settlement_moved", "nomad_tile_taken"]
    s, events = play(s, use("paddock", (5, 3), (5, 5)))  # and away again
    assert not any(s.owner[n] == 0 for n in NEIGHBOURS[h(5, 6)])
    assert "nomad_tile_expired" not in types(events)
    assert [t["tile"] for t in s.nomad_held[0]] == ["nomad_outpost"]


def test_treasure_pays_three_gold_at_once():
    s = position({0: [(5, 5)]}, nomad_spaces={(5, 7): "treasure"}, **NOMADS)
    s, events = play(s, build(5, 6))
    assert types(events) == [
        "settlement_built",
        "nomad_tile_taken",
        "nomad_tile_used",
        "gold_earned",
    ]
    assert s.gold[0] == 3 and s.earned[0] == {"treasure": 3} and s.nomad_held[0] == []
    assert RULESET.view(s, None)["players"][0]["score"]["treasure"] == 3


# ---- the tiles' powers -----------------------------------------------------------------------
def test_donation_builds_three_settlements_on_its_terrain_adjacent_if_possible():
    water = {(5, 6): "W", (4, 5): "W", (12, 12): "W", (15, 15): "W"}
    s = position({0: [(5, 5)]}, water, nomad_held={0: [("donation_water", (9, 9))]}, **NOMADS)
    s, events = play(s, use_nomad("donation_water"))
    assert types(events) == ["nomad_tile_used"] and s.action["kind"] == "donation"
    assert builds(s) == {(5, 6), (4, 5)}  # water next to ours first
    s, _ = play(s, build(5, 6))
    s, _ = play(s, build(4, 5))
    assert builds(s) == {(12, 12), (15, 15)}  # none touches ours: any water hex
    s, events = play(s, build(12, 12))
    assert types(events)[-1] == "action_finished" and s.action is None
    assert s.placed == 0 and s.supply[0] == 40 - 1 - 3  # not the mandatory action
    assert {(5, 6), (4, 5), (12, 12)} <= settled(s, 0)


def test_donation_ends_when_no_hex_of_its_terrain_is_left():
    s = position({0: [(5, 5)]}, {(5, 6): "M"}, nomad_held={0: [("donation_mountain", (9, 9))]})
    s, _ = play(s, use_nomad("donation_mountain"))
    s, events = play(s, build(5, 6))
    assert types(events)[-1] == "action_finished" and s.owner[h(5, 6)] == 0


def test_no_nomad_tile_in_the_middle_of_the_mandatory_action():
    s = position({0: [(5, 5)]}, nomad_held={0: [("donation_grass", (9, 9))]}, **NOMADS)
    s, _ = play(s, build(5, 6))
    assert refused(s, use_nomad("donation_grass")) == "mandatory_action_in_progress"


def test_a_donation_must_be_carried_out_before_anything_else():
    s = position({0: [(5, 5)]}, nomad_held={0: [("donation_grass", (9, 9))]}, **NOMADS)
    s, _ = play(s, use_nomad("donation_grass"))
    assert refused(s, {"type": "finish_action"}) == "action_not_stoppable"
    assert refused(s, {"type": "end_turn"}) == "action_in_progress"
    assert all(c["type"] == "build" for c in RULESET.legal_commands(s, 0))


def test_resettlement_moves_settlements_up_to_four_single_steps():
    s = position(
        {0: [(5, 5), (10, 10)], 1: [(5, 7)]},
        {(6, 6): "W"},
        nomad_held={0: [("resettlement", (9, 9))]},
        **NOMADS,
    )
    s, _ = play(s, use_nomad("resettlement"))
    steps = commands_of(s, "move_settlement")
    from_55 = {tuple(c["to"]) for c in steps if c["from"] == [5, 5]}
    assert from_55 == {(5, 4), (5, 6), (4, 5), (4, 6), (6, 5)}  # not onto water
    for source, to in [((5, 5), (5, 6)), ((5, 6), (4, 6)), ((10, 10), (10, 11))]:
        s, _ = play(s, {"type": "move_settlement", "from": list(source), "to": list(to)})
    assert s.action["left"] == 1
    s, events = play(s, {"type": "move_settlement", "from": [4, 6], "to": [3, 6]})
    assert types(events)[-1] == "action_finished"
    assert settled(s, 0) == {(3, 6), (10, 11)}


def steps_of(s) -> dict[tuple, set[tuple]]:
    found: dict[tuple, set[tuple]] = {}
    for c in commands_of(s, "move_settlement"):
        found.setdefault(tuple(c["from"]), set()).add(tuple(c["to"]))
    return found


def test_resettlement_steps_go_next_to_another_of_your_settlements_if_possible():
    # (5, 6) is the only step touching another of yours; seat 1's (4, 6) does not count.
    s = position(
        {0: [(5, 5), (5, 7)], 1: [(4, 6)]},
        nomad_held={0: [("resettlement", (9, 9))]},
        **NOMADS,
    )
    s, _ = play(s, use_nomad("resettlement"))
    assert steps_of(s) == {(5, 5): {(5, 6)}, (5, 7): {(5, 6)}}
    assert refused(s, {"type": "move_settlement", "from": [5, 5], "to": [6, 5]}) == (
        "illegal_target"
    )


def test_resettlement_step_with_no_hex_next_to_yours_may_go_to_any_neighbouring_hex():
    s = position(
        {0: [(5, 5), (10, 10)], 1: [(4, 6)]},
        nomad_held={0: [("resettlement", (9, 9))]},
        **NOMADS,
    )
    s, _ = play(s, use_nomad("resettlement"))
    found = steps_of(s)
    assert found[(5, 5)] == {(5, 6), (4, 5), (5, 4), (6, 5), (6, 6)}
    assert len(found[(10, 10)]) == 6
    s, _ = play(s, {"type": "move_settlement", "from": [5, 5], "to": [6, 5]})
    assert settled(s, 0) == {(6, 5), (10, 10)}


def test_resettlement_may_stop_early():
    s = position({0: [(5, 5)]}, nomad_held={0: [("resettlement", (9, 9))]}, **NOMADS)
    s, _ = play(s, use_nomad("resettlement"))
    s, _ = play(s, {"type": "move_settlement", "from": [5, 5], "to": [5, 6]})
    s, events = play(s, {"type": "finish_action"})
    assert types(events) == ["action_finished"] and settled(s, 0) == {(5, 6)}


def test_outpost_lets_one_build_ignore_the_adjacency_rule():
    s = position({0: [(5, 5)]}, nomad_held={0: [("nomad_outpost", (9, 9))]}, **NOMADS)
    assert len(builds(s)) == 6
    s, _ = play(s, build(5, 6))  # Outpost may still be armed between mandatory builds
    assert use_nomad("nomad_outpost") in RULESET.legal_commands(s, 0)
    s, events = play(s, use_nomad("nomad_outpost"))
    assert types(events) == ["nomad_tile_used"] and s.outpost_armed
    assert (15, 15) in builds(s) and len(builds(s)) > 300
    s, _ = play(s, build(15, 15))
    assert not s.outpost_armed and (14, 14) not in builds(s)


# ---- Sword -----------------------------------------------------------------------------------
def test_sword_removes_one_settlement_of_each_opponent_chosen_by_the_sword_player():
    s = position(
        {0: [(5, 5)], 1: [(10, 10), (10, 11)], 2: [(15, 15)]},
        nomad_held={0: [("sword", (9, 9))]},
        players=3,
        **NOMADS,
    )
    s, events = play(s, use_nomad("sword"))
    assert events[0].public["victims"] == [1, 2]
    assert hexes_in(commands_of(s, "remove_settlement"), "hex") == {(10, 10), (10, 11)}
    s, events = play(s, {"type": "remove_settlement", "hex": [10, 11]})
    assert events[0].public == {"seat": 0, "victim": 1, "hex": [10, 11]}
    assert s.supply[1] == 40 - 2 + 1  # back to its owner's supply
    assert hexes_in(commands_of(s, "remove_settlement"), "hex") == {(15, 15)}
    s, events = play(s, {"type": "remove_settlement", "hex": [15, 15]})
    assert types(events)[-1] == "action_finished"
    assert settled(s, 1) == {(10, 10)} and settled(s, 2) == set()


def test_sword_skips_an_opponent_without_settlements():
    s = position(
        {0: [(5, 5)], 2: [(15, 15)]},
        nomad_held={0: [("sword", (9, 9))]},
        players=3,
        **NOMADS,
    )
    s, events = play(s, use_nomad("sword"))
    assert events[0].public["victims"] == [2]


def test_sword_removing_the_last_settlement_next_to_a_location_loses_the_tile():
    s = position(
        {0: [(5, 5)], 1: [(10, 9), (12, 12)]},
        locations={(10, 10): "farm"},
        held={1: [("farm", (10, 10))]},
        nomad_held={0: [("sword", (9, 9))]},
        **NOMADS,
    )
    s, _ = play(s, use_nomad("sword"))
    s, events = play(s, {"type": "remove_settlement", "hex": [10, 9]})
    assert types(events) == ["settlement_removed", "tile_lost", "action_finished"]
    assert events[1].public["seat"] == 1 and s.held[1] == []


def test_sword_cannot_undo_a_triggered_end():
    s = position(
        {0: [(5, 5)], 1: [(10, 10)]},
        nomad_held={0: [("sword", (9, 9))]},
        **NOMADS,
    )
    s.supply[1], s.end_triggered = 0, True
    s.start_player, s.turns = 1, [3, 3]
    s, _ = play(s, use_nomad("sword"))
    s, _ = play(s, {"type": "remove_settlement", "hex": [10, 10]})
    assert s.supply[1] == 1 and s.end_triggered
    s = finish_turn(s)
    assert s.finished  # seat 0 was the last of the round: the game ends as triggered
