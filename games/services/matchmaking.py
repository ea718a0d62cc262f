"""Quick match, the lobby's "Find me a game": a player asks for a game and a seat count;
the next people who ask for the same sit down together at a new table, which starts at
once. A player who chose a wait (``settings.QUICK_MATCH_WAITS``) and is still alone, or
short of players, when it is over is seated with whoever waits with them and the service's
bots in the empty seats. The tables are made by the lobby's own functions (create, join,
bots, start), so they are like any other.

Matching is serialised per queue (one game and seat count): on PostgreSQL by a
transaction-scoped advisory lock, so two players asking at once land at one table; SQLite
writes one transaction at a time anyway.

The lobby also counts, per game, the players at tables in progress and those looking,
and how many people have the lobby open (their page asks for the counts every half
minute, which marks them present).
"""

from __future__ import annotations

import hashlib
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import connection, transaction
from django.db.models import Count
from django.utils import timezone

from games import publishing
from games.errors import Forbidden, ServiceError
from games.models import Game, MatchRequest, Presence
from games.rules import all_rulesets
from games.selectors import sources
from games.services.lobby import bot_add, game_start, table_create, table_join
from games.services.writing import TAKEOVER_LEVEL, ruleset_named

# A lobby page asks for the counts every 30 s: present if it asked within a minute.
LOBBY_PRESENT_SECONDS = 60
# A seated request is kept this long for the player's next look, then dropped; so is a
# request that waits for people only ("never" bots) and found none (its page is gone).
MATCHED_KEPT = timedelta(minutes=10)
LOOKING_KEPT = timedelta(minutes=15)


def quick_match_join(
    *, user: User, ruleset: str, seats: Any, bots_after: Any = None
) -> dict[str, Any]:
    """Queue ``user`` for a game (replacing a request of theirs): ``{"status": "matched",
    "table"}`` when enough people asked, else ``{"status": "waiting", ...}``."""
    if sources.is_bot_account(user):
        raise Forbidden(
            "bot_account", "A bot account plays the games it is challenged to, not quick ones."
        )
    rules = ruleset_named(ruleset)
    low, high = rules.seat_range(rules.clean_options({}))
    if not isinstance(seats, int) or isinstance(seats, bool) or not low <= seats <= high:
        raise ServiceError("bad_seats", f"{rules.name} is played by {low} to {high} players.")
    waits = settings.QUICK_MATCH_WAITS
    if bots_after is not None and (
        isinstance(bots_after, bool) or not isinstance(bots_after, int) or bots_after not in waits
    ):
        choices = ", ".join(str(w) for w in waits)
        raise ServiceError(
            "bad_wait", f"Bots fill the seats after one of {choices} seconds, or never (null)."
        )
    with transaction.atomic():
        _lock_queue(rules.key, seats)
        MatchRequest.objects.filter(user=user).delete()
        MatchRequest.objects.create(
            user=user, ruleset=rules.key, seats=seats, bots_after=bots_after
        )
        waiting = _waiting(rules.key, seats)
        if len(waiting) >= seats:
            _seat(waiting[:seats], bots=0)
    _counts_changed()
    return quick_match_state(user=user)


def quick_match_leave(*, user: User) -> None:
    """Stop looking (or forget the table found)."""
    with transaction.atomic():
        MatchRequest.objects.filter(user=user).delete()
    _counts_changed()


def quick_match_drop(*, user_id: int) -> None:
    """The player's lobby page closed (its socket): a request still waiting goes with it,
    so nobody is seated, against bots or people, at a table they are no longer there to
    see. A table already found stays found. The page asks again if its socket reopens."""
    with transaction.atomic():
        dropped, _ = MatchRequest.objects.filter(user_id=user_id, game__isnull=True).delete()
    if dropped:
        _counts_changed()


def quick_match_state(*, user: User) -> dict[str, Any]:
    """The caller's request as it stands, its wait settled first if it is over:
    ``idle``, ``waiting`` (with how many wait in its queue) or ``matched`` (the table)."""
    quick_matches_settle(user=user)
    found = MatchRequest.objects.filter(user=user).first()
    if found is None:
        return {"status": "idle"}
    if found.game_id is not None:
        return {"status": "matched", "table": str(found.game_id)}
    return {
        "status": "waiting",
        "ruleset": found.ruleset,
        "seats": found.seats,
        "bots_after": found.bots_after,
        "since": found.created_at.isoformat(),
        "waiting": MatchRequest.objects.filter(
            ruleset=found.ruleset, seats=found.seats, game__isnull=True
        ).count(),
    }


def quick_matches_settle(*, now: datetime | None = None, user: User | None = None) -> int:
    """Seat, with bots in the empty seats, every request whose wait is over (only
    ``user``'s, if given), together with the others waiting in its queue; drop seated
    requests kept long enough and those that waited for people only too long. Returns the
    tables started. The clock sweep runs it."""
    now = now or timezone.now()
    due = MatchRequest.objects.filter(game__isnull=True, bots_after__isnull=False)
    if user is not None:
        due = due.filter(user=user)
    started = 0
    for request in list(due):
        if request.created_at + timedelta(seconds=request.bots_after or 0) > now:
            continue
        with transaction.atomic():
            _lock_queue(request.ruleset, request.seats)
            waiting = _waiting(request.ruleset, request.seats)
            if request.pk not in {r.pk for r in waiting}:
                continue  # seated meanwhile, or gone
            others = [r for r in waiting if r.pk != request.pk][: request.seats - 1]
            _seat([request, *others], bots=request.seats - 1 - len(others))
            started += 1
    if user is None:
        MatchRequest.objects.filter(game__isnull=False, created_at__lt=now - MATCHED_KEPT).delete()
        dropped, _ = MatchRequest.objects.filter(
            game__isnull=True, bots_after__isnull=True, created_at__lt=now - LOOKING_KEPT
        ).delete()
        if dropped:
            _counts_changed()
    if started:
        _counts_changed()
    return started


def lobby_counts(*, present: User | None = None) -> dict[str, Any]:
    """``{"in_lobby", "games": {ruleset: {"playing", "looking"}}}``; ``present``: a
    signed-in visitor of the lobby, counted from now."""
    now = timezone.now()
    if present is not None and present.is_authenticated:
        Presence.objects.update_or_create(user=present, defaults={"seen_at": now})
    in_lobby = Presence.objects.filter(
        seen_at__gte=now - timedelta(seconds=LOBBY_PRESENT_SECONDS)
    ).count()
    playing = dict(
        Game.objects.filter(
            status=Game.Status.ACTIVE, seats__user__isnull=False, seats__resigned=False
        )
        .values_list("ruleset")
        .annotate(n=Count("seats__user", distinct=True))
    )
    looking = dict(
        MatchRequest.objects.filter(game__isnull=True)
        .values_list("ruleset")
        .annotate(n=Count("id"))
    )
    games = {
        r.key: {"playing": playing.get(r.key, 0), "looking": looking.get(r.key, 0)}
        for r in all_rulesets()
    }
    return {"in_lobby": in_lobby, "games": games}


def _waiting(ruleset: str, seats: int) -> list[MatchRequest]:
    return list(
        MatchRequest.objects.select_for_update(of=("self",))
        .select_related("user")
        .filter(ruleset=ruleset, seats=seats, game__isnull=True)
        .order_by("created_at", "pk")
    )


def _lock_queue(ruleset: str, seats: int) -> None:
    """One matcher at a time per queue, to the end of the transaction (PostgreSQL)."""
    if connection.vendor != "postgresql":
        return
    digest = hashlib.sha256(f"quick-match:{ruleset}:{seats}".encode()).digest()
    key = int.from_bytes(digest[:8], "big", signed=True)
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s)", [key])


def _seat(requests: list[MatchRequest], bots: int) -> Game:
    """A new table of the first request's game with these players (the oldest hosts)
    and ``bots`` of the service's bots, started; each player is told."""
    first = requests[0]
    host = first.user
    game = table_create(user=host, ruleset=first.ruleset, seats=first.seats, options={})
    for request in requests[1:]:
        table_join(game_id=game.id, user=request.user)
    for _ in range(bots):
        bot_add(game_id=game.id, user=host, level=TAKEOVER_LEVEL)
    game_start(game_id=game.id, user=host)
    MatchRequest.objects.filter(pk__in=[r.pk for r in requests]).update(game=game)
    players = [r.user_id for r in requests]

    def tell() -> None:
        for user_id in players:
            publishing.send_to_group(
                publishing.account_group(user_id), {"type": "match.found", "table": str(game.id)}
            )

    transaction.on_commit(tell)
    return game


def _counts_changed() -> None:
    """Every open lobby hears the new counts (after the commit)."""

    def tell() -> None:
        publishing.send_to_group(
            publishing.LOBBY_GROUP, {"type": "lobby.counts", "counts": lobby_counts()}
        )

    transaction.on_commit(tell)
