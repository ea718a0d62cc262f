"""Moderation of people: hide a message, mute, ban, handle reports.

Only active staff with the ``games.moderate`` permission may call these. Each writes a
``ModerationRecord`` (who, what, whom, why). What changes a game (kicking a seat,
aborting) goes through games' write path (games.services); its record is written when
games announces it (community/receivers.py).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from rest_framework.authtoken.models import Token

from community import publish
from community.models import ChatMessage, ModerationRecord, Mute, Report
from games.errors import Conflict, NotFound, ServiceError
from games.models import Game, Seat
from games.services import Submitted, player_kick, require_moderator
from games.services.moderation import moderation_reason

Action = ModerationRecord.Action


def record(moderator: User, action: str, reason: str, **about: Any) -> ModerationRecord:
    """Write one line of the record (never changed afterwards)."""
    return ModerationRecord.objects.create(
        action=action,
        moderator=moderator,
        moderator_name=moderator.get_username(),
        reason=reason,
        **about,
    )


@transaction.atomic
def message_hide(
    *, message_id: int, moderator: User, reason: str, report: Report | None = None
) -> ChatMessage:
    require_moderator(moderator)
    reason = moderation_reason(reason)
    message = ChatMessage.objects.select_for_update().filter(pk=message_id).first()
    if message is None:
        raise NotFound("not_found", "No such message.")
    if not message.hidden:
        message.hidden = True
        message.save(update_fields=["hidden"])
        game_id, message_pk = message.game_id, message.pk
        transaction.on_commit(lambda: publish.chat_hidden(game_id, message_pk))
    record(
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
def player_mute(
    *,
    player: User,
    moderator: User,
    reason: str,
    minutes: int | None = None,
) -> Mute:
    """No chat for ``minutes`` (None: until a moderator lifts the mute)."""
    require_moderator(moderator)
    reason = moderation_reason(reason)
    if minutes is not None and (not isinstance(minutes, int) or minutes <= 0):
        raise ServiceError("bad_minutes", "Minutes must be a positive whole number.")
    until = timezone.now() + timedelta(minutes=minutes) if minutes else None
    mute = Mute.objects.create(user=player, until=until, reason=reason, created_by=moderator)
    record(moderator, Action.MUTE, reason, target_user=player)
    return mute


@transaction.atomic
def player_unmute(*, player: User, moderator: User, reason: str) -> int:
    require_moderator(moderator)
    reason = moderation_reason(reason)
    lifted = Mute.active().filter(user=player).update(lifted_at=timezone.now())
    record(moderator, Action.UNMUTE, reason, target_user=player)
    return lifted


def account_ban(*, player: User, moderator: User, reason: str) -> list[Submitted]:
    """Deactivate the account and remove the player from every table they sit at
    (bots play their seats in games in progress, so those games can finish)."""
    require_moderator(moderator)
    reason = moderation_reason(reason)
    if player.pk == moderator.pk:
        raise ServiceError("own_account", "You cannot ban yourself.")
    with transaction.atomic():
        player.is_active = False
        player.save(update_fields=["is_active"])
        # Lifting the ban must not bring the old token back: the player asks for a new one.
        Token.objects.filter(user=player).delete()
        record(moderator, Action.BAN, reason, target_user=player)
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
                player_kick(game_id=game_id, moderator=moderator, player=player, reason=reason)
            )
        except ServiceError:  # the game ended meanwhile
            continue
    return kicks


@transaction.atomic
def account_unban(*, player: User, moderator: User, reason: str) -> None:
    require_moderator(moderator)
    reason = moderation_reason(reason)
    player.is_active = True
    player.save(update_fields=["is_active"])
    record(moderator, Action.UNBAN, reason, target_user=player)


@transaction.atomic
def report_close(*, report_id: int, moderator: User, resolved: bool, note: str = "") -> Report:
    """Resolve (action was taken) or dismiss (nothing wrong) an open report."""
    require_moderator(moderator)
    report = (
        Report.objects.select_for_update().select_related("message").filter(pk=report_id).first()
    )
    if report is None:
        raise NotFound("not_found", "No such report.")
    if report.status != Report.Status.OPEN:
        raise Conflict("report_closed", "This report was already handled.")
    report.status = Report.Status.RESOLVED if resolved else Report.Status.DISMISSED
    report.handled_by = moderator
    report.handled_at = timezone.now()
    report.note = (note or "").strip()[:500]
    report.save(update_fields=["status", "handled_by", "handled_at", "note"])
    record(
        moderator,
        Action.RESOLVE_REPORT if resolved else Action.DISMISS_REPORT,
        report.note,
        report=report,
        message=report.message,
        game_id=report.message.game_id,
        target_user=report.message.author,
    )
    return report
