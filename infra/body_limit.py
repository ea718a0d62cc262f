"""A request body's size and time limits, applied as the bytes arrive (ASGI middleware).

Django's ASGI handler reads the whole body (spooling it to disk past 2.5 MB) before any
middleware runs, so a limit checked there comes after the server has taken in whatever
the client chose to send. This wraps the HTTP application instead:

- a Content-Length over the route's limit is answered 413 before a byte is read;
- a body without one (chunked), or longer than it declared, is read up to the limit and
  answered 413 at the byte past it;
- a body that has not all arrived within ``timeout`` seconds is answered 408;
- a body within the limits is handed to the application whole, as one message.

Under /api/ the answers are the API's JSON ``{"code", "message"}``; elsewhere plain text.
The limits: ``API_MAX_BODY_BYTES`` under /api/, ``MAX_BODY_BYTES`` for every other route,
``BODY_TIMEOUT_SECONDS`` (settings).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

Scope = dict[str, Any]
Message = dict[str, Any]
Receive = Callable[[], Awaitable[Message]]
# What an app may send is any mapping (Django's ASGIHandler says so).
Send = Callable[[Mapping[str, Any]], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

API_PREFIX = "/api/"


class BodyTooLarge(Exception):
    pass


class ClientGone(Exception):
    pass


class BodyLimit:
    """Wraps an ASGI application; only ``http`` requests are looked at."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        api_max_bytes: int | None = None,
        max_bytes: int | None = None,
        timeout: float | None = None,
    ) -> None:
        from django.conf import settings

        self.app = app
        self.api_max_bytes = api_max_bytes or settings.API_MAX_BODY_BYTES
        self.max_bytes = max_bytes or settings.MAX_BODY_BYTES
        self.timeout = timeout or settings.BODY_TIMEOUT_SECONDS

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        api = scope["path"].startswith(API_PREFIX)
        limit = self.api_max_bytes if api else self.max_bytes
        try:
            declared = declared_length(scope)
        except ValueError:
            await refuse(send, api, 400, "bad_request", "Content-Length is not a number.")
            return
        if declared is not None and declared > limit:
            await too_large(send, api, limit)
            return
        try:
            async with asyncio.timeout(self.timeout):
                body = await read_body(receive, limit)
        except BodyTooLarge:
            await too_large(send, api, limit)
            return
        except TimeoutError:
            message = f"The request body did not arrive within {self.timeout:g} seconds."
            await refuse(send, api, 408, "timeout", message)
            return
        except ClientGone:
            return
        await self.app(scope, replayed(body, receive), send)


def declared_length(scope: Scope) -> int | None:
    """The Content-Length header's value, or None; ValueError when it is not a number
    (or two headers disagree)."""
    values = {v.strip() for k, v in scope.get("headers", ()) if k.lower() == b"content-length"}
    if not values:
        return None
    if len(values) > 1 or not all(v.isdigit() for v in values):
        raise ValueError("bad Content-Length")
    return int(values.pop())


async def read_body(receive: Receive, limit: int) -> bytes:
    """The whole body, or BodyTooLarge as soon as it passes ``limit`` bytes."""
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            raise ClientGone
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            raise BodyTooLarge
        chunks.append(chunk)
        if not message.get("more_body", False):
            return b"".join(chunks)


def replayed(body: bytes, receive: Receive) -> Receive:
    """A receive that gives the body read already, then the server's own messages (the
    disconnect an application may wait for)."""
    pending = [{"type": "http.request", "body": body, "more_body": False}]

    async def receive_replayed() -> Message:
        if pending:
            return pending.pop()
        return await receive()

    return receive_replayed


async def too_large(send: Send, api: bool, limit: int) -> None:
    await refuse(send, api, 413, "too_large", f"A request body holds at most {limit} bytes.")


async def refuse(send: Send, api: bool, status: int, code: str, message: str) -> None:
    if api:
        body = json.dumps({"code": code, "message": message}).encode()
        content_type = b"application/json"
    else:
        body = message.encode()
        content_type = b"text/plain; charset=utf-8"
    headers = [
        (b"content-type", content_type),
        (b"content-length", str(len(body)).encode()),
        # The rest of the body is never read, so the connection cannot carry another request.
        (b"connection", b"close"),
    ]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
