"""Writes about players: accounts, API credentials, ratings after a game.

The API and pages call these and only translate HTTP; the reads are in
``players.selectors``. Each write is one function with keyword arguments.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import IntegrityError, transaction
from rest_framework import serializers
from rest_framework.authtoken.models import Token

from games import publishing
from games import table as tables
from games.errors import Conflict
from games.models import Game, Seat
from players import selectors, tickets
from players.models import BotAccount, Rating, RatingChange
from players.ratings import elo_deltas, unrated_reason


# ---- accounts ---------------------------------------------------------------------------
def account_create(*, username: str, password: str) -> tuple[User, str]:
    """A new account and its API token, as ``(user, token key)``.

    ``Conflict("username_taken")`` when the name is taken or reads like a name that is
    (as on the sign-up page: "Ana", or "аna" with a Cyrillic "а", beside "ana" would
    pass for another player); a password Django's validators refuse is a 400 on the
    ``password`` field."""
    users = get_user_model()
    if selectors.name_look_alike_taken(username):
        raise Conflict("username_taken", "That username is taken, or looks like one that is.")
    try:
        validate_password(password, users(username=username))
    except DjangoValidationError as exc:
        raise serializers.ValidationError({"password": exc.messages}) from exc
    try:
        user = users.objects.create_user(username=username, password=password)
    except IntegrityError as exc:  # a racing sign-up with the same name
        raise Conflict("username_taken", "That username is taken.") from exc
    token, _ = Token.objects.get_or_create(user=user)
    return user, token.key


@transaction.atomic
def bot_upgrade(*, user: User) -> BotAccount:
    """Turn an account that has never played into a bot account, for good: it is shown
    as a bot, ranked with the bots, and plays the games it is challenged to (or
    challenges others to) through the API only."""
    users = get_user_model()
    users.objects.select_for_update().get(pk=user.pk)  # two upgrades at once: one wins
    if BotAccount.objects.filter(user=user).exists():
        raise Conflict("already_bot", "This account is a bot account already.")
    if Seat.objects.filter(user=user).exists():
        raise Conflict(
            "has_played",
            "Only an account that has never sat at a table can become a bot account.",
        )
    return BotAccount.objects.create(user=user)


def token_revoke(*, user: User) -> None:
    """Delete the account's API token: it stops working at once, for every client, and
    the sockets API clients opened with its tickets close."""
    Token.objects.filter(user=user).delete()
    group = publishing.api_group(user.pk)
    transaction.on_commit(lambda: publishing.signed_out(group))


def ws_ticket_issue(
    *, user: User, token_key: str | None = None, session_key: str | None = None
) -> str:
    """A single-use ticket to open a WebSocket as ``user`` (see ``players.tickets``), good
    only while what asked for it holds: the API token ``token_key`` or the browser
    session ``session_key``."""
    return tickets.issue(user, token_key=token_key, session_key=session_key)


# ---- ratings ----------------------------------------------------------------------------
@transaction.atomic
def rating_record_result(*, game: Game, table: tables.TableState) -> list[RatingChange]:
    """Update the players' ratings from a finished game (once; under the game's lock)."""
    if game.outcome is None or unrated_reason(game, table) is not None:
        return []
    if RatingChange.objects.filter(game=game).exists():
        return []
    # A rated game has no bot seat (unrated_reason), so every seat has its user.
    user_of = {s.number: s.user_id for s in Seat.objects.filter(game=game) if s.user_id is not None}
    ranking = [[user_of[seat] for seat in group] for group in game.outcome["ranking"]]
    users = sorted(user_of.values())
    Rating.objects.bulk_create(
        [Rating(user_id=u, ruleset=game.ruleset) for u in users], ignore_conflicts=True
    )
    # Locked in user order, so two games finishing at once cannot deadlock.
    rows = {
        r.user_id: r
        for r in Rating.objects.select_for_update()
        .filter(ruleset=game.ruleset, user_id__in=users)
        .order_by("user_id")
    }
    before = {u: rows[u].value for u in users}
    deltas = elo_deltas(before, ranking)
    place = {u: index + 1 for index, group in enumerate(ranking) for u in group}
    changes = []
    for user_id in users:
        row = rows[user_id]
        row.value = before[user_id] + deltas[user_id]
        row.games += 1
        row.save(update_fields=["value", "games", "updated_at"])
        changes.append(
            RatingChange(
                game=game,
                user_id=user_id,
                ruleset=game.ruleset,
                place=place[user_id],
                before=before[user_id],
                after=row.value,
            )
        )
    return RatingChange.objects.bulk_create(changes)
