"""A real Celery worker on Redis plays bot seats to the end (whenever REDIS_URL is set)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from datetime import timedelta
from pathlib import Path

import pytest
from django.db import connection
from django.utils import timezone

from bots import scheduling, turns
from games import services
from games.models import Game
from tests.conftest import needs_redis
from tests.games.helpers import game_with_bots

pytestmark = [needs_redis, pytest.mark.django_db(transaction=True)]
ROOT = Path(__file__).resolve().parents[2]


def database_url_for_worker() -> str:
    """The worker must use the test database this test writes to."""
    db = connection.settings_dict
    if connection.vendor == "postgresql":
        host, port = db["HOST"] or "127.0.0.1", db["PORT"] or "5432"
        return f"postgres://{db['USER']}@{host}:{port}/{db['NAME']}"
    return ""


def start_worker(settings, log: Path, pool: str = "solo") -> subprocess.Popen:
    """A Celery worker on a queue of its own, logging to ``log``, once it is ready."""
    if connection.vendor != "postgresql":
        pytest.fail("the Celery worker test needs DATABASE_URL (PostgreSQL) next to REDIS_URL")
    from kingdom.celery import app

    app.conf.broker_url = os.environ["REDIS_URL"]
    settings.BOT_RUNNER = "celery"
    # A queue of its own: parallel test runs on one Redis never take each other's tasks.
    settings.BOT_QUEUE = f"bots-test-{uuid.uuid4().hex[:12]}"
    env = {
        **os.environ,
        "BOT_QUEUE": settings.BOT_QUEUE,
        # Sweeps this worker might route go to a queue of this run's too.
        "CLOCK_QUEUE": f"clocks-test-{uuid.uuid4().hex[:12]}",
        "DATABASE_URL": database_url_for_worker(),
        "BOT_MOVE_DELAY": "0",
        "PYTHONPATH": str(ROOT),
    }
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "kingdom",
            "worker",
            "-Q",
            settings.BOT_QUEUE,
            "--pool",
            pool,
            "--concurrency",
            "1",
            "--loglevel",
            "INFO",  # its "ready." line says when it takes tasks
        ],
        cwd=ROOT,
        env=env,
        stderr=log.open("w"),
    )
    wait_for(lambda: "ready." in log.read_text(), process, "the worker to be ready")
    return process


def stop_worker(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        process.kill()


def wait_for(condition, process: subprocess.Popen, what: str, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert process.poll() is None, "the worker died"
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.1)


@pytest.fixture
def worker(settings, tmp_path):
    process = start_worker(settings, log=tmp_path / "worker.log")
    yield process
    stop_worker(process)


@pytest.mark.parametrize("ruleset", ["kingdoms", "kingdom-builder", "kingdom-cards"])
def test_a_worker_plays_a_four_bot_game_to_the_end(make_user, worker, ruleset):
    user = make_user()
    game = game_with_bots(user, ruleset=ruleset, bots=4, join=False, level="medium")
    services.game_start(game_id=game.id, user=user)
    wait_for(
        lambda: Game.objects.get(pk=game.id).status == Game.Status.FINISHED,
        worker,
        "the game to finish",
        seconds=300,
    )
    assert game.events.filter(actor__startswith="bot:").count() > 20


def test_a_worker_plays_a_lost_turn_once_the_outbox_sends_it_again(make_user, settings, worker):
    settings.BOT_RUNNER = "none"  # the first bot turn's task is never sent: lost
    user = make_user()
    game = game_with_bots(user, bots=2, join=False, level="medium")
    services.game_start(game_id=game.id, user=user)
    game.refresh_from_db()
    assert (game.bots_due_at is not None, game.bots_sends) == (True, 0), "owed, never sent"
    lease = timedelta(seconds=scheduling.lease_seconds(game.think_seconds, 0))
    settings.BOT_RUNNER = "celery"
    settings.BOT_THINK_SECONDS = 0.1
    # Celery beat's round once the lease ran out: the turn sent again goes to the worker.
    assert scheduling.owed_turns_send(now=timezone.now() + lease) == 1
    wait_for(
        lambda: Game.objects.get(pk=game.id).status == Game.Status.FINISHED,
        worker,
        "the game whose turn was sent again to finish",
        seconds=300,
    )


def children_of(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry.name))
    return found


def test_a_turn_whose_worker_process_dies_is_delivered_again_and_played_once(
    make_user, settings, tmp_path
):
    log = tmp_path / "worker.log"
    process = start_worker(settings, pool="prefork", log=log)
    try:
        user = make_user()
        game = services.table_create(
            user=user, ruleset="kingdom-builder", seats=2, join=False, bot_think_seconds=4.0
        )
        for _ in range(2):
            services.bot_add(game_id=game.id, user=user, level="hard")
        services.game_start(game_id=game.id, user=user)
        # The hard bot thinks for up to 4 s, but its search may settle a turn early (a
        # position with one clear candidate): kill the process in the first turn still
        # being searched a second after the worker took it.
        for _attempt in range(8):
            game.refresh_from_db()
            head = game.head_seq
            ((seat, _level),) = turns.bot_seats_to_act(game)
            taken = f"{game.id}', {seat}, {head})"
            wait_for(lambda taken=taken: taken in log.read_text(), process, "the task")
            time.sleep(1.0)
            if Game.objects.get(pk=game.id).head_seq == head:
                break
        else:
            pytest.fail("every hard turn ended within a second: nothing left to kill")
        (child,) = children_of(process.pid)
        os.kill(child, signal.SIGKILL)
        command_id = turns.bot_command_id(game.id, head, seat)
        wait_for(
            lambda: game.events.filter(command_id=command_id).exists(),
            process,
            "the redelivered turn",
        )
        assert "SIGKILL" in log.read_text(), "the worker saw its process die mid-task"
        assert game.events.filter(command_id=command_id).count() == 1
    finally:
        stop_worker(process)
