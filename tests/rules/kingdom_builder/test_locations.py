"""The eight location tiles: their targets and their exceptions."""

from __future__ import annotations

import pytest

from games.rules.base import IllegalCommand
from games.rules.kingdom_builder.board import coords
from games.rules.kingdom_builder.locations import (
    barn,
    farm,
    harbor,
    oasis,
    oracle,
    paddock,
    tavern,
    tower,
)
from tests.rules.kingdom_builder.helpers import RULESET, h, play, position, use


def hexes(indices) -> set[tuple[int, int]]:
    return {tuple(coords(i)) for i in indices}


def moves(result: dict[int, list[int]]) -> dict[tuple[int, int], set[tuple[int, int]]]:
    return {tuple(coords(k)): hexes(v) for k, v in result.items()}


def test_oracle_builds_on_the_terrain_of_the_card_played_adjacent_if_possible():
    letters = {(5, 6): "C", (12, 12): "C"}
    s = position({0: [(5, 5)]}, letters, fill="F", card="canyon")
    assert hexes(oracle(s, 0)) == {(5, 6)}
    s = position({0: [(1, 1)]}, letters, fill="F", card="canyon")
    assert hexes(oracle(s, 0)) == {(5, 6), (12, 12)}


def test_farm_builds_on_grass():
    s = position({0: [(8, 7)]}, {(3, 3): "G", (8, 8): "G"}, fill="C", card="canyon")
    assert hexes(farm(s, 0)) == {(8, 8)}


def test_oasis_builds_on_desert():
    s = position({0: [(0, 0)]}, {(3, 3): "D", (8, 8): "D"}, card="grass")
    assert hexes(oasis(s, 0)) == {(3, 3), (8, 8)}


def test_tower_builds_on_an_edge_hex_of_the_board_next_to_yours_if_possible():
    s = position({0: [(1, 5)]}, {(0, 5): "W"})
    assert hexes(tower(s, 0)) == {(0, 6)}  # (0, 5) is water, not one of the 5 terrains
    s = position({0: [(10, 10)]}, {(0, 5): "W"})
    assert len(tower(s, 0)) == 75  # no edge hex touches: any empty edge hex of the 5 terrains


def test_tavern_builds_at_either_end_of_a_line_of_three():
    s = position({0: [(5, 2), (5, 3), (5, 4)]})
    assert hexes(tavern(s, 0)) == {(5, 1), (5, 5)}


def test_tavern_line_of_four_offers_only_its_two_ends():
    s = position({0: [(5, 2), (5, 3), (5, 4), (5, 5)]})
    assert hexes(tavern(s, 0)) == {(5, 1), (5, 6)}


def test_tavern_works_along_a_diagonal_axis_and_on_any_terrain():
    s = position({0: [(4, 5), (5, 5), (6, 6)]}, {(3, 4): "D", (7, 6): "W"})
    assert hexes(tavern(s, 0)) == {(3, 4)}  # the water end is not buildable


def test_tavern_needs_three_in_a_line():
    s = position({0: [(5, 2), (5, 3), (6, 3)]})
    assert tavern(s, 0) == []


def test_barn_eligible_hexes_are_judged_after_picking_the_settlement_up():
    s = position({0: [(5, 5), (12, 12)]}, {(5, 6): "G", (15, 15): "G"}, fill="C", card="grass")
    assert moves(barn(s, 0)) == {
        (5, 5): {(5, 6), (15, 15)},  # once lifted, no settlement of yours touches grass
        (12, 12): {(5, 6)},  # (5, 5) still touches the empty grass hex (5, 6)
    }


def test_barn_with_no_settlement_next_to_an_empty_hex_of_the_terrain_moves_anywhere_on_it():
    s = position({0: [(2, 2), (3, 8)]}, {(10, 10): "G", (15, 15): "G"}, fill="C", card="grass")
    assert moves(barn(s, 0)) == {(2, 2): {(10, 10), (15, 15)}, (3, 8): {(10, 10), (15, 15)}}


def test_barn_settlement_whose_only_eligible_hex_is_its_own_must_be_put_back():
    s = position({0: [(5, 5), (9, 9)]}, {(5, 5): "G"}, fill="C", card="grass")
    assert barn(s, 0) == {}  # no move: the lifted settlement could only go back
    s.held[0].append({"tile": "barn", "location": h(0, 0), "fresh": False, "used": False})
    assert not [c for c in RULESET.legal_commands(s, 0) if c.get("tile") == "barn"]
    with pytest.raises(IllegalCommand) as refused:
        RULESET.decide(s, 0, use("barn", (5, 5), (5, 5)), None)
    assert refused.value.code == "illegal_target"


def test_harbor_moves_a_settlement_onto_water_next_to_yours_if_possible():
    s = position({0: [(5, 5)]}, {(5, 6): "W", (15, 15): "W"})
    assert moves(harbor(s, 0)) == {(5, 5): {(5, 6), (15, 15)}}
    s = position({0: [(5, 5), (5, 7)]}, {(5, 6): "W", (15, 15): "W"})
    assert moves(harbor(s, 0)) == {(5, 5): {(5, 6)}, (5, 7): {(5, 6)}}


def test_paddock_moves_exactly_two_hexes_in_a_straight_line_jumping_anything():
    s = position({0: [(5, 5), (3, 6)], 1: [(5, 4)]}, {(5, 7): "W", (7, 6): "M", (4, 5): "M"})
    assert moves(paddock(s, 0))[(5, 5)] == {(5, 3), (3, 4), (7, 4)}


def test_paddock_needs_no_adjacency_and_only_the_five_terrains():
    s = position({0: [(5, 5), (12, 12)]}, {(5, 3): "S", (3, 4): "L", (7, 4): "N"})
    assert moves(paddock(s, 0))[(5, 5)] == {(5, 7), (3, 6), (7, 6)}


def test_a_tile_with_no_eligible_hex_simply_cannot_be_used():
    s = position({0: [(5, 5)]}, held={0: [("oasis", (0, 0))]}, card="grass")
    assert oasis(s, 0) == []
    assert not [c for c in RULESET.legal_commands(s, 0) if c["type"] == "use_tile"]
    with pytest.raises(IllegalCommand) as refused:
        RULESET.decide(s, 0, use("oasis", (5, 6)), None)
    assert refused.value.code == "illegal_target"


def test_each_tile_is_offered_with_every_target_in_legal_commands():
    s = position({0: [(5, 5)]}, {(5, 6): "W", (15, 15): "W"}, held={0: [("harbor", (0, 0))]})
    offered = [c for c in RULESET.legal_commands(s, 0) if c["type"] == "use_tile"]
    assert sorted(tuple(c["to"]) for c in offered) == [(5, 6), (15, 15)]
    s, events = play(s, offered[0])
    assert events[0].type == "settlement_moved"
    assert events[0].public["tile"] == "harbor"
