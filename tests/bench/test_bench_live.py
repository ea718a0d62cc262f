"""``manage.py bench live`` at a smoke size against a daphne process it starts on the test
database and Redis (whenever DATABASE_URL is PostgreSQL and REDIS_URL is set). Only the
shape of its JSON line and its errors are checked, never the figures."""

from __future__ import annotations

import io
import json
from numbers import Real

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command

from bench import live, servers
from games.models import GameEvent
from tests.conftest import needs_postgres, needs_redis

pytestmark = [needs_postgres, needs_redis, pytest.mark.django_db(transaction=True)]

FIGURES = [
    "commands_per_s",
    "move_to_own_socket_p50_ms",
    "move_to_own_socket_p90_ms",
    "move_to_own_socket_p99_ms",
    "http_p50_ms",
    "http_p99_ms",
    "server_cpu_ms_per_move",
    "seconds",
]


def bench_live(*args: str) -> list[dict]:
    out = io.StringIO()
    call_command("bench", "live", *args, stdout=out, stderr=io.StringIO())
    return [json.loads(line) for line in out.getvalue().splitlines()]


def is_number(value: object) -> bool:
    return isinstance(value, Real) and not isinstance(value, bool)


@pytest.mark.parametrize("ruleset", ["kingdoms", "kingdom-cards"])
def test_bench_live_plays_moves_over_http_and_sockets_without_errors(ruleset):
    (line,) = bench_live(
        "--ruleset", ruleset, "--processes", "1", "--tables", "2", "--moves", "10",
        "--seconds", "15",
    )  # fmt: skip
    assert line["ruleset"] == ruleset and line["processes"] == 1 and line["tables"] == 2
    assert 0 < line["moves"] <= 2 * 10
    assert line["errors_total"] == 0 and line["errors"] == {"409": 0, "500": 0}
    for name in FIGURES:
        assert is_number(line[name]), name
    # The started server process's connections, told apart by their application_name
    # (whatever else this test process holds on the database is not counted)...
    assert isinstance(line["peak_pg_connections"], int) and line["peak_pg_connections"] >= 1
    # ... and never more than its pool.
    assert line["peak_pg_connections"] <= settings.DB_POOL_SIZE * line["processes"]
    # The Procfile's web server by default, as deployed.
    assert line["versions"]["server"].startswith(f"{servers.deployed_server()} ")
    # PostgreSQL and Redis run on this machine (as in CI): their CPU per move is counted.
    assert servers.service_pids().keys() == {"database", "redis"}
    for service in ("database", "redis"):  # in clock ticks: a short run may read 0
        assert is_number(line[f"{service}_cpu_ms_per_move"]), service
        assert line[f"{service}_cpu_ms_per_move"] >= 0
    # Every move counted is a command the service recorded (plus the uncounted warm-up).
    commands = GameEvent.objects.filter(game__ruleset=ruleset, command_id__isnull=False)
    assert commands.exclude(type="table_started").count() == line["moves"] + live.WARMUP_MOVES


def test_bench_live_can_send_the_moves_on_the_players_sockets_seated_apart_in_rounds():
    lines = bench_live(
        "--processes", "1", "--tables", "2", "--moves", "10", "--seconds", "15",
        "--via", "socket", "--placement", "spread", "--rounds", "2",
    )  # fmt: skip
    # One line per round (no peer: no ratios to take the median of), each on fresh tables.
    assert [line["round"] for line in lines] == [1, 2]
    for line in lines:
        assert line["via"] == "socket" and "moves on the socket" in line["name"]
        assert line["placement"] == "spread" and line["name"].endswith("players spread")
        assert 0 < line["moves"] <= 2 * 10
        assert line["errors_total"] == 0
        for name in FIGURES:
            assert is_number(line[name]), name
    commands = GameEvent.objects.filter(command_id__isnull=False).exclude(type="table_started")
    assert commands.count() == sum(line["moves"] + live.WARMUP_MOVES for line in lines)


def test_bench_live_refuses_rounds_below_one():
    with pytest.raises(CommandError, match="--rounds must be positive"):
        bench_live("--processes", "1", "--tables", "1", "--rounds", "0")


def test_bench_live_refuses_a_server_that_is_not_on_this_machine():
    with pytest.raises(CommandError, match="not a loopback address"):
        bench_live("--url", "http://192.0.2.1:8000", "--tables", "1")


def test_bench_live_refuses_several_servers_without_a_shared_channel_layer(settings):
    settings.REDIS_URL = None
    with pytest.raises(CommandError, match="several servers need REDIS_URL"):
        bench_live("--processes", "2", "--tables", "1")


def test_a_measured_phase_shorter_than_the_sampling_interval_still_reads_the_connections():
    GameEvent.objects.count()  # this test's own connection is open: one to count
    sampler = servers.ConnectionSampler(every=60)
    assert sampler.start()
    sampler.measure()
    reading = sampler.stop()  # long before the first interval ends
    assert reading["samples"] == 1 and reading["peak"] >= 1
