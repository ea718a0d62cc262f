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

import random
from typing import Any

from bots.search.budget import Budget
from bots.search.ismcts import Decision, Edge, Knowledge, Node, Search, key_of
from games.rules.base import Command, Ruleset

# Another root command replaces the favourite only with this share more visits.
OVERTURN = 1.25


class ExpertSearch(Search):
    """One decision of ``seat`` by prior-guided ISMCTS within ``budget``."""

    # UCB exploration: smaller than plain ISMCTS's, since the model's values lie close
    # together; and progressive widening opens 1.5 * sqrt(visits) commands.
    exploration = 0.35
    widen_base = 1.5

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
        self.root.prior = {key_of(c): i for i, c in enumerate(self.order)}

    def _chosen(self, keys: list[str], edges: dict[str, Edge]) -> str:
        """The most visited root command, unless the favourite was visited nearly as often."""
        best = super()._chosen(keys, edges)
        favourite = keys[0]
        if favourite in edges and edges[best].visits < OVERTURN * edges[favourite].visits:
            return favourite
        return best

    def _opening(self, node: Node, fresh: list[int]) -> int:
        return fresh[0]  # every node's commands come best first

    def _choices(self, world: Any, node: Node) -> tuple[int, list[Command]]:
        """The acting seat and its commands in this world, the prior's best first (only
        the prior's commands when it has any legal here: the rest are not worth a node)."""
        if node is self.root:
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
