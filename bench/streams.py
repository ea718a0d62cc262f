"""``manage.py bench streams --streams 1000``: the memory one web process holds for idle
account event streams (``GET /api/stream/event/``, docs/bot-api.md).

It starts the Procfile's web server (uvicorn, ``kingdom.asgi``) on a free port with this
environment (its database and channel layer), opens ``--streams`` event streams to it as
one account, waits until each has its answer's head, and prints one JSON line: the
server's resident memory before and after, and the difference per stream. With
``--hold SECONDS`` it keeps the server and its streams open that long after the line (which
then gives the server's ``url`` and ``pid``), for ``manage.py bench live --url URL
--server-pid PID`` to measure moves beside them (docs/performance.md).
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token

WARM_UP = 20  # streams opened before the first reading: imports and pools settle
SETTLE_SECONDS = 3.0


def _status(pid: int) -> dict[str, int]:
    """The server's resident memory (kB) and threads, from /proc (Linux)."""
    found = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in {"VmRSS", "Threads"}:
            found[key] = int(value.split()[0])
    return found


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


async def _open_streams(port: int, token: str, count: int) -> list[Any]:
    """``count`` open event streams: each connection kept once its answer's head came."""
    request = (
        "GET /api/stream/event/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        f"Authorization: Token {token}\r\nAccept: application/x-ndjson\r\n\r\n"
    ).encode()
    kept = []
    for _ in range(count):
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(request)
        await writer.drain()
        head = await reader.readuntil(b"\r\n\r\n")
        if not head.startswith(b"HTTP/1.1 200"):
            raise RuntimeError(head.decode(errors="replace"))
        kept.append((reader, writer))
    return kept


def add_arguments(parser: Any) -> None:
    group = parser.add_argument_group("bench streams")
    group.add_argument("--streams", type=int, default=1000, help="idle event streams to open")
    group.add_argument("--hold", type=float, default=0.0, help="seconds to keep them open")


def run(streams: int, hold: float) -> dict[str, Any]:
    """Start the server, open the streams, return the JSON line (printed at once, before
    ``hold``)."""
    user, _ = get_user_model().objects.get_or_create(username="stream-memory-probe")
    token = Token.objects.get_or_create(user=user)[0].key
    port = _free_port()
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "uvicorn",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--no-access-log",
            "--lifespan",
            "off",
            "kingdom.asgi:application",
        ],
        env={
            **os.environ,
            "DEBUG": "0",
            "ALLOWED_HOSTS": "127.0.0.1",
            "LOG_LEVEL": "ERROR",
            # Moves measured beside the streams (--hold) are not rate-limited.
            "THROTTLE_COMMANDS": "1000000/min",
        },
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        _wait(port, server)
        return asyncio.run(_measure(port, token, streams, server.pid, hold))
    finally:
        server.terminate()
        server.wait(timeout=30)


def _wait(port: int, server: subprocess.Popen) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError("the web server exited")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError("the web server did not start")


async def _measure(port: int, token: str, count: int, pid: int, hold: float) -> dict[str, Any]:
    warm = await _open_streams(port, token, WARM_UP)
    await asyncio.sleep(SETTLE_SECONDS)
    before = _status(pid)
    opened = await _open_streams(port, token, count)
    await asyncio.sleep(SETTLE_SECONDS)
    after = _status(pid)
    result: dict[str, Any] = {
        "name": "idle_event_streams",
        "n": count,
        "rss_before_kb": before["VmRSS"],
        "rss_after_kb": after["VmRSS"],
        "per_stream_kb": round((after["VmRSS"] - before["VmRSS"]) / count, 1),
        "threads_before": before["Threads"],
        "threads_after": after["Threads"],
    }
    if hold > 0:
        result.update(url=f"http://127.0.0.1:{port}", pid=pid)
    print(json.dumps(result), flush=True)
    await asyncio.sleep(hold)
    for _reader, writer in [*warm, *opened]:
        writer.close()
    return result
