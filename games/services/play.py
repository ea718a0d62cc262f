"""Commands in a game in progress: moves, resigning, and skipping or expelling a player
who ran out of time. Each runs under the game's row lock through ``decide_and_append``."""

from __future__ import annotations

import logging
import uuid
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from games import storage
from games import table as tables
from games.errors import Conflict, ServiceError, from_illegal
from games.models import Game, GameEvent, Seat
from games.rules import get_ruleset
from games.rules.base import IllegalCommand
from games.rules.shapes import validate_command
from games.services.writing import (
    Submitted,
    decide_and_append,
    locked,
    playing_seat,
    replayed,
    require_active,
    seat_of,
)
from games.storage.locking import lock_for_command
from kingdom.ops import metrics

log = logging.getLogger(__name__)


@metrics.counted_command
def game_submit(
    *,
    game_id: uuid.UUID,
    command: dict[str, Any],
    user: AbstractBaseUser | None = None,
    bot_seat: int | None = None,
    command_id: uuid.UUID | None = None,
    expected_seq: int | None = None,
) -> Submitted:
    """Validate and append one command from a user's seat (or a bot-played seat).

    A move that arrives after its player's clock ran out is refused (``out_of_time``)
    and the timeout is recorded at once rather than at the next sweep.
    """
    try:
        return _submit(
            game_id=game_id,
            command=command,
            user=user,
            bot_seat=bot_seat,
            command_id=command_id,
            expected_seq=expected_seq,
        )
    except ServiceError as exc:
        if exc.code == "out_of_time":
            from games.services.timing import game_timeouts

            game_timeouts(game_id=game_id)
        raise


@transaction.atomic
def _submit(
    *,
    game_id: uuid.UUID,
    command: dict[str, Any],
    user: AbstractBaseUser | None,
    bot_seat: int | None,
    command_id: uuid.UUID | None,
    expected_seq: int | None,
) -> Submitted:
    at_lock = lock_for_command(game_id, command_id)
    game, seats = at_lock.game, at_lock.seats
    if at_lock.recorded_seq is not None:
        recorded = GameEvent.objects.get(game=game, seq=at_lock.recorded_seq)
        return replayed(game, recorded, command, _actor_label(game, user, bot_seat, seats), seats)
    command_id = command_id or uuid.uuid4()
    if expected_seq is not None and expected_seq != game.head_seq:
        raise Conflict(
            "stale_seq",
            f"The game has moved on (head is {game.head_seq}); refresh and try again."
            if expected_seq < game.head_seq
            else f"expected_seq {expected_seq} is ahead of the game (head is {game.head_seq}): "
            "send the head's seq.",
            head=game.head_seq,
        )
    require_active(game)
    if not isinstance(command, dict):
        raise ServiceError("bad_command", "A command is a JSON object with a 'type'.")
    kind = command.get("type")
    if isinstance(kind, str) and kind in tables.SERVICE_COMMANDS:
        raise ServiceError("service_command", "Resign, skip and expel have their own endpoints.")
    if bot_seat is not None:
        actor, seat = storage.Actor(f"bot:{bot_seat}", bot_seat), bot_seat
    else:
        number = playing_seat(game, user, seats).number
        actor, seat = storage.Actor(f"seat:{number}", number), number
    try:
        # Only the shape the ruleset declares goes on: the log keeps the validated command.
        command = validate_command(get_ruleset(game.ruleset).command_shapes, command)
    except IllegalCommand as exc:
        raise from_illegal(exc) from exc
    return decide_and_append(
        game, actor, seat, command, command_id, seats=seats, head_hash=at_lock.head_hash
    )


def _actor_label(
    game: Game, user: AbstractBaseUser | None, bot_seat: int | None, seats: list[Seat]
) -> str | None:
    """The actor a submission would be recorded as (None: it may not submit at all)."""
    if bot_seat is not None:
        return f"bot:{bot_seat}"
    seat = seat_of(game, user, seats)
    return f"seat:{seat.number}" if seat is not None and seat.number is not None else None


@transaction.atomic
def game_resign(*, game_id: uuid.UUID, user: AbstractBaseUser) -> Submitted:
    """The seat is played by a medium bot from now on and ranks last (see table._depart)."""
    game = locked(game_id)
    require_active(game)
    number = playing_seat(game, user).number
    actor = storage.Actor(f"seat:{number}", number)
    return decide_and_append(game, actor, number, {"type": tables.RESIGN}, uuid.uuid4())


@transaction.atomic
def game_skip(*, game_id: uuid.UUID, user: AbstractBaseUser, seat: int) -> Submitted:
    """Another player skips the turn of ``seat``, which is out of time: a bot plays it."""
    return _after_timeout(game_id, user, {"type": tables.SKIP, "seat": seat})


@transaction.atomic
def game_expel(*, game_id: uuid.UUID, user: AbstractBaseUser, seat: int) -> Submitted:
    """Another player expels ``seat``, which is out of time: a bot plays on for good, the
    expelled player ranks last and the game is unrated."""
    return _after_timeout(game_id, user, {"type": tables.EXPEL, "seat": seat})


def _after_timeout(game_id: uuid.UUID, user: AbstractBaseUser, command: dict) -> Submitted:
    game = locked(game_id)
    require_active(game)
    number = playing_seat(game, user).number
    actor = storage.Actor(f"seat:{number}", number)
    return decide_and_append(game, actor, number, command, uuid.uuid4())
