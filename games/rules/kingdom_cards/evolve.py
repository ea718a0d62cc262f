"""The fold: one function per event type, each applying a recorded fact to the state.

These never consult an RNG and never check rules: ``decide`` checked them before the
event was recorded. They accept lists wherever JSON could have turned a tuple into one.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.rules.base import Event
from games.rules.kingdom_cards.battle import COUNTER, DEFEND, RAISE, SECOND_CARD
from games.rules.kingdom_cards.cards import SORT_KEY
from games.rules.kingdom_cards.kingdom import empty_groups
from games.rules.kingdom_cards.state import (
    CHALLENGE,
    DRAW,
    FINISHED,
    KINGDOM_CHANGES_PER_TURN,
    LAST_ROUND,
    RESOLVED,
    KingdomCardsState,
)

SERVER_ONLY = -1  # the private key the service never sends to anyone


def _private(event: Event, seat: int) -> dict[str, Any]:
    # Seats are ints in memory; accept str keys too, in case a snapshot kept JSON's.
    return event.private.get(seat) or event.private.get(str(seat)) or {}  # type: ignore[call-overload]


def _add_to_hand(state: KingdomCardsState, seat: int, cards: list[str]) -> None:
    hand = state.hands[seat]
    hand.extend(cards)
    hand.sort(key=SORT_KEY.__getitem__)


def _spend_change(state: KingdomCardsState, data: dict[str, Any]) -> None:
    # Changes the engine makes itself (auto_complete) cost the player nothing.
    if not data.get("auto"):
        seat = data["seat"]
        state.changes_left[seat] = max(0, state.changes_left[seat] - 1)


def cards_dealt(state: KingdomCardsState | None, event: Event) -> KingdomCardsState:
    data = event.public
    players = data["players"]
    state = KingdomCardsState(players=players, options=dict(data["options"]))
    state.hands = [
        sorted(_private(event, s).get("hand", []), key=SORT_KEY.__getitem__) for s in range(players)
    ]
    # The event lists the source top first; the state keeps the top last (pop is cheap).
    state.source = list(reversed(_private(event, SERVER_ONLY).get("source", [])))
    state.groups = [empty_groups() for _ in range(players)]
    state.treasures = [[] for _ in range(players)]
    state.challenger = data["first_challenger"]
    state.turn = 1
    state.phase = DRAW
    state.changes_left = [KINGDOM_CHANGES_PER_TURN] * players
    state.last_turn_done = [False] * players
    return state


def card_drawn(state: KingdomCardsState, event: Event) -> KingdomCardsState:
    card = event.public["card"]
    if state.source and state.source[-1] == card:
        state.source.pop()
    else:
        state.source.remove(card)
    state.centre = card
    state.phase = CHALLENGE
    return state


def group_laid(state: KingdomCardsState, event: Event) -> KingdomCardsState:
    data = event.public
    seat, cards = data["seat"], list(data["cards"])
    for card in cards:
        state.hands[seat].remove(card)
    state.groups[seat][data["tier"] - 1] = cards
    _spend_change(state, data)
    return state


def group_returned(state: KingdomCardsState, event: Event) -> KingdomCardsState:
    data = event.public
    seat = data["seat"]
    group = state.groups[seat][data["tier"] - 1] or []
    state.groups[seat][data["tier"] - 1] = None
    _add_to_hand(state, seat, group)
    _spend_change(state, data)
    return state


def card_laid(state: KingdomCardsState, event: Event) -> KingdomCardsState:
    data = event.public
    seat, card, index = data["seat"], data["card"], data["tier"] - 1
    state.hands[seat].remove(card)
    slot = [*(state.groups[seat][index] or []), card]
    slot.sort(key=SORT_KEY.__getitem__)  # one card per value: ascending by value
    state.groups[seat][index] = slot
    _spend_change(state, data)
    return state


def card_returned(state: KingdomCardsState, event: Event) -> KingdomCardsState:
    data = event.public
    seat, card, index = data["seat"], data["card"], data["tier"] - 1
    slot = [c for c in state.groups[seat][index] or [] if c != card]
    state.groups[seat][index] = slot or None
    _add_to_hand(state, seat, [card])
    _spend_change(state, data)
    return state


def incomplete_groups_returned(state: KingdomCardsState, event: Event) -> KingdomCardsState:
    seat = event.public["seat"]
    groups = state.groups[seat]
    for index, slot in enumerate(groups):
        if slot is not None and len(slot) < 3:
            groups[index] = None
    _add_to_hand(state, seat, list(event.public["cards"]))
    return state


def treasure_laid(state: KingdomCardsState, event: Event) -> KingdomCardsState:
    data = event.public
    state.hands[data["seat"]].remove(data["card"])
    state.treasures[data["seat"]].append(data["card"])
    state.treasures[data["seat"]].sort(key=SORT_KEY.__getitem__)
    _spend_change(state, data)
    return state


def treasure_returned(state: KingdomCardsState, event: Event) -> KingdomCardsState:
    data = event.public
    state.treasures[data["seat"]].remove(data["card"])
    _add_to_hand(state, data["seat"], [data["card"]])
    _spend_change(state, data)
    return state


def kingdom_kept(state: KingdomCardsState, event: Event) -> KingdomCardsState:
    state.changes_left[event.public["seat"]] = 0
    return state


def opponent_challenged(state: KingdomCardsState, event: Event) -> KingdomCardsState:
    state.defender = event.public["defender"]
    state.phase = DEFEND
    return state


_NEXT_STEP = {"attack": COUNTER, "counterattack": RAISE, "raise": SECOND_CARD}


def card_bid(state: KingdomCardsState, event: Event) -> KingdomCardsState:
    data = event.public
    seat, card, role = data["seat"], data["card"], data["role"]
    state.hands[seat].remove(card)
    if role in ("attack", "raise"):
        state.defender_bids.append(card)
    else:
        state.challenger_bids.append(card)
    # After the second card the battle_won event always follows.
    state.phase = _NEXT_STEP.get(role, RESOLVED)
    return state


def battle_given_up(state: KingdomCardsState, event: Event) -> KingdomCardsState:
    state.phase = RESOLVED
    return state


def battle_won(state: KingdomCardsState, event: Event) -> KingdomCardsState:
    if state.centre is not None:
        _add_to_hand(state, event.public["winner"], [state.centre])
    state.centre = None
    state.phase = RESOLVED
    return state


def bids_exchanged(state: KingdomCardsState, event: Event) -> KingdomCardsState:
    data = event.public
    _add_to_hand(state, data["challenger"], list(data["to_challenger"]))
    _add_to_hand(state, data["defender"], list(data["to_defender"]))
    state.defender_bids = []
    state.challenger_bids = []
    return state


def turn_passed(state: KingdomCardsState, event: Event) -> KingdomCardsState:
    state.challenger = event.public["seat"]
    state.turn = event.public["turn"]
    state.defender = None
    state.defender_bids = []
    state.challenger_bids = []
    state.changes_left = [KINGDOM_CHANGES_PER_TURN] * state.players
    state.phase = DRAW
    return state


def last_round_started(state: KingdomCardsState, event: Event) -> KingdomCardsState:
    state.turn = event.public["turn"]
    state.defender = None
    state.centre = None
    state.changes_left = [KINGDOM_CHANGES_PER_TURN] * state.players
    state.last_turn_done = [False] * state.players
    state.phase = LAST_ROUND
    return state


def last_turn_ended(state: KingdomCardsState, event: Event) -> KingdomCardsState:
    state.last_turn_done[event.public["seat"]] = True
    return state


def kingdom_completed(state: KingdomCardsState, event: Event) -> KingdomCardsState:
    state.completed = sorted(event.public["seats"])
    return state


def game_ended(state: KingdomCardsState, event: Event) -> KingdomCardsState:
    state.end_reason = event.public["reason"]
    state.phase = FINISHED
    return state


EVOLVERS: dict[str, Callable[[Any, Event], KingdomCardsState]] = {
    f.__name__: f
    for f in (
        cards_dealt,
        card_drawn,
        group_laid,
        group_returned,
        card_laid,
        card_returned,
        incomplete_groups_returned,
        treasure_laid,
        treasure_returned,
        kingdom_kept,
        opponent_challenged,
        card_bid,
        battle_given_up,
        battle_won,
        bids_exchanged,
        turn_passed,
        last_round_started,
        last_turn_ended,
        kingdom_completed,
        game_ended,
    )
}
EVENT_TYPES = tuple(EVOLVERS)


def evolve(state: KingdomCardsState | None, event: Event) -> KingdomCardsState:
    handler = EVOLVERS.get(event.type)
    if handler is None:
        # Not ours (a service event such as seat_resigned): nothing to fold.
        return state  # type: ignore[return-value]
    return handler(state, event)
