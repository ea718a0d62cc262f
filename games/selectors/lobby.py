"""The lobby's tables and one table's summary and detail, with the seated players'
ratings (asked of the rating source the players app sets: games imports no app)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Prefetch, QuerySet
from django.utils import timezone

from games import clocks
from games.models import Game, Seat
from games.rules import get_ruleset
from games.selectors import ratings as rating_source
from games.selectors import sources
from games.selectors.views import game_view, viewer_seat


def table_list(
    user: User | AnonymousUser | None,
    *,
    ruleset: str | None = None,
    status: str | None = None,
    mine: bool = False,
) -> QuerySet[Game]:
    """The lobby's tables (the caller pages and orders them), each with its host, seats
    and seated players read by the same few queries whatever the number of tables."""
    seats = Seat.objects.select_related("user").order_by("number", "joined_order")
    games = Game.objects.select_related("created_by").prefetch_related(
        Prefetch("seats", queryset=seats, to_attr="ordered_seats")
    )
    if ruleset:
        games = games.filter(ruleset=ruleset)
    if status:
        games = games.filter(status=status)
    if mine and user is not None and user.is_authenticated:
        games = games.filter(seats__user=user)
    else:  # a challenge's table is listed only to the players sitting at it
        games = games.filter(private=False)
    return games


def _seats_of(game: Game) -> list[Seat]:
    """The game's seats in seat order, from ``table_list``'s prefetch when it ran."""
    prefetched = getattr(game, "ordered_seats", None)
    if prefetched is not None:
        return prefetched
    return list(game.seats.select_related("user").order_by("number", "joined_order"))


def _ratings_of(games: list[Game]) -> dict[tuple[str, int], int]:
    """(ruleset, user id) → the rounded rating of every seated player of ``games``, in
    one query (players who have not played a rated game yet have none)."""
    people = {s.user_id for g in games for s in _seats_of(g) if s.user_id}
    if not people:
        return {}
    return rating_source.ratings({g.ruleset for g in games}, people)


def _bot_accounts_of(games: list[Game]) -> set[int]:
    """The bot accounts seated at ``games``, in one query."""
    return sources.bot_accounts({s.user_id for g in games for s in _seats_of(g) if s.user_id})


def seats_json(
    game: Game,
    ratings: dict[tuple[str, int], int] | None = None,
    bot_accounts: set[int] | None = None,
) -> list[dict[str, Any]]:
    seats = _seats_of(game)
    ratings = _ratings_of([game]) if ratings is None else ratings
    bot_accounts = _bot_accounts_of([game]) if bot_accounts is None else bot_accounts
    return [
        {
            "id": s.pk,
            "seat": s.number,
            "name": f"{s.user.username} (bot)"
            if s.user is not None and s.user_id in bot_accounts and not s.bot_level
            else s.display_name,
            "user": s.user.username if s.user is not None else None,
            "bot": s.bot_level or None,
            # A bot account (players.models.BotAccount) plays the seat through the API.
            "bot_account": s.user_id in bot_accounts,
            "resigned": s.resigned,
            "expelled": s.expelled,
            "kicked": s.kicked,
            "rating": ratings.get((game.ruleset, s.user_id))
            if s.user_id and not s.departed
            else None,
        }
        for s in seats
    ]


def table_summaries(games: Iterable[Game]) -> list[dict[str, Any]]:
    """Many tables' summaries with one ratings query for them all (seats prefetched by
    ``table_list``)."""
    games = list(games)
    ratings, bots = _ratings_of(games), _bot_accounts_of(games)
    return [table_summary(g, ratings, bots) for g in games]


def table_summary(
    game: Game,
    ratings: dict[tuple[str, int], int] | None = None,
    bot_accounts: set[int] | None = None,
) -> dict[str, Any]:
    rules = get_ruleset(game.ruleset)
    return {
        "id": str(game.id),
        "ruleset": game.ruleset,
        "ruleset_name": rules.name,
        "ruleset_version": game.ruleset_version,
        "options": game.options,
        "status": game.status,
        "seats_wanted": game.seats_wanted,
        "seats": seats_json(game, ratings, bot_accounts),
        "host": game.created_by.username if game.created_by is not None else None,
        "head_seq": game.head_seq,
        "seed_commitment": game.seed_commitment,
        "seed": game.revealed_seed,
        "created_at": game.created_at.isoformat(),
        "outcome": game.outcome,
        "time_control": game.time_control or {"kind": clocks.NONE},
        "seat_range": list(rules.seat_range(game.options)),
        "bot_think_seconds": game.think_seconds,
        "private": game.private,
    }


OVER = (Game.Status.FINISHED, Game.Status.ABORTED)


def table_detail(game: Game, user: User | AnonymousUser | None) -> dict[str, Any]:
    seat = viewer_seat(game, user)
    view = game_view(game, seat)
    return {
        **table_summary(game),
        "your_seat": seat,
        "view_seq": view["seq"],
        "view": view["state"],
        # The clocks in the view hold absolute deadlines (ms since the epoch): compare
        # them with this, not with the browser's own clock.
        "server_time_ms": clocks.ms_of(timezone.now()),
        "rating_changes": rating_source.rating_changes(game),
        # The rematch one of this game's players opened, while it waits for players.
        "rematch": rematch_offer(open_rematch(game)) if game.status in OVER else None,
    }


def open_rematch(game: Game) -> Game | None:
    """The table opened to play ``game`` again, while it is open (the first, if ever two)."""
    return (
        Game.objects.filter(rematch_of=game, status=Game.Status.OPEN)
        .select_related("created_by")
        .order_by("created_at")
        .first()
    )


def rematch_offer(table: Game | None) -> dict[str, Any] | None:
    """What a finished game's players are told of its rematch: the table and its host."""
    if table is None:
        return None
    host = table.created_by
    return {"id": str(table.id), "by": host.get_username() if host is not None else None}


def has_played(user: User) -> bool:
    """Whether ``user`` sat at a table that started (a new account has not)."""
    return Seat.objects.filter(user=user).exclude(game__status=Game.Status.OPEN).exists()
