"""Epoch scoring of a board, shared by the engine and ``manage.py score kingdoms``.

For each row (top to bottom), then each column (left to right), the line is split at
every Mountain into parts, and in each part every player gains ``base x ranks``:

- ranks: the player's castle ranks in the part, each castle +1 per Wizard orthogonally
  adjacent to it (no cap: a rank-4 castle beside the Wizard counts 5);
- resources: 0 when the Dragon is in the part, else the sum of the resource values;
- hazards: the sum of the hazard values (negative);
- base: (resources + hazards), doubled when the Gold Mine is in the part.

Only the line being scored decides the Dragon's and the Gold Mine's effect. Empty
spaces count 0 (Down to the Last Castle can end an epoch with empty spaces).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from games.rules.kingdoms.board import (
    CASTLE,
    COLUMNS,
    LINES,
    NEIGHBOURS,
    ROWS,
    Line,
    Piece,
    parts,
    piece_of,
)
from games.rules.kingdoms.castles import CASTLE_SET
from games.rules.kingdoms.tiles import (
    ALL_TILES,
    DRAGON,
    GOLD_MINE,
    HAZARD,
    KIND_CODE,
    RESOURCE,
    WIZARD,
)

Pieces = Sequence[Piece | None]


def wizard_bonus(pieces: Pieces) -> dict[int, int]:
    """Extra rank per space: +1 for each Wizard orthogonally adjacent to it."""
    bonus: dict[int, int] = {}
    for i, piece in enumerate(pieces):
        if piece is not None and piece.kind == WIZARD:
            for j in NEIGHBOURS[i]:
                bonus[j] = bonus.get(j, 0) + 1
    return bonus


def score_part(cells: Iterable[int], pieces: Pieces, bonus: dict[int, int]) -> dict[int, int]:
    """Gain per seat (only seats with a castle in the part) for one part of a line."""
    resources = hazards = 0
    dragon = gold_mine = False
    ranks: dict[int, int] = {}
    for i in cells:
        piece = pieces[i]
        if piece is None:
            continue
        kind = piece.kind
        if kind == CASTLE:
            ranks[piece.seat] = ranks.get(piece.seat, 0) + piece.value + bonus.get(i, 0)
        elif kind == RESOURCE:
            resources += piece.value
        elif kind == HAZARD:
            hazards += piece.value
        elif kind == DRAGON:
            dragon = True
        elif kind == GOLD_MINE:
            gold_mine = True
    base = (0 if dragon else resources) + hazards
    if gold_mine:
        base *= 2
    return {seat: base * rank for seat, rank in ranks.items()}


def score_line(pieces: Pieces, line: Line, bonus: dict[int, int]) -> dict[int, int]:
    """Gain per seat from one row or column: the sum over its Mountain-split parts."""
    gains: dict[int, int] = {}
    for part in parts(line.cells, pieces):
        for seat, gain in score_part(part, pieces, bonus).items():
            gains[seat] = gains.get(seat, 0) + gain
    return gains


def score_lines(pieces: Pieces, line_numbers: Iterable[int]) -> list[dict[int, int]]:
    """Gains per seat for each of the given lines (numbers into LINES), in that order."""
    bonus = wizard_bonus(pieces)
    return [score_line(pieces, LINES[n], bonus) for n in line_numbers]


def score_board(pieces: Pieces) -> dict[int, dict[str, Any]]:
    """Every seat with a castle on the board: its gain per row, per column, and total."""
    seats = sorted({p.seat for p in pieces if p is not None and p.kind == CASTLE})
    sheet: dict[int, dict[str, Any]] = {
        seat: {"rows": [0] * ROWS, "columns": [0] * COLUMNS, "total": 0} for seat in seats
    }
    for line, gains in zip(LINES, score_lines(pieces, range(len(LINES))), strict=True):
        key = "rows" if line.kind == "row" else "columns"
        for seat, gain in gains.items():
            sheet[seat][key][line.index] += gain
            sheet[seat]["total"] += gain
    return sheet


# ---- position files -------------------------------------------------------------------


def _tile_limits() -> dict[str, int]:
    limits: dict[str, int] = {}
    for tile in ALL_TILES:
        code = KIND_CODE[tile]
        limits[code] = limits.get(code, 0) + 1
    return limits


_TILE_LIMITS = _tile_limits()


def parse_position(position: Any) -> list[Piece | None]:
    """The pieces of a position file's ``{"grid": [5 rows of 6 cells]}``.

    Cells: ``""`` (empty), ``"+3"``, ``"-2"``, ``"mountain"``, ``"dragon"``,
    ``"gold_mine"``, ``"wizard"`` or ``"castle:SEAT:RANK"``. Raises ValueError when the
    grid is malformed or holds more pieces than the game has (three ``"+3"``, a second
    Dragon, a fifth rank-1 castle of one colour...).
    """
    grid = position.get("grid") if isinstance(position, dict) else None
    if not (isinstance(grid, list) and len(grid) == ROWS):
        raise ValueError(f'position must be {{"grid": [{ROWS} rows of {COLUMNS} cells]}}')
    pieces: list[Piece | None] = []
    counts: dict[str, int] = {}
    for r, row in enumerate(grid):
        if not (isinstance(row, list) and len(row) == COLUMNS):
            raise ValueError(f"row {r} must be a list of {COLUMNS} cells")
        for c, cell in enumerate(row):
            if not isinstance(cell, str):
                raise ValueError(f"cell [{r}, {c}] must be a string, not {cell!r}")
            if cell in ALL_TILES and cell not in _TILE_LIMITS:
                # Tile ids ("+3a") are the engine's; files use kind codes ("+3").
                raise ValueError(f"cell [{r}, {c}]: write {KIND_CODE[cell]!r}, not {cell!r}")
            try:
                piece = piece_of(cell)
            except ValueError as exc:
                raise ValueError(f"cell [{r}, {c}]: {exc}") from None
            pieces.append(piece)
            if cell:
                counts[cell] = counts.get(cell, 0) + 1
    for cell, count in counts.items():
        piece = piece_of(cell)
        assert piece is not None
        limit = CASTLE_SET[piece.value - 1] if piece.kind == CASTLE else _TILE_LIMITS[cell]
        if count > limit:
            raise ValueError(f"{count} x {cell!r} on the grid; the game has {limit}")
    return pieces


def score_position(position: dict[str, Any]) -> dict[str, Any]:
    """``manage.py score kingdoms POSITION.json``: each seat with a castle on the grid,
    its gain from every row and column (summed over the line's parts) and its total."""
    sheet = score_board(parse_position(position))
    return {"players": {str(seat): lines for seat, lines in sheet.items()}}
