"""Small helpers that build Kingdom Cards positions for the rule tests."""

from __future__ import annotations

import random
from typing import Any

from games.rules.base import Command, Event, IllegalCommand
from games.rules.kingdom_cards import RULESET
from games.rules.kingdom_cards.cards import DECK, TIER_OF, sort_cards
from games.rules.kingdom_cards.kingdom import empty_groups
from games.rules.kingdom_cards.state import (
    CHALLENGE,
    KINGDOM_CHANGES_PER_TURN,
    KingdomCardsState,
)

RNG = random.Random(0)


def table(
    players: int = 3,
    hands: dict[int, list[str]] | None = None,
    groups: dict[int, list[list[str]]] | None = None,
    treasures: dict[int, list[str]] | None = None,
    centre: str | None = "B5c",
    challenger: int = 0,
    source: list[str] | None = None,
    **options: Any,
) -> KingdomCardsState:
    """A position at the start of ``challenger``'s turn, the centre card drawn.

    Every card not placed anywhere goes into the source (in deck order, top last), unless
    ``source`` is given, so the 84 cards stay accounted for by default.
    """
    hands = hands or {}
    groups = groups or {}
    treasures = treasures or {}
    state = KingdomCardsState(
        players=players,
        options={"allow_two_players": players == 2, "auto_complete": True, **options},
    )
    state.hands = [sort_cards(hands.get(s, [])) for s in range(players)]
    state.groups = [empty_groups() for _ in range(players)]
    for seat, laid in groups.items():
        for group in laid:
            state.groups[seat][TIER_OF[group[0]] - 1] = list(group)  # type: ignore[operator]
    state.treasures = [sort_cards(treasures.get(s, [])) for s in range(players)]
    state.centre = centre
    placed = [c for h in state.hands for c in h] + [c for t in state.treasures for c in t]
    placed += [c for seat in state.groups for g in seat if g for c in g]
    if centre:
        placed.append(centre)
    assert len(placed) == len(set(placed)), "a card placed twice"
    used = set(placed)
    state.source = list(source) if source is not None else [c for c in DECK if c not in used]
    state.turn = 1
    state.challenger = challenger
    state.phase = CHALLENGE
    state.changes_left = [KINGDOM_CHANGES_PER_TURN] * players
    state.last_turn_done = [False] * players
    return state


def play(state: KingdomCardsState, *moves: tuple[int, Command]) -> list[Event]:
    """Apply (seat, command) pairs in order through ``decide`` + ``evolve``."""
    events: list[Event] = []
    for seat, command in moves:
        new = RULESET.decide(state, seat, command, RNG)
        for event in new:
            RULESET.evolve(state, event)
        events += new
    return events


def refusal(state: KingdomCardsState, seat: int, command: Any) -> str:
    """The IllegalCommand code ``decide`` answers (fails the test if it accepts)."""
    try:
        RULESET.decide(state, seat, command, RNG)
    except IllegalCommand as exc:
        return exc.code
    raise AssertionError(f"{command!r} from seat {seat} was accepted")


def types(events: list[Event]) -> list[str]:
    return [e.type for e in events]


def first(events: list[Event], kind: str) -> dict[str, Any]:
    return next(e.public for e in events if e.type == kind)


def all_cards(state: KingdomCardsState) -> list[str]:
    cards = list(state.source) + state.defender_bids + state.challenger_bids
    cards += [c for h in state.hands for c in h] + [c for t in state.treasures for c in t]
    cards += [c for seat in state.groups for g in seat if g for c in g]
    if state.centre:
        cards.append(state.centre)
    return cards


def count_cards(state: KingdomCardsState) -> int:
    return len(all_cards(state))


REDS = ["R1a", "R2a", "R3a", "R4a", "R5a", "R6a", "R7a", "R8a", "R9a"]
YELLOWS = ["Y1a", "Y2a", "Y3a", "Y4a", "Y5a", "Y6a", "Y7a", "Y8a", "Y9a"]
LAY_TREASURE = {"type": "lay_treasure", "card": "T3"}
RETURN_TREASURE = {"type": "return_treasure", "card": "T3"}


class StackedDeck(random.Random):
    """An RNG whose shuffle deals ``order`` first (the rest in deck order)."""

    def __init__(self, order):
        super().__init__(0)
        self.order = order

    def shuffle(self, cards):
        rest = [c for c in cards if c not in self.order]
        cards[:] = self.order + rest
