"""End-of-game scoring, shared by the engine and ``manage.py score kingdom-builder``."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any

from games.rules.base import IllegalCommand
from games.rules.kingdom_builder.board import COLS, NEIGHBOURS, ROWS, Board, board_from_grid
from games.rules.kingdom_builder.cards import CARDS
from games.rules.kingdom_builder.terrain import LETTER_TERRAIN

CASTLE_GOLD = 3


class BadPosition(IllegalCommand, ValueError):
    """A malformed position file (a ValueError; code ``bad_position``)."""

    def __init__(self, message: str) -> None:
        super().__init__("bad_position", message)


def castles(board: Board, own: Collection[int]) -> int:
    """3 gold per castle hex next to at least one of your settlements."""
    own_set = set(own)
    return CASTLE_GOLD * sum(
        1 for castle in board.castles if any(n in own_set for n in NEIGHBOURS[castle])
    )


def score_board(
    board: Board,
    players: Mapping[int, Collection[int]],
    cards: Sequence[str],
    gold: Mapping[int, int] | None = None,
) -> dict[int, dict[str, int]]:
    """Per seat: ``{"castles": n, <card>: n, ..., "total": n}``.

    ``gold`` is gold already earned during play (none in the base game); it is listed as
    ``"gold"`` only when some player has any.
    """
    sets = {seat: set(own) for seat, own in players.items()}
    result: dict[int, dict[str, int]] = {}
    for seat in sorted(sets):
        line = {"castles": castles(board, sets[seat])}
        for card in cards:
            line[card] = CARDS[card](board, sets, seat)
        if gold and any(gold.values()):
            line["gold"] = gold.get(seat, 0)
        line["total"] = sum(line.values())
        result[seat] = line
    return result


def score_position(position: dict[str, Any]) -> dict[str, Any]:
    """Score a position file: ``{"grid": [...], "settlements": {...}, "cards": [...]}``.

    Raises BadPosition (a ValueError) with a readable message for a malformed position.
    """
    if not isinstance(position, dict):
        raise BadPosition("A position is a JSON object with grid, settlements and cards.")
    grid = position.get("grid")
    if (
        not isinstance(grid, list)
        or len(grid) != ROWS
        or not all(isinstance(row, str) and len(row) == COLS for row in grid)
    ):
        raise BadPosition(f"grid must be {ROWS} strings of {COLS} letters.")
    bad = sorted({ch for row in grid for ch in row if ch not in LETTER_TERRAIN})
    if bad:
        raise BadPosition(
            f"Unknown grid letters: {''.join(bad)} (allowed: {''.join(LETTER_TERRAIN)})."
        )
    cards = position.get("cards")
    if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
        raise BadPosition("cards must be a list of card names.")
    cards = [c.lower() for c in cards]
    unknown = [c for c in cards if c not in CARDS]
    if unknown or len(set(cards)) != len(cards):
        raise BadPosition(f"cards must be distinct names among: {', '.join(CARDS)}.")
    raw = position.get("settlements")
    if not isinstance(raw, dict):
        raise BadPosition('settlements must map a seat ("0", "1", ...) to [[row, col], ...].')
    board = board_from_grid(grid)
    players: dict[int, set[int]] = {}
    taken: set[int] = set()
    for key, hexes in raw.items():
        try:
            seat = int(key)
        except (TypeError, ValueError):
            raise BadPosition(f"Seat {key!r} is not a number.") from None
        if not isinstance(hexes, list):
            raise BadPosition(f"Settlements of seat {seat} must be a list of [row, col].")
        own: set[int] = set()
        for pair in hexes:
            if (
                not isinstance(pair, list | tuple)
                or len(pair) != 2
                or not all(isinstance(v, int) and not isinstance(v, bool) for v in pair)
                or not (0 <= pair[0] < ROWS and 0 <= pair[1] < COLS)
            ):
                raise BadPosition(f"Bad hex {pair!r} for seat {seat}: [row, col] within 0-19.")
            i = pair[0] * COLS + pair[1]
            if i in taken:
                raise BadPosition(f"Hex {list(pair)} holds two settlements.")
            if grid[pair[0]][pair[1]] in "SLNM":
                raise BadPosition(f"Hex {list(pair)} cannot hold a settlement.")
            taken.add(i)
            own.add(i)
        players[seat] = own
    scores = score_board(board, players, cards)
    return {"players": {str(seat): line for seat, line in scores.items()}}
