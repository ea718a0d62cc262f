"""What the search knows of Kingdom Cards.

The root's candidates are the medium bot's choice first, then every other battle command
(a seat that is only tidying its kingdom does as the medium bot says: nothing there is
worth a search). A playout lets the medium bot play every seat for a few turns through
the engine's in-place ``apply``, then values the position: each seat's progress towards a
complete kingdom, the cards it holds and its bonus, against its strongest opponent,
through a logistic model fitted on 300 medium-against-medium games (the position at each
turn's start against the game's winner).
"""

from __future__ import annotations

import math
import random
from typing import Any

from bots.search.ismcts import Knowledge, Rewards, key_of
from bots.strategies.kingdom_cards import greedy
from games.rules.base import Command, Ruleset
from games.rules.kingdom_cards.cards import COLOUR, VALUE
from games.rules.kingdom_cards.legal import battle_commands

TURNS_AHEAD = 3
# Weights of: progress lead, lead in 1 / (1 + cards missing), cards held lead, bonus lead.
WEIGHTS = (0.095, 3.382, 0.135, 0.058)


def candidates(
    ruleset: Ruleset, world: Any, seat: int, legal: list[Command], rng: random.Random
) -> list[Command]:
    favourite = greedy(ruleset, world, seat, rng)
    battle = battle_commands(world, seat)
    if not battle:
        return [favourite]
    seen = {key_of(favourite)}
    ordered = [favourite]
    for command in battle:
        if key_of(command) not in seen:
            seen.add(key_of(command))
            ordered.append(command)
    return ordered


def progress(world: Any, seat: int) -> int:
    """Slots of the seat's best flag (0-9) its hand and kingdom can fill."""
    held = set()
    for card in world.hands[seat]:
        if COLOUR[card] is not None:
            held.add((COLOUR[card], VALUE[card]))
    for group in world.groups[seat]:
        for card in group or ():
            held.add((COLOUR[card], VALUE[card]))
    return sum(
        max(((c, p) in held) + ((c, p + 3) in held) + ((c, p + 6) in held) for c in "RYB")
        for p in (1, 2, 3)
    )


def value(world: Any, seat: int, players: int) -> Rewards:
    """Each seat's chance to win, by the fitted model against its strongest opponent."""
    reached = [progress(world, s) for s in range(players)]
    rewards = []
    for s in range(players):
        z = sum(w * f for w, f in zip(WEIGHTS, _leads(world, reached, s), strict=True))
        rewards.append(1.0 / (1.0 + math.exp(-z)))
    return rewards


def _leads(world: Any, reached: list[int], s: int) -> tuple[float, ...]:
    o = max((x for x in range(len(reached)) if x != s), key=lambda x: reached[x])
    return (
        reached[s] - reached[o],
        1 / (10 - reached[s]) - 1 / (10 - reached[o]),
        world.cards_held(s) - world.cards_held(o),
        world.bonus(s) - world.bonus(o),
    )


def features(world: Any, seat: int, players: int) -> tuple[float, ...]:
    """What the model weighs for ``seat`` against its strongest opponent (``bots.search.fit``)."""
    return _leads(world, [progress(world, s) for s in range(players)], seat)


def playout(ruleset: Ruleset, world: Any, seat: int, players: int, rng: random.Random) -> Rewards:
    """The medium bot plays every seat for ``TURNS_AHEAD`` turns; then the model."""
    last = world.turn + TURNS_AHEAD
    while not world.finished and world.turn < last:
        acting = sorted(ruleset.to_act(world))
        actor = acting[0] if len(acting) == 1 else rng.choice(acting)
        # Kingdom Cards' own fast path (decide and fold in one), beyond the contract.
        ruleset.apply(world, actor, greedy(ruleset, world, actor, rng), rng)  # type: ignore[attr-defined]
    outcome = ruleset.outcome(world)
    if outcome is not None:
        winners = outcome.winners
        return [1.0 / len(winners) if s in winners else 0.0 for s in range(players)]
    return value(world, seat, players)


KNOWLEDGE = Knowledge(candidates=candidates, playout=playout, paired=True)
