"""The location tiles: one function per tile giving its legal targets.

A tile's effect is either a build (one settlement from the supply onto ``to``) or a move
(one of the player's settlements from ``from`` to ``to``); ``TILES`` says which. What
follows a build or a move (taking and losing tiles, the end of the game) is the same for
every tile and lives in ``turn.py``.

Build tiles return the list of hexes they may build on; move tiles return, for each
settlement that may move, the hexes it may go to. An empty result means the tile cannot be
used now (no compensation). Every target obeys the adjacency rule except Paddock's.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from games.rules.kingdom_builder.board import AXES, EDGE, JUMPS, STEPS
from games.rules.kingdom_builder.placement import (
    EMPTY,
    adjacent_if_possible,
    empty_hexes,
    moves_adjacent_if_possible,
)
from games.rules.kingdom_builder.terrain import DESERT, GRASS, WATER

State = Any  # games.rules.kingdom_builder.state.State (kept loose to avoid a cycle)

BUILD = "build"
MOVE = "move"


def oracle(state: State, seat: int) -> list[int]:
    """Build 1 settlement on the terrain of the card played this turn."""
    if state.card is None:
        return []
    return adjacent_if_possible(
        empty_hexes(state.board, state.owner, state.card), state.owner, seat
    )


def farm(state: State, seat: int) -> list[int]:
    """Build 1 settlement on grass."""
    return adjacent_if_possible(empty_hexes(state.board, state.owner, GRASS), state.owner, seat)


def oasis(state: State, seat: int) -> list[int]:
    """Build 1 settlement on desert."""
    return adjacent_if_possible(empty_hexes(state.board, state.owner, DESERT), state.owner, seat)


def tower(state: State, seat: int) -> list[int]:
    """Build 1 settlement on an edge hex of the whole board, on any of the 5 terrains."""
    buildable, owner = state.board.buildable, state.owner
    edge = [i for i in sorted(EDGE) if buildable[i] and owner[i] == EMPTY]
    return adjacent_if_possible(edge, owner, seat)


def tavern(state: State, seat: int) -> list[int]:
    """Build 1 settlement at either end of a straight line of ≥3 of your settlements.

    Any of the 3 axes, any buildable terrain. Only the hexes just past a line's ends count,
    so a line of 4 offers its two ends, not the hexes inside it. The ends touch the line,
    so the adjacency rule always holds.
    """
    own = state.settlements[seat]
    buildable, owner = state.board.buildable, state.owner
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
                    if end >= 0 and buildable[end] and owner[end] == EMPTY:
                        ends.add(end)
    return sorted(ends)


def barn(state: State, seat: int) -> dict[int, list[int]]:
    """Move 1 of your settlements to a hex of the card's terrain.

    The eligible hexes are judged after picking the settlement up: if no other settlement
    of yours touches an empty hex of the terrain, any empty hex of it will do.
    """
    if state.card is None:
        return {}
    candidates = empty_hexes(state.board, state.owner, state.card)
    return moves_adjacent_if_possible(
        sorted(state.settlements[seat]), candidates, state.owner, seat
    )


def harbor(state: State, seat: int) -> dict[int, list[int]]:
    """Move 1 of your settlements to a water hex (adjacent to yours if possible)."""
    candidates = empty_hexes(state.board, state.owner, WATER)
    return moves_adjacent_if_possible(
        sorted(state.settlements[seat]), candidates, state.owner, seat
    )


def paddock(state: State, seat: int) -> dict[int, list[int]]:
    """Move 1 of your settlements exactly 2 hexes in a straight line, jumping anything.

    The target must be an empty hex of the 5 buildable terrains; adjacency is not required.
    """
    buildable, owner = state.board.buildable, state.owner
    moves: dict[int, list[int]] = {}
    for source in sorted(state.settlements[seat]):
        targets = sorted(
            to for to in JUMPS[source] if to >= 0 and buildable[to] and owner[to] == EMPTY
        )
        if targets:
            moves[source] = targets
    return moves


@dataclass(frozen=True)
class Tile:
    """A location tile: its key, whether it builds or moves, and its targets."""

    key: str
    effect: str
    targets: Callable[[State, int], Any]


TILES: dict[str, Tile] = {
    "oracle": Tile("oracle", BUILD, oracle),
    "farm": Tile("farm", BUILD, farm),
    "oasis": Tile("oasis", BUILD, oasis),
    "tower": Tile("tower", BUILD, tower),
    "tavern": Tile("tavern", BUILD, tavern),
    "barn": Tile("barn", MOVE, barn),
    "harbor": Tile("harbor", MOVE, harbor),
    "paddock": Tile("paddock", MOVE, paddock),
}

TILE_NAMES: dict[str, str] = {key: key.capitalize() for key in TILES}


def can_use(state: State, seat: int, key: str) -> bool:
    """Whether tile ``key`` has at least one target now (a build also needs supply)."""
    tile = TILES[key]
    if tile.effect == BUILD and state.supply[seat] <= 0:
        return False
    return bool(tile.targets(state, seat))
