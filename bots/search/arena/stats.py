"""What a match's games say: win rates with Wilson intervals, Elo, decision times, and
a field's mean placings.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass

from bots.search.arena.games import GameResult, Match

Z95 = 1.959963984540054


def wilson(score: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a win rate (ties counted as half a win)."""
    if n == 0:
        return 0.0, 1.0
    p = score / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def elo_difference(rate: float) -> float:
    """Elo points by which a side scoring ``rate`` is stronger (capped at ±800)."""
    rate = min(max(rate, 0.01), 0.99)
    return max(-800.0, min(800.0, 400 * math.log10(rate / (1 - rate))))


@dataclass
class Summary:
    match: Match
    games: int
    score_a: float
    rate: float
    low: float
    high: float
    by_seat: dict[int, tuple[float, int]]  # seat -> (A's score there, games)
    elo: dict[str, tuple[float, float, float]]  # level -> (rating, low, high)
    times: dict[str, dict[str, float]]  # level -> n, p50, p99, max (seconds)
    commands: int


def percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(0, min(len(ordered) - 1, math.ceil(q / 100 * len(ordered)) - 1))
    return ordered[rank]


def summarise(match: Match, results: list[GameResult], anchor: float = 1500.0) -> Summary:
    n = len(results)
    score = sum(r.score_a for r in results)
    rate = score / n if n else 0.5
    low, high = wilson(score, n)
    by_seat: dict[int, tuple[float, int]] = {}
    for seat in range(match.players):
        mine = [r for r in results if r.levels[seat] == match.a]
        by_seat[seat] = (sum(r.score_a for r in mine), len(mine))
    # Ratings centred on ``anchor``; the interval comes from the win rate's interval.
    d, d_low, d_high = elo_difference(rate), elo_difference(low), elo_difference(high)
    elo = {match.a: (anchor + d / 2, anchor + d_low / 2, anchor + d_high / 2)}
    if match.b != match.a:
        elo[match.b] = (anchor - d / 2, anchor - d_high / 2, anchor - d_low / 2)
    commands = sum(r.commands for r in results)
    return Summary(match, n, score, rate, low, high, by_seat, elo, times(results), commands)


def times(results: list[GameResult]) -> dict[str, dict[str, float]]:
    """Each level's decision times: n, p50, p99 and max (seconds)."""
    pooled: dict[str, list[float]] = {}
    for r in results:
        for level, values in r.seconds.items():
            pooled.setdefault(level, []).extend(values)
    return {
        level: {
            "n": len(values),
            "p50": percentile(values, 50),
            "p99": percentile(values, 99),
            "max": max(values, default=0.0),
        }
        for level, values in pooled.items()
    }


def mean_interval(values: list[float], z: float = Z95) -> tuple[float, float, float]:
    """The mean and its normal 95% interval (the games are independent)."""
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, -math.inf, math.inf
    half = z * statistics.stdev(values) / math.sqrt(len(values))
    return mean, mean - half, mean + half


@dataclass
class Standing:
    """A level of a field: its mean placing with its interval, and its share of wins."""

    level: str
    place: tuple[float, float, float]  # mean, low, high
    wins: float


@dataclass
class FieldSummary:
    match: Match
    games: int
    standings: list[Standing]  # best mean placing first
    # The first level's placing minus each other level's, per game: mean, low, high
    # (negative: the first level places better).
    against: dict[str, tuple[float, float, float]]
    times: dict[str, dict[str, float]]
    commands: int


def summarise_field(match: Match, results: list[GameResult]) -> FieldSummary:
    levels = list(dict.fromkeys(match.lineup))
    per_game: dict[str, list[float]] = {level: [] for level in levels}
    wins = dict.fromkeys(levels, 0.0)
    for r in results:
        for level in levels:
            seats = [s for s, name in enumerate(r.levels) if name == level]
            per_game[level].append(statistics.fmean(r.places[s] for s in seats))
            if r.winners:
                wins[level] += sum(r.levels[s] == level for s in r.winners) / len(r.winners)
    standings = sorted(
        (Standing(level, mean_interval(per_game[level]), wins[level]) for level in levels),
        key=lambda standing: standing.place[0],
    )
    first = levels[0]
    against = {
        level: mean_interval([a - b for a, b in zip(per_game[first], per_game[level], strict=True)])
        for level in levels[1:]
    }
    commands = sum(r.commands for r in results)
    return FieldSummary(match, len(results), standings, against, times(results), commands)
