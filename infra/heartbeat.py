"""Liveness of the Celery processes: a heartbeat file their own loop keeps fresh.

A Celery worker or beat has no HTTP port to probe, and ``celery inspect ping`` costs a
Python start, a Django set-up and a broker round trip per probe. Instead, with
``HEARTBEAT_FILE`` set, the process touches that file from its own loop:

- a worker from its timer (``WorkerHeartbeat``, a worker bootstep), which the prefork
  pool's event loop drives, so a wedged loop stops touching it;
- beat at every tick of its scheduler (``HeartbeatScheduler``), at least every
  ``CLOCK_SWEEP_EVERY`` seconds.

The Kubernetes liveness probe restarts a process whose file is older than two minutes
(``find <file> -mmin -2``). While the broker is unreachable a worker's loop waits to
reconnect and stops touching too, so an outage longer than the probe's patience
restarts the workers, which then reconnect when Redis is back.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from celery import bootsteps
from celery.beat import PersistentScheduler

# How often a worker touches its file (seconds): well inside the probe's two minutes.
HEARTBEAT_EVERY = 10.0


def heartbeat_file() -> Path | None:
    path = os.environ.get("HEARTBEAT_FILE")
    return Path(path) if path else None


def touch(path: Path) -> None:
    path.touch()


class WorkerHeartbeat(bootsteps.StartStopStep):
    """Touches HEARTBEAT_FILE every HEARTBEAT_EVERY seconds from the worker's timer."""

    requires = {"celery.worker.components:Timer"}

    def __init__(self, parent: Any, **kwargs: Any) -> None:
        super().__init__(parent, **kwargs)
        self.path = heartbeat_file()
        self.tref: Any = None

    def start(self, parent: Any) -> None:
        if self.path is None:
            return
        touch(self.path)
        self.tref = parent.timer.call_repeatedly(HEARTBEAT_EVERY, touch, (self.path,), priority=10)

    def stop(self, parent: Any) -> None:
        if self.tref is not None:
            self.tref.cancel()
            self.tref = None
        if self.path is not None:
            self.path.unlink(missing_ok=True)

    def terminate(self, parent: Any) -> None:
        self.stop(parent)


class HeartbeatScheduler(PersistentScheduler):
    """Celery's default scheduler, touching HEARTBEAT_FILE at every tick."""

    def tick(self, *args: Any, **kwargs: Any) -> float:
        interval = super().tick(*args, **kwargs)
        path = heartbeat_file()
        if path is not None:
            touch(path)
        return interval
