"""Who may act and with which commands: ``to_act`` and ``legal_commands``.

Several seats may act at once: the player (or players) the battle waits for, and every
player whom the rules give a window to change their kingdom (not locked in the battle,
changes left this turn). Who may act is computed from public facts only, never from a
hidden hand: a seat whose hand allows no change still has its window and may close it
with ``keep_kingdom``. Only the battle players' commands move the game on; kingdom
changes are capped per turn, so the game ends in a bounded number of commands whichever
seat acts.
"""

from __future__ import annotations

from games.rules.base import Command
from games.rules.kingdom_cards.battle import (
    COUNTER,
    DEFEND,
    RAISE,
    SECOND_CARD,
    challenger_total,
    defender_total,
    raise_cards,
)
from games.rules.kingdom_cards.cards import TIERS, is_treasure
from games.rules.kingdom_cards.decide import kingdom_change_refusal
from games.rules.kingdom_cards.kingdom import formable_groups, layable_cards
from games.rules.kingdom_cards.state import CHALLENGE, LAST_ROUND, KingdomCardsState


def awaited(state: KingdomCardsState) -> set[int]:
    """The seats the game is waiting for (the battle, or last turns not yet ended)."""
    if state.finished:
        return set()
    if state.phase == LAST_ROUND:
        return {s for s in state.seats if not state.last_turn_done[s]}
    if state.phase in (CHALLENGE, COUNTER, SECOND_CARD):
        return {state.challenger}
    if state.phase in (DEFEND, RAISE) and state.defender is not None:
        return {state.defender}
    return set()


def may_change_kingdom(state: KingdomCardsState, seat: int) -> bool:
    """Whether ``seat`` has a window to change its kingdom now (public facts only)."""
    return kingdom_change_refusal(state, seat) is None


def to_act(state: KingdomCardsState) -> set[int]:
    if state.finished:
        return set()
    seats = awaited(state)
    seats.update(s for s in state.seats if may_change_kingdom(state, s))
    return seats


def battle_commands(state: KingdomCardsState, seat: int) -> list[Command]:
    phase = state.phase
    if phase == CHALLENGE and seat == state.challenger:
        return [{"type": "challenge", "seat": s} for s in state.seats if s != seat]
    if phase == LAST_ROUND:
        return [] if state.last_turn_done[seat] else [{"type": "end_last_turn"}]
    defender = state.defender
    if defender is None:
        return []
    hand = state.hands[seat]
    if (phase == DEFEND and seat == defender) or (
        phase in (COUNTER, SECOND_CARD) and seat == state.challenger
    ):
        return [{"type": "bid", "card": c} for c in hand]
    if phase == RAISE and seat == defender:
        d_now = defender_total(state.defender_bids, state.bonus(defender))
        c_now = challenger_total(state.challenger_bids, state.bonus(state.challenger))
        raises = raise_cards(hand, state.defender_bids, d_now, c_now)
        return [{"type": "bid", "card": c} for c in raises] + [{"type": "give_up"}]
    return []


def kingdom_commands(state: KingdomCardsState, seat: int) -> list[Command]:
    """Every kingdom change open to ``seat`` now (empty when it may not change)."""
    if kingdom_change_refusal(state, seat) is not None:
        return []
    hand, groups = state.hands[seat], state.groups[seat]
    commands: list[Command] = [
        {"type": "lay_group", "cards": cards} for cards in formable_groups(hand, groups)
    ]
    commands += [{"type": "return_group", "tier": t} for t in TIERS if groups[t - 1] is not None]
    commands += [{"type": "lay_treasure", "card": c} for c in hand if is_treasure(c)]
    commands += [{"type": "return_treasure", "card": c} for c in state.treasures[seat]]
    commands += [{"type": "lay_card", "card": c} for c in layable_cards(hand, groups)]
    commands += [{"type": "return_card", "card": c} for slot in groups if slot for c in slot]
    if state.phase != LAST_ROUND:
        commands.append({"type": "keep_kingdom"})
    return commands


def legal_commands(state: KingdomCardsState, seat: int) -> list[Command]:
    if state.finished or not isinstance(seat, int) or not 0 <= seat < state.players:
        return []
    return battle_commands(state, seat) + kingdom_commands(state, seat)
