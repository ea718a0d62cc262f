"""The Crossroads location tiles (targets only).

Forester's Lodge, Monastery and Outpost build one settlement; City Hall lays the player's
city hall once; Barracks, Wagon and Lighthouse place, move or take back a piece; the
Crossroads tile acts by itself at the end of the turn (an extra terrain card, ``deck``).

Piece tiles return ``{"place": [hex...], "move": {from: [to...]}, "take_back": [hex...]}``.
"""

from __future__ import annotations

from typing import Any

from games.rules.kingdom_builder.board import NEIGHBOURS
from games.rules.kingdom_builder.placement import (
    EMPTY,
    adjacent_if_possible,
    build_targets,
    free_buildable,
    free_hexes,
    touches,
)
from games.rules.kingdom_builder.terrain import CANYON, FOREST, WATER

State = Any  # games.rules.kingdom_builder.state.State (kept loose to avoid a cycle)

WARRIORS_EACH = 2  # warriors each player may have on the board
PIECE_STEPS = 3  # a wagon or ship moves up to 3 hexes


def foresters_lodge(state: State, seat: int) -> list[int]:
    """Build 1 settlement on forest (adjacent if possible)."""
    return build_targets(state, free_hexes(state, FOREST), seat)


def monastery(state: State, seat: int) -> list[int]:
    """Build 1 settlement on canyon (adjacent if possible)."""
    return build_targets(state, free_hexes(state, CANYON), seat)


def outpost(state: State, seat: int) -> list[int]:
    """Build 1 settlement on any of the 5 terrains (adjacent if possible)."""
    return build_targets(state, free_buildable(state), seat)


def city_hall(state: State, seat: int) -> list[int]:
    """Centres where the player's city hall may go (once per game).

    7 empty hexes of the 5 terrains (a hex and its 6 neighbours, all on the board), none
    next to a warrior, at least one of them next to the player's settlements.
    """
    if state.city_hall[seat]:
        return []
    free = set(free_buildable(state))
    owner = state.owner
    centres = []
    for centre in sorted(free):
        ring = NEIGHBOURS[centre]
        if (
            len(ring) == 6
            and all(n in free for n in ring)
            and any(touches(owner, seat, h) for h in (centre, *ring))
        ):
            centres.append(centre)
    return centres


def city_hall_hexes(centre: int) -> list[int]:
    """The 7 hexes of a city hall, centre first."""
    return [centre, *NEIGHBOURS[centre]]


def _reach(state: State, start: int, passable: Any) -> list[int]:
    """Hexes reachable from ``start`` in 1 to 3 steps over ``passable`` empty hexes."""
    owner = state.owner
    seen, frontier = {start}, [start]
    for _ in range(PIECE_STEPS):
        following = []
        for here in frontier:
            for n in NEIGHBOURS[here]:
                if n not in seen and owner[n] == EMPTY and passable(n):
                    seen.add(n)
                    following.append(n)
        frontier = following
    seen.discard(start)
    return sorted(seen)


def barracks(state: State, seat: int) -> dict[str, Any]:
    """Place a warrior on an empty hex of the 5 terrains (adjacent if possible), or take
    one of yours back. A warrior may not go next to another warrior."""
    place: list[int] = []
    if len(state.warriors[seat]) < WARRIORS_EACH:
        place = adjacent_if_possible(free_buildable(state), state.owner, seat)
    return {"place": place, "move": {}, "take_back": sorted(state.warriors[seat])}


def wagon(state: State, seat: int) -> dict[str, Any]:
    """Place the wagon on an empty hex of the 5 terrains or a mountain (adjacent if
    possible), or move it up to 3 hexes over such empty hexes, or take it back.

    Warriors do not stop wagons from standing next to them."""
    board = state.board
    buildable, mountain = board.buildable, board.mountain

    def passable(h: int) -> bool:
        return buildable[h] or h in mountain

    here = state.wagon[seat]
    if here < 0:
        owner = state.owner
        free = [h for h in range(len(owner)) if owner[h] == EMPTY and passable(h)]
        return {"place": adjacent_if_possible(free, owner, seat), "move": {}, "take_back": []}
    moves = _reach(state, here, passable)
    return {"place": [], "move": {here: moves} if moves else {}, "take_back": [here]}


def lighthouse(state: State, seat: int) -> dict[str, Any]:
    """The same with the player's ship on water: place (adjacent if possible), move up to
    3 hexes over empty water, or take it back."""
    water = state.board.water
    here = state.ship[seat]
    if here < 0:
        owner = state.owner
        free = [h for h in state.board.hexes_of(WATER) if owner[h] == EMPTY]
        return {"place": adjacent_if_possible(free, owner, seat), "move": {}, "take_back": []}
    moves = _reach(state, here, water.__contains__)
    return {"place": [], "move": {here: moves} if moves else {}, "take_back": [here]}


def crossroads(state: State, seat: int) -> list[int]:
    """Nothing to target: the tile draws an extra terrain card at the end of each turn."""
    return []
