"""Commands in a game in progress: moves, resigning, and skipping or expelling a player
who ran out of time. Each runs under the game's row lock through ``decide_and_append``."""

from __future__ import annotations

import uuid
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from games import store
from games import table as tables
from games.errors import Conflict, ServiceError
from games.models import GameEvent
from games.services.writing import (
    Submitted,
    decide_and_append,
    locked,
    playing_seat,
    replayed,
    require_active,
)


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
    game = locked(game_id)
    command_id = command_id or uuid.uuid4()
    recorded = GameEvent.objects.filter(game=game, command_id=command_id).first()
    if recorded is not None:
        return replayed(game, recorded, command)
    if expected_seq is not None and expected_seq != game.head_seq:
        raise Conflict(
            "stale_seq",
            f"The game has moved on (head is {game.head_seq}); refresh and try again.",
            head=game.head_seq,
        )
    require_active(game)
    if not isinstance(command, dict):
        raise ServiceError("bad_command", "A command is a JSON object with a 'type'.")
    if command.get("type") in tables.SERVICE_COMMANDS:
        raise ServiceError("service_command", "Resign, skip and expel have their own endpoints.")
    if bot_seat is not None:
        actor, seat = store.Actor(f"bot:{bot_seat}", bot_seat), bot_seat
    else:
        number = playing_seat(game, user).number
        actor, seat = store.Actor(f"seat:{number}", number), number
    return decide_and_append(game, actor, seat, command, command_id)


@transaction.atomic
def game_resign(*, game_id: uuid.UUID, user: AbstractBaseUser) -> Submitted:
    """The seat is played by a medium bot from now on and ranks last (see table._depart)."""
    game = locked(game_id)
    require_active(game)
    number = playing_seat(game, user).number
    actor = store.Actor(f"seat:{number}", number)
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
    actor = store.Actor(f"seat:{number}", number)
    return decide_and_append(game, actor, number, command, uuid.uuid4())
