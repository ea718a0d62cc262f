"""The fault suite's stack: the Procfile's processes on a PostgreSQL cluster and a Redis
of their own (bench/stack.py), which the tests stop, kill and start again, and a
community playing on them over HTTP the whole time (bench/faults/).

It runs in CI (CI=true) or with FAULTS=1; it then needs redis-server and PostgreSQL's
initdb / pg_ctl installed, and fails without them."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest

from bench import faults
from bench.stack import Stack

ENABLED = os.environ.get("CI", "").lower() == "true" or os.environ.get("FAULTS") == "1"
TABLES = 6


def pytest_collection_modifyitems(config, items) -> None:
    here = Path(__file__).parent
    for item in items:
        if Path(str(item.fspath)).is_relative_to(here):
            item.add_marker(pytest.mark.faults)
            if not ENABLED:
                item.add_marker(pytest.mark.skip(reason="the fault suite runs with CI=true"))


@pytest.fixture(scope="module")
def stack():
    workdir = Path(tempfile.mkdtemp(prefix="kingdom-faults-"))
    running = Stack(workdir, BOT_THINK_SECONDS=faults.THINK_SECONDS, CLOCK_SWEEP_EVERY="1")
    try:
        running.start()
        yield running
    finally:
        running.stop()
        # The failures quote the processes' logs (stack.logs()): nothing else to keep.
        shutil.rmtree(workdir, ignore_errors=True)


@pytest.fixture(scope="module")
def community(stack):
    players = faults.Community(stack, TABLES)
    players.start()
    watch = faults.Watch(stack, players)
    watch.start()
    players.watch = watch
    players.followers = []  # sockets following a game through the faults (test_faults)
    try:
        yield players
    finally:
        for follower in players.followers:
            follower.stop()
        players.stop()
        watch.stop()
