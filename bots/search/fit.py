"""Refitting the leaf models of Kingdom Builder and Kingdom Cards (``WEIGHTS`` in
``bots.search.kingdom_builder`` and ``bots.search.kingdom_cards``).

One level plays every seat of ``games`` two-player games (seeded ``seed``, ``seed + 1``,
...): medium by default, or a searching level on a budget of playouts, so that the model
learns from the positions of the search's own games (self-play) and the games replay
exactly. At each turn's start every seat's features against its strongest opponent are
recorded, labelled by whether the seat won the game. A logistic regression without
intercept (the features are leads, so a zero lead is an even chance) is fitted by
Newton's method. Run:

    python manage.py fit_leaf kingdom-builder --games 120 --seed 0
    python manage.py fit_leaf kingdom-builder --level hard --playouts 60 --games 200 --jobs 2

and paste the printed weights into the game's module with the command line beside them.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from multiprocessing import get_context
from typing import Any

from bots.search import kingdom_builder, kingdom_cards
from bots.search.budget import thinking_budget
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


# A searching level's budget while it plays the fit's games: playouts, not seconds, so the
# same seed gives the same games on any machine.
FIT_PLAYOUTS = 60


def samples(
    game: str,
    games: int,
    seed: int,
    level: str = "medium",
    playouts: int = FIT_PLAYOUTS,
    jobs: int = 1,
) -> tuple[list[Sequence[float]], list[float]]:
    """Features at each turn's start of ``level``-against-``level`` games, and who won;
    the games in ``jobs`` worker processes (1: in this process)."""
    one = partial(game_samples, game, level=level, playouts=playouts)
    seeds = range(seed, seed + games)
    xs: list[Sequence[float]] = []
    ys: list[float] = []
    with contextlib.ExitStack() as stack:
        if jobs > 1:
            # Spawned workers import only the engines and the bots: nothing inherited by fork.
            pool = ProcessPoolExecutor(max_workers=jobs, mp_context=get_context("spawn"))
            parts = stack.enter_context(pool).map(one, seeds)
        else:
            parts = map(one, seeds)
        for game_xs, game_ys in parts:
            xs += game_xs
            ys += game_ys
    return xs, ys


def game_samples(
    game: str, seed: int, level: str = "medium", playouts: int = FIT_PLAYOUTS
) -> tuple[list[Sequence[float]], list[float]]:
    """One game's features and labels (``samples``), seeded ``seed``."""
    ruleset = get_ruleset(game)
    strategy = get_strategy(game, level)
    rng = random.Random(seed)
    world = ruleset.fold(ruleset.setup(OPTIONS[game], 2, rng))
    rows: list[tuple[int, Sequence[float]]] = []
    turn = None
    with thinking_budget(seconds=None, playouts=playouts):
        while ruleset.outcome(world) is None:
            if TURN[game](world) != turn:
                turn = TURN[game](world)
                rows += [(s, FEATURES[game](world, s, 2)) for s in range(2)]
            acting = sorted(ruleset.to_act(world))
            actor = acting[0] if len(acting) == 1 else rng.choice(acting)
            command = strategy(ruleset, world, actor, rng)
            world = ruleset.fold(ruleset.decide(world, actor, command, rng), world)
    outcome = ruleset.outcome(world)
    winners = outcome.winners if outcome is not None else []
    ys = [1.0 / len(winners) if s in winners else 0.0 for s, _ in rows]
    return [x for _, x in rows], ys


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
