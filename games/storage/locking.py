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
from games.models import Game, Seat
from games.storage import sql
from games.storage.chain import GENESIS


@dataclass(frozen=True)
class LockedGame:
    """The game's row, locked; its seats, each with its player; the hash of the event at
    its head (the next event's ``prev_hash``); and, for a ``command_id`` the client
    sent, the seq it was recorded at, if it was."""

    game: Game
    seats: list[Seat]
    head_hash: str
    recorded_seq: int | None


def lock_game(game_id: uuid.UUID | str) -> Game:
    """The game's row, locked until the transaction ends."""
    try:
        return Game.objects.select_for_update().get(pk=game_id)
    except (Game.DoesNotExist, ValidationError, ValueError, TypeError) as exc:
        raise NotFound("not_found", "No such table.") from exc


def lock_for_command(game_id: uuid.UUID | str, command_id: uuid.UUID | None) -> LockedGame:
    """Lock the game's row and read its seats with their players, its head event's hash
    and where ``command_id`` was recorded (games/storage/sql.py).

    On PostgreSQL a statement that waited for the lock sees the newest version of the
    locked row, but the seats and events as they were before the writer it waited for
    committed. Every writer that changes those also moves the head, so a head event the
    read cannot see shows the wait: the read is repeated, under the lock, and sees all.
    """
    read = _read(game_id, command_id)
    if read.head_hash is None and read.game.head_seq > 0:
        read = _read(game_id, command_id)
    return LockedGame(read.game, read.seats, read.head_hash or GENESIS, read.recorded_seq)


def _read(game_id: uuid.UUID | str, command_id: uuid.UUID | None) -> sql.LockingRead:
    try:
        read = sql.locking_read(game_id, command_id)
    except (ValidationError, ValueError, TypeError, AttributeError) as exc:
        raise NotFound("not_found", "No such table.") from exc
    if read is None:
        raise NotFound("not_found", "No such table.")
    return read
