"""A real Celery worker on Redis plays bot seats to the end (whenever REDIS_URL is set)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from django.db import connection

from games import services
from games.models import Game
from tests.conftest import needs_redis
from tests.games.helpers import table_with_bots

pytestmark = [needs_redis, pytest.mark.django_db(transaction=True)]
ROOT = Path(__file__).resolve().parents[2]


def database_url_for_worker() -> str:
    """The worker must use the test database this test writes to."""
    db = connection.settings_dict
    if connection.vendor == "postgresql":
        host, port = db["HOST"] or "127.0.0.1", db["PORT"] or "5432"
        return f"postgres://{db['USER']}@{host}:{port}/{db['NAME']}"
    return ""


@pytest.fixture
def worker(settings):
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
            "solo",
            "--concurrency",
            "1",
            "--loglevel",
            "WARNING",
        ],
        cwd=ROOT,
        env=env,
    )
    time.sleep(3)
    yield process
    process.terminate()
    try:
        process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        process.kill()


@pytest.mark.parametrize("ruleset", ["kingdoms", "kingdom-builder", "kingdom-cards"])
def test_a_worker_plays_a_four_bot_game_to_the_end(make_user, worker, ruleset):
    user = make_user()
    game = table_with_bots(user, ruleset=ruleset, bots=4, join=False, level="medium")
    services.game_start(game_id=game.id, user=user)
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        game.refresh_from_db()
        if game.status == Game.Status.FINISHED:
            break
        assert worker.poll() is None, "the worker died"
        time.sleep(0.5)
    assert game.status == Game.Status.FINISHED
    assert game.events.filter(actor__startswith="bot:").count() > 20
