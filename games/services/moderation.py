"""Staff actions on a game: kick a seat, abort, close its sockets, act as its host.

Only active staff with the ``games.moderate`` permission may call these. Those that
change a game append an event to its log with the actor ``staff:<name>``. Each is
announced (games.signals.staff_acted, inside the transaction) so the community app
records who did what, to whom and why; moderation of people (chat, mutes, bans, reports)
is in community.services.
"""

from __future__ import annotations

import uuid
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.db import transaction
from django.utils import timezone

from games import publishing, selectors, signals, storage
from games import table as tables
from games.errors import Conflict, Forbidden, NotFound, ServiceError
from games.models import Game, Seat
from games.services.seating import table_locked
from games.services.writing import Intent, Submitted, after_commit, command_record

MODERATE = "games.moderate"


def can_moderate(user: User | AnonymousUser | None) -> bool:
    return bool(
        user is not None
        and user.is_authenticated
        and user.is_active
        and user.is_staff
        and user.has_perm(MODERATE)
    )


def require_moderator(user: User | None) -> None:
    if not can_moderate(user):
        raise Forbidden("forbidden", "Only a moderator can do that.")


def moderation_reason(reason: str) -> str:
    """Every moderation action says why: the reason goes in the record."""
    reason = (reason or "").strip()[:500]
    if not reason:
        raise ServiceError("reason_required", "Say why: the reason goes in the record.")
    return reason


def _announce(moderator: User, action: str, reason: str, game: Game, **about: Any) -> None:
    signals.staff_acted.send(
        sender=Game,
        moderator=moderator,
        action=action,
        reason=reason,
        game=game,
        target_user=about.get("target_user"),
        event_seq=about.get("event_seq"),
    )


def _staff(moderator: User) -> storage.Actor:
    return storage.Actor(f"staff:{moderator.get_username()}")


@transaction.atomic
def game_abort(*, game_id: uuid.UUID | str, staff_user: User, reason: str) -> Submitted:
    """End a game without a result (``game_aborted``, the seed revealed). In one
    transaction with the moderation record."""
    require_moderator(staff_user)
    # The reason is shown with the game_aborted event to every player: it must say why.
    reason = moderation_reason(reason)
    game = selectors.get_game(game_id)
    if game.status == Game.Status.OPEN:
        game = table_locked(game.id)
        if game.status == Game.Status.OPEN:
            game.status = Game.Status.ABORTED
            game.finished_at = timezone.now()
            game.save(update_fields=["status", "finished_at"])
            _announce(staff_user, signals.ABORT, reason, game)
            after_commit(game, lobby=True)
            return Submitted(events=[], head_seq=game.head_seq)
    command = {"type": tables.ABORT, "reason": reason}

    def choose(head: storage.Head) -> Intent:
        if head.game.status != Game.Status.ACTIVE:
            raise Conflict("game_not_active", "This game is not in progress.")
        return Intent(_staff(staff_user), None, command)

    result = command_record(game.id, choose)
    assert result is not None and result.game is not None
    _announce(staff_user, signals.ABORT, reason, result.game, event_seq=result.events[0].seq)
    return result


@transaction.atomic
def streams_close(*, game_id: uuid.UUID | str, moderator: User, reason: str) -> None:
    """Close every live socket of a game (clients reconnect and catch up by seq)."""
    require_moderator(moderator)
    reason = moderation_reason(reason)
    game = selectors.get_game(game_id)
    _announce(moderator, signals.DISCONNECT, reason, game)
    # Only once the record is stored: a refused or failed call closes nothing.
    transaction.on_commit(lambda: publishing.streams_closed(game.id))


def host_action_record(*, game: Game, moderator: User, what: str) -> None:
    """A moderator did what only a table's host may (start it, add or remove a bot):
    on the record, since the host did not ask for it."""
    require_moderator(moderator)
    host = game.created_by.get_username() if game.created_by is not None else "no one"
    _announce(moderator, signals.HOST_ACTION, f"{what} at {host}'s table", game)


@transaction.atomic
def player_kick(
    *, game_id: uuid.UUID | str, moderator: User, player: User, reason: str
) -> Submitted:
    """Remove ``player`` from a table: from an open table their seat goes; in a game in
    progress a medium bot plays their seat on (``seat_kicked``) and they rank last. In one
    transaction with the moderation record."""
    require_moderator(moderator)
    reason = moderation_reason(reason)
    game = selectors.get_game(game_id)
    if game.status == Game.Status.OPEN:
        game = table_locked(game.id)
        if game.status == Game.Status.OPEN:
            seat = Seat.objects.filter(game=game, user=player).first()
            if seat is None:
                raise NotFound("not_seated", "That player has no seat at this table.")
            seat.delete()
            _announce(moderator, signals.KICK, reason, game, target_user=player)
            after_commit(game, lobby=True)
            return Submitted(events=[], head_seq=game.head_seq)

    def choose(head: storage.Head) -> Intent:
        seat = next((s for s in head.seats or [] if s.user_id == player.pk), None)
        if seat is None:
            raise NotFound("not_seated", "That player has no seat at this table.")
        if head.game.status != Game.Status.ACTIVE:
            raise Conflict("game_not_active", "This game is not in progress.")
        if seat.departed:
            raise Conflict("seat_departed", "A bot already plays that seat.")
        command = {"type": tables.KICK, "seat": seat.number, "reason": reason}
        return Intent(_staff(moderator), None, command)

    result = command_record(game.id, choose)
    assert result is not None and result.game is not None
    _announce(
        moderator,
        signals.KICK,
        reason,
        result.game,
        target_user=player,
        event_seq=result.events[0].seq,
    )
    return result
