"""What ``bench faults`` measures and checks: each game's head read from the database,
the faults themselves (each returns when its dependency was back), the recovery after
one, and at the end every game played out, audited and holding its moves once."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from typing import Any, cast

import psycopg

from bench.faults.community import Community
from bench.stack import ROOT, Stack, wait_until

# How long a fault waits for every game to move again before it counts them as stalled.
STALL_LIMIT = 60.0
FINISH_SECONDS = 180.0
LONG_FAULT = "postgres_down_long"


def heads(stack: Stack, ids: list[str]) -> dict[str, tuple[int, str]]:
    """Each game's (head seq, status), read from the database itself."""
    with stack.postgres.connect() as conn:
        rows = conn.execute(
            "SELECT id::text, head_seq, status FROM games_game WHERE id = ANY(%s::uuid[])",
            (ids,),
        ).fetchall()
    return {row[0]: (row[1], row[2]) for row in rows}


class Watch:
    """Each game's head, sampled every 0.1 s: when each last moved."""

    def __init__(self, stack: Stack, community: Community) -> None:
        self.stack, self.community = stack, community
        self.moved: dict[str, float] = {}
        self.head: dict[str, tuple[int, str]] = {}
        self.longest: dict[str, float] = {}
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._loop, name="watch", daemon=True)

    def start(self) -> None:
        self.thread.start()

    def stop(self) -> None:
        self.stopping.set()
        self.thread.join(timeout=10)

    def reset_longest(self) -> None:
        self.longest = {}

    def _loop(self) -> None:
        while not self.stopping.wait(0.1):
            try:
                now_heads = heads(self.stack, self.community.started())
            except psycopg.Error:
                continue  # PostgreSQL is down: nothing moves, nothing to read
            now = time.monotonic()
            for game, state in now_heads.items():
                if self.head.get(game) != state:
                    self.head[game] = state
                    self.moved[game] = now
                if state[1] == "active":
                    gap = now - self.moved.get(game, now)
                    self.longest[game] = max(self.longest.get(game, 0.0), gap)


def measure(
    name: str, stack: Stack, community: Community, watch: Watch, fault: Callable[[], float]
) -> dict[str, Any]:
    """Run ``fault`` (it returns the monotonic time its dependency was back), then wait
    until every game in progress then has moved."""
    watch.reset_longest()
    start = time.monotonic()
    back = fault()
    # The heads as the dependency came back (PostgreSQL may take a moment to answer).
    before: dict[str, tuple[int, str]] = {}
    wait_until(lambda: _read_heads(stack, community, before), "the database to answer", 30)
    waiting = {g for g, (_, status) in before.items() if status == "active"}
    moved_at: dict[str, float] = {}
    deadline = back + STALL_LIMIT
    while waiting - moved_at.keys() and time.monotonic() < deadline:
        now_heads = heads(stack, list(waiting - moved_at.keys()))
        now = time.monotonic()
        for game, (seq, status) in now_heads.items():
            if seq > before[game][0] or status != "active":
                moved_at[game] = now
        time.sleep(0.05)
    end = time.monotonic()
    stalled = sorted(waiting - moved_at.keys())
    time.sleep(1.0)  # answers still on their way count for this fault
    statuses = community.answers.between(start, time.monotonic())
    recovery = max(moved_at.values(), default=back) - back if not stalled else None
    return {
        "name": f"faults {name}",
        "games": len(waiting),
        "recovery_seconds": None if recovery is None else round(recovery, 2),
        "stalled_games": len(stalled),
        "longest_stall_seconds": round(max(watch.longest.values(), default=0.0), 2),
        "answers": sum(statuses.values()),
        "answers_503": statuses.get(503, 0),
        "answers_500": sum(n for s, n in statuses.items() if s >= 500 and s != 503),
        "no_answer": statuses.get(0, 0),
        "seconds": round(end - start, 2),
        **({"boot_seconds": stack.boot_seconds} if name == "worker_killed" else {}),
    }


def _read_heads(stack: Stack, community: Community, into: dict) -> bool:
    try:
        into.update(heads(stack, community.playing()))
    except psycopg.Error:
        return False
    return True


# ---- the faults: each returns when its dependency was back (time.monotonic()) -----------
def redis_stopped(stack: Stack, seconds: float = 5.0) -> float:
    stack.redis.stop()
    time.sleep(seconds)
    stack.redis.start()
    return time.monotonic()


def wait_for_a_held_task(stack: Stack) -> None:
    """Until a worker holds a task it took and has not acknowledged (kombu's ``unacked``
    hash): a bot turn under way."""
    import redis

    client = redis.Redis.from_url(stack.redis.url)

    def held() -> bool:
        with contextlib.suppress(redis.RedisError):
            # A synchronous client's reply is an int (the stubs also allow the async one's).
            return cast(int, client.hlen("unacked")) > 0
        return False

    try:
        wait_until(held, "a worker to take a bot turn", 30, step=0.01)
    finally:
        client.close()


def worker_killed(stack: Stack, seconds: float = 5.0) -> float:
    """Killed while it holds a bot turn; back when the restarted worker's pool processes
    are up (starting Python, Django and Celery takes seconds of its own: ``boot_seconds``
    in the line)."""
    wait_for_a_held_task(stack)
    stack.processes["worker"].kill()
    time.sleep(seconds)
    restarted = time.monotonic()
    worker = stack.processes["worker"] = stack.start_process("worker")
    wait_until(worker.children, "the restarted worker's pool processes", 60, step=0.05)
    back = time.monotonic()
    stack.boot_seconds = round(back - restarted, 2)
    return back


def pool_process_killed(stack: Stack) -> float:
    worker = stack.processes["worker"]
    wait_until(worker.children, "the worker's pool processes", 30)
    wait_for_a_held_task(stack)
    os.kill(worker.children()[0], signal.SIGKILL)
    return time.monotonic()  # Celery starts another at once


def postgres_stopped(stack: Stack, seconds: float = 5.0) -> float:
    stack.postgres.stop("fast")
    time.sleep(seconds)
    stack.postgres.start()
    return time.monotonic()


def run_fault(name: str, stack: Stack, down: float) -> Callable[[], float]:
    if name == "redis_stopped":
        return lambda: redis_stopped(stack, down)
    if name == "worker_killed":
        return lambda: worker_killed(stack, down)
    if name == "pool_process_killed":
        return lambda: pool_process_killed(stack)
    if name in ("postgres_stopped", LONG_FAULT):
        return lambda: postgres_stopped(stack, down)
    raise ValueError(f"no fault called {name!r}")


# ---- after the faults: every game played out, audited, no move lost or doubled ------------
def finish(stack: Stack, community: Community, seconds: float = FINISH_SECONDS) -> None:
    community.opening, community.pause = False, 0.02  # the rest played quickly

    def over() -> bool:
        state = heads(stack, community.started())
        return all(status != "active" for _, status in state.values())

    wait_until(over, "every game to finish", seconds, step=0.5)


def audit(stack: Stack) -> dict[str, Any]:
    """``manage.py audit_game --all`` against the stack's database."""
    done = subprocess.run(
        [sys.executable, "manage.py", "audit_game", "--all", "--json", "--no-progress"],
        cwd=ROOT,
        env=stack.env(),
        capture_output=True,
        text=True,
        timeout=600,
    )
    verdicts = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    passed = sum(1 for v in verdicts if v["passed"])
    return {
        "name": "faults audit",
        "games": len(verdicts),
        "passed": passed,
        "failed": [v for v in verdicts if not v["passed"]],
        "exit_code": done.returncode,
        "stderr": done.stderr[-2000:] if done.returncode else "",
    }


def recorded_once(stack: Stack, community: Community) -> dict[str, Any]:
    """Every move a player was told was recorded is in the log once; no command twice."""
    with stack.postgres.connect() as conn:
        rows = conn.execute(
            "SELECT command_id::text, count(*) FROM games_gameevent "
            "WHERE command_id IS NOT NULL GROUP BY command_id"
        ).fetchall()
    commands: dict[str, int] = dict(rows)
    told = set(community.answers.recorded)
    return {
        "name": "faults log",
        "moves_told_recorded": len(told),
        "lost": sorted(c for c in told if c not in commands),
        "recorded_twice": sorted(c for c, n in commands.items() if n > 1),
    }
