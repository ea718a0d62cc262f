"""Elo ratings per game (ruleset), updated when a rated game finishes.

The rule, for a game of N players ranked by the outcome (groups of tied seats):

- every player starts at ``START_RATING`` (1500) in each game;
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

This module is the rule; ``players.services`` writes the ratings (``players.receivers``
calls it when a game finishes) and ``players.selectors`` reads them.
"""

from __future__ import annotations

from typing import Any

from games import table as tables
from games.models import Game, Seat
from players.models import START_RATING

__all__ = ["K_FACTOR", "START_RATING", "elo_deltas", "expected", "unrated_reason"]

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
