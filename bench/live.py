"""``manage.py bench live``: the load a community puts on the service, over HTTP and
WebSocket, against real ASGI server processes; one JSON line.

Before the measured phase: the accounts (each seat a real account with a token; the
password hashed once, never per user, since hashing is not a move), every table the run
will play (2 seats, created and started through the services), one warm-up game per
server, and every socket open. The measured phase plays ``--tables`` tables at once for at
most ``--seconds``, each up to ``--moves`` moves; a table whose game ends goes on with the
next game prepared for it. Tables go round-robin over the servers, and a table's two
players sit on the table's one server (``--placement by-game``, the default: what the
deployed ingress does, hashing each request's path), or on different servers when there
are several (``--placement spread``, what a round-robin proxy would do).

Servers: ``--url`` (repeatable, loopback only; they must use this process's DATABASE_URL
and REDIS_URL) or ``--processes N`` started here with production settings and stopped
after. CPU per move comes from the server processes' own accounting (/proc), for ``--url``
targets only with ``--server-pid``.
"""

from __future__ import annotations

import asyncio
import json
import math
import platform
import random
import secrets
import statistics
import sys
import time
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.core.management.base import CommandError
from django.db import close_old_connections, connections
from rest_framework.authtoken.models import Token

from bench import load, peer, servers
from bench.load import Clients, Player, Table, Tally
from games import services

# The fewest commands a 2-player game of each ruleset takes (random play, measured): how
# many games to prepare per table so that it never runs out within --moves.
SHORTEST_GAME = {"kingdoms": 130, "kingdom-builder": 60, "kingdom-cards": 200}
MOST_GAMES_PER_TABLE = 20
TABLE_OPTIONS = {"kingdom-cards": {"allow_two_players": True}}
WARMUP_MOVES = 20
# Setup (accounts, tables, sockets) and teardown on top of --seconds, at most.
SETUP_SECONDS = 300
# After the measured phase, how long spectators' last frames may take to arrive.
SPECTATORS_SETTLE_SECONDS = 1.0


def add_arguments(parser: Any) -> None:
    group = parser.add_argument_group("bench live")
    group.add_argument("--url", action="append", default=[], help="a running server (loopback)")
    group.add_argument("--server-pid", action="append", type=int, default=[])
    group.add_argument("--processes", type=int, default=1, help="servers to start here")
    group.add_argument(
        "--server",
        choices=servers.SERVERS,
        default=servers.deployed_server(),
        help="the ASGI server to start (default: the Procfile's)",
    )
    group.add_argument("--tables", type=int, default=16)
    group.add_argument("--ruleset", dest="live_ruleset", default=None)
    group.add_argument("--moves", type=int, default=300, help="moves per table at most")
    group.add_argument("--seconds", type=float, default=30.0, help="bound on the measured phase")
    group.add_argument(
        "--peer",
        choices=["none", "bgio", "eventsourcing"],
        default="none",
        help="measure a peer in the same run: bgio beside bench live, eventsourcing beside "
        "bench commands",
    )
    group.add_argument(
        "--rounds",
        type=int,
        default=1,
        help="measure this many times, ours then the peer's each time: the sandbox's speed "
        "drifts, and ratios from pairs run side by side, with their medians, outlast it",
    )
    group.add_argument(
        "--via",
        choices=["http", "socket"],
        default="http",
        help="how players send moves: POST, or on their game socket",
    )
    group.add_argument(
        "--spectators",
        type=int,
        default=0,
        help="anonymous sockets watching each table: each round then measures the tables "
        "without spectators and with them, and the CPU per move of the one to the other",
    )
    group.add_argument(
        "--placement",
        choices=["spread", "by-game"],
        default="by-game",
        help="both players of a table on the table's server (what the deployed ingress "
        "does: deploy/k8s/base/ingress.yaml), or on different servers",
    )


def run(options: dict[str, Any], progress: Any) -> list[dict[str, Any]]:
    rounds = options.get("rounds", 1)
    if options["tables"] < 1 or options["moves"] < 1 or options["seconds"] <= 0 or rounds < 1:
        raise CommandError("--tables, --moves, --seconds and --rounds must be positive")
    if options.get("spectators", 0) < 0:
        raise CommandError("--spectators must be 0 or more")
    urls = [servers.require_loopback(url) for url in options["url"]]
    if max(len(urls), options["processes"]) > 1 and not settings.REDIS_URL:
        raise CommandError("several servers need REDIS_URL: the in-memory layer is per process")
    say = lambda text: progress.write(f"[bench live] {text}")  # noqa: E731
    if rounds == 1:
        return _round(options, urls, say)
    lines = []
    for number in range(1, rounds + 1):
        say(f"round {number} of {rounds}")
        lines += [{**line, "round": number} for line in _round(options, urls, say)]
    return lines + peer.median_ratios(lines)


def _round(options: dict[str, Any], urls: list[str], say: Any) -> list[dict[str, Any]]:
    """One measurement of ours on fresh tables, then (``--peer bgio``) the peer's; with
    ``--spectators``, ours without spectators and then with them, and their ratio."""
    watchers = options.get("spectators", 0)
    if not watchers:
        return _ours_then_peer(options, urls, say)
    say("without spectators")
    alone = _ours_then_peer({**options, "spectators": 0, "peer": "none"}, urls, say)[0]
    say(f"with {watchers} spectators a table")
    lines = _ours_then_peer(options, urls, say)
    watched = lines[0]
    ratio = {
        "name": f"ratio {watchers} spectators a table / none, {options['ruleset']}",
        "spectators": watchers,
        "commands_per_s_ratio": _ratio(watched["commands_per_s"], alone["commands_per_s"]),
        "cpu_ms_per_move_ratio": _ratio(
            watched["server_cpu_ms_per_move"], alone["server_cpu_ms_per_move"]
        ),
        "spectators_behind": watched["spectators_behind"],
    }
    return [alone, *lines, ratio]


def _ratio(a: float | None, b: float | None) -> float | None:
    return round(a / b, 3) if a and b else None


def _ours_then_peer(options: dict[str, Any], urls: list[str], say: Any) -> list[dict[str, Any]]:
    ruleset, tables = options["ruleset"], options["tables"]
    games = min(MOST_GAMES_PER_TABLE, math.ceil(options["moves"] / SHORTEST_GAME[ruleset]) + 1)
    say(f"preparing {tables} tables x {games} games of {ruleset}")
    # Tables and warm-up games: one list of games per table, then one per server.
    seats = _prepare(ruleset, tables * games + max(len(urls), options["processes"]))
    if urls:
        targets = [servers.Server(url) for url in urls]
        pids = options["server_pid"]
    else:
        say(f"starting {options['processes']} {options['server']} process(es)")
        targets = servers.start(options["processes"], options["server"])
        pids = [t.pid for t in targets if t.pid]
    sampler = servers.ConnectionSampler(application_name=None if urls else servers.SERVER_APP_NAME)
    try:
        sampler.start()
        # This process holds no connection while it measures (its pool keeps one open).
        connections.close_all()
        for conn in connections.all(initialized_only=True):
            if getattr(conn, "pool", None) is not None:
                # Only PostgreSQL's wrapper has a pool (checked above).
                conn.close_pool()  # type: ignore[attr-defined]
        found = _run_loop(
            asyncio.wait_for(
                _measure(seats, targets, tables, games, options, pids, sampler, say),
                options["seconds"] + SETUP_SECONDS,
            )
        )
    finally:
        pg = sampler.stop()
        if not urls:
            servers.stop(targets)
        close_old_connections()
    line = _line(options, len(targets), found, pg, "url" if urls else "started")
    if not urls:  # where to read why, when errors_total is not 0
        line["server_logs"] = str(targets[0].log.parent) if targets[0].log else None
    lines = [line]
    if options["peer"] == "bgio":
        say("running the boardgame.io peer (bench/bgio/)")
        seconds = max(10, round(options["seconds"]))
        peer_lines, why_not = peer.run_bgio(tables, options["moves"], seconds)
        if why_not:
            say(why_not)
            lines.append({"name": "peer boardgame.io", "skipped": why_not})
        lines += peer_lines
        lines += [peer.ratios(line, p) for p in peer_lines if "moves_per_s" in p]
    return lines


def _run_loop(main: Any) -> Any:
    """Run the clients on uvloop where it exists, as the servers do: the load shares the
    cores with the servers, and the stdlib loop spent more of them per move."""
    try:
        import uvloop
    except ImportError:  # Windows
        return asyncio.run(main)
    return uvloop.run(main)


def _prepare(ruleset: str, count: int) -> list[tuple[str, list[str]]]:
    """``count`` started 2-seat games, each with two fresh accounts' tokens:
    [(game id, [token of seat 0's account, token of seat 1's])]."""
    model = get_user_model()
    password = make_password(secrets.token_urlsafe(18))  # hashed once, for every account
    run = secrets.token_hex(4)
    prepared = []
    for n in range(count):
        host, guest = (
            model.objects.create(username=f"bench-{run}-{n}-{side}", password=password)
            for side in "ab"
        )
        game = services.table_create(
            user=host, ruleset=ruleset, seats=2, options=TABLE_OPTIONS.get(ruleset, {})
        )
        services.table_join(game_id=game.id, user=guest)
        services.game_start(game_id=game.id, user=host)
        tokens = [Token.objects.create(user=user).key for user in (host, guest)]
        prepared.append((str(game.id), tokens))
    return prepared


def _table(game: tuple[str, list[str]], home: str, away: str) -> Table:
    game_id, tokens = game
    return Table(
        game_id,
        [
            Player(f"{game_id}/{n}", t, s)
            for n, (t, s) in enumerate(zip(tokens, (home, away), strict=True))
        ],
    )


async def _measure(
    seats: list[tuple[str, list[str]]],
    targets: list[servers.Server],
    tables: int,
    games: int,
    options: dict[str, Any],
    pids: list[int],
    sampler: servers.ConnectionSampler,
    say: Any,
) -> dict[str, Any]:
    urls = [t.url for t in targets]
    clients = Clients(options.get("via", "http"))
    slots: list[list[Table]] = []
    for slot in range(tables):
        home = urls[slot % len(urls)]
        away = home if options.get("placement") == "by-game" else urls[(slot + 1) % len(urls)]
        slots.append([_table(seats[slot * games + g], home, away) for g in range(games)])
    warmups = [_table(seats[tables * games + n], url, url) for n, url in enumerate(urls)]
    measured = [t for slot in slots for t in slot]
    everything = measured + warmups
    try:
        say(f"opening {2 * len(everything)} sockets")
        for table in everything:
            await load.connect(clients, table)
        for table in everything:
            if not await load._wait(
                table,
                lambda t=table: t.head >= 0 and min(p.head for p in t.players) >= 0,
                time.perf_counter() + 30,
            ):
                raise CommandError(f"no first socket message for game {table.game_id}")
        watchers = options.get("spectators", 0)
        if watchers:
            say(f"opening {watchers} spectators' sockets on each of {len(measured)} games")
            for table in measured:
                await load.watch(table, table.players[0].server, watchers)
            for table in measured:
                if not await _spectators_ready(table):
                    raise CommandError(f"no first frame for a spectator of {table.game_id}")
        say("warming up")
        rng = random.Random(f"{options['seed']}-warmup")
        far = time.perf_counter() + 60
        await asyncio.gather(
            *(load.play_table(clients, t, rng, WARMUP_MOVES, far, None) for t in warmups)
        )
        await asyncio.sleep(0.2)
        say(f"measuring for at most {options['seconds']} s")
        tally = Tally()
        sampler.measure()
        cpu0, own0 = servers.cpu_seconds(pids) if pids else None, time.process_time()
        # PostgreSQL's and Redis's CPU too: on 2 cores they share the servers' budget.
        service_roots = servers.service_pids()
        services0 = {name: servers.cpu_seconds(roots) for name, roots in service_roots.items()}
        started = time.perf_counter()
        deadline = started + options["seconds"]
        moves = await asyncio.gather(
            *(
                _play_slot(
                    clients,
                    slot,
                    random.Random(f"{options['seed']}-{n}"),
                    options["moves"],
                    deadline,
                    tally,
                )
                for n, slot in enumerate(slots)
            )
        )
        wall = time.perf_counter() - started
        cpu = servers.cpu_seconds(pids) - cpu0 if cpu0 is not None else None
        if watchers:  # the last frames on their way: every spectator must see its head
            await asyncio.sleep(SPECTATORS_SETTLE_SECONDS)
        own = time.process_time() - own0
        services_cpu = {
            name: servers.cpu_seconds(roots) - services0[name]
            for name, roots in service_roots.items()
        }
    finally:
        await asyncio.gather(*(load.disconnect(t) for t in everything), return_exceptions=True)
        await clients.close()
    return {
        "spectators_behind": sum(load.spectators_behind(t) for t in measured),
        "spectator_frames": sum(s.frames for t in measured for s in t.spectators),
        "moves": sum(moves),
        "wall": wall,
        "cpu": cpu,
        "own_cpu": own,
        "services_cpu": services_cpu,
        "tally": tally,
    }


async def _spectators_ready(table: Table) -> bool:
    until = time.perf_counter() + 30
    while any(s.head < 0 for s in table.spectators):
        if time.perf_counter() > until:
            return False
        await asyncio.sleep(0.01)
    return True


async def _play_slot(
    clients: Clients,
    slot: list[Table],
    rng: random.Random,
    budget: int,
    deadline: float,
    tally: Tally,
) -> int:
    """One table: its games one after another until ``budget`` moves or the deadline."""
    moves = 0
    for table in slot:
        moves += await load.play_table(clients, table, rng, budget - moves, deadline, tally)
        if moves >= budget or time.perf_counter() >= deadline or not table.over():
            break
    return moves


def _ms(samples: list[float], q: int) -> float | None:
    if not samples:
        return None
    if len(samples) < 2:
        return round(samples[0] * 1000, 2)
    return round(statistics.quantiles(samples, n=100)[q - 1] * 1000, 2)


def _line(
    options: dict[str, Any], processes: int, found: dict[str, Any], pg: dict[str, Any], target: str
) -> dict[str, Any]:
    tally: Tally = found["tally"]
    moves, wall, cpu = found["moves"], found["wall"], found["cpu"]
    errors = {"409": 0, "500": 0, **{k: v for k, v in sorted(tally.errors.items())}}
    return {
        "name": f"live {options['ruleset']}, {processes} process(es), {options['tables']} tables"
        + (", moves on the socket" if options.get("via") == "socket" else "")
        + (", players spread" if options.get("placement") == "spread" else "")
        + (f", {options['spectators']} spectators a table" if options.get("spectators") else ""),
        "via": options.get("via", "http"),
        "placement": options.get("placement", "by-game"),
        "ruleset": options["ruleset"],
        "processes": processes,
        "target": target,
        "tables": options["tables"],
        "moves": moves,
        "moves_per_table": options["moves"],
        "seconds": round(wall, 3),
        "seconds_limit": options["seconds"],
        "commands_per_s": round(moves / wall, 1) if wall else None,
        **{f"move_to_own_socket_p{q}_ms": _ms(tally.move_seconds, q) for q in (50, 90, 99)},
        "move_to_own_socket_max_ms": round(max(tally.move_seconds) * 1000, 2)
        if tally.move_seconds
        else None,
        **{f"http_p{q}_ms": _ms(tally.http_seconds, q) for q in (50, 99)},
        "server_cpu_s": round(cpu, 3) if cpu is not None else None,
        "server_cpu_ms_per_move": round(cpu * 1000 / moves, 3)
        if cpu is not None and moves
        else None,
        **{
            f"{name}_cpu_ms_per_move": round(found["services_cpu"][name] * 1000 / moves, 3)
            if name in found["services_cpu"] and moves
            else None
            for name in ("database", "redis")
        },
        "load_cpu_s": round(found["own_cpu"], 3),
        "peak_pg_connections": pg["peak"],
        "pg_samples": pg["samples"],
        "errors": errors,
        "errors_total": sum(tally.errors.values()),
        "error_samples": tally.error_samples,
        "games_finished": tally.games_finished,
        "spectators": options.get("spectators", 0),
        "spectator_frames": found["spectator_frames"],
        "spectators_behind": found["spectators_behind"],
        "versions": _versions(options["server"] if target == "started" else None),
    }


def _versions(server: str | None) -> dict[str, str | None]:
    # The sockets' encoder, the one JSON the server's frames go through: which library it
    # loads is what the line reports.
    import games.json_output  # noqa: F401

    json_used = (
        f"orjson {servers.version_of('orjson')}"
        if "orjson" in sys.modules
        # The stdlib module has __version__; typeshed leaves it out.
        else f"json (stdlib) {json.__version__}"  # type: ignore[attr-defined]
    )
    return {
        "server": f"{server} {servers.version_of(server)}" if server else None,
        "json": json_used,
        "python": platform.python_version(),
        "django": servers.version_of("django"),
        "channels": servers.version_of("channels"),
        "client": (
            "moves: asyncio streams (HTTP/1.1 keep-alive), "
            f"setup: aiohttp {servers.version_of('aiohttp')}, "
            f"sockets: websockets {servers.version_of('websockets')}"
        ),
    }
