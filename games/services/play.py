"""Commands in a game in progress: moves, resigning, and skipping or expelling a player
who ran out of time. Each is recorded through ``writing.command_record``."""

from __future__ import annotations

import logging
import uuid
from typing import Any

from django.contrib.auth.models import User

from games import storage
from games import table as tables
from games.errors import ServiceError, from_illegal
from games.models import Game, Seat
from games.rules import get_ruleset
from games.rules.base import IllegalCommand
from games.rules.shapes import validate_command
from games.services.writing import (
    Intent,
    Retry,
    Submitted,
    command_record,
    playing_seat,
    require_active,
    seat_of,
)
from infra import metrics

log = logging.getLogger(__name__)


@metrics.counted_command
def game_submit(
    *,
    game_id: uuid.UUID,
    command: dict[str, Any],
    user: User | None = None,
    bot_seat: int | None = None,
    command_id: uuid.UUID | None = None,
    expected_seq: int | None = None,
    publish: bool = True,
) -> Submitted:
    """Validate and record one command from a user's seat (or a bot-played seat).

    A move that arrives after its player's clock ran out is refused (``out_of_time``)
    and the timeout is recorded at once rather than at the next sweep. ``publish``: False
    leaves sending the result's ``notices`` to the caller (writing.command_record).
    """
    if not isinstance(command, dict):
        raise ServiceError("bad_command", "A command is a JSON object with a 'type'.")
    kind = command.get("type")
    if isinstance(kind, str) and kind in tables.SERVICE_COMMANDS:
        raise ServiceError("service_command", "Resign, skip and expel have their own endpoints.")

    def choose(head: storage.Head) -> Intent:
        game = head.game
        require_active(game)
        if bot_seat is not None:
            actor, seat, account = storage.Actor(f"bot:{bot_seat}", bot_seat), bot_seat, None
        else:
            # playing_seat refuses a seat without a number.
            number: int = playing_seat(game, user, head.seats).number  # type: ignore[assignment]
            actor, seat = storage.Actor(f"seat:{number}", number), number
            account = user.pk if user is not None else None
        try:
            # Only the shape the ruleset declares goes on: the log keeps the validated
            # command.
            valid = validate_command(get_ruleset(game.ruleset).command_shapes, command)
        except IllegalCommand as exc:
            raise from_illegal(exc) from exc
        return Intent(actor, seat, valid, account)

    def actor_of(head: storage.Head) -> str | None:
        return _actor_label(head.game, user, bot_seat, head.seats or [])

    try:
        result = command_record(
            game_id,
            choose,
            command_id=command_id,
            expected_seq=expected_seq,
            retry=Retry(command, actor_of),
            publish=publish,
        )
    except ServiceError as exc:
        if exc.code == "out_of_time":
            from games.services.timing import game_timeouts

            game_timeouts(game_id=game_id)
        raise
    assert result is not None, "a move always records"
    return result


def _actor_label(
    game: Game, user: User | None, bot_seat: int | None, seats: list[Seat]
) -> str | None:
    """The actor a submission would be recorded as (None: it may not submit at all)."""
    if bot_seat is not None:
        return f"bot:{bot_seat}"
    seat = seat_of(game, user, seats)
    return f"seat:{seat.number}" if seat is not None and seat.number is not None else None


def game_resign(*, game_id: uuid.UUID | str, user: User) -> Submitted:
    """The seat is played by a medium bot from now on and ranks last (see table._depart)."""
    return _seat_command(game_id, user, {"type": tables.RESIGN})


def game_skip(*, game_id: uuid.UUID | str, user: User, seat: int) -> Submitted:
    """Another player skips the turn of ``seat``, which is out of time: a bot plays it."""
    return _seat_command(game_id, user, {"type": tables.SKIP, "seat": seat})


def game_expel(*, game_id: uuid.UUID | str, user: User, seat: int) -> Submitted:
    """Another player expels ``seat``, which is out of time: a bot plays on for good, the
    expelled player ranks last and the game is unrated."""
    return _seat_command(game_id, user, {"type": tables.EXPEL, "seat": seat})


def _seat_command(game_id: uuid.UUID | str, user: User, command: dict) -> Submitted:
    """A service command (resign, skip, expel) from the user's own seat."""

    def choose(head: storage.Head) -> Intent:
        require_active(head.game)
        number = playing_seat(head.game, user, head.seats).number
        return Intent(storage.Actor(f"seat:{number}", number), number, command, user.pk)

    result = command_record(game_id, choose)
    assert result is not None, "a seat's command always records"
    return result
