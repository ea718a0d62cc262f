"""The players of ``bench faults``: people at tables over HTTP, each table in a thread of
its own, and the other requests people make meanwhile (logins, socket tickets, reads,
sockets opened). Every answer is kept with its time."""

from __future__ import annotations

import json
import random
import threading
import time
import urllib.error
import urllib.request
import uuid
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from bench.stack import Stack

HTTP_TIMEOUT = 15
# A player's pause between two moves of theirs (seconds): games last long enough to be
# in progress when a fault strikes.
HUMAN_PAUSE = 0.3
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
    from websockets.typing import Origin

    url = base.replace("http://", "ws://", 1) + f"/ws/games/{game_id}/"
    try:
        with connect(url, origin=Origin(base), open_timeout=HTTP_TIMEOUT) as socket:
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
