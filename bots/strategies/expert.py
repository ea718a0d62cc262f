"""The ``expert`` level of every game: information-set MCTS beyond the root
(``bots.search.expert``) on worlds sampled from the seat's own view, with the game's
knowledge of the ``hard`` level (the medium bot's ranking as each node's prior, the short
playout and fitted model at its leaves), within the thinking budget of the call. It plays
in ``manage.py arena`` only: no table offers it until it beats ``hard`` (docs/bots.md)."""

from __future__ import annotations

import random
from typing import Any

from bots.search import expert
from bots.search.budget import current_budget
from bots.search.ismcts import Knowledge
from bots.strategies import Strategy, register
from bots.strategies.hard import KNOWLEDGE
from games.rules.base import Command, Ruleset


def searching(knowledge: Knowledge) -> Strategy:
    def expert_level(ruleset: Ruleset, state: Any, seat: int, rng: random.Random) -> Command:
        """Expert: prior-guided ISMCTS on worlds sampled from this seat's view."""
        return expert.search(ruleset, state, seat, rng, current_budget(), knowledge).command

    return expert_level


for _game in ("kingdoms", "kingdom-builder", "kingdom-cards"):
    register(_game, "expert", searching(KNOWLEDGE.get(_game, Knowledge())))
