"""The ``expert`` search: information-set MCTS that looks past the root, guided by the
game's knowledge.

It is SO-ISMCTS (``ismcts.Search``: worlds sampled with ``determinize`` from the
canonical world of the seat's own view, nodes keyed by what the seat saw) with three
changes that make it use what the ``hard`` level knows at every depth:

- every node, whoever acts there, orders its commands by the game's ``candidates`` (the
  medium bot's ranking, computed once per node on the world that first reached it) and
  opens them best first under progressive widening, so the large move sets of Kingdom
  Builder and Kingdoms are searched through their few plausible commands;
- a leaf is valued by the game's short playout and fitted model (``Knowledge.playout``),
  not by random commands to the end;
- the root's choice is the most visited command, but the prior's favourite stands unless
  another was visited clearly more (``OVERTURN``), as the paired search keeps it.
"""

from __future__ import annotations

import math
import random
from typing import Any

from bots.search.budget import Budget
from bots.search.ismcts import Decision, Edge, Knowledge, Search, key_of
from games.rules.base import Command, Ruleset

# UCB exploration: smaller than plain ISMCTS's, since the model's values lie close together.
EXPLORATION = 0.35
# Progressive widening: a node opens WIDEN_BASE * (visits + 1) ** WIDEN_POWER commands.
WIDEN_BASE, WIDEN_POWER = 1.5, 0.5
# Another root command replaces the favourite only with this share more visits.
OVERTURN = 1.25


class _Node:
    __slots__ = ("visits", "edges", "prior")

    def __init__(self) -> None:
        self.visits = 0
        self.edges: dict[str, Edge] = {}
        self.prior: dict[str, int] | None = None  # command key -> rank, best first


class ExpertSearch(Search):
    """One decision of ``seat`` by prior-guided ISMCTS within ``budget``."""

    def __init__(
        self,
        ruleset: Ruleset,
        state: Any,
        seat: int,
        rng: random.Random,
        budget: Budget,
        knowledge: Knowledge,
    ) -> None:
        super().__init__(ruleset, state, seat, rng, budget, knowledge)
        self.tree = _Node()
        self.tree.prior = {key_of(c): i for i, c in enumerate(self.order)}

    def run(self) -> Decision:
        by_key = {key_of(c): c for c in self.order}
        if len(by_key) > 1:
            while self.clock.left():
                self.descend()
                self.clock.spend()
        edges = self.tree.edges
        favourite = key_of(self.order[0])
        best = max(
            (k for k in by_key if k in edges),
            key=lambda k: (edges[k].visits, edges[k].reward),
            default=favourite,
        )
        if favourite in edges and edges[best].visits < OVERTURN * edges[favourite].visits:
            best = favourite
        return Decision(
            by_key[best],
            self.clock.playouts,
            {k: e.visits for k, e in edges.items()},
            {k: e.reward / e.visits for k, e in edges.items() if e.visits},
        )

    def descend(self) -> None:
        # Search runs only on rulesets with determinize (OptionalRulesetParts).
        world = self.ruleset.determinize(self.root_world, self.seat, self.rng)  # type: ignore[attr-defined]
        node, path = self.tree, []
        while self.ruleset.outcome(world) is None:
            seat, commands = self._ranked(world, node)
            if not commands:
                break
            keys = [key_of(c) for c in commands]
            known = [k for k in keys if k in node.edges]
            for k in known:
                node.edges[k].available += 1
            node.visits += 1
            width = WIDEN_BASE * node.visits**WIDEN_POWER
            if len(known) < len(keys) and len(known) < width:
                # ``commands`` is best first: open the best one not opened yet.
                i = next(i for i, k in enumerate(keys) if k not in node.edges)
                edge = node.edges[keys[i]] = Edge(seat)
                world, _ = self._play(world, seat, commands[i])
                path.append(edge)
                break
            k = self._pick(node, known)
            edge = node.edges[k]
            world, events = self._play(world, seat, commands[keys.index(k)])
            path.append(edge)
            seen = self._seen(events)
            child = edge.outcomes.get(seen)
            if child is None:
                child = edge.outcomes[seen] = _Node()  # type: ignore[assignment]
            node = child  # type: ignore[assignment]
        if not self.clock.left():
            return  # out of time before the leaf's playout: this iteration counts nothing
        rewards = self._playout(world)
        for edge in path:
            edge.visits += 1
            edge.reward += rewards[edge.seat]

    def _ranked(self, world: Any, node: _Node) -> tuple[int, list[Command]]:
        """The acting seat and its commands in this world, the prior's best first (only
        the prior's commands when it has any legal here: the rest are not worth a node)."""
        if node is self.tree:
            return self.seat, self.order
        acting = sorted(self.ruleset.to_act(world))
        if not acting:
            return -1, []
        seat = acting[0] if len(acting) == 1 else self.rng.choice(acting)
        legal = self.ruleset.legal_commands(world, seat)
        if len(legal) <= 1:
            return seat, legal
        if node.prior is None:
            ranked = self._candidates(world, seat, legal)
            node.prior = {key_of(c): i for i, c in enumerate(ranked)}
            return seat, ranked
        prior = node.prior
        chosen = [c for c in legal if key_of(c) in prior]
        if not chosen:
            # This world allows none of the commands the node knew: rank its own.
            ranked = self._candidates(world, seat, legal)
            for c in ranked:
                prior.setdefault(key_of(c), len(prior))
            return seat, ranked
        chosen.sort(key=lambda c: prior[key_of(c)])
        return seat, chosen

    def _candidates(self, world: Any, seat: int, legal: list[Command]) -> list[Command]:
        rank = self.knowledge.candidates
        if rank is None:
            shuffled = list(legal)
            self.rng.shuffle(shuffled)
            return shuffled
        return rank(self.ruleset, world, seat, legal, self.rng) or list(legal)

    def _pick(self, node: _Node, keys: list[str]) -> str:
        best, best_score = keys[0], -math.inf
        for k in keys:
            edge = node.edges[k]
            if not edge.visits:
                return k  # opened by another world, never played through: try it
            score = edge.reward / edge.visits + EXPLORATION * math.sqrt(
                math.log(edge.available) / edge.visits
            )
            if score > best_score:
                best, best_score = k, score
        return best


def search(
    ruleset: Ruleset,
    state: Any,
    seat: int,
    rng: random.Random,
    budget: Budget,
    knowledge: Knowledge | None = None,
) -> Decision:
    """The command the expert search chooses for ``seat`` within ``budget``."""
    return ExpertSearch(ruleset, state, seat, rng, budget, knowledge or Knowledge()).run()
