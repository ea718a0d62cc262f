"""Single-observer information-set Monte Carlo tree search (SO-ISMCTS).

The searching seat never looks at the real state: it takes one determinization in a
canonical order (``hidden.canonical_world``), and each iteration samples a world from it
with ``determinize(world, seat, rng)``. A tree node is an information set of the searching
seat: the commands played so far and what it saw of their facts (the events as redacted
for it), so a tile it drew or a card revealed opens a node of its own, while the other
seats' secrets never split a node. Every world offers only its legal commands, and UCB
counts availability instead of parent visits (Cowling, Powley & Whitehouse, 2012). From a
new node a playout runs on: a game's own fast one if it has one (to the end, or to a
horizon where a heuristic value stands in), else uniform random commands to the end.

Only the ruleset contract is used (``legal_commands``, ``decide``, ``evolve``, ``to_act``,
``outcome``, ``determinize``; ``apply`` when an engine has that fast path), so an engine's
new commands need no change here. What a game adds is ``Knowledge``.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from bots.search.budget import Budget
from bots.search.hidden import canonical_world, player_count
from games.rules.base import Command, Event, Ruleset

Rewards = list[float]
# (ruleset, world, searching seat, players, rng) -> each seat's reward in [0, 1]
Playout = Callable[[Ruleset, Any, int, int, random.Random], Rewards]
# (ruleset, root world, seat, legal commands, rng) -> the root's commands, best first
Candidates = Callable[[Ruleset, Any, int, list[Command], random.Random], list[Command]]

# UCB exploration for rewards in [0, 1].
EXPLORATION = 0.7
# A node opens its commands progressively: WIDEN_BASE * (visits + 1) ** WIDEN_POWER.
WIDEN_BASE, WIDEN_POWER = 2.0, 0.5
# A random playout that reaches this many commands stops and counts as a draw.
PLAYOUT_LIMIT = 5000


@dataclass(frozen=True)
class Patience:
    """How long the paired root search (``pimc``) keeps candidates in the race."""

    reject_z: float = 2.0  # a candidate this many standard errors behind the leader leaves
    choose_z: float = 1.0  # the leader must beat the favourite by this many to replace it
    first_cut: int = 4  # rounds before the first rejection


@dataclass(frozen=True)
class Knowledge:
    """A game's help for the search; every part is optional."""

    candidates: Candidates | None = None  # default: every legal command, shuffled
    playout: Playout | None = None  # default: uniform random commands to the game's end
    paired: bool = False  # search the root by paired Monte Carlo (``pimc``), not a tree
    patience: Patience = Patience()


class Edge:
    """A command from an information set, with what became of it."""

    __slots__ = ("seat", "visits", "available", "reward", "outcomes")

    def __init__(self, seat: int) -> None:
        self.seat = seat  # who plays it
        self.visits = 0
        self.available = 1
        self.reward = 0.0
        self.outcomes: dict[str, Node] = {}  # what the searcher saw -> next node


class Node:
    __slots__ = ("visits", "edges", "prior")

    def __init__(self) -> None:
        self.visits = 0
        self.edges: dict[str, Edge] = {}
        self.prior: dict[str, int] | None = None  # a guided search's ranking: key -> rank


@dataclass
class Decision:
    command: Command
    playouts: int
    visits: dict[str, int]  # root command key -> visits
    values: dict[str, float]  # root command key -> mean reward


def key_of(command: Command) -> str:
    return repr(sorted(command.items()))


def outcome_rewards(ruleset: Ruleset, world: Any, players: int) -> Rewards | None:
    outcome = ruleset.outcome(world)
    if outcome is None:
        return None
    winners = outcome.winners
    return [1.0 / len(winners) if s in winners else 0.0 for s in range(players)]


class Search:
    """One decision of ``seat`` by SO-ISMCTS within ``budget``.

    A guided search (``bots.search.expert``) changes only the parts: which commands a node
    offers and in which order (``_choices``), which unopened one it opens (``_opening``),
    the constants, and which root command it finally chooses (``_chosen``)."""

    exploration = EXPLORATION
    widen_base = WIDEN_BASE

    def __init__(
        self,
        ruleset: Ruleset,
        state: Any,
        seat: int,
        rng: random.Random,
        budget: Budget,
        knowledge: Knowledge,
    ) -> None:
        self.clock = budget.clock()
        self.ruleset = ruleset
        self.seat = seat
        self.rng = rng
        self.knowledge = knowledge
        self.apply = getattr(ruleset, "apply", None)  # an engine's in-place fast path
        legal = ruleset.bot_commands(state, seat)
        if not legal:
            raise LookupError(f"seat {seat} has no legal command")
        self.players = player_count(ruleset, state, seat)
        # From here on the search sees only worlds sampled from what ``seat`` may know.
        self.root_world = canonical_world(ruleset, state, seat)
        if knowledge.candidates is not None and len(legal) > 1:
            self.order = knowledge.candidates(ruleset, self.root_world, seat, legal, rng)
        else:
            self.order = list(legal)
            rng.shuffle(self.order)
        self.root = Node()

    def run(self) -> Decision:
        by_key = {key_of(c): c for c in self.order}
        if len(by_key) > 1:
            while self.clock.left():
                self.iterate()
                self.clock.spend()
        edges = self.root.edges
        return Decision(
            by_key[self._chosen(list(by_key), edges)],
            self.clock.playouts,
            {k: e.visits for k, e in edges.items()},
            {k: e.reward / e.visits for k, e in edges.items() if e.visits},
        )

    def _chosen(self, keys: list[str], edges: dict[str, Edge]) -> str:
        """The root command to play: the most visited (then the best rewarded)."""
        return max(
            (k for k in keys if k in edges),
            key=lambda k: (edges[k].visits, edges[k].reward),
            default=keys[0],
        )

    def iterate(self) -> None:
        # Search runs only on rulesets with determinize (OptionalRulesetParts).
        world = self.ruleset.determinize(self.root_world, self.seat, self.rng)  # type: ignore[attr-defined]
        node, path = self.root, []
        while self.ruleset.outcome(world) is None:
            seat, commands = self._choices(world, node)
            if not commands:
                break
            keys = [key_of(c) for c in commands]
            known = [k for k in keys if k in node.edges]
            for k in known:
                node.edges[k].available += 1
            node.visits += 1
            width = self.widen_base * node.visits**WIDEN_POWER
            if len(known) < len(keys) and len(known) < width:
                i = self._opening(node, [i for i, k in enumerate(keys) if k not in node.edges])
                edge = node.edges[keys[i]] = Edge(seat)
                world, _ = self._play(world, seat, commands[i])
                path.append(edge)
                break
            k = self._select(node, known)
            edge = node.edges[k]
            world, events = self._play(world, seat, commands[keys.index(k)])
            path.append(edge)
            node = edge.outcomes.setdefault(self._seen(events), Node())
        if not self.clock.left():
            return  # out of time before the leaf's playout: this iteration counts nothing
        rewards = self._playout(world)
        for edge in path:
            edge.visits += 1
            edge.reward += rewards[edge.seat]

    # ---- parts ---------------------------------------------------------------------------
    def _choices(self, world: Any, node: Node) -> tuple[int, list[Command]]:
        if node is self.root:
            return self.seat, self.order
        acting = sorted(self.ruleset.to_act(world))
        if not acting:
            return -1, []
        seat = acting[0] if len(acting) == 1 else self.rng.choice(acting)
        return seat, self.ruleset.legal_commands(world, seat)

    def _opening(self, node: Node, fresh: list[int]) -> int:
        """Which unopened command a node opens: the root its candidates best first, other
        nodes one at random."""
        return fresh[0] if node is self.root else self.rng.choice(fresh)

    def _select(self, node: Node, keys: Sequence[str]) -> str:
        best, best_score = keys[0], -math.inf
        for k in keys:
            edge = node.edges[k]
            if not edge.visits:
                return k  # opened by another world, never played through: try it
            score = edge.reward / edge.visits + self.exploration * math.sqrt(
                math.log(edge.available) / edge.visits
            )
            if score > best_score:
                best, best_score = k, score
        return best

    def _play(self, world: Any, seat: int, command: Command) -> tuple[Any, list[Event]]:
        """Play ``command`` on ``world`` (ours to change): the world after, and the facts."""
        if self.apply is not None:
            return world, self.apply(world, seat, command, self.rng)
        events = self.ruleset.decide(world, seat, command, self.rng)
        for event in events:
            world = self.ruleset.evolve(world, event)
        return world, events

    def _seen(self, events: list[Event]) -> str:
        """What the searching seat observed of these facts: its information set's key."""
        seen = [(e.type, e.seen_by(self.seat)) for e in events]
        return json.dumps(seen, sort_keys=True, separators=(",", ":"), default=str)

    def _playout(self, world: Any) -> Rewards:
        rewards = outcome_rewards(self.ruleset, world, self.players)
        if rewards is not None:
            return rewards
        playout = self.knowledge.playout or random_playout
        return playout(self.ruleset, world, self.seat, self.players, self.rng)


def random_playout(
    ruleset: Ruleset, world: Any, seat: int, players: int, rng: random.Random
) -> Rewards:
    """Uniformly random commands, from a random acting seat, to the game's end."""
    apply = getattr(ruleset, "apply", None)
    for _ in range(PLAYOUT_LIMIT):
        rewards = outcome_rewards(ruleset, world, players)
        if rewards is not None:
            return rewards
        acting = sorted(ruleset.to_act(world))
        if not acting:
            break
        actor = acting[0] if len(acting) == 1 else rng.choice(acting)
        command = rng.choice(ruleset.legal_commands(world, actor))
        if apply is not None:
            apply(world, actor, command, rng)
        else:
            for event in ruleset.decide(world, actor, command, rng):
                world = ruleset.evolve(world, event)
    return [1.0 / players] * players


def search(
    ruleset: Ruleset,
    state: Any,
    seat: int,
    rng: random.Random,
    budget: Budget,
    knowledge: Knowledge | None = None,
) -> Decision:
    """The command SO-ISMCTS chooses for ``seat`` within ``budget``."""
    return Search(ruleset, state, seat, rng, budget, knowledge or Knowledge()).run()
