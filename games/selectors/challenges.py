"""Reading challenges: a player's incoming and outgoing ones, and each as the API and the
account stream show it."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db.models import Q, QuerySet
from django.utils import timezone

from games import clocks
from games.models import Challenge, Game
from games.rules import get_ruleset
from games.selectors import sources


def open_outgoing(user: User) -> QuerySet[Challenge]:
    return Challenge.objects.filter(
        challenger=user, status=Challenge.Status.CREATED, expires_at__gt=timezone.now()
    )


def open_incoming(user: User) -> QuerySet[Challenge]:
    return (
        Challenge.objects.filter(
            challenged=user, status=Challenge.Status.CREATED, expires_at__gt=timezone.now()
        )
        .select_related("challenger", "challenged", "game")
        .order_by("created_at")
    )


def challenges_of(user: User) -> dict[str, list[dict[str, Any]]]:
    """The caller's open challenges, ``in`` (to them) and ``out`` (theirs), oldest first."""
    rows = list(
        Challenge.objects.filter(Q(challenger=user) | Q(challenged=user))
        .filter(status=Challenge.Status.CREATED, expires_at__gt=timezone.now())
        .select_related("challenger", "challenged", "game")
        .order_by("created_at")
    )
    bots = sources.bot_accounts({c.challenger_id for c in rows} | {c.challenged_id for c in rows})
    return {
        "in": [challenge_json(c, bots, "in") for c in rows if c.challenged_id == user.pk],
        "out": [challenge_json(c, bots, "out") for c in rows if c.challenger_id == user.pk],
    }


def _player(user: User, bots: set[int]) -> dict[str, Any]:
    return {"name": user.get_username(), "bot": user.pk in bots}


def challenge_json(
    challenge: Challenge, bots: set[int] | None = None, direction: str | None = None
) -> dict[str, Any]:
    """A challenge as the API shows it; ``direction``: "in" (to the reader) or "out"."""
    if bots is None:
        bots = sources.bot_accounts([challenge.challenger_id, challenge.challenged_id])
    game = challenge.game
    return {
        "id": str(challenge.id),
        "status": challenge.status,
        "challenger": _player(challenge.challenger, bots),
        "dest_user": _player(challenge.challenged, bots),
        "table": str(game.id),
        "ruleset": game.ruleset,
        "options": game.options,
        "seats": game.seats_wanted,
        "time_control": game.time_control or {"kind": clocks.NONE},
        "decline_reason": challenge.decline_reason or None,
        "created_at": challenge.created_at.isoformat(),
        "expires_at": challenge.expires_at.isoformat(),
        "url": f"/tables/{game.id}/",
        "direction": direction,
    }


def game_json(game: Game) -> dict[str, Any]:
    """A game as the account stream announces it (its players, in seat order)."""
    seats = list(game.seats.select_related("user").order_by("number", "joined_order"))
    bots = sources.bot_accounts({s.user_id for s in seats if s.user_id})
    return {
        "id": str(game.id),
        "ruleset": game.ruleset,
        "ruleset_name": get_ruleset(game.ruleset).name,
        "status": game.status,
        "seats": [
            {
                "seat": s.number,
                "name": s.user.get_username() if s.user is not None else s.display_name,
                "bot": bool(s.bot_level) or s.user_id in bots,
            }
            for s in seats
        ],
        "url": f"/tables/{game.id}/",
    }


def games_in_progress(user: User) -> list[Game]:
    return list(
        Game.objects.filter(status=Game.Status.ACTIVE, seats__user=user).order_by("started_at")
    )
