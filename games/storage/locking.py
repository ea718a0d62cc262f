"""The write path's first reads: the game's row, locked, and what a command needs.

Every write to a game runs in a transaction that first locks the game's row
(``SELECT ... FOR UPDATE``; SQLite's IMMEDIATE transactions lock the whole database), so
writers of one game go one at a time and each decides on the head the one before it left.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db.models import Q

from games.errors import NotFound
from games.models import Game, GameEvent, Seat
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
    """Lock the game's row and read its seats with their players (one statement), then
    its head event's hash and where ``command_id`` was recorded (one more). The seats
    are read under the lock, so they are as the last writer left them: an account
    deactivated since is seen here."""
    try:
        seats = list(
            Seat.objects.select_for_update(of=("game",))
            .select_related("game", "user")
            .filter(game_id=game_id)
        )
    except (ValidationError, ValueError, TypeError) as exc:
        raise NotFound("not_found", "No such table.") from exc
    game = seats[0].game if seats else lock_game(game_id)
    for seat in seats:
        seat.game = game
    wanted = Q(seq=game.head_seq)
    if command_id is not None:
        wanted |= Q(command_id=command_id)
    head_hash, recorded = GENESIS, None
    for seq, hash_, recorded_id in (
        GameEvent.objects.filter(wanted, game=game)
        .order_by()
        .values_list("seq", "hash", "command_id")
    ):
        if seq == game.head_seq:
            head_hash = hash_
        if command_id is not None and recorded_id == command_id:
            recorded = seq
    return LockedGame(game, seats, head_hash, recorded)
