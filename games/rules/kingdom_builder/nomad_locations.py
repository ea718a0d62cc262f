"""The Nomads location tiles: Quarry, Caravan, Village, Garden (targets only).

Quarry places stone walls (``tiles.WALLS``); Caravan moves a settlement; Village and
Garden build one. What follows (taking and losing tiles) lives in ``arrival.py``.
"""

from __future__ import annotations

from typing import Any

from games.rules.kingdom_builder.board import NEIGHBOURS, STEPS
from games.rules.kingdom_builder.placement import (
    EMPTY,
    build_targets,
    free_buildable,
    free_hexes,
    touches,
)
from games.rules.kingdom_builder.terrain import FLOWER_FIELD

State = Any  # games.rules.kingdom_builder.state.State (kept loose to avoid a cycle)

VILLAGE_NEIGHBOURS = 3


def quarry(state: State, seat: int) -> list[int]:
    """Place a stone wall on an empty hex of the card's terrain next to your settlements.

    Up to 2 walls per use, each next to one of yours (required, not "if possible"); none
    once the 25 walls are all on the board.
    """
    if state.card is None or state.walls_left <= 0:
        return []
    return [h for h in free_hexes(state, state.card) if touches(state.owner, seat, h)]


def caravan(state: State, seat: int) -> dict[int, list[int]]:
    """Move 1 settlement in a straight line as far as it goes; it must move at least 1 hex.

    Anything that is not an empty hex of the 5 terrains stops it (water, mountain, castle,
    location, nomad space, wall, any settlement or piece) and so does the board's edge.
    Adjacency is not required; the hex where it stops must not lie next to a warrior.
    """
    buildable, owner, guarded = state.board.buildable, state.owner, state.guarded
    moves: dict[int, list[int]] = {}
    for source in sorted(state.settlements[seat]):
        ends = []
        for direction in range(6):
            here, last = STEPS[source][direction], -1
            while here >= 0 and buildable[here] and owner[here] == EMPTY:
                last, here = here, STEPS[here][direction]
            if last >= 0 and last not in guarded:
                ends.append(last)
        if ends:
            moves[source] = sorted(ends)
    return moves


def village(state: State, seat: int) -> list[int]:
    """Build 1 settlement on an empty hex of the 5 terrains next to 3 or more of yours."""
    owner = state.owner
    return [
        h
        for h in free_buildable(state)
        if sum(1 for n in NEIGHBOURS[h] if owner[n] == seat) >= VILLAGE_NEIGHBOURS
    ]


def garden(state: State, seat: int) -> list[int]:
    """Build 1 settlement on flower field (adjacent if possible)."""
    return build_targets(state, free_hexes(state, FLOWER_FIELD), seat)
