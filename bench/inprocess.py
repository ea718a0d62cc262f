"""In-process benchmarks (one JSON line per measurement: name, n, rate, p50/p99).

python manage.py bench commands [--games 10] [--players 2] [--max-commands N]
    [--peer eventsourcing]
python manage.py bench rules kingdom-builder [--games 50] [--players 4] [--positions 20]

``commands`` also prints the cost of a command by seq in one game (early: seq ~10, mid,
late: the last 60 commands; in the long game seq ~1500) with the warm state cache and with
it cleared before every command, and whether each late/early and late/mid ratio is within
the promised 1.3x. With ``--peer eventsourcing``, that library plays the same commands
right after ours, on the same database (bench/eventsourcing_peer.py), and a line
gives our figures over its own.
"""

from __future__ import annotations

import hashlib
import json
import random
import statistics
import time
import uuid
from collections.abc import Iterable
from typing import Any, NamedTuple

from django.contrib.auth import get_user_model
from django.test.utils import override_settings
from tqdm import tqdm

from bench import eventsourcing_peer
from bench.peer import over
from bots.search import pimc
from bots.search.arena import seatable_options
from bots.search.budget import Budget
from bots.strategies import get_strategy, random_legal
from bots.strategies.hard import KNOWLEDGE
from games import services, storage
from games import table as tables
from games.models import Game
from games.rules import get_ruleset
from games.rules.base import Event, Ruleset

# The design's promise: a command late in a long game costs at most 1.3x one early in it.
COST_RATIO_LIMIT = 1.3
# (first, last) head seq of the early window: the commands around seq ~10.
EARLY_SEQS = (1, 20)
# Playouts of each ``hard`` decision that ``bench rules`` times.
SEARCH_PLAYOUTS = 100


class Timed(NamedTuple):
    """One command through the service: the head seq before it, and its cost."""

    seq: int
    seconds: float
    cpu_seconds: float  # this process's CPU
    command: dict[str, Any]


def _ms(seconds: list[float], q: int) -> float:
    if len(seconds) < 2:
        return round(seconds[0] * 1000, 3) if seconds else 0.0
    return round(statistics.quantiles(seconds, n=100)[q - 1] * 1000, 3)


def _line(name: str, samples: list[float], **extra: Any) -> dict[str, Any]:
    total = sum(samples)
    return {
        "name": name,
        "n": len(samples),
        "per_second": round(len(samples) / total, 1) if total else None,
        "p50_ms": _ms(samples, 50),
        "p99_ms": _ms(samples, 99),
        **extra,
    }


class InProcessBench:
    """``bench commands`` and ``bench rules``: the service and the engines in this process."""

    # ---- the service ----------------------------------------------------------------
    def bench_commands(self, options: dict[str, Any]) -> list[dict[str, Any]]:
        games = options["games"] or 10
        players = options["players"] or 2
        rng = random.Random(options["seed"])
        cap = options["max_commands"]
        user, _ = get_user_model().objects.get_or_create(username="bench-runner")
        with override_settings(BOT_RUNNER="none"):
            played = [
                self._play(user, "kingdoms", players, rng, "medium", max_commands=cap)
                for _ in tqdm(range(games), desc="kingdoms games", disable=games < 2)
            ]
            timed = [t for game in played for t in game]
            lines = [
                _line(
                    "commands kingdoms (warm state cache)",
                    [t.seconds for t in timed],
                    players=players,
                    cpu_ms_per_command=_cpu_ms(t.cpu_seconds for t in timed),
                )
            ]
            if options.get("peer") == "eventsourcing":
                lines += _eventsourcing_lines(lines[0], played)
            # Per-command cost against the game's length. Kingdoms ends by ~130 events, so
            # the longest legal game we host (Kingdom Cards, 5 seats, a player who keeps
            # rearranging their kingdom) stands in for "a long game".
            for key, seats, label, long_game in [
                ("kingdoms", players, "kingdoms", False),
                ("kingdom-cards", 5, "kingdom-cards long game", True),
            ]:
                for cold in (False, True):
                    timed = self._play(
                        user, key, seats, rng, "fidget", cold_cache=cold, max_commands=cap
                    )
                    lines.append(_cost_by_seq(timed, label, cold, long_game))
        return lines

    def _play(
        self,
        user,
        key: str,
        players: int,
        rng: random.Random,
        level: str,
        cold_cache: bool = False,
        max_commands: int | None = None,
    ) -> list[Timed]:
        """Play one all-bot game through the service (or its first ``max_commands``
        commands); each command's seq and cost."""
        rules = get_ruleset(key)
        game = services.table_create(user=user, ruleset=key, seats=players, join=False)
        for _ in range(players):
            services.bot_add(game_id=game.id, user=user, level="easy")
        services.game_start(game_id=game.id, user=user)
        strategy = _fidget if level == "fidget" else get_strategy(key, level)
        timed: list[Timed] = []
        while True:
            game = Game.objects.get(pk=game.id)
            if game.status != Game.Status.ACTIVE or len(timed) == max_commands:
                return timed
            with storage.reading(game) as table:
                seat = min(tables.to_act(rules, table))
                command = strategy(rules, table.rules, seat, rng)
            if cold_cache:
                storage.heads.clear()
            started, cpu_started = time.perf_counter(), time.process_time()
            services.game_submit(
                game_id=game.id,
                command=command,
                bot_seat=seat,
                command_id=uuid.uuid4(),
                expected_seq=game.head_seq,
            )
            timed.append(
                Timed(
                    game.head_seq,
                    time.perf_counter() - started,
                    time.process_time() - cpu_started,
                    command,
                )
            )

    # ---- the rules engines ------------------------------------------------------------
    def bench_rules(self, options: dict[str, Any]) -> list[dict[str, Any]]:
        rules = get_ruleset(options["ruleset"])
        games = options["games"] or 30
        low, high = rules.seat_range(rules.clean_options({}))
        players = options["players"] or min(4, high)
        rng = random.Random(options["seed"])
        durations, logs = [], []
        for _ in tqdm(range(games), desc=f"{rules.key} games", disable=games < 2):
            started = time.perf_counter()
            logs.append(_random_game(rules, players, rng))
            durations.append(time.perf_counter() - started)
        events = sum(len(log) for log in logs)
        started = time.perf_counter()
        for log in logs:
            rules.fold(log)
        fold_seconds = time.perf_counter() - started
        return [
            _line(
                f"random {players}-player games, {rules.key}",
                durations,
                players=players,
                events_per_game=round(events / games, 1),
            ),
            {
                "name": f"replay (fold), {rules.key}",
                "n": events,
                "per_second": round(events / fold_seconds) if fold_seconds else None,
            },
            *_search_lines(rules, options["positions"], rng),
        ]


def _cpu_ms(cpu_seconds: Iterable[float]) -> float | None:
    """This process's CPU per command (game_submit alone): less sensitive than the wall
    clock to a shared machine, and blind to PostgreSQL's share."""
    cpu = list(cpu_seconds)
    return round(1000 * sum(cpu) / len(cpu), 3) if cpu else None


def _eventsourcing_lines(ours: dict[str, Any], played: list[list[Timed]]) -> list[dict[str, Any]]:
    """The eventsourcing library on the same commands, and our figures over its own."""
    if why_not := eventsourcing_peer.available():
        return [{"name": "peer eventsourcing", "skipped": why_not}]
    timed = eventsourcing_peer.run_eventsourcing([[t.command for t in game] for game in played])
    peer = _line(
        "peer eventsourcing (cached aggregates)",
        [seconds for seconds, _ in timed],
        cpu_ms_per_command=_cpu_ms(cpu for _, cpu in timed),
        version=eventsourcing_peer.version(),
    )
    return [
        peer,
        {
            "name": "ratio ours/peer eventsourcing",
            "commands_per_s_ratio": over(ours["per_second"], peer["per_second"]),
            "cpu_ms_per_command_ratio": over(
                ours["cpu_ms_per_command"], peer["cpu_ms_per_command"]
            ),
            "p50_ratio": over(ours["p50_ms"], peer["p50_ms"]),
            "p99_ratio": over(ours["p99_ms"], peer["p99_ms"]),
        },
    ]


def _search_lines(rules: Ruleset, positions: int, rng: random.Random) -> list[dict[str, Any]]:
    """Where the bots spend their time: the ``hard`` search (paired Monte Carlo) on
    positions of two-player games between medium bots, ``SEARCH_PLAYOUTS`` each. The
    decisions' fingerprint must not change when the engines only get faster (a fixed
    playout budget and seed make the search deterministic)."""
    if not positions:
        return []
    options = seatable_options(rules, 2, {})
    medium = get_strategy(rules.key, "medium")
    found: list[tuple[Any, int]] = []
    while len(found) < positions:
        state = rules.fold(rules.setup(options, 2, rng))
        while len(found) < positions and (seats := sorted(rules.to_act(state))):
            seat = seats[0]
            if rng.random() < 0.2:
                found.append((rules.copy_state(state), seat))
            command = medium(rules, state, seat, rng)
            state = rules.fold(rules.decide(state, seat, command, rng), state)
    budget, knowledge = Budget(seconds=None, playouts=SEARCH_PLAYOUTS), KNOWLEDGE[rules.key]
    decisions, durations, playouts = [], [], 0
    for state, seat in found:
        started = time.perf_counter()
        decision = pimc.decide(rules, state, seat, random.Random(seat), budget, knowledge)
        durations.append(time.perf_counter() - started)
        decisions.append(decision.command)
        playouts += decision.playouts
    fingerprint = hashlib.sha256(json.dumps(decisions, sort_keys=True).encode()).hexdigest()
    return [
        _line(
            f"hard search, {rules.key}",
            durations,
            playouts=playouts,
            playouts_per_second=round(playouts / sum(durations)),
            decisions=fingerprint[:12],
        )
    ]


def _random_game(rules: Ruleset, players: int, rng: random.Random) -> list[Event]:
    options = rules.clean_options({})
    log = rules.setup(options, players, rng)
    state = rules.fold(log)
    while seats := rules.to_act(state):
        seat = rng.choice(sorted(seats))
        command = random_legal(rules, state, seat, rng)
        for event in rules.decide(state, seat, command, rng):
            log.append(event)
            state = rules.evolve(state, event)
    return log


def _cost_by_seq(timed: list[Timed], label: str, cold: bool, long_game: bool) -> dict[str, Any]:
    """Median command cost early (seq ~10), midway and late in one game, their ratios, and
    whether each late ratio is within 1.3x (``*_within_1_3x``). ``within_1_3x``, the
    promise itself (late against early), is given for the long game only: in a game of
    ~150 events the ratio measures the position (a fuller Kingdoms board costs more to
    copy and score), not the length of the log."""
    last = max(t.seq for t in timed)
    windows = {
        "early": EARLY_SEQS,
        "mid": (last // 2 - 30, last // 2 + 30),
        "late": (last - 60, last),
    }
    medians = {
        name: statistics.median([t.seconds for t in timed if low <= t.seq <= high])
        for name, (low, high) in windows.items()
    }
    ratios = {
        "late_over_early": round(medians["late"] / medians["early"], 2),
        "late_over_mid": round(medians["late"] / medians["mid"], 2),
    }
    cache = "cold cache: snapshot + tail per command" if cold else "warm cache"
    return {
        "name": f"cost by seq, {label}, {cache}",
        "commands": len(timed),
        "last_seq": last,
        "seq_windows": {name: list(w) for name, w in windows.items()},
        **{f"{name}_p50_ms": round(m * 1000, 3) for name, m in medians.items()},
        **ratios,
        **{f"{name}_within_1_3x": r <= COST_RATIO_LIMIT for name, r in ratios.items()},
        "long_game": long_game,
        **({"within_1_3x": ratios["late_over_early"] <= COST_RATIO_LIMIT} if long_game else {}),
    }


_CHANGES = ("lay_group", "return_group", "lay_treasure", "return_treasure")


def _fidget(rules: Ruleset, state: Any, seat: int, rng: random.Random) -> dict[str, Any]:
    """A legal but restless player: rearranges the kingdom whenever allowed."""
    commands = rules.legal_commands(state, seat)
    changes = [c for c in commands if c.get("type") in _CHANGES]
    return rng.choice(changes or commands)
