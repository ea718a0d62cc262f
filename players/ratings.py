"""Elo ratings per game (ruleset), updated when a rated game finishes.

The rule, for a game of N players ranked by the outcome (groups of tied seats):

- every player starts at 1500 in each game;
- the game counts as N-1 pairwise results for each player: a win against each player
  ranked below, a loss against each ranked above, half a point against each tie;
- ``expected(a, b) = 1 / (1 + 10 ** ((b - a) / 400))`` with the ratings from before the
  game, and ``delta = K / (N - 1) * sum(score - expected)`` with ``K = 32``: a two-player
  game moves at most 32 points, and a four-player game as much, spread over its three
  pairings, so a game's swing does not grow with the number of players.

A game is unrated when a bot played any seat — from the start, or by taking over a seat
whose player resigned, was expelled or was removed — or when anyone was expelled or
removed. A resignation that ends the game at once (the last opponent resigns) leaves no
seat to a bot: that game is rated and the resigner loses.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from games import table as tables
from games.models import Game, Seat
from games.rules import all_rulesets
from players.models import START_RATING, Rating, RatingChange

K_FACTOR = 32.0


def expected(rating: float, opponent: float) -> float:
    return 1.0 / (1.0 + 10.0 ** ((opponent - rating) / 400.0))


def elo_deltas(ratings: dict[Any, float], ranking: list[list[Any]]) -> dict[Any, float]:
    """Each player's rating change from one game: pairwise by rank, ties as half."""
    place = {player: index for index, group in enumerate(ranking) for player in group}
    players = list(place)
    if len(players) < 2:
        return {p: 0.0 for p in players}
    weight = K_FACTOR / (len(players) - 1)
    deltas = {}
    for me in players:
        total = 0.0
        for other in players:
            if other == me:
                continue
            if place[me] < place[other]:
                score = 1.0
            elif place[me] > place[other]:
                score = 0.0
            else:
                score = 0.5
            total += score - expected(ratings[me], ratings[other])
        deltas[me] = weight * total
    return deltas


def unrated_reason(game: Game, table: tables.TableState) -> str | None:
    """Why this finished game does not count, or None when it is rated."""
    seats = list(Seat.objects.filter(game=game))
    if len(seats) < 2:
        return "a game needs two players to be rated"
    if any(s.user_id is None for s in seats):
        return "a bot played"
    if table.expelled:
        return "a player was expelled"
    if table.kicked:
        return "a moderator removed a player"
    if table.departures:
        ended_by_leaving = table.players - len(table.departures) <= 1
        taken_over = table.departures[:-1] if ended_by_leaving else table.departures
        if taken_over:
            return "a bot took over a seat"
    return None


@transaction.atomic
def record_result(game: Game, table: tables.TableState) -> list[RatingChange]:
    """Update the players' ratings from a finished game (once; under the game's lock)."""
    if game.outcome is None or unrated_reason(game, table) is not None:
        return []
    if RatingChange.objects.filter(game=game).exists():
        return []
    user_of = {s.number: s.user_id for s in Seat.objects.filter(game=game)}
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


def _names() -> dict[str, str]:
    return {r.key: r.name for r in all_rulesets()}


def ratings_for(user: AbstractBaseUser) -> list[dict[str, Any]]:
    """A player's ratings, one per game played rated, for the profile page:
    ``[{"ruleset", "ruleset_name", "rating", "games", "rank", "last_change"}]``."""
    names = _names()
    out = []
    for row in Rating.objects.filter(user=user, games__gt=0).order_by("ruleset"):
        above = Rating.objects.filter(
            ruleset=row.ruleset, games__gt=0, value__gt=row.value, user__is_active=True
        ).count()
        last = RatingChange.objects.filter(user=user, ruleset=row.ruleset).first()
        out.append(
            {
                "ruleset": row.ruleset,
                "ruleset_name": names.get(row.ruleset, row.ruleset),
                "rating": round(row.value),
                "games": row.games,
                "rank": above + 1,
                "last_change": round(last.delta, 1) if last else None,
            }
        )
    return out


def leaderboard(ruleset: str, limit: int = 100) -> list[dict[str, Any]]:
    """The best rated players of one game (active accounts with a rated game)."""
    rows = (
        Rating.objects.filter(ruleset=ruleset, games__gt=0, user__is_active=True)
        .select_related("user")
        .order_by("-value", "user__username")[:limit]
    )
    return [
        {
            "rank": index + 1,
            "username": row.user.username,
            "rating": round(row.value),
            "games": row.games,
            "updated_at": row.updated_at.isoformat(),
        }
        for index, row in enumerate(rows)
    ]


def rating_of(user: AbstractBaseUser, ruleset: str) -> float:
    row = Rating.objects.filter(user=user, ruleset=ruleset).first()
    return row.value if row else START_RATING
