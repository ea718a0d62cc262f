"""What the search knows of Kingdom Builder.

The root's candidates are the medium bot's best commands (its choice first). A playout
lets the medium bot finish the seat's turn (``TURNS_AHEAD`` turns: 1 ends the playout
when the next turn starts), then values the position: for each seat against its
strongest opponent, its gold as if the game ended now, weighted by how far the game has
gone, the location tiles it holds and the settlements it has left, through a logistic
model fitted on 120 medium-against-medium games (the position at each turn's start
against the winner). The search so plans a whole turn (three settlements and the tiles)
where the medium bot takes one settlement at a time. Only the ruleset contract and the
medium bot's judge of public facts are used, so the expansions' commands are played by
the medium bot's rules for them.
"""

from __future__ import annotations

import math
import random
from typing import Any

from bots.search.ismcts import Knowledge, Rewards
from bots.strategies.kingdom_builder import Judge, greedy, scored_commands
from games.rules.base import Command, Ruleset
from games.rules.kingdom_builder.state import SETTLEMENTS_EACH

ROOT_CANDIDATES = 6
TURNS_AHEAD = 1
# The expert's playouts run to the game's end once a seat has this many settlements left.
ENDGAME_SETTLEMENTS = 9
# Weights of: gold lead, tiles held lead, settlements left lead, gold lead x progress.
WEIGHTS = (-0.015, 0.4395, 0.0532, 0.2907)


def candidates(
    ruleset: Ruleset, world: Any, seat: int, legal: list[Command], rng: random.Random
) -> list[Command]:
    """The medium bot's choice first, then its next best commands."""
    scored = scored_commands(ruleset, world, seat)
    favourite = greedy(ruleset, world, seat, rng)
    ranked = sorted(scored, key=lambda pair: pair[0], reverse=True)
    ordered = [favourite] + [c for _, c in ranked if c != favourite]
    return ordered[:ROOT_CANDIDATES]


def _leads(
    gold: list[float], tiles: list[int], left: list[int], progress: float, s: int
) -> tuple[float, ...]:
    o = max((x for x in range(len(gold)) if x != s), key=lambda x: gold[x])
    lead = gold[s] - gold[o]
    return (lead, tiles[s] - tiles[o], left[s] - left[o], lead * progress)


def _parts(world: Any, players: int) -> tuple[list[float], list[int], list[int], float]:
    gold = [Judge(world, s).base for s in range(players)]
    tiles = [len(world.held[s]) for s in range(players)]
    left = list(world.supply)
    return gold, tiles, left, 1 - min(left) / SETTLEMENTS_EACH


def features(world: Any, seat: int, players: int) -> tuple[float, ...]:
    """What the model weighs for ``seat`` against its strongest opponent (``bots.search.fit``)."""
    return _leads(*_parts(world, players), seat)


def value(world: Any, players: int) -> Rewards:
    parts = _parts(world, players)
    rewards = []
    for s in range(players):
        z = sum(w * f for w, f in zip(WEIGHTS, _leads(*parts, s), strict=True))
        rewards.append(1.0 / (1.0 + math.exp(-z)))
    return rewards


def playout(
    ruleset: Ruleset,
    world: Any,
    seat: int,
    players: int,
    rng: random.Random,
    turns_ahead: int | None = TURNS_AHEAD,
) -> Rewards:
    """The medium bot plays on until ``turns_ahead`` more turns have started (None: to the
    game's end); then the model values the position, or the game's result if it ended."""
    last = None if turns_ahead is None else sum(world.turns) + turns_ahead
    while ruleset.outcome(world) is None and (last is None or sum(world.turns) < last):
        (actor,) = ruleset.to_act(world)
        for event in ruleset.decide(world, actor, greedy(ruleset, world, actor, rng), rng):
            world = ruleset.evolve(world, event)
    outcome = ruleset.outcome(world)
    if outcome is not None:
        winners = outcome.winners
        return [1.0 / len(winners) if s in winners else 0.0 for s in range(players)]
    return value(world, players)


def expert_playout(
    ruleset: Ruleset, world: Any, seat: int, players: int, rng: random.Random
) -> Rewards:
    """As ``playout``, but once a seat has ``ENDGAME_SETTLEMENTS`` or fewer left (about
    three turns from the end) the medium bot plays every seat to the end, so the game's own
    result values the position instead of the model."""
    endgame = min(world.supply) <= ENDGAME_SETTLEMENTS
    return playout(ruleset, world, seat, players, rng, None if endgame else TURNS_AHEAD)


KNOWLEDGE = Knowledge(candidates=candidates, playout=playout, paired=True)
# The expert searches as hard does, but plays the last turns out to the real result.
EXPERT_KNOWLEDGE = Knowledge(candidates=candidates, playout=expert_playout, paired=True)
