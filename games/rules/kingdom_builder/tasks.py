"""The 6 Crossroads task cards: one check per task, scored at the end of the game.

Each player earns each task in play at most once. A check takes the board and the hexes
counting as one player's settlements (settlements and city-hall hexes; also warriors,
wagons and ships under ``crossroads_pieces_score``) and says whether the task is met.
"""

from __future__ import annotations

from collections.abc import Callable, Collection

from games.rules.kingdom_builder.board import NEIGHBOURS, SIDES, STEPS, Board

ADVANCE_COUNT = 7
ROAD_LENGTH = 7
# The two diagonal axes (north-east and north-west); axis 0 is the horizontal one.
DIAGONAL_AXES = (1, 2)


def home_country(board: Board, own: Collection[int]) -> bool:
    """A whole terrain area (connected hexes of one terrain) filled by your settlements."""
    own_set = set(own)
    return any(area <= own_set for area in board.terrain_areas())


def fortress(board: Board, own: Collection[int]) -> bool:
    """A settlement of yours ringed by 6 of yours (a city hall's centre qualifies)."""
    own_set = set(own)
    return any(
        len(NEIGHBOURS[h]) == 6 and all(n in own_set for n in NEIGHBOURS[h]) for h in own_set
    )


def place_of_refuge(board: Board, own: Collection[int]) -> bool:
    """A location, castle or nomad space whose every neighbour holds a settlement of yours."""
    own_set = set(own)
    return any(all(n in own_set for n in NEIGHBOURS[h]) for h in board.special)


def advance(board: Board, own: Collection[int]) -> bool:
    """At least 7 of your settlements on one edge of the board."""
    own_set = set(own)
    return any(len(side & own_set) >= ADVANCE_COUNT for side in SIDES.values())


def road(board: Board, own: Collection[int]) -> bool:
    """At least 7 of your settlements in one unbroken diagonal line (not horizontal)."""
    own_set = set(own)
    for h in own_set:
        for axis in DIAGONAL_AXES:
            back = STEPS[h][axis + 3]
            if back >= 0 and back in own_set:
                continue  # not the first of its line
            length, here = 1, STEPS[h][axis]
            while here >= 0 and here in own_set:
                length += 1
                here = STEPS[here][axis]
            if length >= ROAD_LENGTH:
                return True
    return False


def compass_points(board: Board, own: Collection[int]) -> bool:
    """At least one settlement on each of the 4 edges (a corner counts for both)."""
    own_set = set(own)
    return all(side & own_set for side in SIDES.values())


TASKS: dict[str, tuple[int, Callable[[Board, Collection[int]], bool]]] = {
    "home_country": (5, home_country),
    "fortress": (6, fortress),
    "place_of_refuge": (8, place_of_refuge),
    "advance": (9, advance),
    "road": (7, road),
    "compass_points": (10, compass_points),
}
TASK_NAMES: dict[str, str] = {
    "home_country": "Home Country",
    "fortress": "Fortress",
    "place_of_refuge": "Place of Refuge",
    "advance": "Advance",
    "road": "Road",
    "compass_points": "Compass Points",
}


def task_gold(task: str, board: Board, own: Collection[int]) -> int:
    """The task's gold if ``own`` meets it, else 0."""
    gold, check = TASKS[task]
    return gold if check(board, own) else 0
