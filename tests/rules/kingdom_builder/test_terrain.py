"""Terrain kinds and the 25 terrain cards."""

from __future__ import annotations

from collections import Counter

from games.rules.kingdom_builder.board import board_from_grid
from games.rules.kingdom_builder.terrain import (
    BUILDABLE_TERRAINS,
    LETTER_TERRAIN,
    terrain_deck,
)
from tests.rules.kingdom_builder.helpers import grid, h, new_game


def test_twenty_five_terrain_cards_five_of_each_buildable_terrain():
    deck = terrain_deck()
    assert len(deck) == 25
    assert Counter(deck) == {t: 5 for t in BUILDABLE_TERRAINS}


def test_only_the_five_card_terrains_are_buildable():
    board = board_from_grid(grid({(0, 0): "W", (0, 1): "M", (0, 2): "S", (0, 3): "L", (0, 4): "N"}))
    assert [board.buildable[h(0, c)] for c in range(6)] == [False] * 5 + [True]
    assert {LETTER_TERRAIN[ch] for ch in "GCDFT"} == set(BUILDABLE_TERRAINS)


def test_each_player_holds_one_secret_card_and_the_rest_is_the_draw_pile():
    s = new_game(players=4)
    in_hand = sum(len(hand) for hand in s.hands)
    played = 1 if s.card else 0
    assert in_hand + played + len(s.draw_pile) == 25
    assert s.hands[s.active] == []  # the start player's card was revealed
    assert all(len(s.hands[p]) == 1 for p in range(4) if p != s.active)
