"""The base game's location tiles: one function per tile giving its legal targets.

A tile's effect is either a build (one settlement from the supply onto ``to``) or a move
(one of the player's settlements from ``from`` to ``to``); ``tiles.TILES`` says which and
also registers the expansions' tiles (``nomad_locations``, ``crossroads_locations``).
What follows a build or a move (taking and losing tiles, the end of the game) is the same
for every tile and lives in ``arrival.py``.

Build tiles return the list of hexes they may build on; move tiles return, for each
settlement that may move, the hexes it may go to. An empty result means the tile cannot be
used now (no compensation). Every target obeys the adjacency rule except Paddock's, and
none lies next to a Crossroads warrior.
"""

from __future__ import annotations

from typing import Any

from games.rules.kingdom_builder.board import AXES, EDGE, JUMPS, STEPS
from games.rules.kingdom_builder.placement import (
    build_targets,
    can_settle,
    free_hexes,
    moves_adjacent_if_possible,
)
from games.rules.kingdom_builder.terrain import DESERT, GRASS, WATER

State = Any  # games.rules.kingdom_builder.state.State (kept loose to avoid a cycle)


def oracle(state: State, seat: int) -> list[int]:
    """Build 1 settlement on the terrain of the card played this turn.

    Not usable in a turn that began with no empty hex of the card's terrain (FAQ), even
    on the card drawn to replace it or on a hex freed later in the turn.
    """
    if state.card is None or state.card_gone_at_start:
        return []
    return build_targets(state, free_hexes(state, state.card), seat)


def farm(state: State, seat: int) -> list[int]:
    """Build 1 settlement on grass."""
    return build_targets(state, free_hexes(state, GRASS), seat)


def oasis(state: State, seat: int) -> list[int]:
    """Build 1 settlement on desert."""
    return build_targets(state, free_hexes(state, DESERT), seat)


def tower(state: State, seat: int) -> list[int]:
    """Build 1 settlement on an edge hex of the whole board, on any of the 5 terrains."""
    edge = [i for i in sorted(EDGE) if can_settle(state, i)]
    return build_targets(state, edge, seat)


def tavern(state: State, seat: int) -> list[int]:
    """Build 1 settlement at either end of a straight line of ≥3 of your settlements.

    Any of the 3 axes, any buildable terrain. Only the hexes just past a line's ends count,
    so a line of 4 offers its two ends, not the hexes inside it. The ends touch the line,
    so the adjacency rule always holds.
    """
    own = state.settlements[seat]
    ends: set[int] = set()
    for start in own:
        for axis in AXES:
            back = STEPS[start][axis + 3]
            if back >= 0 and back in own:
                continue  # not the first settlement of its line along this axis
            length, here = 1, STEPS[start][axis]
            while here >= 0 and here in own:
                length += 1
                here = STEPS[here][axis]
            if length >= 3:
                for end in (back, here):
                    if can_settle(state, end):
                        ends.add(end)
    return sorted(ends)


def barn(state: State, seat: int) -> dict[int, list[int]]:
    """Move 1 of your settlements to a hex of the card's terrain.

    The eligible hexes are judged after picking the settlement up: if no other settlement
    of yours touches an empty hex of the terrain, any empty hex of it will do. The hex it
    left is one of them again: it goes right back when that is the only eligible hex (FAQ).
    Not usable in a turn that began with no empty hex of the card's terrain (FAQ).
    """
    if state.card is None or state.card_gone_at_start:
        return {}
    return moves_adjacent_if_possible(
        sorted(state.settlements[seat]),
        free_hexes(state, state.card),
        state.owner,
        seat,
        lambda source: _may_return(state, source, state.card),
    )


def harbor(state: State, seat: int) -> dict[int, list[int]]:
    """Move 1 of your settlements to a water hex (adjacent to yours if possible).

    As for Barn, a settlement already on water may have to go right back.
    """
    return moves_adjacent_if_possible(
        sorted(state.settlements[seat]),
        free_hexes(state, WATER),
        state.owner,
        seat,
        lambda source: _may_return(state, source, WATER),
    )


def _may_return(state: State, source: int, terrain: str) -> bool:
    """Whether the hex a settlement was lifted from is an eligible hex of ``terrain``."""
    return state.board.terrain[source] == terrain and source not in state.guarded


def paddock(state: State, seat: int) -> dict[int, list[int]]:
    """Move 1 of your settlements exactly 2 hexes in a straight line, jumping anything.

    The target must be an empty hex of the 5 buildable terrains; adjacency is not required.
    """
    moves: dict[int, list[int]] = {}
    for source in sorted(state.settlements[seat]):
        targets = sorted(to for to in JUMPS[source] if can_settle(state, to))
        if targets:
            moves[source] = targets
    return moves
