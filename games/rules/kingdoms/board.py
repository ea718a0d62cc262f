"""The board: 5 rows x 6 columns, its lines, orthogonal adjacency, and the parts a
line is split into by Mountains.

Spaces are numbered row-major (``index = row * 6 + column``); commands and views speak
``[row, column]`` with 0-based coordinates, row 0 at the top.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from games.rules.kingdoms.castles import RANKS, parse_castle
from games.rules.kingdoms.tiles import ALL_TILES, MOUNTAIN, kind_of

ROWS = 5
COLUMNS = 6
SPACES = ROWS * COLUMNS
MAX_SEATS = 4


def index(row: int, column: int) -> int:
    return row * COLUMNS + column


def space(i: int) -> list[int]:
    """``[row, column]`` of space ``i`` (a fresh list: JSON-ready and safe to mutate)."""
    return [i // COLUMNS, i % COLUMNS]


def _neighbours(i: int) -> tuple[int, ...]:
    row, column = divmod(i, COLUMNS)
    steps = ((-1, 0), (1, 0), (0, -1), (0, 1))
    return tuple(
        index(row + dr, column + dc)
        for dr, dc in steps
        if 0 <= row + dr < ROWS and 0 <= column + dc < COLUMNS
    )


NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(_neighbours(i) for i in range(SPACES))


class Line(NamedTuple):
    kind: str  # "row" or "column"
    index: int  # type: ignore[assignment]  # the field shadows tuple.index, never called on a Line
    cells: tuple[int, ...]


# Scoring order: rows top to bottom, then columns left to right.
LINES: tuple[Line, ...] = (
    *(Line("row", r, tuple(index(r, c) for c in range(COLUMNS))) for r in range(ROWS)),
    *(Line("column", c, tuple(index(r, c) for r in range(ROWS))) for c in range(COLUMNS)),
)
# The (row line number, column line number) through each space, numbers into LINES.
LINES_THROUGH: tuple[tuple[int, int], ...] = tuple(
    (i // COLUMNS, ROWS + i % COLUMNS) for i in range(SPACES)
)


class Piece(NamedTuple):
    """What stands on a space. ``value``: a castle's rank, a resource's or hazard's
    value (hazards negative), 0 for the special tiles. ``seat``: a castle's owner."""

    kind: str
    value: int = 0
    seat: int = -1


CASTLE = "castle"


def _tile_pieces() -> dict[str, Piece]:
    pieces: dict[str, Piece] = {}
    for tile in ALL_TILES:
        kind, value = kind_of(tile)
        pieces[tile] = Piece(kind, value or 0)
        # Kind codes ("+3", "mountain") are what position files write.
        pieces[tile[:2] if value else kind] = Piece(kind, value or 0)
    for seat in range(MAX_SEATS):
        for rank in RANKS:
            pieces[f"castle:{seat}:{rank}"] = Piece(CASTLE, rank, seat)
    return pieces


_PIECES = _tile_pieces()


def piece_of(cell: str | None) -> Piece | None:
    """The piece a grid cell holds: a tile id, a kind code, a castle code, or empty
    (``None`` / ``""``). Raises ValueError on anything else."""
    if not cell:
        return None
    piece = _PIECES.get(cell)
    if piece is None:
        castle = parse_castle(cell) if isinstance(cell, str) else None
        if castle is None:
            raise ValueError(f"not a Kingdoms piece: {cell!r}")
        raise ValueError(f"castle {cell!r}: seat must be 0-{MAX_SEATS - 1} and rank 1-{len(RANKS)}")
    return piece


def parts(cells: Sequence[int], pieces: Sequence[Piece | None]) -> list[list[int]]:
    """Split a line at every Mountain: two Mountains give three parts (some may be
    empty). The Mountains themselves belong to no part."""
    result: list[list[int]] = [[]]
    for i in cells:
        piece = pieces[i]
        if piece is not None and piece.kind == MOUNTAIN:
            result.append([])
        else:
            result[-1].append(i)
    return result
