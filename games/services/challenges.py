"""Challenges: inviting a particular player (or bot account) to a seat at a table of
the challenger's. The table is the lobby's own (``table_create`` with ``private``, seats
taken with ``table_join``, started with ``game_start``): a challenge adds who may sit
there and when it starts, which is when every invited seat has accepted and the table is
full. An unanswered challenge expires after ``CHALLENGE_SECONDS``; a table whose every
invitation was declined, canceled or expired before it started is closed.

What each party's account stream is told (``challenge``, ``challengeCanceled``,
``challengeDeclined``, ``gameStart``) goes out after commit (games/publishing/accounts.py).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone

from games.errors import Conflict, Forbidden, NotFound, ServiceError, from_illegal
from games.models import Challenge, Game
from games.rules.base import IllegalCommand
from games.selectors import challenges as challenge_reads
from games.selectors import sources
from games.services import account_news, lobby
from games.services.seating import table_locked
from games.services.writing import after_commit

CHALLENGE_SECONDS = 600
LIVE = (Challenge.Status.CREATED, Challenge.Status.ACCEPTED)


def _challenged_user(username: Any) -> User:
    user = None
    if isinstance(username, str):
        user = get_user_model().objects.filter(username=username, is_active=True).first()
    if user is None:
        raise NotFound("not_found", "No such player.")
    return user


def challenges_expire() -> int:
    """Mark the challenges whose time ran out ``expired`` and close the tables left
    with nobody invited (called before every read or write of challenges: no sweep to
    run). Answers how many expired."""
    due = list(
        Challenge.objects.filter(status=Challenge.Status.CREATED, expires_at__lte=timezone.now())
        .values_list("pk", "game_id")
        .order_by()
    )
    for challenge_id, game_id in due:
        with transaction.atomic():
            game = table_locked(game_id)
            changed = Challenge.objects.filter(
                pk=challenge_id, status=Challenge.Status.CREATED
            ).update(status=Challenge.Status.EXPIRED, answered_at=timezone.now())
            if changed:
                challenge = Challenge.objects.select_related("game").get(pk=challenge_id)
                _close_if_abandoned(game)
                account_news.after_commit(challenge, "challengeCanceled")
    return len(due)


def _require_room_for(game: Game, invited: User) -> None:
    if game.seats.filter(user=invited).exists():
        raise Conflict("already_seated", "That player already has a seat at this table.")
    if game.challenges.filter(challenged=invited, status__in=LIVE).exists():
        raise Conflict("already_challenged", "That player is already invited to this table.")
    open_invitations = game.challenges.filter(status=Challenge.Status.CREATED).count()
    if game.seats.count() + open_invitations >= game.seats_wanted:
        raise Conflict("table_full", "Every seat at this table is taken or promised.")


def _table_for(challenger: User, body: dict[str, Any], invited: User) -> Game:
    """The challenger's own open private table named by ``table``, or a new one."""
    table_id = body.get("table")
    if table_id is None:
        ruleset = body.get("ruleset")
        rules = lobby.ruleset_named(ruleset if isinstance(ruleset, str) else "")
        seats = body.get("seats")
        if seats is None:  # the fewest the game allows, two at least
            options = body.get("options")
            try:
                cleaned = rules.clean_options(options if isinstance(options, dict) else None)
            except IllegalCommand as exc:
                raise from_illegal(exc) from exc
            seats = max(2, rules.seat_range(cleaned)[0])
        return lobby.table_create(
            user=challenger,
            ruleset=rules.key,
            seats=seats,
            options=body.get("options"),
            time_control=body.get("time_control"),
            private=True,
        )
    game = table_locked(table_id)
    if game.created_by_id != challenger.pk:
        raise Forbidden("not_your_table", "You may challenge players only to your own table.")
    if game.status != Game.Status.OPEN or not game.private:
        raise Conflict("table_not_open", "That table is not an open challenge table.")
    ruleset = body.get("ruleset")
    if ruleset is not None and ruleset != game.ruleset:
        raise ServiceError("ruleset_mismatch", f"That table plays {game.ruleset}.")
    return game


def challenge_create(*, challenger: User, username: Any, body: dict[str, Any]) -> Challenge:
    """Challenge the player ``username`` to a seat at a new table (``body``: ruleset,
    options, seats, time_control) or at the challenger's open challenge table
    (``body["table"]``)."""
    challenges_expire()
    with transaction.atomic():
        return _create(challenger, username, body)


def _create(challenger: User, username: Any, body: dict[str, Any]) -> Challenge:
    invited = _challenged_user(username)
    if invited.pk == challenger.pk:
        raise ServiceError("self_challenge", "You cannot challenge yourself.")
    refusal = sources.challenge_refusal(challenger, invited)
    if refusal is not None:
        raise Forbidden(*refusal)
    most = settings.CHALLENGES_OPEN_PER_ACCOUNT
    if challenge_reads.open_outgoing(challenger).count() >= most:
        raise ServiceError(
            "too_many_challenges",
            f"You may have {most} challenges waiting for an answer at once; cancel one "
            "or wait for the answers.",
            status=429,
        )
    game = _table_for(challenger, body, invited)
    _require_room_for(game, invited)
    try:
        with transaction.atomic():
            now = timezone.now()
            challenge = Challenge.objects.create(
                game=game,
                challenger=challenger,
                challenged=invited,
                created_at=now,
                expires_at=now + timedelta(seconds=CHALLENGE_SECONDS),
            )
    except IntegrityError as exc:  # the same player invited twice at once
        raise Conflict("already_challenged", "That player is already invited.") from exc
    account_news.after_commit(challenge, "challenge")
    return challenge


def _locked_challenge(challenge_id: Any) -> tuple[Challenge, Game]:
    try:
        game_id = Challenge.objects.values_list("game_id", flat=True).get(pk=challenge_id)
    except (Challenge.DoesNotExist, ValidationError, ValueError, TypeError) as exc:
        raise NotFound("not_found", "No such challenge.") from exc
    game = table_locked(game_id)  # the table's lock orders every answer to its challenges
    challenge = Challenge.objects.select_related("challenger", "challenged", "game").get(
        pk=challenge_id
    )
    return challenge, game


def _require_open(challenge: Challenge) -> None:
    if challenge.status == Challenge.Status.EXPIRED:
        raise Conflict("challenge_expired", "This challenge has expired.")
    if challenge.status != Challenge.Status.CREATED:
        raise Conflict("challenge_answered", f"This challenge is already {challenge.status}.")


def challenge_accept(*, challenge_id: Any, user: User) -> Challenge:
    """Take the invited seat; the table starts once every invited seat accepted and it
    is full (the host's bots count)."""
    challenges_expire()
    with transaction.atomic():
        return _accept(challenge_id, user)


def _accept(challenge_id: Any, user: User) -> Challenge:
    challenge, game = _locked_challenge(challenge_id)
    if challenge.challenged_id != user.pk:
        raise Forbidden("not_yours", "Only the challenged player can accept this challenge.")
    _require_open(challenge)
    lobby.table_join(game_id=game.id, user=user, invited=True)
    challenge.status = Challenge.Status.ACCEPTED
    challenge.answered_at = timezone.now()
    challenge.save(update_fields=["status", "answered_at"])
    game.refresh_from_db()
    waiting = game.challenges.filter(status=Challenge.Status.CREATED).exists()
    if not waiting and game.seats.count() >= game.seats_wanted and game.created_by is not None:
        lobby.game_start(game_id=game.id, user=game.created_by)
    return challenge


def challenge_decline(*, challenge_id: Any, user: User, reason: str = "") -> Challenge:
    challenges_expire()
    with transaction.atomic():
        return _decline(challenge_id, user, reason)


def _decline(challenge_id: Any, user: User, reason: str) -> Challenge:
    challenge, game = _locked_challenge(challenge_id)
    if challenge.challenged_id != user.pk:
        raise Forbidden("not_yours", "Only the challenged player can decline this challenge.")
    _require_open(challenge)
    return _close(challenge, game, Challenge.Status.DECLINED, "challengeDeclined", reason)


def challenge_cancel(*, challenge_id: Any, user: User) -> Challenge:
    challenges_expire()
    with transaction.atomic():
        return _cancel(challenge_id, user)


def _cancel(challenge_id: Any, user: User) -> Challenge:
    challenge, game = _locked_challenge(challenge_id)
    if challenge.challenger_id != user.pk:
        raise Forbidden("not_yours", "Only the challenger can cancel this challenge.")
    _require_open(challenge)
    return _close(challenge, game, Challenge.Status.CANCELED, "challengeCanceled")


def _close(challenge: Challenge, game: Game, status: Any, kind: str, reason: str = "") -> Challenge:
    challenge.status = status
    challenge.decline_reason = reason
    challenge.answered_at = timezone.now()
    challenge.save(update_fields=["status", "decline_reason", "answered_at"])
    _close_if_abandoned(game)
    account_news.after_commit(challenge, kind)
    return challenge


def _close_if_abandoned(game: Game) -> None:
    """A challenge table that has not started and has nobody left invited or seated
    besides its host is closed (aborted before its start, as the moderators' abort
    closes an open table): it was only ever for those players."""
    if game.status != Game.Status.OPEN or not game.private:
        return
    if game.challenges.filter(status__in=LIVE).exists():
        return
    others = game.seats.exclude(user=game.created_by) if game.created_by else game.seats.all()
    if others.filter(user__isnull=False).exists():
        return
    game.status = Game.Status.ABORTED
    game.finished_at = timezone.now()
    game.save(update_fields=["status", "finished_at"])
    after_commit(game, lobby=not game.private)
