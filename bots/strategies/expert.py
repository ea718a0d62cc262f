"""The ``expert`` level of every game, within the thinking budget of the call.

Kingdom Builder and Kingdoms: the paired search of ``hard`` (``bots.search.pimc``) with
playouts that look further: Kingdom Builder's run to the game's real end in its last turns
instead of stopping at the model (at two seats; beyond, hard's playouts, which placed
better), Kingdoms' play five turns instead of three (``EXPERT_KNOWLEDGE`` of
``bots.search.kingdom_builder`` and ``bots.search.kingdoms``).
Kingdom Cards: information-set MCTS beyond the root (``bots.search.expert``) on worlds
sampled from the seat's own view, with the game's knowledge of the ``hard`` level (the
medium bot's ranking as each node's prior, the short playout and fitted model at its
leaves) at three seats; at two and four or more, where the tree placed behind ``hard``'s
paired search, that search. The tables offer it beside ``hard``; how far it is ahead of
``hard`` in each game is measured in docs/bots.md."""

from __future__ import annotations

import random
from typing import Any

from bots.search import expert, kingdom_builder, kingdoms, pimc
from bots.search.budget import current_budget
from bots.search.hidden import player_count
from bots.search.ismcts import Knowledge
from bots.strategies import Strategy, register
from bots.strategies.hard import KNOWLEDGE
from games.rules.base import Command, Ruleset


def paired(knowledge: Knowledge, more_seats: Knowledge | None = None) -> Strategy:
    def expert_level(ruleset: Ruleset, state: Any, seat: int, rng: random.Random) -> Command:
        """Expert: paired Monte Carlo with playouts that look further than hard's; beyond
        two seats with ``more_seats``' playouts where given."""
        chosen = knowledge
        if more_seats is not None and player_count(ruleset, state, seat) > 2:
            chosen = more_seats
        return pimc.decide(ruleset, state, seat, rng, current_budget(), chosen).command

    return expert_level


def tree(knowledge: Knowledge, seats: frozenset[int]) -> Strategy:
    def expert_level(ruleset: Ruleset, state: Any, seat: int, rng: random.Random) -> Command:
        """Expert: prior-guided ISMCTS on worlds sampled from this seat's view at the
        counts of ``seats``; at the others the paired search, which placed better there."""
        budget = current_budget()
        if player_count(ruleset, state, seat) not in seats:
            return pimc.decide(ruleset, state, seat, rng, budget, knowledge).command
        return expert.search(ruleset, state, seat, rng, budget, knowledge).command

    return expert_level


# Kingdom Builder's last turns played out pay at two seats only: at three, hard's playouts
# placed 1.65 against their 1.91 over 120 games (docs/bots.md), so there the expert is hard.
register(
    "kingdom-builder",
    "expert",
    paired(kingdom_builder.EXPERT_KNOWLEDGE, more_seats=KNOWLEDGE["kingdom-builder"]),
)
register("kingdoms", "expert", paired(kingdoms.EXPERT_KNOWLEDGE))
# Kingdom Cards' tree against hard's paired search, 0.5 s a move: 28.7% of 40 games at two
# seats (0.2 s), level at three (1.92 against 1.83 over 120 games), behind at four (2.21
# against 1.75 over 48); so the tree plays three seats only (docs/bots.md).
register("kingdom-cards", "expert", tree(KNOWLEDGE["kingdom-cards"], seats=frozenset({3})))
