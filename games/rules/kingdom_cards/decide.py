"""Commands to events: validate one seat's command, then record the facts it causes.

Every handler validates completely before it emits anything, so ``apply`` (the fast path
that folds events straight into the caller's state) leaves the state untouched when it
refuses a command. Follow-up facts (the battle's result, the exchange, an automatic
completion, the next turn's draw) are emitted in the same decision.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from games.rules.base import Command, Event, IllegalCommand, command_type, require
from games.rules.kingdom_cards.battle import (
    CHALLENGER,
    COUNTER,
    DEFEND,
    DEFENDER,
    RAISE,
    SECOND_CARD,
    challenger_total,
    defender_total,
    first_card_counts,
    raise_refusal,
    winner_side,
)
from games.rules.kingdom_cards.cards import (
    TIER_BONUS_HALVES,
    TIER_OF,
    TIERS,
    TREASURE_BONUS_HALVES,
    is_card,
    is_treasure,
)
from games.rules.kingdom_cards.kingdom import (
    group_flag,
    group_tier,
    is_complete,
    is_group,
    is_group_in_any_order,
    kingdom_flag,
    lay_card_refusal,
    lay_refusal,
    slot_with,
)
from games.rules.kingdom_cards.state import (
    CHALLENGE,
    KINGDOM_CHANGES_PER_TURN,
    LAST_ROUND,
    KingdomCardsState,
)
from games.rules.kingdom_cards.steps import (
    Log,
    emit_group_laid,
    emit_group_returned,
    end_battle,
    game_ended,
    return_incomplete_groups,
)

COMMANDS = (
    "challenge",
    "bid",
    "give_up",
    "lay_group",
    "return_group",
    "lay_treasure",
    "return_treasure",
    "lay_card",
    "return_card",
    "keep_kingdom",
    "end_last_turn",
)


# ---- field readers (junk in, IllegalCommand out) ------------------------------------------
def _card(command: Command) -> str:
    card = command.get("card")
    require(is_card(card), "bad_card", "Name a card by its id, such as 'R7b' or 'T1'.")
    return card  # type: ignore[return-value]


def _int(command: Command, key: str, code: str, message: str) -> int:
    value = command.get(key)
    require(isinstance(value, int) and not isinstance(value, bool), code, message)
    return value  # type: ignore[return-value]


# ---- kingdom changes ---------------------------------------------------------------------
def kingdom_change_refusal(state: KingdomCardsState, seat: int) -> tuple[str, str] | None:
    """Why ``seat`` may not change its kingdom now, or None when it may."""
    if state.phase == LAST_ROUND and state.last_turn_done[seat]:
        return ("last_turn_over", "You have ended your last turn.")
    if state.locked(seat):
        return ("kingdom_locked", "Your kingdom is locked until this battle ends.")
    if state.changes_left[seat] <= 0:
        return (
            "no_changes_left",
            f"You may change your kingdom at most {KINGDOM_CHANGES_PER_TURN} times a turn "
            "(or you chose to keep it as it is this turn).",
        )
    return None


def _may_change(state: KingdomCardsState, seat: int) -> None:
    refusal = kingdom_change_refusal(state, seat)
    if refusal is not None:
        raise IllegalCommand(*refusal)


def _lay_group(log: Log, seat: int, command: Command) -> None:
    state = log.state
    cards = command.get("cards")
    if not (isinstance(cards, list) and len(cards) == 3 and all(is_card(c) for c in cards)):
        raise IllegalCommand(
            "bad_cards",
            "Name the group's three cards by id, lowest first, e.g. ['R1a', 'Y2c', 'B3b'].",
        )
    require(len(set(cards)) == 3, "bad_cards", "A group is three different cards.")
    _may_change(state, seat)
    hand = state.hands[seat]
    require(all(c in hand for c in cards), "card_not_in_hand", "You do not hold those cards.")
    if group_tier(cards) is None and is_group_in_any_order(cards):
        raise IllegalCommand("group_not_ascending", "List the group's cards lowest first.")
    refusal = lay_refusal(state.groups[seat], cards)
    if refusal is not None:
        raise IllegalCommand(*refusal)
    emit_group_laid(log, seat, list(cards))
    # The first player to hold a people, an army and a court under one flag wins at once.
    if is_complete(log.state.groups[seat]):
        log.emit("kingdom_completed", {"seats": [seat]})
        game_ended(log, "kingdom_completed")


def _return_group(log: Log, seat: int, command: Command) -> None:
    state = log.state
    tier = _int(command, "tier", "bad_tier", "Name the tier: 1 (people), 2 (army) or 3 (court).")
    require(tier in TIERS, "bad_tier", "Name the tier: 1 (people), 2 (army) or 3 (court).")
    _may_change(state, seat)
    require(
        state.groups[seat][tier - 1] is not None,
        "no_group_in_tier",
        "Your kingdom holds no card of that tier.",
    )
    emit_group_returned(log, seat, tier)


def _lay_card(log: Log, seat: int, command: Command) -> None:
    state = log.state
    card = _card(command)
    _may_change(state, seat)
    require(card in state.hands[seat], "card_not_in_hand", "You do not hold that card.")
    groups = state.groups[seat]
    refusal = lay_card_refusal(groups, card)
    if refusal is not None:
        raise IllegalCommand(*refusal)
    tier = TIER_OF[card]
    cards = slot_with(groups, card)
    flag = group_flag(cards) if len(cards) == 3 else kingdom_flag(groups, skip_tier=tier)
    bonus = state.bonus(seat) + (TIER_BONUS_HALVES[tier] if len(cards) == 3 else 0)  # type: ignore[index]
    public = {"seat": seat, "card": card, "tier": tier, "flag": flag, "bonus_halves": bonus}
    log.emit("card_laid", public)
    if is_complete(log.state.groups[seat]):
        log.emit("kingdom_completed", {"seats": [seat]})
        game_ended(log, "kingdom_completed")


def _return_card(log: Log, seat: int, command: Command) -> None:
    state = log.state
    card = _card(command)
    _may_change(state, seat)
    tier = TIER_OF[card]
    slot = state.groups[seat][tier - 1] if tier is not None else None
    require(
        slot is not None and card in slot,
        "card_not_in_kingdom",
        "That card is not in your kingdom (take a Treasure back with return_treasure).",
    )
    lost = TIER_BONUS_HALVES[tier] if is_group(slot) else 0  # type: ignore[index]
    log.emit(
        "card_returned",
        {"seat": seat, "card": card, "tier": tier, "bonus_halves": state.bonus(seat) - lost},
    )


def _lay_treasure(log: Log, seat: int, command: Command) -> None:
    state = log.state
    card = _card(command)
    require(is_treasure(card), "not_a_treasure", "Only a Treasure can be laid on its own.")
    _may_change(state, seat)
    require(card in state.hands[seat], "card_not_in_hand", "You do not hold that Treasure.")
    bonus = state.bonus(seat) + TREASURE_BONUS_HALVES
    log.emit("treasure_laid", {"seat": seat, "card": card, "bonus_halves": bonus})


def _return_treasure(log: Log, seat: int, command: Command) -> None:
    state = log.state
    card = _card(command)
    require(is_treasure(card), "not_a_treasure", "Only a Treasure can be returned on its own.")
    _may_change(state, seat)
    require(
        card in state.treasures[seat],
        "treasure_not_in_kingdom",
        "That Treasure is not in your kingdom.",
    )
    bonus = state.bonus(seat) - TREASURE_BONUS_HALVES
    log.emit("treasure_returned", {"seat": seat, "card": card, "bonus_halves": bonus})


def _keep_kingdom(log: Log, seat: int, command: Command) -> None:
    state = log.state
    require(
        state.phase != LAST_ROUND,
        "wrong_phase",
        "In the last round, end your last turn instead.",
    )
    # Offered whatever the hand holds: whether it could change anything is hidden.
    _may_change(state, seat)
    log.emit("kingdom_kept", {"seat": seat})


# ---- the battle --------------------------------------------------------------------------
def _challenge(log: Log, seat: int, command: Command) -> None:
    state = log.state
    require(state.phase == CHALLENGE, "wrong_phase", "There is no one to challenge now.")
    require(seat == state.challenger, "not_your_turn", "Only the challenger names a defender.")
    defender = _int(command, "seat", "bad_seat", "Name the opponent's seat number.")
    require(0 <= defender < state.players, "bad_seat", "There is no such seat at this table.")
    require(defender != seat, "cannot_challenge_self", "Challenge an opponent, not yourself.")
    log.emit("opponent_challenged", {"seat": seat, "defender": defender})


def _defender_cannot_bid(state: KingdomCardsState) -> bool:
    """A defender with no card in hand who cannot take one back from the kingdom either.

    Until its first bid an empty-handed defender may take cards back from its kingdom and
    bid them; only when nothing can come back (an empty kingdom, or no change left this
    turn) has it no card to bid. Hand sizes, kingdoms and changes left are all public.
    """
    defender = state.defender
    if state.phase != DEFEND or defender is None or state.hands[defender]:
        return False
    in_kingdom = state.treasures[defender] or any(state.groups[defender])
    return not in_kingdom or kingdom_change_refusal(state, defender) is not None


_BIDDER = {DEFEND: DEFENDER, COUNTER: CHALLENGER, RAISE: DEFENDER, SECOND_CARD: CHALLENGER}
_ROLE = {DEFEND: "attack", COUNTER: "counterattack", RAISE: "raise", SECOND_CARD: "second_card"}


def _bid(log: Log, seat: int, command: Command) -> None:
    state = log.state
    card = _card(command)
    step = state.phase
    side = _BIDDER.get(step)
    require(side is not None, "no_battle", "There is no battle to bid in now.")
    bidder = state.defender if side == DEFENDER else state.challenger
    require(seat == bidder, "not_your_turn", "It is not your bid.")
    require(card in state.hands[seat], "card_not_in_hand", "You do not hold that card.")
    challenger, defender = state.challenger, state.defender
    assert defender is not None
    d_now = defender_total(state.defender_bids, state.bonus(defender))
    c_now = challenger_total(state.challenger_bids, state.bonus(challenger))
    if step == RAISE:
        refusal = raise_refusal(state.defender_bids, card, d_now, c_now)
        if refusal is not None:
            raise IllegalCommand(*refusal)
    d_bids = state.defender_bids + ([card] if side == DEFENDER else [])
    c_bids = state.challenger_bids + ([card] if side == CHALLENGER else [])
    d_total = defender_total(d_bids, state.bonus(defender))
    c_total = challenger_total(c_bids, state.bonus(challenger))
    public = {
        "seat": seat,
        "card": card,
        "role": _ROLE[step],
        "total_halves": d_total if side == DEFENDER else c_total,
    }
    if step == SECOND_CARD:
        public["first_card_counts"] = first_card_counts(c_bids)
    log.emit("card_bid", public)
    if step == DEFEND:  # once the first card is played incomplete groups return to the hand
        return_incomplete_groups(log, [defender, challenger])
    # DECISION: a challenger with no card to counter (or to add after a raise) loses.
    if step in (DEFEND, RAISE) and not log.state.hands[challenger]:
        end_battle(log, DEFENDER, "no_card_to_counter")
    elif step == COUNTER and c_total < d_total:
        end_battle(log, DEFENDER, "higher_attack")
    elif step == SECOND_CARD:
        reason = "tie_to_challenger" if c_total == d_total else "higher_attack"
        end_battle(log, winner_side(d_total, c_total), reason)


def _give_up(log: Log, seat: int, command: Command) -> None:
    state = log.state
    require(
        state.phase == RAISE,
        "cannot_give_up",
        "You can give up only when the challenger has matched or beaten your bid.",
    )
    require(seat == state.defender, "not_your_turn", "Only the defender can give up.")
    log.emit("battle_given_up", {"seat": seat})
    end_battle(log, CHALLENGER, "gave_up")


# ---- the last round ----------------------------------------------------------------------
def _end_last_turn(log: Log, seat: int, command: Command) -> None:
    state = log.state
    require(state.phase == LAST_ROUND, "not_last_round", "The source is not exhausted yet.")
    require(not state.last_turn_done[seat], "last_turn_over", "You have ended your last turn.")
    log.emit("last_turn_ended", {"seat": seat})
    if all(log.state.last_turn_done):
        game_ended(log, "source_exhausted")


_HANDLERS: dict[str, Callable[[Log, int, Command], None]] = {
    "challenge": _challenge,
    "bid": _bid,
    "give_up": _give_up,
    "lay_group": _lay_group,
    "return_group": _return_group,
    "lay_treasure": _lay_treasure,
    "return_treasure": _return_treasure,
    "lay_card": _lay_card,
    "return_card": _return_card,
    "keep_kingdom": _keep_kingdom,
    "end_last_turn": _end_last_turn,
}


def apply_command(
    state: KingdomCardsState, seat: int, command: Command, rng: random.Random | None = None
) -> list[Event]:
    """Validate ``command`` and fold its events into ``state`` (mutated) — the fast path.

    Raises IllegalCommand (and leaves ``state`` untouched) when the command is refused.
    No step of Kingdom Cards after setup is random, so ``rng`` is unused.
    """
    require(not state.finished, "game_over", "This game is over.")
    require(
        isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < state.players,
        "not_your_turn",
        "You have no seat at this table.",
    )
    kind = command_type(command, COMMANDS)
    log = Log(state)
    _HANDLERS[kind](log, seat, command)
    # DECISION: a defender with no card to bid loses at once; nothing is exchanged.
    if _defender_cannot_bid(log.state):
        end_battle(log, CHALLENGER, "no_card_to_bid")
    return log.events
