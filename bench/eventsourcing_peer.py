"""The `eventsourcing` library measured beside ``bench commands`` (``--peer eventsourcing``).

The yardstick for one in-process writer is that library's rate with its aggregate cache
on, on the same machine. Machines differ by 2x from one run to the next, so the peer runs
in the same process, on the same database, right after our commands, and plays
the same commands: one aggregate per game, each of our commands one event on it
(``repository.get`` from the cache, the command method, ``save``). It is the library's
cached configuration as documented, nothing tuned: ``AGGREGATE_CACHE_MAXSIZE`` set, and
fast-forward (a read of newer events before each command) left on, since without it two
processes would decide on a stale aggregate, which our write path never does.

What the peer does not do, and our command does: validate the command against the rules,
decide its events, chain their hashes, snapshot, lock the game row, keep clocks, and
publish each seat's redacted view. The ratio is the price of those promises.
"""

from __future__ import annotations

import functools
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from django.conf import settings

LIBRARY = "eventsourcing"


def available() -> str | None:
    """None when the library can be used here, else why not."""
    try:
        import eventsourcing  # noqa: F401
    except ImportError:
        return "the eventsourcing library is not installed (pip install -e '.[bench]')"
    return None


def persistence_env(database: Mapping[str, Any], sqlite_dir: Path) -> dict[str, str]:
    """The library's settings for the database Django uses (SQLite: a file of its own,
    since the test database may live in memory)."""
    if "postgresql" in database["ENGINE"]:
        return {
            "PERSISTENCE_MODULE": "eventsourcing.postgres",
            "POSTGRES_DBNAME": str(database["NAME"]),
            "POSTGRES_HOST": str(database.get("HOST") or "127.0.0.1"),
            "POSTGRES_PORT": str(database.get("PORT") or 5432),
            "POSTGRES_USER": str(database.get("USER") or ""),
            "POSTGRES_PASSWORD": str(database.get("PASSWORD") or ""),
            "POSTGRES_POOL_SIZE": "1",
        }
    return {
        "PERSISTENCE_MODULE": "eventsourcing.sqlite",
        "SQLITE_DBNAME": str(sqlite_dir / "eventsourcing-peer.sqlite3"),
    }


@functools.cache
def _application() -> tuple[type, type]:
    """The aggregate and the application, made once: the library registers each class by
    its topic and refuses a second class under the same one."""
    from eventsourcing.application import Application
    from eventsourcing.domain import Aggregate, event

    class Table(Aggregate):
        def __init__(self, seats: int) -> None:
            self.seats = seats
            self.moves = 0

        @event("Moved")
        def move(self, command: dict[str, Any]) -> None:
            self.moves += 1

    class Tables(Application):
        name = "KingdomBenchPeer"

    return Table, Tables


def run_eventsourcing(games: list[list[dict[str, Any]]]) -> list[tuple[float, float]]:
    """Each game's commands as events on one aggregate; (seconds, CPU seconds) per command."""
    Table, Tables = _application()
    timed: list[tuple[float, float]] = []
    with tempfile.TemporaryDirectory() as tmp:
        env = {
            **persistence_env(settings.DATABASES["default"], Path(tmp)),
            "AGGREGATE_CACHE_MAXSIZE": "1000",
        }
        app = Tables(env=env)
        try:
            for commands in games:
                table = Table(seats=2)
                app.save(table)
                for command in commands:
                    started, cpu_started = time.perf_counter(), time.process_time()
                    table = app.repository.get(table.id)
                    table.move(command)
                    app.save(table)
                    timed.append((time.perf_counter() - started, time.process_time() - cpu_started))
        finally:
            app.close()
    return timed


def version() -> str:
    from importlib.metadata import version as installed

    return f"{LIBRARY} {installed(LIBRARY)}"
