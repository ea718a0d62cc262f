"""The write path's first read: the game's row, locked, and what a command needs.

Every write to a game runs in a transaction that first locks the game's row
(``SELECT ... FOR UPDATE``; SQLite's IMMEDIATE transactions lock the whole database), so
writers of one game go one at a time and each decides on the head the one before it left.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from django.core.exceptions import ValidationError

from games.errors import NotFound
from games.models import Game, GameEvent, Seat


@dataclass(frozen=True)
class LockedGame:
    """The game's row, locked, its seats (each with its player) and, for a
    ``command_id`` the client sent, the seq it was recorded at, if it was."""

    game: Game
    seats: list[Seat]
    recorded_seq: int | None


def lock_game(game_id: uuid.UUID | str) -> Game:
    """The game's row, locked until the transaction ends."""
    try:
        return Game.objects.select_for_update().get(pk=game_id)
    except (Game.DoesNotExist, ValidationError, ValueError, TypeError) as exc:
        raise NotFound("not_found", "No such table.") from exc


def lock_for_command(game_id: uuid.UUID | str, command_id: uuid.UUID | None) -> LockedGame:
    """Lock the game's row and read its seats with their players and where
    ``command_id`` was recorded. The seats are read after the lock, so they are as the
    last writer left them: an account deactivated since is seen here."""
    game = lock_game(game_id)
    seats = list(Seat.objects.filter(game=game).select_related("user"))
    for seat in seats:
        seat.game = game
    recorded = None
    if command_id is not None:
        recorded = (
            GameEvent.objects.filter(game=game, command_id=command_id)
            .order_by()
            .values_list("seq", flat=True)
            .first()
        )
    return LockedGame(game, seats, recorded)
