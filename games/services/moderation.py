"""Moderation: hide a message, mute, kick, abort, ban, handle reports.

Only active staff with the ``games.moderate`` permission may call these. Each writes a
``ModerationRecord`` (who, what, whom, why); those that change a game (kick, abort) also
append an event to its log with the actor ``staff:<name>``. Closing a game's sockets and
acting as another player's table host (start, bots) are recorded too.
"""

from __future__ import annotations

import uuid
from datetime import timedelta

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from rest_framework.authtoken.models import Token

from games import publish, selectors, store
from games import table as tables
from games.errors import Conflict, Forbidden, NotFound, ServiceError
from games.models import ChatMessage, Game, ModerationRecord, Report, Seat
from games.services.writing import Submitted, after_commit, decide_and_append, locked
from players.models import Mute

MODERATE = "games.moderate"
Action = ModerationRecord.Action
DISCONNECT = Action.DISCONNECT
HOST_ACTION = Action.HOST_ACTION


def can_moderate(user: AbstractBaseUser | None) -> bool:
    return bool(
        user is not None
        and user.is_authenticated
        and user.is_active
        and user.is_staff
        and user.has_perm(MODERATE)
    )


def require_moderator(user: AbstractBaseUser | None) -> None:
    if not can_moderate(user):
        raise Forbidden("forbidden", "Only a moderator can do that.")


def _reason(reason: str) -> str:
    reason = (reason or "").strip()[:500]
    if not reason:
        raise ServiceError("reason_required", "Say why: the reason goes in the record.")
    return reason


def _record(moderator: AbstractBaseUser, action: str, reason: str, **about) -> ModerationRecord:
    return ModerationRecord.objects.create(
        action=action,
        moderator=moderator,
        moderator_name=moderator.get_username(),
        reason=reason,
        **about,
    )


def _staff(moderator: AbstractBaseUser) -> store.Actor:
    return store.Actor(f"staff:{moderator.get_username()}")


@transaction.atomic
def game_abort(*, game_id: uuid.UUID, staff_user: AbstractBaseUser, reason: str) -> Submitted:
    """End a game without a result (``game_aborted``, the seed revealed)."""
    require_moderator(staff_user)
    # The reason is shown with the game_aborted event to every player: it must say why.
    reason = _reason(reason)
    game = locked(game_id)
    if game.status == Game.Status.OPEN:
        game.status = Game.Status.ABORTED
        game.finished_at = timezone.now()
        game.save(update_fields=["status", "finished_at"])
        _record(staff_user, Action.ABORT, reason, game=game)
        after_commit(game, lobby=True)
        return Submitted(events=[], head_seq=game.head_seq)
    if game.status != Game.Status.ACTIVE:
        raise Conflict("game_not_active", "This game is not in progress.")
    command = {"type": tables.ABORT, "reason": reason}
    result = decide_and_append(game, _staff(staff_user), None, command, uuid.uuid4())
    _record(staff_user, Action.ABORT, reason, game=game, event_seq=result.events[0].seq)
    return result


@transaction.atomic
def close_streams(*, game_id: uuid.UUID | str, moderator: AbstractBaseUser, reason: str) -> None:
    """Close every live socket of a game (clients reconnect and catch up by seq)."""
    require_moderator(moderator)
    reason = _reason(reason)
    game = selectors.get_game(game_id)
    _record(moderator, DISCONNECT, reason, game=game)
    # Only once the record is stored: a refused or failed call closes nothing.
    transaction.on_commit(lambda: publish.streams_closed(game.id))


def record_host_action(*, game: Game, moderator: AbstractBaseUser, what: str) -> ModerationRecord:
    """A moderator did what only a table's host may (start it, add or remove a bot):
    on the record, since the host did not ask for it."""
    require_moderator(moderator)
    host = game.created_by.get_username() if game.created_by_id else "no one"
    return _record(moderator, HOST_ACTION, f"{what} at {host}'s table", game=game)


@transaction.atomic
def kick_player(
    *, game_id: uuid.UUID, moderator: AbstractBaseUser, player: AbstractBaseUser, reason: str
) -> Submitted:
    """Remove ``player`` from a table: from an open table their seat goes; in a game in
    progress a medium bot plays their seat on (``seat_kicked``) and they rank last."""
    require_moderator(moderator)
    reason = _reason(reason)
    game = locked(game_id)
    seat = Seat.objects.filter(game=game, user=player).first()
    if seat is None:
        raise NotFound("not_seated", "That player has no seat at this table.")
    if game.status == Game.Status.OPEN:
        seat.delete()
        _record(moderator, Action.KICK, reason, game=game, target_user=player)
        after_commit(game, lobby=True)
        return Submitted(events=[], head_seq=game.head_seq)
    if game.status != Game.Status.ACTIVE:
        raise Conflict("game_not_active", "This game is not in progress.")
    if seat.departed:
        raise Conflict("seat_departed", "A bot already plays that seat.")
    command = {"type": tables.KICK, "seat": seat.number, "reason": reason}
    result = decide_and_append(game, _staff(moderator), None, command, uuid.uuid4())
    _record(
        moderator,
        Action.KICK,
        reason,
        game=game,
        target_user=player,
        event_seq=result.events[0].seq,
    )
    return result


@transaction.atomic
def hide_message(
    *, message_id: int, moderator: AbstractBaseUser, reason: str, report: Report | None = None
) -> ChatMessage:
    require_moderator(moderator)
    reason = _reason(reason)
    message = ChatMessage.objects.select_for_update().filter(pk=message_id).first()
    if message is None:
        raise NotFound("not_found", "No such message.")
    if not message.hidden:
        message.hidden = True
        message.save(update_fields=["hidden"])
        game_id, message_pk = message.game_id, message.pk
        transaction.on_commit(lambda: publish.chat_hidden(game_id, message_pk))
    _record(
        moderator,
        Action.HIDE_MESSAGE,
        reason,
        game_id=message.game_id,
        message=message,
        target_user=message.author,
        report=report,
    )
    return message


@transaction.atomic
def mute_player(
    *,
    player: AbstractBaseUser,
    moderator: AbstractBaseUser,
    reason: str,
    minutes: int | None = None,
) -> Mute:
    """No chat for ``minutes`` (None: until a moderator lifts the mute)."""
    require_moderator(moderator)
    reason = _reason(reason)
    if minutes is not None and (not isinstance(minutes, int) or minutes <= 0):
        raise ServiceError("bad_minutes", "Minutes must be a positive whole number.")
    until = timezone.now() + timedelta(minutes=minutes) if minutes else None
    mute = Mute.objects.create(user=player, until=until, reason=reason, created_by=moderator)
    _record(moderator, Action.MUTE, reason, target_user=player)
    return mute


@transaction.atomic
def unmute_player(*, player: AbstractBaseUser, moderator: AbstractBaseUser, reason: str) -> int:
    require_moderator(moderator)
    reason = _reason(reason)
    lifted = Mute.active().filter(user=player).update(lifted_at=timezone.now())
    _record(moderator, Action.UNMUTE, reason, target_user=player)
    return lifted


def ban_account(
    *, player: AbstractBaseUser, moderator: AbstractBaseUser, reason: str
) -> list[Submitted]:
    """Deactivate the account and remove the player from every table they sit at
    (bots play their seats in games in progress, so those games can finish)."""
    require_moderator(moderator)
    reason = _reason(reason)
    if player.pk == moderator.pk:
        raise ServiceError("own_account", "You cannot ban yourself.")
    with transaction.atomic():
        player.is_active = False
        player.save(update_fields=["is_active"])
        # Lifting the ban must not bring the old token back: the player asks for a new one.
        Token.objects.filter(user=player).delete()
        _record(moderator, Action.BAN, reason, target_user=player)
    kicks = []
    seats = Seat.objects.filter(
        user=player,
        game__status__in=[Game.Status.OPEN, Game.Status.ACTIVE],
        resigned=False,
        expelled=False,
        kicked=False,
    )
    for game_id in seats.values_list("game_id", flat=True):
        try:
            kicks.append(
                kick_player(game_id=game_id, moderator=moderator, player=player, reason=reason)
            )
        except ServiceError:  # the game ended meanwhile
            continue
    return kicks


@transaction.atomic
def lift_ban(*, player: AbstractBaseUser, moderator: AbstractBaseUser, reason: str) -> None:
    require_moderator(moderator)
    reason = _reason(reason)
    player.is_active = True
    player.save(update_fields=["is_active"])
    _record(moderator, Action.UNBAN, reason, target_user=player)


@transaction.atomic
def close_report(
    *, report_id: int, moderator: AbstractBaseUser, resolved: bool, note: str = ""
) -> Report:
    """Resolve (action was taken) or dismiss (nothing wrong) an open report."""
    require_moderator(moderator)
    report = Report.objects.select_for_update().select_related("message").filter(pk=report_id)
    report = report.first()
    if report is None:
        raise NotFound("not_found", "No such report.")
    if report.status != Report.Status.OPEN:
        raise Conflict("report_closed", "This report was already handled.")
    report.status = Report.Status.RESOLVED if resolved else Report.Status.DISMISSED
    report.handled_by = moderator
    report.handled_at = timezone.now()
    report.note = (note or "").strip()[:500]
    report.save(update_fields=["status", "handled_by", "handled_at", "note"])
    _record(
        moderator,
        Action.RESOLVE_REPORT if resolved else Action.DISMISS_REPORT,
        report.note,
        report=report,
        message=report.message,
        game_id=report.message.game_id,
        target_user=report.message.author,
    )
    return report
