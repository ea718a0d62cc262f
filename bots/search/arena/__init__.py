"""The arena: bot-against-bot games played directly on the rules engines (no database),
and the statistics that say which bot is stronger.

Two levels, A and B, share the seats of each game, alternating: in game ``i`` seat ``j``
is played by A when ``i + j`` is even, so over any two games each level sits in every
seat equally often. A game scores A's share of the winners (a shared win of A and B is a
half). Each game has its own seeds, derived from the arena seed and the game's number, so
a game played in any worker process is the same game (up to a search bot's clock).

A *field* of levels (three or four players, one level per seat, a level may appear twice)
is seated in each of its distinct orders in turn, so every level sits in every seat and
after every other level equally often over a whole cycle; each level is then judged by its
mean placing (1 is first; tied seats share the mean of their places), and the first level
against each other one by the per-game difference of their placings.

A long match is played in *parts* (the same match, other seeds), each saved as JSON with
every game's result and the commit that played it; pooled, the parts are one match (one
per thinking time, when parts were played at several).

The package: ``games`` plays a match, ``stats`` judges it, ``parts`` keeps it as data.
"""

from __future__ import annotations

from bots.search.arena.games import (
    MAX_COMMANDS,
    GameResult,
    Match,
    placings,
    play_game,
    play_match,
    seatable_options,
    seatings,
)
from bots.search.arena.parts import (
    Part,
    Tree,
    load_part,
    pool,
    pool_by_budget,
    save_part,
    source_tree,
)
from bots.search.arena.stats import (
    Z95,
    FieldSummary,
    Standing,
    Summary,
    elo_difference,
    mean_interval,
    percentile,
    summarise,
    summarise_field,
    times,
    wilson,
)

__all__ = [
    "MAX_COMMANDS",
    "Z95",
    "FieldSummary",
    "GameResult",
    "Match",
    "Part",
    "Standing",
    "Summary",
    "Tree",
    "elo_difference",
    "load_part",
    "mean_interval",
    "percentile",
    "placings",
    "play_game",
    "play_match",
    "pool",
    "pool_by_budget",
    "save_part",
    "seatable_options",
    "seatings",
    "source_tree",
    "summarise",
    "summarise_field",
    "times",
    "wilson",
]
