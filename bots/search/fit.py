"""Refitting the leaf models of Kingdom Builder and Kingdom Cards (``WEIGHTS`` in
``bots.search.kingdom_builder`` and ``bots.search.kingdom_cards``).

Medium plays every seat of ``games`` two-player games (seeded ``seed``, ``seed + 1``, ...);
at each turn's start every seat's features against its strongest opponent are recorded,
labelled by whether the seat won the game. A logistic regression without intercept (the
features are leads, so a zero lead is an even chance) is fitted by Newton's method. Run:

    python manage.py fit_leaf kingdom-builder --games 120 --seed 0

and paste the printed weights into the game's module with the command line beside them.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from bots.search import kingdom_builder, kingdom_cards
from bots.strategies import get_strategy
from games.rules import get_ruleset

# (world, seat, players) -> the features of ``seat`` against its strongest opponent
Features = Callable[[Any, int, int], Sequence[float]]
OPTIONS = {"kingdom-builder": {}, "kingdom-cards": {"allow_two_players": True}}
FEATURES: dict[str, Features] = {
    "kingdom-builder": kingdom_builder.features,
    "kingdom-cards": kingdom_cards.features,
}
TURN = {
    "kingdom-builder": lambda world: sum(world.turns),
    "kingdom-cards": lambda world: world.turn,
}


def samples(game: str, games: int, seed: int) -> tuple[list[Sequence[float]], list[float]]:
    """Features at each turn's start of medium-against-medium games, and who won."""
    ruleset = get_ruleset(game)
    medium = get_strategy(game, "medium")
    xs: list[Sequence[float]] = []
    ys: list[float] = []
    for n in range(games):
        rng = random.Random(seed + n)
        world = ruleset.fold(ruleset.setup(OPTIONS[game], 2, rng))
        rows: list[tuple[int, Sequence[float]]] = []
        turn = None
        while ruleset.outcome(world) is None:
            if TURN[game](world) != turn:
                turn = TURN[game](world)
                rows += [(s, FEATURES[game](world, s, 2)) for s in range(2)]
            acting = sorted(ruleset.to_act(world))
            actor = acting[0] if len(acting) == 1 else rng.choice(acting)
            command = medium(ruleset, world, actor, rng)
            world = ruleset.fold(ruleset.decide(world, actor, command, rng), world)
        outcome = ruleset.outcome(world)
        winners = outcome.winners if outcome is not None else []
        for s, x in rows:
            xs.append(x)
            ys.append(1.0 / len(winners) if s in winners else 0.0)
    return xs, ys


def logistic(xs: Sequence[Sequence[float]], ys: Sequence[float], steps: int = 50) -> list[float]:
    """Weights of a logistic regression without intercept (Newton's method, a little
    ridge so that a feature that never varies keeps weight 0)."""
    import numpy as np  # only the fit needs it

    x = np.asarray(xs, dtype=float)
    y = np.asarray(ys, dtype=float)
    w = np.zeros(x.shape[1])
    ridge = 1e-3 * np.eye(x.shape[1])
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-(x @ w)))
        gradient = x.T @ (y - p) - ridge @ w
        hessian = (x * (p * (1 - p))[:, None]).T @ x + ridge
        step = np.linalg.solve(hessian, gradient)
        w += step
        if np.max(np.abs(step)) < 1e-9:
            break
    return [round(float(v), 4) for v in w]
