"""The players app's side of games: ratings recorded when a game finishes
(games.signals.game_finished), the ratings games shows on its tables
(games.selectors.ratings, set in players/apps.py), the sockets (and unused socket
tickets) of a session that logs out or an account that is deactivated, closed, and each
account's name skeletons kept in step with its name, and "your turn" emails
(games.signals.turn_passed)."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from django.conf import settings
from django.contrib.auth.signals import user_logged_out
from django.db import transaction
from django.db.models.signals import post_delete, post_save, pre_save
from django.dispatch import receiver
from rest_framework.authtoken.models import Token

from games import publishing, signals
from games import table as tables
from games.models import Game
from players import authentication, mail, names, services, tasks, tickets
from players.models import NameSkeleton, Rating, RatingChange


@receiver(signals.game_finished, dispatch_uid="players.record_result")
def record_result(*, game: Game, table: tables.TableState, **_: Any) -> None:
    # Sent inside the write path's transaction: the ratings commit with the final event.
    services.rating_record_result(game=game, table=table)


@receiver(signals.turn_passed, dispatch_uid="players.turn_emails")
def turn_emails(*, game: Game, user_ids: list[int], **_: Any) -> None:
    # After commit. Side work runs where bot turns do: on the Celery workers with the
    # "celery" runner (SMTP may be slow), else here (the embedded mode's console mail).
    for user_id in user_ids:
        if settings.BOT_RUNNER == "celery":
            tasks.turn_email.delay(user_id, str(game.id))
        else:
            mail.turn_email_send(user_id=user_id, game_id=game.id)


@receiver(user_logged_out, dispatch_uid="players.close_signed_out_sockets")
def close_signed_out_sockets(*, request: Any, **_: Any) -> None:
    # Sent before the session is flushed: its key still names the sockets it opened.
    session_key = getattr(getattr(request, "session", None), "session_key", None)
    if session_key:
        tickets.revoke_session_tickets(session_key)
        group = publishing.session_group(session_key)
        transaction.on_commit(lambda: publishing.signed_out(group))


@receiver(pre_save, sender=settings.AUTH_USER_MODEL, dispatch_uid="players.account_closed")
def close_deactivated_accounts_sockets(*, instance: Any, **_: Any) -> None:
    # An account deactivated (a ban, an admin's checkbox) keeps no socket open: its
    # moves are refused by the write path, and after commit every socket it opened closes.
    if instance.pk is None or instance.is_active:
        return
    if type(instance).objects.filter(pk=instance.pk, is_active=True).exists():
        user_id = instance.pk
        transaction.on_commit(lambda: publishing.account_closed(user_id))


@receiver(post_save, sender=Token, dispatch_uid="players.token_saved")
@receiver(post_delete, sender=Token, dispatch_uid="players.token_deleted")
def forget_token(*, instance: Token, created: bool = False, **_: Any) -> None:
    # A revoked (or changed) token stops working at once, in every process; a new one
    # was never looked up.
    if not created:
        authentication.forget(instance.key)


@receiver(post_save, sender=settings.AUTH_USER_MODEL, dispatch_uid="players.account_saved")
def forget_account_tokens(
    *, instance: Any, created: bool, update_fields: Collection[str] | None, **_: Any
) -> None:
    # A ban or an admin's change: the account's tokens are looked up afresh. A new
    # account has none looked up; a login changes only last_login.
    if not created and not (update_fields and set(update_fields) <= {"last_login"}):
        authentication.forget_account(instance.pk)


class SeatRatings:
    """The rating source of games' read side (games.selectors.ratings.RatingSource)."""

    def ratings(
        self, rulesets: Collection[str], user_ids: Collection[int]
    ) -> dict[tuple[str, int], int]:
        rows = Rating.objects.filter(ruleset__in=rulesets, user_id__in=user_ids, games__gt=0)
        return {(r.ruleset, r.user_id): round(r.value) for r in rows}

    def rating_changes(self, game: Game) -> list[dict[str, Any]]:
        changes = RatingChange.objects.filter(game=game).select_related("user").order_by("place")
        return [
            {
                "username": c.user.username,
                "place": c.place,
                "before": round(c.before),
                "after": round(c.after),
                "delta": round(c.delta, 1),
            }
            for c in changes
        ]


RATINGS = SeatRatings()


@receiver(post_save, sender=settings.AUTH_USER_MODEL, dispatch_uid="players.name_skeleton")
def keep_name_skeleton(*, instance: Any, update_fields: Collection[str] | None, **_: Any) -> None:
    # Every way an account is made or renamed (sign-up, the admin, createsuperuser);
    # a save of other fields (a login's last_login) leaves the name as it was.
    if update_fields is not None and "username" not in update_fields:
        return
    wanted = names.skeletons(instance.get_username())
    with transaction.atomic():
        NameSkeleton.objects.filter(user=instance).exclude(skeleton__in=wanted).delete()
        NameSkeleton.objects.bulk_create(
            [NameSkeleton(user=instance, skeleton=s) for s in wanted], ignore_conflicts=True
        )
