"""The adjacency rule shared by the mandatory action and every location tile.

"If an empty hex of the required kind touches one of your settlements, the settlement must
go on such a hex; otherwise anywhere on that kind." Moves judge it after the settlement is
picked up, so the moving settlement itself does not count.

The board's ``owner`` list holds, per hex, the seat whose piece counts as that seat's
settlement for the adjacency rule (settlements, city-hall hexes, and Crossroads' wagons and
ships), or a marker for pieces that only fill the hex (stone walls, warriors), or EMPTY.
Hexes next to a warrior (``state.guarded``) take no settlement, city hall, wall or warrior.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from games.rules.kingdom_builder.board import NEIGHBOUR_SETS, NEIGHBOURS

EMPTY = -1
WALL = -2  # a Nomads stone wall: belongs to nobody
WARRIOR = -3  # a Crossroads warrior (its seat is in ``state.warriors``)

State = Any  # games.rules.kingdom_builder.state.State (kept loose to avoid a cycle)


def touches(owner: Sequence[int], seat: int, hex_: int) -> bool:
    """Whether ``hex_`` is next to one of ``seat``'s settlements."""
    return any(owner[n] == seat for n in NEIGHBOURS[hex_])


def adjacent_if_possible(candidates: Iterable[int], owner: Sequence[int], seat: int) -> list[int]:
    """The candidates next to ``seat``'s settlements if any is; otherwise all of them."""
    candidates = list(candidates)
    near = [h for h in candidates if touches(owner, seat, h)]
    return near or candidates


def moves_adjacent_if_possible(
    sources: Iterable[int],
    candidates: list[int],
    owner: Sequence[int],
    seat: int,
    returns: Callable[[int], bool] = lambda source: False,
) -> dict[int, list[int]]:
    """For each settlement that may move, where it may go under the adjacency rule.

    Judged after picking it up: a candidate touched only by the moving settlement no longer
    counts as adjacent, and the hex it left is a candidate again when ``returns(source)``
    (FAQ: a Barn move whose only eligible hex is the one it came from puts it right back).
    """
    counts = [sum(1 for n in NEIGHBOURS[h] if owner[n] == seat) for h in candidates]
    moves: dict[int, list[int]] = {}
    for source in sources:
        around = NEIGHBOUR_SETS[source]
        pool = list(zip(candidates, counts, strict=True))
        if returns(source):
            pool.append((source, sum(1 for n in NEIGHBOURS[source] if owner[n] == seat)))
            pool.sort()
        near = [h for h, count in pool if count - (h in around) > 0]
        targets = near or [h for h, _ in pool]
        if targets:
            moves[source] = targets
    return moves


# ---- with the expansions' pieces: state-aware helpers ----------------------------------------
def free_hexes(state: State, terrain: str) -> list[int]:
    """Empty hexes of one terrain kind where a settlement may go (not next to a warrior)."""
    owner, guarded = state.owner, state.guarded
    hexes = state.board.hexes_of(terrain)
    if guarded:
        return [i for i in hexes if owner[i] == EMPTY and i not in guarded]
    return [i for i in hexes if owner[i] == EMPTY]


def free_buildable(state: State) -> list[int]:
    """Empty hexes of the 5 buildable terrains where a settlement may go."""
    buildable, owner, guarded = state.board.buildable, state.owner, state.guarded
    return [i for i in range(len(owner)) if buildable[i] and owner[i] == EMPTY and i not in guarded]


def can_settle(state: State, hex_: int) -> bool:
    """Whether a settlement may be put on ``hex_`` of the 5 terrains (moves, steps)."""
    return (
        hex_ >= 0
        and state.board.buildable[hex_]
        and state.owner[hex_] == EMPTY
        and hex_ not in state.guarded
    )


def build_targets(state: State, candidates: Iterable[int], seat: int) -> list[int]:
    """The adjacency rule for a settlement built from the supply.

    Nomads' Outpost tile, once armed, lifts it for one build.
    """
    if state.outpost_armed:
        return list(candidates)
    return adjacent_if_possible(candidates, state.owner, seat)


def settlement_seat(state: State, hex_: int) -> int:
    """The seat whose settlement (or city-hall hex) stands on ``hex_``, else EMPTY.

    Wagons and ships count for the adjacency rule only: they are not settlements.
    """
    seat: int = state.owner[hex_]
    if seat < 0 or hex_ == state.wagon[seat] or hex_ == state.ship[seat]:
        return EMPTY
    return seat


def settled_next_to(state: State, seat: int, hex_: int) -> bool:
    """Whether one of ``seat``'s settlements (or its city hall) touches ``hex_``."""
    return any(settlement_seat(state, n) == seat for n in NEIGHBOURS[hex_])


def guarded_by(warriors: Iterable[Iterable[int]]) -> set[int]:
    """Hexes next to any warrior: nobody may build there (wagons and ships excepted)."""
    return {n for own in warriors for w in own for n in NEIGHBOURS[w]}
