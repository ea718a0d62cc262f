"""Castles: each colour's set, the allotment per player count, and what happens to
castles between epochs.

A castle on the grid is written ``"castle:SEAT:RANK"`` (``"castle:0:2"``), the same
spelling position files use. A player's castles in hand are four counts, rank 1 to 4.
"""

from __future__ import annotations

from collections.abc import Sequence

RANKS = (1, 2, 3, 4)
# One colour: 4 x rank 1, 3 x rank 2, 2 x rank 3, 1 x rank 4.
CASTLE_SET = (4, 3, 2, 1)
# Rank-1 castles each player takes, by player count (2 -> 4, 3 -> 3, 4 -> 2).
RANK_ONE_CASTLES = {2: 4, 3: 3, 4: 2}
CASTLE_PREFIX = "castle:"


def starting_castles(players: int, last_castle: bool) -> list[int]:
    """Castles in hand at the start of the game: all ten in Down to the Last Castle."""
    if last_castle:
        return list(CASTLE_SET)
    return [RANK_ONE_CASTLES[players], *CASTLE_SET[1:]]


def castle_code(seat: int, rank: int) -> str:
    return f"{CASTLE_PREFIX}{seat}:{rank}"


def parse_castle(cell: str) -> tuple[int, int] | None:
    """(seat, rank) of a castle code, None for anything else (including junk)."""
    if not cell.startswith(CASTLE_PREFIX):
        return None
    seat, _, rank = cell[len(CASTLE_PREFIX) :].partition(":")
    if not (seat.isdigit() and rank.isdigit()):
        return None
    return int(seat), int(rank)


def castles_come_off(
    hands: Sequence[Sequence[int]], grid: Sequence[str | None], last_castle: bool
) -> tuple[list[list[int]], list[int], list[list[int]]]:
    """Between epochs: rank-1 castles go back to their owners, placed castles of rank
    2-4 leave the game (in Down to the Last Castle every placed castle leaves).

    Returns (hands after, rank-1 castles returned per seat, ranks removed per seat).
    """
    after = [list(hand) for hand in hands]
    returned = [0] * len(hands)
    removed: list[list[int]] = [[] for _ in hands]
    for cell in grid:
        castle = parse_castle(cell) if cell else None
        if castle is None:
            continue
        seat, rank = castle
        if rank == 1 and not last_castle:
            after[seat][0] += 1
            returned[seat] += 1
        else:
            removed[seat].append(rank)
    for ranks in removed:
        ranks.sort()
    return after, returned, removed
