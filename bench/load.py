"""The clients of ``bench live``: every seat a real account with its own WebSocket, acting
the way a player does, in one asyncio process.

A player acts when its own socket says it may (``legal`` non-empty, ``status`` active) and
its socket has seen the table's newest head; it POSTs a random legal command (seeded RNG)
with ``expected_seq`` and a fresh ``command_id``. The move is done when the mover's own
socket shows the head the POST answered with. Like boardgame.io's anchor, a table has at
most one move in flight, so a 409 (stale ``expected_seq``) means the service broke pacing
it was given, not a race the bench made.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import orjson
import websockets
from websockets.typing import Origin

# A move whose own socket has not shown the new head by then counts as an error.
MOVE_TIMEOUT = 10.0
ENDED = ("finished", "aborted")


@dataclass
class Player:
    seat_name: str
    token: str
    server: str  # http://127.0.0.1:PORT
    head: int = -1
    legal: list[dict[str, Any]] = field(default_factory=list)
    status: str = ""
    # (head, perf_counter) of every socket update since the current move began.
    arrivals: list[tuple[int, float]] = field(default_factory=list)
    closed: bool = False
    # The socket's answers to commands sent on it, by ref.
    replies: dict[str, dict[str, Any]] = field(default_factory=dict)
    ws: Any = None
    reader: asyncio.Task | None = None
    # The player's own keep-alive connection for its moves' POSTs (``MoveConnection``).
    poster: MoveConnection | None = None

    @property
    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Token {self.token}"}

    def move_connection(self) -> MoveConnection:
        if self.poster is None:
            self.poster = MoveConnection(self.server, self.token)
        return self.poster


@dataclass
class Spectator:
    """A socket watching a game without a seat (``--spectators``): the head it last saw."""

    ws: Any = None
    reader: asyncio.Task | None = None
    head: int = -1
    frames: int = 0


@dataclass
class Table:
    """One game in play: its id and its two players (each on its own server)."""

    game_id: str
    players: list[Player]
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    spectators: list[Spectator] = field(default_factory=list)

    @property
    def head(self) -> int:
        return max(p.head for p in self.players)

    def mover(self) -> Player | None:
        for player in self.players:
            if player.head == self.head and player.status == "active" and player.legal:
                return player
        return None

    def over(self) -> bool:
        return all(p.head == self.head and p.status in ENDED for p in self.players)

    def broken(self) -> bool:
        return any(p.closed for p in self.players)


@dataclass
class Tally:
    """What the measured phase saw."""

    move_seconds: list[float] = field(default_factory=list)
    http_seconds: list[float] = field(default_factory=list)
    errors: Counter = field(default_factory=Counter)
    games_finished: int = 0
    error_samples: list[str] = field(default_factory=list)

    def error(self, kind: str, sample: str) -> None:
        self.errors[kind] += 1
        if len(self.error_samples) < 5:
            self.error_samples.append(f"{kind}: {sample[:300]}")


class MoveConnection:
    """One player's keep-alive HTTP/1.1 connection for its moves: the request written
    from bytes, the answer read by its Content-Length.

    Why not aiohttp here: its request machinery was ~a third of the load's CPU, and the
    load shares the 2 cores with the servers it measures. boardgame.io's anchor drives
    its server with the lightest client for the same reason (its README: "so more of the
    2 cores is left to the server"). Setup (tickets, accounts) stays on aiohttp."""

    def __init__(self, server: str, token: str) -> None:
        self.host, _, port = server.removeprefix("http://").partition(":")
        self.port = int(port or 80)
        self.head = (
            f"Host: {self.host}:{self.port}\r\nAuthorization: Token {token}\r\n"
            "Content-Type: application/json\r\n"
        ).encode()
        self.streams: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None

    async def post(self, path: str, body: bytes) -> tuple[int, bytes]:
        """The status and body of the answer to POSTing ``body``. A connection the server
        closed while idle is opened again and the request sent once more: a move's
        ``command_id`` makes a second delivery of it the same move."""
        request = b"".join(
            (
                f"POST {path} HTTP/1.1\r\n".encode(),
                self.head,
                f"Content-Length: {len(body)}\r\n\r\n".encode(),
                body,
            )
        )
        reused = self.streams is not None
        try:
            return await self._exchange(request)
        except (ConnectionError, asyncio.IncompleteReadError):
            self.close()
            if not reused:
                raise
            return await self._exchange(request)

    async def _exchange(self, request: bytes) -> tuple[int, bytes]:
        if self.streams is None:
            self.streams = await asyncio.open_connection(self.host, self.port)
        reader, writer = self.streams
        writer.write(request)
        head = await reader.readuntil(b"\r\n\r\n")
        lines = head.split(b"\r\n")
        version, _, rest = lines[0].partition(b" ")
        if not version.startswith(b"HTTP/1."):
            raise ValueError(f"not an HTTP/1.x answer: {lines[0][:80]!r}")
        status = int(rest[:3])
        length, chunked, keep = 0, False, True
        for line in lines[1:]:
            name, _, value = line.partition(b":")
            name, value = name.strip().lower(), value.strip().lower()
            if name == b"content-length":
                length = int(value)
            elif name == b"transfer-encoding":
                chunked = value == b"chunked"
            elif name == b"connection":
                keep = value != b"close"
        content = await (_chunks(reader) if chunked else reader.readexactly(length))
        if not keep:
            self.close()
        return status, content

    def close(self) -> None:
        if self.streams is not None:
            self.streams[1].close()
            self.streams = None


async def _chunks(reader: asyncio.StreamReader) -> bytes:
    """A chunked body (an answer the server did not know the length of, as uvicorn sends
    one without a Content-Length)."""
    parts = []
    while size := int((await reader.readuntil(b"\r\n")).split(b";")[0], 16):
        parts.append(await reader.readexactly(size))
        await reader.readexactly(2)
    await reader.readuntil(b"\r\n")  # no trailers are sent: the last chunk's blank line
    return b"".join(parts)


class Clients:
    """One keep-alive HTTP session per server, shared by that server's players; ``via``:
    how a player sends its move ("http": POST .../commands/; "socket": on its game socket,
    games/api/moves.py)."""

    def __init__(self, via: str = "http") -> None:
        self.sessions: dict[str, aiohttp.ClientSession] = {}
        self.via = via

    def session(self, server: str) -> aiohttp.ClientSession:
        if server not in self.sessions:
            connector = aiohttp.TCPConnector(limit=0, force_close=False)
            timeout = aiohttp.ClientTimeout(total=MOVE_TIMEOUT)
            self.sessions[server] = aiohttp.ClientSession(
                server, connector=connector, timeout=timeout
            )
        return self.sessions[server]

    async def close(self) -> None:
        for session in self.sessions.values():
            await session.close()


async def connect(clients: Clients, table: Table) -> None:
    """Each player asks its server for a one-time ticket and opens its game socket."""
    for player in table.players:
        async with clients.session(player.server).post(
            "/api/auth/ws-ticket/", headers=player.auth
        ) as response:
            if response.status not in (200, 201):
                raise RuntimeError(f"ws-ticket: HTTP {response.status} {await response.text()}")
            ticket = (await response.json())["ticket"]
        url = f"ws://{player.server.removeprefix('http://')}/ws/games/{table.game_id}/"
        player.ws = await websockets.connect(f"{url}?ticket={ticket}", max_size=None)
        player.reader = asyncio.create_task(_read(player, table))


async def watch(table: Table, server: str, count: int) -> None:
    """Open ``count`` anonymous sockets on the game, as a browser's spectators do (from the
    site's own origin)."""
    url = f"ws://{server.removeprefix('http://')}/ws/games/{table.game_id}/"
    for _ in range(count):
        spectator = Spectator()
        spectator.ws = await websockets.connect(url, origin=Origin(server), max_size=None)
        spectator.reader = asyncio.create_task(_spectate(spectator))
        table.spectators.append(spectator)


async def _spectate(spectator: Spectator) -> None:
    try:
        async for frame in spectator.ws:
            news = orjson.loads(frame)
            if news.get("type") == "events":
                spectator.head = news["head"]
                spectator.frames += 1
    except websockets.ConnectionClosed:
        pass


def spectators_behind(table: Table) -> int:
    """How many of the table's spectators have not seen its newest head."""
    return sum(1 for s in table.spectators if s.head < table.head)


async def _read(player: Player, table: Table) -> None:
    try:
        async for frame in player.ws:
            # orjson, as a browser's JSON.parse is native: the stdlib's decoder was ~40% of
            # the load's CPU, which shares the cores with the servers.
            news = orjson.loads(frame)
            if news.get("type") in {"accepted", "error"} and news.get("ref") is not None:
                player.replies[news["ref"]] = news
                table.changed.set()
                continue
            if news.get("type") != "events":
                continue
            if (answer := news.get("accepted")) is not None:  # this player's move's answer
                player.replies[answer["ref"]] = {"type": "accepted", **answer}
            player.head = news["head"]
            player.legal = news.get("legal") or []
            player.status = news.get("status", "")
            player.arrivals.append((player.head, time.perf_counter()))
            table.changed.set()
    except websockets.ConnectionClosed:
        pass
    finally:
        player.closed = True
        table.changed.set()


async def disconnect(table: Table) -> None:
    for spectator in table.spectators:
        await spectator.ws.close()
        if spectator.reader is not None:
            await asyncio.gather(spectator.reader, return_exceptions=True)
    for player in table.players:
        if player.poster is not None:
            player.poster.close()
        if player.ws is not None:
            await player.ws.close()
        if player.reader is not None:
            await asyncio.gather(player.reader, return_exceptions=True)


async def _wait(table: Table, ready: Any, until: float) -> bool:
    """Wait until ``ready()`` holds or ``until`` (perf_counter) passes."""
    while not ready():
        left = until - time.perf_counter()
        if left <= 0:
            return False
        table.changed.clear()
        if ready():
            return True
        try:
            await asyncio.wait_for(table.changed.wait(), left)
        except TimeoutError:
            return ready()
    return True


async def play_table(
    clients: Clients,
    table: Table,
    rng: random.Random,
    budget: int,
    deadline: float,
    tally: Tally | None,
) -> int:
    """Play ``table`` until its game ends, ``budget`` moves are made or ``deadline``
    (perf_counter) passes; the moves made. ``tally`` None: a warm-up, nothing counted."""
    moves = 0
    while moves < budget and time.perf_counter() < deadline:
        wait_until = time.perf_counter() + MOVE_TIMEOUT
        ready = lambda: table.mover() or table.over() or table.broken()  # noqa: E731
        if not await _wait(table, ready, wait_until):
            if tally is not None:
                tally.error("stalled", f"game {table.game_id} at head {table.head}")
            return moves
        if table.over():
            if tally is not None:
                tally.games_finished += 1
            return moves
        player = table.mover()
        if player is None:
            if tally is not None:
                tally.error("socket_closed", f"game {table.game_id} at head {table.head}")
            return moves
        if await _move(clients, table, player, rng, tally):
            moves += 1
    return moves


async def _move(
    clients: Clients, table: Table, player: Player, rng: random.Random, tally: Tally | None
) -> bool:
    expected = player.head
    body = {
        "command": rng.choice(player.legal),
        "command_id": str(uuid.UUID(int=rng.getrandbits(128), version=4)),
        "expected_seq": expected,
    }
    player.arrivals.clear()
    started = time.perf_counter()
    if clients.via == "socket":
        sent = await _send_on_socket(table, player, body, started)
    else:
        sent = await _post(table, player, body)
    if isinstance(sent, tuple):
        if tally is not None:
            tally.error(*sent)
        if sent[0].isdigit():
            # Let the sockets say what changed before this table tries again.
            await _wait(table, lambda: table.head != expected, time.perf_counter() + 1.0)
        return False
    http_seconds = time.perf_counter() - started
    new_head = sent
    shown = await _wait(table, lambda: player.head >= new_head, started + MOVE_TIMEOUT)
    if not shown:
        if tally is not None:
            tally.error("socket_timeout", f"game {table.game_id}: head {new_head} not shown")
        return False
    if tally is not None:
        arrived = next(t for head, t in player.arrivals if head >= new_head)
        tally.move_seconds.append(arrived - started)
        tally.http_seconds.append(http_seconds)
    return True


async def _post(table: Table, player: Player, body: dict) -> int | tuple:
    """POST the move: the new head, or (error kind, sample)."""
    path = f"/api/tables/{table.game_id}/commands/"
    try:
        async with asyncio.timeout(MOVE_TIMEOUT):
            status, content = await player.move_connection().post(path, orjson.dumps(body))
    except (OSError, ValueError, asyncio.IncompleteReadError, asyncio.LimitOverrunError) as exc:
        # TimeoutError is an OSError; ValueError: an answer that is not HTTP/1.1.
        player.move_connection().close()
        return ("http_" + type(exc).__name__, str(exc))
    if status not in (200, 201):
        return (str(status), content.decode(errors="replace"))
    # orjson, as on the socket (``_read``): the answer carries the move's events.
    return orjson.loads(content)["head_seq"]


async def _send_on_socket(table: Table, player: Player, body: dict, started: float) -> int | tuple:
    """Send the move on the player's game socket; the new head, or (error kind, sample)."""
    ref = body["command_id"]
    try:
        await player.ws.send(json.dumps({"type": "command", "ref": ref, **body}))
    except websockets.ConnectionClosed as exc:
        return ("socket_closed", str(exc))
    if not await _wait(table, lambda: ref in player.replies, started + MOVE_TIMEOUT):
        return ("socket_timeout", f"game {table.game_id}: no answer to {ref}")
    reply = player.replies.pop(ref)
    if reply["type"] != "accepted":
        return (str(reply.get("status", "error")), json.dumps(reply))
    return reply["head_seq"]
