"""Clients of the running servers: JSON over real HTTP, and a game stream that behaves
like the browser's (static/js/table/stream.js): events applied by seq, a gap or a head
ahead of the log filled through REST, reconnection with ``?after=<last seq>``."""

from __future__ import annotations

import json
import threading
import time
import urllib.error
import urllib.request
from typing import Any

from websockets.exceptions import ConnectionClosed, InvalidHandshake
from websockets.sync.client import connect

HTTP_TIMEOUT = 30


class Http:
    """JSON requests to one server, as one account (token for writes, cookie for reads)."""

    def __init__(self, base: str, token: str | None = None, cookie: str | None = None):
        self.base, self.token, self.cookie = base, token, cookie

    def request(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        headers = {"Accept": "application/json"}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        if self.token:
            headers["Authorization"] = f"Token {self.token}"
        elif self.cookie:
            headers["Cookie"] = self.cookie
        req = urllib.request.Request(self.base + path, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(req, timeout=HTTP_TIMEOUT) as response:
                return response.status, json.loads(response.read() or b"null")
        except urllib.error.HTTPError as exc:
            raw = exc.read()
            try:
                return exc.code, json.loads(raw or b"null")
            except ValueError:
                return exc.code, raw.decode(errors="replace")[:500]

    def get(self, path: str) -> Any:
        status, body = self.request("GET", path)
        assert status == 200, f"GET {self.base}{path} answered {status}: {body}"
        return body

    def post(self, path: str, body: Any = None, expect: int | tuple[int, ...] = (200, 201)) -> Any:
        status, answer = self.request("POST", path, body if body is not None else {})
        wanted = (expect,) if isinstance(expect, int) else expect
        assert status in wanted, f"POST {self.base}{path} answered {status}: {answer}"
        return answer


class GameStream:
    """One browser tab's live connection to a game, run in a thread.

    ``servers`` are the web processes behind the load balancer: a reconnection goes to
    the same one first and to the next when that one refuses. With ``heartbeat`` (seconds)
    it beats as the browser does every 20 s: ``resync`` after its last seq when the socket
    was quiet that long, else ``ping``.
    """

    def __init__(
        self,
        servers: list[str],
        game_id: str,
        cookie: str | None = None,
        *,
        heartbeat: float | None = None,
        name: str = "stream",
    ) -> None:
        self.servers, self.game_id, self.cookie = list(servers), str(game_id), cookie
        self.heartbeat, self.name = heartbeat, name
        self.server = 0
        self.lock = threading.Lock()
        self.log: list[dict[str, Any]] = []  # the merged log: every seq once, in order
        self.last = 0
        self.head = 0
        # Per connection: (server, the seqs of every event the socket sent, in order).
        self.connections: list[tuple[str, list[int]]] = []
        self.rest_catchups = 0  # how often REST had to fill in
        self.beats = 0  # heartbeats sent
        self.answered = 0  # heartbeats sent before the last message heard
        self.problems: list[str] = []
        self.stopped = threading.Event()
        self.open = threading.Event()
        self.thread = threading.Thread(target=self._run, name=name, daemon=True)

    # ---- driving ------------------------------------------------------------------------
    def start(self, wait: float = 15) -> GameStream:
        self.thread.start()
        if not self.open.wait(wait):
            raise AssertionError(f"{self.name}: no socket opened within {wait:g} s")
        return self

    def stop(self) -> None:
        self.stopped.set()
        self.thread.join(timeout=10)

    def wait_for_seq(self, seq: int, seconds: float) -> None:
        deadline = time.monotonic() + seconds
        while self.last < seq:
            if time.monotonic() > deadline:
                raise AssertionError(
                    f"{self.name} reached seq {self.last} of {seq} within {seconds:g} s "
                    f"(connections: {[(s, len(q)) for s, q in self.connections]}, "
                    f"problems: {self.problems[-3:]})"
                )
            time.sleep(0.05)

    def socket_seqs(self) -> list[int]:
        with self.lock:
            return [seq for _server, seqs in self.connections for seq in seqs]

    # ---- the connection loop ------------------------------------------------------------
    def _url(self) -> str:
        base = self.servers[self.server].replace("http://", "ws://", 1)
        return f"{base}/ws/games/{self.game_id}/?after={self.last}"

    def _run(self) -> None:
        backoff = 0.1
        while not self.stopped.is_set():
            origin = self.servers[self.server]
            headers = {"Cookie": self.cookie} if self.cookie else {}
            try:
                with connect(
                    self._url(), origin=origin, additional_headers=headers, open_timeout=5
                ) as socket:
                    backoff = 0.1
                    with self.lock:
                        self.connections.append((origin, []))
                    reconnected = self.open.is_set()
                    self.open.set()
                    if reconnected:
                        self._catch_up()  # what happened while we were away
                    self._listen(socket)
            except (OSError, InvalidHandshake, TimeoutError) as exc:
                self.problems.append(f"connect to {origin}: {exc!r}")
                self.server = (self.server + 1) % len(self.servers)
            except ConnectionClosed as exc:
                self.problems.append(f"closed by {origin}: {exc!r}")
            if not self.stopped.is_set():
                time.sleep(backoff)
                backoff = min(backoff * 2, 1.0)

    def _listen(self, socket) -> None:
        heard = beat = time.monotonic()
        while not self.stopped.is_set():
            now = time.monotonic()
            if self.heartbeat and now - beat >= self.heartbeat:
                # The browser's heartbeat: resync after a quiet spell, else a ping.
                quiet = now - heard >= self.heartbeat
                message = {"type": "resync", "after": self.last} if quiet else {"type": "ping"}
                socket.send(json.dumps(message))
                beat = now
                self.beats += 1
            try:
                raw = socket.recv(timeout=0.2)
            except TimeoutError:
                continue
            heard = time.monotonic()
            self.answered = self.beats
            message = json.loads(raw)
            if message.get("type") == "events":
                self._on_news(message)

    def _on_news(self, message: dict[str, Any]) -> None:
        events = sorted(message.get("events", []), key=lambda e: e["seq"])
        with self.lock:
            self.connections[-1][1].extend(e["seq"] for e in events)
            self.head = max(self.head, message["head"])
        complete = self._apply(events)
        if not complete or self.last < message["head"]:
            self._catch_up()

    def _apply(self, events: list[dict[str, Any]]) -> bool:
        """The browser's applyEvents: skip what is known, stop at a gap (False)."""
        with self.lock:
            for event in events:
                if event["seq"] <= self.last:
                    continue
                if event["seq"] != self.last + 1:
                    return False
                self.log.append(event)
                self.last = event["seq"]
        return True

    def _catch_up(self) -> None:
        """REST: every event after the last seq, page by page (the browser's catchUp)."""
        self.rest_catchups += 1
        http = Http(self.servers[self.server], cookie=self.cookie)
        for _round in range(20):
            path = f"/api/tables/{self.game_id}/events/?after={self.last}"
            try:
                status, page = http.request("GET", path)
            except OSError as exc:  # that server is gone: the reconnection will catch up
                self.problems.append(f"catch-up failed: {exc!r}")
                return
            if status != 200:
                self.problems.append(f"catch-up answered {status}")
                return
            self._apply(page["events"])
            if not (self.last < page["head_seq"] and page["events"]):
                return
