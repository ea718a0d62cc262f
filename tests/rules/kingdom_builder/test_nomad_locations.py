"""The Nomads location tiles: Quarry and its stone walls, Caravan, Village, Garden."""

from __future__ import annotations

import random

import pytest

from games.rules.base import IllegalCommand
from games.rules.kingdom_builder.board import coords
from games.rules.kingdom_builder.nomad_locations import caravan, garden, quarry, village
from games.rules.kingdom_builder.placement import WALL
from tests.rules.kingdom_builder.helpers import (
    RULESET,
    build,
    commands_of,
    h,
    hexes_in,
    play,
    position,
    types,
    use,
    walls,
)

NOMADS = {"nomads": True}


def hexes(indices) -> set[tuple[int, int]]:
    return {tuple(coords(i)) for i in indices}


def refused(s, command) -> str:
    with pytest.raises(IllegalCommand) as error:
        RULESET.decide(s, s.active, command, random.Random(0))
    return error.value.code


# ---- Quarry ----------------------------------------------------------------------------------
def test_quarry_walls_go_on_the_cards_terrain_next_to_your_settlements():
    letters = {(5, 6): "G", (4, 5): "G", (6, 5): "D", (12, 12): "G"}
    s = position({0: [(5, 5)]}, letters, fill="C", card="grass", **NOMADS)
    assert hexes(quarry(s, 0)) == {(5, 6), (4, 5)}  # never far away, never another terrain
    s.card = "desert"
    assert hexes(quarry(s, 0)) == {(6, 5)}


def test_quarry_places_one_or_two_walls_that_block_the_hex_for_good():
    s = position({0: [(5, 5)]}, held={0: [("quarry", (0, 0))]}, **NOMADS)
    s, events = play(s, use("quarry", (5, 6)))
    assert types(events) == ["wall_placed"] and s.action["kind"] == "quarry"
    assert s.owner[h(5, 6)] == WALL and s.walls_left == 24
    assert {"type": "finish_action"} in RULESET.legal_commands(s, 0)
    s, events = play(s, {"type": "place_wall", "hex": [4, 5]})
    assert types(events) == ["wall_placed", "action_finished"] and s.walls_left == 23
    builds = hexes_in(commands_of(s, "build"), "hex")
    assert (5, 6) not in builds and (4, 5) not in builds and (5, 4) in builds
    assert RULESET.view(s, None)["board"]["walls"] == [[4, 5], [5, 6]]


def test_quarry_may_stop_after_one_wall():
    s = position({0: [(5, 5)]}, held={0: [("quarry", (0, 0))]}, **NOMADS)
    s, _ = play(s, use("quarry", (5, 6)))
    assert refused(s, build(5, 4)) == "action_in_progress"
    s, events = play(s, {"type": "finish_action"})
    assert types(events) == ["action_finished"] and s.action is None and s.walls == {h(5, 6)}


def test_stone_walls_run_out_after_twenty_five():
    s = position({0: [(5, 5)]}, held={0: [("quarry", (0, 0))]}, **NOMADS)
    walls(s, *[(15, c) for c in range(20)], *[(17, c) for c in range(4)])
    assert s.walls_left == 1
    s, events = play(s, use("quarry", (5, 6)))
    assert types(events) == ["wall_placed", "action_finished"]  # no second wall to place
    assert s.walls_left == 0 and quarry(s, 0) == []
    s.held[0][0]["used"] = False
    assert not [c for c in RULESET.legal_commands(s, 0) if c.get("tile") == "quarry"]
    assert refused(s, use("quarry", (5, 4))) == "no_walls_left"


def test_walls_belong_to_nobody_and_never_move():
    s = position({0: [(5, 5)]}, held={0: [("paddock", (0, 0))]}, **NOMADS)
    walls(s, (5, 7))
    assert s.owner[h(5, 7)] == WALL and h(5, 7) not in s.settlements[0]
    moves = commands_of(s, "use_tile")
    assert all(c["from"] != [5, 7] for c in moves)


# ---- Caravan ---------------------------------------------------------------------------------
def test_caravan_slides_in_a_straight_line_until_an_obstacle_stops_it():
    s = position({0: [(5, 5)], 1: [(1, 3)]}, {(5, 9): "W", (9, 7): "M"}, **NOMADS)
    walls(s, (5, 2))
    ends = hexes(caravan(s, 0)[h(5, 5)])
    # east: water at (5, 9); west: the wall at (5, 2); north-west: the other player's
    # settlement at (1, 3); north-east and south-west: the board's edge; south-east: the
    # mountain at (9, 7).
    assert ends == {(5, 8), (5, 3), (2, 4), (0, 8), (16, 0), (8, 7)}


def test_caravan_stops_at_castles_locations_and_nomad_spaces():
    s = position(
        {0: [(5, 5)]},
        {(5, 8): "S", (5, 2): "N"},
        locations={(7, 6): "farm"},
        nomad_spaces={(2, 4): "sword"},
        **NOMADS,
    )
    ends = hexes(caravan(s, 0)[h(5, 5)])
    assert {(5, 7), (5, 3), (6, 6), (3, 4)} <= ends


def test_caravan_must_move_at_least_one_hex_and_needs_no_adjacency():
    s = position({0: [(5, 5), (12, 12)]}, {(5, 6): "W", (5, 4): "W"}, **NOMADS)
    ends = hexes(caravan(s, 0)[h(5, 5)])
    assert not {(5, 5), (5, 6), (5, 4)} & ends and len(ends) == 4
    s.held[0].append({"tile": "caravan", "location": h(0, 0), "fresh": False, "used": False})
    s, events = play(s, use("caravan", (0, 8), (5, 5)))  # far from everything of ours
    assert types(events) == ["settlement_moved"] and events[0].public["tile"] == "caravan"


# ---- Village and Garden ----------------------------------------------------------------------
def test_village_builds_next_to_at_least_three_of_your_settlements():
    s = position({0: [(5, 4), (4, 5), (4, 6), (10, 10)]}, {(6, 5): "W"}, **NOMADS)
    assert hexes(village(s, 0)) == {(5, 5)}
    s = position({0: [(5, 4), (4, 5), (6, 5)]}, **NOMADS)
    s.owner[h(5, 5)] = 1
    assert village(s, 0) == []


def test_garden_builds_on_flower_field_next_to_yours_if_possible():
    s = position({0: [(5, 5)]}, {(5, 6): "F", (12, 12): "F"}, fill="C", **NOMADS)
    assert hexes(garden(s, 0)) == {(5, 6)}
    s = position({0: [(1, 1)]}, {(5, 6): "F", (12, 12): "F"}, fill="C", **NOMADS)
    assert hexes(garden(s, 0)) == {(5, 6), (12, 12)}
