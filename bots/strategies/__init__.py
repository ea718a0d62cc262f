"""Bot strategies: pure functions ``(ruleset, state, seat, rng) -> command``.

A strategy decides from what its seat may know. Each game module registers its own
levels; ``random`` (easy) works for every game because it only needs ``legal_commands``.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from typing import Any

from games.rules.base import Command, Ruleset

Strategy = Callable[[Ruleset, Any, int, random.Random], Command]

# The tables offer every level (games.services.BOT_LEVELS); hard and expert search for
# the table's thinking time (games.services.lobby.THINKING_LEVELS).
LEVELS = ("easy", "medium", "hard", "expert")
_STRATEGIES: dict[tuple[str, str], Strategy] = {}


def random_legal(ruleset: Ruleset, state: Any, seat: int, rng: random.Random) -> Command:
    """Easy: any legal command, uniformly."""
    commands = ruleset.bot_commands(state, seat)
    if not commands:
        raise LookupError(f"seat {seat} has no legal command")
    return rng.choice(commands)


def register(game: str, level: str, strategy: Strategy) -> Strategy:
    _STRATEGIES[(game, level)] = strategy
    return strategy


def get_strategy(game: str, level: str) -> Strategy:
    for module in ("kingdoms", "kingdom_builder", "kingdom_cards", "hard", "expert"):
        try:
            importlib.import_module(f"bots.strategies.{module}")
        except ModuleNotFoundError as exc:
            if exc.name != f"bots.strategies.{module}":
                raise
    if level == "easy":
        return _STRATEGIES.get((game, level), random_legal)
    # A level a game has not implemented yet falls back to the best one below it.
    for candidate in LEVELS[LEVELS.index(level) :: -1]:
        if (game, candidate) in _STRATEGIES:
            return _STRATEGIES[(game, candidate)]
    return random_legal
