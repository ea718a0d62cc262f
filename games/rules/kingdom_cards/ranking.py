"""The final ranking: complete kingdoms win (sharing first place), then the highest bonus,
then the most cards held (hand plus kingdom)."""

from __future__ import annotations

from games.rules.base import Outcome, rank_by_score
from games.rules.kingdom_cards.state import KingdomCardsState


def ranking_key(state: KingdomCardsState, seat: int) -> tuple[int, int, int]:
    """(complete, bonus, cards): players who complete at the same moment share the win
    whatever their bonus, so a complete kingdom's bonus and cards do not count."""
    if seat in state.completed:
        return (1, 0, 0)
    return (0, state.bonus(seat), state.cards_held(seat))


def final_outcome(state: KingdomCardsState) -> Outcome:
    """The outcome of a finished game. ``scores`` are the bonuses in half-points; the
    ranking also weighs completion and cards held (see ``breakdown``)."""
    keys = {s: ranking_key(state, s) for s in state.seats}
    breakdown = {
        s: {
            "complete": int(s in state.completed),
            "bonus_halves": state.bonus(s),
            "cards_held": state.cards_held(s),
        }
        for s in state.seats
    }
    scores = {s: state.bonus(s) for s in state.seats}
    return Outcome(scores=scores, ranking=rank_by_score(keys), breakdown=breakdown)
