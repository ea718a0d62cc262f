"""A dependency that is down is a 503 with ``Retry-After``, never a 500.

Redis (the rate limits, the WebSocket tickets, the cache) and PostgreSQL (every read and
write) may go away for seconds: a restart, a failover, a network cut. A request that hits
one of them then is answered ``503 {"code": "unavailable", "message"}``, which clients
retry; nothing was written, or the write path's transaction rolled back.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from django.db import InterfaceError, OperationalError
from psycopg import InterfaceError as PsycopgInterfaceError
from psycopg import OperationalError as PsycopgOperationalError
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

log = logging.getLogger(__name__)
# Seconds a client is asked to wait: about what a restarted dependency takes to serve.
RETRY_AFTER = 2
UNAVAILABLE = {
    "code": "unavailable",
    "message": "The service is briefly unavailable; try again in a few seconds.",
}
# WebSocket's close code "try again later".
TRY_AGAIN_LATER = 1013
_DOWN = (
    RedisConnectionError,
    RedisTimeoutError,
    OperationalError,
    InterfaceError,
    PsycopgOperationalError,
    PsycopgInterfaceError,
)


def dependency_down(exc: BaseException | None) -> bool:
    """Whether ``exc`` (or what it was raised from) says Redis or PostgreSQL did not
    answer: a refused or dropped connection, a timeout, a server shutting down."""
    seen = 0
    while exc is not None and seen < 10:
        if isinstance(exc, _DOWN):
            return True
        exc = exc.__cause__ or exc.__context__
        seen += 1
    return False


async def refuse_socket(
    receive: Callable[[], Awaitable[dict[str, Any]]],
    send: Callable[[dict[str, Any]], Awaitable[None]],
    why: dict[str, str],
    code: int,
) -> None:
    """Accept, say why in an ``error`` frame, close with ``code``: a close before the
    handshake completes reaches the client as a bare HTTP 403, without the code."""
    if (await receive())["type"] != "websocket.connect":
        return
    await send({"type": "websocket.accept"})
    await send({"type": "websocket.send", "text": json.dumps({"type": "error", **why})})
    await send({"type": "websocket.close", "code": code})


async def serve_socket(app: Any, scope: dict[str, Any], receive: Any, send: Any) -> None:
    """Run a socket's ASGI ``app``; when Redis (the channel layer) or PostgreSQL fails it
    before the socket was accepted, accept, say ``unavailable`` and close with 1013,
    which browsers retry, rather than reject the handshake with a 500."""
    seen = {"connect": False, "accepted": False}

    async def receiving() -> dict[str, Any]:
        message = await receive()
        seen["connect"] = seen["connect"] or message["type"] == "websocket.connect"
        return message

    async def sending(message: dict[str, Any]) -> None:
        seen["accepted"] = seen["accepted"] or message["type"] == "websocket.accept"
        await send(message)

    try:
        await app(scope, receiving, sending)
    except Exception as exc:
        if seen["accepted"] or not dependency_down(exc):
            raise
        log.warning("socket %s refused, a dependency is down: %r", scope.get("path"), exc)

        async def connect_again() -> dict[str, Any]:
            return {"type": "websocket.connect"}

        await refuse_socket(
            connect_again if seen["connect"] else receive, send, UNAVAILABLE, TRY_AGAIN_LATER
        )
