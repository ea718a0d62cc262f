"""Fast random playouts, for benchmarks and search bots.

``random_playout`` plays a state to its end in place through ``apply_command`` (no state
copies, no view building): the seats the game waits for choose a random battle command,
and no one makes optional kingdom changes (but an empty-handed defender takes cards back
from its kingdom at random: its only way to bid). Run it on ``determinize(state, seat, rng)``
when a bot must not see hidden cards.
"""

from __future__ import annotations

import random

from games.rules.kingdom_cards.decide import apply_command
from games.rules.kingdom_cards.legal import awaited, battle_commands, legal_commands
from games.rules.kingdom_cards.state import KingdomCardsState


def random_playout(state: KingdomCardsState, rng: random.Random) -> KingdomCardsState:
    """Play ``state`` (mutated) to the end with random battle choices; return it."""
    while not state.finished:
        seat = min(awaited(state))
        commands = battle_commands(state, seat) or legal_commands(state, seat)
        apply_command(state, seat, rng.choice(commands), rng)
    return state
