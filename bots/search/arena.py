"""The arena: bot-against-bot games played directly on the rules engines (no database),
and the statistics that say which bot is stronger.

Two levels, A and B, share the seats of each game, alternating: in game ``i`` seat ``j``
is played by A when ``i + j`` is even, so over any two games each level sits in every
seat equally often. A game scores A's share of the winners (a shared win of A and B is a
half). Each game has its own seeds, derived from the arena seed and the game's number, so
a game played in any worker process is the same game (up to a search bot's clock).

A *field* of levels (three or four players, one level per seat, a level may appear twice)
is seated in each of its distinct orders in turn, so every level sits in every seat and
after every other level equally often over a whole cycle; each level is then judged by its
mean placing (1 is first; tied seats share the mean of their places), and the first level
against each other one by the per-game difference of their placings.

A long match is played in *parts* (the same match, other seeds), each saved as JSON with
every game's result and the commit that played it; pooled, the parts are one match.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import math
import os
import random
import statistics
import subprocess
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from contextlib import nullcontext
from dataclasses import dataclass, field
from multiprocessing import get_context
from pathlib import Path
from typing import Any

from bots.search.budget import thinking_budget
from bots.strategies import get_strategy
from games.rules import get_ruleset
from games.rules.base import Ruleset

# A game that runs longer than this many commands is a bug in a bot or an engine.
MAX_COMMANDS = 20_000
Z95 = 1.959963984540054


@dataclass(frozen=True)
class Match:
    """What to play: ``games`` games of ``game`` between levels ``a`` and ``b``."""

    game: str
    a: str
    b: str
    games: int
    players: int = 2
    seed: int = 0
    seconds: float | None = None  # the search bots' thinking budget
    playouts: int | None = None
    options: dict[str, Any] = field(default_factory=dict)
    # Several levels, one per seat, seated in each of their orders in turn (``players``
    # must be their number); ``a`` and ``b`` are then the first two.
    lineup: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.lineup and len(self.lineup) != self.players:
            raise ValueError("a field of levels needs one level per player")

    def levels(self, index: int) -> list[str]:
        if self.lineup:
            orders = seatings(self.lineup)
            return list(orders[index % len(orders)])
        return [self.a if (index + seat) % 2 == 0 else self.b for seat in range(self.players)]


def seatings(lineup: Sequence[str]) -> list[tuple[str, ...]]:
    """Every distinct order of the levels over the seats, in a fixed order."""
    return sorted(set(itertools.permutations(lineup)))


def placings(ranking: list[list[int]], players: int) -> list[float]:
    """Each seat's place (1 is first); tied seats share the mean of the places they span."""
    place, following = [float(players)] * players, 1
    for group in ranking:
        for seat in group:
            place[seat] = following + (len(group) - 1) / 2
        following += len(group)
    return place


@dataclass
class GameResult:
    index: int
    levels: list[str]
    winners: list[int]
    score_a: float  # A's share of the winners
    commands: int
    seconds: dict[str, list[float]]  # decision times per level
    places: list[float] = field(default_factory=list)  # each seat's place (1 is first)


def seatable_options(ruleset: Ruleset, players: int, options: dict[str, Any]) -> dict[str, Any]:
    """``options`` cleaned; if the player count needs a switch (e.g. Kingdom Cards'
    ``allow_two_players``), the first boolean option that admits it is turned on."""
    cleaned = ruleset.clean_options(options)
    low, high = ruleset.seat_range(cleaned)
    if low <= players <= high:
        return cleaned
    for option in ruleset.options:
        if option.default is False and option.name not in options:
            trial = ruleset.clean_options({**options, option.name: True})
            low, high = ruleset.seat_range(trial)
            if low <= players <= high:
                return trial
    raise ValueError(f"{ruleset.name} cannot seat {players} players with {options}")


def play_game(match: Match, index: int) -> GameResult:
    """Play game ``index`` of ``match`` to its end."""
    ruleset = get_ruleset(match.game)
    levels = match.levels(index)
    strategies = [get_strategy(match.game, level) for level in levels]
    game_rng = random.Random(f"arena:{match.seed}:{index}:table")
    bot_rngs = [random.Random(f"arena:{match.seed}:{index}:bot:{s}") for s in range(len(levels))]
    options = seatable_options(ruleset, match.players, match.options)
    state = ruleset.fold(ruleset.setup(options, match.players, game_rng))
    seconds: dict[str, list[float]] = {level: [] for level in set(levels)}
    commands = 0
    budget = (
        thinking_budget(seconds=match.seconds, playouts=match.playouts)
        if match.seconds or match.playouts
        else nullcontext()
    )
    with budget:
        while (outcome := ruleset.outcome(state)) is None:
            acting = sorted(ruleset.to_act(state))
            # Several seats may act at once: the table picks one, as message order would.
            seat = acting[0] if len(acting) == 1 else game_rng.choice(acting)
            started = time.perf_counter()
            command = strategies[seat](ruleset, state, seat, bot_rngs[seat])
            seconds[levels[seat]].append(time.perf_counter() - started)
            state = ruleset.fold(ruleset.decide(state, seat, command, game_rng), state)
            commands += 1
            if commands > MAX_COMMANDS:
                raise RuntimeError(f"game {index} of {match.game} did not end")
    winners = outcome.winners
    share = sum(levels[s] == match.a for s in winners) / len(winners) if winners else 0.5
    places = placings(outcome.ranking, match.players)
    return GameResult(index, levels, winners, share, commands, seconds, places)


def play_match(
    match: Match, jobs: int = 1, on_result: Callable[[GameResult], None] | None = None
) -> list[GameResult]:
    """Every game of ``match``, in ``jobs`` worker processes (1: in this process)."""
    results = []
    for result in _results(match, jobs):
        results.append(result)
        if on_result is not None:
            on_result(result)
    return sorted(results, key=lambda r: r.index)


def _results(match: Match, jobs: int) -> Iterator[GameResult]:
    if jobs <= 1:
        for index in range(match.games):
            yield play_game(match, index)
        return
    # Spawned workers import only the engines and the bots: nothing inherited by fork.
    with ProcessPoolExecutor(max_workers=jobs, mp_context=get_context("spawn")) as pool:
        futures = [pool.submit(play_game, match, index) for index in range(match.games)]
        for future in as_completed(futures):
            yield future.result()


# ---- statistics -------------------------------------------------------------------------
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


# ---- parts: a match played in pieces, saved as data, pooled ------------------------------
PART_FORMAT = 1
# What makes two parts the same match (their seeds must differ, their games may).
SAME_MATCH = ("game", "a", "b", "lineup", "players", "seconds", "playouts", "options")


@dataclass(frozen=True)
class Tree:
    """The source tree that plays a part: its commit, and whether tracked files differed
    from it (None: not known, e.g. no git)."""

    commit: str | None
    changed: bool | None


@dataclass
class Part:
    match: Match
    results: list[GameResult]
    tree: Tree
    started: str  # UTC, ISO 8601, to the second
    finished: str
    jobs: int
    path: str = ""


def source_tree() -> Tree:
    """The commit checked out where this module lives, and whether tracked files differ."""

    def git(*args: str) -> str | None:
        try:
            return subprocess.run(
                ["git", *args],
                cwd=Path(__file__).resolve().parent,
                capture_output=True,
                text=True,
                check=True,
                timeout=10,
            ).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            return None

    commit = git("rev-parse", "HEAD")
    status = git("status", "--porcelain", "--untracked-files=no") if commit else None
    return Tree(commit or None, None if status is None else bool(status))


def save_part(path: str | Path, part: Part) -> None:
    """Write ``part`` as JSON, one game a line; decision times in whole milliseconds."""
    m = part.match
    head = {
        "format": PART_FORMAT,
        "match": {**dataclasses.asdict(m), "lineup": list(m.lineup)},
        "commit": part.tree.commit,
        "changed": part.tree.changed,
        "started": part.started,
        "finished": part.finished,
        "jobs": part.jobs,
    }
    games = [
        json.dumps(
            {
                "index": r.index,
                "levels": r.levels,
                "winners": r.winners,
                "score_a": r.score_a,
                "places": r.places,
                "commands": r.commands,
                "ms": {level: [round(s * 1000) for s in v] for level, v in r.seconds.items()},
            },
            sort_keys=True,
        )
        for r in part.results
    ]
    text = json.dumps(head, indent=2, sort_keys=True)[: -len("\n}")]
    text += ',\n  "results": [\n' + ",\n".join(f"    {g}" for g in games) + "\n  ]\n}\n"
    path = Path(path)
    draft = path.with_name(f".{path.name}.draft")
    draft.write_text(text)
    os.replace(draft, path)


def load_part(path: str | Path) -> Part:
    """A saved part, checked: its games are the match's games, each once, seated as the
    match seats them. Raises ValueError saying what is wrong."""
    try:
        data = json.loads(Path(path).read_text())
    except (OSError, json.JSONDecodeError) as exc:
        raise ValueError(f"{path}: not a readable part ({exc})") from exc
    if not isinstance(data, dict) or data.get("format") != PART_FORMAT:
        raise ValueError(f"{path}: not an arena part of format {PART_FORMAT}")
    try:
        match = Match(**{**data["match"], "lineup": tuple(data["match"]["lineup"])})
        results = [
            GameResult(
                index=g["index"],
                levels=g["levels"],
                winners=g["winners"],
                score_a=g["score_a"],
                commands=g["commands"],
                seconds={level: [ms / 1000 for ms in v] for level, v in g["ms"].items()},
                places=g["places"],
            )
            for g in data["results"]
        ]
        part = Part(
            match,
            results,
            Tree(data["commit"], data["changed"]),
            data["started"],
            data["finished"],
            data["jobs"],
            str(path),
        )
    except (KeyError, TypeError) as exc:
        raise ValueError(f"{path}: a part's field is missing or malformed ({exc})") from exc
    if sorted(r.index for r in results) != list(range(match.games)):
        raise ValueError(f"{path}: its games are not games 0 to {match.games - 1}, once each")
    if any(r.levels != match.levels(r.index) for r in results):
        raise ValueError(f"{path}: a game's seating is not the match's")
    return part


def pool(parts: Sequence[Part]) -> tuple[Match, list[GameResult]]:
    """The parts as one match: the first part's, with all their games. Each result keeps
    its index within its part (indices repeat across parts; no statistic uses them).
    Raises ValueError unless the parts are the same match at different seeds."""
    if not parts:
        raise ValueError("no parts to pool")

    def named(part: Part) -> str:
        return part.path or f"the part of seed {part.match.seed}"

    first = parts[0]
    for part in parts[1:]:
        differ = [
            name for name in SAME_MATCH if getattr(part.match, name) != getattr(first.match, name)
        ]
        if differ:
            raise ValueError(
                f"{named(part)} is not the same match as {named(first)}: "
                + ", ".join(
                    f"{name} {getattr(part.match, name)!r} against {getattr(first.match, name)!r}"
                    for name in differ
                )
            )
    seeds: dict[int, Part] = {}
    for part in parts:
        if part.match.seed in seeds:
            raise ValueError(
                f"{named(part)} and {named(seeds[part.match.seed])} both have seed "
                f"{part.match.seed}: the same games twice"
            )
        seeds[part.match.seed] = part
    results = [r for part in parts for r in part.results]
    return dataclasses.replace(first.match, games=len(results)), results
