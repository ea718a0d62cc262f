"""The battle: attack values, the raise, the challenger's second card and the result.

All values are in half-points (a card is worth twice its value, a Treasure 30, and the
kingdom's bonus is already in half-points), so a bonus of ½ never needs a float.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.rules.kingdom_cards.cards import COLOUR, bid_halves

CHALLENGER = "challenger"
DEFENDER = "defender"

# The battle's steps, named after what the engine waits for.
DEFEND = "defend"  # the defender's first bid
COUNTER = "counter"  # the challenger's counterattack
RAISE = "raise"  # the defender raises or gives up
SECOND_CARD = "second_card"  # the challenger's second card
BATTLE_PHASES = (DEFEND, COUNTER, RAISE, SECOND_CARD)
# From the defender's first bid until the battle ends both kingdoms are locked.
LOCKED_PHASES = (COUNTER, RAISE, SECOND_CARD)


def defender_total(bids: Sequence[str], bonus: int) -> int:
    """The defender's attack: its bid cards (first bid plus any raise) plus its bonus."""
    return sum(bid_halves(c) for c in bids) + bonus


def first_card_counts(bids: Sequence[str]) -> bool:
    """Whether the challenger's first card still counts after its second card.

    A second card of the same colour adds to the first; a different colour replaces it.
    A Treasure has no colour, so it never matches (DECISION).
    """
    if len(bids) < 2:
        return True
    first, second = COLOUR[bids[0]], COLOUR[bids[1]]
    return first is not None and first == second


def challenger_total(bids: Sequence[str], bonus: int) -> int:
    if not bids:
        return bonus
    if first_card_counts(bids):
        return sum(bid_halves(c) for c in bids) + bonus
    return bid_halves(bids[-1]) + bonus


def raise_refusal(
    defender_bids: Sequence[str], card: str, defender_now: int, challenger_now: int
) -> tuple[str, str] | None:
    """Why ``card`` cannot raise the defender's bid, or None when it can."""
    first = COLOUR[defender_bids[0]]
    if first is None:
        return ("cannot_raise_on_treasure", "A Treasure has no colour: nothing can raise on it.")
    if COLOUR[card] != first:
        return ("not_same_colour", "A raise must be of the same colour as your first bid.")
    if defender_now + bid_halves(card) <= challenger_now:
        return (
            "raise_too_low",
            "After a raise your attack must be higher than the challenger's.",
        )
    return None


def raise_cards(
    hand: Sequence[str], defender_bids: Sequence[str], defender_now: int, challenger_now: int
) -> list[str]:
    """The cards of the hand that can raise the defender's bid."""
    return [
        c for c in hand if raise_refusal(defender_bids, c, defender_now, challenger_now) is None
    ]


def winner_side(defender_now: int, challenger_now: int) -> str:
    """The higher attack wins; equal values go to the challenger."""
    return CHALLENGER if challenger_now >= defender_now else DEFENDER
