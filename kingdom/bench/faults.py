"""``bench faults``: the service's processes on dependencies of their own (kingdom/bench/
stack.py), a community playing on them over HTTP, and one fault at a time: Redis stopped,
the Celery worker killed, one of its pool processes killed, PostgreSQL stopped briefly and
for longer. Each fault gives one JSON line: how many seconds after the dependency was back
every game moved again (``recovery_seconds``), the longest any game stood still, and the
answers the players got meanwhile (a 500 is a failure; a 503 with Retry-After is allowed).
At the end every game is played out and audited (``manage.py audit_game --all``), and
every move a player was told was recorded is in the log exactly once.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
import uuid
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psycopg

from kingdom.bench.stack import ROOT, Stack, wait_until

HTTP_TIMEOUT = 15
# A player's pause between two moves of theirs (seconds): games last long enough to be
# in progress when a fault strikes.
HUMAN_PAUSE = 0.3
# Bots think this long per move; medium bots answer at once.
THINK_SECONDS = "0.2"
# How long a fault waits for every game to move again before it counts them as stalled.
STALL_LIMIT = 60.0
FINISH_SECONDS = 180.0
FAULTS = ("redis_stopped", "worker_killed", "pool_process_killed", "postgres_stopped")
LONG_FAULT = "postgres_down_long"
PASSWORD = "pw-faults-123456"


@dataclass
class Table:
    id: str
    token: str
    http: str
    next_move_at: float = 0.0
    # The move being sent (kept across 503s: a retry carries the same command id).
    pending: dict[str, Any] | None = None


@dataclass
class Answers:
    """Every answer the players got: (monotonic time, what, status)."""

    seen: list[tuple[float, str, int]] = field(default_factory=list)
    recorded: list[str] = field(default_factory=list)  # command ids answered 201 or 200
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, what: str, status: int) -> None:
        with self.lock:
            self.seen.append((time.monotonic(), what, status))

    def between(self, start: float, end: float) -> Counter:
        with self.lock:
            return Counter(status for t, _, status in self.seen if start <= t <= end)

    def errors(self, start: float, end: float) -> list[tuple[float, str, int]]:
        with self.lock:
            return [a for a in self.seen if start <= a[0] <= end and a[2] >= 500 and a[2] != 503]


def request(base: str, method: str, path: str, body: Any = None, token: str | None = None):
    headers = {"Accept": "application/json"}
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
    if token:
        headers["Authorization"] = f"Token {token}"
    req = urllib.request.Request(base + path, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=HTTP_TIMEOUT) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as exc:
        raw = exc.read()
        try:
            return exc.code, json.loads(raw or b"null")
        except ValueError:
            return exc.code, None
    except OSError:
        return 0, None  # no answer at all (refused, reset, timed out)


def socket_status(base: str, game_id: str) -> int:
    """Open a spectator's socket on the game and read its first frame: 101 when it
    serves, 503 for an ``unavailable`` refusal (closed 1013), else the handshake's HTTP
    status (a 500 when a dependency's failure escaped), 0 without an answer."""
    from websockets.exceptions import InvalidStatus, WebSocketException
    from websockets.sync.client import connect

    url = base.replace("http://", "ws://", 1) + f"/ws/games/{game_id}/"
    try:
        with connect(url, origin=base, open_timeout=HTTP_TIMEOUT) as socket:
            first = json.loads(socket.recv(timeout=HTTP_TIMEOUT))
    except InvalidStatus as exc:
        return exc.response.status_code
    except (OSError, TimeoutError, WebSocketException, ValueError):
        return 0
    return 503 if first.get("code") == "unavailable" else 101


class Community:
    """Players over HTTP: each table one person and one bot (some tables two bots and
    the person watching), kept at ``tables`` tables in progress; and people logging in
    and asking for socket tickets meanwhile."""

    def __init__(self, stack: Stack, tables: int, seed: int = 1) -> None:
        self.stack, self.size = stack, tables
        self.rng = random.Random(seed)
        self.answers = Answers()
        self.tables: dict[str, Table] = {}
        self.all_tables: list[str] = []
        self.lock = threading.Lock()
        self.opening = True
        self.pause = HUMAN_PAUSE
        self.stopping = threading.Event()
        self.threads: list[threading.Thread] = []
        self.accounts: list[tuple[str, str]] = []

    def start(self) -> None:
        """Accounts, then one thread per table (a person plays it, and the next one when it
        ends) and one for the other requests people make."""
        for i in range(self.size):
            self.accounts.append(self._account(f"player{i}-{uuid.uuid4().hex[:6]}"))
        first = [self._open(i) for i in range(self.size)]
        for i, table in enumerate(first):
            self.threads.append(threading.Thread(target=self._seat, args=(i, table), daemon=True))
        self.threads.append(threading.Thread(target=self._others, daemon=True))
        for thread in self.threads:
            thread.start()

    def stop(self) -> None:
        self.stopping.set()
        for thread in self.threads:
            thread.join(timeout=30)

    def _seat(self, i: int, table: Table) -> None:
        while not self.stopping.wait(max(0.0, table.next_move_at - time.monotonic())):
            if self._play(table):
                continue
            with self.lock:
                del self.tables[table.id]
            if not self.opening:
                return
            table = self._open(i)  # the next game at this seat, of the same kind

    def _others(self) -> None:
        while not self.stopping.wait(0.5):
            self._probe()

    def playing(self) -> list[str]:
        with self.lock:
            return list(self.tables)

    def started(self) -> list[str]:
        with self.lock:
            return list(self.all_tables)

    def _call(self, what: str, base: str, method: str, path: str, body=None, token=None):
        status, answer = request(base, method, path, body, token)
        self.answers.add(what, status)
        return status, answer

    def _account(self, name: str) -> tuple[str, str]:
        base = self.stack.urls[0]
        body = {"username": name, "password": PASSWORD}
        status, answer = self._call("signup", base, "POST", "/api/auth/signup/", body)
        if status != 201:
            raise RuntimeError(f"sign-up answered {status}: {answer}")
        return name, answer["token"]

    def _open(self, i: int) -> Table:
        """A table started by player ``i``: every fourth of bots alone, the others a person
        against a medium or a hard bot."""
        _, token = self.accounts[i % len(self.accounts)]
        base = self.stack.urls[i % len(self.stack.urls)]
        for _attempt in range(100):
            table = self._open_once(base, token, bots_only=i % 4 == 3)
            if table is not None:
                with self.lock:
                    self.tables[table.id] = table
                    self.all_tables.append(table.id)
                return table
            time.sleep(0.2)
        raise RuntimeError("no table could be opened")

    def _open_once(self, base: str, token: str, bots_only: bool) -> Table | None:
        body = {"ruleset": "kingdoms", "seats": 2, "join": not bots_only}
        status, table = self._call("open", base, "POST", "/api/tables/", body, token)
        if status != 201:
            return None
        path = f"/api/tables/{table['id']}"
        levels = ("easy", "medium") if bots_only else (self.rng.choice(["medium", "hard"]),)
        for level in levels:
            status, _ = self._call("bot", base, "POST", f"{path}/bots/", {"level": level}, token)
            if status != 201:
                return None
        status, _ = self._call("start", base, "POST", f"{path}/start/", {}, token)
        return Table(table["id"], token, base) if status in (200, 201) else None

    def _play(self, table: Table) -> bool:
        """One look at the table and the person's move if it is theirs; False once the
        game is over."""
        path = f"/api/tables/{table.id}"
        table.next_move_at = time.monotonic() + self.pause
        if table.pending is None:
            status, legal = self._call(
                "legal", table.http, "GET", f"{path}/legal/", None, table.token
            )
            if status != 200:
                return True
            if not legal["commands"]:
                status, detail = self._call(
                    "table", table.http, "GET", f"{path}/", None, table.token
                )
                return status != 200 or detail.get("status") == "active"
            table.pending = {
                "command": self.rng.choice(legal["commands"]),
                "expected_seq": legal["seq"],
                "command_id": str(uuid.uuid4()),
            }
        status, _ = self._call(
            "move", table.http, "POST", f"{path}/commands/", table.pending, table.token
        )
        if status in (200, 201):
            self.answers.recorded.append(table.pending["command_id"])
        if status not in (0, 503):  # a 409 (the game moved on) or 4xx: a fresh look next time
            table.pending = None
        return True

    def _probe(self) -> None:
        """What else people do meanwhile: log in, ask for a socket ticket, read a table,
        open its socket."""
        name, token = self.rng.choice(self.accounts)
        base = self.rng.choice(self.stack.urls)
        body = {"username": name, "password": PASSWORD}
        self._call("login", base, "POST", "/api/auth/token/", body)
        self._call("ws-ticket", base, "POST", "/api/auth/ws-ticket/", {}, token)
        with self.lock:
            playing = list(self.tables)
        if playing:
            table = self.rng.choice(playing)
            self._call("read", base, "GET", f"/api/tables/{table}/", None, token)
            self.answers.add("socket", socket_status(base, table))


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
            return client.hlen("unacked") > 0
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
    commands = dict(rows)
    told = set(community.answers.recorded)
    return {
        "name": "faults log",
        "moves_told_recorded": len(told),
        "lost": sorted(c for c in told if c not in commands),
        "recorded_twice": sorted(c for c, n in commands.items() if n > 1),
    }


def run(
    workdir: Path,
    *,
    tables: int = 8,
    faults: tuple[str, ...] = FAULTS,
    down: float = 5.0,
    long_down: float = 30.0,
    progress: Any = None,
) -> list[dict[str, Any]]:
    """The whole measurement: start, each fault in turn, play out, audit."""
    stack = Stack(workdir, BOT_THINK_SECONDS=THINK_SECONDS, CLOCK_SWEEP_EVERY="1")
    lines: list[dict[str, Any]] = []
    try:
        stack.start()
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
    except Exception:
        if progress is not None:
            progress.write(stack.logs() + "\n")
        raise
    finally:
        stack.stop()
