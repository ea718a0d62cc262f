"""``bench faults``: the service's processes on dependencies of their own (bench/
stack.py), a community playing on them over HTTP, and one fault at a time: Redis stopped,
the Celery worker killed, one of its pool processes killed, PostgreSQL stopped briefly and
for longer. Each fault gives one JSON line: how many seconds after the dependency was back
every game moved again (``recovery_seconds``), the longest any game stood still, and the
answers the players got meanwhile (a 500 is a failure; a 503 with Retry-After is allowed).
At the end every game is played out and audited (``manage.py audit_game --all``), and
every move a player was told was recorded is in the log exactly once.
"""

from __future__ import annotations

import json
import time
from typing import Any

from bench.faults.checks import (
    LONG_FAULT,
    Watch,
    audit,
    finish,
    heads,
    measure,
    recorded_once,
    run_fault,
)
from bench.faults.community import Community
from bench.stack import started_stack

__all__ = [
    "FAULTS",
    "LONG_FAULT",
    "THINK_SECONDS",
    "Community",
    "Watch",
    "audit",
    "finish",
    "heads",
    "measure",
    "recorded_once",
    "run",
    "run_fault",
]
# Bots think this long per move; medium bots answer at once.
THINK_SECONDS = "0.2"
FAULTS = ("redis_stopped", "worker_killed", "pool_process_killed", "postgres_stopped")


def run(
    *,
    tables: int = 8,
    faults: tuple[str, ...] = FAULTS,
    down: float = 5.0,
    long_down: float = 30.0,
    progress: Any = None,
) -> list[dict[str, Any]]:
    """The whole measurement: start, each fault in turn, play out, audit. The processes'
    logs stay in a temporary directory when it fails (its path goes to ``progress``)."""
    lines: list[dict[str, Any]] = []
    options = {"BOT_THINK_SECONDS": THINK_SECONDS, "CLOCK_SWEEP_EVERY": "1"}
    with started_stack("kingdom-faults-", progress, **options) as stack:
        community = Community(stack, tables)
        community.start()
        watch = Watch(stack, community)
        watch.start()
        time.sleep(3)  # the games under way
        for name in faults:
            seconds = long_down if name == LONG_FAULT else down
            line = measure(name, stack, community, watch, run_fault(name, stack, seconds))
            lines.append(line)
            if progress is not None:
                progress.write(json.dumps(line) + "\n")
            time.sleep(2)
        finish(stack, community)
        community.stop()
        watch.stop()
        lines.append(recorded_once(stack, community))
        lines.append(audit(stack))
    return lines
