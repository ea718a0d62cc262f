"""The adjacency rule shared by the mandatory action and every location tile.

"If an empty hex of the required kind touches one of your settlements, the settlement must
go on such a hex; otherwise anywhere on that kind." Moves judge it after the settlement is
picked up, so the moving settlement itself does not count.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from games.rules.kingdom_builder.board import NEIGHBOURS, Board

EMPTY = -1

NEIGHBOUR_SETS: tuple[frozenset[int], ...] = tuple(frozenset(n) for n in NEIGHBOURS)


def empty_hexes(board: Board, owner: Sequence[int], terrain: str) -> list[int]:
    """Empty hexes of one terrain kind."""
    return [i for i in board.hexes_of(terrain) if owner[i] == EMPTY]


def empty_buildable(board: Board, owner: Sequence[int]) -> list[int]:
    """Empty hexes of any buildable terrain."""
    buildable = board.buildable
    return [i for i in range(len(owner)) if buildable[i] and owner[i] == EMPTY]


def touches(owner: Sequence[int], seat: int, hex_: int) -> bool:
    """Whether ``hex_`` is next to one of ``seat``'s settlements."""
    return any(owner[n] == seat for n in NEIGHBOURS[hex_])


def adjacent_if_possible(candidates: Iterable[int], owner: Sequence[int], seat: int) -> list[int]:
    """The candidates next to ``seat``'s settlements if any is; otherwise all of them."""
    candidates = list(candidates)
    near = [h for h in candidates if touches(owner, seat, h)]
    return near or candidates


def moves_adjacent_if_possible(
    sources: Iterable[int], candidates: list[int], owner: Sequence[int], seat: int
) -> dict[int, list[int]]:
    """For each settlement that may move, where it may go under the adjacency rule.

    Judged after picking it up: a candidate touched only by the moving settlement no longer
    counts as adjacent. A settlement never "moves" onto its own hex.
    """
    counts = [sum(1 for n in NEIGHBOURS[h] if owner[n] == seat) for h in candidates]
    moves: dict[int, list[int]] = {}
    if not candidates:
        return moves
    for source in sources:
        around = NEIGHBOUR_SETS[source]
        near = [
            h
            for h, count in zip(candidates, counts, strict=True)
            if count - (h in around) > 0 and h != source
        ]
        targets = near or [h for h in candidates if h != source]
        if targets:
            moves[source] = targets
    return moves
