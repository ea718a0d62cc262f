"""What the search knows of Kingdoms: the medium bot's ranking of the root's commands, and
a fast playout (``kingdoms_epoch``) in which every seat plays as the medium bot would.

A playout plays ``PLAYOUT_TURNS`` turns on (full playouts to the epoch's end proved too
noisy to tell good moves apart: one tile changes every later choice), then values each
seat by its gold plus the expected gain of the lines as they stand (the medium bot's
expected bases times the seat's ranks), or, when the epoch ended within those turns, the
engine's own ``score_lines``; plus the keep value of the rank 2-4 castles it holds for
later epochs. Its reward is the mean over the other seats of the logistic of its lead over
each (``placing_rewards``), on the scale fitted on medium-against-medium games
(``LEAD_SCALE``).
"""

from __future__ import annotations

import math
import random
from dataclasses import replace
from functools import partial
from typing import Any

from bots.search.ismcts import Knowledge, Patience, Rewards
from bots.search.kingdoms_epoch import Epoch
from bots.strategies.kingdoms import CASTLE_KEEP_VALUE, command_values
from games.rules.base import Command, Ruleset
from games.rules.kingdoms.scoring import score_lines

ROOT_CANDIDATES = 16
PLAYOUT_TURNS: int | None = 3  # turns played before the expected value stands in
# Gold per unit of logit of the winning chance, by epochs still to come: fitted on 300
# medium-against-medium games (a lead after epoch 1 or 2 against the winner); the last
# epoch's end decides, so its scale only smooths ties.
LEAD_SCALE = {0: 2.0, 1: 7.6, 2: 24.0}
# A patient race: the default (first cut at 4 rounds, 2 standard errors, 1 to overturn the
# favourite) settled most turns within 0.1 s and won 69% of 100 games against medium; this
# one uses more of the budget, won 77% on the same 100 tables and 69% [62, 75] over 200, so
# the gain is within the noise of 100 games but it is no weaker.
PATIENCE = Patience(reject_z=2.5, choose_z=0.5, first_cut=8)


def candidates(
    ruleset: Ruleset, world: Any, seat: int, legal: list[Command], rng: random.Random
) -> list[Command]:
    """The medium bot's best commands first (it reads only the seat's view)."""
    ranked = sorted(
        command_values(ruleset, world, seat), key=lambda pair: (pair[0], rng.random()), reverse=True
    )
    return [command for _, command in ranked[:ROOT_CANDIDATES]]


def epochs_after(world: Any) -> int:
    return 0 if world.options["last_castle"] else max(0, 3 - world.epoch)


def playout(
    ruleset: Ruleset,
    world: Any,
    seat: int,
    players: int,
    rng: random.Random,
    turns: int | None = PLAYOUT_TURNS,
    castle_in_hand: float = 0.0,
) -> Rewards:
    """``turns`` turns of the epoch (None: the rest of it) as the medium bot would play
    them, then each seat's reward; while the epoch goes on, each rank 1 castle a seat
    still holds adds ``castle_in_hand`` gold to its worth."""
    later = epochs_after(world)
    epoch = Epoch(world)
    gold: list[float] = list(world.gold)
    unscored = [n for n, gains in enumerate(world.line_gains) if gains is None]
    if epoch.play_out(rng, later, turns):
        for gains in score_lines(epoch.pieces, unscored):
            for s, g in gains.items():
                gold[s] += g
    else:
        # A castle placed later goes where the tiles are known by then: the expected
        # gains value only the castles already standing, so those held add their own.
        expected = epoch.expected_gains(unscored)
        gold = [g + expected[s] + castle_in_hand * epoch.castles[s][0] for s, g in enumerate(gold)]
    worth = [
        gold[s]
        + CASTLE_KEEP_VALUE * later * sum(r * n for r, n in enumerate(epoch.castles[s], 1) if r > 1)
        for s in range(players)
    ]
    return placing_rewards(worth, LEAD_SCALE[min(later, 2)])


def placing_rewards(worth: list[float], scale: float) -> Rewards:
    """Each seat's chance to finish ahead of another seat, averaged over the others: the
    logistic of its lead over each (``scale`` gold per unit of logit), so the search aims
    at its expected placing. With two seats it is the logistic of the lead over the other.

    The lead over the *strongest* other seat alone did worse at three seats: it spends
    moves on the leader and leaves the third seat alone, and hard placed behind medium
    there (docs/bots.md)."""
    players = len(worth)
    return [
        sum(1.0 / (1.0 + math.exp((worth[o] - mine) / scale)) for o in range(players) if o != s)
        / (players - 1)
        for s, mine in enumerate(worth)
    ]


KNOWLEDGE = Knowledge(candidates=candidates, playout=playout, paired=True, patience=PATIENCE)
# The expert searches as hard does with longer playouts (2 turns: 20% against hard over
# 11 games; 3 are hard's; 5: 56.6% [50.0, 63.0] over 220) that also value the rank 1
# castles a seat still holds (docs/bots.md).
EXPERT_PLAYOUT_TURNS = 5
# Gold per rank 1 castle held: against hard at 0.2 s a move, 0 (hard's) won 55.8% of 60
# games, 3 won 67.5% of 40; at 0.5 s, 3 won 57.5% of 200, level with 0 (docs/bots.md).
EXPERT_CASTLE_IN_HAND = 3.0
EXPERT_KNOWLEDGE = replace(
    KNOWLEDGE,
    playout=partial(playout, turns=EXPERT_PLAYOUT_TURNS, castle_in_hand=EXPERT_CASTLE_IN_HAND),
)
