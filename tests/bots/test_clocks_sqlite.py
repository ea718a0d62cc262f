"""Two sweepers racing on the embedded SQLite database (a real file, as the embedded
server uses it): exactly one timeout. The pytest SQLite test database is a shared
in-memory one that refuses concurrent writers outright, so this runs in a subprocess."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = r"""
import json, os, sys, threading
from datetime import timedelta

import django
django.setup()
from django.core.management import call_command
from django.db import connections

call_command("migrate", verbosity=0)
from django.contrib.auth import get_user_model
from django.utils import timezone

from games import services
from games.models import GameEvent

User = get_user_model()
ana = User.objects.create_user("ana", password="pw-123456789")
bob = User.objects.create_user("bob", password="pw-123456789")
control = {"kind": "realtime", "minutes": 5, "increment_seconds": 0}
game = services.table_create(user=ana, ruleset="kingdoms", seats=2, time_control=control)
services.table_join(game_id=game.id, user=bob)
services.game_start(game_id=game.id, user=ana)
later = timezone.now() + timedelta(minutes=6)
barrier = threading.Barrier(int(sys.argv[1]))
results = []

def sweep():
    try:
        barrier.wait()
        results.append(services.clock_sweep(now=later))
    except Exception as exc:
        results.append(repr(exc))
    finally:
        connections.close_all()

threads = [threading.Thread(target=sweep) for _ in range(int(sys.argv[1]))]
for t in threads:
    t.start()
for t in threads:
    t.join()
timeouts = GameEvent.objects.filter(game=game, type="clock_expired").count()
print(json.dumps({"results": results, "timeouts": timeouts}))
"""


def test_sweepers_racing_on_a_sqlite_file_record_exactly_one_timeout(tmp_path):
    env = {
        key: value for key, value in os.environ.items() if key not in {"DATABASE_URL", "REDIS_URL"}
    }
    env.update(
        SQLITE_PATH=str(tmp_path / "race.sqlite3"),
        BOT_RUNNER="none",
        DJANGO_SETTINGS_MODULE="kingdom.settings",
        PYTHONPATH=str(ROOT),
    )
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, "3"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    outcome = json.loads(done.stdout.strip().splitlines()[-1])
    assert sorted(outcome["results"]) == [0, 0, 1], outcome
    assert outcome["timeouts"] == 1
