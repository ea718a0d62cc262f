"""The 84 cards of Kingdom Cards: number cards, treasures, roles, tiers and bonuses.

A card id is a short string: ``"R7b"`` is the red 7, copy b; ``"T2"`` is the second
Treasure. Bonuses are kept in half-points (people 1, army 2, court 4, treasure 1) so that
nothing in the engine is ever a float.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

COLOURS = ("R", "Y", "B")
COLOUR_NAMES = {"R": "red", "Y": "yellow", "B": "blue"}
COPIES = ("a", "b", "c")
VALUES = tuple(range(1, 10))
TREASURES = ("T1", "T2", "T3")

NUMBER_CARDS = tuple(f"{c}{v}{k}" for c in COLOURS for v in VALUES for k in COPIES)
DECK = NUMBER_CARDS + TREASURES
HAND_SIZE = 9

# A Treasure bid is worth 15; in the kingdom it adds ½ (one half-point).
TREASURE_BID_VALUE = 15
TREASURE_BONUS_HALVES = 1

# Tier 1 = 1-2-3 (a people), tier 2 = 4-5-6 (an army), tier 3 = 7-8-9 (a court).
TIERS = (1, 2, 3)
TIER_ROLE = {1: "people", 2: "army", 3: "court"}
TIER_BONUS_HALVES = {1: 1, 2: 2, 3: 4}
ROLE_OF_VALUE = {
    1: "servant",
    2: "artisan",
    3: "farmer",
    4: "soldier",
    5: "knight",
    6: "commander",
    7: "sage",
    8: "noble",
    9: "king",
}

# Per-card facts, computed once: colour (None for a Treasure), bid value, tier.
COLOUR: dict[str, str | None] = {card: card[0] for card in NUMBER_CARDS}
COLOUR.update({t: None for t in TREASURES})
VALUE: dict[str, int] = {card: int(card[1]) for card in NUMBER_CARDS}
VALUE.update({t: TREASURE_BID_VALUE for t in TREASURES})
TIER_OF: dict[str, int | None] = {card: (int(card[1]) + 2) // 3 for card in NUMBER_CARDS}
TIER_OF.update({t: None for t in TREASURES})
# Hands are shown sorted by value, then colour, then copy; treasures last.
SORT_KEY: dict[str, int] = {
    card: (VALUE[card] * 10 + COLOURS.index(card[0])) * 10 + COPIES.index(card[2])
    for card in NUMBER_CARDS
}
SORT_KEY.update({t: 10_000 + i for i, t in enumerate(TREASURES)})


def is_card(card: object) -> bool:
    """True for a known card id (junk such as ints, lists or "Q9z" is not a card)."""
    return isinstance(card, str) and card in COLOUR


def is_treasure(card: str) -> bool:
    return COLOUR[card] is None


def tier_values(tier: int) -> tuple[int, int, int]:
    """The three values of a tier, ascending: tier 2 -> (4, 5, 6)."""
    return (3 * tier - 2, 3 * tier - 1, 3 * tier)


def bid_halves(card: str) -> int:
    """A card's attack value in half-points (a Treasure is worth 15)."""
    return 2 * VALUE[card]


def sort_cards(cards: Iterable[str]) -> list[str]:
    return sorted(cards, key=SORT_KEY.__getitem__)


def card_name(card: str) -> str:
    """'red 7 (sage)' or 'Treasure'."""
    colour = COLOUR[card]
    if colour is None:
        return "Treasure"
    value = VALUE[card]
    return f"{COLOUR_NAMES[colour]} {value} ({ROLE_OF_VALUE[value]})"


def shuffled_deck(rng: random.Random) -> list[str]:
    deck = list(DECK)
    rng.shuffle(deck)
    return deck
