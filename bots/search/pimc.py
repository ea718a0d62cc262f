"""Determinized Monte Carlo at the root (perfect-information Monte Carlo with paired worlds).

Each round samples one world from what the seat knows (``determinize`` of the canonical
world) and plays every candidate still in the race on its own copy of that world, each
followed by the game's playout seeded alike: the candidates are compared on the same
hidden cards and tiles (common random numbers), so a round's differences between them
say more than their separate results would. Successive rejection drops, at rounds
``first_cut``, twice that, four times that, ..., every candidate whose mean lags the
leader's by more than ``reject_z`` standard errors of the paired difference. At the end
the leader is chosen only if it beats the prior's favourite (the first candidate, e.g.
the medium bot's choice) by ``choose_z`` standard errors; otherwise the favourite stands,
so that noise alone rarely overturns the prior. The three come from the game's
``Knowledge.patience``.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any

from bots.search.budget import Budget
from bots.search.hidden import canonical_world, player_count
from bots.search.ismcts import Knowledge, key_of, outcome_rewards
from games.rules.base import Command, Ruleset


@dataclass
class Decision:
    command: Command
    playouts: int
    visits: dict[str, int]  # candidate key -> playouts
    values: dict[str, float]  # candidate key -> mean reward


class _Record:
    __slots__ = ("rewards",)

    def __init__(self) -> None:
        self.rewards: list[float] = []

    def mean(self) -> float:
        return sum(self.rewards) / len(self.rewards) if self.rewards else -math.inf


def _lags(leader: _Record, other: _Record, z: float) -> bool:
    """Whether ``other`` is behind ``leader`` by more than ``z`` paired standard errors."""
    n = min(len(leader.rewards), len(other.rewards))
    if n < 2:
        return False
    diffs = [a - b for a, b in zip(leader.rewards[:n], other.rewards[:n], strict=True)]
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean > z * math.sqrt(var / n) + 1e-9


def decide(
    ruleset: Ruleset,
    state: Any,
    seat: int,
    rng: random.Random,
    budget: Budget,
    knowledge: Knowledge,
) -> Decision:
    """The candidate with the best paired Monte Carlo value for ``seat``."""
    clock = budget.clock()
    legal = ruleset.bot_commands(state, seat)
    if not legal:
        raise LookupError(f"seat {seat} has no legal command")
    if len(legal) == 1:
        return Decision(legal[0], 0, {}, {})
    players = player_count(ruleset, state, seat)
    root = canonical_world(ruleset, state, seat)  # everything below sees only this
    if knowledge.candidates is not None:
        candidates = knowledge.candidates(ruleset, root, seat, legal, rng)
    else:
        candidates = list(legal)
        rng.shuffle(candidates)
    if len(candidates) == 1:
        return Decision(candidates[0], 0, {}, {})
    playout = knowledge.playout
    if playout is None:
        raise ValueError("paired Monte Carlo needs the game's playout")
    apply = getattr(ruleset, "apply", None)
    records = [_Record() for _ in candidates]
    alive = list(range(len(candidates)))
    patience = knowledge.patience
    rounds, cut = 0, patience.first_cut
    while clock.left() and len(alive) > 1:
        # Search runs only on rulesets with determinize (OptionalRulesetParts).
        world = ruleset.determinize(root, seat, rng)  # type: ignore[attr-defined]
        seed = rng.getrandbits(64)
        results = []
        for i in alive:
            # A playout that would end past the deadline is not started: the game's last
            # turns played out to the end (the expert's) take far longer than a short one.
            if not clock.left(clock.pace()):
                break
            copy = ruleset.copy_state(world)
            chance = random.Random(seed)
            if apply is not None:
                apply(copy, seat, candidates[i], chance)
            else:
                for event in ruleset.decide(copy, seat, candidates[i], chance):
                    copy = ruleset.evolve(copy, event)
            rewards = outcome_rewards(ruleset, copy, players)
            if rewards is None:
                rewards = playout(ruleset, copy, seat, players, chance)
            results.append((i, rewards[seat]))
            clock.spend()
        if len(results) < len(alive):
            break  # an unfinished round would pair nothing: leave it out
        for i, reward in results:
            records[i].rewards.append(reward)
        rounds += 1
        if rounds >= cut:
            cut *= 2
            leader = max(alive, key=lambda i: records[i].mean())
            alive = [
                i
                for i in alive
                if i == leader or not _lags(records[leader], records[i], patience.reject_z)
            ]
    best = max(range(len(candidates)), key=lambda i: (i in alive, records[i].mean()))
    if best != 0 and not _lags(records[best], records[0], patience.choose_z):
        best = 0
    return Decision(
        candidates[best],
        clock.playouts,
        {key_of(c): len(r.rewards) for c, r in zip(candidates, records, strict=True)},
        {key_of(c): r.mean() for c, r in zip(candidates, records, strict=True) if r.rewards},
    )
