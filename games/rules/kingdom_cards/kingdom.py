"""A player's kingdom: groups, the flag, tiers, the bonus and the completion check.

A kingdom is ``groups`` (three slots, one per tier: None, or the cards of that tier laid
in it, ascending, at most one of each value) plus ``treasures`` (Treasure ids laid in it).
A slot of three cards is a group; a slot of one or two cards is an incomplete group: it
gives no bonus and sets no flag, and it goes back to the hand when its owner's battle
begins (the defender's first bid).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import product
from typing import TypeGuard

from games.rules.kingdom_cards.cards import (
    COLOUR,
    COLOURS,
    SORT_KEY,
    TIER_BONUS_HALVES,
    TIER_OF,
    TIERS,
    TREASURE_BONUS_HALVES,
    VALUE,
    tier_values,
)

Groups = list[list[str] | None]

# Every possible flag (colour of the lowest, middle and highest card): 27 of them.
FLAGS = tuple(a + b + c for a in COLOURS for b in COLOURS for c in COLOURS)


def empty_groups() -> Groups:
    return [None, None, None]


def group_flag(cards: Sequence[str]) -> str:
    """The colour sequence of a group, lowest card first: e.g. 'RYB'."""
    return "".join(COLOUR[c] or "?" for c in cards)


def group_tier(cards: Sequence[str]) -> int | None:
    """The tier of three cards that form a group in ascending order, else None."""
    if len(cards) != 3:
        return None
    tier = TIER_OF[cards[0]]
    # A Treasure has no tier and bids 15, so it can never match a tier's values.
    if tier is None or tuple(VALUE[c] for c in cards) != tier_values(tier):
        return None
    return tier


def is_group_in_any_order(cards: Sequence[str]) -> bool:
    """True when the cards would form a group once sorted (to explain an order error)."""
    if len(cards) != 3 or any(COLOUR[c] is None for c in cards):
        return False
    return group_tier(sorted(cards, key=VALUE.__getitem__)) is not None


def is_group(slot: Sequence[str] | None) -> TypeGuard[Sequence[str]]:
    """A slot holding all three cards of its tier (not an incomplete group)."""
    return slot is not None and len(slot) == 3


def incomplete_cards(groups: Groups) -> list[str]:
    """The cards of the kingdom's incomplete groups."""
    return [c for slot in groups if slot is not None and not is_group(slot) for c in slot]


def kingdom_flag(groups: Groups, skip_tier: int | None = None) -> str | None:
    """The flag all complete groups share (None without one); ``skip_tier`` is ignored."""
    for tier, group in zip(TIERS, groups, strict=True):
        if tier != skip_tier and is_group(group):
            return group_flag(group)
    return None


def bonus_halves(groups: Groups, treasures: Sequence[str]) -> int:
    """The kingdom's bonus in half-points: people 1, army 2, court 4, each treasure 1.

    Incomplete groups give nothing."""
    bonus = TREASURE_BONUS_HALVES * len(treasures)
    for tier in TIERS:
        if is_group(groups[tier - 1]):
            bonus += TIER_BONUS_HALVES[tier]
    return bonus


def is_complete(groups: Groups) -> bool:
    """A people, an army and a court (all under one flag, which laying enforces)."""
    return all(is_group(group) for group in groups)


def _wrong_flag(flag: str) -> tuple[str, str]:
    return (
        "wrong_flag",
        f"Every group in your kingdom must have the colours of your flag ({flag}).",
    )


def lay_refusal(groups: Groups, cards: Sequence[str]) -> tuple[str, str] | None:
    """Why a valid group cannot join this kingdom, or None when it can."""
    tier = group_tier(cards)
    if tier is None:
        return ("not_a_group", "A group is the 1-2-3, 4-5-6 or 7-8-9 of any colours.")
    if groups[tier - 1] is not None:
        return ("tier_taken", "Your kingdom already holds cards of that tier.")
    flag = kingdom_flag(groups)
    if flag is not None and group_flag(cards) != flag:
        return _wrong_flag(flag)
    return None


def slot_with(groups: Groups, card: str) -> list[str]:
    """The cards of ``card``'s tier slot once ``card`` is added (ascending)."""
    slot = list(groups[TIER_OF[card] - 1] or [])  # type: ignore[operator]
    return sorted([*slot, card], key=VALUE.__getitem__)


def lay_card_refusal(groups: Groups, card: str) -> tuple[str, str] | None:
    """Why a number card cannot join its tier's slot, or None when it can."""
    tier = TIER_OF[card]
    if tier is None:
        return ("not_a_number_card", "Lay a Treasure with lay_treasure.")
    slot = groups[tier - 1] or []
    if any(VALUE[c] == VALUE[card] for c in slot):
        return ("value_taken", "Your kingdom already holds a card of that value.")
    cards = slot_with(groups, card)
    flag = kingdom_flag(groups, skip_tier=tier)
    if len(cards) == 3 and flag is not None and group_flag(cards) != flag:
        return _wrong_flag(flag)
    return None


def layable_cards(hand: Sequence[str], groups: Groups) -> list[str]:
    """The hand's number cards that can be laid one by one now (hand order)."""
    return [c for c in hand if COLOUR[c] is not None and lay_card_refusal(groups, c) is None]


def _by_colour_value(cards: Sequence[str]) -> dict[tuple[str, int], list[str]]:
    found: dict[tuple[str, int], list[str]] = {}
    for card in cards:
        colour = COLOUR[card]
        if colour is not None:
            found.setdefault((colour, VALUE[card]), []).append(card)
    for copies in found.values():
        copies.sort(key=SORT_KEY.__getitem__)
    return found


def formable_groups(hand: Sequence[str], groups: Groups) -> list[list[str]]:
    """Every group the hand could lay into this kingdom now (each set of cards once)."""
    flag = kingdom_flag(groups)
    by_value: dict[int, list[str]] = {}
    for card in sorted(hand, key=SORT_KEY.__getitem__):
        if COLOUR[card] is not None:
            by_value.setdefault(VALUE[card], []).append(card)
    result: list[list[str]] = []
    for tier in TIERS:
        if groups[tier - 1] is not None:  # taken by a group or an incomplete one
            continue
        low, mid, high = tier_values(tier)
        if low not in by_value or mid not in by_value or high not in by_value:
            continue
        for triple in product(by_value[low], by_value[mid], by_value[high]):
            if flag is None or group_flag(triple) == flag:
                result.append(list(triple))
    return result


def completion_plan(
    hand: Sequence[str], groups: Groups
) -> tuple[list[int], list[list[str]]] | None:
    """How the player's cards (hand + groups) make a complete kingdom, or None.

    Returns (tiers to return, groups to lay). Among the flags that work it keeps the most
    groups already laid, then takes the first flag in RRR..BBB order; for each missing
    slot it uses the lowest copy. Used by the ``auto_complete`` table option.
    """
    pool = list(hand)
    for group in groups:
        if group is not None:
            pool.extend(group)
    present = {(COLOUR[c], VALUE[c]) for c in pool}
    # A flag works when, at each position, its colour exists for that position's value in
    # all three tiers (the lowest card: 1, 4 and 7; the middle: 2, 5, 8; the highest: 3, 6, 9).
    allowed = [
        [
            c
            for c in COLOURS
            if (c, p) in present and (c, p + 3) in present and (c, p + 6) in present
        ]
        for p in (1, 2, 3)
    ]
    if not all(allowed):
        return None
    best: tuple[int, str] | None = None
    for first, second, third in product(*allowed):
        flag = first + second + third
        kept = sum(1 for g in groups if is_group(g) and group_flag(g) == flag)
        if best is None or kept > best[0]:
            best = (kept, flag)
    if best is None:
        return None
    flag = best[1]
    available = _by_colour_value(pool)

    def kept_as_is(group: list[str] | None) -> bool:
        return is_group(group) and group_flag(group) == flag

    # Incomplete groups go back too: their cards may be needed elsewhere in the plan.
    returns = [t for t in TIERS if groups[t - 1] is not None and not kept_as_is(groups[t - 1])]
    lays = []
    for tier in TIERS:
        if kept_as_is(groups[tier - 1]):
            continue
        lays.append([available[(flag[i], v)][0] for i, v in enumerate(tier_values(tier))])
    return returns, lays
