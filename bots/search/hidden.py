"""The searching seat's starting world: a determinization that depends on its view only.

``determinize(state, seat, rng)`` re-deals what ``seat`` cannot see, but an engine may
shuffle the unseen cards starting from their true order, so two states that differ only
in another seat's secrets would give different samples for the same RNG. Determinizing
once with ``_SortingRandom``, whose shuffle sorts, deals the unseen cards in sorted order
instead: a world that is a function of what ``seat`` knows. Sampling from there with the
bot's own RNG then yields the same worlds whatever the secrets were.
"""

from __future__ import annotations

import random
from typing import Any

from games.rules.base import Ruleset


class _SortingRandom(random.Random):
    """A Random whose ``shuffle`` sorts (by type, then text) and which draws from a fixed
    seed otherwise, so a determinization made with it forgets the true order."""

    def __init__(self) -> None:
        super().__init__(0)

    def shuffle(self, x: list[Any]) -> None:  # type: ignore[override]
        x.sort(key=lambda item: (type(item).__name__, repr(item)))


def canonical_world(ruleset: Ruleset, state: Any, seat: int) -> Any:
    """A copy of ``state`` whose hidden parts are re-dealt in sorted order for ``seat``."""
    determinize = getattr(ruleset, "determinize", None)
    if determinize is None:
        raise TypeError(f"{ruleset.key} has no determinize: a search bot cannot play it")
    return determinize(state, seat, _SortingRandom())


def player_count(ruleset: Ruleset, state: Any, seat: int) -> int:
    """The number of seats, from the seat's view (an int or one entry per player)."""
    players = ruleset.view(state, seat).get("players")
    if isinstance(players, int):
        return players
    if isinstance(players, list):
        return len(players)
    raise ValueError(f"{ruleset.key}'s view does not say how many players there are")
