"""What leaves the engine: the per-seat view, the move log in words, and determinization.

Hidden: every hand but the viewer's own (others see its size) and the source's order.
Public: the centre card, the kingdoms, the bids, the source's size.
"""

from __future__ import annotations

import random
from typing import Any

from games.rules.kingdom_cards.battle import (
    BATTLE_PHASES,
    challenger_total,
    defender_total,
    first_card_counts,
)
from games.rules.kingdom_cards.cards import TIER_ROLE, card_name, sort_cards
from games.rules.kingdom_cards.kingdom import is_complete, kingdom_flag
from games.rules.kingdom_cards.legal import awaited, to_act
from games.rules.kingdom_cards.ranking import final_outcome
from games.rules.kingdom_cards.state import KingdomCardsState, copy_state


def _kingdom(state: KingdomCardsState, seat: int) -> dict[str, Any]:
    groups = state.groups[seat]
    return {
        "seat": seat,
        "groups": [None if g is None else list(g) for g in groups],
        "treasures": list(state.treasures[seat]),
        "flag": kingdom_flag(groups),
        "bonus_halves": state.bonus(seat),
        "complete": is_complete(groups),
    }


def _battle(state: KingdomCardsState) -> dict[str, Any] | None:
    if state.phase not in BATTLE_PHASES or state.defender is None:
        return None
    challenger, defender = state.challenger, state.defender
    return {
        "step": state.phase,
        "challenger": challenger,
        "defender": defender,
        "defender_bids": list(state.defender_bids),
        "challenger_bids": list(state.challenger_bids),
        "defender_total_halves": defender_total(state.defender_bids, state.bonus(defender)),
        "challenger_total_halves": challenger_total(state.challenger_bids, state.bonus(challenger)),
        "first_card_counts": first_card_counts(state.challenger_bids),
        "locked": state.phase != "defend",
    }


def view(state: KingdomCardsState, seat: int | None) -> dict[str, Any]:
    own = seat if isinstance(seat, int) and 0 <= seat < state.players else None
    outcome = final_outcome(state).as_json() if state.finished else None
    return {
        "game": "kingdom-cards",
        "seat": own,
        "phase": state.phase,
        "finished": state.finished,
        "to_act": sorted(to_act(state)),
        "awaiting": sorted(awaited(state)),
        "outcome": outcome,
        "players": state.players,
        "options": dict(state.options),
        "turn": state.turn,
        "challenger": state.challenger,
        "defender": state.defender,
        "centre": state.centre,
        "source_size": len(state.source),
        "hand": list(state.hands[own]) if own is not None else None,
        "hand_sizes": [len(h) for h in state.hands],
        "cards_held": [state.cards_held(s) for s in state.seats],
        "kingdoms": [_kingdom(state, s) for s in state.seats],
        "battle": _battle(state),
        "locked": [s for s in state.seats if state.locked(s)],
        "changes_left": list(state.changes_left),
        "last_turn_done": list(state.last_turn_done),
        "completed": list(state.completed),
        "end_reason": state.end_reason,
    }


# ---- the move log ----------------------------------------------------------------------
def _name(names: dict[Any, str], seat: Any) -> str:
    if seat is None:
        return "nobody"
    return names.get(seat) or names.get(str(seat)) or f"Seat {seat}"


def _cards(cards: list[str]) -> str:
    return ", ".join(card_name(c) for c in cards)


def _halves(halves: int) -> str:
    whole, half = divmod(int(halves), 2)
    return f"{whole}½" if half else str(whole)


def describe_event(event_type: str, data: dict[str, Any], names: dict[Any, str]) -> str:
    who = _name(names, data.get("seat"))
    if event_type == "cards_dealt":
        hand = data.get("hand")
        mine = f" Your hand: {_cards(hand)}." if hand else ""
        return f"{data['players']} players were dealt 9 cards each.{mine}"
    if event_type == "card_drawn":
        return f"{who} drew {card_name(data['card'])} into the centre."
    if event_type in ("group_laid", "group_returned"):
        role = TIER_ROLE.get(data["tier"], "group")
        verb = "laid" if event_type == "group_laid" else "took back"
        how = " (automatically)" if data.get("auto") else ""
        article = "an" if role[0] in "aeiou" else "a"
        return f"{who} {verb} {article} {role}{how}: {_cards(data['cards'])}."
    if event_type == "card_laid":
        return f"{who} laid {card_name(data['card'])} in their kingdom."
    if event_type == "card_returned":
        return f"{who} took {card_name(data['card'])} back from their kingdom."
    if event_type == "incomplete_groups_returned":
        return f"{who}'s incomplete groups went back to the hand: {_cards(data['cards'])}."
    if event_type == "treasure_laid":
        return f"{who} laid a Treasure in their kingdom."
    if event_type == "treasure_returned":
        return f"{who} took a Treasure back from their kingdom."
    if event_type == "kingdom_kept":
        return f"{who} keeps their kingdom as it is this turn."
    if event_type == "opponent_challenged":
        return f"{who} challenged {_name(names, data['defender'])}."
    if event_type == "card_bid":
        card, total = card_name(data["card"]), _halves(data["total_halves"])
        role = data["role"]
        if role == "attack":
            return f"{who} bid {card}: attack {total}."
        if role == "counterattack":
            return f"{who} counterattacked with {card}: attack {total}."
        if role == "raise":
            return f"{who} raised with {card}: attack {total}."
        if data.get("first_card_counts", True):
            return f"{who} added {card} of the same colour: attack {total}."
        return f"{who} offered {card}; the first card no longer counts: attack {total}."
    if event_type == "battle_given_up":
        return f"{who} gave up the battle."
    if event_type == "battle_won":
        card = card_name(data["card"]) if data.get("card") else "nothing"
        reason = data["reason"].replace("_", " ")
        return f"{_name(names, data['winner'])} won the battle ({reason}) and takes {card}."
    if event_type == "bids_exchanged":
        return (
            f"{_name(names, data['challenger'])} and {_name(names, data['defender'])} "
            "took each other's bid cards."
        )
    if event_type == "turn_passed":
        return f"Turn {data['turn']}: {who} is the challenger."
    if event_type == "last_round_started":
        return "The source is exhausted: everyone has one last turn."
    if event_type == "last_turn_ended":
        return f"{who} ended their last turn."
    if event_type == "kingdom_completed":
        seats = " and ".join(_name(names, s) for s in data["seats"])
        # The win is the service's to declare (result_declared): a seat whose player
        # resigned ranks last even when its bot completes the kingdom.
        return f"{seats} completed a kingdom, which ends the game."
    if event_type == "game_ended":
        # The table's result line announces the end and the winner.
        if data.get("reason") == "source_exhausted":
            return "The last round is over: the kingdoms are counted."
        return "The kingdoms are counted."
    return event_type.replace("_", " ")


# ---- determinization --------------------------------------------------------------------
def determinize(
    state: KingdomCardsState, seat: int | None, rng: random.Random
) -> KingdomCardsState:
    """A copy in which the cards ``seat`` cannot see (other hands, the source) are dealt
    again at random, keeping every hand's size and the source's size."""
    copy = copy_state(state)
    others = [s for s in copy.seats if s != seat]
    hidden = list(copy.source)
    for s in others:
        hidden.extend(copy.hands[s])
    hidden = sort_cards(hidden)  # forget the true order before shuffling
    rng.shuffle(hidden)
    for s in others:
        size = len(copy.hands[s])
        copy.hands[s] = sort_cards(hidden[:size])
        hidden = hidden[size:]
    copy.source = hidden
    return copy
