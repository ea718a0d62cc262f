"""The ``hard`` level of every game: Monte Carlo search on worlds sampled from the seat's
own view (``bots.search``), within the thinking budget of the call
(``bots.search.budget.thinking_budget``).

The three games bring their own knowledge (``bots.search.<game>``): the medium bot's
ranking of the root's commands and a fast playout valued by a model fitted on
medium-against-medium games; their root is searched by paired determinized Monte Carlo
(``pimc``). Any other ruleset with ``determinize`` gets SO-ISMCTS (``ismcts``) with random
playouts to the game's end.
"""

from __future__ import annotations

import random
from typing import Any

from bots.search import kingdom_builder, kingdom_cards, kingdoms, pimc
from bots.search.budget import current_budget
from bots.search.ismcts import Knowledge, search
from bots.strategies import Strategy, register
from games.rules.base import Command, Ruleset

KNOWLEDGE: dict[str, Knowledge] = {
    "kingdoms": kingdoms.KNOWLEDGE,
    "kingdom-builder": kingdom_builder.KNOWLEDGE,
    "kingdom-cards": kingdom_cards.KNOWLEDGE,
}


def searching(knowledge: Knowledge) -> Strategy:
    def hard(ruleset: Ruleset, state: Any, seat: int, rng: random.Random) -> Command:
        """Hard: Monte Carlo search on worlds sampled from this seat's view (paired
        determinized Monte Carlo at the root for our games, SO-ISMCTS otherwise)."""
        if knowledge.paired:
            return pimc.decide(ruleset, state, seat, rng, current_budget(), knowledge).command
        return search(ruleset, state, seat, rng, current_budget(), knowledge).command

    return hard


for _game in ("kingdoms", "kingdom-builder", "kingdom-cards"):
    register(_game, "hard", searching(KNOWLEDGE.get(_game, Knowledge())))
