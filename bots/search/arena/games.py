"""Playing a match: its games on the rules engines, in this process or in worker
processes, each seeded from the match's seed and its number.
"""

from __future__ import annotations

import itertools
import random
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from contextlib import nullcontext
from dataclasses import dataclass, field
from multiprocessing import get_context
from typing import Any

from bots.search.budget import thinking_budget
from bots.strategies import get_strategy
from games.rules import get_ruleset
from games.rules.base import Ruleset

# A game that runs longer than this many commands is a bug in a bot or an engine.
MAX_COMMANDS = 20_000


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
