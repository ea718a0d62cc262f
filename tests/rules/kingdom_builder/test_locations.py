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
from games.rules.kingdom_builder.placement import free_hexes
from tests.rules.kingdom_builder.helpers import (
    RULESET,
    h,
    play,
    position,
    real_position,
    settled,
    use,
)


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
    # FAQ: the hex it left is an eligible hex again once it is lifted (this used to assert
    # that Barn could not be used at all; the FAQ says it is used and puts it right back).
    s = position({0: [(5, 5), (9, 9)]}, {(5, 5): "G"}, fill="C", card="grass")
    assert moves(barn(s, 0)) == {(5, 5): {(5, 5)}}
    s.held[0].append({"tile": "barn", "location": h(0, 0), "fresh": False, "used": False})
    offered = [c for c in RULESET.legal_commands(s, 0) if c.get("tile") == "barn"]
    assert offered == [use("barn", (5, 5), (5, 5))]
    s, _ = play(s, offered[0])
    assert settled(s, 0) == {(5, 5), (9, 9)}
    with pytest.raises(IllegalCommand) as refused:
        RULESET.decide(s, 0, use("barn", (5, 5), (5, 5)), None)
    assert refused.value.code == "tile_already_used"


def test_barn_puts_a_settlement_back_where_it_came_from_when_that_is_the_only_hex_next_to_yours():
    # The FAQ's case on the real first-game board: 3 settlements together on the 3 canyon
    # hexes (16, 2)-(18, 2); 52 other canyon hexes lie empty elsewhere.
    row = [(16, 2), (17, 2), (18, 2)]
    s = real_position({0: row}, held={0: [("barn", (0, 0))]}, card="canyon")
    assert len(free_hexes(s, "canyon")) == 52
    assert moves(barn(s, 0)) == {hex_: {hex_} for hex_ in row}
    offered = [c for c in RULESET.legal_commands(s, 0) if c.get("tile") == "barn"]
    assert offered == [use("barn", hex_, hex_) for hex_ in row]
    s, events = play(s, use("barn", (17, 2), (17, 2)))
    assert events[0].type == "settlement_moved"
    assert settled(s, 0) == set(row)
    assert [t["used"] for t in s.held[0]] == [True]
    with pytest.raises(IllegalCommand) as refused:
        RULESET.decide(
            real_position({0: row}, held={0: [("barn", (0, 0))]}, card="canyon"),
            0,
            use("barn", (5, 1), (17, 2)),
            None,
        )
    assert refused.value.code == "illegal_target"


def test_harbor_puts_a_settlement_back_on_its_water_hex_when_that_is_the_only_hex_next_to_yours():
    # Real board: (13, 14) is a lone water hex; (13, 15) touches no other water hex.
    s = real_position({0: [(13, 14), (13, 15)]}, card="canyon")
    found = moves(harbor(s, 0))
    assert found[(13, 14)] == {(13, 14)}
    assert len(found[(13, 15)]) == 79  # lifted, nothing of yours touches water: any of it


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
