"""Kingdom Cards bots. ``medium`` (greedy) works from the seat's own view only.

The greedy player picks a target flag (the one its hand and kingdom come closest to: the
bonus of the groups it could lay first, then the slots it holds, then the flag it already
flies), returns groups of another flag, and lays every group of the target flag it can
(and its Treasures in the last round). In battle it fights for every centre card, since
each card won grows the pool a kingdom is built from, but only with cards the target
flag does not need, and with a Treasure only for a centre card the flag needs: the
cheapest card that still wins, else the cheapest card of all (the bid cards change hands
anyway). As defender it bids its strongest spare card and raises only with spare cards.
It challenges the opponent least able to fight back: one with no cards in hand first,
then the lowest bonus and the smallest hand.
"""

from __future__ import annotations

import random
from typing import Any

from bots.strategies import register
from games.rules.base import Command, Ruleset
from games.rules.kingdom_cards.cards import (
    COLOUR,
    SORT_KEY,
    TIER_BONUS_HALVES,
    TIERS,
    VALUE,
    bid_halves,
    tier_values,
)
from games.rules.kingdom_cards.kingdom import FLAGS, group_flag

GAME = "kingdom-cards"


class _Plan:
    """The seat's target flag and which of its cards that flag needs."""

    def __init__(self, hand: list[str], kingdom: dict[str, Any]) -> None:
        self.hand = hand
        self.groups: list[list[str] | None] = kingdom["groups"]
        self.current = kingdom["flag"]
        pool = list(hand)
        for group in self.groups:
            pool.extend(group or [])
        # The colours present at each (tier, position in the tier), for _flag_score.
        self.present: list[tuple[set[str], set[str], set[str]]] = [
            (set(), set(), set()) for _ in TIERS
        ]
        for c in pool:
            colour = COLOUR[c]
            if colour is not None:
                tier, position = divmod(VALUE[c] - 1, 3)
                self.present[tier][position].add(colour)
        self.flag = max(FLAGS, key=self._flag_score)
        # Slots of the target flag, (colour, value), not yet laid in the kingdom.
        self.open_slots = {
            (self.flag[i], v)
            for t in TIERS
            if not self._laid_in_flag(t)
            for i, v in enumerate(tier_values(t))
        }

    def _laid_in_flag(self, tier: int) -> bool:
        group = self.groups[tier - 1]
        return group is not None and group_flag(group) == self.flag

    def _flag_score(self, flag: str) -> tuple[int, int, int]:
        full_bonus, slots = 0, 0
        a, b, c = tuple(flag)
        for t, (at_a, at_b, at_c) in zip(TIERS, self.present, strict=True):
            held = (a in at_a) + (b in at_b) + (c in at_c)
            slots += held
            if held == 3:
                full_bonus += TIER_BONUS_HALVES[t]
        # Ties go to the flag already flown, so the bot does not churn its kingdom.
        return (full_bonus, slots, int(flag == self.current))

    def needs(self, card: str | None) -> bool:
        """Does ``card`` fill an open slot of the target flag? Of several copies in the
        hand only the lowest is needed; a card from outside only if the hand has none."""
        if card is None or COLOUR[card] is None:
            return False
        slot = (COLOUR[card], VALUE[card])
        if slot not in self.open_slots:
            return False
        holders = [c for c in self.hand if (COLOUR[c], VALUE[c]) == slot]
        return not holders or card == min(holders, key=SORT_KEY.__getitem__)

    def keep_value(self, card: str) -> int:
        """How much the seat wants to keep ``card`` (lower = bid it first)."""
        if COLOUR[card] is None:
            return 50  # a Treasure: a 15 in a bid, or ½ in the kingdom
        if self.needs(card):
            return 100
        return VALUE[card]


def _choose_kingdom_change(plan: _Plan, legal: list[Command], last_round: bool) -> Command | None:
    for command in legal:
        if command["type"] == "return_group":
            group = plan.groups[command["tier"] - 1]
            # Incomplete groups are left alone: they return to the hand in a battle.
            if group is not None and len(group) == 3 and group_flag(group) != plan.flag:
                return command
    for command in legal:
        if command["type"] == "lay_group" and group_flag(command["cards"]) == plan.flag:
            return command
    if last_round:  # in the end a Treasure is worth more in the kingdom than in the hand
        for command in legal:
            if command["type"] == "lay_treasure":
                return command
    return None


def _cheapest(plan: _Plan, cards: list[str]) -> str:
    return min(cards, key=lambda c: (plan.keep_value(c), VALUE[c], c))


def _spendable(plan: _Plan, cards: list[str], centre_needed: bool) -> list[str]:
    """Cards worth spending to win the centre: never a needed one; a Treasure only for a
    centre card the target flag needs."""
    limit = 50 if centre_needed else 49
    return [c for c in cards if plan.keep_value(c) <= limit]


def _battle_command(view: dict[str, Any], plan: _Plan, legal: list[Command], seat: int) -> Command:
    """Fight for every centre card with cards the plan does not need (each card won grows
    the pool a kingdom is built from); otherwise lose as cheaply as possible."""
    battle = view["battle"]
    bids = [c["card"] for c in legal if c["type"] == "bid"]
    needed = plan.needs(view["centre"])
    spendable = _spendable(plan, bids, needed)
    bonus = view["kingdoms"][seat]["bonus_halves"]
    step = battle["step"]
    if step == "defend":
        # The strongest spare card, so the challenger must pay to beat it.
        spare = [c for c in spendable if COLOUR[c] is not None] or bids
        return {
            "type": "bid",
            "card": max(spare, key=lambda c: (plan.keep_value(c) < 100, VALUE[c], c)),
        }
    if step == "raise":
        if spendable:
            return {"type": "bid", "card": _cheapest(plan, spendable)}
        return {"type": "give_up"}
    d_total = battle["defender_total_halves"]
    first = battle["challenger_bids"][0] if battle["challenger_bids"] else None
    winning = []
    for c in spendable:
        # A second card adds when of the first card's colour, else replaces it.
        same = first is not None and COLOUR[first] is not None and COLOUR[c] == COLOUR[first]
        total = bid_halves(c) + (bid_halves(first) if first is not None and same else 0) + bonus
        if total >= d_total:
            winning.append(c)
    return {"type": "bid", "card": _cheapest(plan, winning or bids)}


def _take_back(plan: _Plan, legal: list[Command]) -> Command | None:
    """A Treasure back first, else the single card of the kingdom the plan needs least."""
    for command in legal:
        if command["type"] == "return_treasure":
            return command
    singles = [c for c in legal if c["type"] == "return_card"]
    if singles:
        return min(singles, key=lambda c: (plan.keep_value(c["card"]), c["card"]))
    return next((c for c in legal if c["type"] == "return_group"), None)


def _challenge(view: dict[str, Any], legal: list[Command]) -> Command:
    def weakness(command: Command) -> tuple[int, int, int, int]:
        s = command["seat"]
        kingdom = view["kingdoms"][s]
        return (
            int(view["hand_sizes"][s] > 0),
            kingdom["bonus_halves"],
            view["hand_sizes"][s],
            s,
        )

    return min(legal, key=weakness)


def greedy(ruleset: Ruleset, state: Any, seat: int, rng: random.Random) -> Command:
    """Medium: build toward one flag, fight for the cards it needs, bid what it does not."""
    legal = ruleset.legal_commands(state, seat)
    if not legal:
        raise LookupError(f"seat {seat} has no legal command")
    view = ruleset.view(state, seat)
    plan = _Plan(view["hand"], view["kingdoms"][seat])
    last_round = view["phase"] == "last_round"
    change = _choose_kingdom_change(plan, legal, last_round)
    if change is not None:
        return change
    types = {c["type"] for c in legal}
    if "challenge" in types:
        return _challenge(view, [c for c in legal if c["type"] == "challenge"])
    battle = view["battle"]
    defending = battle is not None and battle["step"] == "defend" and battle["defender"] == seat
    if defending and "bid" not in types:  # an empty hand: take a cheap card back to bid it
        back = _take_back(plan, legal)
        if back is not None:
            return back
    if ("bid" in types or "give_up" in types) and battle is not None:
        command = _battle_command(view, plan, legal, seat)
        if command in legal:
            return command
    for kind in ("end_last_turn", "keep_kingdom"):
        if kind in types:
            return {"type": kind}
    return rng.choice(legal)


register(GAME, "medium", greedy)
