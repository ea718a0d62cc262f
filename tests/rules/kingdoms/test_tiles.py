"""The tile set and the castle sets."""

from __future__ import annotations

from collections import Counter

from games.rules.kingdoms.castles import (
    castles_come_off,
    parse_castle,
    starting_castles,
)
from games.rules.kingdoms.tiles import KIND_CODE, kind_of, tile_set


def test_full_set_has_23_tiles_with_the_wizard():
    tiles = tile_set(True)
    assert len(tiles) == len(set(tiles)) == 23
    kinds = Counter(KIND_CODE[t] for t in tiles)
    assert all(kinds[f"+{v}"] == 2 for v in range(1, 7))
    assert all(kinds[f"-{v}"] == 1 for v in range(1, 7))
    assert kinds["mountain"] == 2
    assert kinds["dragon"] == kinds["gold_mine"] == kinds["wizard"] == 1


def test_2002_edition_has_22_tiles_without_the_wizard():
    tiles = tile_set(False)
    assert len(tiles) == 22 and "wizard" not in tiles


def test_tile_ids_name_their_kind_and_value():
    assert kind_of("+6b") == ("resource", 6)
    assert kind_of("-4") == ("hazard", -4)
    assert kind_of("mountain_a") == ("mountain", None)
    assert kind_of("gold_mine") == ("gold_mine", None)


def test_rank_one_castles_depend_on_the_player_count():
    assert starting_castles(2, False) == [4, 3, 2, 1]
    assert starting_castles(3, False) == [3, 3, 2, 1]
    assert starting_castles(4, False) == [2, 3, 2, 1]


def test_last_castle_gives_every_player_all_ten_castles():
    assert all(starting_castles(n, True) == [4, 3, 2, 1] for n in (2, 3, 4))


def test_castle_codes_parse_and_refuse_junk():
    assert parse_castle("castle:1:3") == (1, 3)
    assert parse_castle("castle:x:3") is None
    assert parse_castle("+3a") is None


def test_rank_one_castles_return_and_placed_higher_ranks_leave():
    hands = [[1, 2, 0, 1], [0, 0, 0, 0]]
    grid = ["castle:0:1", "castle:0:3", "castle:1:1", "castle:1:1", "castle:1:4", None, "+3a"]
    after, returned, removed = castles_come_off(hands, grid, last_castle=False)
    assert after == [[2, 2, 0, 1], [2, 0, 0, 0]]
    assert returned == [1, 2]
    assert removed == [[3], [4]]


def test_last_castle_every_placed_castle_leaves():
    after, returned, removed = castles_come_off([[3, 3, 2, 1]], ["castle:0:1"], last_castle=True)
    assert after == [[3, 3, 2, 1]] and returned == [0] and removed == [[1]]
