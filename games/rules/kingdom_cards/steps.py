"""The facts that follow from one another, shared by setup and the commands.

A ``Log`` collects decided events and folds each into the state as it is emitted, so a
step can read the state its earlier facts produced (the battle's result, then the
exchange, then an automatic completion, then the next turn's draw).
"""

from __future__ import annotations

import random
from typing import Any

from games.rules.base import Event
from games.rules.kingdom_cards.battle import CHALLENGER, challenger_total, defender_total
from games.rules.kingdom_cards.cards import HAND_SIZE, TIER_BONUS_HALVES, shuffled_deck, sort_cards
from games.rules.kingdom_cards.evolve import SERVER_ONLY, evolve
from games.rules.kingdom_cards.kingdom import (
    completion_plan,
    group_flag,
    group_tier,
    incomplete_cards,
    is_group,
)
from games.rules.kingdom_cards.state import KingdomCardsState

FIRST_CHALLENGER = 0  # DECISION: seat 0 (the service seats players at random) starts.


class Log:
    """Collects the decided events and folds each into ``state`` as it is emitted."""

    def __init__(self, state: KingdomCardsState | None) -> None:
        # None only in setup, until its first event (cards_dealt) makes the state; every
        # step reads the state after that.
        self.state: KingdomCardsState = state  # type: ignore[assignment]
        self.events: list[Event] = []

    def emit(
        self, kind: str, public: dict[str, Any], private: dict[int, dict[str, Any]] | None = None
    ) -> None:
        event = Event(kind, public, private or {})
        self.state = evolve(self.state, event)
        self.events.append(event)


# ---- setup ------------------------------------------------------------------------------
def setup_events(options: dict[str, Any], players: int, rng: random.Random) -> list[Event]:
    """Shuffle, deal 9 cards each, then (unless someone already completes) the first draw."""
    deck = shuffled_deck(rng)
    hands = [sort_cards(deck[s * HAND_SIZE : (s + 1) * HAND_SIZE]) for s in range(players)]
    source = deck[players * HAND_SIZE :]
    private: dict[int, dict[str, Any]] = {s: {"hand": hands[s]} for s in range(players)}
    private[SERVER_ONLY] = {"source": source}
    log = Log(None)
    log.emit(
        "cards_dealt",
        {
            "players": players,
            "options": dict(options),
            "first_challenger": FIRST_CHALLENGER,
            "hand_sizes": [HAND_SIZE] * players,
            "source_size": len(source),
        },
        private,
    )
    if not auto_complete(log, list(range(players))):
        draw(log)
    return log.events


# ---- shared steps -----------------------------------------------------------------------
def draw(log: Log) -> None:
    """The challenger lays the top card of the source face up in the centre."""
    state = log.state
    log.emit(
        "card_drawn",
        {
            "seat": state.challenger,
            "card": state.source[-1],
            "source_size": len(state.source) - 1,
            "turn": state.turn,
        },
    )


def next_turn(log: Log) -> None:
    """The turn passes clockwise; with the source exhausted, the last round begins."""
    state = log.state
    if not state.source:
        log.emit("last_round_started", {"turn": state.turn + 1})
        return
    log.emit(
        "turn_passed", {"seat": (state.challenger + 1) % state.players, "turn": state.turn + 1}
    )
    draw(log)


def game_ended(log: Log, reason: str) -> None:
    log.emit("game_ended", {"reason": reason, "completed": list(log.state.completed)})


def auto_complete(log: Log, seats: list[int]) -> bool:
    """Table option auto_complete: lay every completable kingdom; those players win."""
    state = log.state
    if not state.options.get("auto_complete", True):
        return False
    plans = {s: completion_plan(state.hands[s], state.groups[s]) for s in sorted(set(seats))}
    completers = [s for s, plan in plans.items() if plan is not None]
    for seat in completers:
        returns, lays = plans[seat]  # type: ignore[misc]
        for tier in returns:
            emit_group_returned(log, seat, tier, auto=True)
        for cards in lays:
            emit_group_laid(log, seat, cards, auto=True)
    if completers:
        log.emit("kingdom_completed", {"seats": completers})
        game_ended(log, "kingdom_completed")
    return bool(completers)


def emit_group_laid(log: Log, seat: int, cards: list[str], *, auto: bool = False) -> None:
    state = log.state
    tier = group_tier(cards)
    log.emit(
        "group_laid",
        {
            "seat": seat,
            "tier": tier,
            "cards": list(cards),
            "flag": group_flag(cards),
            "bonus_halves": state.bonus(seat) + TIER_BONUS_HALVES[tier],  # type: ignore[index]
            "auto": auto,
        },
    )


def emit_group_returned(log: Log, seat: int, tier: int, *, auto: bool = False) -> None:
    state = log.state
    cards = state.groups[seat][tier - 1] or []
    lost = TIER_BONUS_HALVES[tier] if is_group(cards) else 0  # an incomplete one gives none
    log.emit(
        "group_returned",
        {
            "seat": seat,
            "tier": tier,
            "cards": list(cards),
            "bonus_halves": state.bonus(seat) - lost,
            "auto": auto,
        },
    )


def return_incomplete_groups(log: Log, seats: list[int]) -> None:
    """Once the first card is played any incomplete groups return to the hand."""
    for seat in seats:
        cards = incomplete_cards(log.state.groups[seat])
        if cards:
            log.emit("incomplete_groups_returned", {"seat": seat, "cards": cards})


def end_battle(log: Log, side: str, reason: str) -> None:
    """The winner takes the centre card; the two take each other's bid cards."""
    state = log.state
    challenger, defender = state.challenger, state.defender
    assert defender is not None
    winner = challenger if side == CHALLENGER else defender
    log.emit(
        "battle_won",
        {
            "winner": winner,
            "loser": defender if winner == challenger else challenger,
            "card": state.centre,
            "reason": reason,
            "defender_total_halves": defender_total(state.defender_bids, state.bonus(defender)),
            "challenger_total_halves": challenger_total(
                state.challenger_bids, state.bonus(challenger)
            ),
        },
    )
    if state.defender_bids or state.challenger_bids:
        log.emit(
            "bids_exchanged",
            {
                "challenger": challenger,
                "defender": defender,
                "to_challenger": list(state.defender_bids),
                "to_defender": list(state.challenger_bids),
            },
        )
    if not auto_complete(log, [challenger, defender]):
        next_turn(log)
