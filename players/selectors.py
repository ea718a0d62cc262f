"""Reads about players: profiles, their games, ratings and leaderboards.

Views and the API call these and only translate the answer to HTML or JSON; the writes
are in ``players.services``. Each list is fetched in a fixed number of queries, whatever
its length (tests/players/test_selectors.py counts them).
"""

from __future__ import annotations

from collections.abc import Collection
from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db.models import Count, Exists, F, OuterRef, QuerySet, Subquery
from django.utils import timezone

from games.errors import NotFound
from games.models import Game, Seat
from games.rules import all_rulesets
from players import names
from players.models import START_RATING, BotAccount, NameSkeleton, Rating, RatingChange

PROFILE_GAMES = 100


def ruleset_names() -> dict[str, str]:
    """Every game's key and its name, in the order the rulesets are listed."""
    return {r.key: r.name for r in all_rulesets()}


def ruleset_name(ruleset: str) -> str:
    """The game's name, or ``NotFound("unknown_ruleset")`` for a key that is no game."""
    names = ruleset_names()
    if ruleset not in names:
        raise NotFound("unknown_ruleset", f"There is no game called {ruleset!r}.")
    return names[ruleset]


def player_get(username: str) -> User:
    """The account called ``username``, or ``NotFound("not_found")``."""
    # With whether it is a bot account (``is_bot``), read in the same query.
    user = get_user_model().objects.filter(username=username).select_related("bot_account").first()
    if user is None:
        raise NotFound("not_found", "No such player.")
    return user


def players_to_challenge(limit: int = 50) -> list[dict[str, Any]]:
    """The lobby's player list: the bot accounts, then the people who sat at a table in
    the last week, newest first (two queries)."""
    since = timezone.now() - timedelta(days=7)
    bots = list(
        BotAccount.objects.filter(user__is_active=True)
        .order_by("-upgraded_at")
        .values_list("user__username", flat=True)[:limit]
    )
    people = (
        Seat.objects.filter(user__is_active=True, game__created_at__gte=since)
        .exclude(user__bot_account__isnull=False)
        .order_by("-game__created_at")
        .values_list("user__username", flat=True)[: limit * 4]
    )
    seen: list[str] = []
    for name in people:
        if name not in seen:
            seen.append(name)
    return [{"username": n, "bot": True} for n in bots] + [
        {"username": n, "bot": False} for n in seen[:limit]
    ]


# ---- ratings ----------------------------------------------------------------------------
def name_look_alike_taken(username: str) -> bool:
    """An account's name reads as ``username`` (a skeleton in common: another script's
    letters, another case, "0" for "O"...): one lookup on the skeletons' index."""
    return NameSkeleton.objects.filter(skeleton__in=names.skeletons(username)).exists()


def rating_of(user: User, ruleset: str) -> float:
    row = Rating.objects.filter(user=user, ruleset=ruleset).first()
    return row.value if row else START_RATING


def is_bot(user: User) -> bool:
    """Whether ``user`` is a bot account (no query when read by ``player_get``)."""
    try:
        return user.bot_account is not None
    except BotAccount.DoesNotExist:
        return False


def bot_ids(user_ids: Collection[int]) -> set[int]:
    """The bot accounts among ``user_ids`` (games asks, through games.selectors.sources)."""
    return set(BotAccount.objects.filter(user_id__in=user_ids).values_list("user_id", flat=True))


def _rated(bots: bool = False) -> QuerySet[Rating]:
    """Ratings that are shown: of active accounts, with at least one rated game; people
    and bot accounts are ranked apart (``bots``)."""
    return Rating.objects.filter(
        games__gt=0, user__is_active=True, user__bot_account__isnull=not bots
    )


def leaderboard_rows(ruleset: str, bots: bool = False) -> QuerySet[Rating]:
    """The best rated players (or bot accounts) of one game first (the user joined, for
    the names)."""
    return (
        _rated(bots)
        .filter(ruleset=ruleset)
        .select_related("user")
        .order_by("-value", "user__username")
    )


def leaderboard_entry(row: Rating, rank: int) -> dict[str, Any]:
    return {
        "rank": rank,
        "username": row.user.username,
        "rating": round(row.value),
        "games": row.games,
        "updated_at": row.updated_at.isoformat(),
    }


def leaderboard(ruleset: str, limit: int = 100, bots: bool = False) -> list[dict[str, Any]]:
    """The best rated players of one game (active accounts with a rated game)."""
    rows = leaderboard_rows(ruleset, bots)[:limit]
    return [leaderboard_entry(row, index + 1) for index, row in enumerate(rows)]


def leaderboards(limit: int = 10, bots: bool = False) -> list[dict[str, Any]]:
    """Every game's top ``limit``: ``[{"key", "name", "players"}]``."""
    return [
        {"key": key, "name": name, "players": leaderboard(key, limit, bots)}
        for key, name in ruleset_names().items()
    ]


def ratings_for(user: User) -> list[dict[str, Any]]:
    """A player's ratings, one per game played rated, for the profile page:
    ``[{"ruleset", "ruleset_name", "rating", "games", "rank", "last_change"}]``.

    One query: the rank (players above, plus one) and the last change are subqueries."""

    def above(bots: bool) -> Subquery:
        # People and bot accounts are ranked apart: the players above, among their kind.
        return Subquery(
            _rated(bots)
            .filter(ruleset=OuterRef("ruleset"), value__gt=OuterRef("value"))
            .order_by()
            .values("ruleset")
            .annotate(n=Count("pk"))
            .values("n")
        )

    last_change = (
        RatingChange.objects.filter(user=OuterRef("user"), ruleset=OuterRef("ruleset"))
        .order_by("-created_at", "place")  # the model's ordering: the newest change
        .annotate(delta_=F("after") - F("before"))
        .values("delta_")[:1]
    )
    rows = (
        Rating.objects.filter(user=user, games__gt=0)
        .annotate(
            above_people=above(False),
            above_bots=above(True),
            bot=Exists(BotAccount.objects.filter(user=OuterRef("user"))),
            last_delta=Subquery(last_change),
        )
        .order_by("ruleset")
    )
    names = ruleset_names()
    return [
        {
            "ruleset": row.ruleset,
            "ruleset_name": names.get(row.ruleset, row.ruleset),
            "rating": round(row.value),
            "games": row.games,
            "rank": ((row.above_bots if row.bot else row.above_people) or 0) + 1,
            "last_change": round(row.last_delta, 1) if row.last_delta is not None else None,
        }
        for row in rows
    ]


# ---- profile ----------------------------------------------------------------------------
def shared_place(ranking: list[list[int]], seat: int) -> int | None:
    """The seat's place as results are usually printed: players who tie share a place
    and the next place is skipped (two tied winners, then 3rd)."""
    ahead = 0
    for group in ranking:
        if seat in group:
            return ahead + 1
        ahead += len(group)
    return None


def player_games(user: User, limit: int = PROFILE_GAMES) -> QuerySet[Game]:
    """The games ``user`` sat at that have started (newest first, as games are ordered),
    with their seats."""
    return (
        Game.objects.filter(seats__user=user)
        .exclude(status=Game.Status.OPEN)
        .prefetch_related("seats__user")
        .distinct()[:limit]
    )


def player_profile(user: User) -> dict[str, Any]:
    """What the profile page shows: ``{"player", "ratings", "rows", "stats",
    "per_game", "opponents"}``, a row per game with the player's place and score."""
    names = ruleset_names()
    rows = []
    stats = {"played": 0, "won": 0, "active": 0}
    per_game: dict[str, dict] = {}
    games = list(player_games(user))
    for game in games:
        seat = next((s for s in game.seats.all() if s.user_id == user.pk), None)
        place = score = None
        if game.outcome and seat and seat.number is not None:
            place = shared_place(game.outcome["ranking"], seat.number)
            score = game.outcome.get("scores", {}).get(str(seat.number))
        name = names.get(game.ruleset, game.ruleset)
        if game.status == Game.Status.ACTIVE:
            stats["active"] += 1
        elif game.status == Game.Status.FINISHED:
            tally = per_game.setdefault(game.ruleset, {"name": name, "played": 0, "won": 0})
            stats["played"] += 1
            tally["played"] += 1
            if place == 1:
                stats["won"] += 1
                tally["won"] += 1
        rows.append(
            {
                "game": game,
                "place": place,
                "seat": seat,
                "score": score,
                "players": len(game.seats.all()),
                "ruleset_name": name,
                # Against the service's bots (a seat with no account): practice, unrated,
                # as Board Game Arena lists its games against bots.
                "practice": any(s.user_id is None and s.bot_level for s in game.seats.all()),
            }
        )
    return {
        "player": user,
        "is_bot": is_bot(user),
        "ratings": ratings_for(user),
        "rows": rows,
        "stats": stats,
        "per_game": sorted(per_game.values(), key=lambda t: t["name"]),
        "opponents": recent_opponents(user, games),
    }


RECENT_OPPONENTS = 8


def recent_opponents(user: User, games: list[Game]) -> list[dict[str, Any]]:
    """The accounts ``user`` played most recently (up to ``RECENT_OPPONENTS``), newest
    first: ``{"name", "games", "ahead", "behind"}``, ``ahead`` and ``behind`` counting the
    finished games where ``user`` placed above or below them. Games come newest first."""
    found: dict[int, dict[str, Any]] = {}
    for game in games:
        seats = list(game.seats.all())
        mine = next((s for s in seats if s.user_id == user.pk), None)
        for seat in seats:
            other = seat.user
            if other is None or other.pk == user.pk:
                continue
            if other.pk not in found and len(found) == RECENT_OPPONENTS:
                continue
            entry = found.setdefault(
                other.pk, {"name": other.username, "games": 0, "ahead": 0, "behind": 0}
            )
            entry["games"] += 1
            ranking = (game.outcome or {}).get("ranking")
            if game.status != Game.Status.FINISHED or not ranking or mine is None:
                continue
            if mine.number is None or seat.number is None:
                continue
            own, theirs = shared_place(ranking, mine.number), shared_place(ranking, seat.number)
            if own is not None and theirs is not None and own != theirs:
                entry["ahead" if own < theirs else "behind"] += 1
    return list(found.values())
